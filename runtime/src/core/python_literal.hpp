// Internal: a strict parser of the Python literals that NumPy writes — .npy headers and dtype
// descriptors ("[('x', '<f4'), ('y', '<i8')]", "{'descr': '<f8', 'fortran_order': False, ...}"):
// str ('...' or "..." with backslash escapes), int (with Python 2's L suffix), True/False/None,
// tuples, lists and dicts. Nesting is bounded, so hostile text cannot exhaust the stack. Used by
// dtype parsing and by the .npy reader; each turns a python_literal_error into its own message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/errors.hpp"

namespace cupp::detail {

struct python_literal {
  enum class kind { string, integer, boolean, none, tuple, list, dict };
  kind what = kind::none;
  std::string text;              // string, unescaped (UTF-8)
  std::int64_t integer = 0;      // integer magnitude; boolean 0/1
  bool negative = false;         // integer sign
  std::string_view source;       // the literal's text in the input
  std::vector<python_literal> items;  // tuple, list; dict: key, value, key, value, ...

  std::int64_t value() const noexcept { return negative ? -integer : integer; }
};

// What went wrong and where (byte offset in the text).
class python_literal_error : public ValueError {
 public:
  python_literal_error(const std::string& what, std::size_t position)
      : ValueError(what), position_(position) {}
  std::size_t position() const noexcept { return position_; }

 private:
  std::size_t position_;
};

// Parses the whole text as one literal (surrounding white space allowed).
python_literal parse_python_literal(std::string_view text, int max_depth = 32);

// Appends code point `cp` to `out` as UTF-8.
void append_utf8(std::string& out, std::uint32_t cp);

}  // namespace cupp::detail
