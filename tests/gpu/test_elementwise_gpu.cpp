// The element-wise engine on the GPU, layout class by layout class: contiguous (sizes around the
// vector width), strided, transposed, negative strides, broadcast, 0-d, empty, beyond 2^31
// elements; mixed dtypes, scalars on either side, out= of another dtype, where=, overlapping
// inputs and outputs (NumPy's results for x += x.T and a[1:] += a[:-1]), poisoned outputs; the
// copies and casts built on it; operators; and the errors. References are computed on the host
// from the same inputs (NumPy's values for every loop are checked in the conformance test).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

// 0, 1, 2, ... as float64, shaped.
ndarray iota(std::initializer_list<std::int64_t> shape, dtype type = float64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<double> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 0.0);
  return astype(asarray(v).reshape(shape), type);
}

std::vector<double> values(const ndarray& a) { return astype(ascontiguousarray(a), float64).to_vector<double>(); }

// C-order host copy of `a` (any layout) via the host: independent of the copy kernel.
std::vector<double> host_values(const ndarray& a) {
  const host_array h = a.get();
  return h.to_vector<double>();
}

ndarray poisoned(std::initializer_list<std::int64_t> shape, dtype type) {
  ndarray a = empty(shape, type);
  a.fill(type.kind() == 'f' || type.kind() == 'c' ? weak_scalar(std::nan("")) : weak_scalar(-7));
  return a;
}

TEST(ElementwiseGpu, ContiguousSizesAroundTheVectorWidth) {
  CUPP_REQUIRE_GPU();
  for (std::int64_t n : {0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 255, 256, 257, 1023, 1025, 4095, 4097, 65537}) {
    for (dtype t : {float16, float32, float64, int8, complex64}) {
      const ndarray a = astype(iota({n}), t), b = astype(iota({n}), t);
      const ndarray c = add(a, b);
      ASSERT_EQ(c.dtype(), t);
      ASSERT_EQ(c.size(), n);
      // NumPy's sums: int8 wraps; float16 rounds i, then the sum (inf past float16's range).
      const auto want = test::tabulate(n, [t](std::int64_t i) {
        if (t == int8) return static_cast<double>(static_cast<std::int8_t>(static_cast<std::int8_t>(i) * 2));
        if (t == float16)
          return static_cast<double>(float16_t(static_cast<double>(float16_t(static_cast<double>(i))) * 2.0));
        return 2.0 * static_cast<double>(i);
      });
      CUPP_ASSERT_ARRAY_EQUAL(host_values(astype(c, float64)), want,
                              {.err_msg = std::string(t.name()) + " n=" + std::to_string(n)});
    }
  }
}

TEST(ElementwiseGpu, MisalignedViewsFallBackToNarrowerVectors) {
  CUPP_REQUIRE_GPU();
  const ndarray a = iota({1001}, float32);
  const ndarray x = a(slice(1, std::nullopt)), y = a(slice(std::nullopt, -1));  // 4-byte offset
  CUPP_ASSERT_ARRAY_EQUAL(values(add(x, y)), test::tabulate(1000, [](auto i) { return 2.0 * i + 1.0; }));
}

TEST(ElementwiseGpu, StridedTransposedNegativeAndBroadcast) {
  CUPP_REQUIRE_GPU();
  const ndarray a = iota({6, 8}), b = iota({8, 6});
  const std::vector<double> av = host_values(a), bv = host_values(b);
  // Transposed operand.
  CUPP_ASSERT_ARRAY_EQUAL(values(add(a, b.T())), test::tabulate(6, 8, [&](auto i, auto j) { return av[i * 8 + j] + bv[j * 6 + i]; }));
  // Steps and negative strides.
  const ndarray s = subtract(a(slice(std::nullopt, std::nullopt, 2), slice(std::nullopt, std::nullopt, -3)), 1.0);
  const std::vector<double> sv = values(s);
  ASSERT_EQ(s.shape()[0], 3);
  ASSERT_EQ(s.shape()[1], 3);
  CUPP_ASSERT_ARRAY_EQUAL(sv, test::tabulate(3, 3, [&](auto i, auto j) { return av[(2 * i) * 8 + (7 - 3 * j)] - 1.0; }));
  // Both reversed: the planner flips the axis.
  const ndarray r = a.reshape({48})(slice(std::nullopt, std::nullopt, -1));
  CUPP_ASSERT_ARRAY_EQUAL(values(multiply(r, r)), test::tabulate(48, [](auto i) { return (47.0 - i) * (47.0 - i); }));
  // Broadcast row and column.
  const ndarray row = iota({8}), col = iota({6, 1});
  CUPP_ASSERT_ARRAY_EQUAL(values(add(a, row)), test::tabulate(6, 8, [&](auto i, auto j) { return av[i * 8 + j] + j; }));
  CUPP_ASSERT_ARRAY_EQUAL(values(add(a, col)), test::tabulate(6, 8, [&](auto i, auto j) { return av[i * 8 + j] + i; }));
  // Outer-product broadcast of a row and a column.
  const ndarray o = multiply(col, row);
  ASSERT_EQ(o.shape()[0], 6);
  ASSERT_EQ(o.shape()[1], 8);
  CUPP_ASSERT_ARRAY_EQUAL(values(o), test::tabulate(6, 8, [](auto i, auto j) { return double(i * j); }));
  // A 3-D strided view against a 3-D transposed view.
  const ndarray c = iota({4, 5, 6});
  const ndarray v = add(c(slice(), slice(1, 4), slice(std::nullopt, std::nullopt, 2)),
                        c.transpose({2, 1, 0})(slice(0, 3), slice(1, 4), slice(0, 4)).transpose({2, 1, 0}));
  ASSERT_EQ(v.shape()[0], 4);
  const std::vector<double> cv = host_values(c);
  // v[i, j, k] = c[i, j + 1, 2k] + c[i, j + 1, k], as a (4, 9) table of i and (j, k).
  CUPP_ASSERT_ARRAY_EQUAL(values(v), test::tabulate(4, 9, [&](auto i, auto jk) {
    const auto j = jk / 3, k = jk % 3;
    return cv[i * 30 + (j + 1) * 6 + 2 * k] + cv[i * 30 + (j + 1) * 6 + k];
  }));
}

TEST(ElementwiseGpu, TiledTransposeAndVectorRows) {
  CUPP_REQUIRE_GPU();
  // Transposed inputs through the tiled class, sizes that are not multiples of the 32x32 tile,
  // with a cast (int16 transposed into a float32 loop) and the transposed operand first.
  for (auto [r, c] : {std::pair<std::int64_t, std::int64_t>{100, 70}, {33, 1000}, {1, 64}, {257, 31}}) {
    const ndarray a = astype(iota({r * c}).reshape({r, c}), float32);
    const ndarray b = astype(iota({c * r}).reshape({c, r}), int16);
    const std::vector<double> av = host_values(astype(a, float64)), bv = host_values(astype(b, float64));
    const ndarray s = add(b.T(), a);
    ASSERT_EQ(s.dtype(), float32);
    CUPP_ASSERT_ARRAY_EQUAL(values(s), test::tabulate(r, c, [&](auto i, auto j) {
      return static_cast<double>(static_cast<float>(av[static_cast<std::size_t>(i * c + j)] +
                                                    bv[static_cast<std::size_t>(j * r + i)]));
    }), {.err_msg = std::to_string(r) + "x" + std::to_string(c)});
  }
  // Rows with vector steps: a row broadcast over a strided (sliced) matrix, inner extents that
  // the vector width divides and ones it does not.
  for (std::int64_t cols : {8, 12, 7, 64}) {
    const ndarray m = iota({10, 2 * cols}, float32)(slice(), slice(0, cols));  // rows 2*cols apart
    const ndarray row = iota({cols}, float32);
    const std::vector<double> mv = host_values(astype(m.copy(), float64));
    CUPP_ASSERT_ARRAY_EQUAL(values(add(m, row)), test::tabulate(10, cols, [&](auto i, auto j) {
      return mv[static_cast<std::size_t>(i * cols + j)] + static_cast<double>(j);
    }), {.err_msg = "cols " + std::to_string(cols)});
  }
}

TEST(ElementwiseGpu, ZeroDimensionalAndEmpty) {
  CUPP_REQUIRE_GPU();
  const ndarray z = scalar(2.5, float32);
  ASSERT_EQ(z.ndim(), 0);
  const ndarray r = add(z, iota({3}, float32));
  EXPECT_EQ(r.dtype(), float32);
  EXPECT_EQ(values(r), (std::vector<double>{2.5, 3.5, 4.5}));
  const ndarray zz = add(z, z);
  EXPECT_EQ(zz.ndim(), 0);
  EXPECT_EQ(zz.item<float>(), 5.0f);
  const ndarray e = add(empty({0, 3}, float32), iota({3}, float32));
  EXPECT_EQ(e.shape()[0], 0);
  EXPECT_EQ(e.shape()[1], 3);
  const ndarray s = add(1, 2);  // two weak scalars: int64 0-d
  EXPECT_EQ(s.dtype(), int64);
  EXPECT_EQ(s.item<std::int64_t>(), 3);
}

TEST(ElementwiseGpu, BeyondTwoToThe31Elements) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 31) + 7;
  ndarray a = empty({n}, int8), b = empty({n}, int8);
  a.fill(1);
  b(slice(std::nullopt, std::nullopt, 2)) = weak_scalar(2);  // strided fill
  b(slice(1, std::nullopt, 2)) = weak_scalar(5);
  const ndarray c = add(a, b);
  for (std::int64_t i : {std::int64_t(0), std::int64_t(1), (std::int64_t(1) << 31) - 1, std::int64_t(1) << 31, n - 2,
                         n - 1}) {
    ASSERT_EQ(c(i).item<std::int8_t>(), i % 2 ? 6 : 3) << i;
  }
  // A strided view whose byte offsets pass 2^31: 64-bit indexing.
  const ndarray every_third = add(a(slice(std::nullopt, std::nullopt, 3)), 1);
  EXPECT_EQ(every_third(-1).item<std::int8_t>(), 2);
}

TEST(ElementwiseGpu, MixedDtypesScalarsAndNep50) {
  CUPP_REQUIRE_GPU();
  const ndarray i32 = iota({5}, int32), f32 = iota({5}, float32), u8 = iota({5}, uint8), i8 = iota({5}, int8);
  const ndarray m = add(i32, f32);
  EXPECT_EQ(m.dtype(), float64);
  EXPECT_EQ(values(m), (std::vector<double>{0, 2, 4, 6, 8}));
  EXPECT_EQ(add(u8, i8).dtype(), int16);
  EXPECT_EQ(add(u8, 3).dtype(), uint8);
  EXPECT_EQ(add(i8, 1.5).dtype(), float64);
  EXPECT_EQ(add(f32, 1.5).dtype(), float32);
  EXPECT_EQ(add(i8, std::complex<double>(0, 1)).dtype(), complex128);
  EXPECT_EQ(values(subtract(10, i8)), (std::vector<double>{10, 9, 8, 7, 6}));  // scalar first
  EXPECT_EQ(values(subtract(i8, 10)), (std::vector<double>{-10, -9, -8, -7, -6}));
  EXPECT_EQ(test::error_of<OverflowError>([&] { add(u8, 300); }), "Python integer 300 out of bounds for uint8");
  EXPECT_EQ(test::error_of<OverflowError>([&] { add(u8, -1); }), "Python integer -1 out of bounds for uint8");
  EXPECT_EQ(values(divide(iota({4}, int8), 2)), (std::vector<double>{0, 0.5, 1, 1.5}));
  EXPECT_EQ(divide(iota({4}, int8), 2).dtype(), float64);
  EXPECT_EQ(sin(iota({3}, int8)).dtype(), float16);
  EXPECT_EQ(sin(iota({3}, int16)).dtype(), float32);
  // A strong scalar promotes like an array.
  EXPECT_EQ(add(u8, scalar(3, int64)).dtype(), int64);
}

TEST(ElementwiseGpu, OutDtypeWhereAndCasting) {
  CUPP_REQUIRE_GPU();
  const ndarray a = iota({6}, int32), b = iota({6}, int32);
  ndarray out = poisoned({6}, float64);
  add(a, b, {.out = out});
  EXPECT_EQ(values(out), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  // float64 result into int32: same_kind forbids, unsafe allows.
  const ndarray f = iota({6});
  ndarray i = poisoned({6}, int32);
  EXPECT_EQ(test::error_of<TypeError>([&] { add(f, f, {.out = i}); }),
            "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with casting rule 'same_kind'");
  add(f, 0.5, {.out = i, .casting = casting::unsafe});
  EXPECT_EQ(values(i), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  // casting='no' on inputs.
  EXPECT_EQ(test::error_of<TypeError>([&] { add(iota({2}, int8), iota({2}, int16), {.casting = casting::no}); }),
            "Cannot cast ufunc 'add' input 0 from dtype('int8') to dtype('int16') with casting rule 'no'");
  // dtype= picks the loop.
  const ndarray d = add(a, b, {.dtype = float32});
  EXPECT_EQ(d.dtype(), float32);
  // where=: unselected elements keep their values.
  ndarray w = poisoned({6}, float64);
  const ndarray mask = asarray(std::vector<bool>{true, false, true, false, false, true});
  add(f, 100.0, {.out = w, .where = mask});
  const std::vector<double> wv = values(w);
  EXPECT_EQ(wv[0], 100.0);
  EXPECT_TRUE(std::isnan(wv[1]));
  EXPECT_EQ(wv[2], 102.0);
  EXPECT_TRUE(std::isnan(wv[3]));
  EXPECT_TRUE(std::isnan(wv[4]));
  EXPECT_EQ(wv[5], 105.0);
  // A broadcast mask on a 2-D call, contiguous inputs.
  ndarray w2 = zeros({3, 2}, float64);
  add(iota({3, 2}), 1.0, {.out = w2, .where = asarray(std::vector<bool>{false, true})});
  EXPECT_EQ(values(w2), (std::vector<double>{0, 2, 0, 4, 0, 6}));
  // Outputs broadcast the inputs: out= decides the shape.
  ndarray big = zeros({2, 3}, float64);
  add(1.0, iota({3}), {.out = big});
  EXPECT_EQ(values(big), (std::vector<double>{1, 2, 3, 1, 2, 3}));
}

TEST(ElementwiseGpu, OverlapGivesNumPysResults) {
  CUPP_REQUIRE_GPU();
  // x += x.T
  ndarray x = iota({64, 64});
  const std::vector<double> before = host_values(x);
  x += x.T();
  CUPP_ASSERT_ARRAY_EQUAL(host_values(x), test::tabulate(64, 64, [&](auto i, auto j) { return before[i * 64 + j] + before[j * 64 + i]; }));
  // a[1:] += a[:-1]
  ndarray a = iota({1000});
  ndarray tail = a(slice(1, std::nullopt));
  tail += a(slice(std::nullopt, -1));
  // a[0] keeps 0; a[i] = i + (i - 1), each read before any write (NumPy's result)
  CUPP_ASSERT_ARRAY_EQUAL(host_values(a), test::tabulate(1000, [](auto i) { return i == 0 ? 0.0 : 2.0 * i - 1; }));
  // In place on the same elements needs no copy and is right.
  ndarray s = iota({100});
  s *= s;
  EXPECT_EQ(host_values(s)[99], 99.0 * 99.0);
  // assignment with overlap: a[1:] = a[:-1]
  ndarray c = iota({10});
  c(slice(1, std::nullopt)) = c(slice(std::nullopt, -1));
  EXPECT_EQ(host_values(c), (std::vector<double>{0, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(ElementwiseGpu, OrderKKeepsTheInputsLayout) {
  CUPP_REQUIRE_GPU();
  const ndarray f = asfortranarray(iota({30, 20}));
  ASSERT_TRUE(f.is_f_contiguous());
  const ndarray r = add(f, f);
  EXPECT_TRUE(r.is_f_contiguous());
  EXPECT_FALSE(r.is_c_contiguous());
  EXPECT_EQ(values(r), values(multiply(iota({30, 20}), 2)));
  const ndarray t = sin(iota({4, 5}).T());
  EXPECT_TRUE(t.is_f_contiguous());
}

TEST(ElementwiseGpu, CopiesAndCasts) {
  CUPP_REQUIRE_GPU();
  const ndarray a = iota({3, 4});
  const ndarray c = copy(a.T(), order::C);
  EXPECT_TRUE(c.is_c_contiguous());
  const ndarray fo = copy(a, order::F);
  EXPECT_TRUE(fo.is_f_contiguous());
  EXPECT_EQ(values(fo), values(a));
  EXPECT_EQ(host_values(a.T().copy()), host_values(c));
  EXPECT_EQ(ascontiguousarray(a).data(), a.data());  // already contiguous: no copy
  EXPECT_EQ(ascontiguousarray(scalar(1.0, float64)).ndim(), 1);
  // astype values and checks.
  const ndarray h = astype(asarray(std::vector<float>{1.0f, 65504.0f, 1e6f, -2.5f}), float16);
  const std::vector<double> hv = host_values(astype(h, float64));
  EXPECT_EQ(hv[0], 1.0);
  EXPECT_EQ(hv[1], 65504.0);
  EXPECT_TRUE(std::isinf(hv[2]));
  EXPECT_EQ(hv[3], -2.5);
  EXPECT_EQ(test::error_of<TypeError>([&] { astype(a, int32, casting::safe); }),
            "Cannot cast array data from dtype('float64') to dtype('int32') according to the rule 'safe'");
  EXPECT_EQ(astype(a, float64, casting::unsafe, false).data(), a.data());
  const ndarray negative_to_unsigned = astype(asarray(std::vector<double>{-1.0, 3.7, 255.0}), uint8);
  EXPECT_EQ(negative_to_unsigned.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{255, 3, 255}));
  const ndarray cplx = astype(asarray(std::vector<std::complex<double>>{{1.5, 2.0}, {0.0, 0.0}}), bool_);
  EXPECT_EQ(values(cplx), (std::vector<double>{1, 0}));
  EXPECT_EQ(values(astype(asarray(std::vector<std::complex<double>>{{1.5, 2.0}}), float32)), (std::vector<double>{1.5}));
  // float -> int of NaN, infinities and out-of-range values: NumPy's x86 results (the minimum of
  // the 32- or 64-bit intermediate, then truncation), in the vector body and the tail alike.
  const ndarray special = asarray(std::vector<double>{std::nan(""), INFINITY, -INFINITY, 3e9, -1.0});
  EXPECT_EQ(astype(special, int32).to_vector<std::int32_t>(),
            (std::vector<std::int32_t>{INT32_MIN, INT32_MIN, INT32_MIN, INT32_MIN, -1}));
  EXPECT_EQ(astype(special, int64).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{INT64_MIN, INT64_MIN, INT64_MIN, 3000000000, -1}));
  EXPECT_EQ(astype(special, int8).to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 0, 0, 0, -1}));
  EXPECT_EQ(astype(special, uint32).to_vector<std::uint32_t>(),
            (std::vector<std::uint32_t>{0, 0, 0, 3000000000u, 4294967295u}));
  // fill on a strided view, copyto with where and broadcasting, assignment with casting.
  ndarray z = zeros({4, 4}, float32);
  z(slice(), 1).fill(3.0);
  copyto(z, iota({4}, float32), casting::same_kind, asarray(std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(values(z), (std::vector<double>{0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3, 0, 3}));
  z(slice(0, 2)) = iota({4}, int16);
  EXPECT_EQ(values(z(0)), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(test::error_of<TypeError>([&] { z(0) = iota({4}, complex64); }).empty(), false);
  EXPECT_EQ(test::error_of<ValueError>([&] { z(0) = iota({3}, float32); }),
            "could not broadcast input array from shape (3,) into shape (4,)");
}

TEST(ElementwiseGpu, OperatorsAndOuter) {
  CUPP_REQUIRE_GPU();
  const ndarray a = iota({4}, int32), b = iota({4}, int32);
  EXPECT_EQ(values(a + b), (std::vector<double>{0, 2, 4, 6}));
  EXPECT_EQ(values(a - 1), (std::vector<double>{-1, 0, 1, 2}));
  EXPECT_EQ(values(1 - a), (std::vector<double>{1, 0, -1, -2}));
  EXPECT_EQ(values(a * 2), (std::vector<double>{0, 2, 4, 6}));
  EXPECT_EQ(values(a / 2), (std::vector<double>{0, 0.5, 1, 1.5}));
  EXPECT_EQ(values(-a), (std::vector<double>{0, -1, -2, -3}));
  EXPECT_EQ(values(~a), (std::vector<double>{-1, -2, -3, -4}));
  EXPECT_EQ(values(a & 1), (std::vector<double>{0, 1, 0, 1}));
  EXPECT_EQ(values(a | 4), (std::vector<double>{4, 5, 6, 7}));
  EXPECT_EQ(values(a ^ 1), (std::vector<double>{1, 0, 3, 2}));
  EXPECT_EQ(values(a == 2), (std::vector<double>{0, 0, 1, 0}));
  EXPECT_EQ(values(a != 2), (std::vector<double>{1, 1, 0, 1}));
  EXPECT_EQ(values(a < 2), (std::vector<double>{1, 1, 0, 0}));
  EXPECT_EQ(values(a >= 2), (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ((a < b).dtype(), bool_);
  EXPECT_EQ(values(a % 3), (std::vector<double>{0, 1, 2, 0}));
  EXPECT_EQ(values(-a % 3), (std::vector<double>{0, 2, 1, 0}));  // Python's sign rule
  EXPECT_EQ(values(a << 2), (std::vector<double>{0, 4, 8, 12}));
  EXPECT_EQ(values(a >> 1), (std::vector<double>{0, 0, 1, 1}));
  EXPECT_EQ(values(left_shift(a, 30)), (std::vector<double>{0, 1073741824, -2147483648.0, -1073741824}));
  EXPECT_EQ(values(left_shift(a, 32)), (std::vector<double>{0, 0, 0, 0}));
  EXPECT_EQ(values(right_shift(negative(a), 40)), (std::vector<double>{0, -1, -1, -1}));
  ndarray c = iota({4}, float64);
  c += 1;
  c *= c;
  c -= 1;
  c /= 2;
  EXPECT_EQ(values(c), (std::vector<double>{0, 1.5, 4, 7.5}));
  ndarray i = iota({4}, int32);
  EXPECT_EQ(test::error_of<TypeError>([&] { i /= 2; }),
            "Cannot cast ufunc 'divide' output from dtype('float64') to dtype('int32') with casting rule 'same_kind'");
  const ndarray o = add.outer(iota({3}), iota({4}));
  ASSERT_EQ(o.ndim(), 2);
  EXPECT_EQ(o.shape()[1], 4);
  EXPECT_EQ(values(o)[11], 5.0);
  EXPECT_EQ(ufunc::get("true_divide"), divide);
  EXPECT_EQ(ufunc::get("bitwise_not").name(), "invert");
}

TEST(ElementwiseGpu, ErrorsAreNumPys) {
  CUPP_REQUIRE_GPU();
  EXPECT_EQ(test::error_of<ValueError>([] { add(iota({2, 3}), iota({4})); }),
            "operands could not be broadcast together with shapes (2,3) (4,) ");
  EXPECT_EQ(test::error_of<TypeError>([] { bitwise_and(iota({2}), iota({2})); }),
            "ufunc 'bitwise_and' did not contain a loop with signature matching types (dtype('float64'), "
            "dtype('float64')) -> None");
  EXPECT_NE(test::error_of<TypeError>([] { subtract(iota({2}, bool_), true); }).find("numpy boolean subtract"),
            std::string::npos);
  ndarray small = zeros({3});
  EXPECT_EQ(test::error_of<ValueError>([&] { add(iota({2, 3}), 1.0, {.out = small}); }),
            "non-broadcastable output operand with shape (3,) doesn't match the broadcast shape (2,3)");
  EXPECT_EQ(test::error_of<ValueError>([] { ufunc::get("frobnicate"); }), "cupp has no ufunc 'frobnicate'");
  const ndarray ro = broadcast_to(iota({3}), {2, 3});
  EXPECT_EQ(test::error_of<ValueError>([&] { add(ro, 1.0, {.out = ro}); }), "assignment destination is read-only");
  // After every error the device still works.
  EXPECT_EQ(values(add(iota({2}), 1.0)), (std::vector<double>{1, 2}));
}

}  // namespace
}  // namespace cupp
