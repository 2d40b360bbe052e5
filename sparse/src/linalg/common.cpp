// cupp::sparse::linalg's shared helpers (common.hpp): dtype rules, Python-style texts, the device
// norms and dot products, and SciPy's make_system checks.
#include "linalg/common.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reduction_kernel.hpp"
#include "cupp/sparse_linalg.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::sparse::linalg::detail {

std::string shape_text(const ndarray& a) {
  std::string s = "(";
  for (int i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

std::string py_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, end);
  if (s.find_first_of(".einf") == std::string::npos) s += ".0";
  // Python writes 1e-05 where to_chars writes 1e-05 too; exponents of one digit get a zero
  const auto e = s.find('e');
  if (e != std::string::npos) {
    std::string mant = s.substr(0, e), ex = s.substr(e + 1);
    const char sign = ex[0] == '-' ? '-' : '+';
    if (ex[0] == '-' || ex[0] == '+') ex = ex.substr(1);
    if (ex.size() < 2) ex = "0" + ex;
    s = mant + "e" + sign + ex;
  }
  return s;
}

cupp::dtype real_of(const cupp::dtype& t) {
  if (t == complex64) return float32;
  if (t == complex128) return float64;
  return t;
}

double eps_of(const cupp::dtype& t) {
  return real_of(t) == float32 ? static_cast<double>(std::numeric_limits<float>::epsilon())
                               : std::numeric_limits<double>::epsilon();
}

cupp::dtype solver_type(const cupp::dtype& a, const cupp::dtype& b) {
  auto fd = [](const cupp::dtype& t) -> cupp::dtype {
    if (t == float32 || t == float64 || t == complex64 || t == complex128) return t;
    if (t == float16) return float32;
    return float64;
  };
  const cupp::dtype x = fd(a), y = fd(b);
  const bool c = is_complex(x) || is_complex(y);
  const bool dbl = real_of(x) == float64 || real_of(y) == float64;
  return c ? (dbl ? complex128 : complex64) : (dbl ? float64 : float32);
}

ndarray nrm2sq(const ndarray& x) {
  static std::mutex mutex;
  static std::map<int, ReductionKernel> kernels;
  const std::lock_guard lock(mutex);
  const int key = static_cast<int>(x.dtype().id());
  auto it = kernels.find(key);
  if (it == kernels.end()) {
    const std::string c = x.dtype().name(), r = real_of(x.dtype()).name();
    const std::string map = is_complex(x.dtype()) ? "x.re * x.re + x.im * x.im" : "x * x";
    it = kernels.emplace(key, ReductionKernel(c + " x", r + " y", map, "a + b", "y = a", "0",
                                              "cupp_sparse_nrm2sq_" + c, r)).first;
  }
  return it->second(x);
}

ndarray dotc(const ndarray& a, const ndarray& b) { return cupp::vdot(a, b); }

system make_system(const char* name, const LinearOperator& A, const ndarray& b, const ndarray& x0,
                   const LinearOperator* M) {
  const shape2 s = A.shape();
  if (s[0] != s[1])
    throw ValueError("expected square matrix, but got shape=(" + std::to_string(s[0]) + ", " +
                     std::to_string(s[1]) + ")");
  const std::int64_t n = s[0];
  auto vector_ok = [n](const ndarray& v) {
    return (v.ndim() == 1 && v.shape(0) == n) || (v.ndim() == 2 && v.shape(0) == n && v.shape(1) == 1);
  };
  const std::string a_shape = "(" + std::to_string(n) + ", " + std::to_string(n) + ")";
  if (b.is_null() || !vector_ok(b))
    throw ValueError(std::string(name) + ": shapes of A " + a_shape + " and b " +
                     (b.is_null() ? std::string("None") : shape_text(b)) + " are incompatible");
  if (!x0.is_null() && !vector_ok(x0))
    throw ValueError(std::string(name) + ": shapes of A " + a_shape + " and x0 " + shape_text(x0) +
                     " are incompatible");
  if (M && (M->shape()[0] != n || M->shape()[1] != n))
    throw ValueError(std::string(name) + ": matrix and preconditioner have different shapes: " + a_shape + " and (" +
                     std::to_string(M->shape()[0]) + ", " + std::to_string(M->shape()[1]) + ")");
  system sys;
  sys.n = n;
  sys.type = solver_type(A.dtype(), b.dtype());
  sys.b = cupp::astype(b.reshape({n}), sys.type, casting::unsafe, false);
  if (!x0.is_null()) {
    sys.x = cupp::astype(x0.reshape({n}), sys.type, casting::unsafe, true);
    sys.x0_given = true;
  } else {
    sys.x = cupp::zeros({n}, sys.type);
  }
  return sys;
}

double get_atol(const char* name, double bnrm2, double atol, double rtol) {
  if (std::isnan(atol) || atol < 0)
    throw ValueError("'scipy.sparse.linalg." + std::string(name) + "' called with invalid `atol`=" + py_float(atol) +
                     "; if set, `atol` must be a real, non-negative number.");
  return std::max(atol, rtol * bnrm2);
}

std::vector<std::complex<double>> read_values(std::initializer_list<ndarray> values) {
  std::vector<ndarray> parts;
  parts.reserve(values.size());
  for (const ndarray& v : values) parts.push_back(cupp::astype(v.reshape({1}), complex128, casting::unsafe, false));
  return cupp::concatenate(parts).to_vector<std::complex<double>>();
}

operand scalar_for(std::complex<double> v, const cupp::dtype& type) {
  if (is_complex(type)) return operand(v);
  return operand(v.real());
}

double norm_host(const ndarray& x) { return std::sqrt(nrm2sq(x).item<double>()); }

ndarray as_type(const ndarray& v, const cupp::dtype& type) { return cupp::astype(v, type, casting::unsafe, false); }

ndarray upload(const std::vector<std::complex<double>>& v, const cupp::dtype& type) {
  const ndarray d = cupp::asarray(v);
  return is_complex(type) ? cupp::astype(d, type) : cupp::astype(cupp::real(d), type);
}

void lartg(std::complex<double> f, std::complex<double> g, double& c, std::complex<double>& s, std::complex<double>& r) {
  using cd = std::complex<double>;
  if (g == cd(0)) {
    c = 1, s = 0, r = f;
  } else if (f == cd(0)) {
    c = 0, s = std::conj(g) / std::abs(g), r = std::abs(g);
  } else {
    const double fa = std::abs(f), d = std::hypot(fa, std::abs(g));
    const cd sign = f / fa;
    c = fa / d, s = sign * std::conj(g) / d, r = sign * d;
  }
}

const ElementwiseKernel& solver_kernel(const std::string& name, bool cplx, const char* in, const char* out,
                                       std::string body) {
  static std::mutex mutex;
  static std::map<std::string, ElementwiseKernel> table;
  const std::lock_guard lock(mutex);
  const std::string key = name + (cplx ? "_c" : "_r");
  auto it = table.find(key);
  if (it != table.end()) return it->second;
  const bool uses_z = body.find("Z") != std::string::npos, uses_tz = body.find("TZ(") != std::string::npos,
             uses_zt = body.find("ZT(") != std::string::npos;
  auto replace = [&](const std::string& from, const std::string& to) {
    for (std::size_t p = body.find(from); p != std::string::npos; p = body.find(from, p + to.size()))
      body.replace(p, from.size(), to);
  };
  replace("ABS(", cplx ? "cupp::dev::complex_abs(" : "fabs(");
  replace("CONJ(", cplx ? "cupp_sparse_conj(" : "(");
  replace("REAL(", cplx ? "cupp_sparse_real(" : "(");
  replace("TZ(", cplx ? "cupp_sparse_tz(" : "Z((double)");
  replace("ZT(", "cupp_sparse_zt(");
  std::string prelude;
  if (cplx) prelude += "auto cupp_sparse_conj = [](auto z) { return decltype(z)(z.re, -z.im); };\n";
  if (cplx && body.find("cupp_sparse_real(") != std::string::npos)
    prelude += "auto cupp_sparse_real = [](auto z) { return z.re; };\n";
  if (uses_z) prelude += "using Z = cupp::dev::complex<double>;\n";
  if (uses_tz && cplx) prelude += "auto cupp_sparse_tz = [](auto v) { return Z((double)v.re, (double)v.im); };\n";
  if (uses_zt)
    prelude += cplx ? "auto cupp_sparse_zt = [](Z z) { return T(z.re, z.im); };\n"
                    : "auto cupp_sparse_zt = [](Z z) { return T(z.re); };\n";
  return table.emplace(key, ElementwiseKernel(in, out, prelude + body, "cupp_sparse_" + key)).first->second;
}

int check_interval(bool has_callback, int check_every) {
  if (has_callback) return 1;
  if (check_every < 0) throw ValueError("check_every must be >= 0");
  return check_every > 0 ? check_every : 8;
}

}  // namespace cupp::sparse::linalg::detail
