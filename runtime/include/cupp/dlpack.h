/* The DLPack C ABI (version 1.1), written for cupp from the DLPack specification
 * (https://dmlc.github.io/dlpack/latest/c_api.html): the structs and constants through which
 * cupp exchanges device arrays with PyTorch, CuPy, JAX and others without copying. Plain C;
 * the layout must match the specification exactly, since other libraries read these structs.
 * cupp/dlpack.hpp has cupp's to_dlpack / from_dlpack. */
#ifndef CUPP_DLPACK_H
#define CUPP_DLPACK_H

#include <stddef.h>
#include <stdint.h>

#define DLPACK_MAJOR_VERSION 1
#define DLPACK_MINOR_VERSION 1

/* Bits of DLManagedTensorVersioned::flags. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (UINT64_C(1) << 0)  /* the consumer must not write */
#define DLPACK_FLAG_BITMASK_IS_COPIED (UINT64_C(1) << 1)  /* the producer made a copy for this export */
#define DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED (UINT64_C(1) << 2)  /* sub-byte elements padded to a byte */

#ifdef __cplusplus
extern "C" {
#endif

/* A DLPack version: a consumer accepts a tensor whose major version it knows. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/* Where the memory lives. */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,          /* host memory */
  kDLCUDA = 2,         /* CUDA device memory */
  kDLCUDAHost = 3,     /* CUDA pinned host memory (cudaMallocHost) */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13, /* CUDA managed (unified) memory */
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17
} DLDeviceType;

typedef struct {
  DLDeviceType device_type;
  int32_t device_id; /* the device ordinal (the CUDA device number for kDLCUDA) */
} DLDevice;

/* The kind of an element; DLDataType::code holds one of these. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U, /* bits counts both parts: complex64 has 64 */
  kDLBool = 6U     /* bits 8 for one byte per element */
} DLDataTypeCode;

/* An element type: code, bits per lane, lanes (1 for scalars; more for vector types). */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/* A strided array view. Shape and strides have ndim entries; strides count ELEMENTS, not bytes,
 * and a null strides pointer means compact row-major (C order). Element i sits at
 * (char*)data + byte_offset + sum(index_k * strides[k]) * element size. */
typedef struct {
  void* data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t* shape;
  int64_t* strides;
  uint64_t byte_offset;
} DLTensor;

/* The legacy (pre-1.0, unversioned) managed tensor: the consumer calls deleter(self) once when
 * done; manager_ctx is the producer's. */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensor* self);
} DLManagedTensor;

/* The versioned managed tensor (DLPack >= 1.0). Note the field order differs from
 * DLManagedTensor: the version comes first, dl_tensor last, so the struct can grow. */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned* self);
  uint64_t flags; /* DLPACK_FLAG_BITMASK_* */
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* CUPP_DLPACK_H */
