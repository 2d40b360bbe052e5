// Tests of cupp/cuda/runtime_info.hpp that hold on any machine: is_available() never throws and
// agrees with device_count(); versions are consistent; bad device ids are rejected. On CI (no
// driver) is_available() must be false.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cupp/cuda/runtime_info.hpp"
#include "cupp/errors.hpp"

namespace {

TEST(RuntimeInfo, IsAvailableNeverThrows) {
  bool available = false;
  EXPECT_NO_THROW(available = cupp::cuda::is_available());
  EXPECT_EQ(available, cupp::cuda::device_count() > 0);
  // Twice: a failed first query must not leave an error behind.
  EXPECT_EQ(cupp::cuda::is_available(), available);
  if (cupp::cuda::driver_version() == 0) EXPECT_FALSE(available);
}

TEST(RuntimeInfo, FalseOnCi) {
  // CI machines have the toolkit but no driver and no GPU.
  const char* ci = std::getenv("CI");
  if (ci == nullptr || std::string(ci) != "true") GTEST_SKIP() << "not on CI";
  EXPECT_FALSE(cupp::cuda::is_available());
  EXPECT_EQ(cupp::cuda::device_count(), 0);
}

TEST(RuntimeInfo, Versions) {
  EXPECT_GE(cupp::cuda::runtime_version_linked(), 13000);
  EXPECT_EQ(cupp::cuda::runtime_version(), cupp::cuda::runtime_version_linked());
  EXPECT_GE(cupp::cuda::driver_version(), 0);
  EXPECT_GE(cupp::cuda::nvrtc_version(), 13000);
  EXPECT_EQ(cupp::cuda::version_string(13000), "13.0");
  EXPECT_EQ(cupp::cuda::version_string(12080), "12.8");
  EXPECT_EQ(cupp::cuda::version_string(0), "none");
}

TEST(RuntimeInfo, BadDeviceId) {
  EXPECT_THROW(cupp::cuda::get_device_properties(-1), cupp::ValueError);
  EXPECT_THROW(cupp::cuda::get_device_properties(cupp::cuda::device_count()), cupp::ValueError);
}

TEST(RuntimeInfo, DeviceProperties) {
  if (!cupp::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  for (int i = 0; i < cupp::cuda::device_count(); ++i) {
    const auto p = cupp::cuda::get_device_properties(i);
    EXPECT_EQ(p.id, i);
    EXPECT_FALSE(p.name.empty());
    EXPECT_GE(p.major, 5);
    EXPECT_GT(p.total_memory, 0u);
    EXPECT_GT(p.multiprocessor_count, 0);
    EXPECT_EQ(p.warp_size, 32);
    EXPECT_FALSE(p.pci_bus_id.empty());
  }
}

}  // namespace
