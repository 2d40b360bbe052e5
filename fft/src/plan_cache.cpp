// cuFFT plans and the per-device LRU plan cache (plan_cache.hpp says how a plan runs), with the
// cache's settings and statistics behind cupp::fft::config: the size and work-memory limits are
// per device and shared by all threads; enable_nd_planning is thread-local.
#include "plan_cache.hpp"

#include "callbacks.hpp"
#include "columns.hpp"

#include <cuda_runtime_api.h>
#include <cufft.h>
#include <cufftXt.h>

#include <atomic>
#include <cstring>
#include <cstdio>
#include <iostream>
#include <list>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cuda/check.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"

namespace cupp::fft::detail {

namespace {

const char* result_name(cufftResult r) noexcept {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_UNALIGNED_DATA: return "CUFFT_UNALIGNED_DATA";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    case CUFFT_MISSING_DEPENDENCY: return "CUFFT_MISSING_DEPENDENCY";
    case CUFFT_NVRTC_FAILURE: return "CUFFT_NVRTC_FAILURE";
    default: return "an unknown cufftResult";
  }
}

void check(cufftResult r, const char* call) {
  if (r != CUFFT_SUCCESS) [[unlikely]]
    throw CudaError(std::string(call) + " failed: " + result_name(r) + " (" + std::to_string(static_cast<int>(r)) + ")",
                    static_cast<int>(r));
}

cudaDataType data_type(transform_kind kind, bool dbl, bool input) {
  const bool real = (kind == transform_kind::r2c && input) || (kind == transform_kind::c2r && !input);
  if (real) return dbl ? CUDA_R_64F : CUDA_R_32F;
  return dbl ? CUDA_C_64F : CUDA_C_32F;
}

std::atomic<std::uint64_t> made_count{0};
std::atomic<std::uint64_t> scaled_count{0};
std::atomic<std::uint64_t> unsupported_count{0};
std::atomic<std::uint64_t> column_fallback_count{0};
std::atomic<std::uint64_t> column_exec_count{0};

// One device's cache: most recently used plans at the front.
struct device_cache {
  std::mutex mutex;
  std::list<std::shared_ptr<plan>> lru;
  std::unordered_map<plan_key, std::list<std::shared_ptr<plan>>::iterator, plan_key_hash> index;
  std::size_t size_limit = 16;
  std::int64_t memsize_limit = -1;
  std::size_t work_bytes = 0;
  std::uint64_t hits = 0, misses = 0, evictions = 0;
  bool used = false;

  // Drops least recently used plans until the limits hold (mutex held).
  void trim() {
    while (!lru.empty() && (lru.size() > size_limit ||
                            (memsize_limit >= 0 && work_bytes > static_cast<std::size_t>(memsize_limit)))) {
      work_bytes -= lru.back()->work_size();
      index.erase(lru.back()->key());
      lru.pop_back();
      ++evictions;
    }
  }
};

std::mutex caches_mutex;
std::vector<std::unique_ptr<device_cache>>& caches() {
  static std::vector<std::unique_ptr<device_cache>> all;
  return all;
}

device_cache& cache_of(int device) {
  if (device < 0) device = cuda::current_device();
  if (device > 4096) throw ValueError("invalid device id " + std::to_string(device));
  std::lock_guard lock(caches_mutex);
  auto& all = caches();
  if (static_cast<std::size_t>(device) >= all.size()) all.resize(device + 1);
  if (!all[device]) all[device] = std::make_unique<device_cache>();
  return *all[device];
}

thread_local bool nd_planning = true;
thread_local plan_key last_key{};

}  // namespace

std::size_t plan_key_hash::operator()(const plan_key& k) const noexcept {
  std::size_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](long long v) { h = (h ^ static_cast<std::size_t>(v)) * 0x100000001b3ull; };
  mix(k.rank);
  for (int i = 0; i < 3; ++i) {
    mix(k.n[i]);
    mix(k.inembed[i]);
    mix(k.onembed[i]);
  }
  mix(k.istride), mix(k.ostride), mix(k.idist), mix(k.odist), mix(k.batch);
  mix(static_cast<long long>(k.kind)), mix(k.double_precision), mix(k.direction);
  mix(static_cast<long long>(k.callback));
  long long scale_bits = 0;
  static_assert(sizeof scale_bits == sizeof k.scale);
  std::memcpy(&scale_bits, &k.scale, sizeof scale_bits);
  mix(scale_bits);
  mix(k.scale_form);
  mix(k.engine);
  mix(k.width);
  return h;
}

namespace {

// A key's problem in words, for errors.
std::string describe_key(const plan_key& k) {
  static const char* kinds[] = {"c2c", "r2c", "c2r"};
  std::string s = std::string(kinds[static_cast<int>(k.kind)]) + (k.double_precision ? " double" : " single") + " n=(";
  for (int i = 0; i < k.rank; ++i) s += (i ? "," : "") + std::to_string(k.n[i]);
  return s + ") istride " + std::to_string(k.istride) + " idist " + std::to_string(k.idist) + " batch " +
         std::to_string(k.batch);
}

}  // namespace

// Makes the cuFFT plan on handle `h` (callbacks attached first when asked); throws CudaError.
std::size_t plan::make(bool user_callbacks, bool scale_callback) {
  const cufftHandle h = static_cast<cufftHandle>(handle_);
  const plan_key& key = key_;
  check(cufftSetAutoAllocation(h, 0), "cufftSetAutoAllocation");
  if (user_callbacks)  // LTO callbacks go on after cufftCreate and before planning
    attach_callbacks(h, *reinterpret_cast<const callback_set*>(key.callback), key.kind, key.double_precision, device_);
  if (scale_callback && key.scale_form == 0) {  // cupp's store callback: the factor in device memory, its caller_info
    const float single = static_cast<float>(key.scale);
    const std::size_t bytes = key.double_precision ? sizeof(double) : sizeof(float);
    cuda::detail::check(cudaMalloc(&factor_, bytes), "cudaMalloc");
    cuda::detail::check(cudaMemcpy(factor_, key.double_precision ? static_cast<const void*>(&key.scale) : &single, bytes,
                                   cudaMemcpyHostToDevice),
                        "cudaMemcpy");
    attach_scale_callback(h, key.kind, key.double_precision, factor_, device_);
  } else if (scale_callback) {  // the factor a literal of the callback's source, at store or at load
    attach_literal_scale_callback(h, key.kind, key.double_precision, key.scale, key.scale_form == 2, device_);
  }
  std::array<long long, 3> n = key.n, inembed = key.inembed, onembed = key.onembed;
  const cudaDataType exec = key.double_precision ? CUDA_C_64F : CUDA_C_32F;
  std::size_t work = 0;
  check(cufftXtMakePlanMany(h, key.rank, n.data(), inembed.data(), key.istride, key.idist,
                            data_type(key.kind, key.double_precision, true), onembed.data(), key.ostride, key.odist,
                            data_type(key.kind, key.double_precision, false), key.batch, &work, exec),
        "cufftXtMakePlanMany");
  return work;
}

void plan::release() noexcept {
  if (made_) cufftDestroy(static_cast<cufftHandle>(handle_));
  made_ = false;
  if (factor_) cudaFree(factor_);
  factor_ = nullptr;
  if (twiddles_) cudaFree(twiddles_);
  twiddles_ = nullptr;
}

// The fallback of a plan whose kernel or callback could not be had: cuFFT's plan of the key
// without callbacks (scales_ stays false: the caller scales by a pass).
void plan::make_plain() {
  create();
  try {
    work_size_ = make(false, false);
  } catch (...) {
    release();
    throw;
  }
  made_count.fetch_add(1, std::memory_order_relaxed);
}

void plan::create() {
  cufftHandle h = 0;
  check(cufftCreate(&h), "cufftCreate");
  handle_ = h;
  made_ = true;
}

plan::plan(const plan_key& key, int device) : key_(key), device_(device) {
  cupp::detail::device_scope scope(device);
  if (key.engine != 0) {
    // cupp's column (row) kernel; where it cannot run here (NVRTC, loading, too little shared
    // memory), cuFFT's plan without a callback (the caller scales by a pass: scales() is false).
    try {
      kernel_ = load_column_kernel(key, device);
      twiddles_ = upload_twiddles(key);
      columns_ = true;
      scales_ = key.scale != 1.0;
      made_count.fetch_add(1, std::memory_order_relaxed);
      return;
    } catch (const std::exception&) {
      release();
      column_fallback_count.fetch_add(1, std::memory_order_relaxed);
    }
    make_plain();
    return;
  }
  create();
  try {
    work_size_ = make(key.callback != 0, key.scale != 1.0);
    scales_ = key.scale != 1.0;
  } catch (const CudaError& e) {
    release();
    // cuFFT plans no callback kernels for some problems (CUFFT_NOT_SUPPORTED at planning; sizes
    // with large prime factors, which it computes by Bluestein's algorithm, among them). The
    // norm's callback is then left out (execute() scales by a pass: scales() is false); a user's
    // callbacks are a ValueError naming the problem.
    const bool planning = std::string_view(e.what()).starts_with("cufftXtMakePlanMany");
    if (key.callback != 0 && planning && e.code() == CUFFT_NOT_SUPPORTED)
      throw ValueError("cuFFT does not support callbacks on this transform (" + describe_key(key) + "): " + e.what());
    if (!planning || e.code() == CUFFT_ALLOC_FAILED || key.callback != 0 || key.scale == 1.0) throw;
    make_plain();
    unsupported_count.fetch_add(1, std::memory_order_relaxed);
    return;
  } catch (...) {
    release();
    throw;
  }
  made_count.fetch_add(1, std::memory_order_relaxed);
}

plan::~plan() {
  // No throwing destructor: cufftDestroy's status is dropped.
  if (made_) cufftDestroy(static_cast<cufftHandle>(handle_));
  for (void* p : {factor_, twiddles_}) {
    if (!p) continue;
    try {  // cudaFree synchronises: no queued execution still reads the factor or the twiddles
      cupp::detail::device_scope scope(device_);
      cudaFree(p);
    } catch (...) {
      cudaFree(p);  // (UVA: any current device frees it)
    }
  }
}

void plan::execute(std::span<const exec_pointers> runs, cuda::stream_handle stream) {
  if (runs.empty()) return;
  if (columns_) {  // no handle, no shared work area: launches only (thread-safe without the mutex)
    launch_columns(kernel_, key_, twiddles_, runs, device_, stream);
    column_exec_count.fetch_add(runs.size(), std::memory_order_relaxed);
    if (scales_) scaled_count.fetch_add(runs.size(), std::memory_order_relaxed);
    return;
  }
  const cufftHandle h = static_cast<cufftHandle>(handle_);
  std::lock_guard lock(mutex_);
  check(cufftSetStream(h, reinterpret_cast<cudaStream_t>(stream)), "cufftSetStream");
  // The work area comes from cupp's pool for this stream and goes back to it (stream-ordered) when
  // this call returns, after the executions are queued: the pool reuses it only on this stream.
  cuda::Memory work = cuda::alloc(work_size_, device_, stream);
  if (work_size_ > 0) check(cufftSetWorkArea(h, work.ptr()), "cufftSetWorkArea");
  for (const exec_pointers& r : runs) check(cufftXtExec(h, r.in, r.out, key_.direction), "cufftXtExec");
  if (scales_) scaled_count.fetch_add(runs.size(), std::memory_order_relaxed);
}

std::shared_ptr<plan> get_plan(const plan_key& key, int device) {
  last_key = key;
  device_cache& c = cache_of(device);
  {
    std::lock_guard lock(c.mutex);
    c.used = true;
    if (auto it = c.index.find(key); it != c.index.end()) {
      ++c.hits;
      c.lru.splice(c.lru.begin(), c.lru, it->second);
      return *it->second;
    }
    ++c.misses;
  }
  // Outside the lock: planning takes a while. cuFFT allocates a plan's own memory with cudaMalloc:
  // when the device is full (of cupp's cached blocks, say), the pool's free blocks are released and
  // planning is tried once more, as the pool itself does before OutOfMemoryError.
  std::shared_ptr<plan> made;
  try {
    made = std::make_shared<plan>(key, device);
  } catch (const CudaError& e) {
    if (e.code() != CUFFT_ALLOC_FAILED) throw;
    cuda::get_default_memory_pool().free_all_blocks();
    made = std::make_shared<plan>(key, device);
  }
  std::lock_guard lock(c.mutex);
  if (auto it = c.index.find(key); it != c.index.end()) return *it->second;  // another thread's
  if (c.size_limit == 0 || (c.memsize_limit >= 0 && made->work_size() > static_cast<std::size_t>(c.memsize_limit)))
    return made;  // used once, not kept
  c.lru.push_front(made);
  c.index.emplace(key, c.lru.begin());
  c.work_bytes += made->work_size();
  c.trim();
  return made;
}

std::uint64_t scaled_executions() noexcept { return scaled_count.load(std::memory_order_relaxed); }
std::uint64_t plans_made() noexcept { return made_count.load(std::memory_order_relaxed); }
std::uint64_t scale_callbacks_refused() noexcept { return unsupported_count.load(std::memory_order_relaxed); }
std::uint64_t column_kernel_fallbacks() noexcept { return column_fallback_count.load(std::memory_order_relaxed); }
std::uint64_t column_kernel_executions() noexcept { return column_exec_count.load(std::memory_order_relaxed); }
plan_key last_plan_key() noexcept { return last_key; }

}  // namespace cupp::fft::detail

namespace cupp::fft::config {

using detail::cache_of;
using detail::device_cache;

void set_plan_cache_size(std::size_t plans, int device) {
  device_cache& c = cache_of(device);
  std::lock_guard lock(c.mutex);
  c.size_limit = plans;
  c.trim();
}

std::size_t get_plan_cache_size(int device) {
  device_cache& c = cache_of(device);
  std::lock_guard lock(c.mutex);
  return c.size_limit;
}

void set_plan_cache_max_memsize(std::int64_t bytes, int device) {
  if (bytes < -1) throw ValueError("memsize must be -1 (no limit) or a number of bytes, not " + std::to_string(bytes));
  device_cache& c = cache_of(device);
  std::lock_guard lock(c.mutex);
  c.memsize_limit = bytes;
  c.trim();
}

std::int64_t get_plan_cache_max_memsize(int device) {
  device_cache& c = cache_of(device);
  std::lock_guard lock(c.mutex);
  return c.memsize_limit;
}

void clear_plan_cache(int device) {
  device_cache& c = cache_of(device);
  std::list<std::shared_ptr<detail::plan>> dropped;
  {
    std::lock_guard lock(c.mutex);
    dropped.swap(c.lru);
    c.index.clear();
    c.work_bytes = 0;
  }
}  // the plans are destroyed here, outside the lock

plan_cache_info get_plan_cache_info(int device) {
  if (device < 0) device = cuda::current_device();
  device_cache& c = cache_of(device);
  std::lock_guard lock(c.mutex);
  return {.device = device, .plans = c.lru.size(), .size_limit = c.size_limit, .work_bytes = c.work_bytes,
          .memsize_limit = c.memsize_limit, .hits = c.hits, .misses = c.misses, .evictions = c.evictions};
}

namespace {
std::string describe(const plan_cache_info& i) {
  std::ostringstream s;
  s << i.plans << " of " << i.size_limit << " plans, " << i.work_bytes << " work bytes (limit "
    << (i.memsize_limit < 0 ? std::string("none") : std::to_string(i.memsize_limit)) << "), " << i.hits << " hits, "
    << i.misses << " misses, " << i.evictions << " evictions";
  return s.str();
}
}  // namespace

std::string plan_cache_info_text() {
  std::vector<int> devices;
  {
    std::lock_guard lock(detail::caches_mutex);
    auto& all = detail::caches();
    for (std::size_t d = 0; d < all.size(); ++d)
      if (all[d] && all[d]->used) devices.push_back(static_cast<int>(d));
  }
  if (devices.empty()) return "empty (no transform yet); limits 16 plans and no memory limit per device";
  std::string out;
  for (int d : devices) out += (out.empty() ? "" : "; ") + ("device " + std::to_string(d) + ": ") + describe(get_plan_cache_info(d));
  return out;
}

void show_plan_cache_info() { std::cout << "cuFFT plan cache: " << plan_cache_info_text() << std::endl; }

void set_enable_nd_planning(bool enable) noexcept { detail::nd_planning = enable; }
bool get_enable_nd_planning() noexcept { return detail::nd_planning; }

}  // namespace cupp::fft::config
