// Example for docs/fft.md, built and run by the tests (CTest `example_fft`, label gpu): every call
// of the guide's overview (fft with n/axis/norm, rfft and irfft, fft2, fftn over chosen axes with
// padding, irfftn, out=, next_fast_len, fftfreq, fftshift) checked against a DFT computed on the
// host (NumPy's values for fftfreq); the spectrum of a cosine, a real round trip, a transform along
// axis 0 (planned with strides, no copy), the plan cache's statistics; and an LTO store callback
// (|fft(rows)|) checked against the transform without it. A mismatch prints "FAILED: ..." and
// exits 1.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/fft.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <numbers>
#include <vector>

namespace {

using cplx = std::complex<double>;

// e^(-2 pi i k j / n)
cplx twiddle(std::int64_t k, std::int64_t j, std::int64_t n) {
  return std::polar(1.0, -2 * std::numbers::pi * static_cast<double>((k * j) % n) / static_cast<double>(n));
}

// True when r has this shape and values within tol of want (the largest difference is printed otherwise).
bool close(const char* what, const cupp::ndarray& r, const std::vector<std::int64_t>& shape,
           const std::vector<cplx>& want, double tol = 1e-10) {
  if (std::vector<std::int64_t>(r.shape().begin(), r.shape().end()) != shape) {
    std::printf("FAILED: %s has shape %s\n", what, r.repr().c_str());
    return false;
  }
  const std::vector<cplx> got = cupp::astype(r, cupp::complex128).to_vector<cplx>();
  double worst = 0;
  for (std::size_t e = 0; e < want.size(); ++e) worst = std::max(worst, std::abs(got[e] - want[e]));
  if (got.size() != want.size() || worst > tol) {
    std::printf("FAILED: %s differs from the host's DFT by %g\n", what, worst);
    return false;
  }
  return true;
}

std::vector<cplx> as_complex(const std::vector<double>& v) { return {v.begin(), v.end()}; }

bool fail(const char* what) {
  std::printf("FAILED: %s\n", what);
  return false;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  bool ok = true;

  {  // The overview of docs/fft.md.
    // x[j] = cos(2 pi 3 j / 16); image (8, 4), volume (4, 3, 8) and base (4, 8) small integers.
    std::vector<double> hx(16), himage, hvolume, hbase;
    for (int j = 0; j < 16; ++j) hx[j] = std::cos(2 * std::numbers::pi * 3 * j / 16);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 4; ++j) himage.push_back((3 * i + 5 * j) % 7 - 2);
    for (int n = 0; n < 96; ++n) hvolume.push_back(n % 5);
    for (int n = 0; n < 32; ++n) hbase.push_back((7 * n) % 9 - 4);
    const cupp::ndarray x = cupp::asarray(hx);
    const cupp::ndarray signal = x;
    const cupp::ndarray image = cupp::asarray(himage).reshape({8, 4});
    const cupp::ndarray volume = cupp::asarray(hvolume).reshape({4, 3, 8});
    const cupp::ndarray spectrum = cupp::fft::rfft2(cupp::asarray(hbase).reshape({4, 8}));  // (4, 5) bins
    const cupp::ndarray preallocated = cupp::empty({8, 4}, cupp::complex128);

    // [snippet routines]
    auto X = cupp::fft::fft(x);                                   // last axis
    auto Y = cupp::fft::fft(x, {.n = 1024, .axis = 0, .norm = "ortho"});
    auto H = cupp::fft::rfft(signal);                             // n//2 + 1 bins of a real input
    auto s = cupp::fft::irfft(H, {.n = 16});                      // back to 16 real points
    auto F = cupp::fft::fft2(image, {.norm = "ortho"});           // last two axes, one 2-D plan
    auto G = cupp::fft::fftn(volume, {.s = {{32, 32}}, .axes = {{2, 0}}});  // any axes, any order
    auto R = cupp::fft::irfftn(spectrum, {.axes = {{0, 1}}});
    cupp::fft::fft2(image, {.out = preallocated});               // NumPy 2's out=
    auto n = cupp::fft::next_fast_len(1021);                      // 1024
    auto f = cupp::fft::fftfreq(8, 0.1);                          // [0, 1.25, ..., -1.25] (float64)
    auto c = cupp::fft::fftshift(F);                              // zero frequency to the centre
    // [end snippet]

    // The host's DFTs.
    std::vector<cplx> want_X(16), want_Y(1024), want_H(9), want_F(32), want_G(32 * 3 * 32), want_c(32);
    for (int k = 0; k < 16; ++k)
      for (int j = 0; j < 16; ++j) want_X[k] += hx[j] * twiddle(k, j, 16);
    for (int k = 0; k < 1024; ++k) {
      for (int j = 0; j < 16; ++j) want_Y[k] += hx[j] * twiddle(k, j, 1024);
      want_Y[k] /= 32.0;  // ortho: 1 / sqrt(1024)
    }
    for (int k = 0; k < 9; ++k) want_H[k] = want_X[k];
    std::vector<cplx> unnormalised(32);
    for (int k0 = 0; k0 < 8; ++k0)
      for (int k1 = 0; k1 < 4; ++k1) {
        for (int i = 0; i < 8; ++i)
          for (int j = 0; j < 4; ++j)
            unnormalised[4 * k0 + k1] += himage[4 * i + j] * twiddle(k0, i, 8) * twiddle(k1, j, 4);
        want_F[4 * k0 + k1] = unnormalised[4 * k0 + k1] / std::sqrt(32.0);
      }
    for (int k0 = 0; k0 < 8; ++k0)
      for (int k1 = 0; k1 < 4; ++k1) want_c[4 * k0 + k1] = want_F[4 * ((k0 + 4) % 8) + (k1 + 2) % 4];
    // G: axes 2 and 0 zero-padded to 32, axis 1 kept.
    for (int k0 = 0; k0 < 32; ++k0)
      for (int j = 0; j < 3; ++j)
        for (int k2 = 0; k2 < 32; ++k2) {
          cplx sum = 0;
          for (int i0 = 0; i0 < 4; ++i0)
            for (int i2 = 0; i2 < 8; ++i2)
              sum += hvolume[24 * i0 + 8 * j + i2] * twiddle(k0, i0, 32) * twiddle(k2, i2, 32);
          want_G[(k0 * 3 + j) * 32 + k2] = sum;
        }

    ok = close("fft(x)", X, {16}, want_X) && close("fft(x, n=1024, axis=0, norm='ortho')", Y, {1024}, want_Y) &&
         close("rfft(signal)", H, {9}, want_H) && close("irfft(H, n=16)", s, {16}, as_complex(hx)) &&
         close("fft2(image, norm='ortho')", F, {8, 4}, want_F) &&
         close("fftn(volume, s=(32, 32), axes=(2, 0))", G, {32, 3, 32}, want_G) &&
         close("irfftn(rfft2(base), axes=(0, 1))", R, {4, 8}, as_complex(hbase)) &&
         close("fft2(image, out=preallocated)", preallocated, {8, 4}, unnormalised) &&
         close("fftshift(F)", c, {8, 4}, want_c) && ok;
    if (X.dtype() != cupp::complex128 || s.dtype() != cupp::float64 || R.dtype() != cupp::float64)
      ok = fail("fft(x) is not complex128, or irfft / irfftn not float64");
    if (n != 1024) ok = fail("next_fast_len(1021) is not 1024");
    const std::vector<double> numpy_fftfreq{0.0, 1.25, 2.5, 3.75, -5.0, -3.75, -2.5, -1.25};  // np.fft.fftfreq(8, 0.1)
    if (f.dtype() != cupp::float64 || f.to_vector<double>() != numpy_fftfreq)
      ok = fail("fftfreq(8, 0.1) is not NumPy's");
  }

  {  // The spectrum of a cosine, a round trip, axis 0 of a batch, out=, the plan cache.
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

    const bool good = X.dtype() == cupp::complex128 && std::abs(bins[3] - 8.0) < 1e-12 &&
                      std::abs(bins[13] - 8.0) < 1e-12 && std::abs(bins[1]) < 1e-12 && half.shape()[0] == 9 &&
                      round_trip < 1e-14 && cols.dtype() == cupp::complex64 &&
                      std::abs(cols(0, 5).item<std::complex<float>>() - 64.0f) < 1e-4f &&
                      std::abs(F(0, 0).item<std::complex<float>>().real() - std::sqrt(2048.0f)) < 1e-3f &&
                      cupp::max(cupp::absolute(out - F)).item<float>() == 0.0f && fast == 1024;
    std::printf("X[3] = %g%+gj, round trip error %g, next_fast_len(1021) = %lld\n", bins[3].real(), bins[3].imag(),
                round_trip, static_cast<long long>(fast));
    if (!good) ok = fail("the cosine's spectrum, the round trip or the (64, 32) batch");
  }

  {  // An LTO store callback: |fft(rows)| in the real parts.
    std::vector<std::complex<float>> hrows;
    for (int n = 0; n < 4 * 16; ++n) hrows.emplace_back(static_cast<float>(n % 7) - 3, static_cast<float>(n % 3));
    const cupp::ndarray rows = cupp::asarray(hrows).reshape({4, 16});
    const cupp::ndarray plain = cupp::fft::fft(rows);
    cupp::ndarray result;
    try {  // the callback path has its own failure modes (NVRTC's LTO-IR, cuFFT's JIT): report them
      // [snippet callbacks]
      const char* magnitude = R"(
      __device__ void cupp_fft_store(void* out, unsigned long long offset, cufftComplex v,
                                     void* info, void* shared) {
        cufftComplex r;
        r.x = sqrtf(v.x * v.x + v.y * v.y);
        r.y = 0.0f;
        static_cast<cufftComplex*>(out)[offset] = r;
      })";
      {
        cupp::fft::set_cufft_callbacks guard({.store = magnitude});   // also .load, .load_data, .store_data
        auto m = cupp::fft::fft(rows);                                  // |fft(rows)| in the real parts
        result = m;                                                     // kept for the check below
      }
      // [end snippet]
    } catch (const std::exception& e) {
      std::printf("FAILED: fft with a store callback threw: %s\n", e.what());
      return 1;
    }

    const cupp::ndarray magnitudes = cupp::astype(cupp::absolute(plain), cupp::float64);
    const std::vector<cplx> want = as_complex(magnitudes.to_vector<double>());
    ok = close("fft(rows) with the magnitude store callback", result, {4, 16}, want, 1e-3) && ok;
  }

  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
