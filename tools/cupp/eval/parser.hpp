// cupp eval: a recursive-descent parser for Python expressions over arrays, with Python's
// precedence (lowest first):
//   tuple (a, b)  <  comparison  <  |  <  ^  <  &  <  << >>  <  + -  <  * / // %
//   <  unary - + ~  <  **  <  subscript a[i], call f(x, k=v) and atoms
// ** is right-associative and binds tighter than a unary operator on its left (-2**2 is
// -(2**2)) but not on its right (2**-1). Comparisons do not chain: `a < b < c` is a syntax
// error here (Python would mean `a < b and b < c`).
// Subscripts are postfix and chain, on any primary: a[1], f(x)[0], (a + b)[::2], a[1][2];
// -a[0] is -(a[0]) and a[0]**2 is (a[0])**2, as in Python. An index is one item or a tuple of
// them (a[1, :, None]); an item is an expression, `...` (Ellipsis) or a slice start:stop:step
// with any part omitted; slices and `...` exist only as subscript items (`...` elsewhere, a
// list literal [1, 2] and a[] are syntax errors). Limits against hostile input (SyntaxError,
// never a crash): a nesting depth (parentheses, unary operators, a subscript inside a
// subscript's index: each level counts) of at most 200, and an operator or subscript chain
// (a + a + ..., a[0][0]...) of at most 2000 links along a path of the tree; chains are parsed
// by loops, not recursion.
#pragma once

#include <string_view>

#include "ast.hpp"

namespace cupp::eval {

// The syntax tree of `source`; a top-level `a, b` is a tuple. Throws syntax_error (with the
// column) for anything malformed or outside the accepted subset.
node_ptr parse(std::string_view source);

}  // namespace cupp::eval
