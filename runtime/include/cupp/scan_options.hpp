// The option structs of the scans that fold a ufunc (cupp/scans.hpp): numpy.cumsum's form
// (cumsum, cumprod, nancumsum, nancumprod) and NumPy 2's cumulative_sum/cumulative_prod form.
// Their own header because the routines' declarations are generated from the specs
// (cupp/generated/scans_folds.hpp includes this). NaN counts as 0 in nancumsum, 1 in nancumprod;
// integer and bool inputs behave as in cumsum/cumprod.
#pragma once

#include <cstdint>
#include <optional>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"

namespace cupp {

// numpy.cumsum(a, axis=None, dtype=None, out=None): no axis scans the flattened array (C order).
struct scan_options {
  std::optional<std::int64_t> axis{};  // none: flattened; negative counts from the end
  std::optional<cupp::dtype> dtype{};  // the result's dtype (the accumulator's)
  ndarray out{};                       // written here (shape must match; same_kind cast)
};

// numpy.cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False): no axis
// only for 1-d (or 0-d) input, else ValueError; include_initial prepends the identity (0 / 1).
struct cumulative_options {
  std::optional<std::int64_t> axis{};
  std::optional<cupp::dtype> dtype{};
  ndarray out{};
  bool include_initial = false;
};

}  // namespace cupp
