// cupp eval: Python scalars (bool, int, float, complex) and Python's arithmetic on them. An
// operator whose operands are both scalars is computed here, on the host, as Python would
// (2*3 stays a weak int 6, 1/2 is 0.5, 7//-2 is -4); only when it meets an array does a value
// become a weak cupp::weak_scalar operand of a ufunc (NEP 50). Integers are exact up to 127 bits.
#pragma once

#include <complex>
#include <string>

#include "ast.hpp"
#include "cupp/errors.hpp"
#include "cupp/promotion.hpp"
#include "tokenizer.hpp"

namespace cupp::eval {

// Python's ZeroDivisionError, for scalar arithmetic (arrays follow NumPy: inf/nan, no error).
class ZeroDivisionError : public cupp::Error {
 public:
  using cupp::Error::Error;
  const char* class_name() const noexcept override { return "ZeroDivisionError"; }
};

struct py_scalar {
  enum class kind { bool_, int_, float_, complex_ };
  kind k = kind::int_;
  bool b = false;
  int128 i = 0;
  double f = 0.0;
  std::complex<double> c;

  static py_scalar boolean(bool v);
  static py_scalar integer(int128 v);
  static py_scalar floating(double v);
  static py_scalar complex(std::complex<double> v);

  const char* type_name() const noexcept;  // "bool", "int", "float", "complex"
  std::string repr() const;                // as Python prints it: True, 3, 2.5, (1+2j)
};

// The weak operand a ufunc gets. An integer outside int64/uint64 is an OverflowError.
cupp::weak_scalar to_weak(const py_scalar& s);

// Python's result of `op x` / `x op y` for scalars: TypeError for unsupported types (~1.5,
// 1.5 & 2, 1j < 2), ZeroDivisionError, ValueError (negative shift count), OverflowError
// (an integer beyond 127 bits, a float power out of range).
py_scalar apply(unary_op op, const py_scalar& x);
py_scalar apply(binary_op op, const py_scalar& x, const py_scalar& y);

}  // namespace cupp::eval
