// Builds element-wise kernel source: prelude include, the arity's kernel template (generated from
// codegen/templates/kernels/), one functor per loop wrapping the spec's body, and the name
// expressions that instantiate the template per loop.
#include "kernel_composer.hpp"

#include "cupp/errors.hpp"
#include "tables.hpp"

namespace cupp::detail {

composed_program compose_elementwise(const op_spec& op, index_width width) {
  const std::string_view kernel_template = elementwise_kernel_template(op.nin, op.nout);
  if (kernel_template.empty())
    throw ValueError("no element-wise kernel template for " + std::to_string(op.nin) + " inputs and " +
                     std::to_string(op.nout) + " outputs (op " + std::string(op.name) + ")");
  const std::string ns = "cupp_op_" + std::string(op.name);
  const char* index_type = width == index_width::i32 ? "unsigned int" : "unsigned long long";
  const std::string kernel = "cupp_elementwise_" + std::to_string(op.nin) + "_" + std::to_string(op.nout);

  composed_program out;
  out.name = "cupp_" + std::string(op.name);
  std::string& src = out.source;
  src += "#include <cupp/dev/prelude.cuh>\n\n";
  src += kernel_template;
  src += "\nnamespace " + ns + " {\n";
  for (std::size_t i = 0; i < op.loops.size(); ++i) {
    const loop_spec& loop = op.loops[i];
    src += "struct loop_" + std::to_string(i) + " {\n";
    for (std::size_t k = 0; k < loop.in.size(); ++k)
      src += "  using in" + std::to_string(k) + "_t = " + std::string(info(loop.in[k]).device_type) + ";\n";
    for (std::size_t k = 0; k < loop.out.size(); ++k)
      src += "  using out" + std::to_string(k) + "_t = " + std::string(info(loop.out[k]).device_type) + ";\n";
    src += "  __device__ static void apply(";
    for (std::size_t k = 0; k < loop.in.size(); ++k) src += "in" + std::to_string(k) + "_t in" + std::to_string(k) + ", ";
    for (std::size_t k = 0; k < loop.out.size(); ++k) {
      src += "out" + std::to_string(k) + "_t& out" + std::to_string(k);
      src += k + 1 < loop.out.size() ? ", " : "";
    }
    src += ") {\n    " + std::string(loop.body) + "\n  }\n};\n";
    out.kernels.push_back(kernel + "<" + ns + "::loop_" + std::to_string(i) + ", " + index_type + ">");
  }
  src += "}  // namespace " + ns + "\n";
  return out;
}

}  // namespace cupp::detail
