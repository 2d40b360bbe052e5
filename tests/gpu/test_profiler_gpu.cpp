// cupp::profiler::benchmark on the GPU: the number of repeats, GPU times that cover the kernel
// (sin of 2^28 float32 into out=, bench/'s case sin_float32, moves 2 GiB: at least its bytes over
// more than the H200's peak bandwidth), max_duration stopping the loop, sync ranges, and the
// printed line. Skips without a GPU.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/profiler.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

namespace prof = cupp::profiler;

TEST(ProfilerGpu, BenchmarkTimesTheKernelOnTheCurrentStream) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = std::int64_t(1) << 28;  // 1 GiB of float32 each way, as bench/'s sin_float32
  const ndarray x = ones({n}, float32);
  ndarray y = empty({n}, float32);
  int calls = 0;
  const prof::benchmark_result r = prof::benchmark(
      [&] {
        ++calls;
        sin(x, {.out = y});
      },
      {.name = "sin_float32", .n_repeat = 20, .n_warmup = 3});
  EXPECT_EQ(calls, 23);
  ASSERT_EQ(r.n_repeat(), 20u);
  ASSERT_EQ(r.devices(), std::vector<int>{cuda::current_device()});
  ASSERT_EQ(r.gpu_times().size(), 1u);
  ASSERT_EQ(r.gpu_times()[0].size(), 20u);
  const prof::time_statistics gpu = prof::statistics_of(r.gpu_times()[0]);
  const double floor_seconds = 2.0 * n * 4 / 5.0e12;  // bytes moved over more than the H200's peak
  EXPECT_GT(gpu.min, floor_seconds) << r;
  EXPECT_LT(gpu.max, 0.1) << r;
  // The launch returns before the kernel ends: the CPU time is the host's, far below the GPU's.
  EXPECT_LT(prof::statistics_of(r.cpu_times()).min, gpu.min) << r;
  const std::regex line(R"(sin_float32         :    CPU: *[0-9]+\.[0-9]{3} us   \+/- *[0-9]+\.[0-9]{3} \(min: *[0-9]+\.[0-9]{3} / max: *[0-9]+\.[0-9]{3}\) us     GPU-[0-9]+: *[0-9]+\.[0-9]{3} us   \+/- *[0-9]+\.[0-9]{3} \(min: *[0-9]+\.[0-9]{3} / max: *[0-9]+\.[0-9]{3}\) us)");
  EXPECT_TRUE(std::regex_match(r.to_string(), line)) << r;
  std::cout << "  " << r << "\n";  // quoted in the issue note
}

TEST(ProfilerGpu, MaxDurationStopsEarlyAndDevicesAreChecked) {
  CUPP_REQUIRE_GPU();
  const ndarray x = ones({std::int64_t(1) << 24}, float32);
  const prof::benchmark_result r = prof::benchmark([&] { sin(x); }, {.n_repeat = 100000, .n_warmup = 1, .max_duration = 0.05});
  EXPECT_GE(r.n_repeat(), 1u);
  EXPECT_LT(r.n_repeat(), 100000u);
  EXPECT_THROW(prof::benchmark([] {}, {.devices = {cuda::device_count()}}), ValueError);
  // What the callable throws propagates.
  EXPECT_THROW(prof::benchmark([] { throw TypeError("from the callable"); }, {.n_repeat = 1, .n_warmup = 0}), TypeError);
}

TEST(ProfilerGpu, SyncRangeWaitsForTheQueuedWork) {
  CUPP_REQUIRE_GPU();
  const ndarray x = ones({std::int64_t(1) << 24}, float32);
  ndarray y = empty({std::int64_t(1) << 24}, float32);
  {
    const prof::time_range r("synced", {.sync = true});
    sin(x, {.out = y});
  }  // the destructor synchronized the current stream: the result is there without another wait
  EXPECT_TRUE(cuda::current_stream().query());
}

}  // namespace
}  // namespace cupp
