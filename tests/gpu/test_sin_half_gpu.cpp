// sin on float16 and bfloat16 computes sinf on the widened value and rounds once, as NumPy does.
// These tests hold the ufunc (its unrolled contiguous kernel included) to that, bit for bit, over
// every one of the 65,536 inputs of each type.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

constexpr const char* kReference = R"(
#include <cupp/dev/prelude.cuh>
// The reference: the C library's sinf on the widened value, rounded once to the 16-bit type.
extern "C" __global__ void sinf_half(const unsigned short* in, unsigned short* out, int bf16) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 65536) return;
  const unsigned short b = in[i];
  if (bf16) {
    const float y = sinf(__uint_as_float(unsigned(b) << 16));
    const __nv_bfloat16 h = __float2bfloat16_rn(y);
    out[i] = *reinterpret_cast<const unsigned short*>(&h);
  } else {
    const float y = sinf(__half2float(__ushort_as_half(b)));
    out[i] = __half_as_ushort(__float2half_rn(y));
  }
}
)";

bool is_nan16(std::uint16_t b, bool bf16) {
  return bf16 ? (b & 0x7f80) == 0x7f80 && (b & 0x7f) != 0 : (b & 0x7c00) == 0x7c00 && (b & 0x3ff) != 0;
}

void check_every_input(dtype type) {
  const bool bf16 = type == bfloat16;
  std::vector<std::uint16_t> bits(65536);
  for (std::uint32_t i = 0; i < 65536; ++i) bits[i] = static_cast<std::uint16_t>(i);
  const ndarray x = asarray(bits).view(type);
  const std::vector<std::uint16_t> got = sin(x).view(uint16).to_vector<std::uint16_t>();

  cuda::RawModule module(kReference);
  ndarray want = empty({65536}, uint16);
  want.fill(weak_scalar(0x7e01));
  const ndarray in = asarray(bits);
  module.get_function("sinf_half")({256}, {256}, in.data(), want.data(), bf16 ? 1 : 0);
  ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
  const std::vector<std::uint16_t> ref = want.to_vector<std::uint16_t>();
  int differ = 0;
  for (std::uint32_t i = 0; i < 65536; ++i) {
    if (is_nan16(ref[i], bf16) && is_nan16(got[i], bf16)) continue;
    if (got[i] != ref[i] && ++differ <= 5)
      ADD_FAILURE() << type.name() << " input 0x" << std::hex << i << ": cupp 0x" << got[i] << ", sinf 0x" << ref[i];
  }
  EXPECT_EQ(differ, 0);
}

TEST(SinHalfGpu, EveryFloat16InputEqualsSinf) {
  CUPP_REQUIRE_GPU();
  check_every_input(float16);
}

TEST(SinHalfGpu, EveryBfloat16InputEqualsSinf) {
  CUPP_REQUIRE_GPU();
  check_every_input(bfloat16);
}

}  // namespace
}  // namespace cupp
