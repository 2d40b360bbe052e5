// Example for docs/fft.md, built and run by the tests (CTest `example_fft`, label gpu): the
// spectrum of a cosine, a real round trip (rfft then irfft), a transform along axis 0 (planned
// with strides, no copy), fft2 with norm="ortho", out=, the plan cache's statistics and
// next_fast_len. Exits 1 on a wrong value.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/fft.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <complex>
#include <cstdio>
#include <numbers>
#include <vector>

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  // x[j] = cos(2 pi 3 j / 16): its spectrum is 8 at frequencies +3 and -3 (bins 3 and 13).
  std::vector<double> host(16);
  for (int j = 0; j < 16; ++j) host[j] = std::cos(2 * std::numbers::pi * 3 * j / 16);
  const cupp::ndarray x = cupp::asarray(host);
  const cupp::ndarray X = cupp::fft::fft(x);                        // complex128, 16 bins
  const auto bins = X.to_vector<std::complex<double>>();
  const cupp::ndarray half = cupp::fft::rfft(x);                    // the 9 non-negative bins
  const cupp::ndarray back = cupp::fft::irfft(half, {.n = 16});     // x again, float64
  const double round_trip = cupp::max(cupp::absolute(back - x)).item<double>();

  // A (64, 32) complex64 batch along axis 0, and fft2 with the unitary norm.
  const cupp::ndarray img = cupp::astype(cupp::ones({64, 32}), cupp::complex64);
  const cupp::ndarray cols = cupp::fft::fft(img, {.axis = 0});      // 64 in bin 0 of every column
  const cupp::ndarray F = cupp::fft::fft2(img, {.norm = "ortho"});  // sqrt(64 * 32) in bin (0, 0)
  cupp::ndarray out = cupp::empty({64, 32}, cupp::complex64);
  cupp::fft::fft2(img, {.norm = "ortho", .out = out});              // NumPy 2's out=

  cupp::fft::config::show_plan_cache_info();                        // plans, hits, misses per device
  const std::int64_t fast = cupp::fft::next_fast_len(1021);         // 1024

  const bool ok = X.dtype() == cupp::complex128 && std::abs(bins[3] - 8.0) < 1e-12 && std::abs(bins[13] - 8.0) < 1e-12 &&
                  std::abs(bins[1]) < 1e-12 && half.shape()[0] == 9 && round_trip < 1e-14 &&
                  cols.dtype() == cupp::complex64 && std::abs(cols(0, 5).item<std::complex<float>>() - 64.0f) < 1e-4f &&
                  std::abs(F(0, 0).item<std::complex<float>>().real() - std::sqrt(2048.0f)) < 1e-3f &&
                  cupp::max(cupp::absolute(out - F)).item<float>() == 0.0f && fast == 1024;
  std::printf("X[3] = %g%+gj, round trip error %g, next_fast_len(1021) = %lld\n", bins[3].real(), bins[3].imag(),
              round_trip, static_cast<long long>(fast));
  std::puts(ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
