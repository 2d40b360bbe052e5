// cupp eval: evaluates a syntax tree. Names are the arrays bound on the command line;
// operators become ufunc calls (a + b is add(a, b)) unless both operands are Python scalars,
// which Python's own arithmetic combines (so 2*3 stays a weak scalar); calls go through the
// function table. a[index] is NumPy's indexing: integers, slices, None and ... give a view
// (ndarray::index), an integer or bool array (or a bool) advanced indexing (cupp::getitem, a
// copy); a tuple value (a function's tuple result) is indexed as Python indexes a tuple.
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
// for a name that is not bound or a function cupp eval does not have, TypeError for operands of
// the wrong kind (a tuple, None, a string), and NumPy's errors for a bad index (IndexError for an
// index out of bounds, too many indices or an item of the wrong kind, TypeError for a bad slice
// bound, ValueError for a zero step).
value evaluate(const node& n, const bindings& names, const function_table& functions);

}  // namespace cupp::eval
