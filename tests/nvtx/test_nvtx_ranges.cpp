// What cupp::profiler and CUPP_NVTX_OPS emit to NVTX, read back from the recording injection
// library (nvtx_recorder.cpp, loaded through NVTX_INJECTION64_PATH; CTest sets it and
// CUPP_NVTX_OPS=1). The range tests need no GPU; the kernel-launch names are checked when one is
// present (skipped with a message otherwise).
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/profiler.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/ufunc.hpp"
#include "cuda/nvtx.hpp"

namespace {

namespace prof = cupp::profiler;

// The recorded events since the last call (one string per event).
std::vector<std::string> recorded() {
  const char* path = std::getenv("NVTX_INJECTION64_PATH");
  if (path == nullptr) return {"NVTX_INJECTION64_PATH is not set"};
  void* lib = dlopen(path, RTLD_NOW | RTLD_NOLOAD);  // NVTX loaded it on the first NVTX call
  if (lib == nullptr) return {"the recorder is not loaded"};
  using read_fn = const char* (*)(int);
  const auto read = reinterpret_cast<read_fn>(dlsym(lib, "cupp_nvtx_recorded"));
  std::vector<std::string> lines;
  std::string text = read ? read(1) : "cupp_nvtx_recorded missing\n";
  dlclose(lib);
  for (std::size_t start = 0, end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
    lines.push_back(text.substr(start, end - start));
  return lines;
}

bool has_gpu() {
  int n = 0;
  return cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
}

class NvtxRanges : public ::testing::Test {
 protected:
  void SetUp() override {
    prof::mark("start");  // makes NVTX load the recorder
    recorded();           // and forgets what came before
  }
};

TEST_F(NvtxRanges, ScopedRangesNestWithColourAndPayload) {
  {
    const prof::time_range outer("outer");
    {
      const prof::time_range inner("inner", {.color_id = 8, .payload = std::int64_t{-42}});  // 8 % 7: blue
    }
    const prof::time_range argb("argb", {.color_id = 0, .argb_color = 0x80123456u, .payload = 2.5});
  }
  EXPECT_EQ(recorded(), (std::vector<std::string>{"push outer color=none payload=none",
                                                   "push inner color=0xFF0000FF payload=-42", "pop",
                                                   "push argb color=0x80123456 payload=2.5", "pop", "pop"}));
}

TEST_F(NvtxRanges, WrappedFunctionsAndMarkers) {
  auto twice = prof::with_range("twice", [](int x) { return 2 * x; }, {.color_id = 5, .payload = std::uint64_t{7}});
  EXPECT_EQ(twice(21), 42);
  EXPECT_EQ(twice(1), 2);
  prof::mark("here", {.color_id = 2});
  EXPECT_EQ(recorded(), (std::vector<std::string>{"push twice color=0xFFFF0000 payload=7", "pop",
                                                   "push twice color=0xFFFF0000 payload=7", "pop",
                                                   "mark here color=0xFFFFFF00 payload=none"}));
}

TEST_F(NvtxRanges, RangeEndsWhenItsScopeThrows) {
  EXPECT_THROW(
      {
        const prof::time_range r("failing");
        throw std::runtime_error("boom");
      },
      std::runtime_error);
  EXPECT_EQ(recorded(), (std::vector<std::string>{"push failing color=none payload=none", "pop"}));
}

TEST_F(NvtxRanges, LaunchRangesFollowCuppNvtxOps) {
  ASSERT_STREQ(std::getenv("CUPP_NVTX_OPS"), "1") << "run through CTest (nvtx_ranges), which sets it";
  ASSERT_TRUE(cupp::detail::nvtx_ops_enabled());
  int labels_made = 0;
  {
    const cupp::detail::launch_range r([&] {
      ++labels_made;
      return std::string("add float32,float32->float32 contiguous vec4");
    });
  }
  EXPECT_EQ(labels_made, 1);
  EXPECT_EQ(recorded(),
            (std::vector<std::string>{"push cupp.add float32,float32->float32 contiguous vec4 color=none payload=none",
                                      "pop"}));
}

TEST_F(NvtxRanges, EveryKernelLaunchIsNamedOnTheGpu) {
  if (!has_gpu()) GTEST_SKIP() << "no CUDA device: kernel launch names not checked";
  const cupp::ndarray x = cupp::arange(0.0, 1000.0, 1.0, cupp::float32);
  const cupp::ndarray m = x.reshape({10, 100});
  cupp::add(x, x);
  cupp::sum(m, {.axis = 1});
  cupp::cumsum(x);
  const cupp::ndarray sq = x(cupp::slice(0, 900)).reshape({30, 30});
  cupp::add(sq, sq.T());  // (m.T() + 1 alone is F-contiguous: one contiguous pass, as NumPy's K order)
  cudaDeviceSynchronize();
  std::vector<std::string> pushes;
  for (const std::string& e : recorded())
    if (e.rfind("push cupp.", 0) == 0) pushes.push_back(e.substr(5, e.find(" color=") - 5));
  auto has = [&](const std::string& prefix) {
    for (const std::string& p : pushes)
      if (p.rfind(prefix, 0) == 0) return true;
    return false;
  };
  std::string all;
  for (const std::string& p : pushes) all += p + "\n";
  EXPECT_TRUE(has("cupp.add float32,float32->float32 contiguous vec")) << all;
  EXPECT_TRUE(has("cupp.add.reduce float32->float32 rows")) << all;
  EXPECT_TRUE(has("cupp.add.accumulate float32->float32")) << all;
  EXPECT_TRUE(has("cupp.add float32,float32->float32 strided") || has("cupp.add float32,float32->float32 tiled")) << all;
}

}  // namespace
