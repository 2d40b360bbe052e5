// NumPy's array creation routines on the GPU: ones, full, the *_like forms, arange, linspace,
// logspace, geomspace, eye, identity, diag, diagflat, tri, tril, triu, meshgrid, indices and
// fromfunction. (empty and zeros are in cupp/ndarray.hpp.) Each follows NumPy 2's signature
// and semantics; keyword arguments are trailing parameters or option structs:
//
//   auto a = cupp::arange(10);                          // int64 [0 .. 9]
//   auto b = cupp::arange(0.0, 1.0, 0.1, cupp::float32);
//   auto c = cupp::linspace(0, 1, 5, {.endpoint = false});
//   auto [x, step] = cupp::linspace_with_step(0, 1, 5);  // numpy's retstep=True
//   auto e = cupp::eye(3, 4, 1, cupp::int32);
//   auto g = cupp::meshgrid({x, y}, {.indexing = "ij"});
//
// Values are computed on the GPU (one small cached NVRTC kernel per routine family and dtype,
// or element-wise ufuncs over views); memory comes from the current device's pool for the
// current stream; nothing synchronises. Bad input raises cupp::ValueError, TypeError,
// AxisError or OverflowError as NumPy would (docs/api/creation.md lists each routine, its
// errors and its differences from NumPy).
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"
#include "cupp/routines.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

// ---- ones, full

// numpy.ones: every element 1 (True for bool, 1+0j for complex).
ndarray ones(std::span<const std::int64_t> shape, cupp::dtype type = float64);
ndarray ones(std::initializer_list<std::int64_t> shape, cupp::dtype type = float64);
// numpy.full: without a dtype, a weak scalar gives bool / int64 (uint64 beyond int64) / float64 /
// complex128, as np.asarray(fill_value) would; with one, the value is copied in with
// casting='unsafe' (an integer that does not fit an integer dtype is still an OverflowError, as
// in NumPy 2). An array fill value broadcasts to the shape (its dtype when none is given).
ndarray full(std::span<const std::int64_t> shape, const weak_scalar& fill_value,
             std::optional<cupp::dtype> type = std::nullopt);
ndarray full(std::initializer_list<std::int64_t> shape, const weak_scalar& fill_value,
             std::optional<cupp::dtype> type = std::nullopt);
ndarray full(std::span<const std::int64_t> shape, const ndarray& fill_value,
             std::optional<cupp::dtype> type = std::nullopt);
ndarray full(std::initializer_list<std::int64_t> shape, const ndarray& fill_value,
             std::optional<cupp::dtype> type = std::nullopt);

// ---- the *_like forms: numpy's dtype= and shape= overrides; order='K' (the prototype's memory
// order is kept when the shape has its number of dimensions, else C order).
struct like_options {
  std::optional<cupp::dtype> dtype{};
  std::optional<shape_t> shape{};
};
ndarray empty_like(const ndarray& prototype, const like_options& options = {});
ndarray zeros_like(const ndarray& prototype, const like_options& options = {});
ndarray ones_like(const ndarray& prototype, const like_options& options = {});
ndarray full_like(const ndarray& prototype, const weak_scalar& fill_value, const like_options& options = {});
ndarray full_like(const ndarray& prototype, const ndarray& fill_value, const like_options& options = {});

// ---- numerical ranges

// numpy.arange([start,] stop[, step], dtype=None). Length ceil((stop - start) / step) (0 when
// negative). Without a dtype: int64 when every argument is an integer (or bool) that fits int64,
// complex128 when one is complex, else float64. Values as NumPy computes them: the first two
// elements are start and start + step set into the dtype (OverflowError for an integer that does
// not fit, as NumPy 2), the rest start + i * (second - first) in the dtype's computing type.
// step 0 is a ValueError("arange: step must not be zero (division by zero)") where NumPy raises
// ZeroDivisionError, which cupp has no class for; a NaN length is ValueError("arange: cannot
// compute length"), one beyond int64 ValueError("Maximum allowed size exceeded"); bool results
// longer than 2 are a TypeError, as in NumPy.
ndarray arange(const weak_scalar& stop, std::optional<cupp::dtype> type = std::nullopt);
ndarray arange(const weak_scalar& start, const weak_scalar& stop, const weak_scalar& step = 1,
               std::optional<cupp::dtype> type = std::nullopt);

struct linspace_options {
  bool endpoint = true;
  std::optional<cupp::dtype> dtype{};  // default: float64 (complex128 for complex endpoints)
  int axis = 0;                        // where the samples go for array endpoints
};
// numpy.linspace(start, stop, num=50, endpoint=True, dtype=None, axis=0). start and stop are
// weak scalars or arrays (which broadcast; the samples axis is inserted at `axis`). Computed in
// float64 / complex128 (or the arrays' inexact result dtype) as NumPy does: i * step + start,
// the last sample set to stop when endpoint; integer dtypes get the floor. num < 0 is a
// ValueError.
ndarray linspace(const operand& start, const operand& stop, std::int64_t num = 50,
                 const linspace_options& options = {});
// numpy.linspace(..., retstep=True): the samples and the step (a 0-d array of the computing
// dtype, or an array of the endpoints' broadcast shape; NaN when num - endpoint < 1).
std::pair<ndarray, ndarray> linspace_with_step(const operand& start, const operand& stop, std::int64_t num = 50,
                                               const linspace_options& options = {});

struct logspace_options {
  bool endpoint = true;
  operand base = 10.0;                 // a weak scalar or an array (broadcast with start/stop)
  std::optional<cupp::dtype> dtype{};
  int axis = 0;
};
// numpy.logspace: power(base, linspace(start, stop, num, endpoint)), cast to dtype when given.
ndarray logspace(const operand& start, const operand& stop, std::int64_t num = 50,
                 const logspace_options& options = {});

struct geomspace_options {
  bool endpoint = true;
  std::optional<cupp::dtype> dtype{};
  int axis = 0;
};
// numpy.geomspace (NumPy 2's algorithm): negative and complex endpoints are rotated onto the
// positive real axis by sign(start), the samples are logspace of their log10s, the first and last
// samples are start and stop exactly. A zero endpoint is ValueError("Geometric sequence cannot
// include zero").
ndarray geomspace(const operand& start, const operand& stop, std::int64_t num = 50,
                  const geomspace_options& options = {});

// ---- matrices

// numpy.eye(N, M=None, k=0, dtype=float): ones on the k-th diagonal. Negative N or M: ValueError.
ndarray eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
            cupp::dtype type = float64);
// numpy.identity(n, dtype=float).
ndarray identity(std::int64_t n, cupp::dtype type = float64);
// numpy.tri(N, M=None, k=0, dtype=float): ones at and below the k-th diagonal.
ndarray tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
            cupp::dtype type = float64);
// numpy.tril / triu: a copy with the elements above (tril) / below (triu) the k-th diagonal
// zeroed, over the last two axes (stacks too); a 1-d array is first broadcast to (N, N), as
// NumPy does; a 0-d array is a TypeError (NumPy: tri() is missing N).
ndarray tril(const ndarray& m, std::int64_t k = 0);
ndarray triu(const ndarray& m, std::int64_t k = 0);
// numpy.diag: a 1-d v gives a new 2-d array with v on the k-th diagonal; a 2-d v gives its k-th
// diagonal as a read-only view (NumPy 2); any other ndim is ValueError("Input must be 1- or
// 2-d.").
ndarray diag(const ndarray& v, std::int64_t k = 0);
// numpy.diagflat: the flattened input on the k-th diagonal of a new 2-d array.
ndarray diagflat(const ndarray& v, std::int64_t k = 0);

// ---- grids

struct meshgrid_options {
  std::string indexing = "xy";  // "xy" (Cartesian) or "ij" (matrix); else ValueError
  bool sparse = false;          // true: each output keeps one axis of length > 1
  bool copy = true;             // false: read-only broadcast views of the inputs
};
// numpy.meshgrid(*xi, ...): each input flattened and laid along its own axis (the first two
// swapped for "xy"), then broadcast to the common shape unless sparse.
std::vector<ndarray> meshgrid(std::span<const ndarray> xs, const meshgrid_options& options = {});
std::vector<ndarray> meshgrid(std::initializer_list<ndarray> xs, const meshgrid_options& options = {});

// numpy.indices(dimensions, dtype=int): an array of shape (len(dimensions), *dimensions) whose
// i-th slice holds the index along axis i. Negative dimensions: ValueError.
ndarray indices(std::span<const std::int64_t> dimensions, cupp::dtype type = int64);
ndarray indices(std::initializer_list<std::int64_t> dimensions, cupp::dtype type = int64);
// numpy.indices(..., sparse=True): one array per axis, of shape (1, .., dim_i, .., 1).
std::vector<ndarray> indices_sparse(std::span<const std::int64_t> dimensions, cupp::dtype type = int64);

struct fromfunction_options {
  cupp::dtype dtype = float64;  // the dtype of the index arrays (NumPy's dtype=float)
  bool sparse = false;          // pass broadcastable sparse index arrays (saves memory)
};
// numpy.fromfunction(function, shape, dtype=float): function(*indices(shape, dtype)). The
// function gets the index arrays, one per axis; it typically calls ufuncs or an
// ElementwiseKernel, so the values are computed by one element-wise kernel:
//   cupp::ElementwiseKernel f("T i, T j", "T z", "z = i * 10 + j", "f");
//   auto a = cupp::fromfunction([&](std::span<const cupp::ndarray> ij) { return f(ij[0], ij[1]); }, {2, 3});
ndarray fromfunction(const std::function<ndarray(std::span<const ndarray>)>& function,
                     std::span<const std::int64_t> shape, const fromfunction_options& options = {});
ndarray fromfunction(const std::function<ndarray(std::span<const ndarray>)>& function,
                     std::initializer_list<std::int64_t> shape, const fromfunction_options& options = {});

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> creation_routines() noexcept;

// Internal, exposed for tests that run without a GPU: the number of elements numpy.arange gives
// for these arguments (the errors arange raises for them included), and its default dtype.
namespace detail {
// complex_dtype: whether the result's dtype is complex; when it is not, complex arguments whose
// quotient is complex are NumPy's TypeError("must be real number, not complex").
std::int64_t arange_length(const weak_scalar& start, const weak_scalar& stop, const weak_scalar& step,
                           bool complex_dtype = true);
cupp::dtype arange_default_dtype(const weak_scalar& start, const weak_scalar& stop, const weak_scalar& step);
// The dtype numpy.full(shape, value) picks without dtype= (np.asarray(value).dtype).
cupp::dtype full_default_dtype(const weak_scalar& value);
}  // namespace detail

}  // namespace cupp
