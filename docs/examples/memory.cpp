// Example for docs/memory.md, built and run by the tests (CTest example_memory, label gpu): a
// device block from the pool and the pool's statistics and limit, the four allocators (async,
// plain cudaMalloc, a separate pool, the default again) each used for an array, and a pinned
// staging buffer copied to the device on a stream of its own; every step checked (statistics,
// limits, the current allocator, the bytes that arrive on the device).
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/ndarray.hpp>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
// An array made with the current allocator holds what was written into it.
bool array_works() {
  const cupp::ndarray a = cupp::asarray(std::vector<float>{1, 2, 3}, {.blocking = true});
  return a.to_vector<float>() == std::vector<float>{1, 2, 3};
}
}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  {
    const std::size_t old_limit = cupp::cuda::get_default_memory_pool().get_limit();
    bool while_held = false;
    {
      // [snippet pool]
      namespace cc = cupp::cuda;
      cc::Memory m = cc::alloc(1 << 20);          // current device, current stream, current allocator
      void* p = m.ptr();                           // freed (returned to the pool) when m goes
      auto& pool = cc::get_default_memory_pool();
      pool.used_bytes();  pool.total_bytes();  pool.n_free_blocks();
      pool.free_all_blocks();                      // give cached memory back to the device
      pool.set_limit(8ull << 30);                  // per device, like CuPy
      // [end snippet]
      while_held = p != nullptr && m.size() == (1u << 20) && pool.used_bytes() >= (1u << 20) &&
                   pool.total_bytes() >= pool.used_bytes() && pool.get_limit() == (8ull << 30);
    }
    auto& pool = cupp::cuda::get_default_memory_pool();
    expect(while_held, "alloc: a pointer of 1 MiB, counted in used_bytes, under the new limit");
    expect(pool.n_free_blocks() >= 1, "the freed block is cached by the pool");
    pool.set_limit(old_limit);
    const std::size_t cached = pool.free_bytes();
    pool.free_all_blocks();
    expect(cached >= (1u << 20) && pool.free_bytes() < cached, "free_all_blocks returns the cached chunk");
  }
  {
    namespace cc = cupp::cuda;
    // [snippet allocators]
    cc::set_allocator(std::make_shared<cc::AsyncAllocator>());   // cudaMallocAsync / cudaFreeAsync
    cc::set_allocator(nullptr);                                   // plain cudaMalloc / cudaFree
    cc::set_allocator(std::make_shared<cc::MemoryPool>());        // a separate pool
    cc::set_allocator(cc::default_memory_pool_ptr());             // back to the default
    // [end snippet]
    expect(cc::get_allocator() == cc::default_memory_pool_ptr() && array_works(), "the default pool again");
    cc::set_allocator(std::make_shared<cc::AsyncAllocator>());
    expect(std::dynamic_pointer_cast<cc::AsyncAllocator>(cc::get_allocator()) != nullptr && array_works(),
           "arrays from cudaMallocAsync");
    cc::set_allocator(nullptr);
    expect(cc::get_allocator() == nullptr && array_works(), "arrays from plain cudaMalloc");
    auto separate = std::make_shared<cc::MemoryPool>();
    cc::set_allocator(separate);
    {
      const cupp::ndarray a = cupp::zeros({1000});
      expect(separate->used_bytes() >= 8000 && array_works(), "arrays from a separate pool");
    }
    cc::set_allocator(cc::default_memory_pool_ptr());
    expect(cc::get_allocator() == cc::default_memory_pool_ptr(), "the default pool at the end");
  }
  {
    namespace cc = cupp::cuda;
    const std::size_t n = 4096;
    std::vector<unsigned char> source(n);
    for (std::size_t k = 0; k < n; ++k) source[k] = static_cast<unsigned char>(k * 7);
    const unsigned char* src = source.data();
    const cc::Stream s = cc::Stream::create();
    const cc::Memory device_block = cc::alloc(n);
    void* dst = device_block.ptr();
    {
      // [snippet pinned]
      cc::PinnedMemory h = cc::alloc_pinned_memory(n);  // page-locked, portable (every device)
      std::memcpy(h.ptr(), src, n);
      cudaMemcpyAsync(dst, h.ptr(), n, cudaMemcpyHostToDevice, s.handle());
      h.set_stream(s.handle());                          // the copy's stream (default: current stream)
      // h can go now: the block is reused only once the copy has finished
      // [end snippet]
    }
    {
      // The pool may hand the block out again, but only after the copy: overwriting it is safe.
      cc::PinnedMemory again = cc::alloc_pinned_memory(n);
      std::memset(again.ptr(), 0xAB, n);
    }
    s.synchronize();  // device_block was allocated for the current stream: order s before its use
    std::vector<unsigned char> back(n);
    cudaMemcpy(back.data(), dst, n, cudaMemcpyDeviceToHost);
    expect(back == source, "the pinned buffer's bytes arrive on the device");
  }
  if (failures != 0) return 1;
  std::puts("memory: all checks passed");
  return 0;
}
