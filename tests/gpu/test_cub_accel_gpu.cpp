// The ahead-of-time CUB accelerators (CUPP_ACCELERATORS=cub) against cupp's own kernels: every
// dtype through sum, prod, max, min, argmax, argmin, the integer scans and stream compaction
// (flatnonzero, nonzero / argwhere of 1-d masks, a[mask]) with CUB forced on and off
// (detail::set_cub_accelerators). Results agree (integers and bools bit for bit, floats within
// tolerance, NaN where the other has NaN, argmax's first occurrence on ties and first NaN), the
// launch counter moves only when CUB is on and the case is one CUB takes, and two runs of a float
// sum give the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "accel/cub_dispatch.hpp"
#include "cupp/accelerators.hpp"
#include "cupp/config.hpp"
#include "cupp/creation.hpp"
#include "cupp/indexing.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/sorting.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

const double nan_v = std::numeric_limits<double>::quiet_NaN();

// Forces CUB on or off for a scope; the environment decides again afterwards.
struct cub_scope {
  explicit cub_scope(std::optional<bool> on) { detail::set_cub_accelerators(on); }
  ~cub_scope() { detail::set_cub_accelerators(std::nullopt); }
  cub_scope(const cub_scope&) = delete;
  cub_scope& operator=(const cub_scope&) = delete;
};

// Whether this build has the nvcc-compiled accelerators (forcing them on turns them on).
bool cub_built() {
  cub_scope on(true);
  return detail::cub_accelerators_enabled();
}

const std::vector<dtype> every_dtype = {bool_,   int8,     int16,   int32,   int64,   uint8,     uint16,    uint32,
                                        uint64,  float16,  bfloat16, float32, float64, complex64, complex128};

bool is_float(const dtype& t) { return t.kind() == 'f' || t.kind() == 'c'; }
bool is_unsigned(const dtype& t) { return t.kind() == 'u' || t.is_bool(); }

// n values of dtype t: ((i * 7919) % 97) - 48 (0..96 for unsigned and bool: every third true).
ndarray values(const dtype& t, std::int64_t n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const double x = static_cast<double>((i * 7919) % 97);
    v[static_cast<std::size_t>(i)] = t.is_bool() ? double((i * 7919) % 3 == 0) : is_unsigned(t) ? x : x - 48;
  }
  return astype(asarray(v), t);
}

// Factors whose product stays exact and bounded: each period of six holds 1, -1, 2, 0.5, 1, 1
// (unsigned: 1, 3, 2, 1, 1, 5; integers: 1, -1, 2, 1, 1, 3, wrapping as NumPy's products do).
ndarray factors(const dtype& t, std::int64_t n) {
  static const double f_float[6] = {1, -1, 2, 0.5, 1, 1}, f_int[6] = {1, -1, 2, 1, 1, 3}, f_uns[6] = {1, 3, 2, 1, 1, 5};
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>((i * 7919) % 6);
    v[static_cast<std::size_t>(i)] = t.is_bool() ? double(k != 3) : is_float(t) ? f_float[k] : is_unsigned(t) ? f_uns[k] : f_int[k];
  }
  return astype(asarray(v), t);
}

// x and y agree: same dtype and shape; integers and bools bit for bit; floats within rtol (and
// 1e-6 absolute), NaN (either part, for complex) exactly where the other has NaN.
void expect_agree(const ndarray& x, const ndarray& y, double rtol, const std::string& what) {
  ASSERT_EQ(x.dtype(), y.dtype()) << what;
  ASSERT_EQ(std::vector<std::int64_t>(x.shape().begin(), x.shape().end()),
            std::vector<std::int64_t>(y.shape().begin(), y.shape().end()))
      << what;
  if (!is_float(x.dtype())) {
    const host_array hx = x.get(), hy = y.get();
    ASSERT_EQ(hx.nbytes(), hy.nbytes()) << what;
    EXPECT_EQ(std::memcmp(hx.bytes().data(), hy.bytes().data(), hx.nbytes()), 0) << what;
    return;
  }
  const auto vx = astype(x, complex128).to_vector<std::complex<double>>();
  const auto vy = astype(y, complex128).to_vector<std::complex<double>>();
  ASSERT_EQ(vx.size(), vy.size()) << what;
  for (std::size_t i = 0; i < vx.size(); ++i) {
    const bool nx = std::isnan(vx[i].real()) || std::isnan(vx[i].imag());
    const bool ny = std::isnan(vy[i].real()) || std::isnan(vy[i].imag());
    ASSERT_EQ(nx, ny) << what << " at " << i;
    if (nx) continue;
    if (vx[i] == vy[i]) continue;  // infinities too
    EXPECT_LE(std::abs(vx[i] - vy[i]), 1e-6 + rtol * std::abs(vy[i])) << what << " at " << i << ": " << vx[i]
                                                                        << " vs " << vy[i];
  }
}

double tolerance(const dtype& t) {
  if (t == float16 || t == bfloat16) return 1e-2;
  if (t == float32 || t == complex64) return 1e-5;
  return 1e-12;
}

// Runs f with CUB off, then on; checks that they agree, that CUB ran nothing when off, and that
// it ran (when built) exactly when `taken`.
void compare_paths(const std::function<ndarray()>& f, bool taken, const std::string& what,
                   std::optional<double> rtol = std::nullopt) {
  ndarray off, on;
  {
    cub_scope scope(false);
    const auto before = detail::accelerator_launches();
    off = f();
    EXPECT_EQ(detail::accelerator_launches(), before) << what << ": CUB ran while off";
  }
  {
    cub_scope scope(true);
    const auto before = detail::accelerator_launches();
    on = f();
    const bool ran = detail::accelerator_launches() != before;
    EXPECT_EQ(ran, taken && cub_built()) << what << ": CUB " << (ran ? "ran" : "did not run");
  }
  expect_agree(on, off, rtol ? *rtol : tolerance(on.dtype()), what);
}

type_id acc_of(const dtype& result) {
  return result == float16 || result == bfloat16 ? type_id::float32 : result.id();
}

TEST(CubAccelGpu, ReductionsOfEveryDtypeAgree) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : every_dtype) {
    for (std::int64_t n : {1, 7, 100003}) {
      const ndarray a = values(t, n), p = factors(t, n);
      const std::string at = t.name() + " n=" + std::to_string(n);
      const dtype sum_type = sum(a).dtype(), prod_type = prod(p).dtype();
      using detail::accel::plan_reduce;
      using detail::accel::reduce_path;
      compare_paths([&] { return sum(a); },
                    plan_reduce("add", t.id(), acc_of(sum_type), sum_type.id()) != reduce_path::none, "sum " + at);
      compare_paths([&] { return prod(p); },
                    plan_reduce("multiply", t.id(), acc_of(prod_type), prod_type.id()) != reduce_path::none,
                    "prod " + at);
      const bool extremum = plan_reduce("maximum", t.id(), t.id(), t.id()) != reduce_path::none;
      compare_paths([&] { return max(a); }, extremum, "max " + at);
      compare_paths([&] { return min(a); }, extremum, "min " + at);
      const bool arg = detail::accel::plan_arg_reduce(t.id());
      compare_paths([&] { return argmax(a); }, arg, "argmax " + at);
      compare_paths([&] { return argmin(a); }, arg, "argmin " + at);
    }
  }
}

TEST(CubAccelGpu, ArgmaxTakesTheFirstOccurrence) {
  CUPP_REQUIRE_GPU();
  if (!cub_built()) GTEST_SKIP() << "built without the CUB accelerators";
  cub_scope on(true);
  for (const dtype& t : every_dtype) {
    if (t.is_bool()) continue;
    const ndarray a = values(t, 100003);  // the largest and smallest values repeat every 97
    const std::int64_t first_max = argmax(a).item<std::int64_t>(), first_min = argmin(a).item<std::int64_t>();
    // (i * 7919) % 97 is 96 first at the i with i * 7919 = 96 (mod 97), and 0 at i = 0.
    std::int64_t i96 = 0;
    while ((i96 * 7919) % 97 != 96) ++i96;
    EXPECT_EQ(first_max, i96) << t.name();
    EXPECT_EQ(first_min, 0) << t.name();
  }
  // All equal: position 0; bool: the first true.
  EXPECT_EQ(argmax(zeros({5000}, float32)).item<std::int64_t>(), 0);
  EXPECT_EQ(argmin(ones({5000}, int8)).item<std::int64_t>(), 0);
  EXPECT_EQ(argmax(values(bool_, 5000)).item<std::int64_t>(), 0);
  EXPECT_EQ(argmin(values(bool_, 5000)).item<std::int64_t>(), 1);
}

TEST(CubAccelGpu, NanPropagatesAndTheFirstNanWins) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : {float16, bfloat16, float32, float64, complex64, complex128}) {
    std::vector<double> v(100003);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7919) % 97) - 48;
    v[700] = nan_v;
    v[90000] = nan_v;
    const ndarray a = astype(asarray(v), t);
    const bool extremum =
        detail::accel::plan_reduce("maximum", t.id(), t.id(), t.id()) != detail::accel::reduce_path::none;
    const bool arg = detail::accel::plan_arg_reduce(t.id());
    compare_paths([&] { return max(a); }, extremum, "max with NaN " + t.name());
    compare_paths([&] { return min(a); }, extremum, "min with NaN " + t.name());
    compare_paths([&] { return argmax(a); }, arg, "argmax with NaN " + t.name());
    compare_paths([&] { return argmin(a); }, arg, "argmin with NaN " + t.name());
    cub_scope on(true);
    EXPECT_TRUE(std::isnan(astype(max(a), complex128).item<std::complex<double>>().real())) << t.name();
    EXPECT_TRUE(std::isnan(astype(min(a), complex128).item<std::complex<double>>().real())) << t.name();
    EXPECT_EQ(argmax(a).item<std::int64_t>(), 700) << t.name();
    EXPECT_EQ(argmin(a).item<std::int64_t>(), 700) << t.name();
    compare_paths([&] { return sum(a); }, t == float32 || t == float64 || t == float16 || t == bfloat16,
                  "sum with NaN " + t.name());
  }
  // Infinities and signed zeros.
  const ndarray b = asarray(std::vector<double>{0.0, -0.0, -INFINITY, 3.0, INFINITY, INFINITY, -INFINITY});
  compare_paths([&] { return argmax(b); }, true, "argmax inf");
  compare_paths([&] { return argmin(b); }, true, "argmin inf");
  compare_paths([&] { return max(b); }, true, "max inf");
  cub_scope on(true);
  EXPECT_EQ(argmax(b).item<std::int64_t>(), 4);
  EXPECT_EQ(argmin(b).item<std::int64_t>(), 2);
}

TEST(CubAccelGpu, OnlyOneContiguousRunGoesToCub) {
  CUPP_REQUIRE_GPU();
  const ndarray flat = values(float64, 600 * 500), c = flat.reshape({600, 500});
  compare_paths([&] { return sum(c); }, true, "2-d C order, axis=None");
  compare_paths([&] { return sum(c.T()); }, true, "2-d Fortran order, axis=None");
  compare_paths([&] { return max(c.T()); }, true, "max, Fortran order");
  compare_paths([&] { return argmax(c.T()); }, false, "argmax, Fortran order (C positions)");
  compare_paths([&] { return argmax(c); }, true, "argmax, C order");
  compare_paths([&] { return sum(c, {.axis = 0}); }, false, "axis=0: 500 results");
  compare_paths([&] { return sum(c, {.axis = 1}); }, false, "axis=1: 600 results");
  compare_paths([&] { return sum(flat.reshape({1, 300000}), {.axis = 1}); }, true, "(1, n) over axis 1");
  compare_paths([&] { return sum(c, {.keepdims = true}); }, true, "keepdims");
  compare_paths([&] { return argmax(c, {.axis = 1}); }, false, "argmax axis=1");
  compare_paths([&] { return sum(flat(slice(0, std::nullopt, 2))); }, false, "strided view");
  compare_paths([&] { return sum(c, {.where = c > 0.0}); }, false, "where=");
  compare_paths([&] { return sum(c, {.initial = 1.0}); }, false, "initial=");
  compare_paths([&] { return nansum(c); }, false, "nansum (mapped elements)");
  compare_paths([&] { return mean(c); }, true, "mean (its float64 sum)");
  compare_paths([&] { return sum(values(int32, 100003), {.dtype = int8}); }, true, "int32 summed as int8 (wraps)");
  compare_paths([&] { return sum(values(int8, 100003), {.dtype = float64}); }, false, "int8 summed as float64");
  compare_paths([&] { return sum(values(float16, 100003), {.dtype = float32}); }, true, "float16 summed as float32");
  // out= and a 0-d input.
  compare_paths([&] { return sum(scalar(weak_scalar(2.5), float32)); }, true, "0-d");
  compare_paths(
      [&] {
        const ndarray out = empty({}, float64);
        sum(c, {.out = out});
        return out;
      },
      true, "out=");
}

TEST(CubAccelGpu, EmptyVariableMeansNoCubKernel) {
  CUPP_REQUIRE_GPU();
  // Under CUPP_ACCELERATORS= (empty) the environment alone must keep CUB off; the lead runs this
  // binary that way too. With `cub` listed, something must have run.
  const auto before = detail::accelerator_launches();
  const ndarray a = values(int32, 100003);
  (void)sum(a).get();
  (void)argmax(astype(a, float32)).get();
  (void)cumsum(a).get();
  (void)flatnonzero(a).get();
  (void)sort(a).get();
  const bool listed = config::get().accelerator_enabled("cub");
  EXPECT_EQ(detail::accelerator_launches() != before, listed && cub_built());
}

TEST(CubAccelGpu, FloatSumsAreIdenticalRunToRun) {
  CUPP_REQUIRE_GPU();
  std::vector<double> v(1 << 22);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = std::sin(0.001 * static_cast<double>(i)) * 1e3 + 1e-3 * static_cast<double>(i % 13);
  for (const dtype& t : {float32, float64, float16, bfloat16}) {
    const ndarray a = astype(asarray(v), t);
    cub_scope on(true);
    const host_array first = sum(a).get(), second = sum(a).get(), third = sum(a).get();
    EXPECT_EQ(std::memcmp(first.bytes().data(), second.bytes().data(), first.nbytes()), 0) << t.name();
    EXPECT_EQ(std::memcmp(first.bytes().data(), third.bytes().data(), first.nbytes()), 0) << t.name();
    // 2^22 terms summed in different trees: within a few eps of the sum of |x| (~2.6e9 against a
    // sum of ~1e6).
    const double rtol = t == float32 ? 2e-3 : t == float64 ? 1e-9 : 2e-2;
    compare_paths([&] { return sum(a); }, true, "long float sum " + t.name(), rtol);
  }
}

TEST(CubAccelGpu, IntegerScansAgree) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : every_dtype) {
    for (std::int64_t n : {65, 100003}) {
      const ndarray a = values(t, n), p = factors(t, n);
      const std::string at = t.name() + " n=" + std::to_string(n);
      const dtype rs = cumsum(a).dtype(), rp = cumprod(p).dtype();
      compare_paths([&] { return cumsum(a); }, detail::accel::plan_scan("add", t.id(), rs.id()), "cumsum " + at);
      compare_paths([&] { return cumprod(p); }, detail::accel::plan_scan("multiply", t.id(), rp.id()), "cumprod " + at);
    }
  }
  const ndarray a = values(int64, 100003);
  compare_paths([&] { return accumulate(maximum, a); }, true, "maximum.accumulate int64");
  compare_paths([&] { return accumulate(minimum, a); }, true, "minimum.accumulate int64");
  compare_paths([&] { return accumulate(bitwise_xor, a); }, true, "bitwise_xor.accumulate int64");
  compare_paths([&] { return cumsum(values(int8, 100003), {.dtype = uint64}); }, true, "cumsum int8 as uint64");
  compare_paths([&] { return cumsum(values(bool_, 100003), {.dtype = int64}); }, true, "cumsum bool as int64");
  compare_paths([&] { return accumulate(maximum, values(uint32, 100003), {.dtype = int64}); }, true,
                "maximum.accumulate uint32 as int64");
  // Not taken: floats (run-to-run bits), 2-d lines, short lines.
  compare_paths([&] { return cumsum(values(float32, 100003)); }, false, "cumsum float32");
  compare_paths([&] { return cumsum(a.reshape({1, 100003}), {.axis = 1}); }, true, "cumsum of a (1, n) line");
  compare_paths([&] { return cumsum(values(int64, 1000 * 100).reshape({1000, 100}), {.axis = 1}); }, false,
                "cumsum of 1000 lines");
  compare_paths([&] { return cumsum(values(int64, 64)); }, false, "cumsum of 64 elements");
}

TEST(CubAccelGpu, StreamCompactionAgrees) {
  CUPP_REQUIRE_GPU();
  for (std::int64_t n : {0, 1, 1000, 100003}) {
    const ndarray m = values(bool_, n);
    const std::string at = " n=" + std::to_string(n);
    const bool some = n > 0;  // an empty mask needs no CUB launch
    compare_paths([&] { return flatnonzero(m); }, some, "flatnonzero" + at);
    compare_paths([&] { return flatnonzero(values(int32, n)); }, some, "flatnonzero of int32" + at);
    compare_paths([&] { return nonzero(m).at(0); }, some, "nonzero 1-d" + at);
    compare_paths([&] { return argwhere(m); }, some, "argwhere 1-d" + at);
    for (const dtype& t : every_dtype) {
      const ndarray a = values(t, n);
      const auto w = a.itemsize();
      compare_paths([&] { return ndarray(a(m)); }, some && (w == 1 || w == 4 || w == 8), "a[mask] " + t.name() + at);
    }
  }
  compare_paths([&] { return flatnonzero(zeros({100003}, bool_)); }, true, "no true element");
  compare_paths([&] { return flatnonzero(ones({100003}, bool_)); }, true, "every element true");
  const ndarray m2 = values(bool_, 300 * 400).reshape({300, 400});
  compare_paths([&] { return argwhere(m2); }, false, "argwhere 2-d (coordinates: cupp's own)");
  compare_paths([&] { return flatnonzero(m2); }, true, "flatnonzero 2-d");
  compare_paths([&] { return ndarray(values(float64, 300 * 400).reshape({300, 400})(m2)); }, true, "2-d a[mask]");
}

TEST(CubAccelGpu, SortingFollowsTheGeneralSwitch) {
  CUPP_REQUIRE_GPU();
  const ndarray a = values(int32, 100003);
  {
    cub_scope off(false);
    const auto before = detail::cub_sort_launches();
    (void)sort(a).get();
    EXPECT_EQ(detail::cub_sort_launches(), before);
  }
  cub_scope on(true);
  const auto before = detail::cub_sort_launches();
  (void)sort(a).get();
  EXPECT_EQ(detail::cub_sort_launches() != before, cub_built());
}

}  // namespace
}  // namespace cupp
