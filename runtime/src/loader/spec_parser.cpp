// Op specs read at run time (see spec_parser.hpp). The validation below follows
// codegen/model.py's load_op line by line, so that a spec is accepted or rejected alike, with the
// same line and message; keep the two in step (tests/unit/test_load_ops.cpp feeds every bad spec
// of tests/codegen/bad_specs/ to this loader and every spec of specs/ufuncs/ through both).
#include "loader/spec_parser.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/parser.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

#include "cupp/errors.hpp"
#include "core/tables.hpp"

namespace cupp::detail {

namespace {

// ---------------------------------------------------------------------------------------------
// A YAML document as PyYAML's SafeLoader constructs it (spec_loader.py): typed scalars, mappings
// with string keys that remember each key's line, lists that remember each item's line.

enum class kind { none, boolean, integer, floating, string, list, mapping };

struct value {
  kind k = kind::none;
  int line = 0;            // 1-based line of the node
  bool b = false;          // boolean
  long long i = 0;         // integer (clamped to 64 bits; `text` holds the exact digits)
  double f = 0;            // floating
  std::string text;        // string: the text; other scalars: Python's str() of the value
  std::vector<std::string> keys;  // mapping: keys (Python's str() of each), in order
  std::vector<int> key_lines;     // mapping: the line of each key
  std::vector<value> items;       // mapping: the values (parallel to keys); list: the items

  const value* get(std::string_view key) const {
    for (std::size_t n = 0; n < keys.size(); ++n)
      if (keys[n] == key) return &items[n];
    return nullptr;
  }
  bool has(std::string_view key) const { return get(key) != nullptr; }
  int line_of(std::string_view key) const {
    for (std::size_t n = 0; n < keys.size(); ++n)
      if (keys[n] == key) return key_lines[n];
    return line;
  }
  bool is_str() const { return k == kind::string; }
};

std::string py_repr(const value& v);

// Python's str() of the constructed value.
std::string py_str(const value& v) {
  switch (v.k) {
    case kind::list: {
      std::string s = "[";
      for (std::size_t n = 0; n < v.items.size(); ++n) s += (n ? ", " : "") + py_repr(v.items[n]);
      return s + "]";
    }
    case kind::mapping: {
      std::string s = "{";
      for (std::size_t n = 0; n < v.items.size(); ++n) {
        value key;
        key.k = kind::string;
        key.text = v.keys[n];
        s += (n ? ", " : "") + py_repr(key) + ": " + py_repr(v.items[n]);
      }
      return s + "}";
    }
    default: return v.text;
  }
}

std::string py_repr(const value& v) {
  if (v.k != kind::string) return py_str(v);
  const bool double_quotes = v.text.find('\'') != std::string::npos && v.text.find('"') == std::string::npos;
  const char quote = double_quotes ? '"' : '\'';
  std::string s(1, quote);
  for (char c : v.text) {
    if (c == '\\') s += "\\\\";
    else if (c == quote) s += std::string("\\") + c;
    else if (c == '\n') s += "\\n";
    else if (c == '\t') s += "\\t";
    else if (c == '\r') s += "\\r";
    else s += c;
  }
  return s + quote;
}

// Python's bool() of the value.
bool py_truth(const value& v) {
  switch (v.k) {
    case kind::none: return false;
    case kind::boolean: return v.b;
    case kind::integer: return v.text != "0";
    case kind::floating: return v.f != 0.0;
    case kind::string: return !v.text.empty();
    default: return !v.items.empty();
  }
}

// isinstance(v, int) (a bool is an int in Python).
std::optional<long long> py_int(const value& v) {
  if (v.k == kind::boolean) return v.b ? 1 : 0;
  if (v.k == kind::integer) return v.i;
  return std::nullopt;
}

// Python's repr() of a float, which str() also gives.
std::string py_float_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  std::array<char, 64> buf{};
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), x, std::chars_format::scientific);
  std::string sci(buf.data(), r.ptr);  // shortest round trip: "-1.2345e+03"
  std::string sign;
  if (sci[0] == '-') {
    sign = "-";
    sci.erase(0, 1);
  }
  const std::size_t e = sci.find('e');
  std::string digits = sci.substr(0, e);
  digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
  const int exponent = std::stoi(sci.substr(e + 1));
  if (exponent >= -4 && exponent < 16) {
    std::string s;
    if (exponent < 0) {
      s = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    } else if (static_cast<std::size_t>(exponent) + 1 >= digits.size()) {
      s = digits + std::string(static_cast<std::size_t>(exponent) + 1 - digits.size(), '0') + ".0";
    } else {
      s = digits.substr(0, static_cast<std::size_t>(exponent) + 1) + "." + digits.substr(static_cast<std::size_t>(exponent) + 1);
    }
    return sign + s;
  }
  std::string s = digits.substr(0, 1);
  if (digits.size() > 1) s += "." + digits.substr(1);
  const int a = exponent < 0 ? -exponent : exponent;
  return sign + s + "e" + (exponent < 0 ? "-" : "+") + (a < 10 ? "0" : "") + std::to_string(a);
}

// PyYAML's implicit resolvers for plain scalars (YAML 1.1).
const std::regex& bool_pattern() {
  static const std::regex r("^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$");
  return r;
}
const std::regex& float_pattern() {
  static const std::regex r(
      "^(?:[-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+][0-9]+)?"
      "|\\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
      "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*"
      "|[-+]?\\.(?:inf|Inf|INF)"
      "|\\.(?:nan|NaN|NAN))$");
  return r;
}
const std::regex& int_pattern() {
  static const std::regex r(
      "^(?:[-+]?0b[0-1_]+"
      "|[-+]?0[0-7_]+"
      "|[-+]?(?:0|[1-9][0-9_]*)"
      "|[-+]?0x[0-9a-fA-F_]+"
      "|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$");
  return r;
}
const std::regex& null_pattern() {
  static const std::regex r("^(?:~|null|Null|NULL|)$");
  return r;
}

// PyYAML's construct_yaml_int: the value (clamped) and Python's str() of it.
void construct_int(std::string text, value& v) {
  text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    text.erase(0, 1);
  }
  unsigned long long magnitude = 0;
  bool big = false;  // beyond 64 bits (Python's int has no limit: the text keeps the digits)
  auto push = [&](unsigned digit, unsigned base) {
    if (big || magnitude > (std::numeric_limits<unsigned long long>::max() - digit) / base) {
      big = true;
      return;
    }
    magnitude = magnitude * base + digit;
  };
  auto digit_of = [](char c) -> unsigned {
    if (c >= '0' && c <= '9') return static_cast<unsigned>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
    return static_cast<unsigned>(c - 'A' + 10);
  };
  if (text == "0") {
  } else if (text.rfind("0b", 0) == 0) {
    for (char c : text.substr(2)) push(digit_of(c), 2);
  } else if (text.rfind("0x", 0) == 0) {
    for (char c : text.substr(2)) push(digit_of(c), 16);
  } else if (!text.empty() && text[0] == '0') {
    for (char c : text) push(digit_of(c), 8);
  } else if (text.find(':') != std::string::npos) {
    std::stringstream parts(text);
    std::string part;
    while (std::getline(parts, part, ':')) {
      unsigned long long p = 0;
      std::from_chars(part.data(), part.data() + part.size(), p);
      if (big || magnitude > (std::numeric_limits<unsigned long long>::max() - p) / 60) big = true;
      else magnitude = magnitude * 60 + p;
    }
  } else {
    for (char c : text) push(digit_of(c), 10);
  }
  v.k = kind::integer;
  constexpr unsigned long long limit = static_cast<unsigned long long>(std::numeric_limits<long long>::max());
  const long long clamped = big || magnitude > limit ? std::numeric_limits<long long>::max() : static_cast<long long>(magnitude);
  v.i = negative ? -clamped : clamped;
  if (big) {
    v.text = (negative ? "-" : "") + text;  // the digits as written
    return;
  }
  const std::string digits = std::to_string(magnitude);
  v.text = (negative && magnitude != 0 ? "-" : "") + digits;
}

// PyYAML's construct_yaml_float.
void construct_float(std::string text, value& v) {
  text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
  std::transform(text.begin(), text.end(), text.begin(), [](char c) { return static_cast<char>(std::tolower(c)); });
  double sign = 1;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    if (text[0] == '-') sign = -1;
    text.erase(0, 1);
  }
  double x;
  if (text == ".inf") {
    x = sign * std::numeric_limits<double>::infinity();
  } else if (text == ".nan") {
    x = std::numeric_limits<double>::quiet_NaN();
  } else if (text.find(':') != std::string::npos) {
    std::vector<double> parts;
    std::stringstream in(text);
    std::string part;
    while (std::getline(in, part, ':')) parts.push_back(std::strtod(part.c_str(), nullptr));
    x = 0;
    double base = 1;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
      x += *it * base;
      base *= 60;
    }
    x *= sign;
  } else {
    x = sign * std::strtod(text.c_str(), nullptr);
  }
  v.k = kind::floating;
  v.f = x;
  v.text = py_float_text(x);
}

void construct_bool(const std::string& text, value& v) {
  v.k = kind::boolean;
  v.b = text[0] == 'y' || text[0] == 'Y' || text[0] == 't' || text[0] == 'T' || text == "on" || text == "On" ||
        text == "ON";
  v.text = v.b ? "True" : "False";
}

void construct_none(value& v) {
  v.k = kind::none;
  v.text = "None";
}

class tree_builder {
 public:
  explicit tree_builder(const std::string& shown) : shown_(shown) {}

  value build(const YAML::Node& node, int fallback_line, int depth = 0) {
    if (depth > 64) throw SpecError(shown_, fallback_line, "invalid YAML: the document nests too deeply");
    if (++nodes_ > 1'000'000) throw SpecError(shown_, fallback_line, "invalid YAML: the document is too large");
    value v;
    v.line = node.Mark().line >= 0 ? node.Mark().line + 1 : fallback_line;
    switch (node.Type()) {
      case YAML::NodeType::Map: {
        v.k = kind::mapping;
        for (auto it = node.begin(); it != node.end(); ++it) {
          const int key_line = it->first.Mark().line >= 0 ? it->first.Mark().line + 1 : v.line;
          const value key = build(it->first, key_line, depth + 1);
          const std::string key_text = py_str(key);
          if (v.has(key_text)) throw SpecError(shown_, key_line, "duplicate key '" + key_text + "'");
          v.keys.push_back(key_text);
          v.key_lines.push_back(key_line);
          v.items.push_back(build(it->second, key_line, depth + 1));
        }
        return v;
      }
      case YAML::NodeType::Sequence:
        v.k = kind::list;
        for (const YAML::Node& item : node) v.items.push_back(build(item, v.line, depth + 1));
        return v;
      case YAML::NodeType::Scalar: scalar(node, v); return v;
      default: construct_none(v); return v;  // Null, Undefined
    }
  }

 private:
  void scalar(const YAML::Node& node, value& v) {
    const std::string& text = node.Scalar();
    const std::string& tag = node.Tag();
    static const std::string yaml_tag = "tag:yaml.org,2002:";
    if (tag == "?") {  // plain: PyYAML's implicit resolution
      if (std::regex_match(text, null_pattern())) return construct_none(v);
      if (std::regex_match(text, bool_pattern())) return construct_bool(text, v);
      if (std::regex_match(text, float_pattern())) return construct_float(text, v);
      if (std::regex_match(text, int_pattern())) return construct_int(text, v);
      v.k = kind::string;
      v.text = text;
      return;
    }
    if (tag == "!" || tag == yaml_tag + "str") {
      v.k = kind::string;
      v.text = text;
      return;
    }
    if (tag == yaml_tag + "int" && std::regex_match(text, int_pattern())) return construct_int(text, v);
    if (tag == yaml_tag + "float" && (std::regex_match(text, float_pattern()) || std::regex_match(text, int_pattern())))
      return construct_float(text, v);
    if (tag == yaml_tag + "bool" && std::regex_match(text, bool_pattern())) return construct_bool(text, v);
    if (tag == yaml_tag + "null") return construct_none(v);
    throw SpecError(shown_, v.line, "invalid YAML: could not determine a constructor for the tag '" + tag + "'");
  }

  const std::string& shown_;
  std::size_t nodes_ = 0;
};

// ---------------------------------------------------------------------------------------------
// codegen/model.py's load_op.

const std::regex& identifier_pattern() {
  static const std::regex r("^[a-z][a-z0-9_]*$");
  return r;
}
bool is_identifier(const value& v) { return v.is_str() && std::regex_match(v.text, identifier_pattern()); }

std::optional<type_id> dtype_named(std::string_view name) {
  for (int i = 0; i < n_builtin_types; ++i)
    if (builtin_dtypes[i].name == name) return static_cast<type_id>(i);
  return std::nullopt;
}
std::optional<type_id> dtype_of(const value& v) {
  return v.is_str() ? dtype_named(v.text) : std::nullopt;
}
const dtype_group* group_named(std::string_view name) {
  for (std::size_t g = 0; g < n_dtype_groups; ++g)
    if (dtype_groups[g].name == name) return &dtype_groups[g];
  return nullptr;
}
std::string dtype_name(type_id t) { return std::string(info(t).name); }

// Python's str.strip().
std::string py_strip(std::string_view s) {
  auto space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f'); };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string joined(std::vector<std::string> words, bool sort) {
  if (sort) std::sort(words.begin(), words.end());
  std::string s;
  for (std::size_t n = 0; n < words.size(); ++n) s += (n ? ", " : "") + words[n];
  return s;
}

class op_validator {
 public:
  op_validator(const std::string& shown) : shown_(shown) {}

  [[noreturn]] void fail(int line, const std::string& message) const { throw SpecError(shown_, line, message); }

  void check_keys(const value& node, const std::vector<std::string>& allowed, std::vector<std::string> required,
                  const std::string& what) const {
    for (const std::string& key : node.keys)
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(node.line_of(key), "unknown key '" + key + "' in " + what + " (allowed: " + joined(allowed, true) + ")");
    std::sort(required.begin(), required.end());
    for (const std::string& key : required)
      if (!node.has(key)) fail(node.line, what + " lacks the required key '" + key + "'");
  }

  const value& expect(const value& node, kind k, int line, const std::string& what) const {
    if (node.k != k) fail(line, what + " must be a " + (k == kind::mapping ? "mapping" : "list"));
    return node;
  }

  // DTypes.resolve_list: a dtype group name, a dtype name, or a non-empty list of dtype names.
  std::vector<type_id> resolve_list(const value& v, int line, const std::string& what) const {
    if (v.is_str()) {
      if (const dtype_group* g = group_named(v.text)) return {g->members.begin(), g->members.end()};
      if (const auto t = dtype_named(v.text)) return {*t};
      fail(line, what + ": '" + v.text + "' is neither a dtype nor a dtype group");
    }
    if (v.k != kind::list || v.items.empty())
      fail(line, what + " must be a dtype group name or a non-empty list of dtypes");
    std::vector<type_id> out;
    for (const value& item : v.items) {
      const auto t = dtype_of(item);
      if (!t) fail(line, what + ": undefined dtype '" + py_str(item) + "'");
      out.push_back(*t);
    }
    return out;
  }

  // _parse_sig
  std::pair<std::vector<std::string>, std::vector<std::string>> parse_sig(const std::string& text, int line) const {
    static const std::regex sig(R"(^\s*([\w\s,]+?)\s*->\s*([\w\s,]+?)\s*$)");
    std::smatch m;
    if (!std::regex_match(text, m, sig)) fail(line, "loop signature '" + text + "' is not of the form 'a, b -> c'");
    auto split = [](const std::string& s) {
      std::vector<std::string> parts;
      std::size_t start = 0;
      while (true) {
        const std::size_t comma = s.find(',', start);
        parts.push_back(py_strip(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
        if (comma == std::string::npos) return parts;
        start = comma + 1;
      }
    };
    auto ins = split(m[1].str()), outs = split(m[2].str());
    for (const auto* list : {&ins, &outs})
      for (const std::string& t : *list)
        if (t.empty()) fail(line, "loop signature '" + text + "' has an empty type");
    return {ins, outs};
  }

  parsed_op load_op(const value& doc, std::string_view stem) const {
    static const std::vector<std::string> op_keys = {
        "name", "doc", "nin", "nout", "identity", "commutative", "aliases", "ulp", "int_inputs_as",
        "bool_inputs_error", "raises", "weak_scalars_by_truth", "reduce_widens_ints", "python_int_out_of_range",
        "body", "loops"};
    static const std::vector<std::string> loop_keys = {"sig", "each", "body"};
    check_keys(doc, op_keys, {"name", "doc", "nin", "nout", "loops"}, "an op spec");
    parsed_op op;
    op.file = shown_;
    op.line = doc.line;
    const value& name = *doc.get("name");
    if (!is_identifier(name)) fail(doc.line_of("name"), "op name '" + py_str(name) + "' is not a lower-case identifier");
    if (!stem.empty() && stem != name.text)
      fail(doc.line_of("name"), "op '" + name.text + "' must live in a file named " + name.text + ".yaml");
    op.name = name.text;
    op.name_line = doc.line_of("name");
    const auto nin = py_int(*doc.get("nin")), nout = py_int(*doc.get("nout"));
    if (!nin || *nin < 1 || *nin > 3) fail(doc.line_of("nin"), "nin must be 1, 2 or 3");
    if (!nout || *nout < 1 || *nout > 2) fail(doc.line_of("nout"), "nout must be 1 or 2");
    op.nin = static_cast<int>(*nin);
    op.nout = static_cast<int>(*nout);
    const std::string nin_text = py_str(*doc.get("nin")), nout_text = py_str(*doc.get("nout"));  // True for yes
    if (const value* ulp = doc.get("ulp")) {
      const value& node = expect(*ulp, kind::mapping, doc.line_of("ulp"), "'ulp'");
      for (std::size_t n = 0; n < node.keys.size(); ++n) {
        const auto d = dtype_named(node.keys[n]);
        if (!d) fail(node.key_lines[n], "ulp: undefined dtype '" + node.keys[n] + "'");
        const auto bound = py_int(node.items[n]);
        if (!bound || *bound < 0) fail(node.key_lines[n], "ulp bounds must be non-negative integers");
        op.ulp.emplace_back(*d, static_cast<int>(std::min<long long>(*bound, std::numeric_limits<int>::max())));
      }
    }
    if (const value* aliases = doc.get("aliases")) {
      op.aliases_line = doc.line_of("aliases");
      for (const value& a : expect(*aliases, kind::list, op.aliases_line, "'aliases'").items) {
        if (!is_identifier(a)) fail(op.aliases_line, "alias '" + py_str(a) + "' is not a lower-case identifier");
        op.aliases.push_back(a.text);
      }
    }
    if (const value* identity = doc.get("identity"); identity && identity->k != kind::none)
      op.identity = py_str(*identity);
    op.doc = py_str(*doc.get("doc"));
    if (const value* c = doc.get("commutative")) op.commutative = py_truth(*c);
    if (const value* target = doc.get("int_inputs_as")) {
      const auto t = dtype_of(*target);
      if (!t) fail(doc.line_of("int_inputs_as"), "int_inputs_as: undefined dtype '" + py_str(*target) + "'");
      op.int_inputs_as = *t;
    }
    if (const value* message = doc.get("bool_inputs_error")) {
      if (!message->is_str() || py_strip(message->text).empty())
        fail(doc.line_of("bool_inputs_error"), "bool_inputs_error must be a message");
      op.bool_inputs_error = message->text;
    }
    if (const value* flag = doc.get("weak_scalars_by_truth")) {
      if (flag->k != kind::boolean) fail(doc.line_of("weak_scalars_by_truth"), "weak_scalars_by_truth must be true or false");
      op.weak_scalars_by_truth = flag->b;
    }
    if (const value* flag = doc.get("reduce_widens_ints")) {
      const int line = doc.line_of("reduce_widens_ints");
      if (flag->k != kind::boolean) fail(line, "reduce_widens_ints must be true or false");
      if (op.nin != 2 || op.nout != 1) fail(line, "reduce_widens_ints needs a reducing op: nin=2, nout=1");
      op.reduce_widens_ints = flag->b;
    }
    if (const value* raises = doc.get("raises")) {
      const value& node = expect(*raises, kind::mapping, doc.line_of("raises"), "'raises'");
      check_keys(node, {"type", "message"}, {"type", "message"}, "'raises'");
      static const std::vector<std::string> raisable = {"IndexError", "OverflowError", "TypeError", "ValueError"};
      const value& type = *node.get("type");
      if (!type.is_str() || std::find(raisable.begin(), raisable.end(), type.text) == raisable.end())
        fail(node.line_of("type"), "raises: type '" + py_str(type) + "' is not one of " + joined(raisable, true));
      op.raises = type.text + ": " + py_str(*node.get("message"));
    }
    if (const value* outcome = doc.get("python_int_out_of_range")) {
      const int line = doc.line_of("python_int_out_of_range");
      const value& node = expect(*outcome, kind::mapping, line, "'python_int_out_of_range'");
      static const std::vector<std::string> keys = {"when_less", "when_greater"};
      check_keys(node, keys, keys, "'python_int_out_of_range'");
      for (const std::string& key : keys)
        if (node.get(key)->k != kind::boolean)
          fail(node.line_of(key), "python_int_out_of_range: " + key + " must be true or false");
      if (op.nin != 2 || op.nout != 1) fail(line, "python_int_out_of_range needs a comparison: nin=2, nout=1");
      op.python_int_out_of_range = std::pair(node.get("when_less")->b, node.get("when_greater")->b);
    }
    const value* default_body = doc.get("body");

    const value& loops = expect(*doc.get("loops"), kind::list, doc.line_of("loops"), "'loops'");
    if (loops.items.empty()) fail(doc.line_of("loops"), "an op needs at least one loop");
    for (const value& entry : loops.items) {
      const int line = entry.line;
      expect(entry, kind::mapping, line, "a loop");
      check_keys(entry, loop_keys, {"sig"}, "a loop");
      const std::string sig = py_str(*entry.get("sig"));
      const auto [ins, outs] = parse_sig(sig, line);
      if (static_cast<int>(ins.size()) != op.nin || static_cast<int>(outs.size()) != op.nout)
        fail(line, "loop '" + sig + "' has " + std::to_string(ins.size()) + " inputs and " + std::to_string(outs.size()) +
                       " outputs; the op declares nin=" + nin_text + ", nout=" + nout_text);
      const value* body = entry.has("body") ? entry.get("body") : default_body;
      if (!body || !body->is_str() || py_strip(body->text).empty())
        fail(line, "loop has no body (give 'body' in the loop or at the op's top level)");
      for (int k = 0; k < op.nout; ++k) {
        const std::regex assigns("\\bout" + std::to_string(k) + "\\b");
        if (!std::regex_search(body->text, assigns)) fail(line, "loop body never assigns out" + std::to_string(k));
      }
      const bool raises = body_raises(body->text);
      if (raises && op.raises.empty())
        fail(line, "loop body calls cupp::dev::raise_error but the op declares no 'raises'");
      std::vector<std::pair<std::string, std::vector<type_id>>> variables;
      auto variable = [&](const std::string& t) -> const std::vector<type_id>* {
        for (const auto& [name, types] : variables)
          if (name == t) return &types;
        return nullptr;
      };
      if (const value* each_node = entry.get("each")) {
        const value& each = expect(*each_node, kind::mapping, entry.line_of("each"), "'each'");
        for (std::size_t n = 0; n < each.keys.size(); ++n) {
          const std::string& var = each.keys[n];
          if (dtype_named(var)) fail(each.key_lines[n], "type variable '" + var + "' has the name of a dtype");
          variables.emplace_back(var, resolve_list(each.items[n], each.key_lines[n], "each['" + var + "']"));
        }
        std::set<std::size_t> lengths;
        for (const auto& [name, types] : variables) lengths.insert(types.size());
        if (lengths.size() > 1)
          fail(entry.line_of("each"), "the type variables of 'each' expand in step and need lists of equal length");
      }
      std::vector<std::string> all_types = ins;
      all_types.insert(all_types.end(), outs.begin(), outs.end());
      for (const std::string& t : all_types)
        if (!dtype_named(t) && !variable(t))
          fail(line, "loop '" + sig + "': undefined dtype or type variable '" + t + "'");
      for (const auto& [name, types] : variables)
        if (std::find(all_types.begin(), all_types.end(), name) == all_types.end())
          fail(entry.line_of("each"), "type variable '" + name + "' is not used in '" + sig + "'");
      const std::size_t count = variables.empty() ? 1 : variables.front().second.size();
      for (std::size_t j = 0; j < count; ++j) {
        auto subst = [&](const std::string& t) {
          const std::vector<type_id>* v = variable(t);
          return v ? (*v)[j] : *dtype_named(t);
        };
        parsed_loop loop;
        for (const std::string& t : ins) loop.in.push_back(subst(t));
        for (const std::string& t : outs) loop.out.push_back(subst(t));
        loop.body = py_strip(body->text);
        loop.line = line;
        loop.raises = raises;
        op.loops.push_back(std::move(loop));
      }
    }
    if (doc.has("raises") &&
        std::none_of(op.loops.begin(), op.loops.end(), [](const parsed_loop& l) { return l.raises; }))
      fail(doc.line_of("raises"), "'raises' is declared but no loop body calls cupp::dev::raise_error");

    // Duplicate and unreachable loops: resolution takes the first loop whose inputs the call's
    // inputs cast to safely, so a loop is dead when an earlier loop accepts all of its inputs.
    auto signature = [](const parsed_loop& l) {
      std::vector<std::string> in, out;
      for (type_id t : l.in) in.push_back(dtype_name(t));
      for (type_id t : l.out) out.push_back(dtype_name(t));
      return joined(in, false) + " -> " + joined(out, false);
    };
    for (std::size_t j = 0; j < op.loops.size(); ++j) {
      const parsed_loop& loop = op.loops[j];
      for (std::size_t e = 0; e < j; ++e) {
        const parsed_loop& earlier = op.loops[e];
        if (earlier.in == loop.in) {
          std::vector<std::string> in;
          for (type_id t : loop.in) in.push_back(dtype_name(t));
          fail(loop.line, "duplicate loop for inputs (" + joined(in, false) + "): already given at line " +
                              std::to_string(earlier.line));
        }
        bool accepted = true;
        for (std::size_t k = 0; k < loop.in.size(); ++k)
          accepted &= safe_cast_table[static_cast<int>(loop.in[k])][static_cast<int>(earlier.in[k])];
        if (accepted)
          fail(loop.line, "loop (" + signature(loop) + ") is mis-ordered: it can never be chosen, since the earlier loop (" +
                              signature(earlier) + ") at line " + std::to_string(earlier.line) +
                              " accepts its inputs safely");
      }
    }
    return op;
  }

 private:
  const std::string& shown_;
};

}  // namespace

// Refuses text PyYAML (codegen/spec_loader.py) cannot read, with its line: bytes that are not
// UTF-8, and characters YAML forbids (C0 controls but tab, LF and CR; DEL; C1 controls but NEL;
// U+FFFE and U+FFFF). yaml-cpp is not given them: it can spin on such input.
static void reject_unreadable_text(std::string_view text, const std::string& shown) {
  auto fail = [&](std::size_t at, const char* what, unsigned value, int digits) {
    const auto end = text.begin() + static_cast<std::ptrdiff_t>(at);
    const int line = 1 + static_cast<int>(std::count(text.begin(), end, '\n'));
    char hex[16];
    std::snprintf(hex, sizeof hex, "%0*x", digits, value);
    const char* why = digits == 2 ? ": the file is not UTF-8" : ": special characters are not allowed";
    throw SpecError(shown, line, std::string("invalid YAML: ") + what + " #x" + hex + why);
  };
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (len == 0 || i + len > text.size()) fail(i, "invalid UTF-8 byte", c, 2);
    unsigned code = len == 1 ? c : len == 2 ? c & 0x1fu : len == 3 ? c & 0x0fu : c & 0x07u;
    for (std::size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b >> 6) != 0x2) fail(i + k, "invalid UTF-8 byte", b, 2);
      code = (code << 6) | (b & 0x3fu);
    }
    const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    // Overlong, beyond U+10FFFF, or a surrogate: not UTF-8 (Python's decoder refuses them too).
    if (code < least[len] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) fail(i, "invalid UTF-8 byte", c, 2);
    const bool printable = code == 0x09 || code == 0x0a || code == 0x0d || (code >= 0x20 && code <= 0x7e) ||
                           code == 0x85 || (code >= 0xa0 && code <= 0xfffd) || code >= 0x10000;
    if (!printable) fail(i, "unacceptable character", code, 4);
    i += len;
  }
}

// yaml-cpp 0.7's LoadAll loops for ever, growing memory, on a document it cannot start (a stream
// that is just ",", for one: its issue #1040, fixed in 0.8 by ending at the first empty root).
// A first pass with the parser alone stops where a document begins at the same place as the one
// before, which is where LoadAll would loop, and calls that invalid YAML.
namespace {

class document_progress final : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { start = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
  YAML::Mark start = YAML::Mark::null_mark();
};

void reject_stalling_documents(const std::string& text, const std::string& shown) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  document_progress progress;
  int previous = -1;
  while (parser.HandleNextDocument(progress)) {
    if (progress.start.pos == previous)
      throw SpecError(shown, progress.start.line + 1, "invalid YAML: no document can start here");
    previous = progress.start.pos;
  }
}

}  // namespace

bool body_raises(std::string_view body) {
  static const std::regex raise_call("\\braise_error\\b");
  return std::regex_search(body.begin(), body.end(), raise_call);
}

std::vector<parsed_op> parse_op_specs(std::string_view text, const std::string& shown, std::string_view stem) {
  reject_unreadable_text(text, shown);
  std::vector<YAML::Node> documents;
  try {
    const std::string owned(text);
    reject_stalling_documents(owned, shown);
    documents = YAML::LoadAll(owned);
  } catch (const YAML::Exception& e) {
    throw SpecError(shown, e.mark.is_null() ? 0 : e.mark.line + 1, "invalid YAML: " + e.msg);
  }
  tree_builder builder(shown);
  std::vector<value> docs;
  for (const YAML::Node& d : documents) docs.push_back(builder.build(d, 1));
  const op_validator validator(shown);
  std::vector<parsed_op> ops;
  if (docs.size() == 1 && docs.front().k == kind::mapping) {
    ops.push_back(validator.load_op(docs.front(), stem));  // one op, as in specs/ufuncs/
  } else if (docs.size() == 1 && docs.front().k == kind::list) {
    for (const value& item : docs.front().items) {
      if (item.k != kind::mapping) validator.fail(item.line, "an op in a list of ops must be a mapping");
      ops.push_back(validator.load_op(item, {}));
    }
    if (ops.empty()) validator.fail(docs.front().line, "the list of ops is empty");
  } else if (docs.size() > 1) {
    for (const value& d : docs) {
      if (d.k != kind::mapping) validator.fail(d.line, "each document of a multi-document file must be an op (a mapping)");
      ops.push_back(validator.load_op(d, {}));
    }
  } else {
    validator.fail(1, "the top level must be a mapping");
  }
  return ops;
}

std::vector<parsed_op> parse_op_spec_file(const std::filesystem::path& path) {
  const std::string shown = path.string();
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(path, ec)) throw SpecError(shown, 0, "cannot read the op spec file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw SpecError(shown, 0, "cannot read the op spec file");
  return parse_op_specs(text.str(), shown, path.stem().string());
}

}  // namespace cupp::detail
