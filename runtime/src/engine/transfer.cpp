// The CUDA side of ndarray: creation (empty, zeros), wrapping device pointers, copies, downloads
// (blocking and non-blocking), uploads (staged through pinned memory, or straight from pinned
// host memory), assignment and fill. Contiguous data moves with cudaMemcpyAsync; strided copies,
// broadcasts and casts of built-in dtypes run the element-wise engine's copy kernel
// (engine/internal.hpp); structured and void dtypes are gathered or scattered on the host over
// the byte range the view spans. Every CUDA call is checked.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "array/access.hpp"
#include "array/convert.hpp"
#include "array/layout.hpp"
#include "cuda/check.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"
#include "engine/internal.hpp"

namespace cupp {

using access = ndarray_access;
using cuda::detail::check;

namespace {

cudaStream_t stream_now() { return cuda::current_stream().handle(); }

bool is_pinned_host(const void* p) {
  cudaPointerAttributes attr{};
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    cudaGetLastError();  // not a CUDA pointer: clear the (non-sticky) error
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

// Host bytes to device memory on the current stream, as upload_options says.
void upload(void* dst, const void* src, std::size_t n, const upload_options& options, bool src_is_temporary) {
  if (n == 0) return;
  const cudaStream_t stream = stream_now();
  if (options.blocking) {
    check(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return;
  }
  if (!src_is_temporary && is_pinned_host(src)) {
    check(cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
    return;
  }
  // Staged: the pinned block goes back to its pool fenced by this stream, so it is reused only
  // after the copy has run.
  cuda::PinnedMemory staging = cuda::alloc_pinned_memory(n);
  std::memcpy(staging.ptr(), src, n);
  check(cudaMemcpyAsync(dst, staging.ptr(), n, cudaMemcpyHostToDevice, stream), "cudaMemcpyAsync");
  staging.set_stream(stream);
}

// The bytes [data + low, data + high) of an array, to the host (blocking).
std::vector<std::byte> download_span(const ndarray& a, const layout::byte_extent& e) {
  std::vector<std::byte> bytes(static_cast<std::size_t>(e.high - e.low));
  if (bytes.empty()) return bytes;
  const cudaStream_t stream = stream_now();
  check(cudaMemcpyAsync(bytes.data(), static_cast<std::byte*>(a.data()) + e.low, bytes.size(), cudaMemcpyDeviceToHost,
                        stream),
        "cudaMemcpyAsync");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return bytes;
}

// Copies the elements of a strided array held in `span` (starting at byte `low` of the view)
// into a contiguous C-order buffer.
void gather(const std::byte* span, std::int64_t low, const ndarray& a, std::byte* out) {
  const std::size_t item = a.itemsize();
  std::size_t k = 0;
  layout::for_each_offset(a.shape(), a.strides(), [&](std::int64_t off) {
    std::memcpy(out + k * item, span + (off - low), item);
    ++k;
  });
}

layout::byte_extent extent_of(const ndarray& a) {
  return layout::extent(a.shape(), a.strides(), static_cast<std::int64_t>(a.itemsize()));
}

// Writes a contiguous C-order host buffer of a's shape and dtype into a's elements.
void write_elements(const ndarray& a, const std::byte* host, const upload_options& options, bool host_is_temporary) {
  if (a.size() == 0) return;
  if (a.is_c_contiguous()) {
    upload(a.data(), host, a.nbytes(), options, host_is_temporary);
    return;
  }
  // Strided: read the spanned bytes, put the elements in place, write the span back.
  const layout::byte_extent e = extent_of(a);
  std::vector<std::byte> span = download_span(a, e);
  const std::size_t item = a.itemsize();
  std::size_t k = 0;
  layout::for_each_offset(a.shape(), a.strides(), [&](std::int64_t off) {
    std::memcpy(span.data() + (off - e.low), host + k * item, item);
    ++k;
  });
  upload(static_cast<std::byte*>(a.data()) + e.low, span.data(), span.size(), options, true);
}

void check_assign_cast(const dtype& from, const dtype& to) {
  if (from == to) return;
  if (!from.is_builtin() || !to.is_builtin()) {
    detail::require_not_structured(from, "assign");
    detail::require_not_structured(to, "assign");
    throw TypeError("Cannot cast array data from dtype('" + from.name() + "') to dtype('" + to.name() + "')");
  }
  if (!can_cast(from, to, casting::same_kind))
    throw TypeError("Cannot cast array data from dtype('" + from.name() + "') to dtype('" + to.name() +
                    "') according to the rule 'same_kind'");
}

}  // namespace

// ---- creation

ndarray empty(std::span<const std::int64_t> shape, cupp::dtype type) {
  const std::int64_t n = layout::checked_size(shape);
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(n), type.itemsize(), &bytes))
    throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  std::shared_ptr<cuda::Memory> memory = cuda::alloc_shared(bytes);
  void* base = memory->ptr();
  const int device = bytes ? memory->device() : cuda::current_device();
  layout::strided where{shape_t(shape.begin(), shape.end()), layout::c_strides(shape, static_cast<std::int64_t>(type.itemsize())), 0};
  return access::make(std::move(memory), base, device, type, std::move(where), true);
}

ndarray empty(std::initializer_list<std::int64_t> shape, cupp::dtype type) {
  return empty(std::span<const std::int64_t>(shape.begin(), shape.size()), type);
}

ndarray zeros(std::span<const std::int64_t> shape, cupp::dtype type) {
  ndarray a = empty(shape, type);
  if (a.nbytes()) check(cudaMemsetAsync(a.data(), 0, a.nbytes(), stream_now()), "cudaMemsetAsync");
  return a;
}

ndarray zeros(std::initializer_list<std::int64_t> shape, cupp::dtype type) {
  return zeros(std::span<const std::int64_t>(shape.begin(), shape.size()), type);
}

ndarray from_device_pointer(void* ptr, cupp::dtype type, std::span<const std::int64_t> shape,
                            std::span<const std::int64_t> strides, memory_owner owner, int device) {
  const std::int64_t n = layout::checked_size(shape);
  if (!strides.empty() && strides.size() != shape.size())
    throw ValueError("from_device_pointer: " + std::to_string(strides.size()) + " strides for " +
                     std::to_string(shape.size()) + " dimensions");
  if (ptr == nullptr && n != 0) throw ValueError("from_device_pointer: null pointer for a non-empty array");
  if (device < 0) {
    cudaPointerAttributes attr{};
    check(cudaPointerGetAttributes(&attr, ptr), "cudaPointerGetAttributes");
    if (attr.type != cudaMemoryTypeDevice && attr.type != cudaMemoryTypeManaged)
      throw ValueError("from_device_pointer: the pointer is not device memory (pass the device explicitly to wrap it anyway)");
    device = attr.device;
  }
  layout::strided where{shape_t(shape.begin(), shape.end()),
                        strides.empty() ? layout::c_strides(shape, static_cast<std::int64_t>(type.itemsize()))
                                        : shape_t(strides.begin(), strides.end()),
                        0};
  return access::make(std::move(owner), ptr, device, type, std::move(where), true);
}

// ---- copies and downloads

ndarray ndarray::copy() const {
  detail::require_array(*this, "copy");
  cuda::DeviceGuard guard(device_);
  ndarray out = empty(shape_, dtype_);
  if (size_ == 0) return out;
  if (is_c_contiguous()) {
    check(cudaMemcpyAsync(out.data(), data(), nbytes(), cudaMemcpyDeviceToDevice, stream_now()), "cudaMemcpyAsync");
    return out;
  }
  if (dtype_.is_builtin()) {
    engine::copy_into(out, *this);  // the strided copy kernel
    return out;
  }
  const host_array h = get();
  upload(out.data(), h.data(), h.nbytes(), {}, true);
  return out;
}

host_array ndarray::get() const {
  detail::require_array(*this, "get");
  host_array h(dtype_, shape_t(shape_.begin(), shape_.end()));
  if (size_ == 0) return h;
  cuda::DeviceGuard guard(device_);
  if (is_c_contiguous()) {
    const cudaStream_t stream = stream_now();
    check(cudaMemcpyAsync(h.data(), data(), nbytes(), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return h;
  }
  const layout::byte_extent e = extent_of(*this);
  const std::vector<std::byte> span = download_span(*this, e);
  gather(span.data(), e.low, *this, h.data());
  return h;
}

struct pending_host_array::state {
  cuda::PinnedMemory pinned;
  cuda::Event done;
  ndarray source;  // keeps the device memory alive and gives the layout
  layout::byte_extent extent;

  state() : done(cuda::event_options{.disable_timing = true}) {}
  ~state() {
    try {
      done.synchronize();
    } catch (...) {  // never throw from a destructor; a sticky error is reported by the next call
    }
  }
  state(const state&) = delete;
  state& operator=(const state&) = delete;
};

void ndarray_access::set_pending(pending_host_array& p, std::unique_ptr<pending_host_array::state> s) {
  p.state_ = std::move(s);
}

pending_host_array::pending_host_array() noexcept = default;
pending_host_array::pending_host_array(pending_host_array&&) noexcept = default;
pending_host_array& pending_host_array::operator=(pending_host_array&&) noexcept = default;
pending_host_array::~pending_host_array() = default;

bool pending_host_array::ready() const {
  if (!state_) throw ValueError("pending_host_array: nothing pending (already waited for, or default-made)");
  return state_->done.query();
}

host_array pending_host_array::wait() {
  if (!state_) throw ValueError("pending_host_array: nothing pending (already waited for, or default-made)");
  std::unique_ptr<state> s = std::move(state_);
  s->done.synchronize();
  const ndarray& a = s->source;
  host_array h(a.dtype(), shape_t(a.shape().begin(), a.shape().end()));
  if (a.size() == 0) return h;
  const auto* span = static_cast<const std::byte*>(s->pinned.ptr());
  if (a.is_c_contiguous()) std::memcpy(h.data(), span, h.nbytes());
  else gather(span, s->extent.low, a, h.data());
  return h;
}

pending_host_array ndarray::get_nonblocking() const {
  detail::require_array(*this, "get_nonblocking");
  cuda::DeviceGuard guard(device_);
  auto s = std::make_unique<pending_host_array::state>();
  s->source = *this;
  s->extent = extent_of(*this);
  const std::size_t n = static_cast<std::size_t>(s->extent.high - s->extent.low);
  const cudaStream_t stream = stream_now();
  s->pinned = cuda::alloc_pinned_memory(n);
  s->pinned.set_stream(stream);
  if (n)
    check(cudaMemcpyAsync(s->pinned.ptr(), static_cast<std::byte*>(data()) + s->extent.low, n, cudaMemcpyDeviceToHost,
                          stream),
          "cudaMemcpyAsync");
  s->done.record(cuda::current_stream());
  pending_host_array p;
  access::set_pending(p, std::move(s));
  return p;
}

// ---- writing

void ndarray::assign(const host_array& source, upload_options options) const {
  detail::require_writeable(*this);
  check_assign_cast(source.dtype(), dtype_);
  shape_t src_strides = layout::c_strides(source.shape(), static_cast<std::int64_t>(source.itemsize()));
  try {
    src_strides = layout::broadcast_strides(source.shape(), src_strides, shape_);
  } catch (const ValueError&) {
    throw ValueError("could not broadcast input array from shape " + layout::tuple_string(source.shape()) +
                     " into shape " + layout::tuple_string(shape_));
  }
  if (size_ == 0) return;
  cuda::DeviceGuard guard(device_);
  const bool same_shape = std::equal(source.shape().begin(), source.shape().end(), shape_.begin(), shape_.end());
  if (same_shape && source.dtype() == dtype_ && !options.big_endian && is_c_contiguous()) {
    write_elements(*this, source.data(), options, false);
    return;
  }
  if (source.dtype().is_builtin() && dtype_.is_builtin()) {
    // Upload as it is, then broadcast and cast on the GPU.
    upload_options o = options;
    o.blocking = false;
    engine::copy_into(*this, asarray(source, o));
    if (options.blocking) check(cudaStreamSynchronize(stream_now()), "cudaStreamSynchronize");
    return;
  }
  // Bring the source to this shape and dtype on the host first.
  std::vector<std::byte> swapped;
  const std::byte* src = source.data();
  if (options.big_endian) {
    swapped.assign(source.bytes().begin(), source.bytes().end());
    detail::byteswap(swapped.data(), source.dtype(), static_cast<std::size_t>(source.size()));
    src = swapped.data();
  }
  std::vector<std::byte> expanded(static_cast<std::size_t>(size_) * source.itemsize());
  const std::size_t sitem = source.itemsize();
  std::size_t k = 0;
  layout::for_each_offset(shape_, src_strides, [&](std::int64_t off) {
    std::memcpy(expanded.data() + k * sitem, src + off, sitem);
    ++k;
  });
  std::vector<std::byte> converted(nbytes());
  detail::convert_elements(expanded.data(), source.dtype(), converted.data(), dtype_, static_cast<std::size_t>(size_));
  upload_options o = options;
  o.big_endian = false;
  write_elements(*this, converted.data(), o, true);
}

void ndarray::assign(const ndarray& source) const {
  detail::require_writeable(*this);
  detail::require_array(source, "assign");
  check_assign_cast(source.dtype(), dtype_);
  const bool same_shape = std::equal(source.shape().begin(), source.shape().end(), shape_.begin(), shape_.end());
  if (same_shape && source.dtype() == dtype_ && source.device() == device_ && is_c_contiguous() &&
      source.is_c_contiguous()) {
    if (size_ == 0 || source.data() == data()) return;
    const auto* s = static_cast<const std::byte*>(source.data());
    const auto* d = static_cast<const std::byte*>(data());
    const bool overlap = s < d + nbytes() && d < s + nbytes();
    if (!overlap) {
      cuda::DeviceGuard guard(device_);
      check(cudaMemcpyAsync(data(), source.data(), nbytes(), cudaMemcpyDeviceToDevice, stream_now()), "cudaMemcpyAsync");
      return;
    }
  }
  if (source.dtype().is_builtin() && dtype_.is_builtin()) {
    engine::copy_into(*this, source);  // broadcasting, casting, overlap and devices handled there
    return;
  }
  assign(source.get());
}

void ndarray::fill(const weak_scalar& value) const {
  detail::require_writeable(*this);
  const std::vector<std::byte> element = detail::scalar_bytes(value, dtype_);
  if (size_ == 0) return;
  cuda::DeviceGuard guard(device_);
  const bool uniform = std::all_of(element.begin(), element.end(), [&](std::byte b) { return b == element[0]; });
  if (uniform && is_c_contiguous()) {
    check(cudaMemsetAsync(data(), std::to_integer<int>(element[0]), nbytes(), stream_now()), "cudaMemsetAsync");
    return;
  }
  if (dtype_.is_builtin()) {
    engine::fill_with(*this, element);
    return;
  }
  std::vector<std::byte> host(nbytes());
  for (std::size_t i = 0; i < host.size(); i += element.size())
    std::memcpy(host.data() + i, element.data(), element.size());
  write_elements(*this, host.data(), {}, true);
}

const ndarray& ndarray::operator=(const ndarray& source) && {
  assign(source);
  return *this;
}

const ndarray& ndarray::operator=(const host_array& source) && {
  assign(source);
  return *this;
}

const ndarray& ndarray::operator=(const weak_scalar& value) && {
  fill(value);
  return *this;
}

// ---- host data in

ndarray asarray(const void* host, cupp::dtype type, std::span<const std::int64_t> shape, upload_options options) {
  ndarray a = empty(shape, type);
  if (a.nbytes() == 0) return a;
  if (host == nullptr) throw ValueError("asarray: null host pointer");
  if (options.big_endian) {
    std::vector<std::byte> swapped(static_cast<const std::byte*>(host), static_cast<const std::byte*>(host) + a.nbytes());
    detail::byteswap(swapped.data(), type, static_cast<std::size_t>(a.size()));
    upload(a.data(), swapped.data(), swapped.size(), options, true);
  } else {
    upload(a.data(), host, a.nbytes(), options, false);
  }
  return a;
}

ndarray asarray(const host_array& host, upload_options options) {
  return asarray(host.data(), host.dtype(), host.shape(), options);
}

ndarray asarray(const std::vector<bool>& values, upload_options options) {
  std::vector<unsigned char> bytes(values.begin(), values.end());
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  return asarray(bytes.data(), bool_, std::span<const std::int64_t>(&n, 1), options);
}

namespace detail {

ndarray array_from_values(const void* data, cupp::dtype type, const shape_t& shape) {
  return asarray(data, type, shape, {});
}

}  // namespace detail

}  // namespace cupp
