// Test support: paths of the NumPy reference data (unpacked at build time from
// tests/conformance/*.tgz) and of the source tree, and loading its YAML/JSON files.
#pragma once

#include <yaml-cpp/yaml.h>

#include <complex>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cupp/dtype.hpp"
#include "cupp/promotion.hpp"

namespace cupp::test {

// The build-time locations, unless CUPP_TEST_CONFORMANCE_DIR / CUPP_TEST_SOURCE_DIR point
// elsewhere (the test executables run from another folder on the GPU machine).
inline std::string location(const char* variable, const char* built_in) {
  const char* v = std::getenv(variable);
  return v && *v ? v : built_in;
}
inline std::string conformance_path(const std::string& relative) {
  return location("CUPP_TEST_CONFORMANCE_DIR", CUPP_CONFORMANCE_DIR) + "/" + relative;
}
inline std::string source_path(const std::string& relative) {
  return location("CUPP_TEST_SOURCE_DIR", CUPP_SOURCE_DIR) + "/" + relative;
}

// Loads a YAML (or JSON) file once per call; throws YAML::BadFile when missing.
inline YAML::Node load_yaml(const std::string& path) { return YAML::LoadFile(path); }

// A dtype from NumPy's name ("int8", "bool", "bfloat16").
inline dtype dtype_named(const std::string& name) { return dtype::parse(name); }

// cupp's class for an exception NumPy raised (docs/architecture.md: UFuncTypeError and DTypePromotionError
// are TypeErrors in cupp).
inline std::string cupp_error_class(const std::string& numpy_class) {
  if (numpy_class == "UFuncTypeError" || numpy_class == "_UFuncNoLoopError" || numpy_class == "DTypePromotionError" ||
      numpy_class == "UFuncNoLoopError")
    return "TypeError";
  return numpy_class;
}

// The Python scalar of a manifest's pyscalar_* case kind: bool (True), int (2), int300, intneg
// (-1), float (2.5), complex (2j).
inline weak_scalar manifest_python_scalar(const std::string& kind) {
  if (kind == "bool") return weak_scalar(true);
  if (kind == "int") return weak_scalar(2);
  if (kind == "int300") return weak_scalar(300);
  if (kind == "intneg") return weak_scalar(-1);
  if (kind == "float") return weak_scalar(2.5);
  if (kind == "complex") return weak_scalar(std::complex<double>(0.0, 2.0));
  throw std::runtime_error("unknown Python scalar kind " + kind);
}

}  // namespace cupp::test
