// NumPy's array manipulation routines on the GPU: joining (concatenate/concat, stack, hstack,
// vstack, dstack, column_stack, append), splitting (split, array_split, hsplit, vsplit, dsplit),
// rearranging (flip, fliplr, flipud, rot90, roll), tiling (tile, repeat, resize), dimensions
// (atleast_1d/2d/3d), editing (insert, delete_), padding (pad), element-wise selection and value
// editing (clip, where, round/around, nan_to_num, angle, trim_zeros), interpolation (interp),
// discrete convolution (convolve, correlate), and the NumPy 2 forms of the shape and axis views
// that cupp/ndarray.hpp lacks (reshape with order=/copy=, ravel with order=, matrix_transpose,
// rollaxis, moveaxis and expand_dims with several axes, squeeze with axes, parse_order). Each
// follows NumPy 2's signature and semantics; keyword arguments are trailing parameters or option
// structs:
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
#include <complex>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "cupp/routines.hpp"
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

// ---- padding (pad.cpp)

// NumPy's ((before, after), ...) arguments of pad: one value for every side of every axis (N),
// one pair for every axis ({before, after}), or one pair per axis ({{b0, a0}, {b1, a1}, ...}; a
// single pair in braces counts for every axis). Resolved against the array's ndim as NumPy's
// _as_pairs does: ValueError "operands could not be broadcast together with remapped shapes ..."
// when the number of pairs is neither 1 nor ndim.
class pad_widths {
 public:
  pad_widths() = default;  // no pairs: NumPy's None (stat_length's default; an empty pad_width is ValueError)
  pad_widths(std::int64_t all) : pairs_{{all, all}}, broadcast_(true) {}  // NOLINT: pad(a, 2)
  pad_widths(std::int64_t before, std::int64_t after) : pairs_{{before, after}}, broadcast_(true) {}
  pad_widths(std::initializer_list<std::array<std::int64_t, 2>> per_axis) : pairs_(per_axis) {}
  explicit pad_widths(std::vector<std::array<std::int64_t, 2>> per_axis) : pairs_(std::move(per_axis)) {}
  std::span<const std::array<std::int64_t, 2>> pairs() const noexcept { return pairs_; }
  bool broadcast() const noexcept { return broadcast_; }  // one value or one pair for all axes
  bool given() const noexcept { return !pairs_.empty(); }

 private:
  std::vector<std::array<std::int64_t, 2>> pairs_;
  bool broadcast_ = false;
};

// pad's constant_values and end_values: like pad_widths, of numbers. constant_values are cast
// unsafely to the array's dtype (as NumPy's assignment of its NumPy scalars does). end_values are
// linspace endpoints as NumPy's _as_pairs makes them: one value or one pair become NumPy scalars
// of np.array(end_values)'s dtype (strong: int64 0 by default, so a float32 ramp computes in
// float64), ndim pairs Python numbers of that dtype's kind (weak). Default: 0.
class pad_values {
 public:
  pad_values() = default;
  template <class T>
    requires std::is_constructible_v<weak_scalar, T>
  pad_values(T all) : pairs_{{weak_scalar(all), weak_scalar(all)}}, broadcast_(true) {}  // NOLINT
  pad_values(weak_scalar before, weak_scalar after) : pairs_{{before, after}}, broadcast_(true) {}
  pad_values(std::initializer_list<std::array<weak_scalar, 2>> per_axis) : pairs_(per_axis) {}
  explicit pad_values(std::vector<std::array<weak_scalar, 2>> per_axis) : pairs_(std::move(per_axis)) {}
  std::span<const std::array<weak_scalar, 2>> pairs() const noexcept { return pairs_; }
  bool broadcast() const noexcept { return broadcast_; }
  bool given() const noexcept { return !pairs_.empty(); }

 private:
  std::vector<std::array<weak_scalar, 2>> pairs_;
  bool broadcast_ = false;
};

struct pad_options {
  // "constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect",
  // "symmetric", "wrap" or "empty" (uninitialised pads).
  std::string_view mode = "constant";
  pad_values constant_values{};   // mode "constant" only (ValueError with another mode); default 0
  pad_values end_values{};        // mode "linear_ramp" only; default 0
  pad_widths stat_length{};       // maximum/mean/median/minimum only; default None (the whole axis)
  std::string_view reflect_type{};  // reflect/symmetric only: "odd", else "even" (NumPy checks no other value)
};
// numpy.pad(array, pad_width, mode='constant', **kwargs), NumPy 2's semantics and its order of
// work: axis by axis, each axis's pads computed from the array already padded along the earlier
// axes (so corners depend on that order, as NumPy's). Negative widths or stat_length: ValueError
// ("index can't contain negative values"); an unknown mode: ValueError("mode 'x' is not
// supported"); a keyword the mode does not take: ValueError("unsupported keyword arguments for
// mode 'edge': {'constant_values'}"); a mode other than constant/empty that would extend an empty
// axis: ValueError; stat_length 0 with maximum/minimum: ValueError("stat_length of 0 yields no
// value for padding"); complex end_values for an integer array: TypeError (NumPy's floor).
// constant/edge/wrap/reflect/symmetric (even) are one gather kernel; linear_ramp (NumPy's
// linspace over the edges, floor for integers), the statistics (cupp's max/min/mean/median over
// views of the edge regions; mean and median rounded half to even for integer arrays) and
// reflect_type='odd' (NumPy's chunked reflection, 2 * edge - chunk) are a few kernels per axis.
// A 0-d array comes back as a copy.
ndarray pad(const ndarray& array, const pad_widths& pad_width, const pad_options& options = {});

// ---- element-wise selection and value editing (elementwise_routines.cpp)

// numpy.clip(a, a_min, a_max): NumPy 2's clip ufunc (three inputs, NEP 50 promotion of weak
// scalars, NaN in any input propagates) when both bounds are given; minimum(a, a_max) or
// maximum(a, a_min) when one is std::nullopt, positive(a) when both are. As NumPy's _clip, a weak
// integer bound beyond an integer array's range counts as no bound. out=, where=, dtype= and
// casting= as a ufunc's.
ndarray clip(const ndarray& a, const std::optional<operand>& a_min, const std::optional<operand>& a_max,
             const ufunc_options& options = {});

// numpy.where(condition, x, y): x where condition (nonzero) else y, broadcast together. The result
// dtype is result_type(x, y) under NEP 50 (weak scalars take the arrays' dtype); as NumPy's where,
// a weak scalar is then cast unsafely to it (where(c, int8_array, 300) wraps, no OverflowError).
// (The one-argument form is nonzero.)
ndarray where(const operand& condition, const operand& x, const operand& y);

// numpy.round / numpy.around(a, decimals=0): rint for decimals == 0, else NumPy's
// multiply-by-10**decimals, rint, divide (divide first for negative decimals). Integer arrays
// with decimals >= 0 are returned as they are (NumPy returns the same array); with negative
// decimals they round through float64 and come back in their dtype. Complex: each part rounded.
// bool: rint gives float16 (decimals != 0: TypeError, as NumPy's out= cast).
ndarray round(const ndarray& a, int decimals = 0);
ndarray around(const ndarray& a, int decimals = 0);

struct nan_to_num_options {
  bool copy = true;                    // false: replace in place (inexact arrays) and return x
  double nan = 0.0;                    // what NaN becomes
  std::optional<double> posinf{};      // default: the largest finite value of x's (real) dtype
  std::optional<double> neginf{};      // default: the most negative finite value
};
// numpy.nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None): one kernel; complex arrays
// have each part replaced. Integer and bool arrays come back as a copy (or x when copy=false).
ndarray nan_to_num(const ndarray& x, const nan_to_num_options& options = {});

// numpy.angle(z, deg=False): arctan2(z.imag, z.real) for complex z, arctan2(0, z) otherwise (so the
// result dtype is arctan2's for z: float16 for int8, float64 for int64), times 180/pi with deg.
ndarray angle(const ndarray& z, bool deg = false);

// numpy.trim_zeros(filt, trim='fb', axis=None): a view without the leading ('f') and/or trailing
// ('b') zeros: of a 1-d array; of an n-d array the bounding box of its nonzero elements on every
// axis (axis=None) or on one axis. An all-zero array gives length 0 on the trimmed axes. trim is
// case-insensitive; anything but f, b, fb, bf: ValueError("unexpected character(s) in `trim`: 'x'").
ndarray trim_zeros(const ndarray& filt, std::string_view trim = "fb", std::optional<int> axis = std::nullopt);

// ---- interpolation and discrete convolution (interp_convolve.cpp)

struct interp_options {
  std::optional<std::complex<double>> left{};   // default fp[0]
  std::optional<std::complex<double>> right{};  // default fp[-1]
  std::optional<double> period{};               // x and xp taken modulo period (left/right ignored)
};
// numpy.interp(x, xp, fp, left=None, right=None, period=None): one-dimensional piecewise-linear
// interpolation, one binary search per element of x, NumPy's arithmetic (no fused multiply-add) so
// results equal NumPy's. float64 result (complex128 when fp is complex) of x's shape. Errors:
// ValueError for empty xp, unequal lengths, xp/fp not 1-d, period == 0; TypeError for complex x/xp.
ndarray interp(const ndarray& x, const ndarray& xp, const ndarray& fp, const interp_options& options = {});

// numpy.convolve(a, v, mode='full') and numpy.correlate(a, v, mode='valid'); mode "full", "same"
// or "valid". The result dtype is promote_types(a, v) (bool: logical or of ands, as NumPy's dot);
// correlate conjugates v for complex input, and its output is reversed when v is the longer
// (NumPy's rule). Direct O(n*m) kernel, one thread per output element; float16/bfloat16
// accumulate in float32. Errors: ValueError for an empty input, an input that is not 1-d
// (convolve takes 0-d as length 1) or an unknown mode.
ndarray convolve(const ndarray& a, const ndarray& v, std::string_view mode = "full");
ndarray correlate(const ndarray& a, const ndarray& v, std::string_view mode = "valid");

// ---- shapes and axes: views (views.cpp)
// The ndarray's own view methods (a.reshape, a.transpose, a.swapaxes, a.moveaxis, a.squeeze,
// a.expand_dims, a.ravel) and their free forms (cupp::transpose, cupp::permute_dims, ...) are in
// cupp/ndarray.hpp; broadcast_to/broadcast_arrays there too; astype, copy, ascontiguousarray and
// asfortranarray in cupp/ufunc.hpp. These are the NumPy 2 forms they lack.

// NumPy's memory-order strings: "C", "F", "A" or "K"; anything else is NumPy's ValueError
// "order must be one of 'C', 'F', 'A', or 'K' (got 'x')".
cupp::order parse_order(std::string_view order);

struct reshape_options {
  // C: read and write the elements in C index order; F: in Fortran order (a.T reshaped to the
  // reversed shape, transposed back); A: F when a is Fortran- but not C-contiguous, else C.
  // K: ValueError "order 'K' is not permitted for reshaping", as NumPy.
  cupp::order order = cupp::order::C;
  // NumPy 2.1's copy=: nullopt copies only when no view fits; true always copies; false raises
  // ValueError "Unable to avoid creating a copy while reshaping." when no view fits.
  std::optional<bool> copy{};
};
// numpy.reshape(a, shape, order='C', *, copy=None): one -1 in shape is inferred; a size mismatch
// is ValueError "cannot reshape array of size 6 into shape (4,)".
ndarray reshape(const ndarray& a, std::span<const std::int64_t> shape, const reshape_options& options);
// numpy.ravel(a, order): C, F, A (as reshape's) or K (the axes in the order of their strides,
// largest first, as NumPy's iterator sorts them: a broadcast axis keeps its place; each axis read
// forwards, also with negative strides). A view when one fits.
ndarray ravel(const ndarray& a, cupp::order order);
// numpy.matrix_transpose(x): the last two axes swapped; ValueError "Input array must be at least
// 2-dimensional, but it is 1" for ndim < 2.
ndarray matrix_transpose(const ndarray& x);
// numpy.rollaxis(a, axis, start=0): axis moved to lie before start. AxisError for a bad axis or
// "'start' arg requires -2 <= start < 3, but 5 was passed in".
ndarray rollaxis(const ndarray& a, int axis, int start = 0);
// numpy.moveaxis(a, source, destination) with sequences of axes (one int each:
// a.moveaxis(source, destination)): the others keep their order. Repeated axes are ValueError
// ("repeated axis in `source` argument"), unequal lengths ValueError, bad axes AxisError.
ndarray moveaxis(const ndarray& a, std::span<const int> source, std::span<const int> destination);
// numpy.expand_dims(a, axis) with a tuple of axes: each counts in the result's ndim
// (a.ndim + len(axis)); repeated axes are ValueError("repeated axis"), bad ones AxisError.
ndarray expand_dims(const ndarray& a, std::span<const int> axes);
ndarray expand_dims(const ndarray& a, std::initializer_list<int> axes);
// numpy.squeeze(a, axis): only the given axes (each of length 1, else ValueError).
ndarray squeeze(const ndarray& a, std::span<const int> axes);

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> manipulation_routines() noexcept;

}  // namespace cupp
