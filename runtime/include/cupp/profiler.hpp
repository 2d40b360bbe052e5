// cupp::profiler, CuPy's cupyx.profiler for C++: NVTX ranges that Nsight Systems shows on the
// timeline (a scoped guard and a function wrapper, with colour and payload) and benchmark(), which
// times a callable on the CPU and on each device's current stream with CUDA events and prints as
// cupyx.profiler.benchmark does. CUPP_NVTX_OPS=1 (docs/environment.md) adds a range around every
// kernel launch cupp makes, named by its op, loop and layout class.
//
//   {
//     cupp::profiler::time_range range("normalise", {.color_id = 0});
//     y = (x - mean(x)) / std(x);
//   }                                                 // the range ends here
//   auto timed = cupp::profiler::with_range("softmax", softmax);   // each call is a range
//   std::cout << cupp::profiler::benchmark([&] { cupp::sin(x); }, {.name = "sin", .n_repeat = 100});
//   // sin                 :    CPU:    6.211 us   +/- 0.402 (min:    5.890 / max:    9.402) us     GPU-0:   21.504 us ...
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace cupp::profiler {

// How a range looks: argb_color (0xAARRGGBB) wins over color_id, an index into CuPy's palette of
// seven colours (green, blue, yellow, magenta, cyan, red, white; taken modulo 7); neither: no
// colour. payload is shown with the range. sync: synchronize the current stream when the range
// starts and when it ends, so that the range covers the GPU work queued inside it (CuPy's sync).
struct range_options {
  std::optional<int> color_id;
  std::optional<std::uint32_t> argb_color;
  std::variant<std::monostate, std::int64_t, std::uint64_t, double> payload;
  bool sync = false;
};

// An NVTX range from construction to destruction (nvtxRangePushEx / nvtxRangePop on this thread).
// Costs a few tens of nanoseconds when no profiler is attached.
class time_range {
 public:
  explicit time_range(std::string_view message, const range_options& options = {});
  ~time_range();
  time_range(const time_range&) = delete;
  time_range& operator=(const time_range&) = delete;

 private:
  bool sync_;
};

// A callable that runs `f` inside a range named `message` each time it is called (CuPy's
// time_range used as a decorator).
template <class F>
auto with_range(std::string message, F f, range_options options = {}) {
  return [message = std::move(message), f = std::move(f), options](auto&&... args) -> decltype(auto) {
    const time_range range(message, options);
    return f(std::forward<decltype(args)>(args)...);
  };
}

// An instantaneous NVTX marker (nvtxMarkEx).
void mark(std::string_view message, const range_options& options = {});

// benchmark's settings, as cupyx.profiler.benchmark's keyword arguments. devices: the devices whose
// current streams are timed (empty: the current device); max_duration in seconds stops the timed
// loop early (statistics cover the repeats done).
struct benchmark_options {
  std::string name = "benchmark";
  int n_repeat = 10000;
  int n_warmup = 10;
  double max_duration = std::numeric_limits<double>::infinity();
  std::vector<int> devices;
};

// Mean, standard deviation (NumPy's, ddof=0), minimum and maximum of a set of times, in seconds.
struct time_statistics {
  double mean = 0, std = 0, min = 0, max = 0;
};
time_statistics statistics_of(const std::vector<double>& seconds);

// What benchmark() measured: per repeat, the CPU time of the call and, per device, the GPU time
// between events recorded on its current stream before and after the call.
class benchmark_result {
 public:
  benchmark_result(std::string name, std::vector<int> devices, std::vector<double> cpu_times,
                   std::vector<std::vector<double>> gpu_times);

  const std::string& name() const noexcept { return name_; }
  const std::vector<int>& devices() const noexcept { return devices_; }
  const std::vector<double>& cpu_times() const noexcept { return cpu_times_; }
  // gpu_times()[k]: the times of devices()[k].
  const std::vector<std::vector<double>>& gpu_times() const noexcept { return gpu_times_; }
  std::size_t n_repeat() const noexcept { return cpu_times_.size(); }

  // cupyx.profiler's text: the name padded to 20, then "    CPU:" mean in microseconds and, with
  // more than one repeat, "+/-" std "(min: ... / max: ...) us"; then each "GPU-<device>" the same.
  std::string to_string(bool show_gpu = true) const;

 private:
  std::string name_;
  std::vector<int> devices_;
  std::vector<double> cpu_times_;
  std::vector<std::vector<double>> gpu_times_;
};
std::ostream& operator<<(std::ostream& out, const benchmark_result& result);

// Calls `fn` n_warmup times untimed, then up to n_repeat times timed (cupyx.profiler.benchmark).
// Throws ValueError for n_repeat < 1, n_warmup < 0, a NaN or negative max_duration or a device
// that does not exist, CudaError when CUDA fails; what `fn` throws propagates.
benchmark_result benchmark(const std::function<void()>& fn, const benchmark_options& options = {});

}  // namespace cupp::profiler
