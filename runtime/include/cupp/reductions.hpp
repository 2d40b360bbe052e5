// Reductions: sum, prod, max/amax, min/amin, all, any, mean over NumPy's axis=, keepdims=, dtype=
// and out=, with NumPy's result dtypes (sum of bool or small integers gives int64 or uint64;
// float16 accumulates in float32; mean of integers is float64). Each is its ufunc's reduce
// (sum is add.reduce); the kernels are deterministic (no atomics) and tree-shaped.
// Also argmax/argmin (and nanargmax/nanargmin), count_nonzero, var/std (and nanvar/nanstd), ptp,
// nansum, nanprod, nanmax, nanmin and nanmean, with NumPy 2's semantics (docs/reductions.md).
// initial= and where= (reduce_options) where NumPy takes them; var/std/nanvar/nanstd take where=.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "cupp/routines.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"
// The reductions that fold a ufunc (sum, prod, max, all, count_nonzero, nansum, nanmax, ...) are
// declared from specs/routines/reductions.yaml (generated; docs/api/reductions.md has each one's
// rules): NaN propagates in the plain ones; the nan-functions read NaN as the identity or skip
// it (fmax/fmin); their integer and bool inputs behave as in the plain functions.
#include "cupp/generated/reductions_folds.hpp"

namespace cupp {

ndarray mean(const ndarray& a, const reduce_options& options = {});

// NumPy's argmax(a, axis=None, out=None, *, keepdims=False): no axis gives the flat (C order)
// index as a 0-d int64 array. The first occurrence of the extreme wins; a NaN is the extreme (the
// first NaN wins); complex values compare by real part, then imaginary part. Empty:
// ValueError("attempt to get argmax of an empty sequence").
struct arg_options {
  std::optional<std::int64_t> axis{};  // none: the flattened array
  bool keepdims = false;
  ndarray out{};                       // int64 result written here (shape must match)
};
ndarray argmax(const ndarray& a, const arg_options& options = {});
ndarray argmin(const ndarray& a, const arg_options& options = {});
// NaN ignored; ValueError("All-NaN slice encountered") when a result has only NaN.
ndarray nanargmax(const ndarray& a, const arg_options& options = {});
ndarray nanargmin(const ndarray& a, const arg_options& options = {});

// numpy.var / numpy.std (NumPy's two-pass algorithm: the mean, then the mean squared deviation
// |x - mean|^2 summed and divided by n - ddof; n - ddof <= 0 gives inf or NaN, as NumPy does).
// Integers and bool compute in float64; float16 and bfloat16 in float32 and return their dtype;
// complex inputs give a real result. `std_` has a trailing underscore (namespace std).
struct var_options {
  cupp::axes axis{};
  bool keepdims = false;
  std::optional<cupp::dtype> dtype{};  // the dtype the mean and the deviations compute in
  ndarray out{};
  double ddof = 0;                     // "delta degrees of freedom"
  ndarray where{};                     // NumPy's where=: only these elements (bool, broadcast); n counts them
};
ndarray var(const ndarray& a, const var_options& options = {});
ndarray std_(const ndarray& a, const var_options& options = {});
// NaN ignored (a result with n - ddof <= 0 non-NaN elements is NaN); integers as var/std.
ndarray nanvar(const ndarray& a, const var_options& options = {});
ndarray nanstd(const ndarray& a, const var_options& options = {});

// numpy.ptp: max - min (in the input's dtype; bool is NumPy's TypeError of subtract).
ndarray ptp(const ndarray& a, const reduce_options& options = {});

// nanmean: the mean of the elements that are not NaN (an all-NaN slice is NaN); integer and
// bool inputs as mean.
ndarray nanmean(const ndarray& a, const reduce_options& options = {});

// ---- for tools: the routines above by name (amax and amin too), with their NumPy signatures, as
// specs/routines/reductions.yaml declares them (generated; `cupp ops` lists them).
std::span<const routine_info> reduction_routines() noexcept;

}  // namespace cupp
