// Scans on the GPU: the cumsum and cumprod cases of NumPy's reference set (a 3x4x5 array of every
// dtype; axis None, 0, 1, 2) with NumPy's result dtypes, shapes and values (integers and bools
// exactly; floats within the regrouping bound), then what the set lacks: long rows (2^20 + odd
// sizes across tile boundaries) with exact integer results, a float32 cumsum that is exact, a
// strided axis, run-to-run identity, out=, empty arrays, cumulative_sum's include_initial,
// accumulate of a non-associative op, diff/ediff1d, and the errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/scans.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

namespace fs = std::filesystem;

double epsilon_of(const dtype& t) {
  switch (t.id()) {
    case type_id::float16: return std::ldexp(1.0, -10);
    case type_id::bfloat16: return std::ldexp(1.0, -7);
    case type_id::float32:
    case type_id::complex64: return std::ldexp(1.0, -23);
    default: return std::ldexp(1.0, -52);
  }
}

bool close_part(double got, double want, double bound) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want)) return got == want;
  return std::fabs(got - want) <= bound;
}

TEST(ScansGpu, EveryReferenceCaseAgreesWithNumPy) {
  CUPP_REQUIRE_GPU();
  const YAML::Node cases = test::load_yaml(test::conformance_path("numpy-ref/reductions.yaml"));
  const fs::path root = test::conformance_path("numpy-ref/reductions");
  int checked = 0, failed = 0;
  for (const YAML::Node& c : cases) {
    const std::string fn = c["fn"].as<std::string>(), name = c["case"].as<std::string>();
    if (fn != "cumsum" && fn != "cumprod") continue;
    ++checked;
    const ndarray a = load(root / name / "in0.npy");
    scan_options o;
    if (c["axis"].IsScalar()) o.axis = c["axis"].as<std::int64_t>();
    ndarray got;
    try {
      got = fn == "cumsum" ? cumsum(a, o) : cumprod(a, o);
    } catch (const Error& e) {
      ADD_FAILURE() << name << ": " << e.class_name() << ": " << e.what();
      ++failed;
      continue;
    }
    const ndarray want = load(root / name / "out0.npy");
    ASSERT_EQ(got.dtype(), want.dtype()) << name;
    ASSERT_EQ(std::vector<std::int64_t>(got.shape().begin(), got.shape().end()),
              std::vector<std::int64_t>(want.shape().begin(), want.shape().end())) << name;
    const char kind = want.dtype().kind();
    if (kind != 'f' && kind != 'c') {
      const auto g = astype(got, int64).to_vector<std::int64_t>(), w = astype(want, int64).to_vector<std::int64_t>();
      if (g != w) { ADD_FAILURE() << name << ": integer values differ"; ++failed; }
      continue;
    }
    // Bound: the scan regrouped (rows class) or NumPy's own order (lines class, exact): within
    // 2 * n * eps * (running sum of |x|) for cumsum, (2n + 1) * eps * |w| for cumprod, per part.
    const auto g = astype(got, complex128).to_vector<std::complex<double>>();
    const auto w = astype(want, complex128).to_vector<std::complex<double>>();
    const double eps = epsilon_of(want.dtype()), n = static_cast<double>(a.shape().empty() ? 1 : a.size());
    const auto mag = astype(cumsum(absolute(astype(a, complex128)), o), float64).to_vector<double>();
    for (std::size_t i = 0; i < g.size(); ++i) {
      const double base = fn == "cumsum" ? mag[i] : std::abs(w[i]);
      const double bound = (2 * n + 1) * eps * (std::isfinite(base) ? base : 0.0);
      if (!close_part(g[i].real(), w[i].real(), bound) || !close_part(g[i].imag(), w[i].imag(), bound)) {
        ADD_FAILURE() << name << " element " << i << ": " << g[i] << " vs NumPy " << w[i];
        ++failed;
        break;
      }
    }
  }
  EXPECT_GT(checked, 0);
  EXPECT_EQ(failed, 0);
}

// Long rows with exact integer results: sizes around the tile boundaries and 2^20 + odd.
TEST(ScansGpu, LongRowsAreExact) {
  CUPP_REQUIRE_GPU();
  for (std::int64_t n : {65, 2047, 2048, 2049, 4097, 1 << 20, (1 << 20) + 12345, 3 * (1 << 20) + 7}) {
    std::vector<std::int32_t> host(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) host[static_cast<std::size_t>(i)] = static_cast<std::int32_t>((i * 7919) % 201) - 100;
    const ndarray a = asarray(std::span<const std::int32_t>(host));
    const ndarray s = cumsum(a);
    ASSERT_EQ(s.dtype(), int64);
    const auto got = s.to_vector<std::int64_t>();
    std::int64_t run = 0;
    for (std::int64_t i = 0; i < n; ++i) {
      run += host[static_cast<std::size_t>(i)];
      if (got[static_cast<std::size_t>(i)] != run) {
        ADD_FAILURE() << "n " << n << " element " << i << ": " << got[static_cast<std::size_t>(i)] << " vs " << run;
        break;
      }
    }
  }
}

TEST(ScansGpu, Float32OnesAreExactAndDeterministic) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = (1 << 22) + 3;
  const ndarray a = ones({n}, float32);
  const ndarray s = cumsum(a);
  ASSERT_EQ(s.dtype(), float32);
  // Every partial sum is an integer below 2^24: exact in float32.
  CUPP_ASSERT_ARRAY_EQUAL(s, test::tabulate(n, [](std::int64_t i) { return static_cast<float>(i + 1); }), {.strict = true});
  // Random values: the same bits every run.
  const ndarray r = astype(subtract(remainder(multiply(arange(n), 7919), 1000), 500), float32);
  const auto first = cumsum(r).to_vector<float>(), second = cumsum(r).to_vector<float>();
  EXPECT_EQ(first, second);
}

TEST(ScansGpu, AxesRowsColumnsAndStrided) {
  CUPP_REQUIRE_GPU();
  const ndarray a = remainder(arange(std::int64_t(3 * 5000)), 7).reshape({3, 5000});
  const auto h = a.to_vector<std::int64_t>();
  for (std::int64_t axis : {0, 1, -1}) {
    const auto got = cumsum(a, {.axis = axis}).to_vector<std::int64_t>();
    const auto t = cumsum(a.transpose(), {.axis = axis == 0 ? 1 : 0}).transpose().to_vector<std::int64_t>();
    std::vector<std::int64_t> want(h.size());
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t j = 0; j < 5000; ++j) {
        const std::size_t k = static_cast<std::size_t>(i * 5000 + j);
        const bool along_rows = axis != 0;
        const std::int64_t prev = along_rows ? (j > 0 ? want[k - 1] : 0) : (i > 0 ? want[k - 5000] : 0);
        want[k] = prev + h[k];
      }
    EXPECT_EQ(got, want) << "axis " << axis;
    EXPECT_EQ(t, want) << "transposed, axis " << axis;
  }
}

TEST(ScansGpu, DtypesOutAndEmpty) {
  CUPP_REQUIRE_GPU();
  const ndarray b = greater(remainder(arange(std::int64_t(10)), 3), 0);
  EXPECT_EQ(cumsum(b).dtype(), int64);
  EXPECT_EQ(cumsum(astype(b, uint8)).dtype(), uint64);
  EXPECT_EQ(cumprod(astype(b, float16)).dtype(), float16);
  EXPECT_EQ(cumsum(b, {.dtype = float32}).dtype(), float32);
  const ndarray out = zeros({10}, float64);
  cumsum(b, {.out = out});
  EXPECT_EQ(out.to_vector<double>().back(), 6.0);
  EXPECT_THROW(cumsum(b, {.out = zeros({9}, float64)}), ValueError);
  const ndarray e = zeros({3, 0}, float32);
  EXPECT_EQ(cumsum(e, {.axis = 0}).size(), 0);
  EXPECT_EQ(cumsum(e).shape()[0], 0);
  EXPECT_THROW(cumsum(e, {.axis = 2}), AxisError);
}

TEST(ScansGpu, CumulativeAccumulateNanDiffEdiff) {
  CUPP_REQUIRE_GPU();
  const ndarray x = arange(std::int64_t(1), std::int64_t(5));  // 1 2 3 4
  EXPECT_EQ(cumulative_sum(x, {.include_initial = true}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 3, 6, 10}));
  EXPECT_EQ(cumulative_prod(x).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 6, 24}));
  EXPECT_THROW(cumulative_sum(x.reshape({2, 2})), ValueError);
  const auto sub = accumulate(subtract, astype(arange(std::int64_t(1), std::int64_t(200)), float64)).to_vector<double>();
  double run = 1;
  for (std::size_t i = 1; i < sub.size(); ++i) run -= static_cast<double>(i + 1);
  EXPECT_EQ(sub.back(), run);
  const ndarray with_nan = astype(x, float64);
  copyto(with_nan, std::nan(""), casting::same_kind, equal(x, 2));
  EXPECT_EQ(nancumsum(with_nan).to_vector<double>(), (std::vector<double>{1, 1, 4, 8}));
  EXPECT_EQ(nancumprod(with_nan).to_vector<double>(), (std::vector<double>{1, 1, 3, 12}));
  EXPECT_EQ(diff(x).to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 1, 1}));
  EXPECT_EQ(diff(x, {.n = 2}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0}));
  EXPECT_EQ(diff(x, {.n = 5}).size(), 0);
  EXPECT_THROW(diff(x, {.n = -1}), ValueError);
  EXPECT_THROW(diff(full(std::vector<std::int64_t>{}, 1.0)), ValueError);
  EXPECT_EQ(ediff1d(x, {.to_end = full(std::vector<std::int64_t>{}, weak_scalar(std::int64_t(9)))}).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 1, 1, 9}));
  EXPECT_THROW(ediff1d(x, {.to_begin = astype(x, float64)}), TypeError);
}

// The chunked rows class: several long lines (one chunk per line and many), views starting off a
// 16-byte boundary, narrow inputs accumulating in int64, float64, complex64, and the other
// associative ops (maximum, logical_or), all against the host.
TEST(ScansGpu, ChunkedRowsMatchTheHostInEveryDtype) {
  CUPP_REQUIRE_GPU();
  for (std::int64_t lines : {1, 3, 2000}) {
    const std::int64_t len = lines == 2000 ? 3001 : 1000003;
    std::vector<std::int64_t> h(static_cast<std::size_t>(lines * len));
    for (std::size_t k = 0; k < h.size(); ++k) h[k] = static_cast<std::int64_t>((k * 7919) % 255) - 127;
    const ndarray whole = asarray(h).reshape({lines, len});
    for (std::int64_t offset : {0, 1}) {
      const ndarray a8 = astype(whole, int8)(slice(), slice(offset, std::nullopt));
      const auto got = cumsum(a8, {.axis = 1}).to_vector<std::int64_t>();
      const auto mx = accumulate(maximum, astype(a8, float64), {.axis = 1}).to_vector<double>();
      const std::int64_t w = len - offset;
      for (std::int64_t r = 0; r < lines; r += (lines > 3 ? 97 : 1)) {
        std::int64_t run = 0;
        double best = -1e300;
        for (std::int64_t i = 0; i < w; ++i) {
          const std::int64_t x = h[static_cast<std::size_t>(r * len + i + offset)];
          run += x;
          best = std::max(best, static_cast<double>(x));
          const std::size_t at = static_cast<std::size_t>(r * w + i);
          if (got[at] != run || mx[at] != best) {
            ADD_FAILURE() << lines << " lines, offset " << offset << ", line " << r << " element " << i << ": "
                          << got[at] << " vs " << run << ", max " << mx[at] << " vs " << best;
            break;
          }
        }
      }
    }
  }
  // complex64 and float64 sums of small integers are exact; logical_or.accumulate of a sparse mask.
  const std::int64_t n = (1 << 21) + 5;
  std::vector<std::complex<float>> z(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) z[static_cast<std::size_t>(i)] = {static_cast<float>(i % 3), -static_cast<float>(i % 2)};
  const auto zs = cumsum(asarray(z)).to_vector<std::complex<float>>();
  std::complex<double> zrun = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    zrun += std::complex<double>(z[static_cast<std::size_t>(i)]);
    if (zs[static_cast<std::size_t>(i)] != std::complex<float>(zrun)) {
      ADD_FAILURE() << "complex64 element " << i;
      break;
    }
  }
  std::vector<bool> mask(static_cast<std::size_t>(n), false);
  mask[1234567] = true;
  const auto any_so_far = astype(accumulate(logical_or, asarray(mask)), int8).to_vector<std::int8_t>();
  EXPECT_FALSE(any_so_far[1234566]);
  EXPECT_TRUE(any_so_far[1234567]);
  EXPECT_TRUE(any_so_far.back());
}

// Few long lines (the chunked path) with accumulators of 1, 2 and 16 bytes, three lines so that
// the integer and bool scans do not go to CUB: bool logical_or, float16 maximum (exact),
// complex128 sums of small integers (exact); and float32 sums of 2^24 + 7 values, near the host's
// double sums and with the same bits in ten runs.
TEST(ScansGpu, FewLongLinesAreExactInEveryWidthAndDeterministic) {
  CUPP_REQUIRE_GPU();
  const std::int64_t lines = 3, len = (1 << 20) + 77;
  std::vector<bool> mask(static_cast<std::size_t>(lines * len), false);
  const std::int64_t first_true[] = {0, 500000, len - 1};
  for (std::int64_t r = 0; r < lines; ++r) mask[static_cast<std::size_t>(r * len + first_true[r])] = true;
  const auto any = astype(accumulate(logical_or, asarray(mask).reshape({lines, len}), {.axis = 1}), int8).to_vector<std::int8_t>();
  for (std::int64_t r = 0; r < lines; ++r) {
    const std::size_t at = static_cast<std::size_t>(r * len + first_true[r]);
    EXPECT_EQ(any[at], 1) << "line " << r;
    if (first_true[r] > 0) EXPECT_EQ(any[at - 1], 0) << "line " << r;
    EXPECT_EQ(any[static_cast<std::size_t>(r * len + len - 1)], 1) << "line " << r;
  }
  std::vector<std::int64_t> h(static_cast<std::size_t>(lines * len));
  for (std::size_t k = 0; k < h.size(); ++k) h[k] = static_cast<std::int64_t>((k * 7919) % 2001) - 1000;
  const ndarray whole = asarray(h).reshape({lines, len});
  const auto peak = astype(accumulate(maximum, astype(whole, float16), {.axis = 1}), float64).to_vector<double>();
  const auto zsum = cumsum(astype(whole, complex128), {.axis = 1}).to_vector<std::complex<double>>();
  for (std::int64_t r = 0; r < lines; ++r) {
    double best = -1e300, run = 0;
    for (std::int64_t i = 0; i < len; ++i) {
      const double x = static_cast<double>(h[static_cast<std::size_t>(r * len + i)]);
      best = std::max(best, x);
      run += x;
      const std::size_t at = static_cast<std::size_t>(r * len + i);
      if (peak[at] != best || zsum[at] != std::complex<double>(run, 0)) {
        ADD_FAILURE() << "line " << r << " element " << i << ": max " << peak[at] << " vs " << best << ", sum "
                      << zsum[at].real() << " vs " << run;
        break;
      }
    }
  }
  const std::int64_t n = (1 << 24) + 7;
  const ndarray x = astype(divide(subtract(remainder(multiply(arange(n), 7919), 100003), 50001), 977.0), float32);
  const auto reference = cumsum(x).to_vector<float>();
  const auto xs = x.to_vector<float>();
  double exact = 0, magnitude = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    exact += xs[i];
    magnitude += std::abs(xs[i]);
    if (i % 4093 == 0 || i + 1 == xs.size())
      ASSERT_NEAR(reference[i], exact, 1e-6 * magnitude + 1e-3) << "element " << i;
  }
  for (int run = 0; run < 10; ++run) {
    const auto again = cumsum(x).to_vector<float>();
    ASSERT_TRUE(again == reference) << "run " << run << " differs";
  }
}

}  // namespace
}  // namespace cupp
