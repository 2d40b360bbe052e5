// cupp::sparse::linalg without a GPU: the argument errors SciPy raises before any device work
// (shapes, tolerances, which/k/ncv, callback_type), on operators made from callables with a given
// dtype and arrays over a fake device buffer (from_device_pointer makes no CUDA call); spsolve's
// banded-path kernels compile with NVRTC for every dtype and block size.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "compiler/nvrtc_program.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse_linalg.hpp"
#include "error_of.hpp"
#include "linalg/common.hpp"

namespace cupp {
namespace {

using test::error_of;
namespace sla = cupp::sparse::linalg;

struct fake {
  std::vector<std::byte> bytes = std::vector<std::byte>(1 << 16);
  ndarray wrap(shape_t shape, dtype type = float64) {
    return from_device_pointer(bytes.data(), type, shape, {}, nullptr, /*device=*/0);
  }
};

sla::LinearOperator op(std::int64_t m, std::int64_t n) {
  return sla::LinearOperator({m, n}, [](const ndarray& x) { return x; }, {}, {}, float64);
}

TEST(SparseLinalgHost, LinearOperatorChecksItsArguments) {
  fake f;
  EXPECT_THROW(sla::LinearOperator({-1, 2}, [](const ndarray& x) { return x; }, {}, {}, float64), ValueError);
  EXPECT_THROW(sla::LinearOperator({2, 2}, {}, {}, {}, float64), TypeError);
  const sla::LinearOperator a = op(3, 4);
  EXPECT_EQ(a.shape()[0], 3);
  EXPECT_EQ(a.dtype(), float64);
  EXPECT_FALSE(a.has_rmatvec());
  EXPECT_EQ(error_of<ValueError>([&] { a.matvec(f.wrap({3})); }),
            "dimension mismatch: LinearOperator of shape (3, 4), x of shape (3,)");
  EXPECT_EQ(error_of<ValueError>([&] { a.matmat(f.wrap({4})); }), "expected 2-d ndarray or matrix, not 1-d");
  EXPECT_THROW(a.rmatvec(f.wrap({3})), TypeError);
  EXPECT_THROW(a.adjoint(), TypeError);
  EXPECT_THROW(a.dot(op(3, 3)), ValueError);
  EXPECT_THROW(op(2, 2) + op(3, 3), ValueError);
  EXPECT_THROW(sla::LinearOperator(f.wrap({3})), ValueError);  // a dense operand must be 2-d
}

TEST(SparseLinalgHost, SolversCheckShapesAndTolerances) {
  fake f;
  const sla::LinearOperator sq = op(4, 4);
  EXPECT_EQ(error_of<ValueError>([&] { sla::cg(op(3, 4), f.wrap({3})); }),
            "expected square matrix, but got shape=(3, 4)");
  EXPECT_EQ(error_of<ValueError>([&] { sla::bicgstab(sq, f.wrap({5})); }),
            "bicgstab: shapes of A (4, 4) and b (5,) are incompatible");
  EXPECT_EQ(error_of<ValueError>([&] { sla::cgs(sq, f.wrap({4}), {.x0 = f.wrap({4, 2})}); }),
            "cgs: shapes of A (4, 4) and x0 (4, 2) are incompatible");
  EXPECT_THROW(sla::cg(sq, f.wrap({4}), {.M = op(3, 3)}), ValueError);
  EXPECT_EQ(error_of<ValueError>([&] { sla::gmres(sq, f.wrap({4}), {.callback_type = "bad"}); }),
            "Unknown callback_type: 'bad'");
  EXPECT_THROW(sla::minres(op(2, 3), f.wrap({2})), ValueError);
  // the second part's solvers: the same checks before any device work
  EXPECT_EQ(error_of<ValueError>([&] { sla::tfqmr(sq, f.wrap({3})); }),
            "tfqmr: shapes of A (4, 4) and b (3,) are incompatible");
  EXPECT_THROW(sla::qmr(sq, f.wrap({4}), {.M2 = op(3, 3)}), ValueError);
  EXPECT_THROW(sla::lgmres(sq, f.wrap({4}), {.M = op(2, 2)}), ValueError);
  EXPECT_EQ(error_of<ValueError>([&] { sla::gcrotmk(sq, f.wrap({4}), {.truncate = "newest"}); }),
            "Invalid value for 'truncate': 'newest'");
  EXPECT_THROW(sla::lgmres(sq, f.wrap({4}), {.inner_m = 0}), ValueError);
  EXPECT_THROW(sla::gcrotmk(op(3, 4), f.wrap({3})), ValueError);
  // lsqr / lsmr: A needs rmatvec; b must match A's rows
  EXPECT_THROW(sla::lsqr(op(5, 3), f.wrap({5})), TypeError);
  const sla::LinearOperator both({5, 3}, [](const ndarray& x) { return x; }, [](const ndarray& x) { return x; }, {},
                                 float64);
  EXPECT_THROW(sla::lsmr(both, f.wrap({3})), ValueError);
  EXPECT_THROW(sla::lsqr(both, f.wrap({5}), {.x0 = f.wrap({4})}), ValueError);
}

TEST(SparseLinalgHost, EigenAndDirectArgumentErrors) {
  EXPECT_EQ(error_of<ValueError>([&] { sla::eigsh(op(10, 10), {.k = 0}); }), "k must be greater than 0.");
  EXPECT_EQ(error_of<ValueError>([&] { sla::eigsh(op(10, 10), {.k = 2, .which = "XX"}); }),
            "which must be one of LM SM LA SA BE");
  EXPECT_EQ(error_of<ValueError>([&] { sla::eigsh(op(10, 10), {.k = 3, .ncv = 3}); }), "ncv must be k<ncv<=n, ncv=3");
  EXPECT_EQ(error_of<ValueError>([&] { sla::svds(op(10, 6), {.k = 6}); }),
            "`k` must be an integer satisfying `0 < k < min(A.shape)`.");
  EXPECT_EQ(error_of<ValueError>([&] { sla::svds(op(10, 6), {.k = 2, .which = "LA"}); }),
            "`which` must be either 'LM' or 'SM'.");
  EXPECT_THROW(sla::onenormest(op(3, 4)), ValueError);
  EXPECT_THROW(sla::onenormest(op(4, 4), 0), ValueError);
}

// spsolve's block cyclic reduction (banded.cpp): its kernels and the band-width kernel compile for
// sm_90, in one program (the solver builds one per dtype and M).
TEST(SparseLinalgHost, BandedKernelsCompileForEveryDtypeAndBlockSize) {
  // every dtype at M = 2 (the pentadiagonal bench's), and the two ends, M = 1 (scalars) for float32
  // and M = 8 (the largest blocks) for complex128: compile time grows with M^3, so not all 16
  std::vector<std::string> names = {"cupp_band_width_i32"};
  const std::pair<dtype, int> cases[] = {{float32, 2}, {float64, 2}, {complex64, 2}, {complex128, 2},
                                         {float32, 1}, {complex128, 8}};
  for (const auto& [t, M] : cases)
    for (const std::string& k : sparse::linalg::detail::banded_kernels(t, M))
      if (k.rfind("band_check", 0) != 0 || M == 2) names.push_back(k);
  EXPECT_EQ(names.size(), 1u + 4 * 4 + 2 * 3);
  std::vector<std::string> templated(names.begin() + 1, names.end());
  const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
      {.program_name = "cupp_sparse_banded", .source = sparse::linalg::detail::banded_program_source(),
       .name_expressions = templated, .arch = 90});
  EXPECT_EQ(out.lowered_names.size(), templated.size());
  EXPECT_FALSE(out.binary.empty());
}

// eigsh's fused Lanczos steps (eigen.cpp): the four kernels of every dtype compile for sm_90 in one program.
TEST(SparseLinalgHost, LanczosKernelsCompileForEveryDtype) {
  std::vector<std::string> names;
  for (const dtype t : {float32, float64, complex64, complex128})
    for (const std::string& k : sparse::linalg::detail::lanczos_kernels(t)) names.push_back(k);
  EXPECT_EQ(names.size(), 16u);
  const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
      {.program_name = "cupp_sparse_lanczos", .source = sparse::linalg::detail::lanczos_program_source(),
       .name_expressions = names, .arch = 90});
  EXPECT_EQ(out.lowered_names.size(), names.size());
  EXPECT_FALSE(out.binary.empty());
}

// eigsh's small symmetric eigensolver (Householder + implicit QR): A S = S diag(w) and S^T S = I
// to rounding on random, thick-restart-shaped (diagonal block, arrow row, tridiagonal tail),
// diagonal (repeated values), zero and tiny matrices.
TEST(SparseLinalgHost, SymmetricEigenOfProjectedMatrices) {
  using matrix = std::vector<std::vector<double>>;
  unsigned seed = 7;
  auto rnd = [&seed] { return ((seed = seed * 1103515245u + 12345u) >> 8) / 16777216.0 - 0.5; };
  std::vector<std::pair<std::string, matrix>> cases;
  for (std::size_t n : {1u, 2u, 3u, 17u, 42u, 101u}) {
    matrix a(n, std::vector<double>(n));
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j <= i; ++j) a[i][j] = a[j][i] = rnd();
    cases.emplace_back("random " + std::to_string(n), a);
  }
  {
    const std::size_t n = 42, p = 26;
    matrix a(n, std::vector<double>(n, 0.0));
    for (std::size_t i = 0; i < p; ++i) {
      a[i][i] = 8 - 1e-4 * static_cast<double>(i % 5);  // close and repeated values
      a[i][p] = a[p][i] = 1e-9 * rnd();
    }
    for (std::size_t i = p; i < n; ++i) {
      a[i][i] = 4 + rnd();
      if (i + 1 < n) a[i][i + 1] = a[i + 1][i] = 1 + 0.1 * rnd();
    }
    cases.emplace_back("thick restart", a);
  }
  {
    matrix a(30, std::vector<double>(30, 0.0));
    for (std::size_t i = 0; i < 30; ++i) a[i][i] = static_cast<double>(i % 3);
    cases.emplace_back("diagonal, repeated", a);
    cases.emplace_back("zero", matrix(5, std::vector<double>(5, 0.0)));
  }
  for (const auto& [name, a] : cases) {
    const std::size_t n = a.size();
    std::vector<double> w;
    matrix s;
    sparse::linalg::detail::symmetric_eigen(a, w, s);
    ASSERT_EQ(w.size(), n) << name;
    ASSERT_EQ(s.size(), n) << name;
    double anorm = 1, res = 0, orth = 0;
    for (const auto& row : a)
      for (double v : row) anorm = std::max(anorm, std::fabs(v));
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t i = 0; i < n; ++i) {
        double as = 0;
        for (std::size_t j = 0; j < n; ++j) as += a[i][j] * s[j][c];
        res = std::max(res, std::fabs(as - w[c] * s[i][c]));
      }
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t c2 = 0; c2 < n; ++c2) {
        double d = 0;
        for (std::size_t i = 0; i < n; ++i) d += s[i][c] * s[i][c2];
        orth = std::max(orth, std::fabs(d - (c == c2 ? 1.0 : 0.0)));
      }
    EXPECT_LE(res, 1e-13 * anorm * static_cast<double>(n)) << name;
    EXPECT_LE(orth, 1e-13 * static_cast<double>(n)) << name;
  }
}

// qmr's and tfqmr's check interval is checked before any device work.
TEST(SparseLinalgHost, QmrTfqmrCheckInterval) {
  fake f;
  const sla::LinearOperator sq = op(4, 4);
  EXPECT_EQ(error_of<ValueError>([&] { sla::qmr(sq, f.wrap({4}), {.check_every = -1}); }), "check_every must be >= 0");
  EXPECT_EQ(error_of<ValueError>([&] { sla::tfqmr(sq, f.wrap({4}), {.check_every = -2}); }), "check_every must be >= 0");
}

}  // namespace
}  // namespace cupp
