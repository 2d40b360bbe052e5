// ReductionKernel without a GPU: constructor errors, the composed functors (aliases, names,
// interning of names per dtype combination), and NVRTC compiling the programs of both layout
// classes (with and without identity, mixed dtypes); a bad expression is a CompileError with
// NVRTC's log. The GPU suite runs the kernels (tests/gpu/test_reduction_kernel_gpu.cpp).
#include <gtest/gtest.h>

#include <string>

#include "cupp/errors.hpp"
#include "cupp/reduction_kernel.hpp"
#include "error_of.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp {
namespace {

detail::nvrtc_output compile(const detail::composed_program& p) {
  return detail::nvrtc_compile({.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90});
}

detail::reduce_desc desc_of(type_id acc, type_id in, type_id out, detail::reduce_class layout, int kept, int reduced) {
  detail::reduce_desc d;
  d.acc = acc;
  d.in = in;
  d.out = out;
  d.layout = layout;
  d.kept = kept;
  d.reduced = reduced;
  return d;
}

TEST(ReductionKernelUser, ConstructorErrors) {
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("T x, T y", "T z", "x", "a + b", "", "0"); })
                .find("one input and one output"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("raw T x", "T z", "x", "a + b", "", "0"); })
                .find("raw parameters"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("T a", "T z", "a", "a + b", "", "0"); }).find("reserved"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("T x", "T z", "x", " ", "", "0"); }).find("reduce_expr"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("T x", "T z", "x", "a + b", "", "0", "bad name"); })
                .find("not an identifier"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("T x", "T z", "x", "a + b", "", "0", "k", "V"); })
                .find("reduce_type"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ReductionKernel("T x", "T y", "x", "a + b", "", "0", "k", "1x"); })
                .find("reduce_type"),
            std::string::npos);
}

TEST(ReductionKernelUser, FunctorsNameParametersAndAliases) {
  const ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const detail::user_reduction r = detail::reduction_kernel_functors(l2norm, float32, float32, float32);
  EXPECT_EQ(r.in_name, "x");
  EXPECT_EQ(r.out_name, "y");
  EXPECT_EQ(r.in_param, type_id::float32);
  EXPECT_NE(r.aliases.find("using T = float;"), std::string::npos) << r.aliases;
  EXPECT_EQ(r.name, detail::reduction_kernel_functors(l2norm, float32, float32, float32).name);
  EXPECT_NE(r.name, detail::reduction_kernel_functors(l2norm, float64, float64, float64).name);
  EXPECT_EQ(r.name.rfind("cupp_rk_l2norm_", 0), 0u) << r.name;
}

TEST(ReductionKernelUser, ProgramsCompileInBothClasses) {
  using detail::reduce_class;
  const ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const detail::user_reduction r = detail::reduction_kernel_functors(l2norm, float32, float32, float64);
  const detail::composed_program rows =
      detail::compose_user_reduction(r, desc_of(type_id::float64, type_id::float16, type_id::float32, reduce_class::rows, 2, 1));
  EXPECT_EQ(rows.kernels.size(), 4u) << "final, partial, combine, identity";
  EXPECT_EQ(compile(rows).lowered_names.size(), 4u);
  detail::reduce_desc cols = desc_of(type_id::float64, type_id::float32, type_id::float32, reduce_class::columns, 1, 3);
  cols.packed = true;
  EXPECT_EQ(compile(detail::compose_user_reduction(r, cols)).lowered_names.size(), 4u);

  // No identity, an integer input with a float accumulator (mixed dtypes), no post-map.
  const ReductionKernel maxabs("T x", "float64 y", "x < 0 ? -x : x", "a > b ? a : b", "", "", "maxabs");
  const detail::user_reduction m = detail::reduction_kernel_functors(maxabs, int32, float64, float64);
  const detail::composed_program p =
      detail::compose_user_reduction(m, desc_of(type_id::float64, type_id::int32, type_id::float64, reduce_class::rows, 1, 1));
  EXPECT_EQ(p.kernels.size(), 3u);
  EXPECT_EQ(compile(p).lowered_names.size(), 3u);
}

TEST(ReductionKernelUser, ABadExpressionIsACompileErrorWithTheLog) {
  const ReductionKernel broken("T x", "T y", "x *", "a + b", "y = a", "0", "broken");
  const detail::user_reduction r = detail::reduction_kernel_functors(broken, float32, float32, float32);
  try {
    compile(detail::compose_user_reduction(
        r, desc_of(type_id::float32, type_id::float32, type_id::float32, detail::reduce_class::rows, 1, 1)));
    FAIL() << "the map expression does not compile";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("expected an expression"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cupp
