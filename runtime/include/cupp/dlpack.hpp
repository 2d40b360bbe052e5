// DLPack exchange: cupp::ndarray <-> DLManagedTensorVersioned / DLManagedTensor, zero-copy both
// ways (docs/arrays.md, "DLPack").
//
// Export: to_dlpack_versioned / to_dlpack hand out a tensor that views the array's memory and
// keeps it alive until the consumer calls the tensor's deleter (exactly once). Strides become
// element strides (a byte stride that is not a multiple of the itemsize is a ValueError);
// read-only arrays carry DLPACK_FLAG_BITMASK_READ_ONLY in the versioned form. Which form to
// hand out is the consumer's choice, as in the Python protocol's __dlpack__(max_version=...):
// to_dlpack_for(a, max_version) gives the versioned form to a consumer that knows DLPack 1.x,
// the unversioned one otherwise. CUPP_DLPACK_EXPORT_VERSION (default 0.6, as CuPy's variable)
// chooses how managed memory is reported: below 1.0 as kDLCUDA, from 1.0 as kDLCUDAManaged.
//
// Streams (the Python array API protocol): to_dlpack*(a, consumer_stream) makes the consumer's
// stream wait for cupp's current stream (an event; nothing when they are the same stream).
// cudaStreamLegacy (1) and cudaStreamPerThread (2) are valid handles, as the protocol's stream
// numbers 1 and 2 are.
//
// Import: from_dlpack takes over the tensor on success: the ndarray's owner calls the producer's
// deleter once the last view goes. On error (ValueError / TypeError) the tensor is untouched and
// still the caller's. Only CUDA device memory (kDLCUDA, kDLCUDAManaged) is accepted. With a
// producer stream, cupp's current stream waits for it (an event) unless
// CUPP_CUDA_ARRAY_INTERFACE_SYNC=0; without one, the caller guarantees the producer's work is
// ordered before cupp's current stream, as a producer's __dlpack__(stream=cupp's stream) does.
#pragma once

#include <optional>

#include "cupp/cuda/stream.hpp"
#include "cupp/dlpack.h"
#include "cupp/ndarray.hpp"

namespace cupp {

// DLPack 1.x versioned export (what __dlpack__(max_version=(1, x)) returns).
DLManagedTensorVersioned* to_dlpack_versioned(const ndarray& a);
DLManagedTensorVersioned* to_dlpack_versioned(const ndarray& a, cuda::stream_handle consumer_stream);
// The legacy unversioned export, for consumers older than DLPack 1.0.
DLManagedTensor* to_dlpack(const ndarray& a);
DLManagedTensor* to_dlpack(const ndarray& a, cuda::stream_handle consumer_stream);

// One of the two forms, as the protocol picks it from the consumer's max_version: versioned
// when the consumer's major version is >= 1, unversioned when it gave none or an older one.
struct dlpack_export {
  DLManagedTensorVersioned* versioned = nullptr;  // exactly one of the two is set
  DLManagedTensor* unversioned = nullptr;
};
dlpack_export to_dlpack_for(const ndarray& a, std::optional<DLPackVersion> consumer_max_version,
                            std::optional<cuda::stream_handle> consumer_stream = std::nullopt);

// Import (zero-copy). The array is read-only when the versioned tensor is flagged so.
ndarray from_dlpack(DLManagedTensorVersioned* tensor);
ndarray from_dlpack(DLManagedTensorVersioned* tensor, cuda::stream_handle producer_stream);
ndarray from_dlpack(DLManagedTensor* tensor);
ndarray from_dlpack(DLManagedTensor* tensor, cuda::stream_handle producer_stream);

namespace detail {
// DLPack's dtype for a cupp dtype (TypeError for void / structured), and back (TypeError naming
// the code, bits and lanes for what cupp has no dtype for).
DLDataType to_dl_dtype(const cupp::dtype& type);
cupp::dtype from_dl_dtype(DLDataType type);
// How memory is reported on export: kDLCUDAManaged for managed memory when the export version
// (CUPP_DLPACK_EXPORT_VERSION) is >= 1.0, else kDLCUDA.
DLDeviceType export_device_type(bool is_managed, int export_major, int export_minor) noexcept;
}  // namespace detail

}  // namespace cupp
