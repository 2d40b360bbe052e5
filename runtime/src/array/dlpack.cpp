// DLPack export and import for cupp::ndarray (cupp/dlpack.hpp has the rules): the exported
// structs live in a holder that also keeps the array (and so its memory) alive; the holder is
// released into manager_ctx and reclaimed by the deleter. An imported tensor is kept by an owner
// object whose destructor calls the producer's deleter once.
#include "cupp/dlpack.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <type_traits>

#include "array/access.hpp"
#include "array/layout.hpp"
#include "cuda/check.hpp"
#include "cupp/config.hpp"
#include "cupp/errors.hpp"

namespace cupp {

using access = ndarray_access;

namespace {

// ---- export

template <class Managed>
struct export_holder {
  ndarray array;            // keeps the memory alive
  shape_t shape, strides;   // what dl_tensor.shape / strides point to (strides in elements)
  Managed managed{};
};

template <class Managed>
void delete_export(Managed* self) noexcept {
  if (self == nullptr) return;
  // Reclaims the holder released in export_array; destroying it drops the array's reference.
  std::unique_ptr<export_holder<Managed>> reclaim(static_cast<export_holder<Managed>*>(self->manager_ctx));
}

bool is_managed_memory(const void* ptr) noexcept {
  if (ptr == nullptr) return false;
  cudaPointerAttributes attr{};
  const cudaError_t err = cudaPointerGetAttributes(&attr, ptr);
  if (err != cudaSuccess) {
    cuda::detail::ignore(err);
    return false;
  }
  return attr.type == cudaMemoryTypeManaged;
}

shape_t element_strides(const ndarray& a) {
  const auto itemsize = static_cast<std::int64_t>(a.itemsize());
  const auto shape = a.shape();
  const auto bytes = a.strides();
  shape_t out(shape.size());
  std::int64_t compact = 1;  // the C-order element stride, for axes whose stride does not matter
  for (std::size_t k = shape.size(); k-- > 0;) {
    if (bytes[k] % itemsize == 0) {
      out[k] = bytes[k] / itemsize;
    } else if (shape[k] <= 1) {
      out[k] = compact;  // never stepped along: any stride describes the same elements
    } else {
      throw ValueError("to_dlpack: the byte stride " + std::to_string(bytes[k]) + " of axis " + std::to_string(k) +
                       " is not a multiple of the itemsize " + std::to_string(itemsize) +
                       " (DLPack strides count elements)");
    }
    compact *= std::max<std::int64_t>(shape[k], 1);
  }
  return out;
}

void order_consumer_after_current(const ndarray& a, cuda::stream_handle consumer) {
  cuda::DeviceGuard guard(a.device());
  const cuda::Stream producer = cuda::current_stream();
  if (producer.handle() == consumer) return;
  cuda::Event ready(cuda::event_options{.disable_timing = true});
  ready.record(producer);
  cuda::Stream::wrap(consumer, a.device()).wait(ready);
}

template <class Managed>
Managed* export_array(const ndarray& a) {
  detail::require_array(a, "to_dlpack");
  auto holder = std::make_unique<export_holder<Managed>>();
  holder->array = a;
  holder->shape.assign(a.shape().begin(), a.shape().end());
  holder->strides = element_strides(a);
  DLTensor& t = holder->managed.dl_tensor;
  t.data = a.data();
  const auto& cfg = config::get();
  const bool managed = cfg.dlpack_export_major >= 1 && is_managed_memory(a.data());
  t.device = DLDevice{detail::export_device_type(managed, cfg.dlpack_export_major, cfg.dlpack_export_minor),
                      static_cast<std::int32_t>(a.device())};
  t.ndim = a.ndim();
  t.dtype = detail::to_dl_dtype(a.dtype());
  t.shape = holder->shape.empty() ? nullptr : holder->shape.data();
  t.strides = holder->strides.empty() ? nullptr : holder->strides.data();
  t.byte_offset = 0;
  holder->managed.deleter = &delete_export<Managed>;
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    holder->managed.version = DLPackVersion{DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION};
    holder->managed.flags = a.writeable() ? 0 : DLPACK_FLAG_BITMASK_READ_ONLY;
  }
  Managed* out = &holder->managed;
  out->manager_ctx = holder.release();  // reclaimed by delete_export
  return out;
}

// ---- import

// Owns an imported tensor: calls the producer's deleter once, when the last view goes.
template <class Managed>
struct import_owner {
  Managed* tensor = nullptr;  // null: disarmed (the import failed; the caller keeps the tensor)
  explicit import_owner(Managed* t) noexcept : tensor(t) {}
  import_owner(const import_owner&) = delete;
  import_owner& operator=(const import_owner&) = delete;
  ~import_owner() {
    if (tensor != nullptr && tensor->deleter != nullptr) tensor->deleter(tensor);
  }
};

std::string device_type_name(std::int32_t type) {
  switch (type) {
    case kDLCPU: return "kDLCPU";
    case kDLCUDA: return "kDLCUDA";
    case kDLCUDAHost: return "kDLCUDAHost";
    case kDLCUDAManaged: return "kDLCUDAManaged";
    case kDLROCM: return "kDLROCM";
    case kDLROCMHost: return "kDLROCMHost";
    default: return "device type " + std::to_string(type);
  }
}

template <class Managed>
ndarray import_tensor(Managed* managed, bool read_only, const cuda::stream_handle* producer) {
  if (managed == nullptr) throw ValueError("from_dlpack: null tensor");
  if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) {
    if (managed->version.major != DLPACK_MAJOR_VERSION)
      throw ValueError("from_dlpack: DLPack major version " + std::to_string(managed->version.major) +
                       " is not supported (cupp reads " + std::to_string(DLPACK_MAJOR_VERSION) + ".x)");
  }
  const DLTensor& t = managed->dl_tensor;
  const auto device_type = static_cast<std::int32_t>(t.device.device_type);
  if (device_type != kDLCUDA && device_type != kDLCUDAManaged)
    throw ValueError("from_dlpack needs device memory (kDLCUDA or kDLCUDAManaged); the tensor is on " +
                     device_type_name(device_type));
  if (t.device.device_id < 0) throw ValueError("from_dlpack: negative device id " + std::to_string(t.device.device_id));
  if (t.ndim < 0 || t.ndim > max_ndim)
    throw ValueError("from_dlpack: ndim " + std::to_string(t.ndim) + " is out of range (0.." + std::to_string(max_ndim) + ")");
  if (t.ndim > 0 && t.shape == nullptr) throw ValueError("from_dlpack: null shape");
  const cupp::dtype type = detail::from_dl_dtype(t.dtype);
  const auto itemsize = static_cast<std::int64_t>(type.itemsize());
  shape_t shape(t.shape, t.shape + t.ndim);
  for (std::int64_t n : shape)
    if (n < 0) throw ValueError("from_dlpack: negative dimension " + std::to_string(n));
  shape_t strides;  // bytes; empty: C order
  if (t.strides != nullptr) {
    strides.assign(t.strides, t.strides + t.ndim);
    for (auto& s : strides) s *= itemsize;
  }
  void* data = t.data == nullptr ? nullptr : static_cast<std::byte*>(t.data) + t.byte_offset;

  if (producer != nullptr && config::get().cuda_array_interface_sync) {
    cuda::DeviceGuard guard(t.device.device_id);
    const cuda::Stream consumer = cuda::current_stream();
    if (consumer.handle() != *producer) {
      cuda::Event ready(cuda::event_options{.disable_timing = true});
      ready.record(cuda::Stream::wrap(*producer, t.device.device_id));
      consumer.wait(ready);
    }
  }

  auto owner = std::make_shared<import_owner<Managed>>(managed);
  try {
    ndarray a = from_device_pointer(data, type, shape, strides, owner, t.device.device_id);
    if (read_only) a = access::view(a, access::where(a), true);
    return a;
  } catch (...) {
    owner->tensor = nullptr;  // not taken over: the tensor stays the caller's
    throw;
  }
}

}  // namespace

namespace detail {

DLDataType to_dl_dtype(const cupp::dtype& type) {
  if (!type.is_builtin())
    throw TypeError("to_dlpack: dtype " + type.name() + " has no DLPack equivalent");
  const auto bits = static_cast<std::uint8_t>(type.itemsize() * 8);
  switch (type.id()) {
    case type_id::bool_: return {kDLBool, 8, 1};
    case type_id::bfloat16: return {kDLBfloat, 16, 1};
    default: break;
  }
  switch (type.kind()) {
    case 'i': return {kDLInt, bits, 1};
    case 'u': return {kDLUInt, bits, 1};
    case 'f': return {kDLFloat, bits, 1};
    case 'c': return {kDLComplex, bits, 1};
    default: throw TypeError("to_dlpack: dtype " + type.name() + " has no DLPack equivalent");
  }
}

cupp::dtype from_dl_dtype(DLDataType t) {
  const auto fail = [&]() -> cupp::dtype {
    throw TypeError("from_dlpack: unsupported DLPack dtype (code " + std::to_string(t.code) + ", bits " +
                    std::to_string(t.bits) + ", lanes " + std::to_string(t.lanes) + ")");
  };
  if (t.lanes != 1) return fail();
  switch (t.code) {
    case kDLBool:
      if (t.bits == 8) return type_id::bool_;
      break;
    case kDLInt:
      switch (t.bits) {
        case 8: return type_id::int8;
        case 16: return type_id::int16;
        case 32: return type_id::int32;
        case 64: return type_id::int64;
      }
      break;
    case kDLUInt:
      switch (t.bits) {
        case 8: return type_id::uint8;
        case 16: return type_id::uint16;
        case 32: return type_id::uint32;
        case 64: return type_id::uint64;
      }
      break;
    case kDLFloat:
      switch (t.bits) {
        case 16: return type_id::float16;
        case 32: return type_id::float32;
        case 64: return type_id::float64;
      }
      break;
    case kDLBfloat:
      if (t.bits == 16) return type_id::bfloat16;
      break;
    case kDLComplex:
      if (t.bits == 64) return type_id::complex64;
      if (t.bits == 128) return type_id::complex128;
      break;
  }
  return fail();
}

DLDeviceType export_device_type(bool is_managed, int export_major, int /*export_minor*/) noexcept {
  return is_managed && export_major >= 1 ? kDLCUDAManaged : kDLCUDA;
}

}  // namespace detail

// ---- public API

DLManagedTensorVersioned* to_dlpack_versioned(const ndarray& a) { return export_array<DLManagedTensorVersioned>(a); }

DLManagedTensorVersioned* to_dlpack_versioned(const ndarray& a, cuda::stream_handle consumer_stream) {
  detail::require_array(a, "to_dlpack");
  order_consumer_after_current(a, consumer_stream);
  return to_dlpack_versioned(a);
}

DLManagedTensor* to_dlpack(const ndarray& a) { return export_array<DLManagedTensor>(a); }

DLManagedTensor* to_dlpack(const ndarray& a, cuda::stream_handle consumer_stream) {
  detail::require_array(a, "to_dlpack");
  order_consumer_after_current(a, consumer_stream);
  return to_dlpack(a);
}

dlpack_export to_dlpack_for(const ndarray& a, std::optional<DLPackVersion> consumer_max_version,
                            std::optional<cuda::stream_handle> consumer_stream) {
  dlpack_export out;
  const bool versioned = consumer_max_version && consumer_max_version->major >= 1;
  if (versioned) {
    out.versioned = consumer_stream ? to_dlpack_versioned(a, *consumer_stream) : to_dlpack_versioned(a);
  } else {
    out.unversioned = consumer_stream ? to_dlpack(a, *consumer_stream) : to_dlpack(a);
  }
  return out;
}

ndarray from_dlpack(DLManagedTensorVersioned* tensor) {
  const bool read_only = tensor != nullptr && (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  return import_tensor(tensor, read_only, nullptr);
}
ndarray from_dlpack(DLManagedTensorVersioned* tensor, cuda::stream_handle producer_stream) {
  const bool read_only = tensor != nullptr && (tensor->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  return import_tensor(tensor, read_only, &producer_stream);
}
ndarray from_dlpack(DLManagedTensor* tensor) { return import_tensor(tensor, false, nullptr); }
ndarray from_dlpack(DLManagedTensor* tensor, cuda::stream_handle producer_stream) {
  return import_tensor(tensor, false, &producer_stream);
}

}  // namespace cupp
