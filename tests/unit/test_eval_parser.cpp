// `cupp eval`'s pure parts (no GPU): tokenizer, parser (precedence, literals, keyword
// arguments, subscripts, the column of each syntax error, the nesting and chain limits), Python
// scalar arithmetic, the --batch line splitter, and the class names errors print with; with the
// engine linked (CUPP_HAVE_EVAL_ENGINE), the evaluator's host-only paths: subscripts of tuples
// and scalars, and the message for a function cupp eval does not have.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "error_of.hpp"
#include "arguments.hpp"
#include "ast.hpp"
#include "cupp/errors.hpp"
#ifdef CUPP_HAVE_EVAL_ENGINE
#include "evaluator.hpp"
#include "functions.hpp"
#endif
#include "parser.hpp"
#include "scalar.hpp"
#include "shell_split.hpp"
#include "syntax_error.hpp"
#include "tokenizer.hpp"

namespace cupp::eval {
namespace {

std::string parsed(std::string_view source) { return to_string(*parse(source)); }

// The column and reason of the syntax error parsing `source` raises (0 when none).
struct error_at {
  int column = 0;
  std::string reason;
};
error_at syntax_error_of(std::string_view source) {
  try {
    parse(source);
  } catch (const syntax_error& e) {
    return {e.column(), e.reason()};
  }
  return {};
}

TEST(EvalTokenizer, KindsTextAndColumns) {
  const auto t = tokenize("add(a, 2.5) ** -0x10 // 'f4'");
  ASSERT_EQ(t.size(), 12u);
  EXPECT_EQ(t[0].kind, token_kind::name);
  EXPECT_EQ(t[0].text, "add");
  EXPECT_EQ(t[0].column, 1);
  EXPECT_EQ(t[1].text, "(");
  EXPECT_EQ(t[2].column, 5);
  EXPECT_EQ(t[4].kind, token_kind::floating);
  EXPECT_EQ(t[4].float_value, 2.5);
  EXPECT_EQ(t[6].text, "**");
  EXPECT_EQ(t[6].column, 13);
  EXPECT_EQ(t[7].text, "-");
  EXPECT_EQ(t[8].kind, token_kind::integer);
  EXPECT_TRUE(t[8].int_value == 16);
  EXPECT_EQ(t[9].text, "//");
  EXPECT_EQ(t[10].kind, token_kind::string);
  EXPECT_EQ(t[10].text, "f4");
  EXPECT_EQ(t[11].kind, token_kind::end);
  EXPECT_EQ(t[11].column, 29);
}

TEST(EvalTokenizer, NumbersFollowPython) {
  const auto one = [](std::string_view s) {
    auto t = tokenize(s);
    EXPECT_EQ(t.size(), 2u) << s;
    return t[0];
  };
  EXPECT_TRUE(one("1_000").int_value == 1000);
  EXPECT_TRUE(one("0o17").int_value == 15);
  EXPECT_TRUE(one("0b101").int_value == 5);
  EXPECT_TRUE(one("0XfF").int_value == 255);
  EXPECT_TRUE(one("00").int_value == 0);
  EXPECT_EQ(one("1e3").kind, token_kind::floating);
  EXPECT_EQ(one("1e3").float_value, 1000.0);
  EXPECT_EQ(one("1.5E-3").float_value, 0.0015);
  EXPECT_EQ(one(".5").float_value, 0.5);
  EXPECT_EQ(one("5.").float_value, 5.0);
  EXPECT_EQ(one("2j").kind, token_kind::imaginary);
  EXPECT_EQ(one("2j").float_value, 2.0);
  EXPECT_EQ(one("1.5J").float_value, 1.5);
  EXPECT_EQ(one("1e2j").float_value, 100.0);
  const auto big = one("170141183460469231731687303715884105727");  // 2**127 - 1
  EXPECT_FALSE(big.int_overflow);
  EXPECT_TRUE(one("170141183460469231731687303715884105728").int_overflow);
  EXPECT_EQ(int128_to_string(big.int_value), "170141183460469231731687303715884105727");
}

TEST(EvalTokenizer, BadLiteralsPointAtTheirColumn) {
  const auto col = [](std::string_view s) {
    try {
      tokenize(s);
    } catch (const syntax_error& e) {
      return e.column();
    }
    return 0;
  };
  EXPECT_EQ(col("a + 012"), 5);    // leading zeros
  EXPECT_EQ(col("1__0"), 2);       // double underscore
  EXPECT_EQ(col("1_"), 2);         // trailing underscore
  EXPECT_EQ(col("0x"), 3);         // no hex digits
  EXPECT_EQ(col("0b102"), 5);      // a digit beyond the base
  EXPECT_EQ(col("1e+"), 2);        // exponent without digits
  EXPECT_EQ(col("12abc"), 3);      // a name glued to a number
  EXPECT_EQ(col("a $ b"), 3);      // invalid character
  EXPECT_EQ(col("x + 'abc"), 5);   // unterminated string: the opening quote
  EXPECT_EQ(col("a ? b"), 3);      // invalid character
}

TEST(EvalTokenizer, SubscriptTokens) {
  const auto t = tokenize("a[..., 1:, ::-1]..b");
  std::vector<std::string> texts;
  for (const auto& x : t) texts.push_back(x.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "[", "...", ",", "1", ":", ",", ":", ":", "-", "1", "]", ".",
                                              ".", "b", ""}));
  EXPECT_EQ(t[2].kind, token_kind::op);
  EXPECT_EQ(t[2].column, 3);
  EXPECT_EQ(t[3].column, 6);
  EXPECT_EQ(t[11].column, 16);
  EXPECT_EQ(tokenize("a[.5:]")[2].kind, token_kind::floating);  // ".5" is a number, not '.'
}

TEST(EvalParser, Precedence) {
  EXPECT_EQ(parsed("a + 2*b"), "add(a, multiply(2, b))");
  // @ is matmul, at the level of * (Python's): left to right, below ** and unary minus.
  EXPECT_EQ(parsed("a @ b @ c"), "matmul(matmul(a, b), c)");
  EXPECT_EQ(parsed("a + b @ c * d"), "add(a, multiply(matmul(b, c), d))");
  EXPECT_EQ(parsed("-a @ b**2"), "matmul(negative(a), power(b, 2))");
  EXPECT_EQ(parsed("a - b - c"), "subtract(subtract(a, b), c)");
  EXPECT_EQ(parsed("a / b // c % d"), "remainder(floor_divide(divide(a, b), c), d)");
  EXPECT_EQ(parsed("2 ** 3 ** 2"), "power(2, power(3, 2))");      // right-associative
  EXPECT_EQ(parsed("-a ** 2"), "negative(power(a, 2))");          // ** binds tighter on its left
  EXPECT_EQ(parsed("a ** -b"), "power(a, negative(b))");          // ... but not on its right
  EXPECT_EQ(parsed("-2 ** -1"), "negative(power(2, negative(1)))");
  EXPECT_EQ(parsed("~a + +b"), "add(invert(a), positive(b))");
  EXPECT_EQ(parsed("a << 1 + b"), "left_shift(a, add(1, b))");
  EXPECT_EQ(parsed("a & b << 2"), "bitwise_and(a, left_shift(b, 2))");
  EXPECT_EQ(parsed("a | b ^ c & d"), "bitwise_or(a, bitwise_xor(b, bitwise_and(c, d)))");
  EXPECT_EQ(parsed("a >> 1 >> 2"), "right_shift(right_shift(a, 1), 2)");
  EXPECT_EQ(parsed("a | b == c & d"), "equal(bitwise_or(a, b), bitwise_and(c, d))");
  EXPECT_EQ(parsed("a != b"), "not_equal(a, b)");
  EXPECT_EQ(parsed("a<b"), "less(a, b)");
  EXPECT_EQ(parsed("a <= b"), "less_equal(a, b)");
  EXPECT_EQ(parsed("a > -b"), "greater(a, negative(b))");
  EXPECT_EQ(parsed("a >= b"), "greater_equal(a, b)");
  EXPECT_EQ(parsed("(a + b) * c"), "multiply(add(a, b), c)");
  EXPECT_EQ(parsed("- - a"), "negative(negative(a))");
}

TEST(EvalParser, Literals) {
  EXPECT_EQ(parsed("2j"), "2.0j");
  EXPECT_EQ(parsed("1e3"), "1000.0");
  EXPECT_EQ(parsed("0x10"), "16");
  EXPECT_EQ(parsed("True"), "True");
  EXPECT_EQ(parsed("False"), "False");
  EXPECT_EQ(parsed("None"), "None");
  EXPECT_EQ(parsed("'float32'"), "'float32'");
  // Strings print as literals that read back as the same text (quote, backslash, \n, \t escaped).
  EXPECT_EQ(parsed("\"a\\'b\""), "'a\\'b'");
  EXPECT_EQ(parsed("'a\\\\b\\nc\\td'"), "'a\\\\b\\nc\\td'");
  EXPECT_EQ(parsed(parsed("\"it's\"")), "'it\\'s'");
  EXPECT_EQ(parsed("()"), "()");
  EXPECT_EQ(parsed("(1,)"), "(1,)");
  EXPECT_EQ(parsed("(1, 2.5, a)"), "(1, 2.5, a)");
  EXPECT_EQ(parsed("(1, 2,)"), "(1, 2)");
  EXPECT_EQ(parsed("a + 1, a - 1"), "(add(a, 1), subtract(a, 1))");  // top-level tuple
  EXPECT_EQ(parsed("a,"), "(a,)");
  EXPECT_EQ(parsed("((a))"), "a");
  EXPECT_EQ(parsed("1 + 2j"), "add(1, 2.0j)");
}

TEST(EvalParser, CallsAndKeywordArguments) {
  EXPECT_EQ(parsed("sum(a, axis=(0, 2), keepdims=True)"), "sum(a, axis=(0, 2), keepdims=True)");
  EXPECT_EQ(parsed("add(a, b, dtype='float32')"), "add(a, b, dtype='float32')");
  EXPECT_EQ(parsed("add(a, b, casting='unsafe', where=m,)"), "add(a, b, casting='unsafe', where=m)");
  EXPECT_EQ(parsed("f()"), "f()");
  EXPECT_EQ(parsed("sin(a) + cos(b)"), "add(sin(a), cos(b))");
  EXPECT_EQ(parsed("add.outer(a, b)"), "add.outer(a, b)");
  EXPECT_EQ(parsed("maximum(a, b == c)"), "maximum(a, equal(b, c))");
  EXPECT_EQ(parsed("divmod(a, 3)"), "divmod(a, 3)");
  const auto n = parse("sum(a, axis=1)");
  ASSERT_EQ(n->kind, node_kind::call);
  ASSERT_EQ(n->keywords.size(), 1u);
  EXPECT_EQ(n->keywords[0].name, "axis");
  EXPECT_EQ(n->keywords[0].column, 8);
  EXPECT_EQ(n->column, 1);
}

TEST(EvalParser, SubscriptItems) {
  // Integers (negative ones are negative(...)), names (integer or bool arrays at run time), calls.
  EXPECT_EQ(parsed("a[0]"), "a[0]");
  EXPECT_EQ(parsed("a[-1]"), "a[negative(1)]");
  EXPECT_EQ(parsed("a[idx]"), "a[idx]");
  EXPECT_EQ(parsed("a[argsort(b)]"), "a[argsort(b)]");
  EXPECT_EQ(parsed("a[b > 0]"), "a[greater(b, 0)]");
  EXPECT_EQ(parsed("a[True]"), "a[True]");
  // Slices, any part omitted; an explicit None part is an omitted one (a[None:3] is a[:3]).
  EXPECT_EQ(parsed("a[1:]"), "a[1:]");
  EXPECT_EQ(parsed("a[:2]"), "a[:2]");
  EXPECT_EQ(parsed("a[:]"), "a[:]");
  EXPECT_EQ(parsed("a[::]"), "a[:]");
  EXPECT_EQ(parsed("a[::2]"), "a[::2]");
  EXPECT_EQ(parsed("a[::-1]"), "a[::negative(1)]");
  EXPECT_EQ(parsed("a[1:5:2]"), "a[1:5:2]");
  EXPECT_EQ(parsed("a[1:5:]"), "a[1:5]");
  EXPECT_EQ(parsed("a[:5:2]"), "a[:5:2]");
  EXPECT_EQ(parsed("a[1::2]"), "a[1::2]");
  EXPECT_EQ(parsed("a[None:3:None]"), "a[:3]");
  EXPECT_EQ(parsed("a[b + 1:n - 1]"), "a[add(b, 1):subtract(n, 1)]");
  EXPECT_EQ(parsed("a [ 1 : 2 ]"), "a[1:2]");
  // None (numpy.newaxis), ... (Ellipsis), and tuples of items.
  EXPECT_EQ(parsed("a[None]"), "a[None]");
  EXPECT_EQ(parsed("a[...]"), "a[...]");
  EXPECT_EQ(parsed("a[..., 0]"), "a[..., 0]");
  EXPECT_EQ(parsed("a[1, :, None]"), "a[1, :, None]");
  EXPECT_EQ(parsed("a[idx, ::2]"), "a[idx, ::2]");
  EXPECT_EQ(parsed("a[m, 1:, ..., None,]"), "a[m, 1:, ..., None]");
  EXPECT_EQ(parsed("a[1,]"), "a[1,]");         // a one-item tuple
  EXPECT_EQ(parsed("a[(1, 2)]"), "a[1, 2]");   // the same index as a[1, 2]
  EXPECT_EQ(parsed("a[(1,)]"), "a[1,]");
  EXPECT_EQ(parsed("a[()]"), "a[()]");
  EXPECT_EQ(parsed("a[(i, j), 0]"), "a[(i, j), 0]");
  EXPECT_EQ(parsed("a[a[a[0]]]"), "a[a[a[0]]]");
  EXPECT_EQ(parsed("a[i, j] + 1"), "add(a[i, j], 1)");
  // The tree: subscript(value, index); a slice has three parts (none nodes when omitted); the
  // subscript's column is its '[', a slice's its first ':'.
  const auto n = parse("ab[1:, ...]");
  ASSERT_EQ(n->kind, node_kind::subscript);
  EXPECT_EQ(n->column, 3);
  ASSERT_EQ(n->args.size(), 2u);
  EXPECT_EQ(n->args[0]->kind, node_kind::name);
  const node& index = *n->args[1];
  ASSERT_EQ(index.kind, node_kind::tuple);
  ASSERT_EQ(index.args.size(), 2u);
  const node& s = *index.args[0];
  ASSERT_EQ(s.kind, node_kind::slice);
  EXPECT_EQ(s.column, 5);
  ASSERT_EQ(s.args.size(), 3u);
  EXPECT_EQ(s.args[0]->kind, node_kind::integer);
  EXPECT_EQ(s.args[1]->kind, node_kind::none);
  EXPECT_EQ(s.args[2]->kind, node_kind::none);
  EXPECT_EQ(index.args[1]->kind, node_kind::ellipsis);
  EXPECT_EQ(index.args[1]->column, 8);
  EXPECT_EQ(parse("a[0]")->args[1]->kind, node_kind::integer);  // one item: no tuple
}

TEST(EvalParser, SubscriptPrecedenceAndChaining) {
  // Tighter than unary minus and **, as in Python.
  EXPECT_EQ(parsed("-a[0]"), "negative(a[0])");
  EXPECT_EQ(parsed("a[0]**2"), "power(a[0], 2)");
  EXPECT_EQ(parsed("-a[0]**2"), "negative(power(a[0], 2))");
  EXPECT_EQ(parsed("2**a[1]"), "power(2, a[1])");
  EXPECT_EQ(parsed("a**-b[0]"), "power(a, negative(b[0]))");
  EXPECT_EQ(parsed("~m[0] & m[1:]"), "bitwise_and(invert(m[0]), m[1:])");
  EXPECT_EQ(parsed("a[0] @ b[:, 1]"), "matmul(a[0], b[:, 1])");
  // On any primary: calls (a tuple result too), parentheses, literals.
  EXPECT_EQ(parsed("f(x)[1]"), "f(x)[1]");
  EXPECT_EQ(parsed("divmod(a, 3)[0]"), "divmod(a, 3)[0]");
  EXPECT_EQ(parsed("add.outer(a, b)[0, ::2]"), "add.outer(a, b)[0, ::2]");
  EXPECT_EQ(parsed("(a + b)[::2]"), "add(a, b)[::2]");
  EXPECT_EQ(parsed("(-a)[0]"), "negative(a)[0]");
  EXPECT_EQ(parsed("(a, b)[0]"), "(a, b)[0]");
  EXPECT_EQ(parsed("None[0]"), "None[0]");  // parses; evaluating it is a TypeError, as in Python
  // Chained, left to right.
  EXPECT_EQ(parsed("a[1][2]"), "a[1][2]");
  EXPECT_EQ(parsed("a[::-2, 1::2][i, j]"), "a[::negative(2), 1::2][i, j]");
  EXPECT_EQ(parsed("f(x)[0][1:]"), "f(x)[0][1:]");
  const auto n = parse("a[1][2]");
  ASSERT_EQ(n->kind, node_kind::subscript);
  EXPECT_EQ(n->args[1]->int_value, 2);
  ASSERT_EQ(n->args[0]->kind, node_kind::subscript);
  EXPECT_EQ(n->args[0]->args[1]->int_value, 1);
  // The rendering parses back to the same tree.
  for (const char* e : {"a[1:, ..., None]", "a[(1, 2), ::-1]", "a[()]", "a[1,]", "f(x)[0][b + 1:]", "(a, b)[1]",
                        "a[i][j][k]", "-a[0]**2", "a['x':]"}) {
    EXPECT_EQ(parsed(parsed(e)), parsed(e)) << e;
  }
}

TEST(EvalParser, NodeColumns) {
  const auto n = parse("a + 2*b");
  EXPECT_EQ(n->column, 3);            // the operator
  EXPECT_EQ(n->args[1]->column, 6);   // '*'
  EXPECT_EQ(n->args[1]->args[1]->column, 7);
}

TEST(EvalParser, EverySyntaxErrorHasItsColumn) {
  struct row {
    const char* source;
    int column;
    const char* reason_part;
  };
  const row rows[] = {
      {"", 1, "unexpected end"},
      {"a +", 4, "unexpected end"},
      {"a + * b", 5, "unexpected '*'"},
      {"a b", 3, "unexpected 'b'"},
      {"(a + b", 1, "'(' was never closed"},
      {"x * (a + b", 5, "'(' was never closed"},
      {"f(a, b", 2, "'(' was never closed"},
      {"a + b)", 6, "unexpected ')'"},
      {"f(a b)", 5, "unexpected 'b'"},
      {"f(k=1, a)", 8, "positional argument follows keyword argument"},
      {"f(a, k=1, k=2)", 11, "keyword argument repeated: k"},
      {"a < b < c", 7, "chained comparisons"},
      {"a = b", 3, "'='"},
      {"a.T", 2, "attribute access"},
      {"f(a)(b)", 5, "calling the result"},
      {"not a", 1, "'not' is not supported"},
      {"a and b", 3, "'and' is not supported"},
      {"a +, b", 4, "unexpected ','"},
      {"f(,)", 3, "unexpected ','"},
      {"1 2", 3, "unexpected '2'"},
      {"a.(b)", 3, "unexpected '('"},
      {"'a' 'b'", 5, "unexpected string literal"},
      // subscripts
      {"a[", 2, "'[' was never closed"},
      {"a[1", 2, "'[' was never closed"},
      {"a[1,", 2, "'[' was never closed"},
      {"a[1:", 2, "'[' was never closed"},
      {"x + a[b[0]", 6, "'[' was never closed"},
      {"a[]", 3, "a subscript needs an index"},
      {"a[1:2:3:4]", 8, "unexpected ':'"},
      {"a[1:2::]", 7, "unexpected ':'"},
      {"a[1 2]", 5, "unexpected '2'"},
      {"a[(1:2)]", 5, "unexpected ':'"},
      {"f(a[1)", 6, "unexpected ')'"},
      {"a[1)", 4, "unexpected ')'"},
      {"a]", 2, "unexpected ']'"},
      {"a[k=1]", 4, "'='"},
      {"a[0](b)", 5, "calling the result of a subscript"},
      {"a[0].T", 5, "attribute access"},
      {"f(a)[0].T", 8, "attribute access"},
      {"[1, 2]", 1, "list literals"},
      {"a + [1]", 5, "list literals"},
      {"a, [1]", 4, "list literals"},
      {"a[[0, 1]]", 3, "list literals"},
      {"...", 1, "'...' (Ellipsis) is only supported as a subscript item"},
      {"a[(..., 0)]", 4, "'...' (Ellipsis)"},
      {"f(...)", 3, "'...' (Ellipsis)"},
      {"a[1:...]", 5, "'...' (Ellipsis)"},
      {"a:b", 2, "unexpected ':'"},
  };
  for (const row& r : rows) {
    const error_at e = syntax_error_of(r.source);
    EXPECT_EQ(e.column, r.column) << r.source << ": " << e.reason;
    EXPECT_NE(e.reason.find(r.reason_part), std::string::npos) << r.source << ": " << e.reason;
  }
}

TEST(EvalParser, DeepNestingIsAnErrorNotACrash) {
  const std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  EXPECT_NE(syntax_error_of(deep).reason.find("nested too deeply"), std::string::npos);
  EXPECT_NE(syntax_error_of(std::string(100000, '-') + "a").reason.find("nested too deeply"), std::string::npos);
  EXPECT_EQ(syntax_error_of(std::string(50, '(') + "a" + std::string(50, ')')).column, 0);
}

TEST(EvalParser, NestedSubscriptsCountTowardsTheDepthLimit) {
  const auto nested = [](int levels) {  // a[a[...a[0]...]]
    std::string s;
    for (int i = 0; i < levels; ++i) s += "a[";
    s += "0";
    return s + std::string(static_cast<std::size_t>(levels), ']');
  };
  const auto parens = [](int levels, const std::string& inner) {
    return std::string(static_cast<std::size_t>(levels), '(') + inner + std::string(static_cast<std::size_t>(levels), ')');
  };
  EXPECT_NE(syntax_error_of(nested(100000)).reason.find("nested too deeply"), std::string::npos);
  EXPECT_EQ(syntax_error_of(nested(50)).column, 0);
  // A subscript inside a subscript nests as a parenthesis does: 50 parentheses around 49 nested
  // subscripts are within the limit, around 50 they are not.
  EXPECT_EQ(syntax_error_of(parens(50, nested(49))).column, 0);
  EXPECT_NE(syntax_error_of(parens(50, nested(50))).reason.find("nested too deeply"), std::string::npos);
  // An item nested in parentheses inside the index counts too.
  EXPECT_NE(syntax_error_of("a[" + parens(100000, "0") + "]").reason.find("nested too deeply"), std::string::npos);
  EXPECT_NE(syntax_error_of("a[" + std::string(100000, '-') + "0]").reason.find("nested too deeply"),
            std::string::npos);
}

TEST(EvalParser, LongSubscriptChainsAreAnErrorNotACrash) {
  const auto chain = [](int subscripts) {  // a[0][0]...
    std::string s = "a";
    for (int i = 0; i < subscripts; ++i) s += "[0]";
    return s;
  };
  // 100,000 subscripts: a SyntaxError at the first '[' past the limit (no deep recursion).
  const error_at e = syntax_error_of(chain(100000));
  EXPECT_NE(e.reason.find("nested too deeply (a chain of more than 2000 operators and subscripts)"), std::string::npos)
      << e.reason;
  EXPECT_EQ(e.column, 2 + 3 * 2000);
  // Up to the limit a chain parses into a tree of that many subscripts.
  node_ptr n = parse(chain(2000));
  int depth = 0;
  for (const node* p = n.get(); p->kind == node_kind::subscript; p = p->args[0].get()) ++depth;
  EXPECT_EQ(depth, 2000);
  // Subscripts and operators on one path add up: 1000 operators, then 1000 or 1001 subscripts.
  std::string ops = "b";
  for (int i = 0; i < 999; ++i) ops += "+b";
  EXPECT_NO_THROW(parse(ops + "+" + chain(1000)));
  EXPECT_NE(syntax_error_of(ops + "+" + chain(1001)).reason.find("nested too deeply"), std::string::npos);
  // A parenthesised subscript chain on the left of another is on the same path too.
  EXPECT_NE(syntax_error_of("(" + chain(1500) + ")" + chain(501).substr(1)).reason.find("nested too deeply"),
            std::string::npos);
  EXPECT_NO_THROW(parse("(" + chain(1500) + ")" + chain(500).substr(1)));
  std::string nested = "a";
  for (int i = 0; i < 90; ++i) nested = "(" + nested + chain(1999).substr(1) + ")";
  EXPECT_NE(syntax_error_of(nested).reason.find("nested too deeply"), std::string::npos);
  // ... and an operator chain inside an index adds to the subscripts around it.
  std::string sum = "b";
  for (int i = 0; i < 1999; ++i) sum += "+b";  // 1999 operators
  EXPECT_NO_THROW(parse("a[" + sum + "]"));
  EXPECT_NE(syntax_error_of("a[0][" + sum + "]").reason.find("operator chain"), std::string::npos);
}

TEST(EvalParser, LongOperatorChainsAreAnErrorNotACrash) {
  auto chain = [](int terms, std::string_view op) {
    std::string s = "a";
    for (int i = 1; i < terms; ++i) s.append(op).append("a");
    return s;
  };
  // 100,000 terms: a SyntaxError naming the limit, at the first operator past it.
  const error_at e = syntax_error_of(chain(100000, "+"));
  EXPECT_NE(e.reason.find("nested too deeply (an operator chain of more than 2000 operators)"), std::string::npos);
  EXPECT_EQ(e.column, 2 * 2001);
  EXPECT_NE(syntax_error_of(chain(100000, " * ")).reason.find("operator chain"), std::string::npos);
  // A chain inside a parenthesised operand adds to the chain around it (1200 + 899 operators).
  EXPECT_NE(syntax_error_of(chain(1200, "+") + " + " + "(" + chain(900, "*") + ")").reason.find("operator chain"),
            std::string::npos);
  // Up to the limit a chain parses into a left-deep tree of that many operators.
  node_ptr n = parse(chain(2001, "+"));
  int depth = 0;
  for (const node* p = n.get(); p->kind == node_kind::binary; p = p->args[0].get()) ++depth;
  EXPECT_EQ(depth, 2000);
  // Sibling chains do not add up: (a+...+a) * (a+...+a), each of 1500 operators.
  EXPECT_NO_THROW(parse("(" + chain(1501, "+") + ") * (" + chain(1501, "+") + ")"));
  // A parenthesised chain on the left of another is on the same path of the tree: 1500 + 600
  // operators are too many, 1400 + 600 are not.
  const error_at left = syntax_error_of("(" + chain(1501, "+") + ")" + chain(601, "+").substr(1));
  EXPECT_NE(left.reason.find("nested too deeply (a chain of more than 2000 operators and subscripts)"), std::string::npos)
      << left.reason;
  EXPECT_EQ(left.column, 1 + 3001 + 1 + 1 + 2 * 500);  // '(', the chain, ')', then the 501st '+
  EXPECT_NO_THROW(parse("(" + chain(1401, "+") + ")" + chain(601, "+").substr(1)));
  // Nesting such chains cannot build a tree deeper than the limit (it used to, and overflowed the
  // stack: 90 levels of 1999 operators each).
  std::string nested = "a";
  for (int i = 0; i < 90; ++i) nested = "(" + nested + chain(2000, "+").substr(1) + ")";
  EXPECT_NE(syntax_error_of(nested).reason.find("nested too deeply"), std::string::npos);
}

TEST(EvalSyntaxError, MessageAndCaret) {
  try {
    parse("a + * b");
    FAIL() << "no error";
  } catch (const cupp::Error& e) {  // a syntax_error is a cupp::Error, printed like the others
    EXPECT_STREQ(e.class_name(), "SyntaxError");
    EXPECT_STREQ(e.what(), "invalid syntax: unexpected '*' (column 5)");
    EXPECT_EQ(dynamic_cast<const syntax_error&>(e).caret("a + * b"), "  a + * b\n      ^\n");
  }
  EXPECT_EQ(syntax_error("x", 3).caret("a\tb"), "  a\tb\n   \t^\n");  // tabs kept for alignment
}

py_scalar S(std::string_view source) {  // folds an expression of literals with Python's rules
  const auto n = parse(source);
  const std::function<py_scalar(const node&)> fold = [&](const node& m) -> py_scalar {
    switch (m.kind) {
      case node_kind::integer: return py_scalar::integer(m.int_value);
      case node_kind::floating: return py_scalar::floating(m.float_value);
      case node_kind::imaginary: return py_scalar::complex({0.0, m.float_value});
      case node_kind::boolean: return py_scalar::boolean(m.bool_value);
      case node_kind::unary: return apply(m.uop, fold(*m.args[0]));
      case node_kind::binary: return apply(m.bop, fold(*m.args[0]), fold(*m.args[1]));
      default: throw std::logic_error("not a scalar expression");
    }
  };
  return fold(*n);
}
std::string R(std::string_view source) { return S(source).repr(); }

TEST(EvalScalars, PythonArithmetic) {
  EXPECT_EQ(R("2*3"), "6");
  EXPECT_EQ(R("1/2"), "0.5");
  EXPECT_EQ(R("7//2"), "3");
  EXPECT_EQ(R("-7//2"), "-4");
  EXPECT_EQ(R("7//-2"), "-4");
  EXPECT_EQ(R("-7 % 3"), "2");
  EXPECT_EQ(R("7 % -3"), "-2");
  EXPECT_EQ(R("-7.5 // 2"), "-4.0");
  EXPECT_EQ(R("-7.5 % 2"), "0.5");
  EXPECT_EQ(R("2**10"), "1024");
  EXPECT_EQ(R("2**-1"), "0.5");
  EXPECT_EQ(R("-2**2"), "-4");
  EXPECT_EQ(R("2**64 - 1"), "18446744073709551615");
  EXPECT_EQ(R("1 + 2j"), "(1+2j)");
  EXPECT_EQ(R("2j * 2j"), "(-4+0j)");
  EXPECT_EQ(R("True + True"), "2");
  EXPECT_EQ(R("True & False"), "False");
  EXPECT_EQ(R("True | 2"), "3");
  EXPECT_EQ(R("~True"), "-2");
  EXPECT_EQ(R("-True"), "-1");
  EXPECT_EQ(R("1 << 70 >> 68"), "4");
  EXPECT_EQ(R("-1 >> 200"), "-1");
  EXPECT_EQ(R("5 ^ 3"), "6");
  EXPECT_EQ(R("1 < 2.5"), "True");
  EXPECT_EQ(R("1 == 1.0"), "True");
  EXPECT_EQ(R("1j == 1j"), "True");
  EXPECT_EQ(R("1e3"), "1000.0");
  EXPECT_EQ(R("0.1 + 0.2"), "0.30000000000000004");
  EXPECT_EQ(R("1e16"), "1e+16");
  EXPECT_EQ(R("1.5e-5"), "1.5e-05");
  EXPECT_EQ(R("0.001"), "0.001");
  EXPECT_EQ(R("-2.5e15"), "-2500000000000000.0");
  EXPECT_EQ(R("123.456"), "123.456");
  EXPECT_EQ(R("(-8) ** 0.5 == (-8) ** 0.5"), "True");
  EXPECT_EQ(S("(-8) ** 0.5").type_name(), std::string("complex"));  // Python gives a complex
}

TEST(EvalScalars, PythonErrors) {
  const auto cls = [](std::string_view s) -> std::string {
    try {
      S(s);
    } catch (const cupp::Error& e) {
      return e.class_name();
    }
    return "<no error>";
  };
  EXPECT_EQ(cls("1/0"), "ZeroDivisionError");
  EXPECT_EQ(cls("1//0"), "ZeroDivisionError");
  EXPECT_EQ(cls("1.5 % 0"), "ZeroDivisionError");
  EXPECT_EQ(cls("0 ** -1"), "ZeroDivisionError");
  EXPECT_EQ(cls("1j // 2"), "TypeError");
  EXPECT_EQ(cls("1.5 & 1"), "TypeError");
  EXPECT_EQ(cls("~1.5"), "TypeError");
  EXPECT_EQ(cls("1j < 2"), "TypeError");
  EXPECT_EQ(cls("1 << -1"), "ValueError");
  EXPECT_EQ(cls("2 ** 200"), "OverflowError");
  EXPECT_EQ(cls("10.0 ** 400"), "OverflowError");
}

TEST(EvalScalars, WeakOperands) {
  EXPECT_EQ(to_weak(py_scalar::integer(300)).magnitude(), 300u);
  EXPECT_TRUE(to_weak(py_scalar::integer(-5)).is_negative());
  EXPECT_EQ(to_weak(S("2**64 - 1")).magnitude(), 18446744073709551615ull);
  EXPECT_EQ(to_weak(S("-2**63")).magnitude(), 9223372036854775808ull);
  EXPECT_EQ(to_weak(py_scalar::boolean(true)).scalar_kind(), weak_scalar::kind::bool_);
  EXPECT_EQ(to_weak(py_scalar::floating(2.5)).real(), 2.5);
  EXPECT_EQ(to_weak(S("2j")).imag(), 2.0);
  EXPECT_THROW(to_weak(S("2**64")), cupp::OverflowError);
  EXPECT_THROW(to_weak(S("-2**63 - 1")), cupp::OverflowError);
}

TEST(EvalShellSplit, QuotesAndBackslashes) {
  using v = std::vector<std::string>;
  EXPECT_EQ(shell_split("'a + 2*b' a=x.npy -o out.npy"), (v{"a + 2*b", "a=x.npy", "-o", "out.npy"}));
  EXPECT_EQ(shell_split("  a   b\t"), (v{"a", "b"}));
  EXPECT_EQ(shell_split("\"add(a, b, dtype='f4')\" a=1.npy"), (v{"add(a, b, dtype='f4')", "a=1.npy"}));
  EXPECT_EQ(shell_split(R"(a\ b "c\"d" 'e\f' "g\h")"), (v{"a b", "c\"d", "e\\f", "g\\h"}));
  EXPECT_EQ(shell_split("x'y'\"z\""), (v{"xyz"}));
  EXPECT_EQ(shell_split("'' \"\""), (v{"", ""}));
  EXPECT_EQ(shell_split("a # comment 'unclosed"), (v{"a"}));
  EXPECT_EQ(shell_split("a#b"), (v{"a#b"}));
  EXPECT_EQ(shell_split(""), v{});
  const auto col = [](std::string_view s) {
    try {
      shell_split(s);
    } catch (const syntax_error& e) {
      return e.column();
    }
    return 0;
  };
  EXPECT_EQ(col("a 'b c"), 3);
  EXPECT_EQ(col("a \"b c"), 3);
  EXPECT_EQ(col("a b\\"), 4);
}

#ifdef CUPP_HAVE_EVAL_ENGINE
// The evaluator's subscripts that need no GPU: a tuple value is indexed as Python indexes a tuple;
// a Python scalar, None or a string is not subscriptable. And the message for a function that is
// neither a routine cupp eval binds nor a ufunc.
value E(std::string_view source) {
  static const function_table functions = function_table::builtins();
  return evaluate(*parse(source), bindings{}, functions);
}
std::string tuple_repr(const value& v) {
  if (v.is_scalar()) return v.scalar().repr();
  if (!v.is_tuple()) return v.type_name();
  std::string s = "(";
  for (std::size_t i = 0; i < v.tuple().size(); ++i) s += (i ? ", " : "") + tuple_repr(v.tuple()[i]);
  return s + (v.tuple().size() == 1 ? ",)" : ")");
}
using cupp::test::error_text;

TEST(EvalEvaluator, TupleSubscriptsFollowPython) {
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[0]")), "1");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[-1]")), "3");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[True]")), "2");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[1:]")), "(2, 3)");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[::-1]")), "(3, 2, 1)");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3, 4, 5)[-2:0:-2]")), "(4, 2)");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[5:]")), "()");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[:2**70]")), "(1, 2, 3)");  // bounds clamp, as Python's
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[::-2**70]")), "(3,)");
  EXPECT_EQ(tuple_repr(E("(1, (2, 3))[1][0]")), "2");
  EXPECT_EQ(error_text<cupp::IndexError>([] { E("(1, 2)[2]"); }), "tuple index out of range");
  EXPECT_EQ(error_text<cupp::IndexError>([] { E("(1, 2)[-3]"); }), "tuple index out of range");
  EXPECT_EQ(error_text<cupp::IndexError>([] { E("()[0]"); }), "tuple index out of range");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("(1, 2)[::0]"); }), "slice step cannot be zero");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("(1, 2)[0, 1]"); }), "tuple indices must be integers or slices, not tuple");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("(1, 2)[1.5]"); }), "tuple indices must be integers or slices, not float");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("(1, 2)[...]"); }), "tuple indices must be integers or slices, not ellipsis");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("(1, 2)[None]"); }), "tuple indices must be integers or slices, not NoneType");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("(1, 2)[1.5:]"); }),
            "slice indices must be integers or None or have an __index__ method");
}

// Python's slice(): a slice object as a value (an index given as an argument), read as a[i:j:k]
// reads its bounds; it indexes a tuple, and it is an index item (index_items_of, which ufunc.at's
// and setitem's index arguments go through).
TEST(EvalEvaluator, SliceObjectsFollowPython) {
  const value s = E("slice(1, None, -2)");
  ASSERT_TRUE(s.is_slice());
  EXPECT_EQ(s.type_name(), std::string("slice"));
  EXPECT_EQ(s.slice().start, 1);
  EXPECT_FALSE(s.slice().stop.has_value());
  EXPECT_EQ(s.slice().step, -2);
  const value stop_only = E("slice(3)");  // slice(stop)
  EXPECT_FALSE(stop_only.slice().start.has_value());
  EXPECT_EQ(stop_only.slice().stop, 3);
  EXPECT_EQ(E("slice(True, 2**70)").slice().stop, std::numeric_limits<std::int64_t>::max());  // clamped
  EXPECT_EQ(tuple_repr(E("(1, 2, 3, 4)[slice(1, None, 2)]")), "(2, 4)");
  EXPECT_EQ(tuple_repr(E("(1, 2, 3)[slice(None, None, -1)]")), "(3, 2, 1)");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("slice()"); }), "slice expected at least 1 argument, got 0");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("slice(1, 2, 3, 4)"); }), "slice expected at least 1 argument, got 4 (at most 3)");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("slice(stop=2)"); }), "slice() takes no keyword arguments");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("slice(1.5)"); }),
            "slice indices must be integers or None or have an __index__ method");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("slice(1) + 1"); }), "unsupported operand type(s) for +: 'slice' and 'int'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("slice(1)[0]"); }), "'slice' object is not subscriptable");

  bool advanced = false;
  const auto items = index_items_of(E("(1, slice(None, 2), None)"), advanced);
  ASSERT_EQ(items.size(), 3u);
  EXPECT_EQ(std::get<std::int64_t>(items[0]), 1);
  EXPECT_EQ(std::get<cupp::slice>(items[1]).stop, 2);
  EXPECT_TRUE(std::holds_alternative<cupp::newaxis_t>(items[2]));
  EXPECT_FALSE(advanced);
  EXPECT_EQ(error_text<cupp::IndexError>([&] { index_items_of(E("((1, 2), 3)"), advanced); }).substr(0, 26),
            "a tuple inside an index is");
  EXPECT_EQ(error_text<cupp::IndexError>([&] { index_items_of(E("1.5"), advanced); }).substr(0, 15), "only integers, ");
}

// An int_list parameter (moveaxis's source, expand_dims's axis) reads None as "no axes" only
// where its default is None (flip, squeeze); where it is required, None is NumPy's TypeError.
TEST(EvalArguments, NoneIsNoAxesOnlyWhereTheDefaultIsNone) {
  const std::vector<value> nones = {value(none_value{}), value(none_value{})};
  const arguments a("moveaxis", {"source", "destination"}, 2, nones, {});
  EXPECT_TRUE(a.int_list(0, true).empty());
  EXPECT_EQ(error_text<cupp::TypeError>([&] { a.int_list(0, false); }),
            "'NoneType' object cannot be interpreted as an integer");
  const std::vector<value> ints = {value(py_scalar::integer(1)),
                                   value(tuple_value{value(py_scalar::integer(0)), value(py_scalar::integer(-1))})};
  const arguments b("moveaxis", {"source", "destination"}, 2, ints, {});
  EXPECT_EQ(b.int_list(0, false), std::vector<int>{1});
  EXPECT_EQ(b.int_list(1, false), (std::vector<int>{0, -1}));
}

TEST(EvalEvaluator, ScalarsAreNotSubscriptable) {
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("2[0]"); }), "'int' object is not subscriptable");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("(1 + 2j)[0]"); }), "'complex' object is not subscriptable");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("None[0]"); }), "'NoneType' object is not subscriptable");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("'abc'[0]"); }), "strings cannot be subscripted in cupp eval");
}

TEST(EvalEvaluator, UnknownFunctionsSaySo) {
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("nosuchfunction(1)"); }), "cupp eval has no function 'nosuchfunction'");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("add.nosuchmethod(1)"); }), "cupp eval has no function 'add.nosuchmethod'");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("nosuchufunc.outer(1, 2)"); }), "cupp has no ufunc 'nosuchufunc'");
  EXPECT_EQ(&function_table::ufunc_callee("add"), &cupp::ufunc::get("add"));
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("x"); }), "name 'x' is not defined (bind it with x=FILE.npy)");
}
#endif  // CUPP_HAVE_EVAL_ENGINE

TEST(EvalErrors, ClassNamesFollowNumPy) {
  EXPECT_STREQ(cupp::Error("x").class_name(), "Error");
  EXPECT_STREQ(cupp::TypeError("x").class_name(), "TypeError");
  EXPECT_STREQ(cupp::ValueError("x").class_name(), "ValueError");
  EXPECT_STREQ(cupp::IndexError("x").class_name(), "IndexError");
  EXPECT_STREQ(cupp::AxisError("x").class_name(), "AxisError");
  EXPECT_STREQ(cupp::OverflowError("x").class_name(), "OverflowError");
  EXPECT_STREQ(cupp::LinAlgError("x").class_name(), "LinAlgError");
  EXPECT_STREQ(cupp::OutOfMemoryError(1, 2, 3).class_name(), "OutOfMemoryError");
  EXPECT_STREQ(cupp::CompileError("x", "", "").class_name(), "CompileError");
  EXPECT_STREQ(cupp::CudaError("x", 1).class_name(), "CudaError");
  const cupp::Error& base = cupp::AxisError("x");
  EXPECT_STREQ(base.class_name(), "AxisError");  // virtual: through a base reference
}

}  // namespace
}  // namespace cupp::eval
