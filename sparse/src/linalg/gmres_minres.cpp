// gmres and minres of cupp::sparse::linalg: SciPy 1.18's algorithms with the vectors on the device
// and the small recurrences (Givens rotations and the Hessenberg solve; minres's rotations and
// stopping tests) on the host, which reads one short record per inner iteration.
#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
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

using cd = std::complex<double>;
using i64 = std::int64_t;
using detail::nrm2sq;

const auto norm_of = detail::norm_host;

// The values of a small device array as complex<double>, one read.
std::vector<cd> host_values(const ndarray& a) {
  const ndarray c = cupp::astype(a, complex128, casting::unsafe, false);
  return c.to_vector<cd>();
}

using detail::lartg;
using detail::upload;

}  // namespace

solve_result gmres(const LinearOperator& A, const ndarray& b0, const gmres_options& o) {
  std::string callback_type = o.callback_type;
  if (callback_type != "x" && callback_type != "pr_norm" && callback_type != "legacy")
    throw ValueError("Unknown callback_type: '" + callback_type + "'");
  if (!o.callback_x && !o.callback_pr) callback_type.clear();  // SciPy: no callback, no legacy counting
  detail::system sys = detail::make_system("gmres", A, b0, o.x0, o.M ? &*o.M : nullptr);
  const i64 n = sys.n;
  const ndarray b = sys.b;
  ndarray x = sys.x;
  auto psolve = [&](const ndarray& v) { return o.M ? o.M->matvec(v) : v; };
  const double bnrm2 = norm_of(b);
  const double atol = detail::get_atol("gmres", bnrm2, o.atol, o.rtol);
  if (bnrm2 == 0) return {b, 0};
  const double eps = detail::eps_of(sys.type);
  const bool cplx = detail::is_complex(sys.type);
  const i64 maxiter = o.maxiter.value_or(n * 10);
  const i64 restart = std::min<i64>(o.restart.value_or(20), n);
  if (restart < 1) throw ValueError("gmres: restart must be >= 1");
  const double Mb_nrm2 = norm_of(psolve(b));
  double ptol_max_factor = 1.0;
  double ptol = Mb_nrm2 * std::min(ptol_max_factor, atol / bnrm2);
  double presid = 0, rnorm = 0;
  ndarray V = cupp::empty({restart + 1, n}, sys.type);
  std::vector<std::vector<cd>> h(restart, std::vector<cd>(restart + 1));
  std::vector<double> gc(restart);
  std::vector<cd> gs(restart);
  i64 inner_iter = 0;
  ndarray r;
  for (i64 iteration = 0; iteration < maxiter; ++iteration) {
    if (iteration == 0) {
      r = sys.x0_given ? b - A.matvec(x) : b.copy();
      if (norm_of(r) < atol) return {x, 0};
    }
    const ndarray v0 = psolve(r);
    const double tmp0 = norm_of(v0);
    V(0).assign(v0 * (1.0 / tmp0));
    std::vector<cd> S(restart + 1, cd(0));
    S[0] = tmp0;
    bool breakdown = false;
    i64 col = 0;
    for (col = 0; col < restart; ++col) {
      ndarray w = psolve(A.matvec(V(col)));
      const ndarray Vk = V(cupp::slice(0, col + 1));
      const ndarray h0 = nrm2sq(w);
      // classical Gram-Schmidt, twice: hk = vdot(v_k, w) = conj(V conj(w)) (V @ w for real data)
      auto project = [&](const ndarray& wv) {
        return cplx ? cupp::conjugate(cupp::matmul(Vk, cupp::conjugate(wv))) : cupp::matmul(Vk, wv);
      };
      ndarray hc = project(w);
      w = w - cupp::matmul(hc, Vk);
      const ndarray h2 = project(w);
      w = w - cupp::matmul(h2, Vk);
      hc = hc + h2;
      const ndarray h1sq = nrm2sq(w);
      const ndarray rec = cupp::concatenate({cupp::astype(hc, complex128), cupp::astype(h0.reshape({1}), complex128),
                                             cupp::astype(h1sq.reshape({1}), complex128)});
      const std::vector<cd> vals = host_values(rec);  // the one read of this inner iteration
      for (i64 k = 0; k <= col; ++k) h[col][k] = vals[k];
      const double hn0 = std::sqrt(vals[col + 1].real()), h1 = std::sqrt(vals[col + 2].real());
      h[col][col + 1] = h1;
      if (h1 <= eps * hn0) {
        h[col][col + 1] = 0;
        breakdown = true;
        V(col + 1).assign(w);
      } else {
        V(col + 1).assign(w * (1.0 / h1));
      }
      for (i64 k = 0; k < col; ++k) {
        const double c = gc[k];
        const cd s = gs[k], n0 = h[col][k], n1 = h[col][k + 1];
        h[col][k] = c * n0 + s * n1;
        h[col][k + 1] = -std::conj(s) * n0 + c * n1;
      }
      double c;
      cd s, mag;
      lartg(h[col][col], h[col][col + 1], c, s, mag);
      gc[col] = c, gs[col] = s;
      h[col][col] = mag, h[col][col + 1] = 0;
      const cd t = -std::conj(s) * S[col];
      S[col] = c * S[col];
      S[col + 1] = t;
      presid = std::abs(t);
      ++inner_iter;
      if ((callback_type == "legacy" || callback_type == "pr_norm") && o.callback_pr) o.callback_pr(presid / bnrm2);
      if (callback_type == "legacy" && inner_iter == maxiter) break;
      if (presid <= ptol || breakdown) break;
    }
    if (col == restart) col = restart - 1;
    if (h[col][col] == cd(0)) S[col] = 0;
    std::vector<cd> y(S.begin(), S.begin() + col + 1);
    for (i64 k = col; k > 0; --k) {
      if (y[k] != cd(0)) {
        y[k] /= h[k][k];
        const cd t = y[k];
        for (i64 j = 0; j < k; ++j) y[j] -= t * h[k][j];
      }
    }
    if (y[0] != cd(0)) y[0] /= h[0][0];
    x = x + cupp::matmul(upload(y, sys.type), V(cupp::slice(0, col + 1)));
    r = b - A.matvec(x);
    rnorm = norm_of(r);
    if (callback_type == "legacy" && inner_iter == maxiter) return {x, rnorm <= atol ? 0 : static_cast<int>(maxiter)};
    if (callback_type == "x" && o.callback_x) o.callback_x(x);
    if (rnorm <= atol) break;
    if (breakdown) break;
    if (presid <= ptol) ptol_max_factor = std::max(eps, 0.25 * ptol_max_factor);
    else ptol_max_factor = std::min(1.0, 1.5 * ptol_max_factor);
    ptol = presid * std::min(ptol_max_factor, atol / rnorm);
  }
  return {x, rnorm <= atol ? 0 : static_cast<int>(maxiter)};
}

solve_result minres(const LinearOperator& A, const ndarray& b0, const minres_options& o) {
  detail::system sys = detail::make_system("minres", A, b0, o.x0, o.M ? &*o.M : nullptr);
  const i64 n = sys.n;
  const ndarray b = sys.b;
  ndarray x = sys.x;
  auto psolve = [&](const ndarray& v) { return o.M ? o.M->matvec(v) : v; };
  const i64 maxiter = o.maxiter.value_or(5 * n);
  const double eps = detail::eps_of(sys.type), tol = o.rtol;
  auto real_dot = [](const ndarray& a, const ndarray& c) { return cupp::real(detail::dotc(a, c)); };
  ndarray r1 = sys.x0_given ? b - A.matvec(x) : b.copy();
  ndarray y = psolve(r1);
  double beta1 = cupp::astype(real_dot(r1, y), float64).item<double>();
  if (beta1 < 0) throw ValueError("indefinite preconditioner");
  if (beta1 == 0) return {x, 0};
  const double bnorm = norm_of(b);
  if (bnorm == 0) return {b, 0};
  beta1 = std::sqrt(beta1);
  double oldb = 0, beta = beta1, dbar = 0, epsln = 0, phibar = beta1, rhs1 = beta1, rhs2 = 0, tnorm2 = 0, gmax = 0;
  double gmin = std::numeric_limits<double>::max(), cs = -1, sn = 0;
  ndarray w = cupp::zeros({n}, sys.type), w2 = cupp::zeros({n}, sys.type);
  ndarray r2 = r1;
  int istop = 0;
  i64 itn = 0;
  while (itn < maxiter) {
    ++itn;
    const double s = 1.0 / beta;
    const ndarray v = y * s;
    y = A.matvec(v);
    if (o.shift != 0) y = y - v * o.shift;
    if (itn >= 2) y = y - r1 * (beta / oldb);
    const ndarray alfa_d = real_dot(v, y);
    y = y - r2 * (cupp::astype(alfa_d, detail::real_of(sys.type)) / beta);
    r1 = r2;
    r2 = y;
    y = psolve(r2);
    oldb = beta;
    const ndarray rec = cupp::concatenate({cupp::astype(alfa_d.reshape({1}), float64),
                                           cupp::astype(real_dot(r2, y).reshape({1}), float64)});
    const std::vector<double> ab = rec.to_vector<double>();  // alfa and beta^2: one read
    const double alfa = ab[0];
    beta = ab[1];
    if (beta < 0) throw ValueError("non-symmetric matrix");
    beta = std::sqrt(beta);
    tnorm2 += alfa * alfa + oldb * oldb + beta * beta;
    if (itn == 1 && beta / beta1 <= 10 * eps) istop = -1;
    const double oldeps = epsln;
    const double delta = cs * dbar + sn * alfa;
    const double gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    const double root = std::hypot(gbar, dbar);
    double gamma = std::max(std::hypot(gbar, beta), eps);
    cs = gbar / gamma;
    sn = beta / gamma;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    const double denom = 1.0 / gamma;
    const ndarray w1 = w2;
    w2 = w;
    w = (v - w1 * oldeps - w2 * delta) * denom;
    x = x + w * phi;
    gmax = std::max(gmax, gamma);
    gmin = std::min(gmin, gamma);
    const double z = rhs1 / gamma;
    rhs1 = rhs2 - delta * z;
    rhs2 = -epsln * z;
    const double Anorm = std::sqrt(tnorm2);
    const double ynorm = norm_of(x);
    const double epsx = Anorm * ynorm * eps;
    const double rnorm = phibar;
    const double test1 = (ynorm == 0 || Anorm == 0) ? INFINITY : rnorm / (Anorm * ynorm);
    const double test2 = Anorm == 0 ? INFINITY : root / Anorm;
    const double Acond = gmax / gmin;
    if (istop == 0) {
      if (1 + test2 <= 1) istop = 2;
      if (1 + test1 <= 1) istop = 1;
      if (itn >= maxiter) istop = 6;
      if (Acond >= 0.1 / eps) istop = 4;
      if (epsx >= beta1) istop = 3;
      if (test2 <= tol) istop = 2;
      if (test1 <= tol) istop = 1;
    }
    if (o.callback) o.callback(x);
    if (istop != 0) break;
  }
  return {x, istop == 6 ? static_cast<int>(maxiter) : 0};
}

}  // namespace cupp::sparse::linalg
