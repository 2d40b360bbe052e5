// cupp eval: the recursive-descent parser (grammar, precedence and limits in parser.hpp).
#include "parser.hpp"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "syntax_error.hpp"
#include "tokenizer.hpp"

namespace cupp::eval {

namespace {

constexpr int kMaxDepth = 200;
// The deepest syntax tree an operator chain may build: `a + b + c ...` is parsed by a loop, but
// it makes a left-deep tree that the evaluator and the tree's own destruction walk recursively,
// so a chain of 100,000 terms would exhaust the stack. Longer chains are a SyntaxError, as deep
// nesting is (CPython refuses such chains too, with a RecursionError while compiling).
constexpr int kMaxTreeDepth = 2000;
constexpr std::string_view kLinksTooDeep = "a chain of more than %d operators and subscripts";

// Python keywords that are not part of the accepted subset.
constexpr std::array<std::string_view, 25> kKeywords = {
    "and", "or", "not", "in", "is", "if", "else", "lambda", "for", "while", "def", "class", "return",
    "import", "from", "as", "with", "yield", "await", "async", "del", "pass", "global", "nonlocal", "assert"};

class parser {
 public:
  explicit parser(std::string_view source) : tokens_(tokenize(source)) {}

  node_ptr run() {
    node_ptr n = expression_list();
    if (peek().kind != token_kind::end) unexpected(peek());
    return n;
  }

 private:
  const token& peek(std::size_t ahead = 0) const {
    const std::size_t at = pos_ + ahead;
    return at < tokens_.size() ? tokens_[at] : tokens_.back();
  }
  const token& next() {
    const token& t = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) ++pos_;
    return t;
  }
  bool is_op(std::string_view op, std::size_t ahead = 0) const {
    const token& t = peek(ahead);
    return t.kind == token_kind::op && t.text == op;
  }

  [[noreturn]] static void unexpected(const token& t) {
    if (t.kind == token_kind::end) throw syntax_error("unexpected end of expression", t.column);
    if (t.kind == token_kind::op && t.text == "=")
      throw syntax_error("invalid syntax: '=' outside a keyword argument (did you mean '=='?)", t.column);
    if (t.kind == token_kind::name) {
      for (std::string_view k : kKeywords) {
        if (t.text == k) throw syntax_error("'" + t.text + "' is not supported in cupp eval", t.column);
      }
    }
    std::string what = t.kind == token_kind::string ? "string literal" : "'" + t.text + "'";
    throw syntax_error("invalid syntax: unexpected " + what, t.column);
  }

  static node_ptr make(node_kind kind, int column) {
    auto n = std::make_unique<node>();
    n->kind = kind;
    n->column = column;
    return n;
  }

  static std::string too_deep(std::string_view links) {
    std::string what(links);
    what.replace(what.find("%d"), 2, std::to_string(kMaxTreeDepth));
    return "expression nested too deeply (" + what + ")";
  }

  // A node with its children: its links (node::links: its children's most, plus one for a binary
  // or subscript node). The path counting of chain_depth only sees the chain around what is being
  // parsed, not the height of a parenthesised left operand ((a + ... + a) + a + ...); this refuses
  // every tree higher than kMaxTreeDepth links, which the evaluator, to_string and the tree's own
  // destruction walk recursively.
  static node_ptr finish(node_ptr n, bool link = false) {
    int most = 0;
    for (const auto& a : n->args) most = std::max(most, a->links);
    for (const auto& k : n->keywords) most = std::max(most, k.value->links);
    n->links = most + (link ? 1 : 0);
    if (n->links > kMaxTreeDepth) throw syntax_error(too_deep(kLinksTooDeep), n->column);
    return n;
  }

  struct depth_guard {
    explicit depth_guard(parser& p) : p_(p) {
      if (++p_.depth_ > kMaxDepth) throw syntax_error("expression nested too deeply", p_.peek().column);
    }
    ~depth_guard() { --p_.depth_; }
    depth_guard(const depth_guard&) = delete;
    depth_guard& operator=(const depth_guard&) = delete;
    parser& p_;
  };

  // Starts of an expression: after a ',' these continue a tuple, otherwise it ends.
  bool starts_expression() const {
    const token& t = peek();
    if (t.kind == token_kind::end) return false;
    if (t.kind != token_kind::op) return true;
    // ('[' and '...' only to reach atom()'s messages for a list literal and a stray Ellipsis.)
    return t.text == "(" || t.text == "-" || t.text == "+" || t.text == "~" || t.text == "[" || t.text == "...";
  }

  node_ptr expression_list() {
    node_ptr first = comparison();
    if (!is_op(",")) return first;
    node_ptr tuple = make(node_kind::tuple, first->column);
    tuple->args.push_back(std::move(first));
    while (is_op(",")) {
      next();
      if (!starts_expression()) break;
      tuple->args.push_back(comparison());
    }
    return finish(std::move(tuple));
  }

  static bool comparison_op(const token& t, binary_op& op) {
    if (t.kind != token_kind::op) return false;
    static constexpr std::array<std::pair<std::string_view, binary_op>, 6> ops = {{
        {"==", binary_op::equal}, {"!=", binary_op::not_equal}, {"<", binary_op::less},
        {"<=", binary_op::less_equal}, {">", binary_op::greater}, {">=", binary_op::greater_equal}}};
    for (const auto& [s, o] : ops) {
      if (t.text == s) {
        op = o;
        return true;
      }
    }
    return false;
  }

  node_ptr comparison() {
    node_ptr left = bit_or();
    binary_op op{};
    if (!comparison_op(peek(), op)) return left;
    const int column = next().column;
    node_ptr right = bit_or();
    binary_op again{};
    if (comparison_op(peek(), again))
      throw syntax_error("chained comparisons (a < b < c) are not supported in cupp eval; use parentheses",
                         peek().column);
    return binary(op, column, std::move(left), std::move(right));
  }

  static node_ptr binary(binary_op op, int column, node_ptr left, node_ptr right) {
    node_ptr n = make(node_kind::binary, column);
    n->bop = op;
    n->args.push_back(std::move(left));
    n->args.push_back(std::move(right));
    return finish(std::move(n), true);
  }

  // The tree depth an operator chain adds while its operands are parsed; restored on exit.
  struct chain_depth {
    explicit chain_depth(parser& p) : p_(p) {}
    ~chain_depth() { p_.tree_depth_ -= added_; }
    chain_depth(const chain_depth&) = delete;
    chain_depth& operator=(const chain_depth&) = delete;
    void add(int column, std::string_view links = "an operator chain of more than %d operators") {
      ++added_;
      if (++p_.tree_depth_ > kMaxTreeDepth) throw syntax_error(too_deep(links), column);
    }
    parser& p_;
    int added_ = 0;
  };

  // One left-associative level: operand (op operand)*.
  template <class Next>
  node_ptr level(Next next_level, std::initializer_list<std::pair<std::string_view, binary_op>> ops) {
    node_ptr left = (this->*next_level)();
    chain_depth chain(*this);
    while (true) {
      const token& t = peek();
      const std::pair<std::string_view, binary_op>* hit = nullptr;
      if (t.kind == token_kind::op) {
        for (const auto& o : ops) {
          if (t.text == o.first) hit = &o;
        }
      }
      if (hit == nullptr) return left;
      const int column = next().column;
      chain.add(column);
      left = binary(hit->second, column, std::move(left), (this->*next_level)());
    }
  }

  node_ptr bit_or() { return level(&parser::bit_xor, {{"|", binary_op::bitwise_or}}); }
  node_ptr bit_xor() { return level(&parser::bit_and, {{"^", binary_op::bitwise_xor}}); }
  node_ptr bit_and() { return level(&parser::shift, {{"&", binary_op::bitwise_and}}); }
  node_ptr shift() {
    return level(&parser::arith, {{"<<", binary_op::left_shift}, {">>", binary_op::right_shift}});
  }
  node_ptr arith() { return level(&parser::term, {{"+", binary_op::add}, {"-", binary_op::subtract}}); }
  node_ptr term() {
    return level(&parser::factor, {{"*", binary_op::multiply},
                                   {"/", binary_op::divide},
                                   {"//", binary_op::floor_divide},
                                   {"%", binary_op::remainder},
                                   {"@", binary_op::matmul}});
  }

  node_ptr factor() {
    const depth_guard guard(*this);
    const token& t = peek();
    if (t.kind == token_kind::op && (t.text == "-" || t.text == "+" || t.text == "~")) {
      const unary_op op = t.text == "-" ? unary_op::negative : t.text == "+" ? unary_op::positive : unary_op::invert;
      node_ptr n = make(node_kind::unary, next().column);
      n->uop = op;
      n->args.push_back(factor());
      return finish(std::move(n));
    }
    return power();
  }

  node_ptr power() {
    node_ptr base = primary();
    if (!is_op("**")) return base;
    const int column = next().column;
    return binary(binary_op::power, column, std::move(base), factor());  // right-assoc via factor
  }

  // A primary: an operand, then its subscripts a[i][j]... (a loop: each adds a link to the tree
  // depth, as an operator does; a subscript's index nests: depth_guard).
  node_ptr primary() {
    node_ptr n = operand();
    chain_depth chain(*this);
    while (is_op("[")) {
      const int open_column = next().column;
      chain.add(open_column, kLinksTooDeep);
      node_ptr s = make(node_kind::subscript, open_column);
      s->args.push_back(std::move(n));
      s->args.push_back(subscript_index(open_column));
      n = finish(std::move(s), true);
    }
    if (is_op("(") && (n->kind == node_kind::call || n->kind == node_kind::subscript)) {
      throw syntax_error(n->kind == node_kind::call ? "calling the result of a call is not supported"
                                                    : "calling the result of a subscript is not supported",
                         peek().column);
    }
    if (is_op(".")) throw syntax_error("attribute access is not supported in cupp eval", peek().column);
    return n;
  }

  // What a subscript may follow: a name, a call (f(x), add.outer(a, b)) or an atom.
  node_ptr operand() {
    const token& t = peek();
    if (t.kind != token_kind::name || t.text == "True" || t.text == "False" || t.text == "None") return atom();
    for (std::string_view k : kKeywords) {
      if (t.text == k) throw syntax_error("'" + t.text + "' is not supported in cupp eval", t.column);
    }
    const int column = t.column;
    std::string name = next().text;
    while (is_op(".")) {
      const token& dot = next();
      if (peek().kind != token_kind::name) unexpected(peek());
      const std::string& attr = next().text;
      if (!is_op("(")) {
        throw syntax_error("attribute access ('." + attr + "') is not supported in cupp eval, only calls like add.outer(a, b)",
                           dot.column);
      }
      name += "." + attr;
    }
    if (!is_op("(")) {
      node_ptr n = make(node_kind::name, column);
      n->text = std::move(name);
      return n;
    }
    node_ptr call = make(node_kind::call, column);
    call->text = std::move(name);
    arguments(*call);
    return finish(std::move(call));
  }

  // After '[': the index, one item or a tuple of items (a[1, :], a[1,]), then ']'.
  node_ptr subscript_index(int open_column) {
    const depth_guard guard(*this);
    if (is_op("]")) throw syntax_error("invalid syntax: a subscript needs an index ('a[]')", peek().column);
    node_ptr first = subscript_item(open_column);
    if (is_op(",")) {
      node_ptr tuple = make(node_kind::tuple, first->column);
      tuple->args.push_back(std::move(first));
      while (is_op(",")) {
        next();
        if (is_op("]")) break;
        tuple->args.push_back(subscript_item(open_column));
      }
      first = finish(std::move(tuple));
    }
    if (peek().kind == token_kind::end) throw syntax_error("'[' was never closed", open_column);
    if (!is_op("]")) unexpected(peek());
    next();
    return first;
  }

  // One subscript item: `...`, a slice start:stop:step (any part omitted: a none node), or an
  // expression.
  node_ptr subscript_item(int open_column) {
    if (peek().kind == token_kind::end) throw syntax_error("'[' was never closed", open_column);
    if (is_op("...")) return make(node_kind::ellipsis, next().column);
    node_ptr start;
    if (!is_op(":")) {
      start = comparison();
      if (!is_op(":")) return start;
    }
    const int column = next().column;  // the first ':'
    node_ptr s = make(node_kind::slice, column);
    s->args.push_back(start ? std::move(start) : make(node_kind::none, column));
    s->args.push_back(slice_part(column));
    if (is_op(":")) {
      const int second = next().column;
      s->args.push_back(slice_part(second));
    } else {
      s->args.push_back(make(node_kind::none, column));
    }
    return finish(std::move(s));
  }

  // A slice's stop or step: omitted (a none node) before ':', ',', ']' or the end.
  node_ptr slice_part(int column) {
    if (is_op(":") || is_op(",") || is_op("]") || peek().kind == token_kind::end) return make(node_kind::none, column);
    return comparison();
  }

  void arguments(node& call) {
    const token& open = next();  // '('
    const int open_column = open.column;
    while (!is_op(")")) {
      if (peek().kind == token_kind::end) throw syntax_error("'(' was never closed", open_column);
      const token& t = peek();
      if (t.kind == token_kind::name && is_op("=", 1)) {
        for (const auto& k : call.keywords) {
          if (k.name == t.text) throw syntax_error("keyword argument repeated: " + t.text, t.column);
        }
        keyword_arg k{t.text, nullptr, t.column};
        next();
        next();
        k.value = comparison();
        call.keywords.push_back(std::move(k));
      } else {
        if (!call.keywords.empty()) throw syntax_error("positional argument follows keyword argument", t.column);
        call.args.push_back(comparison());
      }
      if (is_op(",")) {
        next();
      } else if (!is_op(")")) {
        if (peek().kind == token_kind::end) throw syntax_error("'(' was never closed", open_column);
        unexpected(peek());
      }
    }
    next();  // ')'
  }

  node_ptr atom() {
    const depth_guard guard(*this);
    const token& t = next();
    node_ptr n;
    switch (t.kind) {
      case token_kind::integer:
        n = make(node_kind::integer, t.column);
        n->int_value = t.int_value;
        n->int_overflow = t.int_overflow;
        n->text = t.text;
        return n;
      case token_kind::floating:
      case token_kind::imaginary:
        n = make(t.kind == token_kind::floating ? node_kind::floating : node_kind::imaginary, t.column);
        n->float_value = t.float_value;
        n->text = t.text;
        return n;
      case token_kind::string:
        n = make(node_kind::string, t.column);
        n->text = t.text;
        return n;
      case token_kind::name:  // True / False / None (other names are handled by primary)
        if (t.text == "None") return make(node_kind::none, t.column);
        n = make(node_kind::boolean, t.column);
        n->bool_value = t.text == "True";
        return n;
      case token_kind::op:
        if (t.text == "(") return parenthesised(t.column);
        if (t.text == "[")
          throw syntax_error("list literals ([...]) are not supported in cupp eval; bind the values as an array",
                             t.column);
        if (t.text == "...")
          throw syntax_error("'...' (Ellipsis) is only supported as a subscript item (a[..., 0]) in cupp eval",
                             t.column);
        unexpected(t);
      case token_kind::end:
        unexpected(t);
    }
    unexpected(t);
  }

  node_ptr parenthesised(int open_column) {
    if (is_op(")")) {
      next();
      return make(node_kind::tuple, open_column);
    }
    if (peek().kind == token_kind::end) throw syntax_error("'(' was never closed", open_column);
    node_ptr inner = comparison();
    if (is_op(",")) {
      node_ptr tuple = make(node_kind::tuple, open_column);
      tuple->args.push_back(std::move(inner));
      while (is_op(",")) {
        next();
        if (is_op(")")) break;
        if (peek().kind == token_kind::end) break;
        tuple->args.push_back(comparison());
      }
      inner = finish(std::move(tuple));
    }
    if (peek().kind == token_kind::end) throw syntax_error("'(' was never closed", open_column);
    if (!is_op(")")) unexpected(peek());
    next();
    return inner;
  }

  std::vector<token> tokens_;
  std::size_t pos_ = 0;
  int depth_ = 0;
  int tree_depth_ = 0;  // binary and subscript nodes on the path from the root to what is being parsed
};

}  // namespace

node_ptr parse(std::string_view source) { return parser(source).run(); }

}  // namespace cupp::eval
