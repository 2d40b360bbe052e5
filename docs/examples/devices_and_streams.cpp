// Example for docs/devices-and-streams.md, built and run by the tests (CTest
// example_devices_and_streams, label gpu): a device guard that makes the last device current for
// a scope (device 1 where there are two) with a stream created inside it, Device::use, and two
// events timing work on a stream that another stream then waits for. Checks the current device
// inside and after the guard, that a bad id is a ValueError, the order of the two streams' work, the
// elapsed time, and that untimed events refuse get_elapsed_time.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/errors.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdio>
#include <vector>

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  {
    int inside = -1;
    // [snippet devices]
    using namespace cupp::cuda;
    int n = device_count();            // 0 without a driver or a GPU; is_available() never throws
    {
      DeviceGuard guard(n - 1);        // the last device (1 of 2) is current in this scope...
      auto s = Stream::create();       // ...so this stream lives on it (s.device() == n - 1)
      inside = current_device();       // n - 1
    }                                  // ...and the previous device is current again
    Device(0).use();                   // make device 0 current, no scope
    // [end snippet]
    expect(n >= 1 && inside == n - 1, "the guard's device is current in its scope");
    expect(current_device() == 0 && Device().id() == 0, "device 0 is current after use()");
    bool bad_id = false;
    try {
      const Device nowhere(n);
    } catch (const cupp::ValueError&) {
      bad_id = true;
    }
    expect(bad_id, "a bad device id is a ValueError");
  }
  {
    using namespace cupp::cuda;
    const Stream s = Stream::create();
    const Stream other = Stream::create({.non_blocking = true});
    cupp::ndarray x;
    cupp::ndarray y;
    // [snippet events]
    Event start, stop;                 // Event({.disable_timing = true}) for cheap sync-only events
    start.record(s);
    {
      StreamGuard on_s(s);             // work on s: what cupp launches goes to the current stream
      x = cupp::sin(cupp::arange(0.0, 1 << 22, 1.0));
    }
    stop.record(s);
    other.wait(stop);                  // `other` runs later work only after `stop`
    {
      StreamGuard on_other(other);
      y = cupp::add(x, 1.0);           // reads x: safe, it waits for `stop`
    }
    stop.synchronize();
    float ms = get_elapsed_time(start, stop);
    // [end snippet]
    expect(ms >= 0.0f && stop.query(), "the events completed and timed the work");
    {
      StreamGuard on_other(other);
      const std::vector<double> got = y(cupp::slice(0, 3)).to_vector<double>();
      const std::vector<double> want = {1.0, 1.8414709848078965, 1.9092974268256817};
      for (std::size_t k = 0; k < 3; ++k)
        if (std::abs(got[k] - want[k]) > 1e-12) expect(false, "other's work saw s's results");
    }
    bool no_timing = false;
    try {
      Event a({.disable_timing = true}), b({.disable_timing = true});
      a.record(s);
      b.record(s);
      b.synchronize();
      (void)get_elapsed_time(a, b);
    } catch (const cupp::ValueError&) {
      no_timing = true;
    }
    expect(no_timing, "get_elapsed_time of events without timing is a ValueError");
  }
  if (failures != 0) return 1;
  std::puts("devices_and_streams: all checks passed");
  return 0;
}
