// Internal: the routines that fold a ufunc, as the specs declare them (specs/routines/reductions.yaml
// and scans.yaml, folds: <ufunc>). Their definitions are generated (generated/src/folding_routines.cpp):
// each is one call of engine::fold with the rules its spec's result:, nan: and signature give, so a
// new folding routine is a spec entry. fold is the ufunc's reduce (reduce_options) or accumulate
// (scan_options, cumulative_options) with those rules applied.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "cupp/ndarray.hpp"
#include "cupp/scan_options.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::engine {

struct fold_rules {
  std::string_view name;            // the routine's NumPy name (errors name it)
  std::optional<type_id> result{};  // the result dtype whatever the input: all/any bool, count_nonzero int64
  bool nonzero = false;             // each element read as x != 0 first (count_nonzero)
  bool nan_as_identity = false;     // NaN read as the ufunc's identity, for inexact inputs (nansum, nancumprod)
  bool takes_initial = true;        // reduce_options: the signature has initial= (else setting it is TypeError)
  bool takes_where = true;          // reduce_options: the signature has where=
};

// f.reduce of a (NumPy's function-form defaults: every axis) under the rules.
ndarray fold(const ufunc& f, const ndarray& a, const reduce_options& options, const fold_rules& rules);
// f.accumulate along options.axis (none: the flattened array) under the rules (numpy.cumsum's form).
ndarray fold(const ufunc& f, const ndarray& a, const scan_options& options, const fold_rules& rules);
// numpy.cumulative_sum's form: no axis only for 1-d input; include_initial prepends the identity.
ndarray fold(const ufunc& f, const ndarray& x, const cumulative_options& options, const fold_rules& rules);

}  // namespace cupp::engine
