// libFuzzer target for `cupp eval`'s tokenizer and parser (tools/cupp/eval; no GPU). Each input is
// an expression: it must parse or raise cupp::eval::syntax_error (whose column lies within the
// input, past its end by one at most); any other exception, sanitizer report, leak or hang is a
// finding. A parsed expression is printed in its ufunc form (to_string), which must parse again
// (unless its nested calls pass the nesting limit) and print the same: the tree the evaluator
// would walk is the tree the text describes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ast.hpp"
#include "parser.hpp"
#include "syntax_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  std::string printed;
  try {
    printed = cupp::eval::to_string(*cupp::eval::parse(source));
  } catch (const cupp::eval::syntax_error& e) {
    if (e.column() < 0 || static_cast<std::size_t>(e.column()) > size + 1) std::abort();
    return 0;
  }
  // An integer beyond 2**127 - 1 prints as "<int overflow>" (the evaluator raises OverflowError).
  if (printed.find("<int overflow>") != std::string::npos) return 0;
  try {
    if (cupp::eval::to_string(*cupp::eval::parse(printed)) != printed) std::abort();
  } catch (const cupp::eval::syntax_error& e) {
    // The printed form of a parsed expression must parse, except that it nests one call per
    // operator: a chain longer than the nesting limit allows prints too deep to read back.
    if (e.reason().find("nested too deeply") == std::string::npos) std::abort();
  }
  return 0;
}
