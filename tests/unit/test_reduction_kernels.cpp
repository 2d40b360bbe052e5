// Reduction kernels compose and compile with NVRTC for sm_90 (no GPU needed): each reducing op
// (add, multiply, maximum, minimum, logical_and, logical_or, bitwise ops) on each accumulator
// dtype its loops take, rows and columns layouts, with mixed input and result dtypes; and the
// composer refuses descriptions that do not describe a reduction.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/ops.hpp"
#include "kernel_composer.hpp"
#include "nvrtc_program.hpp"

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
    ASSERT_EQ(out.lowered_names.size(), 3u) << name << " loop " << i;
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
