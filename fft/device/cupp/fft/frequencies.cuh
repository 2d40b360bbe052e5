// The fft module's device code (embedded by cmake/CuppModule.cmake as cupp/fft/frequencies.cuh):
// fftfreq's and rfftfreq's sample frequencies in one pass. Element i is k * scale with k = i for
// i < positive and i - n after (rfftfreq: positive = the length, so k = i), k converted to double
// first: NumPy's int64 ramp times the Python float 1/(n*d), so the values are NumPy's bit for bit.
#pragma once

#include <cupp/dev/launch.cuh>

extern "C" __global__ void cupp_fft_frequencies(double* out, long long length, long long positive, long long n,
                                                double scale) {
  CUPP_GRID_LOOP(i, length) {
    const long long k = i < positive ? i : i - n;
    out[i] = static_cast<double>(k) * scale;
  }
}
