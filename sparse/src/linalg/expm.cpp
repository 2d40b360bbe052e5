// expm_multiply of cupp::sparse::linalg: Al-Mohy and Higham's truncated Taylor method (2011) as
// SciPy 1.18 runs it: the trace shift mu = trace(A) / n, the exact 1-norm of A - mu I, the choice
// of (m*, s) by their code fragment 3.1 (1-norms of powers of A estimated by onenormest), then s
// stages of at most m* SpMV/SpMM each with the early exit on the infinity norms. Everything but
// the scalars runs on the device; each Taylor term costs one host read (its infinity norm).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"
#include "linalg/common.hpp"

namespace cupp::sparse::linalg {
namespace {

using i64 = std::int64_t;

// theta_m for a tolerance of 2^-53 (Higham, Functions of Matrices, table A.3; Al-Mohy and Higham
// 2011, table 3.1), the values SciPy uses.
const std::map<int, double>& theta_table() {
  static const std::map<int, double> t = {
      {1, 2.29e-16}, {2, 2.58e-8}, {3, 1.39e-5}, {4, 3.40e-4}, {5, 2.40e-3}, {6, 9.07e-3}, {7, 2.38e-2},
      {8, 5.00e-2},  {9, 8.96e-2}, {10, 1.44e-1}, {11, 2.14e-1}, {12, 3.00e-1}, {13, 4.00e-1}, {14, 5.14e-1},
      {15, 6.41e-1}, {16, 7.81e-1}, {17, 9.31e-1}, {18, 1.09}, {19, 1.26}, {20, 1.44}, {21, 1.62},
      {22, 1.82},    {23, 2.01}, {24, 2.22}, {25, 2.43}, {26, 2.64}, {27, 2.86}, {28, 3.08},
      {29, 3.31},    {30, 3.54}, {35, 4.7}, {40, 6.0}, {45, 7.2}, {50, 8.5}, {55, 9.9}};
  return t;
}

// infinity norm of a vector or matrix (max row sum of |B|), read to the host
double inf_norm(const ndarray& B) {
  if (B.size() == 0) return 0;
  const ndarray a = cupp::abs(B);
  const ndarray rows = B.ndim() == 1 ? a : cupp::sum(a, {.axis = {1}});
  return cupp::astype(cupp::max(rows), float64).item<double>();
}

int p_max_of(int m_max) {
  const double r = std::sqrt(static_cast<double>(m_max));
  int best = 0;
  for (int p = static_cast<int>(std::floor(r)); p <= static_cast<int>(std::ceil(r + 1)); ++p)
    if (p * (p - 1) <= m_max + 1) best = std::max(best, p);
  return best;
}

// SciPy's LazyOperatorNormInfo over t A: the exact 1-norm and estimates of ||(t A)^p||^(1/p).
struct norm_info {
  const csr& A;
  double t, one_norm, scale = 1;
  std::map<int, double> d_cache;
  double onenorm() const { return scale * t * one_norm; }
  double d(int p) {
    auto it = d_cache.find(p);
    if (it == d_cache.end()) {
      const LinearOperator a = A;
      LinearOperator power = a;
      for (int i = 1; i < p; ++i) power = power.dot(a);
      const double est = onenormest(power) * std::pow(std::fabs(t), p);
      it = d_cache.emplace(p, std::pow(est, 1.0 / p)).first;
    }
    return scale * it->second;
  }
  double alpha(int p) { return std::max(d(p), d(p + 1)); }
};

// code fragment 3.1: (m*, s)
std::pair<int, i64> fragment_3_1(norm_info& info, i64 n0, int ell = 2, int m_max = 55) {
  const auto& theta = theta_table();
  int best_m = -1;
  i64 best_s = 0;
  const int p_max = p_max_of(m_max);
  const double a = 2.0 * ell * p_max * (p_max + 3), b = theta.at(m_max) / static_cast<double>(n0 * m_max);
  if (info.onenorm() <= a * b) {
    for (const auto& [m, th] : theta) {
      const i64 s = static_cast<i64>(std::ceil(info.onenorm() / th));
      if (best_m < 0 || m * s < best_m * best_s) best_m = m, best_s = s;
    }
  } else {
    for (int p = 2; p <= p_max; ++p)
      for (int m = p * (p - 1) - 1; m <= m_max; ++m) {
        if (!theta.count(m)) continue;
        const i64 s = static_cast<i64>(std::ceil(info.alpha(p) / theta.at(m)));
        if (best_m < 0 || m * s < best_m * best_s) best_m = m, best_s = s;
      }
    best_s = std::max<i64>(best_s, 1);
  }
  return {best_m, best_s};
}

// SciPy's _expm_multiply_simple_core: F = exp(t (A + mu I)) B with A already shifted.
ndarray simple_core(const csr& A, ndarray B, double t, double mu, int m_star, i64 s, double tol) {
  ndarray F = B;
  const double eta = std::exp(t * mu / static_cast<double>(s));
  for (i64 i = 0; i < s; ++i) {
    double c1 = inf_norm(B);
    for (int j = 0; j < m_star; ++j) {
      const double coeff = t / static_cast<double>(s * (j + 1));
      B = A.dot(B) * coeff;
      const double c2 = inf_norm(B);
      F = F + B;
      if (c1 + c2 <= tol * inf_norm(F)) break;
      c1 = c2;
    }
    F = F * eta;
    B = F;
  }
  return F;
}

}  // namespace

ndarray expm_multiply(const csr& A0, const ndarray& B0, const expm_multiply_options& o) {
  const shape2 sh = A0.shape();
  if (sh[0] != sh[1]) throw ValueError("expected A to be like a square matrix");
  if (B0.is_null() || B0.ndim() < 1 || B0.shape(0) != sh[1])
    throw ValueError("shapes of matrices A (" + std::to_string(sh[0]) + ", " + std::to_string(sh[1]) + ") and B " +
                     (B0.is_null() ? std::string("None") : detail::shape_text(B0)) + " are incompatible");
  if (B0.ndim() > 2) throw ValueError("expected B to be like a matrix or a vector");
  const i64 n = sh[0], n0 = B0.ndim() == 1 ? 1 : B0.shape(1);
  // the result dtype: result_type(A, B, float)
  const cupp::dtype type = detail::is_complex(detail::solver_type(A0.dtype(), B0.dtype())) ? complex128 : float64;
  const csr A1 = A0.astype(type, false);
  const double tol = std::ldexp(1.0, -53);
  const double traceA = o.traceA ? *o.traceA : cupp::astype(cupp::real(cupp::sum(A1.diagonal())), float64).item<double>();
  const double mu = n > 0 ? traceA / static_cast<double>(n) : 0.0;
  const csr A = mu != 0 ? A1 - sparse::identity(n, type) * mu : A1;
  const ndarray B = detail::as_type(B0, type);
  const double one_norm = n > 0 ? cupp::astype(norm(A, 1.0), float64).item<double>() : 0.0;
  const bool interval = o.start || o.stop || o.num || o.endpoint;
  if (!interval) {
    if (one_norm == 0) return simple_core(A, B, 1.0, mu, 0, 1, tol);
    norm_info info{A, 1.0, one_norm, 1, {}};
    const auto [m_star, s] = fragment_3_1(info, n0);
    return simple_core(A, B, 1.0, mu, m_star, s, tol);
  }
  // time points as numpy.linspace(start, stop, num=50, endpoint=True)
  const double start = o.start.value_or(0.0), stop = o.stop.value_or(0.0);
  const i64 num = o.num.value_or(50);
  const bool endpoint = o.endpoint.value_or(true);
  if (num < 2) throw ValueError("at least two time points are required");
  const double h = (stop - start) / static_cast<double>(endpoint ? num - 1 : num);
  const i64 q = num - 1;
  const double t_span = h * static_cast<double>(q);
  norm_info info{A, t_span, one_norm, 1, {}};
  int m_star = 0;
  i64 s = 1;
  if (t_span * one_norm != 0) std::tie(m_star, s) = fragment_3_1(info, n0);
  std::vector<ndarray> X;
  X.push_back(simple_core(A, B, start, mu, m_star, s, tol));
  // each step X[k+1] = exp(h A) X[k] (SciPy's interval core 0; its cores 1 and 2 reuse Taylor
  // terms across steps when q > s: the same values to the tolerance)
  int m_h = 0;
  i64 s_h = 1;
  if (info.onenorm() != 0) {
    info.scale = 1.0 / static_cast<double>(q);
    std::tie(m_h, s_h) = fragment_3_1(info, n0);
    info.scale = 1;
  }
  for (i64 k = 0; k < q; ++k) X.push_back(simple_core(A, X.back(), h, mu, m_h, s_h, tol));
  return cupp::stack(X);
}

}  // namespace cupp::sparse::linalg
