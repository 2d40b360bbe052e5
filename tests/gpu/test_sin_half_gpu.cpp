// sin on float16 and bfloat16 must give NumPy's result: sinf on the widened value, correctly
// rounded (glibc), then rounded once to the 16-bit type. The engine computes it with
// cupp::dev::half_sin (half_sin.cuh), which tests/unit/test_half_sin.cpp checks on the host for
// every input; these tests hold the ufunc on the GPU (its unrolled contiguous kernel and its
// guarded tail) to the same reference, bit for bit, over every one of the 65,536 inputs of each
// type.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "cupp/float16.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

bool is_nan16(std::uint16_t b, bool bf16) {
  return bf16 ? (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0 : (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
}

// The reference, on the host: sin in double, rounded to float (a correctly rounded sinf: the
// unit test checks that no input's 16-bit result hinges on the double's last bits), then to
// the 16-bit type, round to nearest even.
std::uint16_t reference(std::uint16_t b, bool bf16) {
  const float x = bf16 ? static_cast<float>(bfloat16_t::from_bits(b)) : static_cast<float>(float16_t::from_bits(b));
  const float y = static_cast<float>(std::sin(static_cast<double>(x)));
  return bf16 ? bfloat16_t(y).bits() : float16_t(y).bits();
}

// Compares got[i] with the reference of input i, for the first got.size() inputs.
void expect_reference(const std::vector<std::uint16_t>& got, bool bf16, const char* what) {
  int differ = 0;
  for (std::uint32_t i = 0; i < got.size(); ++i) {
    const std::uint16_t want = reference(static_cast<std::uint16_t>(i), bf16);
    if (is_nan16(want, bf16) && is_nan16(got[i], bf16)) continue;
    if (got[i] != want && ++differ <= 5)
      ADD_FAILURE() << what << ", input 0x" << std::hex << i << ": cupp 0x" << got[i] << ", reference 0x" << want;
  }
  EXPECT_EQ(differ, 0) << what;
}

void check_every_input(dtype type) {
  const bool bf16 = type == bfloat16;
  std::vector<std::uint16_t> bits(65536);
  for (std::uint32_t i = 0; i < 65536; ++i) bits[i] = static_cast<std::uint16_t>(i);
  const ndarray x = asarray(bits).view(type);
  // All 65,536: the unrolled contiguous kernel.
  expect_reference(sin(x).view(uint16).to_vector<std::uint16_t>(), bf16, "all inputs");
  // A length that leaves a remainder: the last elements go through the guarded tail.
  const std::vector<std::uint16_t> part = sin(x(slice(0, 65531))).view(uint16).to_vector<std::uint16_t>();
  ASSERT_EQ(part.size(), 65531u);
  expect_reference(part, bf16, "first 65,531 inputs");
}

TEST(SinHalfGpu, EveryFloat16InputMatchesNumPy) {
  CUPP_REQUIRE_GPU();
  check_every_input(float16);
}

TEST(SinHalfGpu, EveryBfloat16InputMatchesNumPy) {
  CUPP_REQUIRE_GPU();
  check_every_input(bfloat16);
}

}  // namespace
}  // namespace cupp
