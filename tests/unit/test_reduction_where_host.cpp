// where=, initial= and ufunc.reduceat without a GPU: the argument checks that happen before any
// device work (NumPy's error classes and messages, checked against NumPy), and the where=/initial=
// reduction kernels and the reduceat kernel composed and compiled with NVRTC for sm_90 (every
// reducing op's dtypes, both layouts, with and without a mask, every map).
#include <gtest/gtest.h>

#include <string>
#include <utility>

#include "cupp/errors.hpp"
#include "cupp/ops.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp {
namespace {

using test::error_of;

struct fake : test::fake_array {
  fake(shape_t shape, dtype type = float64) : fake_array(std::move(shape), type) {}
};

TEST(ReductionWhereHost, MaskMustBeBool) {
  fake a({2, 3}), m({3}, int64);
  EXPECT_EQ(error_of<TypeError>([&] { sum(a.a, {.where = m.a}); }),
            "Cannot cast array data from dtype('int64') to dtype('bool') according to the rule 'safe'");
}

TEST(ReductionWhereHost, MaskMustBroadcastToTheInput) {
  fake a({2, 3}), m33({3, 3}, bool_), m2({2}, bool_), m123({1, 2, 3}, bool_);
  EXPECT_EQ(error_of<ValueError>([&] { sum(a.a, {.where = m33.a}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,3) (3,3) ");
  EXPECT_EQ(error_of<ValueError>([&] { sum(a.a, {.where = m2.a}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,3) (2,) ");
  EXPECT_EQ(error_of<ValueError>([&] { sum(a.a, {.axis = 0, .where = m123.a}); }),
            "input operand has more dimensions than allowed by the axis remapping");
}

TEST(ReductionWhereHost, OpWithoutIdentityNeedsInitial) {
  fake a({2, 3}), m({3}, bool_);
  EXPECT_EQ(error_of<ValueError>([&] { max(a.a, {.where = m.a}); }),
            "reduction operation 'maximum' does not have an identity, so to use a where mask one has to specify "
            "'initial'");
  EXPECT_EQ(error_of<ValueError>([&] { amin(a.a, {.axis = 1, .where = m.a}); }),
            "reduction operation 'minimum' does not have an identity, so to use a where mask one has to specify "
            "'initial'");
  EXPECT_EQ(error_of<ValueError>([&] { nanmax(a.a, {.where = m.a}); }),
            "reduction operation 'fmax' does not have an identity, so to use a where mask one has to specify 'initial'");
  EXPECT_EQ(error_of<ValueError>([&] { nanmin(a.a, {.where = m.a}); }),
            "reduction operation 'fmin' does not have an identity, so to use a where mask one has to specify 'initial'");
}

TEST(ReductionWhereHost, InitialIsPackedIntoTheResultDtype) {
  fake a({3}, uint8);  // sum of uint8 is uint64: a weak -1 does not fit (NumPy 2, NEP 50)
  EXPECT_EQ(error_of<OverflowError>([&] { sum(a.a, {.initial = -1}); }), "Python integer -1 out of bounds for uint64");
  fake b({3}, int8);
  EXPECT_EQ(error_of<OverflowError>([&] { max(b.a, {.initial = 300}); }), "Python integer 300 out of bounds for int8");
}

TEST(ReductionWhereHost, FunctionsWithoutTheKeywordsRefuseThem) {
  fake a({2, 3}), m({3}, bool_);
  EXPECT_EQ(error_of<TypeError>([&] { all(a.a, {.initial = 1}); }), "all() got an unexpected keyword argument 'initial'");
  EXPECT_EQ(error_of<TypeError>([&] { any(a.a, {.initial = 1}); }), "any() got an unexpected keyword argument 'initial'");
  EXPECT_EQ(error_of<TypeError>([&] { mean(a.a, {.initial = 1}); }), "mean() got an unexpected keyword argument 'initial'");
  EXPECT_EQ(error_of<TypeError>([&] { nanmean(a.a, {.initial = 1}); }),
            "nanmean() got an unexpected keyword argument 'initial'");
  EXPECT_EQ(error_of<TypeError>([&] { count_nonzero(a.a, {.where = m.a}); }),
            "count_nonzero() got an unexpected keyword argument 'where'");
  EXPECT_EQ(error_of<TypeError>([&] { count_nonzero(a.a, {.initial = 0}); }),
            "count_nonzero() got an unexpected keyword argument 'initial'");
  EXPECT_EQ(error_of<TypeError>([&] { ptp(a.a, {.where = m.a}); }), "ptp() got an unexpected keyword argument 'where'");
}

TEST(ReductionWhereHost, ReduceatArgumentChecks) {
  fake a({5}), a2({2, 3}), scalar0({}), i2({1, 2}, int64), i0({}, int64), f({2}), u({2}, uint64), i({2}, int64);
  EXPECT_EQ(error_of<ValueError>([&] { sin.reduceat(a.a, i.a); }), "reduceat only supported for binary functions");
  EXPECT_EQ(error_of<TypeError>([&] { add.reduceat(scalar0.a, i.a); }), "cannot reduceat on a scalar");
  EXPECT_EQ(error_of<AxisError>([&] { add.reduceat(a.a, i.a, {.axis = 1}); }),
            "axis 1 is out of bounds for array of dimension 1");
  EXPECT_EQ(error_of<AxisError>([&] { add.reduceat(a2.a, i.a, {.axis = -3}); }),
            "axis -3 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<ValueError>([&] { add.reduceat(a.a, i2.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { add.reduceat(a.a, i0.a); }), "object of too small depth for desired array");
  EXPECT_EQ(error_of<TypeError>([&] { add.reduceat(a.a, f.a); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  EXPECT_EQ(error_of<TypeError>([&] { add.reduceat(a.a, u.a); }),
            "Cannot cast array data from dtype('uint64') to dtype('int64') according to the rule 'safe'");
  // An op with no loop for the accumulator: TypeError as reduce's.
  EXPECT_EQ(error_of<TypeError>([&] { bitwise_and.reduceat(a.a, i.a); }),
            "ufunc 'bitwise_and' has no loop that can reduceat float64");
}

// ---- the kernels compile (NVRTC, sm_90, no GPU)

void compile(const detail::composed_program& p, const std::string& what) {
  const detail::nvrtc_output out =
      detail::nvrtc_compile({.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90});
  ASSERT_EQ(out.lowered_names.size(), p.kernels.size()) << what;
  for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty()) << what;
}

std::size_t reducing_loop(const op_spec& op, type_id acc) {
  for (std::size_t i = 0; i < op.loops.size(); ++i)
    if (op.loops[i].in[0] == acc && op.loops[i].in[1] == acc && op.loops[i].out[0] == acc) return i;
  ADD_FAILURE() << op.name << " has no loop for " << dtype(acc).name();
  return 0;
}

// Every reducing loop of add, maximum, fmin and logical_or (the other ops instantiate the same
// templates), rows and columns, with and without a mask.
TEST(ReductionWhereKernels, SelectiveProgramsCompileForEveryReducingLoop) {
  for (const char* name : {"add", "maximum", "fmin", "logical_or"}) {
    const op_spec& op = *find_op(name);
    int compiled = 0;
    for (std::size_t i = 0; i < op.loops.size(); ++i) {
      const loop_spec& l = op.loops[i];
      if (l.in[0] != l.in[1] || l.in[0] != l.out[0]) continue;
      detail::reduce_desc d;
      d.loop = i;
      d.acc = l.out[0];
      d.in = i % 3 == 1 ? type_id::int16 : l.out[0];
      d.out = i % 2 ? l.out[0] : type_id::float64;
      d.layout = i % 2 ? detail::reduce_class::columns : detail::reduce_class::rows;
      d.kept = 1 + static_cast<int>(i % 3);
      d.reduced = 1 + static_cast<int>(i % 4);
      d.selective = true;
      d.mask = i % 4 != 3;
      const detail::composed_program p = detail::compose_reduction(op, d);
      EXPECT_EQ(p.kernels.size(), d.layout == detail::reduce_class::columns ? 4u : 3u);
      EXPECT_NE(p.kernels[0].find("cupp_reduce_masked_"), std::string::npos);
      compile(p, std::string(name) + " loop " + std::to_string(i));
      ++compiled;
    }
    EXPECT_GT(compiled, 0) << name;
  }
}

// The maps the nan-functions and var/std use, with a mask, both layouts.
TEST(ReductionWhereKernels, SelectiveMappedProgramsCompile) {
  const op_spec& add = *find_op("add");
  const op_spec& multiply = *find_op("multiply");
  for (type_id in : {type_id::float16, type_id::bfloat16, type_id::float32, type_id::complex128}) {
    const bool half = in == type_id::float16 || in == type_id::bfloat16;
    const type_id acc = half ? type_id::float32 : in;
    const type_id real = in == type_id::complex128 ? type_id::float64 : acc;
    for (int layout = 0; layout < 2; ++layout) {
      detail::reduce_desc d;
      d.in = in;
      d.out = in;
      d.acc = acc;
      d.selective = d.mask = true;
      d.layout = layout ? detail::reduce_class::columns : detail::reduce_class::rows;
      d.loop = reducing_loop(add, acc);
      d.map = detail::reduce_map::nan_to_zero;
      compile(detail::compose_reduction(add, d), "nansum where " + dtype(in).name());
      d.loop = reducing_loop(multiply, acc);
      d.map = detail::reduce_map::nan_to_one;
      compile(detail::compose_reduction(multiply, d), "nanprod where " + dtype(in).name());
      detail::reduce_desc n = d;
      n.acc = n.out = type_id::int64;
      n.loop = reducing_loop(add, type_id::int64);
      n.map = detail::reduce_map::not_nan;
      compile(detail::compose_reduction(add, n), "not_nan where " + dtype(in).name());
      detail::reduce_desc v = d;
      v.acc = v.out = real;
      v.loop = reducing_loop(add, real);
      v.map = layout ? detail::reduce_map::squared_deviation_nan : detail::reduce_map::squared_deviation;
      v.map_type = acc;
      compile(detail::compose_reduction(add, v), "var where " + dtype(in).name());
    }
  }
}

// reduceat: every reducing loop of add, multiply, maximum, minimum and a bitwise op, with mixed
// input and result dtypes and 1 .. 8 other dimensions.
TEST(ReductionWhereKernels, ReduceatCompilesForEveryReducingLoop) {
  for (const char* name : {"add", "multiply", "maximum", "minimum", "bitwise_or"}) {
    const op_spec& op = *find_op(name);
    for (std::size_t i = 0; i < op.loops.size(); ++i) {
      const loop_spec& l = op.loops[i];
      if (l.in[0] != l.in[1] || l.in[0] != l.out[0]) continue;
      detail::reduceat_desc d;
      d.loop = i;
      d.acc = l.out[0];
      d.in = i % 2 ? type_id::uint8 : l.out[0];
      d.out = i % 3 ? l.out[0] : type_id::complex128;
      d.kept = 1 + static_cast<int>(i % 8);
      compile(detail::compose_reduceat(op, d), std::string(name) + ".reduceat loop " + std::to_string(i));
    }
  }
}

TEST(ReductionWhereKernels, VariantsAndRefusals) {
  detail::reduce_desc a, b, c;
  b.selective = true;
  c.selective = c.mask = true;
  EXPECT_NE(detail::reduce_variant(a), detail::reduce_variant(b));
  EXPECT_NE(detail::reduce_variant(b), detail::reduce_variant(c));
  const op_spec& add = *find_op("add");
  detail::reduce_desc packed;
  packed.loop = reducing_loop(add, type_id::float64);
  packed.layout = detail::reduce_class::columns;
  packed.packed = packed.selective = true;
  EXPECT_THROW(detail::compose_reduction(add, packed), ValueError);
  detail::reduceat_desc r, s;
  r.loop = s.loop = reducing_loop(add, type_id::float64);
  s.kept = 2;
  EXPECT_NE(detail::reduceat_variant(r), detail::reduceat_variant(s));
  s.kept = 9;
  EXPECT_THROW(detail::compose_reduceat(add, s), ValueError);
  EXPECT_THROW(detail::compose_reduceat(*find_op("sin"), r), ValueError);
  detail::reduceat_desc wrong = r;
  wrong.acc = type_id::float32;  // not the loop's dtype
  EXPECT_THROW(detail::compose_reduceat(add, wrong), ValueError);
}

}  // namespace
}  // namespace cupp
