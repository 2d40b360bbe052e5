// Device and stream API on any machine: bad device ids are ValueErrors; without a GPU the
// queries fail with typed errors, never a crash.
#include <gtest/gtest.h>

#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda {
namespace {

TEST(DeviceAnywhere, InvalidIdsAreValueErrors) {
  EXPECT_THROW(Device{-1}, ValueError);
  EXPECT_THROW(Device{device_count()}, ValueError);
  EXPECT_THROW(DeviceGuard{device_count() + 3}, ValueError);
}

TEST(DeviceAnywhere, WithoutAGpuEveryCallThrowsCudaError) {
  if (is_available()) GTEST_SKIP() << "a GPU is present";
  EXPECT_THROW(current_device(), CudaError);
  EXPECT_THROW(Stream::create(), CudaError);
  EXPECT_THROW(Event(), CudaError);
  EXPECT_FALSE(is_available());
}

}  // namespace
}  // namespace cupp::cuda
