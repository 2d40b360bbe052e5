// The fft module's `cupp info` rows: the version of cuFFT it links and the plan caches'
// statistics (cupp::fft::config::plan_cache_info_text).
#include <cufft.h>

#include "cuda/library_version.hpp"
#include "cupp/fft.hpp"

namespace cupp::fft {

std::vector<module_info_row> info() {
  return {{"cuFFT", cupp::detail::library_version(cufftGetProperty)},
          {"cuFFT plan cache", config::plan_cache_info_text()}};
}

}  // namespace cupp::fft
