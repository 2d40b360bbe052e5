// Number formatting for cupp::testing's messages (format.hpp): shortest round-trip digits per
// floating type, laid out as Python's repr or NumPy's array2string lays them out.
#include "format.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cupp/float16.hpp"

namespace cupp::testing::detail {
namespace {

// The decimal digits of v (finite, nonzero) and its exponent: v = d0.d1d2... * 10^exp.
struct decimal {
  std::string digits;
  int exp = 0;
};

decimal split(const char* text) {  // text is "%e" output without a sign: "d.ddde+XX"
  decimal d;
  const char* p = text;
  for (; *p != '\0' && *p != 'e'; ++p) {
    if (*p != '.') d.digits.push_back(*p);
  }
  if (*p == 'e') d.exp = std::atoi(p + 1);
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  return d;
}

// The fewest significant digits that round back to |v| in `kind`.
decimal shortest(double v, float_kind kind) {
  const double a = std::fabs(v);
  char buf[64];
  for (int n = 1; n <= 17; ++n) {
    std::snprintf(buf, sizeof buf, "%.*e", n - 1, a);
    if (round_to(std::strtod(buf, nullptr), kind) == a) return split(buf);
  }
  std::snprintf(buf, sizeof buf, "%.16e", a);
  return split(buf);
}

// At most `precision` significant digits after the first, correctly rounded from the binary value.
decimal capped(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", precision, std::fabs(v));
  return split(buf);
}

std::string exponent_str(int exp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  return buf;
}

// Digits laid out positionally: integer part "." fraction (the fraction may be empty).
std::string positional(const decimal& d, bool point_zero) {
  std::string out;
  if (d.exp >= 0) {
    const std::size_t int_digits = static_cast<std::size_t>(d.exp) + 1;
    if (d.digits.size() <= int_digits) {
      out = d.digits + std::string(int_digits - d.digits.size(), '0') + ".";
    } else {
      out = d.digits.substr(0, int_digits) + "." + d.digits.substr(int_digits);
    }
  } else {
    out = "0." + std::string(static_cast<std::size_t>(-d.exp - 1), '0') + d.digits;
  }
  if (out.back() == '.' && point_zero) out += "0";
  return out;
}

std::string scientific(const decimal& d, bool keep_point) {
  std::string out = d.digits.substr(0, 1);
  if (d.digits.size() > 1) out += "." + d.digits.substr(1);
  else if (keep_point) out += ".";
  return out + exponent_str(d.exp);
}

std::string non_finite(double v) {
  if (std::isnan(v)) return "nan";
  return v < 0 ? "-inf" : "inf";
}

// Python's repr layout; point_zero adds ".0" to integral values (floats do, complex parts do not).
std::string repr_layout(double v, float_kind kind, bool point_zero) {
  if (!std::isfinite(v)) return non_finite(v);
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + (point_zero ? "0.0" : "0");
  const decimal d = shortest(v, kind);
  if (d.exp >= -4 && d.exp < 16) {
    std::string out = positional(d, point_zero);
    if (out.back() == '.') out.pop_back();  // complex parts: "1", not "1."
    return sign + out;
  }
  return sign + scientific(d, false);
}

}  // namespace

double round_to(double v, float_kind kind) noexcept {
  switch (kind) {
    case float_kind::f16: return static_cast<double>(float16_t(v));
    case float_kind::bf16: return static_cast<double>(static_cast<float>(bfloat16_t(v)));
    case float_kind::f32: return static_cast<double>(static_cast<float>(v));
    case float_kind::f64: return v;
  }
  return v;
}

std::string scalar_str(double v, float_kind kind) { return repr_layout(v, kind, true); }

std::string complex_str(std::complex<double> v, float_kind kind) {
  const std::string imag = repr_layout(v.imag(), kind, false);
  if (v.real() == 0 && !std::signbit(v.real())) return imag + "j";
  const bool negative_imag = std::signbit(v.imag()) && !std::isnan(v.imag());
  return "(" + repr_layout(v.real(), kind, false) + (negative_imag ? "" : "+") + imag + "j)";
}

std::string array2string(double v, float_kind kind) {
  if (!std::isfinite(v)) return non_finite(v);
  const std::string sign = std::signbit(v) ? "-" : "";
  if (v == 0) return sign + "0.";
  constexpr int precision = 8;  // NumPy's default print precision
  const double a = std::fabs(v);
  decimal d = shortest(v, kind);
  if (a >= 1e8 || a < 1e-4) {
    if (d.digits.size() > precision + 1) d = capped(v, precision);
    return sign + scientific(d, true);
  }
  const int fraction_digits = static_cast<int>(d.digits.size()) - 1 - d.exp;
  if (fraction_digits > precision) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", precision, a);
    std::string out = buf;
    while (out.back() == '0') out.pop_back();
    return sign + out;
  }
  return sign + positional(d, false);
}

std::string g_format(double v, int precision) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

std::string shape_str(const shape_t& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

}  // namespace cupp::testing::detail
