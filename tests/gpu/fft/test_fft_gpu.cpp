// The fft module on the GPU, beyond its NumPy reference cases (tests/conformance/make_fft_ref.py,
// run through cupp eval's engine): results checked against a host DFT in double precision
// (independent of NumPy), out= in every form, strided planning without copies (the plan's
// strides), C2R inputs left untouched, bfloat16 input, the plan cache's limits and statistics, and
// one cached plan shared by two streams and eight threads giving the serial results bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <numbers>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "plan_cache.hpp"

namespace cupp {
namespace {

using cd = std::complex<double>;

std::vector<cd> random_complex(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::normal_distribution<double> d;
  std::vector<cd> v(n);
  for (auto& x : v) x = cd(d(gen), d(gen));
  return v;
}

// The DFT of x (row-major, shape rows x n) along its last axis, sign -1 forward, in double.
std::vector<cd> host_dft(const std::vector<cd>& x, std::int64_t rows, std::int64_t n, int sign) {
  std::vector<cd> out(x.size());
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = 0; k < n; ++k) {
      cd s = 0;
      for (std::int64_t j = 0; j < n; ++j)
        s += x[r * n + j] * std::polar(1.0, sign * 2.0 * std::numbers::pi * double(j * k % n) / double(n));
      out[r * n + k] = s;
    }
  return out;
}

ndarray device_complex128(const std::vector<cd>& v, std::vector<std::int64_t> shape) {
  return asarray(std::span<const cd>(v)).reshape(shape);
}

TEST(FftGpu, MatchesAHostDftAlongEveryAxis) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n0 = 6, n1 = 35;  // 35 = 5 * 7: no power of two
  const auto x = random_complex(n0 * n1, 1);
  const ndarray a = device_complex128(x, {n0, n1});
  CUPP_ASSERT_ALLCLOSE(fft::fft(a), device_complex128(host_dft(x, n0, n1, -1), {n0, n1}), {.rtol = 1e-12, .atol = 1e-12});
  CUPP_ASSERT_ALLCLOSE(fft::ifft(a, {.norm = "forward"}), device_complex128(host_dft(x, n0, n1, 1), {n0, n1}),
                       {.rtol = 1e-12, .atol = 1e-12});
  // Along axis 0: the host DFT of the transpose, transposed back.
  std::vector<cd> xt(x.size());
  for (std::int64_t i = 0; i < n0; ++i)
    for (std::int64_t j = 0; j < n1; ++j) xt[j * n0 + i] = x[i * n1 + j];
  const ndarray want0 = device_complex128(host_dft(xt, n1, n0, -1), {n1, n0}).T();
  CUPP_ASSERT_ALLCLOSE(fft::fft(a, {.axis = 0}), want0, {.rtol = 1e-12, .atol = 1e-12});
  // complex64 within float32 rounding of the same.
  CUPP_ASSERT_ALLCLOSE(fft::fft(astype(a, complex64), {.axis = 0}), want0, {.rtol = 1e-4, .atol = 1e-4});
}

TEST(FftGpu, AxisZeroAndStridedViewsArePlannedWithStridesNotCopies) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(device_complex128(random_complex(64 * 32, 2), {64, 32}), complex64);
  const ndarray r = fft::fft(a, {.axis = 0});
  const fft::detail::plan_key k = fft::detail::last_plan_key();
  EXPECT_EQ(k.rank, 1);
  EXPECT_EQ(k.n[0], 64);
  EXPECT_EQ(k.istride, 32);  // read in place, down the columns
  EXPECT_EQ(k.idist, 1);
  EXPECT_EQ(k.batch, 32);
  // A view with steps: the plan reads the caller's memory with its strides.
  const ndarray v = a(slice(0, std::nullopt, 2), slice(1, std::nullopt, 3));  // (32, 11), strides (64, 3) elements
  const ndarray rv = fft::fft(v);
  const fft::detail::plan_key kv = fft::detail::last_plan_key();
  EXPECT_EQ(kv.istride, 3);
  EXPECT_EQ(kv.idist, 64);
  EXPECT_EQ(kv.batch, 32);
  CUPP_ASSERT_ALLCLOSE(rv, fft::fft(v.copy()), {.rtol = 1e-5, .atol = 1e-4});
  // fft2 of a C-contiguous array: one 2-D plan.
  (void)fft::fft2(a);
  EXPECT_EQ(fft::detail::last_plan_key().rank, 2);
  // A 3-D array along its middle axis: the outer axis is a loop of executions over one plan.
  const ndarray b = astype(device_complex128(random_complex(3 * 8 * 5, 3), {3, 8, 5}), complex64);
  const ndarray rb = fft::fft(b, {.axis = 1});
  EXPECT_EQ(fft::detail::last_plan_key().istride, 5);
  CUPP_ASSERT_ALLCLOSE(rb, fft::fft(ascontiguousarray(b.swapaxes(1, 2)), {.axis = 2}).swapaxes(1, 2),
                       {.rtol = 1e-5, .atol = 1e-4});
}

TEST(FftGpu, OutIsWrittenAndReturnedInEveryForm) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(device_complex128(random_complex(8 * 12, 4), {8, 12}), complex64);
  const ndarray want = fft::fft(a, {.axis = 0, .norm = "ortho"});
  // The result's dtype and shape.
  ndarray o = empty({8, 12}, complex64);
  ndarray got = fft::fft(a, {.axis = 0, .norm = "ortho", .out = o});
  EXPECT_EQ(got.data(), o.data());
  CUPP_EXPECT_ARRAY_EQUAL(o, want);
  // A wider dtype (same_kind cast) and a strided view.
  ndarray o128 = empty({8, 12}, complex128);
  (void)fft::fft(a, {.axis = 0, .norm = "ortho", .out = o128});
  CUPP_ASSERT_ALLCLOSE(o128, astype(want, complex128), {.rtol = 0, .atol = 0});
  ndarray big = zeros({8, 24}, complex64);
  ndarray view = big(slice(), slice(0, std::nullopt, 2));
  (void)fft::fft(a, {.axis = 0, .norm = "ortho", .out = view});
  CUPP_EXPECT_ARRAY_EQUAL(view, want);
  CUPP_EXPECT_ARRAY_EQUAL(big(slice(), slice(1, std::nullopt, 2)), zeros({8, 12}, complex64));
  // In place: out=a.
  ndarray inplace = a.copy();
  (void)fft::fft(inplace, {.axis = 0, .norm = "ortho", .out = inplace});
  CUPP_ASSERT_ALLCLOSE(inplace, want, {.rtol = 1e-5, .atol = 1e-5});  // (cuFFT's in-place path may round differently)
  // The wrong shape, and a dtype the complex result cannot be cast to.
  EXPECT_EQ(test::error_of<ValueError>([&] { fft::fft(a, {.out = empty({8, 13}, complex64)}); }),
            "output array has wrong shape.");
  EXPECT_THROW(fft::fft(a, {.out = empty({8, 12}, float64)}), TypeError);
  // The real transforms and the n-D ones.
  const ndarray x = fft::irfft(a);  // (8, 22) float32
  ndarray ro = empty({8, 12}, complex64);
  (void)fft::rfft(x, {.out = ro});
  CUPP_EXPECT_ARRAY_EQUAL(ro, fft::rfft(x));
  ndarray io = empty({8, 22}, float32);
  (void)fft::irfft(a, {.out = io});
  CUPP_EXPECT_ARRAY_EQUAL(io, x);
  ndarray no = empty({8, 12}, complex64);
  (void)fft::fft2(a, {.out = no});
  CUPP_EXPECT_ARRAY_EQUAL(no, fft::fft2(a));
  ndarray rn = empty({8, 12}, complex64);
  (void)fft::rfftn(x, {.out = rn});
  CUPP_ASSERT_ALLCLOSE(rn, fft::rfftn(x), {.rtol = 1e-5, .atol = 1e-4});  // out-of-place into out, in place without
  ndarray in = empty({8, 22}, float32);
  (void)fft::irfft2(a, {.out = in});
  CUPP_ASSERT_ALLCLOSE(in, fft::irfft2(a), {.rtol = 1e-5, .atol = 1e-6});
  ndarray ho = empty({8, 12}, complex64);
  (void)fft::ihfft(x, {.out = ho});
  CUPP_EXPECT_ARRAY_EQUAL(ho, fft::ihfft(x));
}

TEST(FftGpu, ComplexToRealLeavesItsInputUntouched) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(device_complex128(random_complex(4 * 9, 5), {4, 9}), complex64);
  const ndarray before = a.copy();
  (void)fft::irfft(a);
  (void)fft::irfftn(a);
  (void)fft::hfft(a, {.axis = 0});
  CUPP_EXPECT_ARRAY_EQUAL(a, before);
}

TEST(FftGpu, Bfloat16AndFloat16InputsTransformAsFloat32) {
  CUPP_REQUIRE_GPU();
  const ndarray x = astype(device_complex128(random_complex(64, 6), {64}).real(), float32);
  for (dtype t : {bfloat16, float16}) {
    const ndarray h = astype(x, t);
    const ndarray r = fft::rfft(h);
    EXPECT_EQ(r.dtype(), complex64) << t.name();
    CUPP_EXPECT_ARRAY_EQUAL(r, fft::rfft(astype(h, float32)));
    EXPECT_EQ(fft::fft(h).dtype(), complex64);
    EXPECT_EQ(fft::irfft(h).dtype(), t) << "NumPy's real_dtype of a " << t.name() << " input";
  }
}

TEST(FftGpu, PlanCacheLimitsAndStatistics) {
  CUPP_REQUIRE_GPU();
  const int device = cuda::current_device();
  fft::config::clear_plan_cache();
  fft::config::set_plan_cache_size(2);
  const auto before = fft::config::get_plan_cache_info();
  std::vector<ndarray> inputs;
  for (std::int64_t n : {40, 41, 42}) inputs.push_back(zeros({n}, complex64));
  for (const auto& in : inputs) (void)fft::fft(in);
  auto info = fft::config::get_plan_cache_info(device);
  EXPECT_EQ(info.plans, 2u);
  EXPECT_EQ(info.evictions - before.evictions, 1u);
  EXPECT_EQ(info.misses - before.misses, 3u);
  (void)fft::fft(inputs[2]);
  EXPECT_EQ(fft::config::get_plan_cache_info().hits - info.hits, 1u);
  // A memory limit below every work area: plans are used once and not kept.
  fft::config::set_plan_cache_max_memsize(0);
  EXPECT_EQ(fft::config::get_plan_cache_max_memsize(), 0);
  const ndarray big = zeros({4099, 16}, complex64);  // a prime length needs a work area
  const auto made = fft::detail::plans_made();
  (void)fft::fft(big, {.axis = 0});
  (void)fft::fft(big, {.axis = 0});
  EXPECT_EQ(fft::detail::plans_made() - made, 2u);
  fft::config::set_plan_cache_max_memsize(-1);
  fft::config::set_plan_cache_size(0);  // caching off
  EXPECT_EQ(fft::config::get_plan_cache_info().plans, 0u);
  fft::config::set_plan_cache_size(16);
  EXPECT_EQ(fft::config::get_plan_cache_size(), 16u);
  const std::string text = fft::config::plan_cache_info_text();
  EXPECT_NE(text.find("device " + std::to_string(device)), std::string::npos) << text;
  bool row = false;
  for (const auto& r : fft::info()) row = row || r.key == "cuFFT plan cache";
  EXPECT_TRUE(row);
  // enable_nd_planning is thread-local: off here, on in another thread.
  fft::config::set_enable_nd_planning(false);
  const ndarray sq = zeros({16, 16}, complex64);
  (void)fft::fft2(sq);
  EXPECT_EQ(fft::detail::last_plan_key().rank, 1);
  bool other = false;
  std::thread([&] { other = fft::config::get_enable_nd_planning(); }).join();
  EXPECT_TRUE(other);
  fft::config::set_enable_nd_planning(true);
}

// One cached plan, two streams and eight threads at once: every result equals the serial one bit
// for bit (the same plan runs the same kernels), and no further plan is made.
// Two streams, then eight threads each on its own stream, running one cached plan of `rows`
// transforms of 4099 points (prime: cuFFT's Bluestein plan, which needs a work area) with
// norm="ortho": each result is bitwise the serial one, and no thread made a plan of its own.
void one_cached_plan_serves_streams_and_threads(std::int64_t rows) {
  const int device = cuda::current_device();
  constexpr int threads = 8;
  std::vector<ndarray> inputs, serial;
  for (int t = 0; t < threads; ++t) {
    inputs.push_back(astype(device_complex128(random_complex(rows * 4099, 10 + t), {rows, 4099}), complex64));
    serial.push_back(fft::fft(inputs.back(), {.norm = "ortho"}));
  }
  cuda::Device(device).synchronize();
  const auto made = fft::detail::plans_made();
  // Two streams from one thread, queued back to back.
  {
    cuda::Stream s1 = cuda::Stream::create({.non_blocking = true}), s2 = cuda::Stream::create({.non_blocking = true});
    ndarray r1, r2;
    {
      cuda::StreamGuard g(s1);
      r1 = fft::fft(inputs[0], {.norm = "ortho"});
    }
    {
      cuda::StreamGuard g(s2);
      r2 = fft::fft(inputs[1], {.norm = "ortho"});
    }
    s1.synchronize();
    s2.synchronize();
    CUPP_EXPECT_ARRAY_EQUAL(r1, serial[0]);
    CUPP_EXPECT_ARRAY_EQUAL(r2, serial[1]);
  }
  // Eight threads, each on its own stream, several rounds.
  std::vector<ndarray> results(threads);
  std::vector<std::string> errors(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      try {
        cuda::Device(device).use();
        cuda::Stream s = cuda::Stream::create({.non_blocking = true});
        cuda::StreamGuard g(s);
        for (int round = 0; round < 4; ++round) results[t] = fft::fft(inputs[t], {.norm = "ortho"});
        s.synchronize();
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  for (auto& th : pool) th.join();
  for (int t = 0; t < threads; ++t) {
    ASSERT_EQ(errors[t], "") << "thread " << t;
    CUPP_EXPECT_ARRAY_EQUAL(results[t], serial[t]);
  }
  EXPECT_EQ(fft::detail::plans_made(), made) << "the threads made plans of their own instead of sharing the cached one";
}

TEST(FftGpu, OneCachedPlanServesStreamsAndThreads) {
  CUPP_REQUIRE_GPU();
  one_cached_plan_serves_streams_and_threads(256);  // 2^20 points a transform call
}

// The same on 16 rows, small enough for compute-sanitizer's racecheck and memcheck
// (fft/bench/gpu-run.sh runs it under both).
TEST(FftGpu, OneCachedPlanServesStreamsAndThreadsSmall) {
  CUPP_REQUIRE_GPU();
  one_cached_plan_serves_streams_and_threads(16);
}

TEST(FftGpu, ErrorsComeBeforeAnyDeviceWork) {
  CUPP_REQUIRE_GPU();
  const ndarray a = zeros({4, 5}, complex64);
  EXPECT_EQ(test::error_of<ValueError>([&] { fft::fft(a, {.n = 0}); }), "Invalid number of FFT data points (0) specified.");
  EXPECT_EQ(test::error_of<ValueError>([&] { fft::fft(a, {.norm = "bad"}); }),
            "Invalid norm value bad; should be \"backward\",\"ortho\" or \"forward\".");
  EXPECT_EQ(test::error_of<ValueError>([&] { fft::ifft(a, {.norm = "bad"}); }),
            "Invalid norm value bad; should be \"backward\", \"ortho\" or \"forward\".");
  EXPECT_EQ(test::error_of<IndexError>([&] { fft::fft(a, {.axis = 2}); }), "tuple index out of range");
  EXPECT_EQ(test::error_of<AxisError>([&] { fft::fft(a, {.n = 4, .axis = 2}); }),
            "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(test::error_of<ValueError>([&] { fft::fftn(a, {.s = {{2, 3}}, .axes = {{0}}}); }),
            "Shape and axes have different lengths.");
  EXPECT_EQ(test::error_of<IndexError>([&] { fft::fftn(a, {.axes = {{0, 5}}}); }),
            "index 5 is out of bounds for axis 0 with size 2");
  EXPECT_THROW(fft::rfft(a), TypeError);
}

}  // namespace
}  // namespace cupp
