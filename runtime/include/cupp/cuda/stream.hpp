// Devices, streams and events (CuPy's cupy.cuda.Device / Stream / Event, as C++ handles).
//  - Device: a device id with queries; use() makes it current; DeviceGuard makes it current for
//    a scope and restores the previous device. The CUDA current device (cudaGetDevice) stays the
//    source of truth, so cupp mixes with other CUDA code.
//  - Stream: a shared handle; owning streams are destroyed with their last copy. Each thread has
//    a current stream per device (the null stream by default, or the per-thread default stream
//    when CUPP_CUDA_PER_THREAD_DEFAULT_STREAM=1); StreamGuard sets it for a scope.
//  - Event: record on a stream, query, synchronize, time, and make a stream wait for it.
// No CUDA header is needed to use this one.
#pragma once

#include <memory>

struct CUstream_st;
struct CUevent_st;

namespace cupp::cuda {

using stream_handle = CUstream_st*;  // cudaStream_t
using event_handle = CUevent_st*;    // cudaEvent_t

// The current device of the calling thread (cudaGetDevice).
int current_device();

class Device {
 public:
  // The current device.
  Device();
  // Device `id`; ValueError when out of range.
  explicit Device(int id);

  int id() const noexcept { return id_; }
  // Makes this device current for the calling thread, with no scope.
  void use() const;
  // Waits for all work on the device.
  void synchronize() const;
  // Compute capability as 10 * major + minor (90 for sm_90).
  int compute_capability() const;

  friend bool operator==(const Device&, const Device&) = default;

 private:
  int id_;
};

// Makes a device current for the guard's scope; restores the previous current device on exit.
class DeviceGuard {
 public:
  explicit DeviceGuard(const Device& device);
  // Already current: no CUDA call beyond one cudaGetDevice (the id needs no validation then).
  explicit DeviceGuard(int id);
  ~DeviceGuard();
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_;
  bool switched_;
};

class Event;

struct stream_options {
  bool non_blocking = false;  // does not synchronise with the legacy null stream
  int priority = 0;           // lower is higher priority; clamped to the device's range
};

class Stream {
 public:
  // The legacy null stream of the current device.
  Stream();

  // A new stream on the current device, destroyed with its last copy.
  static Stream create(stream_options options = {});
  // The legacy null stream, and the per-thread default stream, of the current device.
  static Stream null();
  static Stream per_thread();
  // A stream created elsewhere (not destroyed by cupp), on device `device` (current if -1).
  static Stream wrap(stream_handle handle, int device = -1);

  stream_handle handle() const noexcept { return handle_; }
  int device() const noexcept { return device_; }
  bool is_null() const noexcept { return handle_ == nullptr; }
  bool is_per_thread() const noexcept;
  bool owns() const noexcept { return static_cast<bool>(owner_); }
  int priority() const;
  bool is_non_blocking() const;

  // True when all work queued so far has finished.
  bool query() const;
  void synchronize() const;
  // Later work on this stream waits for `event`.
  void wait(const Event& event) const;
  // Records an event on this stream and returns it.
  Event record() const;

  friend bool operator==(const Stream& a, const Stream& b) noexcept {
    return a.handle_ == b.handle_ && a.device_ == b.device_;
  }

 private:
  Stream(stream_handle handle, int device, std::shared_ptr<void> owner) noexcept
      : handle_(handle), device_(device), owner_(std::move(owner)) {}

  stream_handle handle_ = nullptr;
  int device_ = 0;
  std::shared_ptr<void> owner_;  // set for owning streams: destroys the stream
};

// The calling thread's current stream on the current device (or on `device`).
Stream current_stream();
Stream current_stream(int device);
// Sets the calling thread's current stream for the stream's device.
void set_current_stream(const Stream& stream);

// Makes `stream` the current stream of its device for the guard's scope (and its device the
// current device); restores both on exit.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  DeviceGuard device_;
  Stream previous_;
};

struct event_options {
  bool blocking_sync = false;   // synchronize() sleeps instead of spinning
  bool disable_timing = false;  // cheaper; elapsed_ms() is then unavailable
};

class Event {
 public:
  // A new event on the current device (not yet recorded).
  explicit Event(event_options options = {});

  event_handle handle() const noexcept { return handle_; }
  // Records the event on `stream` (the current stream by default).
  void record();
  void record(const Stream& stream);
  // True when the work before the last record() has finished (or it was never recorded).
  bool query() const;
  void synchronize() const;
  // Milliseconds from this event to `end`; both must have completed. ValueError when either
  // was created with disable_timing.
  float elapsed_ms(const Event& end) const;
  bool timing_enabled() const noexcept { return timing_; }

 private:
  event_handle handle_ = nullptr;
  bool timing_ = true;
  std::shared_ptr<void> owner_;  // destroys the event with its last copy
};

// CuPy's get_elapsed_time(start, end), in milliseconds.
float get_elapsed_time(const Event& start, const Event& end);

}  // namespace cupp::cuda
