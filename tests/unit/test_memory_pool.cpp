// The memory pools' host-side logic behind the fake backend (no GPU): 512-byte rounding, best fit,
// split/merge/reuse, per-stream free lists, statistics, free_all_blocks, limits and the
// out-of-memory path, the pinned pool's fences, and allocator replacement. The multi-thread
// stress test is in test_memory_pool_stress.cpp (it also runs under ThreadSanitizer).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cuda/pool_core.hpp"
#include "cuda/pool_fake_backend.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda {
namespace {

using detail::fake_backend;

stream_handle fake_stream(std::uintptr_t n) { return reinterpret_cast<stream_handle>(n * 0x1000); }
const stream_handle stream_a = fake_stream(1);
const stream_handle stream_b = fake_stream(2);

std::uintptr_t addr(void* p) { return reinterpret_cast<std::uintptr_t>(p); }

struct pool_fixture : ::testing::Test {
  std::shared_ptr<fake_backend> backend = std::make_shared<fake_backend>();
  MemoryPool pool{backend};
};

using MemoryPoolCore = pool_fixture;

TEST(MemoryPoolRounding, RoundsUpTo512) {
  EXPECT_EQ(detail::round_pool_size(0), 0u);
  EXPECT_EQ(detail::round_pool_size(1), 512u);
  EXPECT_EQ(detail::round_pool_size(512), 512u);
  EXPECT_EQ(detail::round_pool_size(513), 1024u);
  EXPECT_EQ(detail::round_pool_size(4096), 4096u);
}

TEST_F(MemoryPoolCore, AllocationsAreRoundedAndCounted) {
  void* p = pool.allocate(1, 0, stream_a);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(addr(p) % 512, 0u);
  EXPECT_EQ(pool.used_bytes(0), 512u);
  EXPECT_EQ(pool.total_bytes(0), 512u);
  void* q = pool.allocate(1000, 0, stream_a);
  EXPECT_EQ(pool.used_bytes(0), 512u + 1024u);
  EXPECT_EQ(pool.n_free_blocks(0), 0u);
  pool.deallocate(p, 1, 0, stream_a);
  pool.deallocate(q, 1000, 0, stream_a);
  EXPECT_EQ(pool.used_bytes(0), 0u);
  EXPECT_EQ(pool.total_bytes(0), 512u + 1024u);
  EXPECT_EQ(pool.free_bytes(0), 512u + 1024u);
  EXPECT_EQ(pool.n_free_blocks(0), 2u);
  EXPECT_EQ(backend->chunk_allocations(), 2u);
}

TEST_F(MemoryPoolCore, ZeroBytesGiveNullWithoutTouchingThePool) {
  EXPECT_EQ(pool.allocate(0, 0, stream_a), nullptr);
  pool.deallocate(nullptr, 0, 0, stream_a);
  EXPECT_EQ(backend->chunk_allocations(), 0u);
  EXPECT_EQ(pool.total_bytes(0), 0u);
}

TEST_F(MemoryPoolCore, InvalidDeviceIsAValueError) {
  EXPECT_THROW(pool.allocate(16, -1, stream_a), ValueError);
  EXPECT_THROW(pool.allocate(16, detail::pool_core::max_devices, stream_a), ValueError);
  EXPECT_THROW(pool.allocate(16, 5, stream_a), ValueError);  // the fake backend has 2 devices
}

TEST_F(MemoryPoolCore, BestFitTakesTheSmallestBlockThatFits) {
  void* b1024 = pool.allocate(1024, 0, stream_a);
  void* b4096 = pool.allocate(4096, 0, stream_a);
  void* b2048 = pool.allocate(2048, 0, stream_a);
  void* b8192 = pool.allocate(8192, 0, stream_a);
  for (auto [p, n] : {std::pair{b1024, 1024}, {b4096, 4096}, {b2048, 2048}, {b8192, 8192}})
    pool.deallocate(p, n, 0, stream_a);
  ASSERT_EQ(pool.n_free_blocks(0), 4u);
  void* got = pool.allocate(1500, 0, stream_a);  // rounded to 1536: the 2048 block is the best fit
  EXPECT_EQ(got, b2048);
  EXPECT_EQ(pool.n_free_blocks(0), 4u);  // 2048 split into 1536 + 512
  void* exact = pool.allocate(4096, 0, stream_a);
  EXPECT_EQ(exact, b4096);
  void* rest = pool.allocate(512, 0, stream_a);  // the 512 remainder of the split beats 1024
  EXPECT_EQ(addr(rest), addr(b2048) + 1536);
  EXPECT_EQ(backend->chunk_allocations(), 4u);
  pool.deallocate(got, 1500, 0, stream_a);
  pool.deallocate(exact, 4096, 0, stream_a);
  pool.deallocate(rest, 512, 0, stream_a);
}

TEST_F(MemoryPoolCore, SplitMergeAndReuse) {
  void* whole = pool.allocate(4096, 0, stream_a);
  pool.deallocate(whole, 4096, 0, stream_a);
  void* x = pool.allocate(1024, 0, stream_a);
  void* y = pool.allocate(1024, 0, stream_a);
  void* z = pool.allocate(1024, 0, stream_a);
  EXPECT_EQ(x, whole);
  EXPECT_EQ(addr(y), addr(whole) + 1024);
  EXPECT_EQ(addr(z), addr(whole) + 2048);
  EXPECT_EQ(pool.n_free_blocks(0), 1u);  // the last 1024
  EXPECT_EQ(pool.used_bytes(0), 3072u);
  pool.deallocate(y, 1024, 0, stream_a);  // a hole between two used blocks
  EXPECT_EQ(pool.n_free_blocks(0), 2u);
  pool.deallocate(x, 1024, 0, stream_a);  // merges with y
  EXPECT_EQ(pool.n_free_blocks(0), 2u);
  void* xy = pool.allocate(2048, 0, stream_a);  // the merged x+y block
  EXPECT_EQ(xy, whole);
  pool.deallocate(xy, 2048, 0, stream_a);
  pool.deallocate(z, 1024, 0, stream_a);  // merges with both neighbours: one block again
  EXPECT_EQ(pool.n_free_blocks(0), 1u);
  void* again = pool.allocate(4096, 0, stream_a);
  EXPECT_EQ(again, whole);
  EXPECT_EQ(backend->chunk_allocations(), 1u);
  pool.deallocate(again, 4096, 0, stream_a);
}

TEST_F(MemoryPoolCore, BlocksFreedOnOneStreamAreNotReusedByAnother) {
  void* on_a = pool.allocate(4096, 0, stream_a);
  pool.deallocate(on_a, 4096, 0, stream_a);
  void* on_b = pool.allocate(4096, 0, stream_b);
  EXPECT_NE(on_b, on_a);
  void* small_b = pool.allocate(512, 0, stream_b);  // nor split from A's block
  EXPECT_NE(small_b, on_a);
  EXPECT_FALSE(addr(small_b) >= addr(on_a) && addr(small_b) < addr(on_a) + 4096);
  void* again_a = pool.allocate(4096, 0, stream_a);
  EXPECT_EQ(again_a, on_a);
  EXPECT_EQ(backend->chunk_allocations(), 3u);
  pool.deallocate(on_b, 4096, 0, stream_b);
  pool.deallocate(small_b, 512, 0, stream_b);
  pool.deallocate(again_a, 4096, 0, stream_a);
  // After free_all_blocks the chunks went back to the device; new ones serve any stream.
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(0), 0u);
  EXPECT_EQ(backend->live_chunks(), 0u);
}

TEST_F(MemoryPoolCore, NullAndLegacyStreamShareAFreeList) {
  void* p = pool.allocate(4096, 0, nullptr);
  pool.deallocate(p, 4096, 0, nullptr);
  void* q = pool.allocate(4096, 0, reinterpret_cast<stream_handle>(0x1));  // cudaStreamLegacy
  EXPECT_EQ(q, p);
  pool.deallocate(q, 4096, 0, reinterpret_cast<stream_handle>(0x1));
}

TEST_F(MemoryPoolCore, PerThreadDefaultStreamIsOneStreamPerThread) {
  const auto per_thread = reinterpret_cast<stream_handle>(0x2);  // cudaStreamPerThread
  void* mine = pool.allocate(4096, 0, per_thread);
  pool.deallocate(mine, 4096, 0, per_thread);
  void* theirs = nullptr;
  std::thread([&] {
    theirs = pool.allocate(4096, 0, per_thread);
    // Freed by another thread, a block allocated on a thread's per-thread stream stays with it.
  }).join();
  EXPECT_NE(theirs, mine);
  pool.deallocate(theirs, 4096, 0, per_thread);
  void* mine_again = pool.allocate(4096, 0, per_thread);
  EXPECT_EQ(mine_again, mine);
  void* theirs_again = nullptr;
  std::thread([&] { theirs_again = pool.allocate(4096, 0, per_thread); }).join();
  // A new thread is a new per-thread stream: neither block is handed to it.
  EXPECT_NE(theirs_again, mine);
  EXPECT_NE(theirs_again, theirs);
  pool.deallocate(mine_again, 4096, 0, per_thread);
}

TEST_F(MemoryPoolCore, FreeBlocksOfDifferentStreamsDoNotMerge) {
  void* whole = pool.allocate(2048, 0, stream_a);
  pool.deallocate(whole, 2048, 0, stream_a);
  void* half = pool.allocate(1024, 0, stream_a);  // remainder (1024) stays in A's list
  pool.deallocate(half, 1024, 0, stream_b);       // last used on B: goes to B's list
  EXPECT_EQ(pool.n_free_blocks(0), 2u);
  void* big = pool.allocate(2048, 0, stream_a);  // A has only 1024 free: a new chunk
  EXPECT_NE(big, whole);
  EXPECT_EQ(backend->chunk_allocations(), 2u);
  pool.deallocate(big, 2048, 0, stream_a);
  // The first chunk is entirely free (across two lists): free_all_blocks releases it.
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(0), 0u);
  EXPECT_EQ(pool.n_free_blocks(0), 0u);
  EXPECT_EQ(backend->live_chunks(), 0u);
}

TEST_F(MemoryPoolCore, FreeAllBlocksKeepsChunksInUse) {
  void* chunk = pool.allocate(4096, 0, stream_a);
  pool.deallocate(chunk, 4096, 0, stream_a);
  void* part = pool.allocate(1024, 0, stream_a);  // keeps the chunk in use
  void* other = pool.allocate(8192, 0, stream_a);
  pool.deallocate(other, 8192, 0, stream_a);
  EXPECT_EQ(pool.total_bytes(0), 4096u + 8192u);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(0), 4096u);
  EXPECT_EQ(pool.used_bytes(0), 1024u);
  EXPECT_EQ(pool.n_free_blocks(0), 1u);  // the free 3072 of the chunk in use
  EXPECT_EQ(backend->chunk_releases(), 1u);
  pool.deallocate(part, 1024, 0, stream_a);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(0), 0u);
  EXPECT_EQ(backend->bytes_held(0), 0u);
}

TEST_F(MemoryPoolCore, DevicesHaveTheirOwnPools) {
  void* d0 = pool.allocate(4096, 0, stream_a);
  void* d1 = pool.allocate(8192, 1, stream_a);
  EXPECT_EQ(pool.used_bytes(0), 4096u);
  EXPECT_EQ(pool.used_bytes(1), 8192u);
  pool.deallocate(d0, 4096, 0, stream_a);
  void* d1b = pool.allocate(4096, 1, stream_a);  // device 0's free block is not device 1's
  EXPECT_NE(d1b, d0);
  pool.deallocate(d1, 8192, 1, stream_a);
  pool.deallocate(d1b, 4096, 1, stream_a);
  pool.set_limit(1 << 20, 1);
  EXPECT_EQ(pool.get_limit(1), 1u << 20);
  EXPECT_EQ(pool.get_limit(0), 0u);
}

TEST_F(MemoryPoolCore, UnknownPointerIsIgnored) {
  void* p = pool.allocate(512, 0, stream_a);
  pool.deallocate(reinterpret_cast<void*>(addr(p) + 512), 512, 0, stream_a);
  pool.deallocate(p, 512, 1, stream_a);  // wrong device: not this device's block
  EXPECT_EQ(pool.used_bytes(0), 512u);
  pool.deallocate(p, 512, 0, stream_a);
  EXPECT_EQ(pool.used_bytes(0), 0u);
}

TEST(MemoryPoolLimit, OutOfMemoryThenFreeAllBlocksThenTheSameAllocationSucceeds) {
  auto backend = std::make_shared<fake_backend>();
  const std::size_t limit = 1 << 20;
  MemoryPool pool(backend, [&](int) { return limit; });
  EXPECT_EQ(pool.get_limit(0), limit);
  const std::size_t request = 600 * 1024;
  void* held = pool.allocate(request, 0, stream_a);
  try {
    pool.allocate(request, 0, stream_b);
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), request);
    EXPECT_EQ(e.in_use(), request);
    EXPECT_EQ(e.limit(), limit);
    const std::string message = e.what();
    EXPECT_NE(message.find(std::to_string(request) + " bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("in use"), std::string::npos) << message;
    EXPECT_NE(message.find(std::to_string(limit)), std::string::npos) << message;
  }
  EXPECT_EQ(backend->chunk_allocations(), 1u);  // the limit stopped it before the backend
  pool.deallocate(held, request, 0, stream_a);
  EXPECT_EQ(pool.total_bytes(0), request);  // cached, on stream A's list
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(0), 0u);
  void* again = pool.allocate(request, 0, stream_b);
  EXPECT_NE(again, nullptr);
  pool.deallocate(again, request, 0, stream_b);
}

TEST(MemoryPoolLimit, CachedBlocksOfOtherStreamsAreReleasedAndTheAllocationRetried) {
  auto backend = std::make_shared<fake_backend>();
  MemoryPool pool(backend, [](int) { return std::size_t{1} << 20; });
  void* on_a = pool.allocate(700 * 1024, 0, stream_a);
  pool.deallocate(on_a, 700 * 1024, 0, stream_a);  // cached, but only A may reuse it
  void* on_b = pool.allocate(700 * 1024, 0, stream_b);  // over the limit -> release -> retry
  EXPECT_NE(on_b, nullptr);
  EXPECT_EQ(backend->chunk_releases(), 1u);
  EXPECT_EQ(pool.total_bytes(0), 700u * 1024);
  pool.deallocate(on_b, 700 * 1024, 0, stream_b);
}

TEST(MemoryPoolLimit, BackendOutOfMemoryReleasesCachedBlocksAndRetries) {
  auto backend = std::make_shared<fake_backend>(fake_backend::options{.capacity = 1 << 20});
  MemoryPool pool(backend);
  void* a = pool.allocate(512 * 1024, 0, stream_a);
  void* b = pool.allocate(256 * 1024, 0, stream_a);
  pool.deallocate(a, 512 * 1024, 0, stream_a);
  // 768 KiB held, 256 KiB left on the "device": the first try fails, the retry succeeds.
  void* c = pool.allocate(700 * 1024, 0, stream_b);
  EXPECT_EQ(backend->failed_allocations(), 1u);
  EXPECT_EQ(pool.total_bytes(0), detail::round_pool_size(700 * 1024) + 256 * 1024);
  // Nothing left to release: OutOfMemoryError, with the device's bytes held as "in use".
  try {
    pool.allocate(512 * 1024, 0, stream_b);
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), 512u * 1024);
    EXPECT_EQ(e.in_use(), pool.total_bytes(0));
    EXPECT_EQ(e.limit(), 0u);
  }
  pool.deallocate(b, 256 * 1024, 0, stream_a);
  pool.deallocate(c, 700 * 1024, 0, stream_b);
}

TEST(MemoryPoolLimit, SetLimitAppliesToLaterAllocations) {
  auto backend = std::make_shared<fake_backend>();
  MemoryPool pool(backend);
  void* p = pool.allocate(4096, 0, stream_a);
  pool.set_limit(4096, 0);
  EXPECT_THROW(pool.allocate(512, 0, stream_a), OutOfMemoryError);
  pool.set_limit(0, 0);  // unlimited again
  void* q = pool.allocate(512, 0, stream_a);
  pool.deallocate(p, 4096, 0, stream_a);
  pool.deallocate(q, 512, 0, stream_a);
  EXPECT_THROW(pool.allocate(SIZE_MAX - 10, 0, stream_a), OutOfMemoryError);
}

TEST(MemoryPoolDestruction, ReleasesEveryChunk) {
  auto backend = std::make_shared<fake_backend>();
  {
    MemoryPool pool(backend);
    void* p = pool.allocate(4096, 0, stream_a);
    pool.deallocate(p, 4096, 0, stream_a);
    pool.allocate(1024, 0, stream_a);  // still in use when the pool goes
    pool.allocate(2048, 1, stream_b);
  }
  EXPECT_EQ(backend->live_chunks(), 0u);
}

// ---- pinned pool (fenced backend)

TEST(PinnedMemoryPoolCore, BlockIsReusedOnlyAfterItsFencePassed) {
  auto backend = std::make_shared<fake_backend>(fake_backend::options{.devices = 1, .fences = true});
  auto pool = std::make_shared<PinnedMemoryPool>(backend);
  void* p = pool->allocate(4096);
  EXPECT_EQ(pool->used_bytes(), 4096u);
  pool->deallocate(p, 4096, stream_a);  // a copy on stream A may still read it
  EXPECT_EQ(pool->n_free_blocks(), 1u);
  EXPECT_EQ(backend->live_fences(), 1u);
  void* q = pool->allocate(4096);
  EXPECT_NE(q, p);
  pool->free_all_blocks();  // the fenced chunk is not released either
  EXPECT_EQ(pool->total_bytes(), 8192u);
  backend->complete(stream_a);
  void* r = pool->allocate(4096);  // now p may be reused, by any stream
  EXPECT_EQ(r, p);
  EXPECT_EQ(backend->live_fences(), 0u);
  pool->deallocate(q, 4096, stream_b);
  pool->deallocate(r, 4096, stream_b);
  backend->complete(stream_b);
  pool->free_all_blocks();
  EXPECT_EQ(pool->total_bytes(), 0u);
  EXPECT_EQ(backend->live_chunks(), 0u);
}

TEST(PinnedMemoryPoolCore, SplitsAndMergesOncePassed) {
  auto backend = std::make_shared<fake_backend>(fake_backend::options{.devices = 1, .fences = true});
  PinnedMemoryPool pool(backend);
  void* whole = pool.allocate(4096);
  pool.deallocate(whole, 4096, stream_a);
  backend->complete(stream_a);
  void* x = pool.allocate(1000);
  void* y = pool.allocate(1000);
  EXPECT_EQ(x, whole);
  EXPECT_EQ(addr(y), addr(whole) + 1024);
  pool.deallocate(x, 1000, stream_a);
  pool.deallocate(y, 1000, stream_b);
  backend->complete(stream_a);
  backend->complete(stream_b);
  void* again = pool.allocate(4096);  // merged back, whatever stream freed the parts
  EXPECT_EQ(again, whole);
  pool.deallocate(again, 4096, stream_a);
  EXPECT_EQ(pool.get_limit(), 0u);
}

TEST(PinnedMemoryPoolCore, OutOfMemoryWaitsForNothingAndThrows) {
  auto backend = std::make_shared<fake_backend>(fake_backend::options{.devices = 1, .fences = true});
  PinnedMemoryPool pool(backend);
  pool.set_limit(8192);
  void* a = pool.allocate(8192);
  pool.deallocate(a, 8192, stream_a);  // fence pending: cannot be released or reused
  EXPECT_THROW(pool.allocate(4096), OutOfMemoryError);
  backend->complete(stream_a);
  void* b = pool.allocate(8192);  // reused
  EXPECT_EQ(b, a);
  pool.deallocate(b, 8192, stream_a);
  backend->complete(stream_a);
  void* c = pool.allocate(512);
  pool.deallocate(c, 512, stream_a);
}

TEST(PinnedMemoryPoolCore, PinnedMemoryReturnsItsBlockToItsPool) {
  auto backend = std::make_shared<fake_backend>(fake_backend::options{.devices = 1, .fences = true});
  auto pool = std::make_shared<PinnedMemoryPool>(backend);
  {
    PinnedMemory block(pool->allocate(100), 100, stream_a, pool);
    EXPECT_EQ(pool->used_bytes(), 512u);
    PinnedMemory moved = std::move(block);
    EXPECT_FALSE(block);
    moved.set_stream(stream_b);
    EXPECT_EQ(moved.stream(), stream_b);
  }
  EXPECT_EQ(pool->used_bytes(), 0u);
  EXPECT_EQ(backend->live_fences(), 1u);
  backend->complete(stream_b);
  void* p = pool->allocate(100);
  EXPECT_EQ(backend->live_fences(), 0u);
  pool->deallocate(p, 100, stream_b);
}

// ---- allocator replacement

// Counts calls and hands out fake addresses.
class counting_allocator final : public Allocator {
 public:
  void* allocate(std::size_t bytes, int device, stream_handle stream) override {
    ++allocations;
    last_bytes = bytes;
    last_device = device;
    last_stream = stream;
    return reinterpret_cast<void*>(next += 0x10000);
  }
  void deallocate(void* ptr, std::size_t bytes, int device, stream_handle stream) noexcept override {
    ++deallocations;
    last_freed = ptr;
    last_bytes = bytes;
    last_device = device;
    last_stream = stream;
  }
  std::atomic<int> allocations{0}, deallocations{0};
  std::size_t last_bytes = 0;
  int last_device = -1;
  stream_handle last_stream = nullptr;
  void* last_freed = nullptr;

 private:
  std::uintptr_t next = 0x100000;
};

// Puts the allocator that was current back when a test ends.
struct allocator_restorer {
  std::shared_ptr<Allocator> saved = get_allocator();
  ~allocator_restorer() { set_allocator(saved); }
};

TEST(AllocatorReplacement, DefaultIsTheDefaultPool) {
  const auto current = get_allocator();
  ASSERT_NE(current, nullptr);
  EXPECT_EQ(current.get(), static_cast<Allocator*>(&get_default_memory_pool()));
  EXPECT_EQ(default_memory_pool_ptr().get(), &get_default_memory_pool());
}

TEST(AllocatorReplacement, AllocGoesToTheCurrentAllocatorAndMemoryReturnsToItsOwn) {
  allocator_restorer restore;
  auto first = std::make_shared<counting_allocator>();
  set_allocator(first);
  EXPECT_EQ(get_allocator(), first);
  {
    Memory m = alloc(1000, 1, stream_b);
    EXPECT_EQ(first->allocations, 1);
    EXPECT_EQ(first->last_bytes, 1000u);
    EXPECT_EQ(first->last_device, 1);
    EXPECT_EQ(first->last_stream, stream_b);
    EXPECT_EQ(m.size(), 1000u);
    EXPECT_EQ(m.device(), 1);
    EXPECT_EQ(m.stream(), stream_b);
    EXPECT_EQ(m.allocator(), first);
    void* ptr = m.ptr();

    // Replaced while m lives: m still goes back to the first allocator, which it keeps alive.
    auto second = std::make_shared<counting_allocator>();
    set_allocator(second);
    Memory n = alloc(64, 0, stream_a);
    EXPECT_EQ(second->allocations, 1);
    EXPECT_EQ(first->allocations, 1);
    EXPECT_EQ(n.allocator(), second);
    std::weak_ptr<counting_allocator> first_weak = first;
    counting_allocator* first_raw = first.get();
    first.reset();
    EXPECT_FALSE(first_weak.expired());
    EXPECT_EQ(first_raw->deallocations, 0);
    m.reset();
    EXPECT_FALSE(m);
    EXPECT_TRUE(first_weak.expired());
    EXPECT_EQ(second->deallocations, 0);
    n.reset();
    EXPECT_EQ(second->deallocations, 1);
    (void)ptr;
  }
}

TEST(AllocatorReplacement, MemoryReturnsItsBlockOnceWithTheSameArguments) {
  allocator_restorer restore;
  auto counting = std::make_shared<counting_allocator>();
  set_allocator(counting);
  void* ptr = nullptr;
  {
    Memory m = alloc(4096, 0, stream_a);
    ptr = m.ptr();
    Memory moved(std::move(m));
    EXPECT_FALSE(m);
    EXPECT_EQ(moved.ptr(), ptr);
    Memory assigned;
    assigned = std::move(moved);
    EXPECT_EQ(counting->deallocations, 0);
  }
  EXPECT_EQ(counting->deallocations, 1);
  EXPECT_EQ(counting->last_freed, ptr);
  EXPECT_EQ(counting->last_bytes, 4096u);
  EXPECT_EQ(counting->last_stream, stream_a);
  // Shared ownership, as arrays hold it.
  auto shared = std::make_shared<Memory>(alloc(512, 0, stream_a));
  auto copy = shared;
  shared.reset();
  EXPECT_EQ(counting->deallocations, 1);
  copy.reset();
  EXPECT_EQ(counting->deallocations, 2);
}

TEST(AllocatorReplacement, ZeroBytesNeedNoAllocator) {
  allocator_restorer restore;
  auto counting = std::make_shared<counting_allocator>();
  set_allocator(counting);
  Memory m = alloc(0, 0, stream_a);
  EXPECT_EQ(m.ptr(), nullptr);
  EXPECT_EQ(m.size(), 0u);
  EXPECT_EQ(counting->allocations, 0);
}

TEST(AllocatorReplacement, NullptrDisablesPooling) {
  allocator_restorer restore;
  set_allocator(nullptr);
  EXPECT_EQ(get_allocator(), nullptr);
  set_allocator(default_memory_pool_ptr());
  EXPECT_EQ(get_allocator().get(), static_cast<Allocator*>(&get_default_memory_pool()));
}

TEST(AllocatorReplacement, APoolOverAFakeBackendServesAlloc) {
  allocator_restorer restore;
  auto backend = std::make_shared<fake_backend>();
  auto pool = std::make_shared<MemoryPool>(backend);
  set_allocator(pool);
  void* first = nullptr;
  {
    Memory m = alloc(3000, 0, stream_a);
    first = m.ptr();
    EXPECT_EQ(pool->used_bytes(0), 3072u);
  }
  EXPECT_EQ(pool->used_bytes(0), 0u);
  Memory again = alloc(3000, 0, stream_a);
  EXPECT_EQ(again.ptr(), first);
  set_allocator(nullptr);
  pool.reset();  // `again` keeps the pool alive
  again.reset();
  EXPECT_EQ(backend->bytes_held(0), 0u);  // pool destroyed with its last block: chunks released
}

}  // namespace
}  // namespace cupp::cuda
