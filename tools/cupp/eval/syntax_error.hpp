// cupp eval: the error a malformed expression (or batch line) raises. It carries the 1-based
// column of the offending character and prints like Python's SyntaxError, with a caret under it.
#pragma once

#include <string>
#include <string_view>

#include "cupp/errors.hpp"

namespace cupp::eval {

class syntax_error : public cupp::Error {
 public:
  // what() is "reason (column N)".
  syntax_error(std::string reason, int column);
  const char* class_name() const noexcept override { return "SyntaxError"; }

  int column() const noexcept { return column_; }
  const std::string& reason() const noexcept { return reason_; }
  // The source line and a caret under the column, each indented by two spaces:
  //   "  a + * b\n      ^\n"
  std::string caret(std::string_view source) const;

 private:
  std::string reason_;
  int column_;
};

}  // namespace cupp::eval
