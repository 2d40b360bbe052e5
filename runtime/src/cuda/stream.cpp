// Devices, streams and events behind cupp/cuda/stream.hpp: guards that restore the previous
// device and stream, the per-thread per-device current stream, and owning handles whose last
// copy destroys the CUDA object (errors there are remembered, never thrown).
#include "cupp/cuda/stream.hpp"
#include "cuda/current_stream.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "check.hpp"
#include "cupp/config.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda {

using detail::check;

int current_device() {
  int id = 0;
  check(cudaGetDevice(&id), "cudaGetDevice");
  return id;
}

// ---- Device

Device::Device() : id_(current_device()) {}

Device::Device(int id) : id_(id) {
  const int count = device_count();
  if (id < 0 || id >= count)
    throw ValueError("Invalid device id " + std::to_string(id) + ": " + std::to_string(count) + " CUDA device(s)");
}

void Device::use() const { check(cudaSetDevice(id_), "cudaSetDevice"); }

void Device::synchronize() const {
  DeviceGuard guard(*this);
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

int Device::compute_capability() const {
  int major = 0, minor = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, id_), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, id_), "cudaDeviceGetAttribute");
  return major * 10 + minor;
}

DeviceGuard::DeviceGuard(const Device& device) : previous_(current_device()), switched_(previous_ != device.id()) {
  if (switched_) check(cudaSetDevice(device.id()), "cudaSetDevice");
}

DeviceGuard::DeviceGuard(int id) : previous_(id), switched_(false) {
  int now = -1;
  if (cudaGetDevice(&now) == cudaSuccess && now == id) return;  // already current: nothing to do
  (void)cudaGetLastError();                                      // a failed query is not sticky
  const Device device(id);  // ValueError for an id that names no device
  previous_ = current_device();
  switched_ = previous_ != device.id();
  if (switched_) check(cudaSetDevice(device.id()), "cudaSetDevice");
}

DeviceGuard::~DeviceGuard() {
  if (switched_) detail::ignore(cudaSetDevice(previous_));
}

// ---- Stream

namespace {

// This thread's current stream of each device; unset entries mean "the default stream".
thread_local std::vector<std::optional<Stream>> thread_current_streams;

Stream default_stream() {
  return config::get().per_thread_default_stream ? Stream::per_thread() : Stream::null();
}

void destroy_stream(void* s) noexcept { detail::ignore(cudaStreamDestroy(static_cast<cudaStream_t>(s))); }
void destroy_event(void* e) noexcept { detail::ignore(cudaEventDestroy(static_cast<cudaEvent_t>(e))); }

}  // namespace

Stream::Stream() : Stream(nullptr, current_device(), nullptr) {}

Stream Stream::create(stream_options options) {
  const int device = current_device();
  int least = 0, greatest = 0;  // numerically: least priority is the largest number
  check(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
  const int priority = std::clamp(options.priority, greatest, least);
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithPriority(&s, options.non_blocking ? cudaStreamNonBlocking : cudaStreamDefault, priority),
        "cudaStreamCreateWithPriority");
  return Stream(s, device, std::shared_ptr<void>(s, destroy_stream));
}

Stream Stream::null() { return Stream(nullptr, current_device(), nullptr); }

Stream Stream::per_thread() { return Stream(cudaStreamPerThread, current_device(), nullptr); }

Stream Stream::wrap(stream_handle handle, int device) {
  return Stream(handle, device < 0 ? current_device() : Device(device).id(), nullptr);
}

bool Stream::is_per_thread() const noexcept { return handle_ == cudaStreamPerThread; }

int Stream::priority() const {
  int p = 0;
  check(cudaStreamGetPriority(handle_, &p), "cudaStreamGetPriority");
  return p;
}

bool Stream::is_non_blocking() const {
  unsigned flags = 0;
  check(cudaStreamGetFlags(handle_, &flags), "cudaStreamGetFlags");
  return (flags & cudaStreamNonBlocking) != 0;
}

bool Stream::query() const { return detail::is_ready(cudaStreamQuery(handle_), "cudaStreamQuery"); }

void Stream::synchronize() const { check(cudaStreamSynchronize(handle_), "cudaStreamSynchronize"); }

void Stream::wait(const Event& event) const {
  check(cudaStreamWaitEvent(handle_, event.handle(), 0), "cudaStreamWaitEvent");
}

Event Stream::record() const {
  DeviceGuard guard(device_);
  Event e;
  e.record(*this);
  return e;
}

Stream current_stream() { return current_stream(current_device()); }

stream_handle detail::current_stream_handle(int device) {
  if (device >= 0 && static_cast<std::size_t>(device) < thread_current_streams.size())
    if (const auto& s = thread_current_streams[static_cast<std::size_t>(device)]) return s->handle();
  return config::get().per_thread_default_stream ? cudaStreamPerThread : nullptr;
}

Stream current_stream(int device) {
  if (device >= 0 && static_cast<std::size_t>(device) < thread_current_streams.size())
    if (const auto& s = thread_current_streams[device]) return *s;
  if (device == current_device()) return default_stream();
  DeviceGuard guard(device);
  return default_stream();
}

void set_current_stream(const Stream& stream) {
  const auto device = static_cast<std::size_t>(stream.device());
  if (thread_current_streams.size() <= device) thread_current_streams.resize(device + 1);
  thread_current_streams[device] = stream;
}

StreamGuard::StreamGuard(const Stream& stream) : device_(stream.device()), previous_(current_stream(stream.device())) {
  set_current_stream(stream);
}

StreamGuard::~StreamGuard() {
  // Restoring only swaps handles in a vector that already has the slot: nothing here throws.
  thread_current_streams[static_cast<std::size_t>(previous_.device())] = previous_;
}

// ---- Event

Event::Event(event_options options) {
  unsigned flags = cudaEventDefault;
  if (options.blocking_sync) flags |= cudaEventBlockingSync;
  if (options.disable_timing) flags |= cudaEventDisableTiming;
  cudaEvent_t e = nullptr;
  check(cudaEventCreateWithFlags(&e, flags), "cudaEventCreateWithFlags");
  handle_ = e;
  timing_ = !options.disable_timing;
  owner_ = std::shared_ptr<void>(e, destroy_event);
}

void Event::record() { record(current_stream()); }

void Event::record(const Stream& stream) { check(cudaEventRecord(handle_, stream.handle()), "cudaEventRecord"); }

bool Event::query() const { return detail::is_ready(cudaEventQuery(handle_), "cudaEventQuery"); }

void Event::synchronize() const { check(cudaEventSynchronize(handle_), "cudaEventSynchronize"); }

float Event::elapsed_ms(const Event& end) const {
  if (!timing_ || !end.timing_) throw ValueError("elapsed time of an event created with disable_timing");
  float ms = 0.0f;
  check(cudaEventElapsedTime(&ms, handle_, end.handle_), "cudaEventElapsedTime");
  return ms;
}

float get_elapsed_time(const Event& start, const Event& end) { return start.elapsed_ms(end); }

}  // namespace cupp::cuda
