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
enum class format { csr, csc, coo, dia };

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

// Products: deterministic cuSPARSE algorithms by default (SpMV CSR_ALG2, SpMM CSR_ALG3, bitwise
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
  // SciPy's prune(): drops the space past indptr[-1]; cupp's arrays never hold any (the
  // constructor prunes), so this only checks that.
  void prune() const noexcept {}
  // A.setdiag(values, k): the k-th diagonal's first len(values) entries (a scalar: all of it) set
  // to values cast to dtype(), explicit zeros included; the object becomes canonical. ValueError
  // "k exceeds array dimensions" for a diagonal outside the shape, as SciPy.
  void setdiag(const ndarray& values, std::int64_t k = 0);
  void setdiag(const weak_scalar& value, std::int64_t k = 0);

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
  void setdiag(const ndarray& values, std::int64_t k = 0);  // as csr's (the entries rebuilt, canonical)
  void setdiag(const weak_scalar& value, std::int64_t k = 0);

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

// DIA: data (n_diags, L), data[i, j] holding A[j - offsets[i], j], and offsets (1-D, distinct; int32
// unless a dimension needs int64). SciPy's storage and conversions; arithmetic and products go
// through tocsr().
class dia {
 public:
  dia();
  explicit dia(shape2 shape, const options& opts = {});
  explicit dia(const ndarray& dense, const options& opts = {});
  // SciPy's dia_matrix((data, offsets), shape=(M, N)): data is made 2-D (atleast_2d) and offsets
  // 1-D; ValueError "offsets array must have rank 1", "data array must have rank 2", "number of
  // diagonals (2) does not match the number of offsets (3)", "offset array contains duplicate values".
  dia(const ndarray& data, const ndarray& offsets, shape2 shape, const options& opts = {});
  // SciPy's todia(): one diagonal per distinct col - row of the summed entries, width max(col) + 1.
  explicit dia(const csr& other, const options& opts = {});
  explicit dia(const csc& other, const options& opts = {});
  explicit dia(const coo& other, const options& opts = {});

  shape2 shape() const noexcept { return shape_; }
  int ndim() const noexcept { return 2; }
  std::int64_t nnz() const;  // SciPy's: the stored positions inside the shape (zeros included)
  std::int64_t size() const { return nnz(); }
  cupp::dtype dtype() const noexcept { return data_.dtype(); }
  std::string format_name() const { return "dia"; }
  sparse::kind kind() const noexcept { return kind_; }
  bool is_array() const noexcept { return kind_ == kind::array; }
  dia with_kind(sparse::kind k) const;
  const ndarray& data() const noexcept { return data_; }
  const ndarray& offsets() const noexcept { return offsets_; }

  dia copy() const;
  dia astype(cupp::dtype type, bool copy = true) const;
  ndarray diagonal(std::int64_t k = 0) const;
  ndarray toarray() const;
  ndarray todense() const { return toarray(); }
  coo tocoo() const;  // explicit zeros dropped, as SciPy's
  csr tocsr() const;  // canonical, explicit zeros dropped
  csc tocsc() const;
  dia todia(bool copy = false) const { return copy ? this->copy() : *this; }
  ndarray dot(const ndarray& x, const product_options& opts = {}) const;

 private:
  ndarray data_, offsets_;
  shape2 shape_{0, 0};
  sparse::kind kind_ = kind::matrix;
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
template <class... A>
dia dia_matrix(A&&... args) { return dia(std::forward<A>(args)...); }
template <class... A>
dia dia_array(A&&... args) { return dia(std::forward<A>(args)...).with_kind(kind::array); }
// SciPy's A.todia() of the other formats.
dia todia(const csr& a);
dia todia(const csc& a);
dia todia(const coo& a);

// ---- products (cuSPARSE's generic API on the current stream; buffers from cupp's pool)
// A @ x for a 1-D x of length N: SpMV (CSR_ALG2 unless opts.deterministic is false). The result
// dtype is promote_types(A.dtype, x.dtype), as SciPy's upcast: float32/float64/complex64/complex128
// through cuSPARSE; integer and bool products through the module's kernel (integers wrap as NumPy's;
// bool is an or of ands, as SciPy's); a float16 dense operand makes a float32 product (SciPy's
// upcast: the first of its value dtypes the promoted one casts to safely).
ndarray spmv(const csr& a, const ndarray& x, const product_options& opts = {});
// A @ B for a 2-D B (N, k), row-major (C order) as given: SpMM with row-major dense operands (no
// column-major copy); the result is (M, k), C order. float32/float64 with k >= 32 take the module's
// warp-per-row kernel, the others cusparseSpMM CSR_ALG3 (CUPP_SPARSE_SPMM=cupp|cusparse forces one;
// docs/sparse.md); both bitwise repeatable. Integer and bool values as spmv.
ndarray spmm(const csr& a, const ndarray& b, const product_options& opts = {});
// A @ B of two CSR objects: SpGEMM (workEstimation, compute, copy) for float/complex operands whose
// sizes fit int32 (int64 indices are narrowed then). Integer and bool values, and operands or
// results that need int64 indices, take cupp's expand-sort-sum (every product, sorted, summed;
// zeros of the result dropped, as SciPy's csr_matmat), with SciPy's index dtype for the result.
// The same product on its third call in a row (same A, same B pattern arrays, dtype and stream)
// builds cuSPARSE's SpGEMMreuse state in A and runs only its compute after (docs/sparse.md).
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
// A / s for a scalar, as SciPy's _divide: a dtype that casts safely to float64 (bool, integers,
// float32, float64) is cast to float64 first, then times the Python value 1 / s; complex values keep
// their dtype. s == 0 is Python's ZeroDivisionError "division by zero" (here a ValueError).
csr true_divide(const csr& a, const weak_scalar& s);
inline csr operator/(const csr& a, const weak_scalar& s) { return true_divide(a, s); }
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

// ---- comparisons and element-wise extremes (CSR operands; issue 28 item 2, second part)
// SciPy's ==, !=, <, <=, >, >= of two sparse objects of one shape (ValueError "inconsistent
// shapes"; SciPy's == and != answer False/True there) or of one and a scalar: a bool CSR that
// stores the True positions only. Where the comparison holds for two zeros (==, <=, >=, and a
// scalar on the true side of 0), every other position is True too and the result is dense-sized,
// as SciPy's (its SparseEfficiencyWarning); a NaN scalar gives all False for ==, all True for !=.
csr equal(const csr& a, const csr& b);
csr not_equal(const csr& a, const csr& b);
csr less(const csr& a, const csr& b);
csr less_equal(const csr& a, const csr& b);
csr greater(const csr& a, const csr& b);
csr greater_equal(const csr& a, const csr& b);
csr equal(const csr& a, const weak_scalar& s);
csr not_equal(const csr& a, const weak_scalar& s);
csr less(const csr& a, const weak_scalar& s);
csr less_equal(const csr& a, const weak_scalar& s);
csr greater(const csr& a, const weak_scalar& s);
csr greater_equal(const csr& a, const weak_scalar& s);
inline csr operator==(const csr& a, const csr& b) { return equal(a, b); }
inline csr operator!=(const csr& a, const csr& b) { return not_equal(a, b); }
inline csr operator<(const csr& a, const csr& b) { return less(a, b); }
inline csr operator<=(const csr& a, const csr& b) { return less_equal(a, b); }
inline csr operator>(const csr& a, const csr& b) { return greater(a, b); }
inline csr operator>=(const csr& a, const csr& b) { return greater_equal(a, b); }
inline csr operator==(const csr& a, const weak_scalar& s) { return equal(a, s); }
inline csr operator!=(const csr& a, const weak_scalar& s) { return not_equal(a, s); }
inline csr operator<(const csr& a, const weak_scalar& s) { return less(a, s); }
inline csr operator<=(const csr& a, const weak_scalar& s) { return less_equal(a, s); }
inline csr operator>(const csr& a, const weak_scalar& s) { return greater(a, s); }
inline csr operator>=(const csr& a, const weak_scalar& s) { return greater_equal(a, s); }
// A.maximum(B) / A.minimum(B): element-wise over the union of the stored positions (zeros of the
// result not stored); the dtype is the operands' promoted one.
csr maximum(const csr& a, const csr& b);
csr minimum(const csr& a, const csr& b);
// A.maximum(s) / A.minimum(s): SciPy takes the scalar as np.asarray(s) (int64, float64,
// complex128, bool: not a weak scalar), so the dtype is promote_types(A.dtype, that). A scalar
// that beats the implicit zeros (maximum with s > 0, minimum with s < 0) gives a dense-sized result.
csr maximum(const csr& a, const weak_scalar& s);
csr minimum(const csr& a, const weak_scalar& s);
// A.max(axis) / A.min(axis): implicit zeros count (SciPy's explicit=False). No axis: a 0-d array of
// the dtype (0 for no stored entry; ValueError "zero-size array to reduction operation" for an
// empty shape). axis 0 or 1: a dense 1-D array for an *_array, (1, N) / (M, 1) for a *_matrix
// (SciPy returns a sparse COO there: docs/deviations.md).
ndarray max(const csr& a, std::optional<int> axis = std::nullopt);
ndarray min(const csr& a, std::optional<int> axis = std::nullopt);
// A.argmax(axis) / A.argmin(axis): int64 positions of the first extreme, implicit zeros included
// (no axis: the flat C-order index, as a 0-d array). ValueError "Cannot apply argmax to an empty
// matrix." / "... along a zero-sized dimension.", as SciPy.
ndarray argmax(const csr& a, std::optional<int> axis = std::nullopt);
ndarray argmin(const csr& a, std::optional<int> axis = std::nullopt);

// ---- row and column selection (SciPy's A[i], A[i:j:s], A[[...]], A[:, ...] on CSR and CSC)
// One axis's index: everything (default), one integer (negative counts from the end; the axis
// is kept, (1, N) or (M, 1), as a *_matrix's), a slice, or an integer array (fancy, any order,
// repeats allowed; negative wrap). IndexError "index (i) out of range" / "row index (i) out of
// range" as SciPy. Both axes fancy is SciPy's point-wise pairs A[rows, cols]: see select_values.
struct index {
  enum class what { all, integer, slice, array };
  what kind = what::all;
  std::int64_t i = 0;
  cupp::slice s{};
  ndarray a{};
  index() = default;
  index(std::int64_t v) : kind(what::integer), i(v) {}           // NOLINT: implicit, as A[3]
  index(int v) : kind(what::integer), i(v) {}                    // NOLINT
  index(const cupp::slice& v) : kind(what::slice), s(v) {}       // NOLINT: as A[1:4]
  index(const ndarray& v) : kind(what::array), a(v) {}           // NOLINT: as A[[0, 2]]
};
// The selected rows and columns, canonical when A is, the format and kind kept. (A rows-only
// selection of a CSR gathers whole rows; a column selection runs on the other format.)
csr select(const csr& a, const index& rows, const index& cols = {});
csc select(const csc& a, const index& rows, const index& cols = {});
// A[rows, cols] with two integer index arrays (1-D or 2-D, broadcast together; a 1-D bool
// array stands for its positions): SciPy's point-wise pairs, the values A[rows[i], cols[i]]
// (duplicates summed, 0 where nothing is stored). select_values gives SciPy's result for 1-D
// indices: a dense array, 1-D for an *_array, (1, n) (np.matrix) for a *_matrix; select(a, rows,
// cols) with two arrays gives a sparse object of the broadcast shape, as SciPy's for 2-D indices
// ((1, n) for 1-D ones). IndexError "index (i) out of range", and NumPy's ValueError "shape
// mismatch: objects cannot be broadcast to a single shape. ..." (SciPy's np.broadcast_arrays).
ndarray select_values(const csr& a, const ndarray& rows, const ndarray& cols);
ndarray select_values(const csc& a, const ndarray& rows, const ndarray& cols);

// ---- products as matmul (SciPy's @): sparse @ dense, dense @ sparse, sparse @ sparse
// dense @ sparse computes (A^T @ B^T)^T: A^T is A's CSC arrays read as CSR (no conversion for a CSC
// A) and B^T a row-major copy, so the same row-major SpMM runs.
ndarray matmul(const csr& a, const ndarray& b, const product_options& opts = {});
ndarray matmul(const ndarray& a, const csr& b, const product_options& opts = {});
ndarray matmul(const csc& a, const ndarray& b, const product_options& opts = {});
ndarray matmul(const ndarray& a, const csc& b, const product_options& opts = {});
csr matmul(const csr& a, const csr& b);

// ---- random sparse matrices (scipy.sparse.random / random_array, through cupp::random)
// density * m * n entries (rounded as SciPy: int(round(...))) at distinct positions drawn
// uniformly without replacement, in random order (COO, not canonical); values: uniform [0, 1)
// for float dtypes, real and imaginary parts uniform for complex, uniform over the dtype's range
// for integers (numpy.iinfo min .. max - 1), True for bool. ValueError "density expected to be
// 0 <= density <= 1". cupp's generator, so the values are not SciPy's for the same seed.
struct random_options {
  double density = 0.01;
  cupp::dtype dtype = float64;
  std::optional<std::uint64_t> seed{};  // none: fresh OS entropy
};
coo random(std::int64_t m, std::int64_t n, const random_options& opts = {});
coo random_array(shape2 shape, const random_options& opts = {});

// ---- .npz files in SciPy's layout (scipy.sparse.save_npz / load_npz read and write the same)
// Members: indices, indptr (csr/csc) or row, col (coo), then format (b'csr', |S3), shape (int64),
// data, and _is_array=True for an *_array. compressed = true deflates, as SciPy's default.
void save_npz(const std::filesystem::path& path, const csr& a, bool compressed = true);
void save_npz(const std::filesystem::path& path, const csc& a, bool compressed = true);
void save_npz(const std::filesystem::path& path, const coo& a, bool compressed = true);
void save_npz(const std::filesystem::path& path, const dia& a, bool compressed = true);  // offsets, then as above
// Whatever format the file holds (csr, csc, coo or dia; others: ValueError), with its kind.
struct loaded_npz {
  format fmt = format::csr;
  std::optional<csr> csr_value;
  std::optional<csc> csc_value;
  std::optional<coo> coo_value;
  std::optional<dia> dia_value;
  csr tocsr() const;  // the loaded object as CSR
};
loaded_npz load_npz(const std::filesystem::path& path);

}  // namespace cupp::sparse

namespace cupp {
// cupp::matmul(A, x), cupp::matmul(x, A), cupp::matmul(A, B) for sparse operands (linalg's
// cupp::matmul takes the dense ones).
using sparse::matmul;
}  // namespace cupp
