// The fft engine's layout choices on the GPU: the norm factor folded into cupp's LTO store
// callback (no second pass), transforms along a strided axis run over tiles of adjacent columns,
// cupp's column kernel for them and its row kernel for scaled rows.
// Each is compared with the other way of computing the same thing (the scaling pass; one
// execution over all columns; the last-axis transform of the transposed array), over complex64,
// complex128, r2c and c2r, every norm, and checked to have taken the path it claims (the count of
// executions that scaled in the callback, the plan key). The NumPy reference cases run through
// both paths too (tests/gpu/test_eval_ref_gpu.cpp, EvalRefGpu.FftNormInStoreCallbackAndColumnTiles).
#include <gtest/gtest.h>

#include <complex>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/fft.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"
#include "columns.hpp"
#include "plan_cache.hpp"
#include "transform.hpp"

namespace cupp {
namespace {

using fft::detail::engine_options;

struct options_scope {
  engine_options saved = fft::detail::get_engine_options();
  explicit options_scope(engine_options o) { fft::detail::set_engine_options(o); }
  ~options_scope() { fft::detail::set_engine_options(saved); }
};

ndarray random_complex(std::vector<std::int64_t> shape, dtype type, unsigned seed) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::mt19937 gen(seed);
  std::normal_distribution<double> d;
  std::vector<std::complex<double>> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = {d(gen), d(gen)};
  return astype(asarray(std::span<const std::complex<double>>(v)).reshape(shape), type);
}

ndarray random_real(std::vector<std::int64_t> shape, dtype type, unsigned seed) {
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  std::mt19937 gen(seed);
  std::normal_distribution<double> d;
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(gen);
  return astype(asarray(std::span<const double>(v)).reshape(shape), type);
}

testing::allclose_options tol(dtype t) {
  return t == complex128 || t == float64 ? testing::allclose_options{.rtol = 1e-12, .atol = 1e-12}
                                         : testing::allclose_options{.rtol = 2e-5, .atol = 2e-5};
}

TEST(FftNormGpu, StoreCallbackScalesAsTheScalingPass) {
  CUPP_REQUIRE_GPU();
  for (dtype t : {complex64, complex128}) {
    const ndarray a = random_complex({96, 160}, t, 1);  // 160 = 2^5 * 5, batched rows
    for (const char* norm : {"ortho", "forward"}) {
      for (int axis : {1, 0}) {
        SCOPED_TRACE(t.name() + " norm " + norm + " axis " + std::to_string(axis));
        ndarray by_pass, by_callback, inverse_pass, inverse_callback;
        {
          options_scope pass({.norm_callback = 0});
          const std::uint64_t before = fft::detail::scaled_executions();
          by_pass = fft::fft(a, {.axis = axis, .norm = norm});
          inverse_pass = fft::ifft(a, {.axis = axis});  // backward: 1/n on the inverse
          EXPECT_EQ(fft::detail::scaled_executions(), before);
          EXPECT_EQ(fft::detail::last_plan_key().scale, 1.0);
        }
        {
          options_scope callback({.norm_callback = 1});
          const std::uint64_t before = fft::detail::scaled_executions();
          by_callback = fft::fft(a, {.axis = axis, .norm = norm});
          EXPECT_GT(fft::detail::scaled_executions(), before) << "the store callback did not scale";
          EXPECT_NE(fft::detail::last_plan_key().scale, 1.0);
          inverse_callback = fft::ifft(a, {.axis = axis});
          EXPECT_NE(fft::detail::last_plan_key().scale, 1.0);
        }
        CUPP_ASSERT_ALLCLOSE(by_callback, by_pass, tol(t));
        CUPP_ASSERT_ALLCLOSE(inverse_callback, inverse_pass, tol(t));
        // And the factor is the norm's: ortho is the unnormalised transform over sqrt(n).
        const double n = static_cast<double>(a.shape()[axis]);
        const ndarray plain = fft::fft(a, {.axis = axis});
        CUPP_ASSERT_ALLCLOSE(by_callback, plain * (std::string(norm) == "ortho" ? 1.0 / std::sqrt(n) : 1.0 / n), tol(t));
      }
    }
  }
}

TEST(FftNormGpu, RealTransformsScaleInTheStoreCallback) {
  CUPP_REQUIRE_GPU();
  for (dtype t : {float32, float64}) {
    SCOPED_TRACE(t.name());
    const ndarray x = random_real({64, 250}, t, 2);
    ndarray r_pass, r_cb, i_pass, i_cb;
    {
      options_scope pass({.norm_callback = 0});
      r_pass = fft::rfft(x, {.norm = "ortho"});
      i_pass = fft::irfft(r_pass, {.n = 250, .norm = "ortho"});
    }
    {
      options_scope callback({.norm_callback = 1});
      const std::uint64_t before = fft::detail::scaled_executions();
      r_cb = fft::rfft(x, {.norm = "ortho"});
      const std::uint64_t after_r2c = fft::detail::scaled_executions();
      EXPECT_GT(after_r2c, before);
      i_cb = fft::irfft(r_pass, {.n = 250, .norm = "ortho"});  // c2r: the real store callback
      EXPECT_GT(fft::detail::scaled_executions(), after_r2c);
    }
    CUPP_ASSERT_ALLCLOSE(r_cb, r_pass, tol(t));
    CUPP_ASSERT_ALLCLOSE(i_cb, i_pass, tol(t));
    CUPP_ASSERT_ALLCLOSE(i_cb, x, tol(t));  // ortho round trip
  }
}

// The factor as a literal of the callback's source, at store and at load (engine_options'
// norm_callback_form 1 and 2; the layout study compares their speed), against the pass.
TEST(FftNormGpu, LiteralFactorCallbacksScaleAsThePass) {
  CUPP_REQUIRE_GPU();
  for (int form : {1, 2}) {
    for (dtype t : {complex64, complex128}) {
      const ndarray a = random_complex({96, 160}, t, 11);
      for (int axis : {1, 0}) {
        SCOPED_TRACE("form " + std::to_string(form) + " " + t.name() + " axis " + std::to_string(axis));
        ndarray by_pass, by_callback, inv_pass, inv_callback;
        {
          options_scope pass({.norm_callback = 0});
          by_pass = fft::fft(a, {.axis = axis, .norm = "ortho"});
          inv_pass = fft::ifft(a, {.axis = axis});
        }
        {
          options_scope callback({.norm_callback = 1, .norm_callback_form = form});
          const std::uint64_t before = fft::detail::scaled_executions();
          by_callback = fft::fft(a, {.axis = axis, .norm = "ortho"});
          EXPECT_EQ(fft::detail::last_plan_key().scale_form, form);
          inv_callback = fft::ifft(a, {.axis = axis});
          EXPECT_EQ(fft::detail::scaled_executions(), before + 2) << "the literal callbacks did not scale";
        }
        CUPP_ASSERT_ALLCLOSE(by_callback, by_pass, tol(t));
        CUPP_ASSERT_ALLCLOSE(inv_callback, inv_pass, tol(t));
      }
    }
    // r2c (a real load at form 2) and c2r (a real store at form 1)
    for (dtype t : {float32, float64}) {
      SCOPED_TRACE("form " + std::to_string(form) + " " + t.name());
      const ndarray x = random_real({64, 250}, t, 12);
      ndarray r_pass, i_pass, r_cb, i_cb;
      {
        options_scope pass({.norm_callback = 0});
        r_pass = fft::rfft(x, {.norm = "ortho"});
        i_pass = fft::irfft(r_pass, {.n = 250, .norm = "ortho"});
      }
      {
        options_scope callback({.norm_callback = 1, .norm_callback_form = form});
        const std::uint64_t before = fft::detail::scaled_executions();
        r_cb = fft::rfft(x, {.norm = "ortho"});
        i_cb = fft::irfft(r_pass, {.n = 250, .norm = "ortho"});
        EXPECT_EQ(fft::detail::scaled_executions(), before + 2);
      }
      CUPP_ASSERT_ALLCLOSE(r_cb, r_pass, tol(t));
      CUPP_ASSERT_ALLCLOSE(i_cb, i_pass, tol(t));
      CUPP_ASSERT_ALLCLOSE(i_cb, x, tol(t));
    }
  }
}

TEST(FftNormGpu, DefaultChoiceUsesTheCallbackOnBatchesAndThePassOnOneTransform) {
  CUPP_REQUIRE_GPU();
  options_scope automatic({.norm_callback = -1});
  ASSERT_EQ(fft::detail::get_engine_options().norm_callback_min_elements, 1 << 20);
  const ndarray rows = random_complex({1024, 1024}, complex64, 3);  // 2^20 points in batched rows
  std::uint64_t before = fft::detail::scaled_executions();
  const ndarray r = fft::fft(rows, {.norm = "ortho"});
  EXPECT_GT(fft::detail::scaled_executions(), before);
  EXPECT_EQ(fft::detail::last_plan_key().engine, 0);      // cuFFT with
  EXPECT_EQ(fft::detail::last_plan_key().scale_form, 1);  // the literal-factor store callback
  CUPP_ASSERT_ALLCLOSE(r, fft::fft(rows) / 32.0, tol(complex64));
  {
    options_scope row_kernel({.norm_callback = -1, .norm_row_kernel = 1});  // cupp's row kernel
    before = fft::detail::scaled_executions();
    const ndarray by_row_kernel = fft::fft(rows, {.norm = "ortho"});
    EXPECT_EQ(fft::detail::last_plan_key().engine, 2);
    EXPECT_GT(fft::detail::scaled_executions(), before);
    CUPP_ASSERT_ALLCLOSE(by_row_kernel, r, tol(complex64));
  }
  // Along axis 0 (strided columns): cupp's column kernel scales in its stores (1024 columns of
  // 1024 points: 128 blocks of 8); with it off, cuFFT's strided plan and the pass (its strided
  // callback kernels are about 3x slower).
  before = fft::detail::scaled_executions();
  const ndarray columns = fft::fft(rows, {.axis = 0, .norm = "ortho"});
  EXPECT_EQ(fft::detail::last_plan_key().engine, 1);
  EXPECT_EQ(fft::detail::last_plan_key().istride, 1024);
  EXPECT_EQ(fft::detail::scaled_executions(), before + (fft::detail::column_kernel_fallbacks() == 0 ? 1 : 0));
  CUPP_ASSERT_ALLCLOSE(columns, fft::fft(rows, {.axis = 0}) / 32.0, tol(complex64));
  {
    options_scope no_kernel({.norm_callback = -1, .column_kernel = 0});
    before = fft::detail::scaled_executions();
    const ndarray by_cufft = fft::fft(rows, {.axis = 0, .norm = "ortho"});
    EXPECT_EQ(fft::detail::scaled_executions(), before);
    EXPECT_EQ(fft::detail::last_plan_key().scale, 1.0);
    EXPECT_EQ(fft::detail::last_plan_key().engine, 0);
    CUPP_ASSERT_ALLCLOSE(by_cufft, columns, tol(complex64));
  }
  const ndarray small = random_complex({64, 1024}, complex64, 7);  // a small batch: the pass
  before = fft::detail::scaled_executions();
  CUPP_ASSERT_ALLCLOSE(fft::fft(small, {.norm = "ortho"}), fft::fft(small) / 32.0, tol(complex64));
  EXPECT_EQ(fft::detail::scaled_executions(), before);
  const ndarray one = random_complex({1 << 16}, complex64, 4);
  before = fft::detail::scaled_executions();
  const ndarray o = fft::fft(one, {.norm = "forward"});
  EXPECT_EQ(fft::detail::scaled_executions(), before) << "one long transform keeps the scaling pass";
  CUPP_ASSERT_ALLCLOSE(o, fft::fft(one) / 65536.0, tol(complex64));
  // A user's callback set: the norm is the pass after it, cupp's callback is not attached.
  before = fft::detail::scaled_executions();
  {
    fft::set_cufft_callbacks guard({.store = R"(
__device__ void keep(void* out, unsigned long long i, cufftComplex v, void*, void*) {
  static_cast<cufftComplex*>(out)[i] = v;
})", .store_name = "keep"});
    const ndarray u = fft::fft(rows, {.norm = "ortho"});
    CUPP_ASSERT_ALLCLOSE(u, r, tol(complex64));
  }
  EXPECT_EQ(fft::detail::scaled_executions(), before);
}

TEST(FftNormGpu, ColumnTilesGiveTheOneExecutionResult) {
  CUPP_REQUIRE_GPU();
  for (dtype t : {complex64, complex128}) {
    SCOPED_TRACE(t.name());
    const ndarray a = random_complex({2048, 512}, t, 5);
    ndarray whole, tiled;
    {
      options_scope one({.column_tile_bytes = 0});
      whole = fft::fft(a, {.axis = 0});
      EXPECT_EQ(fft::detail::last_plan_key().batch, 512);
    }
    {
      options_scope tiles({.column_tile_bytes = 2 << 20});  // 2048 points: 64 (c128) or 128 columns a tile
      tiled = fft::fft(a, {.axis = 0, .norm = "ortho"});
      EXPECT_EQ(fft::detail::last_plan_key().batch, t == complex64 ? 128 : 64);
      EXPECT_EQ(fft::detail::last_plan_key().istride, 512);
    }
    CUPP_ASSERT_ALLCLOSE(tiled, whole / std::sqrt(2048.0), tol(t));
    // Independent of both: the last-axis transform of the transposed copy, transposed back.
    CUPP_ASSERT_ALLCLOSE(whole, fft::fft(ascontiguousarray(a.T())).T(), tol(t));
  }
  // r2c and c2r along axis 0 in tiles: the real rows stay aligned.
  const ndarray x = random_real({1024, 256}, float32, 6);
  options_scope tiles({.column_tile_bytes = 256 << 10});
  const ndarray spectrum = fft::rfft(x, {.axis = 0});
  EXPECT_EQ(fft::detail::last_plan_key().batch, 32);  // 1024 points, 8-byte complex side: 32 columns a tile
  CUPP_ASSERT_ALLCLOSE(spectrum, fft::rfft(ascontiguousarray(x.T())).T(), tol(complex64));
  CUPP_ASSERT_ALLCLOSE(fft::irfft(spectrum, {.n = 1024, .axis = 0}), x, tol(float32));
}

// cupp's column kernel (fft/device/cupp/fft/columns.cuh, plan_key::engine 1) against cuFFT's
// strided plan and the last-axis transform of the transposed copy: every first radix (32 to 4096
// points), complex64 and complex128, forward, inverse and ortho (the factor in its stores), a
// last block with fewer columns, in place, a loop of executions, a forced width; and the row kernel
// on small rows.
TEST(FftNormGpu, ColumnKernelGivesCuFftsResult) {
  CUPP_REQUIRE_GPU();
  const engine_options everywhere{.column_kernel = 2, .column_kernel_min_n = 32, .column_kernel_min_blocks = 1};
  const std::uint64_t fallbacks = fft::detail::column_kernel_fallbacks();
  for (dtype t : {complex64, complex128}) {
    for (std::int64_t n : {32, 64, 128, 256, 512, 1024, 2048, 4096}) {
      SCOPED_TRACE(t.name() + " n " + std::to_string(n));
      const ndarray a = random_complex({n, 37}, t, static_cast<unsigned>(n));
      ndarray f0, i0, o0, f1, i1, o1;
      {
        options_scope cufft({.column_kernel = 0});
        f0 = fft::fft(a, {.axis = 0});
        i0 = fft::ifft(a, {.axis = 0});
        o0 = fft::fft(a, {.axis = 0, .norm = "ortho"});
        EXPECT_EQ(fft::detail::last_plan_key().engine, 0);
      }
      {
        options_scope kernel(everywhere);
        const std::uint64_t runs = fft::detail::column_kernel_executions();
        f1 = fft::fft(a, {.axis = 0});
        EXPECT_EQ(fft::detail::last_plan_key().engine, 1);
        i1 = fft::ifft(a, {.axis = 0});
        o1 = fft::fft(a, {.axis = 0, .norm = "ortho"});
        EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 3);
      }
      CUPP_ASSERT_ALLCLOSE(f1, f0, tol(t));
      CUPP_ASSERT_ALLCLOSE(i1, i0, tol(t));
      CUPP_ASSERT_ALLCLOSE(o1, o0, tol(t));
      CUPP_ASSERT_ALLCLOSE(f1, fft::fft(ascontiguousarray(a.T())).T(), tol(t));
    }
  }
  options_scope kernel(everywhere);
  // In place (out= the input) and a loop: axis 0 of (1024, 5, 64)[:, :, :60] runs 5 executions.
  const ndarray b = random_complex({4096, 40}, complex64, 21);
  const ndarray expected = fft::fft(ascontiguousarray(b.T()), {.norm = "forward"}).T();
  ndarray inplace = b.copy();
  (void)fft::fft(inplace, {.axis = 0, .norm = "forward", .out = inplace});
  EXPECT_EQ(fft::detail::last_plan_key().engine, 1);
  CUPP_ASSERT_ALLCLOSE(inplace, expected, tol(complex64));
  const ndarray c = random_complex({1024, 5, 64}, complex128, 22)(slice(), slice(), slice(0, 60));
  const std::uint64_t runs = fft::detail::column_kernel_executions();
  const ndarray looped = fft::ifft(c, {.axis = 0});
  EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 5);
  CUPP_ASSERT_ALLCLOSE(looped, fft::ifft(ascontiguousarray(c.transpose({1, 2, 0}))).transpose({2, 0, 1}), tol(complex128));
  {
    engine_options w2 = everywhere;
    w2.column_kernel_width = 2;
    options_scope forced(w2);
    const ndarray r = fft::fft(b, {.axis = 0, .norm = "forward"});
    EXPECT_EQ(fft::detail::last_plan_key().width, 2);
    CUPP_ASSERT_ALLCLOSE(r, expected, tol(complex64));
  }
  // The pair form (engine 3: a cluster of two blocks per group of columns), every width it takes.
  {
    engine_options paired = everywhere;
    paired.column_kernel = 3;
    options_scope pair_form(paired);
    for (dtype t : {complex64, complex128}) {
      for (std::int64_t n : {64, 1024, 4096}) {
        SCOPED_TRACE("pair " + t.name() + " n " + std::to_string(n));
        const ndarray p = random_complex({n, 37}, t, static_cast<unsigned>(n) + 7);
        const ndarray want = fft::fft(ascontiguousarray(p.T())).T();
        const ndarray want_inverse = fft::ifft(ascontiguousarray(p.T()), {.norm = "ortho"}).T();
        const std::uint64_t runs = fft::detail::column_kernel_executions();
        CUPP_ASSERT_ALLCLOSE(fft::fft(p, {.axis = 0}), want, tol(t));
        EXPECT_EQ(fft::detail::last_plan_key().engine, 3);
        CUPP_ASSERT_ALLCLOSE(fft::ifft(p, {.axis = 0, .norm = "ortho"}), want_inverse, tol(t));
        EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 2);
      }
    }
  }
  // The row kernel on a few small rows.
  for (dtype t : {complex64, complex128}) {
    const ndarray r = random_complex({7, 4096}, t, 23), s = random_complex({5, 256}, t, 24);
    ndarray ortho, inverse;
    {
      options_scope pass({.norm_callback = 0});
      ortho = fft::fft(r, {.norm = "ortho"});
      inverse = fft::ifft(s);
    }
    options_scope small_rows({.norm_callback_min_elements = 1, .norm_row_kernel = 1});
    CUPP_ASSERT_ALLCLOSE(fft::fft(r, {.norm = "ortho"}), ortho, tol(t));
    EXPECT_EQ(fft::detail::last_plan_key().engine, 2);
    CUPP_ASSERT_ALLCLOSE(fft::ifft(s), inverse, tol(t));
    EXPECT_EQ(fft::detail::last_plan_key().engine, 2);
  }
  EXPECT_EQ(fft::detail::column_kernel_fallbacks(), fallbacks) << "the column kernel did not load (cuFFT ran instead)";
}

// cupp's row kernel (engine 2, off by default: the column kernel's passes over contiguous rows,
// the factor in its stores) against cuFFT's literal store callback and the pass: 256 and 4096
// points (first radix 16; 16 rows and 1 a block), complex64 and complex128, ortho, forward and the
// inverse's 1/n, a last block with fewer rows.
TEST(FftNormGpu, RowKernelScalesAsTheCallbackAndThePass) {
  CUPP_REQUIRE_GPU();
  const std::uint64_t fallbacks = fft::detail::column_kernel_fallbacks();
  for (dtype t : {complex64, complex128}) {
    for (std::int64_t n : {256, 4096}) {
      SCOPED_TRACE(t.name() + " n " + std::to_string(n));
      const ndarray a = random_complex({37, n}, t, static_cast<unsigned>(n) + 1);
      ndarray o0, f0, i0, o1, f1, i1, o2;
      {
        options_scope pass({.norm_callback = 0});
        o0 = fft::fft(a, {.norm = "ortho"});
        f0 = fft::fft(a, {.norm = "forward"});
        i0 = fft::ifft(a);
      }
      {
        options_scope row_kernel({.norm_callback = -1, .norm_callback_min_elements = 1, .norm_row_kernel = 1});
        const std::uint64_t runs = fft::detail::column_kernel_executions();
        o1 = fft::fft(a, {.norm = "ortho"});
        EXPECT_EQ(fft::detail::last_plan_key().engine, 2);
        EXPECT_EQ(fft::detail::last_plan_key().width, 4096 / n);
        f1 = fft::fft(a, {.norm = "forward"});
        i1 = fft::ifft(a);
        EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 3);
      }
      {
        options_scope callback({.norm_callback = -1, .norm_callback_min_elements = 1});
        o2 = fft::fft(a, {.norm = "ortho"});
        EXPECT_EQ(fft::detail::last_plan_key().engine, 0);
        EXPECT_EQ(fft::detail::last_plan_key().scale_form, 1);
      }
      CUPP_ASSERT_ALLCLOSE(o1, o0, tol(t));
      CUPP_ASSERT_ALLCLOSE(f1, f0, tol(t));
      CUPP_ASSERT_ALLCLOSE(i1, i0, tol(t));
      CUPP_ASSERT_ALLCLOSE(o1, o2, tol(t));
    }
  }
  EXPECT_EQ(fft::detail::column_kernel_fallbacks(), fallbacks) << "the row kernel did not load (cuFFT ran instead)";
}

// Each of cupp's own fft kernels, and cuFFT with cupp's literal-factor store callback, once on
// problems small enough for compute-sanitizer (fft/bench/gpu-run.sh runs this test under memcheck
// and racecheck): the column kernel (engine 1: complex64 4096 points, 4 columns a block, and
// complex128 1024 points, first radix 4), its pair form (engine 3: a cluster of two blocks per 8
// complex64 columns of 4096 points), each over 37 columns (a last block or group of fewer), forward
// with norm="ortho" and inverse; the row kernel (engine 2: 3 rows of 4096 points, one a block, and
// 37 rows of 256, 16 a block and 5 in the last) and its pipelined form (engine 4, the same rows:
// cp.async into a buffer, each block looping over groups); the axis four-step transform (engine 6:
// complex64 4096 and complex128 2048 points over 37 columns, one cooperative grid of tickets); the
// four-step long transform (engine 5: 3 rows of 4096 complex64 points, 2 rows of 2048 complex128);
// the store callback on complex64 rows and on a c2r transform. Each is compared with cuFFT's plans
// without them.
TEST(FftNormGpu, OwnKernelsOnSmallProblems) {
  CUPP_REQUIRE_GPU();
  const std::uint64_t fallbacks = fft::detail::column_kernel_fallbacks();
  struct column_case {
    dtype t;
    std::int64_t n;
    int engine;
  };
  for (const column_case& k : {column_case{complex64, 4096, 1}, column_case{complex128, 1024, 1},
                               column_case{complex64, 4096, 3}, column_case{complex64, 4096, 6},
                               column_case{complex128, 2048, 6}}) {
    SCOPED_TRACE(k.t.name() + " n " + std::to_string(k.n) + " engine " + std::to_string(k.engine));
    const ndarray a = random_complex({k.n, 37}, k.t, static_cast<unsigned>(k.n) + 40);
    const ndarray want = fft::fft(ascontiguousarray(a.T()), {.norm = "ortho"}).T();
    const ndarray want_inverse = fft::ifft(ascontiguousarray(a.T())).T();
    options_scope kernel({.column_kernel = k.engine == 3 ? 3 : k.engine == 6 ? 4 : 2, .column_kernel_min_n = 32,
                          .column_kernel_min_blocks = 1});
    const std::uint64_t runs = fft::detail::column_kernel_executions();
    CUPP_ASSERT_ALLCLOSE(fft::fft(a, {.axis = 0, .norm = "ortho"}), want, tol(k.t));
    EXPECT_EQ(fft::detail::last_plan_key().engine, k.engine);
    CUPP_ASSERT_ALLCLOSE(fft::ifft(a, {.axis = 0}), want_inverse, tol(k.t));
    EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 2);
  }
  struct row_case {
    dtype t;
    std::int64_t rows, n;
  };
  for (const row_case& k :
       {row_case{complex64, 3, 4096}, row_case{complex128, 37, 256}, row_case{complex64, 37, 256}}) {
    for (int form : {1, 2}) {  // the row kernel, its pipelined form (engine 4)
      SCOPED_TRACE("rows " + k.t.name() + " n " + std::to_string(k.n) + " form " + std::to_string(form));
      const ndarray r = random_complex({k.rows, k.n}, k.t, static_cast<unsigned>(k.n) + 41);
      ndarray ortho, inverse;
      {
        options_scope pass({.norm_callback = 0});
        ortho = fft::fft(r, {.norm = "ortho"});
        inverse = fft::ifft(r);
      }
      options_scope row_kernel({.norm_callback = -1, .norm_callback_min_elements = 1, .norm_row_kernel = form});
      const std::uint64_t runs = fft::detail::column_kernel_executions();
      CUPP_ASSERT_ALLCLOSE(fft::fft(r, {.norm = "ortho"}), ortho, tol(k.t));
      EXPECT_EQ(fft::detail::last_plan_key().engine, form == 2 ? 4 : 2);
      EXPECT_EQ(fft::detail::last_plan_key().width, 4096 / k.n);
      CUPP_ASSERT_ALLCLOSE(fft::ifft(r), inverse, tol(k.t));
      EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 2);
    }
  }
  // The four-step long transform (engine 5) on small rows: 2^12 complex64 (64 x 64), 2^11
  // complex128 (32 x 64), a few batch rows each.
  for (const row_case& k : {row_case{complex64, 3, 4096}, row_case{complex128, 2, 2048}}) {
    SCOPED_TRACE("four-step " + k.t.name() + " n " + std::to_string(k.n));
    const ndarray r = random_complex({k.rows, k.n}, k.t, static_cast<unsigned>(k.n) + 43);
    ndarray ortho, inverse;
    {
      options_scope cufft({.norm_callback = 0, .long_kernel = 0});
      ortho = fft::fft(r, {.norm = "ortho"});
      inverse = fft::ifft(r);
    }
    options_scope four_step({.long_kernel = 2, .long_kernel_min_n = 1024});
    const std::uint64_t runs = fft::detail::column_kernel_executions();
    CUPP_ASSERT_ALLCLOSE(fft::fft(r, {.norm = "ortho"}), ortho, tol(k.t));
    EXPECT_EQ(fft::detail::last_plan_key().engine, 5);
    CUPP_ASSERT_ALLCLOSE(fft::ifft(r), inverse, tol(k.t));
    EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 2);
  }
  EXPECT_EQ(fft::detail::column_kernel_fallbacks(), fallbacks) << "a kernel did not load (cuFFT ran instead)";
  // The literal-factor store callback (the default form for batched rows), complex and real.
  const ndarray b = random_complex({96, 160}, complex64, 42);
  ndarray b_pass, x_pass;
  {
    options_scope pass({.norm_callback = 0});
    b_pass = fft::fft(b, {.norm = "ortho"});
    x_pass = fft::irfft(b_pass, {.n = 250});  // c2r, 1/250: a real store callback below
  }
  options_scope callback({.norm_callback = 1, .norm_callback_form = 1});
  const std::uint64_t before = fft::detail::scaled_executions();
  CUPP_ASSERT_ALLCLOSE(fft::fft(b, {.norm = "ortho"}), b_pass, tol(complex64));
  EXPECT_EQ(fft::detail::last_plan_key().scale_form, 1);
  CUPP_ASSERT_ALLCLOSE(fft::irfft(b_pass, {.n = 250}), x_pass, tol(float32));
  EXPECT_EQ(fft::detail::scaled_executions(), before + 2) << "the store callbacks did not scale";
}

// cuFFT plans no callback kernels for some problems (CUFFT_NOT_SUPPORTED when planning; a batch
// of prime-length transforms, which it computes by Bluestein's algorithm, was one on the H200):
// the norm's callback plan is then made without it and the factor is the pass, so the result is
// the same; a user's callbacks on such a transform are a ValueError, or, where cuFFT takes them,
// give the computation without callbacks.
TEST(FftNormGpu, TransformsCuFftRefusesTheCallbackOnStillScale) {
  CUPP_REQUIRE_GPU();
  const ndarray a = random_complex({256, 4099}, complex64, 8);  // 4099 is prime; 2^20 points
  ndarray by_pass, by_callback;
  {
    options_scope pass({.norm_callback = 0});
    by_pass = fft::fft(a, {.norm = "ortho"});
  }
  fft::config::clear_plan_cache();  // the callback plan is made here, not found in the cache
  for (int mode : {1, -1}) {
    SCOPED_TRACE("norm_callback " + std::to_string(mode));
    options_scope callback({.norm_callback = mode});
    const std::uint64_t scaled = fft::detail::scaled_executions(), refused = fft::detail::scale_callbacks_refused();
    by_callback = fft::fft(a, {.norm = "ortho"});
    EXPECT_NE(fft::detail::last_plan_key().scale, 1.0);
    CUPP_ASSERT_ALLCLOSE(by_callback, by_pass, tol(complex64));
    // The first mode made the plan: cuFFT either took the callback (it scaled) or refused it.
    if (mode == 1)
      EXPECT_NE(fft::detail::scaled_executions() > scaled, fft::detail::scale_callbacks_refused() > refused);
  }
  const ndarray plain = fft::fft(a);
  CUPP_ASSERT_ALLCLOSE(by_callback, plain * (1.0 / std::sqrt(4099.0)), tol(complex64));
  // A user's load callback that doubles each input on the same prime-length batch.
  const char* twice = R"(
__device__ cufftComplex twice(void* in, unsigned long long i, void*, void*) {
  cufftComplex v = static_cast<const cufftComplex*>(in)[i];
  v.x *= 2.0f;
  v.y *= 2.0f;
  return v;
})";
  try {
    fft::set_cufft_callbacks guard({.load = twice, .load_name = "twice"});
    const ndarray r = fft::fft(a);
    CUPP_ASSERT_ALLCLOSE(r, plain * 2.0, tol(complex64));
  } catch (const ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("cuFFT does not support callbacks on this transform (c2c single n=(4099)"),
              std::string::npos)
        << e.what();
  }
}

// The four-step long transform (engine 5, CUPP_FFT_LONG_KERNEL) against cuFFT's plan and scaling
// pass, on the sizes the engine takes (2^20 to 2^24, both precisions), every norm and direction,
// one and several batch rows, in place and into out=.
TEST(FftNormGpu, FourStepMatchesCufft) {
  CUPP_REQUIRE_GPU();
  const std::uint64_t fallbacks = fft::detail::column_kernel_fallbacks();
  struct long_case {
    dtype t;
    std::int64_t rows, n;
  };
  for (const long_case& k : {long_case{complex64, 1, 1 << 24}, long_case{complex64, 2, 1 << 21},
                             long_case{complex64, 3, 1 << 20}, long_case{complex128, 1, 1 << 23},
                             long_case{complex128, 2, 1 << 20}}) {
    SCOPED_TRACE("four-step " + k.t.name() + " " + std::to_string(k.rows) + " x " + std::to_string(k.n));
    const ndarray r = k.rows == 1 ? random_complex({k.n}, k.t, 50) : random_complex({k.rows, k.n}, k.t, 51);
    std::vector<ndarray> want;
    const char* norms[] = {"backward", "ortho", "forward"};
    {
      options_scope cufft({.norm_callback = 0, .long_kernel = 0});
      for (const char* norm : norms) {
        want.push_back(fft::fft(r, {.norm = norm}));
        want.push_back(fft::ifft(r, {.norm = norm}));
      }
    }
    options_scope four_step({.long_kernel = 2});
    const std::uint64_t runs = fft::detail::column_kernel_executions();
    for (int i = 0; i < 3; ++i) {
      SCOPED_TRACE(norms[i]);
      CUPP_ASSERT_ALLCLOSE(fft::fft(r, {.norm = norms[i]}), want[2 * i], tol(k.t));
      EXPECT_EQ(fft::detail::last_plan_key().engine, 5);
      CUPP_ASSERT_ALLCLOSE(fft::ifft(r, {.norm = norms[i]}), want[2 * i + 1], tol(k.t));
    }
    EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 6);
    // out= (a new array) and in place (out is the input)
    const ndarray out = empty_like(r);
    fft::fft(r, {.norm = "ortho", .out = out});
    CUPP_ASSERT_ALLCLOSE(out, want[2], tol(k.t));
    const ndarray x = r.copy();
    fft::ifft(x, {.norm = "ortho", .out = x});
    CUPP_ASSERT_ALLCLOSE(x, want[3], tol(k.t));
  }
  EXPECT_EQ(fft::detail::column_kernel_fallbacks(), fallbacks) << "the four-step kernels did not load";
}

// The axis four-step transform (engine 6, CUPP_FFT_COLUMN_KERNEL=4) against cuFFT's strided plan
// and scaling pass: axis 0 of 4096, 2048 and 1024 points, both precisions, every norm and
// direction, the default slabs and grid, one block an SM (items wait longest), and slabs of one
// item's columns (the most slabs the ticket order allows); out= and in place.
TEST(FftNormGpu, AxisFourStepMatchesCufft) {
  CUPP_REQUIRE_GPU();
  const std::uint64_t fallbacks = fft::detail::column_kernel_fallbacks();
  struct axis_case {
    dtype t;
    std::int64_t n, cols;
  };
  for (const axis_case& k : {axis_case{complex64, 4096, 4096}, axis_case{complex64, 2048, 1000},
                             axis_case{complex128, 1024, 4096}, axis_case{complex128, 4096, 300}}) {
    SCOPED_TRACE("axis four-step " + k.t.name() + " " + std::to_string(k.n) + " x " + std::to_string(k.cols));
    const ndarray a = random_complex({k.n, k.cols}, k.t, static_cast<unsigned>(k.n + k.cols));
    const char* norms[] = {"backward", "ortho", "forward"};
    std::vector<ndarray> want;
    {
      options_scope cufft({.norm_callback = 0, .column_kernel = 0});
      for (const char* norm : norms) {
        want.push_back(fft::fft(a, {.axis = 0, .norm = norm}));
        want.push_back(fft::ifft(a, {.axis = 0, .norm = norm}));
      }
    }
    for (const engine_options& o : {engine_options{.column_kernel = 4}, engine_options{.column_kernel = 4, .axis_blocks_per_sm = 1},
                                    engine_options{.column_kernel = 4, .axis_slab_bytes = 1}}) {
      if (o.axis_slab_bytes == 1 && fft::detail::axis_slab_columns(k.n, k.cols, k.t.itemsize(), 1) == 0) continue;
      SCOPED_TRACE("blocks an SM " + std::to_string(o.axis_blocks_per_sm) + ", slab bytes " + std::to_string(o.axis_slab_bytes));
      fft::config::clear_plan_cache();  // (the grid is fixed when the plan loads its kernel)
      options_scope four_step(o);
      const std::uint64_t runs = fft::detail::column_kernel_executions();
      for (int i = 0; i < 3; ++i) {
        SCOPED_TRACE(norms[i]);
        CUPP_ASSERT_ALLCLOSE(fft::fft(a, {.axis = 0, .norm = norms[i]}), want[2 * i], tol(k.t));
        EXPECT_EQ(fft::detail::last_plan_key().engine, 6);
        CUPP_ASSERT_ALLCLOSE(fft::ifft(a, {.axis = 0, .norm = norms[i]}), want[2 * i + 1], tol(k.t));
      }
      EXPECT_EQ(fft::detail::column_kernel_executions(), runs + 6);
    }
  }
  // out= a new array, and in place.
  const ndarray b = random_complex({4096, 256}, complex64, 60);
  ndarray want;
  {
    options_scope cufft({.norm_callback = 0, .column_kernel = 0});
    want = fft::fft(b, {.axis = 0, .norm = "ortho"});
  }
  options_scope four_step({.column_kernel = 4});
  const ndarray out = empty({4096, 256}, complex64);
  fft::fft(b, {.axis = 0, .norm = "ortho", .out = out});
  EXPECT_EQ(fft::detail::last_plan_key().engine, 6);
  CUPP_ASSERT_ALLCLOSE(out, want, tol(complex64));
  const ndarray x = b.copy();
  fft::fft(x, {.axis = 0, .norm = "ortho", .out = x});
  CUPP_ASSERT_ALLCLOSE(x, want, tol(complex64));
  EXPECT_EQ(fft::detail::column_kernel_fallbacks(), fallbacks) << "the axis four-step kernel did not load";
}

}  // namespace
}  // namespace cupp
