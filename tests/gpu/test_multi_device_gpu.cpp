// Behaviour across two devices (run on the two-GPU machine; skips with one device): guards
// switching between devices, per-device pools and current streams, and peer copies between
// pool allocations of different devices.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <numeric>
#include <vector>

#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp::cuda {
namespace {

#define CUPP_REQUIRE_TWO_GPUS()                                                          \
  do {                                                                                   \
    CUPP_REQUIRE_GPU();                                                                  \
    if (device_count() < 2) GTEST_SKIP() << "needs two devices (the two-GPU machine)"; \
  } while (0)

int device_of(const void* ptr) {
  cudaPointerAttributes attributes{};
  CUPP_CUDA_CHECK(cudaPointerGetAttributes(&attributes, ptr));
  return attributes.device;
}

TEST(MultiDeviceGpu, GuardsSwitchBetweenDevices) {
  CUPP_REQUIRE_TWO_GPUS();
  const int start = current_device();
  {
    DeviceGuard on1(1);
    EXPECT_EQ(current_device(), 1);
    {
      DeviceGuard on0(0);
      EXPECT_EQ(current_device(), 0);
      const Stream s = Stream::create();
      EXPECT_EQ(s.device(), 0);
    }
    EXPECT_EQ(current_device(), 1);
    EXPECT_EQ(Stream::create().device(), 1);
  }
  EXPECT_EQ(current_device(), start);
}

TEST(MultiDeviceGpu, PoolsArePerDevice) {
  CUPP_REQUIRE_TWO_GPUS();
  MemoryPool& pool = get_default_memory_pool();
  pool.free_all_blocks();
  const std::size_t used0 = pool.used_bytes(0), used1 = pool.used_bytes(1);
  Memory a = [] {
    DeviceGuard g(0);
    return alloc(1 << 20);
  }();
  Memory b = [] {
    DeviceGuard g(1);
    return alloc(3 << 20);
  }();
  EXPECT_EQ(a.device(), 0);
  EXPECT_EQ(b.device(), 1);
  EXPECT_EQ(device_of(a.ptr()), 0);
  EXPECT_EQ(device_of(b.ptr()), 1);
  EXPECT_EQ(pool.used_bytes(0), used0 + (1 << 20));
  EXPECT_EQ(pool.used_bytes(1), used1 + (3 << 20));
  // A limit on one device leaves the other alone.
  pool.set_limit(pool.total_bytes(1), 1);
  {
    DeviceGuard g(0);
    EXPECT_NO_THROW(alloc(8 << 20));
  }
  pool.set_limit(0, 1);
}

TEST(MultiDeviceGpu, PeerCopyBetweenPoolAllocations) {
  CUPP_REQUIRE_TWO_GPUS();
  const std::size_t n = 1 << 20;
  std::vector<int> host(n);
  std::iota(host.begin(), host.end(), 7);
  Memory src = [&] {
    DeviceGuard g(0);
    return alloc(n * sizeof(int));
  }();
  Memory dst = [&] {
    DeviceGuard g(1);
    return alloc(n * sizeof(int));
  }();
  {
    DeviceGuard g(0);
    CUPP_CUDA_CHECK(cudaMemcpy(src.ptr(), host.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    // From pageable memory, cudaMemcpy may return before the DMA into src lands; the peer copy
    // below runs on device 1's stream, which is not ordered after device 0's work.
    CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  }
  int can_access = 0;
  CUPP_CUDA_CHECK(cudaDeviceCanAccessPeer(&can_access, 1, 0));
  const Stream s1 = [] {
    DeviceGuard g(1);
    return Stream::create();
  }();
  CUPP_CUDA_CHECK(cudaMemcpyPeerAsync(dst.ptr(), 1, src.ptr(), 0, n * sizeof(int), s1.handle()));
  s1.synchronize();
  std::vector<int> back(n, -1);
  {
    DeviceGuard g(1);
    CUPP_CUDA_CHECK(cudaMemcpy(back.data(), dst.ptr(), n * sizeof(int), cudaMemcpyDeviceToHost));
  }
  EXPECT_EQ(back, host) << "peer access " << (can_access ? "available" : "staged through the host");
}

// Copies and assignments cross devices (a peer copy of a contiguous staging array, then the copy
// kernel on the destination's device); a ufunc with operands on two devices is a ValueError.
TEST(MultiDeviceGpu, CopiesAndAssignmentCrossDevices) {
  CUPP_REQUIRE_TWO_GPUS();
  cupp::ndarray on0, on1;
  {
    DeviceGuard g(0);
    on0 = cupp::astype(cupp::asarray(std::vector<double>{0, 1, 2, 3, 4, 5}).reshape({2, 3}), cupp::float32);
  }
  {
    DeviceGuard g(1);
    on1 = cupp::zeros({3, 2}, cupp::float64);
  }
  on1(cupp::slice()) = on0.T();  // float32 on device 0, transposed, into float64 on device 1
  EXPECT_EQ(on1.device(), 1);
  EXPECT_EQ(on1.to_vector<double>(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  cupp::ndarray back;
  {
    DeviceGuard g(0);
    back = cupp::zeros({3, 2}, cupp::float64);
  }
  cupp::copyto(back, on1);
  EXPECT_EQ(back.to_vector<double>(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
  EXPECT_THROW(cupp::add(on0, on1.T()), cupp::ValueError);
}

}  // namespace
}  // namespace cupp::cuda
