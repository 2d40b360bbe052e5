// The fake pool backend (see pool_fake_backend.hpp): fake or host-backed chunks with a capacity,
// and fences passed by hand.
#include "pool_fake_backend.hpp"

#include <cstdlib>
#include <string>

#include "cupp/errors.hpp"

namespace cupp::cuda::detail {

void fake_backend::host_free::operator()(void* p) const noexcept { std::free(p); }

fake_backend::fake_backend(options opts)
    : options_(opts), held_(static_cast<std::size_t>(opts.devices), 0) {
  for (int d = 0; d < opts.devices; ++d)  // far apart, so chunks of different devices never touch
    next_address_.push_back((std::uintptr_t{1} << 44) + (static_cast<std::uintptr_t>(d) << 40));
}

fake_backend::~fake_backend() = default;

void* fake_backend::allocate_chunk(std::size_t bytes, int device) {
  std::lock_guard lock(mutex_);
  if (device < 0 || device >= options_.devices)
    throw ValueError("fake backend: invalid device " + std::to_string(device));
  auto& held = held_[static_cast<std::size_t>(device)];
  if (bytes > options_.capacity - held || held > options_.capacity) {
    ++failures_;
    return nullptr;
  }
  chunk c{bytes, device, nullptr};
  std::uintptr_t addr = 0;
  if (options_.backed) {
    c.memory.reset(std::aligned_alloc(pool_allocation_unit, round_pool_size(bytes)));
    if (!c.memory) {
      ++failures_;
      return nullptr;
    }
    addr = reinterpret_cast<std::uintptr_t>(c.memory.get());
  } else {
    addr = next_address_[static_cast<std::size_t>(device)];
    next_address_[static_cast<std::size_t>(device)] += round_pool_size(bytes) + pool_allocation_unit;  // a gap
  }
  chunks_.emplace(addr, std::move(c));
  held += bytes;
  ++allocations_;
  return reinterpret_cast<void*>(addr);
}

void fake_backend::release_chunk(void* ptr, std::size_t bytes, int device) noexcept {
  std::lock_guard lock(mutex_);
  const auto it = chunks_.find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == chunks_.end() || it->second.bytes != bytes || it->second.device != device) std::abort();  // a pool bug
  held_[static_cast<std::size_t>(device)] -= bytes;
  chunks_.erase(it);
  ++releases_;
}

void* fake_backend::record_fence(int /*device*/, pool_stream stream) noexcept {
  std::lock_guard lock(mutex_);
  try {
    fences_.push_back({stream, false, true});
  } catch (...) {
    return nullptr;
  }
  return reinterpret_cast<void*>(fences_.size());
}

bool fake_backend::fence_passed(void* fence) noexcept {
  std::lock_guard lock(mutex_);
  return fences_[reinterpret_cast<std::uintptr_t>(fence) - 1].passed;
}

void fake_backend::release_fence(void* fence) noexcept {
  std::lock_guard lock(mutex_);
  fences_[reinterpret_cast<std::uintptr_t>(fence) - 1].live = false;
}

void fake_backend::complete(pool_stream stream) {
  std::lock_guard lock(mutex_);
  for (auto& f : fences_)
    if (f.stream == stream) f.passed = true;
}

void fake_backend::set_capacity(std::size_t bytes) {
  std::lock_guard lock(mutex_);
  options_.capacity = bytes;
}

std::size_t fake_backend::chunk_allocations() const {
  std::lock_guard lock(mutex_);
  return allocations_;
}
std::size_t fake_backend::chunk_releases() const {
  std::lock_guard lock(mutex_);
  return releases_;
}
std::size_t fake_backend::failed_allocations() const {
  std::lock_guard lock(mutex_);
  return failures_;
}
std::size_t fake_backend::bytes_held(int device) const {
  std::lock_guard lock(mutex_);
  return held_.at(static_cast<std::size_t>(device));
}
std::size_t fake_backend::live_chunks() const {
  std::lock_guard lock(mutex_);
  return chunks_.size();
}
std::size_t fake_backend::live_fences() const {
  std::lock_guard lock(mutex_);
  std::size_t n = 0;
  for (const auto& f : fences_) n += f.live ? 1 : 0;
  return n;
}

}  // namespace cupp::cuda::detail
