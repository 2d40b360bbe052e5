// cupp eval: a recursive-descent parser for Python expressions over arrays, with Python's
// precedence (lowest first):
//   tuple (a, b)  <  comparison  <  |  <  ^  <  &  <  << >>  <  + -  <  * / // %
//   <  unary - + ~  <  **  <  call f(x, k=v) and atoms
// ** is right-associative and binds tighter than a unary operator on its left (-2**2 is
// -(2**2)) but not on its right (2**-1). Comparisons do not chain: `a < b < c` is a syntax
// error here (Python would mean `a < b and b < c`).
#pragma once

#include <string_view>

#include "ast.hpp"

namespace cupp::eval {

// The syntax tree of `source`; a top-level `a, b` is a tuple. Throws syntax_error (with the
// column) for anything malformed or outside the accepted subset.
node_ptr parse(std::string_view source);

}  // namespace cupp::eval
