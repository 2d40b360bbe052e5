// cupp's sorting routines (NumPy 2): sort, argsort, lexsort, partition, argpartition.
//
// Every dtype with a kernel is accepted (bool, integers, float16, bfloat16, float32, float64,
// complex64, complex128). Order is NumPy's: NaN last (every NaN equal to every other), -0.0 equal
// to 0.0, complex lexicographic by real then imaginary part with NumPy's NaN classes
// [R + Rj, R + nanj, nan + Rj, nan + nanj]. argsort, lexsort and argpartition are always stable
// (equal elements keep their order), so every `kind` gives the same result. sort without
// stable=True may put -0.0 before an equal 0.0 that came first (NumPy's default sort is not stable
// either); with stable=True (or kind='stable'/'mergesort') the input order of equal elements is
// kept. partition and argpartition do a full stable sort, which satisfies NumPy's contract (the
// kth element in its sorted place, nothing greater before it, nothing smaller after it).
//
// The work is an LSD radix sort over order-preserving unsigned keys: CUB's DeviceRadixSort,
// compiled ahead of time, when CUPP_ACCELERATORS lists `cub` (the default), else cupp's own NVRTC
// radix sort. Sorting along an axis moves the axis last (a contiguous copy) and sorts every row
// at once (the row number in the key's high bits, or a last stable pass by row).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/creation.hpp"  // routine_info
#include "cupp/ndarray.hpp"

namespace cupp {

// numpy.sort / numpy.argsort keyword arguments. axis nullopt sorts the flattened array. kind is
// 'quicksort', 'mergesort', 'heapsort' or 'stable' (NumPy checks the first letter; anything else
// is ValueError); kind and stable together are ValueError, as in NumPy 2.
struct sort_options {
  std::optional<int> axis = -1;
  std::optional<std::string> kind = std::nullopt;
  std::optional<bool> stable = std::nullopt;
};

// numpy.sort(a, axis=-1, kind=None, stable=None): a sorted copy (C-contiguous). AxisError for a
// bad axis (a 0-d array with axis=-1 included, as NumPy); TypeError for a structured dtype.
ndarray sort(const ndarray& a, std::optional<int> axis = -1);
ndarray sort(const ndarray& a, const sort_options& options);

// numpy.argsort(a, axis=-1, kind=None, stable=None): int64 indices that sort a along axis
// (stable). A 0-d array gives [0] (NumPy treats it as one element).
ndarray argsort(const ndarray& a, std::optional<int> axis = -1);
ndarray argsort(const ndarray& a, const sort_options& options);

// numpy.lexsort(keys, axis=-1): int64 indices that sort by the last key, then the one before, ...
// Keys must share one shape (ValueError "all keys need to be the same shape"); no keys is
// TypeError. The ndarray form takes keys[i] along the first axis, as NumPy does for an array.
ndarray lexsort(std::span<const ndarray> keys, int axis = -1);
ndarray lexsort(std::initializer_list<ndarray> keys, int axis = -1);
ndarray lexsort(const ndarray& keys, int axis = -1);

// numpy.partition / numpy.argpartition(a, kth, axis=-1): kth an integer or a sequence (negative
// counts from the end; ValueError "kth(=k) out of bounds (n)"). Done by a full stable sort.
ndarray partition(const ndarray& a, std::int64_t kth, std::optional<int> axis = -1);
ndarray partition(const ndarray& a, std::span<const std::int64_t> kth, std::optional<int> axis = -1);
ndarray partition(const ndarray& a, std::initializer_list<std::int64_t> kth, std::optional<int> axis = -1);
ndarray argpartition(const ndarray& a, std::int64_t kth, std::optional<int> axis = -1);
ndarray argpartition(const ndarray& a, std::span<const std::int64_t> kth, std::optional<int> axis = -1);
ndarray argpartition(const ndarray& a, std::initializer_list<std::int64_t> kth, std::optional<int> axis = -1);

// ---- for tools: the routines above, by name, with their NumPy signatures (cupp ops lists them).
std::span<const routine_info> sorting_routines() noexcept;

namespace detail {
// Host-only pieces and switches, exposed for tests.

// Which sort engine runs: nullopt follows CUPP_ACCELERATORS ("cub" listed: CUB); true / false
// force CUB / cupp's own NVRTC radix sort. Process-wide; for tests and benchmarks.
void set_sort_accelerator(std::optional<bool> use_cub) noexcept;
// Whether the next sort uses CUB.
bool sort_uses_cub() noexcept;
// How many CUB sorts this process has launched.
std::uint64_t cub_sort_launches() noexcept;

// The NumPy checks: a kind string (ValueError), kind with stable (ValueError); kth normalised
// against n (ValueError "kth(=k) out of bounds (n)").
void check_sort_kind(const sort_options& options);
std::vector<std::int64_t> normalize_kth(std::span<const std::int64_t> kth, std::int64_t n);
}  // namespace detail

}  // namespace cupp
