// Reduction kernels compose and compile with NVRTC for sm_90 (no GPU needed): each reducing op
// (add, multiply, maximum, minimum, logical_and, logical_or, bitwise ops) on each accumulator
// dtype its loops take, rows and columns layouts, with mixed input and result dtypes; the mapped
// reductions (count_nonzero, the nan-functions, var's squared deviations) and the argmax/argmin
// pair kernels for every dtype; and the composer refuses descriptions that do not describe a
// reduction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"
#include "cupp/ops.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp {
namespace {

void compile_all_reducing_loops(std::string_view name) {
  const op_spec* op = find_op(name);
  ASSERT_NE(op, nullptr) << name;
  int compiled = 0;
  for (std::size_t i = 0; i < op->loops.size(); ++i) {
    const loop_spec& l = op->loops[i];
    if (l.in[0] != l.in[1] || l.in[0] != l.out[0]) continue;  // not a reducing loop
    detail::reduce_desc d;
    d.loop = i;
    d.acc = l.out[0];
    d.in = i % 2 ? type_id::int8 : l.out[0];  // mixed input dtypes cast in the kernel
    d.out = i % 3 ? type_id::float64 : l.out[0];
    d.layout = i % 2 ? detail::reduce_class::columns : detail::reduce_class::rows;
    d.packed = i % 4 == 1;  // some columns programs with 16-byte loads across outputs
    d.kept = 1 + static_cast<int>(i % 3);
    d.reduced = 1 + static_cast<int>(i % 2) * 7;
    const detail::composed_program p = detail::compose_reduction(*op, d);
    const detail::nvrtc_output out = detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90});
    // Final, partial, rows combine; columns programs add their column combine.
    ASSERT_EQ(out.lowered_names.size(), d.layout == detail::reduce_class::columns ? 4u : 3u) << name << " loop " << i;
    for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty());
    ++compiled;
  }
  EXPECT_GT(compiled, 0) << name << " has no reducing loop";
}

TEST(ReductionKernels, AddCompilesForEveryDtype) { compile_all_reducing_loops("add"); }
TEST(ReductionKernels, MultiplyCompilesForEveryDtype) { compile_all_reducing_loops("multiply"); }
TEST(ReductionKernels, MaximumAndMinimumCompileForEveryDtype) {
  compile_all_reducing_loops("maximum");
  compile_all_reducing_loops("minimum");
}
TEST(ReductionKernels, LogicalAndBitwiseCompile) {
  compile_all_reducing_loops("logical_and");
  compile_all_reducing_loops("logical_or");
  compile_all_reducing_loops("bitwise_xor");
}

void compile(const detail::composed_program& p, const std::string& what, std::size_t kernels = 3) {
  const detail::nvrtc_output out =
      detail::nvrtc_compile({.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90});
  ASSERT_EQ(out.lowered_names.size(), p.kernels.size()) << what;
  ASSERT_GE(out.lowered_names.size(), kernels) << what;
  for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty()) << what;
}

std::size_t reducing_loop(const op_spec& op, type_id acc) {
  for (std::size_t i = 0; i < op.loops.size(); ++i)
    if (op.loops[i].in[0] == acc && op.loops[i].in[1] == acc && op.loops[i].out[0] == acc) return i;
  ADD_FAILURE() << op.name << " has no loop for " << dtype(acc).name();
  return 0;
}

// argmax/argmin/nanargmax/nanargmin: every dtype, both layouts, several dimension counts.
TEST(ReductionKernels, ArgReductionsCompileForEveryDtype) {
  for (int t = 0; t < n_builtin_types; ++t) {
    for (int layout = 0; layout < 2; ++layout) {
      detail::arg_reduce_desc d;
      d.in = static_cast<type_id>(t);
      d.max = (t + layout) % 2 == 0;
      d.skip_nan = layout == 1;
      d.layout = layout ? detail::reduce_class::columns : detail::reduce_class::rows;
      d.kept = 1 + t % 3;
      d.reduced = layout ? 1 : 1 + t % 4;
      compile(detail::compose_arg_reduction(d), dtype(d.in).name() + (layout ? " columns" : " rows"));
    }
  }
}

// var/std in one read (cupp/dev/moments.cuh): every real input dtype, both layouts, the nan and
// root forms, results of every float dtype.
TEST(ReductionKernels, OnePassVarianceCompilesForEveryRealDtype) {
  const type_id outs[] = {type_id::float16, type_id::bfloat16, type_id::float32, type_id::float64};
  int compiled = 0;
  for (int t = 0; t < n_builtin_types; ++t) {
    const dtype in(static_cast<type_id>(t));
    if (in.kind() == 'c' || !in.is_builtin()) continue;
    for (int layout = 0; layout < 2; ++layout) {
      detail::moments_desc d;
      d.in = in.id();
      d.out = outs[(t + layout) % 4];
      d.skip_nan = layout == 1;
      d.root = t % 2 == 0;
      d.layout = layout ? detail::reduce_class::columns : detail::reduce_class::rows;
      d.kept = 1 + t % 3;
      d.reduced = layout ? 1 : 1 + t % 4;
      compile(detail::compose_moments(d), "var " + in.name() + (layout ? " columns" : " rows"), 3);
      ++compiled;
    }
  }
  EXPECT_GE(compiled, 2 * 11);
  detail::moments_desc x, y;
  y.root = true;
  EXPECT_NE(detail::moments_variant(x), detail::moments_variant(y));
  y = x;
  y.skip_nan = true;
  EXPECT_NE(detail::moments_variant(x), detail::moments_variant(y));
  y = x;
  y.out = type_id::float32;
  EXPECT_NE(detail::moments_variant(x), detail::moments_variant(y));
  y = x;
  y.reduced = 0;
  EXPECT_THROW(detail::compose_moments(y), ValueError);
}

// count_nonzero (every input dtype into int64), nansum/nanprod/nanmean's maps (inexact inputs),
// var's squared deviations (every mean dtype, both layouts, packed columns too).
TEST(ReductionKernels, MappedReductionsCompile) {
  const op_spec& add = *find_op("add");
  const op_spec& multiply = *find_op("multiply");
  for (int t = 0; t < n_builtin_types; ++t) {
    detail::reduce_desc d;
    d.loop = reducing_loop(add, type_id::int64);
    d.acc = d.out = type_id::int64;
    d.in = static_cast<type_id>(t);
    d.map = detail::reduce_map::nonzero;
    d.layout = t % 2 ? detail::reduce_class::columns : detail::reduce_class::rows;
    compile(detail::compose_reduction(add, d), "count_nonzero " + dtype(d.in).name());
  }
  const type_id inexact[] = {type_id::float16, type_id::bfloat16, type_id::float32, type_id::float64, type_id::complex64,
                             type_id::complex128};
  for (type_id in : inexact) {
    const bool c = in == type_id::complex64 || in == type_id::complex128;
    const type_id acc = in == type_id::float16 || in == type_id::bfloat16 ? type_id::float32 : in;
    detail::reduce_desc d;
    d.in = in;
    d.acc = d.out = acc;
    d.loop = reducing_loop(add, acc);
    d.map = detail::reduce_map::nan_to_zero;
    compile(detail::compose_reduction(add, d), "nansum " + dtype(in).name());
    d.loop = reducing_loop(multiply, acc);
    d.map = detail::reduce_map::nan_to_one;
    d.layout = detail::reduce_class::columns;
    d.packed = true;
    compile(detail::compose_reduction(multiply, d), "nanprod " + dtype(in).name());
    detail::reduce_desc n;
    n.in = in;
    n.acc = n.out = type_id::int64;
    n.loop = reducing_loop(add, type_id::int64);
    n.map = detail::reduce_map::not_nan;
    compile(detail::compose_reduction(add, n), "not_nan " + dtype(in).name());
    // var: the mean in `acc` (complex stays complex), the squares in its real dtype.
    const type_id real = in == type_id::complex64 ? type_id::float32 : in == type_id::complex128 ? type_id::float64 : acc;
    for (int layout = 0; layout < 3; ++layout) {
      detail::reduce_desc v;
      v.in = in;
      v.acc = v.out = real;
      v.loop = reducing_loop(add, real);
      v.map = layout == 1 ? detail::reduce_map::squared_deviation_nan : detail::reduce_map::squared_deviation;
      v.map_type = acc;
      v.layout = layout ? detail::reduce_class::columns : detail::reduce_class::rows;
      v.packed = layout == 2;
      v.kept = 1 + layout;
      compile(detail::compose_reduction(add, v), "var " + dtype(in).name() + (c ? " complex" : ""));
    }
  }
  // Integers and bool: deviations from a float64 mean.
  for (type_id in : {type_id::bool_, type_id::int8, type_id::uint64}) {
    detail::reduce_desc v;
    v.in = in;
    v.acc = v.out = v.map_type = type_id::float64;
    v.loop = reducing_loop(add, type_id::float64);
    v.map = detail::reduce_map::squared_deviation;
    compile(detail::compose_reduction(add, v), "var " + dtype(in).name());
  }
}

TEST(ReductionKernels, VariantsTellMapsAndArgKernelsApart) {
  detail::reduce_desc a, b;
  b.map = detail::reduce_map::nonzero;
  EXPECT_NE(detail::reduce_variant(a), detail::reduce_variant(b));
  detail::reduce_desc c = a, e = a;
  c.map = e.map = detail::reduce_map::squared_deviation;
  c.map_type = type_id::float32;
  EXPECT_NE(detail::reduce_variant(c), detail::reduce_variant(e));
  detail::arg_reduce_desc x, y;
  y.max = false;
  EXPECT_NE(detail::arg_reduce_variant(x), detail::arg_reduce_variant(y));
  y = x;
  y.skip_nan = true;
  EXPECT_NE(detail::arg_reduce_variant(x), detail::arg_reduce_variant(y));
  y = x;
  y.layout = detail::reduce_class::columns;
  EXPECT_NE(detail::arg_reduce_variant(x), detail::arg_reduce_variant(y));
  y = x;
  y.kept = 9;
  EXPECT_THROW(detail::compose_arg_reduction(y), ValueError);
}

TEST(ReductionKernels, RefusesWhatIsNotAReduction) {
  detail::reduce_desc d;
  d.acc = type_id::float32;
  d.loop = 0;
  EXPECT_THROW(detail::compose_reduction(*find_op("sin"), d), ValueError);  // unary
  const op_spec& add = *find_op("add");
  std::size_t f32 = 0;
  while (add.loops[f32].out[0] != type_id::float32) ++f32;
  d.loop = f32;
  d.acc = type_id::float64;  // not the loop's dtype
  EXPECT_THROW(detail::compose_reduction(add, d), ValueError);
  d.acc = type_id::float32;
  d.kept = 9;
  EXPECT_THROW(detail::compose_reduction(add, d), ValueError);
  d.kept = 1;
  EXPECT_NO_THROW(detail::compose_reduction(add, d));
  detail::reduce_desc other = d;
  other.layout = detail::reduce_class::columns;
  EXPECT_NE(detail::reduce_variant(d), detail::reduce_variant(other));
  detail::reduce_desc packed = other;
  packed.packed = true;
  EXPECT_NE(detail::reduce_variant(other), detail::reduce_variant(packed));
}

}  // namespace
}  // namespace cupp
