// cupp eval: operator names and the debug rendering of the syntax tree.
#include "ast.hpp"

#include <array>
#include <cstdio>
#include <string>

namespace cupp::eval {

namespace {

struct binary_entry {
  std::string_view ufunc, spelling;
};
constexpr std::array<binary_entry, 19> kBinary = {{
    {"add", "+"}, {"subtract", "-"}, {"multiply", "*"}, {"divide", "/"}, {"floor_divide", "//"},
    {"remainder", "%"}, {"power", "**"}, {"bitwise_and", "&"}, {"bitwise_or", "|"}, {"bitwise_xor", "^"},
    {"left_shift", "<<"}, {"right_shift", ">>"}, {"equal", "=="}, {"not_equal", "!="}, {"less", "<"},
    {"less_equal", "<="}, {"greater", ">"}, {"greater_equal", ">="}, {"matmul", "@"},
}};
constexpr std::array<binary_entry, 3> kUnary = {{{"negative", "-"}, {"positive", "+"}, {"invert", "~"}}};

std::string float_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string_view ufunc_name(unary_op op) noexcept { return kUnary[static_cast<std::size_t>(op)].ufunc; }
std::string_view ufunc_name(binary_op op) noexcept { return kBinary[static_cast<std::size_t>(op)].ufunc; }
std::string_view spelling(unary_op op) noexcept { return kUnary[static_cast<std::size_t>(op)].spelling; }
std::string_view spelling(binary_op op) noexcept { return kBinary[static_cast<std::size_t>(op)].spelling; }

std::string to_string(const node& n) {
  switch (n.kind) {
    case node_kind::name: return n.text;
    case node_kind::integer: return n.int_overflow ? "<int overflow>" : int128_to_string(n.int_value);
    case node_kind::floating: return float_text(n.float_value);
    case node_kind::imaginary: return float_text(n.float_value) + "j";
    case node_kind::boolean: return n.bool_value ? "True" : "False";
    case node_kind::none: return "None";
    case node_kind::string: {  // a literal the tokenizer reads back as the same text
      std::string s = "'";
      for (const char c : n.text) {
        if (c == '\\' || c == '\'') s += '\\';
        if (c == '\n') s += "\\n";
        else if (c == '\t') s += "\\t";
        else s += c;
      }
      return s + "'";
    }
    case node_kind::tuple: {
      std::string s = "(";
      for (std::size_t i = 0; i < n.args.size(); ++i) s += (i ? ", " : "") + to_string(*n.args[i]);
      return s + (n.args.size() == 1 ? ",)" : ")");
    }
    case node_kind::unary: return std::string(ufunc_name(n.uop)) + "(" + to_string(*n.args[0]) + ")";
    case node_kind::binary:
      return std::string(ufunc_name(n.bop)) + "(" + to_string(*n.args[0]) + ", " + to_string(*n.args[1]) + ")";
    case node_kind::call: {
      std::string s = n.text + "(";
      bool first = true;
      for (const auto& a : n.args) {
        s += (first ? "" : ", ") + to_string(*a);
        first = false;
      }
      for (const auto& k : n.keywords) {
        s += (first ? "" : ", ") + k.name + "=" + to_string(*k.value);
        first = false;
      }
      return s + ")";
    }
  }
  return "?";
}

}  // namespace cupp::eval
