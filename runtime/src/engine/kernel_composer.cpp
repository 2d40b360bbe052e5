// Builds element-wise kernel source: the device headers, the arity's kernel templates (generated
// from codegen/templates/kernels/), one functor per loop wrapping the spec's body, and the name
// expressions that instantiate the templates with the operands' accessors.
#include "engine/kernel_composer.hpp"

#include <algorithm>
#include <bit>
#include <string_view>

#include "cupp/errors.hpp"
#include "core/tables.hpp"

namespace cupp::detail {

namespace {

std::string device_type(type_id t) { return std::string(info(t).device_type); }

std::string functor_name(const op_spec& op, std::size_t loop) {
  return "cupp_op_" + std::string(op.name) + "::loop_" + std::to_string(loop);
}

std::string program_head(const op_spec& op) {
  const std::string_view kernel_template = elementwise_kernel_template(op.nin, op.nout);
  if (kernel_template.empty())
    throw ValueError("no element-wise kernel template for " + std::to_string(op.nin) + " inputs and " +
                     std::to_string(op.nout) + " outputs (op " + std::string(op.name) + ")");
  std::string src = "#include <cupp/dev/elementwise.cuh>\n\n";
  src += kernel_template;
  return src;
}

std::string accessor(const kernel_operand& o, const kernel_desc& d, const char* off) {
  const std::string t = device_type(o.storage);
  switch (o.access) {
    case operand_access::dense: return "cupp::dev::dense<" + t + ">";
    case operand_access::broadcast: return "cupp::dev::broadcast<" + t + ">";
    case operand_access::value: return "cupp::dev::value<" + t + ">";
    case operand_access::rows: return "cupp::dev::rows<" + t + ", " + std::to_string(d.ndim) + ", " + off + ">";
    case operand_access::tiled: return "cupp::dev::tiled<" + t + ", " + off + ">";
    default: return "cupp::dev::strided<" + t + ", " + std::to_string(d.ndim) + ", " + off + ">";
  }
}

std::string name_expression(const op_spec& op, const kernel_desc& d) {
  const bool i32 = d.width == index_width::i32;
  const char* index = i32 ? "unsigned int" : "unsigned long long";
  const char* off = i32 ? "int" : "long long";
  const std::string arity = std::to_string(op.nin) + "_" + std::to_string(op.nout);
  const char* kernel = d.contiguous ? "cupp_ew_contig_" : d.tiled ? "cupp_ew_tiled_" : "cupp_ew_strided_";
  std::string e = kernel + arity + "<" + functor_name(op, d.loop) + ", " + index + ", ";
  if (d.contiguous) e += std::to_string(d.vec) + ", " + std::to_string(contiguous_unroll(op, d.vec));
  else if (d.tiled) e += off;
  else e += std::string(off) + ", " + std::to_string(d.ndim) + ", " + std::to_string(d.vec);
  for (const kernel_operand& o : d.inputs) e += ", " + accessor(o, d, off);
  for (const kernel_operand& o : d.outputs) e += ", " + accessor(o, d, off);
  if (!d.contiguous && !d.tiled) e += ", " + (d.has_where ? accessor(d.where, d, off) : std::string("cupp::dev::everywhere"));
  return e + ">";
}

void check_desc(const op_spec& op, const kernel_desc& d) {
  if (d.loop >= op.loops.size() || d.inputs.size() != static_cast<std::size_t>(op.nin) ||
      d.outputs.size() != static_cast<std::size_t>(op.nout) || !std::has_single_bit(static_cast<unsigned>(d.vec)) ||
      d.vec > 16 || d.ndim < 1 || d.ndim > 127 || d.loop >= 128 || (d.contiguous && d.has_where) ||
      (d.has_where && d.vec != 1) || (d.tiled && (d.contiguous || d.has_where || d.ndim != 2 || d.vec != 1)))
    throw ValueError("internal: bad kernel description for op " + std::string(op.name));
}

}  // namespace

std::string loop_functor(const op_spec& op, std::size_t i) {
  const loop_spec& loop = op.loops[i];
  std::string src = "struct loop_" + std::to_string(i) + " {\n";
  for (std::size_t k = 0; k < loop.in.size(); ++k)
    src += "  using in" + std::to_string(k) + "_t = " + device_type(loop.in[k]) + ";\n";
  for (std::size_t k = 0; k < loop.out.size(); ++k)
    src += "  using out" + std::to_string(k) + "_t = " + device_type(loop.out[k]) + ";\n";
  src += "  __device__ static void apply(";
  for (std::size_t k = 0; k < loop.in.size(); ++k) src += "in" + std::to_string(k) + "_t in" + std::to_string(k) + ", ";
  for (std::size_t k = 0; k < loop.out.size(); ++k) {
    src += "out" + std::to_string(k) + "_t& out" + std::to_string(k);
    src += k + 1 < loop.out.size() ? ", " : "";
  }
  src += ") {\n    " + std::string(loop.body) + "\n  }\n};\n";
  return src;
}


void operand_list::throw_full() { throw ValueError("internal: a kernel has at most 3 inputs and 2 outputs"); }

int contiguous_unroll(const op_spec& op, int vec) { return op.ulp.empty() ? 1 : vec >= 8 ? 3 : 2; }

int default_vec(const loop_spec& loop) {
  std::size_t widest = 1;
  for (type_id t : loop.in) widest = std::max<std::size_t>(widest, info(t).itemsize);
  for (type_id t : loop.out) widest = std::max<std::size_t>(widest, info(t).itemsize);
  return static_cast<int>(std::max<std::size_t>(1, 16 / widest));
}

kernel_desc all_loops_desc(const op_spec& op, std::size_t loop, index_width width) {
  const loop_spec& l = op.loops[loop];
  kernel_desc d;
  d.loop = loop;
  d.contiguous = true;
  d.vec = default_vec(l);
  d.width = width;
  for (type_id t : l.in) d.inputs.push_back({operand_access::dense, t});
  for (type_id t : l.out) d.outputs.push_back({operand_access::dense, t});
  return d;
}

bool in_all_loops_program(const op_spec& op, const kernel_desc& d) {
  if (!d.contiguous || d.tiled || d.has_where) return false;
  const loop_spec& loop = op.loops[d.loop];
  if (d.vec != default_vec(loop)) return false;
  for (std::size_t k = 0; k < d.inputs.size(); ++k)
    if (d.inputs[k].access != operand_access::dense || d.inputs[k].storage != loop.in[k]) return false;
  for (std::size_t k = 0; k < d.outputs.size(); ++k)
    if (d.outputs[k].access != operand_access::dense || d.outputs[k].storage != loop.out[k]) return false;
  return true;
}

std::uint64_t all_loops_variant(index_width width) { return width == index_width::i64 ? 3 : 1; }

namespace {

// The vector width the launcher picks for aligned operands: 16 bytes of the widest array operand.
int array_vec(const loop_spec& loop, unsigned value_mask) {
  std::size_t widest = 1;
  for (std::size_t k = 0; k < loop.in.size(); ++k)
    if (!(value_mask >> k & 1u)) widest = std::max<std::size_t>(widest, info(loop.in[k]).itemsize);
  for (type_id t : loop.out) widest = std::max<std::size_t>(widest, info(t).itemsize);
  return static_cast<int>(std::max<std::size_t>(1, 16 / widest));
}

unsigned value_masks(const op_spec& op) { return op.nin >= 2 ? (1u << op.nin) - 2 : 0; }

}  // namespace

std::vector<kernel_desc> scalar_descs(const op_spec& op, index_width width) {
  std::vector<kernel_desc> descs;
  const unsigned masks = value_masks(op);
  for (std::size_t loop = 0; loop < op.loops.size(); ++loop) {
    const loop_spec& l = op.loops[loop];
    for (const operand_access single : {operand_access::value, operand_access::broadcast}) {
      for (unsigned mask = 1; mask <= masks; ++mask) {
        kernel_desc d;
        d.loop = loop;
        d.contiguous = true;
        // The launcher's width: 16 bytes of the widest operand in memory (a broadcast one counts).
        d.vec = array_vec(l, single == operand_access::value ? mask : 0u);
        d.width = width;
        for (std::size_t k = 0; k < l.in.size(); ++k)
          d.inputs.push_back({mask >> k & 1u ? single : operand_access::dense, l.in[k]});
        for (type_id t : l.out) d.outputs.push_back({operand_access::dense, t});
        descs.push_back(d);
      }
    }
  }
  return descs;
}

std::optional<std::size_t> scalar_program_index(const op_spec& op, const kernel_desc& d) {
  const unsigned masks = value_masks(op);
  if (masks == 0 || !d.contiguous || d.tiled || d.has_where || d.loop >= op.loops.size()) return std::nullopt;
  const loop_spec& loop = op.loops[d.loop];
  unsigned mask = 0;
  std::optional<operand_access> single;  // value or broadcast: one kind for every such input
  for (std::size_t k = 0; k < d.inputs.size(); ++k) {
    const operand_access a = d.inputs[k].access;
    if (d.inputs[k].storage != loop.in[k]) return std::nullopt;
    if (a == operand_access::dense) continue;
    if ((a != operand_access::value && a != operand_access::broadcast) || (single && *single != a)) return std::nullopt;
    single = a;
    mask |= 1u << k;
  }
  if (mask == 0 || mask > masks) return std::nullopt;
  for (std::size_t k = 0; k < d.outputs.size(); ++k)
    if (d.outputs[k].access != operand_access::dense || d.outputs[k].storage != loop.out[k]) return std::nullopt;
  const bool broadcast = *single == operand_access::broadcast;
  if (d.vec != array_vec(loop, broadcast ? 0u : mask)) return std::nullopt;
  return (d.loop * 2 + (broadcast ? 1 : 0)) * masks + (mask - 1);
}

std::uint64_t scalar_variant(index_width width) { return width == index_width::i64 ? 7 : 5; }

std::vector<kernel_desc> cast_descs(const op_spec& op, index_width width) {
  std::vector<kernel_desc> descs;
  for (std::size_t loop = 0; loop < op.loops.size(); ++loop) {
    const type_id from = op.loops[loop].in[0];
    for (std::size_t t = 0; t < op.loops.size(); ++t) {
      const type_id to = op.loops[t].out[0];
      kernel_desc d;
      d.loop = loop;
      d.contiguous = true;
      d.width = width;
      const std::size_t widest = t == loop ? info(from).itemsize : std::max(info(from).itemsize, info(to).itemsize);
      d.vec = static_cast<int>(std::max<std::size_t>(1, 16 / widest));
      d.inputs.push_back({t == loop ? operand_access::value : operand_access::dense, from});
      d.outputs.push_back({operand_access::dense, to});
      descs.push_back(d);
    }
  }
  return descs;
}

std::optional<std::size_t> cast_program_index(const op_spec& op, const kernel_desc& d) {
  if (op.nin != 1 || op.nout != 1 || !d.contiguous || d.tiled || d.has_where || d.loop >= op.loops.size())
    return std::nullopt;
  const type_id from = op.loops[d.loop].in[0];
  if (d.inputs[0].storage != from || d.outputs[0].access != operand_access::dense) return std::nullopt;
  std::size_t t = 0;
  while (t < op.loops.size() && op.loops[t].out[0] != d.outputs[0].storage) ++t;
  if (t == op.loops.size()) return std::nullopt;
  const bool fill = d.inputs[0].access == operand_access::value;
  if (fill != (t == d.loop) || (!fill && d.inputs[0].access != operand_access::dense)) return std::nullopt;
  const std::size_t widest = fill ? info(from).itemsize : std::max(info(from).itemsize, info(d.outputs[0].storage).itemsize);
  if (d.vec != static_cast<int>(std::max<std::size_t>(1, 16 / widest))) return std::nullopt;
  return d.loop * op.loops.size() + t;
}

std::uint64_t cast_variant(index_width width) { return width == index_width::i64 ? 11 : 9; }

composed_program compose_cast_program(const op_spec& op, index_width width) {
  const std::vector<kernel_desc> descs = cast_descs(op, width);
  composed_program out = compose_elementwise(op, descs);
  out.name = "cupp_" + std::string(op.name) + "_casts";
  return out;
}

namespace {

bool broadcast2d_loop(const loop_spec& l) {
  const type_id t = l.out.front();
  if (t != type_id::float32 && t != type_id::float64) return false;
  return std::all_of(l.in.begin(), l.in.end(), [&](type_id u) { return u == t; }) &&
         std::all_of(l.out.begin(), l.out.end(), [&](type_id u) { return u == t; });
}

// Form 0: the row is input 1, 1: input 0 (vectors along rows); 2: the column is input 1, 3:
// input 0 (tiled). The matrix operands are dense (C order over the collapsed plan).
constexpr int broadcast2d_forms = 4;

kernel_desc broadcast2d_desc(const op_spec& op, std::size_t loop, int form, index_width width) {
  const loop_spec& l = op.loops[loop];
  kernel_desc d;
  d.loop = loop;
  d.contiguous = false;
  d.ndim = 2;
  d.width = width;
  d.tiled = form >= 2;
  d.vec = d.tiled ? 1 : default_vec(l);
  const std::size_t broadcast = form % 2 == 0 ? 1 : 0;  // the input that is a row or a column
  for (std::size_t k = 0; k < l.in.size(); ++k) {
    const operand_access a = k != broadcast ? operand_access::dense : d.tiled ? operand_access::tiled : operand_access::rows;
    d.inputs.push_back({a, l.in[k]});
  }
  for (type_id t : l.out) d.outputs.push_back({operand_access::dense, t});
  return d;
}

}  // namespace

bool has_broadcast2d_program(const op_spec& op) {
  static constexpr std::string_view names[] = {"add", "subtract", "multiply", "divide", "maximum", "minimum"};
  if (op.nin != 2 || op.nout != 1 || std::find(std::begin(names), std::end(names), op.name) == std::end(names)) return false;
  return std::any_of(op.loops.begin(), op.loops.end(), broadcast2d_loop);
}

std::vector<kernel_desc> broadcast2d_descs(const op_spec& op, index_width width) {
  std::vector<kernel_desc> descs;
  if (!has_broadcast2d_program(op)) return descs;
  for (std::size_t loop = 0; loop < op.loops.size(); ++loop)
    if (broadcast2d_loop(op.loops[loop]))
      for (int form = 0; form < broadcast2d_forms; ++form) descs.push_back(broadcast2d_desc(op, loop, form, width));
  return descs;
}

std::optional<std::size_t> broadcast2d_program_index(const op_spec& op, const kernel_desc& d) {
  if (d.contiguous || d.has_where || d.ndim != 2 || d.loop >= op.loops.size() || !has_broadcast2d_program(op) ||
      !broadcast2d_loop(op.loops[d.loop]))
    return std::nullopt;
  std::size_t j = 0;
  for (std::size_t loop = 0; loop < d.loop; ++loop) j += broadcast2d_loop(op.loops[loop]);
  for (int form = 0; form < broadcast2d_forms; ++form) {
    const kernel_desc f = broadcast2d_desc(op, d.loop, form, d.width);
    if (f.tiled != d.tiled || f.vec != d.vec || f.inputs.size() != d.inputs.size() || f.outputs.size() != d.outputs.size())
      continue;
    bool same = true;
    for (std::size_t k = 0; k < f.inputs.size(); ++k)
      same = same && f.inputs[k].access == d.inputs[k].access && f.inputs[k].storage == d.inputs[k].storage;
    for (std::size_t k = 0; k < f.outputs.size(); ++k)
      same = same && f.outputs[k].access == d.outputs[k].access && f.outputs[k].storage == d.outputs[k].storage;
    if (same) return broadcast2d_forms * j + static_cast<std::size_t>(form);
  }
  return std::nullopt;
}

std::uint64_t broadcast2d_variant(index_width width) { return width == index_width::i64 ? 15 : 13; }

composed_program compose_broadcast2d_program(const op_spec& op, index_width width) {
  composed_program out = compose_elementwise(op, broadcast2d_descs(op, width));
  out.name = "cupp_" + std::string(op.name) + "_broadcast2d";
  return out;
}

composed_program compose_scalar_program(const op_spec& op, index_width width) {
  const std::vector<kernel_desc> descs = scalar_descs(op, width);
  composed_program out = compose_elementwise(op, descs);
  out.name = "cupp_" + std::string(op.name) + "_scalars";
  return out;
}

std::uint64_t variant_code(const kernel_desc& d) {
  std::uint64_t code = 0;  // bit 0 stays 0: not the all-loops program
  code |= std::uint64_t(d.width == index_width::i64) << 1;
  code |= std::uint64_t(d.contiguous) << 2;
  code |= std::uint64_t(std::countr_zero(static_cast<unsigned>(d.vec))) << 3;  // 3 bits
  code |= std::uint64_t(d.ndim & 0x7f) << 6;                                   // 7 bits
  code |= std::uint64_t(d.loop & 0x7f) << 13;                                  // 7 bits
  code |= std::uint64_t(d.tiled) << 20;
  code |= std::uint64_t(d.has_where) << 21;
  int shift = 22;
  auto put = [&](const kernel_operand& o) {  // 7 bits each: up to 6 operands fill bits 22..63
    code |= (std::uint64_t(o.access) | std::uint64_t(static_cast<unsigned>(o.storage)) << 3) << shift;
    shift += 7;
  };
  for (const kernel_operand& o : d.inputs) put(o);
  for (const kernel_operand& o : d.outputs) put(o);
  if (d.has_where) put(d.where);
  return code;
}

composed_program compose_elementwise(const op_spec& op, index_width width) {
  composed_program out;
  out.name = "cupp_" + std::string(op.name);
  out.source = program_head(op);
  out.source += "\nnamespace cupp_op_" + std::string(op.name) + " {\n";
  for (std::size_t i = 0; i < op.loops.size(); ++i) out.source += loop_functor(op, i);
  out.source += "}  // namespace cupp_op_" + std::string(op.name) + "\n";
  for (std::size_t i = 0; i < op.loops.size(); ++i) out.kernels.push_back(name_expression(op, all_loops_desc(op, i, width)));
  return out;
}

composed_program compose_elementwise(const op_spec& op, const kernel_desc& desc) {
  return compose_elementwise(op, std::span<const kernel_desc>(&desc, 1));
}

composed_program compose_elementwise(const op_spec& op, std::span<const kernel_desc> descs) {
  std::vector<bool> used(op.loops.size(), false);
  for (const kernel_desc& d : descs) {
    check_desc(op, d);
    used[d.loop] = true;
  }
  composed_program out;
  out.name = "cupp_" + std::string(op.name) + (descs.size() == 1 ? "_" + std::to_string(descs.front().loop) : "");
  out.source = program_head(op);
  out.source += "\nnamespace cupp_op_" + std::string(op.name) + " {\n";
  for (std::size_t i = 0; i < op.loops.size(); ++i)
    if (used[i]) out.source += loop_functor(op, i);
  out.source += "}\n";
  for (const kernel_desc& d : descs) out.kernels.push_back(name_expression(op, d));
  return out;
}

composed_program compose_reduction(const op_spec& op, const reduce_desc& d) {
  if (d.loop >= op.loops.size()) throw ValueError("internal: bad reduction loop for op " + std::string(op.name));
  const loop_spec& loop = op.loops[d.loop];
  if (op.nin != 2 || op.nout != 1 || loop.in[0] != d.acc || loop.in[1] != d.acc || loop.out[0] != d.acc ||
      d.kept < 1 || d.kept > 8 || d.reduced < 1 || d.reduced > 8)
    throw ValueError("internal: bad reduction description for op " + std::string(op.name));
  if (d.selective && d.packed) throw ValueError("internal: a where=/initial= reduction is never packed");
  composed_program out;
  out.name = "cupp_reduce_" + std::string(op.name);
  out.source = std::string(d.selective ? "#include <cupp/dev/reduction_where.cuh>" : "#include <cupp/dev/reduction.cuh>") +
               "\n\nnamespace cupp_op_" + std::string(op.name) + " {\n" + loop_functor(op, d.loop) + "}\n";
  const std::string f = functor_name(op, d.loop), acc = device_type(d.acc);
  const bool columns = d.layout == reduce_class::columns;
  const std::string kernel = columns ? "cupp::dev::cupp_reduce_columns<" : "cupp::dev::cupp_reduce_rows<";
  std::string map;
  switch (d.map) {
    case reduce_map::cast: map = "cupp::dev::map_cast"; break;
    case reduce_map::nonzero: map = "cupp::dev::map_nonzero"; break;
    case reduce_map::nan_to_zero: map = "cupp::dev::map_nan_to<0>"; break;
    case reduce_map::nan_to_one: map = "cupp::dev::map_nan_to<1>"; break;
    case reduce_map::not_nan: map = "cupp::dev::map_not_nan"; break;
    case reduce_map::squared_deviation:
    case reduce_map::squared_deviation_nan:
      map = "cupp::dev::map_squared_deviation<" + device_type(d.map_type) +
            (d.map == reduce_map::squared_deviation_nan ? ", true>" : ", false>");
      break;
    default: throw ValueError("internal: bad reduction map for op " + std::string(op.name));
  }
  const std::string dims = std::to_string(d.kept) + ", " + std::to_string(d.reduced);
  if (d.selective) {
    // where= / initial=: the start value and the mask are kernel parameters (reduction_where.cuh).
    const std::string masked = columns ? "cupp::dev::cupp_reduce_masked_columns<" : "cupp::dev::cupp_reduce_masked_rows<";
    const std::string head = masked + f + ", " + acc + ", " + device_type(d.in) + ", ";
    const std::string tail = ", " + map + (d.mask ? ", true>" : ", false>");
    out.kernels.push_back(head + device_type(d.out) + ", " + dims + ", true" + tail);
    out.kernels.push_back(head + acc + ", " + dims + ", false" + tail);
  }
  const std::string first = kernel + f + ", " + acc + ", " + device_type(d.in) + ", ";
  // The columns class starts from the op's identity, as NumPy's reduction does.
  std::string identity;
  if (columns) {
    const std::string_view id = op.identity;
    identity = id.empty() ? ", false, 0" : id == "True" ? ", true, 1" : id == "False" ? ", true, 0" : ", true, " + std::string(id);
    identity += d.packed ? ", true" : ", false";
  }
  if (!d.selective) {
    out.kernels.push_back(first + device_type(d.out) + ", " + dims + ", true" + identity + ", " + map + ">");
    out.kernels.push_back(first + acc + ", " + dims + ", false" + identity + ", " + map + ">");
  }
  out.kernels.push_back("cupp::dev::cupp_reduce_rows<" + f + ", " + acc + ", " + acc + ", " + device_type(d.out) + ", 1, 1, true>");
  // Columns: their chunk-major partials are combined by a thread per output (no identity again).
  if (columns)
    out.kernels.push_back("cupp::dev::cupp_reduce_columns<" + f + ", " + acc + ", " + acc + ", " + device_type(d.out) +
                          ", 1, 1, true, false, 0, false>");
  return out;
}

std::uint64_t reduce_variant(const reduce_desc& d) {
  std::uint64_t code = d.loop & 0x7f;
  code |= std::uint64_t(static_cast<unsigned>(d.acc) & 0x1f) << 7;
  code |= std::uint64_t(static_cast<unsigned>(d.in) & 0x1f) << 12;
  code |= std::uint64_t(static_cast<unsigned>(d.out) & 0x1f) << 17;
  code |= std::uint64_t(d.layout == reduce_class::columns) << 22;
  code |= std::uint64_t(d.kept & 0xf) << 23;
  code |= std::uint64_t(d.reduced & 0xf) << 27;
  code |= std::uint64_t(d.packed) << 31;
  code |= std::uint64_t(static_cast<unsigned>(d.map) & 0x7) << 32;
  code |= std::uint64_t(static_cast<unsigned>(d.map_type) & 0x1f) << 35;
  code |= std::uint64_t(d.selective) << 40;
  code |= std::uint64_t(d.mask) << 41;
  return code;
}

composed_program compose_reduceat(const op_spec& op, const reduceat_desc& d) {
  if (d.loop >= op.loops.size()) throw ValueError("internal: bad reduceat loop for op " + std::string(op.name));
  const loop_spec& loop = op.loops[d.loop];
  if (op.nin != 2 || op.nout != 1 || loop.in[0] != d.acc || loop.in[1] != d.acc || loop.out[0] != d.acc ||
      d.kept < 1 || d.kept > 8 || static_cast<int>(d.in) >= n_builtin_types || static_cast<int>(d.out) >= n_builtin_types)
    throw ValueError("internal: bad reduceat description for op " + std::string(op.name));
  composed_program out;
  out.name = "cupp_reduceat_" + std::string(op.name);
  out.source = "#include <cupp/dev/reduction_where.cuh>\n\nnamespace cupp_op_" + std::string(op.name) + " {\n" +
               loop_functor(op, d.loop) + "}\n";
  out.kernels.push_back("cupp::dev::cupp_reduceat<" + functor_name(op, d.loop) + ", " + device_type(d.acc) + ", " +
                        device_type(d.in) + ", " + device_type(d.out) + ", " + std::to_string(d.kept) + ">");
  return out;
}

std::uint64_t reduceat_variant(const reduceat_desc& d) {
  std::uint64_t code = d.loop & 0x7f;
  code |= std::uint64_t(static_cast<unsigned>(d.acc) & 0x1f) << 7;
  code |= std::uint64_t(static_cast<unsigned>(d.in) & 0x1f) << 12;
  code |= std::uint64_t(static_cast<unsigned>(d.out) & 0x1f) << 17;
  code |= std::uint64_t(d.kept & 0xf) << 22;
  return code;
}

composed_program compose_user_reduction(const user_reduction& r, const reduce_desc& d) {
  if (d.kept < 1 || d.kept > 8 || d.reduced < 1 || d.reduced > 8)
    throw ValueError("internal: bad reduction description for kernel " + r.name);
  const std::string acc = device_type(d.acc), param = device_type(r.in_param), out_t = device_type(d.out);
  composed_program out;
  out.name = "cupp_" + r.name;
  std::string& src = out.source;
  src = "#include <cupp/dev/reduction.cuh>\n\nnamespace " + r.name + " {\n" + r.aliases;
  src += "using _type_reduce = " + acc + ";\n";
  src += "struct reduce {\n  __device__ static void apply(_type_reduce a, _type_reduce b, _type_reduce& _out) {\n"
         "    _out = cupp::dev::cast<_type_reduce>((\n" + r.reduce_expr + "\n));\n  }\n};\n";
  src += "struct map {\n  template <class _Acc, class _In>\n  __device__ static _Acc apply(_In _x, const void*, long long) {\n"
         "    const " + param + " " + r.in_name + " = cupp::dev::cast<" + param + ">(_x);\n"
         "    return cupp::dev::cast<_Acc>((\n" + r.map_expr + "\n));\n  }\n};\n";
  src += "struct post {\n  template <class _Out, class _Acc>\n  __device__ static _Out apply(_Acc a) {\n"
         "    " + out_t + " " + r.out_name + ";\n    " +
         (r.post_map_expr.empty() ? r.out_name + " = cupp::dev::cast<" + out_t + ">(a);" : r.post_map_expr) +
         "\n    ;\n    return " + r.out_name + ";\n  }\n};\n";
  if (!r.identity.empty())
    src += "struct identity {\n  template <class _Acc>\n  __device__ static _Acc value() {\n"
           "    return cupp::dev::cast<_Acc>((\n" + r.identity + "\n));\n  }\n};\n";
  src += "}  // namespace " + r.name + "\n";
  const std::string f = r.name + "::reduce", map = r.name + "::map", post = r.name + "::post";
  const bool columns = d.layout == reduce_class::columns;
  const std::string kernel = columns ? "cupp::dev::cupp_reduce_columns<" : "cupp::dev::cupp_reduce_rows<";
  const std::string dims = std::to_string(d.kept) + ", " + std::to_string(d.reduced);
  const std::string first = kernel + f + ", " + acc + ", " + device_type(d.in) + ", ";
  const std::string tail = columns ? std::string(", false, 0, ") + (d.packed ? "true" : "false") : std::string();
  out.kernels.push_back(first + out_t + ", " + dims + ", true" + tail + ", " + map + ", " + post + ">");
  out.kernels.push_back(first + acc + ", " + dims + ", false" + tail + ", " + map + ", " + post + ">");
  if (columns)
    out.kernels.push_back("cupp::dev::cupp_reduce_columns<" + f + ", " + acc + ", " + acc + ", " + out_t +
                          ", 1, 1, true, false, 0, false, cupp::dev::map_cast, " + post + ">");
  else
    out.kernels.push_back("cupp::dev::cupp_reduce_rows<" + f + ", " + acc + ", " + acc + ", " + out_t +
                          ", 1, 1, true, cupp::dev::map_cast, " + post + ">");
  if (!r.identity.empty())
    out.kernels.push_back("cupp::dev::cupp_reduce_identity<" + r.name + "::identity, " + post + ", " + acc + ", " + out_t + ">");
  return out;
}

composed_program compose_user_elementwise(const user_elementwise_desc& d) {
  if (d.ndim < 1 || d.ndim > 64) throw ValueError("internal: bad user kernel description for " + d.kernel_name);
  const std::string n = std::to_string(d.ndim);
  composed_program out;
  out.name = "cupp_" + d.kernel_name;
  std::string& src = out.source;
  src = "#include <cupp/dev/elementwise.cuh>\n\n__global__ void " + d.kernel_name +
        "(long long _n, cupp::dev::extents<" + n + ", long long> _e";
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const user_elementwise_param& p = d.params[k];
    const std::string t = device_type(p.storage);
    switch (p.kind) {
      case user_operand::array: src += ", cupp::dev::strided<" + t + ", " + n + ", long long>"; break;
      case user_operand::value: src += ", cupp::dev::value<" + t + ">"; break;
      case user_operand::raw: src += ", cupp::dev::raw_array<" + t + ">"; break;
    }
    src += " _p" + std::to_string(k);
  }
  src += ") {\n  const cupp::dev::loop_indexer _ind{_n};\n"
         "  const long long _step = static_cast<long long>(gridDim.x) * blockDim.x;\n"
         "  for (long long _k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; _k < _n; _k += _step) {\n"
         "    long long _c[" + n + "];\n    cupp::dev::coordinates<" + n + ", long long, long long>(_k, _e, _c);\n"
         "    const long long i = _k;\n    (void)i;\n    (void)_ind;\n";
  src += d.aliases;
  std::string stores;
  for (std::size_t k = 0; k < d.params.size(); ++k) {
    const user_elementwise_param& p = d.params[k];
    const std::string t = device_type(p.param), s = device_type(p.storage), a = "_p" + std::to_string(k);
    if (p.kind == user_operand::raw) {
      src += "    const cupp::dev::raw_array<" + t + "> " + p.name + " = " + a + ";\n";
    } else if (p.kind == user_operand::value) {
      src += "    const " + t + " " + p.name + " = " + a + ".x;\n";
    } else if (!p.output) {
      src += "    const " + t + " " + p.name + " = cupp::dev::cast<" + t + ">(" + a + ".load_at(_k, _c));\n";
    } else if (p.param == p.storage) {
      src += "    " + t + "& " + p.name + " = *" + a + ".address(_c);\n";
    } else {
      src += "    " + t + " " + p.name + " = cupp::dev::cast<" + t + ">(" + a + ".load_at(_k, _c));\n";
      stores += "    " + a + ".store_at(_k, _c, cupp::dev::cast<" + s + ">(" + p.name + "));\n";
    }
  }
  src += "    {\n" + d.operation + "\n    ;\n    }\n" + stores + "  }\n}\n";
  out.kernels.push_back(d.kernel_name);
  return out;
}

composed_program compose_arg_reduction(const arg_reduce_desc& d) {
  if (d.kept < 1 || d.kept > 8 || d.reduced < 1 || d.reduced > 8 || static_cast<int>(d.in) >= n_builtin_types ||
      info(d.in).device_type.empty())
    throw ValueError("internal: bad argmax/argmin description");
  composed_program out;
  const std::string name = std::string(d.skip_nan ? "nan" : "") + (d.max ? "argmax" : "argmin");
  out.name = "cupp_" + name;
  out.source = "#include <cupp/dev/reduction.cuh>\n";
  const std::string head = device_type(d.in) + ", " + (d.max ? "true" : "false") + ", " + (d.skip_nan ? "true" : "false");
  const std::string kernel = d.layout == reduce_class::columns ? "cupp::dev::cupp_arg_columns<" : "cupp::dev::cupp_arg_rows<";
  const std::string dims = std::to_string(d.kept) + ", " + std::to_string(d.reduced);
  out.kernels.push_back(kernel + head + ", " + dims + ", true>");
  out.kernels.push_back(kernel + head + ", " + dims + ", false>");
  out.kernels.push_back("cupp::dev::cupp_arg_combine<" + head + ">");
  return out;
}

composed_program compose_moments(const moments_desc& d) {
  if (d.kept < 1 || d.kept > 8 || d.reduced < 1 || d.reduced > 8 || static_cast<int>(d.in) >= n_builtin_types ||
      static_cast<int>(d.out) >= n_builtin_types || info(d.in).device_type.empty() || info(d.out).device_type.empty())
    throw ValueError("internal: bad var/std description");
  composed_program out;
  out.name = std::string("cupp_") + (d.skip_nan ? "nan" : "") + (d.root ? "std" : "var");
  out.source = "#include <cupp/dev/moments.cuh>\n";
  const std::string flag = d.skip_nan ? "true" : "false";
  out.kernels.push_back(std::string(d.layout == reduce_class::columns ? "cupp::dev::cupp_moments_columns<"
                                                                        : "cupp::dev::cupp_moments_rows<") +
                        device_type(d.in) + ", " + std::to_string(d.kept) + ", " + std::to_string(d.reduced) + ", " +
                        flag + ">");
  for (const char* block : {"false", "true"})
    out.kernels.push_back("cupp::dev::cupp_moments_finish<" + device_type(d.out) + ", " + flag + ", " +
                          (d.root ? "true" : "false") + ", " + block + ">");
  return out;
}

std::uint64_t moments_variant(const moments_desc& d) {
  std::uint64_t code = static_cast<unsigned>(d.in) & 0x1f;
  code |= std::uint64_t(static_cast<unsigned>(d.out) & 0x1f) << 5;
  code |= std::uint64_t(d.skip_nan) << 10;
  code |= std::uint64_t(d.root) << 11;
  code |= std::uint64_t(d.layout == reduce_class::columns) << 12;
  code |= std::uint64_t(d.kept & 0xf) << 13;
  code |= std::uint64_t(d.reduced & 0xf) << 17;
  return code;
}

std::uint64_t arg_reduce_variant(const arg_reduce_desc& d) {
  std::uint64_t code = static_cast<unsigned>(d.in) & 0x1f;
  code |= std::uint64_t(d.max) << 5;
  code |= std::uint64_t(d.skip_nan) << 6;
  code |= std::uint64_t(d.layout == reduce_class::columns) << 7;
  code |= std::uint64_t(d.kept & 0xf) << 8;
  code |= std::uint64_t(d.reduced & 0xf) << 12;
  return code;
}

}  // namespace cupp::detail
