// The list of programs built in ahead of time (see builtin_programs.hpp).
#include "routines/builtin_programs.hpp"

#include "routines/routine_programs.hpp"

#include <exception>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "core/tables.hpp"
#include "cupp/ops.hpp"
#include "engine/internal.hpp"
#include "engine/kernel_composer.hpp"
#include "engine/reduce_common.hpp"
#include "engine/scan_composer.hpp"
#include "routines/manipulation/manipulation_kernels.hpp"

namespace cupp::detail {

namespace {

program_source source_of(composed_program p) {
  return program_source{std::move(p.name), std::move(p.source), std::move(p.kernels), {}};
}

// sum, prod, max, min, any, all along one axis of a matrix or over a contiguous array (one kept
// and one reduced dimension after collapsing): rows, columns and packed columns, in the dtypes the
// reduction itself picks (reduce_common.hpp: NumPy's default result, accumulated in float32 for
// float16/bfloat16 sums and products, combined by the op's combining loop). The logical ops are
// built for bool elements only.
void add_reductions(std::vector<program_source>& programs) {
  for (const std::string_view name : {"add", "multiply", "maximum", "minimum", "logical_or", "logical_and"}) {
    const op_spec* op = find_op(name);
    if (op == nullptr || op->nin != 2 || op->nout != 1) continue;
    const bool sums = name == "add" || name == "multiply";
    for (int t = 0; t < static_cast<int>(n_builtin_types); ++t) {
      const type_id in = static_cast<type_id>(t);
      const type_id out = engine::default_result(*op, dtype(in)).id();
      if (out == type_id::bool_ && in != type_id::bool_) continue;
      const bool half = out == type_id::float16 || out == type_id::bfloat16;
      const type_id acc = sums && half ? type_id::float32 : out;
      std::size_t loop = 0;
      try {
        loop = engine::combining_loop(*op, acc, "reduce");
      } catch (const std::exception&) {  // no loop combines this dtype
        continue;
      }
      for (const int layout : {0, 1, 2}) {
        reduce_desc d;
        d.loop = loop;
        d.acc = acc;
        d.in = in;
        d.out = out;
        d.layout = layout == 0 ? reduce_class::rows : reduce_class::columns;
        d.packed = layout == 2;
        if (d.packed && info(in).itemsize >= 16) continue;
        programs.push_back(source_of(compose_reduction(*op, d)));
      }
    }
  }
}

bool is_inexact(type_id t) {
  const char kind = info(t).kind;
  return kind == 'f' || kind == 'c';
}

// argmax/argmin (with and without NaN skipping) and var/std (nanvar/nanstd) of every dtype
// along one axis or over a contiguous array, as the reductions' planners describe them.
void add_arg_and_moment_reductions(std::vector<program_source>& programs) {
  for (int t = 0; t < static_cast<int>(n_builtin_types); ++t) {
    const type_id in = static_cast<type_id>(t);
    for (const reduce_class layout : {reduce_class::rows, reduce_class::columns}) {
      for (const bool skip_nan : {false, true}) {
        if (skip_nan && !is_inexact(in)) continue;
        for (const bool max : {true, false}) {
          arg_reduce_desc d;
          d.in = in;
          d.max = max;
          d.skip_nan = skip_nan;
          d.layout = layout;
          try {
            programs.push_back(source_of(compose_arg_reduction(d)));
          } catch (const std::exception&) {  // a dtype the kernels do not take
          }
        }
        if (info(in).kind == 'c') continue;  // moments of real dtypes only
        for (const bool root : {false, true}) {
          moments_desc d;
          d.in = in;
          d.out = is_inexact(in) ? in : type_id::float64;
          d.skip_nan = skip_nan;
          d.root = root;
          d.layout = layout;
          try {
            programs.push_back(source_of(compose_moments(d)));
          } catch (const std::exception&) {
          }
        }
      }
    }
  }
}

// cumsum and cumprod (nancumsum and nancumprod of inexact dtypes) of every dtype along one axis
// whose other dimensions collapse to one, in the dtype the scan picks (NumPy's default result):
// the thread-per-line and the tiled row scans.
void add_scans(std::vector<program_source>& programs) {
  for (const std::string_view name : {"add", "multiply"}) {
    const op_spec* op = find_op(name);
    if (op == nullptr || op->nin != 2 || op->nout != 1) continue;
    for (int t = 0; t < static_cast<int>(n_builtin_types); ++t) {
      const type_id in = static_cast<type_id>(t);
      const type_id acc = engine::default_result(*op, dtype(in)).id();
      std::size_t loop = 0;
      try {
        loop = engine::combining_loop(*op, acc, "accumulate");
      } catch (const std::exception&) {  // no loop combines this dtype
        continue;
      }
      for (const scan_map map : {scan_map::cast, name == "add" ? scan_map::nan_to_zero : scan_map::nan_to_one}) {
        if (map != scan_map::cast && !is_inexact(in)) continue;
        for (const scan_class layout : {scan_class::lines, scan_class::rows}) {
          scan_desc d;
          d.loop = loop;
          d.acc = acc;
          d.in = in;
          d.layout = layout;
          d.kept = 1;
          d.map = map;
          programs.push_back(source_of(compose_scan(*op, d)));
        }
      }
    }
  }
}

}  // namespace

std::vector<program_source> builtin_programs() {
  std::vector<program_source> programs;
  for (const op_spec& op : builtin_ops()) {
    programs.push_back(source_of(compose_elementwise(op, index_width::i32)));
    if (op.nin >= 2) programs.push_back(source_of(compose_scalar_program(op, index_width::i32)));
    if (has_broadcast2d_program(op)) programs.push_back(source_of(compose_broadcast2d_program(op, index_width::i32)));
  }
  // where and clip are the runtime's own ops (not in builtin_ops()): their loops and scalar programs
  for (const op_spec* op : {&where_op(), &clip_op()}) {
    programs.push_back(source_of(compose_elementwise(*op, index_width::i32)));
    programs.push_back(source_of(compose_scalar_program(*op, index_width::i32)));
  }
  programs.push_back(source_of(compose_cast_program(engine::copy_op_spec(), index_width::i32)));
  add_reductions(programs);
  add_arg_and_moment_reductions(programs);
  add_scans(programs);
  // Routine instantiations that compose alike (ufunc.at's loops of one shape) are listed once.
  std::set<std::tuple<std::string, std::string, std::vector<std::string>>> routines;
  for (const routine_program_instance& r : every_routine_program()) {
    program_source p = r.program.to_source();
    if (!p.headers.empty()) continue;  // modules' programs are not built in
    if (routines.emplace(p.name, p.source, p.name_expressions).second) programs.push_back(std::move(p));
  }
  return programs;
}

}  // namespace cupp::detail
