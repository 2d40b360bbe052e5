// NumPy's array manipulation routines on the GPU: joining (concatenate/concat, stack, hstack,
// vstack, dstack, column_stack, append), splitting (split, array_split, hsplit, vsplit, dsplit),
// rearranging (flip, fliplr, flipud, rot90, roll), tiling (tile, repeat, resize), dimensions
// (atleast_1d/2d/3d) and editing (insert, delete_). Each follows NumPy 2's signature and
// semantics; keyword arguments are trailing parameters or option structs:
//
//   auto c = cupp::concatenate({a, b}, {.axis = 1});
//   auto f = cupp::concatenate({a, b}, {.axis = std::nullopt});   // axis=None: flattened
//   auto s = cupp::stack({a, b}, {.axis = -1});
//   auto parts = cupp::array_split(a, 3);                        // std::vector of views
//   auto r = cupp::roll(a, {1, -2}, {0, 1});
//
// What NumPy returns as a view is a view here too (split, flip, rot90, atleast_nd: no device
// work); the rest write a new array with one copy per input (concatenate: cudaMemcpyAsync for
// whole contiguous blocks, else the engine's copy kernel into the output's slice view) or one
// broadcast copy (tile, repeat by a scalar, resize). Nothing stages through the host except the
// per-element counts of repeat and the indices of insert/delete_, which decide the output shape.
// Bad input raises cupp::AxisError (an axis out of range), ValueError (shapes, counts), TypeError
// (casting) or IndexError (insert/delete_ indices) as NumPy would; docs/api/manipulation.md lists
// each routine, its errors and its differences from NumPy.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <variant>
#include <vector>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

// ---- joining

struct concatenate_options {
  std::optional<int> axis = 0;           // nullopt: NumPy's axis=None (inputs flattened)
  ndarray out{};                          // write here (its shape must be the result's)
  std::optional<cupp::dtype> dtype{};    // the result dtype (not with out)
  cupp::casting casting = casting::same_kind;
};
// numpy.concatenate((a1, a2, ...), axis=0, out=None, dtype=None, casting="same_kind"). Without
// dtype/out the result dtype is NumPy's n-ary result_type of the inputs. Errors: no arrays or 0-d
// arrays (ValueError), unequal ndim or sizes off the axis (ValueError, NumPy's messages), a bad
// axis (AxisError), both out and dtype (TypeError), a cast `casting` forbids (TypeError).
ndarray concatenate(std::span<const ndarray> arrays, const concatenate_options& options = {});
ndarray concatenate(std::initializer_list<ndarray> arrays, const concatenate_options& options = {});
// The Array API name.
ndarray concat(std::span<const ndarray> arrays, const concatenate_options& options = {});
ndarray concat(std::initializer_list<ndarray> arrays, const concatenate_options& options = {});

struct stack_options {
  int axis = 0;
  ndarray out{};
  std::optional<cupp::dtype> dtype{};
  cupp::casting casting = casting::same_kind;
};
// numpy.stack: the arrays (all of one shape, else ValueError "all input arrays must have the same
// shape") joined along a new axis.
ndarray stack(std::span<const ndarray> arrays, const stack_options& options = {});
ndarray stack(std::initializer_list<ndarray> arrays, const stack_options& options = {});

struct join_options {
  std::optional<cupp::dtype> dtype{};
  cupp::casting casting = casting::same_kind;
};
// numpy.hstack (1-d inputs along axis 0, else axis 1), vstack (atleast_2d, axis 0), dstack
// (atleast_3d, axis 2), column_stack (1-d inputs become columns, axis 1).
ndarray hstack(std::span<const ndarray> arrays, const join_options& options = {});
ndarray hstack(std::initializer_list<ndarray> arrays, const join_options& options = {});
ndarray vstack(std::span<const ndarray> arrays, const join_options& options = {});
ndarray vstack(std::initializer_list<ndarray> arrays, const join_options& options = {});
ndarray dstack(std::span<const ndarray> arrays);
ndarray dstack(std::initializer_list<ndarray> arrays);
ndarray column_stack(std::span<const ndarray> arrays);
ndarray column_stack(std::initializer_list<ndarray> arrays);

// numpy.append(arr, values, axis=None): without an axis both are flattened first.
ndarray append(const ndarray& arr, const ndarray& values, std::optional<int> axis = std::nullopt);

// ---- splitting: views of `a`, as NumPy returns them

// numpy.split(a, sections, axis): ValueError("array split does not result in an equal division")
// when the axis length is not a multiple; sections <= 0: ValueError("number sections must be larger
// than 0.").
std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis = 0);
// numpy.split(a, indices, axis): the pieces a[:i0], a[i0:i1], ..., a[ik:] along axis (Python's
// slice rules: negative indices count from the end, out-of-range ones clip, so pieces may be empty).
std::vector<ndarray> split(const ndarray& a, std::span<const std::int64_t> indices, int axis = 0);
std::vector<ndarray> split(const ndarray& a, std::initializer_list<std::int64_t> indices, int axis = 0);
// numpy.array_split: like split, but `sections` need not divide the length (the first
// length % sections pieces are one longer).
std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis = 0);
std::vector<ndarray> array_split(const ndarray& a, std::span<const std::int64_t> indices, int axis = 0);
std::vector<ndarray> array_split(const ndarray& a, std::initializer_list<std::int64_t> indices, int axis = 0);
// numpy.hsplit (axis 1, or 0 for 1-d), vsplit (axis 0, ndim >= 2), dsplit (axis 2, ndim >= 3).
std::vector<ndarray> hsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> hsplit(const ndarray& a, std::span<const std::int64_t> indices);
std::vector<ndarray> vsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> vsplit(const ndarray& a, std::span<const std::int64_t> indices);
std::vector<ndarray> dsplit(const ndarray& a, std::int64_t sections);
std::vector<ndarray> dsplit(const ndarray& a, std::span<const std::int64_t> indices);

// ---- rearranging

// numpy.flip(m, axis=None): a view with negative strides; no axis flips every axis. Repeated axes
// are a ValueError, an axis out of range an AxisError.
ndarray flip(const ndarray& m);
ndarray flip(const ndarray& m, int axis);
ndarray flip(const ndarray& m, std::span<const int> axes);
ndarray flip(const ndarray& m, std::initializer_list<int> axes);
// numpy.fliplr (ndim >= 2) and flipud (ndim >= 1): views.
ndarray fliplr(const ndarray& m);
ndarray flipud(const ndarray& m);
// numpy.rot90(m, k=1, axes=(0, 1)): a view, rotated k times from the first axis to the second.
ndarray rot90(const ndarray& m, std::int64_t k = 1, std::array<int, 2> axes = {0, 1});

// numpy.roll(a, shift, axis=None): a new array (without an axis, over the flattened array).
// Shifts and axes broadcast against each other; repeated axes add their shifts.
ndarray roll(const ndarray& a, std::int64_t shift);
ndarray roll(const ndarray& a, std::int64_t shift, int axis);
ndarray roll(const ndarray& a, std::span<const std::int64_t> shifts, std::span<const int> axes);
ndarray roll(const ndarray& a, std::initializer_list<std::int64_t> shifts, std::initializer_list<int> axes);

// ---- tiling and repeating

// numpy.tile(A, reps): one broadcast copy. Negative reps: ValueError.
ndarray tile(const ndarray& a, std::span<const std::int64_t> reps);
ndarray tile(const ndarray& a, std::initializer_list<std::int64_t> reps);
ndarray tile(const ndarray& a, std::int64_t reps);
// numpy.repeat(a, repeats, axis=None): a count for every element (one broadcast copy) or one count
// per element along the axis (a vector, or an integer array read to the host: the output's shape
// depends on it). ValueError for negative counts or a count list that does not match the axis.
ndarray repeat(const ndarray& a, std::int64_t repeats, std::optional<int> axis = std::nullopt);
ndarray repeat(const ndarray& a, std::span<const std::int64_t> repeats, std::optional<int> axis = std::nullopt);
ndarray repeat(const ndarray& a, std::initializer_list<std::int64_t> repeats, std::optional<int> axis = std::nullopt);
ndarray repeat(const ndarray& a, const ndarray& repeats, std::optional<int> axis = std::nullopt);

// numpy.resize(a, new_shape): the flattened a repeated (cyclically) to fill new_shape; zeros when
// a is empty. Negative dimensions: ValueError.
ndarray resize(const ndarray& a, std::span<const std::int64_t> new_shape);
ndarray resize(const ndarray& a, std::initializer_list<std::int64_t> new_shape);

// ---- dimensions: views

ndarray atleast_1d(const ndarray& a);
ndarray atleast_2d(const ndarray& a);
ndarray atleast_3d(const ndarray& a);
std::vector<ndarray> atleast_1d(std::span<const ndarray> arrays);
std::vector<ndarray> atleast_2d(std::span<const ndarray> arrays);
std::vector<ndarray> atleast_3d(std::span<const ndarray> arrays);

// ---- editing

// What insert/delete_ act on along the axis: one index, a slice, or a list of indices.
using index_spec = std::variant<std::int64_t, slice, std::vector<std::int64_t>>;
// numpy.delete(arr, obj, axis=None): a new array without the selected entries (IndexError for an
// index out of range). `delete` is a C++ keyword.
ndarray delete_(const ndarray& arr, const index_spec& obj, std::optional<int> axis = std::nullopt);
// numpy.delete(arr, mask, axis) with a boolean mask of the axis's length (ValueError otherwise).
ndarray delete_(const ndarray& arr, const std::vector<bool>& mask, std::optional<int> axis = std::nullopt);
// numpy.insert(arr, obj, values, axis=None): values (cast to arr's dtype, broadcast) inserted
// before the given indices. One integer index inserts values as a block (NumPy's moveaxis rule);
// a list or slice inserts one entry per index.
ndarray insert(const ndarray& arr, const index_spec& obj, const operand& values,
               std::optional<int> axis = std::nullopt);

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> manipulation_routines() noexcept;

}  // namespace cupp
