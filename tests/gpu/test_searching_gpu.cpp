// The searching, counting and set routines on the GPU (cupp/searching.hpp), what the NumPy reference
// cases of tests/conformance/make_searching_ref.py (run through cupp eval's engine by
// test_eval_ref_gpu.cpp) do not reach: the errors NumPy raises with their messages (the
// data-dependent ones through the device, and the state cleared after them), every dtype of
// searchsorted, unique, isin and in1d (bfloat16 too) against host computations with NaN first, in the
// middle and last, and large random inputs of every routine against the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "cupp/searching.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using test::error_of;
using iv = std::vector<std::int64_t>;
using dv = std::vector<double>;
using cd = std::complex<double>;
using cv = std::vector<cd>;

const double nan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

ndarray ar(std::initializer_list<std::int64_t> shape, dtype type = int64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return astype(arange(n).reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
// An array of the values in a dtype: I (integers), U (uint64), I0 (0-d int64), F (doubles), C (complex).
ndarray I(const iv& v, dtype type = int64) {
  const ndarray a = asarray(v);
  return type == int64 ? a : astype(a, type);
}
ndarray U(const std::vector<std::uint64_t>& v) { return asarray(v); }
ndarray I0(std::int64_t v) { return scalar(weak_scalar(v), int64); }
ndarray F(const dv& v, dtype type = float64) {
  const ndarray a = asarray(v);
  return type == float64 ? a : astype(a, type);
}
ndarray C(const cv& v, dtype type = complex128) {
  const ndarray a = asarray(v);
  return type == complex128 ? a : astype(a, type);
}

// ---------------------------------------------------------------------------------------------
// errors

TEST(SearchingGpu, Errors) {
  CUPP_REQUIRE_GPU();
  // A sorter index out of range is found by the kernel; the state is cleared for the next call.
  EXPECT_EQ(error_of<ValueError>([] { searchsorted(I({1, 2, 3}), I({2}), {.sorter = I({0, 5, 1})}); }),
            "Sorter index out of range.");
  EXPECT_THROW(searchsorted(I({1, 2, 3}), I({2}), {.sorter = I({0, -1, 1})}), ValueError);
  EXPECT_EQ(searchsorted(I({1, 2, 3}), I({2}), {.sorter = I({0, 1, 2})}).to_vector<std::int64_t>(), iv({1}));
  EXPECT_EQ(searchsorted(I({1, 2, 3}), I({2})).to_vector<std::int64_t>(), iv({1}));
  EXPECT_EQ(error_of<ValueError>([] { searchsorted(ar({2, 2}), I({1})); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([] { searchsorted(I0(1), I({1})); }), "object of too small depth for desired array");
  // digitize
  EXPECT_EQ(error_of<ValueError>([] { digitize(F({1, 2}), F({1, 3, 2})); }),
            "bins must be monotonically increasing or decreasing");
  EXPECT_EQ(error_of<TypeError>([] { digitize(C({{1, 0}}), F({1, 2})); }), "x may not be complex");
  // bincount
  EXPECT_EQ(error_of<ValueError>([] { bincount(I({1, -2, 3})); }), "'list' argument must have no negative elements");
  EXPECT_EQ(error_of<ValueError>([] { bincount(I({-1}, int8)); }), "'list' argument must have no negative elements");
  EXPECT_EQ(error_of<TypeError>([] { bincount(F({1.0})); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  EXPECT_EQ(bincount(U({1})).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1}));  // NumPy 2: same_kind
  // histogram
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, nan})); }), "autodetected range of [nan, nan] is not finite");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, inf})); }), "autodetected range of [1.0, inf] is not finite");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), F({0, 2, 1})); }),
            "`bins` must increase monotonically, when an array");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), 0); }), "`bins` must be positive, when an integer");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), 3, {.range = std::pair{1.0, 0.0}}); }),
            "max must be larger than min in range parameter.");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), 3, {.weights = F({1})}); }),
            "weights should have the same shape as a.");
  EXPECT_EQ(error_of<ValueError>([] { parse_search_side("up"); }), "search side must be 'left' or 'right' (got 'up')");
}

// ---------------------------------------------------------------------------------------------
// every dtype against the host

const dtype every_dtype[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                             uint64, float16, bfloat16, float32, float64, complex64, complex128};

// NumPy's sort order on complex doubles (real values have imag 0: NaN last).
bool host_lt(cd a, cd b) {
  auto n = [](double x) { return x != x; };
  if (a.real() < b.real()) return !n(a.imag()) || n(b.imag());
  if (a.real() > b.real()) return n(b.imag()) && !n(a.imag());
  if (a.real() == b.real() || (n(a.real()) && n(b.real()))) return a.imag() < b.imag() || (n(b.imag()) && !n(a.imag()));
  return n(b.real());
}
bool host_nan(cd a) { return std::isnan(a.real()) || std::isnan(a.imag()); }
// got == want element for element with NaN equal to NaN, part by part: a complex NaN must sit in
// the same part as the host's (cupp::testing, as NumPy, counts nan+0j and 0+nanj both as NaN).
void expect_same(const cv& got, const cv& want, const std::string& what) {
  auto part = [](const cv& v, bool imag) {
    std::vector<double> p;
    for (cd x : v) p.push_back(imag ? x.imag() : x.real());
    return p;
  };
  CUPP_EXPECT_ARRAY_EQUAL(part(got, false), part(want, false), {.err_msg = what + " (real parts)"});
  CUPP_EXPECT_ARRAY_EQUAL(part(got, true), part(want, true), {.err_msg = what + " (imaginary parts)"});
}

// Values that survive the cast to `t` exactly: small integers (0/1 for bool, non-negative for
// unsigned), NaN placed first, in the middle and last for inexact dtypes (complex: NaN in either
// part).
cv values_for(dtype t, std::size_t n, std::uint32_t seed, bool with_nan) {
  std::mt19937 rng(seed);
  const bool uns = t.kind() == 'u' || t.is_bool();
  std::uniform_int_distribution<int> d(uns ? 0 : -20, 20);
  cv v(n);
  for (auto& x : v) {
    double re = t.is_bool() ? d(rng) % 2 : d(rng);
    double im = t.is_complex() ? d(rng) % 3 : 0.0;
    x = {re, im};
  }
  if (with_nan && t.is_inexact() && n >= 3) {
    v.front() = {nan, 0};
    v[n / 2] = t.is_complex() ? cd(1, nan) : cd(nan, 0);
    v.back() = t.is_complex() ? cd(nan, 2) : cd(nan, 0);
  }
  return v;
}
ndarray device_of(const cv& v, dtype t) { return astype(asarray(v), t); }
std::vector<cd> host_of(const ndarray& a) { return test::complex_values(a.get()); }

TEST(SearchingGpu, SearchsortedEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    SCOPED_TRACE(t.name());
    cv a = values_for(t, 301, 7, true);
    std::stable_sort(a.begin(), a.end(), host_lt);
    const cv keys = values_for(t, 257, 11, true);
    const ndarray da = device_of(a, t), dk = device_of(keys, t);
    for (search_side side : {search_side::left, search_side::right}) {
      const auto got = searchsorted(da, dk, {.side = side}).to_vector<std::int64_t>();
      ASSERT_EQ(got.size(), keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::int64_t want =
            side == search_side::left
                ? std::lower_bound(a.begin(), a.end(), keys[i], host_lt) - a.begin()
                : std::upper_bound(a.begin(), a.end(), keys[i], host_lt) - a.begin();
        ASSERT_EQ(got[i], want) << "key " << keys[i] << (side == search_side::left ? " left" : " right");
      }
    }
    // With a sorter: the unsorted values and their stable order.
    const cv raw = values_for(t, 101, 5, true);
    std::vector<std::int64_t> order(raw.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return host_lt(raw[x], raw[y]); });
    cv sorted_raw;
    for (auto k : order) sorted_raw.push_back(raw[k]);
    iv want;
    for (cd k : keys) want.push_back(std::lower_bound(sorted_raw.begin(), sorted_raw.end(), k, host_lt) - sorted_raw.begin());
    CUPP_ASSERT_ARRAY_EQUAL(searchsorted(device_of(raw, t), dk, {.sorter = asarray(order)}), want, {.strict = true});
  }
}

struct host_unique {
  cv values;
  iv index, inverse, counts;
};
host_unique unique_on_host(const cv& x, bool equal_nan) {
  std::vector<std::int64_t> perm(x.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
  std::stable_sort(perm.begin(), perm.end(), [&](auto a, auto b) { return host_lt(x[a], x[b]); });
  host_unique r;
  r.inverse.resize(x.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    const cd v = x[perm[i]];
    bool fresh = i == 0;
    if (i > 0) {
      const cd p = x[perm[i - 1]];
      fresh = equal_nan && host_nan(v) ? !host_nan(p) : !(v == p);
    }
    if (fresh) {
      r.values.push_back(v);
      r.index.push_back(perm[i]);
      r.counts.push_back(0);
    }
    ++r.counts.back();
    r.inverse[perm[i]] = static_cast<std::int64_t>(r.values.size()) - 1;
  }
  return r;
}

TEST(SearchingGpu, UniqueEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    for (bool equal_nan : {true, false}) {
      SCOPED_TRACE(t.name() + (equal_nan ? " equal_nan" : " nan distinct"));
      const cv x = values_for(t, 513, 3, true);
      const host_unique want = unique_on_host(x, equal_nan);
      const unique_result got = unique(device_of(x, t), {.return_index = true,
                                                         .return_inverse = true,
                                                         .return_counts = true,
                                                         .equal_nan = equal_nan});
      ASSERT_EQ(got.values.dtype(), t);
      const cv v = host_of(got.values);
      expect_same(v, want.values, "unique values");
      EXPECT_EQ(got.index.to_vector<std::int64_t>(), want.index);
      EXPECT_EQ(got.inverse.to_vector<std::int64_t>(), want.inverse);
      EXPECT_EQ(got.counts.to_vector<std::int64_t>(), want.counts);
      // The plain form agrees with the values.
      expect_same(host_of(unique(device_of(x, t), {.equal_nan = equal_nan}).values), v, "plain unique");
    }
  }
}

TEST(SearchingGpu, IsinAndSetsEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    SCOPED_TRACE(t.name());
    const cv x = values_for(t, 200, 21, true), y = values_for(t, 37, 22, true);
    const ndarray dx = device_of(x, t), dy = device_of(y, t);
    for (bool invert : {false, true}) {
      std::vector<bool> want;
      for (cd xi : x) want.push_back(std::any_of(y.begin(), y.end(), [&](cd v) { return v == xi; }) != invert);
      CUPP_EXPECT_ARRAY_EQUAL(isin(dx, dy, {.invert = invert}), want, {.strict = true});
    }
    // intersect1d / setdiff1d / union1d / setxor1d against the host's sorted unique sets.
    const host_unique ux = unique_on_host(x, true), uy = unique_on_host(y, true);
    auto in = [](const cv& s, cd v) { return std::any_of(s.begin(), s.end(), [&](cd w) { return w == v; }); };
    cv inter, diff, xo;
    for (cd v : ux.values) {
      if (in(uy.values, v)) inter.push_back(v);
      else diff.push_back(v);
      if (!in(uy.values, v)) xo.push_back(v);
    }
    for (cd v : uy.values)
      if (!in(ux.values, v)) xo.push_back(v);
    std::stable_sort(xo.begin(), xo.end(), host_lt);
    auto check = [](const ndarray& got, const cv& want, const char* what) { expect_same(host_of(got), want, what); };
    check(intersect1d(dx, dy), inter, "intersect1d");
    check(setdiff1d(dx, dy), diff, "setdiff1d");
    check(setxor1d(dx, dy), xo, "setxor1d");
    cv both = x;
    both.insert(both.end(), y.begin(), y.end());
    check(union1d(dx, dy), unique_on_host(both, true).values, "union1d");
    // intersect1d's indices: first occurrences.
    const auto r = intersect1d_with_indices(dx, dy);
    const auto i1 = r.indices1.to_vector<std::int64_t>(), i2 = r.indices2.to_vector<std::int64_t>();
    ASSERT_EQ(i1.size(), inter.size());
    for (std::size_t k = 0; k < inter.size(); ++k) {
      EXPECT_EQ(i1[k], std::find(x.begin(), x.end(), inter[k]) - x.begin());
      EXPECT_EQ(i2[k], std::find(y.begin(), y.end(), inter[k]) - y.begin());
    }
  }
}

// in1d: the reference cases in1d_* exist only where NumPy still has in1d (NumPy 2.5 has not), so here
// too: isin of the flattened array, every dtype, against the host.
TEST(SearchingGpu, In1dEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    SCOPED_TRACE(t.name());
    const cv x = values_for(t, 24, 23, true), y = values_for(t, 7, 24, true);
    const ndarray dx = device_of(x, t).reshape({2, 3, 4}), dy = device_of(y, t);
    for (bool invert : {false, true}) {
      const ndarray got = in1d(dx, dy, {.invert = invert});
      ASSERT_EQ(got.ndim(), 1);
      const auto g = got.to_vector<bool>();
      ASSERT_EQ(g.size(), x.size());
      for (std::size_t i = 0; i < x.size(); ++i) {
        const bool found = std::any_of(y.begin(), y.end(), [&](cd v) { return v == x[i]; });
        ASSERT_EQ(g[i], found != invert) << x[i];
      }
    }
  }
}

TEST(SearchingGpu, DigitizeAndHistogramEveryRealDtype) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    if (t.is_complex()) continue;
    SCOPED_TRACE(t.name());
    const cv x = values_for(t, 300, 31, false);
    const ndarray dx = device_of(x, t);
    // digitize with increasing and decreasing int bins.
    const dv inc = {0, 2, 5, 9}, dec = {9, 5, 2, 0};
    for (bool right : {false, true}) {
      const auto gi = digitize(dx, F(inc), right).to_vector<std::int64_t>();
      const auto gd = digitize(dx, F(dec), right).to_vector<std::int64_t>();
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x[i].real();
        std::int64_t wi = 0, wd = 0;
        for (double b : inc) wi += right ? (b < v) : (b <= v);
        for (double b : dec) wd += right ? (b >= v) : (b > v);
        ASSERT_EQ(gi[i], wi) << v;
        ASSERT_EQ(gd[i], wd) << v;
      }
    }
    // histogram with integer edges: exact counts.
    const auto h = histogram(dx, F({-20, -5, 0, 0.5, 7, 20}));
    const auto counts = h.hist.to_vector<std::int64_t>();
    const dv e = {-20, -5, 0, 0.5, 7, 20};
    for (std::size_t b = 0; b + 1 < e.size(); ++b) {
      std::int64_t want = 0;
      for (cd v : x) want += v.real() >= e[b] && (v.real() < e[b + 1] || (b + 2 == e.size() && v.real() == e[b + 1]));
      EXPECT_EQ(counts[b], want) << "bin " << b;
    }
    // histogram with equal bins: the counts sum to the size (no NaN here), edges of NumPy's dtype.
    const auto hu = histogram(dx, 7);
    EXPECT_EQ(hu.bin_edges.dtype(), detail::histogram_bin_dtype(t.is_bool() ? dtype(uint8) : t));
    EXPECT_EQ(sum(hu.hist).item<std::int64_t>(), static_cast<std::int64_t>(x.size()));
  }
}

// ---------------------------------------------------------------------------------------------
// large random inputs against the host

TEST(SearchingGpu, LargeRandomAgainstHost) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(42);
  // searchsorted: 2^20 float64 queries into 100003 sorted values.
  {
    std::uniform_real_distribution<double> u(-1000, 1000);
    dv a(100003), v(1 << 20);
    for (auto& x : a) x = std::round(u(rng) * 4) / 4;
    for (auto& x : v) x = std::round(u(rng) * 8) / 8;
    std::sort(a.begin(), a.end());
    iv want;
    for (double x : v) want.push_back(std::upper_bound(a.begin(), a.end(), x) - a.begin());
    CUPP_ASSERT_ARRAY_EQUAL(searchsorted(F(a), F(v), {.side = search_side::right}), want, {.strict = true});
  }
  // bincount: 2^22 int32 values in [0, 4099), with and without weights.
  {
    std::uniform_int_distribution<std::int64_t> u(0, 4098);
    iv x(1 << 22);
    for (auto& k : x) k = u(rng);
    iv want(4099, 0);
    for (auto k : x) ++want[k];
    const ndarray dx = I(x, int32);
    EXPECT_EQ(bincount(dx).to_vector<std::int64_t>(), want);
    const ndarray ws = bincount(dx, {.weights = ones({static_cast<std::int64_t>(x.size())}, float32)});
    CUPP_EXPECT_ARRAY_EQUAL(ws, std::vector<double>(want.begin(), want.end()), {.strict = true});  // exact: integers
  }
  // histogram: 2^20 float32 normals into 64 bins; the host bins them by the returned edges.
  {
    std::normal_distribution<float> g(0, 1);
    std::vector<float> a(1 << 20);
    for (auto& x : a) x = g(rng);
    const auto h = histogram(asarray(a), 64);
    const auto edges = h.bin_edges.to_vector<float>();
    ASSERT_EQ(h.bin_edges.dtype(), float32);
    iv want(64, 0);
    for (float x : a) {
      std::int64_t j = std::upper_bound(edges.begin(), edges.end(), x) - edges.begin() - 1;
      if (j == 64 && x == edges.back()) j = 63;
      if (j >= 0 && j < 64) ++want[j];
    }
    EXPECT_EQ(h.hist.to_vector<std::int64_t>(), want);
    EXPECT_FLOAT_EQ(edges.front(), *std::min_element(a.begin(), a.end()));
    EXPECT_FLOAT_EQ(edges.back(), *std::max_element(a.begin(), a.end()));
  }
  // unique with every output: 2^20 int64 values in [0, 50000).
  {
    std::uniform_int_distribution<std::int64_t> u(0, 49999);
    cv x(1 << 20);
    for (auto& k : x) k = cd(static_cast<double>(u(rng)), 0);
    const host_unique want = unique_on_host(x, true);
    iv xi;
    for (cd v : x) xi.push_back(static_cast<std::int64_t>(v.real()));
    const unique_result got = unique(I(xi), {.return_index = true, .return_inverse = true, .return_counts = true});
    iv want_values;
    for (cd v : want.values) want_values.push_back(static_cast<std::int64_t>(v.real()));
    CUPP_EXPECT_ARRAY_EQUAL(got.values, want_values, {.strict = true});
    EXPECT_EQ(got.index.to_vector<std::int64_t>(), want.index);
    EXPECT_EQ(got.inverse.to_vector<std::int64_t>(), want.inverse);
    EXPECT_EQ(got.counts.to_vector<std::int64_t>(), want.counts);
  }
  // isin: 2^20 values against 1000 test values.
  {
    std::uniform_int_distribution<std::int64_t> u(0, 99999);
    iv x(1 << 20), t(1000);
    for (auto& k : x) k = u(rng);
    for (auto& k : t) k = u(rng);
    std::vector<std::int64_t> ts = t;
    std::sort(ts.begin(), ts.end());
    std::vector<bool> want;
    for (auto k : x) want.push_back(std::binary_search(ts.begin(), ts.end(), k));
    CUPP_EXPECT_ARRAY_EQUAL(isin(I(x), I(t)), want, {.strict = true});
  }
}

}  // namespace
}  // namespace cupp
