// The hand-over from cupp's engine to the ahead-of-time CUB accelerators (accel/cub_dispatch.hpp).
// Everything that reaches CUB is behind CUPP_HAVE_AOT_ACCELERATORS, so a build without the nvcc
// objects links and simply never takes these paths.
#include "accel/cub_dispatch.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <utility>

#include "accel/accelerators.hpp"
#include "accel/cub_reduce.hpp"
#include "accel/cub_scan.hpp"
#include "accel/cub_select.hpp"
#include "cuda/check.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::detail::accel {

namespace {

bool is_int(type_id t) noexcept {
  return t == type_id::int8 || t == type_id::int16 || t == type_id::int32 || t == type_id::int64 ||
         t == type_id::uint8 || t == type_id::uint16 || t == type_id::uint32 || t == type_id::uint64;
}
bool is_signed_int(type_id t) noexcept {
  return t == type_id::int8 || t == type_id::int16 || t == type_id::int32 || t == type_id::int64;
}
bool is_half(type_id t) noexcept { return t == type_id::float16 || t == type_id::bfloat16; }
// The width in bytes of bool, integer, floating and complex dtypes (0 for others).
int width(type_id t) noexcept {
  switch (t) {
    case type_id::bool_:
    case type_id::int8:
    case type_id::uint8: return 1;
    case type_id::int16:
    case type_id::uint16:
    case type_id::float16:
    case type_id::bfloat16: return 2;
    case type_id::int32:
    case type_id::uint32:
    case type_id::float32: return 4;
    case type_id::int64:
    case type_id::uint64:
    case type_id::float64:
    case type_id::complex64: return 8;
    case type_id::complex128: return 16;
    default: return 0;
  }
}

#if CUPP_HAVE_AOT_ACCELERATORS
real_type real_of(type_id t) noexcept {
  switch (t) {
    case type_id::float16: return real_type::float16;
    case type_id::bfloat16: return real_type::bfloat16;
    case type_id::float32: return real_type::float32;
    case type_id::float64: return real_type::float64;
    default: return real_type::float64;
  }
}

// Temporary storage for CUB from cupp's pool on the work's stream, freed (stream-ordered) when
// this goes out of scope; any number of requests.
class pool_temp {
 public:
  pool_temp(int device, cudaStream_t stream) : device_(device), stream_(stream) {}
  temp_alloc callback() {
    return [this](std::size_t bytes) {
      blocks_.push_back(cuda::alloc(bytes, device_, stream_));
      return blocks_.back().ptr();
    };
  }

 private:
  int device_;
  cudaStream_t stream_;
  std::vector<cuda::Memory> blocks_;
};

#endif

std::optional<scan_op> scan_op_of(std::string_view op, bool on_bool) noexcept {
  if (on_bool) {
    if (op == "add" || op == "maximum" || op == "logical_or" || op == "bitwise_or") return scan_op::bit_or;
    if (op == "multiply" || op == "minimum" || op == "logical_and" || op == "bitwise_and") return scan_op::bit_and;
    if (op == "logical_xor" || op == "bitwise_xor") return scan_op::bit_xor;
    return std::nullopt;
  }
  if (op == "add") return scan_op::add;
  if (op == "multiply") return scan_op::multiply;
  if (op == "maximum") return scan_op::maximum;
  if (op == "minimum") return scan_op::minimum;
  if (op == "bitwise_and") return scan_op::bit_and;
  if (op == "bitwise_or") return scan_op::bit_or;
  if (op == "bitwise_xor") return scan_op::bit_xor;
  return std::nullopt;
}

}  // namespace

// ---- host-only decisions

reduce_path plan_reduce(std::string_view op, type_id in, type_id acc, type_id result) noexcept {
  const bool arith = op == "add" || op == "multiply", extremum = op == "maximum" || op == "minimum";
  if (arith) {
    if ((is_int(in) || in == type_id::bool_) && is_int(acc) && result == acc) return reduce_path::int_sum_prod;
    if ((in == type_id::float32 || in == type_id::float64) && acc == in && result == in) return reduce_path::real_sum_prod;
    if (is_half(in) && acc == type_id::float32 && (result == in || result == type_id::float32))
      return reduce_path::real_sum_prod;
    return reduce_path::none;
  }
  if (extremum && in == acc && acc == result && plan_arg_reduce(in))
    return in == type_id::float32 || in == type_id::float64 ? reduce_path::real_min_max : reduce_path::int_min_max;
  return reduce_path::none;
}

bool plan_arg_reduce(type_id in) noexcept {
  // The instantiated widths: words of 1, 4 and 8 bytes, float32 and float64.
  if (in == type_id::bool_ || is_int(in)) return width(in) != 2;
  return in == type_id::float32 || in == type_id::float64;
}

bool plan_scan(std::string_view op, type_id in, type_id acc) noexcept {
  if (acc != type_id::int64 && acc != type_id::uint64) return false;
  if (!scan_op_of(op, false)) return false;
  return in == type_id::bool_ || (is_int(in) && width(in) != 2);
}

bool one_contiguous_run(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                        std::int64_t itemsize, std::uintptr_t address, const std::vector<bool>& reduced,
                        bool any_order) noexcept {
  if (shape.size() != strides.size() || shape.size() != reduced.size() || itemsize <= 0) return false;
  std::vector<std::pair<std::int64_t, std::int64_t>> axes;  // (stride, extent) of axes longer than 1
  for (std::size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] == 0) return false;
    if (shape[k] == 1) continue;
    if (!reduced[k]) return false;  // more than one result
    axes.emplace_back(strides[k], shape[k]);
  }
  if (any_order)
    std::stable_sort(axes.begin(), axes.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  std::int64_t step = itemsize;
  for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
    if (it->first != step) return false;
    step *= it->second;
  }
  const auto align = static_cast<std::uintptr_t>(std::min<std::int64_t>(itemsize, 16));
  return (align & (align - 1)) == 0 && address % align == 0;
}

// ---- the hand-over points

bool cub_pays(cub_use use, std::int64_t n, bool forced) noexcept {
  if (forced) return true;
  constexpr std::int64_t host_bound_below = std::int64_t(1) << 20;
  switch (use) {
    case cub_use::sum_prod:  // CUB 0.239 ms against 0.255 for 2^28 float32
    case cub_use::scan: return n >= host_bound_below;
    case cub_use::extrema:      // max 0.338 ms against 0.254
    case cub_use::arg_extrema:  // argmax 0.338 ms against 0.284
    case cub_use::select:       // nonzero of 2^26 0.265 ms against 0.152, a[mask] 0.270 against 0.228
      return false;
  }
  return false;
}

bool enabled() noexcept { return cub_enabled() && cub_pays(cub_use::select, 0, cub_forced_on()); }

bool try_reduce(std::string_view op, const ndarray& a, const std::vector<bool>& reduced, type_id acc, type_id result,
                ndarray& out) {
  if (a.is_null() || !a.dtype().is_builtin() || !cub_enabled()) return false;
  const type_id in = a.dtype().id();
  const reduce_path path = plan_reduce(op, in, acc, result);
  if (path == reduce_path::none) return false;
  const bool extremum = path == reduce_path::int_min_max || path == reduce_path::real_min_max;
  if (!cub_pays(extremum ? cub_use::extrema : cub_use::sum_prod, a.size(), cub_forced_on())) return false;
  const bool any_order = true;  // sums, products and extrema do not depend on the order of a run
  if (!one_contiguous_run(a.shape(), a.strides(), a.itemsize(), reinterpret_cast<std::uintptr_t>(a.data()), reduced,
                          any_order))
    return false;
#if CUPP_HAVE_AOT_ACCELERATORS
  const int device = a.device();
  detail::device_scope scope(device);
  shape_t shape;
  for (std::size_t k = 0; k < reduced.size(); ++k)
    if (!reduced[k]) shape.push_back(1);
  const type_id stored = path == reduce_path::real_sum_prod ? acc : result;  // halves: float32 first
  ndarray r = empty(shape, dtype(stored));
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  pool_temp temp(device, stream);
  const std::int64_t n = a.size();
  const bool multiply = op == "multiply", is_max = op == "maximum";
  switch (path) {
    case reduce_path::int_sum_prod:
      cub_int_sum_prod(multiply, width(in), is_signed_int(in), in == type_id::bool_, a.data(), n, r.data(),
                       width(acc), stream, temp.callback());
      break;
    case reduce_path::int_min_max:  // the element argmax / argmin finds
      cub_int_arg(is_max, width(in), is_signed_int(in), a.data(), n, r.data(), true, stream, temp.callback());
      break;
    case reduce_path::real_sum_prod:
      cub_real_sum_prod(multiply, real_of(in), a.data(), n, r.data(), stream, temp.callback());
      break;
    case reduce_path::real_min_max:
      cub_real_arg(is_max, real_of(in), a.data(), n, r.data(), true, stream, temp.callback());
      break;
    case reduce_path::none: return false;
  }
  out = stored == result ? r : astype(r, dtype(result));
  return true;
#else
  (void)out;
  return false;
#endif
}

bool try_arg_reduce(const ndarray& a, const std::vector<bool>& reduced, bool is_max, const ndarray& out) {
  if (a.is_null() || !a.dtype().is_builtin() || !cub_enabled() || !plan_arg_reduce(a.dtype().id()) ||
      !cub_pays(cub_use::arg_extrema, a.size(), cub_forced_on()))
    return false;
  // Positions count in C order: no reordering of the axes.
  if (!one_contiguous_run(a.shape(), a.strides(), a.itemsize(), reinterpret_cast<std::uintptr_t>(a.data()), reduced,
                          false))
    return false;
#if CUPP_HAVE_AOT_ACCELERATORS
  const int device = a.device();
  detail::device_scope scope(device);
  const type_id in = a.dtype().id();
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  pool_temp temp(device, stream);
  if (in == type_id::bool_ || is_int(in))
    cub_int_arg(is_max, width(in), is_signed_int(in), a.data(), a.size(), out.data(), false, stream, temp.callback());
  else
    cub_real_arg(is_max, real_of(in), a.data(), a.size(), out.data(), false, stream, temp.callback());
  return true;
#else
  (void)is_max;
  (void)out;
  return false;
#endif
}

bool try_scan(std::string_view op, const ndarray& in, const ndarray& out, std::int64_t len) {
  if (len < 1 || in.is_null() || out.is_null() || !in.dtype().is_builtin() || !out.dtype().is_builtin() ||
      !cub_enabled())
    return false;
  const type_id t = in.dtype().id(), acc = out.dtype().id();
  if (!plan_scan(op, t, acc)) return false;
  if (!cub_pays(cub_use::scan, len, cub_forced_on())) return false;
  if (reinterpret_cast<std::uintptr_t>(in.data()) % static_cast<std::uintptr_t>(width(t)) != 0 ||
      reinterpret_cast<std::uintptr_t>(out.data()) % static_cast<std::uintptr_t>(width(acc)) != 0)
    return false;
#if CUPP_HAVE_AOT_ACCELERATORS
  const int device = out.device();
  detail::device_scope scope(device);
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  pool_temp temp(device, stream);
  cub_inclusive_scan(*scan_op_of(op, false), width(t), is_signed_int(t), t == type_id::bool_, in.data(),
                     is_signed_int(acc), out.data(), len, stream, temp.callback());
  return true;
#else
  return false;
#endif
}

bool can_select(const ndarray& a) noexcept {
  if (a.is_null() || !enabled()) return false;
  const auto w = a.itemsize();
  if (w != 1 && w != 4 && w != 8) return false;  // the instantiated widths
  return reinterpret_cast<std::uintptr_t>(a.data()) % static_cast<std::uintptr_t>(w) == 0;
}

#if CUPP_HAVE_AOT_ACCELERATORS
namespace {

// The number of true elements of a flat bool mask: one read back (the one round trip a
// compaction needs to size its result).
std::int64_t count_true(const ndarray& mask, int device, cudaStream_t stream, pool_temp& temp) {
  const std::int64_t n = mask.size();
  if (n == 0) return 0;
  const ndarray count = empty({1}, dtype(type_id::int64));
  cub_count_true(static_cast<const std::uint8_t*>(mask.data()), n, static_cast<std::int64_t*>(count.data()), stream,
                 temp.callback());
  std::int64_t total = 0;
  (void)device;
  cuda::detail::check(cudaMemcpyAsync(&total, count.data(), 8, cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return total;
}

}  // namespace
#endif

ndarray flatnonzero(const ndarray& mask) {
#if CUPP_HAVE_AOT_ACCELERATORS
  const int device = mask.device();
  detail::device_scope scope(device);
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  pool_temp temp(device, stream);
  const std::int64_t total = count_true(mask, device, stream, temp);
  ndarray out = empty({total}, dtype(type_id::int64));
  if (total > 0)
    cub_select_positions(static_cast<const std::uint8_t*>(mask.data()), mask.size(),
                         static_cast<std::int64_t*>(out.data()), stream, temp.callback());
  return out;
#else
  (void)mask;
  throw ValueError("internal: cupp was built without the CUB accelerators");
#endif
}

ndarray mask_select(const ndarray& a, const ndarray& mask) {
#if CUPP_HAVE_AOT_ACCELERATORS
  const int device = a.device();
  detail::device_scope scope(device);
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  pool_temp temp(device, stream);
  const std::int64_t total = count_true(mask, device, stream, temp);
  ndarray out = empty({total}, a.dtype());
  if (total > 0)
    cub_select_flagged(static_cast<int>(a.itemsize()), a.data(), static_cast<const std::uint8_t*>(mask.data()),
                       mask.size(), out.data(), stream, temp.callback());
  return out;
#else
  (void)a;
  (void)mask;
  throw ValueError("internal: cupp was built without the CUB accelerators");
#endif
}

}  // namespace cupp::detail::accel
