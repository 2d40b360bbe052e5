// Host scalar types for cupp's 16-bit floats: cupp::float16_t (IEEE 754 binary16, NumPy's
// float16) and cupp::bfloat16_t (bfloat16: float32's exponent, 7 mantissa bits). Each is a
// trivially copyable 2-byte struct holding the bits, with the same layout as CUDA's __half and
// __nv_bfloat16. Conversions from float and double round to nearest, ties to even (NaN stays
// NaN with the quiet bit set, overflow gives inf); conversion to float is exact. No CUDA
// headers are needed.
#pragma once

#include <bit>
#include <compare>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace cupp {

namespace detail {

// Rounds v to the nearest value of a binary format with ExpBits exponent bits and MantBits
// explicit mantissa bits (IEEE-style: bias 2^(ExpBits-1) - 1, subnormals, inf, NaN), ties to
// even, and returns its bits. A NaN keeps its sign and the top of its payload and gets the
// quiet bit. Works from double, so rounding a float through it is exact single rounding.
template <int ExpBits, int MantBits>
constexpr std::uint16_t round_to_small_float(double v) noexcept {
  static_assert(ExpBits + MantBits == 15);
  constexpr std::uint64_t double_mant_mask = (std::uint64_t{1} << 52) - 1;
  constexpr std::uint16_t exp_mask = static_cast<std::uint16_t>(((1u << ExpBits) - 1) << MantBits);
  constexpr int bias = (1 << (ExpBits - 1)) - 1;

  const std::uint64_t x = std::bit_cast<std::uint64_t>(v);
  const auto sign = static_cast<std::uint16_t>((x >> 63) << 15);
  const std::uint64_t magnitude = x & ~(std::uint64_t{1} << 63);
  const auto double_exp = static_cast<int>(magnitude >> 52);

  if (double_exp == 0x7ff) {
    if ((magnitude & double_mant_mask) == 0) return sign | exp_mask;  // infinity
    const auto payload = static_cast<std::uint16_t>((magnitude >> (52 - MantBits)) & ((1u << MantBits) - 1));
    return sign | exp_mask | static_cast<std::uint16_t>(1u << (MantBits - 1)) | payload;
  }
  // Zero and double subnormals (below 2^-1022) are far below half the smallest target subnormal.
  if (double_exp == 0) return sign;

  const std::uint64_t significand = (magnitude & double_mant_mask) | (std::uint64_t{1} << 52);
  const int biased = double_exp - 1023 + bias;  // target exponent field if the result is normal
  const int field = biased < 1 ? 1 : biased;    // subnormal results share exponent field 1's scale
  const int shift = 52 - MantBits + (field - biased);
  if (shift > 60) return sign;  // less than a quarter of the smallest subnormal: rounds to zero

  std::uint64_t kept = significand >> shift;
  const std::uint64_t rest = significand & ((std::uint64_t{1} << shift) - 1);
  const std::uint64_t half_ulp = std::uint64_t{1} << (shift - 1);
  if (rest > half_ulp || (rest == half_ulp && (kept & 1) != 0)) ++kept;

  // kept holds the implicit bit for normal results, so adding it to (field - 1) << MantBits
  // gives the right exponent; a carry out of the mantissa moves to the next binade.
  const std::uint64_t bits = (static_cast<std::uint64_t>(field - 1) << MantBits) + kept;
  if (bits >= exp_mask) return sign | exp_mask;  // overflow to infinity
  return sign | static_cast<std::uint16_t>(bits);
}

}  // namespace detail

// IEEE 754 binary16 (NumPy's float16, CUDA's __half).
struct float16_t {
  // Uninitialised, like float; float16_t{} is zero.
  constexpr float16_t() noexcept = default;
  constexpr explicit float16_t(float v) noexcept
      : bits_(detail::round_to_small_float<5, 10>(static_cast<double>(v))) {}
  constexpr explicit float16_t(double v) noexcept : bits_(detail::round_to_small_float<5, 10>(v)) {}
  template <std::integral T>
  constexpr explicit float16_t(T v) noexcept : float16_t(static_cast<double>(v)) {}

  static constexpr float16_t from_bits(std::uint16_t bits) noexcept {
    float16_t h;
    h.bits_ = bits;
    return h;
  }
  constexpr std::uint16_t bits() const noexcept { return bits_; }

  // Exact.
  constexpr operator float() const noexcept {  // NOLINT: implicit, like __half
    const std::uint32_t sign = static_cast<std::uint32_t>(bits_ & 0x8000u) << 16;
    const std::uint32_t exponent = (bits_ >> 10) & 0x1fu;
    const std::uint32_t mantissa = bits_ & 0x3ffu;
    if (exponent == 0x1f) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));  // inf, NaN
    if (exponent != 0) return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
    // Subnormal (or zero): mantissa * 2^-24, exact in float.
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign != 0 ? -magnitude : magnitude;
  }
  constexpr explicit operator double() const noexcept { return static_cast<double>(static_cast<float>(*this)); }

  // IEEE comparisons: NaN is unordered, -0 == +0.
  friend constexpr bool operator==(float16_t a, float16_t b) noexcept {
    return static_cast<float>(a) == static_cast<float>(b);
  }
  friend constexpr std::partial_ordering operator<=>(float16_t a, float16_t b) noexcept {
    return static_cast<float>(a) <=> static_cast<float>(b);
  }

 private:
  std::uint16_t bits_;
};

// bfloat16: the top half of a float32 (CUDA's __nv_bfloat16, ml_dtypes.bfloat16).
struct bfloat16_t {
  constexpr bfloat16_t() noexcept = default;
  constexpr explicit bfloat16_t(float v) noexcept : bits_(from_float(v)) {}
  constexpr explicit bfloat16_t(double v) noexcept : bits_(detail::round_to_small_float<8, 7>(v)) {}
  template <std::integral T>
  constexpr explicit bfloat16_t(T v) noexcept : bfloat16_t(static_cast<double>(v)) {}

  static constexpr bfloat16_t from_bits(std::uint16_t bits) noexcept {
    bfloat16_t h;
    h.bits_ = bits;
    return h;
  }
  constexpr std::uint16_t bits() const noexcept { return bits_; }

  // Exact.
  constexpr operator float() const noexcept {  // NOLINT: implicit, like __nv_bfloat16
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits_) << 16);
  }
  constexpr explicit operator double() const noexcept { return static_cast<double>(static_cast<float>(*this)); }

  friend constexpr bool operator==(bfloat16_t a, bfloat16_t b) noexcept {
    return static_cast<float>(a) == static_cast<float>(b);
  }
  friend constexpr std::partial_ordering operator<=>(bfloat16_t a, bfloat16_t b) noexcept {
    return static_cast<float>(a) <=> static_cast<float>(b);
  }

 private:
  // Round to nearest even on the float's bits: add just under half an ulp plus the kept
  // lowest bit, then truncate. A carry into the exponent field gives the next binade or inf.
  static constexpr std::uint16_t from_float(float v) noexcept {
    const std::uint32_t x = std::bit_cast<std::uint32_t>(v);
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x0040u);  // quiet NaN
    const std::uint32_t lsb = (x >> 16) & 1u;
    return static_cast<std::uint16_t>((x + 0x7fffu + lsb) >> 16);
  }

  std::uint16_t bits_;
};

static_assert(sizeof(float16_t) == 2 && alignof(float16_t) == 2);
static_assert(sizeof(bfloat16_t) == 2 && alignof(bfloat16_t) == 2);
static_assert(std::is_trivially_copyable_v<float16_t> && std::is_trivially_copyable_v<bfloat16_t>);
static_assert(std::is_standard_layout_v<float16_t> && std::is_standard_layout_v<bfloat16_t>);

}  // namespace cupp

namespace std {

template <>
class numeric_limits<cupp::float16_t> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr bool is_iec559 = true;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 11;
  static constexpr int digits10 = 3;
  static constexpr int max_digits10 = 5;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -13;
  static constexpr int min_exponent10 = -4;
  static constexpr int max_exponent = 16;
  static constexpr int max_exponent10 = 4;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr cupp::float16_t min() noexcept { return cupp::float16_t::from_bits(0x0400); }
  static constexpr cupp::float16_t lowest() noexcept { return cupp::float16_t::from_bits(0xfbff); }
  static constexpr cupp::float16_t max() noexcept { return cupp::float16_t::from_bits(0x7bff); }
  static constexpr cupp::float16_t epsilon() noexcept { return cupp::float16_t::from_bits(0x1400); }
  static constexpr cupp::float16_t round_error() noexcept { return cupp::float16_t::from_bits(0x3800); }
  static constexpr cupp::float16_t infinity() noexcept { return cupp::float16_t::from_bits(0x7c00); }
  static constexpr cupp::float16_t quiet_NaN() noexcept { return cupp::float16_t::from_bits(0x7e00); }
  static constexpr cupp::float16_t signaling_NaN() noexcept { return cupp::float16_t::from_bits(0x7d00); }
  static constexpr cupp::float16_t denorm_min() noexcept { return cupp::float16_t::from_bits(0x0001); }
};

template <>
class numeric_limits<cupp::bfloat16_t> {
 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = true;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = true;
  static constexpr bool has_quiet_NaN = true;
  static constexpr bool has_signaling_NaN = true;
  static constexpr float_denorm_style has_denorm = denorm_present;
  static constexpr bool has_denorm_loss = false;
  static constexpr float_round_style round_style = round_to_nearest;
  static constexpr bool is_iec559 = false;  // not an IEEE 754 interchange format
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = 8;
  static constexpr int digits10 = 2;
  static constexpr int max_digits10 = 4;
  static constexpr int radix = 2;
  static constexpr int min_exponent = -125;
  static constexpr int min_exponent10 = -37;
  static constexpr int max_exponent = 128;
  static constexpr int max_exponent10 = 38;
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  static constexpr cupp::bfloat16_t min() noexcept { return cupp::bfloat16_t::from_bits(0x0080); }
  static constexpr cupp::bfloat16_t lowest() noexcept { return cupp::bfloat16_t::from_bits(0xff7f); }
  static constexpr cupp::bfloat16_t max() noexcept { return cupp::bfloat16_t::from_bits(0x7f7f); }
  static constexpr cupp::bfloat16_t epsilon() noexcept { return cupp::bfloat16_t::from_bits(0x3c00); }
  static constexpr cupp::bfloat16_t round_error() noexcept { return cupp::bfloat16_t::from_bits(0x3f00); }
  static constexpr cupp::bfloat16_t infinity() noexcept { return cupp::bfloat16_t::from_bits(0x7f80); }
  static constexpr cupp::bfloat16_t quiet_NaN() noexcept { return cupp::bfloat16_t::from_bits(0x7fc0); }
  static constexpr cupp::bfloat16_t signaling_NaN() noexcept { return cupp::bfloat16_t::from_bits(0x7fa0); }
  static constexpr cupp::bfloat16_t denorm_min() noexcept { return cupp::bfloat16_t::from_bits(0x0001); }
};

}  // namespace std
