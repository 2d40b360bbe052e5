// The device-driven Krylov solvers of cupp::sparse::linalg: cg, cgs, bicg and bicgstab, as SciPy
// 1.18 writes them (same recurrences, same tests, same info codes). Every scalar of the
// recurrences (rho, alpha, beta, omega) is a 0-d device array, and a state record on the device
// (active, info, iterations run, half step) gates each update: once the convergence test or a
// breakdown test fails on the device, the remaining iterations before the next host read change
// nothing, so x is SciPy's iterate. The host reads the record every check_every iterations.
#include <cmath>
#include <limits>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using detail::dotc;
using detail::nrm2sq;
using i64 = std::int64_t;

using detail::solver_kernel;

// The solver's state on the device: st = [active, info, iterations run, half step].
struct device_state {
  ndarray st;
  std::int64_t maxiter;
  bool cplx;
  explicit device_state(std::int64_t maxit, bool c)
      : st(cupp::asarray(std::vector<double>{1, 0, 0, 0})), maxiter(maxit), cplx(c) {}

  // The convergence test at the top of SciPy's loop: norm(r) < atol stops; inc counts the
  // iteration that just ran (0 before the first).
  void check(const ndarray& rn2, double atol, double inc) const {
    solver_kernel("check", false, "raw R rn2, float64 atol, float64 inc", "raw float64 st",
           "if (st[0] != 0) { st[2] += inc; if (sqrt((double)rn2[0]) < atol) st[0] = 0; }\nst[3] = 0;")
        .call({rn2, atol, inc, st}, 1);
  }
  // Breakdown: |v| < tol (or v == 0 with tol < 0) stops with info `code`.
  void breakdown(const ndarray& v, double tol, double code) const {
    solver_kernel("breakdown", cplx, "raw T v, float64 tol, float64 code", "raw float64 st",
           "if (st[0] != 0 && (tol < 0 ? v[0] == T(0) : ABS(v[0]) < tol)) { st[0] = 0; st[1] = code; }")
        .call({v, tol, code, st}, 1);
  }
  // bicgstab's early exit after the half step: norm(s) < atol.
  void half(const ndarray& sn2, double atol) const {
    solver_kernel("half", false, "raw R sn2, float64 atol", "raw float64 st",
           "if (st[0] != 0 && sqrt((double)sn2[0]) < atol) { st[0] = 0; st[3] = 1; }")
        .call({sn2, atol, st}, 1);
  }
  bool active() const { return st(0).item<double>() != 0; }
  // SciPy's info from the final record.
  int info() const {
    const std::vector<double> s = st.to_vector<double>();
    if (s[1] != 0) return static_cast<int>(s[1]);
    if (s[0] == 0 && s[2] < static_cast<double>(maxiter)) return 0;
    return static_cast<int>(maxiter);
  }
};

// y = y + sgn * (num / den) * v (num conjugated first when cj), while active; in place into y.
void update(const device_state& s, const ndarray& y, const ndarray& v, const ndarray& num, const ndarray& den,
            double sgn, bool cj = false) {
  solver_kernel("update", s.cplx, "T v, T y0, raw T num, raw T den, raw float64 st, float64 sgn, float64 cj", "T y",
         "T a = num[0] / den[0];\nif (cj != 0) a = CONJ(a);\ny = st[0] != 0 ? y0 + T(sgn) * (a * v) : y0;")
      .call({v, y, num, den, s.st, sgn, cj ? 1.0 : 0.0, y});
}

// p = p * beta + z with beta = rho / rho_prev (conjugated when cj), while active; in place.
void p_update(const device_state& s, const ndarray& p, const ndarray& z, const ndarray& rho, const ndarray& rho_prev,
              bool cj = false) {
  solver_kernel("p_update", s.cplx, "T z, T p0, raw T rho, raw T rhop, raw float64 st, float64 cj", "T p",
         "T beta = rho[0] / rhop[0];\nif (cj != 0) beta = CONJ(beta);\np = st[0] != 0 ? p0 * beta + z : p0;")
      .call({z, p, rho, rho_prev, s.st, cj ? 1.0 : 0.0, p});
}

// cg's x += alpha p, r -= alpha q (alpha = rho / c), one pass, while active; in place.
void xr_update(const device_state& s, const ndarray& x, const ndarray& r, const ndarray& p, const ndarray& q,
               const ndarray& rho, const ndarray& c) {
  solver_kernel("xr_update", s.cplx, "T p, T q, T x0, T r0, raw T rho, raw T c, raw float64 st", "T x, T r",
         "if (st[0] != 0) { T a = rho[0] / c[0]; x = x0 + a * p; r = r0 - a * q; } else { x = x0; r = r0; }")
      .call({p, q, x, r, rho, c, s.st, x, r});
}

int every_of(const iterative_options& o) { return detail::check_interval(bool(o.callback), o.check_every); }

ndarray precond(const std::optional<LinearOperator>& M, const ndarray& x) { return M ? M->matvec(x) : x; }
ndarray rapply(const std::optional<LinearOperator>& M, const ndarray& x) { return M ? M->rmatvec(x) : x; }

struct setup {
  detail::system sys;
  i64 maxiter = 0;
  double bnrm2 = 0, atol = 0;
  bool zero_b = false;
};

setup prepare(const char* name, const LinearOperator& A, const ndarray& b, const iterative_options& o) {
  setup s;
  s.sys = detail::make_system(name, A, b, o.x0, o.M ? &*o.M : nullptr);
  if (o.maxiter && *o.maxiter < 0) throw ValueError(std::string(name) + ": maxiter must be >= 0");
  s.maxiter = o.maxiter.value_or(s.sys.n * 10);
  s.bnrm2 = std::sqrt(nrm2sq(s.sys.b).item<double>());
  s.atol = detail::get_atol(name, s.bnrm2, o.atol, o.rtol);
  s.zero_b = s.bnrm2 == 0;
  return s;
}

ndarray one_like(const ndarray& x) { return cupp::ones({}, x.dtype()); }

}  // namespace

solve_result cg(const LinearOperator& A, const ndarray& b, const iterative_options& o) {
  setup su = prepare("cg", A, b, o);
  if (su.zero_b) return {su.sys.b, 0};
  ndarray x = su.sys.x;
  ndarray r = su.sys.x0_given ? su.sys.b - A.matvec(x) : su.sys.b.copy();
  const device_state st(su.maxiter, detail::is_complex(su.sys.type));
  st.check(nrm2sq(r), su.atol, 0);
  const int every = every_of(o);
  ndarray p, rho_prev;
  for (i64 it = 0; it < su.maxiter; ++it) {
    if (it % every == 0 && !st.active()) break;
    const ndarray z = precond(o.M, r);
    const ndarray rho = dotc(r, z);
    if (it == 0) p = z.copy();
    else p_update(st, p, z, rho, rho_prev);
    const ndarray q = A.matvec(p);
    const ndarray c = dotc(p, q);
    xr_update(st, x, r, p, q, rho, c);
    rho_prev = rho;
    st.check(nrm2sq(r), su.atol, 1);
    if (o.callback) o.callback(x);
  }
  return {x, st.info()};
}

solve_result bicg(const LinearOperator& A, const ndarray& b, const iterative_options& o) {
  setup su = prepare("bicg", A, b, o);
  if (su.zero_b) return {su.sys.b, 0};
  ndarray x = su.sys.x;
  ndarray r = su.sys.x0_given ? su.sys.b - A.matvec(x) : su.sys.b.copy();
  const device_state st(su.maxiter, detail::is_complex(su.sys.type));
  const double rhotol = std::pow(detail::eps_of(su.sys.type), 2);
  ndarray rtilde = r.copy();
  st.check(nrm2sq(r), su.atol, 0);
  const int every = every_of(o);
  ndarray p, ptilde, rho_prev;
  for (i64 it = 0; it < su.maxiter; ++it) {
    if (it % every == 0 && !st.active()) break;
    const ndarray z = precond(o.M, r);
    const ndarray ztilde = rapply(o.M, rtilde);
    const ndarray rho = dotc(rtilde, z);
    st.breakdown(rho, rhotol, -10);
    if (it == 0) {
      p = z.copy();
      ptilde = ztilde.copy();
    } else {
      p_update(st, p, z, rho, rho_prev);
      p_update(st, ptilde, ztilde, rho, rho_prev, /*cj=*/true);
    }
    const ndarray q = A.matvec(p);
    const ndarray qtilde = A.rmatvec(ptilde);
    const ndarray rv = dotc(ptilde, q);
    st.breakdown(rv, -1, -11);
    xr_update(st, x, r, p, q, rho, rv);
    update(st, rtilde, qtilde, rho, rv, -1, /*cj=*/true);
    rho_prev = rho;
    st.check(nrm2sq(r), su.atol, 1);
    if (o.callback) o.callback(x);
  }
  return {x, st.info()};
}

solve_result cgs(const LinearOperator& A, const ndarray& b, const iterative_options& o) {
  setup su = prepare("cgs", A, b, o);
  if (su.zero_b) return {su.sys.b, 0};
  const ndarray bb = su.sys.b;
  ndarray x = su.sys.x;
  ndarray r = su.sys.x0_given ? bb - A.matvec(x) : bb.copy();
  const device_state st(su.maxiter, detail::is_complex(su.sys.type));
  const double rhotol = std::pow(detail::eps_of(su.sys.type), 2);
  const ndarray rtilde = r.copy(), one = one_like(r);
  st.check(nrm2sq(r), su.atol, 0);
  const int every = every_of(o);
  ndarray p, u, q, rho_prev;
  for (i64 it = 0; it < su.maxiter; ++it) {
    if (it % every == 0 && !st.active()) break;
    const ndarray rho = dotc(rtilde, r);
    st.breakdown(rho, rhotol, -10);
    if (it == 0) {
      p = r.copy();
      u = r.copy();
      q = cupp::zeros_like(r);
    } else {
      solver_kernel("cgs_up", st.cplx, "T r, T q, T u0, T p0, raw T rho, raw T rhop, raw float64 st", "T u, T p",
             "if (st[0] != 0) { T beta = rho[0] / rhop[0]; T uu = r + beta * q; u = uu; p = (p0 * beta + q) * beta + uu; }"
             " else { u = u0; p = p0; }")
          .call({r, q, u, p, rho, rho_prev, st.st, u, p});
    }
    const ndarray phat = precond(o.M, p);
    const ndarray vhat = A.matvec(phat);
    const ndarray rv = dotc(rtilde, vhat);
    st.breakdown(rv, -1, -11);
    const ndarray alpha = rho / rv;
    // q = u - alpha vhat (while active)
    solver_kernel("cgs_q", st.cplx, "T u, T v, T q0, raw T alpha, raw float64 st", "T q",
           "q = st[0] != 0 ? u - alpha[0] * v : q0;")
        .call({u, vhat, q, alpha, st.st, q});
    const ndarray uhat = precond(o.M, u + q);
    update(st, x, uhat, alpha, one, 1);
    r = bb - A.matvec(x);
    rho_prev = rho;
    st.check(nrm2sq(r), su.atol, 1);
    if (o.callback) o.callback(x);
  }
  return {x, st.info()};
}

solve_result bicgstab(const LinearOperator& A, const ndarray& b, const iterative_options& o) {
  setup su = prepare("bicgstab", A, b, o);
  if (su.zero_b) return {su.sys.b, 0};
  ndarray x = su.sys.x;
  ndarray r = su.sys.x0_given ? su.sys.b - A.matvec(x) : su.sys.b.copy();
  const device_state st(su.maxiter, detail::is_complex(su.sys.type));
  const double rhotol = std::pow(detail::eps_of(su.sys.type), 2), omegatol = rhotol;
  const ndarray rtilde = r.copy(), one = one_like(r);
  st.check(nrm2sq(r), su.atol, 0);
  const int every = every_of(o);
  ndarray p, v, rho_prev, omega, alpha;
  for (i64 it = 0; it < su.maxiter; ++it) {
    if (it % every == 0 && !st.active()) break;
    const ndarray rho = dotc(rtilde, r);
    st.breakdown(rho, rhotol, -10);
    if (it > 0) {
      st.breakdown(omega, omegatol, -11);
      solver_kernel("bicgstab_p", st.cplx, "T r, T v, T p0, raw T rho, raw T rhop, raw T alpha, raw T omega, raw float64 st",
             "T p",
             "if (st[0] != 0) { T beta = (rho[0] / rhop[0]) * (alpha[0] / omega[0]); p = (p0 - omega[0] * v) * beta + r; }"
             " else p = p0;")
          .call({r, v, p, rho, rho_prev, alpha, omega, st.st, p});
    } else {
      p = r.copy();
    }
    const ndarray phat = precond(o.M, p);
    v = A.matvec(phat);
    const ndarray rv = dotc(rtilde, v);
    st.breakdown(rv, -1, -11);
    alpha = rho / rv;
    update(st, r, v, alpha, one, -1);  // r -= alpha v; s = r
    st.half(nrm2sq(r), su.atol);
    const ndarray shat = precond(o.M, r);
    const ndarray t = A.matvec(shat);
    omega = dotc(t, r) / dotc(t, t);
    solver_kernel("bicgstab_x", st.cplx, "T phat, T shat, T x0, raw T alpha, raw T omega, raw float64 st", "T x",
           "if (st[0] != 0) x = (x0 + alpha[0] * phat) + omega[0] * shat;"
           " else if (st[3] != 0) x = x0 + alpha[0] * phat; else x = x0;")
        .call({phat, shat, x, alpha, omega, st.st, x});
    update(st, r, t, omega, one, -1);  // r -= omega t
    rho_prev = rho;
    st.check(nrm2sq(r), su.atol, 1);
    if (o.callback) o.callback(x);
  }
  return {x, st.info()};
}

}  // namespace cupp::sparse::linalg
