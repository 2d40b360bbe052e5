// Builds scan programs: cupp/dev/scan.cuh, one functor wrapping the op's loop body
// (kernel_composer's loop_functor), and the name expressions of the kernels.
#include "engine/scan_composer.hpp"

#include <string>

#include "cupp/errors.hpp"
#include "core/tables.hpp"

namespace cupp::detail {

namespace {

std::string device_type(type_id t) { return std::string(info(t).device_type); }

}  // namespace

composed_program compose_scan(const op_spec& op, const scan_desc& d) {
  if (d.loop >= op.loops.size()) throw ValueError("internal: bad scan loop for op " + std::string(op.name));
  const loop_spec& loop = op.loops[d.loop];
  if (op.nin != 2 || op.nout != 1 || loop.in[0] != d.acc || loop.in[1] != d.acc || loop.out[0] != d.acc || d.kept < 1 ||
      d.kept > 8 || static_cast<int>(d.in) >= n_builtin_types || info(d.in).device_type.empty())
    throw ValueError("internal: bad scan description for op " + std::string(op.name));
  composed_program out;
  out.name = "cupp_scan_" + std::string(op.name);
  out.source = "#include <cupp/dev/scan.cuh>\n\nnamespace cupp_op_" + std::string(op.name) + " {\n" +
               loop_functor(op, d.loop) + "}\n";
  const std::string f = "cupp_op_" + std::string(op.name) + "::loop_" + std::to_string(d.loop);
  const std::string acc = device_type(d.acc), in = device_type(d.in), n = std::to_string(d.kept);
  std::string map;
  switch (d.map) {
    case scan_map::cast: map = "cupp::dev::scan_map_cast"; break;
    case scan_map::nan_to_zero: map = "cupp::dev::scan_map_nan_to<0>"; break;
    case scan_map::nan_to_one: map = "cupp::dev::scan_map_nan_to<1>"; break;
    default: throw ValueError("internal: bad scan map for op " + std::string(op.name));
  }
  if (d.layout == scan_class::lines) {
    out.kernels.push_back("cupp::dev::cupp_scan_lines<" + f + ", " + acc + ", " + in + ", " + n + ", " + map + ">");
  } else {
    out.kernels.push_back("cupp::dev::cupp_scan_rows<" + f + ", " + acc + ", " + in + ", " + n + ", " + map + ">");
    out.kernels.push_back("cupp::dev::cupp_scan_totals<" + f + ", " + acc + ", " + in + ", " + n + ", " + map + ">");
  }
  return out;
}

std::uint64_t scan_variant(const scan_desc& d) {
  std::uint64_t code = d.loop & 0x7f;
  code |= std::uint64_t(static_cast<unsigned>(d.acc) & 0x1f) << 7;
  code |= std::uint64_t(static_cast<unsigned>(d.in) & 0x1f) << 12;
  code |= std::uint64_t(d.layout == scan_class::rows) << 17;
  code |= std::uint64_t(d.kept & 0xf) << 18;
  code |= std::uint64_t(static_cast<unsigned>(d.map) & 0x3) << 22;
  return code;
}

}  // namespace cupp::detail
