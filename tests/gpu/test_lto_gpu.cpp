// nvJitLink on a GPU: a kernel and the device function it calls, compiled separately to LTO-IR
// and linked into one CUBIN, load and compute the right values.
#include <gtest/gtest.h>

#include <vector>

#include "compiler/lto_link.hpp"
#include "cupp/cuda/stream.hpp"
#include "gpu_support.hpp"

namespace cupp::detail {
namespace {

TEST(LtoLinkGpu, LinkedPiecesRun) {
  CUPP_REQUIRE_GPU();
  const lto_piece pieces[] = {
      {"caller", R"(
extern __device__ float helper(float);
extern "C" __global__ void apply(float* x) { x[threadIdx.x] = helper(x[threadIdx.x]); })", {}},
      {"helper", "__device__ float helper(float v) { return 2.0f * v + 1.0f; }", {}}};
  const std::string cubin = compile_and_link(pieces, cuda::Device().compute_capability());
  test::loaded_library lib(cubin);
  test::device_vector<float> x(std::vector<float>{0.f, 1.f, 2.f, 3.f});
  float* p = x.get();
  void* args[] = {&p};
  CUPP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(lib.kernel("apply")), dim3(1), dim3(4), args, 0, nullptr));
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(x.to_host(), (std::vector<float>{1.f, 3.f, 5.f, 7.f}));
}

}  // namespace
}  // namespace cupp::detail
