// Eight threads on one pool core over the fake backend with real host memory behind its chunks:
// each thread allocates on its own stream and on one shared stream, writes a pattern into every
// block, checks it before freeing, and a registry checks that no two live blocks overlap. Also
// built with -fsanitize=thread (tests/pool_tsan.cmake), where ThreadSanitizer checks the locking.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cuda/pool_core.hpp"
#include "cuda/pool_fake_backend.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda::detail {
namespace {

// Live blocks by address; insert() fails when a new block overlaps a live one.
class live_registry {
 public:
  bool insert(std::uintptr_t begin, std::size_t size) {
    std::lock_guard lock(mutex_);
    const std::uintptr_t end = begin + size;
    auto next = blocks_.lower_bound(begin);
    if (next != blocks_.end() && next->first < end) return false;
    if (next != blocks_.begin() && std::prev(next)->second > begin) return false;
    blocks_.emplace(begin, end);
    return true;
  }
  void erase(std::uintptr_t begin) {
    std::lock_guard lock(mutex_);
    blocks_.erase(begin);
  }

 private:
  std::mutex mutex_;
  std::map<std::uintptr_t, std::uintptr_t> blocks_;  // begin -> end
};

struct live_block {
  void* ptr;
  std::size_t size;
  int device;
  pool_stream stream;
  unsigned char pattern;
};

TEST(MemoryPoolStress, EightThreadsOwnStreamsAndOneSharedStream) {
  constexpr int threads = 8;
  constexpr int iterations = 3000;
  constexpr int devices = 2;
  auto backend = std::make_shared<fake_backend>(
      fake_backend::options{.capacity = std::size_t{3} << 20, .devices = devices, .backed = true});
  pool_core pool(backend);
  live_registry registry;
  const auto shared_stream = reinterpret_cast<pool_stream>(0x7000);
  std::atomic<int> overlaps{0}, corruptions{0}, out_of_memory{0}, other_errors{0};

  auto worker = [&](int id) {
    const auto own_stream = reinterpret_cast<pool_stream>(0x100000 + 0x1000 * id);
    std::mt19937 rng(static_cast<unsigned>(id) * 7919u + 1);
    std::vector<live_block> live;
    auto release = [&](std::size_t index) {
      const live_block b = live[index];
      const auto* bytes = static_cast<const unsigned char*>(b.ptr);
      if (std::any_of(bytes, bytes + b.size, [&](unsigned char c) { return c != b.pattern; })) ++corruptions;
      registry.erase(reinterpret_cast<std::uintptr_t>(b.ptr));
      pool.deallocate(b.ptr, b.size, b.device, b.stream);
      live[index] = live.back();
      live.pop_back();
    };
    for (int i = 0; i < iterations; ++i) {
      if (live.size() >= 12 || (!live.empty() && rng() % 3 == 0)) {
        release(rng() % live.size());
        continue;
      }
      const std::size_t size = 1 + rng() % (rng() % 8 == 0 ? 256 * 1024 : 8 * 1024);
      const int device = static_cast<int>(rng() % devices);
      const pool_stream stream = rng() % 4 == 0 ? shared_stream : own_stream;
      try {
        void* p = pool.allocate(size, device, stream);
        if (!registry.insert(reinterpret_cast<std::uintptr_t>(p), size)) ++overlaps;
        const auto pattern = static_cast<unsigned char>(id * 31 + i);
        std::memset(p, pattern, size);
        live.push_back({p, size, device, stream, pattern});
      } catch (const OutOfMemoryError&) {
        ++out_of_memory;  // expected now and then: up to 12 blocks of up to 256 KiB per thread, 3 MiB per device
      } catch (...) {
        ++other_errors;
      }
      if (i % 500 == 499 && id % 2 == 0) pool.free_all_blocks();
      if (i % 97 == 0) (void)pool.used_bytes(device), (void)pool.n_free_blocks(device);
    }
    while (!live.empty()) release(live.size() - 1);
  };

  std::vector<std::thread> pool_threads;
  for (int t = 0; t < threads; ++t) pool_threads.emplace_back(worker, t);
  for (auto& t : pool_threads) t.join();

  EXPECT_EQ(overlaps.load(), 0);
  EXPECT_EQ(corruptions.load(), 0);
  EXPECT_EQ(other_errors.load(), 0);
  for (int d = 0; d < devices; ++d) EXPECT_EQ(pool.used_bytes(d), 0u) << d;
  pool.free_all_blocks();
  for (int d = 0; d < devices; ++d) {
    EXPECT_EQ(pool.total_bytes(d), 0u) << d;
    EXPECT_EQ(pool.n_free_blocks(d), 0u) << d;
    EXPECT_EQ(backend->bytes_held(d), 0u) << d;
  }
  // The out-of-memory path (release cached chunks, retry) ran, and the pool stayed consistent.
  EXPECT_GT(backend->failed_allocations(), 0u);
  RecordProperty("out_of_memory", std::to_string(out_of_memory.load()));
  RecordProperty("backend_failures", std::to_string(backend->failed_allocations()));
}

}  // namespace
}  // namespace cupp::cuda::detail
