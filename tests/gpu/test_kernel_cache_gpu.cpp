// Kernel cache on a GPU (issue 4): programs compiled through the cache load with the runtime's
// library API and run; a second cache (a new process, in effect) loads them from disk without
// NVRTC; PTX mode loads through the driver's JIT; every loop of a composed op loads. Each test
// has its own cache directory.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "compiler/builtin_kernels.hpp"
#include "compiler/kernel_cache.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/ops.hpp"
#include "cupp/reductions.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::detail {
namespace {

namespace fs = std::filesystem;

class CacheDir {
 public:
  CacheDir() {
    std::string pattern = (fs::temp_directory_path() / "cupp-kc-gpu-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~CacheDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

program_source scale_program() {
  return {"cupp_test_scale",
          "template <class T> __global__ void scale(T* x, T f, unsigned n) {\n"
          "  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (i < n) x[i] *= f;\n"
          "}\n",
          {"scale<float>", "scale<double>"}};
}

kernel_cache::settings settings_in(const fs::path& dir) {
  kernel_cache::settings s;
  s.dir = dir;
  return s;
}

template <class T>
void run_scale(const kernel_module& m, std::size_t kernel, T factor) {
  std::vector<T> host(1000);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<T>(i);
  test::device_vector<T> x(host);
  T* ptr = x.get();
  unsigned n = static_cast<unsigned>(host.size());
  void* args[] = {&ptr, &factor, &n};
  CUPP_CUDA_CHECK(cudaLaunchKernel(m.function(kernel), dim3(4), dim3(256), args, 0, nullptr));
  std::vector<T> want(host.size());
  for (std::size_t i = 0; i < want.size(); ++i) want[i] = static_cast<T>(i) * factor;
  CUPP_ASSERT_ARRAY_EQUAL(x.to_host(), want);
}

TEST(KernelCacheGpu, CompilesLoadsAndRunsThenHitsTheDisk) {
  CUPP_REQUIRE_GPU();
  CacheDir dir;
  const auto before = nvrtc_compile_count();
  {
    kernel_cache cache(settings_in(dir.path()));
    const kernel_module& m = cache.get(cuda::current_device(), {"test_scale"}, scale_program);
    ASSERT_EQ(m.size(), 2u);
    run_scale<float>(m, 0, 2.5f);
    run_scale<double>(m, 1, -3.0);
    EXPECT_EQ(&cache.get(cuda::current_device(), {"test_scale"}, scale_program), &m);
  }
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  kernel_cache fresh(settings_in(dir.path()));
  const kernel_module& m = fresh.get(cuda::current_device(), {"test_scale"}, scale_program);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(fresh.stats().disk_hits, 1u);
  run_scale<float>(m, 0, 0.5f);
}

TEST(KernelCacheGpu, PtxModeLoadsThroughTheDriver) {
  CUPP_REQUIRE_GPU();
  CacheDir dir;
  kernel_cache::settings s = settings_in(dir.path());
  s.ptx = true;
  kernel_cache cache(std::move(s));
  const kernel_module& m = cache.get(cuda::current_device(), {"test_scale"}, scale_program);
  run_scale<double>(m, 1, 4.0);
}

TEST(KernelCacheGpu, DebugModeLoadsAndRuns) {
  CUPP_REQUIRE_GPU();
  CacheDir dir;
  kernel_cache::settings s = settings_in(dir.path());
  s.debug = true;
  kernel_cache cache(std::move(s));
  run_scale<float>(cache.get(cuda::current_device(), {"test_scale"}, scale_program), 0, 3.0f);
}

TEST(KernelCacheGpu, EveryLoopOfEveryOpLoads) {
  CUPP_REQUIRE_GPU();
  CacheDir dir;
  kernel_cache cache(settings_in(dir.path()));
  // Every (op, index width) program, compiled and loaded on 16 threads (NVRTC dominates; the
  // cache is shared between threads), then checked here.
  struct entry {
    const op_spec* op;
    index_width width;
    const kernel_module* module = nullptr;
    std::string error;
  };
  std::vector<entry> entries;
  for (const op_spec& op : builtin_ops())
    for (const auto width : {index_width::i32, index_width::i64}) entries.push_back({&op, width});
  const int device = cuda::current_device();
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 16; ++t)
    threads.emplace_back([&] {
      for (std::size_t i = next++; i < entries.size(); i = next++) {
        entry& e = entries[i];
        try {
          e.module = &cache.get(device, {e.op->name, static_cast<std::uint64_t>(e.width)}, [&] {
            const composed_program p = compose_elementwise(*e.op, e.width);
            return program_source{p.name, p.source, p.kernels};
          });
        } catch (const std::exception& x) {
          e.error = x.what();
        }
      }
    });
  for (std::thread& t : threads) t.join();
  for (const entry& e : entries) {
    ASSERT_NE(e.module, nullptr) << e.op->name << ": " << e.error;
    EXPECT_EQ(e.module->size(), e.op->loops.size()) << e.op->name;
    for (std::size_t i = 0; i < e.module->size(); ++i) EXPECT_NE(e.module->kernel(i), nullptr) << e.op->name << " loop " << i;
  }
#if CUPP_TEST_AOT_KERNELS
  // The 32-bit-index programs are built into the library (runtime/aot): loaded on this GPU
  // without NVRTC; the 64-bit ones compiled.
  const std::vector<int> built = builtin_kernels().architectures();
  const int arch = cache.config().arch_of(device);
  if (std::find(built.begin(), built.end(), arch) == built.end()) {
    std::printf("[ note ] sm_%d has no built-in kernels (built for another architecture)\n", arch);
  } else {
    EXPECT_EQ(cache.stats().builtin_hits, builtin_ops().size());
    EXPECT_EQ(cache.stats().compiles + cache.stats().disk_hits, builtin_ops().size());
  }
#endif
}

// Why the global cache cannot serve this device from the built-in table, or nullopt when it can.
std::optional<std::string> no_builtin_kernels_here() {
  if (!CUPP_TEST_AOT_KERNELS) return "built without the kernel table (CUPP_AOT_KERNELS=OFF)";
  const std::vector<int> built = builtin_kernels().architectures();
  const int arch = kernel_cache::global().config().arch_of(cuda::current_device());
  if (std::find(built.begin(), built.end(), arch) == built.end()) return "no built-in kernels for sm_" + std::to_string(arch);
  return std::nullopt;
}

// A 0-d array as an operand (`a - a.mean()`, `clip(a, lo, hi)` with 0-d bounds) is read as one
// broadcast element by a kernel of the op's built-in scalar program: no compile, right values.
TEST(KernelCacheGpu, ZeroDimOperandsTakeTheBuiltInScalarProgram) {
  CUPP_REQUIRE_GPU();
  if (const std::optional<std::string> why = no_builtin_kernels_here()) GTEST_SKIP() << *why;
  kernel_cache& cache = kernel_cache::global();
  const ndarray a = cupp::arange(0.0, 1000.0, 1.0, float32);
  const ndarray m = cupp::mean(a);  // 499.5, a 0-d float32 array
  const std::span<const std::int64_t> scalar_shape;
  const ndarray lo = cupp::full(scalar_shape, 100.0, float32), hi = cupp::full(scalar_shape, 900.0, float32);
  ASSERT_EQ(m.ndim(), 0);
  const std::uint64_t compiles = cache.stats().compiles;
  const ndarray centred = cupp::subtract(a, m);
  const ndarray scaled = cupp::multiply(m, a);
  const ndarray clipped = cupp::clip(a, operand(lo), operand(hi));
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(cache.stats().compiles, compiles) << "a 0-d operand compiled a program";
  CUPP_ASSERT_ARRAY_EQUAL(centred, test::tabulate(1000, [](std::int64_t i) { return static_cast<float>(i) - 499.5f; }));
  CUPP_ASSERT_ARRAY_EQUAL(scaled, test::tabulate(1000, [](std::int64_t i) { return 499.5f * static_cast<float>(i); }));
  CUPP_ASSERT_ARRAY_EQUAL(clipped, test::tabulate(1000, [](std::int64_t i) {
                            return std::clamp(static_cast<float>(i), 100.0f, 900.0f);
                          }));
}

// A matrix and a row or a column broadcast against it (standardising columns, a softmax over rows)
// take their kernels from the op's built-in 2-D broadcast program: no compile, right values.
TEST(KernelCacheGpu, RowAndColumnBroadcastsTakeTheBuiltIn2dProgram) {
  CUPP_REQUIRE_GPU();
  if (const std::optional<std::string> why = no_builtin_kernels_here()) GTEST_SKIP() << *why;
  kernel_cache& cache = kernel_cache::global();
  const ndarray x = cupp::arange(0.0, 96.0 * 64.0, 1.0, float64).reshape({96, 64});
  const ndarray row = cupp::arange(0.0, 64.0, 1.0, float64);                       // (64,)
  const ndarray column = cupp::arange(1.0, 97.0, 1.0, float64).reshape({96, 1});   // (96, 1)
  const std::uint64_t compiles = cache.stats().compiles;
  const ndarray centred = cupp::subtract(x, row);
  const ndarray scaled = cupp::divide(x, column);
  const ndarray left = cupp::multiply(column, x);
  const ndarray flipped = cupp::subtract(row, x);
  CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  EXPECT_EQ(cache.stats().compiles, compiles) << "a row or column broadcast compiled a program";
  CUPP_ASSERT_ARRAY_EQUAL(centred.ravel(), test::tabulate(96, 64, [](std::int64_t i, std::int64_t) { return 64.0 * static_cast<double>(i); }));
  CUPP_ASSERT_ARRAY_EQUAL(scaled.ravel(), test::tabulate(96, 64, [](std::int64_t i, std::int64_t j) { return (64.0 * i + j) / (i + 1.0); }));
  CUPP_ASSERT_ARRAY_EQUAL(flipped.ravel(), test::tabulate(96, 64, [](std::int64_t i, std::int64_t) { return -64.0 * static_cast<double>(i); }));
  CUPP_ASSERT_ARRAY_EQUAL(left.ravel(), test::tabulate(96, 64, [](std::int64_t i, std::int64_t j) { return (i + 1.0) * (64.0 * i + j); }));
}

TEST(KernelCacheGpu, EachDeviceHasItsOwnEntry) {
  CUPP_REQUIRE_GPU();
  int count = 0;
  CUPP_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (count < 2) GTEST_SKIP() << "one device only";
  CacheDir dir;
  kernel_cache cache(settings_in(dir.path()));
  const kernel_module& m0 = cache.get(0, {"test_scale"}, scale_program);
  const kernel_module& m1 = cache.get(1, {"test_scale"}, scale_program);
  EXPECT_NE(&m0, &m1);
  const cuda::DeviceGuard guard(1);
  run_scale<float>(m1, 0, 2.0f);
}

}  // namespace
}  // namespace cupp::detail
