// cupp eval: the hand binding of unique (cupp/searching.hpp), whose result is one array or a
// tuple as long as its return_* flags ask for (NumPy's order: values, index, inverse, counts);
// axis= an integer or None; sorted= accepted. The rest of the family's bindings are generated
// from specs/routines/searching.yaml.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/searching.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;

}  // namespace

void add_searching(function_table& t) {
  t.add("unique", [](span_v args, span_k kw) -> value {
    const arguments a("unique",
                      {"ar", "return_index", "return_inverse", "return_counts", "axis", "equal_nan", "sorted"}, 1, args,
                      kw);
    (void)a.boolean(6, true);  // sorted=False allows any order; cupp's is sorted either way
    const cupp::unique_options o{.return_index = a.boolean(1, false),
                                 .return_inverse = a.boolean(2, false),
                                 .return_counts = a.boolean(3, false),
                                 .axis = a.optional_axis(4),
                                 .equal_nan = a.boolean(5, true)};
    const cupp::unique_result r = cupp::unique(a.array(0), o);
    if (!o.return_index && !o.return_inverse && !o.return_counts) return value(r.values);
    std::vector<cupp::ndarray> out{r.values};
    if (o.return_index) out.push_back(r.index);
    if (o.return_inverse) out.push_back(r.inverse);
    if (o.return_counts) out.push_back(r.counts);
    return tuple_of(std::move(out));
  });
}

}  // namespace cupp::eval
