// cupp eval: operator names and the debug rendering of the syntax tree (subscripts as written).
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

std::string slice_part(const node& n) { return n.kind == node_kind::none ? "" : to_string(n); }

// One subscript item: a slice as start:stop[:step] (omitted parts empty), anything else as itself.
std::string item_string(const node& n) {
  if (n.kind != node_kind::slice) return to_string(n);
  std::string s = slice_part(*n.args[0]) + ":" + slice_part(*n.args[1]);
  if (n.args[2]->kind != node_kind::none) s += ":" + to_string(*n.args[2]);
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
    case node_kind::subscript: {
      std::string s = to_string(*n.args[0]) + "[";
      const node& index = *n.args[1];
      if (index.kind != node_kind::tuple) return s + item_string(index) + "]";
      if (index.args.empty()) return s + "()]";  // a[()]: a[] is no valid syntax
      for (std::size_t i = 0; i < index.args.size(); ++i) s += (i ? ", " : "") + item_string(*index.args[i]);
      return s + (index.args.size() == 1 ? ",]" : "]");
    }
    case node_kind::slice: return item_string(n);
    case node_kind::ellipsis: return "...";
  }
  return "?";
}

}  // namespace cupp::eval
