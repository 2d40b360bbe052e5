// Scans (issue 8): cumsum, cumprod, nancumsum, nancumprod, NumPy 2's cumulative_sum and
// cumulative_prod, ufunc.accumulate (as cupp::accumulate(ufunc, a, ...)), diff and ediff1d, with
// NumPy 2's semantics (docs/scans.md). cumsum is add.accumulate: bool and integers narrower than
// 64 bits accumulate in int64 (uint64 for unsigned), other dtypes in their own (float16 rounds
// every step, as NumPy's loop does). Deterministic: the same input gives the same bits.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "cupp/routines.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/scan_options.hpp"
#include "cupp/ufunc.hpp"
// cumsum, cumprod, nancumsum, nancumprod and cumulative_sum, cumulative_prod: declared from
// specs/routines/scans.yaml, where they fold add or multiply (generated).
#include "cupp/generated/scans_folds.hpp"

namespace cupp {

// ufunc.accumulate(array, axis=0, dtype=None, out=None) of a binary ufunc with one output.
struct accumulate_options {
  std::int64_t axis = 0;
  std::optional<cupp::dtype> dtype{};
  ndarray out{};
};
ndarray accumulate(const ufunc& f, const ndarray& a, const accumulate_options& options = {});

// numpy.diff(a, n=1, axis=-1, prepend=<none>, append=<none>): subtract (not_equal for bool) of
// neighbours, n times; prepend/append (0-d: broadcast to length 1 along the axis) are joined first.
struct diff_options {
  std::int64_t n = 1;
  std::int64_t axis = -1;
  ndarray prepend{};
  ndarray append{};
};
ndarray diff(const ndarray& a, const diff_options& options = {});

// numpy.ediff1d(ary, to_end=None, to_begin=None): the flattened differences, with to_begin and
// to_end (flattened, cast to ary's dtype under same_kind, else TypeError) around them.
struct ediff1d_options {
  ndarray to_end{};
  ndarray to_begin{};
};
ndarray ediff1d(const ndarray& ary, const ediff1d_options& options = {});

// ---- for tools: the routines above by name, with their NumPy signatures, as
// specs/routines/scans.yaml declares them (generated; `cupp ops` lists them).
std::span<const routine_info> scan_routines() noexcept;

}  // namespace cupp
