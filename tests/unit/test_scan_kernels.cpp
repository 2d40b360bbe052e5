// Scan kernels compose and compile with NVRTC for sm_90 (no GPU needed): add and multiply (cumsum,
// cumprod) for every accumulator dtype, both layout classes, with mixed input dtypes and several
// kept-dimension counts; the nan maps; a non-associative op (subtract.accumulate, lines class);
// logical and bitwise accumulations; and the composer refuses descriptions that are no scan.
#include <gtest/gtest.h>

#include <string>

#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"
#include "cupp/ops.hpp"
#include "compiler/nvrtc_program.hpp"
#include "engine/scan_composer.hpp"

namespace cupp {
namespace {

void compile(const detail::composed_program& p, std::size_t kernels, const std::string& what) {
  const detail::nvrtc_output out =
      detail::nvrtc_compile({.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90});
  ASSERT_EQ(out.lowered_names.size(), kernels) << what;
  for (const std::string& lowered : out.lowered_names) EXPECT_FALSE(lowered.empty()) << what;
}

// Every accumulating loop (acc, acc -> acc) of `name`, alternating layouts, input dtypes, maps.
void compile_all_accumulating_loops(std::string_view name, bool nan_maps = false) {
  const op_spec* op = find_op(name);
  ASSERT_NE(op, nullptr) << name;
  int compiled = 0;
  for (std::size_t i = 0; i < op->loops.size(); ++i) {
    const loop_spec& l = op->loops[i];
    if (l.in[0] != l.in[1] || l.in[0] != l.out[0]) continue;
    const char kind = dtype(l.out[0]).kind();
    if (nan_maps && kind != 'f' && kind != 'c') continue;  // the nan maps are for inexact dtypes only
    for (int layout = 0; layout < 2; ++layout) {
      detail::scan_desc d;
      d.loop = i;
      d.acc = l.out[0];
      d.in = (i + layout) % 2 ? type_id::int8 : l.out[0];  // mixed input dtypes cast in the kernel
      d.layout = layout ? detail::scan_class::rows : detail::scan_class::lines;
      d.kept = 1 + static_cast<int>((i + layout) % 3);
      if (nan_maps) {
        d.in = d.acc;
        d.map = name == "add" ? detail::scan_map::nan_to_zero : detail::scan_map::nan_to_one;
      }
      compile(detail::compose_scan(*op, d), layout ? 2u : 1u,
              std::string(name) + " loop " + std::to_string(i) + " layout " + std::to_string(layout));
    }
    ++compiled;
  }
  EXPECT_GT(compiled, 0) << name << " has no accumulating loop";
}

TEST(ScanKernels, AddCompilesForEveryDtype) { compile_all_accumulating_loops("add"); }
TEST(ScanKernels, MultiplyCompilesForEveryDtype) { compile_all_accumulating_loops("multiply"); }
TEST(ScanKernels, NanMapsCompile) {
  compile_all_accumulating_loops("add", true);
  compile_all_accumulating_loops("multiply", true);
}
TEST(ScanKernels, OtherOpsCompile) {
  compile_all_accumulating_loops("subtract");
  compile_all_accumulating_loops("maximum");
  compile_all_accumulating_loops("logical_and");
  compile_all_accumulating_loops("bitwise_xor");
}

TEST(ScanKernels, RowsSourceHasTwoKernelsAndLinesOne) {
  const op_spec* op = find_op("add");
  ASSERT_NE(op, nullptr);
  detail::scan_desc d;
  for (std::size_t i = 0; i < op->loops.size(); ++i)
    if (op->loops[i].out[0] == type_id::float32 && op->loops[i].in[0] == type_id::float32) d.loop = i;
  d.acc = d.in = type_id::float32;
  EXPECT_EQ(detail::compose_scan(*op, d).kernels.size(), 1u);
  d.layout = detail::scan_class::rows;
  const detail::composed_program p = detail::compose_scan(*op, d);
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_NE(p.kernels[0].find("cupp_scan_rows"), std::string::npos);
  EXPECT_NE(p.kernels[1].find("cupp_scan_totals"), std::string::npos);
  EXPECT_EQ(p.source.find("#include <cub"), std::string::npos);
  EXPECT_EQ(p.source.find("cuda/std"), std::string::npos);
  // Variants differ by layout, dtype and map.
  detail::scan_desc e = d;
  e.layout = detail::scan_class::lines;
  EXPECT_NE(detail::scan_variant(d), detail::scan_variant(e));
  e = d;
  e.map = detail::scan_map::nan_to_zero;
  EXPECT_NE(detail::scan_variant(d), detail::scan_variant(e));
}

TEST(ScanKernels, ComposerRefusesBadDescriptions) {
  const op_spec* add = find_op("add");
  const op_spec* sin = find_op("sin");
  ASSERT_NE(add, nullptr);
  ASSERT_NE(sin, nullptr);
  detail::scan_desc d;
  d.loop = add->loops.size();
  EXPECT_THROW(detail::compose_scan(*add, d), ValueError);
  d.loop = 0;
  d.acc = add->loops[0].out[0] == type_id::float64 ? type_id::int8 : type_id::float64;  // not the loop's dtypes
  EXPECT_THROW(detail::compose_scan(*add, d), ValueError);
  d.acc = add->loops[0].out[0];
  d.kept = 9;
  EXPECT_THROW(detail::compose_scan(*add, d), ValueError);
  d.kept = 1;
  EXPECT_THROW(detail::compose_scan(*sin, d), ValueError);
}

}  // namespace
}  // namespace cupp
