// One test instance per op spec (the generated test table, generated/tests/op_test_table.inc):
// the registry holds the op as its spec declares it, its loops are NumPy 2.5.2's loops in NumPy's
// order (plus a bfloat16 loop beside each float16 one), and NVRTC compiles every loop's kernel
// for sm_90 (no GPU needed). Where the library is built with its kernel table (CUPP_AOT_KERNELS),
// the build has compiled every op's 32-bit all-loops program already: the test finds it in the
// table instead of compiling it again, and compiles the rest.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "cupp/errors.hpp"
#include "cupp/ops.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/builtin_kernels.hpp"
#include "compiler/nvrtc_program.hpp"
#include "core/tables.hpp"

namespace cupp {
namespace {

struct op_case {
  const char* name;
  int nin, nout, nloops;
  const char* spec;
};

const op_case kOpCases[] = {
#define CUPP_OP_TEST_CASE(name, nin, nout, nloops, spec) {#name, nin, nout, nloops, spec},
#include "op_test_table.inc"
#undef CUPP_OP_TEST_CASE
};

using signature = std::vector<std::string>;  // input dtype names then output dtype names

signature names_of(const loop_spec& loop) {
  signature s;
  for (type_id t : loop.in) s.emplace_back(detail::info(t).name);
  for (type_id t : loop.out) s.emplace_back(detail::info(t).name);
  return s;
}

// NumPy's loops of a ufunc from the reference manifest (sig_* cases), in NumPy's order; int64
// appears as both 'l' and 'q' there, so repeated signatures are dropped. A loop whose reference
// data made NumPy raise the op's declared data-dependent error (power's signed integers: a
// negative exponent) has no recorded outputs: its inputs are checked and the outputs taken from
// the op's loop with those inputs ("?" when there is none).
std::vector<signature> numpy_loops(const std::string& ufunc, const op_spec& op) {
  static const YAML::Node manifest = test::load_yaml(test::conformance_path("numpy-ref/manifest.yaml"));
  std::vector<signature> loops;
  for (const auto& c : manifest["cases"]) {
    if (c["ufunc"].as<std::string>() != ufunc || c["case"].as<std::string>().rfind("sig_", 0) != 0) continue;
    signature s;
    for (const auto& t : c["in"]) s.push_back(t.as<std::string>());
    if (c["out"]) {
      for (const auto& t : c["out"]) s.push_back(t.as<std::string>());
    } else {
      const std::string error = test::cupp_error_class(c["numpy_error"].as<std::string>());
      if (op.raises.substr(0, op.raises.find(':')) != error) continue;
      const auto same_inputs = std::find_if(op.loops.begin(), op.loops.end(), [&](const loop_spec& loop) {
        const signature ours = names_of(loop);
        return std::equal(s.begin(), s.end(), ours.begin(), ours.begin() + static_cast<std::ptrdiff_t>(loop.in.size()));
      });
      if (same_inputs == op.loops.end()) s.emplace_back("?");
      else
        for (type_id t : same_inputs->out) s.emplace_back(detail::info(t).name);
    }
    if (std::find(loops.begin(), loops.end(), s) == loops.end()) loops.push_back(s);
  }
  return loops;
}

class OpSpec : public testing::TestWithParam<op_case> {};

TEST_P(OpSpec, RegistryMatchesSpec) {
  const op_case& c = GetParam();
  const op_spec* op = find_op(c.name);
  ASSERT_NE(op, nullptr) << c.name << " from " << c.spec;
  EXPECT_EQ(op->name, c.name);
  EXPECT_EQ(op->nin, c.nin);
  EXPECT_EQ(op->nout, c.nout);
  ASSERT_EQ(static_cast<int>(op->loops.size()), c.nloops);
  for (const loop_spec& loop : op->loops) {
    EXPECT_EQ(static_cast<int>(loop.in.size()), c.nin);
    EXPECT_EQ(static_cast<int>(loop.out.size()), c.nout);
    EXPECT_FALSE(loop.body.empty());
  }
}

TEST_P(OpSpec, LoopsAreNumPyLoopsInNumPyOrder) {
  const op_case& c = GetParam();
  const op_spec* op = find_op(c.name);
  ASSERT_NE(op, nullptr);
  const std::vector<signature> reference = numpy_loops(c.name, *op);
  if (reference.empty()) GTEST_SKIP() << c.name << " is not in NumPy's reference manifest";
  std::vector<signature> ours_without_bf16;
  for (const loop_spec& loop : op->loops) {
    signature s = names_of(loop);
    if (std::find(s.begin(), s.end(), "bfloat16") != s.end()) {
      // A bfloat16 loop must mirror a float16 loop of NumPy, and follow it.
      signature as_f16 = s;
      std::replace(as_f16.begin(), as_f16.end(), std::string("bfloat16"), std::string("float16"));
      EXPECT_NE(std::find(reference.begin(), reference.end(), as_f16), reference.end())
          << c.name << ": bfloat16 loop without a float16 twin in NumPy";
      continue;
    }
    ours_without_bf16.push_back(s);
  }
  EXPECT_EQ(ours_without_bf16, reference) << c.name << ": loops differ from NumPy 2.5.2's (order included)";
}

TEST_P(OpSpec, EveryLoopCompilesWithNvrtc) {
  const op_case& c = GetParam();
  const op_spec* op = find_op(c.name);
  ASSERT_NE(op, nullptr);
  for (auto width : {detail::index_width::i32, detail::index_width::i64}) {
    const detail::composed_program program = detail::compose_elementwise(*op, width);
    ASSERT_EQ(program.kernels.size(), op->loops.size());
    for (const loop_spec& loop : op->loops)
      EXPECT_NE(program.source.find(loop.body), std::string::npos) << "body missing from the kernel source";
#if CUPP_TEST_AOT_KERNELS
    if (width == detail::index_width::i32) {  // compiled by the build (runtime/aot)
      const detail::builtin_table& table = detail::builtin_kernels();
      ASSERT_FALSE(table.architectures().empty()) << "the library has no built-in kernels";
      const std::optional<detail::compiled_program> built =
          table.find(detail::builtin_key({program.name, program.source, program.kernels, {}}, table.architectures().front()));
      ASSERT_TRUE(built.has_value()) << c.name << "'s all-loops program is not in the built-in table";
      EXPECT_FALSE(built->binary.empty());
      ASSERT_EQ(built->lowered_names.size(), op->loops.size());
      for (const std::string& lowered : built->lowered_names) EXPECT_FALSE(lowered.empty());
      continue;
    }
#endif
    const detail::nvrtc_output out = detail::nvrtc_compile(
        {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
    EXPECT_GT(out.binary.size(), 0u);
    ASSERT_EQ(out.lowered_names.size(), op->loops.size());
    for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty());
  }
}

// Every loop in every layout class: strided (with casts from and to every dtype, a broadcast
// operand, a value and a where= mask), strided with vector steps along rows, and contiguous with
// casts and values, in one program per op. Compiled to PTX: the layout classes are the composer's
// source, which NVRTC's front end checks; ptxas sees every loop body in the test above and in the
// build's kernel table (and PTX takes half the time).
TEST_P(OpSpec, EveryLayoutClassCompilesWithNvrtc) {
  using detail::kernel_desc;
  using detail::kernel_operand;
  using detail::operand_access;
  const op_case& c = GetParam();
  const op_spec* op = find_op(c.name);
  ASSERT_NE(op, nullptr);
  auto other = [](std::size_t i, std::size_t k) { return static_cast<type_id>((i * 3 + k * 5 + 1) % n_builtin_types); };
  std::vector<kernel_desc> descs;
  for (std::size_t i = 0; i < op->loops.size(); ++i) {
    const loop_spec& loop = op->loops[i];
    kernel_desc strided;
    strided.loop = i;
    strided.contiguous = false;
    strided.ndim = 3;
    strided.width = i % 2 ? detail::index_width::i32 : detail::index_width::i64;
    const operand_access kinds[] = {operand_access::strided, operand_access::broadcast, operand_access::value};
    for (std::size_t k = 0; k < loop.in.size(); ++k) {
      const operand_access a = kinds[k % 3];
      strided.inputs.push_back({a, a == operand_access::value ? loop.in[k] : other(i, k)});
    }
    for (std::size_t k = 0; k < loop.out.size(); ++k) strided.outputs.push_back({operand_access::strided, other(i, k + 3)});
    strided.has_where = true;
    strided.where = {operand_access::strided, type_id::bool_};
    descs.push_back(strided);

    // Strided with vector steps along rows (no where=): rows, strided and broadcast operands.
    kernel_desc vectorised = strided;
    vectorised.has_where = false;
    vectorised.vec = 2;
    vectorised.ndim = 2;
    const operand_access row_kinds[] = {operand_access::rows, operand_access::strided, operand_access::broadcast};
    for (std::size_t k = 0; k < loop.in.size(); ++k) vectorised.inputs[k] = {row_kinds[k % 3], other(i, k)};
    for (auto& o : vectorised.outputs) o.access = operand_access::rows;
    descs.push_back(vectorised);

    // Tiled 2-D: the first input transposed through shared memory, the others as they come.
    kernel_desc tiled = vectorised;
    tiled.vec = 1;
    tiled.tiled = true;
    tiled.inputs[0].access = operand_access::tiled;
    for (auto& o : tiled.outputs) o.access = operand_access::strided;
    descs.push_back(tiled);

    kernel_desc contiguous;
    contiguous.loop = i;
    contiguous.contiguous = true;
    contiguous.vec = 2;
    contiguous.width = detail::index_width::i32;
    for (std::size_t k = 0; k < loop.in.size(); ++k)
      contiguous.inputs.push_back(k == 0 ? kernel_operand{operand_access::dense, other(i, k + 7)}
                                         : kernel_operand{operand_access::value, loop.in[k]});
    for (std::size_t k = 0; k < loop.out.size(); ++k) contiguous.outputs.push_back({operand_access::dense, other(i, k + 9)});
    descs.push_back(contiguous);
  }
  for (std::size_t i = 0; i < op->loops.size(); ++i) {
    EXPECT_TRUE(detail::in_all_loops_program(*op, detail::all_loops_desc(*op, i, detail::index_width::i64)));
    EXPECT_FALSE(detail::in_all_loops_program(*op, descs[4 * i])) << "a strided kernel is not in that program";
    detail::kernel_desc narrower = detail::all_loops_desc(*op, i, detail::index_width::i64);
    narrower.vec = narrower.vec > 1 ? narrower.vec / 2 : 2;
    EXPECT_FALSE(detail::in_all_loops_program(*op, narrower)) << "another vector width is not in that program";
  }
  const detail::composed_program program = detail::compose_elementwise(*op, descs);
  const detail::nvrtc_output out = detail::nvrtc_compile(
      {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90, .ptx = true});
  ASSERT_EQ(out.lowered_names.size(), descs.size());
  for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty());
}

INSTANTIATE_TEST_SUITE_P(Generated, OpSpec, testing::ValuesIn(kOpCases),
                         [](const testing::TestParamInfo<op_case>& info) { return std::string(info.param.name); });

TEST(OpRegistry, LookupAndSignatures) {
  EXPECT_EQ(find_op("no_such_op"), nullptr);
  const auto ops = builtin_ops();
  ASSERT_GE(ops.size(), 5u);
  EXPECT_TRUE(std::is_sorted(ops.begin(), ops.end(), [](const op_spec& a, const op_spec& b) { return a.name < b.name; }));
  const op_spec* add = find_op("add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(loop_signature(add->loops[0]), "?" "?->?");
  EXPECT_EQ(add->identity, "0");
  const op_spec* sin = find_op("sin");
  ASSERT_NE(sin, nullptr);
  EXPECT_EQ(loop_signature(sin->loops[0]), "e->e");
  EXPECT_EQ(loop_signature(sin->loops[1]), "E->E");
}

TEST(Nvrtc, CompileErrorCarriesLogAndSource) {
  try {
    detail::nvrtc_compile({.program_name = "broken", .source = "__global__ void k() { this is not cuda; }", .name_expressions = {}});
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("broken"), std::string::npos);
    EXPECT_FALSE(e.log().empty());
    EXPECT_NE(e.source().find("1\t__global__"), std::string::npos);
  }
}

}  // namespace
}  // namespace cupp
