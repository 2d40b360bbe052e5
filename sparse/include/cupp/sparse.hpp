// cupp::sparse, SciPy's scipy.sparse over cuSPARSE (the sparse module, target cupp::sparse; cupp::cupp
// links it): the CSR, CSC and COO formats (construction, conversions, canonical form, transpose,
// casts), their products with dense vectors and matrices and with each other (cuSPARSE's generic
// SpMV, SpMM and SpGEMM), eye/identity/diags, and SciPy's .npz files. docs/sparse.md is the guide.
//
// The C++ shape of SciPy's classes: one class per format (cupp::sparse::csr, csc, coo), each with a
// kind() flag that says whether it stands for SciPy's *_matrix (spmatrix) or *_array (sparray).
// The factories csr_matrix(...), csr_array(...), ... mirror SciPy's class names and set the flag;
// every result keeps its input's kind (as SciPy's csr_array.tocsc() is a csc_array). An object
// holds its arrays as ndarray handles: copying one shares the arrays (as A2 = A in Python), and
// its in-place methods (sum_duplicates, sort_indices, eliminate_zeros) rebind this object's arrays.
// cuSPARSE descriptors and work buffers are cached per object and operation and freed with it.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"

namespace cupp::sparse {

// What `cupp info` prints for the module: the version of each CUDA library it wraps.
std::vector<module_info_row> info();

using shape2 = std::array<std::int64_t, 2>;

// SciPy's two families: spmatrix (csr_matrix, ...) and sparray (csr_array, ...).
enum class kind { matrix, array };
enum class format { csr, csc, coo };

// SciPy's constructor keywords: shape=, dtype=, copy=.
struct options {
  std::optional<shape2> shape{};
  std::optional<cupp::dtype> dtype{};
  bool copy = false;
};

// The (row, col) of SciPy's (data, (row, col)) form.
struct coords {
  ndarray row, col;
};

// Products: deterministic cuSPARSE algorithms by default (SpMV CSR_ALG2, SpMM CSR_ALG2, bitwise
// reproducible); deterministic = false allows the faster non-deterministic ones.
struct product_options {
  bool deterministic = true;
};

namespace detail {
struct product_cache;  // cuSPARSE descriptors and buffers of one object (src/cusparse_wrap.hpp)
}  // namespace detail

class coo;
template <format F>
class compressed;
using csr = compressed<format::csr>;
using csc = compressed<format::csc>;

// CSR (F = csr: indptr over rows, indices are columns) or CSC (F = csc: indptr over columns,
// indices are rows). Index arrays are int32 or int64 (both the same dtype): int32 unless a
// dimension or nnz needs int64, as SciPy's get_index_dtype chooses.
template <format F>
class compressed {
 public:
  // An empty 0x0 float64 object.
  compressed();
  // SciPy's csr_matrix((M, N)[, dtype]): no stored entries.
  explicit compressed(shape2 shape, const options& opts = {});
  // From a dense 2-D array (1-D is read as one row, (1, n)); explicit zeros are not stored.
  explicit compressed(const ndarray& dense, const options& opts = {});
  // SciPy's (data, indices, indptr). Checked as SciPy's check_format(full_check=True): index values
  // in range and indptr non-decreasing (ValueError with SciPy's messages), so no kernel reads out
  // of bounds. Without shape: (len(indptr) - 1, max(indices) + 1) (transposed for CSC).
  compressed(const ndarray& data, const ndarray& indices, const ndarray& indptr, const options& opts = {});
  // SciPy's (data, (row, col)): duplicates are summed, the result is canonical.
  compressed(const ndarray& data, const coords& ij, const options& opts = {});
  // From another format (options.dtype casts, options.copy copies).
  explicit compressed(const compressed<F == format::csr ? format::csc : format::csr>& other, const options& opts = {});
  explicit compressed(const coo& other, const options& opts = {});

  // ---- properties
  shape2 shape() const noexcept { return shape_; }
  int ndim() const noexcept { return 2; }
  std::int64_t nnz() const noexcept { return data_.size(); }  // stored entries (duplicates, explicit zeros)
  std::int64_t size() const noexcept { return nnz(); }         // SciPy's size: nnz
  cupp::dtype dtype() const noexcept { return data_.dtype(); }
  cupp::dtype index_dtype() const noexcept { return indices_.dtype(); }
  std::string format_name() const { return F == format::csr ? "csr" : "csc"; }
  sparse::kind kind() const noexcept { return kind_; }
  bool is_array() const noexcept { return kind_ == kind::array; }
  // A copy of this object's handle with another kind (arrays shared).
  compressed with_kind(sparse::kind k) const;
  const ndarray& data() const noexcept { return data_; }
  const ndarray& indices() const noexcept { return indices_; }
  const ndarray& indptr() const noexcept { return indptr_; }

  // Sorted indices and no duplicates (checked on the device when not known, then remembered).
  bool has_canonical_format() const;
  bool has_sorted_indices() const;

  // ---- in place
  void sum_duplicates();   // canonical form: sorts indices, sums duplicates (explicit zeros stay)
  void sort_indices();     // sorts each row's (column's) indices; duplicates stay
  void eliminate_zeros();  // drops explicitly stored zeros

  // ---- new objects
  compressed<F == format::csr ? format::csc : format::csr> transpose() const;  // shares the arrays
  compressed conj() const;       // complex conjugate (a copy for other dtypes, as SciPy)
  compressed conjugate() const { return conj(); }
  compressed copy() const;
  compressed astype(cupp::dtype type, bool copy = true) const;
  ndarray diagonal(std::int64_t k = 0) const;  // the k-th diagonal (duplicates summed), dense 1-D
  std::int64_t count_nonzero() const;          // nonzero values after summing duplicates
  ndarray toarray() const;                     // dense (M, N), C order, duplicates summed
  ndarray todense() const { return toarray(); }
  csr tocsr(bool copy = false) const;
  csc tocsc(bool copy = false) const;
  coo tocoo(bool copy = false) const;
  // Sparse @ dense: x 1-D of length N gives 1-D of length M; 2-D (N, k) gives (M, k). Through
  // spmv / spmm (a CSC object is converted to CSR first).
  ndarray dot(const ndarray& x, const product_options& opts = {}) const;
  // Sparse @ sparse: SpGEMM, a CSR result (SciPy gives this format's; here always CSR).
  csr dot(const csr& b) const;

  // Internal: assembles an object from checked parts (no validation).
  static compressed from_parts(ndarray data, ndarray indices, ndarray indptr, shape2 shape, sparse::kind k,
                               std::optional<bool> canonical, std::optional<bool> sorted);
  std::shared_ptr<detail::product_cache> cache() const;

 private:
  struct no_init {};
  explicit compressed(no_init) noexcept {}
  ndarray data_, indices_, indptr_;
  shape2 shape_{0, 0};
  sparse::kind kind_ = kind::matrix;
  mutable std::optional<bool> canonical_, sorted_;
  mutable std::shared_ptr<detail::product_cache> cache_;
  void rebind(ndarray data, ndarray indices, ndarray indptr);
};

// COO: data, row, col (int32 or int64, the same dtype). Duplicates and any order are allowed.
class coo {
 public:
  coo();
  explicit coo(shape2 shape, const options& opts = {});
  explicit coo(const ndarray& dense, const options& opts = {});
  // SciPy's (data, (row, col)); without shape: (max(row) + 1, max(col) + 1). Duplicates are kept.
  coo(const ndarray& data, const coords& ij, const options& opts = {});
  explicit coo(const csr& other, const options& opts = {});
  explicit coo(const csc& other, const options& opts = {});

  shape2 shape() const noexcept { return shape_; }
  int ndim() const noexcept { return 2; }
  std::int64_t nnz() const noexcept { return data_.size(); }
  std::int64_t size() const noexcept { return nnz(); }
  cupp::dtype dtype() const noexcept { return data_.dtype(); }
  cupp::dtype index_dtype() const noexcept { return row_.dtype(); }
  std::string format_name() const { return "coo"; }
  sparse::kind kind() const noexcept { return kind_; }
  bool is_array() const noexcept { return kind_ == kind::array; }
  coo with_kind(sparse::kind k) const;
  const ndarray& data() const noexcept { return data_; }
  const ndarray& row() const noexcept { return row_; }
  const ndarray& col() const noexcept { return col_; }

  // Sorted by row, then column, without duplicates (checked on the device when not known).
  bool has_canonical_format() const;
  void sum_duplicates();
  void eliminate_zeros();

  coo transpose() const;  // shares the arrays
  coo conj() const;
  coo conjugate() const { return conj(); }
  coo copy() const;
  coo astype(cupp::dtype type, bool copy = true) const;
  ndarray diagonal(std::int64_t k = 0) const;
  std::int64_t count_nonzero() const;
  ndarray toarray() const;
  ndarray todense() const { return toarray(); }
  csr tocsr(bool copy = false) const;  // duplicates summed (as SciPy)
  csc tocsc(bool copy = false) const;
  coo tocoo(bool copy = false) const { return copy ? this->copy() : *this; }
  ndarray dot(const ndarray& x, const product_options& opts = {}) const;

  static coo from_parts(ndarray data, ndarray row, ndarray col, shape2 shape, sparse::kind k,
                        std::optional<bool> canonical);

 private:
  struct no_init {};
  explicit coo(no_init) noexcept {}
  ndarray data_, row_, col_;
  shape2 shape_{0, 0};
  sparse::kind kind_ = kind::matrix;
  mutable std::optional<bool> canonical_;
};

// ---- SciPy's class names as factories (the kind flag set accordingly)
template <class... A>
csr csr_matrix(A&&... args) { return csr(std::forward<A>(args)...); }
template <class... A>
csr csr_array(A&&... args) { return csr(std::forward<A>(args)...).with_kind(kind::array); }
template <class... A>
csc csc_matrix(A&&... args) { return csc(std::forward<A>(args)...); }
template <class... A>
csc csc_array(A&&... args) { return csc(std::forward<A>(args)...).with_kind(kind::array); }
template <class... A>
coo coo_matrix(A&&... args) { return coo(std::forward<A>(args)...); }
template <class... A>
coo coo_array(A&&... args) { return coo(std::forward<A>(args)...).with_kind(kind::array); }

// ---- products (cuSPARSE's generic API on the current stream; buffers from cupp's pool)
// A @ x for a 1-D x of length N: SpMV (CSR_ALG2 unless opts.deterministic is false). The result
// dtype is promote_types(A.dtype, x.dtype); float32/float64/complex64/complex128 (others:
// TypeError, docs/deviations.md).
ndarray spmv(const csr& a, const ndarray& x, const product_options& opts = {});
// A @ B for a 2-D B (N, k), row-major (C order) as given: SpMM with row-major dense operands (no
// column-major copy); the result is (M, k), C order.
ndarray spmm(const csr& a, const ndarray& b, const product_options& opts = {});
// A @ B of two CSR objects: SpGEMM (workEstimation, compute, copy). int32 indices (int64 ones are
// narrowed when they fit, else ValueError), as cuSPARSE's SpGEMM.
csr spgemm(const csr& a, const csr& b);

// ---- constructors
// scipy.sparse.eye(m, n=None, k=0, dtype=float, format=None): ones on the k-th diagonal. SciPy's
// default format is dia; cupp has no dia yet and returns CSR (docs/deviations.md).
csr eye(std::int64_t m, std::optional<std::int64_t> n = std::nullopt, std::int64_t k = 0,
        cupp::dtype type = float64);
csr eye_array(std::int64_t m, std::optional<std::int64_t> n = std::nullopt, std::int64_t k = 0,
              cupp::dtype type = float64);
csr identity(std::int64_t n, cupp::dtype type = float64);
// scipy.sparse.diags(diagonals, offsets=0, shape=None, dtype=None): a diagonal of length 1 is
// broadcast; dtype default np.common_type of the diagonals (integers give float64); zeros are not
// stored (as SciPy's dia -> csr); CSR result.
csr diags(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets = {0},
          std::optional<shape2> shape = std::nullopt, std::optional<cupp::dtype> type = std::nullopt);
csr diags_array(const std::vector<ndarray>& diagonals, const std::vector<std::int64_t>& offsets = {0},
                std::optional<shape2> shape = std::nullopt, std::optional<cupp::dtype> type = std::nullopt);

// ---- block constructors and triangles (CSR operands and results; SciPy returns coo or bsr by
// default; an *_array result when any operand is one; duplicates summed)
// scipy.sparse.vstack / hstack: ValueError "incompatible dimensions for axis 1" (vstack's column
// counts) or "... axis 0" (hstack's row counts); dtype default: the blocks' promoted dtype.
csr vstack(const std::vector<csr>& blocks, std::optional<cupp::dtype> type = std::nullopt);
csr hstack(const std::vector<csr>& blocks, std::optional<cupp::dtype> type = std::nullopt);
csr block_diag(const std::vector<csr>& blocks, std::optional<cupp::dtype> type = std::nullopt);
// scipy.sparse.kron(A, B): every product of an entry of A and one of B.
csr kron(const csr& a, const csr& b);
// scipy.sparse.tril / triu: the entries on and below (above) the k-th diagonal.
csr tril(const csr& a, std::int64_t k = 0);
csr triu(const csr& a, std::int64_t k = 0);

// ---- arithmetic (CSR operands; part 1 of the item 2)
// Element-wise functions SciPy keeps sparse: applied to the stored values after summing duplicates
// (a canonical result; the dtype is NumPy's for the values: sqrt of int32 is float64). SciPy's
// list: sin, tan, arcsin, arctan, sinh, tanh, arcsinh, arctanh, rint, sign, expm1, log1p,
// deg2rad, rad2deg, floor, ceil, trunc, sqrt, and abs, negative.
#define CUPP_SPARSE_UNARY_(name) csr name(const csr& a);
CUPP_SPARSE_UNARY_(sin) CUPP_SPARSE_UNARY_(tan) CUPP_SPARSE_UNARY_(arcsin) CUPP_SPARSE_UNARY_(arctan)
CUPP_SPARSE_UNARY_(sinh) CUPP_SPARSE_UNARY_(tanh) CUPP_SPARSE_UNARY_(arcsinh) CUPP_SPARSE_UNARY_(arctanh)
CUPP_SPARSE_UNARY_(rint) CUPP_SPARSE_UNARY_(sign) CUPP_SPARSE_UNARY_(expm1) CUPP_SPARSE_UNARY_(log1p)
CUPP_SPARSE_UNARY_(deg2rad) CUPP_SPARSE_UNARY_(rad2deg) CUPP_SPARSE_UNARY_(floor) CUPP_SPARSE_UNARY_(ceil)
CUPP_SPARSE_UNARY_(trunc) CUPP_SPARSE_UNARY_(sqrt) CUPP_SPARSE_UNARY_(abs) CUPP_SPARSE_UNARY_(negative)
#undef CUPP_SPARSE_UNARY_
// A.power(n): element-wise power of the stored values (duplicates summed first).
csr power(const csr& a, const weak_scalar& n);
// A * s for a scalar (both kinds): the values times s, NumPy's dtype for a Python scalar (NEP 50);
// the structure is kept (s == 0 keeps explicit zeros, as SciPy).
csr multiply(const csr& a, const weak_scalar& s);
// A + B, A - B of one shape (ValueError "inconsistent shapes"): the result dtype is the operands'
// promoted one; zeros of the result are not stored (as SciPy's csr_binop_csr).
csr add(const csr& a, const csr& b);
csr subtract(const csr& a, const csr& b);
// A.multiply(B): the element-wise product (zeros not stored).
csr multiply(const csr& a, const csr& b);
// `*` as SciPy: matrix semantics (A @ B) when A is a *_matrix, element-wise for an *_array.
csr operator*(const csr& a, const csr& b);
inline csr operator*(const csr& a, const weak_scalar& s) { return multiply(a, s); }
inline csr operator*(const weak_scalar& s, const csr& a) { return multiply(a, s); }
inline csr operator+(const csr& a, const csr& b) { return add(a, b); }
inline csr operator-(const csr& a, const csr& b) { return subtract(a, b); }
inline csr operator-(const csr& a) { return negative(a); }
// A.sum(axis) / A.mean(axis): no axis gives a 0-d array, axis 0 or 1 a 1-D array for an
// *_array and SciPy's np.matrix shape, (1, N) or (M, 1), for a *_matrix (AxisError otherwise).
// sum's dtype is NumPy's sum's for the values (int8 -> int64, bool -> int64); mean's is float64
// for integers and bool, else the values'. Deterministic (segment sums in index order).
ndarray sum(const csr& a, std::optional<int> axis = std::nullopt);
ndarray mean(const csr& a, std::optional<int> axis = std::nullopt);

// ---- .npz files in SciPy's layout (scipy.sparse.save_npz / load_npz read and write the same)
// Members: indices, indptr (csr/csc) or row, col (coo), then format (b'csr', |S3), shape (int64),
// data, and _is_array=True for an *_array. compressed = true deflates, as SciPy's default.
void save_npz(const std::filesystem::path& path, const csr& a, bool compressed = true);
void save_npz(const std::filesystem::path& path, const csc& a, bool compressed = true);
void save_npz(const std::filesystem::path& path, const coo& a, bool compressed = true);
// Whatever format the file holds (csr, csc or coo; others: ValueError), with its kind.
struct loaded_npz {
  format fmt = format::csr;
  std::optional<csr> csr_value;
  std::optional<csc> csc_value;
  std::optional<coo> coo_value;
  csr tocsr() const;  // the loaded object as CSR
};
loaded_npz load_npz(const std::filesystem::path& path);

}  // namespace cupp::sparse
