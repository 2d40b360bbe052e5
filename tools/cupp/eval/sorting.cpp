// cupp eval: the sorting routines: sort, argsort, lexsort, partition, argpartition (cupp/sorting.hpp), with NumPy's positional and keyword arguments.
#include "cupp/sorting.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

void add_sorting(function_table& /*t*/) {}

}  // namespace cupp::eval
