// NumPy 2's searching, counting and set routines on the GPU: searchsorted, digitize, bincount,
// histogram, unique (and NumPy 2's unique_values, unique_counts, unique_inverse, unique_all),
// isin / in1d, intersect1d, union1d, setdiff1d, setxor1d. Keyword arguments are option structs:
//
//   auto idx = cupp::searchsorted(edges, x, {.side = cupp::search_side::right});
//   auto [hist, edges] = cupp::histogram(a, 20, {.range = std::pair{0.0, 1.0}, .density = true});
//   auto u = cupp::unique(a);                                     // the sorted unique values
//   auto r = cupp::unique(a, {.return_inverse = true, .return_counts = true});
//   auto rows = cupp::unique(m, {.return_counts = true, .axis = 0});    // the unique rows of m
//   auto m = cupp::isin(a, cupp::array({1, 5, 7}), {.invert = true});
//
// Ordering is NumPy's sort order: NaN last, complex numbers lexicographic (a NaN in either part
// sorts last). Searches are one NVRTC kernel per dtype (a thread per query, binary search);
// bincount and histogram count with atomics (integer counts are exact; float weights are summed
// in float64 with atomics, so their rounding may differ from NumPy's sequential sum in the last
// bits). unique and the set routines sort first (cupp/sorting.hpp: sort, stable argsort; lexsort of
// the sub-arrays for unique with an axis), then flag neighbours and compact (flatnonzero, take).
// docs/api/searching.md lists each routine.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"

namespace cupp {

// ---- searchsorted, digitize

// NumPy's side= of searchsorted.
enum class search_side { left, right };
// "left" / "right"; ValueError "search side must be 'left' or 'right' (got 'x')".
search_side parse_search_side(std::string_view name);

struct searchsorted_options {
  search_side side = search_side::left;
  ndarray sorter{};  // optional: int indices that sort `a` (argsort(a))
};
// numpy.searchsorted(a, v, side='left', sorter=None): for each element of v the index where it
// would be inserted into the sorted 1-d `a` to keep it sorted (left: the first such, right: the
// last). Both are compared in promote_types(a.dtype, v.dtype); the result is int64 of v's shape
// (0-d for a 0-d v). Errors: ValueError "object of too small depth for desired array" (0-d a),
// "object too deep for desired array" (a of 2 or more dimensions), "sorter.size must equal
// a.size", "Sorter index out of range." (found by the kernel); TypeError for a sorter that is not
// of an integer dtype (safe cast to int64).
ndarray searchsorted(const ndarray& a, const ndarray& v, const searchsorted_options& options = {});
// A scalar v (a 0-d result); the scalar takes its default dtype (int64, float64, complex128, bool).
ndarray searchsorted(const ndarray& a, const weak_scalar& v, const searchsorted_options& options = {});

// numpy.digitize(x, bins, right=False): the bin index of each x (int64, x's shape) for 1-d bins
// that increase or decrease monotonically. TypeError "x may not be complex"; ValueError "bins
// must be monotonically increasing or decreasing"; bins of the wrong dimension as searchsorted.
ndarray digitize(const ndarray& x, const ndarray& bins, bool right = false);

// ---- bincount, histogram

struct bincount_options {
  ndarray weights{};          // optional: x's length, cast to float64 (safe)
  std::int64_t minlength = 0;
};
// numpy.bincount(x, weights=None, minlength=0): x 1-d, non-negative, of an integer or bool dtype
// (safe cast to int64); the counts (int64) or the sums of the weights (float64) of every value
// 0..max(x), at least minlength long. ValueError "'list' argument must have no negative
// elements", "'minlength' must not be negative", "The weights and list don't have the same
// length.", wrong dimensions as searchsorted; TypeError "Cannot cast array data from ...".
ndarray bincount(const ndarray& x, const bincount_options& options = {});

struct histogram_options {
  std::optional<std::pair<double, double>> range{};  // default: (a.min(), a.max())
  ndarray weights{};                                 // optional: a's shape
  bool density = false;
};
struct histogram_result {
  ndarray hist;       // int64 counts, the weights' dtype with weights, float64 with density
  ndarray bin_edges;  // bins + 1 edges
};
// numpy.histogram(a, bins=10, range=None, weights=None, density=False) with `bins` equal-width
// bins: the edges are NumPy's (linspace of the range in a's float dtype, float64 for integer a;
// an empty range widened by 0.5 each way); every bin is half-open but the last, which is closed.
// bool a counts as uint8; complex a is a TypeError (cupp does not histogram complex data).
// ValueError "`bins` must be positive, when an integer", "max must be larger than min in range
// parameter.", "supplied range of [lo, hi] is not finite", "autodetected range of [lo, hi] is not
// finite", "weights should have the same shape as a.".
histogram_result histogram(const ndarray& a, std::int64_t bins = 10, const histogram_options& options = {});
// The bin edges given (1-d, increasing; ValueError "`bins` must increase monotonically, when an
// array", "`bins` must be 1d, when an array"); range is then ignored, as NumPy ignores it.
histogram_result histogram(const ndarray& a, const ndarray& bins, const histogram_options& options = {});

// ---- unique

struct unique_options {
  bool return_index = false;    // first occurrences (int64)
  bool return_inverse = false;  // indices into the unique values that rebuild ar (int64, ar's shape;
                                // 1-d of the axis's length with an axis)
  bool return_counts = false;   // occurrences (int64)
  std::optional<int> axis{};    // nullopt: the flattened array; else the sub-arrays along this axis
  bool equal_nan = true;        // all NaNs one value (NumPy's default; no effect with an axis)
};
// What unique gives; the arrays not asked for are null.
struct unique_result {
  ndarray values, index, inverse, counts;
};
// numpy.unique(ar): the sorted unique values of the flattened ar, NaNs collapsed to one.
ndarray unique(const ndarray& ar);
// numpy.unique(ar, return_index, return_inverse, return_counts, axis=None, equal_nan).
//
// With an axis: the unique sub-arrays ar[..., i, ...] along it, as NumPy: each is flattened in C
// order and they are sorted lexicographically, element by element in NumPy's sort order (NaN last,
// -0.0 equal to 0.0, complex by real then imaginary part), first element first. Two sub-arrays are
// the same when every element is == (NumPy compares them as structured rows), so a sub-array
// holding a NaN is never equal to another and equal_nan has no effect (NumPy's behaviour). values
// has ar's shape with that axis the number of unique sub-arrays; index (first occurrences),
// inverse and counts are 1-d int64 of the axis's length (inverse) or of the unique count. Among
// equal sub-arrays (-0.0 and 0.0) the first in ar is the one returned (a stable sort; NumPy's
// unstable sort may return another for inputs of more than 16 sub-arrays). AxisError for an axis
// out of range, a 0-d ar included ("axis 0 is out of bounds for array of dimension 0").
// On the GPU: one stable lexsort over the columns (one radix sort per element of a sub-array, the
// last element first), a gather of the sorted rows, one kernel flagging rows that differ from the
// one before, then flatnonzero, cumsum and take as for the flattened array.
unique_result unique(const ndarray& ar, const unique_options& options);

// NumPy 2's Array API forms: unique(..., equal_nan=False) (each NaN its own value).
struct unique_all_result {
  ndarray values, indices, inverse_indices, counts;
};
struct unique_counts_result {
  ndarray values, counts;
};
struct unique_inverse_result {
  ndarray values, inverse_indices;
};
unique_all_result unique_all(const ndarray& x);
unique_counts_result unique_counts(const ndarray& x);
unique_inverse_result unique_inverse(const ndarray& x);
// Sorted here (NumPy >= 2.3 leaves the order of unique_values unspecified).
ndarray unique_values(const ndarray& x);

// ---- membership and sets

struct isin_options {
  bool assume_unique = false;  // accepted; the result does not depend on it
  bool invert = false;
};
// numpy.isin(element, test_elements, assume_unique=False, invert=False): bool of element's shape,
// true where an element equals (==, in result_type of the two) one of test_elements (flattened).
// NaN is never found.
ndarray isin(const ndarray& element, const ndarray& test_elements, const isin_options& options = {});
// numpy.in1d (deprecated in NumPy 2): isin of the flattened ar1 (a 1-d result).
ndarray in1d(const ndarray& ar1, const ndarray& ar2, const isin_options& options = {});

// numpy.intersect1d(ar1, ar2, assume_unique=False): the sorted unique values in both.
ndarray intersect1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);
// numpy.intersect1d(..., return_indices=True): also the first indices in the flattened ar1, ar2.
struct intersect1d_result {
  ndarray values, indices1, indices2;
};
intersect1d_result intersect1d_with_indices(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);
// numpy.union1d(ar1, ar2): the sorted unique values in either.
ndarray union1d(const ndarray& ar1, const ndarray& ar2);
// numpy.setdiff1d(ar1, ar2, assume_unique=False): the unique values of ar1 not in ar2 (sorted
// unless assume_unique, which keeps ar1's order).
ndarray setdiff1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);
// numpy.setxor1d(ar1, ar2, assume_unique=False): the sorted values in exactly one of them.
ndarray setxor1d(const ndarray& ar1, const ndarray& ar2, bool assume_unique = false);

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> searching_routines() noexcept;

namespace detail {
// Host-only pieces, exposed for tests that run without a GPU.
// NumPy's _monotonicity of bins (as float64): 1 increasing (or all equal, or empty), -1
// decreasing, 0 neither.
int bins_monotonicity(std::span<const double> bins);
// The dtype histogram's equal-width edges have for data of dtype `a` (bool counts as uint8):
// a's own for a float dtype, float64 otherwise.
cupp::dtype histogram_bin_dtype(cupp::dtype a);
}  // namespace detail

}  // namespace cupp
