// cupp eval: splits an expression into Python tokens (names, numbers, strings, operators) with
// their 1-based columns. Numbers follow Python: 12, 1_000, 0x10, 0o17, 0b101, 1.5, .5, 1e3, 2j.
// Operators include the subscript tokens '[', ']', ':' and '...' (Ellipsis).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cupp::eval {

__extension__ typedef __int128 int128;  // Python ints, as far as cupp eval follows them
__extension__ typedef unsigned __int128 uint128;

// Decimal digits of v, with a '-' when negative.
std::string int128_to_string(int128 v);

enum class token_kind { name, integer, floating, imaginary, string, op, end };

struct token {
  token_kind kind = token_kind::end;
  std::string text;  // the source spelling; for a string, its value (escapes resolved)
  int column = 0;    // 1-based
  int128 int_value = 0;       // integer
  bool int_overflow = false;  // an integer literal beyond 2**127 - 1
  double float_value = 0.0;   // floating, or the imaginary part of an imaginary literal
};

// The tokens of `source`, ending with one token_kind::end at column size() + 1.
// Throws syntax_error at the column of a bad character or literal.
std::vector<token> tokenize(std::string_view source);

}  // namespace cupp::eval
