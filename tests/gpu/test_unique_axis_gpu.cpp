// unique along an axis on the GPU (cupp/searching.hpp, unique_options::axis): every dtype against a
// host model of NumPy's algorithm (the sub-arrays flattened as rows, a stable lexicographic sort in
// NumPy's compare order: NaN last, -0.0 equal to 0.0, complex NaN classes; rows equal when every
// element is ==, so a NaN row equals nothing), several shapes and axes, strided and transposed
// inputs, many columns, a large input, signed zeros, the rebuild through take(values, inverse),
// and the errors. NumPy's own results for the same routine: SearchingGpu.MatchesNumPyReference
// (the uqa_* cases of tests/conformance/make_searching_ref.py).
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
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/searching.hpp"
#include "cupp/statistics.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using test::error_of;
using cd = std::complex<double>;
using cv = std::vector<cd>;
using iv = std::vector<std::int64_t>;

const double nan = std::numeric_limits<double>::quiet_NaN();

const dtype every_dtype[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                             uint64, float16, bfloat16, float32, float64, complex64, complex128};

// NumPy's compare of one element (CFLOAT_compare; real values have imag 0, which makes it the
// real NaN-last compare): -1, 0, 1.
int host_cmp(cd a, cd b) {
  auto n = [](double x) { return x != x; };
  const double ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (ar < br) return (!n(ai) || n(bi)) ? -1 : 1;
  if (br < ar) return (!n(bi) || n(ai)) ? 1 : -1;
  if (ar == br || (n(ar) && n(br))) {
    if (ai < bi) return -1;
    if (bi < ai) return 1;
    if (ai == bi || (n(ai) && n(bi))) return 0;
    return n(ai) ? 1 : -1;
  }
  return n(ar) ? 1 : -1;
}
// Bit-level sameness for the values returned (NaN equals NaN; the sign of zero counts).
bool same_bits(cd a, cd b) {
  auto eq = [](double x, double y) {
    if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && std::isnan(y);
    return x == y && std::signbit(x) == std::signbit(y);
  };
  return eq(a.real(), b.real()) && eq(a.imag(), b.imag());
}

struct host_unique {
  std::vector<cv> values;
  iv index, inverse, counts;
};

// NumPy's _unique1d on the rows (a stable sort, as NumPy's mergesort with return_index).
host_unique host_unique_rows(const std::vector<cv>& rows) {
  const std::size_t n = rows.size();
  iv perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = static_cast<std::int64_t>(i);
  std::stable_sort(perm.begin(), perm.end(), [&](std::int64_t x, std::int64_t y) {
    const cv &a = rows[static_cast<std::size_t>(x)], &b = rows[static_cast<std::size_t>(y)];
    for (std::size_t j = 0; j < a.size(); ++j)
      if (const int c = host_cmp(a[j], b[j]); c != 0) return c < 0;
    return false;
  });
  host_unique h;
  h.inverse.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const cv& row = rows[static_cast<std::size_t>(perm[i])];
    bool differs = i == 0;
    if (!differs) {
      const cv& prev = rows[static_cast<std::size_t>(perm[i - 1])];
      for (std::size_t j = 0; j < row.size(); ++j)
        if (!(row[j] == prev[j])) differs = true;  // NumPy's != (NaN differs from everything)
    }
    if (differs) {
      h.values.push_back(row);
      h.index.push_back(perm[i]);
      h.counts.push_back(0);
    }
    ++h.counts.back();
    h.inverse[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(h.values.size()) - 1;
  }
  return h;
}

// The sub-arrays along `axis` as rows (C order), read back as complex doubles.
std::vector<cv> rows_of(const ndarray& a, int axis) {
  const ndarray moved = ascontiguousarray(astype(a.moveaxis(axis, 0), complex128));
  const std::int64_t n = moved.shape(0);
  const cv flat = n > 0 ? test::complex_values(moved.get()) : cv{};
  const std::size_t m = n > 0 ? flat.size() / static_cast<std::size_t>(n) : 0;
  std::vector<cv> rows(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < rows.size(); ++i) rows[i].assign(flat.begin() + i * m, flat.begin() + (i + 1) * m);
  return rows;
}

// Small values that survive the cast to `t` (with repeats), NaN and -0.0 among inexact ones.
cv values_for(dtype t, std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> d(0, 2);
  std::uniform_int_distribution<int> rare(0, 19);
  cv v(n);
  for (auto& x : v) {
    double re = d(rng);
    if (t.kind() == 'i' || t.is_inexact()) re -= 1;
    if (t.is_bool()) re = re > 0 ? 1 : 0;
    double im = t.is_complex() ? d(rng) % 2 : 0.0;
    if (t.is_inexact()) {
      const int r = rare(rng);
      if (r == 0) re = nan;
      if (r == 1) re = -0.0;
      if (r == 2 && t.is_complex()) im = nan;
    }
    x = {re, im};
  }
  return v;
}

void expect_matches_host(const ndarray& a, int axis, const std::string& what) {
  SCOPED_TRACE(what + " " + a.dtype().name() + " axis " + std::to_string(axis));
  const int ax = axis < 0 ? axis + a.ndim() : axis;
  const std::vector<cv> rows = rows_of(a, ax);
  const host_unique h = host_unique_rows(rows);
  const unique_result r =
      unique(a, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = axis});
  ASSERT_EQ(r.values.dtype(), a.dtype());
  ASSERT_EQ(r.values.ndim(), a.ndim());
  for (int d = 0; d < a.ndim(); ++d)
    EXPECT_EQ(r.values.shape(d), d == ax ? static_cast<std::int64_t>(h.values.size()) : a.shape(d)) << "dim " << d;
  const std::vector<cv> got = rows_of(r.values, ax);
  ASSERT_EQ(got.size(), h.values.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    for (std::size_t j = 0; j < got[i].size(); ++j)
      ASSERT_TRUE(same_bits(got[i][j], h.values[i][j])) << "row " << i << " element " << j << ": " << got[i][j]
                                                        << " vs " << h.values[i][j];
  for (const ndarray* x : {&r.index, &r.inverse, &r.counts}) {
    EXPECT_EQ(x->dtype(), int64);
    EXPECT_EQ(x->ndim(), 1);
  }
  EXPECT_EQ(r.index.to_vector<std::int64_t>(), h.index);
  EXPECT_EQ(r.inverse.to_vector<std::int64_t>(), h.inverse);
  EXPECT_EQ(r.counts.to_vector<std::int64_t>(), h.counts);
  // Only the values: the same values (the sort and flags do not depend on the flags asked for).
  const ndarray v = unique(a, {.axis = axis}).values;
  const std::vector<cv> got_v = rows_of(v, ax);
  ASSERT_EQ(got_v.size(), h.values.size());
  for (std::size_t i = 0; i < got_v.size(); ++i)
    for (std::size_t j = 0; j < got_v[i].size(); ++j) ASSERT_TRUE(same_bits(got_v[i][j], h.values[i][j]));
}

TEST(UniqueAxisGpu, EveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  struct shape_case {
    std::vector<std::int64_t> shape;
    int axis;
  };
  const shape_case shapes[] = {{{40, 3}, 0}, {{3, 40}, 1}, {{4, 30, 2}, 1}, {{5, 2, 6}, -1}, {{25, 2, 2}, 0}, {{17}, 0}};
  std::uint32_t seed = 1;
  for (dtype t : every_dtype) {
    for (const shape_case& s : shapes) {
      std::int64_t n = 1;
      for (auto d : s.shape) n *= d;
      const ndarray a = astype(asarray(values_for(t, static_cast<std::size_t>(n), seed++)), t).reshape(s.shape);
      expect_matches_host(a, s.axis, "random");
    }
  }
}

TEST(UniqueAxisGpu, StridedTransposedAndManyColumns) {
  CUPP_REQUIRE_GPU();
  const ndarray base = astype(asarray(values_for(float32, 12 * 10, 99)), float32).reshape({12, 10});
  expect_matches_host(base(slice(std::nullopt, std::nullopt, -2), slice(1, std::nullopt, 3)), 0, "strided");
  expect_matches_host(base.T(), 1, "transposed");
  expect_matches_host(base.T(), 0, "transposed");
  // 300 columns (300 lexsort keys), few distinct rows: rows drawn from 4 patterns.
  const ndarray patterns = astype(asarray(values_for(int16, 4 * 300, 5)), int16).reshape({4, 300});
  std::vector<std::int64_t> pick(64);
  std::mt19937 rng(3);
  for (auto& p : pick) p = static_cast<std::int64_t>(rng() % 4);
  expect_matches_host(take(patterns, asarray(pick), {.axis = 0}), 0, "many columns");
  expect_matches_host(take(patterns, asarray(pick), {.axis = 0}).T(), 1, "many columns, axis 1");
}

TEST(UniqueAxisGpu, LargeInput) {
  CUPP_REQUIRE_GPU();
  // 2^18 rows of 4 elements in {0, 1, 2}: at most 81 distinct rows.
  const std::int64_t n = 1 << 18;
  std::vector<std::int64_t> v(static_cast<std::size_t>(n * 4));
  std::mt19937 rng(11);
  for (auto& x : v) x = static_cast<std::int64_t>(rng() % 3);
  const ndarray a = astype(asarray(v), int8).reshape({n, 4});
  const unique_result r = unique(a, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
  ASSERT_EQ(r.values.shape(0), 81);
  std::vector<cv> rows(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < rows.size(); ++i)
    for (std::size_t j = 0; j < 4; ++j) rows[i].push_back(cd(static_cast<double>(v[i * 4 + j]), 0));
  const host_unique h = host_unique_rows(rows);
  EXPECT_EQ(r.index.to_vector<std::int64_t>(), h.index);
  EXPECT_EQ(r.inverse.to_vector<std::int64_t>(), h.inverse);
  EXPECT_EQ(r.counts.to_vector<std::int64_t>(), h.counts);
  // The inverse rebuilds the input.
  const ndarray rebuilt = take(r.values, r.inverse, {.axis = 0});
  EXPECT_TRUE(array_equal(rebuilt, a).item<bool>());
}

TEST(UniqueAxisGpu, InverseRebuildsTheInputAlongEveryAxis) {
  CUPP_REQUIRE_GPU();
  const ndarray a = floor_divide(arange(4 * 5 * 6).reshape({4, 5, 6}) * 7 % 10, 5);
  for (int axis = -3; axis < 3; ++axis) {
    SCOPED_TRACE(axis);
    const unique_result r = unique(a, {.return_inverse = true, .axis = axis});
    EXPECT_TRUE(array_equal(take(r.values, r.inverse, {.axis = axis}), a).item<bool>());
  }
}

TEST(UniqueAxisGpu, SignedZerosKeepTheFirst) {
  CUPP_REQUIRE_GPU();
  // Rows equal under == ([0.0, 1] and [-0.0, 1]): one is kept, the first in the input, with or
  // without return_index (a stable sort).
  for (bool want_index : {false, true}) {
    const ndarray plus_first = asarray(std::vector<double>{0.0, 1, -0.0, 1}).reshape({2, 2});
    const ndarray minus_first = asarray(std::vector<double>{-0.0, 1, 0.0, 1}).reshape({2, 2});
    const auto a = unique(plus_first, {.return_index = want_index, .axis = 0}).values.to_vector<double>();
    const auto b = unique(minus_first, {.return_index = want_index, .axis = 0}).values.to_vector<double>();
    ASSERT_EQ(a.size(), 2u);
    ASSERT_EQ(b.size(), 2u);
    EXPECT_FALSE(std::signbit(a[0]));
    EXPECT_TRUE(std::signbit(b[0]));
  }
}

TEST(UniqueAxisGpu, NanRowsAreNeverEqual) {
  CUPP_REQUIRE_GPU();
  const ndarray a = asarray(std::vector<double>{nan, 1, nan, 1, 1, 2, 1, 2}).reshape({4, 2});
  for (bool equal_nan : {true, false}) {
    const unique_result r = unique(a, {.return_counts = true, .axis = 0, .equal_nan = equal_nan});
    EXPECT_EQ(r.values.shape(0), 3);
    EXPECT_EQ(r.counts.to_vector<std::int64_t>(), (iv{2, 1, 1}));
  }
  // The flattened form still collapses the NaNs (equal_nan=True).
  EXPECT_EQ(unique(a).size(), 3);
}

TEST(UniqueAxisGpu, EmptyAndZeroWidth) {
  CUPP_REQUIRE_GPU();
  const unique_result e =
      unique(zeros({0, 3}, float32), {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
  EXPECT_EQ(e.values.shape(0), 0);
  EXPECT_EQ(e.values.shape(1), 3);
  EXPECT_EQ(e.values.dtype(), float32);
  EXPECT_EQ(e.index.size(), 0);
  EXPECT_EQ(e.inverse.size(), 0);
  EXPECT_EQ(e.counts.size(), 0);
  const unique_result z =
      unique(zeros({3, 0}, int8), {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
  EXPECT_EQ(z.values.shape(0), 1);
  EXPECT_EQ(z.values.shape(1), 0);
  EXPECT_EQ(z.index.to_vector<std::int64_t>(), (iv{0}));
  EXPECT_EQ(z.inverse.to_vector<std::int64_t>(), (iv{0, 0, 0}));
  EXPECT_EQ(z.counts.to_vector<std::int64_t>(), (iv{3}));
  const ndarray w = unique(zeros({0, 2, 0}), {.axis = 1}).values;
  EXPECT_EQ(w.ndim(), 3);
  EXPECT_EQ(w.shape(0), 0);
  EXPECT_EQ(w.shape(1), 1);
  EXPECT_EQ(w.shape(2), 0);
}

TEST(UniqueAxisGpu, Errors) {
  CUPP_REQUIRE_GPU();
  EXPECT_EQ(error_of<AxisError>([] { unique(scalar(weak_scalar(5), int64), {.axis = 0}); }),
            "axis 0 is out of bounds for array of dimension 0");
  EXPECT_EQ(error_of<AxisError>([] { unique(zeros({2, 2}), {.return_inverse = true, .axis = 2}); }),
            "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<AxisError>([] { unique(zeros({2, 2}), {.axis = -3}); }),
            "axis -3 is out of bounds for array of dimension 2");
  // The device is still usable.
  EXPECT_EQ(unique(zeros({2, 2}), {.axis = 0}).values.shape(0), 1);
}

}  // namespace
}  // namespace cupp
