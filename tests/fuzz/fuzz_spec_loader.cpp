// libFuzzer target for the run-time op-spec reader (runtime/src/loader/spec_parser.cpp, the
// parser behind cupp::load_ops; no GPU). Each input is YAML text read as a spec file: it must
// give ops or raise cupp::SpecError ("FILE:LINE: message"); any other exception (a yaml-cpp one
// leaking out, std::out_of_range, ...), sanitizer report, leak or hang is a finding. Every op read
// has a name, 1-3 inputs, 1-2 outputs and loops of those arities.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "cupp/errors.hpp"
#include "loader/spec_parser.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (std::string_view stem : {std::string_view{}, std::string_view{"fuzz_op"}}) {
    try {
      for (const cupp::detail::parsed_op& op : cupp::detail::parse_op_specs(text, "fuzz.yaml", stem)) {
        if (op.name.empty() || op.nin < 1 || op.nin > 3 || op.nout < 1 || op.nout > 2 || op.loops.empty()) std::abort();
        for (const cupp::detail::parsed_loop& l : op.loops)
          if (static_cast<int>(l.in.size()) != op.nin || static_cast<int>(l.out.size()) != op.nout) std::abort();
      }
    } catch (const cupp::SpecError&) {
    }
  }
  return 0;
}
