// Devices, streams and events on a GPU: guard nesting and restore, the current stream per thread
// and per device, stream guards, events timing a kernel and ordering two streams, stream flags.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "gpu_support.hpp"
#include "spin_kernel.hpp"

namespace cupp::cuda {
namespace {

TEST(DeviceGpu, GuardsNestAndRestore) {
  CUPP_REQUIRE_GPU();
  const int n = device_count();
  const int start = current_device();
  {
    DeviceGuard outer(n - 1);
    EXPECT_EQ(current_device(), n - 1);
    {
      DeviceGuard inner(0);
      EXPECT_EQ(current_device(), 0);
      {
        DeviceGuard same(0);
        EXPECT_EQ(current_device(), 0);
      }
      EXPECT_EQ(current_device(), 0);
    }
    EXPECT_EQ(current_device(), n - 1);
  }
  EXPECT_EQ(current_device(), start);
  // use() changes the current device with no scope; CUDA's own notion stays the truth.
  Device(n - 1).use();
  int cuda_current = -1;
  CUPP_CUDA_CHECK(cudaGetDevice(&cuda_current));
  EXPECT_EQ(cuda_current, n - 1);
  EXPECT_EQ(Device().id(), n - 1);
  CUPP_CUDA_CHECK(cudaSetDevice(start));  // set behind cupp's back: cupp follows
  EXPECT_EQ(current_device(), start);
  EXPECT_GE(Device(0).compute_capability(), 50);
  EXPECT_THROW(Device{n}, ValueError);
}

TEST(StreamGpu, DefaultCurrentStreamFollowsConfiguration) {
  CUPP_REQUIRE_GPU();
  const char* v = std::getenv("CUPP_CUDA_PER_THREAD_DEFAULT_STREAM");
  const bool per_thread = v != nullptr && std::string(v) == "1";
  const Stream s = current_stream();
  EXPECT_EQ(s.is_per_thread(), per_thread);
  EXPECT_EQ(s.is_null(), !per_thread);
  EXPECT_EQ(s.device(), current_device());
}

TEST(StreamGpu, CurrentStreamIsPerThread) {
  CUPP_REQUIRE_GPU();
  const Stream mine = Stream::create();
  const Stream before = current_stream();
  StreamGuard guard(mine);
  EXPECT_EQ(current_stream(), mine);
  Stream seen_by_other;
  std::thread([&] { seen_by_other = current_stream(); }).join();
  EXPECT_EQ(seen_by_other, before) << "another thread must keep its own (default) current stream";
  // A stream shared by threads: both enqueue on it.
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      StreamGuard g(mine);
      EXPECT_EQ(current_stream(), mine);
      test::spin_kernel::get().launch(mine.handle(), 1000, nullptr, 0);
    });
  for (auto& th : threads) th.join();
  mine.synchronize();
  EXPECT_TRUE(mine.query());
}

TEST(StreamGpu, CurrentStreamIsPerDevice) {
  CUPP_REQUIRE_GPU();
  const int n = device_count();
  const Stream on0 = [&] {
    DeviceGuard g(0);
    return Stream::create();
  }();
  StreamGuard guard(on0);
  EXPECT_EQ(current_stream(0), on0);
  if (n < 2) GTEST_SKIP() << "one device: per-device separation checked on the two-GPU machine";
  DeviceGuard g1(1);
  EXPECT_NE(current_stream(), on0);
  EXPECT_EQ(current_stream().device(), 1);
  const Stream on1 = Stream::create();
  StreamGuard guard1(on1);
  EXPECT_EQ(current_stream(1), on1);
  EXPECT_EQ(current_stream(0), on0);
}

TEST(StreamGpu, GuardsRestoreNested) {
  CUPP_REQUIRE_GPU();
  const Stream original = current_stream();
  const Stream a = Stream::create(), b = Stream::create({.non_blocking = true});
  {
    StreamGuard ga(a);
    EXPECT_EQ(current_stream(), a);
    {
      StreamGuard gb(b);
      EXPECT_EQ(current_stream(), b);
    }
    EXPECT_EQ(current_stream(), a);
  }
  EXPECT_EQ(current_stream(), original);
  set_current_stream(a);  // without a scope
  EXPECT_EQ(current_stream(), a);
  set_current_stream(original);
}

TEST(StreamGpu, FlagsPriorityAndOwnership) {
  CUPP_REQUIRE_GPU();
  int least = 0, greatest = 0;
  CUPP_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  const Stream hi = Stream::create({.non_blocking = true, .priority = greatest - 100});  // clamped
  EXPECT_TRUE(hi.is_non_blocking());
  EXPECT_EQ(hi.priority(), greatest);
  EXPECT_TRUE(hi.owns());
  const Stream lo = Stream::create();
  EXPECT_FALSE(lo.is_non_blocking());
  EXPECT_EQ(lo.priority(), 0);
  cudaStream_t raw = nullptr;
  CUPP_CUDA_CHECK(cudaStreamCreate(&raw));
  {
    const Stream wrapped = Stream::wrap(raw);
    EXPECT_FALSE(wrapped.owns());
    EXPECT_EQ(wrapped.handle(), raw);
  }
  EXPECT_EQ(cudaStreamQuery(raw), cudaSuccess) << "a wrapped stream must not be destroyed by cupp";
  CUPP_CUDA_CHECK(cudaStreamDestroy(raw));
  EXPECT_TRUE(Stream::null().is_null());
  EXPECT_TRUE(Stream::per_thread().is_per_thread());
}

TEST(EventGpu, TimesAKernelAndOrdersStreams) {
  CUPP_REQUIRE_GPU();
  const auto& spin = test::spin_kernel::get();
  const Stream a = Stream::create({.non_blocking = true}), b = Stream::create({.non_blocking = true});
  Event start, stop;
  test::device_vector<int> flag(std::vector<int>{0}), seen(std::vector<int>{-1});
  start.record(a);
  spin.launch(a.handle(), test::cycles_for_ms(20), flag.get(), 42);
  stop.record(a);
  EXPECT_FALSE(stop.query()) << "a 20 ms kernel cannot be done already";
  // b waits for a's kernel, then reads what it wrote.
  b.wait(stop);
  spin.launch_copy(b.handle(), flag.get(), seen.get());
  b.synchronize();
  EXPECT_TRUE(stop.query());
  EXPECT_EQ(seen.to_host()[0], 42) << "stream b ran before the event it waited for";
  const float ms = get_elapsed_time(start, stop);
  EXPECT_GT(ms, 10.0f);
  EXPECT_LT(ms, 1000.0f);
  const Event recorded = a.record();
  recorded.synchronize();
  EXPECT_TRUE(recorded.query());
  EXPECT_THROW(Event({.disable_timing = true}).elapsed_ms(stop), ValueError);
}

}  // namespace
}  // namespace cupp::cuda
