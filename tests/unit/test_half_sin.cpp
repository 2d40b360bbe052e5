// Exhaustive host check of cupp::dev::half_sin (runtime/device/cupp/dev/half_sin.cuh), the float
// sine behind sin on float16 and bfloat16: for every one of the 65,536 float16 and 65,536 bfloat16
// bit patterns, half_sin(float(x)) rounded to the 16-bit type must equal NumPy's result, a
// correctly rounded sinf(float(x)) rounded once more (here: double sin -> float -> 16 bits), bit
// for bit (NaN: both NaN). The header compiles as host C++ with only fmaf, multiplies and bit
// operations, which the host computes exactly as the GPU does (IEEE single precision, fused
// multiply-add rounded once, no a * b + c left for a compiler to contract), so this proves the
// device results too. Rounding to 16 bits goes through cupp::float16_t / bfloat16_t (round to
// nearest even; exhaustively tested in test_float16.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>

#include "../../runtime/device/cupp/dev/half_sin.cuh"
#include "cupp/float16.hpp"

namespace {

struct kind {
  const char* name;
  bool bf16;
};
constexpr kind kFloat16{"float16", false};
constexpr kind kBfloat16{"bfloat16", true};

float widen(kind k, std::uint16_t b) {
  return k.bf16 ? static_cast<float>(cupp::bfloat16_t::from_bits(b)) : static_cast<float>(cupp::float16_t::from_bits(b));
}
std::uint16_t round16(kind k, float f) { return k.bf16 ? cupp::bfloat16_t(f).bits() : cupp::float16_t(f).bits(); }
bool is_nan16(kind k, std::uint16_t b) {
  return k.bf16 ? (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0 : (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
}

// NumPy's result: sinf correctly rounded, then rounded to 16 bits.
std::uint16_t reference(kind k, float x) { return round16(k, static_cast<float>(std::sin(static_cast<double>(x)))); }

// Counts the inputs where round16(f(x)) differs from the reference, reporting the first few.
int count_disagreements(kind k, const std::function<float(float)>& f, bool report) {
  int differ = 0;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    const auto b = static_cast<std::uint16_t>(i);
    const float x = widen(k, b);
    const std::uint16_t want = reference(k, x), got = round16(k, f(x));
    if (is_nan16(k, want) && is_nan16(k, got)) continue;
    if (got == want) continue;
    if (++differ <= 8 && report) {
      char line[160];
      std::snprintf(line, sizeof line, "%s input 0x%04x (%a): half_sin %a -> 0x%04x, reference 0x%04x", k.name, i,
                    static_cast<double>(x), static_cast<double>(f(x)), got, want);
      ADD_FAILURE() << line;
    }
  }
  return differ;
}

TEST(HalfSin, EveryFloat16InputMatchesNumPy) {
  EXPECT_EQ(count_disagreements(kFloat16, cupp::dev::half_sin, true), 0);
}

TEST(HalfSin, EveryBfloat16InputMatchesNumPy) {
  EXPECT_EQ(count_disagreements(kBfloat16, cupp::dev::half_sin, true), 0);
}

// The check can fail: a result 1 ulp off, or the unmodified minimax c5 (see half_sin.cuh), is
// caught.
TEST(HalfSin, CheckCatchesSmallErrors) {
  const auto one_ulp_up = [](float x) {
    return std::nextafter(cupp::dev::half_sin(x), std::numeric_limits<float>::infinity());
  };
  EXPECT_GT(count_disagreements(kFloat16, one_ulp_up, false), 0);
  EXPECT_GT(count_disagreements(kBfloat16, one_ulp_up, false), 0);
  // x = 300 with c5 = 0x1.11111p-7: the polynomial of half_sin, evaluated the same way.
  const float x = 300.0f;
  const float t = std::fmaf(x, 0x1.45f306p-2f, 0x1.8p+23f), q = t - 0x1.8p+23f;
  float r = std::fmaf(-q, 0x1.921fb6p+1f, x);
  r = std::fmaf(-q, -0x1.777a5cp-24f, r);
  r = std::fmaf(-q, -0x1.ee59dap-49f, r);
  const float s = r * r;
  float p = std::fmaf(-0x1.9f1ef4p-26f, s, 0x1.71a4acp-19f);
  p = std::fmaf(p, s, -0x1.a0195ap-13f);
  p = std::fmaf(p, s, 0x1.11111p-7f);
  p = std::fmaf(p, s, -0x1.555556p-3f);
  const float unmodified = -std::fmaf(r * s, p, r);  // q = 95 is odd
  EXPECT_NE(round16(kFloat16, unmodified), reference(kFloat16, x));
  EXPECT_EQ(round16(kFloat16, cupp::dev::half_sin(x)), reference(kFloat16, x));
}

// The reference does not hinge on the last bits of the double sine: any double within 4 ulps of
// it rounds to the same 16-bit value. So it is what a correctly rounded sinf gives (glibc's sin
// is within 1 ulp), and half_sin's fallback above kHalfSinMax, which on the GPU is CUDA's double
// sin (within 2 ulps) rounded to float, gives it there too.
TEST(HalfSin, ReferenceIsRobustToTheDoubleSineLastBits) {
  for (const kind k : {kFloat16, kBfloat16}) {
    int fragile = 0;
    for (std::uint32_t i = 0; i < 65536; ++i) {
      const float x = widen(k, static_cast<std::uint16_t>(i));
      if (!std::isfinite(x) || x == 0.0f) continue;  // sin(+-0) = +-0 exactly
      const double d = std::sin(static_cast<double>(x));
      const std::uint16_t want = round16(k, static_cast<float>(d));
      double lo = d, hi = d;
      for (int step = 0; step < 4; ++step) {
        lo = std::nextafter(lo, -1.0);
        hi = std::nextafter(hi, 1.0);
        if (round16(k, static_cast<float>(lo)) != want || round16(k, static_cast<float>(hi)) != want) {
          if (++fragile <= 8) ADD_FAILURE() << k.name << " input 0x" << std::hex << i << ": sin " << std::hexfloat << d;
          break;
        }
      }
    }
    EXPECT_EQ(fragile, 0) << k.name;
  }
}

// Above the threshold (bfloat16 only) half_sin is the double sine rounded to float; float16 never
// gets there.
TEST(HalfSin, ThresholdCoversEveryFiniteFloat16) {
  EXPECT_GT(cupp::dev::kHalfSinMax, 65504.0f);
  EXPECT_LT(cupp::dev::kHalfSinMax / 3.14159265f, 0x1p22f);
}

}  // namespace
