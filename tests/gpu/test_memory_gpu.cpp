// The memory pools on a GPU: statistics, split/merge reuse on real memory, the out-of-memory path
// with a limit and with the device itself, pinned blocks reused only after their copy finished,
// allocator replacement, cudaMallocAsync, the cross-stream reuse test (a long kernel pending on
// stream A while stream B asks for memory; it must fail against a naive allocator, and does),
// and an 8-thread stress on own streams plus one shared stream. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "gpu_support.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::cuda {
namespace {

// Fill and verify kernels, compiled once per process for the current device.
class memory_kernels {
 public:
  // Spins for `spin_cycles` clock cycles, then writes `value` into n words at p. A spinning fill
  // runs as one block, so that it leaves the rest of the GPU to other streams.
  void fill(cudaStream_t stream, void* p, std::size_t bytes, unsigned value, long long spin_cycles = 0) const {
    unsigned long long n = bytes / 4;
    void* args[] = {&p, &n, &value, &spin_cycles};
    const dim3 blocks = spin_cycles > 0 ? dim3(1) : grid(n);
    CUPP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(fill_), blocks, dim3(256), args, 0, stream));
  }
  // Adds the number of words that differ from `value` to *errors.
  void verify(cudaStream_t stream, const void* p, std::size_t bytes, unsigned value, unsigned* errors) const {
    unsigned long long n = bytes / 4;
    void* args[] = {&p, &n, &value, &errors};
    CUPP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(verify_), grid(n), dim3(256), args, 0, stream));
  }

  static const memory_kernels& get() {
    static const memory_kernels instance;
    return instance;
  }

 private:
  memory_kernels() {
    const auto out = cupp::detail::nvrtc_compile({.program_name = "cupp_test_memory",
                                            .source = R"(
extern "C" __global__ void cupp_mem_fill(unsigned* p, unsigned long long n, unsigned value, long long spin_cycles) {
  if (spin_cycles > 0) {
    const long long start = clock64();
    while (clock64() - start < spin_cycles) {}
  }
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = value;
}
extern "C" __global__ void cupp_mem_verify(const unsigned* p, unsigned long long n, unsigned value, unsigned* errors) {
  unsigned bad = 0;
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    bad += p[i] != value;
  if (bad) atomicAdd(errors, bad);
}
)",
                                            .name_expressions = {},
                                            .arch = Device().compute_capability()});
    library_ = std::make_unique<test::loaded_library>(out.binary);
    fill_ = library_->kernel("cupp_mem_fill");
    verify_ = library_->kernel("cupp_mem_verify");
  }
  static dim3 grid(unsigned long long n) {
    return dim3(static_cast<unsigned>(std::clamp<unsigned long long>((n + 255) / 256, 1, 1024)));
  }
  std::unique_ptr<test::loaded_library> library_;
  cudaKernel_t fill_ = nullptr, verify_ = nullptr;
};

long long cycles_for_ms(double ms) {
  int khz = 0;
  CUPP_CUDA_CHECK(cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, current_device()));
  if (khz <= 0) khz = 2'000'000;  // not reported: assume 2 GHz
  return static_cast<long long>(ms * khz);
}

std::vector<unsigned> to_host(const void* p, std::size_t bytes) {
  std::vector<unsigned> out(bytes / 4);
  CUPP_CUDA_CHECK(cudaMemcpy(out.data(), p, bytes, cudaMemcpyDeviceToHost));
  return out;
}

std::size_t count_not_equal(const std::vector<unsigned>& v, unsigned value) {
  return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [&](unsigned x) { return x != value; }));
}

// Installs an allocator for a test's scope and puts the previous one back.
class allocator_scope {
 public:
  explicit allocator_scope(std::shared_ptr<Allocator> allocator) : saved_(get_allocator()) {
    set_allocator(std::move(allocator));
  }
  ~allocator_scope() { set_allocator(saved_); }
  allocator_scope(const allocator_scope&) = delete;
  allocator_scope& operator=(const allocator_scope&) = delete;

 private:
  std::shared_ptr<Allocator> saved_;
};

// Test only: reuses a freed block at once, whatever stream it was freed on (what a pool without
// stream safety does). cudaMalloc behind it; everything is freed with the allocator.
class naive_reusing_allocator final : public Allocator {
 public:
  ~naive_reusing_allocator() override {
    for (auto& [bytes, ptrs] : cached_)
      for (void* p : ptrs) cudaFree(p);
  }
  void* allocate(std::size_t bytes, int, stream_handle) override {
    {
      std::lock_guard lock(mutex_);
      auto& ptrs = cached_[bytes];
      if (!ptrs.empty()) {
        void* p = ptrs.back();
        ptrs.pop_back();
        return p;
      }
    }
    void* p = nullptr;
    CUPP_CUDA_CHECK(cudaMalloc(&p, bytes));
    return p;
  }
  void deallocate(void* ptr, std::size_t bytes, int, stream_handle) noexcept override {
    std::lock_guard lock(mutex_);
    try {
      cached_[bytes].push_back(ptr);
    } catch (...) {
      cudaFree(ptr);
    }
  }

 private:
  std::mutex mutex_;
  std::map<std::size_t, std::vector<void*>> cached_;
};

// Counts what goes through it; passes everything on to `inner`.
class counting_allocator final : public Allocator {
 public:
  explicit counting_allocator(std::shared_ptr<Allocator> inner) : inner_(std::move(inner)) {}
  void* allocate(std::size_t bytes, int device, stream_handle stream) override {
    ++allocations;
    return inner_->allocate(bytes, device, stream);
  }
  void deallocate(void* ptr, std::size_t bytes, int device, stream_handle stream) noexcept override {
    ++deallocations;
    inner_->deallocate(ptr, bytes, device, stream);
  }
  std::atomic<int> allocations{0}, deallocations{0};

 private:
  std::shared_ptr<Allocator> inner_;
};

TEST(MemoryPoolGpu, Statistics) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<MemoryPool>();
  allocator_scope scope(pool);
  const int dev = current_device();
  {
    Memory a = alloc(1000);
    Memory b = alloc(4096);
    ASSERT_NE(a.ptr(), nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.ptr()) % 256, 0u);
    EXPECT_EQ(a.device(), dev);
    EXPECT_EQ(a.stream(), current_stream().handle());
    EXPECT_EQ(pool->used_bytes(), 1024u + 4096u);
    EXPECT_EQ(pool->total_bytes(), 1024u + 4096u);
    EXPECT_EQ(pool->n_free_blocks(), 0u);
  }
  EXPECT_EQ(pool->used_bytes(), 0u);
  EXPECT_EQ(pool->total_bytes(), 1024u + 4096u);
  EXPECT_EQ(pool->free_bytes(), 1024u + 4096u);
  EXPECT_EQ(pool->n_free_blocks(), 2u);
  pool->free_all_blocks();
  EXPECT_EQ(pool->total_bytes(), 0u);
  EXPECT_EQ(pool->n_free_blocks(), 0u);
  Memory empty = alloc(0);
  EXPECT_EQ(empty.ptr(), nullptr);
  EXPECT_EQ(pool->total_bytes(), 0u);
}

TEST(MemoryPoolGpu, SplitMergeReuseOnRealMemory) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<MemoryPool>();
  allocator_scope scope(pool);
  const auto& k = memory_kernels::get();
  const Stream s = Stream::create();
  StreamGuard guard(s);
  void* base = nullptr;
  {
    Memory whole = alloc(1 << 20);
    base = whole.ptr();
  }
  std::vector<Memory> parts;
  for (unsigned i = 0; i < 4; ++i) {
    parts.push_back(alloc(256 * 1024));
    EXPECT_EQ(static_cast<char*>(parts.back().ptr()), static_cast<char*>(base) + i * 256 * 1024);
    k.fill(s.handle(), parts.back().ptr(), parts.back().size(), 0x1000 + i);
  }
  s.synchronize();
  for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(count_not_equal(to_host(parts[i].ptr(), 256 * 1024), 0x1000 + i), 0u) << i;
  EXPECT_EQ(pool->total_bytes(), 1u << 20);
  parts.clear();  // merged back into one block
  EXPECT_EQ(pool->n_free_blocks(), 1u);
  Memory again = alloc(1 << 20);
  EXPECT_EQ(again.ptr(), base);
  k.fill(s.handle(), again.ptr(), again.size(), 0xabcdef);
  s.synchronize();
  EXPECT_EQ(count_not_equal(to_host(again.ptr(), 1 << 20), 0xabcdef), 0u);
  EXPECT_EQ(pool->total_bytes(), 1u << 20);
}

TEST(MemoryPoolGpu, OutOfMemoryWithALimitThenFreeAllBlocksThenSuccess) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<MemoryPool>();
  allocator_scope scope(pool);
  const std::size_t mib = 1 << 20;
  pool->set_limit(64 * mib);
  EXPECT_EQ(pool->get_limit(), 64 * mib);
  std::vector<Memory> held;
  held.push_back(alloc(48 * mib));
  try {
    Memory extra = alloc(32 * mib);
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), 32 * mib);
    EXPECT_EQ(e.in_use(), 48 * mib);
    EXPECT_EQ(e.limit(), 64 * mib);
    const std::string message = e.what();
    for (std::size_t v : {32 * mib, 48 * mib, 64 * mib})
      EXPECT_NE(message.find(std::to_string(v)), std::string::npos) << message;
  }
  held.clear();
  pool->free_all_blocks();
  EXPECT_EQ(pool->total_bytes(), 0u);
  Memory extra = alloc(32 * mib);
  EXPECT_NE(extra.ptr(), nullptr);
  // A block cached for another stream is released by the retry when the limit is reached.
  const Stream other = Stream::create();
  extra.reset();
  Memory on_other = alloc(48 * mib, current_device(), other.handle());
  EXPECT_EQ(pool->total_bytes(), 48 * mib);
}

TEST(MemoryPoolGpu, DeviceOutOfMemoryThrowsWithSizes) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<MemoryPool>();
  allocator_scope scope(pool);
  const std::size_t too_much = get_device_properties(current_device()).total_memory * 2;
  try {
    Memory m = alloc(too_much);
    FAIL() << "no OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    EXPECT_EQ(e.requested(), too_much);
  }
  // The failure left no error behind: the next allocation and kernel work.
  Memory ok = alloc(4096);
  memory_kernels::get().fill(current_stream().handle(), ok.ptr(), 4096, 7);
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(count_not_equal(to_host(ok.ptr(), 4096), 7), 0u);
}

// The cross-stream scenario: X is allocated on A, a kernel that writes A_VALUE into X after about
// 50 ms is queued on A, X is freed on A while that kernel is pending, then stream B allocates the
// same size and fills it with B_VALUE. Returns the words of B's block that are not B_VALUE.
struct cross_stream_result {
  bool reused_block = false;
  std::size_t corrupted_words = 0;
};

cross_stream_result run_cross_stream_scenario() {
  const auto& k = memory_kernels::get();
  const Stream a = Stream::create({.non_blocking = true});
  const Stream b = Stream::create({.non_blocking = true});
  const int dev = current_device();
  const std::size_t bytes = 4 << 20;
  constexpr unsigned a_value = 0xaaaaaaaa, b_value = 0xbbbbbbbb;
  Memory x = alloc(bytes, dev, a.handle());
  void* x_ptr = x.ptr();
  k.fill(a.handle(), x.ptr(), bytes, a_value, cycles_for_ms(50));
  x.reset();  // freed on A; A's kernel is still running
  Memory y = alloc(bytes, dev, b.handle());
  k.fill(b.handle(), y.ptr(), bytes, b_value);
  b.synchronize();
  a.synchronize();
  cross_stream_result result;
  result.reused_block = y.ptr() == x_ptr;
  result.corrupted_words = count_not_equal(to_host(y.ptr(), bytes), b_value);
  return result;
}

TEST(MemoryPoolGpu, CrossStreamReuseIsSafe) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<MemoryPool>();
  allocator_scope scope(pool);
  const cross_stream_result r = run_cross_stream_scenario();
  EXPECT_FALSE(r.reused_block);
  EXPECT_EQ(r.corrupted_words, 0u) << "stream B's data was overwritten by the kernel pending on stream A";
}

TEST(MemoryPoolGpu, CrossStreamTestDetectsANaiveAllocator) {
  CUPP_REQUIRE_GPU();
  allocator_scope scope(std::make_shared<naive_reusing_allocator>());
  const cross_stream_result r = run_cross_stream_scenario();
  EXPECT_TRUE(r.reused_block);
  EXPECT_GT(r.corrupted_words, 0u) << "the scenario must catch an allocator without stream safety";
}

TEST(MemoryPoolGpu, PinnedBlockIsReusedOnlyAfterItsCopyFinished) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<PinnedMemoryPool>();
  const auto& k = memory_kernels::get();
  const Stream s = Stream::create({.non_blocking = true});
  const std::size_t bytes = 1 << 20;
  test::device_vector<unsigned> device(bytes / 4);
  PinnedMemory host = alloc_pinned_memory(bytes, pool);
  ASSERT_NE(host.ptr(), nullptr);
  std::fill_n(static_cast<unsigned*>(host.ptr()), bytes / 4, 0x5eed5eedu);
  k.fill(s.handle(), device.get(), 4, 0, cycles_for_ms(50));  // keeps the stream busy
  CUPP_CUDA_CHECK(cudaMemcpyAsync(device.get(), host.ptr(), bytes, cudaMemcpyHostToDevice, s.handle()));
  host.set_stream(s.handle());
  void* first = host.ptr();
  host.reset();  // freed while the copy is pending
  EXPECT_EQ(pool->n_free_blocks(), 1u);
  void* second = pool->allocate(bytes);
  EXPECT_NE(second, first) << "a pinned block was reused before its copy finished";
  std::fill_n(static_cast<unsigned*>(second), bytes / 4, 0xdeadbeefu);
  s.synchronize();
  EXPECT_EQ(count_not_equal(to_host(device.get(), bytes), 0x5eed5eedu), 0u);
  void* third = pool->allocate(bytes);  // the event has completed: reused
  EXPECT_EQ(third, first);
  pool->deallocate(second, bytes, s.handle());
  pool->deallocate(third, bytes, s.handle());
  s.synchronize();
  pool->free_all_blocks();
  EXPECT_EQ(pool->total_bytes(), 0u);
  // The default pinned pool works the same way.
  PinnedMemory d = alloc_pinned_memory(4096);
  EXPECT_NE(d.ptr(), nullptr);
  EXPECT_GE(get_default_pinned_memory_pool().used_bytes(), 4096u);
}

TEST(MemoryPoolGpu, AllocatorReplacement) {
  CUPP_REQUIRE_GPU();
  auto& default_pool = get_default_memory_pool();
  {
    // nullptr: plain cudaMalloc, nothing cached.
    allocator_scope scope(nullptr);
    EXPECT_EQ(get_allocator(), nullptr);
    const std::size_t before = default_pool.total_bytes();
    Memory m = alloc(12345);
    ASSERT_NE(m.ptr(), nullptr);
    cudaPointerAttributes attributes{};
    CUPP_CUDA_CHECK(cudaPointerGetAttributes(&attributes, m.ptr()));
    EXPECT_EQ(attributes.type, cudaMemoryTypeDevice);
    memory_kernels::get().fill(current_stream().handle(), m.ptr(), 12344, 3);
    CUPP_CUDA_CHECK(cudaDeviceSynchronize());
    EXPECT_EQ(default_pool.total_bytes(), before);
  }
  {
    auto counting = std::make_shared<counting_allocator>(std::make_shared<MemoryPool>());
    allocator_scope scope(counting);
    Memory a = alloc(4096);
    {
      allocator_scope inner(nullptr);  // replaced while `a` lives: `a` still returns to `counting`
      Memory b = alloc(4096);
    }
    a.reset();
    EXPECT_EQ(counting->allocations, 1);
    EXPECT_EQ(counting->deallocations, 1);
  }
  EXPECT_EQ(get_allocator().get(), static_cast<Allocator*>(&default_pool));
}

TEST(MemoryPoolGpu, AsyncAllocator) {
  CUPP_REQUIRE_GPU();
  allocator_scope scope(std::make_shared<AsyncAllocator>());
  const Stream s = Stream::create();
  StreamGuard guard(s);
  const auto& k = memory_kernels::get();
  for (int i = 0; i < 4; ++i) {
    Memory m = alloc(1 << 20);
    ASSERT_NE(m.ptr(), nullptr);
    EXPECT_EQ(m.stream(), s.handle());
    k.fill(s.handle(), m.ptr(), m.size(), 100 + i);
    EXPECT_EQ(count_not_equal(to_host(m.ptr(), m.size()), 100 + i), 0u);  // cudaMemcpy syncs
  }
  s.synchronize();
  const std::size_t too_much = get_device_properties(current_device()).total_memory * 2;
  EXPECT_THROW(alloc(too_much), OutOfMemoryError);
}

TEST(MemoryPoolGpu, EightThreadStressOwnStreamsAndASharedStream) {
  CUPP_REQUIRE_GPU();
  auto pool = std::make_shared<MemoryPool>();
  allocator_scope scope(pool);
  const auto& k = memory_kernels::get();
  const int dev = current_device();
  const Stream shared = Stream::create({.non_blocking = true});
  test::device_vector<unsigned> errors(std::vector<unsigned>{0});
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] {
      try {
        CUPP_CUDA_CHECK(cudaSetDevice(dev));
        const Stream own = Stream::create({.non_blocking = true});
        std::vector<Memory> live;
        for (unsigned i = 0; i < 300; ++i) {
          const Stream& s = i % 3 == 0 ? shared : own;
          const std::size_t bytes = 4 * (1 + (i * 2654435761u + t * 40503u) % (64 * 1024));
          Memory m = alloc(bytes, dev, s.handle());
          const unsigned value = (static_cast<unsigned>(t) << 24) | i;
          k.fill(s.handle(), m.ptr(), bytes, value, i % 16 == 0 ? cycles_for_ms(0.2) : 0);
          k.verify(s.handle(), m.ptr(), bytes, value, errors.get());
          live.push_back(std::move(m));
          if (live.size() > 6) live.erase(live.begin());  // freed with work still queued
        }
        live.clear();
        own.synchronize();
      } catch (...) {
        ++failures;
      }
    });
  for (auto& th : threads) th.join();
  shared.synchronize();
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(errors.to_host()[0], 0u) << "words overwritten by another block's kernel";
  EXPECT_EQ(pool->used_bytes(), 0u);
}

}  // namespace
}  // namespace cupp::cuda
