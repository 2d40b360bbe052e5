// A small C-ABI shared library through which check_interop.py (ctypes) exchanges DLPack tensors
// between cupp and PyTorch / CuPy on the GPU machine: it makes cupp arrays (arange data filled
// on the host, then uploaded) and exports them, imports foreign tensors and sums them on the
// host, and counts deleter calls on both sides so the script can check "exactly once".
// Errors never cross the C boundary: they are printed to stderr and reported as -1.
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cupp/dlpack.hpp"
#include "cupp/errors.hpp"
#include "cupp/float16.hpp"
#include "cupp/ndarray.hpp"

#define CUPP_INTEROP_API extern "C" __attribute__((visibility("default")))

namespace {

using cupp::cuda::stream_handle;

std::mutex registry_mutex;
std::map<int, cupp::ndarray> arrays;  // cupp arrays the script refers to by id
int next_id = 1;
std::vector<cupp::ndarray> held;      // imported arrays kept alive until cupp_release_held

int export_deletes = 0;   // cupp-exported tensors deleted by their consumer
int foreign_deletes = 0;  // foreign tensors whose deleter cupp called
void (*cupp_versioned_deleter)(DLManagedTensorVersioned*) = nullptr;
void (*cupp_unversioned_deleter)(DLManagedTensor*) = nullptr;
std::map<void*, void (*)(DLManagedTensorVersioned*)> foreign_versioned_deleters;
std::map<void*, void (*)(DLManagedTensor*)> foreign_unversioned_deleters;

void report(const char* where, const std::exception& e) { std::fprintf(stderr, "%s: %s\n", where, e.what()); }

// Counting wrappers around cupp's own deleters (exports) and the producers' (imports).
extern "C" void counting_export_deleter_v(DLManagedTensorVersioned* t) {
  {
    std::lock_guard lock(registry_mutex);
    ++export_deletes;
  }
  cupp_versioned_deleter(t);
}
extern "C" void counting_export_deleter_u(DLManagedTensor* t) {
  {
    std::lock_guard lock(registry_mutex);
    ++export_deletes;
  }
  cupp_unversioned_deleter(t);
}
extern "C" void counting_foreign_deleter_v(DLManagedTensorVersioned* t) {
  void (*original)(DLManagedTensorVersioned*) = nullptr;
  {
    std::lock_guard lock(registry_mutex);
    ++foreign_deletes;
    original = foreign_versioned_deleters[t];
    foreign_versioned_deleters.erase(t);
  }
  if (original != nullptr) original(t);
}
extern "C" void counting_foreign_deleter_u(DLManagedTensor* t) {
  void (*original)(DLManagedTensor*) = nullptr;
  {
    std::lock_guard lock(registry_mutex);
    ++foreign_deletes;
    original = foreign_unversioned_deleters[t];
    foreign_unversioned_deleters.erase(t);
  }
  if (original != nullptr) original(t);
}

// The value element i of an arange-like fill gets (complex: imaginary part 0.5, bool: odd i).
void put(std::byte* p, const cupp::dtype& type, std::int64_t i) {
  using cupp::type_id;
  const auto store = [p](auto v) { std::memcpy(p, &v, sizeof v); };
  switch (type.id()) {
    case type_id::bool_: store(static_cast<unsigned char>(i % 2)); break;
    case type_id::int8: store(static_cast<std::int8_t>(i)); break;
    case type_id::int16: store(static_cast<std::int16_t>(i)); break;
    case type_id::int32: store(static_cast<std::int32_t>(i)); break;
    case type_id::int64: store(static_cast<std::int64_t>(i)); break;
    case type_id::uint8: store(static_cast<std::uint8_t>(i)); break;
    case type_id::uint16: store(static_cast<std::uint16_t>(i)); break;
    case type_id::uint32: store(static_cast<std::uint32_t>(i)); break;
    case type_id::uint64: store(static_cast<std::uint64_t>(i)); break;
    case type_id::float16: store(cupp::float16_t(static_cast<double>(i))); break;
    case type_id::bfloat16: store(cupp::bfloat16_t(static_cast<double>(i))); break;
    case type_id::float32: store(static_cast<float>(i)); break;
    case type_id::float64: store(static_cast<double>(i)); break;
    case type_id::complex64: store(std::complex<float>(static_cast<float>(i), 0.5f)); break;
    case type_id::complex128: store(std::complex<double>(static_cast<double>(i), 0.5)); break;
    default: throw cupp::TypeError("interop: unsupported dtype " + type.name());
  }
}

// An element as a double (complex: real + imaginary part).
double value(const std::byte* p, const cupp::dtype& type) {
  using cupp::type_id;
  const auto load = [p]<class T>(T) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  switch (type.id()) {
    case type_id::bool_: return load(static_cast<unsigned char>(0)) != 0 ? 1.0 : 0.0;
    case type_id::int8: return load(std::int8_t{});
    case type_id::int16: return load(std::int16_t{});
    case type_id::int32: return load(std::int32_t{});
    case type_id::int64: return static_cast<double>(load(std::int64_t{}));
    case type_id::uint8: return load(std::uint8_t{});
    case type_id::uint16: return load(std::uint16_t{});
    case type_id::uint32: return load(std::uint32_t{});
    case type_id::uint64: return static_cast<double>(load(std::uint64_t{}));
    case type_id::float16: return static_cast<float>(load(cupp::float16_t{}));
    case type_id::bfloat16: return static_cast<float>(load(cupp::bfloat16_t{}));
    case type_id::float32: return load(0.0f);
    case type_id::float64: return load(0.0);
    case type_id::complex64: {
      const auto c = load(std::complex<float>{});
      return static_cast<double>(c.real()) + c.imag();
    }
    case type_id::complex128: {
      const auto c = load(std::complex<double>{});
      return c.real() + c.imag();
    }
    default: throw cupp::TypeError("interop: unsupported dtype " + type.name());
  }
}

double host_sum(const cupp::ndarray& a) {
  const cupp::host_array h = a.get();  // C-contiguous on the host
  double sum = 0;
  for (std::int64_t i = 0; i < h.size(); ++i) sum += value(h.data() + i * h.itemsize(), h.dtype());
  return sum;
}

}  // namespace

// ---- cupp -> consumer

// A new cupp array on the current device: arange(rows * cols) of `dtype` (a NumPy name) shaped
// (rows, cols), transposed when `transpose` (a strided view). cols < 0: 1-d of length rows.
// Returns an id (> 0) or -1.
CUPP_INTEROP_API int cupp_array_new(std::int64_t rows, std::int64_t cols, const char* dtype, int transpose) {
  try {
    const cupp::dtype type = cupp::dtype::parse(dtype);
    const std::int64_t n = cols < 0 ? rows : rows * cols;
    cupp::host_array h(type, cupp::shape_t{n});
    for (std::int64_t i = 0; i < n; ++i) put(h.data() + i * h.itemsize(), type, i);
    cupp::ndarray a = cupp::asarray(h, {.blocking = true});
    if (cols >= 0) a = a.reshape({rows, cols});
    if (transpose) a = a.T();
    std::lock_guard lock(registry_mutex);
    arrays.emplace(next_id, a);
    return next_id++;
  } catch (const std::exception& e) {
    report("cupp_array_new", e);
    return -1;
  }
}

// Drops the script's reference to an array (exported tensors keep its memory alive).
CUPP_INTEROP_API void cupp_array_free(int id) {
  std::lock_guard lock(registry_mutex);
  arrays.erase(id);
}

// Exports an array: versioned (DLManagedTensorVersioned*) or not (DLManagedTensor*). stream:
// the consumer's stream handle (1 legacy default, 2 per-thread default, else a cudaStream_t), or
// -1 for no synchronisation. Null on error.
CUPP_INTEROP_API void* cupp_array_export(int id, int versioned, std::int64_t stream) {
  try {
    cupp::ndarray a;
    {
      std::lock_guard lock(registry_mutex);
      a = arrays.at(id);
    }
    const auto consumer = reinterpret_cast<stream_handle>(static_cast<std::intptr_t>(stream));
    if (versioned) {
      DLManagedTensorVersioned* t = stream == -1 ? cupp::to_dlpack_versioned(a) : cupp::to_dlpack_versioned(a, consumer);
      cupp_versioned_deleter = t->deleter;
      t->deleter = &counting_export_deleter_v;
      return t;
    }
    DLManagedTensor* t = stream == -1 ? cupp::to_dlpack(a) : cupp::to_dlpack(a, consumer);
    cupp_unversioned_deleter = t->deleter;
    t->deleter = &counting_export_deleter_u;
    return t;
  } catch (const std::exception& e) {
    report("cupp_array_export", e);
    return nullptr;
  }
}

// The brief's short forms: a 1-d arange of n elements, exported at once (no stream sync).
CUPP_INTEROP_API DLManagedTensorVersioned* cupp_make_arange(std::int64_t n, const char* dtype) {
  const int id = cupp_array_new(n, -1, dtype, 0);
  if (id < 0) return nullptr;
  auto* t = static_cast<DLManagedTensorVersioned*>(cupp_array_export(id, 1, -1));
  cupp_array_free(id);
  return t;
}
CUPP_INTEROP_API DLManagedTensor* cupp_make_arange_unversioned(std::int64_t n, const char* dtype) {
  const int id = cupp_array_new(n, -1, dtype, 0);
  if (id < 0) return nullptr;
  auto* t = static_cast<DLManagedTensor*>(cupp_array_export(id, 0, -1));
  cupp_array_free(id);
  return t;
}

CUPP_INTEROP_API int cupp_export_deletes() {
  std::lock_guard lock(registry_mutex);
  return export_deletes;
}

// ---- producer -> cupp

// Imports a foreign tensor (versioned or not; the caller has marked its capsule used, so cupp
// owns it from here, even on error). producer_stream: the producer's stream, or -1 for none.
// Writes ndim, shape, byte strides (up to 64 each), read-only flag, dtype name (32 bytes) and
// the host sum of the elements. hold: keep the imported array alive until cupp_release_held.
// Returns 0, or -1 on error.
CUPP_INTEROP_API int cupp_import(void* tensor, int versioned, std::int64_t producer_stream, int hold, int* ndim_out,
                                 std::int64_t* shape_out, std::int64_t* strides_out, int* read_only_out,
                                 char* dtype_out, double* sum_out) {
  if (tensor == nullptr) return -1;
  {
    std::lock_guard lock(registry_mutex);
    if (versioned) {
      auto* t = static_cast<DLManagedTensorVersioned*>(tensor);
      foreign_versioned_deleters[t] = t->deleter;
      t->deleter = &counting_foreign_deleter_v;
    } else {
      auto* t = static_cast<DLManagedTensor*>(tensor);
      foreign_unversioned_deleters[t] = t->deleter;
      t->deleter = &counting_foreign_deleter_u;
    }
  }
  cupp::ndarray a;
  try {
    const auto producer = reinterpret_cast<stream_handle>(static_cast<std::intptr_t>(producer_stream));
    if (versioned) {
      auto* t = static_cast<DLManagedTensorVersioned*>(tensor);
      a = producer_stream == -1 ? cupp::from_dlpack(t) : cupp::from_dlpack(t, producer);
    } else {
      auto* t = static_cast<DLManagedTensor*>(tensor);
      a = producer_stream == -1 ? cupp::from_dlpack(t) : cupp::from_dlpack(t, producer);
    }
  } catch (const std::exception& e) {
    report("cupp_import", e);
    // Not taken over by cupp: release it here, since the capsule was already marked used.
    if (versioned) {
      auto* t = static_cast<DLManagedTensorVersioned*>(tensor);
      if (t->deleter) t->deleter(t);
    } else {
      auto* t = static_cast<DLManagedTensor*>(tensor);
      if (t->deleter) t->deleter(t);
    }
    return -1;
  }
  try {
    *ndim_out = a.ndim();
    for (int k = 0; k < a.ndim(); ++k) {
      shape_out[k] = a.shape()[k];
      strides_out[k] = a.strides()[k];
    }
    *read_only_out = a.writeable() ? 0 : 1;
    std::snprintf(dtype_out, 32, "%s", a.dtype().name().c_str());
    *sum_out = host_sum(a);
    if (hold) {
      std::lock_guard lock(registry_mutex);
      held.push_back(a);
    }
    return 0;
  } catch (const std::exception& e) {
    report("cupp_import", e);
    return -1;
  }
}

// The brief's short forms: import, sum on the host, release. NaN on error.
CUPP_INTEROP_API double cupp_sum_from_dlpack(DLManagedTensorVersioned* tensor) {
  int ndim = 0, read_only = 0;
  std::int64_t shape[64], strides[64];
  char dtype[32];
  double sum = 0;
  return cupp_import(tensor, 1, -1, 0, &ndim, shape, strides, &read_only, dtype, &sum) == 0 ? sum : __builtin_nan("");
}
CUPP_INTEROP_API double cupp_sum_from_dlpack_unversioned(DLManagedTensor* tensor) {
  int ndim = 0, read_only = 0;
  std::int64_t shape[64], strides[64];
  char dtype[32];
  double sum = 0;
  return cupp_import(tensor, 0, -1, 0, &ndim, shape, strides, &read_only, dtype, &sum) == 0 ? sum : __builtin_nan("");
}

// Drops the imported arrays kept by hold=1 (their producers' deleters run now).
CUPP_INTEROP_API void cupp_release_held() {
  std::vector<cupp::ndarray> drop;
  {
    std::lock_guard lock(registry_mutex);
    drop.swap(held);
  }
}

CUPP_INTEROP_API int cupp_foreign_deletes() {
  std::lock_guard lock(registry_mutex);
  return foreign_deletes;
}
