// cupp eval: the syntax tree of an expression, and the operator -> ufunc name table
// (a + b is add(a, b), a / b is divide, -a is negative, a == b is equal, ...). A subscript
// a[i, 1:3, None, ...] is a node of its own (NumPy's indexing, not a ufunc).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tokenizer.hpp"

namespace cupp::eval {

enum class unary_op { negative, positive, invert };
enum class binary_op {
  add, subtract, multiply, divide, floor_divide, remainder, power,
  bitwise_and, bitwise_or, bitwise_xor, left_shift, right_shift,
  equal, not_equal, less, less_equal, greater, greater_equal,
  matmul,  // a @ b: the function matmul (the linalg module's), not a ufunc
};

// The ufunc each operator calls, and the operator as written.
std::string_view ufunc_name(unary_op op) noexcept;
std::string_view ufunc_name(binary_op op) noexcept;
std::string_view spelling(unary_op op) noexcept;
std::string_view spelling(binary_op op) noexcept;

enum class node_kind {
  name,       // a bound array: `a`
  integer,    // 3, 0x10 (int_value; int_overflow when beyond 2**127 - 1)
  floating,   // 1.5, 1e3 (float_value)
  imaginary,  // 2j (float_value is the imaginary part)
  boolean,    // True / False (bool_value)
  none,       // None
  string,     // 'float32' (text)
  tuple,      // (a, b), (a,), () (args)
  unary,      // -a (uop, args[0])
  binary,     // a + b (bop, args[0], args[1]); comparisons too
  call,       // f(x, y, k=v) (text is the callee, dotted names allowed: "add.outer")
  subscript,  // a[index] (args[0] the subscripted value, args[1] the index: one item, or a tuple
              // node when written with a comma, a[1, :] / a[1,], as Python's ast.Subscript)
  slice,      // start:stop:step, only as a subscript item (args: start, stop, step, each a none
              // node when omitted: a[:3] is a[None:3:None], as in Python)
  ellipsis,   // ..., only as a subscript item
};

struct node;
using node_ptr = std::unique_ptr<node>;

struct keyword_arg {
  std::string name;
  node_ptr value;
  int column = 0;
};

struct node {
  node_kind kind = node_kind::none;
  int column = 0;  // 1-based column of the node's first character (of the operator for unary/binary,
                   // of the '[' for a subscript, of the first ':' for a slice)
  std::string text;
  int128 int_value = 0;
  bool int_overflow = false;
  double float_value = 0.0;
  bool bool_value = false;
  unary_op uop = unary_op::negative;
  binary_op bop = binary_op::add;
  std::vector<node_ptr> args;
  std::vector<keyword_arg> keywords;
  int links = 0;  // binary and subscript nodes on the longest path down from this one, itself included
                  // (set by the parser, which refuses a tree of more than 2000)
};

// A fully parenthesised rendering with ufunc names, for tests and debugging:
// "a + 2*b" -> "add(a, multiply(2, b))"; tuples as "(a, b)", keywords as "k=v"; subscripts as
// written, with omitted slice parts empty: "a[1, ::2, None, ...]", "a[1,]", "a[()]". It parses
// back to the same tree.
std::string to_string(const node& n);

}  // namespace cupp::eval
