// cupp::load_ops's entry points: read YAML op specs (spec_parser.cpp, yaml-cpp) and register them
// in the loaded-op store (load_ops.cpp). Apart from the store so that a program that only looks
// ops up links no yaml-cpp code.
#include "cupp/load_ops.hpp"
#include "loader/loaded_ops.hpp"
#include "loader/spec_parser.hpp"

namespace cupp {

std::vector<ufunc> load_ops(const std::filesystem::path& file) {
  return detail::register_loaded_ops(detail::parse_op_spec_file(file));
}

std::vector<ufunc> load_ops_from_string(std::string_view yaml, const std::string& shown) {
  return detail::register_loaded_ops(detail::parse_op_specs(yaml, shown, {}));
}

}  // namespace cupp
