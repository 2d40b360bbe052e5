// Exhaustive tests of cupp::float16_t and cupp::bfloat16_t: every one of the 65,536 bit patterns
// of each type is decoded and compared with an independent reference decoder written here, and
// the float/double -> 16-bit rounding is checked around every pair of neighbouring values
// (midpoints tie to even, just below and just above a midpoint round down and up), plus
// infinities, NaNs, overflow and subnormals.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <algorithm>
#include <string>
#include <vector>

#include "cupp/float16.hpp"

namespace {

// A 16-bit binary float format: 1 sign bit, exp_bits exponent bits, mant_bits mantissa bits.
struct format {
  int exp_bits;
  int mant_bits;
  int bias() const { return (1 << (exp_bits - 1)) - 1; }
  std::uint32_t exp_all_ones() const { return (1u << exp_bits) - 1; }
  std::uint32_t mant_mask() const { return (1u << mant_bits) - 1; }
};
constexpr format binary16{5, 10};
constexpr format bfloat16{8, 7};

// The reference decoding, by the textbook formula in double arithmetic (independent of the
// bit tricks in float16.hpp).
struct decoded {
  bool is_nan = false;
  bool negative = false;
  double value = 0;  // +-inf for infinities, signed zero kept
};

decoded reference_decode(format f, std::uint16_t bits) {
  decoded d;
  d.negative = (bits >> 15) != 0;
  const std::uint32_t exponent = (bits >> f.mant_bits) & f.exp_all_ones();
  const std::uint32_t mantissa = bits & f.mant_mask();
  double magnitude;
  if (exponent == f.exp_all_ones()) {
    if (mantissa != 0) {
      d.is_nan = true;
      return d;
    }
    magnitude = std::numeric_limits<double>::infinity();
  } else if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - f.bias() - f.mant_bits);
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa) + std::ldexp(1.0, f.mant_bits),
                           static_cast<int>(exponent) - f.bias() - f.mant_bits);
  }
  d.value = d.negative ? -magnitude : magnitude;
  return d;
}

std::string hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%04x", v);
  return buf;
}

// Every pattern decodes exactly to the reference value; NaNs keep sign and payload.
template <class T>
void check_decode_all(format f) {
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const T h = T::from_bits(static_cast<std::uint16_t>(bits));
    ASSERT_EQ(h.bits(), bits);
    const float got = static_cast<float>(h);
    const decoded ref = reference_decode(f, static_cast<std::uint16_t>(bits));
    ASSERT_EQ(std::signbit(got), ref.negative) << hex(bits);
    if (ref.is_nan) {
      ASSERT_TRUE(std::isnan(got)) << hex(bits);
      const auto fbits = std::bit_cast<std::uint32_t>(got);
      // The payload (including the quiet bit) moves to the top of float's mantissa.
      ASSERT_EQ((fbits >> (23 - f.mant_bits)) & f.mant_mask(), bits & f.mant_mask()) << hex(bits);
      ASSERT_EQ(fbits & ((1u << (23 - f.mant_bits)) - 1), 0u) << hex(bits);
      ASSERT_TRUE(std::isnan(static_cast<double>(h))) << hex(bits);
    } else {
      ASSERT_EQ(static_cast<double>(got), ref.value) << hex(bits);
      ASSERT_EQ(static_cast<double>(h), ref.value) << hex(bits);
    }
  }
}

// For every non-NaN pattern, converting its value back gives the same bits (-0 included);
// for NaN patterns the result is a quiet NaN of the same sign.
template <class T>
void check_round_trip_all(format f) {
  const std::uint32_t quiet_bit = 1u << (f.mant_bits - 1);
  for (std::uint32_t bits = 0; bits <= 0xffff; ++bits) {
    const T h = T::from_bits(static_cast<std::uint16_t>(bits));
    const decoded ref = reference_decode(f, static_cast<std::uint16_t>(bits));
    const T from_float(static_cast<float>(h));
    const T from_double(static_cast<double>(h));
    if (ref.is_nan) {
      ASSERT_EQ(from_float.bits(), bits | quiet_bit) << hex(bits);
      ASSERT_EQ(from_double.bits(), bits | quiet_bit) << hex(bits);
    } else {
      ASSERT_EQ(from_float.bits(), bits) << hex(bits);
      ASSERT_EQ(from_double.bits(), bits) << hex(bits);
      ASSERT_EQ(T(ref.value).bits(), bits) << hex(bits);
    }
  }
}

// Around each pair of neighbouring non-negative values (lo, hi), with hi = inf counted as the
// next binade's first value: values and their negations round as IEEE round-to-nearest-even
// says, from float and from double.
template <class T>
void check_rounding_all(format f) {
  const std::uint32_t inf_bits = f.exp_all_ones() << f.mant_bits;
  int checked = 0;
  for (std::uint32_t lo_bits = 0; lo_bits < inf_bits; ++lo_bits) {
    const std::uint32_t hi_bits = lo_bits + 1;
    const double lo = reference_decode(f, static_cast<std::uint16_t>(lo_bits)).value;
    // The value hi would have with an unbounded exponent (2^(emax+1) when hi is infinity).
    const double hi = hi_bits == inf_bits ? std::ldexp(1.0, static_cast<int>(f.exp_all_ones()) - f.bias())
                                          : reference_decode(f, static_cast<std::uint16_t>(hi_bits)).value;
    const double mid = (lo + hi) / 2;  // exact: one more bit than the format has
    const std::uint32_t even_bits = (lo_bits & 1) == 0 ? lo_bits : hi_bits;
    ASSERT_EQ(static_cast<double>(static_cast<float>(mid)), mid);  // exact in float too

    for (const double sign : {1.0, -1.0}) {
      const std::uint32_t s = sign < 0 ? 0x8000u : 0u;
      auto expect = [&](double value, std::uint32_t bits, const char* what) {
        ASSERT_EQ(T(value).bits(), bits | s) << what << " (double) near " << hex(lo_bits) << ": " << value;
        const auto as_float = static_cast<float>(value);
        if (static_cast<double>(as_float) == value) {
          ASSERT_EQ(T(as_float).bits(), bits | s) << what << " (float) near " << hex(lo_bits) << ": " << value;
        }
      };
      expect(sign * lo, lo_bits, "exact lo");
      expect(sign * mid, even_bits, "midpoint");
      // Nearest floats and doubles on either side of the midpoint.
      const float mid_f = static_cast<float>(mid);
      expect(sign * static_cast<double>(std::nextafter(mid_f, 0.0f)), lo_bits, "float just below midpoint");
      expect(sign * static_cast<double>(std::nextafter(mid_f, INFINITY)), hi_bits, "float just above midpoint");
      expect(sign * std::nextafter(mid, 0.0), lo_bits, "double just below midpoint");
      // Just above by less than a float ulp: rounding double -> float -> 16 bits would tie here.
      expect(sign * std::nextafter(mid, INFINITY), hi_bits, "double just above midpoint");
      // A quarter and three quarters of the way.
      expect(sign * (lo + (hi - lo) / 4), lo_bits, "quarter");
      expect(sign * (lo + 3 * (hi - lo) / 4), hi_bits, "three quarters");
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * static_cast<int>(inf_bits));
}

template <class T>
void check_special_values(format f) {
  const std::uint16_t inf_bits = static_cast<std::uint16_t>(f.exp_all_ones() << f.mant_bits);
  const std::uint16_t quiet_bit = static_cast<std::uint16_t>(1u << (f.mant_bits - 1));
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(T(inf).bits(), inf_bits);
  EXPECT_EQ(T(-inf).bits(), inf_bits | 0x8000);
  EXPECT_EQ(T(static_cast<double>(inf)).bits(), inf_bits);
  EXPECT_EQ(T(0.0f).bits(), 0);
  EXPECT_EQ(T(-0.0f).bits(), 0x8000);
  EXPECT_EQ(T(-0.0).bits(), 0x8000);
  // Overflow: the largest float and double become infinity.
  EXPECT_EQ(T(std::numeric_limits<float>::max()).bits(), inf_bits);
  EXPECT_EQ(T(std::numeric_limits<double>::max()).bits(), inf_bits);
  EXPECT_EQ(T(-std::numeric_limits<double>::max()).bits(), inf_bits | 0x8000);
  // Underflow: tiny values become signed zero.
  EXPECT_EQ(T(std::numeric_limits<float>::denorm_min()).bits(), 0);
  EXPECT_EQ(T(-std::numeric_limits<double>::denorm_min()).bits(), 0x8000);
  EXPECT_EQ(T(std::numeric_limits<double>::min()).bits(), 0);

  // NaNs of every kind stay NaN, keep their sign, get the quiet bit and keep the payload's top.
  const std::uint32_t float_nans[] = {0x7fc00000u, 0x7f800001u, 0x7fa00000u, 0x7fffffffu, 0x7f802000u,
                                      0x7fbfe000u, 0x7f812345u, 0xffc00000u, 0xff800001u};
  for (const std::uint32_t nan_bits : float_nans) {
    const float nan = std::bit_cast<float>(nan_bits);
    for (const T h : {T(nan), T(static_cast<double>(nan))}) {
      const float back = static_cast<float>(h);
      EXPECT_TRUE(std::isnan(back)) << hex(nan_bits);
      EXPECT_EQ(std::signbit(back), (nan_bits >> 31) != 0) << hex(nan_bits);
      EXPECT_EQ(h.bits() & inf_bits, inf_bits) << hex(nan_bits);
      EXPECT_NE(h.bits() & quiet_bit, 0) << hex(nan_bits);
    }
    const std::uint32_t payload_top = (nan_bits >> (23 - f.mant_bits)) & (f.mant_mask() >> 1);
    EXPECT_EQ(T(nan).bits() & (f.mant_mask() >> 1), payload_top) << hex(nan_bits);
  }
  // Integers.
  EXPECT_EQ(static_cast<float>(T(3)), 3.0f);
  EXPECT_EQ(static_cast<float>(T(-7L)), -7.0f);
  EXPECT_EQ(static_cast<float>(T(std::uint8_t{200})), 200.0f);
}

// Ordering agrees with the reference values for every pair of neighbours, and IEEE rules hold.
template <class T>
void check_comparisons(format f) {
  for (std::uint32_t bits = 0; bits < 0xffff; ++bits) {
    const decoded a = reference_decode(f, static_cast<std::uint16_t>(bits));
    const decoded b = reference_decode(f, static_cast<std::uint16_t>(bits + 1));
    const T ha = T::from_bits(static_cast<std::uint16_t>(bits));
    const T hb = T::from_bits(static_cast<std::uint16_t>(bits + 1));
    if (a.is_nan || b.is_nan) {
      ASSERT_FALSE(ha == hb);
      ASSERT_FALSE(ha < hb);
      ASSERT_FALSE(ha > hb);
      ASSERT_TRUE(ha != hb);
      continue;
    }
    ASSERT_EQ(ha == hb, a.value == b.value) << hex(bits);
    ASSERT_EQ(ha < hb, a.value < b.value) << hex(bits);
    ASSERT_EQ(ha > hb, a.value > b.value) << hex(bits);
    ASSERT_EQ(ha <= hb, a.value <= b.value) << hex(bits);
  }
  EXPECT_TRUE(T::from_bits(0x0000) == T::from_bits(0x8000));
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(nan != nan);
}

// A spread of float32 bit patterns (every 4099th, so all exponents and many mantissas), each
// rounded by T and by a reference: the nearest of the format's values found by binary search
// in the sorted table of reference-decoded values, ties to the even pattern, and infinity past
// the largest finite value's half-ulp.
template <class T>
void check_float_sample(format f) {
  const std::uint32_t inf_bits = f.exp_all_ones() << f.mant_bits;
  std::vector<double> values;  // values[b] = value of non-negative pattern b, plus 2^(emax+1)
  for (std::uint32_t b = 0; b < inf_bits; ++b) values.push_back(reference_decode(f, static_cast<std::uint16_t>(b)).value);
  values.push_back(std::ldexp(1.0, static_cast<int>(f.exp_all_ones()) - f.bias()));
  int checked = 0;
  for (std::uint64_t fb = 0; fb <= 0xffffffffu; fb += 4099) {
    const float x = std::bit_cast<float>(static_cast<std::uint32_t>(fb));
    if (std::isnan(x)) continue;
    const std::uint32_t sign = std::signbit(x) ? 0x8000u : 0u;
    const double magnitude = std::fabs(static_cast<double>(x));
    std::uint32_t expected;
    if (std::isinf(magnitude) || magnitude >= values.back()) {
      expected = inf_bits;
    } else {
      const auto above = std::lower_bound(values.begin(), values.end(), magnitude);
      const auto hi = static_cast<std::uint32_t>(above - values.begin());
      if (*above == magnitude) {
        expected = hi;
      } else {
        const std::uint32_t lo = hi - 1;
        const double down = magnitude - values[lo];
        const double up = values[hi] - magnitude;
        expected = down < up ? lo : up < down ? hi : ((lo & 1) == 0 ? lo : hi);
      }
    }
    ASSERT_EQ(T(x).bits(), expected | sign) << "float " << x << " (" << hex(static_cast<std::uint32_t>(fb)) << ")";
    ASSERT_EQ(T(static_cast<double>(x)).bits(), expected | sign) << "double " << x;
    ++checked;
  }
  EXPECT_GT(checked, 1000000);
}

}  // namespace

// ---- float16 ----------------------------------------------------------------------------

TEST(Float16, LayoutAndTraits) {
  static_assert(sizeof(cupp::float16_t) == 2);
  static_assert(std::is_trivially_copyable_v<cupp::float16_t>);
  static_assert(std::is_trivially_default_constructible_v<cupp::float16_t>);
  static_assert(cupp::float16_t{}.bits() == 0);
  // Conversions are constexpr.
  static_assert(cupp::float16_t(1.0f).bits() == 0x3c00);
  static_assert(static_cast<float>(cupp::float16_t::from_bits(0x3555)) == 0x1.554p-2f);
  static_assert(cupp::float16_t(65504.0).bits() == 0x7bff);
  static_assert(cupp::float16_t(65520.0f).bits() == 0x7c00);
  SUCCEED();
}

TEST(Float16, DecodeAllBitPatterns) { check_decode_all<cupp::float16_t>(binary16); }
TEST(Float16, RoundTripAllBitPatterns) { check_round_trip_all<cupp::float16_t>(binary16); }
TEST(Float16, RoundingAroundEveryValue) { check_rounding_all<cupp::float16_t>(binary16); }
TEST(Float16, SampledFloatsRoundToNearest) { check_float_sample<cupp::float16_t>(binary16); }
TEST(Float16, SpecialValues) { check_special_values<cupp::float16_t>(binary16); }
TEST(Float16, Comparisons) { check_comparisons<cupp::float16_t>(binary16); }

TEST(Float16, KnownValues) {
  using cupp::float16_t;
  EXPECT_EQ(float16_t(65504.0f).bits(), 0x7bff);              // max
  EXPECT_EQ(float16_t(65519.99f).bits(), 0x7bff);             // below the overflow midpoint
  EXPECT_EQ(float16_t(65520.0f).bits(), 0x7c00);              // the midpoint ties to even: inf
  EXPECT_EQ(float16_t(1e10f).bits(), 0x7c00);
  EXPECT_EQ(float16_t(0x1p-14f).bits(), 0x0400);              // smallest normal
  EXPECT_EQ(float16_t(0x1p-24f).bits(), 0x0001);              // smallest subnormal
  EXPECT_EQ(float16_t(0x1p-25f).bits(), 0x0000);              // half of it ties to even: zero
  EXPECT_EQ(float16_t(0x1.000002p-25f).bits(), 0x0001);       // just above: rounds up
  EXPECT_EQ(float16_t(0x3p-25f).bits(), 0x0002);              // 1.5 ulp ties to even: 2
  EXPECT_EQ(float16_t(0.1f).bits(), 0x2e66);
  EXPECT_EQ(float16_t(0.1).bits(), 0x2e66);
  EXPECT_EQ(float16_t(-2.5f).bits(), 0xc100);
  EXPECT_EQ(float16_t(1.0f + 0x1p-11f).bits(), 0x3c00);       // tie to even (down)
  EXPECT_EQ(float16_t(1.0f + 3 * 0x1p-11f).bits(), 0x3c02);   // tie to even (up)
  EXPECT_EQ(float16_t(1.0 + 0x1p-11 + 0x1p-40).bits(), 0x3c01);  // from double, no double rounding
  EXPECT_EQ(static_cast<float>(float16_t::from_bits(0x7bff)), 65504.0f);
  EXPECT_EQ(static_cast<float>(float16_t::from_bits(0x0001)), 0x1p-24f);
  EXPECT_EQ(static_cast<float>(float16_t::from_bits(0x3c01)), 1.0009765625f);
}

TEST(Float16, NumericLimits) {
  using L = std::numeric_limits<cupp::float16_t>;
  static_assert(L::is_specialized && L::digits == 11 && L::radix == 2);
  EXPECT_EQ(static_cast<double>(L::max()), 65504.0);
  EXPECT_EQ(static_cast<double>(L::lowest()), -65504.0);
  EXPECT_EQ(static_cast<double>(L::min()), std::ldexp(1.0, -14));
  EXPECT_EQ(static_cast<double>(L::denorm_min()), std::ldexp(1.0, -24));
  EXPECT_EQ(static_cast<double>(L::epsilon()), std::ldexp(1.0, -10));
  EXPECT_EQ(static_cast<double>(L::round_error()), 0.5);
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_EQ(L::signaling_NaN().bits() & 0x0200, 0);
  EXPECT_NE(L::quiet_NaN().bits() & 0x0200, 0);
  // min_exponent / max_exponent: 2^(e-1) is the smallest normal / largest finite binade.
  EXPECT_EQ(std::ldexp(1.0, L::min_exponent - 1), static_cast<double>(L::min()));
  EXPECT_EQ(std::ldexp(1.0, L::max_exponent), 65536.0);
}

// ---- bfloat16 ---------------------------------------------------------------------------

TEST(BFloat16, LayoutAndTraits) {
  static_assert(sizeof(cupp::bfloat16_t) == 2);
  static_assert(std::is_trivially_copyable_v<cupp::bfloat16_t>);
  static_assert(cupp::bfloat16_t{}.bits() == 0);
  static_assert(cupp::bfloat16_t(1.0f).bits() == 0x3f80);
  static_assert(static_cast<float>(cupp::bfloat16_t::from_bits(0x4049)) == 3.140625f);
  SUCCEED();
}

TEST(BFloat16, DecodeAllBitPatterns) { check_decode_all<cupp::bfloat16_t>(bfloat16); }
TEST(BFloat16, RoundTripAllBitPatterns) { check_round_trip_all<cupp::bfloat16_t>(bfloat16); }
TEST(BFloat16, RoundingAroundEveryValue) { check_rounding_all<cupp::bfloat16_t>(bfloat16); }
TEST(BFloat16, SampledFloatsRoundToNearest) { check_float_sample<cupp::bfloat16_t>(bfloat16); }
TEST(BFloat16, SpecialValues) { check_special_values<cupp::bfloat16_t>(bfloat16); }
TEST(BFloat16, Comparisons) { check_comparisons<cupp::bfloat16_t>(bfloat16); }

TEST(BFloat16, KnownValues) {
  using cupp::bfloat16_t;
  EXPECT_EQ(bfloat16_t(3.14159265f).bits(), 0x4049);
  EXPECT_EQ(bfloat16_t(0.1f).bits(), 0x3dcd);
  EXPECT_EQ(bfloat16_t(1.0f + 0x1p-8f).bits(), 0x3f80);        // tie to even (down)
  EXPECT_EQ(bfloat16_t(1.0f + 3 * 0x1p-8f).bits(), 0x3f82);    // tie to even (up)
  EXPECT_EQ(bfloat16_t(1.0 + 0x1p-8 + 0x1p-40).bits(), 0x3f81);  // from double, no double rounding
  EXPECT_EQ(bfloat16_t(0x1.fep127f).bits(), 0x7f7f);           // max
  EXPECT_EQ(bfloat16_t(0x1.ffp127f).bits(), 0x7f80);           // overflow midpoint ties to inf
  EXPECT_EQ(bfloat16_t(0x1.fefffep127f).bits(), 0x7f7f);       // just below it
  EXPECT_EQ(bfloat16_t(0x1p-133f).bits(), 0x0001);             // smallest subnormal
  EXPECT_EQ(bfloat16_t(0x1p-134f).bits(), 0x0000);             // ties to even: zero
  EXPECT_EQ(bfloat16_t(1e300).bits(), 0x7f80);
  EXPECT_EQ(bfloat16_t(-1e300).bits(), 0xff80);
  EXPECT_EQ(static_cast<float>(bfloat16_t::from_bits(0x7f7f)), 0x1.fep127f);
}

TEST(BFloat16, NumericLimits) {
  using L = std::numeric_limits<cupp::bfloat16_t>;
  static_assert(L::is_specialized && L::digits == 8 && L::radix == 2);
  EXPECT_EQ(static_cast<double>(L::max()), 3.3895313892515355e+38);
  EXPECT_EQ(static_cast<double>(L::lowest()), -3.3895313892515355e+38);
  EXPECT_EQ(static_cast<double>(L::min()), std::ldexp(1.0, -126));
  EXPECT_EQ(static_cast<double>(L::denorm_min()), std::ldexp(1.0, -133));
  EXPECT_EQ(static_cast<double>(L::epsilon()), 0.0078125);
  EXPECT_EQ(static_cast<double>(L::round_error()), 0.5);
  EXPECT_TRUE(std::isinf(static_cast<float>(L::infinity())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::quiet_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(L::signaling_NaN())));
  EXPECT_EQ(L::signaling_NaN().bits() & 0x0040, 0);
  EXPECT_NE(L::quiet_NaN().bits() & 0x0040, 0);
  EXPECT_EQ(std::ldexp(1.0, L::min_exponent - 1), static_cast<double>(L::min()));
}
