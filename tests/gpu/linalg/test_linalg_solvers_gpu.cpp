// linalg part 2 on a GPU: every decomposition and solver checked by its defining property (A @
// solve(A, b) == b, A @ inv(A) == I, L L^H == A, A V == V diag(w) with V orthonormal, U diag(S) Vh ==
// A, Q R == A with Q orthonormal, P L U == A, ...) for float32, float64, complex64 and complex128,
// on single matrices, stacks that take the batched paths (small n) and the per-matrix paths
// (large n), odd sizes, 0x0 and 1x1, plus NaN inputs and every error NumPy raises. Inputs come
// from a fixed host generator; residuals are computed on the device and read back as one number.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"
#include "solver_common.hpp"

namespace cupp {
namespace {

using i64 = std::int64_t;
namespace la = cupp::linalg;

const dtype kTypes[] = {float32, float64, complex64, complex128};

// Deterministic values in [-1, 1).
std::vector<double> host_values(i64 count, unsigned seed) {
  std::vector<double> v(static_cast<std::size_t>(count));
  std::uint64_t s = 0x9e3779b97f4a7c15ull * (seed + 1);
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = static_cast<double>(s >> 11) / static_cast<double>(1ull << 53) * 2.0 - 1.0;
  }
  return v;
}

ndarray random(std::vector<i64> shape, dtype t, unsigned seed) {
  i64 n = 1;
  for (i64 d : shape) n *= d;
  if (t.is_complex()) {
    std::vector<i64> s2 = shape;
    s2.push_back(2);
    return astype(asarray(host_values(2 * n, seed)).reshape(s2).view(complex128).reshape(shape), t);
  }
  return astype(asarray(host_values(n, seed)).reshape(shape), t);
}

ndarray H(const ndarray& a) { return a.dtype().is_complex() ? conjugate(a.swapaxes(-1, -2)) : a.swapaxes(-1, -2); }

double max_abs(const ndarray& x) {
  if (x.size() == 0) return 0.0;
  return astype(max(absolute(x)), float64).item<double>();
}

double tol(dtype t, i64 n) {
  const bool single = t == float32 || t == complex64;
  return (single ? 2e-4 : 1e-11) * static_cast<double>(std::max<i64>(n, 1));
}

ndarray eye_like(i64 n, dtype t) { return eye(n, std::nullopt, 0, t); }

// Well-conditioned square matrices: random + n I.
ndarray well(std::vector<i64> shape, dtype t, unsigned seed) {
  const i64 n = shape.back();
  return random(shape, t, seed) + eye_like(n, t) * static_cast<double>(n);
}

// Hermitian positive definite: M M^H + n I.
ndarray hpd(std::vector<i64> shape, dtype t, unsigned seed) {
  const ndarray m = random(shape, t, seed);
  return matmul(m, H(m)) + eye_like(shape.back(), t) * static_cast<double>(shape.back());
}

ndarray hermitian(std::vector<i64> shape, dtype t, unsigned seed) {
  const ndarray m = random(shape, t, seed);
  return (m + H(m)) * 0.5;
}

template <class F>
void expect_linalg_error(F&& f, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "no LinAlgError (expected \"" << message << "\")";
  } catch (const LinAlgError& e) {
    EXPECT_EQ(std::string(e.what()).find(message) != std::string::npos, true) << e.what();
  }
}

TEST(LinalgSolversGpu, SolveAndInvAllPaths) {
  CUPP_REQUIRE_GPU();
  const std::vector<std::vector<i64>> shapes = {{1, 1}, {5, 5}, {4, 7, 7}, {3, 2, 33, 33}, {2, 150, 150}, {300, 300}};
  for (dtype t : kTypes)
    for (const auto& s : shapes) {
      const i64 n = s.back();
      const ndarray a = well(s, t, 1);
      std::vector<i64> bs(s.begin(), s.end() - 1);
      bs.push_back(3);
      const ndarray b = random(bs, t, 2);
      const ndarray x = la::solve(a, b);
      EXPECT_EQ(x.dtype(), t);
      EXPECT_EQ(std::vector<i64>(x.shape().begin(), x.shape().end()), bs);
      EXPECT_LE(max_abs(matmul(a, x) - b), tol(t, n)) << t.name() << " n=" << n;
      const ndarray ai = la::inv(a);
      EXPECT_LE(max_abs(matmul(a, ai) - eye_like(n, t)), tol(t, n)) << t.name() << " n=" << n;
    }
}

TEST(LinalgSolversGpu, SolveVectorBroadcastAndPromotion) {
  CUPP_REQUIRE_GPU();
  const ndarray a = well({3, 6, 6}, float64, 3);
  const ndarray b = random({6}, float64, 4);
  const ndarray x = la::solve(a, b);
  ASSERT_EQ(x.ndim(), 2);
  EXPECT_EQ(x.shape(0), 3);
  EXPECT_EQ(x.shape(1), 6);
  EXPECT_LE(max_abs(matvec(a, x) - b), 1e-12);
  // one matrix against a stack of right-hand sides
  const ndarray a1 = well({6, 6}, float64, 5), b2 = random({4, 6, 2}, float64, 6);
  EXPECT_LE(max_abs(matmul(a1, la::solve(a1, b2)) - b2), 1e-12);
  // integers compute in float64; float32 stays float32; float16 is NumPy's TypeError
  const ndarray ai = asarray(std::vector<std::int32_t>{2, 1, 1, 3}).reshape({2, 2});
  EXPECT_EQ(la::inv(ai).dtype(), float64);
  EXPECT_NEAR(la::det(ai).item<double>(), 5.0, 1e-12);
  EXPECT_THROW(la::inv(astype(ai, float16)), TypeError);
  EXPECT_THROW(la::solve(a, random({5}, float64, 1)), ValueError);
}

TEST(LinalgSolversGpu, EmptyAndErrors) {
  CUPP_REQUIRE_GPU();
  EXPECT_EQ(la::inv(zeros({0, 0})).size(), 0);
  EXPECT_EQ(la::solve(zeros({2, 0, 0}), zeros({2, 0, 1})).shape(0), 2);
  EXPECT_NEAR(la::det(zeros({0, 0})).item<double>(), 1.0, 0.0);
  expect_linalg_error([] { la::inv(zeros({3})); }, "1-dimensional array given. Array must be at least two-dimensional");
  expect_linalg_error([] { la::inv(zeros({2, 3})); }, "Last 2 dimensions of the array must be square");
  expect_linalg_error([] { la::cholesky(zeros({2, 3})); }, "Last 2 dimensions of the array must be square");
  expect_linalg_error([] { la::eigh(zeros({4})); }, "1-dimensional array given");
  // a singular matrix in a stack (cuBLAS's batched LU, getrs / getri) and alone (cuSOLVER's Xgetrf)
  for (i64 n : {4, 200}) {
    ndarray a = well({3, n, n}, float64, 7);
    a(1) = zeros({n, n});
    expect_linalg_error([&] { la::solve(a, random({3, n, 1}, float64, 1)); }, "Singular matrix");
    expect_linalg_error([&] { la::inv(a); }, "Singular matrix");
    expect_linalg_error([&] { la::inv(zeros({n, n})); }, "Singular matrix");
  }
  // NaN: inv and solve give NaN without raising
  const ndarray nan_a = full({3, 3}, std::numeric_limits<double>::quiet_NaN());
  EXPECT_TRUE(any(isnan(la::inv(nan_a))).item<bool>());
  EXPECT_TRUE(any(isnan(la::solve(nan_a, ones({3})))).item<bool>());
  EXPECT_THROW(la::eigh(full({2, 2}, 1.0), {.UPLO = "X"}), ValueError);
  EXPECT_THROW(la::qr(ones({2, 2}), {.mode = "economic"}), ValueError);
}

TEST(LinalgSolversGpu, DetAndSlogdet) {
  CUPP_REQUIRE_GPU();
  // rows 0 and 1 of diag(2, 3, 5) swapped: det = -30 (the pivots' parity)
  const ndarray p = asarray(std::vector<double>{0, 3, 0, 2, 0, 0, 0, 0, 5}).reshape({3, 3});
  EXPECT_NEAR(la::det(p).item<double>(), -30.0, 1e-12);
  EXPECT_NEAR(la::slogdet(p).sign.item<double>(), -1.0, 0.0);
  for (dtype t : kTypes)
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{4, 4}, {5, 6, 6}, {2, 140, 140}}) {
      const ndarray a = random(s, t, 11) + eye_like(s.back(), t) * 1.5;
      const ndarray d = la::det(a);
      auto [sign, logabs] = la::slogdet(a);
      EXPECT_EQ(d.dtype(), t);
      EXPECT_EQ(logabs.dtype(), t.is_complex() ? (t == complex64 ? float32 : float64) : t);
      const bool single = t == float32 || t == complex64;
      // slogdet against the same matrices' slogdet in double precision (at n = 140, |det| ~ e^200
      // overflows float32: det is inf there, as NumPy's, so sign * exp(logabsdet) is only
      // compared where it is finite)
      auto [sign_w, logabs_w] = la::slogdet(astype(a, t.is_complex() ? complex128 : float64));
      EXPECT_LE(max_abs(astype(logabs, float64) - logabs_w) / (max_abs(logabs_w) + 1.0), single ? 1e-5 : 1e-12)
          << t.name() << " n=" << s.back();
      EXPECT_LE(max_abs(astype(sign, sign_w.dtype()) - sign_w), single ? 1e-3 : 1e-10) << t.name();
      EXPECT_LE(max_abs(absolute(sign) - 1.0), single ? 1e-5 : 1e-12) << t.name();
      if (!single || s.back() <= 6) {
        const ndarray rebuilt = sign * exp(astype(logabs, t));
        const double scale = max_abs(d) + 1e-30;
        EXPECT_LE(max_abs(rebuilt - d) / scale, single ? 1e-3 : 1e-10) << t.name() << " n=" << s.back();
      } else {
        EXPECT_FALSE(any(isfinite(d)).item<bool>()) << t.name() << ": |det| ~ e^200 is not finite in single precision";
      }
      // det(A B) = det(A) det(B) on small matrices (no overflow)
      if (s.back() <= 6) {
        const ndarray b = random(s, t, 12) + eye_like(s.back(), t);
        EXPECT_LE(max_abs(la::det(matmul(a, b)) - d * la::det(b)) / (max_abs(d * la::det(b)) + 1e-30),
                  t == float32 || t == complex64 ? 1e-3 : 1e-10);
      }
    }
  auto [s0, l0] = la::slogdet(zeros({3, 3}));
  EXPECT_EQ(s0.item<double>(), 0.0);
  EXPECT_TRUE(std::isinf(l0.item<double>()) && l0.item<double>() < 0);
  EXPECT_EQ(la::det(zeros({3, 3})).item<double>(), 0.0);
}

TEST(LinalgSolversGpu, Cholesky) {
  CUPP_REQUIRE_GPU();
  for (dtype t : kTypes)
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{1, 1}, {5, 5}, {6, 9, 9}, {2, 140, 140}}) {
      const i64 n = s.back();
      const ndarray a = hpd(s, t, 21);
      const ndarray L = la::cholesky(a);
      EXPECT_LE(max_abs(matmul(L, H(L)) - a), tol(t, n) * n) << t.name();
      EXPECT_EQ(max_abs(triu(L, 1)), 0.0);
      const ndarray U = la::cholesky(a, {.upper = true});
      EXPECT_LE(max_abs(matmul(H(U), U) - a), tol(t, n) * n) << t.name();
      EXPECT_EQ(max_abs(tril(U, -1)), 0.0);
      auto cf = la::cho_factor(a, {.lower = true});
      const ndarray b = random({n, 2}, t, 22);
      EXPECT_LE(max_abs(matmul(a, la::cho_solve(cf, b)) - b), tol(t, n) * n) << t.name();
      auto cu = la::cho_factor(a);
      EXPECT_LE(max_abs(matmul(a, la::cho_solve(cu, b)) - b), tol(t, n) * n) << t.name();
    }
  ndarray notpd = hpd({3, 4, 4}, float64, 1);
  notpd(2) = -eye_like(4, float64);
  expect_linalg_error([&] { la::cholesky(notpd); }, "Matrix is not positive definite");
  expect_linalg_error([&] { la::cholesky(-eye_like(200, float64)); }, "Matrix is not positive definite");
  // NaN in the triangle read: no error, as NumPy 2.5 (OpenBLAS lets the NaN pivot through); the
  // factor is NaN. A NaN only in the other triangle is not read.
  ndarray with_nan = hpd({3, 4, 4}, float64, 2);
  with_nan(1, 2, 1) = std::numeric_limits<double>::quiet_NaN();
  with_nan(2, 0, 3) = std::numeric_limits<double>::quiet_NaN();
  const ndarray Ln = la::cholesky(with_nan);
  EXPECT_TRUE(all(isnan(Ln(1)) | (triu(ones({4, 4}), 1) != 0)).item<bool>());
  const ndarray base = hpd({3, 4, 4}, float64, 2);  // the same values, without the NaNs
  EXPECT_LE(max_abs(matmul(Ln(0), H(Ln(0))) - base(0)), 1e-10);
  EXPECT_LE(max_abs(matmul(Ln(2), H(Ln(2))) - base(2)), 1e-10);
  EXPECT_TRUE(any(isnan(la::cholesky(full({2, 2}, std::numeric_limits<double>::quiet_NaN())))).item<bool>());
}

TEST(LinalgSolversGpu, Eigh) {
  CUPP_REQUIRE_GPU();
  for (dtype t : kTypes)
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{1, 1}, {7, 7}, {6, 5, 5}, {3, 40, 40}, {2, 2, 65, 65}}) {
      const i64 n = s.back();
      const ndarray a = hermitian(s, t, 31);
      auto [w, v] = la::eigh(a);
      EXPECT_EQ(w.dtype(), t == complex64 ? float32 : t == complex128 ? float64 : t);
      EXPECT_LE(max_abs(matmul(a, v) - v * astype(w, t).expand_dims(-2)), tol(t, n) * 10) << t.name() << n;
      EXPECT_LE(max_abs(matmul(H(v), v) - eye_like(n, t)), tol(t, n) * 10) << t.name() << n;
      if (n > 1) EXPECT_TRUE(all(w(ellipsis, slice(1, std::nullopt)) >= w(ellipsis, slice(0, n - 1))).item<bool>());
      EXPECT_LE(max_abs(la::eigvalsh(a) - w), tol(t, n) * 10);
      // UPLO='U' reads only the upper triangle: the lower one may hold anything
      const ndarray garbage = triu(a) + tril(random(s, t, 99), -1);
      EXPECT_LE(max_abs(la::eigvalsh(garbage, {.UPLO = "U"}) - w), tol(t, n) * 10);
    }
  expect_linalg_error([] { la::eigh(full({3, 3}, std::numeric_limits<double>::quiet_NaN())); },
                      "Eigenvalues did not converge");
}

TEST(LinalgSolversGpu, Eig) {
  CUPP_REQUIRE_GPU();
  for (dtype t : kTypes)
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{1, 1}, {6, 6}, {3, 5, 5}, {33, 33}}) {
      const i64 n = s.back();
      const ndarray a = random(s, t, 41);
      auto [w, v] = la::eig(a);
      EXPECT_TRUE(w.dtype().is_complex());
      const ndarray ac = astype(a, w.dtype());
      EXPECT_LE(max_abs(matmul(ac, v) - v * w.expand_dims(-2)), tol(t, n) * 20) << t.name() << n;
      // eigvals' order need not be eig's (geev without vectors iterates differently): each of its
      // values must be one of eig's
      const ndarray ev = la::eigvals(a);
      EXPECT_EQ(ev.shape(-1), n);
      const ndarray dist = min(absolute(ev.expand_dims(-1) - w.expand_dims(-2)), {.axis = {-1}});
      EXPECT_LE(max_abs(dist), tol(t, n) * 20) << t.name() << n;
    }
  // a rotation: eigenvalues +-i
  const ndarray r = asarray(std::vector<double>{0, -1, 1, 0}).reshape({2, 2});
  const ndarray w = la::eigvals(r);
  EXPECT_NEAR(max_abs(absolute(w) - 1.0), 0.0, 1e-12);
  EXPECT_NEAR(max_abs(w.real()), 0.0, 1e-12);
  expect_linalg_error([] { la::eig(full({3, 3}, std::numeric_limits<double>::quiet_NaN())); },
                      "Eigenvalues did not converge");
}

TEST(LinalgSolversGpu, Svd) {
  CUPP_REQUIRE_GPU();
  // gesvdjBatched (stacks up to 32x32), the Jacobi kernel's shared form (40x33, 5x40, 70x50) and its
  // global form (150x140, 120x150 for float64 and complex64; svdvals of them take the shared form,
  // which needs no V), Xgesvd (1x1 and 6x4 alone, complex128 150x140)
  const std::vector<std::vector<i64>> shapes = {{1, 1},     {6, 4},     {4, 6},         {5, 6, 4},     {5, 3, 7},
                                                {3, 40, 33}, {2, 5, 40}, {70, 50},       {8, 150, 140}, {6, 120, 150}};
  for (dtype t : kTypes)
    for (const auto& s : shapes)
      for (bool full : {true, false}) {
        const i64 m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
        const ndarray a = random(s, t, 51);
        auto [U, S, Vh] = la::svd(a, {.full_matrices = full});
        EXPECT_EQ(U.shape(-1), full ? m : k);
        EXPECT_EQ(Vh.shape(-2), full ? n : k);
        const ndarray Uk = U(ellipsis, slice(), slice(0, k)), Vk = Vh(ellipsis, slice(0, k), slice());
        EXPECT_LE(max_abs(matmul(Uk * astype(S, t).expand_dims(-2), Vk) - a), tol(t, m + n) * 10) << t.name() << m << "x" << n;
        EXPECT_LE(max_abs(matmul(H(U), U) - eye_like(U.shape(-1), t)), tol(t, m + n) * 10);
        EXPECT_LE(max_abs(matmul(Vh, H(Vh)) - eye_like(Vh.shape(-2), t)), tol(t, m + n) * 10);
        if (k > 1) EXPECT_TRUE(all(S(ellipsis, slice(1, std::nullopt)) <= S(ellipsis, slice(0, k - 1))).item<bool>());
        EXPECT_LE(max_abs(la::svdvals(a) - S), tol(t, m + n) * 10);
      }
  // hermitian=True: the same singular values
  const ndarray h = hermitian({6, 6}, float64, 52);
  auto [hu, hs, hvh] = la::svd(h, {.hermitian = true});
  EXPECT_LE(max_abs(hs - la::svdvals(h)), 1e-12);
  EXPECT_LE(max_abs(matmul(hu * hs.expand_dims(-2), hvh) - h), 1e-12);
  // the Jacobi kernel on rank-deficient input: a zero matrix and a rank-3 product in one stack (the
  // columns of zero singular value and full_matrices' extra ones are completed to a basis)
  ndarray rd = zeros({2, 40, 36});
  rd(1) = matmul(random({40, 3}, float64, 53), random({3, 36}, float64, 54));
  for (bool full : {true, false}) {
    auto [U, S, Vh] = la::svd(rd, {.full_matrices = full});
    EXPECT_EQ(U.shape(-1), full ? 40 : 36);
    EXPECT_LE(max_abs(matmul(H(U), U) - eye_like(U.shape(-1), float64)), 1e-11) << full;
    EXPECT_LE(max_abs(matmul(Vh, H(Vh)) - eye_like(36, float64)), 1e-11) << full;
    EXPECT_LE(max_abs(matmul(U(ellipsis, slice(), slice(0, 36)) * S.expand_dims(-2), Vh) - rd), 1e-12) << full;
    EXPECT_EQ(max_abs(S(0)), 0.0);
  }
  EXPECT_EQ(la::matrix_rank(rd).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3}));
  expect_linalg_error([] { la::svd(full({3, 40, 40}, std::numeric_limits<double>::quiet_NaN())); }, "SVD did not converge");
  expect_linalg_error([] { la::svd(full({8, 150, 140}, std::numeric_limits<double>::quiet_NaN())); }, "SVD did not converge");
  auto e = la::svd(zeros({0, 3}));
  EXPECT_EQ(e.S.size(), 0);
  EXPECT_EQ(e.Vh.shape(0), 3);
  expect_linalg_error([] { la::svd(full({4, 3}, std::numeric_limits<double>::quiet_NaN())); }, "SVD did not converge");
  expect_linalg_error([] { la::svd(full({5, 4, 3}, std::numeric_limits<double>::quiet_NaN())); }, "SVD did not converge");
}

// The batched Jacobi kernel's forms on a few small stacks (the memcheck run's SVD test): shared
// (tall, wide, complex, rank-deficient, svdvals), global (a stack of 150x140 float64).
TEST(LinalgSolversGpu, SvdJacobiForms) {
  CUPP_REQUIRE_GPU();
  const std::vector<std::pair<std::vector<i64>, dtype>> cases = {
      {{3, 40, 33}, float64}, {{2, 33, 40}, complex64}, {{2, 36, 36}, complex128}, {{8, 150, 140}, float64}};
  for (const auto& [s, t] : cases) {
    const i64 m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
    ndarray a = random(s, t, 55);
    a(0, slice(), 1) = zeros({m}, t);  // a zero column: a zero singular value, completed in U
    auto [U, S, Vh] = la::svd(a);
    EXPECT_LE(max_abs(matmul(U(ellipsis, slice(), slice(0, k)) * astype(S, t).expand_dims(-2), Vh(ellipsis, slice(0, k), slice())) - a),
              tol(t, m + n) * 10) << t.name() << m << "x" << n;
    EXPECT_LE(max_abs(matmul(H(U), U) - eye_like(m, t)), tol(t, m + n) * 10) << t.name();
    EXPECT_LE(max_abs(matmul(Vh, H(Vh)) - eye_like(n, t)), tol(t, m + n) * 10) << t.name();
    EXPECT_LE(max_abs(la::svdvals(a) - S), tol(t, m + n) * 10) << t.name();
  }
}

TEST(LinalgSolversGpu, Qr) {
  CUPP_REQUIRE_GPU();
  for (dtype t : kTypes)
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{1, 1}, {7, 4}, {4, 7}, {3, 6, 5}, {90, 60}}) {
      const i64 m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
      const ndarray a = random(s, t, 61);
      auto [Q, R] = la::qr(a);
      EXPECT_EQ(Q.shape(-1), k);
      EXPECT_EQ(R.shape(-2), k);
      EXPECT_LE(max_abs(matmul(Q, R) - a), tol(t, m) * 10) << t.name();
      EXPECT_LE(max_abs(matmul(H(Q), Q) - eye_like(k, t)), tol(t, m) * 10);
      EXPECT_EQ(max_abs(tril(R, -1)), 0.0);
      auto [Qc, Rc] = la::qr(a, {.mode = "complete"});
      EXPECT_EQ(Qc.shape(-1), m);
      EXPECT_LE(max_abs(matmul(Qc, Rc) - a), tol(t, m) * 10);
      EXPECT_LE(max_abs(matmul(H(Qc), Qc) - eye_like(m, t)), tol(t, m) * 10);
      auto r = la::qr(a, {.mode = "r"});
      EXPECT_TRUE(r.Q.is_null());
      EXPECT_LE(max_abs(absolute(r.R) - absolute(R)), tol(t, m) * 10);
      auto raw = la::qr(a, {.mode = "raw"});
      EXPECT_EQ(raw.Q.shape(-2), n);
      EXPECT_EQ(raw.R.shape(-1), k);
    }
}

dtype real_of_for_test(dtype t) { return t == complex64 ? float32 : t == complex128 ? float64 : t; }

// A stack of a rank-3 and a rank-1 3x3 matrix.
ndarray stack_of_ranks() { return stack({eye(3), matmul(ones({3, 1}), ones({1, 3}))}); }

TEST(LinalgSolversGpu, LstsqPinvRank) {
  CUPP_REQUIRE_GPU();
  for (dtype t : kTypes) {
    const ndarray a = random({9, 4}, t, 71), b = random({9, 2}, t, 72);
    auto [x, res, rank, s] = la::lstsq(a, b);
    EXPECT_EQ(rank.item<std::int64_t>(), 4);
    // the normal equations: A^H (b - A x) = 0
    EXPECT_LE(max_abs(matmul(H(a), b - matmul(a, x))), tol(t, 9) * 10) << t.name();
    const ndarray r = b - matmul(a, x);
    const ndarray r2 = sum(astype(absolute(r), real_of_for_test(t)) * astype(absolute(r), real_of_for_test(t)), {.axis = {0}});
    EXPECT_LE(max_abs(res - r2), tol(t, 9) * 10);
    const ndarray p = la::pinv(a);
    EXPECT_LE(max_abs(matmul(matmul(a, p), a) - a), tol(t, 9) * 10);
    EXPECT_EQ(la::matrix_rank(a).item<std::int64_t>(), 4);
  }
  // rank deficient: an outer product has rank 1, and lstsq gives no residuals
  const ndarray u = random({5, 1}, float64, 73), v = random({1, 4}, float64, 74);
  const ndarray low = matmul(u, v);
  EXPECT_EQ(la::matrix_rank(low).item<std::int64_t>(), 1);
  auto l = la::lstsq(low, random({5}, float64, 75));
  EXPECT_EQ(l.rank.item<std::int64_t>(), 1);
  EXPECT_EQ(l.residuals.size(), 0);
  EXPECT_EQ(l.x.ndim(), 1);
  const ndarray stack = stack_of_ranks();
  const ndarray ranks = la::matrix_rank(stack);
  EXPECT_EQ(ranks.to_vector<std::int64_t>(), (std::vector<std::int64_t>{3, 1}));
}

TEST(LinalgSolversGpu, Norms) {
  CUPP_REQUIRE_GPU();
  const std::vector<double> hv = {3, -4, 0, 1.5, -2};
  const ndarray x = asarray(hv);
  auto host_p = [&](double p) {
    double s = 0;
    for (double e : hv) s += std::pow(std::abs(e), p);
    return std::pow(s, 1.0 / p);
  };
  EXPECT_NEAR(la::norm(x).item<double>(), host_p(2), 1e-12);
  EXPECT_NEAR(la::norm(x, {.ord = 1}).item<double>(), host_p(1), 1e-12);
  EXPECT_NEAR(la::norm(x, {.ord = 3}).item<double>(), host_p(3), 1e-12);
  EXPECT_NEAR(la::norm(x, {.ord = std::numeric_limits<double>::infinity()}).item<double>(), 4.0, 0);
  EXPECT_NEAR(la::norm(x, {.ord = -std::numeric_limits<double>::infinity()}).item<double>(), 0.0, 0);
  EXPECT_NEAR(la::norm(x, {.ord = 0}).item<double>(), 4.0, 0);
  EXPECT_THROW(la::norm(x, {.ord = "fro"}), ValueError);
  const ndarray m = asarray(std::vector<double>{1, -2, 3, 4, 5, -6}).reshape({2, 3});
  EXPECT_NEAR(la::norm(m, {.ord = 1}).item<double>(), 9.0, 1e-12);   // max column sum
  EXPECT_NEAR(la::norm(m, {.ord = std::numeric_limits<double>::infinity()}).item<double>(), 15.0, 1e-12);  // max row sum
  EXPECT_NEAR(la::norm(m, {.ord = -1}).item<double>(), 5.0, 1e-12);
  EXPECT_NEAR(la::norm(m, {.ord = "fro"}).item<double>(), std::sqrt(91.0), 1e-12);
  const ndarray s = la::svdvals(m);
  EXPECT_NEAR(la::norm(m, {.ord = 2}).item<double>(), s(0).item<double>(), 1e-12);
  EXPECT_NEAR(la::norm(m, {.ord = -2}).item<double>(), s(1).item<double>(), 1e-12);
  EXPECT_NEAR(la::norm(m, {.ord = "nuc"}).item<double>(), sum(s).item<double>(), 1e-12);
  const ndarray st = random({4, 3, 5}, complex128, 81);
  EXPECT_EQ(la::matrix_norm(st).shape(0), 4);
  EXPECT_EQ(la::matrix_norm(st, {.keepdims = true}).ndim(), 3);
  EXPECT_EQ(la::vector_norm(st, {.axis = std::vector<int>{1, 2}}).shape(0), 4);
  EXPECT_NEAR(la::vector_norm(st).item<double>(), la::norm(st.ravel()).item<double>(), 1e-12);
  EXPECT_EQ(la::norm(asarray(std::vector<std::int32_t>{3, 4})).dtype(), float64);
  EXPECT_EQ(la::norm(astype(x, float32)).dtype(), float32);
  EXPECT_THROW(la::norm(random({2, 2, 2}, float64, 1), {.ord = 2}), ValueError);
  // cond
  EXPECT_NEAR(la::cond(eye_like(4, float64)).item<double>(), 1.0, 1e-12);
  const ndarray m2 = m(slice(), slice(0, 2)), s2 = la::svdvals(m2);
  EXPECT_NEAR(la::cond(m2).item<double>(), (s2(0) / s2(1)).item<double>(), 1e-10);
  EXPECT_NEAR(la::cond(m2, -2).item<double>(), (s2(1) / s2(0)).item<double>(), 1e-10);
  EXPECT_TRUE(std::isinf(la::cond(asarray(std::vector<double>{1, 1, 1, 1}).reshape({2, 2}), 1).item<double>()));
  const ndarray w = well({3, 5, 5}, float64, 82);
  EXPECT_LE(max_abs(la::cond(w, "fro") - la::norm(w, {.ord = "fro", .axis = std::vector<int>{-2, -1}}) *
                                              la::norm(la::inv(w), {.ord = "fro", .axis = std::vector<int>{-2, -1}})),
            1e-10);
  expect_linalg_error([] { la::cond(zeros({0, 0})); }, "cond is not defined on empty arrays");
}

TEST(LinalgSolversGpu, TensorsolveTensorinv) {
  CUPP_REQUIRE_GPU();
  const ndarray a = eye_like(24, float64).reshape({6, 4, 2, 3, 4}) * 2.0;
  const ndarray b = random({6, 4}, float64, 91);
  const ndarray x = la::tensorsolve(a, b);
  ASSERT_EQ(x.ndim(), 3);
  EXPECT_LE(max_abs(tensordot(a, x, 3) - b), 1e-12);
  const ndarray t = eye_like(24, float64).reshape({4, 6, 8, 3});
  const ndarray ti = la::tensorinv(t);
  ASSERT_EQ(ti.ndim(), 4);
  EXPECT_EQ(ti.shape(0), 8);
  EXPECT_LE(max_abs(tensordot(ti, t, 2) - eye_like(24, float64).reshape({8, 3, 8, 3})), 1e-12);
  expect_linalg_error([] { la::tensorsolve(ones({2, 3}), ones({2})); }, "Input arrays must satisfy");
}

TEST(LinalgSolversGpu, ScipyLuAndTriangular) {
  CUPP_REQUIRE_GPU();
  for (dtype t : kTypes) {
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{5, 5}, {6, 4}, {4, 6}, {3, 5, 5}}) {
      const ndarray a = random(s, t, 101);
      auto [P, L, U] = la::lu(a);
      EXPECT_LE(max_abs(matmul(matmul(astype(P, t), L), U) - a), tol(t, 6) * 10) << t.name();
      EXPECT_EQ(max_abs(triu(L, 1)), 0.0);
      auto pl = la::lu(a, {.permute_l = true});
      EXPECT_LE(max_abs(matmul(pl.L, pl.U) - a), tol(t, 6) * 10);
    }
    const ndarray a = well({4, 7, 7}, t, 102), b = random({4, 7, 2}, t, 103);
    const auto f = la::lu_factor(a);
    EXPECT_EQ(f.piv.dtype(), int32);
    EXPECT_LE(max_abs(matmul(a, la::lu_solve(f, b)) - b), tol(t, 7) * 10);
    EXPECT_LE(max_abs(matmul(a.swapaxes(-1, -2), la::lu_solve(f, b, {.trans = 1})) - b), tol(t, 7) * 10);
    EXPECT_LE(max_abs(matmul(H(a), la::lu_solve(f, b, {.trans = 2})) - b), tol(t, 7) * 10);
    const ndarray lo = tril(a), up = triu(a);
    for (int trans : {0, 1, 2}) {
      const ndarray opl = trans == 0 ? lo : trans == 1 ? lo.swapaxes(-1, -2) : H(lo);
      EXPECT_LE(max_abs(matmul(opl, la::solve_triangular(a, b, {.trans = trans, .lower = true})) - b), tol(t, 7) * 10);
    }
    EXPECT_LE(max_abs(matmul(up, la::solve_triangular(a, b)) - b), tol(t, 7) * 10);
    const ndarray unit = triu(up, 1) + eye_like(7, t);
    EXPECT_LE(max_abs(matmul(unit, la::solve_triangular(a, b, {.unit_diagonal = true})) - b), tol(t, 7) * 10);
    EXPECT_LE(max_abs(matmul(up(0), la::solve_triangular(a(0), b(0, slice(), 0))) - b(0, slice(), 0)), tol(t, 7) * 10);
  }
  expect_linalg_error([] { la::solve_triangular(zeros({3, 3}), ones({3})); }, "singular matrix: resolution failed at diagonal 0");
}

// Sets one of linalg's path variables (solver_common.hpp) for a scope, back to auto after.
struct path_scope {
  const char* name;
  path_scope(const char* variable, const char* value) : name(variable) { la::detail::set_path_override(variable, value); }
  ~path_scope() { la::detail::set_path_override(name, "auto"); }
};

// Every library LU path (cuBLAS's batched LU, Xgetrf matrix after matrix, Xgetrf on side
// streams) gives
// solve's and inv's results, raises "Singular matrix" for a zero matrix in a stack, and gives an
// all-NaN result for the matrix of a stack that holds a NaN while the others are solved.
void check_lu_path(const char* path) {
  {
    for (dtype t : kTypes)
      for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{5, 9, 9}, {3, 70, 70}, {3, 300, 300}}) {
        const i64 n = s.back();
        const ndarray a = well(s, t, 61);
        const ndarray b = random({s[0], n, 2}, t, 62);
        EXPECT_LE(max_abs(matmul(a, la::solve(a, b)) - b), tol(t, n)) << path << " " << t.name() << " n=" << n;
        EXPECT_LE(max_abs(matmul(a, la::inv(a)) - eye_like(n, t)), tol(t, n)) << path << " " << t.name() << " n=" << n;
        // rows reversed: as well conditioned, but partial pivoting interchanges rows at nearly
        // every step (the inverse's columns come out permuted if a path mishandles the pivots)
        const ndarray p = ascontiguousarray(flip(a, -2));
        EXPECT_LE(max_abs(matmul(p, la::inv(p)) - eye_like(n, t)), tol(t, n)) << path << " pivoted " << t.name() << " n=" << n;
        EXPECT_LE(max_abs(matmul(p, la::solve(p, b)) - b), tol(t, n)) << path << " pivoted " << t.name() << " n=" << n;
        // slogdet (|det| of n I + noise overflows at these sizes) against double precision's
        const ndarray logabs = la::slogdet(a).logabsdet;
        const ndarray logabs_w = la::slogdet(astype(a, t.is_complex() ? complex128 : float64)).logabsdet;
        EXPECT_LE(max_abs(astype(logabs, float64) - logabs_w) / (max_abs(logabs_w) + 1.0),
                  t == float32 || t == complex64 ? 1e-5 : 1e-12)
            << path << " " << t.name() << " n=" << n;
      }
    for (i64 n : {9, 300}) {
      ndarray z = well({3, n, n}, float64, 63);
      z(1) = zeros({n, n});
      expect_linalg_error([&] { la::solve(z, random({3, n, 1}, float64, 1)); }, "Singular matrix");
      expect_linalg_error([&] { la::inv(z); }, "Singular matrix");
      // a NaN in matrix 2 only (at (1, 0): the factored a^T's first pivot row; cuBLAS's and
      // cuSOLVER's LUs spread it differently): that matrix's x and inverse all NaN, as NumPy's,
      // the others solved; every dtype
      for (dtype t : kTypes) {
        ndarray w = well({3, n, n}, t, 64);
        w(2, 1, 0) = std::numeric_limits<double>::quiet_NaN();
        const ndarray b = random({3, n, 1}, t, 65);
        const ndarray x = la::solve(w, b);
        EXPECT_TRUE(all(isnan(x(2))).item<bool>()) << path << " " << t.name() << " n=" << n;
        EXPECT_FALSE(any(isnan(x(slice(0, 2)))).item<bool>()) << path << " " << t.name() << " n=" << n;
        EXPECT_LE(max_abs(matmul(w(slice(0, 2)), x(slice(0, 2))) - b(slice(0, 2))), tol(t, n))
            << path << " " << t.name() << " n=" << n;
        const ndarray wi = la::inv(w);
        EXPECT_TRUE(all(isnan(wi(2))).item<bool>()) << path << " " << t.name() << " n=" << n;
        EXPECT_FALSE(any(isnan(wi(slice(0, 2)))).item<bool>()) << path << " " << t.name() << " n=" << n;
        // a NaN at the last element (the last pivot) and a vector b
        ndarray v = well({2, n, n}, t, 67);
        v(0, n - 1, n - 1) = std::numeric_limits<double>::quiet_NaN();
        const ndarray xv = la::solve(v, random({n}, t, 68));
        EXPECT_TRUE(all(isnan(xv(0))).item<bool>()) << path << " " << t.name() << " n=" << n;
        EXPECT_FALSE(any(isnan(xv(1))).item<bool>()) << path << " " << t.name() << " n=" << n;
      }
      const ndarray b = random({3, n, 1}, float64, 65);
      // a NaN in b only (no rule: LAPACK's getrs gives it as cuSOLVER's does): no error, that x has NaN,
      // the other matrix's does not
      ndarray bn = b(slice(0, 2)).copy();
      bn(0, 0, 0) = std::numeric_limits<double>::quiet_NaN();
      const ndarray xn = la::solve(well({2, n, n}, float64, 66), bn);
      EXPECT_TRUE(any(isnan(xn(0))).item<bool>()) << path << " n=" << n;
      EXPECT_FALSE(any(isnan(xn(1))).item<bool>()) << path << " n=" << n;
    }
  }
}

TEST(LinalgSolversGpu, LuPathsAgree) {
  CUPP_REQUIRE_GPU();
  for (const char* path : {"auto", "batched", "loop", "streams"}) {
    const path_scope scope("CUPP_LINALG_LU", path);
    check_lu_path(path);
  }
}

// cupp's blocked LU (CUPP_LINALG_LU=blocked) on the same checks, with inv by getriBatched, by
// getrsBatched against the identity and by getrsBatched with unit pivots against P I. (The tests
// of cupp's own LU kernel are named *Blocked*: linalg/bench/gpu-run-solvers.sh runs them in a
// process of their own.)
TEST(LinalgSolversGpu, BlockedLuPathsAgree) {
  CUPP_REQUIRE_GPU();
  const path_scope lu("CUPP_LINALG_LU", "blocked");
  for (const char* inv : {"auto", "getri", "getrs", "permuted"}) {
    const path_scope scope("CUPP_LINALG_INV", inv);
    check_lu_path(inv);
  }
}

// cupp's blocked LU gives LAPACK's factors and pivots: lu_factor of real stacks (which takes the
// batched paths) against Xgetrf matrix after matrix, for sizes across panel edges (32 columns);
// a zero column gives info's zero pivot without stopping (det 0, the later columns factored).
TEST(LinalgSolversGpu, BlockedLuMatchesXgetrf) {
  CUPP_REQUIRE_GPU();
  // (float64 only: float32's near-ties between pivot candidates may go either way)
  for (dtype t : {dtype(float64)})
    for (i64 n : {1, 7, 32, 33, 64, 97, 300, 512}) {
      const ndarray a = random({3, n, n}, t, 95);
      la::lu_factor_result ref, got;
      {
        const path_scope scope("CUPP_LINALG_LU", "loop");
        ref = la::lu_factor(a);
      }
      {
        const path_scope scope("CUPP_LINALG_LU", "blocked");
        got = la::lu_factor(a);
      }
      EXPECT_EQ(max_abs(astype(got.piv, int64) - astype(ref.piv, int64)), 0.0) << t.name() << " n=" << n;
      EXPECT_LE(max_abs(got.lu - ref.lu), tol(t, n) * 10) << t.name() << " n=" << n;
    }
  ndarray z = random({2, 70, 70}, float64, 96);
  z(1, slice(), 40) = zeros({70});
  const path_scope scope("CUPP_LINALG_LU", "blocked");
  EXPECT_EQ(la::det(z)(1).item<double>(), 0.0);
  expect_linalg_error([&] { la::inv(z); }, "Singular matrix");
}

// The bench's other candidates (linalg/bench/host_path.cpp's solvers section) give the same
// results and errors: inv by getriBatched, by getrsBatched against the identity and against P I
// with unit pivots, solve on a
// column-major copy without the transpose flag, Xgetrf's ALG_1, and the two-pass copy and NaN
// scan (CUPP_LINALG_COPY=assign).
TEST(LinalgSolversGpu, LuCandidatesAgree) {
  CUPP_REQUIRE_GPU();
  struct cand {
    const char* label;
    std::vector<std::pair<const char*, const char*>> env;
  };
  const std::vector<cand> cands = {
      {"batched getri", {{"CUPP_LINALG_LU", "batched"}, {"CUPP_LINALG_INV", "getri"}}},
      {"batched getrs", {{"CUPP_LINALG_LU", "batched"}, {"CUPP_LINALG_INV", "getrs"}}},
      {"batched permuted", {{"CUPP_LINALG_LU", "batched"}, {"CUPP_LINALG_INV", "permuted"}}},
      {"solve colmajor", {{"CUPP_LINALG_SOLVE", "colmajor"}}},
      {"solve colmajor loop", {{"CUPP_LINALG_SOLVE", "colmajor"}, {"CUPP_LINALG_LU", "loop"}}},
      {"streams alg1", {{"CUPP_LINALG_LU", "streams"}, {"CUPP_LINALG_GETRF_ALG", "1"}}},
      {"copy assign", {{"CUPP_LINALG_COPY", "assign"}}},
  };
  for (const cand& c : cands) {
    std::vector<std::unique_ptr<path_scope>> scopes;
    for (const auto& [k, v] : c.env) scopes.push_back(std::make_unique<path_scope>(k, v));
    if (std::string(c.label) == "streams alg1") {
      // a cuSOLVER that does not take ALG_1 for Xgetrf refuses it in cusolverDnSetAdvOptions: noted, skipped
      try {
        la::solve(well({2, 300, 300}, float64, 60), random({2, 300, 1}, float64, 60));
      } catch (const CudaError& e) {
        std::printf("[ note ] CUPP_LINALG_GETRF_ALG=1 refused: %s\n", e.what());
        continue;
      }
    }
    check_lu_path(c.label);
  }
  // one matrix of 512 and more: the default path factors a column-major copy (no transpose flag);
  // its NaN and singular rules as the others'
  for (dtype t : kTypes) {
    const i64 n = 600;
    const ndarray a = well({n, n}, t, 97);
    const ndarray b = random({n, 2}, t, 98);
    EXPECT_LE(max_abs(matmul(a, la::solve(a, b)) - b), tol(t, n)) << t.name();
    const ndarray bv = random({n}, t, 99);
    EXPECT_LE(max_abs(matvec(a, la::solve(a, bv)) - bv), tol(t, n)) << t.name();
    ndarray w = a.copy();
    w(3, 5) = std::numeric_limits<double>::quiet_NaN();
    EXPECT_TRUE(all(isnan(la::solve(w, b))).item<bool>()) << t.name();
    ndarray z = a.copy();
    z(slice(), 7) = zeros({n}, t);
    expect_linalg_error([&] { la::solve(z, b); }, "Singular matrix");
  }
}

// colmajor_copy's tiled transpose kernel (a C-contiguous input of the work dtype) and its
// fallbacks (another dtype, a transposed view, a broadcast) give each matrix column-major, for
// every dtype and sizes off the 32 x 32 tiles; the NaN-scrubbing forms zero NaNs and set the flag.
TEST(LinalgSolversGpu, WorkCopies) {
  CUPP_REQUIRE_GPU();
  namespace ld = la::detail;
  for (dtype t : kTypes)
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{1, 1}, {3, 33, 65}, {70, 5}, {2, 2, 31, 32}}) {
      const ndarray a = random(s, t, 90);
      EXPECT_EQ(max_abs(ld::colmajor_view(ld::colmajor_copy(a, t)) - a), 0.0) << t.name();
      EXPECT_EQ(max_abs(ld::colmajor_view(ld::colmajor_copy(a.swapaxes(-1, -2), t)) - a.swapaxes(-1, -2)), 0.0) << t.name();
      const ndarray a64 = astype(a, t.is_complex() ? complex128 : float64);
      EXPECT_LE(max_abs(ld::colmajor_view(ld::colmajor_copy(a64, t)) - a), 1e-6) << t.name();
      ndarray with_nan = a.copy();
      with_nan.ravel()(0) = std::numeric_limits<double>::quiet_NaN();
      for (bool col : {false, true}) {
        const ndarray flag = ld::new_flag(a.device());
        const ndarray w = col ? ld::colmajor_copy_scrub(with_nan, t, flag) : ld::rowmajor_copy_scrub(with_nan, t, flag);
        const ndarray v = col ? ld::colmajor_view(w) : w;
        EXPECT_EQ(flag.to_vector<int>()[0], 1) << t.name() << " col=" << col;
        EXPECT_FALSE(any(isnan(v)).item<bool>()) << t.name() << " col=" << col;
        EXPECT_EQ(max_abs(v.ravel()(slice(1, std::nullopt)) - a.ravel()(slice(1, std::nullopt))), 0.0)
            << t.name() << " col=" << col;
        const ndarray clean = ld::new_flag(a.device());
        const ndarray w2 = col ? ld::colmajor_copy_scrub(a, t, clean) : ld::rowmajor_copy_scrub(a, t, clean);
        EXPECT_EQ(clean.to_vector<int>()[0], 0) << t.name() << " col=" << col;
        EXPECT_EQ(max_abs((col ? ld::colmajor_view(w2) : w2) - a), 0.0) << t.name() << " col=" << col;
      }
    }
  const ndarray row = random({1, 40}, float64, 91);
  const ndarray b = broadcast_to(row, {40, 40});
  EXPECT_EQ(max_abs(ld::colmajor_view(ld::colmajor_copy(b, float64)) - b), 0.0);
}

// Cholesky stacks on every path (potrfBatched up to 128, Xpotrf on side streams above; both
// triangles), a failing matrix in a stack, and a NaN one (no error, all NaN) beside good ones.
TEST(LinalgSolversGpu, CholeskyStacksAndFlags) {
  CUPP_REQUIRE_GPU();
  for (const char* mode : {"auto", "upper-fill"}) {
    const path_scope scope("CUPP_LINALG_CHOLESKY", mode);
    SCOPED_TRACE(mode);
    for (dtype t : kTypes)
      for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{4, 12, 12}, {3, 200, 200}}) {
        const i64 n = s.back();
        const ndarray a = hpd(s, t, 71);
        const ndarray L = la::cholesky(a), U = la::cholesky(a, {.upper = true});
        EXPECT_LE(max_abs(matmul(L, H(L)) - a), tol(t, n) * n) << t.name() << " n=" << n;
        EXPECT_LE(max_abs(matmul(H(U), U) - a), tol(t, n) * n) << t.name() << " n=" << n;
        EXPECT_EQ(max_abs(triu(L, 1)), 0.0);
        EXPECT_EQ(max_abs(tril(U, -1)), 0.0);
        // the triangle not read may hold anything
        const ndarray lower_only = tril(a) + triu(full(a.shape(), 7.0, t), 1);
        EXPECT_LE(max_abs(la::cholesky(lower_only) - L), tol(t, n) * n) << t.name();
        const ndarray upper_only = triu(a) + tril(full(a.shape(), 7.0, t), -1);
        EXPECT_LE(max_abs(la::cholesky(upper_only, {.upper = true}) - U), tol(t, n) * n) << t.name();
        auto cf = la::cho_factor(a, {.lower = true});
        EXPECT_LE(max_abs(tril(cf.c) - L), tol(t, n) * n) << t.name();
        auto cu = la::cho_factor(a);
        EXPECT_LE(max_abs(triu(cu.c) - U), tol(t, n) * n) << t.name();
      }
    for (i64 n : {12, 200}) {
      ndarray bad = hpd({3, n, n}, float64, 72);
      bad(1) = -eye_like(n, float64);
      expect_linalg_error([&] { la::cholesky(bad); }, "Matrix is not positive definite");
      expect_linalg_error([&] { la::cholesky(bad, {.upper = true}); }, "Matrix is not positive definite");
      try {
        la::cho_factor(bad);
        ADD_FAILURE() << "cho_factor: no LinAlgError";
      } catch (const LinAlgError& e) {
        EXPECT_NE(std::string(e.what()).find("1-th leading minor"), std::string::npos) << e.what();
      }
      ndarray with_nan = hpd({3, n, n}, float64, 73);
      with_nan(0, n - 1, 0) = std::numeric_limits<double>::quiet_NaN();  // lower triangle: read by cholesky(a)
      const ndarray Ln = la::cholesky(with_nan);
      EXPECT_TRUE(all(isnan(Ln(0)) | (triu(ones({n, n}), 1) != 0)).item<bool>()) << n;
      EXPECT_FALSE(any(isnan(Ln(slice(1, 3)))).item<bool>()) << n;
      // upper=True reads the other triangle: no NaN there, an ordinary factor
      const ndarray Un = la::cholesky(with_nan, {.upper = true});
      EXPECT_FALSE(any(isnan(Un)).item<bool>()) << n;
      EXPECT_NO_THROW(la::cho_factor(with_nan, {.lower = true}));
    }
  }
}

// Each loop method of the SVD (Xgesvd, Xgesvdp with its Xgesvd fallback) on tall and wide stacks,
// full and reduced, svd and svdvals, and on a rank-deficient stack; gesvdj on side streams is
// refused (turned off); one large matrix on the default path (Xgesvdp).
TEST(LinalgSolversGpu, SvdLoopMethods) {
  CUPP_REQUIRE_GPU();
  {
    // gesvdj per matrix is turned off (cuSOLVER 12.0 faulted): asking for it is a clear error
    const path_scope scope("CUPP_LINALG_SVD", "gesvdj");
    EXPECT_THROW(la::svd(random({2, 50, 40}, float64, 80)), ValueError);
  }
  for (const char* method : {"gesvd", "gesvdp"}) {
    const path_scope scope("CUPP_LINALG_SVD", method);
    for (dtype t : kTypes)
      for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{2, 50, 40}, {2, 40, 50}, {45, 45}})
        for (bool full : {true, false}) {
          const i64 m = s[s.size() - 2], n = s.back(), k = std::min(m, n);
          const ndarray a = random(s, t, 81);
          auto [U, S, Vh] = la::svd(a, {.full_matrices = full});
          EXPECT_EQ(U.shape(-1), full ? m : k);
          EXPECT_EQ(Vh.shape(-2), full ? n : k);
          const ndarray Uk = U(ellipsis, slice(), slice(0, k)), Vk = Vh(ellipsis, slice(0, k), slice());
          EXPECT_LE(max_abs(matmul(Uk * astype(S, t).expand_dims(-2), Vk) - a), tol(t, m + n) * 10)
              << method << " " << t.name() << " " << m << "x" << n << " full=" << full;
          EXPECT_LE(max_abs(matmul(H(U), U) - eye_like(U.shape(-1), t)), tol(t, m + n) * 10) << method << t.name();
          EXPECT_LE(max_abs(matmul(Vh, H(Vh)) - eye_like(Vh.shape(-2), t)), tol(t, m + n) * 10) << method << t.name();
          EXPECT_LE(max_abs(la::svdvals(a) - S), tol(t, m + n) * 10) << method << t.name();
        }
    ndarray rd = zeros({2, 60, 50});
    rd(1) = matmul(random({60, 3}, float64, 82), random({3, 50}, float64, 83));
    auto [U, S, Vh] = la::svd(rd, {.full_matrices = false});
    EXPECT_LE(max_abs(matmul(U * S.expand_dims(-2), Vh) - rd), 1e-11) << method;
    EXPECT_LE(max_abs(matmul(H(U), U) - eye_like(50, float64)), 1e-10) << method;
    EXPECT_LE(max_abs(la::svdvals(rd) - S), 1e-11) << method;
    EXPECT_EQ(la::matrix_rank(rd).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3})) << method;
    expect_linalg_error([] { la::svd(full({2, 50, 40}, std::numeric_limits<double>::quiet_NaN())); },
                        "SVD did not converge");
  }
  // One matrix of 256 and more takes Xgesvdp by default (auto): svd and svdvals (factor buffers
  // given though no vectors are asked for), tall and wide, against Xgesvd's singular values.
  for (dtype t : {dtype(float64), dtype(complex64)})
    for (const std::vector<i64>& s : std::vector<std::vector<i64>>{{300, 260}, {260, 300}}) {
      const i64 m = s[0], n = s[1], k = std::min(m, n);
      const ndarray a = random(s, t, 84);
      ndarray ref;
      {
        const path_scope scope("CUPP_LINALG_SVD", "gesvd");
        ref = la::svdvals(a);
      }
      const double scale = max_abs(ref);
      EXPECT_LE(max_abs(la::svdvals(a) - ref), tol(t, m + n) * scale) << t.name() << " " << m << "x" << n;
      auto [U, S, Vh] = la::svd(a, {.full_matrices = false});
      EXPECT_LE(max_abs(S - ref), tol(t, m + n) * scale) << t.name();
      EXPECT_LE(max_abs(matmul(U * astype(S, t).expand_dims(-2), Vh) - a), tol(t, m + n) * 10 * scale) << t.name();
      EXPECT_LE(max_abs(matmul(H(U), U) - eye_like(k, t)), tol(t, m + n) * 10) << t.name();
    }
}

}  // namespace
}  // namespace cupp
