// Internal: the memory pools' host-side logic (device pool and pinned host pool), free of CUDA so
// that it builds and is tested without a GPU, under ThreadSanitizer too. Raw chunks come from a
// pool_backend (cudaMalloc, cudaHostAlloc, or the fake backend of the tests).
//
// The rules:
//  - sizes are rounded up to 512 bytes; the best fitting free block (smallest size, then lowest
//    address) is taken and split; a freed block merges with free neighbours of its chunk;
//  - per device, one mutex each; per-stream free lists ("arenas"): a block freed on stream A is
//    reused only by allocations on stream A, so later work on A is ordered after earlier work on
//    the block. Cross-stream reuse happens only through the backend, after a chunk was released
//    (free_all_blocks, or the out-of-memory retry): cudaFree synchronizes the device;
//  - fenced backends (the pinned pool) keep one arena instead and hold a freed block back until
//    a fence (a CUDA event) recorded on the freeing stream has passed;
//  - when the backend is out of memory or the device's limit would be exceeded, every chunk that
//    is entirely free is released and the allocation retried once, then OutOfMemoryError.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

struct CUstream_st;

namespace cupp::cuda::detail {

using pool_stream = CUstream_st*;  // cudaStream_t, as cupp::cuda::stream_handle

inline constexpr std::size_t pool_allocation_unit = 512;

// `bytes` rounded up to a multiple of 512 (0 stays 0); bytes must be <= SIZE_MAX - 511.
constexpr std::size_t round_pool_size(std::size_t bytes) noexcept {
  return (bytes + pool_allocation_unit - 1) / pool_allocation_unit * pool_allocation_unit;
}

// Which free list a stream's blocks go to. cudaStreamLegacy (0x1) is the null stream (0). The
// per-thread default stream handle (cudaStreamPerThread, 0x2) names a different stream in each
// thread, so it maps to a value unique to the calling thread (odd, unlike stream addresses).
using stream_key = std::uintptr_t;
stream_key key_of_stream(pool_stream stream) noexcept;
constexpr bool is_per_thread_key(stream_key key) noexcept { return (key & 3u) == 3u; }

// Where raw chunks come from. Called with the device pool's mutex held.
class pool_backend {
 public:
  virtual ~pool_backend() = default;
  // A new chunk of `bytes` (a multiple of 512) on `device`; nullptr when the device is out of
  // memory. Any other failure throws.
  virtual void* allocate_chunk(std::size_t bytes, int device) = 0;
  virtual void release_chunk(void* ptr, std::size_t bytes, int device) noexcept = 0;

  // Fenced backends: a freed block is reused only after the fence recorded at free time passed.
  virtual bool uses_fences() const noexcept { return false; }
  // A marker after the work queued so far on `stream`; nullptr when there is nothing to wait for.
  virtual void* record_fence(int /*device*/, pool_stream /*stream*/) noexcept { return nullptr; }
  virtual bool fence_passed(void* /*fence*/) noexcept { return true; }
  virtual void release_fence(void* /*fence*/) noexcept {}
};

class device_pool;

// The pool of all devices over one backend. Thread-safe.
class pool_core {
 public:
  static constexpr int max_devices = 128;
  // The limit a device's pool starts with, in bytes (0 = unlimited); asked once per device.
  using limit_fn = std::function<std::size_t(int device)>;

  explicit pool_core(std::shared_ptr<pool_backend> backend, limit_fn default_limit = {});
  ~pool_core();  // releases every chunk
  pool_core(const pool_core&) = delete;
  pool_core& operator=(const pool_core&) = delete;

  // A block of at least `bytes` (> 0) for work on `stream` of `device`, 512-byte aligned when the
  // backend's chunks are. Throws OutOfMemoryError, ValueError for a bad device or size, and
  // whatever the backend throws.
  void* allocate(std::size_t bytes, int device, pool_stream stream);
  // Returns a block; `stream` is the stream whose work last used it (normally the one it was
  // allocated for). A pointer this pool did not hand out is ignored.
  void deallocate(void* ptr, std::size_t bytes, int device, pool_stream stream) noexcept;

  std::size_t used_bytes(int device) const;     // in blocks handed out
  std::size_t total_bytes(int device) const;    // held from the backend (used + cached)
  std::size_t n_free_blocks(int device) const;  // cached free blocks (and fenced ones)
  // Releases every chunk that is entirely free (on every device, or on one).
  void free_all_blocks();
  void free_all_blocks(int device);
  // The device's limit on total_bytes (0 = unlimited).
  void set_limit(int device, std::size_t bytes);
  std::size_t get_limit(int device) const;

  pool_backend& backend() const noexcept { return *backend_; }

 private:
  device_pool& pool_of(int device) const;
  device_pool* find_pool(int device) const noexcept;

  std::shared_ptr<pool_backend> backend_;
  limit_fn default_limit_;
  mutable std::mutex create_mutex_;
  mutable std::array<std::atomic<device_pool*>, max_devices> pools_{};
  mutable std::vector<std::unique_ptr<device_pool>> owned_;
};

}  // namespace cupp::cuda::detail
