// The fft module's `cupp info` rows: the versions of the CUDA libraries it links.
#include <cufft.h>

#include "cuda/library_version.hpp"
#include "cupp/fft.hpp"

namespace cupp::fft {

std::vector<module_info_row> info() {
  return {{"cuFFT", detail::library_version(cufftGetProperty)}};
}

}  // namespace cupp::fft
