// cupp/cuda/memory.hpp over CUDA: the cudaMalloc and cudaHostAlloc backends of the pool core
// (pool_core.cpp holds the pooling logic), the current allocator, plain and stream-ordered
// allocators, and the RAII blocks.
#include "cupp/cuda/memory.hpp"

#include <cuda_runtime.h>

#include <atomic>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "check.hpp"
#include "cupp/config.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/errors.hpp"
#include "pool_core.hpp"

namespace cupp::cuda {

using detail::check;

namespace {

// Makes `device` current until the scope ends, for noexcept paths (errors are remembered).
class quiet_device_scope {
 public:
  explicit quiet_device_scope(int device) noexcept {
    if (cudaGetDevice(&previous_) == cudaSuccess && previous_ != device) {
      switched_ = cudaSetDevice(device) == cudaSuccess;
    }
  }
  ~quiet_device_scope() {
    if (switched_) detail::ignore(cudaSetDevice(previous_));
  }
  quiet_device_scope(const quiet_device_scope&) = delete;
  quiet_device_scope& operator=(const quiet_device_scope&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

// The same for throwing paths.
class device_scope {
 public:
  explicit device_scope(int device) {
    check(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) {
      check(cudaSetDevice(device), "cudaSetDevice");
      switched_ = true;
    }
  }
  ~device_scope() {
    if (switched_) detail::ignore(cudaSetDevice(previous_));
  }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

// Bytes in use on the current device, as the driver sees them (for error messages).
std::size_t device_bytes_in_use() noexcept {
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return total - free;
}

// Device chunks from cudaMalloc; nullptr (and the error cleared) when the device is full.
class cuda_device_backend final : public detail::pool_backend {
 public:
  void* allocate_chunk(std::size_t bytes, int device) override {
    device_scope scope(device);
    void* ptr = nullptr;
    const cudaError_t err = cudaMalloc(&ptr, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return nullptr;
    }
    check(err, "cudaMalloc");
    return ptr;
  }
  void release_chunk(void* ptr, std::size_t, int device) noexcept override {
    quiet_device_scope scope(device);
    detail::ignore(cudaFree(ptr));
  }
};

// Pinned host chunks from cudaHostAlloc (portable: usable from every device); fences are CUDA
// events (timing disabled), recycled per device.
class cuda_pinned_backend final : public detail::pool_backend {
 public:
  ~cuda_pinned_backend() override {
    for (const auto& [event, device] : idle_events_) detail::ignore(cudaEventDestroy(event));
  }

  void* allocate_chunk(std::size_t bytes, int) override {
    void* ptr = nullptr;
    const cudaError_t err = cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      return nullptr;
    }
    check(err, "cudaHostAlloc");
    return ptr;
  }
  void release_chunk(void* ptr, std::size_t, int) noexcept override { detail::ignore(cudaFreeHost(ptr)); }

  bool uses_fences() const noexcept override { return true; }

  void* record_fence(int, detail::pool_stream stream) noexcept override {
    int device = 0;
    if (cudaStreamGetDevice(stream, &device) != cudaSuccess) {
      cudaGetLastError();
      if (cudaGetDevice(&device) != cudaSuccess) return nullptr;
    }
    quiet_device_scope scope(device);
    cudaEvent_t event = take_idle_event(device);
    if (!event) {
      const cudaError_t err = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
      if (err != cudaSuccess) {
        detail::ignore(err);
        return nullptr;  // the context is unusable: no copy can be pending any more
      }
    }
    if (const cudaError_t err = cudaEventRecord(event, stream); err != cudaSuccess) {
      detail::ignore(err);
      detail::ignore(cudaEventDestroy(event));
      return nullptr;
    }
    remember_device(event, device);
    return event;
  }

  bool fence_passed(void* fence) noexcept override {
    const cudaError_t err = cudaEventQuery(static_cast<cudaEvent_t>(fence));
    if (err == cudaErrorNotReady) return false;
    if (err != cudaSuccess) detail::ignore(err);  // a lost context runs nothing any more
    return true;
  }

  void release_fence(void* fence) noexcept override {
    const auto event = static_cast<cudaEvent_t>(fence);
    std::lock_guard lock(mutex_);
    int device = -1;
    for (auto it = recorded_.begin(); it != recorded_.end(); ++it)
      if (it->first == event) {
        device = it->second;
        *it = recorded_.back();
        recorded_.pop_back();
        break;
      }
    try {
      idle_events_.emplace_back(event, device);
    } catch (...) {
      detail::ignore(cudaEventDestroy(event));
    }
  }

 private:
  cudaEvent_t take_idle_event(int device) noexcept {
    std::lock_guard lock(mutex_);
    for (auto it = idle_events_.rbegin(); it != idle_events_.rend(); ++it)
      if (it->second == device) {
        const cudaEvent_t event = it->first;
        idle_events_.erase(std::next(it).base());
        return event;
      }
    return nullptr;
  }
  void remember_device(cudaEvent_t event, int device) noexcept {
    std::lock_guard lock(mutex_);
    try {
      recorded_.emplace_back(event, device);
    } catch (...) {
      // Not recycled later: destroyed by the driver with the context.
    }
  }

  std::mutex mutex_;
  std::vector<std::pair<cudaEvent_t, int>> idle_events_;  // ready for reuse, with their device
  std::vector<std::pair<cudaEvent_t, int>> recorded_;     // handed out as fences
};

// set_allocator(nullptr): cudaMalloc and cudaFree, with the default pool's cached blocks released
// and one retry when the device is full.
class plain_allocator final : public Allocator {
 public:
  void* allocate(std::size_t bytes, int device, stream_handle) override {
    device_scope scope(device);
    for (int attempt = 0; attempt < 2; ++attempt) {
      void* ptr = nullptr;
      const cudaError_t err = cudaMalloc(&ptr, bytes);
      if (err == cudaSuccess) return ptr;
      if (err != cudaErrorMemoryAllocation) check(err, "cudaMalloc");
      cudaGetLastError();
      if (attempt == 0) get_default_memory_pool().free_all_blocks();
    }
    throw OutOfMemoryError(bytes, device_bytes_in_use(), 0);
  }
  void deallocate(void* ptr, std::size_t, int device, stream_handle) noexcept override {
    quiet_device_scope scope(device);
    detail::ignore(cudaFree(ptr));
  }
};

const std::shared_ptr<Allocator>& plain_allocator_ptr() {
  static const std::shared_ptr<Allocator> allocator = std::make_shared<plain_allocator>();
  return allocator;
}

// The allocator behind alloc(); its initial value is the default pool.
std::atomic<std::shared_ptr<Allocator>>& current_allocator() {
  static std::atomic<std::shared_ptr<Allocator>> current{std::shared_ptr<Allocator>(default_memory_pool_ptr())};
  return current;
}

std::size_t device_total_memory(int device) { return get_device_properties(device).total_memory; }

std::size_t configured_limit(int device) {
  const config::memory_limit& limit = config::get().gpu_memory_limit;
  if (limit.unlimited()) return 0;
  if (limit.fraction == 0.0) return static_cast<std::size_t>(limit.bytes);
  return static_cast<std::size_t>(limit.resolve(device_total_memory(device)));
}

}  // namespace

// ---- Memory

void Memory::reset() noexcept {
  if (ptr_ && allocator_) allocator_->deallocate(ptr_, size_, device_, stream_);
  ptr_ = nullptr;
  size_ = 0;
  allocator_.reset();
}

void Memory::swap(Memory& other) noexcept {
  std::swap(ptr_, other.ptr_);
  std::swap(size_, other.size_);
  std::swap(device_, other.device_);
  std::swap(stream_, other.stream_);
  allocator_.swap(other.allocator_);
}

Memory alloc(std::size_t bytes, int device, stream_handle stream) {
  if (bytes == 0) return Memory(nullptr, 0, device, stream, nullptr);
  std::shared_ptr<Allocator> allocator = current_allocator().load(std::memory_order_acquire);
  if (!allocator) allocator = plain_allocator_ptr();
  void* ptr = allocator->allocate(bytes, device, stream);
  return Memory(ptr, bytes, device, stream, std::move(allocator));
}

Memory alloc(std::size_t bytes) {
  const int device = current_device();
  return alloc(bytes, device, current_stream(device).handle());
}

std::shared_ptr<Memory> alloc_shared(std::size_t bytes) { return std::make_shared<Memory>(alloc(bytes)); }

void set_allocator(std::shared_ptr<Allocator> allocator) {
  current_allocator().store(std::move(allocator), std::memory_order_release);
}

std::shared_ptr<Allocator> get_allocator() { return current_allocator().load(std::memory_order_acquire); }

// ---- MemoryPool

MemoryPool::MemoryPool()
    : core_(std::make_unique<detail::pool_core>(std::make_shared<cuda_device_backend>(), configured_limit)) {}

MemoryPool::MemoryPool(std::shared_ptr<detail::pool_backend> backend, std::function<std::size_t(int)> default_limit)
    : core_(std::make_unique<detail::pool_core>(std::move(backend), std::move(default_limit))) {}

MemoryPool::~MemoryPool() = default;

void* MemoryPool::allocate(std::size_t bytes, int device, stream_handle stream) {
  if (bytes == 0) return nullptr;
  return core_->allocate(bytes, device, stream);
}

void MemoryPool::deallocate(void* ptr, std::size_t bytes, int device, stream_handle stream) noexcept {
  core_->deallocate(ptr, bytes, device, stream);
}

std::size_t MemoryPool::used_bytes() const { return used_bytes(current_device()); }
std::size_t MemoryPool::used_bytes(int device) const { return core_->used_bytes(device); }
std::size_t MemoryPool::total_bytes() const { return total_bytes(current_device()); }
std::size_t MemoryPool::total_bytes(int device) const { return core_->total_bytes(device); }
std::size_t MemoryPool::free_bytes() const { return free_bytes(current_device()); }
std::size_t MemoryPool::free_bytes(int device) const { return core_->total_bytes(device) - core_->used_bytes(device); }
std::size_t MemoryPool::n_free_blocks() const { return n_free_blocks(current_device()); }
std::size_t MemoryPool::n_free_blocks(int device) const { return core_->n_free_blocks(device); }
void MemoryPool::free_all_blocks() { core_->free_all_blocks(); }
void MemoryPool::set_limit(std::size_t bytes) { set_limit(bytes, current_device()); }
void MemoryPool::set_limit(std::size_t bytes, int device) { core_->set_limit(device, bytes); }
std::size_t MemoryPool::get_limit() const { return get_limit(current_device()); }
std::size_t MemoryPool::get_limit(int device) const { return core_->get_limit(device); }

void MemoryPool::set_limit_fraction(double fraction) {
  if (!(fraction >= 0.0 && fraction <= 1.0))
    throw ValueError("set_limit_fraction: the fraction must be in [0, 1], got " + std::to_string(fraction));
  const int device = current_device();
  set_limit(static_cast<std::size_t>(fraction * static_cast<double>(device_total_memory(device))), device);
}

std::shared_ptr<MemoryPool> default_memory_pool_ptr() {
  static const std::shared_ptr<MemoryPool> pool = std::make_shared<MemoryPool>();
  return pool;
}

MemoryPool& get_default_memory_pool() {
  static MemoryPool& pool = *default_memory_pool_ptr();
  return pool;
}

// ---- AsyncAllocator

void* AsyncAllocator::allocate(std::size_t bytes, int device, stream_handle stream) {
  device_scope scope(device);
  for (int attempt = 0; attempt < 2; ++attempt) {
    void* ptr = nullptr;
    const cudaError_t err = cudaMallocAsync(&ptr, bytes, stream);
    if (err == cudaSuccess) return ptr;
    if (err != cudaErrorMemoryAllocation) check(err, "cudaMallocAsync");
    cudaGetLastError();
    if (attempt == 0) get_default_memory_pool().free_all_blocks();
  }
  throw OutOfMemoryError(bytes, device_bytes_in_use(), 0);
}

void AsyncAllocator::deallocate(void* ptr, std::size_t, int device, stream_handle stream) noexcept {
  quiet_device_scope scope(device);
  detail::ignore(cudaFreeAsync(ptr, stream));
}

// ---- Pinned memory

void PinnedMemory::reset() noexcept {
  if (ptr_ && pool_) pool_->deallocate(ptr_, size_, stream_);
  ptr_ = nullptr;
  size_ = 0;
  pool_.reset();
}

void PinnedMemory::swap(PinnedMemory& other) noexcept {
  std::swap(ptr_, other.ptr_);
  std::swap(size_, other.size_);
  std::swap(stream_, other.stream_);
  pool_.swap(other.pool_);
}

PinnedMemoryPool::PinnedMemoryPool() : PinnedMemoryPool(std::make_shared<cuda_pinned_backend>()) {}

PinnedMemoryPool::PinnedMemoryPool(std::shared_ptr<detail::pool_backend> backend)
    : core_(std::make_unique<detail::pool_core>(std::move(backend))) {}

PinnedMemoryPool::~PinnedMemoryPool() = default;

// Host memory is one "device" (0) of the core.
void* PinnedMemoryPool::allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  return core_->allocate(bytes, 0, nullptr);
}

void PinnedMemoryPool::deallocate(void* ptr, std::size_t bytes, stream_handle stream) noexcept {
  core_->deallocate(ptr, bytes, 0, stream);
}

std::size_t PinnedMemoryPool::used_bytes() const { return core_->used_bytes(0); }
std::size_t PinnedMemoryPool::total_bytes() const { return core_->total_bytes(0); }
std::size_t PinnedMemoryPool::free_bytes() const { return core_->total_bytes(0) - core_->used_bytes(0); }
std::size_t PinnedMemoryPool::n_free_blocks() const { return core_->n_free_blocks(0); }
void PinnedMemoryPool::free_all_blocks() { core_->free_all_blocks(); }
void PinnedMemoryPool::set_limit(std::size_t bytes) { core_->set_limit(0, bytes); }
std::size_t PinnedMemoryPool::get_limit() const { return core_->get_limit(0); }

std::shared_ptr<PinnedMemoryPool> default_pinned_memory_pool_ptr() {
  static const std::shared_ptr<PinnedMemoryPool> pool = std::make_shared<PinnedMemoryPool>();
  return pool;
}

PinnedMemoryPool& get_default_pinned_memory_pool() {
  static PinnedMemoryPool& pool = *default_pinned_memory_pool_ptr();
  return pool;
}

PinnedMemory alloc_pinned_memory(std::size_t bytes, std::shared_ptr<PinnedMemoryPool> pool) {
  if (!pool) throw ValueError("alloc_pinned_memory: no pool");
  const stream_handle stream = current_stream().handle();
  void* ptr = pool->allocate(bytes);
  return PinnedMemory(ptr, bytes, stream, std::move(pool));
}

PinnedMemory alloc_pinned_memory(std::size_t bytes) { return alloc_pinned_memory(bytes, default_pinned_memory_pool_ptr()); }

}  // namespace cupp::cuda
