// The memory pools' host-side logic (see pool_core.hpp for the rules). Per device: the chunks'
// blocks form address-ordered doubly linked lists; free blocks sit in the ordered set of their
// stream's arena; handed-out blocks sit in a pointer -> block map. All nodes come from one
// unsynchronized pool resource per device, so the steady state allocates nothing from the heap.
#include "pool_core.hpp"

#include <limits>
#include <memory_resource>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

#include "cupp/errors.hpp"

namespace cupp::cuda::detail {

namespace {

constexpr std::uintptr_t legacy_stream_handle = 0x1;      // cudaStreamLegacy
constexpr std::uintptr_t per_thread_stream_handle = 0x2;  // cudaStreamPerThread

std::atomic<std::uintptr_t> next_thread_number{0};

enum class block_state : unsigned char { used, free, fenced };

struct block {
  std::uintptr_t addr = 0;
  std::size_t size = 0;
  block* prev = nullptr;  // address neighbours inside the same chunk
  block* next = nullptr;
  stream_key arena = 0;   // free: the arena holding it; used: the stream it was allocated for
  block_state state = block_state::used;
  void* fence = nullptr;         // fenced: the fence to wait for
  block* next_fenced = nullptr;  // fenced: the list of blocks waiting for their fence
};

// Best fit: smallest size first, then lowest address. Transparent, to look up by size.
struct by_size_then_address {
  using is_transparent = void;
  bool operator()(const block* a, const block* b) const noexcept {
    return a->size != b->size ? a->size < b->size : a->addr < b->addr;
  }
  bool operator()(const block* a, std::size_t size) const noexcept { return a->size < size; }
  bool operator()(std::size_t size, const block* b) const noexcept { return size < b->size; }
};

using free_set = std::pmr::set<block*, by_size_then_address>;

}  // namespace

stream_key key_of_stream(pool_stream stream) noexcept {
  const auto handle = reinterpret_cast<std::uintptr_t>(stream);
  if (handle == legacy_stream_handle) return 0;
  if (handle == per_thread_stream_handle) {
    thread_local const stream_key key = ((next_thread_number.fetch_add(1, std::memory_order_relaxed) + 1) << 2) | 3u;
    return key;
  }
  return handle;
}

class device_pool {
 public:
  device_pool(pool_backend& backend, int device, std::size_t limit)
      : backend_(backend), device_(device), fenced_(backend.uses_fences()), limit_(limit) {
    live_.reserve(1024);
  }

  ~device_pool() { release_everything(); }

  void* allocate(std::size_t size, pool_stream stream) {
    const stream_key key = fenced_ ? 0 : key_of_stream(stream);
    std::lock_guard lock(mutex_);
    if (fenced_ && fenced_head_) collect_passed_fences();
    if (block* b = take_best_fit(arena_of(key), size)) return hand_out(b, key);
    block* b = new_chunk(size);
    return hand_out(b, key);
  }

  void deallocate(void* ptr, pool_stream stream) noexcept {
    std::lock_guard lock(mutex_);
    const auto it = live_.find(reinterpret_cast<std::uintptr_t>(ptr));
    if (it == live_.end()) return;
    block* b = it->second;
    live_.erase(it);
    used_ -= b->size;
    if (fenced_) {
      if (void* fence = backend_.record_fence(device_, stream)) {
        b->state = block_state::fenced;
        b->fence = fence;
        b->next_fenced = fenced_head_;
        fenced_head_ = b;
        ++n_fenced_;
        return;
      }
      make_free(b, 0);
      return;
    }
    // The per-thread default stream handle means "this thread's"; a block allocated on some
    // thread's per-thread stream stays with that stream's arena.
    stream_key key = key_of_stream(stream);
    if (reinterpret_cast<std::uintptr_t>(stream) == per_thread_stream_handle && is_per_thread_key(b->arena))
      key = b->arena;
    make_free(b, key);
  }

  std::size_t used_bytes() const {
    std::lock_guard lock(mutex_);
    return used_;
  }
  std::size_t total_bytes() const {
    std::lock_guard lock(mutex_);
    return total_;
  }
  std::size_t n_free_blocks() const {
    std::lock_guard lock(mutex_);
    return n_free_ + n_fenced_;
  }
  void free_all_blocks() {
    std::lock_guard lock(mutex_);
    if (fenced_ && fenced_head_) collect_passed_fences();
    release_free_chunks();
  }
  void set_limit(std::size_t bytes) {
    std::lock_guard lock(mutex_);
    limit_ = bytes;
  }
  std::size_t get_limit() const {
    std::lock_guard lock(mutex_);
    return limit_;
  }

 private:
  struct arena {
    explicit arena(std::pmr::memory_resource* resource) : blocks(resource) {}
    free_set blocks;
  };

  block* new_block() { return std::pmr::polymorphic_allocator<block>(&resource_).new_object<block>(); }
  void delete_block(block* b) noexcept { std::pmr::polymorphic_allocator<block>(&resource_).delete_object(b); }

  arena& arena_of(stream_key key) {
    if (cached_arena_ && cached_key_ == key) return *cached_arena_;
    arena& a = arenas_.try_emplace(key, &resource_).first->second;
    cached_key_ = key;
    cached_arena_ = &a;
    return a;
  }

  void* hand_out(block* b, stream_key key) {
    b->state = block_state::used;
    b->arena = key;
    live_.emplace(b->addr, b);
    used_ += b->size;
    return reinterpret_cast<void*>(b->addr);
  }

  // Takes the best fitting free block of the arena and splits off the rest.
  block* take_best_fit(arena& a, std::size_t size) {
    const auto it = a.blocks.lower_bound(size);
    if (it == a.blocks.end()) return nullptr;
    block* b = *it;
    a.blocks.erase(it);
    --n_free_;
    if (b->size > size) {
      block* rest = new_block();
      rest->addr = b->addr + size;
      rest->size = b->size - size;
      rest->prev = b;
      rest->next = b->next;
      rest->arena = b->arena;
      rest->state = block_state::free;
      if (b->next) b->next->prev = rest;
      b->next = rest;
      b->size = size;
      a.blocks.insert(rest);
      ++n_free_;
    }
    return b;
  }

  // Puts a block into the arena `key`, merged with free neighbours of the same arena.
  void make_free(block* b, stream_key key) noexcept {
    arena* a = nullptr;
    try {
      a = &arena_of(key);
    } catch (...) {
      // No memory for a new arena: keep the block out of circulation until its chunk is released.
      b->state = block_state::used;
      return;
    }
    b->state = block_state::free;
    b->arena = key;
    if (block* n = b->next; n && n->state == block_state::free && n->arena == key) {
      a->blocks.erase(n);
      --n_free_;
      b->size += n->size;
      b->next = n->next;
      if (b->next) b->next->prev = b;
      delete_block(n);
    }
    if (block* p = b->prev; p && p->state == block_state::free && p->arena == key) {
      a->blocks.erase(p);
      --n_free_;
      p->size += b->size;
      p->next = b->next;
      if (p->next) p->next->prev = p;
      delete_block(b);
      b = p;
    }
    a->blocks.insert(b);  // a node freed just above is reused: cannot fail in practice
    ++n_free_;
  }

  void collect_passed_fences() noexcept {
    block** link = &fenced_head_;
    while (block* b = *link) {
      if (backend_.fence_passed(b->fence)) {
        *link = b->next_fenced;
        backend_.release_fence(b->fence);
        b->fence = nullptr;
        b->next_fenced = nullptr;
        --n_fenced_;
        make_free(b, 0);
      } else {
        link = &b->next_fenced;
      }
    }
  }

  // A chunk for a block of `size`: within the limit, from the backend; on failure, releases the
  // free chunks and tries once more.
  block* new_chunk(std::size_t size) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (attempt == 1) {
        if (fenced_ && fenced_head_) collect_passed_fences();
        release_free_chunks();
      }
      if (limit_ != 0 && (size > limit_ || total_ > limit_ - size)) continue;
      void* ptr = backend_.allocate_chunk(size, device_);
      if (!ptr) continue;
      block* b = nullptr;
      try {
        b = new_block();
      } catch (...) {
        backend_.release_chunk(ptr, size, device_);
        throw;
      }
      b->addr = reinterpret_cast<std::uintptr_t>(ptr);
      b->size = size;
      total_ += size;
      return b;
    }
    throw OutOfMemoryError(size, total_, limit_);
  }

  // Releases every chunk whose blocks are all free (whatever their arenas).
  void release_free_chunks() noexcept {
    std::vector<block*> heads;
    try {
      for (auto& [key, a] : arenas_)
        for (block* b : a.blocks)
          if (!b->prev) heads.push_back(b);
    } catch (...) {
      return;  // no memory for the list: nothing is released this time
    }
    for (block* head : heads) {
      bool all_free = true;
      for (block* b = head; b; b = b->next)
        if (b->state != block_state::free) {
          all_free = false;
          break;
        }
      if (!all_free) continue;
      std::size_t chunk_size = 0;
      for (block* b = head; b;) {
        block* next = b->next;
        arenas_.find(b->arena)->second.blocks.erase(b);
        --n_free_;
        chunk_size += b->size;
        if (b != head) delete_block(b);
        b = next;
      }
      total_ -= chunk_size;
      backend_.release_chunk(reinterpret_cast<void*>(head->addr), chunk_size, device_);
      delete_block(head);
    }
    // Arenas of streams that have nothing cached any more are dropped.
    cached_arena_ = nullptr;
    std::erase_if(arenas_, [](const auto& entry) { return entry.second.blocks.empty(); });
  }

  void release_everything() noexcept {
    std::vector<block*> heads;
    try {
      for (auto& [key, a] : arenas_)
        for (block* b : a.blocks)
          if (!b->prev) heads.push_back(b);
      for (auto& [addr, b] : live_)
        if (!b->prev) heads.push_back(b);
      for (block* b = fenced_head_; b; b = b->next_fenced) {
        backend_.release_fence(b->fence);
        if (!b->prev) heads.push_back(b);
      }
    } catch (...) {
      return;
    }
    for (block* head : heads) {
      std::size_t chunk_size = 0;
      for (block* b = head; b; b = b->next) chunk_size += b->size;
      backend_.release_chunk(reinterpret_cast<void*>(head->addr), chunk_size, device_);
    }
    // The nodes go with resource_.
  }

  pool_backend& backend_;
  const int device_;
  const bool fenced_;
  mutable std::mutex mutex_;
  std::pmr::unsynchronized_pool_resource resource_;  // declared before the containers using it
  std::pmr::unordered_map<stream_key, arena> arenas_{&resource_};
  std::pmr::unordered_map<std::uintptr_t, block*> live_{&resource_};
  stream_key cached_key_ = 0;
  arena* cached_arena_ = nullptr;
  block* fenced_head_ = nullptr;
  std::size_t used_ = 0, total_ = 0, n_free_ = 0, n_fenced_ = 0, limit_ = 0;
};

// ---- pool_core

pool_core::pool_core(std::shared_ptr<pool_backend> backend, limit_fn default_limit)
    : backend_(std::move(backend)), default_limit_(std::move(default_limit)) {
  if (!backend_) throw ValueError("memory pool: no backend");
}

pool_core::~pool_core() = default;

device_pool* pool_core::find_pool(int device) const noexcept {
  if (device < 0 || device >= max_devices) return nullptr;
  return pools_[static_cast<std::size_t>(device)].load(std::memory_order_acquire);
}

device_pool& pool_core::pool_of(int device) const {
  if (device_pool* p = find_pool(device)) return *p;
  if (device < 0 || device >= max_devices)
    throw ValueError("memory pool: invalid device " + std::to_string(device));
  std::lock_guard lock(create_mutex_);
  auto& slot = pools_[static_cast<std::size_t>(device)];
  if (device_pool* p = slot.load(std::memory_order_acquire)) return *p;
  const std::size_t limit = default_limit_ ? default_limit_(device) : 0;
  owned_.push_back(std::make_unique<device_pool>(*backend_, device, limit));
  slot.store(owned_.back().get(), std::memory_order_release);
  return *owned_.back();
}

void* pool_core::allocate(std::size_t bytes, int device, pool_stream stream) {
  if (bytes == 0) throw ValueError("memory pool: zero-byte allocation");
  if (bytes > std::numeric_limits<std::size_t>::max() - pool_allocation_unit)
    throw OutOfMemoryError(bytes, find_pool(device) ? find_pool(device)->total_bytes() : 0, get_limit(device));
  return pool_of(device).allocate(round_pool_size(bytes), stream);
}

void pool_core::deallocate(void* ptr, std::size_t /*bytes*/, int device, pool_stream stream) noexcept {
  if (!ptr) return;
  if (device_pool* p = find_pool(device)) p->deallocate(ptr, stream);
}

std::size_t pool_core::used_bytes(int device) const {
  const device_pool* p = find_pool(device);
  return p ? p->used_bytes() : 0;
}

std::size_t pool_core::total_bytes(int device) const {
  const device_pool* p = find_pool(device);
  return p ? p->total_bytes() : 0;
}

std::size_t pool_core::n_free_blocks(int device) const {
  const device_pool* p = find_pool(device);
  return p ? p->n_free_blocks() : 0;
}

void pool_core::free_all_blocks() {
  for (int d = 0; d < max_devices; ++d)
    if (device_pool* p = find_pool(d)) p->free_all_blocks();
}

void pool_core::free_all_blocks(int device) {
  if (device_pool* p = find_pool(device)) p->free_all_blocks();
}

void pool_core::set_limit(int device, std::size_t bytes) { pool_of(device).set_limit(bytes); }

std::size_t pool_core::get_limit(int device) const { return pool_of(device).get_limit(); }

}  // namespace cupp::cuda::detail
