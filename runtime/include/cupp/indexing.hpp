// NumPy's indexing routines on the GPU: take, take_along_axis, put, put_along_axis, compress,
// extract, choose, select, putmask, place, fill_diagonal, unravel_index, ravel_multi_index, ix_.
// Each follows NumPy 2's signature and semantics; keyword arguments are trailing parameters or
// option structs:
//
//   auto t = cupp::take(a, idx, {.axis = 1, .mode = cupp::clip_mode::wrap});
//   cupp::put(a, idx, values);                          // duplicates: the last write wins
//   auto e = cupp::extract(cupp::greater(a, 0), a);
//   auto coords = cupp::unravel_index(flat, {3, 4});
//
// The work is done by one small NVRTC program per element width (1, 2, 4, 8 or 16 bytes: the
// kernels move bytes, so every dtype shares it), cached under the key "indexing:move": a strided
// gather (take, take_along_axis, choose, compress, extract), a three-step scatter (bounds check,
// last-write-wins winners, write: put, put_along_axis, place), putmask, a two-kernel mask
// compaction (the positions of the true elements of a mask) and unravel/ravel kernels.
// Out-of-bounds indices are found on the device: the kernel sets the program's error state
// (the first bad position and one bad value) and the routine reads it once at its end (one round
// trip, only in mode raise) and throws IndexError (ValueError where NumPy raises that: choose,
// unravel_index, ravel_multi_index). mode wrap and clip skip the check and the round trip.
// docs/api/indexing.md lists each routine, its errors and its differences from NumPy.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

// NumPy's mode= of take, put, choose and ravel_multi_index.
enum class clip_mode { raise, wrap, clip };
// "raise" / "wrap" / "clip"; ValueError "clipmode must be one of 'clip', 'raise', or 'wrap'".
clip_mode parse_clip_mode(std::string_view name);

// ---- take, take_along_axis, put, put_along_axis

struct take_options {
  std::optional<int> axis{};       // nullopt: the flattened array (NumPy's axis=None)
  ndarray out{};                   // write here (the result's shape; safe casting)
  clip_mode mode = clip_mode::raise;
};
// numpy.take(a, indices, axis=None, out=None, mode='raise'). The result's shape is
// a.shape[:axis] + indices.shape + a.shape[axis+1:]. Indices of an integer dtype (or bool; a
// float or uint64 index is NumPy's TypeError "Cannot cast array data ... according to the rule
// 'safe'"); negative indices count from the end once in mode raise. Errors: IndexError for an out
// of bounds index (mode raise; out, when given, is then left unchanged as NumPy's buffered out),
// or a non-empty take from an empty axis; AxisError; ValueError for an out of the wrong shape.
ndarray take(const ndarray& a, const ndarray& indices, const take_options& options = {});
// A scalar index: the axis is dropped (a 0-d result for axis=None).
ndarray take(const ndarray& a, std::int64_t index, const take_options& options = {});

// numpy.take_along_axis(arr, indices, axis=-1): indices has arr's ndim and broadcasts with arr
// off the axis. axis=None: arr flattened, indices 1-d. IndexError for an out of bounds index
// (negative ones count from the end), ValueError for unequal ndim, AxisError.
ndarray take_along_axis(const ndarray& arr, const ndarray& indices, std::optional<int> axis = -1);

// numpy.put(a, ind, v, mode='raise'): a.flat[ind] = v, v repeated as needed and cast unsafely to
// a's dtype. Duplicates: the last write wins. Mode raise: the writes before the first bad index
// are done, as NumPy does them (a non-contiguous `a` is left unchanged, as NumPy's write-back
// copy). ValueError for a read-only a; IndexError for a take from an empty a.
void put(const ndarray& a, const ndarray& indices, const operand& values, clip_mode mode = clip_mode::raise);

// numpy.put_along_axis(arr, indices, values, axis): values broadcast to the indices' (broadcast)
// shape; last write wins; nothing is written when an index is out of bounds (IndexError).
void put_along_axis(const ndarray& arr, const ndarray& indices, const operand& values, std::optional<int> axis);

// ---- masks

// The flat positions (int64, C order) of the nonzero elements of `mask` (any dtype; non-bool
// masks are cast to bool first). numpy.flatnonzero. Like nonzero, argwhere and a(mask) it is a
// stream compaction: a counting pass (32-bit mask loads, warp popc), a scan of the block counts
// on the device, one 8-byte download of the total (the only round trip), a writing pass.
ndarray flatnonzero(const ndarray& mask);
// numpy.nonzero(a): one int64 array per dimension (rows of one (ndim, count) result). ValueError
// for a 0-d array, as NumPy 2 ("Calling nonzero on 0d arrays is not allowed. ...").
std::vector<ndarray> nonzero(const ndarray& a);
// numpy.argwhere(a): the (count, ndim) int64 coordinates of the nonzero elements; a 0-d array
// gives shape (1, 0) or (0, 0).
ndarray argwhere(const ndarray& a);

// numpy.compress(condition, a, axis=None, out=None): condition 1-d (any dtype, nonzero = true);
// a condition longer than the axis with a true element beyond it is an IndexError, shorter ones
// select from the start. ValueError for a condition that is not 1-d.
ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis = std::nullopt,
                 const ndarray& out = {});
// numpy.extract(condition, arr): arr's elements (flattened) where condition (flattened) is
// nonzero; condition longer than arr is an IndexError as take's.
ndarray extract(const ndarray& condition, const ndarray& arr);

// numpy.putmask(a, mask, values): a.flat[n] = values.flat[n % len(values)] where mask.flat[n]
// (values cast unsafely). ValueError "putmask: mask and data must be the same size".
void putmask(const ndarray& a, const ndarray& mask, const operand& values);
// numpy.place(arr, mask, vals): the true positions of mask get vals in order, repeated.
// ValueError "Cannot insert from an empty array!" for empty vals with a true mask element.
void place(const ndarray& arr, const ndarray& mask, const operand& vals);

// ---- choose, select

// numpy.choose(a, choices, out=None, mode='raise'): a (integer) and the choices broadcast; the
// result has the choices' result_type. Mode raise: ValueError "invalid entry in choice array".
ndarray choose(const ndarray& a, std::span<const ndarray> choices, const ndarray& out = {},
               clip_mode mode = clip_mode::raise);
ndarray choose(const ndarray& a, std::initializer_list<ndarray> choices, const ndarray& out = {},
               clip_mode mode = clip_mode::raise);

// numpy.select(condlist, choicelist, default=0): boolean conditions; the first true one picks.
// ValueError for unequal lengths or an empty list; TypeError for a condition that is not bool.
ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist,
               const weak_scalar& default_value = 0);

// ---- diagonals

// numpy.fill_diagonal(a, val, wrap=False): in place; a.ndim >= 2, all lengths equal when > 2
// (ValueError); an array val is repeated along the diagonal.
void fill_diagonal(const ndarray& a, const operand& val, bool wrap = false);

// ---- index arithmetic

// numpy.unravel_index(indices, shape, order='C'): one int64 array per dimension (views of one
// result). ValueError "index 7 is out of bounds for array with size 6"; TypeError for a
// non-integer index.
std::vector<ndarray> unravel_index(const ndarray& indices, std::span<const std::int64_t> shape,
                                   order memory_order = order::C);
std::vector<ndarray> unravel_index(const ndarray& indices, std::initializer_list<std::int64_t> shape,
                                   order memory_order = order::C);
// numpy.ravel_multi_index(multi_index, dims, mode='raise', order='C'): the coordinate arrays
// broadcast; `modes` has one entry (for every dimension) or one per dimension. ValueError
// "invalid entry in coordinates array" (mode raise), "parameter multi_index must be a sequence
// of length N", "dimensions are too large"; TypeError for non-integer coordinates.
ndarray ravel_multi_index(std::span<const ndarray> multi_index, std::span<const std::int64_t> dims,
                          std::span<const clip_mode> modes = {}, order memory_order = order::C);

// numpy.ix_(*args): each 1-d integer (or bool: its nonzero positions) sequence reshaped to
// (1, .., n, .., 1); views where no bool is involved. ValueError "Cross index must be 1
// dimensional", "arrays used as indices must be of integer (or boolean) type".
std::vector<ndarray> ix_(std::span<const ndarray> args);

// ---- advanced indexing: cupp::getitem / cupp::setitem (cupp/ndarray.hpp), a(idx) and a(mask)
// NumPy's rules: integer arrays (any integer dtype; negative indices count from the end) and bool
// masks (a mask of k dims consumes k axes and is its nonzero()) mixed with integers, slices,
// newaxis and ellipsis. The advanced indices (integers included, when an array is present)
// broadcast together; their dims replace them in the result when they are adjacent, else they go
// first. A bool scalar (C++ bool or 0-d bool array) is a length-1 (true) or 0 (false) index that
// consumes no axis; a 0-d integer array is an integer. Errors (IndexError, NumPy's messages):
// "index 7 is out of bounds for axis 1 with size 3" (found on the device, read once per call),
// "boolean index did not match indexed array along axis 0; size of axis is 3 but size of
// corresponding boolean axis is 4", "arrays used as indices must be of integer (or boolean) type",
// "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) ",
// "too many indices for array: ...". Kernels: one index array is take's gather; a(mask) with a
// mask of a's shape is one stream compaction of the values; otherwise the index arrays are
// combined into byte offsets (one pass per array, bounds checked) and one gather reads them.
// Assignment scatters with last-write-wins for duplicate indices (NumPy's order on the CPU),
// after the bounds check (nothing is written on an error); a(mask) = scalar is one putmask pass.
// ufunc.at (cupp/ufunc.hpp): atomics for add, subtract, multiply, minimum, maximum, fmin, fmax
// and the bitwise ops on int32/int64/uint32/uint64/float32/float64 when the loop is the array's
// own dtype; any other ufunc or dtype is applied in rounds (each round one occurrence of every
// index), so duplicates accumulate in order, as NumPy's unbuffered loop.

// The indexing routines with their NumPy signatures (cupp ops --routines).
std::span<const routine_info> indexing_routines() noexcept;

namespace detail {
// Host-only pieces, exposed for tests that run without a GPU.
// The shape numpy.take gives (axis normalised against a.ndim; -1 for axis None).
shape_t take_shape(std::span<const std::int64_t> a_shape, std::span<const std::int64_t> indices_shape,
                   std::optional<int> axis);
// The index dtype check: TypeError unless integer (not uint64) or bool.
void require_index_dtype(const dtype& type, std::string_view routine);
}  // namespace detail

}  // namespace cupp
