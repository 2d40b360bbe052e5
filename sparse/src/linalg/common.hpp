// Internal to cupp::sparse::linalg (sparse/src/linalg/): the dtype and shape helpers the solvers
// share, the device-scalar kernels of the Krylov recurrences, and SciPy's make_system checks.
#pragma once

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/elementwise_kernel.hpp"
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

// The solvers' element-wise kernels, one per (name, complex?), compiled once per dtype and kept
// for the process. The body may write ABS(v), CONJ(v) and REAL(v) for a T value (fabs, identity
// and identity for real types), and, for the double-precision scalar state the device-driven solvers keep in a raw
// complex128 array, Z (cupp::dev::complex<double>), TZ(v) (a T value as a Z) and ZT(z) (a Z as a T:
// its real part for real types).
const ElementwiseKernel& solver_kernel(const std::string& name, bool cplx, const char* in, const char* out,
                                       std::string body);
// spsolve's banded path (banded.cpp): x = A \ b by block cyclic reduction when A's nonzeros lie
// within 8 diagonals of the main one. A is square, canonical, of a float32/64 or complex dtype, with
// int32 indptr/indices; b and x are C-contiguous (n,) or (n, K) of A's dtype. False (x unspecified)
// when A is not such a band or the solution's backward error is not at rounding level: the caller
// solves another way. Two host reads (the band, the error).
bool banded_solve(const csr& a, const ndarray& indptr, const ndarray& indices, const ndarray& b, const ndarray& x);
// The banded path's CUDA source (one RawModule per dtype and block size M, and an extern "C" band
// width kernel) and the name expressions of one (dtype, M): for the host test that compiles them.
const char* banded_program_source();
std::vector<std::string> banded_kernels(const cupp::dtype& t, int M);
// eigsh's fused Lanczos step kernels (eigen.cpp): the CUDA source and the name expressions of
// one dtype's four kernels (lz_alpha, lz_dots, lz_sub, lz_scale), for the host test that compiles them.
const char* lanczos_program_source();
std::vector<std::string> lanczos_kernels(const cupp::dtype& t);
// The eigenvalues w (in no order) and eigenvectors (vectors[r][c]: component r of the c-th) of a
// small symmetric matrix a (rows of equal length): eigsh's restart cycles' projected matrix.
void symmetric_eigen(const std::vector<std::vector<double>>& a, std::vector<double>& w,
                     std::vector<std::vector<double>>& vectors);
// Iterations between host reads of a device-driven solver's state: every iteration with a
// callback, else check_every (ValueError when negative), 8 for 0.
int check_interval(bool has_callback, int check_every);

}  // namespace cupp::sparse::linalg::detail
