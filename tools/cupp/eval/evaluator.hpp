// cupp eval: evaluates a syntax tree. Names are the arrays bound on the command line;
// operators become ufunc calls (a + b is add(a, b)) unless both operands are Python scalars,
// which Python's own arithmetic combines (so 2*3 stays a weak scalar); calls go through the
// function table.
#pragma once

#include <map>
#include <string>

#include "ast.hpp"
#include "cupp/ndarray.hpp"
#include "functions.hpp"
#include "value.hpp"

namespace cupp::eval {

using bindings = std::map<std::string, cupp::ndarray, std::less<>>;

// Throws what the ufuncs throw (cupp::TypeError, ValueError, OverflowError, ...), ValueError
// for a name that is not bound, TypeError for operands of the wrong kind (a tuple, None, a string).
value evaluate(const node& n, const bindings& names, const function_table& functions);

}  // namespace cupp::eval
