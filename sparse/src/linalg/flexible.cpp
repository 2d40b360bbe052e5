// lgmres and gcrotmk of cupp::sparse::linalg: SciPy 1.18's outer iterations over one flexible
// GMRES Arnoldi process (SciPy's _fgmres: optional left and right preconditioners, projection
// against GCROT's C vectors, LGMRES' augmentation vectors). The basis lives in one device matrix
// whose first rows are C: each step orthogonalises against [C; V] by classical Gram-Schmidt applied
// twice (two gemv per pass) and reads the coefficients and norms once; the small least-squares
// problem (SciPy: qr_insert and lstsq) is solved by Givens rotations on the host.
#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using cd = std::complex<double>;
using i64 = std::int64_t;
using fn = std::function<ndarray(const ndarray&)>;
using detail::nrm2sq;
using detail::read_values;

// Thrown by the Arnoldi process on non-finite values (SciPy's LinAlgError there).
struct not_finite {};

using detail::lartg;
using detail::upload;

bool finite(cd v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }

struct fgmres_result {
  ndarray basis;                     // rows [C; v_0 .. v_{j+1}]
  i64 ncs = 0;                       // rows of C
  i64 steps = 0;                     // j + 1
  std::vector<ndarray> zs;           // Z's columns
  std::vector<std::vector<cd>> H;    // H[col]: the Hessenberg column (col + 2 values)
  std::vector<std::vector<cd>> R;    // the rotated columns (upper triangular)
  std::vector<std::vector<cd>> B;    // B[col]: projections on C (ncs values)
  std::vector<cd> y;                 // argmin || H y - e_1 ||
  double res = NAN;
  // H y (SciPy's Q R y), j + 2 values
  std::vector<cd> hy(const std::vector<cd>& yy) const {
    std::vector<cd> out(steps + 1, cd(0));
    for (i64 c = 0; c < steps; ++c)
      for (i64 i = 0; i < c + 2; ++i) out[i] += H[c][i] * yy[c];
    return out;
  }
  // B y, ncs values
  std::vector<cd> by(const std::vector<cd>& yy) const {
    std::vector<cd> out(ncs, cd(0));
    for (i64 c = 0; c < steps; ++c)
      for (i64 i = 0; i < ncs; ++i) out[i] += B[c][i] * yy[c];
    return out;
  }
  ndarray V(i64 count) const { return basis(cupp::slice(ncs, ncs + count)); }
};

// SciPy's _fgmres: L A Z = C B + V H for m steps (plus the augmentation vectors), stopping early
// when the least-squares residual drops below atol or on breakdown.
fgmres_result fgmres(const fn& matvec, const ndarray& v0, i64 m, double atol, const fn& lpsolve, const fn& rpsolve,
                     const std::vector<ndarray>& cs, const std::vector<std::pair<ndarray, ndarray>>& outer_v,
                     bool prepend_outer_v) {
  const cupp::dtype T = v0.dtype();
  const bool cplx = detail::is_complex(T);
  const i64 n = v0.shape(0);
  const i64 nouter = static_cast<i64>(outer_v.size());
  m += nouter;
  fgmres_result out;
  out.ncs = static_cast<i64>(cs.size());
  out.basis = cupp::empty({out.ncs + m + 1, n}, T);
  for (i64 i = 0; i < out.ncs; ++i) out.basis(i).assign(cs[i]);
  out.basis(out.ncs).assign(v0);
  const double eps = detail::eps_of(T);
  std::vector<double> gc;
  std::vector<cd> gs, g{cd(1)};
  bool breakdown = false;
  i64 j = 0;
  for (j = 0; j < m; ++j) {
    ndarray z, w;
    const ndarray vlast = out.basis(out.ncs + j);
    if (prepend_outer_v && j < nouter) {
      z = outer_v[j].first, w = outer_v[j].second;
    } else if (prepend_outer_v && j == nouter) {
      z = rpsolve(v0);
    } else if (!prepend_outer_v && j >= m - nouter) {
      z = outer_v[j - (m - nouter)].first, w = outer_v[j - (m - nouter)].second;
    } else {
      z = rpsolve(vlast);
    }
    w = w.is_null() ? lpsolve(matvec(z)) : w.copy();
    const ndarray w_norm_sq = nrm2sq(w);
    // orthogonalise against [C; v_0..v_j] (C is orthogonal to V by construction)
    const ndarray W = out.basis(cupp::slice(0, out.ncs + j + 1));
    auto project = [&](const ndarray& x) {
      return cplx ? cupp::conjugate(cupp::matmul(W, cupp::conjugate(x))) : cupp::matmul(W, x);
    };
    ndarray h = project(w);
    w = w - cupp::matmul(h, W);
    const ndarray h2 = project(w);
    w = w - cupp::matmul(h2, W);
    h = h + h2;
    std::vector<cd> vals = cupp::concatenate({cupp::astype(h, complex128),
                                              cupp::astype(w_norm_sq.reshape({1}), complex128),
                                              cupp::astype(nrm2sq(w).reshape({1}), complex128)})
                               .to_vector<cd>();  // the step's one read
    const double w_norm = std::sqrt(vals[out.ncs + j + 1].real());
    const double hlast = std::sqrt(vals[out.ncs + j + 2].real());
    out.B.emplace_back(vals.begin(), vals.begin() + out.ncs);
    std::vector<cd> hcur(vals.begin() + out.ncs, vals.begin() + out.ncs + j + 1);
    hcur.push_back(hlast);
    const double alpha = 1 / hlast;
    if (std::isfinite(alpha)) w = w * alpha;
    if (!(hlast > eps * w_norm)) breakdown = true;
    out.basis(out.ncs + j + 1).assign(w);
    out.zs.push_back(z);
    out.H.push_back(hcur);
    // rotate the new column with the previous rotations, then annihilate its last entry
    std::vector<cd> rc = hcur;
    for (i64 k = 0; k < j; ++k) {
      const cd a = rc[k], b = rc[k + 1];
      rc[k] = gc[k] * a + gs[k] * b;
      rc[k + 1] = -std::conj(gs[k]) * a + gc[k] * b;
    }
    double c;
    cd s, r;
    lartg(rc[j], rc[j + 1], c, s, r);
    gc.push_back(c), gs.push_back(s);
    rc[j] = r, rc[j + 1] = 0;
    out.R.push_back(rc);
    g.push_back(-std::conj(s) * g[j]);
    g[j] = c * g[j];
    out.res = std::abs(g[j + 1]);
    if (out.res < atol || breakdown) break;
  }
  if (j == m) j = m - 1;
  out.steps = j + 1;
  if (!finite(out.R[j][j])) throw not_finite{};
  // back substitution (SciPy's lstsq: a zero pivot contributes nothing)
  std::vector<cd> y(g.begin(), g.begin() + j + 1);
  for (i64 k = j; k >= 0; --k) {
    for (i64 c2 = k + 1; c2 <= j; ++c2) y[k] -= out.R[c2][k] * y[c2];
    y[k] = out.R[k][k] == cd(0) ? cd(0) : y[k] / out.R[k][k];
  }
  out.y = y;
  return out;
}

// sum_i vecs[i] * coef[i] on the device (a matrix-vector product over the stacked vectors)
ndarray combine(const std::vector<ndarray>& vecs, const std::vector<cd>& coef, const cupp::dtype& T) {
  return cupp::matmul(upload(coef, T), cupp::stack(vecs));
}

void check_finite_rhs(const ndarray& b) {
  if (!cupp::all(cupp::isfinite(b)).item<bool>()) throw ValueError("RHS must contain only finite numbers");
}

}  // namespace

solve_result lgmres(const LinearOperator& A, const ndarray& b0, const lgmres_options& o) {
  if (o.inner_m < 1) throw ValueError("lgmres: inner_m must be >= 1");
  detail::system sys = detail::make_system("lgmres", A, b0, o.x0, o.M ? &*o.M : nullptr);
  check_finite_rhs(sys.b);
  const cupp::dtype T = sys.type;
  const ndarray b = sys.b;
  ndarray x = sys.x;
  const fn matvec = [&](const ndarray& v) { return detail::as_type(A.matvec(v), T); };
  const fn psolve = [&](const ndarray& v) { return o.M ? detail::as_type(o.M->matvec(v), T) : v; };
  const fn ident = [](const ndarray& v) { return v; };
  std::vector<std::pair<ndarray, ndarray>> local;
  std::vector<std::pair<ndarray, ndarray>>& outer_v = o.outer_v ? *o.outer_v : local;
  const double b_norm = detail::norm_host(b);
  const double atol = detail::get_atol("lgmres", b_norm, o.atol, o.rtol);
  if (b_norm == 0) return {b, 0};
  double ptol_max_factor = 1.0;
  for (i64 k_outer = 0; k_outer < o.maxiter; ++k_outer) {
    const ndarray r_outer = matvec(x) - b;
    if (o.callback) o.callback(x);
    const double r_norm = detail::norm_host(r_outer);
    if (r_norm <= atol) return {x, 0};
    ndarray v0 = -psolve(r_outer);
    const double inner_res_0 = detail::norm_host(v0);
    if (inner_res_0 == 0)
      throw Error("lgmres: the preconditioner returned a zero vector; |v| ~ " + detail::py_float(r_norm) +
                  ", |M v| = 0");
    v0 = v0 * (1.0 / inner_res_0);
    const double ptol = std::min(ptol_max_factor, atol / r_norm);
    fgmres_result f;
    try {
      f = fgmres(matvec, v0, o.inner_m, ptol, psolve, ident, {}, outer_v, o.prepend_outer_v);
    } catch (const not_finite&) {
      return {x, static_cast<int>(k_outer + 1)};
    }
    std::vector<cd> y = f.y;
    for (cd& e : y) {
      e *= inner_res_0;
      if (!finite(e)) return {x, static_cast<int>(k_outer + 1)};
    }
    if (f.res > ptol) ptol_max_factor = std::min(1.0, 1.5 * ptol_max_factor);
    else ptol_max_factor = std::max(1e-16, 0.25 * ptol_max_factor);
    const ndarray dx = combine(f.zs, y, T);
    const double nx = detail::norm_host(dx);
    if (nx > 0) {
      if (o.store_outer_Av) {
        const ndarray ax = cupp::matmul(upload(f.hy(y), T), f.V(f.steps + 1));
        outer_v.emplace_back(dx * (1.0 / nx), ax * (1.0 / nx));
      } else {
        outer_v.emplace_back(dx * (1.0 / nx), ndarray{});
      }
    }
    while (static_cast<i64>(outer_v.size()) > o.outer_k) outer_v.erase(outer_v.begin());
    x += dx;
  }
  return {x, static_cast<int>(o.maxiter)};
}

solve_result gcrotmk(const LinearOperator& A, const ndarray& b0, const gcrotmk_options& o) {
  if (o.truncate != "oldest" && o.truncate != "smallest")
    throw ValueError("Invalid value for 'truncate': '" + o.truncate + "'");
  if (o.m < 1) throw ValueError("gcrotmk: m must be >= 1");
  if (o.maxiter < 1) throw ValueError("gcrotmk: maxiter must be >= 1");
  detail::system sys = detail::make_system("gcrotmk", A, b0, o.x0, o.M ? &*o.M : nullptr);
  check_finite_rhs(sys.b);
  const cupp::dtype T = sys.type;
  const ndarray b = sys.b;
  ndarray x = sys.x;
  const fn matvec = [&](const ndarray& v) { return detail::as_type(A.matvec(v), T); };
  const fn psolve = [&](const ndarray& v) { return o.M ? detail::as_type(o.M->matvec(v), T) : v; };
  const fn ident = [](const ndarray& v) { return v; };
  const i64 k = o.k.value_or(o.m);
  ndarray r = sys.x0_given ? b - matvec(x) : b.copy();
  const double b_norm = detail::norm_host(b);
  const double atol = detail::get_atol("gcrotmk", b_norm, o.atol, o.rtol);
  if (b_norm == 0) return {b, 0};
  std::vector<ndarray> C, U;  // the CU pairs
  i64 j_outer = 0;
  for (j_outer = 0; j_outer < o.maxiter; ++j_outer) {
    if (o.callback) o.callback(x);
    double beta = detail::norm_host(r);
    if (beta <= atol && (j_outer > 0 || !C.empty())) {
      r = b - matvec(x);  // recompute: rounding
      beta = detail::norm_host(r);
    }
    if (beta <= atol) {
      j_outer = -1;
      break;
    }
    const i64 ml = o.m + std::max<i64>(k - static_cast<i64>(C.size()), 0);
    fgmres_result f;
    try {
      f = fgmres(matvec, r * (1.0 / beta), ml, atol / beta, ident, psolve, C, {}, false);
    } catch (const not_finite&) {
      break;
    }
    std::vector<cd> y = f.y;
    for (cd& e : y) e *= beta;
    // ux = Z y - U (B y); cx = V H y
    ndarray ux = combine(f.zs, y, T);
    if (!C.empty()) {
      std::vector<cd> byv = f.by(y);
      for (cd& e : byv) e = -e;
      ux = ux + combine(U, byv, T);
    }
    ndarray cx = cupp::matmul(upload(f.hy(y), T), f.V(f.steps + 1));
    const double cnorm = detail::norm_host(cx);
    const double alpha = 1 / cnorm;
    if (!std::isfinite(alpha)) continue;
    cx = cx * alpha;
    ux = ux * alpha;
    const cd gamma = read_values({detail::dotc(cx, r)})[0];
    r = r - cx * detail::scalar_for(gamma, T);
    x = x + ux * detail::scalar_for(gamma, T);
    if (o.truncate == "oldest") {
      while (static_cast<i64>(C.size()) >= k && !C.empty()) C.erase(C.begin()), U.erase(U.begin());
    } else if (static_cast<i64>(C.size()) >= k && !C.empty()) {
      // D = B R^-1 (R: the triangular factor of H), W = D's left singular vectors; keep the
      // combinations of the CU pairs along W's first k - 1 columns, reorthogonalised
      const i64 nc = static_cast<i64>(C.size()), js = f.steps;
      std::vector<cd> D(nc * js);
      for (i64 i = 0; i < nc; ++i)
        for (i64 c = 0; c < js; ++c) {
          cd v = f.B[c][i];
          for (i64 p = 0; p < c; ++p) v -= D[i * js + p] * f.R[c][p];
          D[i * js + c] = v / f.R[c][c];
        }
      const ndarray Dd = cupp::asarray(D).reshape({nc, js});
      const ndarray W = cupp::linalg::svd(detail::is_complex(T) ? Dd : cupp::real(Dd)).U;
      const std::vector<cd> Wh = cupp::astype(W, complex128).to_vector<cd>();
      std::vector<ndarray> nC, nU;
      for (i64 jj = 0; jj < std::min(k - 1, nc); ++jj) {
        std::vector<cd> wcol(nc);
        for (i64 i = 0; i < nc; ++i) wcol[i] = Wh[i * nc + jj];
        ndarray c = combine(C, wcol, T), u = combine(U, wcol, T);
        for (std::size_t p = 0; p < nC.size(); ++p) {
          const operand a = detail::scalar_for(read_values({detail::dotc(nC[p], c)})[0], T);
          c = c - nC[p] * a;
          u = u - nU[p] * a;
        }
        const double an = detail::norm_host(c);
        nC.push_back(c * (1.0 / an));
        nU.push_back(u * (1.0 / an));
      }
      C = nC, U = nU;
    }
    C.push_back(cx);
    U.push_back(ux);
  }
  if (j_outer == o.maxiter) j_outer = o.maxiter - 1;
  return {x, static_cast<int>(j_outer + 1)};
}

}  // namespace cupp::sparse::linalg
