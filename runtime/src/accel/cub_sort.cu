// cub_sort.hpp's implementation: CUB's DeviceRadixSort, compiled ahead of time by nvcc (CUB's
// device-wide algorithms do not compile under NVRTC). To keep the build short, only unsigned keys
// of 1, 2, 4 and 8 bytes are instantiated: keys-only and with int64 values, each with 32-bit
// (n < 2^31) and 64-bit item counts, and with int32 values and 32-bit counts; and float and double
// keys (keys only, 32-bit counts) for the plain sort of a float array.
#include "accel/cub_sort.hpp"

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <atomic>
#include <climits>
#include <string>

#include "cuda/check.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail::accel {

namespace {

std::atomic<std::uint64_t> launches{0};

template <class K, class N>
int sort_keys(void* const keys[2], N n, int begin_bit, int end_bit, cudaStream_t stream, const temp_alloc& alloc) {
  cub::DoubleBuffer<K> k(static_cast<K*>(keys[0]), static_cast<K*>(keys[1]));
  std::size_t bytes = 0;
  // CUB reports cudaPeekAtLastError() after its launches: clear an error some earlier, handled
  // runtime call left behind (a device probe), or it would be taken for CUB's own.
  (void)cudaGetLastError();
  cuda::detail::check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, k, n, begin_bit, end_bit, stream),
                      "cub::DeviceRadixSort::SortKeys");
  void* temp = alloc(bytes > 0 ? bytes : 1);
  const launch_range range([] { return std::string("cub::DeviceRadixSort::SortKeys"); });
  cuda::detail::check(cub::DeviceRadixSort::SortKeys(temp, bytes, k, n, begin_bit, end_bit, stream),
                      "cub::DeviceRadixSort::SortKeys");
  launches.fetch_add(1, std::memory_order_relaxed);
  return k.selector;
}

template <class K, class N, class V>
int sort_pairs(void* const keys[2], V* const vals[2], N n, int begin_bit, int end_bit, cudaStream_t stream,
               const temp_alloc& alloc) {
  cub::DoubleBuffer<K> k(static_cast<K*>(keys[0]), static_cast<K*>(keys[1]));
  cub::DoubleBuffer<V> v(vals[0], vals[1]);
  std::size_t bytes = 0;
  // CUB reports cudaPeekAtLastError() after its launches: clear an error some earlier, handled
  // runtime call left behind (a device probe), or it would be taken for CUB's own.
  (void)cudaGetLastError();
  cuda::detail::check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, begin_bit, end_bit, stream),
                      "cub::DeviceRadixSort::SortPairs");
  void* temp = alloc(bytes > 0 ? bytes : 1);
  const launch_range range([] { return std::string("cub::DeviceRadixSort::SortPairs"); });
  cuda::detail::check(cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, n, begin_bit, end_bit, stream),
                      "cub::DeviceRadixSort::SortPairs");
  launches.fetch_add(1, std::memory_order_relaxed);
  // CUB moves keys and values together: both selectors agree.
  return k.selector;
}

template <class F>
int by_width(int key_bytes, F&& f) {
  switch (key_bytes) {
    case 1: return f(std::uint8_t{});
    case 2: return f(std::uint16_t{});
    case 4: return f(std::uint32_t{});
    case 8: return f(std::uint64_t{});
    default: throw ValueError("cub sort: key width must be 1, 2, 4 or 8 bytes");
  }
}

}  // namespace

int cub_sort_keys(int key_bytes, void* const keys[2], std::int64_t n, int begin_bit, int end_bit, cudaStream_t stream,
                  const temp_alloc& alloc) {
  if (n <= 1) return 0;
  return by_width(key_bytes, [&](auto key) {
    using K = decltype(key);
    if (n <= INT_MAX) return sort_keys<K, int>(keys, static_cast<int>(n), begin_bit, end_bit, stream, alloc);
    return sort_keys<K, std::int64_t>(keys, n, begin_bit, end_bit, stream, alloc);
  });
}

int cub_sort_pairs(int key_bytes, void* const keys[2], std::int64_t* const vals[2], std::int64_t n, int begin_bit,
                   int end_bit, cudaStream_t stream, const temp_alloc& alloc) {
  if (n <= 1) return 0;
  return by_width(key_bytes, [&](auto key) {
    using K = decltype(key);
    if (n <= INT_MAX) return sort_pairs<K, int>(keys, vals, static_cast<int>(n), begin_bit, end_bit, stream, alloc);
    return sort_pairs<K, std::int64_t>(keys, vals, n, begin_bit, end_bit, stream, alloc);
  });
}

int cub_sort_pairs_i32(int key_bytes, void* const keys[2], std::int32_t* const vals[2], std::int64_t n, int begin_bit,
                       int end_bit, cudaStream_t stream, const temp_alloc& alloc) {
  if (n <= 1) return 0;
  if (n > INT_MAX) throw ValueError("cub sort: int32 values need fewer than 2^31 items");
  return by_width(key_bytes, [&](auto key) {
    using K = decltype(key);
    return sort_pairs<K, int>(keys, vals, static_cast<int>(n), begin_bit, end_bit, stream, alloc);
  });
}

void cub_sort_floats(int key_bytes, const void* in, void* out, std::int64_t n, cudaStream_t stream,
                     const temp_alloc& alloc) {
  if (n < 2 || n > INT_MAX) throw ValueError("cub sort: a float sort takes 2 to 2^31 - 1 values");
  auto run = [&](auto key) {
    using K = decltype(key);
    const K* k_in = static_cast<const K*>(in);
    K* k_out = static_cast<K*>(out);
    const int items = static_cast<int>(n);
    std::size_t bytes = 0;
    (void)cudaGetLastError();  // as in sort_keys
    cuda::detail::check(cub::DeviceRadixSort::SortKeys(nullptr, bytes, k_in, k_out, items, 0, 8 * int(sizeof(K)), stream),
                        "cub::DeviceRadixSort::SortKeys");
    void* temp = alloc(std::max<std::size_t>(bytes, static_cast<std::size_t>(n) * sizeof(K)));
    cuda::detail::check(cub::DeviceRadixSort::SortKeys(temp, bytes, k_in, k_out, items, 0, 8 * int(sizeof(K)), stream),
                        "cub::DeviceRadixSort::SortKeys");
    launches.fetch_add(1, std::memory_order_relaxed);
  };
  if (key_bytes == 4) run(float{});
  else if (key_bytes == 8) run(double{});
  else throw ValueError("cub sort: float keys are 4 or 8 bytes");
}

std::uint64_t cub_launch_count() noexcept { return launches.load(std::memory_order_relaxed); }

}  // namespace cupp::detail::accel
