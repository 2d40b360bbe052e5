// Device and pinned host memory (CuPy's cupy.cuda.memory and pinned_memory, as C++ RAII):
//  - alloc(bytes) gives a Memory block on the current device for the current stream, from the
//    current allocator: the default MemoryPool unless set_allocator() replaced it (nullptr means
//    plain cudaMalloc/cudaFree; AsyncAllocator uses cudaMallocAsync/cudaFreeAsync).
//  - MemoryPool: sizes rounded up to 512 bytes, best fit with splitting and merging, per device,
//    per-stream free lists (a block freed on stream A is reused only on stream A), a limit per
//    device (default CUPP_GPU_MEMORY_LIMIT), and on exhaustion: release cached blocks, retry,
//    then cupp::OutOfMemoryError with requested, in-use and limit bytes.
//  - PinnedMemoryPool: page-locked host memory, the same shape; a freed block is reused only
//    once the work queued on its stream before the free (an async copy) has finished.
// docs/memory.md has the rules. No CUDA header is needed to use this one.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "cupp/cuda/stream.hpp"

namespace cupp::cuda {

namespace detail {
class pool_backend;
class pool_core;
}  // namespace detail

// Where device memory comes from. Implementations must be thread-safe.
class Allocator {
 public:
  virtual ~Allocator() = default;
  // At least `bytes` (> 0) of memory on `device` for work on `stream`. Throws on failure
  // (cupp::OutOfMemoryError when memory is exhausted).
  virtual void* allocate(std::size_t bytes, int device, stream_handle stream) = 0;
  // Returns what allocate() gave, with the same bytes and device; `stream` is the stream whose
  // work last used the memory (the allocation's stream, when freed by Memory).
  virtual void deallocate(void* ptr, std::size_t bytes, int device, stream_handle stream) noexcept = 0;
};

// One device allocation, returned to the allocator that made it when destroyed (CuPy's
// MemoryPointer). Move-only; keeps its allocator alive, so replacing the allocator is safe.
class Memory {
 public:
  Memory() noexcept = default;
  // Takes ownership of `ptr`, which `allocator` allocated with these arguments.
  Memory(void* ptr, std::size_t size, int device, stream_handle stream, std::shared_ptr<Allocator> allocator) noexcept
      : ptr_(ptr), size_(size), device_(device), stream_(stream), allocator_(std::move(allocator)) {}
  ~Memory() { reset(); }
  Memory(Memory&& other) noexcept { swap(other); }
  Memory& operator=(Memory&& other) noexcept {
    Memory(std::move(other)).swap(*this);
    return *this;
  }
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  void* ptr() const noexcept { return ptr_; }  // null for a zero-byte allocation
  std::size_t size() const noexcept { return size_; }  // bytes asked for
  int device() const noexcept { return device_; }
  stream_handle stream() const noexcept { return stream_; }  // the stream it was allocated for
  const std::shared_ptr<Allocator>& allocator() const noexcept { return allocator_; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }

  // Returns the block to its allocator now; the Memory becomes empty.
  void reset() noexcept;
  void swap(Memory& other) noexcept;

 private:
  void* ptr_ = nullptr;
  std::size_t size_ = 0;
  int device_ = 0;
  stream_handle stream_ = nullptr;
  std::shared_ptr<Allocator> allocator_;
};

// CuPy's cupy.cuda.alloc: `bytes` on the current device for the current stream, from the
// current allocator. Zero bytes is valid (ptr() is null).
Memory alloc(std::size_t bytes);
// The same for a given device and stream.
Memory alloc(std::size_t bytes, int device, stream_handle stream);
// alloc(bytes), shared: what arrays hold.
std::shared_ptr<Memory> alloc_shared(std::size_t bytes);

// The caching pool (CuPy's MemoryPool). Functions without a device argument act on the current
// device. Thread-safe.
class MemoryPool : public Allocator {
 public:
  // Over cudaMalloc/cudaFree; each device's limit starts at CUPP_GPU_MEMORY_LIMIT.
  MemoryPool();
  // Over another backend (tests use a fake one); `default_limit(device)` gives each device's
  // starting limit in bytes (0 or empty: unlimited).
  explicit MemoryPool(std::shared_ptr<detail::pool_backend> backend,
                      std::function<std::size_t(int device)> default_limit = {});
  ~MemoryPool() override;  // releases all its device memory
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  void* allocate(std::size_t bytes, int device, stream_handle stream) override;
  void deallocate(void* ptr, std::size_t bytes, int device, stream_handle stream) noexcept override;

  // Bytes in blocks handed out.
  std::size_t used_bytes() const;
  std::size_t used_bytes(int device) const;
  // Bytes held from the device: used plus cached.
  std::size_t total_bytes() const;
  std::size_t total_bytes(int device) const;
  // total_bytes() - used_bytes().
  std::size_t free_bytes() const;
  std::size_t free_bytes(int device) const;
  // Cached free blocks.
  std::size_t n_free_blocks() const;
  std::size_t n_free_blocks(int device) const;
  // Releases every cached chunk that is entirely free, on every device (cudaFree synchronizes).
  void free_all_blocks();
  // Limit on total_bytes() (0 = unlimited); does not release anything by itself.
  void set_limit(std::size_t bytes);
  void set_limit(std::size_t bytes, int device);
  // The limit as a fraction of the device's total memory (CuPy's set_limit(fraction=...)).
  void set_limit_fraction(double fraction);
  std::size_t get_limit() const;
  std::size_t get_limit(int device) const;

 private:
  std::unique_ptr<detail::pool_core> core_;
};

// The pool that alloc() uses by default.
MemoryPool& get_default_memory_pool();
std::shared_ptr<MemoryPool> default_memory_pool_ptr();

// Replaces the allocator behind alloc() for every thread; nullptr means plain cudaMalloc/cudaFree
// without pooling. Memory already allocated goes back to the allocator that made it.
void set_allocator(std::shared_ptr<Allocator> allocator);
// The current allocator: the default pool at start, nullptr when pooling is disabled.
std::shared_ptr<Allocator> get_allocator();

// Stream-ordered allocation by the driver's pool: cudaMallocAsync / cudaFreeAsync on the stream.
class AsyncAllocator : public Allocator {
 public:
  void* allocate(std::size_t bytes, int device, stream_handle stream) override;
  void deallocate(void* ptr, std::size_t bytes, int device, stream_handle stream) noexcept override;
};

// ---- Pinned (page-locked) host memory

class PinnedMemoryPool;

// One pinned host block, returned to its pool when destroyed. Before reuse, the pool waits for the
// work queued on stream() up to the moment of the free (record the async copies there).
class PinnedMemory {
 public:
  PinnedMemory() noexcept = default;
  PinnedMemory(void* ptr, std::size_t size, stream_handle stream, std::shared_ptr<PinnedMemoryPool> pool) noexcept
      : ptr_(ptr), size_(size), stream_(stream), pool_(std::move(pool)) {}
  ~PinnedMemory() { reset(); }
  PinnedMemory(PinnedMemory&& other) noexcept { swap(other); }
  PinnedMemory& operator=(PinnedMemory&& other) noexcept {
    PinnedMemory(std::move(other)).swap(*this);
    return *this;
  }
  PinnedMemory(const PinnedMemory&) = delete;
  PinnedMemory& operator=(const PinnedMemory&) = delete;

  void* ptr() const noexcept { return ptr_; }
  std::size_t size() const noexcept { return size_; }
  // The stream whose work must finish before the block is reused (current stream at allocation).
  stream_handle stream() const noexcept { return stream_; }
  // Names the stream the block's async copies were queued on.
  void set_stream(stream_handle stream) noexcept { stream_ = stream; }
  explicit operator bool() const noexcept { return ptr_ != nullptr; }

  void reset() noexcept;
  void swap(PinnedMemory& other) noexcept;

 private:
  void* ptr_ = nullptr;
  std::size_t size_ = 0;
  stream_handle stream_ = nullptr;
  std::shared_ptr<PinnedMemoryPool> pool_;
};

// The caching pool of pinned host memory (cudaHostAlloc, portable). Thread-safe.
class PinnedMemoryPool {
 public:
  PinnedMemoryPool();
  // Over another backend (tests use a fake one with fences).
  explicit PinnedMemoryPool(std::shared_ptr<detail::pool_backend> backend);
  ~PinnedMemoryPool();
  PinnedMemoryPool(const PinnedMemoryPool&) = delete;
  PinnedMemoryPool& operator=(const PinnedMemoryPool&) = delete;

  void* allocate(std::size_t bytes);
  // Records an event on `stream`; the block is reused once it has completed.
  void deallocate(void* ptr, std::size_t bytes, stream_handle stream) noexcept;

  std::size_t used_bytes() const;
  std::size_t total_bytes() const;
  std::size_t free_bytes() const;
  // Cached blocks, including those still waiting for their event.
  std::size_t n_free_blocks() const;
  // Releases every cached chunk that is entirely free and whose events have completed.
  void free_all_blocks();
  void set_limit(std::size_t bytes);  // 0 = unlimited (the default)
  std::size_t get_limit() const;

 private:
  std::unique_ptr<detail::pool_core> core_;
};

PinnedMemoryPool& get_default_pinned_memory_pool();
std::shared_ptr<PinnedMemoryPool> default_pinned_memory_pool_ptr();

// `bytes` of pinned host memory from the default pinned pool (or `pool`), freed on the current
// stream unless set_stream() names another. Zero bytes is valid (ptr() is null).
PinnedMemory alloc_pinned_memory(std::size_t bytes);
PinnedMemory alloc_pinned_memory(std::size_t bytes, std::shared_ptr<PinnedMemoryPool> pool);

}  // namespace cupp::cuda
