// Internal: "MAJOR.MINOR.PATCH" of a CUDA math library from its GetProperty function (cuBLAS,
// cuFFT, cuRAND, cuSPARSE, cuSOLVER all take (libraryPropertyType, int*)), or why the query
// failed. The modules' info() rows use it.
#pragma once

#include <library_types.h>

#include <string>

namespace cupp::detail {

template <class GetProperty>
std::string library_version(GetProperty get_property) {
  int major = 0, minor = 0, patch = 0;
  const int s1 = static_cast<int>(get_property(MAJOR_VERSION, &major));
  const int s2 = static_cast<int>(get_property(MINOR_VERSION, &minor));
  const int s3 = static_cast<int>(get_property(PATCH_LEVEL, &patch));
  if (s1 != 0 || s2 != 0 || s3 != 0)
    return "unknown (version query failed with status " + std::to_string(s1 != 0 ? s1 : s2 != 0 ? s2 : s3) + ")";
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

}  // namespace cupp::detail
