// cupp eval --batch: the shell-style line splitter.
#include "shell_split.hpp"

#include "syntax_error.hpp"

namespace cupp::eval {

std::vector<std::string> shell_split(std::string_view line) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;  // a word has started (even an empty one: '' is an argument)
  std::size_t i = 0;
  const auto column = [](std::size_t at) { return static_cast<int>(at) + 1; };
  while (i < line.size()) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      ++i;
    } else if (c == '#' && !in_word) {
      break;
    } else if (c == '\\') {
      if (i + 1 >= line.size()) throw syntax_error("line ends with a lone backslash", column(i));
      word += line[i + 1];
      in_word = true;
      i += 2;
    } else if (c == '\'') {
      const std::size_t close = line.find('\'', i + 1);
      if (close == std::string_view::npos) throw syntax_error("unterminated single quote", column(i));
      word.append(line.substr(i + 1, close - i - 1));
      in_word = true;
      i = close + 1;
    } else if (c == '"') {
      const std::size_t open = i++;
      while (true) {
        if (i >= line.size()) throw syntax_error("unterminated double quote", column(open));
        const char d = line[i];
        if (d == '"') break;
        if (d == '\\' && i + 1 < line.size() && std::string_view("\"\\$`").find(line[i + 1]) != std::string_view::npos) {
          word += line[i + 1];
          i += 2;
          continue;
        }
        word += d;
        ++i;
      }
      in_word = true;
      ++i;
    } else {
      word += c;
      in_word = true;
      ++i;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

}  // namespace cupp::eval
