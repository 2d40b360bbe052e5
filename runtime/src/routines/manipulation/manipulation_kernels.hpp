// Internal: the kernels of the computing manipulation routines (elementwise_routines.cpp, pad.cpp,
// interp_convolve.cpp), exposed so unit tests compile them with NVRTC without a GPU, and the
// helpers those files share. clip, where and nan_to_num are element-wise ops of the ufunc
// engine that have no spec file (a spec named "clip" or "where" would make a cupp::clip ufunc
// object, and the routines of those names take None bounds and NumPy's where() rules); pad,
// interp and convolve/correlate are ElementwiseKernels over raw (gathered) inputs.
#pragma once

#include <cstdint>
#include <span>

#include "array/layout.hpp"
#include "cupp/dtype.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/ops.hpp"
#include "engine/internal.hpp"

namespace cupp::detail {

// numpy's clip ufunc: T, T, T -> T for every dtype (NumPy's _NPY_CLIP: NaN propagates).
const op_spec& clip_op();
// where's select: bool, T, T -> T for every dtype.
const op_spec& where_op();
// nan_to_num: T, float64 (the nan value), complex128 (posinf, neginf) -> T for the inexact dtypes.
const op_spec& nan_to_num_op();
// pad's gather: one output element from the source index maps of every axis (or a constant).
const ElementwiseKernel& pad_kernel();
// The direct correlation sum for `type` (the result dtype of convolve/correlate).
const ElementwiseKernel& correlate_kernel(dtype type);
// interp for real (float64) or complex (complex128) fp.
const ElementwiseKernel& interp_kernel(bool complex_fp);

// ---- what the manipulation routines' files share (pad.cpp, elementwise_routines.cpp,
// interp_convolve.cpp)

inline bool is_complex_type(type_id t) { return t == type_id::complex64 || t == type_id::complex128; }

// An uninitialised C-contiguous array on `device`.
inline ndarray new_c_array(std::span<const std::int64_t> shape, const dtype& type, int device) {
  return engine::empty_with_strides(shape, layout::c_strides(shape, static_cast<std::int64_t>(type.itemsize())), type,
                                    device);
}

}  // namespace cupp::detail
