// The random bench's candidate conversions (random/bench/kernel_variants.cu times them against
// philox.cuh's; tests/unit/random/test_philox.cpp checks that they give the same values). Not in
// production: on the H200 they lost to the int-to-float conversions (fast path 0.2649 ms against
// 0.2620 for Generator.random float32 2^28, session 19).
#pragma once

#include <cupp/random/philox.cuh>

namespace cupp_random {

// The same values without the int-to-float conversions (the conversion pipe runs 16 a clock per SM;
// random/bench/kernel_variants.cu times both): float32 as 1 + (x >> 9) 2^-23 from its bits, minus
// 1 (exact), plus bit 8's 2^-24 by an FMA of 2^-63 (bits 0x20000000) and 2^39 (exact: the sum is a
// float32, an integer below 2^24 times 2^-24); float64 as 1 + (x >> 12) 2^-52 from its bits, minus
// 1, plus bit 11's 2^-53 (likewise exact). Equal to to_float01 / to_double01 for every word
// (tests/unit/random/test_philox.cpp: all 2^24 float32 cases).
CUPP_RANDOM_HD float float_of_bits(u32 b) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  float f;
  __builtin_memcpy(&f, &b, 4);
  return f;
#endif
}
CUPP_RANDOM_HD double double_of_bits(u32 hi, u32 lo) {
#if defined(__CUDA_ARCH__)
  return __hiloint2double((int)hi, (int)lo);
#else
  const u64 b = (u64)hi << 32 | lo;
  double d;
  __builtin_memcpy(&d, &b, 8);
  return d;
#endif
}
CUPP_RANDOM_HD float to_float01_bits(u32 x) {
  const float top = float_of_bits(0x3F800000u | (x >> 9)) - 1.0f;
#if defined(__CUDA_ARCH__)
  return fmaf(float_of_bits((x << 21) & 0x20000000u), 549755813888.0f, top);
#else
  return __builtin_fmaf(float_of_bits((x << 21) & 0x20000000u), 549755813888.0f, top);
#endif
}
CUPP_RANDOM_HD double to_double01_bits(u32 hi, u32 lo) {
  const double top = double_of_bits(0x3FF00000u | (hi >> 12), (hi << 20) | (lo >> 12)) - 1.0;
  return top + double_of_bits((lo & 0x800u) ? 0x3CA00000u : 0u, 0u);
}

}  // namespace cupp_random
