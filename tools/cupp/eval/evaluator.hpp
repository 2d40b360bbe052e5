// cupp eval: evaluates a syntax tree. Names are the arrays bound on the command line;
// operators become ufunc calls (a + b is add(a, b)) unless both operands are Python scalars,
// which Python's own arithmetic combines (so 2*3 stays a weak scalar); calls go through the
// function table. a[index] is NumPy's indexing: integers, slices, None and ... give a view
// (ndarray::index), an integer or bool array (or a bool) advanced indexing (cupp::getitem, a
// copy); a tuple value (a function's tuple result) is indexed as Python indexes a tuple. a @ b with
// a module's object on either side asks the object (object_value::matmul), left operand first.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ast.hpp"
#include "cupp/ndarray.hpp"
#include "functions.hpp"
#include "value.hpp"

namespace cupp::eval {

// The names bound on the command line: an array from a .npy file, or what a registered loader
// made of another file (function_table::load: a sparse matrix from a SciPy .npz).
using bindings = std::map<std::string, value, std::less<>>;

// Throws what the ufuncs throw (cupp::TypeError, ValueError, OverflowError, ...), ValueError
// for a name that is not bound or a function cupp eval does not have, TypeError for operands of
// the wrong kind (a tuple, None, a string), and NumPy's errors for a bad index (IndexError for an
// index out of bounds, too many indices or an item of the wrong kind, TypeError for a bad slice
// bound, ValueError for a zero step).
value evaluate(const node& n, const bindings& names, const function_table& functions);

// A slice bound or step as Python reads it (__index__): None (nullopt), an int (clamped to int64),
// a bool, a 0-d integer array; TypeError otherwise. slice(...) and a[i:j:k] read theirs so.
std::optional<std::int64_t> index_bound(const value& v);

// A value used as an index, as a[v] reads it (an index given as a function argument: a slice
// object, an int, None, a bool, an integer or bool array, or a tuple of those); `advanced` is set
// when an array or a bool is among the items. IndexError for anything else.
std::vector<cupp::array_index_item> index_items_of(const value& v, bool& advanced);

}  // namespace cupp::eval
