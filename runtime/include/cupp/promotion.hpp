// NumPy 2 type promotion (NEP 50) and casting rules, from the tables generated out of
// specs/promotion.yaml: promote_types, result_type (binary, n-ary with NumPy's main-dtype rule,
// and with weak C++ scalars), can_cast.
#pragma once

#include <complex>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string_view>

#include "cupp/dtype.hpp"

namespace cupp {

// NumPy's casting levels, from strictest to loosest.
enum class casting { no, equiv, safe, same_kind, unsafe };
std::string_view to_string(casting c) noexcept;

// A plain C++ value used as an operand: a *weak* scalar under NEP 50, like a Python scalar.
// Its dtype comes from the array it meets (uint8 array + 3 -> uint8); an integer value that
// does not fit an integer result raises OverflowError. cupp::scalar(value, dtype) and 0-d
// arrays are strong and promote like arrays.
class weak_scalar {
 public:
  enum class kind : std::uint8_t { bool_, int_, float_, complex_ };

  weak_scalar(bool v) noexcept : kind_(kind::bool_), negative_(false), magnitude_(v) {}  // NOLINT
  template <std::integral T>
    requires(!std::same_as<T, bool>)
  weak_scalar(T v) noexcept  // NOLINT: implicit, like a Python int
      : kind_(kind::int_), negative_(v < 0), magnitude_(magnitude_of(v)) {}
  template <std::floating_point T>
  weak_scalar(T v) noexcept : kind_(kind::float_), real_(static_cast<double>(v)) {}  // NOLINT
  template <std::floating_point T>
  weak_scalar(std::complex<T> v) noexcept  // NOLINT
      : kind_(kind::complex_), real_(static_cast<double>(v.real())), imag_(static_cast<double>(v.imag())) {}

  kind scalar_kind() const noexcept { return kind_; }
  // Integer value as sign and magnitude (covers int64 and uint64 alike).
  bool is_negative() const noexcept { return negative_; }
  std::uint64_t magnitude() const noexcept { return magnitude_; }
  double real() const noexcept { return kind_ == kind::int_ || kind_ == kind::bool_ ? as_double() : real_; }
  double imag() const noexcept { return imag_; }
  // Whether this integer (or bool) value is representable in the integer dtype d.
  bool fits(dtype d) const noexcept;

 private:
  template <class T>
  static constexpr std::uint64_t magnitude_of(T v) noexcept {
    if constexpr (std::is_signed_v<T>) {
      return v < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(static_cast<std::int64_t>(v))
                   : static_cast<std::uint64_t>(v);
    } else {
      return static_cast<std::uint64_t>(v);
    }
  }
  double as_double() const noexcept {
    return negative_ ? -static_cast<double>(magnitude_) : static_cast<double>(magnitude_);
  }

  kind kind_;
  bool negative_ = false;
  std::uint64_t magnitude_ = 0;
  double real_ = 0.0, imag_ = 0.0;
};

// numpy.promote_types: the smallest dtype both cast to safely, by NumPy's table.
// TypeError when there is none (different void/structured dtypes, or one of them with a number).
dtype promote_types(dtype a, dtype b);

// numpy.result_type for dtypes: binary, and n-ary by NumPy's main-dtype rule (not a left fold:
// result_type(int8, uint8, float16) is float16, while (int8 + uint8) + float16 is float32).
// Empty input throws ValueError.
dtype result_type(dtype a, dtype b);
dtype result_type(std::span<const dtype> dtypes);
dtype result_type(std::initializer_list<dtype> dtypes);

// Result dtype of arrays (their dtypes) with weak scalars (NEP 50). The scalars' kinds only
// matter where they outrank the arrays' kind; integer scalars must fit an integer result
// (OverflowError otherwise, naming the value and dtype). With no arrays, the scalars give
// bool / int64 / float64 / complex128.
dtype result_type(std::span<const dtype> arrays, std::span<const weak_scalar> scalars);
dtype result_type(dtype array_dtype, const weak_scalar& scalar);

// numpy.can_cast(from, to, casting) for dtypes.
bool can_cast(dtype from, dtype to, casting rule = casting::safe);

}  // namespace cupp
