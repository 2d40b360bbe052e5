// Internal to the fft module: the NVRTC program of its helper routines (fftfreq, rfftfreq), for
// the host test that compiles it without a GPU.
#pragma once

#include "compiler/launch.hpp"

namespace cupp::fft::detail {

// cupp_fft_frequencies from the module's embedded device header cupp/fft/frequencies.cuh.
cupp::detail::routine_program helpers_program();

}  // namespace cupp::fft::detail
