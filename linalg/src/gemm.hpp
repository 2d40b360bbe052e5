// Internal to the linalg module: the batched matrix product every product routine ends in.
// gemm_into(a, b, c) writes c[z] = a[z] @ b[z] for every batch index z:
//   - a (B..., n, k), b (B..., k, m), c (B..., n, m): the same ndim, each batch dimension of a and b
//     equal to c's or 1 (broadcast: stride 0, never materialised); one dtype for all three (the
//     loop's: callers promote and cast first); c writable, not overlapping a or b.
//   - float16, bfloat16, float32, float64, complex64, complex128 (but the tiniest float32 /
//     float64 products, which take the generic kernel below: gemm_path): cuBLASLt (cublasLtMatmul with a
//     plan cached per problem and thread: descriptors, layouts and the heuristic's algorithm made
//     once), cublasGemmEx / cublasGemmStridedBatchedEx_64 where Lt has no algorithm or the batch
//     broadcasts (half types accumulate in float32, float32 in TF32 only with CUPP_TF32=1); C- and F-ordered
//     matrices, transposed views and strided batches go with transpose flags, leading dimensions
//     and batch strides; only an operand cuBLAS cannot describe (negative or non-unit inner
//     strides) is copied, per matrix layout, before broadcasting. A batch of one matrix times a
//     stack folds into one GEMM where the layout allows.
//   - int8: cuBLAS's int8 x int8 -> int32 path (CUBLAS_COMPUTE_32I), then a wrapping cast to
//     int8, which is NumPy's result bit for bit (its int8 matmul wraps modulo 2^8); operands are
//     copied into the layout cuBLAS's int8 tensor-core kernels take (k contiguous in both).
//   - bool and the other integers: an NVRTC kernel (linalg/device/cupp/linalg/matmul_generic.cuh)
//     with NumPy's wrapping semantics, on any strides (and small float products when
//     CUPP_LINALG_GEMM=kernel, below).
// No device synchronisation; everything runs on the current stream of c's device.
#pragma once

#include <cstdint>

#include "compiler/launch.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::linalg::detail {

void gemm_into(const ndarray& a, const ndarray& b, const ndarray& c);

// Which call a float product takes: cuBLASLt with the cached plans (lt), cublasGemmEx /
// cublasGemmStridedBatchedEx (gemmex), or, for float32 / float64 products of at most
// small_gemm_max multiply-adds, the generic kernel below (kernel: one launch of cupp's own, whose
// host cost is an ordinary launch's; cuBLASLt above that size). automatic (the default) is the
// kernel for float32 / float64 products of at most auto_kernel_max multiply-adds (64^3: issue
// 24's warm 64x64 product, whose time is the launch's either way), gemmex for float64 /
// complex128 products of 2^30 multiply-adds and more, lt for the rest. The
// environment's CUPP_LINALG_GEMM (auto, lt, gemmex, kernel; read once) sets it; set_gemm_path
// overrides it, for the benchmarks (linalg/bench/host_path.cpp times each in one process; not
// thread-safe; automatic there means the environment's choice).
enum class gemm_path { automatic, lt, gemmex, kernel };
void set_gemm_path(gemm_path path) noexcept;
inline constexpr std::int64_t small_gemm_max = std::int64_t{128} * 128 * 128;
inline constexpr std::int64_t auto_kernel_max = std::int64_t{64} * 64 * 64;

// The generic kernel's program for an integer, bool, float32 or float64 dtype (for the host compile test).
cupp::detail::routine_program generic_matmul_program(cupp::dtype type);

}  // namespace cupp::linalg::detail
