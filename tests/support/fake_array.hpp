// For unit tests without a GPU: an ndarray on device 0 over host bytes, so views, shape rules and
// host-side argument checks work; nothing may read its memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "cupp/ndarray.hpp"

namespace cupp::test {

struct fake_array {
  std::vector<unsigned char> bytes;
  ndarray a;
  fake_array(shape_t shape, dtype type) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    bytes.resize(static_cast<std::size_t>(n) * type.itemsize() + 16);
    a = from_device_pointer(bytes.data(), type, shape, {}, nullptr, /*device=*/0);
  }
};

}  // namespace cupp::test
