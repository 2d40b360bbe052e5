// cupp eval: Python scalar arithmetic on the host (see scalar.hpp).
#include "scalar.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace cupp::eval {

namespace {

using kind = py_scalar::kind;

[[noreturn]] void int_overflow() {
  throw cupp::OverflowError("integer result too large (cupp eval computes Python ints exactly up to 127 bits)");
}

int128 checked_add(int128 a, int128 b) {
  int128 r;
  if (__builtin_add_overflow(a, b, &r)) int_overflow();
  return r;
}
int128 checked_sub(int128 a, int128 b) {
  int128 r;
  if (__builtin_sub_overflow(a, b, &r)) int_overflow();
  return r;
}
int128 checked_mul(int128 a, int128 b) {
  int128 r;
  if (__builtin_mul_overflow(a, b, &r)) int_overflow();
  return r;
}

// bool behaves as int in arithmetic.
int128 as_int(const py_scalar& s) { return s.k == kind::bool_ ? int128(s.b ? 1 : 0) : s.i; }
double as_float(const py_scalar& s) {
  switch (s.k) {
    case kind::bool_: return s.b ? 1.0 : 0.0;
    case kind::int_: return static_cast<double>(s.i);
    case kind::float_: return s.f;
    case kind::complex_: return s.c.real();
  }
  return 0.0;
}
std::complex<double> as_complex(const py_scalar& s) {
  return s.k == kind::complex_ ? s.c : std::complex<double>(as_float(s), 0.0);
}

// The common kind of two operands (bool counts as int).
kind common(const py_scalar& x, const py_scalar& y) {
  const auto rank = [](kind k) { return k == kind::bool_ ? kind::int_ : k; };
  return std::max(rank(x.k), rank(y.k));
}

[[noreturn]] void unsupported(binary_op op, const py_scalar& x, const py_scalar& y) {
  throw cupp::TypeError(std::string("unsupported operand type(s) for ") + std::string(spelling(op)) + ": '" +
                        x.type_name() + "' and '" + y.type_name() + "'");
}

int128 floor_div(int128 a, int128 b) {
  if (b == 0) throw ZeroDivisionError("integer division or modulo by zero");
  if (b == -1) return checked_sub(0, a);
  int128 q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int128 floor_mod(int128 a, int128 b) {
  if (b == 0) throw ZeroDivisionError("integer division or modulo by zero");
  if (b == -1) return 0;
  int128 r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Python's float floor division and modulo (Objects/floatobject.c).
void float_divmod(double vx, double wx, double& floordiv, double& mod) {
  mod = std::fmod(vx, wx);
  double div = (vx - mod) / wx;
  if (mod != 0.0) {
    if ((wx < 0) != (mod < 0)) {
      mod += wx;
      div -= 1.0;
    }
  } else {
    mod = std::copysign(0.0, wx);
  }
  if (div != 0.0) {
    floordiv = std::floor(div);
    if (div - floordiv > 0.5) floordiv += 1.0;
  } else {
    floordiv = std::copysign(0.0, vx / wx);
  }
}

int128 int_power(int128 base, int128 exp) {
  int128 result = 1;
  while (exp > 0) {
    if (exp & 1) result = checked_mul(result, base);
    exp >>= 1;
    if (exp > 0) base = checked_mul(base, base);
  }
  return result;
}

py_scalar float_power(double a, double b) {
  if (a == 0.0 && b < 0.0) throw ZeroDivisionError("zero to a negative power");
  if (a < 0.0 && std::isfinite(b) && b != std::floor(b))  // Python gives a complex result
    return py_scalar::complex(std::pow(std::complex<double>(a, 0.0), std::complex<double>(b, 0.0)));
  const double r = std::pow(a, b);
  if (std::isinf(r) && std::isfinite(a) && std::isfinite(b)) throw cupp::OverflowError("(34, 'Numerical result out of range')");
  return py_scalar::floating(r);
}

int compare(const py_scalar& x, const py_scalar& y) {  // -1, 0, 1; 2 when unordered (nan)
  if (common(x, y) == kind::int_) {
    const int128 a = as_int(x), b = as_int(y);
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const double a = as_float(x), b = as_float(y);
  if (a < b) return -1;
  if (a > b) return 1;
  return a == b ? 0 : 2;
}

// Python's repr of a float: the shortest digits that round-trip, in fixed notation when the
// decimal exponent is in [-4, 16), otherwise as 1e+16 / 1.5e-05.
std::string float_repr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[48];
  int precision = 0;
  for (; precision < 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*e", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  const std::string e = buf;  // [-]d[.ddd]e[+-]XX
  const std::size_t epos = e.find('e');
  const int exponent = std::atoi(e.c_str() + epos + 1);
  const bool negative = e.front() == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < epos; ++i) {
    if (e[i] != '.') digits += e[i];
  }
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char ex[16];
    std::snprintf(ex, sizeof ex, "e%c%02d", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    return out + ex;
  }
  if (exponent < 0) return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  const auto int_len = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= int_len) return out + digits + std::string(int_len - digits.size(), '0') + ".0";
  return out + digits.substr(0, int_len) + "." + digits.substr(int_len);
}

}  // namespace

py_scalar py_scalar::boolean(bool v) {
  py_scalar s;
  s.k = kind::bool_;
  s.b = v;
  return s;
}
py_scalar py_scalar::integer(int128 v) {
  py_scalar s;
  s.k = kind::int_;
  s.i = v;
  return s;
}
py_scalar py_scalar::floating(double v) {
  py_scalar s;
  s.k = kind::float_;
  s.f = v;
  return s;
}
py_scalar py_scalar::complex(std::complex<double> v) {
  py_scalar s;
  s.k = kind::complex_;
  s.c = v;
  return s;
}

const char* py_scalar::type_name() const noexcept {
  switch (k) {
    case kind::bool_: return "bool";
    case kind::int_: return "int";
    case kind::float_: return "float";
    case kind::complex_: return "complex";
  }
  return "?";
}

std::string py_scalar::repr() const {
  switch (k) {
    case kind::bool_: return b ? "True" : "False";
    case kind::int_: return int128_to_string(i);
    case kind::float_: return float_repr(f);
    case kind::complex_: {
      std::string im = float_repr(c.imag());
      if (im.size() > 2 && im.compare(im.size() - 2, 2, ".0") == 0) im.resize(im.size() - 2);
      if (c.real() == 0.0 && !std::signbit(c.real())) return im + "j";
      std::string re = float_repr(c.real());
      if (re.size() > 2 && re.compare(re.size() - 2, 2, ".0") == 0) re.resize(re.size() - 2);
      return "(" + re + (im.front() == '-' ? "" : "+") + im + "j)";
    }
  }
  return "?";
}

cupp::weak_scalar to_weak(const py_scalar& s) {
  switch (s.k) {
    case kind::bool_: return cupp::weak_scalar(s.b);
    case kind::float_: return cupp::weak_scalar(s.f);
    case kind::complex_: return cupp::weak_scalar(s.c);
    case kind::int_: break;
  }
  constexpr int128 kUint64Max = static_cast<int128>(std::numeric_limits<std::uint64_t>::max());
  constexpr int128 kInt64Min = static_cast<int128>(std::numeric_limits<std::int64_t>::min());
  if (s.i >= 0 && s.i <= kUint64Max) return cupp::weak_scalar(static_cast<std::uint64_t>(s.i));
  if (s.i < 0 && s.i >= kInt64Min) return cupp::weak_scalar(static_cast<std::int64_t>(s.i));
  throw cupp::OverflowError("Python integer " + int128_to_string(s.i) +
                            " out of bounds: a weak integer must fit int64 or uint64");
}

py_scalar apply(unary_op op, const py_scalar& x) {
  switch (op) {
    case unary_op::positive:
      return x.k == kind::bool_ ? py_scalar::integer(as_int(x)) : x;
    case unary_op::negative:
      switch (x.k) {
        case kind::bool_:
        case kind::int_: return py_scalar::integer(checked_sub(0, as_int(x)));
        case kind::float_: return py_scalar::floating(-x.f);
        case kind::complex_: return py_scalar::complex(-x.c);
      }
      break;
    case unary_op::invert:
      if (x.k == kind::float_ || x.k == kind::complex_)
        throw cupp::TypeError(std::string("bad operand type for unary ~: '") + x.type_name() + "'");
      return py_scalar::integer(~as_int(x));
  }
  return x;
}

py_scalar apply(binary_op op, const py_scalar& x, const py_scalar& y) {
  const kind k = common(x, y);
  switch (op) {
    case binary_op::add:
    case binary_op::subtract:
    case binary_op::multiply: {
      if (k == kind::int_) {
        const int128 a = as_int(x), b = as_int(y);
        return py_scalar::integer(op == binary_op::add        ? checked_add(a, b)
                                  : op == binary_op::subtract ? checked_sub(a, b)
                                                              : checked_mul(a, b));
      }
      if (k == kind::float_) {
        const double a = as_float(x), b = as_float(y);
        return py_scalar::floating(op == binary_op::add ? a + b : op == binary_op::subtract ? a - b : a * b);
      }
      const auto a = as_complex(x), b = as_complex(y);
      return py_scalar::complex(op == binary_op::add ? a + b : op == binary_op::subtract ? a - b : a * b);
    }
    case binary_op::divide: {
      if (k == kind::complex_) {
        if (as_complex(y) == std::complex<double>(0.0, 0.0)) throw ZeroDivisionError("complex division by zero");
        return py_scalar::complex(as_complex(x) / as_complex(y));
      }
      if (as_float(y) == 0.0)
        throw ZeroDivisionError(k == kind::int_ ? "division by zero" : "float division by zero");
      return py_scalar::floating(as_float(x) / as_float(y));
    }
    case binary_op::floor_divide:
    case binary_op::remainder: {
      if (k == kind::complex_) unsupported(op, x, y);
      const bool div = op == binary_op::floor_divide;
      if (k == kind::int_) return py_scalar::integer(div ? floor_div(as_int(x), as_int(y)) : floor_mod(as_int(x), as_int(y)));
      if (as_float(y) == 0.0) throw ZeroDivisionError(div ? "float floor division by zero" : "float modulo by zero");
      double q = 0.0, r = 0.0;
      float_divmod(as_float(x), as_float(y), q, r);
      return py_scalar::floating(div ? q : r);
    }
    case binary_op::power: {
      if (k == kind::int_) {
        const int128 a = as_int(x), b = as_int(y);
        if (b >= 0) return py_scalar::integer(int_power(a, b));
        return float_power(static_cast<double>(a), static_cast<double>(b));
      }
      if (k == kind::float_) return float_power(as_float(x), as_float(y));
      const auto a = as_complex(x), b = as_complex(y);
      if (a == std::complex<double>(0.0, 0.0)) {
        if (b.imag() != 0.0 || b.real() < 0.0) throw ZeroDivisionError("zero to a negative or complex power");
        return py_scalar::complex(b.real() == 0.0 ? std::complex<double>(1.0, 0.0) : std::complex<double>(0.0, 0.0));
      }
      return py_scalar::complex(std::pow(a, b));
    }
    case binary_op::bitwise_and:
    case binary_op::bitwise_or:
    case binary_op::bitwise_xor: {
      if (k != kind::int_) unsupported(op, x, y);
      const int128 a = as_int(x), b = as_int(y);
      const int128 r = op == binary_op::bitwise_and ? (a & b) : op == binary_op::bitwise_or ? (a | b) : (a ^ b);
      if (x.k == kind::bool_ && y.k == kind::bool_) return py_scalar::boolean(r != 0);
      return py_scalar::integer(r);
    }
    case binary_op::left_shift:
    case binary_op::right_shift: {
      if (k != kind::int_) unsupported(op, x, y);
      const int128 a = as_int(x), n = as_int(y);
      if (n < 0) throw cupp::ValueError("negative shift count");
      if (op == binary_op::right_shift) return py_scalar::integer(n >= 127 ? (a < 0 ? -1 : 0) : a >> static_cast<int>(n));
      if (a == 0) return py_scalar::integer(0);
      if (n >= 127) int_overflow();
      const int128 r = static_cast<int128>(static_cast<uint128>(a) << static_cast<int>(n));
      if ((r >> static_cast<int>(n)) != a) int_overflow();
      return py_scalar::integer(r);
    }
    case binary_op::equal:
    case binary_op::not_equal: {
      bool eq;
      if (k == kind::complex_) eq = as_complex(x) == as_complex(y);
      else eq = compare(x, y) == 0;
      return py_scalar::boolean(op == binary_op::equal ? eq : !eq);
    }
    case binary_op::less:
    case binary_op::less_equal:
    case binary_op::greater:
    case binary_op::greater_equal: {
      if (k == kind::complex_)
        throw cupp::TypeError("'" + std::string(spelling(op)) + "' not supported between instances of '" +
                              x.type_name() + "' and '" + y.type_name() + "'");
      const int c = compare(x, y);
      if (c == 2) return py_scalar::boolean(false);
      const bool r = op == binary_op::less         ? c < 0
                     : op == binary_op::less_equal ? c <= 0
                     : op == binary_op::greater    ? c > 0
                                                   : c >= 0;
      return py_scalar::boolean(r);
    }
    case binary_op::matmul: break;  // Python: no @ for numbers
  }
  unsupported(op, x, y);
}

}  // namespace cupp::eval
