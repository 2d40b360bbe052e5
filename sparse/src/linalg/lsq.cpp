// lsqr and lsmr of cupp::sparse::linalg: Paige and Saunders' LSQR and Fong and Saunders' LSMR as
// SciPy 1.18 runs them (same Golub-Kahan bidiagonalisation, rotations, norm estimates and stopping
// tests, same istop codes), with u, v, x and the direction vectors on the device and the scalar
// recurrences on the host. Vectors are float64 (complex128 for complex data), as SciPy's x.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;
using detail::nrm2sq;
using detail::read_values;

// SciPy's _sym_ortho (Choi's stable Givens rotation): c, s, r with [c s; -s c] [a; b] = [r; 0].
struct rot {
  double c, s, r;
};
double sign(double v) { return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0); }
rot sym_ortho(double a, double b) {
  if (b == 0) return {sign(a), 0, std::fabs(a)};
  if (a == 0) return {0, sign(b), std::fabs(b)};
  if (std::fabs(b) > std::fabs(a)) {
    const double tau = a / b, s = sign(b) / std::sqrt(1 + tau * tau);
    return {s * tau, s, b / s};
  }
  const double tau = b / a, c = sign(a) / std::sqrt(1 + tau * tau);
  return {c, c * tau, a / c};
}

struct lsq_setup {
  i64 m = 0, n = 0;
  cupp::dtype type = float64;
  ndarray b;
};

// SciPy: A as a LinearOperator (rmatvec needed), b squeezed to 1-D of length M.
lsq_setup lsq_prepare(const char* name, const LinearOperator& A, const ndarray& b0, const ndarray& x0) {
  lsq_setup s;
  s.m = A.shape()[0];
  s.n = A.shape()[1];
  if (b0.is_null()) throw ValueError(std::string(name) + ": b is required");
  if (!A.has_rmatvec()) throw TypeError(std::string(name) + ": A must provide rmatvec (A^H x)");
  const ndarray b = b0.ndim() == 0 ? b0.reshape({1}) : cupp::squeeze(b0);
  if (b.ndim() != 1 || b.shape(0) != s.m)
    throw ValueError(std::string(name) + ": b of shape " + detail::shape_text(b0) + " does not match A's " +
                     std::to_string(s.m) + " rows");
  if (!x0.is_null() && (x0.size() != s.n))
    throw ValueError(std::string(name) + ": x0 of shape " + detail::shape_text(x0) + " does not match A's " +
                     std::to_string(s.n) + " columns");
  cupp::dtype t = detail::solver_type(A.dtype(), b.dtype());
  if (!x0.is_null()) t = detail::solver_type(t, x0.dtype());
  s.type = detail::is_complex(t) ? complex128 : float64;  // SciPy: result_type(A, b, float)
  s.b = detail::as_type(b, s.type);
  return s;
}

}  // namespace

lsqr_result lsqr(const LinearOperator& A, const ndarray& b0, const lsqr_options& o) {
  const lsq_setup su = lsq_prepare("lsqr", A, b0, o.x0);
  const i64 n = su.n;
  const cupp::dtype T = su.type;
  auto mv = [&](const ndarray& v) { return detail::as_type(A.matvec(v), T); };
  auto rmv = [&](const ndarray& v) { return detail::as_type(A.rmatvec(v), T); };
  const i64 iter_lim = o.iter_lim.value_or(2 * n);
  const double eps = detail::eps_of(float64);
  lsqr_result out;
  out.var = cupp::zeros({n}, float64);
  const double ctol = o.conlim > 0 ? 1 / o.conlim : 0, damp = o.damp, dampsq = damp * damp;
  double anorm = 0, acond = 0, ddnorm = 0, res2 = 0, xnorm = 0, xxnorm = 0, z = 0, cs2 = -1, sn2 = 0;
  ndarray u = su.b;
  const double bnorm = detail::norm_host(su.b);
  ndarray x;
  double beta;
  if (o.x0.is_null()) {
    x = cupp::zeros({n}, T);
    beta = bnorm;
  } else {
    x = detail::as_type(o.x0.reshape({n}), T).copy();
    u = u - mv(x);
    beta = detail::norm_host(u);
  }
  ndarray v;
  double alfa = 0;
  if (beta > 0) {
    u = u * (1 / beta);
    v = rmv(u);
    alfa = detail::norm_host(v);
  } else {
    v = x.copy();
  }
  if (alfa > 0) v = v * (1 / alfa);
  ndarray w = v.copy();
  double rhobar = alfa, phibar = beta, rnorm = beta, r1norm = rnorm, r2norm = rnorm, arnorm = alfa * beta;
  i64 itn = 0;
  int istop = 0;
  auto finish = [&] {
    out.x = x;
    out.istop = istop;
    out.itn = itn;
    out.r1norm = r1norm, out.r2norm = r2norm, out.anorm = anorm, out.acond = acond, out.arnorm = arnorm;
    out.xnorm = xnorm;
    return out;
  };
  if (arnorm == 0) return finish();
  while (itn < iter_lim) {
    ++itn;
    u = mv(v) - u * alfa;
    beta = detail::norm_host(u);
    double wsq = 0;
    if (beta > 0) {
      u = u * (1 / beta);
      anorm = std::sqrt(anorm * anorm + alfa * alfa + beta * beta + dampsq);
      v = rmv(u) - v * beta;
      const auto rd = read_values({nrm2sq(v), nrm2sq(w)});  // alfa and ||w|| (for ddnorm): one read
      alfa = std::sqrt(rd[0].real());
      wsq = rd[1].real();
      if (alfa > 0) v = v * (1 / alfa);
    } else {
      wsq = nrm2sq(w).item<double>();
    }
    double rhobar1 = rhobar, psi = 0;
    if (damp > 0) {
      rhobar1 = std::hypot(rhobar, damp);
      const double cs1 = rhobar / rhobar1, sn1 = damp / rhobar1;
      psi = sn1 * phibar;
      phibar = cs1 * phibar;
    }
    const rot g = sym_ortho(rhobar1, beta);
    const double cs = g.c, sn = g.s, rho = g.r;
    const double theta = sn * alfa;
    rhobar = -cs * alfa;
    const double phi = cs * phibar;
    phibar = sn * phibar;
    const double tau = sn * phi;
    const double t1 = phi / rho, t2 = -theta / rho;
    // dk = w / rho: ||dk||^2 from ||w|| read above
    ddnorm += wsq / (rho * rho);
    if (o.calc_var) {
      const ndarray dk = w * (1 / rho);
      out.var = out.var + cupp::real(dk * cupp::conjugate(dk));
    }
    x = x + w * t1;
    w = v + w * t2;
    const double delta = sn2 * rho, gambar = -cs2 * rho, rhs = phi - delta * z, zbar = rhs / gambar;
    xnorm = std::sqrt(xxnorm + zbar * zbar);
    const double gamma = std::hypot(gambar, theta);
    cs2 = gambar / gamma;
    sn2 = theta / gamma;
    z = rhs / gamma;
    xxnorm += z * z;
    acond = anorm * std::sqrt(ddnorm);
    const double res1 = phibar * phibar;
    res2 += psi * psi;
    rnorm = std::sqrt(res1 + res2);
    arnorm = alfa * std::fabs(tau);
    if (damp > 0) {
      const double r1sq = rnorm * rnorm - dampsq * xxnorm;
      r1norm = std::sqrt(std::fabs(r1sq));
      if (r1sq < 0) r1norm = -r1norm;
    } else {
      r1norm = rnorm;
    }
    r2norm = rnorm;
    const double test1 = rnorm / bnorm, test2 = arnorm / (anorm * rnorm + eps), test3 = 1 / (acond + eps);
    const double t1b = test1 / (1 + anorm * xnorm / bnorm), rtol = o.btol + o.atol * anorm * xnorm / bnorm;
    if (itn >= iter_lim) istop = 7;
    if (1 + test3 <= 1) istop = 6;
    if (1 + test2 <= 1) istop = 5;
    if (1 + t1b <= 1) istop = 4;
    if (test3 <= ctol) istop = 3;
    if (test2 <= o.atol) istop = 2;
    if (test1 <= rtol) istop = 1;
    if (istop != 0) break;
  }
  return finish();
}

lsmr_result lsmr(const LinearOperator& A, const ndarray& b0, const lsmr_options& o) {
  const lsq_setup su = lsq_prepare("lsmr", A, b0, o.x0);
  const i64 m = su.m, n = su.n;
  const cupp::dtype T = su.type;
  auto mv = [&](const ndarray& v) { return detail::as_type(A.matvec(v), T); };
  auto rmv = [&](const ndarray& v) { return detail::as_type(A.rmatvec(v), T); };
  const i64 maxiter = o.maxiter.value_or(std::min(m, n));
  const double damp = o.damp;
  lsmr_result out;
  ndarray u = su.b;
  const double normb = detail::norm_host(su.b);
  ndarray x;
  double beta;
  if (o.x0.is_null()) {
    x = cupp::zeros({n}, T);
    beta = normb;
  } else {
    x = detail::as_type(o.x0.reshape({n}), T).copy();
    u = u - mv(x);
    beta = detail::norm_host(u);
  }
  ndarray v;
  double alpha = 0;
  if (beta > 0) {
    u = u * (1 / beta);
    v = rmv(u);
    alpha = detail::norm_host(v);
  } else {
    v = cupp::zeros({n}, T);
  }
  if (alpha > 0) v = v * (1 / alpha);
  i64 itn = 0;
  double zetabar = alpha * beta, alphabar = alpha, rho = 1, rhobar = 1, cbar = 1, sbar = 0;
  ndarray h = v.copy(), hbar = cupp::zeros({n}, T);
  double betadd = beta, betad = 0, rhodold = 1, tautildeold = 0, thetatilde = 0, zeta = 0, d = 0;
  double normA2 = alpha * alpha, maxrbar = 0, minrbar = 1e100, normA = std::sqrt(normA2), condA = 1, normx = 0;
  int istop = 0;
  const double ctol = o.conlim > 0 ? 1 / o.conlim : 0;
  double normr = beta, normar = alpha * beta;
  auto finish = [&] {
    out.x = x;
    out.istop = istop;
    out.itn = itn;
    out.normr = normr, out.normar = normar, out.normA = normA, out.condA = condA, out.normx = normx;
    return out;
  };
  if (normar == 0) return finish();
  if (normb == 0) {
    x.fill(0);
    return finish();
  }
  while (itn < maxiter) {
    ++itn;
    u = mv(v) - u * alpha;
    beta = detail::norm_host(u);
    if (beta > 0) {
      u = u * (1 / beta);
      v = rmv(u) - v * beta;
      alpha = detail::norm_host(v);
      if (alpha > 0) v = v * (1 / alpha);
    }
    const rot hat = sym_ortho(alphabar, damp);
    const double chat = hat.c, shat = hat.s, alphahat = hat.r;
    const double rhoold = rho;
    const rot g = sym_ortho(alphahat, beta);
    const double c = g.c, s = g.s;
    rho = g.r;
    const double thetanew = s * alpha;
    alphabar = c * alpha;
    const double rhobarold = rhobar, zetaold = zeta, thetabar = sbar * rho, rhotemp = cbar * rho;
    const rot gb = sym_ortho(cbar * rho, thetanew);
    cbar = gb.c, sbar = gb.s, rhobar = gb.r;
    zeta = cbar * zetabar;
    zetabar = -sbar * zetabar;
    hbar = h + hbar * (-(thetabar * rho / (rhoold * rhobarold)));
    x = x + hbar * (zeta / (rho * rhobar));
    h = v + h * (-(thetanew / rho));
    const double betaacute = chat * betadd, betacheck = -shat * betadd;
    const double betahat = c * betaacute;
    betadd = -s * betaacute;
    const double thetatildeold = thetatilde;
    const rot gt = sym_ortho(rhodold, thetabar);
    const double ctildeold = gt.c, stildeold = gt.s, rhotildeold = gt.r;
    thetatilde = stildeold * rhobar;
    rhodold = ctildeold * rhobar;
    betad = -stildeold * betad + ctildeold * betahat;
    tautildeold = (zetaold - thetatildeold * tautildeold) / rhotildeold;
    const double taud = (zeta - thetatilde * tautildeold) / rhodold;
    d += betacheck * betacheck;
    normr = std::sqrt(d + (betad - taud) * (betad - taud) + betadd * betadd);
    normA2 += beta * beta;
    normA = std::sqrt(normA2);
    normA2 += alpha * alpha;
    maxrbar = std::max(maxrbar, rhobarold);
    if (itn > 1) minrbar = std::min(minrbar, rhobarold);
    condA = std::max(maxrbar, rhotemp) / std::min(minrbar, rhotemp);
    normar = std::fabs(zetabar);
    normx = detail::norm_host(x);
    const double test1 = normr / normb;
    const double test2 = normA * normr != 0 ? normar / (normA * normr) : INFINITY;
    const double test3 = 1 / condA, t1 = test1 / (1 + normA * normx / normb);
    const double rtol = o.btol + o.atol * normA * normx / normb;
    if (itn >= maxiter) istop = 7;
    if (1 + test3 <= 1) istop = 6;
    if (1 + test2 <= 1) istop = 5;
    if (1 + t1 <= 1) istop = 4;
    if (test3 <= ctol) istop = 3;
    if (test2 <= o.atol) istop = 2;
    if (test1 <= rtol) istop = 1;
    if (istop > 0) break;
  }
  return finish();
}

}  // namespace cupp::sparse::linalg
