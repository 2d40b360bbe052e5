// ElementwiseKernel without a GPU: parameter parsing and its errors, the op a dtype combination
// gives (body with aliases and names), interning, and NVRTC compiling that op in every layout
// class for sm_90. The GPU suite runs the kernels (tests/gpu/test_elementwise_kernel_gpu.cpp).
#include <gtest/gtest.h>

#include <vector>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "error_of.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp {
namespace {

TEST(ElementwiseKernelParams, ParsesTypesNamesAndPlaceholders) {
  const std::vector<kernel_param> p = parse_kernel_params(" T x,float32 y ,  complex128  z_1");
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].type, "T");
  EXPECT_EQ(p[0].name, "x");
  EXPECT_TRUE(p[0].placeholder);
  EXPECT_EQ(p[1].type, "float32");
  EXPECT_FALSE(p[1].placeholder);
  EXPECT_EQ(p[2].name, "z_1");
  EXPECT_FALSE(p[2].placeholder);
  EXPECT_TRUE(parse_kernel_params("  ").empty());
  EXPECT_TRUE(parse_kernel_params("U u")[0].placeholder);
}

TEST(ElementwiseKernelParams, RejectsMalformedLists) {
  EXPECT_EQ(test::error_of<ValueError>([] { parse_kernel_params("T x, y"); }),
            "Syntax error in kernel parameters 'T x, y': 'y' is not 'TYPE NAME'");
  EXPECT_NE(test::error_of<ValueError>([] { parse_kernel_params("T x,"); }).find("Syntax error"), std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { parse_kernel_params("T 1x"); }).find("Syntax error"), std::string::npos);
  EXPECT_EQ(test::error_of<ValueError>([] { parse_kernel_params("T x, T x"); }), "Duplicated parameter name: x");
  EXPECT_TRUE(parse_kernel_params("raw T x")[0].raw);
  EXPECT_FALSE(parse_kernel_params("T x")[0].raw);
  EXPECT_NE(test::error_of<ValueError>([] { parse_kernel_params("raw x"); }).find("Syntax error"), std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { parse_kernel_params("raw raw x"); }).find("Syntax error"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { parse_kernel_params("const T x"); }).find("Syntax error"),
            std::string::npos);
  EXPECT_EQ(test::error_of<ValueError>([] { ElementwiseKernel("T x", "T x", "x = x;"); }),
            "Duplicated parameter name: x");
  EXPECT_NE(test::error_of<ValueError>([] { ElementwiseKernel("T a", "T i", "i = a;"); }).find("reserved"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ElementwiseKernel("", "T z", "z = 1;"); }).find("at least 1 input"),
            std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([] { ElementwiseKernel("T a", "T z", "z = a;", "bad name"); })
                .find("not an identifier"),
            std::string::npos);
}

TEST(ElementwiseKernelOp, BodyNamesParametersAndCompilesInEveryLayoutClass) {
  const ElementwiseKernel axpy("T x, T y, float32 a", "T z", "z = a * x + y;", "axpy");
  const std::vector<dtype> types = {float64, float64, float32, float64};
  const op_spec& op = detail::elementwise_kernel_op(axpy, types);
  EXPECT_EQ(&op, &detail::elementwise_kernel_op(axpy, types)) << "one op per dtype combination";
  const std::vector<dtype> other = {float32, float32, float32, float32};
  EXPECT_NE(&op, &detail::elementwise_kernel_op(axpy, other));
  EXPECT_EQ(op.nin, 3);
  EXPECT_EQ(op.nout, 1);
  ASSERT_EQ(op.loops.size(), 1u);
  const std::string body(op.loops[0].body);
  EXPECT_NE(body.find("using T = double;"), std::string::npos) << body;
  EXPECT_NE(body.find("const auto a = in2;"), std::string::npos) << body;
  EXPECT_NE(body.find("auto& z = out0;"), std::string::npos) << body;
  EXPECT_NE(body.find("z = a * x + y;"), std::string::npos) << body;

  using detail::kernel_desc;
  using detail::operand_access;
  std::vector<kernel_desc> descs;
  kernel_desc contiguous;
  contiguous.contiguous = true;
  contiguous.vec = 2;
  contiguous.width = detail::index_width::i32;
  contiguous.inputs = {{operand_access::dense, type_id::float64}, {operand_access::dense, type_id::int32},
                       {operand_access::value, type_id::float32}};
  contiguous.outputs = {{operand_access::dense, type_id::float64}};
  descs.push_back(contiguous);
  kernel_desc strided = contiguous;
  strided.contiguous = false;
  strided.vec = 1;
  strided.ndim = 2;
  strided.inputs[1].access = operand_access::broadcast;
  strided.outputs[0].access = operand_access::strided;
  descs.push_back(strided);
  kernel_desc tiled = strided;
  tiled.tiled = true;
  tiled.inputs[0].access = operand_access::tiled;
  descs.push_back(tiled);
  const detail::composed_program program = detail::compose_elementwise(op, descs);
  const detail::nvrtc_output out = detail::nvrtc_compile(
      {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
  EXPECT_EQ(out.lowered_names.size(), descs.size());
}

TEST(ElementwiseKernelOp, AnOperationWithoutItsLastSemicolonCompiles) {
  // CuPy's ElementwiseKernel('T x', 'T z', 'z = 2 * x') works: the ';' is the library's (both paths).
  for (const char* operation : {"z = 2 * x + 1", "z = 2 * x + 1;", "if (x > 0) { z = x; } else { z = -x; }"}) {
    SCOPED_TRACE(operation);
    const ElementwiseKernel k("T x", "T z", operation, "no_semicolon");
    const std::vector<dtype> types = {float32, float32};
    const op_spec& op = detail::elementwise_kernel_op(k, types);
    detail::kernel_desc contiguous;
    contiguous.inputs = {{detail::operand_access::dense, type_id::float32}};
    contiguous.outputs = {{detail::operand_access::dense, type_id::float32}};
    const detail::composed_program program = detail::compose_elementwise(op, {contiguous});
    const detail::nvrtc_output out = detail::nvrtc_compile(
        {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
    EXPECT_EQ(out.lowered_names.size(), 1u);
  }
}

TEST(ElementwiseKernelIndexed, TheIndexRawParametersAndManyOperandsTakeTheGeneralPath) {
  EXPECT_FALSE(ElementwiseKernel("T x", "T z", "z = x + xi;").indexed());
  EXPECT_FALSE(ElementwiseKernel("T x", "T z", "z = x.i + p->i;").indexed());
  EXPECT_TRUE(ElementwiseKernel("T x", "T z", "z = x + i;").indexed());
  EXPECT_TRUE(ElementwiseKernel("T x", "T z", "z = x[i]").indexed());
  EXPECT_TRUE(ElementwiseKernel("T x", "T z", "z = _ind.size();").indexed());
  EXPECT_TRUE(ElementwiseKernel("raw T x", "T z", "z = x[0];").indexed());
  EXPECT_TRUE(ElementwiseKernel("T a, T b, T c, T d", "T z", "z = a + b + c + d;").indexed());
}

TEST(ElementwiseKernelIndexed, GeneralPathSourceCompilesForEveryOperandKind) {
  const ElementwiseKernel k("T x, raw U y, float32 s, T a, T b", "T z, raw float64 w",
                            "z = y[_ind.size() - 1 - i] * s + x + a + b; w[i] = z;", "gather");
  ASSERT_TRUE(k.indexed());
  const std::vector<dtype> types = {float64, int32, float32, float64, float64, float64, float64};
  const std::vector<dtype> storage = {float32, int32, float32, float64, float64, float16, float64};
  const bool scalar[] = {false, false, true, false, false, false, false};
  const detail::user_elementwise_desc desc = detail::elementwise_kernel_desc(k, types, storage, scalar, 2);
  ASSERT_EQ(desc.params.size(), 7u);
  EXPECT_EQ(desc.params[1].kind, detail::user_operand::raw);
  EXPECT_EQ(desc.params[2].kind, detail::user_operand::value);
  EXPECT_EQ(desc.params[0].kind, detail::user_operand::array);
  EXPECT_EQ(desc.params[0].storage, type_id::float32);
  EXPECT_TRUE(desc.params[5].output);
  EXPECT_NE(desc.aliases.find("using U = int;"), std::string::npos) << desc.aliases;
  const detail::user_elementwise_desc again = detail::elementwise_kernel_desc(k, types, storage, scalar, 2);
  EXPECT_EQ(desc.kernel_name, again.kernel_name);
  EXPECT_NE(desc.kernel_name, detail::elementwise_kernel_desc(k, types, storage, scalar, 3).kernel_name);
  const detail::composed_program program = detail::compose_user_elementwise(desc);
  const detail::nvrtc_output out = detail::nvrtc_compile(
      {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
  EXPECT_EQ(out.lowered_names.size(), 1u);
}

TEST(ElementwiseKernelIndexed, ABodyErrorIsACompileError) {
  const ElementwiseKernel broken("raw T x", "T y", "y = x[i] +;", "broken_raw");
  const std::vector<dtype> types = {float32, float32};
  const bool scalar[] = {false, false};
  const detail::composed_program program =
      detail::compose_user_elementwise(detail::elementwise_kernel_desc(broken, types, types, scalar, 1));
  try {
    detail::nvrtc_compile(
        {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
    FAIL() << "the body does not compile";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("expected an expression"), std::string::npos) << e.what();
  }
}

TEST(ElementwiseKernelOp, ABodyErrorIsACompileErrorWithTheUsersCode) {
  const ElementwiseKernel broken("T x", "T y", "y = x +;", "broken");
  const std::vector<dtype> types = {float32, float32};
  const op_spec& op = detail::elementwise_kernel_op(broken, types);
  const detail::composed_program program = detail::compose_elementwise(op, detail::index_width::i32);
  try {
    detail::nvrtc_compile(
        {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
    FAIL() << "the body does not compile";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("expected an expression"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cupp
