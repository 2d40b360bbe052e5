// The report words of compiled programs and the end signals of raising kernels (report_word.hpp):
// mapped pinned host memory, one report word per (module, device, pointer symbol) and a pool of
// end-signal slots per device, kept for the process and freed at exit.
#include "compiler/report_word.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "compiler/module.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"

namespace cupp::detail {
namespace {

struct free_pinned {
  void operator()(void* p) const noexcept { (void)cudaFreeHost(p); }
};
using pinned_ptr = std::unique_ptr<void, free_pinned>;

// Zeroed pinned host memory, mapped into every device's address space.
pinned_ptr mapped_pinned(std::size_t bytes) {
  void* host = nullptr;
  cuda::detail::check(cudaHostAlloc(&host, bytes, cudaHostAllocMapped | cudaHostAllocPortable), "cudaHostAlloc");
  pinned_ptr owned(host);
  std::memset(host, 0, bytes);
  return owned;
}

class report_words {
 public:
  report_words() = default;
  report_words(const report_words&) = delete;
  report_words& operator=(const report_words&) = delete;
  ~report_words() {
    for (auto& [key, channel] : words_) (void)cudaFreeHost(const_cast<unsigned*>(channel->word));  // at exit
  }

  report_channel& get(const kernel_module& m, int device, const char* symbol) {
    const std::lock_guard lock(mutex_);
    const auto module = reinterpret_cast<std::uintptr_t>(&m);
    // Looked up without building a string: a warm call is a lock and a few compares.
    if (const auto it = words_.find(std::make_tuple(module, device, std::string_view(symbol))); it != words_.end())
      return *it->second;
    pinned_ptr owned = mapped_pinned(sizeof(unsigned));  // until the word is installed
    void* host = owned.get();
    auto* word = static_cast<volatile unsigned*>(host);
    void* on_device = nullptr;
    cuda::detail::check(cudaHostGetDevicePointer(&on_device, host, 0), "cudaHostGetDevicePointer");
    cuda::detail::check(cudaMemcpy(m.global(symbol), &on_device, sizeof on_device, cudaMemcpyHostToDevice),
                        "cudaMemcpy");
    auto channel = std::make_unique<report_channel>();
    channel->word = word;
    report_channel& made = *channel;
    words_.emplace(key{module, device, symbol}, std::move(channel));
    (void)owned.release();
    return made;
  }

 private:
  using key = std::tuple<std::uintptr_t, int, std::string>;  // the module by address
  std::mutex mutex_;
  std::map<key, std::unique_ptr<report_channel>, std::less<>> words_;
};

report_words& all_words() {
  static report_words words;
  return words;
}

// A spin-wait hint to the core (x86 PAUSE), where there is one.
inline void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// End-signal slots: a device counter and a host word each, made 64 at a time per device.
struct end_slot {
  unsigned* counter;
  unsigned* word_on_device;
  volatile unsigned* word;
};

class end_slots {
 public:
  end_slots() = default;
  end_slots(const end_slots&) = delete;
  end_slots& operator=(const end_slots&) = delete;
  ~end_slots() {
    for (const chunk& c : chunks_) {  // at exit: errors ignored
      (void)cudaFree(c.counters);
      (void)cudaFreeHost(c.words);
    }
  }

  end_slot take(int device) {
    const std::lock_guard lock(mutex_);
    std::vector<end_slot>& free = free_[device];
    if (free.empty()) grow(free);
    const end_slot s = free.back();
    free.pop_back();
    return s;
  }

  void give_back(int device, const end_slot& s) {
    const std::lock_guard lock(mutex_);
    free_[device].push_back(s);
  }

 private:
  static constexpr int chunk_slots = 64;
  struct chunk {
    void* counters;
    void* words;
  };

  // On the current device. The counters start at zero (copied from the zeroed pinned words: a copy
  // from pinned memory has ended when cudaMemcpy returns); each kernel's last block sets its back.
  void grow(std::vector<end_slot>& free) {
    constexpr std::size_t bytes = chunk_slots * sizeof(unsigned);
    pinned_ptr owned_host = mapped_pinned(bytes);
    void* host = owned_host.get();
    void* counters = nullptr;
    cuda::detail::check(cudaMalloc(&counters, bytes), "cudaMalloc");
    const auto free_device = [](void* p) { (void)cudaFree(p); };
    std::unique_ptr<void, decltype(free_device)> owned_counters(counters, free_device);
    cuda::detail::check(cudaMemcpy(counters, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
    void* on_device = nullptr;
    cuda::detail::check(cudaHostGetDevicePointer(&on_device, host, 0), "cudaHostGetDevicePointer");
    chunks_.reserve(chunks_.size() + 1);
    free.reserve(free.size() + chunk_slots);
    for (int i = 0; i < chunk_slots; ++i)
      free.push_back({static_cast<unsigned*>(counters) + i, static_cast<unsigned*>(on_device) + i,
                      static_cast<volatile unsigned*>(host) + i});
    chunks_.push_back({owned_counters.release(), owned_host.release()});
  }

  std::mutex mutex_;
  std::map<int, std::vector<end_slot>> free_;
  std::vector<chunk> chunks_;
};

end_slots& all_end_slots() {
  static end_slots slots;
  return slots;
}

}  // namespace

// The device half lives in an embedded header, so a program may also include it itself.
const char* const kEndSignalDeviceSource = "#include <cupp/dev/end_signal.cuh>\n";

end_signal::end_signal(int device) : device_(device) {
  const end_slot s = all_end_slots().take(device);
  counter_ = s.counter;
  word_on_device_ = s.word_on_device;
  word_ = s.word;
}

end_signal::~end_signal() {
  // A slot whose kernel may still run (or may never have run: its count is unknown) is dropped.
  if (reusable_) all_end_slots().give_back(device_, {counter_, word_on_device_, word_});
}

void end_signal::wait(cudaStream_t stream) {
  unsigned flags = 0;
  cuda::detail::check(cudaGetDeviceFlags(&flags), "cudaGetDeviceFlags");
  const unsigned schedule = flags & cudaDeviceScheduleMask;
  if (schedule == cudaDeviceScheduleBlockingSync) {
    cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  } else {
    using clock = std::chrono::steady_clock;
    constexpr auto query_every = std::chrono::microseconds(20);
    auto next_query = clock::now() + query_every;
    while (*word_ == 0) {
      if (schedule == cudaDeviceScheduleYield) std::this_thread::yield();
      else cpu_relax();
      if (const auto now = clock::now(); now >= next_query) {
        if (cuda::detail::is_ready(cudaStreamQuery(stream), "cudaStreamQuery")) break;
        next_query = now + query_every;
      }
    }
  }
  if (*word_ != 0) {  // the kernel's last block reset the counter before setting the word
    *word_ = 0;
    reusable_ = true;
  }
}

reporting_call::reporting_call(const kernel_module& m, int device, const char* symbol)
    : channel_(&report_word(m, device, symbol)), turn_(channel_->calls) {
  signal_.emplace(device);
  end_counter_ = signal_->counter();
  end_word_ = signal_->word();
}

bool reporting_call::wait(cudaStream_t stream) {
  signal_->wait(stream);
  if (*channel_->word == 0) return false;
  *channel_->word = 0;
  return true;
}

report_channel& report_word(const kernel_module& m, int device, const char* symbol) {
  return all_words().get(m, device, symbol);
}

bool wait_for_report(report_channel& channel, cudaStream_t stream) {
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  if (*channel.word == 0) return false;
  *channel.word = 0;
  return true;
}

bool read_reported_state(const kernel_module& m, int device, reporting_call& call, const char* symbol,
                         std::span<unsigned long long> words) {
  device_scope scope(device);
  const auto stream = cuda::detail::current_stream_handle(device);
  if (!call.wait(stream)) return false;
  auto* state = static_cast<unsigned long long*>(m.global(symbol));
  cuda::detail::check(cudaMemcpyAsync(words.data(), state, words.size_bytes(), cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpyAsync");
  cuda::detail::check(cudaMemsetAsync(state, 0, words.size_bytes(), stream), "cudaMemsetAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return true;
}

}  // namespace cupp::detail
