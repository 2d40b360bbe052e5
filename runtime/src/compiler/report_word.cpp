// The report words of compiled programs (report_word.hpp): mapped pinned host memory, one word
// per (module, device, pointer symbol), kept for the process and freed at exit.
#include "compiler/report_word.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

#include "compiler/module.hpp"
#include "cuda/check.hpp"

namespace cupp::detail {
namespace {

class report_words {
 public:
  report_words() = default;
  report_words(const report_words&) = delete;
  report_words& operator=(const report_words&) = delete;
  ~report_words() {
    for (auto& [key, word] : words_) (void)cudaFreeHost(const_cast<unsigned*>(word));  // at exit: errors ignored
  }

  volatile unsigned* get(const kernel_module& m, int device, const char* symbol) {
    const std::lock_guard lock(mutex_);
    const auto module = reinterpret_cast<std::uintptr_t>(&m);
    // Looked up without building a string: a warm call is a lock and a few compares.
    if (const auto it = words_.find(std::make_tuple(module, device, std::string_view(symbol))); it != words_.end())
      return it->second;
    void* host = nullptr;
    cuda::detail::check(cudaHostAlloc(&host, sizeof(unsigned), cudaHostAllocMapped | cudaHostAllocPortable),
                        "cudaHostAlloc");
    const auto free_host = [](void* p) { (void)cudaFreeHost(p); };
    std::unique_ptr<void, decltype(free_host)> owned(host, free_host);  // until the word is installed
    auto* word = static_cast<volatile unsigned*>(host);
    *word = 0;
    void* on_device = nullptr;
    cuda::detail::check(cudaHostGetDevicePointer(&on_device, host, 0), "cudaHostGetDevicePointer");
    cuda::detail::check(cudaMemcpy(m.global(symbol), &on_device, sizeof on_device, cudaMemcpyHostToDevice),
                        "cudaMemcpy");
    words_.emplace(key{module, device, symbol}, word);
    (void)owned.release();
    return word;
  }

 private:
  using key = std::tuple<std::uintptr_t, int, std::string>;  // the module by address
  std::mutex mutex_;
  std::map<key, volatile unsigned*, std::less<>> words_;
};

report_words& all_words() {
  static report_words words;
  return words;
}

}  // namespace

volatile unsigned* report_word(const kernel_module& m, int device, const char* symbol) {
  return all_words().get(m, device, symbol);
}

bool wait_for_report(volatile unsigned* word, cudaStream_t stream) {
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  if (*word == 0) return false;
  *word = 0;
  return true;
}

}  // namespace cupp::detail
