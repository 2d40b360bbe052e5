// Internal: the host side of a program's data-dependent error report (docs/architecture.md: an op that
// checks its data, such as an out-of-bounds index or an integer to a negative power, reads the
// result once at its end). A kernel that reports also sets a word of mapped pinned host memory
// through the program's `extern "C" __device__ unsigned int* <symbol>`, so an op without an error
// learns so from the wait that ends it (a stream sync, or the kernel's end signal below), with no
// copy back; only a set word makes the op read the program's device-side details. One word per
// (module, device, symbol), for the process.
// The word and the device state behind it belong to the program, not to a call, so calls that may
// report through one word take turns (report_channel::calls): two threads on two streams would
// otherwise read each other's errors.
#pragma once

#include <cuda_runtime.h>

#include <mutex>
#include <optional>
#include <span>

namespace cupp::detail {

class kernel_module;

// A program's report word and the lock of the calls that report through it.
struct report_channel {
  volatile unsigned* word = nullptr;  // mapped pinned host memory
  // Held by a call from its first launch that may report until it has read (and cleared) the
  // word and the program's device state.
  std::mutex calls;
};

// Module m's report channel on `device` (which must be current). The first call for a (module,
// device, symbol) allocates the word and writes its device address into the program's pointer
// `symbol`; call it before the first launch that may report. Thread-safe; the channel lives as
// long as the process.
report_channel& report_word(const kernel_module& m, int device, const char* symbol);

// Waits for `stream`; returns true when the word was set (a kernel reported), and clears it.
bool wait_for_report(report_channel& channel, cudaStream_t stream);

// A raising kernel's end signal: a device counter that each block bumps as its last act, and a
// word of mapped pinned host memory that the last block sets. With it the host learns that every
// block has run (so no report can still come) while the kernel's last stores are in flight, and the
// next work queues before the GPU goes idle. In the bench on H200s the check of a 2^26-element
// take cost 2-10 us this way and 8-12 us with a stream sync; measured raw, a sync cost 0-16 us
// and the blocks' counting 0-9 us, by machine (docs/performance.md, session 10).
// The device side is cupp_end_block() (kEndSignalDeviceSource), called by every thread of every
// block after its reports. Slots come from a per-device pool; a slot whose kernel was not seen to
// end through it (an error, a captured stream) is never reused.
class end_signal {
 public:
  explicit end_signal(int device);  // takes a slot of device's pool (device must be current)
  end_signal(const end_signal&) = delete;
  end_signal& operator=(const end_signal&) = delete;
  ~end_signal();

  unsigned* counter() const noexcept { return counter_; }  // the kernel's arguments
  unsigned* word() const noexcept { return word_on_device_; }

  // Returns once the kernel has set the word or `stream` has drained (polled every 20 us, so a
  // kernel that never runs cannot hang the call; a stream error throws). Spins, or yields, or
  // blocks as the device's schedule flag asks (cudaDeviceScheduleBlockingSync: a plain sync).
  void wait(cudaStream_t stream);

 private:
  int device_;
  unsigned* counter_ = nullptr;
  unsigned* word_on_device_ = nullptr;
  volatile unsigned* word_ = nullptr;
  bool reusable_ = false;
};

// The device half, for a program's source: `cupp_end_block(counter, word)` after the block's last
// report; a null word (no signal asked for) makes it a no-op. Every thread of the block must call it.
// It is the #include of <cupp/dev/end_signal.cuh> (runtime/device/), which a program's own
// embedded header may include instead.
extern const char* const kEndSignalDeviceSource;

// A call that may report: its turn on the program's report channel, held from before its first
// launch that may report until its wait, and the end signal that its last launch passes as the
// kernel's last two arguments (counter_arg(), word_arg()). A default one holds nothing and passes
// nulls (a launch that does not raise, or does not end the check).
class reporting_call {
 public:
  reporting_call() = default;
  // Takes the turn on module m's channel `symbol` on `device` and an end signal.
  reporting_call(const kernel_module& m, int device, const char* symbol);

  void* counter_arg() noexcept { return &end_counter_; }
  void* word_arg() noexcept { return &end_word_; }

  // Waits through the end signal (the kernel's end, not the stream's); returns true when the
  // report word was set, and clears it. A set word means the caller reads device state: sync the
  // stream first. Only for a call made with a channel.
  bool wait(cudaStream_t stream);

 private:
  report_channel* channel_ = nullptr;
  std::unique_lock<std::mutex> turn_;
  std::optional<end_signal> signal_;
  unsigned* end_counter_ = nullptr;
  unsigned* end_word_ = nullptr;
};

// Waits for `call`'s kernels through its end signal; when one reported (the report word was set),
// copies the program's device error state `symbol` (words.size() words of m) into `words`, clears
// it on the device and returns true. `device` is made current for the copies.
bool read_reported_state(const kernel_module& m, int device, reporting_call& call, const char* symbol,
                         std::span<unsigned long long> words);

}  // namespace cupp::detail
