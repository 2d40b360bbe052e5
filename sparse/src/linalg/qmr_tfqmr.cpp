// qmr and tfqmr of cupp::sparse::linalg: SciPy 1.18's recurrences (same scalars, tests and info
// codes), driven from the device as cg is (krylov.cpp). The scalars of each recurrence (rho, xi,
// delta, epsilon, beta, gamma, theta, eta for qmr; alpha, theta, tau, eta, rho, beta for tfqmr)
// live in a complex128 device array, updated by one-thread kernels in double precision from the
// device norms and dot products; a state record [active, info, converged-after-this-update]
// gates the update of x, so once a breakdown or the convergence test stops the solve, the
// iterations left before the next host read change nothing and x is SciPy's iterate. The host
// reads the record every check_every iterations (every iteration with a callback).
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;
using detail::dotc;
using detail::nrm2sq;
using detail::solver_kernel;

void check_shape(const std::optional<LinearOperator>& M, i64 n, const char* name, const char* which) {
  if (M && (M->shape()[0] != n || M->shape()[1] != n))
    throw ValueError(std::string(name) + ": " + which + " has shape (" + std::to_string(M->shape()[0]) + ", " +
                     std::to_string(M->shape()[1]) + "), the matrix (" + std::to_string(n) + ", " +
                     std::to_string(n) + ")");
}

// st = [active, info, converged after this iteration's update of x (tfqmr)].
struct solver_state {
  ndarray st = cupp::asarray(std::vector<double>{1, 0, 0});
  // [active, info, pending] read in one transfer
  std::vector<double> read() const { return st.to_vector<double>(); }
  static bool running(const std::vector<double>& s) { return s[0] != 0 && s[2] == 0; }
  static int info(const std::vector<double>& s, i64 maxiter) {
    if (s[1] != 0) return static_cast<int>(s[1]);
    return running(s) ? static_cast<int>(maxiter) : 0;
  }
};

// out = a - ZT(sc[k]) * b (conj(sc[k]) when cj), for every element (the gate is on x alone).
void axpy_slot(bool cplx, const ndarray& a, const ndarray& b, const ndarray& sc, int k, bool cj, const ndarray& out) {
  solver_kernel("qmr_axpy", cplx, "T a, T b, raw complex128 sc, int32 k, int32 cj", "T out",
                "Z s = sc[k];\nif (cj != 0) s = Z(s.re, -s.im);\nout = a - ZT(s) * b;")
      .call({a, b, sc, static_cast<std::int32_t>(k), static_cast<std::int32_t>(cj ? 1 : 0), out});
}

// The scalar slots of qmr's state.
enum qmr_slot { q_rho, q_xi, q_delta, q_eps, q_beta, q_gamma, q_theta, q_eta, q_f, q_cp, q_cq, q_slots };

}  // namespace

solve_result qmr(const LinearOperator& A, const ndarray& b0, const qmr_options& o) {
  if (A.shape()[0] == A.shape()[1]) {
    check_shape(o.M1, A.shape()[0], "qmr", "M1");
    check_shape(o.M2, A.shape()[0], "qmr", "M2");
  }
  const int every = detail::check_interval(bool(o.callback), o.check_every);
  detail::system sys = detail::make_system("qmr", A, b0, o.x0);
  const i64 n = sys.n;
  if (o.maxiter && *o.maxiter < 0) throw ValueError("qmr: maxiter must be >= 0");
  const cupp::dtype T = sys.type;
  const bool cplx = detail::is_complex(T);
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
  const i64 maxiter = o.maxiter.value_or(n * 10);
  const double tol = detail::eps_of(T);  // SciPy: every breakdown tolerance is eps
  const solver_state state{};
  const ndarray sc = cupp::zeros({q_slots}, complex128);
  ndarray r = sys.x0_given ? b - as_t(A.matvec(x)) : b.copy();
  ndarray vtilde = r.copy(), wtilde = r.copy();
  ndarray y = m1(vtilde), z = m2h(wtilde);
  // rho = ||y||, xi = ||z||, gamma = 1, eta = -1, theta = 0
  solver_kernel("qmr_init", false, "raw R ny, raw R nz", "raw complex128 sc",
                "sc[0] = Z(sqrt((double)ny[0])); sc[1] = Z(sqrt((double)nz[0]));\n"
                "sc[5] = Z(1.0); sc[6] = Z(0.0); sc[7] = Z(-1.0);")
      .call({nrm2sq(y), nrm2sq(z), sc}, 1);
  ndarray p = cupp::zeros_like(x), q = cupp::zeros_like(x), d = cupp::zeros_like(x), s = cupp::zeros_like(x);
  for (i64 it = 0; it < maxiter; ++it) {
    if (!o.callback && it % every == 0 && !solver_state::running(state.read())) break;
    // SciPy's tests at the top of the loop: ||r|| < atol, then rho, xi and delta breakdowns;
    // delta = vdot(z / xi, y / rho); the coefficients of p and q's updates
    solver_kernel("qmr_top", cplx, "raw R rn2, raw T zy, float64 atol, float64 tol, int32 first",
                  "raw complex128 sc, raw float64 st",
                  "double rho = sc[0].re, xi = sc[1].re;\n"
                  "Z delta = TZ(zy[0]) / Z(xi * rho);\n"
                  "if (st[0] != 0) {\n"
                  "  if (sqrt((double)rn2[0]) < atol) st[0] = 0;\n"
                  "  else if (fabs(rho) < tol) { st[0] = 0; st[1] = -10; }\n"
                  "  else if (fabs(xi) < tol) { st[0] = 0; st[1] = -15; }\n"
                  "  else if (hypot(delta.re, delta.im) < tol) { st[0] = 0; st[1] = -13; }\n"
                  "}\n"
                  "sc[2] = delta;\n"
                  "if (first == 0) { Z de = delta / sc[3]; sc[9] = Z(xi) * de; sc[10] = Z(rho) * Z(de.re, -de.im); }")
        .call({nrm2sq(r), dotc(z, y), atol, tol, static_cast<std::int32_t>(it == 0 ? 1 : 0), sc, state.st}, 1);
    // v = vtilde / rho, y /= rho, w = wtilde / xi, z /= xi
    const std::vector<ndarray> scaled =
        solver_kernel("qmr_scale", cplx, "T vt, T y0, T wt, T z0, raw complex128 sc", "T v, T y, T w, T z",
                      "const double ir = 1.0 / sc[0].re, ix = 1.0 / sc[1].re;\n"
                      "v = vt * ZT(Z(ir)); y = y0 * ZT(Z(ir)); w = wt * ZT(Z(ix)); z = z0 * ZT(Z(ix));")
            .call({vtilde, y, wtilde, z, sc});
    const ndarray& v = scaled[0];
    const ndarray& w = scaled[2];
    y = scaled[1];
    z = scaled[3];
    const ndarray ytilde = m2(y), ztilde = m1h(z);
    // p = ytilde - (xi delta / epsilon) p, q = ztilde - (rho conj(delta / epsilon)) q (the first
    // iteration: ytilde and ztilde)
    const std::vector<ndarray> pq =
        solver_kernel("qmr_pq", cplx, "T yt, T zt, T p0, T q0, raw complex128 sc, int32 first", "T p, T q",
                      "if (first != 0) { p = yt; q = zt; }\n"
                      "else { p = yt - ZT(sc[9]) * p0; q = zt - ZT(sc[10]) * q0; }")
            .call({ytilde, ztilde, p, q, sc, static_cast<std::int32_t>(it == 0 ? 1 : 0)});
    p = pq[0];
    q = pq[1];
    const ndarray ptilde = as_t(A.matvec(p));
    // epsilon = vdot(q, ptilde), beta = epsilon / delta and their breakdowns
    solver_kernel("qmr_mid", cplx, "raw T eps, float64 tol", "raw complex128 sc, raw float64 st",
                  "Z e = TZ(eps[0]), beta = e / sc[2];\n"
                  "if (st[0] != 0) {\n"
                  "  if (hypot(e.re, e.im) < tol) { st[0] = 0; st[1] = -14; }\n"
                  "  else if (hypot(beta.re, beta.im) < tol) { st[0] = 0; st[1] = -11; }\n"
                  "}\n"
                  "sc[3] = e; sc[4] = beta;")
        .call({dotc(q, ptilde), tol, sc, state.st}, 1);
    vtilde = cupp::empty_like(ptilde);
    axpy_slot(cplx, ptilde, v, sc, q_beta, false, vtilde);
    y = m1(vtilde);
    const ndarray aq = as_t(A.rmatvec(q));
    wtilde = cupp::empty_like(aq);
    axpy_slot(cplx, aq, w, sc, q_beta, true, wtilde);
    z = m2h(wtilde);
    // rho, xi; theta, gamma (and its breakdown), eta; f = (theta_prev gamma)^2
    solver_kernel("qmr_end", false, "raw R ny, raw R nz, float64 tol", "raw complex128 sc, raw float64 st",
                  "const double rho_prev = sc[0].re, gamma_prev = sc[5].re, theta_prev = sc[6].re;\n"
                  "const double rho = sqrt((double)ny[0]), xi = sqrt((double)nz[0]);\n"
                  "const Z beta = sc[4];\n"
                  "const double theta = rho / (gamma_prev * hypot(beta.re, beta.im));\n"
                  "const double gamma = 1.0 / sqrt(1.0 + theta * theta);\n"
                  "if (st[0] != 0 && fabs(gamma) < tol) { st[0] = 0; st[1] = -12; }\n"
                  "const double g = gamma / gamma_prev;\n"
                  "sc[7] = sc[7] * (Z(-rho_prev) / beta) * Z(g * g);\n"
                  "sc[0] = Z(rho); sc[1] = Z(xi); sc[5] = Z(gamma); sc[6] = Z(theta);\n"
                  "sc[8] = Z((theta_prev * gamma) * (theta_prev * gamma));")
        .call({nrm2sq(y), nrm2sq(z), tol, sc, state.st}, 1);
    // d = f d + eta p, s = f s + eta ptilde, x += d (while active), r -= s
    solver_kernel("qmr_x", cplx, "T p, T pt, T d0, T s0, T x0, T r0, raw complex128 sc, raw float64 st",
                  "T d, T s, T x, T r",
                  "const T f = ZT(sc[8]), eta = ZT(sc[7]);\n"
                  "const T dn = d0 * f + eta * p, sn = s0 * f + eta * pt;\n"
                  "d = dn; s = sn;\n"
                  "if (st[0] != 0) { x = x0 + dn; r = r0 - sn; } else { x = x0; r = r0; }")
        .call({p, ptilde, d, s, x, r, sc, state.st, d, s, x, r});
    if (o.callback) {
      if (!solver_state::running(state.read())) break;  // a breakdown in this iteration: x is unchanged
      o.callback(x);
    }
  }
  return {x, solver_state::info(state.read(), maxiter)};
}

namespace {
// The scalar slots of tfqmr's state.
enum tfqmr_slot { t_alpha, t_theta, t_tau, t_eta, t_rho, t_beta, t_coef, t_slots };
}  // namespace

solve_result tfqmr(const LinearOperator& A, const ndarray& b0, const iterative_options& o) {
  const int every = detail::check_interval(bool(o.callback), o.check_every);
  detail::system sys = detail::make_system("tfqmr", A, b0, o.x0, o.M ? &*o.M : nullptr);
  const i64 n = sys.n;
  if (o.maxiter && *o.maxiter < 0) throw ValueError("tfqmr: maxiter must be >= 0");
  const cupp::dtype T = sys.type;
  const bool cplx = detail::is_complex(T);
  const ndarray b = sys.b;
  ndarray x = sys.x;
  if (detail::norm_host(b) == 0) return {b.copy(), 0};
  auto as_t = [&](const ndarray& v) { return detail::as_type(v, T); };
  auto psolve = [&](const ndarray& v) { return o.M ? as_t(o.M->matvec(v)) : v; };
  const i64 maxiter = o.maxiter.value_or(std::min<i64>(10000, n * 10));
  ndarray r = sys.x0_given ? b - as_t(A.matvec(x)) : b.copy();
  ndarray u = r;
  const ndarray w = r.copy();
  const ndarray rstar = r;
  ndarray v = psolve(as_t(A.matvec(r)));
  ndarray uhat = v, d = cupp::zeros_like(x), u_next;
  // rho = <r*, r> is real here; r0norm decides atol (one read, as SciPy's host scalars)
  const ndarray rho0 = nrm2sq(r);
  const double r0norm = std::sqrt(rho0.item<double>());
  if (r0norm == 0) return {x, 0};
  const double atol = detail::get_atol("tfqmr", r0norm, o.atol, o.rtol);
  const solver_state state{};
  const ndarray sc = cupp::zeros({t_slots}, complex128);
  solver_kernel("tfqmr_init", false, "raw R rho0", "raw complex128 sc",
                "sc[4] = Z((double)rho0[0]); sc[2] = Z(sqrt((double)rho0[0])); sc[1] = Z(0.0); sc[3] = Z(0.0);")
      .call({rho0, sc}, 1);
  ndarray vtr;  // <r*, v>, remade on even steps
  for (i64 it = 0; it < maxiter; ++it) {
    if (!o.callback && it % every == 0 && !solver_state::running(state.read())) break;
    const bool even = it % 2 == 0;
    if (even) vtr = dotc(rstar, v);
    // the last iteration's convergence stops here; on even steps <r*, v> = 0 breaks down (-1)
    // and alpha = rho / <r*, v>; coef = theta^2 / alpha * eta for d's update
    solver_kernel("tfqmr_pre", cplx, "raw T vtr, int32 even", "raw complex128 sc, raw float64 st",
                  "if (st[2] != 0) { st[0] = 0; st[2] = 0; }\n"
                  "if (even != 0) {\n"
                  "  const Z vt = TZ(vtr[0]);\n"
                  "  if (st[0] != 0 && vt.re == 0 && vt.im == 0) { st[0] = 0; st[1] = -1; }\n"
                  "  sc[0] = sc[4] / vt;\n"
                  "}\n"
                  "sc[6] = (sc[1] * sc[1] / sc[0]) * sc[3];")
        .call({vtr, static_cast<std::int32_t>(even ? 1 : 0), sc, state.st}, 1);
    if (even) {
      u_next = cupp::empty_like(u);
      axpy_slot(cplx, u, v, sc, t_alpha, false, u_next);
    }
    // w -= alpha uhat; d = u + coef d
    solver_kernel("tfqmr_wd", cplx, "T uh, T u, T w0, T d0, raw complex128 sc", "T w, T d",
                  "w = w0 - ZT(sc[0]) * uh; d = u + ZT(sc[6]) * d0;")
        .call({uhat, u, w, d, sc, w, d});
    // theta = ||w|| / tau, c = 1 / sqrt(1 + theta^2), tau *= theta c, eta = c^2 alpha; the
    // convergence test tau sqrt(k + 1) < atol takes effect after this iteration's x update
    solver_kernel("tfqmr_post", false, "raw R wn2, float64 atol, float64 sk", "raw complex128 sc, raw float64 st",
                  "const double theta = sqrt((double)wn2[0]) / sc[2].re;\n"
                  "const double c = sqrt(1.0 / (1.0 + theta * theta));\n"
                  "const double tau = sc[2].re * theta * c;\n"
                  "sc[1] = Z(theta); sc[2] = Z(tau); sc[3] = Z(c * c) * sc[0];\n"
                  "if (st[0] != 0 && tau * sk < atol) st[2] = 1;")
        .call({nrm2sq(w), atol, std::sqrt(static_cast<double>(it + 1)), sc, state.st}, 1);
    const ndarray zv = psolve(d);
    solver_kernel("tfqmr_x", cplx, "T z, T x0, raw complex128 sc, raw float64 st", "T x",
                  "x = st[0] != 0 ? x0 + ZT(sc[3]) * z : x0;")
        .call({zv, x, sc, state.st, x});
    if (o.callback) {
      const std::vector<double> s = state.read();
      if (s[0] == 0) break;  // broke down before the update: x is unchanged, SciPy calls no callback
      o.callback(x);
      if (s[2] != 0) break;
    }
    if (!even) {
      // rho = <r*, w>, beta = rho / rho_last; u = w + beta u; v = beta uhat + beta^2 v + A M u
      solver_kernel("tfqmr_beta", cplx, "raw T rho", "raw complex128 sc",
                    "const Z rn = TZ(rho[0]);\nsc[5] = rn / sc[4]; sc[4] = rn;")
          .call({dotc(rstar, w), sc}, 1);
      const std::vector<ndarray> uv =
          solver_kernel("tfqmr_uv", cplx, "T w, T u0, T uh, T v0, raw complex128 sc", "T u, T v",
                        "const T beta = ZT(sc[5]);\nu = w + beta * u0; v = beta * uh + (beta * beta) * v0;")
              .call({w, u, uhat, v, sc});
      u = uv[0];
      uhat = psolve(as_t(A.matvec(u)));
      v = uv[1] + uhat;
    } else {
      uhat = psolve(as_t(A.matvec(u_next)));
      u = u_next;
    }
  }
  return {x, solver_state::info(state.read(), maxiter)};
}

}  // namespace cupp::sparse::linalg
