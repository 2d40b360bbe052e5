// cupp eval: the hand binding of arange (cupp/creation.hpp), whose one to three leading numbers
// are read as Python's range reads them (stop; start, stop; start, stop, step). The rest of the
// family's bindings are generated from specs/routines/creation.yaml.
#include <optional>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

void add_creation(function_table& t) {
  using span_v = std::span<const value>;
  using span_k = std::span<const keyword_value>;
  t.add("arange", [](span_v args, span_k kw) -> value {
    const arguments a("arange", {"start", "stop", "step", "dtype"}, 1, args, kw);
    const std::optional<cupp::dtype> type = a.dtype(3);
    if (!a.has(1)) {
      if (a.has(2)) return value(cupp::arange(0, a.number(0), a.number(2), type));
      return value(cupp::arange(a.number(0), type));
    }
    return value(cupp::arange(a.number(0), a.number(1), a.has(2) ? a.number(2) : cupp::weak_scalar(1), type));
  });
}

}  // namespace cupp::eval
