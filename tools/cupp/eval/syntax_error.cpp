// cupp eval: syntax_error's message and caret display.
#include "syntax_error.hpp"

#include <utility>

namespace cupp::eval {

syntax_error::syntax_error(std::string reason, int column)
    : cupp::Error(reason + " (column " + std::to_string(column) + ")"), reason_(std::move(reason)), column_(column) {}

std::string syntax_error::caret(std::string_view source) const {
  std::string out = "  ";
  out += source;
  out += "\n  ";
  // Tabs stay tabs so the caret lines up under them in a terminal.
  for (int i = 1; i < column_; ++i) {
    const auto at = static_cast<std::size_t>(i - 1);
    out += at < source.size() && source[at] == '\t' ? '\t' : ' ';
  }
  out += "^\n";
  return out;
}

}  // namespace cupp::eval
