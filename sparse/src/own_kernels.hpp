// Internal to the sparse module: its own kernels beside cuSPARSE's (device/cupp/sparse/
// transpose.cuh, products.cuh) and the switches between the two.
//  - tocsc/tocsr: csr2cscEx2 (int32 indices, float/complex values) or a stable CUB radix sort of
//    the minor indices carrying (major index, value bits) packed in one 64-bit word (values of 1, 2
//    or 4 bytes, either index width): pack 20 B/entry, 3 sort passes of 24 B/entry for 20 key bits,
//    unpack 16 B/entry (about 1.1 GB for 10^7 entries, 0.3 ms at the H200's bandwidth), against
//    csr2cscEx2's 0.72 ms on the matrix (sparse/bench/README.md).
//  - SpMM with row-major operands: cusparseSpMM or the module's kernels (warp-per-row spmm_rows, or
//    spmm_vec's 16-byte forms for float32/float64: spmm_kernel below).
//  - SpMV/SpMM for integer and bool values (cuSPARSE has none): the module's kernels, which wrap
//    as NumPy's integer products do (bool: or of ands, as SciPy's).
//  - SpGEMM for integer and bool values and for int64 indices (cuSPARSE's SpGEMM takes int32):
//    expand (every product a_ij b_jk), sort, sum: cupp's own routines, any index width.
//  - SpMV of real floats: cusparseSpMV or the module's lane-group kernel (a candidate, off by default).
//  - SpGEMM of float/complex values: cuSPARSE's or the module's row-sorting kernels (spgemm.cuh).
// Environment: CUPP_SPARSE_TOCSC=sort|cusparse, CUPP_SPARSE_SPMM=cupp|cusparse,
// CUPP_SPARSE_SPMV=cupp|cusparse, CUPP_SPARSE_SPGEMM=cupp|cusparse (unset: auto);
// another value is a ValueError naming the variable.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "compiler/launch.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/sparse.hpp"

namespace cupp::sparse::detail {

enum class tocsc_method { auto_, sort, cusparse };
enum class spmm_method { auto_, cupp, cusparse };
enum class spmv_method { auto_, cupp, cusparse };
// The environment's choice (auto_ when unset); ValueError for another value.
tocsc_method tocsc_method_from_env();
spmm_method spmm_method_from_env();
spmv_method spmv_method_from_env();
// Parses one value of the variables above ("" is auto_); ValueError naming `variable`.
tocsc_method parse_tocsc_method(std::string_view value, std::string_view variable);
spmm_method parse_spmm_method(std::string_view value, std::string_view variable);
spmv_method parse_spmv_method(std::string_view value, std::string_view variable);

// Whether the sort path can swap these arrays: cupp built with the CUB accelerators and CUB on
// (CUPP_ACCELERATORS), values of 1, 2 or 4 bytes, n_major <= 2^32 (the major index fits the word).
bool sort_swap_applies(const cupp::dtype& value, std::int64_t n_major) noexcept;

struct swapped {
  ndarray data, indices, indptr;
};
// The same entries compressed along the other axis (CSR -> CSC and back), the result's indices
// sorted: by `method` (auto_: sort where it applies, then csr2cscEx2 where that applies, then
// cupp's stable argsort).
swapped swap_major(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t n_major,
                   std::int64_t n_minor, tocsc_method method);
swapped sort_swap(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t n_major,
                  std::int64_t n_minor);

// The module's kernels' programs (host tests compile them without a GPU).
cupp::detail::routine_program transpose_program();
// The products program of one value dtype (bool, integers, float32/64, complex64/128).
cupp::detail::routine_program products_program(const cupp::dtype& type);
// spmm_vec's program of float32 or float64 (its forms vec and shuffled_cs, i32 and i64 each;
// TypeError for another dtype).
cupp::detail::routine_program spmm_vec_program(const cupp::dtype& type);

// SciPy's upcast of a product's operand dtypes: np.result_type, then the first of SciPy's value
// dtypes it casts to safely (float16 -> float32); TypeError "no supported conversion for types".
cupp::dtype product_upcast(const cupp::dtype& a, const cupp::dtype& b);

// A @ x and A @ B (B row-major) by the module's kernels, for any value dtype SciPy takes; the
// result dtype is product_upcast(A, x). Duplicates and unsorted indices are summed as they are.
ndarray own_spmv(const csr& a, const ndarray& x);
ndarray own_spmm(const csr& a, const ndarray& b);
// The module's SpMM kernels (products.cuh). warp: spmm_rows, every dtype and column count. The
// others are spmm_vec's forms, for float32/float64 with k a multiple of 16 bytes' worth of values and
// B and C 16-byte aligned (else warp runs): vec (in order, bitwise the same as warp), shuffled_cs
// (the row's entries broadcast by shuffles, four B rows in flight a lane, A read and C written
// cache-streaming; same order and bits). Forms measured slower on the H100 and dropped
// (sparse/bench/README.md): vec_occ, shuffled, split, vec_cs, shuffled8_cs, the L2 eviction-policy
// forms and the panel-major ones.
enum class spmm_kernel { warp, vec, shuffled_cs };
inline constexpr spmm_kernel spmm_kernels[] = {spmm_kernel::warp, spmm_kernel::vec, spmm_kernel::shuffled_cs};
const char* spmm_kernel_name(spmm_kernel kernel) noexcept;
// The kernel own_spmm runs for float32/float64 (own_kernels.cpp: SparseGpu.BenchFigures' choice).
spmm_kernel spmm_kernel_default() noexcept;
// own_spmm by `kernel` (warp where a spmm_vec form does not apply); *ran, when given, is the one
// that ran.
ndarray own_spmm_with(const csr& a, const ndarray& b, spmm_kernel kernel, spmm_kernel* ran = nullptr);
// spmm_vec's lanes a row for k columns of t (float32: 4 a lane, float64: 2): the smallest power of
// two covering them, at most 32 (wider products take stretches of 32 lanes' columns).
int spmm_vec_group(const cupp::dtype& t, std::int64_t k) noexcept;
// y = A @ x for float32/float64 by spmv_groups, `group` lanes per row (a power of two, 2..32;
// ValueError otherwise; TypeError for other dtypes).
ndarray own_spmv_groups(const csr& a, const ndarray& x, int group);
// The lane group for a matrix: the largest power of two (2..32) up to its mean row length.
int spmv_group_for(std::int64_t nnz, std::int64_t rows) noexcept;
// Whether the auto_ SpMV choice takes spmv_groups for a real float product of nnz entries (off:
// see own_kernels.cpp, it waits for the H200's figures).
bool own_spmv_by_default(const cupp::dtype& t, std::int64_t nnz) noexcept;
// Whether the auto_ SpMM choice takes the module's kernel for a float/complex product of dtype t
// with k dense columns.
bool own_spmm_by_default(const cupp::dtype& t, std::int64_t k) noexcept;

// SpGEMM of canonical int32-indexed float/complex operands by the module's own kernels
// (spgemm.cuh, own_spgemm.cpp): rows of at most own_spgemm_warp_cap products a warp each, rows up
// to own_spgemm_block_cap(t) a block each; nullopt when some row makes more (cuSPARSE's then). A
// canonical result (sorted, no duplicates; explicit zeros of the sums kept, as cuSPARSE's), each
// column summed in A's entry order (bitwise repeatable). CUPP_SPARSE_SPGEMM=cupp|cusparse picks
// (auto: cusparse until the GPU's figures say otherwise: products.cpp).
enum class spgemm_method { auto_, cupp, cusparse };
spgemm_method spgemm_method_from_env();
spgemm_method parse_spgemm_method(std::string_view value, std::string_view variable);
inline constexpr std::int64_t own_spgemm_warp_cap = 256;
std::int64_t own_spgemm_block_cap(const cupp::dtype& t) noexcept;
cupp::detail::routine_program spgemm_program(const cupp::dtype& type);
std::optional<csr> own_spgemm(const csr& a, const csr& b, const cupp::dtype& t, sparse::kind kind);

// A @ B by expand-sort-sum (any value dtype, any index width; explicit zeros of the result
// dropped, as SciPy's csr_matmat); a canonical result with SciPy's index dtype for its size.
csr esc_spgemm(const csr& a, const csr& b);

}  // namespace cupp::sparse::detail
