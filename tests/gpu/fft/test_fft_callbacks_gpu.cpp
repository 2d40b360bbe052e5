// cuFFT LTO callbacks on the GPU (cupp::fft::set_cufft_callbacks): a load callback that scales
// by 2 and a store callback that takes the magnitude, each compared with the same computation
// done without callbacks; the plan cache keeps callback and plain plans apart; transforms that are
// not one cuFFT execution are ValueError.
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"
#include "plan_cache.hpp"

namespace cupp {
namespace {

constexpr const char* scale_by_two = R"(
__device__ cufftComplex cupp_fft_load(void* in, unsigned long long offset, void* info, void* shared) {
  cufftComplex v = static_cast<cufftComplex*>(in)[offset];
  v.x *= 2.0f;
  v.y *= 2.0f;
  return v;
}
)";

constexpr const char* magnitude = R"(
__device__ void cupp_fft_store(void* out, unsigned long long offset, cufftComplex v, void* info,
                                          void* shared) {
  cufftComplex r;
  r.x = sqrtf(v.x * v.x + v.y * v.y);
  r.y = 0.0f;
  static_cast<cufftComplex*>(out)[offset] = r;
}
)";

ndarray random_c64(std::int64_t rows, std::int64_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<float> d;
  std::vector<std::complex<float>> v(rows * n);
  for (auto& x : v) x = {d(gen), d(gen)};
  return asarray(std::span<const std::complex<float>>(v)).reshape({rows, n});
}

TEST(FftCallbacksGpu, LoadCallbackScalesAsTheSameComputationWithoutIt) {
  CUPP_REQUIRE_GPU();
  const ndarray a = random_c64(64, 256, 1);
  const ndarray want = fft::fft(a * 2);
  ndarray got;
  {
    fft::set_cufft_callbacks guard({.load = scale_by_two});
    got = fft::fft(a);
    EXPECT_NE(fft::detail::last_plan_key().callback, 0u);
  }
  CUPP_ASSERT_ALLCLOSE(got, want, {.rtol = 1e-5, .atol = 1e-4});
  // Without the guard the plain plan runs again (the cache keys on the callback set).
  CUPP_ASSERT_ALLCLOSE(fft::fft(a), fft::fft(a * 2) / 2, {.rtol = 1e-5, .atol = 1e-4});
  EXPECT_EQ(fft::detail::last_plan_key().callback, 0u);
}

TEST(FftCallbacksGpu, StoreCallbackTakesTheMagnitude) {
  CUPP_REQUIRE_GPU();
  const ndarray a = random_c64(4096, 64, 2);  // batched rows, the shape where a store callback pays
  const ndarray want = absolute(fft::fft(a));
  ndarray got;
  {
    fft::set_cufft_callbacks guard({.store = magnitude});
    got = fft::fft(a);
  }
  CUPP_ASSERT_ALLCLOSE(real(got), want, {.rtol = 1e-5, .atol = 1e-4});
  CUPP_EXPECT_ARRAY_EQUAL(imag(got), zeros({4096, 64}, float32));
}

TEST(FftCallbacksGpu, TransformsOfSeveralExecutionsAreValueError) {
  CUPP_REQUIRE_GPU();
  fft::set_cufft_callbacks guard({.load = scale_by_two});
  const ndarray b = random_c64(8, 16, 3).reshape({2, 4, 16});
  EXPECT_THROW(fft::fft(b, {.axis = 1}), ValueError);        // a loop over axis 0 or 2
  EXPECT_THROW(fft::fftn(b, {.axes = {{0, 0}}}), ValueError);  // a repeated axis
  EXPECT_THROW(fft::rfftn(real(b)), ValueError);              // rfft then fft
}

}  // namespace
}  // namespace cupp
