// Internal to the fft module: cuFFT plans (and cupp's column-kernel plans, key.engine 1:
// columns.hpp) and their per-device LRU cache. A plan is made with
// cufftCreate + cufftSetAutoAllocation(0) + cufftXtMakePlanMany (64-bit sizes, strides and
// distances) and owns its handle (RAII). A key with a scale other than 1 gets cupp's own LTO store
// callback, which multiplies each result by the factor as cuFFT stores it (the norm without a
// second pass over memory; the factor lives in device memory the plan owns, its caller_info). Each execution runs under the plan's mutex (cuFFT is
// thread-safe only across plans): cufftSetStream to the calling stream, a work area from cupp's
// stream-ordered pool on that stream, cufftSetWorkArea, cufftXtExec; so one cached plan serves
// every stream and thread. Every cuFFT status is checked (CudaError naming the call).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>

#include "cupp/cuda/stream.hpp"

namespace cupp::fft::detail {

enum class transform_kind : int { c2c = 0, r2c = 1, c2r = 2 };

// The whole problem a plan solves; two equal keys can share a plan.
struct plan_key {
  int rank = 1;                                  // 1 to 3 transformed dimensions
  std::array<long long, 3> n{};                  // logical sizes (the real side's for r2c/c2r)
  std::array<long long, 3> inembed{}, onembed{}; // cuFFT's advanced layout (index 0 unused)
  long long istride = 1, ostride = 1, idist = 1, odist = 1, batch = 1;
  transform_kind kind = transform_kind::c2c;
  bool double_precision = false;
  int direction = -1;                            // CUFFT_FORWARD (-1) or CUFFT_INVERSE (1)
  std::uintptr_t callback = 0;                   // the callback set's identity; 0: none
  double scale = 1.0;                            // a factor cupp's own store callback applies (1: none)
  int scale_form = 0;                            // how: 0 store callback, factor in device memory;
                                                 // 1 store callback, factor a literal; 2 load callback, literal
  int engine = 0;                                // 0 cuFFT; 1 cupp's column kernel (columns.cuh), 2 its
                                                 // row kernel (Rows), 3 its pair form (a cluster of two
                                                 // blocks), 4 the pipelined row kernel, 5 the four-step
                                                 // long transform (four_step.cuh); all apply `scale`
                                                 // in their stores
  int width = 0;                                 // engines 1-4: the columns (rows) a block (cluster)
                                                 // holds; 5: the columns pass's
  friend bool operator==(const plan_key&, const plan_key&) = default;
};

struct plan_key_hash {
  std::size_t operator()(const plan_key& k) const noexcept;
};

// One pointer pair of an execution: input and output data.
struct exec_pointers {
  void* in;
  void* out;
};

// A loaded kernel of cupp's own (columns.hpp, engines 1-5): the function to launch, its block and
// its dynamic shared memory.
struct column_kernel {
  const void* function = nullptr;
  unsigned threads = 0;
  unsigned shared_bytes = 0;
  unsigned blocks_per_group = 1;  // 2 for the pair form (a cluster a group of columns)
  unsigned max_blocks = 0;        // the pipelined rows' grid at most (0: a block or cluster a group)
  // engine 5: the four-step rows pass, launched after `function`'s columns pass
  const void* rows_function = nullptr;
  unsigned rows_threads = 0, rows_shared_bytes = 0;
};

class plan {
 public:
  // Plans on `device` (made current for the call). Throws CudaError naming the failing call.
  plan(const plan_key& key, int device);
  ~plan();
  plan(const plan&) = delete;
  plan& operator=(const plan&) = delete;

  const plan_key& key() const noexcept { return key_; }
  std::size_t work_size() const noexcept { return work_size_; }
  int device() const noexcept { return device_; }
  // Whether executions apply key().scale (cupp's store callback is attached, or the column kernel
  // runs); false for a key with a scale whose callback plan cuFFT refused (the caller scales by a pass).
  bool scales() const noexcept { return scales_; }
  // Whether cupp's column or row kernel runs the executions (key().engine 1 or 2 and the kernel
  // loaded; where it did not, the plan is cuFFT's plan without a callback).
  bool uses_column_kernel() const noexcept { return columns_; }

  // Runs the transform on each pointer pair, in order, on `stream` (one work area for them all).
  void execute(std::span<const exec_pointers> runs, cuda::stream_handle stream);

 private:
  plan_key key_;
  int device_;
  int handle_ = 0;  // cufftHandle
  bool made_ = false;
  std::size_t work_size_ = 0;
  void* factor_ = nullptr;  // device memory with key.scale in the plan's precision (cudaMalloc; form 0)
  bool scales_ = false;
  bool columns_ = false;       // cupp's column kernel runs it (key.engine 1 and it loaded)
  void* twiddles_ = nullptr;   // the column kernel's twiddle table (cudaMalloc)
  column_kernel kernel_;       // the column kernel's functions and launch shapes
  std::mutex mutex_;

  void create();                                                 // cufftCreate into handle_
  std::size_t make(bool user_callbacks, bool scale_callback);    // attach + plan; the work size
  void release() noexcept;                                       // destroy handle_ and factor_
  void make_plain();  // create + make without callbacks (the fallbacks); counts the plan
};

// The cached plan for `key` on `device` (made on a miss; may evict least recently used plans).
std::shared_ptr<plan> get_plan(const plan_key& key, int device);

// How many executions ran with the norm factor in cupp's store callback (for tests).
std::uint64_t scaled_executions() noexcept;

// How many plans were made (misses included), and the key of this thread's last transform, for
// tests (a transform along axis 0 shows its strides there: no copy was planned).
std::uint64_t plans_made() noexcept;
// How many plans with a norm factor cuFFT refused the store callback for (planned without it).
std::uint64_t scale_callbacks_refused() noexcept;
// How many column- or row-kernel plans (engines 1, 2) fell back to cuFFT (the kernel did not compile or load,
// or the device has too little shared memory), and how many executions the kernel ran.
std::uint64_t column_kernel_fallbacks() noexcept;
std::uint64_t column_kernel_executions() noexcept;
plan_key last_plan_key() noexcept;

}  // namespace cupp::fft::detail
