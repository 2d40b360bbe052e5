// cupp::sparse's issue-28 items that need no SciPy data, against host loops: random/random_array
// (count, distinct positions, ranges, kinds, seeds), SpGEMM's memory-bounded ALG3 path (the
// fallback of DEFAULT) against DEFAULT, matmul's dense @ sparse against a host product, and the
// errors SciPy raises for selection, setdiag, comparisons and reductions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "products_internal.hpp"

namespace cupp {
namespace {

using test::error_of;

TEST(SparseMoreGpu, RandomHasDistinctPositionsAndSciPysCount) {
  CUPP_REQUIRE_GPU();
  struct shape_case {
    std::int64_t m, n;
    double density;
  };
  // a small population (the generator's choice) and a large one (draw, unique, subset)
  for (const shape_case sc : {shape_case{30, 40, 0.25}, shape_case{200000, 300000, 1e-6}, shape_case{5, 7, 1.0}}) {
    SCOPED_TRACE(std::to_string(sc.m) + "x" + std::to_string(sc.n));
    const sparse::coo r = sparse::random(sc.m, sc.n, {.density = sc.density, .dtype = float32, .seed = 7});
    const auto want = static_cast<std::int64_t>(std::nearbyint(sc.density * double(sc.m) * double(sc.n)));
    EXPECT_EQ(r.nnz(), want);
    EXPECT_EQ(r.kind(), sparse::kind::matrix);
    EXPECT_EQ(r.dtype(), float32);
    const auto rows = astype(r.row(), int64).to_vector<std::int64_t>();
    const auto cols = astype(r.col(), int64).to_vector<std::int64_t>();
    std::set<std::pair<std::int64_t, std::int64_t>> seen;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ASSERT_GE(rows[i], 0);
      ASSERT_LT(rows[i], sc.m);
      ASSERT_GE(cols[i], 0);
      ASSERT_LT(cols[i], sc.n);
      seen.insert({rows[i], cols[i]});
    }
    EXPECT_EQ(static_cast<std::int64_t>(seen.size()), want) << "positions repeat";
    const auto v = r.data().to_vector<float>();
    EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](float x) { return x >= 0.0f && x < 1.0f; }));
  }
  // the same seed, the same matrix; every value dtype SciPy's sampler has
  const sparse::coo a = sparse::random_array({20, 10}, {.density = 0.3, .seed = 3});
  const sparse::coo b = sparse::random_array({20, 10}, {.density = 0.3, .seed = 3});
  EXPECT_EQ(a.kind(), sparse::kind::array);
  CUPP_EXPECT_ARRAY_EQUAL(a.toarray(), b.toarray(), {.strict = true});
  for (const dtype& t : {float64, complex64, complex128, int8, uint16, int64, bool_}) {
    SCOPED_TRACE(t.name());
    const sparse::coo r = sparse::random_array({50, 20}, {.density = 0.1, .dtype = t, .seed = 11});
    EXPECT_EQ(r.dtype(), t);
    EXPECT_EQ(r.nnz(), 100);
    if (t == bool_) EXPECT_EQ(sparse::csr(r).count_nonzero(), 100);
  }
  EXPECT_EQ(sparse::random(4, 4, {.density = 0.0}).nnz(), 0);
  EXPECT_EQ(error_of<ValueError>([] { (void)sparse::random(3, 3, {.density = 1.5}); }),
            "density expected to be 0 <= density <= 1");
}

TEST(SparseMoreGpu, SpgemmMemoryBoundedAlgorithmMatchesDefault) {
  CUPP_REQUIRE_GPU();
  const sparse::coo r = sparse::random(300, 200, {.density = 0.05, .dtype = float64, .seed = 5});
  const sparse::csr a(r), at = a.transpose().tocsr();
  const sparse::csr d = sparse::spgemm(a, at);
  const sparse::csr bounded = sparse::detail::spgemm_alg(a, at, CUSPARSE_SPGEMM_ALG3);
  CUPP_EXPECT_ALLCLOSE(bounded.toarray(), d.toarray(), {.rtol = 1e-12});
  // against the host: (A A^T)[i][j] = sum_k A[i][k] A[j][k]
  const auto dense = a.toarray().to_vector<double>();
  std::vector<double> want(300 * 300, 0.0);
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 300; ++j)
      for (int k = 0; k < 200; ++k) want[i * 300 + j] += dense[i * 200 + k] * dense[j * 200 + k];
  CUPP_EXPECT_ALLCLOSE(d.toarray(), asarray(want).reshape({300, 300}), {.rtol = 1e-12, .atol = 1e-12});
}

TEST(SparseMoreGpu, SpgemmReusesThePatternAndReadsNewValues) {
  CUPP_REQUIRE_GPU();
  sparse::csr a(sparse::random(120, 80, {.density = 0.08, .dtype = float64, .seed = 21}));
  a.sum_duplicates();
  const sparse::csr b = a.transpose().tocsr();
  // spgemm's first spgemm_plain_repeats products are plain; the next builds A's reuse state
  for (int i = 0; i < sparse::detail::spgemm_plain_repeats; ++i) (void)sparse::spgemm(a, b);
  const sparse::csr first = sparse::spgemm(a, b), second = sparse::spgemm(a, b);
  // the second product ran only SpGEMMreuse_compute: C's pattern arrays are the first's
  EXPECT_EQ(second.indices().data(), first.indices().data());
  EXPECT_NE(second.data().data(), first.data().data());
  CUPP_EXPECT_ARRAY_EQUAL(second.toarray(), first.toarray());
  CUPP_EXPECT_ALLCLOSE(first.toarray(), sparse::detail::spgemm_alg(a, b, CUSPARSE_SPGEMM_ALG3).toarray(),
                       {.rtol = 1e-12});
  // new values in A's own array (the pattern kept): the reused product reads them
  cupp::copyto(a.data(), multiply(a.data(), 3.0));
  const sparse::csr third = sparse::spgemm(a, b);
  EXPECT_EQ(third.indices().data(), first.indices().data());
  CUPP_EXPECT_ALLCLOSE(third.toarray(), multiply(first.toarray(), 3.0), {.rtol = 1e-12});
  // B's values as another array over the same pattern
  const sparse::csr b2 = sparse::csr::from_parts(multiply(b.data(), 2.0), b.indices(), b.indptr(), b.shape(),
                                                 b.kind(), true, true);
  CUPP_EXPECT_ALLCLOSE(sparse::spgemm(a, b2).toarray(), multiply(first.toarray(), 6.0), {.rtol = 1e-12});
}

TEST(SparseMoreGpu, DenseAtSparseMatchesAHostProduct) {
  CUPP_REQUIRE_GPU();
  const sparse::csr a(sparse::random(40, 30, {.density = 0.2, .dtype = float32, .seed = 9}));
  const ndarray b = astype(remainder(arange(5 * 40, int64), 7), float32).reshape({5, 40});
  const auto ad = a.toarray().to_vector<float>(), bd = b.to_vector<float>();
  std::vector<float> want(5 * 30, 0.0f);
  for (int i = 0; i < 5; ++i)
    for (int k = 0; k < 40; ++k)
      for (int j = 0; j < 30; ++j) want[i * 30 + j] += bd[i * 40 + k] * ad[k * 30 + j];
  const ndarray c = cupp::matmul(b, a);
  EXPECT_EQ(c.shape(0), 5);
  EXPECT_EQ(c.shape(1), 30);
  CUPP_EXPECT_ALLCLOSE(c, asarray(want).reshape({5, 30}), {.rtol = 1e-5, .atol = 1e-5});
  EXPECT_EQ(error_of<ValueError>([&] { (void)cupp::matmul(ones({5, 41}, float32), a); }), "dimension mismatch");
}

TEST(SparseMoreGpu, ErrorsAreSciPys) {
  CUPP_REQUIRE_GPU();
  const sparse::csr a(astype(asarray(std::vector<double>{1, 0, 2, 0, 3, 0}).reshape({2, 3}), float64));
  EXPECT_EQ(error_of<IndexError>([&] { (void)sparse::select(a, 2); }), "index (2) out of range");
  EXPECT_EQ(error_of<IndexError>([&] { (void)sparse::select(a, {}, asarray(std::vector<std::int64_t>{0, -4})); }),
            "index (-4) out of range");
  EXPECT_EQ(error_of<ValueError>([&] {
              sparse::csr b = a;
              b.setdiag(1.0, 3);
            }),
            "k exceeds array dimensions");
  const sparse::csr other(zeros({3, 2}, float64));
  EXPECT_EQ(error_of<ValueError>([&] { (void)(a < other); }), "inconsistent shape");
  EXPECT_EQ(error_of<ValueError>([&] { (void)sparse::maximum(a, other); }),
            "inconsistent shapes self.shape=(2, 3) other.shape=(3, 2)");
  const sparse::csr empty(sparse::shape2{0, 3});
  EXPECT_EQ(error_of<ValueError>([&] { (void)sparse::max(empty); }), "zero-size array to reduction operation");
  EXPECT_EQ(error_of<ValueError>([&] { (void)sparse::argmax(empty); }), "Cannot apply argmax to an empty matrix.");
  EXPECT_EQ(error_of<ValueError>([&] { (void)sparse::argmin(empty, 1); }),
            "Cannot apply argmin along a zero-sized dimension.");
  // A / s: float64 for what casts to it (SciPy's _divide), complex kept
  const sparse::csr halves = a.astype(int32) / 2;
  EXPECT_EQ(halves.dtype(), float64);
  CUPP_EXPECT_ARRAY_EQUAL(halves.toarray(), asarray(std::vector<double>{0.5, 0, 1, 0, 1.5, 0}).reshape({2, 3}),
                          {.strict = true});
  EXPECT_EQ((a.astype(float32) / 4.0).dtype(), float64);
  EXPECT_EQ((a.astype(complex64) / 2).dtype(), complex64);
  EXPECT_EQ(error_of<ValueError>([&] { (void)(a / 0); }), "division by zero");
  // a selection keeps the kind and format; an integer keeps the axis
  const sparse::csr row = sparse::select(a.with_kind(sparse::kind::array), -1);
  EXPECT_EQ(row.shape(), (sparse::shape2{1, 3}));
  EXPECT_EQ(row.kind(), sparse::kind::array);
  CUPP_EXPECT_ARRAY_EQUAL(row.toarray(), asarray(std::vector<double>{0, 3, 0}).reshape({1, 3}), {.strict = true});
}

}  // namespace
}  // namespace cupp
