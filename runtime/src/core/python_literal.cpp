// The Python-literal parser shared by dtype parsing and the .npy reader (see python_literal.hpp).
#include "core/python_literal.hpp"

#include <cctype>
#include <limits>

namespace cupp::detail {

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

namespace {

using literal = python_literal;

class parser {
 public:
  parser(std::string_view text, int max_depth) : text_(text), max_depth_(max_depth) {}

  literal parse_whole() {
    literal value = parse_value();
    skip_space();
    if (pos_ != text_.size()) error("unexpected text after the end");
    return value;
  }

 private:
  [[noreturn]] void error(const std::string& what) const { throw python_literal_error(what, pos_); }

  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }
  void skip_space() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  literal parse_value() {
    if (++depth_ > max_depth_) error("nested too deeply");
    struct depth_guard {
      int& depth;
      ~depth_guard() { --depth; }
    } guard{depth_};
    skip_space();
    if (pos_ >= text_.size()) error("unexpected end");
    const std::size_t start = pos_;
    literal value;
    const char c = text_[pos_];
    if (c == '\'' || c == '"') {
      value = parse_string();
    } else if (c == '(') {
      value = parse_sequence(literal::kind::tuple, ')');
    } else if (c == '[') {
      value = parse_sequence(literal::kind::list, ']');
    } else if (c == '{') {
      value = parse_dict();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      value = parse_integer();
    } else if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      value = parse_word();
    } else {
      error("unexpected character");
    }
    // A parenthesised single value without a comma is the value itself; keep its own source.
    if (value.source.empty()) value.source = text_.substr(start, pos_ - start);
    return value;
  }

  static int hex_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  std::uint32_t parse_hex(int digits) {
    if (text_.size() - pos_ < static_cast<std::size_t>(digits)) error("truncated escape");
    std::uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
      const int h = hex_value(text_[pos_++]);
      if (h < 0) error("bad escape");
      v = v * 16 + static_cast<std::uint32_t>(h);
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) error("bad escape");
    return v;
  }

  literal parse_string() {
    literal out;
    out.what = literal::kind::string;
    const char quote = text_[pos_++];
    while (true) {
      if (pos_ >= text_.size()) error("unterminated string");
      const char c = text_[pos_++];
      if (c == quote) break;
      if (c == '\n') error("newline in a string");
      if (c != '\\') {
        out.text += c;
        continue;
      }
      if (pos_ >= text_.size()) error("unterminated string");
      const char e = text_[pos_++];
      switch (e) {
        case '\\': case '\'': case '"': out.text += e; break;
        case 'n': out.text += '\n'; break;
        case 't': out.text += '\t'; break;
        case 'r': out.text += '\r'; break;
        case '0': out.text += '\0'; break;
        case 'x': append_utf8(out.text, parse_hex(2)); break;
        case 'u': append_utf8(out.text, parse_hex(4)); break;
        case 'U': append_utf8(out.text, parse_hex(8)); break;
        default: error("unsupported escape");
      }
    }
    return out;
  }

  literal parse_integer() {
    literal out;
    out.what = literal::kind::integer;
    if (text_[pos_] == '-') {
      out.negative = true;
      ++pos_;
    }
    const std::size_t digits_start = pos_;
    std::uint64_t value = 0;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
      const auto digit = static_cast<std::uint64_t>(text_[pos_] - '0');
      if (value > (std::uint64_t(std::numeric_limits<std::int64_t>::max()) - digit) / 10)
        error("integer too large");
      value = value * 10 + digit;
      ++pos_;
    }
    if (pos_ == digits_start) error("bad integer");
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;  // Python 2's long
    if (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '.' ||
                                text_[pos_] == '_'))
      error("bad integer");
    out.integer = static_cast<std::int64_t>(value);
    return out;
  }

  literal parse_word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
    const std::string_view word = text_.substr(start, pos_ - start);
    literal out;
    if (word == "True" || word == "False") {
      out.what = literal::kind::boolean;
      out.integer = word == "True";
    } else if (word == "None") {
      out.what = literal::kind::none;
    } else {
      pos_ = start;
      error("unexpected name '" + std::string(word.substr(0, 40)) + "'");
    }
    return out;
  }

  literal parse_sequence(literal::kind what, char close) {
    ++pos_;
    literal out;
    out.what = what;
    bool comma = false;
    while (!accept(close)) {
      if (!out.items.empty() && !comma) error(std::string("expected ',' or '") + close + "'");
      out.items.push_back(parse_value());
      comma = accept(',');
    }
    if (what == literal::kind::tuple && out.items.size() == 1 && !comma) {
      literal inner = std::move(out.items[0]);
      return inner;  // (x) is x
    }
    return out;
  }

  literal parse_dict() {
    ++pos_;
    literal out;
    out.what = literal::kind::dict;
    bool comma = false;
    while (!accept('}')) {
      if (!out.items.empty() && !comma) error("expected ',' or '}'");
      out.items.push_back(parse_value());
      if (!accept(':')) error("expected ':'");
      out.items.push_back(parse_value());
      comma = accept(',');
    }
    return out;
  }

  std::string_view text_;
  int max_depth_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

python_literal parse_python_literal(std::string_view text, int max_depth) {
  return parser(text, max_depth).parse_whole();
}

}  // namespace cupp::detail
