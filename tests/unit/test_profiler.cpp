// cupp::profiler on the host: benchmark_result's statistics and text (cupyx.profiler's format),
// benchmark's argument errors, ranges without a profiler attached. No GPU needed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/profiler.hpp"
#include "cuda/nvtx.hpp"

namespace {

namespace prof = cupp::profiler;

TEST(Profiler, StatisticsAreNumPysWithDdofZero) {
  const prof::time_statistics s = prof::statistics_of({1e-6, 2e-6, 4e-6, 5e-6});
  EXPECT_DOUBLE_EQ(s.mean, 3e-6);
  EXPECT_DOUBLE_EQ(s.std, std::sqrt(2.5) * 1e-6);  // sqrt(((-2)^2 + 1 + 1 + 2^2) / 4) us
  EXPECT_DOUBLE_EQ(s.min, 1e-6);
  EXPECT_DOUBLE_EQ(s.max, 5e-6);
  const prof::time_statistics empty = prof::statistics_of({});
  EXPECT_EQ(empty.mean, 0.0);
}

TEST(Profiler, ResultPrintsAsCupyxProfiler) {
  // '{:<20s}:{}' of the name, then '    CPU:{:9.03f} us' + '   +/-{:6.03f} (min:{:9.03f} / max:{:9.03f}) us'.
  const prof::benchmark_result r("my_func", {0, 1}, {10e-6, 20e-6}, {{100e-6, 300e-6}, {1e-6, 1e-6}});
  EXPECT_EQ(r.to_string(),
            "my_func             :    CPU:   15.000 us   +/- 5.000 (min:   10.000 / max:   20.000) us"
            "     GPU-0:  200.000 us   +/-100.000 (min:  100.000 / max:  300.000) us"
            "     GPU-1:    1.000 us   +/- 0.000 (min:    1.000 / max:    1.000) us");
  EXPECT_EQ(r.to_string(false), "my_func             :    CPU:   15.000 us   +/- 5.000 (min:   10.000 / max:   20.000) us");
  // One repeat: the mean alone; a name of 20 or more characters is not cut.
  const prof::benchmark_result one("a_name_longer_than_twenty", {3}, {2.5e-6}, {{1234.5678e-6}});
  EXPECT_EQ(one.to_string(), "a_name_longer_than_twenty:    CPU:    2.500 us     GPU-3: 1234.568 us");
  EXPECT_EQ(one.n_repeat(), 1u);
  EXPECT_THROW(prof::benchmark_result("x", {0, 1}, {1.0}, {{1.0}}), cupp::ValueError);
}

TEST(Profiler, BenchmarkArgumentErrors) {
  auto noop = [] {};
  EXPECT_THROW(prof::benchmark(std::function<void()>{}), cupp::ValueError);
  EXPECT_THROW(prof::benchmark(noop, {.n_repeat = 0}), cupp::ValueError);
  EXPECT_THROW(prof::benchmark(noop, {.n_warmup = -1}), cupp::ValueError);
  EXPECT_THROW(prof::benchmark(noop, {.max_duration = std::nan("")}), cupp::ValueError);
  EXPECT_THROW(prof::benchmark(noop, {.max_duration = -1}), cupp::ValueError);
  try {
    prof::benchmark(noop, {.n_repeat = 1, .devices = {-1}});
    ADD_FAILURE() << "device -1 accepted";
  } catch (const cupp::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("device -1 does not exist"), std::string::npos) << e.what();
  } catch (const cupp::CudaError&) {  // no CUDA driver or device here: refused before device checks
  }
}

TEST(Profiler, RangesWithoutAProfilerDoNothing) {
  int calls = 0;
  {
    const prof::time_range r("nothing attached", {.color_id = 3, .payload = 1.0});
    auto f = prof::with_range("wrapped", [&] { return ++calls; });
    EXPECT_EQ(f(), 1);
    prof::mark("marker");
  }
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(cupp::detail::palette_color(0), 0xFF00FF00u);
  EXPECT_EQ(cupp::detail::palette_color(12), 0xFFFF0000u);  // 12 % 7 = 5: red
  EXPECT_EQ(cupp::detail::palette_color(13), 0xFFFFFFFFu);  // 13 % 7 = 6: white
  EXPECT_FALSE(cupp::detail::palette_color(-1).has_value());
}

}  // namespace
