// cupp::profiler: time_range / mark over cupp's NVTX layer, and benchmark(), which times a
// callable as cupyx.profiler.benchmark does: per repeat, an event on each device's current stream
// before the call, the CPU time of the call, an event after it, then a wait for those events.
#include "cupp/profiler.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/errors.hpp"

namespace cupp::profiler {
namespace {

void synchronize_current_stream() {
  cuda::detail::check(cudaStreamSynchronize(cuda::detail::current_stream_handle(cuda::current_device())),
                      "cudaStreamSynchronize");
}

// A timing event of one device (RAII; destroyed on its device).
class device_event {
 public:
  explicit device_event(int device) : device_(device) {
    const cupp::detail::device_scope scope(device);
    cuda::detail::check(cudaEventCreate(&event_), "cudaEventCreate");
  }
  ~device_event() {
    if (event_ != nullptr) cuda::detail::ignore(cudaEventDestroy(event_));
  }
  device_event(const device_event&) = delete;
  device_event& operator=(const device_event&) = delete;
  device_event(device_event&& other) noexcept : device_(other.device_), event_(std::exchange(other.event_, nullptr)) {}
  device_event& operator=(device_event&&) = delete;

  void record() {
    const cupp::detail::device_scope scope(device_);
    cuda::detail::check(cudaEventRecord(event_, cuda::detail::current_stream_handle(device_)), "cudaEventRecord");
  }
  void synchronize() const { cuda::detail::check(cudaEventSynchronize(event_), "cudaEventSynchronize"); }
  // Seconds from `start` to this event.
  double seconds_since(const device_event& start) const {
    float ms = 0;
    cuda::detail::check(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return static_cast<double>(ms) * 1e-3;
  }

 private:
  int device_;
  cudaEvent_t event_ = nullptr;
};

std::string line_of(const std::string& label, const std::vector<double>& seconds) {
  const time_statistics s = statistics_of(seconds);
  char buf[160];
  std::snprintf(buf, sizeof buf, "    %s:%9.3f us", label.c_str(), s.mean * 1e6);
  std::string text = buf;
  if (seconds.size() > 1) {
    std::snprintf(buf, sizeof buf, "   +/-%6.3f (min:%9.3f / max:%9.3f) us", s.std * 1e6, s.min * 1e6, s.max * 1e6);
    text += buf;
  }
  return text;
}

}  // namespace

time_range::time_range(std::string_view message, const range_options& options) : sync_(options.sync) {
  if (sync_) synchronize_current_stream();
  cupp::detail::nvtx_push(message, options);
}

time_range::~time_range() {
  if (sync_) {  // a failure here is left for the next checked CUDA call (a destructor must not throw)
    cuda::detail::ignore(cudaStreamSynchronize(cuda::detail::current_stream_handle(cuda::current_device())));
  }
  cupp::detail::nvtx_pop();
}

void mark(std::string_view message, const range_options& options) { cupp::detail::nvtx_mark(message, options); }

time_statistics statistics_of(const std::vector<double>& seconds) {
  time_statistics s;
  if (seconds.empty()) return s;
  double sum = 0;
  for (const double t : seconds) sum += t;
  s.mean = sum / static_cast<double>(seconds.size());
  double squares = 0;
  for (const double t : seconds) squares += (t - s.mean) * (t - s.mean);
  s.std = std::sqrt(squares / static_cast<double>(seconds.size()));
  const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

benchmark_result::benchmark_result(std::string name, std::vector<int> devices, std::vector<double> cpu_times,
                                   std::vector<std::vector<double>> gpu_times)
    : name_(std::move(name)), devices_(std::move(devices)), cpu_times_(std::move(cpu_times)),
      gpu_times_(std::move(gpu_times)) {
  if (gpu_times_.size() != devices_.size()) throw ValueError("benchmark_result: one list of GPU times per device");
}

std::string benchmark_result::to_string(bool show_gpu) const {
  std::string name = name_;
  if (name.size() < 20) name.resize(20, ' ');
  std::string text = name + ":" + line_of("CPU", cpu_times_);
  if (show_gpu)
    for (std::size_t k = 0; k < devices_.size(); ++k)
      text += " " + line_of("GPU-" + std::to_string(devices_[k]), gpu_times_[k]);
  return text;
}

std::ostream& operator<<(std::ostream& out, const benchmark_result& result) { return out << result.to_string(); }

benchmark_result benchmark(const std::function<void()>& fn, const benchmark_options& options) {
  if (!fn) throw ValueError("benchmark: `fn` should be a callable object");
  if (options.n_repeat < 1) throw ValueError("benchmark: n_repeat must be at least 1, got " + std::to_string(options.n_repeat));
  if (options.n_warmup < 0) throw ValueError("benchmark: n_warmup must not be negative, got " + std::to_string(options.n_warmup));
  if (std::isnan(options.max_duration) || options.max_duration < 0)
    throw ValueError("benchmark: max_duration should be given in seconds (not negative or NaN)");
  std::vector<int> devices = options.devices;
  if (devices.empty()) devices.push_back(cuda::current_device());
  const int count = cuda::device_count();
  for (const int d : devices)
    if (d < 0 || d >= count)
      throw ValueError("benchmark: device " + std::to_string(d) + " does not exist (" + std::to_string(count) +
                       " devices)");

  std::vector<device_event> before, after;
  for (const int d : devices) {
    before.emplace_back(d);
    after.emplace_back(d);
  }
  for (int i = 0; i < options.n_warmup; ++i) fn();
  for (auto& e : before) e.record();  // the warm-up's work done before the first timed call
  for (auto& e : before) e.synchronize();

  using clock = std::chrono::steady_clock;
  std::vector<double> cpu_times;
  std::vector<std::vector<double>> gpu_times(devices.size());
  cpu_times.reserve(static_cast<std::size_t>(std::min(options.n_repeat, 1 << 20)));
  double duration = 0;
  for (int i = 0; i < options.n_repeat; ++i) {
    for (auto& e : before) e.record();
    const auto t1 = clock::now();
    fn();
    const auto t2 = clock::now();
    cpu_times.push_back(std::chrono::duration<double>(t2 - t1).count());
    for (auto& e : after) e.record();
    for (auto& e : after) e.synchronize();
    for (std::size_t k = 0; k < devices.size(); ++k) gpu_times[k].push_back(after[k].seconds_since(before[k]));
    duration += std::chrono::duration<double>(clock::now() - t1).count();
    if (duration > options.max_duration) break;
  }
  return benchmark_result(options.name, std::move(devices), std::move(cpu_times), std::move(gpu_times));
}

}  // namespace cupp::profiler
