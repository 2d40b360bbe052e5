// The fft module's `cupp info` rows: the version of cuFFT it links, the plan caches' statistics
// (cupp::fft::config::plan_cache_info_text) and whether cupp's column and row kernels are on
// (CUPP_FFT_COLUMN_KERNEL, CUPP_FFT_ROW_KERNEL, CUPP_FFT_LONG_KERNEL: README.md, "Environment").
#include <cufft.h>

#include <string>

#include "cuda/library_version.hpp"
#include "cupp/fft.hpp"
#include "transform.hpp"

namespace cupp::fft {

std::vector<module_info_row> info() {
  const detail::engine_options o = detail::get_engine_options();
  return {{"cuFFT", cupp::detail::library_version(cufftGetProperty)},
          {"cuFFT plan cache", config::plan_cache_info_text()},
          {"paths", "CUPP_FFT_COLUMN_KERNEL=" + std::to_string(o.column_kernel) +
                        " (axis 0: cupp's column kernel), CUPP_FFT_ROW_KERNEL=" + std::to_string(o.norm_row_kernel) +
                        " (scaled rows: cupp's row kernel), CUPP_FFT_LONG_KERNEL=" + std::to_string(o.long_kernel) +
                        " (long rows: the four-step transform)"}};
}

}  // namespace cupp::fft
