// Advanced indexing without a GPU: the planner (array/advanced_index.hpp) against the shapes and
// IndexError messages NumPy gives for mixed index items (each expectation below is NumPy's
// result, written next to the NumPy expression), the validation a(...) and ufunc.at do before
// any device work, and the forms of ufunc.at's atomic programs (RoutinePrograms.EveryInstantiationCompiles
// compiles them).
#include <gtest/gtest.h>

#include <complex>
#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "array/advanced_index.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {
namespace {

using detail::index_term;
using test::error_of;
using shape_v = std::vector<std::int64_t>;

index_term I(std::int64_t v) { return {.kind = index_term::integer, .value = v}; }
index_term S(slice s = slice()) { return {.kind = index_term::range, .range_value = s}; }
index_term N() { return {.kind = index_term::new_axis}; }
index_term E() { return {.kind = index_term::dots}; }
index_term A(shape_v shape) { return {.kind = index_term::int_array, .shape = std::move(shape)}; }
index_term M(shape_v shape, std::int64_t count) {
  return {.kind = index_term::bool_array, .shape = std::move(shape), .count = count};
}
index_term B(bool v) { return {.kind = index_term::bool_scalar, .value = v ? 1 : 0}; }

shape_v result(shape_v shape, std::vector<index_term> terms) {
  return detail::plan_index(shape, terms).result_shape;
}
std::string index_error(shape_v shape, std::vector<index_term> terms) {
  return error_of<IndexError>([&] { detail::plan_index(shape, terms); });
}

TEST(AdvancedIndexHost, BasicItemsStayBasic) {
  const detail::index_plan p = detail::plan_index(shape_v{3, 4}, std::vector<index_term>{I(1), S(slice(0, 4, 2))});
  EXPECT_FALSE(p.advanced);
  EXPECT_EQ(p.result_shape, (shape_v{2}));
}

TEST(AdvancedIndexHost, AdjacentAdvancedIndicesStayInPlace) {
  EXPECT_EQ(result({3, 4}, {A({5})}), (shape_v{5, 4}));                       // a[[..5]]
  EXPECT_EQ(result({3, 4}, {S(), A({2, 3})}), (shape_v{3, 2, 3}));            // a[:, idx23]
  EXPECT_EQ(result({3, 4, 5}, {S(), A({2}), A({2})}), (shape_v{3, 2}));       // b[:, [0,1], [0,1]]
  EXPECT_EQ(result({2, 3, 4, 5}, {S(), A({2}), A({2, 1})}), (shape_v{2, 2, 2, 5}));
  EXPECT_EQ(result({3, 4}, {A({1}), E(), A({1})}), (shape_v{1}));             // a[[0], ..., [0]]: empty ellipsis
  EXPECT_EQ(result({3, 4, 5}, {S(), I(0), A({2})}), (shape_v{3, 2}));         // b[:, 0, [1,2]]
  EXPECT_EQ(result({3, 4, 5}, {S(), S(), I(0)}), (shape_v{3, 4}));            // basic
}

TEST(AdvancedIndexHost, SeparatedAdvancedIndicesGoFirst) {
  EXPECT_EQ(result({2, 3, 4, 5}, {S(), A({2}), N(), A({2})}), (shape_v{2, 2, 1, 5}));  // b[:, [0,1], None, [0,1]]
  EXPECT_EQ(result({2, 3, 4, 5}, {S(), A({2}), E(), A({2})}), (shape_v{2, 2, 4}));     // b[:, [0,1], ..., [0,1]]
  EXPECT_EQ(result({2, 3, 4, 5}, {A({1}), E(), A({1}), S()}), (shape_v{1, 3, 5}));     // b[[0], ..., [1], :]
  EXPECT_EQ(result({2, 3, 4, 5}, {I(0), S(), A({2})}), (shape_v{2, 3, 5}));            // b[0, :, [1,2]]
  EXPECT_EQ(result({3, 4}, {N(), A({1}), N(), A({1})}), (shape_v{1, 1, 1}));           // a[None, [0], None, [1]]
  EXPECT_EQ(result({3, 4}, {A({1}), N(), A({1})}), (shape_v{1, 1}));                   // a[[0], None, [1]]
  EXPECT_EQ(result({3, 4, 5}, {B(true), S(), A({2})}), (shape_v{2, 3, 5}));            // b[True, :, [0,1]]
}

TEST(AdvancedIndexHost, MasksConsumeTheirDims) {
  EXPECT_EQ(result({3, 4}, {M({3, 4}, 5)}), (shape_v{5}));
  EXPECT_EQ(result({3, 4, 5}, {M({3, 4}, 7)}), (shape_v{7, 5}));
  EXPECT_EQ(result({3, 4, 5}, {S(), M({4}, 2)}), (shape_v{3, 2, 5}));
  EXPECT_EQ(result({3, 4, 5}, {M({3}, 2), A({2})}), (shape_v{2, 5}));  // b[mask3, [1,2]]
  EXPECT_EQ(result({3, 4}, {M({3, 4}, 0)}), (shape_v{0}));
  const detail::index_plan p = detail::plan_index(shape_v{3, 4, 5}, std::vector<index_term>{S(), M({4, 5}, 6)});
  ASSERT_EQ(p.axes.size(), 2u);
  EXPECT_EQ(p.axes[0].dim, 0);
  EXPECT_EQ(p.axes[1].dim, 1);
  EXPECT_EQ(p.axes[1].view_axis, 2);
  EXPECT_EQ(p.axes[1].array_axis, 2);
  EXPECT_EQ(p.result_shape, (shape_v{3, 6}));
}

TEST(AdvancedIndexHost, BoolScalars) {
  EXPECT_EQ(result({3, 4}, {B(true)}), (shape_v{1, 3, 4}));
  EXPECT_EQ(result({3, 4}, {B(false)}), (shape_v{0, 3, 4}));
  EXPECT_EQ(result({3, 4}, {B(true), A({2})}), (shape_v{2, 4}));
  EXPECT_EQ(result({3, 4}, {A({2}), B(true)}), (shape_v{2, 4}));
  EXPECT_EQ(result({3, 4}, {S(), B(true), A({2})}), (shape_v{3, 2}));
  EXPECT_EQ(result({}, {B(true)}), (shape_v{1}));  // np.zeros(())[True]
  EXPECT_EQ(result({3, 4}, {A({1, 1}), S(), N()}), (shape_v{1, 1, 4, 1}));
  // With only bool scalars as arrays, integers are advanced too (NumPy).
  EXPECT_EQ(result({2, 3}, {B(true), I(0)}), (shape_v{1, 3}));           // a[True, 0]
  EXPECT_EQ(result({2, 3}, {I(0), B(true)}), (shape_v{1, 3}));           // a[0, True]
  EXPECT_EQ(result({2, 3}, {S(), B(true), I(1)}), (shape_v{2, 1}));      // a[:, True, 1]
  EXPECT_EQ(result({2, 3}, {I(0), N(), A({2})}), (shape_v{2, 1}));       // a[0, None, [1, 2]]
  EXPECT_EQ(result({2, 3}, {A({1}), B(true), N()}), (shape_v{1, 1, 3}));  // a[[1], True, None]
  EXPECT_EQ(result({2, 3, 4}, {I(0), S(), B(true)}), (shape_v{1, 3, 4}));     // b[0, :, True]
  EXPECT_EQ(result({2, 3, 4}, {B(true), S(), I(0)}), (shape_v{1, 2, 4}));     // b[True, :, 0]
  EXPECT_EQ(result({2, 3, 4}, {S(), A({2}), B(true)}), (shape_v{2, 2, 4}));   // b[:, [0, 1], True]
  EXPECT_EQ(result({2, 3, 4}, {E(), B(true)}), (shape_v{2, 3, 4, 1}));        // b[..., True]
}

TEST(AdvancedIndexHost, NumPysErrors) {
  EXPECT_EQ(index_error({3, 4}, {A({1}), A({1}), A({1})}),
            "too many indices for array: array is 2-dimensional, but 3 were indexed");
  EXPECT_EQ(index_error({3, 4}, {A({2}), M({1, 4}, 1)}),
            "too many indices for array: array is 2-dimensional, but 3 were indexed");
  EXPECT_EQ(index_error({}, {A({1})}), "too many indices for array: array is 0-dimensional, but 1 were indexed");
  EXPECT_EQ(index_error({3, 4}, {E(), A({1}), E()}), "an index can only have a single ellipsis ('...')");
  EXPECT_EQ(index_error({3, 4}, {M({4}, 1)}),
            "boolean index did not match indexed array along axis 0; size of axis is 3 but size of corresponding "
            "boolean axis is 4");
  EXPECT_EQ(index_error({3, 4}, {S(), M({2}, 1)}),
            "boolean index did not match indexed array along axis 1; size of axis is 4 but size of corresponding "
            "boolean axis is 2");
  EXPECT_EQ(index_error({3, 4}, {A({1}), I(7)}), "index 7 is out of bounds for axis 1 with size 4");
  EXPECT_EQ(index_error({3, 4}, {I(-4), A({1})}), "index -4 is out of bounds for axis 0 with size 3");
  EXPECT_EQ(index_error({3, 4}, {A({2}), A({3})}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) ");
  EXPECT_EQ(index_error({3, 4, 5}, {A({2}), I(0), A({3})}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) ");
  EXPECT_EQ(index_error({3, 4, 5}, {A({2}), M({4, 5}, 8)}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (8,) (8,) ");
  EXPECT_EQ(index_error({3, 4, 5}, {A({2}), B(true), A({3})}),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (1,) (3,) ");
}

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = int64) : fake_array(std::move(shape), type) {}
};

TEST(AdvancedIndexHost, OperatorCallPicksTheForm) {
  fake a({3, 4}), idx({2}), f({2}, float64), m({4}, bool_);
  // Only basic items: a view (an ndarray); an ndarray or bool item: an index_ref.
  static_assert(std::is_same_v<decltype(a.a(1, slice())), ndarray>);
  static_assert(std::is_same_v<decltype(a.a(idx.a, slice())), index_ref>);
  static_assert(std::is_same_v<decltype(a.a(true)), index_ref>);
  // Validation before any device work.
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a.a(f.a); }),
            "arrays used as indices must be of integer (or boolean) type");
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a.a(m.a); }),
            "boolean index did not match indexed array along axis 0; size of axis is 3 but size of corresponding "
            "boolean axis is 4");
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a.a(idx.a, 9); }), "index 9 is out of bounds for axis 1 with size 4");
  EXPECT_EQ(error_of<ValueError>([&] { broadcast_to(a.a, {3, 4})(idx.a) = 1; }), "assignment destination is read-only");
  EXPECT_THROW(a.a(f.a) = 1, IndexError);
  // Basic items through getitem: the same view as a(...).
  const array_index_item items[] = {std::int64_t{1}, slice(1, 3)};
  const ndarray v = getitem(a.a, items);
  EXPECT_EQ(shape_v(v.shape().begin(), v.shape().end()), (shape_v{2}));
  EXPECT_EQ(v.data(), a.a(1, slice(1, 3)).data());
}

// a(idx) read straight into ufuncs, operators and routines: well-formed, no ambiguity with the
// ndarray and operand overloads, the same result types as with an ndarray.
template <class X, class Y>
concept binary_ops = requires(X x, Y y) {
  { x + y } -> std::same_as<ndarray>;
  { x - y } -> std::same_as<ndarray>;
  { x * y } -> std::same_as<ndarray>;
  { x / y } -> std::same_as<ndarray>;
  { x % y } -> std::same_as<ndarray>;
  { x << y } -> std::same_as<ndarray>;
  { x >> y } -> std::same_as<ndarray>;
  { x & y } -> std::same_as<ndarray>;
  { x | y } -> std::same_as<ndarray>;
  { x ^ y } -> std::same_as<ndarray>;
  { x == y } -> std::same_as<ndarray>;
  { x != y } -> std::same_as<ndarray>;
  { x < y } -> std::same_as<ndarray>;
  { x <= y } -> std::same_as<ndarray>;
  { x > y } -> std::same_as<ndarray>;
  { x >= y } -> std::same_as<ndarray>;
  { add(x, y) } -> std::same_as<ndarray>;
  { arctan2(x, y, {.dtype = float64}) } -> std::same_as<ndarray>;
};
static_assert(binary_ops<index_ref, ndarray>);
static_assert(binary_ops<ndarray, index_ref>);
static_assert(binary_ops<index_ref, index_ref>);
static_assert(binary_ops<index_ref, int>);
static_assert(binary_ops<double, index_ref>);
static_assert(binary_ops<index_ref, operand>);
static_assert(binary_ops<operand, index_ref>);
static_assert(binary_ops<index_ref, std::complex<float>>);
// The existing forms are unchanged.
static_assert(binary_ops<ndarray, ndarray>);
static_assert(binary_ops<ndarray, int>);
static_assert(binary_ops<operand, ndarray>);
static_assert(requires(index_ref r, ndarray b, operand o) {
  { sin(r) } -> std::same_as<ndarray>;
  { negative(r, {.out = b}) } -> std::same_as<ndarray>;
  { -r } -> std::same_as<ndarray>;
  { ~r } -> std::same_as<ndarray>;
  { add.outer(r, r) } -> std::same_as<ndarray>;
  { operand(r) } -> std::same_as<operand>;
  copyto(b, r);
  add.at(b, b, r);
  // Compound assignment writes through a temporary a(idx), as NumPy's a[idx] += b.
  { index_ref(r) += 1 } -> std::same_as<const index_ref&>;
  { index_ref(r) *= b } -> std::same_as<const index_ref&>;
  { index_ref(r) ^= r } -> std::same_as<const index_ref&>;
  { index_ref(r) -= o } -> std::same_as<const index_ref&>;
  // Assignment as before.
  index_ref(r) = b;
  index_ref(r) = 1.5;
  index_ref(r) = r;
  // An ndarray is still read into a compound assignment, an index_ref too.
  { b += r } -> std::same_as<ndarray&>;
});
// Compound assignment takes a temporary a(idx) only (as its operator= does): a named index_ref
// (an lvalue) has none.
template <class R>
concept compound_assignable = requires { std::declval<R>() += 1; };
static_assert(compound_assignable<index_ref>);
static_assert(!compound_assignable<index_ref&>);
static_assert(compound_assignable<ndarray&>);

TEST(AdvancedIndexHost, IndexRefReadByUfuncsAndOperators) {
  // Reading a(idx) gathers first: the index validation (before any device work) is what each
  // form raises.
  fake a({3, 4}), f({2}, float64), m({4}, bool_), out({2, 4}, float64);
  const std::string msg = "arrays used as indices must be of integer (or boolean) type";
  EXPECT_EQ(error_of<IndexError>([&] { sin(a.a(f.a)); }), msg);
  EXPECT_EQ(error_of<IndexError>([&] { add(a.a(f.a), 1.0, {.out = out.a}); }), msg);
  EXPECT_EQ(error_of<IndexError>([&] { (void)(a.a(f.a) + a.a); }), msg);
  EXPECT_EQ(error_of<IndexError>([&] { (void)(2 * a.a(f.a)); }), msg);
  EXPECT_EQ(error_of<IndexError>([&] { (void)(a.a < a.a(f.a)); }), msg);
  EXPECT_EQ(error_of<IndexError>([&] { a.a(f.a) += 1; }), msg);
  EXPECT_EQ(error_of<IndexError>([&] { copyto(out.a, a.a(f.a)); }), msg);
  EXPECT_THROW(sin(a.a(m.a)), IndexError);  // a mask of the wrong length
}

TEST(AdvancedIndexHost, UfuncAtValidation) {
  fake a({4}), idx({2});
  EXPECT_EQ(error_of<ValueError>([&] { add.at(a.a, idx.a); }), "second operand needed for ufunc");
  EXPECT_EQ(error_of<ValueError>([&] { negative.at(a.a, idx.a, 1); }), "second operand provided when ufunc is unary");
  EXPECT_THROW(add.at(broadcast_to(a.a, {4}), idx.a, 1), ValueError);
  EXPECT_THROW(divmod.at(a.a, idx.a, 1), ValueError);
}

TEST(AdvancedIndexHost, AtomicPrograms) {
  // Every (op, dtype) with an atomic form: native atomics (add on 32/64-bit ints and floats,
  // min/max and the bitwise ops on 32/64-bit ints, add/subtract on the complex parts), a
  // compare-and-swap loop on the element's word (multiply, float min/max, complex64 multiply), or
  // on the aligned 32-bit word holding a 1- or 2-byte element (int8/16, uint8/16, float16, bfloat16).
  const char* ops[] = {"add",  "subtract", "multiply",    "minimum",    "maximum",
                       "fmin", "fmax",     "bitwise_and", "bitwise_or", "bitwise_xor"};
  const dtype types[] = {int8,    uint8,    int16,   uint16,  int32,   uint32,    int64,
                         uint64,  float16,  bfloat16, float32, float64, complex64, complex128};
  std::size_t compiled = 0;
  for (const char* op : ops) {
    for (const dtype& t : types) {
      const std::string_view o = op;
      const bool bitwise = o.rfind("bitwise_", 0) == 0;
      const bool want = t.is_complex() ? (o == "add" || o == "subtract" || (o == "multiply" && t == complex64))
                                       : (!bitwise || t.is_integer());
      if (!want) {
        EXPECT_THROW(detail::ufunc_at_program(op, t), ValueError) << op << " " << t.name();
        continue;
      }
      const detail::routine_program p = detail::ufunc_at_program(op, t);
      EXPECT_EQ(p.kernels.size(), 1u) << op << " " << t.name();
      ++compiled;
    }
  }
  EXPECT_EQ(compiled, 7u * 12u + 3u * 8u + 5u);  // 7 ops on 12 real dtypes, bitwise on 8 ints, 5 complex forms
  // The forms: native where the hardware has them, else compare-and-swap.
  auto source = [](const char* op, const dtype& t) { return detail::ufunc_at_program(op, t).source; };
  EXPECT_NE(source("add", int64).find("#define CUPP_AT_NATIVE_ADD 1"), std::string::npos);
  EXPECT_NE(source("maximum", int32).find("#define CUPP_AT_ATOMIC atomicMax"), std::string::npos);
  EXPECT_NE(source("minimum", uint64).find("#define CUPP_AT_ATOMIC atomicMin"), std::string::npos);
  EXPECT_NE(source("bitwise_xor", int64).find("#define CUPP_AT_ATOMIC atomicXor"), std::string::npos);
  EXPECT_NE(source("add", complex128).find("#define CUPP_AT_COMPLEX_PARTS 1"), std::string::npos);
  EXPECT_NE(source("add", float16).find("#define CUPP_AT_CAS_SUBWORD 1"), std::string::npos);
  EXPECT_NE(source("add", int8).find("#define CUPP_AT_CAS_SUBWORD 1"), std::string::npos);
  EXPECT_NE(source("multiply", complex64).find("#define CUPP_AT_CAS_WORD 1"), std::string::npos);
  EXPECT_THROW(detail::ufunc_at_program("bitwise_and", float32), ValueError);
  EXPECT_THROW(detail::ufunc_at_program("add", bool_), ValueError);
  EXPECT_THROW(detail::ufunc_at_program("maximum", complex64), ValueError);
  EXPECT_THROW(detail::ufunc_at_program("multiply", complex128), ValueError);
  EXPECT_THROW(detail::ufunc_at_program("arctan2", float32), ValueError);
}

}  // namespace
}  // namespace cupp
