// Internal: a pool backend without a GPU, for the pool's tests (CI, ThreadSanitizer). Chunks
// are fake device addresses (or, when `backed`, real 512-byte aligned host memory that tests
// can write to), counted against a per-device capacity so that out-of-memory can be simulated.
// Fences, when enabled, pass when a test calls complete(stream).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "pool_core.hpp"

namespace cupp::cuda::detail {

class fake_backend final : public pool_backend {
 public:
  struct options {
    std::size_t capacity = std::size_t{1} << 30;  // bytes per device
    int devices = 2;
    bool backed = false;  // real host memory behind each chunk
    bool fences = false;  // behave like the pinned backend
  };

  fake_backend() : fake_backend(options{}) {}
  explicit fake_backend(options opts);
  ~fake_backend() override;

  void* allocate_chunk(std::size_t bytes, int device) override;
  void release_chunk(void* ptr, std::size_t bytes, int device) noexcept override;
  bool uses_fences() const noexcept override { return options_.fences; }
  void* record_fence(int device, pool_stream stream) noexcept override;
  bool fence_passed(void* fence) noexcept override;
  void release_fence(void* fence) noexcept override;

  // Every fence recorded so far on `stream` has passed.
  void complete(pool_stream stream);
  void set_capacity(std::size_t bytes);

  std::size_t chunk_allocations() const;  // successful allocate_chunk calls
  std::size_t chunk_releases() const;
  std::size_t failed_allocations() const;  // allocate_chunk calls answered with nullptr
  std::size_t bytes_held(int device) const;
  std::size_t live_chunks() const;
  std::size_t live_fences() const;

 private:
  struct host_free {
    void operator()(void* p) const noexcept;
  };
  struct chunk {
    std::size_t bytes = 0;
    int device = 0;
    std::unique_ptr<void, host_free> memory;  // when backed
  };
  struct fence_state {
    pool_stream stream = nullptr;
    bool passed = false;
    bool live = false;
  };

  options options_;
  mutable std::mutex mutex_;
  std::map<std::uintptr_t, chunk> chunks_;
  std::vector<std::size_t> held_;
  std::vector<std::uintptr_t> next_address_;
  std::vector<fence_state> fences_;  // fence i is the pointer value i + 1
  std::size_t allocations_ = 0, releases_ = 0, failures_ = 0;
};

}  // namespace cupp::cuda::detail
