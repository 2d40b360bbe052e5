// Internal: makes a device current for a scope when it is not already, and restores the previous
// one at its end. Library kernels launch on the array's device, for an array made while another
// was current; when the device is already current this costs one cudaGetDevice and no guard.
#pragma once

#include <optional>

#include "cupp/cuda/stream.hpp"

namespace cupp::detail {

class device_scope {
 public:
  explicit device_scope(int device) {
    if (cuda::current_device() != device) guard_.emplace(device);
  }

 private:
  std::optional<cuda::DeviceGuard> guard_;
};

}  // namespace cupp::detail
