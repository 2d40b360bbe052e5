// qmr and tfqmr of cupp::sparse::linalg: SciPy 1.18's recurrences (same scalars, tests and info
// codes) with the vectors on the device and the scalars on the host. The reads are batched:
// qmr reads the new norms and inner product of y and z together, then epsilon with ||r|| (the
// convergence test at the top of SciPy's loop is decided there, before x changes); tfqmr reads
// ||w|| each step, with <r*, w> on odd steps, and <r*, v> once per odd step (3 reads per 2 steps).
#include <cmath>
#include <complex>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using cd = std::complex<double>;
using i64 = std::int64_t;
using detail::dotc;
using detail::nrm2sq;
using detail::read_values;

void check_shape(const std::optional<LinearOperator>& M, i64 n, const char* name, const char* which) {
  if (M && (M->shape()[0] != n || M->shape()[1] != n))
    throw ValueError(std::string(name) + ": " + which + " has shape (" + std::to_string(M->shape()[0]) + ", " +
                     std::to_string(M->shape()[1]) + "), the matrix (" + std::to_string(n) + ", " +
                     std::to_string(n) + ")");
}

}  // namespace

solve_result qmr(const LinearOperator& A, const ndarray& b0, const qmr_options& o) {
  if (A.shape()[0] == A.shape()[1]) {
    check_shape(o.M1, A.shape()[0], "qmr", "M1");
    check_shape(o.M2, A.shape()[0], "qmr", "M2");
  }
  detail::system sys = detail::make_system("qmr", A, b0, o.x0);
  const i64 n = sys.n;
  if (o.maxiter && *o.maxiter < 0) throw ValueError("qmr: maxiter must be >= 0");
  const cupp::dtype T = sys.type;
  const ndarray b = sys.b;
  ndarray x = sys.x;
  const double bnrm2 = detail::norm_host(b);
  const double atol = detail::get_atol("qmr", bnrm2, o.atol, o.rtol);
  if (bnrm2 == 0) return {b, 0};
  if (!A.has_rmatvec()) throw TypeError("qmr: A must provide rmatvec (A^H x)");
  auto as_t = [&](const ndarray& v) { return detail::as_type(v, T); };
  auto m1 = [&](const ndarray& v) { return o.M1 ? as_t(o.M1->matvec(v)) : v; };
  auto m1h = [&](const ndarray& v) { return o.M1 ? as_t(o.M1->rmatvec(v)) : v; };
  auto m2 = [&](const ndarray& v) { return o.M2 ? as_t(o.M2->matvec(v)) : v; };
  auto m2h = [&](const ndarray& v) { return o.M2 ? as_t(o.M2->rmatvec(v)) : v; };
  auto s = [&](cd v) { return detail::scalar_for(v, T); };
  const i64 maxiter = o.maxiter.value_or(n * 10);
  const double tol = detail::eps_of(T);  // SciPy: every breakdown tolerance is eps
  ndarray r = sys.x0_given ? b - as_t(A.matvec(x)) : b.copy();
  ndarray vtilde = r.copy(), wtilde = r.copy();
  ndarray y = m1(vtilde), z = m2h(wtilde);
  // rho = ||y||, xi = ||z||, zy = vdot(z, y): read together (delta = zy / (xi rho) after scaling)
  std::vector<cd> rd = read_values({nrm2sq(y), nrm2sq(z), dotc(z, y)});
  double rho = std::sqrt(rd[0].real()), xi = std::sqrt(rd[1].real());
  cd zy = rd[2];
  double gamma = 1, theta = 0;
  cd eta = -1, epsilon = 0;
  ndarray p, q, d, sv;
  for (i64 it = 0; it < maxiter; ++it) {
    const bool breaks = std::abs(rho) < tol || std::abs(xi) < tol;
    const cd delta = breaks ? cd(0) : zy / (xi * rho);
    if (breaks || std::abs(delta) < tol) {
      // SciPy tests ||r|| < atol first: one more read decides
      if (detail::norm_host(r) < atol) return {x, 0};
      if (std::abs(rho) < tol) return {x, -10};
      if (std::abs(xi) < tol) return {x, -15};
      return {x, -13};
    }
    const ndarray v = vtilde * (1.0 / rho);
    y = y * (1.0 / rho);
    const ndarray w = wtilde * (1.0 / xi);
    z = z * (1.0 / xi);
    ndarray ytilde = m2(y), ztilde = m1h(z);
    if (it > 0) {
      p = ytilde - p * s(xi * delta / epsilon);
      q = ztilde - q * s(rho * std::conj(delta / epsilon));
    } else {
      p = ytilde;
      q = ztilde;
    }
    const ndarray ptilde = as_t(A.matvec(p));
    rd = read_values({nrm2sq(r), dotc(q, ptilde)});
    if (std::sqrt(rd[0].real()) < atol) return {x, 0};  // SciPy's test at the top of this iteration
    epsilon = rd[1];
    if (std::abs(epsilon) < tol) return {x, -14};
    const cd beta = epsilon / delta;
    if (std::abs(beta) < tol) return {x, -11};
    vtilde = ptilde - v * s(beta);
    y = m1(vtilde);
    wtilde = as_t(A.rmatvec(q)) - w * s(std::conj(beta));
    z = m2h(wtilde);
    rd = read_values({nrm2sq(y), nrm2sq(z), dotc(z, y)});
    const double rho_prev = rho;
    rho = std::sqrt(rd[0].real());
    xi = std::sqrt(rd[1].real());
    zy = rd[2];
    const double gamma_prev = gamma, theta_prev = theta;
    theta = rho / (gamma_prev * std::abs(beta));
    gamma = 1 / std::sqrt(1 + theta * theta);
    if (std::abs(gamma) < tol) return {x, -12};
    eta *= -(rho_prev / beta) * std::pow(gamma / gamma_prev, 2);
    if (it > 0) {
      const double f = std::pow(theta_prev * gamma, 2);
      d = d * f + p * s(eta);
      sv = sv * f + ptilde * s(eta);
    } else {
      d = p * s(eta);
      sv = ptilde * s(eta);
    }
    x += d;
    r -= sv;
    if (o.callback) o.callback(x);
  }
  return {x, static_cast<int>(maxiter)};
}

solve_result tfqmr(const LinearOperator& A, const ndarray& b0, const iterative_options& o) {
  detail::system sys = detail::make_system("tfqmr", A, b0, o.x0, o.M ? &*o.M : nullptr);
  const i64 n = sys.n;
  if (o.maxiter && *o.maxiter < 0) throw ValueError("tfqmr: maxiter must be >= 0");
  const cupp::dtype T = sys.type;
  const ndarray b = sys.b;
  ndarray x = sys.x;
  if (detail::norm_host(b) == 0) return {b.copy(), 0};
  auto as_t = [&](const ndarray& v) { return detail::as_type(v, T); };
  auto psolve = [&](const ndarray& v) { return o.M ? as_t(o.M->matvec(v)) : v; };
  auto s = [&](cd v) { return detail::scalar_for(v, T); };
  const i64 maxiter = o.maxiter.value_or(std::min<i64>(10000, n * 10));
  ndarray r = sys.x0_given ? b - as_t(A.matvec(x)) : b.copy();
  ndarray u = r, w = r.copy();
  const ndarray rstar = r;
  ndarray v = psolve(as_t(A.matvec(r)));
  ndarray uhat = v, d = cupp::zeros_like(x), u_next;
  double theta = 0;
  cd eta = 0, alpha = 0;
  // rho = <r*, r> is real here
  std::vector<cd> rd = read_values({nrm2sq(r), dotc(rstar, v)});
  const double r0sq = rd[0].real();
  cd rho = r0sq, rho_last = rho;
  const double r0norm = std::sqrt(r0sq);
  double tau = r0norm;
  if (r0norm == 0) return {x, 0};
  const double atol = detail::get_atol("tfqmr", r0norm, o.atol, o.rtol);
  cd vtrstar = rd[1];  // <r*, v> of the first (even) step
  for (i64 it = 0; it < maxiter; ++it) {
    const bool even = it % 2 == 0;
    if (even) {
      if (vtrstar == cd(0)) return {x, -1};
      alpha = rho / vtrstar;
      u_next = u - v * s(alpha);
    }
    w -= uhat * s(alpha);
    // ||w||, and <r*, w> for the odd step's rho: one read
    rd = even ? read_values({nrm2sq(w)}) : read_values({nrm2sq(w), dotc(rstar, w)});
    d = u + d * s(theta * theta / alpha * eta);
    theta = std::sqrt(rd[0].real()) / tau;
    const double c = std::sqrt(1.0 / (1 + theta * theta));
    tau *= theta * c;
    eta = c * c * alpha;
    const ndarray zv = psolve(d);
    x += zv * s(eta);
    if (o.callback) o.callback(x);
    if (tau * std::sqrt(static_cast<double>(it + 1)) < atol) return {x, 0};
    if (!even) {
      rho = rd[1];
      const cd beta = rho / rho_last;
      u = w + u * s(beta);
      v = uhat * s(beta) + v * s(beta * beta);
      uhat = psolve(as_t(A.matvec(u)));
      v += uhat;
      vtrstar = read_values({dotc(rstar, v)})[0];
    } else {
      uhat = psolve(as_t(A.matvec(u_next)));
      u = u_next;
      rho_last = rho;
    }
  }
  return {x, static_cast<int>(maxiter)};
}

}  // namespace cupp::sparse::linalg
