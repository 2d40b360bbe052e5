// cupp eval: the tokenizer (Python's lexical rules for the subset cupp eval accepts).
#include "tokenizer.hpp"

#include <array>
#include <cstdlib>
#include <string>

#include "syntax_error.hpp"

namespace cupp::eval {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || is_digit(c); }

int digit_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return 99;
}

// Operators, longest first so that "**" wins over "*" ("..." and "." are read in run()).
constexpr std::array<std::string_view, 27> kOperators = {
    "**", "//", "<<", ">>", "<=", ">=", "==", "!=", "+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">",
    "(", ")", "[", "]", "=", ",", ":"};

class lexer {
 public:
  explicit lexer(std::string_view s) : s_(s) {}

  std::vector<token> run() {
    std::vector<token> out;
    while (true) {
      while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
      if (i_ >= s_.size()) break;
      const char c = s_[i_];
      if (is_digit(c) || (c == '.' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1]))) {
        out.push_back(number());
      } else if (is_name_start(c)) {
        token t{token_kind::name, {}, col(i_)};
        const std::size_t start = i_;
        while (i_ < s_.size() && is_name_char(s_[i_])) ++i_;
        t.text = std::string(s_.substr(start, i_ - start));
        out.push_back(std::move(t));
      } else if (c == '\'' || c == '"') {
        out.push_back(string());
      } else if (s_.substr(i_, 3) == "...") {  // Ellipsis (before '.', which is attribute access)
        out.push_back(token{token_kind::op, "...", col(i_)});
        i_ += 3;
      } else if (c == '.') {
        out.push_back(token{token_kind::op, ".", col(i_)});
        ++i_;
      } else {
        out.push_back(op());
      }
    }
    out.push_back(token{token_kind::end, {}, col(s_.size())});
    return out;
  }

 private:
  int col(std::size_t at) const { return static_cast<int>(at) + 1; }

  [[noreturn]] void fail(const std::string& why, std::size_t at) const { throw syntax_error(why, col(at)); }

  token op() {
    for (std::string_view o : kOperators) {
      if (s_.substr(i_, o.size()) == o) {
        token t{token_kind::op, std::string(o), col(i_)};
        i_ += o.size();
        return t;
      }
    }
    const unsigned char c = static_cast<unsigned char>(s_[i_]);
    if (c >= 0x20 && c < 0x7f) fail(std::string("invalid character '") + s_[i_] + "'", i_);
    fail("invalid non-printable or non-ASCII character", i_);
  }

  token string() {
    const char quote = s_[i_];
    token t{token_kind::string, {}, col(i_)};
    const std::size_t open = i_++;
    while (true) {
      if (i_ >= s_.size()) fail("unterminated string literal", open);
      const char c = s_[i_++];
      if (c == quote) break;
      if (c != '\\') {
        t.text += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated string literal", open);
      const char e = s_[i_++];
      switch (e) {
        case 'n': t.text += '\n'; break;
        case 't': t.text += '\t'; break;
        case '\\': case '\'': case '"': t.text += e; break;
        default: t.text += '\\'; t.text += e;  // Python keeps unknown escapes as written
      }
    }
    return t;
  }

  // Digits of `base` with single underscores between them; returns the digit count.
  std::size_t digits(int base, std::string& clean) {
    std::size_t n = 0;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '_') {
        if (n == 0 || i_ + 1 >= s_.size() || digit_value(s_[i_ + 1]) >= base) fail(literal_name(base), i_);
        ++i_;
        continue;
      }
      if (digit_value(c) >= base) break;
      clean += c;
      ++i_;
      ++n;
    }
    return n;
  }

  static std::string literal_name(int base) {
    switch (base) {
      case 16: return "invalid hexadecimal literal";
      case 8: return "invalid octal literal";
      case 2: return "invalid binary literal";
      default: return "invalid decimal literal";
    }
  }

  static void accumulate(token& t, const std::string& clean, int base) {
    constexpr int128 kMax = static_cast<int128>((static_cast<uint128>(1) << 127) - 1);
    for (char c : clean) {
      const int d = digit_value(c);
      if (t.int_value > (kMax - d) / base) {
        t.int_overflow = true;
        return;
      }
      t.int_value = t.int_value * base + d;
    }
  }

  // After a number, a letter, digit or '_' glued to it makes the literal invalid.
  void no_suffix(int base) const {
    if (i_ < s_.size() && (is_name_char(s_[i_]) || s_[i_] == '.')) fail(literal_name(base), i_);
  }

  token number() {
    const std::size_t start = i_;
    token t{token_kind::integer, {}, col(i_)};
    std::string clean;
    if (s_[i_] == '0' && i_ + 1 < s_.size() && std::string_view("xXoObB").find(s_[i_ + 1]) != std::string_view::npos) {
      const char p = static_cast<char>(s_[i_ + 1] | 0x20);
      const int base = p == 'x' ? 16 : p == 'o' ? 8 : 2;
      i_ += 2;
      if (i_ < s_.size() && s_[i_] == '_') ++i_;  // 0x_ff is valid Python
      if (digits(base, clean) == 0) fail(literal_name(base), i_);
      if (i_ < s_.size() && is_digit(s_[i_])) fail(literal_name(base), i_);
      no_suffix(base);
      accumulate(t, clean, base);
      t.text = std::string(s_.substr(start, i_ - start));
      return t;
    }
    const std::size_t int_digits = digits(10, clean);
    bool is_float = false;
    if (i_ < s_.size() && s_[i_] == '.') {
      is_float = true;
      clean += '.';
      ++i_;
      if (i_ < s_.size() && s_[i_] == '_') fail("invalid decimal literal", i_);
      digits(10, clean);
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      // Only an exponent when digits follow; otherwise "1e" / "1else" is a bad literal.
      std::size_t j = i_ + 1;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
      if (j >= s_.size() || !is_digit(s_[j])) fail("invalid decimal literal", i_);
      is_float = true;
      clean += 'e';
      clean.append(s_.substr(i_ + 1, j - i_ - 1));
      i_ = j;
      digits(10, clean);
    }
    bool imaginary = false;
    if (i_ < s_.size() && (s_[i_] == 'j' || s_[i_] == 'J')) {
      imaginary = true;
      ++i_;
    }
    no_suffix(10);
    t.text = std::string(s_.substr(start, i_ - start));
    if (!is_float && !imaginary) {
      if (int_digits > 1 && clean.front() == '0' && clean.find_first_not_of('0') != std::string::npos)
        fail("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
             start);
      accumulate(t, clean, 10);
      return t;
    }
    t.kind = imaginary ? token_kind::imaginary : token_kind::floating;
    t.float_value = std::strtod(clean.c_str(), nullptr);
    return t;
  }

  std::string_view s_;
  std::size_t i_ = 0;
};

}  // namespace

std::vector<token> tokenize(std::string_view source) { return lexer(source).run(); }

std::string int128_to_string(int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  std::string s;
  while (v != 0) {
    const int d = static_cast<int>(v % 10);
    s.insert(s.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return negative ? "-" + s : s;
}

}  // namespace cupp::eval
