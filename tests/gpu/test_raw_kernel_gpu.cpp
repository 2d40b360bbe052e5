// User kernels on a GPU: RawKernel launch with scalar and pointer arguments, RawModule with
// template name expressions and extern "C" kernels, user NVRTC options, compile errors, and the
// kernel cache serving a second object made from the same source.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <numeric>
#include <vector>

#include "compiler/kernel_cache.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/testing/gtest.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp::cuda {
namespace {

constexpr const char* kScale = R"(
extern "C" __global__ void scale(float* x, float a, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a * FACTOR;
})";

TEST(RawKernelGpu, LaunchesWithArgumentsAndOptions) {
  CUPP_REQUIRE_GPU();
  const unsigned n = 1000;
  std::vector<float> host(n);
  std::iota(host.begin(), host.end(), 0.0f);
  test::device_vector<float> x(host);
  RawKernel scale(kScale, "scale", {.options = {"-DFACTOR=3.0f"}});
  scale({(n + 127) / 128}, {128}, x.get(), 2.0f, n);
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  CUPP_ASSERT_ARRAY_EQUAL(x.to_host(), test::tabulate(n, [&](std::size_t i) { return host[i] * 6.0f; }));
  EXPECT_GE(scale.max_threads_per_block(), 128);
  EXPECT_GT(scale.num_regs(), 0);
}

TEST(RawKernelGpu, ModuleWithTemplatesAndAStream) {
  CUPP_REQUIRE_GPU();
  const char* source = R"(
template <class T>
__global__ void axpy(T* y, const T* x, T a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}
extern "C" __global__ void fill_int(int* p, int v, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
})";
  RawModule module(source, {.name_expressions = {"axpy<float>", "axpy<double>"}});
  const int n = 4096;
  std::vector<double> xd(n, 1.5), yd(n, 2.0);
  test::device_vector<double> dx(xd), dy(yd);
  const Stream s = Stream::create();
  module.get_function("axpy<double>").launch({.grid = {(n + 255) / 256}, .block = {256}, .stream = s}, dy.get(),
                                             static_cast<const double*>(dx.get()), 4.0, n);
  test::device_vector<int> ints(n);
  module.get_function("fill_int").launch({.grid = {(n + 255) / 256}, .block = {256}, .stream = s}, ints.get(), 7, n);
  s.synchronize();
  CUPP_ASSERT_ARRAY_EQUAL(dy.to_host(), 8.0);  // 2 + 4 * 1.5 everywhere
  CUPP_ASSERT_ARRAY_EQUAL(ints.to_host(), 7);
  EXPECT_THROW(module.get_function("axpy<int>"), ValueError);
  EXPECT_THROW(module.get_function("no_such_kernel").compile(), CudaError);
}

TEST(RawKernelGpu, CompileErrorCarriesTheLog) {
  CUPP_REQUIRE_GPU();
  RawKernel broken("extern \"C\" __global__ void k() { undeclared_thing(); }", "k");
  try {
    broken.compile();
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("undeclared_thing"), std::string::npos) << e.log();
  }
}

TEST(RawKernelGpu, SameSourceIsCompiledOnce) {
  CUPP_REQUIRE_GPU();
  const char* source = "extern \"C\" __global__ void twice(int* p) { *p *= 2; }";
  RawKernel first(source, "twice");
  first.compile();
  const auto before = cupp::detail::kernel_cache::global().stats();
  RawKernel second(source, "twice");
  test::device_vector<int> v(std::vector<int>{21});
  second({1}, {1}, v.get());
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(v.to_host()[0], 42);
  const auto after = cupp::detail::kernel_cache::global().stats();
  EXPECT_EQ(after.compiles, before.compiles);
  EXPECT_EQ(after.disk_hits, before.disk_hits);
}

}  // namespace
}  // namespace cupp::cuda

namespace cupp::cuda {
namespace {

TEST(RawKernelGpu, NvccBackendRuns) {
  CUPP_REQUIRE_GPU();
  RawKernel k("extern \"C\" __global__ void put(int* p, int v) { *p = v + 1; }", "put", {.backend = "nvcc"});
  test::device_vector<int> v(std::vector<int>{0});
  k({1}, {1}, v.get(), 41);
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(v.to_host()[0], 42);
}

}  // namespace
}  // namespace cupp::cuda
