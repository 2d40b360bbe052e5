// Internal to cupp::sparse::linalg (sparse/src/linalg/): the dtype and shape helpers the solvers
// share, the device-scalar kernels of the Krylov recurrences, and SciPy's make_system checks.
#pragma once

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::sparse::linalg {
class LinearOperator;
}

namespace cupp::sparse::linalg::detail {

inline bool is_inexact(const cupp::dtype& t) { return t.kind() == 'f' || t.kind() == 'c'; }
inline bool is_complex(const cupp::dtype& t) { return t.kind() == 'c'; }
// "(3, 4)", "(3,)" as Python prints a shape.
std::string shape_text(const ndarray& a);
// Python's repr of a float ("1e-05", "-1.0", "inf").
std::string py_float(double v);
// float32 <- complex64, float64 <- complex128, else itself.
cupp::dtype real_of(const cupp::dtype& t);
// The machine epsilon of a float32/64 or complex64/128 dtype.
double eps_of(const cupp::dtype& t);
// SciPy's solver dtype: coerce over 'fdFD' (integers and bool: float64; float16: float32).
cupp::dtype solver_type(const cupp::dtype& a, const cupp::dtype& b);

// The squared 2-norm of x (a 0-d array of x's real dtype), deterministic, on the device.
ndarray nrm2sq(const ndarray& x);
// vdot(a, b) = sum conj(a) b, a 0-d array of their dtype, on the device.
ndarray dotc(const ndarray& a, const ndarray& b);

// SciPy's make_system for a square solve: A (N, N), b (N,) or (N, 1), x0 of the same; the
// routine's name goes into the messages. x is a fresh (N,) array of the solver dtype (x0's
// values, or zeros); b is (N,) in that dtype.
struct system {
  std::int64_t n = 0;
  cupp::dtype type = float64;
  ndarray b, x;
  bool x0_given = false;
};
// M, when given, must be (N, N) (SciPy's check, made before any device work).
system make_system(const char* name, const LinearOperator& A, const ndarray& b, const ndarray& x0,
                   const LinearOperator* M = nullptr);
// SciPy's _get_atol_rtol: ValueError for a negative or NaN atol; max(atol, rtol * bnrm2).
double get_atol(const char* name, double bnrm2, double atol, double rtol);

// Several device scalars (0-d or 1-element arrays, any numeric dtype) read to the host in one
// transfer, as complex<double> (the solvers' one read per step).
std::vector<std::complex<double>> read_values(std::initializer_list<ndarray> values);
// A host scalar as an element-wise operand for arrays of `type`: a Python complex for complex
// types, its real part (a Python float) for real ones, so a real solve never turns complex.
operand scalar_for(std::complex<double> v, const cupp::dtype& type);
// sqrt(nrm2sq(x)) read to the host.
double norm_host(const ndarray& x);
// The product of an operator cast to the solver dtype `type` (no copy when it already is).
ndarray as_type(const ndarray& v, const cupp::dtype& type);
// Host coefficients (a small solve's result) as a device vector of `type` (the real parts for a
// real type).
ndarray upload(const std::vector<std::complex<double>>& v, const cupp::dtype& type);
// LAPACK's lartg: c real, [c s; -conj(s) c] [f; g] = [r; 0] (the GMRES family's Givens rotations).
void lartg(std::complex<double> f, std::complex<double> g, double& c, std::complex<double>& s, std::complex<double>& r);

}  // namespace cupp::sparse::linalg::detail
