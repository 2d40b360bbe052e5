// eigsh and svds of cupp::sparse::linalg: thick-restart Lanczos (the symmetric Krylov-Schur
// method, equivalent to ARPACK's implicitly restarted Lanczos) with full reorthogonalisation
// on the device (each step subtracts Lanczos' three terms, then one classical Gram-Schmidt pass,
// two gemv; a cycle's first step, coupled to every kept vector, does two passes); the projected
// matrix is at most ncv x ncv and is diagonalised on the host by cyclic Jacobi, which is exact to
// rounding and cheaper than a device call at that size. One host read per restart cycle (the
// cycle's alpha and beta, kept on the device while its steps run).
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;
using cd = std::complex<double>;
using matrix = std::vector<std::vector<double>>;

// Cyclic Jacobi for a symmetric matrix: a becomes diagonal; vectors' columns are the eigenvectors.
void jacobi(matrix& a, matrix& vectors) {
  const std::size_t n = a.size();
  vectors.assign(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i) vectors[i][i] = 1;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0, total = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) (i == j ? total : off) += a[i][j] * a[i][j];
    if (off <= 1e-32 * (total + off) || off == 0) break;
    for (std::size_t p = 0; p + 1 < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q) {
        if (a[p][q] == 0) continue;
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::size_t k = 0; k < n; ++k) {
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double vkp = vectors[k][p], vkq = vectors[k][q];
          vectors[k][p] = c * vkp - s * vkq;
          vectors[k][q] = s * vkp + c * vkq;
        }
      }
  }
}

// Indices of theta ordered from the most to the least wanted.
std::vector<std::size_t> by_preference(const std::vector<double>& theta, const std::string& which, i64 k) {
  std::vector<std::size_t> idx(theta.size());
  std::iota(idx.begin(), idx.end(), 0);
  auto key = [&](std::size_t i) {
    if (which == "LM") return -std::fabs(theta[i]);
    if (which == "SM") return std::fabs(theta[i]);
    if (which == "LA") return -theta[i];
    return theta[i];  // SA
  };
  if (which == "BE") {
    // alternate from the top and the bottom of the spectrum, one more from the top for odd k
    std::vector<std::size_t> asc = idx;
    std::sort(asc.begin(), asc.end(), [&](std::size_t a, std::size_t b) { return theta[a] < theta[b]; });
    std::vector<std::size_t> out;
    std::size_t lo = 0, hi = asc.size();
    bool top = (k % 2) == 1;
    while (lo < hi) {
      if (top) out.push_back(asc[--hi]);
      else out.push_back(asc[lo++]);
      top = !top;
    }
    return out;
  }
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  return idx;
}

ndarray to_type(const std::vector<double>& v, std::vector<i64> shape, cupp::dtype type) {
  return cupp::astype(cupp::asarray(v).reshape(shape), type);
}

// A deterministic start vector (SciPy's ARPACK draws a random one): uniform in [-1, 1).
ndarray start_vector(i64 n, cupp::dtype type, std::uint64_t seed) {
  std::vector<double> v(n);
  std::uint64_t s = seed * 6364136223846793005ULL + 1442695040888963407ULL;
  for (auto& e : v) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    e = static_cast<double>(s >> 11) / 9007199254740992.0 * 2 - 1;
  }
  return to_type(v, {n}, type);
}

struct lanczos_result {
  std::vector<double> w;  // ascending
  ndarray v;              // (n, k) or null
};

lanczos_result lanczos(const LinearOperator& A, const eigsh_options& o, const char* name) {
  const shape2 s = A.shape();
  if (s[0] != s[1])
    throw ValueError("expected square matrix (shape=(" + std::to_string(s[0]) + ", " + std::to_string(s[1]) + "))");
  const i64 n = s[0], k = o.k;
  if (k <= 0) throw ValueError("k must be greater than 0.");
  const std::string& which = o.which;
  if (which != "LM" && which != "SM" && which != "LA" && which != "SA" && which != "BE")
    throw ValueError("which must be one of LM SM LA SA BE");
  const cupp::dtype type = detail::solver_type(A.dtype(), float32);
  const bool cplx = detail::is_complex(type);
  const double eps = detail::eps_of(type);
  const double tol = o.tol > 0 ? o.tol : eps;
  if (k >= n) {
    // SciPy falls back to a dense eigh: so does cupp, on the host (small n)
    if (n > 4096) throw ValueError(std::string(name) + ": k >= N needs a dense solve; N is too large");
    const ndarray dense = A.matmat(cupp::eye(n, std::nullopt, 0, type));
    std::vector<cd> vals = cupp::astype(dense, complex128).to_vector<cd>();
    matrix a(n, std::vector<double>(n)), vec;
    for (i64 i = 0; i < n; ++i)
      for (i64 j = 0; j < n; ++j) a[i][j] = vals[i * n + j].real();
    jacobi(a, vec);
    std::vector<std::size_t> idx(n);
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](std::size_t x, std::size_t y) { return a[x][x] < a[y][y]; });
    lanczos_result r;
    std::vector<double> flat;
    for (i64 i = 0; i < n; ++i)
      for (std::size_t j : idx) flat.push_back(vec[i][j]);
    for (std::size_t j : idx) r.w.push_back(a[j][j]);
    if (o.return_eigenvectors) r.v = to_type(flat, {n, n}, type);
    return r;
  }
  const i64 ncv = o.ncv.value_or(std::min(n, std::max<i64>(2 * k + 1, 20)));
  if (ncv > n || ncv <= k) throw ValueError("ncv must be k<ncv<=n, ncv=" + std::to_string(ncv));
  const i64 maxiter = o.maxiter.value_or(n * 10);
  if (maxiter <= 0) throw ValueError("maxiter must be positive, maxiter=" + std::to_string(maxiter));

  ndarray V = cupp::zeros({ncv + 1, n}, type);
  ndarray v0 = o.v0.is_null() ? start_vector(n, type, 1) : cupp::astype(o.v0.reshape({n}), type);
  if (!o.v0.is_null() && o.v0.size() != n) throw ValueError("v0 must have length N");
  V(0).assign(v0 * (1.0 / std::sqrt(detail::nrm2sq(v0).item<double>())));
  matrix T(ncv, std::vector<double>(ncv, 0.0));
  double beta_last = 0;
  i64 j0 = 0;
  std::vector<double> theta;
  matrix S;
  std::vector<std::size_t> order;
  std::uint64_t reseed = 2;
  bool done = false, verifying = false;
  int verifications = 0;
  std::vector<double> locked;
  const ndarray ab = cupp::zeros({2 * ncv}, float64);  // the cycle's alpha_j (at j) and beta_j (at ncv + j)
  for (i64 cycle = 0; cycle < maxiter && !done; ++cycle) {
    // The cycle's Lanczos steps run without a host read: alpha_j and beta_j stay in `ab` on the
    // device (alpha at j, beta at ncv + j) and v_j+1 = w / beta_j is formed there; the host reads
    // them once at the end of the cycle. A beta at rounding level (an invariant subspace) found
    // then leaves the basis past it meaningless: the steps after it run again from a fresh
    // vector orthogonal to the basis, as the step-by-step loop did.
    i64 jstart = j0;
    while (jstart < ncv) {
      for (i64 j = jstart; j < ncv; ++j) {
        ndarray w = detail::as_type(A.matvec(V(j)), type);
        const ndarray Vj = V(cupp::slice(0, j + 1));
        auto project = [&](const ndarray& x) {
          return cplx ? cupp::conjugate(cupp::matmul(Vj, cupp::conjugate(x))) : cupp::matmul(Vj, x);
        };
        ndarray h, alpha;
        if (j > j0) {
          // Lanczos' three terms first, alpha from its own dot product (w -= alpha v_j + beta v_j-1),
          // then one classical Gram-Schmidt pass over the basis: the pass removes only rounding-level
          // components, so one is enough (a CPU model keeps orthogonality at eps, where one pass over
          // the raw A v_j loses a factor ~3 per step), at half the gemv traffic of two passes.
          alpha = detail::dotc(V(j), w);
          w = detail::solver_kernel("lanczos_local", cplx, "T w0, T v, T u, raw T alpha, raw float64 ab, int64 k", "T w",
                                    "w = w0 - alpha[0] * v - T(ab[k]) * u;")
                  .call({w, V(j), V(j - 1), alpha, ab, ncv + j - 1})[0];
          h = project(w);
          w = w - cupp::matmul(h, Vj);
        } else {
          // the first step of a cycle couples to every kept vector: Gram-Schmidt twice
          h = project(w);
          w = w - cupp::matmul(h, Vj);
          const ndarray h2 = project(w);
          w = w - cupp::matmul(h2, Vj);
          h = h + h2;
          alpha = cupp::zeros({}, type);
        }
        // alpha_j = its dot product + the pass's correction; beta_j = ||w||; v_j+1 = w / beta_j
        detail::solver_kernel("lanczos_ab", cplx, "raw A alpha, raw A h, raw R nw, int64 j, int64 ncv", "raw float64 ab",
                              "ab[j] = (double)REAL(alpha[0]) + (double)REAL(h[j]); ab[ncv + j] = sqrt((double)nw[0]);")
            .call({alpha, h, detail::nrm2sq(w), j, ncv, ab}, 1);
        detail::solver_kernel("lanczos_next", false, "T w, raw float64 ab, int64 k", "T v", "v = w / T(ab[k]);")
            .call({w, ab, ncv + j, V(j + 1)});
      }
      const std::vector<double> abh = ab.to_vector<double>();
      i64 restart_at = ncv;
      for (i64 j = jstart; j < ncv; ++j) {
        T[j][j] = abh[j];
        double beta = abh[ncv + j];
        double anorm = 0;
        for (i64 i = 0; i <= j; ++i) anorm = std::max(anorm, std::fabs(T[i][i]));
        if (beta <= eps * std::max(anorm, 1.0) * 10) {
          // an invariant subspace: continue from a fresh vector orthogonal to the basis
          beta = 0;
          ab(ncv + j).fill(0);
          if (j + 1 < n) {
            const ndarray Vj = V(cupp::slice(0, j + 1));
            auto project = [&](const ndarray& x) {
              return cplx ? cupp::conjugate(cupp::matmul(Vj, cupp::conjugate(x))) : cupp::matmul(Vj, x);
            };
            ndarray r = start_vector(n, type, reseed++);
            for (int pass = 0; pass < 2; ++pass) r = r - cupp::matmul(project(r), Vj);
            V(j + 1).assign(r * (1.0 / std::sqrt(detail::nrm2sq(r).item<double>())));
          } else {
            V(j + 1).fill(0);
          }
          restart_at = j + 1;
        }
        if (j + 1 < ncv) T[j][j + 1] = T[j + 1][j] = beta;
        beta_last = beta;
        if (restart_at < ncv) break;
      }
      jstart = restart_at;
    }
    matrix a = T;
    jacobi(a, S);
    theta.assign(ncv, 0);
    for (i64 i = 0; i < ncv; ++i) theta[i] = a[i][i];
    order = by_preference(theta, which, k);
    i64 nconv = 0;
    for (i64 i = 0; i < k; ++i) {
      const std::size_t c = order[i];
      const double res = std::fabs(beta_last * S[ncv - 1][c]);
      if (res <= tol * std::max(std::pow(eps, 2.0 / 3.0), std::fabs(theta[c]))) ++nconv;
    }
    if (nconv >= k) {
      // A Krylov space holds one vector of each eigenspace: a second copy of a multiple eigenvalue
      // enters only through rounding. So a converged set is checked by one more cycle that keeps
      // the k converged Ritz vectors and continues from a fresh random vector orthogonal to them:
      // accepted when no more wanted value appears, else checked again (at most 8 times).
      std::vector<double> now(k);
      for (i64 i = 0; i < k; ++i) now[i] = theta[order[i]];
      bool same = verifying;
      for (i64 i = 0; same && i < k; ++i)
        same = std::fabs(now[i] - locked[i]) <= 1e-10 * std::max(1.0, std::fabs(locked[i]));
      if (same || verifications >= 8 || cycle + 1 == maxiter) {
        done = true;
        break;
      }
      ++verifications;
      verifying = true;
      locked = now;
      std::vector<double> Y(k * ncv);
      for (i64 i = 0; i < k; ++i)
        for (i64 r = 0; r < ncv; ++r) Y[i * ncv + r] = S[r][order[i]];
      const ndarray kept = cupp::matmul(to_type(Y, {k, ncv}, type), V(cupp::slice(0, ncv)));
      V(cupp::slice(0, k)).assign(kept);
      const ndarray Vk = V(cupp::slice(0, k));
      ndarray r = start_vector(n, type, reseed++);
      for (int pass = 0; pass < 2; ++pass) {
        const ndarray c = cplx ? cupp::conjugate(cupp::matmul(Vk, cupp::conjugate(r))) : cupp::matmul(Vk, r);
        r = r - cupp::matmul(c, Vk);
      }
      V(k).assign(r * (1.0 / std::sqrt(detail::nrm2sq(r).item<double>())));
      for (auto& row : T) std::fill(row.begin(), row.end(), 0.0);
      for (i64 i = 0; i < k; ++i) T[i][i] = theta[order[i]];  // the couplings come from the next projections
      j0 = k;
      continue;
    }
    verifying = false;
    if (cycle + 1 == maxiter) break;
    // thick restart: keep the p most wanted Ritz vectors and the residual direction
    const i64 p = std::min(ncv - 1, k + std::max<i64>((ncv - k) / 2, nconv));
    std::vector<double> Y(p * ncv);
    for (i64 i = 0; i < p; ++i)
      for (i64 r = 0; r < ncv; ++r) Y[i * ncv + r] = S[r][order[i]];
    const ndarray kept = cupp::matmul(to_type(Y, {p, ncv}, type), V(cupp::slice(0, ncv)));
    const ndarray resid = V(ncv).copy();
    V(cupp::slice(0, p)).assign(kept);
    V(p).assign(resid);
    for (auto& row : T) std::fill(row.begin(), row.end(), 0.0);
    for (i64 i = 0; i < p; ++i) {
      T[i][i] = theta[order[i]];
      T[i][p] = T[p][i] = beta_last * S[ncv - 1][order[i]];
    }
    j0 = p;
  }
  if (!done) {
    throw LinAlgError("ARPACK error -1: No convergence (" + std::to_string(maxiter) +
                      " iterations, fewer than " + std::to_string(k) + "/" + std::to_string(k) +
                      " eigenvectors converged)");
  }
  std::vector<std::size_t> chosen(order.begin(), order.begin() + k);
  std::sort(chosen.begin(), chosen.end(), [&](std::size_t a, std::size_t b) { return theta[a] < theta[b]; });
  lanczos_result r;
  for (std::size_t c : chosen) r.w.push_back(theta[c]);
  if (o.return_eigenvectors) {
    std::vector<double> Y(k * ncv);
    for (i64 i = 0; i < k; ++i)
      for (i64 row = 0; row < ncv; ++row) Y[i * ncv + row] = S[row][chosen[i]];
    r.v = cupp::ascontiguousarray(cupp::matmul(to_type(Y, {k, ncv}, type), V(cupp::slice(0, ncv))).T());
  }
  return r;
}

}  // namespace

eigsh_result eigsh(const LinearOperator& A, const eigsh_options& o) {
  lanczos_result r = lanczos(A, o, "eigsh");
  const cupp::dtype rt = detail::real_of(detail::solver_type(A.dtype(), float32));
  return {to_type(r.w, {static_cast<i64>(r.w.size())}, rt), r.v};
}

svds_result svds(const LinearOperator& A, const svds_options& o) {
  const shape2 s = A.shape();
  const i64 m = s[0], n = s[1];
  if (o.k <= 0 || o.k >= std::min(m, n))
    throw ValueError("`k` must be an integer satisfying `0 < k < min(A.shape)`.");
  if (o.which != "LM" && o.which != "SM") throw ValueError("`which` must be either 'LM' or 'SM'.");
  if (!A.has_rmatvec()) throw TypeError("svds: A must provide rmatvec");
  const bool tall = m >= n;
  const LinearOperator G = tall ? A.adjoint().dot(A) : A.dot(A.adjoint());
  eigsh_options eo{.k = o.k, .which = o.which == "LM" ? "LA" : "SA", .v0 = o.v0, .ncv = o.ncv,
                   .maxiter = o.maxiter, .tol = o.tol > 0 ? o.tol * o.tol : 0.0,
                   .return_eigenvectors = true};
  if (o.which == "LM") eo.which = "LM";
  else eo.which = "SM";
  lanczos_result r = lanczos(G, eo, "svds");
  const cupp::dtype type = detail::solver_type(A.dtype(), float32), rt = detail::real_of(type);
  std::vector<double> sv;
  for (double w : r.w) sv.push_back(std::sqrt(std::max(w, 0.0)));
  // ascending singular values: eigenvalues of the Gram matrix are already ascending
  svds_result out;
  out.s = to_type(sv, {static_cast<i64>(sv.size())}, rt);
  if (o.return_singular_vectors) {
    const ndarray vecs = r.v;  // (small side, k)
    const ndarray other = tall ? A.matmat(vecs) : A.adjoint().matmat(vecs);
    const ndarray scaled = other / out.s;  // columns scaled by 1 / s
    const ndarray u = tall ? scaled : vecs;
    const ndarray v = tall ? vecs : scaled;
    out.u = cupp::ascontiguousarray(u);
    out.vh = cupp::ascontiguousarray(detail::is_complex(type) ? cupp::conjugate(v.T()) : v.T());
  }
  return out;
}

}  // namespace cupp::sparse::linalg
