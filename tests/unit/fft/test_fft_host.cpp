// The fft module without a GPU (tests/unit/<module>/ is globbed with the unit tests): fftfreq's and
// rfftfreq's errors come before any device work, as NumPy's do before any array is made;
// next_fast_len against SciPy's answers and a brute-force search; the plan cache's settings (host
// state, no CUDA call for an explicit device); NumPy's norm factors; the module list cupp::cupp
// carries names the module folders; the module's own device code (embedded from fft/device/)
// compiles with NVRTC, which needs no GPU; the column kernel's passes (fft/device/cupp/fft/columns.cuh)
// run thread by thread on the host against an FFT, and the transforms that take it.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <set>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#include <string>

#include "compiler/nvrtc_program.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/float16.hpp"
#include "cupp/modules.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "fft_device_headers.hpp"
#include "helpers_program.hpp"
#include "callbacks.hpp"
#include "columns.hpp"
#include "../device/cupp/fft/four_step.cuh"
#include "plan_cache.hpp"
#include "transform.hpp"

namespace cupp {
namespace {

using test::error_of;

TEST(FftHost, SampleFrequencyErrorsAreNumPys) {
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(0); }), "float division by zero");
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(8, 0.0); }), "float division by zero");
  EXPECT_EQ(error_of<ValueError>([] { fft::rfftfreq(0, 2.0); }), "float division by zero");
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(-3); }), "negative dimensions are not allowed");
  // n * d == 0 is checked first, as NumPy's 1.0 / (n * d) comes before its empty(n).
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(-3, 0.0); }), "float division by zero");
}

// Whether n's prime factors are all at most `largest`.
bool smooth(std::int64_t n, std::int64_t largest) {
  for (std::int64_t p : {2, 3, 5, 7, 11})
    while (p <= largest && n % p == 0) n /= p;
  return n == 1;
}

TEST(FftHost, NextFastLenIsScipys) {
  // SciPy 1.x: next_fast_len(13) == 14, (13, real=True) == 15, 1021 -> 1024, 97 -> 98 / 100.
  EXPECT_EQ(fft::next_fast_len(13), 14);
  EXPECT_EQ(fft::next_fast_len(13, true), 15);
  EXPECT_EQ(fft::next_fast_len(1021), 1024);
  EXPECT_EQ(fft::next_fast_len(97), 98);
  EXPECT_EQ(fft::next_fast_len(97, true), 100);
  EXPECT_EQ(fft::next_fast_len(0), 0);
  EXPECT_EQ(fft::next_fast_len(1), 1);
  EXPECT_EQ(fft::next_fast_len(6, true), 6);
  EXPECT_EQ(error_of<ValueError>([] { fft::next_fast_len(-1); }), "Target cannot be negative");
  for (std::int64_t t = 7; t < 5000; t += 7) {
    std::int64_t c = t, r = t;
    while (!smooth(c, 11)) ++c;
    while (!smooth(r, 5)) ++r;
    ASSERT_EQ(fft::next_fast_len(t), c) << t;
    ASSERT_EQ(fft::next_fast_len(t, true), r) << t;
  }
  const std::int64_t big = (std::int64_t{1} << 40) + 1, fast = fft::next_fast_len(big, true);
  EXPECT_TRUE(smooth(fast, 5) && fast >= big && fast < (std::int64_t{1} << 41)) << fast;
}

TEST(FftHost, PlanCacheSettingsArePerDevice) {
  fft::config::set_plan_cache_size(3, 0);
  fft::config::set_plan_cache_max_memsize(1 << 20, 0);
  EXPECT_EQ(fft::config::get_plan_cache_size(0), 3u);
  EXPECT_EQ(fft::config::get_plan_cache_max_memsize(0), 1 << 20);
  EXPECT_EQ(fft::config::get_plan_cache_size(1), 16u);  // another device keeps the default
  const auto info = fft::config::get_plan_cache_info(0);
  EXPECT_EQ(info.size_limit, 3u);
  EXPECT_EQ(info.plans, 0u);
  EXPECT_THROW(fft::config::set_plan_cache_max_memsize(-2, 0), ValueError);
  fft::config::set_plan_cache_size(16, 0);
  fft::config::set_plan_cache_max_memsize(-1, 0);
  EXPECT_TRUE(fft::config::get_enable_nd_planning());
  fft::detail::plan_key a, b;
  b.istride = 2;
  EXPECT_NE(fft::detail::plan_key_hash{}(a), fft::detail::plan_key_hash{}(b));
  EXPECT_FALSE(a == b);
}

TEST(FftHost, NormFactorsAreRoundedAsNumPyRoundsThem) {
  using fft::detail::norm_factor;
  using fft::detail::norm_kind;
  EXPECT_EQ(norm_factor(norm_kind::backward, 7, float64), 1.0);
  EXPECT_EQ(norm_factor(norm_kind::forward, 8, float32), 0.125);
  EXPECT_EQ(norm_factor(norm_kind::ortho, 7, float64), 1.0 / std::sqrt(7.0));
  EXPECT_EQ(norm_factor(norm_kind::ortho, 7, float32), static_cast<double>(1.0f / std::sqrt(7.0f)));
  // float16: NumPy's reciprocal(sqrt(7, dtype=float16)) in float16, 0.378 (not 0.37796...).
  EXPECT_EQ(norm_factor(norm_kind::ortho, 7, float16), static_cast<double>(float16_t(1.0 / static_cast<double>(float16_t(std::sqrt(7.0))))));
  // n rounds to float16 first: 2049 -> 2048.
  EXPECT_EQ(norm_factor(norm_kind::forward, 2049, float16), 1.0 / 2048);
  EXPECT_EQ(fft::detail::dtypes_of(float16).factor_type, float16);
  EXPECT_EQ(fft::detail::dtypes_of(float16).complex_type, complex64);
  EXPECT_EQ(fft::detail::dtypes_of(int8).complex_type, complex128);
  EXPECT_EQ(fft::detail::dtypes_of(bool_).factor_type, float64);
  EXPECT_EQ(fft::detail::dtypes_of(bfloat16).complex_type, complex64);
  EXPECT_EQ(fft::detail::dtypes_of(complex64).factor_type, float32);
}

// cupp's literal-factor norm callbacks (store and load, real and complex, both precisions)
// compile to LTO-IR, with the factor exact in the source and a symbol that outlives the call.
TEST(FftHost, LiteralNormCallbacksCompile) {
  using fft::detail::transform_kind;
  for (bool at_load : {false, true})
    for (transform_kind kind : {transform_kind::c2c, transform_kind::r2c, transform_kind::c2r})
      for (bool dbl : {false, true}) {
        const auto cb = fft::detail::literal_scale_source(kind, dbl, 1.0 / std::sqrt(160.0), at_load);
        SCOPED_TRACE(cb.source);
        EXPECT_NE(cb.source.find(cb.name), std::string::npos);
        EXPECT_NE(cb.source.find(dbl ? "0x1.43d136248490fp-4" : "0x1.43d136p-4f"), std::string::npos);
        EXPECT_FALSE(fft::detail::callback_ltoir(cb.source, 90).empty());
        // One symbol per factor (never two sources under one name), the same storage each time.
        const auto half = fft::detail::literal_scale_source(kind, dbl, 0.5, at_load);
        EXPECT_NE(std::string(half.name), std::string(cb.name));
        EXPECT_EQ(fft::detail::literal_scale_source(kind, dbl, 0.5, at_load).name, half.name);
      }
}

// A callback source compiles to LTO-IR without a GPU (cuFFT's type names come declared); a guard
// makes its set current for the thread and restores the previous one; equal sets share one
// identity (the plan cache's key).
TEST(FftHost, CallbacksCompileToLtoIrAndNest) {
  const std::string load = R"(__device__ cufftComplex cupp_fft_load(void* in, unsigned long long offset,
                                                                             void* info, void* shared) {
    return static_cast<cufftComplex*>(in)[offset];
  })";
  const std::string& ir = fft::detail::callback_ltoir(load, 90);
  EXPECT_FALSE(ir.empty());
  EXPECT_EQ(&fft::detail::callback_ltoir(load, 90), &ir);  // cached
  EXPECT_THROW(fft::detail::callback_ltoir("this is not CUDA", 90), CompileError);
  EXPECT_EQ(fft::detail::current_callback_identity(), 0u);
  std::uintptr_t outer = 0;
  {
    fft::set_cufft_callbacks a({.load = load});
    outer = fft::detail::current_callback_identity();
    EXPECT_NE(outer, 0u);
    {
      fft::set_cufft_callbacks b({.load = load, .load_data = &outer});
      EXPECT_NE(fft::detail::current_callback_identity(), outer);  // other caller_info: another set
    }
    EXPECT_EQ(fft::detail::current_callback_identity(), outer);
    fft::set_cufft_callbacks same({.load = load});
    EXPECT_EQ(fft::detail::current_callback_identity(), outer);  // interned
  }
  EXPECT_EQ(fft::detail::current_callback_identity(), 0u);
  EXPECT_THROW(fft::set_cufft_callbacks({}), ValueError);
  EXPECT_THROW(fft::set_cufft_callbacks({.store = "x", .store_name = ""}), ValueError);
}

// The layout analysis on host arrays (nothing reads their memory): which plan a transform gets
// and which pointers it runs on.
using fft::detail::describe;
using fft::detail::transform_kind;

// The engine's process-wide options, set for one test and restored after it.
struct engine_options_scope {
  fft::detail::engine_options saved = fft::detail::get_engine_options();
  explicit engine_options_scope(fft::detail::engine_options o) { fft::detail::set_engine_options(o); }
  ~engine_options_scope() { fft::detail::set_engine_options(saved); }
};

TEST(FftHost, AxisZeroIsPlannedWithStridesAndOneExecution) {
  // The default: no column tiles (measured slower than one strided execution on the H200).
  ASSERT_EQ(fft::detail::get_engine_options().column_tile_bytes, 0);
  test::fake_array a({4096, 4096}, complex64), out({4096, 4096}, complex64);
  const int axis0[] = {0};
  const auto e = describe(transform_kind::c2c, -1, a.a, out.a, axis0);
  EXPECT_EQ(e.key.rank, 1);
  EXPECT_EQ(e.key.n[0], 4096);
  EXPECT_EQ(e.key.istride, 4096);
  EXPECT_EQ(e.key.idist, 1);
  EXPECT_EQ(e.key.batch, 4096);
  EXPECT_EQ(e.runs.size(), 1u);
  EXPECT_EQ(e.runs[0].in, a.a.data());
  EXPECT_EQ(e.key.engine, 1);  // cupp's column kernel (AxisZeroTakesTheColumnKernel); cuFFT's plan keys alike
}

TEST(FftHost, AxisZeroRunsOverColumnTilesOfOnePlan) {
  // 8 MiB tiles: 256 columns of 4096 complex64 points, 16 executions of one plan (batch 256)
  // over pointers 256 columns apart, the same strides.
  engine_options_scope tiles({.column_tile_bytes = 8 << 20});
  test::fake_array a({4096, 4096}, complex64), out({4096, 4096}, complex64);
  const int axis0[] = {0};
  const auto e = describe(transform_kind::c2c, -1, a.a, out.a, axis0);
  EXPECT_EQ(e.key.istride, 4096);
  EXPECT_EQ(e.key.idist, 1);
  EXPECT_EQ(e.key.batch, 256);
  ASSERT_EQ(e.runs.size(), 16u);
  for (std::size_t i = 0; i < e.runs.size(); ++i) {
    EXPECT_EQ(static_cast<char*>(e.runs[i].in) - static_cast<char*>(a.a.data()), static_cast<std::ptrdiff_t>(i * 256 * 8));
    EXPECT_EQ(static_cast<char*>(e.runs[i].out) - static_cast<char*>(out.a.data()), static_cast<std::ptrdiff_t>(i * 256 * 8));
  }
  // A 3-d array: the outer axis loops, the tiles of each outer index run together (innermost).
  test::fake_array b({2, 1024, 1024}, complex128), bout({2, 1024, 1024}, complex128);
  const int axis1[] = {1};
  const auto e3 = describe(transform_kind::c2c, -1, b.a, bout.a, axis1);
  EXPECT_EQ(e3.key.batch, 512);  // 1024 points x 16 bytes x 512 columns = 8 MiB
  ASSERT_EQ(e3.runs.size(), 4u);
  EXPECT_EQ(static_cast<char*>(e3.runs[1].in) - static_cast<char*>(b.a.data()), 512 * 16);
  EXPECT_EQ(static_cast<char*>(e3.runs[2].in) - static_cast<char*>(b.a.data()), 1024 * 1024 * 16);
  // Last-axis transforms and small arrays are not tiled.
  const int last[] = {1};
  EXPECT_EQ(describe(transform_kind::c2c, -1, a.a, out.a, last).runs.size(), 1u);
  test::fake_array s({64, 32}, complex64), sout({64, 32}, complex64);
  EXPECT_EQ(describe(transform_kind::c2c, -1, s.a, sout.a, axis0).runs.size(), 1u);
}

TEST(FftHost, ColumnTileSizes) {
  using fft::detail::column_tile;
  EXPECT_EQ(column_tile(4096, 4096, 8, 8 << 20, 32), 256);
  EXPECT_EQ(column_tile(4096, 256, 8, 8 << 20, 32), 0);   // 8 MiB: one tile, nothing to split
  EXPECT_EQ(column_tile(4096, 512, 8, 8 << 20, 32), 256);
  EXPECT_EQ(column_tile(1 << 20, 64, 8, 8 << 20, 32), 0); // 32 columns are already too big
  EXPECT_EQ(column_tile(4096, 3072, 8, 8 << 20, 32), 256);  // 3072 = 12 x 256
  EXPECT_EQ(column_tile(4096, 33 * 32, 8, 8 << 20, 32), 32);  // 1056 = 33 x 32: only 32 divides
  EXPECT_EQ(column_tile(4096, 1000, 8, 8 << 20, 32), 0);    // no power-of-two multiple of 32 divides 1000
  EXPECT_EQ(column_tile(16, 6, 8, 512, 1), 2);              // small tiles (the tests' setting)
  EXPECT_EQ(column_tile(4096, 4096, 8, 0, 32), 0);          // off
}

// The column kernel's device code run on the host: each block's threads one by one between the
// kernel's barriers (the same sequence as cupp_fft_columns), for blocks of W adjacent columns.
template <class C, int N, int W, bool Rows = false>
void run_column_blocks(const typename cupp_fft_columns::columns<C, N, W, Rows>::args& a) {
  using K = cupp_fft_columns::columns<C, N, W, Rows>;
  std::vector<C> tile(K::tile_bytes / sizeof(C)), v(K::threads * 16);
  for (long long col0 = 0; col0 < a.ncols; col0 += W) {
    for (int t = 0; t < K::threads; ++t) K::first(a, col0, t, &v[t * 16], tile.data());
    for (int ns = K::R0; ns < N / 16; ns *= 16) {
      for (int t = 0; t < K::threads; ++t) K::pass(a, ns, t, &v[t * 16], tile.data());
      for (int t = 0; t < K::threads; ++t) K::store(ns, t, &v[t * 16], tile.data());
    }
    for (int t = 0; t < K::threads; ++t) K::pass(a, N / 16, t, &v[t * 16], tile.data());
    for (int t = 0; t < K::threads; ++t) K::last(a, col0, t, &v[t * 16]);
  }
}

// The pipelined row kernel (cupp_fft_rows_pipelined) the same way: `grid` blocks, each looping
// over groups b, b + grid, ... with the next group fetched (a plain copy here) into its buffer
// between taking the current one and its first pass, as the kernel orders them.
template <class C, int N, int W>
void run_pipelined_rows(const typename cupp_fft_columns::columns<C, N, W, true>::args& a, long long grid) {
  using K = cupp_fft_columns::columns<C, N, W, true>;
  const long long groups = (a.ncols + W - 1) / W;
  for (long long b = 0; b < grid; ++b) {
    std::vector<C> tile(K::tile_bytes / sizeof(C)), buffer(N * W, cupp_fft_columns::cx<C>(NAN, NAN)),
        v(K::threads * 16);
    if (b < groups)
      for (int t = 0; t < K::threads; ++t) K::fetch(a, b * W, t, buffer.data());
    for (long long g = b; g < groups; g += grid) {
      for (int t = 0; t < K::threads; ++t) {
        K::take(a, g * W, t, &v[t * 16], buffer.data());
        if (g + grid < groups) K::fetch(a, (g + grid) * W, t, buffer.data());
        K::spread(t, &v[t * 16], tile.data());
      }
      for (int ns = K::R0; ns < N / 16; ns *= 16) {
        for (int t = 0; t < K::threads; ++t) K::pass(a, ns, t, &v[t * 16], tile.data());
        for (int t = 0; t < K::threads; ++t) K::store(ns, t, &v[t * 16], tile.data());
      }
      for (int t = 0; t < K::threads; ++t) K::pass(a, N / 16, t, &v[t * 16], tile.data());
      for (int t = 0; t < K::threads; ++t) K::last(a, g * W, t, &v[t * 16]);
    }
  }
}

// A long double radix-2 FFT (sign -1 forward, +1 inverse, unnormalised).
void reference_fft(std::vector<std::complex<long double>>& x, int sign) {
  const std::size_t n = x.size();
  if (n == 1) return;
  std::vector<std::complex<long double>> even(n / 2), odd(n / 2);
  for (std::size_t i = 0; i < n / 2; ++i) even[i] = x[2 * i], odd[i] = x[2 * i + 1];
  reference_fft(even, sign);
  reference_fft(odd, sign);
  const long double pi = 3.141592653589793238462643383279502884L;
  for (std::size_t k = 0; k < n / 2; ++k) {
    const long double angle = sign * 2.0L * pi * static_cast<long double>(k) / static_cast<long double>(n);
    const std::complex<long double> t = std::complex<long double>(cosl(angle), sinl(angle)) * odd[k];
    x[k] = even[k] + t;
    x[k + n / 2] = even[k] - t;
  }
}

// 2W + 1 columns (the last block holds one), rows ncols + 3 apart (the 3 columns beyond must stay
// untouched), forward and inverse with a factor, and in place: the largest error relative to the
// largest value. Rows (the row kernel): 2W + 1 contiguous transforms N + 3 elements apart, element
// (point r, transform c) at c (N + 3) + r.
// Grid (the pipelined row kernel, Rows only): that many blocks looping over the groups.
template <class C, int N, int W, bool Rows = false, long long Grid = 0>
double column_kernel_error() {
  using real = cupp_fft_columns::real_t<C>;
  const long long ncols = 2 * W + 1, stride = Rows ? N + 3 : ncols + 3;
  auto at = [&](long long r, long long c) { return Rows ? c * stride + r : r * stride + c; };
  const long long total = Rows ? stride * (ncols + 1) : N * stride;
  std::vector<C> twiddles(cupp_fft_columns::twiddle_count(N));
  cupp_fft_columns::fill_twiddles(twiddles.data(), N);
  double worst = 0;
  for (int mode = 0; mode < 3; ++mode) {  // forward, inverse, forward in place
    const int inverse = mode == 1;
    std::vector<C> in(total), out(total);
    for (long long i = 0; i < total; ++i)
      in[i] = cupp_fft_columns::cx<C>(real(std::sin(i * 0.37) + 0.1), real(std::cos(i * 1.3)));
    for (auto& o : out) o = cupp_fft_columns::cx<C>(real(7), real(7));
    const std::vector<C> original = in;
    C* dst = mode == 2 ? in.data() : out.data();
    const long long point = Rows ? 1 : stride, transform = Rows ? stride : 1;
    const typename cupp_fft_columns::columns<C, N, W, Rows>::args args{
        in.data(), dst, ncols, point, transform, point, transform, twiddles.data(), real(0.5), inverse};
    if constexpr (Grid > 0) {
      static_assert(Rows, "the pipelined kernel is a row kernel");
      run_pipelined_rows<C, N, W>(args, Grid);
    } else {
      run_column_blocks<C, N, W, Rows>(args);
    }
    double err = 0, mag = 0;
    for (long long c = 0; c < ncols; ++c) {
      std::vector<std::complex<long double>> x(N);
      for (int r = 0; r < N; ++r) x[r] = {original[at(r, c)].x, original[at(r, c)].y};
      reference_fft(x, inverse ? 1 : -1);
      for (int k = 0; k < N; ++k) {
        const C got = dst[at(k, c)];
        err = std::max(err, static_cast<double>(std::abs(0.5L * x[k] - std::complex<long double>(got.x, got.y))));
        mag = std::max(mag, static_cast<double>(std::abs(0.5L * x[k])));
      }
    }
    for (long long i = 0; i < total; ++i) {  // nothing written outside the transforms
      const long long r = Rows ? i % stride : i / stride, c = Rows ? i / stride : i % stride;
      if ((r >= N || c >= ncols) && dst[i].x != (mode == 2 ? original[i].x : real(7))) return 1.0;
    }
    worst = std::max(worst, err / mag);
  }
  return worst;
}

// The pair form the same way: each group's two blocks (rows of one parity each) run to their
// tiles, then both combine (the kernel's cluster barrier between): 2W + 1 columns, rows ncols + 3
// apart, forward and inverse with a factor.
template <class C, int N, int W>
double pair_kernel_error() {
  using P = cupp_fft_columns::pair<C, N, W>;
  using K = typename P::K;
  using real = cupp_fft_columns::real_t<C>;
  const long long ncols = 2 * W + 1, stride = ncols + 3;
  std::vector<C> twiddles(P::twiddle_entries());
  cupp_fft_columns::fill_pair_twiddles(twiddles.data(), N);
  double worst = 0;
  for (int inverse = 0; inverse < 2; ++inverse) {
    std::vector<C> in(N * stride), out(N * stride, cupp_fft_columns::cx<C>(real(7), real(7)));
    for (long long i = 0; i < N * stride; ++i)
      in[i] = cupp_fft_columns::cx<C>(real(std::sin(i * 0.37) + 0.1), real(std::cos(i * 1.3)));
    for (long long col0 = 0; col0 < ncols; col0 += W) {
      std::vector<C> tiles[2] = {std::vector<C>(K::tile_bytes / sizeof(C)), std::vector<C>(K::tile_bytes / sizeof(C))};
      typename K::args halves[2];
      for (int q = 0; q < 2; ++q) {
        halves[q] = {in.data() + q * stride, out.data(), ncols, 2 * stride, 1, stride, 1, twiddles.data(), real(0.5), inverse};
        std::vector<C> v(K::threads * 16);
        C* tile = tiles[q].data();
        for (int t = 0; t < K::threads; ++t) K::first(halves[q], col0, t, &v[t * 16], tile);
        for (int ns = K::R0; ns < N / 2 / 16; ns *= 16) {
          for (int t = 0; t < K::threads; ++t) K::pass(halves[q], ns, t, &v[t * 16], tile);
          for (int t = 0; t < K::threads; ++t) K::store(ns, t, &v[t * 16], tile);
        }
        for (int t = 0; t < K::threads; ++t) K::pass(halves[q], N / 2 / 16, t, &v[t * 16], tile);
        for (int t = 0; t < K::threads; ++t) P::keep(q, t, &v[t * 16], tile, twiddles.data());
      }
      for (int q = 0; q < 2; ++q)
        for (int t = 0; t < K::threads; ++t) P::combine(halves[q], q, col0, t, tiles[q].data(), tiles[q ^ 1].data());
    }
    double err = 0, mag = 0;
    for (long long c = 0; c < ncols; ++c) {
      std::vector<std::complex<long double>> x(N);
      for (int r = 0; r < N; ++r) x[r] = {in[r * stride + c].x, in[r * stride + c].y};
      reference_fft(x, inverse ? 1 : -1);
      for (int k = 0; k < N; ++k) {
        const C got = out[k * stride + c];
        err = std::max(err, static_cast<double>(std::abs(0.5L * x[k] - std::complex<long double>(got.x, got.y))));
        mag = std::max(mag, static_cast<double>(std::abs(0.5L * x[k])));
      }
    }
    for (int k = 0; k < N; ++k)
      for (long long c = ncols; c < stride; ++c)
        if (out[k * stride + c].x != real(7)) return 1.0;  // wrote outside
    worst = std::max(worst, err / mag);
  }
  return worst;
}

TEST(FftHost, ColumnKernelPassesMatchAnFft) {
  // Every first radix (2, 4, 8, 16), the engine's widths and the study's W = 2 for 4096 points.
  EXPECT_LT((column_kernel_error<float2, 32, 16>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 64, 16>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 128, 16>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 256, 16>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 512, 16>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 1024, 8>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 2048, 4>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 4096, 4>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 4096, 2>()), 1e-6);
  EXPECT_LT((column_kernel_error<double2, 32, 8>()), 2e-15);
  EXPECT_LT((column_kernel_error<double2, 512, 8>()), 2e-15);
  EXPECT_LT((column_kernel_error<double2, 1024, 4>()), 2e-15);
  EXPECT_LT((column_kernel_error<double2, 2048, 2>()), 2e-15);
  EXPECT_LT((column_kernel_error<double2, 4096, 2>()), 2e-15);
  // The pair form (a cluster of two blocks): pair_width's choices.
  EXPECT_LT((pair_kernel_error<float2, 64, 16>()), 1e-6);
  EXPECT_LT((pair_kernel_error<float2, 1024, 16>()), 1e-6);
  EXPECT_LT((pair_kernel_error<float2, 4096, 8>()), 1e-6);
  EXPECT_LT((pair_kernel_error<double2, 4096, 4>()), 2e-15);
  // The row kernel (Rows): the engine's widths 4096 / n.
  EXPECT_LT((column_kernel_error<float2, 256, 16, true>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 512, 8, true>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 2048, 2, true>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 4096, 1, true>()), 1e-6);
  EXPECT_LT((column_kernel_error<double2, 1024, 4, true>()), 2e-15);
  EXPECT_LT((column_kernel_error<double2, 4096, 1, true>()), 2e-15);
  // The pipelined row kernel: 2W + 1 rows (3 groups, the last of one row) over grids of 1 and 2 blocks
  // (each block loops, fetching its next group while it transforms one) and of more blocks than
  // groups (the extra ones do nothing).
  EXPECT_LT((column_kernel_error<float2, 4096, 1, true, 1>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 4096, 1, true, 2>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 256, 16, true, 2>()), 1e-6);
  EXPECT_LT((column_kernel_error<float2, 1024, 4, true, 5>()), 1e-6);
  EXPECT_LT((column_kernel_error<double2, 4096, 1, true, 2>()), 2e-15);
  EXPECT_LT((column_kernel_error<double2, 512, 8, true, 1>()), 2e-15);
}

// One n-point transform's largest error against a long double FFT scaled by 0.5 (the tests'
// factor) into err, and its largest value into mag: point i of the input is in(i), value k of the
// result out(k).
template <class In, class Out>
void add_transform_error(long long n, int inverse, In in, Out out, double& err, double& mag) {
  std::vector<std::complex<long double>> x(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) x[i] = {in(i).x, in(i).y};
  reference_fft(x, inverse ? 1 : -1);
  for (long long k = 0; k < n; ++k) {
    const auto got = out(k);
    err = std::max(err, static_cast<double>(std::abs(0.5L * x[k] - std::complex<long double>(got.x, got.y))));
    mag = std::max(mag, static_cast<double>(std::abs(0.5L * x[k])));
  }
}

// One block of K on the host, thread by thread between the kernel's barriers: pass 0 and the
// radix passes but the last, then finish(thread, its values, the tile) for each thread (the last
// pass and the stores, which write no tile).
template <class K, class Finish>
void run_block(const typename K::args& ka, long long g0, Finish finish) {
  using C = std::remove_cvref_t<decltype(*std::declval<typename K::args>().in)>;
  std::vector<C> tile(K::tile_bytes / sizeof(C)), v(K::threads * 16);
  for (int t = 0; t < K::threads; ++t) K::first(ka, g0, t, &v[t * 16], tile.data());
  for (int ns = K::R0; ns < K::T; ns *= 16) {
    for (int t = 0; t < K::threads; ++t) K::pass(ka, ns, t, &v[t * 16], tile.data());
    for (int t = 0; t < K::threads; ++t) K::store(ns, t, &v[t * 16], tile.data());
  }
  for (int t = 0; t < K::threads; ++t) finish(t, &v[t * 16], tile.data());
}

// One block of a four-step pass (F: four_step_columns or four_step_rows), as
// cupp_fft_four_step_block runs it: group g0 of batch row b.
template <class F>
void run_four_step_block(const typename F::args& a, long long b, long long g0) {
  const typename F::K::args ka = F::inner_args(a, b);
  run_block<typename F::K>(ka, g0, [&](int t, auto* v, const auto* tile) { F::finish(ka, a, b, g0, t, v, tile); });
}

// The four-step long transform (four_step.cuh) on the host: both passes thread by thread between
// the kernels' barriers, over `batch` contiguous rows of N1 * N2 points (the scratch poisoned with
// NaN first, so a value the columns pass failed to write shows), forward and inverse with a
// factor; the largest error relative to the largest value, or 1 when anything outside the rows
// was written.
template <class C, int N1, int W1, int N2, int W2>
double four_step_error(long long batch) {
  namespace fc = cupp_fft_columns;
  using real = fc::real_t<C>;
  using FC = fc::four_step_columns<C, N1, N2, W1>;
  using FR = fc::four_step_rows<C, N1, N2, W2>;
  const long long n = static_cast<long long>(N1) * N2, total = batch * n + 5;  // 5 guard elements
  std::vector<C> tw(fc::four_step_offsets(N1, N2).total);
  fc::fill_four_step_twiddles(tw.data(), N1, N2);
  double worst = 0;
  for (int inverse = 0; inverse < 2; ++inverse) {
    std::vector<C> in(total), scratch(total, fc::cx<C>(real(NAN), real(NAN))), out(total, fc::cx<C>(real(7), real(7)));
    for (long long i = 0; i < total; ++i) in[i] = fc::cx<C>(real(std::sin(i * 0.37) + 0.1), real(std::cos(i * 1.3)));
    const typename FC::args ca{in.data(), scratch.data(), tw.data(), n, inverse};
    const typename FR::args ra{scratch.data(), out.data(), tw.data(), real(0.5), n, inverse};
    for (long long b = 0; b < batch; ++b)
      for (long long col0 = 0; col0 < N2; col0 += W1) run_four_step_block<FC>(ca, b, col0);
    for (long long b = 0; b < batch; ++b)
      for (long long row0 = 0; row0 < N1; row0 += W2) run_four_step_block<FR>(ra, b, row0);
    double err = 0, mag = 0;
    for (long long b = 0; b < batch; ++b)
      add_transform_error(n, inverse, [&](long long i) { return in[b * n + i]; }, [&](long long k) { return out[b * n + k]; },
                          err, mag);
    for (long long i = batch * n; i < total; ++i)
      if (out[i].x != real(7) || !std::isnan(scratch[i].x)) return 1.0;  // wrote past the rows
    if (!(err == err)) return 1.0;  // NaN: a scratch value never written
    worst = std::max(worst, err / mag);
  }
  return worst;
}

TEST(FftHost, FourStepPassesMatchAnFft) {
  // The split's widths (four_step_split) at small sizes, a columns pass of 4096 points and a rows
  // pass of 4096 (the tile's skew), in both precisions, over two batch rows.
  EXPECT_LT((four_step_error<float2, 32, 16, 32, 16>(2)), 1e-6);
  EXPECT_LT((four_step_error<float2, 32, 16, 64, 16>(2)), 1e-6);
  EXPECT_LT((four_step_error<float2, 256, 16, 512, 16>(1)), 2e-6);
  EXPECT_LT((four_step_error<float2, 4096, 4, 32, 16>(1)), 2e-6);
  EXPECT_LT((four_step_error<float2, 64, 16, 4096, 4>(1)), 2e-6);
  EXPECT_LT((four_step_error<double2, 32, 8, 64, 8>(2)), 4e-15);
  EXPECT_LT((four_step_error<double2, 4096, 2, 32, 8>(1)), 4e-15);
  EXPECT_LT((four_step_error<double2, 64, 8, 4096, 2>(1)), 4e-15);
}

// The axis four-step transform (engine 6) on the host: every ticket in order (each a block of the
// kernel, run as cupp_fft_axis_four_step runs it), over ncols columns of N points with strided
// rows, in slabs of slab_cols columns (the last one partial, the last group partial). Checks that
// the tickets cover every item once and that each pass B item comes after all of its slab's pass
// A items; the largest error against a long double FFT of each column, relative to the largest
// value (1 when a ticket order rule broke or anything outside the columns was written).
template <class C, int N1, int N2, int W>
double axis_four_step_error(long long ncols, long long slab_cols) {
  namespace fc = cupp_fft_columns;
  using real = fc::real_t<C>;
  using F = fc::axis_four_step<C, N1, N2, W>;
  constexpr long long N = static_cast<long long>(N1) * N2;
  const long long istride = ncols + 3, ostride = ncols + 1;
  std::vector<C> tw(fc::four_step_offsets(N1, N2).total);
  fc::fill_four_step_twiddles(tw.data(), N1, N2);
  double worst = 0;
  for (int inverse = 0; inverse < 2; ++inverse) {
    std::vector<C> in(N * istride), scratch(N * ncols, fc::cx<C>(real(NAN), real(NAN))),
        out(N * ostride, fc::cx<C>(real(7), real(7)));
    for (long long i = 0; i < N * istride; ++i) in[i] = fc::cx<C>(real(std::sin(i * 0.37) + 0.1), real(std::cos(i * 1.3)));
    std::vector<unsigned long long> counters(static_cast<std::size_t>(2 + ncols / slab_cols), 0);
    const typename F::args a{in.data(), scratch.data(), out.data(), ncols, istride, ostride, tw.data(), real(0.5),
                             inverse, slab_cols, counters.data()};
    std::set<std::tuple<bool, long long, int>> seen;
    for (long long i = 0; i < F::total_items(a); ++i) {
      const typename F::item it = F::decode(a, i);
      if (it.s < 0 || !seen.insert({it.b, it.col0, it.j}).second) return 1.0;  // undecodable, or twice
      if (it.b) {
        if (counters[1 + it.s] != static_cast<unsigned long long>(F::items(a, false, it.s))) return 1.0;  // too early
        const auto kb = F::b_args(a, it.j);
        run_block<typename F::KB>(kb, it.col0, [&](int t, C* v, const C* tile) {
          F::KB::pass(kb, F::KB::T, t, v, tile);
          F::b_last(a, it.col0, it.j, t, v);
        });
      } else {
        const auto ka = F::a_args(a, it.j);
        run_block<typename F::KA>(ka, it.col0, [&](int t, C* v, const C* tile) {
          F::KA::pass(ka, F::KA::T, t, v, tile);
          F::a_last(a, it.col0, it.j, t, v);
        });
        ++counters[1 + it.s];
      }
    }
    if (static_cast<long long>(seen.size()) != F::total_items(a)) return 1.0;
    double err = 0, mag = 0;
    for (long long c = 0; c < ncols; ++c)
      add_transform_error(N, inverse, [&](long long r) { return in[r * istride + c]; },
                          [&](long long k) { return out[k * ostride + c]; }, err, mag);
    for (long long k = 0; k < N; ++k)
      for (long long c = ncols; c < ostride; ++c)
        if (out[k * ostride + c].x != real(7)) return 1.0;  // wrote outside
    if (!(err == err)) return 1.0;
    worst = std::max(worst, err / mag);
  }
  return worst;
}

TEST(FftHost, AxisFourStepMatchesAnFft) {
  // 1024 = 32 x 32, 2048 = 32 x 64 (passes of different thread counts), 4096 = 64 x 64; several
  // slabs, the last partial, and a partial last group.
  EXPECT_LT((axis_four_step_error<float2, 32, 32, 16>(53, 32)), 1e-6);
  EXPECT_LT((axis_four_step_error<float2, 32, 64, 16>(40, 16)), 1e-6);
  EXPECT_LT((axis_four_step_error<float2, 64, 64, 16>(37, 32)), 1e-6);
  EXPECT_LT((axis_four_step_error<double2, 32, 64, 8>(21, 8)), 4e-15);
  EXPECT_LT((axis_four_step_error<double2, 64, 64, 8>(19, 16)), 4e-15);
}

TEST(FftHost, AxisFourStepSplitsAndSlabs) {
  using fft::detail::axis_four_step_split;
  using fft::detail::axis_slab_columns;
  auto s = axis_four_step_split(4096, 8);
  EXPECT_EQ(s.n1, 64);
  EXPECT_EQ(s.n2, 64);
  EXPECT_EQ(s.w1, 16);
  s = axis_four_step_split(2048, 16);
  EXPECT_EQ(s.n1, 32);
  EXPECT_EQ(s.n2, 64);
  EXPECT_EQ(s.w1, 8);
  EXPECT_EQ(axis_four_step_split(8192, 8).n1, 0);
  EXPECT_EQ(axis_four_step_split(512, 8).n1, 0);
  EXPECT_EQ(axis_four_step_split(3072, 8).n1, 0);
  EXPECT_EQ(axis_slab_columns(4096, 4096, 8, 8 << 20), 256);  // 8 MiB of scratch: 16 slabs
  EXPECT_EQ(axis_slab_columns(4096, 4096, 8, 1), 0);          // one item a slab: 256 slabs, too many
  EXPECT_EQ(axis_slab_columns(4096, 1024, 8, 1), 16);         // 64 slabs: still decodable
  EXPECT_EQ(axis_slab_columns(4096, 1025, 8, 1), 0);          // 65: too many
  EXPECT_EQ(axis_slab_columns(1024, 4096, 16, 8 << 20), 512);
}

TEST(FftHost, FourStepSplits) {
  using fft::detail::four_step_split;
  auto s = four_step_split(1 << 24, 8);
  EXPECT_EQ(s.n1, 4096);
  EXPECT_EQ(s.n2, 4096);
  EXPECT_EQ(s.w1, 4);
  EXPECT_EQ(s.w2, 4);  // 1024 threads, 136 KiB of tile
  s = four_step_split(1 << 23, 8);
  EXPECT_EQ(s.n1, 2048);
  EXPECT_EQ(s.n2, 4096);
  s = four_step_split(1 << 22, 8);
  EXPECT_EQ(s.n2, 2048);
  EXPECT_EQ(s.w2, 8);  // 64-byte segments
  s = four_step_split(1 << 24, 16);
  EXPECT_EQ(s.w1, 2);
  EXPECT_EQ(s.w2, 2);
  s = four_step_split(1 << 20, 8);
  EXPECT_EQ(s.n1, 1024);
  EXPECT_EQ(s.w1, 8);
  s = four_step_split(1024, 8);
  EXPECT_EQ(s.n1, 32);
  EXPECT_EQ(s.n2, 32);
  EXPECT_EQ(s.w2, 16);
  EXPECT_EQ(four_step_split(1 << 25, 8).n1, 0);
  EXPECT_EQ(four_step_split(512, 8).n1, 0);
  EXPECT_EQ(four_step_split(3 << 20, 8).n1, 0);
  for (int k = 10; k <= 24; ++k)
    for (std::int64_t item : {8, 16}) {
      const auto f = four_step_split(std::int64_t{1} << k, item);
      EXPECT_EQ(f.n1 * f.n2, std::int64_t{1} << k);
      EXPECT_LE(f.n2 / 16 * f.w2, 1024);
      EXPECT_LE(f.n1 / 16 * f.w1, 1024);
      EXPECT_GE(f.w2 * item, 32);
    }
}

// Which transforms scaled_key gives the four-step engine (5): contiguous complex rows of
// power-of-two n from long_kernel_min_n to 2^24 under long_kernel 1 (with a factor) or 2 (also
// without); never by default, under user callbacks, on strided or batched-with-gaps rows.
TEST(FftHost, LongRowsTakeTheFourStepWhereAsked) {
  using fft::detail::scaled_key;
  const int only[] = {0}, axis0[] = {0}, axis1[] = {1};
  test::fake_array one({1 << 24}, complex64), oneout({1 << 24}, complex64);
  fft::detail::engine_options opt{};
  EXPECT_EQ(opt.long_kernel, 0);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, one.a, oneout.a, only), 1.0 / 4096, opt, false).engine, 0);
  opt.long_kernel = 1;
  auto k = scaled_key(describe(transform_kind::c2c, -1, one.a, oneout.a, only), 1.0 / 4096, opt, false);
  EXPECT_EQ(k.engine, 5);
  EXPECT_EQ(k.width, 4);
  EXPECT_EQ(k.scale, 1.0 / 4096);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, one.a, oneout.a, only), 1.0, opt, false).engine, 0);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, one.a, oneout.a, only), 0.5, opt, true).engine, 0);
  opt.long_kernel = 2;
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, one.a, oneout.a, only), 1.0, opt, false).engine, 5);
  test::fake_array rows({4, 1 << 20}, complex128), rowsout({4, 1 << 20}, complex128);
  k = scaled_key(describe(transform_kind::c2c, 1, rows.a, rowsout.a, axis1), 1.0 / (1 << 20), opt, false);
  EXPECT_EQ(k.engine, 5);
  EXPECT_EQ(k.batch, 4);
  EXPECT_EQ(k.width, 4);  // column_width(1024, 16)
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, 1, rows.a, rowsout.a, axis0), 0.25, opt, false).engine, 0);
  const ndarray gaps = rows.a(slice(), slice(0, 1 << 19));  // rows 2^20 apart, 2^19 long
  test::fake_array gout({4, 1 << 19}, complex128);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, gaps, gout.a, axis1), 0.5, opt, false).engine, 0);
  test::fake_array small({1 << 19}, complex64), smallout({1 << 19}, complex64);  // under long_kernel_min_n
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, small.a, smallout.a, only), 0.5, opt, false).engine, 0);
  opt.long_kernel_min_n = 1024;
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, small.a, smallout.a, only), 0.5, opt, false).engine, 5);
  test::fake_array big({1 << 25}, complex64), bigout({1 << 25}, complex64);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, big.a, bigout.a, only), 0.5, opt, false).engine, 0);
  test::fake_array r({1 << 20}, float32), rout({(1 << 19) + 1}, complex64);  // r2c: not taken
  EXPECT_EQ(scaled_key(describe(transform_kind::r2c, -1, r.a, rout.a, only), 0.5, opt, false).engine, 0);
}

// Where execute() puts a norm factor (scaled_key): the row kernel on batched contiguous
// power-of-two rows, cuFFT's store callback on other batched rows, the column kernel's stores on
// axis 0, the pass (no scale in the key) on one long transform and under user callbacks.
TEST(FftHost, NormFactorsGoWhereTheyCostLeast) {
  using fft::detail::scaled_key;
  const fft::detail::engine_options opt{};
  const int axis0[] = {0}, axis1[] = {1};
  test::fake_array a({4096, 4096}, complex64), out({4096, 4096}, complex64);
  // Rows: cuFFT's literal store callback by default, the row kernel when it is on.
  auto k = scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis1), 1.0 / 64, opt, false);
  EXPECT_EQ(k.engine, 0);
  EXPECT_EQ(k.scale_form, 1);
  EXPECT_EQ(k.scale, 1.0 / 64);
  EXPECT_EQ(opt.norm_row_kernel, 0);
  fft::detail::engine_options rows = opt;
  rows.norm_row_kernel = 1;
  k = scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis1), 1.0 / 64, rows, false);
  EXPECT_EQ(k.engine, 2);
  EXPECT_EQ(k.width, 1);
  EXPECT_EQ(k.scale, 1.0 / 64);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis1), 1.0, rows, false).engine, 0);  // no factor
  fft::detail::engine_options pipelined = opt;
  pipelined.norm_row_kernel = 2;  // the pipelined row kernel (CUPP_FFT_ROW_KERNEL=2)
  k = scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis1), 1.0 / 64, pipelined, false);
  EXPECT_EQ(k.engine, 4);
  EXPECT_EQ(k.width, 1);
  EXPECT_EQ(k.scale, 1.0 / 64);
  fft::detail::engine_options forced = rows;
  forced.norm_callback = 1;  // the callback forced
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis1), 0.5, forced, false).engine, 0);
  // Axis 0: the column kernel with a factor; without one, complex64 stays with cuFFT unless
  // column_kernel is 2, complex128 takes it.
  k = scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis0), 1.0 / 64, opt, false);
  EXPECT_EQ(k.engine, 1);
  EXPECT_EQ(k.scale, 1.0 / 64);
  k = scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis0), 1.0, opt, false);
  EXPECT_EQ(k.engine, 0);
  EXPECT_EQ(k.width, 0);
  fft::detail::engine_options always = opt;
  always.column_kernel = 2;
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis0), 1.0, always, false).engine, 1);
  test::fake_array z({4096, 256}, complex128), zout({4096, 256}, complex128);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, z.a, zout.a, axis0), 1.0, opt, false).engine, 1);
  test::fake_array p({256, 4099}, complex64), pout({256, 4099}, complex64);  // no power of two
  k = scaled_key(describe(transform_kind::c2c, -1, p.a, pout.a, axis1), 0.5, opt, false);
  EXPECT_EQ(k.engine, 0);
  EXPECT_EQ(k.scale, 0.5);
  test::fake_array r({256, 4096}, float32), rout({256, 2049}, complex64);  // r2c: the callback
  EXPECT_EQ(scaled_key(describe(transform_kind::r2c, -1, r.a, rout.a, axis1), 0.5, opt, false).engine, 0);
  test::fake_array one({1 << 20}, complex64), oneout({1 << 20}, complex64);  // one long transform: the pass
  const int only[] = {0};
  k = scaled_key(describe(transform_kind::c2c, -1, one.a, oneout.a, only), 0.5, opt, false);
  EXPECT_EQ(k.engine, 0);
  EXPECT_EQ(k.scale, 1.0);
  test::fake_array small({64, 4096}, complex64), sout({64, 4096}, complex64);  // 2^18 points: the pass
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, small.a, sout.a, axis1), 0.5, opt, false).scale, 1.0);
  EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, a.a, out.a, axis1), 0.5, opt, true).scale, 1.0);  // user callbacks
  EXPECT_EQ(fft::detail::row_width(4096), 1);
  EXPECT_EQ(fft::detail::row_width(256), 16);
  EXPECT_EQ(fft::detail::row_width(128), 0);
  EXPECT_EQ(fft::detail::row_width(8192), 0);
}

TEST(FftHost, ColumnKernelWidths) {
  using fft::detail::column_width;
  EXPECT_EQ(column_width(4096, 8), 4);
  EXPECT_EQ(column_width(2048, 8), 4);
  EXPECT_EQ(column_width(1024, 8), 8);
  EXPECT_EQ(column_width(512, 8), 16);
  EXPECT_EQ(column_width(32, 8), 16);
  EXPECT_EQ(column_width(4096, 16), 2);
  EXPECT_EQ(column_width(2048, 16), 2);
  EXPECT_EQ(column_width(1024, 16), 4);
  EXPECT_EQ(column_width(512, 16), 8);
  EXPECT_EQ(column_width(4096, 8, 2), 2);   // forced
  EXPECT_EQ(column_width(4096, 8, 8), 4);   // 256 KiB: not taken
  EXPECT_EQ(column_width(4096, 8, 3), 4);   // no power of two
  EXPECT_EQ(column_width(8192, 8), 0);
  EXPECT_EQ(column_width(1000, 8), 0);
  EXPECT_EQ(column_width(16, 8), 0);
  using fft::detail::pair_width;
  EXPECT_EQ(pair_width(4096, 8), 8);
  EXPECT_EQ(pair_width(2048, 8), 16);
  EXPECT_EQ(pair_width(1024, 8), 16);
  EXPECT_EQ(pair_width(4096, 16), 4);
  EXPECT_EQ(pair_width(2048, 16), 8);
  EXPECT_EQ(pair_width(4096, 8, 4), 4);  // forced
  EXPECT_EQ(pair_width(32, 8), 0);
}

// Which transforms describe() plans for cupp's column kernel by default: complex, along a strided
// axis of adjacent columns, power-of-two n from 1024 to 4096, 128 blocks or more, no user
// callbacks, not tiled (scaled_key then leaves complex64 without a factor to cuFFT:
// NormFactorsGoWhereTheyCostLeast).
TEST(FftHost, AxisZeroTakesTheColumnKernel) {
  ASSERT_EQ(fft::detail::get_engine_options().column_kernel, 1);
  const int axis0[] = {0}, axis1[] = {1};
  test::fake_array a({4096, 4096}, complex64), out({4096, 4096}, complex64);
  auto e = describe(transform_kind::c2c, -1, a.a, out.a, axis0);
  EXPECT_EQ(e.key.engine, 1);
  EXPECT_EQ(e.key.width, 4);
  EXPECT_EQ(e.key.batch, 4096);
  EXPECT_EQ(e.key.istride, 4096);
  EXPECT_EQ(e.runs.size(), 1u);
  EXPECT_EQ(describe(transform_kind::c2c, -1, a.a, out.a, axis1).key.engine, 0);  // rows: cuFFT
  test::fake_array z({4096, 256}, complex128), zout({4096, 256}, complex128);  // 128 blocks of 2
  EXPECT_EQ(describe(transform_kind::c2c, 1, z.a, zout.a, axis0).key.width, 2);
  test::fake_array m({1024, 1024}, complex64), mout({1024, 1024}, complex64);
  e = describe(transform_kind::c2c, -1, m.a, mout.a, axis0);
  EXPECT_EQ(e.key.engine, 1);  // 1024 columns / 8 = 128 blocks
  EXPECT_EQ(e.key.width, 8);
  test::fake_array few({4096, 256}, complex64), fout({4096, 256}, complex64);
  EXPECT_EQ(describe(transform_kind::c2c, -1, few.a, fout.a, axis0).key.engine, 0);  // 64 blocks
  test::fake_array odd({1000, 1024}, complex64), oout({1000, 1024}, complex64);
  EXPECT_EQ(describe(transform_kind::c2c, -1, odd.a, oout.a, axis0).key.engine, 0);
  test::fake_array small({512, 2048}, complex64), sout({512, 2048}, complex64);
  EXPECT_EQ(describe(transform_kind::c2c, -1, small.a, sout.a, axis0).key.engine, 0);
  test::fake_array big({8192, 1024}, complex64), bout({8192, 1024}, complex64);
  EXPECT_EQ(describe(transform_kind::c2c, -1, big.a, bout.a, axis0).key.engine, 0);
  // A 3-d array: the outer axis loops over executions of the kernel.
  test::fake_array t3({2, 1024, 1024}, complex128), t3out({2, 1024, 1024}, complex128);
  e = describe(transform_kind::c2c, -1, t3.a, t3out.a, axis1);
  EXPECT_EQ(e.key.engine, 1);
  EXPECT_EQ(e.runs.size(), 2u);
  // Real transforms, columns with a step (idist 2) and user callbacks stay with cuFFT.
  test::fake_array x({4096, 1024}, float32), y({2049, 1024}, complex64);
  EXPECT_EQ(describe(transform_kind::r2c, -1, x.a, y.a, axis0).key.engine, 0);
  const ndarray stepped = a.a(slice(), slice(0, std::nullopt, 2));  // idist 2
  test::fake_array half({4096, 2048}, complex64);
  EXPECT_EQ(describe(transform_kind::c2c, -1, stepped, half.a, axis0).key.engine, 0);
  {
    fft::set_cufft_callbacks guard({.store = "__device__ void s(void* o, unsigned long long i, cufftComplex v, void*, void*) "
                                             "{ static_cast<cufftComplex*>(o)[i] = v; }",
                                    .store_name = "s"});
    EXPECT_EQ(describe(transform_kind::c2c, -1, a.a, out.a, axis0).key.engine, 0);
  }
  {
    engine_options_scope off({.column_kernel = 0});
    EXPECT_EQ(describe(transform_kind::c2c, -1, a.a, out.a, axis0).key.engine, 0);
  }
  {
    engine_options_scope tiles({.column_tile_bytes = 8 << 20});  // tiles, when set, come first
    e = describe(transform_kind::c2c, -1, a.a, out.a, axis0);
    EXPECT_EQ(e.key.engine, 0);
    EXPECT_EQ(e.key.batch, 256);
  }
  {
    engine_options_scope axis({.column_kernel = 4});  // the axis four-step transform, the factor in its stores
    e = describe(transform_kind::c2c, -1, a.a, out.a, axis0);
    EXPECT_EQ(e.key.engine, 6);
    EXPECT_EQ(e.key.width, 16);
    EXPECT_EQ(fft::detail::scaled_key(e, 1.0 / 64, fft::detail::get_engine_options(), false).scale, 1.0 / 64);
    EXPECT_EQ(describe(transform_kind::c2c, -1, few.a, fout.a, axis0).key.engine, 6);  // no block minimum
    EXPECT_EQ(describe(transform_kind::c2c, -1, big.a, bout.a, axis0).key.engine, 0);  // 8192 points
  }
  {
    engine_options_scope paired({.column_kernel = 3});  // the pair form: 8 columns a cluster of two blocks
    e = describe(transform_kind::c2c, -1, a.a, out.a, axis0);
    EXPECT_EQ(e.key.engine, 3);
    EXPECT_EQ(e.key.width, 8);
    EXPECT_EQ(fft::detail::scaled_key(e, 1.0, fft::detail::get_engine_options(), false).engine, 3);
  }
  {
    engine_options_scope wide({.column_kernel_min_n = 32, .column_kernel_min_blocks = 1, .column_kernel_width = 2});
    e = describe(transform_kind::c2c, -1, few.a, fout.a, axis0);
    EXPECT_EQ(e.key.engine, 1);
    EXPECT_EQ(e.key.width, 2);
    EXPECT_EQ(describe(transform_kind::c2c, -1, small.a, sout.a, axis0).key.engine, 1);
  }
}

// The problems of the GPU test FftNormGpu.OwnKernelsOnSmallProblems (each of cupp's own kernels
// once, small enough for compute-sanitizer's memcheck and racecheck in fft/bench/gpu-run.sh) take
// the engines and widths that test expects under its options.
TEST(FftHost, SanitizerProblemsTakeEachKernel) {
  using fft::detail::scaled_key;
  const int axis0[] = {0}, axis1[] = {1};
  test::fake_array c64({4096, 37}, complex64), c64out({4096, 37}, complex64);
  test::fake_array c128({1024, 37}, complex128), c128out({1024, 37}, complex128);
  {
    engine_options_scope kernel({.column_kernel = 2, .column_kernel_min_n = 32, .column_kernel_min_blocks = 1});
    auto k = scaled_key(describe(transform_kind::c2c, -1, c64.a, c64out.a, axis0), 1.0 / 64,
                        fft::detail::get_engine_options(), false);
    EXPECT_EQ(k.engine, 1);
    EXPECT_EQ(k.width, 4);  // 10 blocks, the last of one column
    EXPECT_EQ(k.scale, 1.0 / 64);
    k = scaled_key(describe(transform_kind::c2c, 1, c128.a, c128out.a, axis0), 1.0 / 1024,
                   fft::detail::get_engine_options(), false);
    EXPECT_EQ(k.engine, 1);
    EXPECT_EQ(k.width, 4);
  }
  {
    engine_options_scope paired({.column_kernel = 3, .column_kernel_min_n = 32, .column_kernel_min_blocks = 1});
    const auto k = scaled_key(describe(transform_kind::c2c, -1, c64.a, c64out.a, axis0), 1.0 / 64,
                              fft::detail::get_engine_options(), false);
    EXPECT_EQ(k.engine, 3);
    EXPECT_EQ(k.width, 8);  // 5 groups, the last of 5 columns
  }
  {
    engine_options_scope rows({.norm_callback = -1, .norm_callback_min_elements = 1, .norm_row_kernel = 1});
    test::fake_array r({3, 4096}, complex64), rout({3, 4096}, complex64);
    auto k = scaled_key(describe(transform_kind::c2c, -1, r.a, rout.a, axis1), 1.0 / 64, fft::detail::get_engine_options(),
                        false);
    EXPECT_EQ(k.engine, 2);
    EXPECT_EQ(k.width, 1);
    test::fake_array s({37, 256}, complex128), sout({37, 256}, complex128);
    k = scaled_key(describe(transform_kind::c2c, 1, s.a, sout.a, axis1), 1.0 / 256, fft::detail::get_engine_options(),
                   false);
    EXPECT_EQ(k.engine, 2);
    EXPECT_EQ(k.width, 16);  // 3 blocks, the last of 5 rows
  }
  {
    engine_options_scope rows({.norm_callback = -1, .norm_callback_min_elements = 1, .norm_row_kernel = 2});
    test::fake_array s({37, 256}, complex128), sout({37, 256}, complex128);
    const auto k = scaled_key(describe(transform_kind::c2c, 1, s.a, sout.a, axis1), 1.0 / 256,
                              fft::detail::get_engine_options(), false);
    EXPECT_EQ(k.engine, 4);  // the pipelined form
    EXPECT_EQ(k.width, 16);
  }
  {
    engine_options_scope axis({.column_kernel = 4, .column_kernel_min_n = 32, .column_kernel_min_blocks = 1});
    test::fake_array d2({2048, 37}, complex128), d2out({2048, 37}, complex128);
    EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, c64.a, c64out.a, axis0), 1.0 / 64,
                         fft::detail::get_engine_options(), false).engine, 6);
    EXPECT_EQ(scaled_key(describe(transform_kind::c2c, 1, d2.a, d2out.a, axis0), 1.0 / 2048,
                         fft::detail::get_engine_options(), false).engine, 6);
  }
  {
    engine_options_scope four_step({.long_kernel = 2, .long_kernel_min_n = 1024});
    test::fake_array r({3, 4096}, complex64), rout({3, 4096}, complex64);
    test::fake_array d({2, 2048}, complex128), dout({2, 2048}, complex128);
    EXPECT_EQ(scaled_key(describe(transform_kind::c2c, -1, r.a, rout.a, axis1), 1.0 / 64, fft::detail::get_engine_options(),
                         false).engine, 5);
    EXPECT_EQ(scaled_key(describe(transform_kind::c2c, 1, d.a, dout.a, axis1), 1.0 / 2048, fft::detail::get_engine_options(),
                         false).engine, 5);
  }
  {
    engine_options_scope callback({.norm_callback = 1, .norm_callback_form = 1});
    test::fake_array b({96, 160}, complex64), bout({96, 160}, complex64);
    auto k = scaled_key(describe(transform_kind::c2c, -1, b.a, bout.a, axis1), 1.0 / std::sqrt(160.0),
                        fft::detail::get_engine_options(), false);
    EXPECT_EQ(k.engine, 0);
    EXPECT_EQ(k.scale_form, 1);
    EXPECT_NE(k.scale, 1.0);
    test::fake_array h({96, 126}, complex64), x({96, 250}, float32);  // irfft(n = 250): c2r
    k = scaled_key(describe(transform_kind::c2r, 1, h.a, x.a, axis1), 1.0 / 250, fft::detail::get_engine_options(), false);
    EXPECT_EQ(k.engine, 0);
    EXPECT_EQ(k.scale_form, 1);
    EXPECT_EQ(k.scale, 1.0 / 250);
  }
}

// A program of the module compiles with NVRTC for sm_90 from the module's embedded headers.
void expect_compiles(const cupp::detail::routine_program& p) {
  const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
      {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
       .extra_headers = p.headers});
  EXPECT_EQ(out.lowered_names.size(), 1u);
  EXPECT_FALSE(out.binary.empty());
}

// The column kernel's programs compile with NVRTC from the module's embedded headers.
TEST(FftHost, ColumnKernelProgramsCompile) {
  for (auto [n, dbl, width, rows] : {std::tuple{4096, false, 4, false}, std::tuple{4096, true, 2, false},
                                     std::tuple{32, false, 16, false}, std::tuple{4096, false, 1, true},
                                     std::tuple{256, true, 16, true}}) {
    SCOPED_TRACE(std::to_string(n) + (dbl ? " double" : " single") + (rows ? " rows" : ""));
    expect_compiles(fft::detail::columns_program(n, dbl, width, rows));
  }
  for (auto [n, dbl, width] : {std::tuple{4096, false, 1}, std::tuple{256, false, 16}, std::tuple{4096, true, 1},
                               std::tuple{1024, true, 4}}) {  // the pipelined row kernel
    SCOPED_TRACE("pipelined " + std::to_string(n) + (dbl ? " double" : " single"));
    expect_compiles(fft::detail::pipelined_rows_program(n, dbl, width));
  }
  for (auto [n, dbl, width] : {std::tuple{4096, false, 8}, std::tuple{4096, true, 4}})  // the pair form
    expect_compiles(fft::detail::pair_program(n, dbl, width));
  for (auto [n, dbl] : {std::tuple{std::int64_t{4096}, false}, std::tuple{std::int64_t{2048}, true}}) {  // engine 6
    const auto sh = fft::detail::axis_four_step_split(n, dbl ? 16 : 8);
    expect_compiles(fft::detail::axis_four_step_program(sh.n1, sh.n2, dbl, sh.w1));
  }
  for (auto [n, dbl] : {std::tuple{std::int64_t{1} << 24, false}, std::tuple{std::int64_t{1} << 24, true},
                        std::tuple{std::int64_t{1} << 10, false}}) {  // the four-step passes, both kernels
    SCOPED_TRACE("four-step " + std::to_string(n) + (dbl ? " double" : " single"));
    const auto sh = fft::detail::four_step_split(n, dbl ? 16 : 8);
    const auto p = fft::detail::four_step_program(sh.n1, sh.n2, dbl, sh.w1, sh.w2);
    const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90, .extra_headers = p.headers});
    EXPECT_EQ(out.lowered_names.size(), 2u);
    EXPECT_FALSE(out.binary.empty());
  }
}

TEST(FftHost, MiddleAxisLoopsOverTheOuterAxis) {
  test::fake_array a({3, 8, 5}, complex64), out({3, 8, 5}, complex64);
  const int axis1[] = {1};
  const auto e = describe(transform_kind::c2c, -1, a.a, out.a, axis1);
  EXPECT_EQ(e.key.istride, 5);
  EXPECT_EQ(e.key.batch, 5);
  EXPECT_EQ(e.key.idist, 1);
  ASSERT_EQ(e.runs.size(), 3u);
  EXPECT_EQ(static_cast<char*>(e.runs[2].in) - static_cast<char*>(a.a.data()), 2 * 40 * 8);
}

TEST(FftHost, StridedViewsAndNestedAxesShareOnePlan) {
  test::fake_array a({64, 32}, complex64), out({32, 11}, complex64);
  const ndarray v = a.a(slice(0, std::nullopt, 2), slice(1, std::nullopt, 3));  // strides (64, 3) elements
  const int last[] = {1};
  const auto e = describe(transform_kind::c2c, -1, v, out.a, last);
  EXPECT_EQ(e.key.istride, 3);
  EXPECT_EQ(e.key.idist, 64);
  EXPECT_EQ(e.key.ostride, 1);
  EXPECT_EQ(e.key.odist, 11);
  EXPECT_EQ(e.key.batch, 32);
  // Axes 0 and 2 of a C array nest (stride 40 over 8): one rank-2 plan, axis 1 its batch.
  test::fake_array b({6, 5, 8}, complex128), bo({6, 5, 8}, complex128);
  const auto groups = fft::detail::plan_groups(b.a, bo.a, {2, 0}, true);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0], (std::vector<int>{0, 2}));
  const auto e2 = describe(transform_kind::c2c, 1, b.a, bo.a, groups[0]);
  EXPECT_EQ(e2.key.rank, 2);
  EXPECT_EQ(e2.key.inembed[1], 40);
  EXPECT_EQ(e2.key.batch, 5);
  EXPECT_EQ(e2.key.idist, 8);
  EXPECT_TRUE(e2.key.double_precision);
  // One axis per plan when n-D planning is off; a transposed input whose strides do not nest.
  EXPECT_EQ(fft::detail::plan_groups(b.a, bo.a, {0, 2}, false).size(), 2u);
  const ndarray t = b.a.transpose({2, 1, 0});  // strides (1, 8, 40): axis 0 inner in memory
  test::fake_array to({8, 5, 6}, complex128);
  EXPECT_EQ(fft::detail::plan_groups(t, to.a, {0, 2}, true).size(), 2u);
}

TEST(FftHost, RealRowsAtOddOffsetsAreNotAlignedForCufft) {
  // rfft along axis 1 of (3, 7, 5) float64: two batch dimensions with odd strides (35 and 1).
  test::fake_array x({3, 7, 5}, float64), y({3, 4, 5}, complex128);
  const int axis1[] = {1};
  EXPECT_FALSE(describe(transform_kind::r2c, -1, x.a, y.a, axis1).aligned);
  // (3, 7, 6): the odd stride (1) becomes the batch, the loop steps 42 elements: aligned.
  test::fake_array x6({3, 7, 6}, float64), y6({3, 4, 6}, complex128);
  const auto e = describe(transform_kind::r2c, -1, x6.a, y6.a, axis1);
  EXPECT_TRUE(e.aligned);
  EXPECT_EQ(e.key.idist, 1);
  EXPECT_EQ(e.key.n[0], 7);
  // The GPU run's CUFFT_INVALID_VALUE cases: rfft along axis 0 of transpose(a, (1, 0, 2)), a of
  // (9, 7, 4) float64 (strides (4, 28, 1) elements). The longest other axis (9, stride 28) used to
  // be the batch, so the loop stepped the real rows by 1 element (8 bytes); now the odd-stride
  // axis is the batch (cuFFT offsets batches itself) and the loop steps 28 elements.
  test::fake_array base({9, 7, 4}, float64), tout({4, 9, 4}, complex128);
  const int axis0[] = {0};
  const auto et = describe(transform_kind::r2c, -1, base.a.transpose({1, 0, 2}), tout.a, axis0);
  EXPECT_TRUE(et.aligned);
  EXPECT_EQ(et.key.idist, 1);
  EXPECT_EQ(et.key.batch, 4);
  ASSERT_EQ(et.runs.size(), 9u);
  EXPECT_EQ(static_cast<char*>(et.runs[1].in) - static_cast<char*>(base.a.data()), 28 * 8);
  // rfftn's: transpose(a, (2, 0, 1)) of (7, 6, 5) float32, rfft along axis 1: both other axes
  // have odd strides (1 and 5), so no batch choice helps and r2c takes the axis-last copy.
  test::fake_array b3({7, 6, 5}, float32), o3({5, 4, 6}, complex64);
  const int mid[] = {1};
  EXPECT_FALSE(describe(transform_kind::r2c, -1, b3.a.transpose({2, 0, 1}), o3.a, mid).aligned);
  // irfft writing (3, 7, 5) real rows: the same for the output side.
  test::fake_array c({3, 4, 5}, complex128), r({3, 7, 5}, float64);
  EXPECT_FALSE(describe(transform_kind::c2r, 1, c.a, r.a, axis1).aligned);
  EXPECT_EQ(describe(transform_kind::c2r, 1, c.a, r.a, axis1).key.n[0], 7);  // the real side's length
}

TEST(FftHost, CallbacksRefuseALoopOfExecutions) {
  test::fake_array a({3, 8, 5}, complex64), out({3, 8, 5}, complex64);
  const int axis1[] = {1};
  fft::set_cufft_callbacks guard({.load = "__device__ int unused;"});
  EXPECT_NE(describe(transform_kind::c2c, -1, a.a, out.a, axis1).key.callback, 0u);
  EXPECT_THROW(fft::detail::execute(transform_kind::c2c, -1, a.a, out.a, axis1), ValueError);
}

TEST(ModulesHost, CuppCarriesEveryModuleWithItsLibraryVersions) {
  std::set<std::string> names;
  for (const module_entry& m : modules()) {
    names.emplace(m.name);
    const auto rows = m.info();
    ASSERT_FALSE(rows.empty()) << m.name;
    for (const module_info_row& r : rows) {
      EXPECT_FALSE(r.key.empty()) << m.name;
      EXPECT_EQ(r.value.find("unknown"), std::string::npos) << m.name << ": " << r.key << " " << r.value;
    }
  }
  for (const char* name : {"fft", "linalg", "random", "sparse"}) EXPECT_EQ(names.count(name), 1u) << name;
}

// The module's device headers are embedded under their include names, with a digest, and its
// program compiles for sm_90 from them (cupp's own headers come along: launch.cuh).
TEST(FftHost, ModuleDeviceCodeIsEmbeddedAndCompiles) {
  bool found = false;
  for (const cupp::detail::embedded_header& h : fft::detail::embedded_headers())
    found |= h.name == "cupp/fft/frequencies.cuh" && h.contents.find("cupp_fft_frequencies") != std::string_view::npos;
  EXPECT_TRUE(found);
  EXPECT_EQ(fft::detail::embedded_headers_digest().size(), 64u);
  const cupp::detail::routine_program p = fft::detail::helpers_program();
  ASSERT_FALSE(p.headers.empty());
  const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
      {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
       .extra_headers = p.headers});
  EXPECT_EQ(out.lowered_names.size(), 1u);
  EXPECT_FALSE(out.binary.empty());
  // Without the module's headers the program cannot find its include.
  EXPECT_THROW(cupp::detail::nvrtc_compile({.program_name = p.name, .source = p.source,
                                            .name_expressions = p.kernels, .arch = 90}),
               std::exception);
}

}  // namespace
}  // namespace cupp
