// cupp eval's module objects without a GPU: the evaluator's dispatch to an object_value (@ on
// either side, a function call with an object among its arguments, the TypeErrors for operators
// the object does not take), and the sparse family's (tools/cupp/eval/sparse.cpp) host-side rules:
// SciPy's matmul shape messages, format= names and the argument errors raised before any device
// work. The GPU cases (products checked against dense ones) are tests/gpu/test_eval_sparse_gpu.cpp
// and tests/scripts/check_cupp_eval.sh.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "cupp/errors.hpp"
#include "parser.hpp"
#include "value.hpp"

#ifdef CUPP_HAVE_EVAL_ENGINE
#include "evaluator.hpp"
#include "functions.hpp"
#include "sparse.hpp"
#endif

namespace cupp::eval {
namespace {

// A module object of its own: @ takes a Python number on either side (1 for s @ x, 2 for x @ s),
// matmul(...) answers 3 and nothing else is handled.
class fake_object final : public object_value {
 public:
  const char* type_name() const noexcept override { return "fake_matrix"; }
  std::string repr() const override { return "<fake>"; }
  std::optional<value> matmul(const value& other, bool reflected) const override {
    if (!other.is_scalar()) return std::nullopt;
    return value(py_scalar::integer(reflected ? 2 : 1));
  }
  std::optional<value> call_function(std::string_view name, std::span<const value>,
                                     std::span<const keyword_value>) const override {
    if (name == "matmul") return value(py_scalar::integer(3));
    return std::nullopt;
  }
};

TEST(EvalObjects, ValueKnowsItsObject) {
  const value v(object_ptr(std::make_shared<const fake_object>()));
  EXPECT_TRUE(v.is_object());
  EXPECT_FALSE(v.is_array());
  EXPECT_STREQ(v.type_name(), "fake_matrix");
  EXPECT_EQ(v.object().repr(), "<fake>");
  try {  // the default: cannot be saved
    v.object().check_save("x.npz");
    ADD_FAILURE() << "check_save did not throw";
  } catch (const cupp::TypeError& e) {
    EXPECT_STREQ(e.what(), "the result is a 'fake_matrix', which cannot be saved");
  }
  EXPECT_THROW(v.object().save("x.npz"), cupp::TypeError);
  const value copy = v;                    // a handle: copies share the object
  EXPECT_EQ(&copy.object(), &v.object());
}

#ifdef CUPP_HAVE_EVAL_ENGINE
using cupp::test::error_text;

const function_table& functions() {
  static const function_table t = function_table::builtins();
  return t;
}

value E(std::string_view source) {
  bindings names;
  names.emplace("s", value(object_ptr(std::make_shared<const fake_object>())));
  return evaluate(*parse(source), names, functions());
}

std::int64_t int_of(const value& v) {
  if (!v.is_scalar() || v.scalar().k != py_scalar::kind::int_) return -1;
  return static_cast<std::int64_t>(v.scalar().i);
}

TEST(EvalObjects, MatmulAsksTheLeftOperandThenTheRight) {
  EXPECT_EQ(int_of(E("s @ 5")), 1);
  EXPECT_EQ(int_of(E("5 @ s")), 2);   // __rmatmul__
  EXPECT_EQ(int_of(E("(2 * 3) @ s")), 2);
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("s @ s"); }),
            "unsupported operand type(s) for @: 'fake_matrix' and 'fake_matrix'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("s @ None"); }),
            "unsupported operand type(s) for @: 'fake_matrix' and 'NoneType'");
}

TEST(EvalObjects, CallsAskTheFirstObjectArgument) {
  EXPECT_EQ(int_of(E("matmul(s, 1)")), 3);
  EXPECT_EQ(int_of(E("matmul(1, s)")), 3);
  // not handled: the function runs as usual and refuses the object
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sin(s)"); }),
            "sin() argument 1 must be an array or a number, not 'fake_matrix'");
}

TEST(EvalObjects, OperatorsTheObjectLacksAreTypeErrors) {
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("s + 1"); }), "unsupported operand type(s) for +: 'fake_matrix' and 'int'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("-s"); }), "bad operand type for unary -: 'fake_matrix'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("s[0]"); }), "'fake_matrix' object is not subscriptable");
}

// SciPy 1.18's _matmul_dispatch / _rmatmul_dispatch messages, S of shape (4, 5).
TEST(EvalSparse, MatmulShapeMessagesFollowSciPy) {
  const std::array<std::int64_t, 2> s{4, 5};
  using shape = std::vector<std::int64_t>;
  const auto err = [&](shape d, bool left) { return sparse_matmul_error(s, d, left).value_or("fits"); };
  EXPECT_EQ(err({5}, false), "fits");
  EXPECT_EQ(err({5, 1}, false), "fits");
  EXPECT_EQ(err({5, 7}, false), "fits");
  EXPECT_EQ(err({4}, true), "fits");
  EXPECT_EQ(err({7, 4}, true), "fits");
  EXPECT_EQ(err({1, 4}, true), "fits");
  EXPECT_EQ(err({3}, false), "matmul: dimension mismatch with signature (n,k=5),(k=3,1?)->(n,1?)");
  EXPECT_EQ(err({3, 1}, false), "matmul: dimension mismatch with signature (n,k=5),(k=3,1?)->(n,1?)");
  EXPECT_EQ(err({3, 2}, false), "matmul: dimension mismatch with signature (n,k=5),(k=3,m)->(n,m)");
  // D @ S is (S.T @ D.T).T: k=4 is S.T's columns, D.T's rows are D's last axis
  EXPECT_EQ(err({5}, true), "matmul: dimension mismatch with signature (n,k=4),(k=5,1?)->(n,1?)");
  EXPECT_EQ(err({1, 5}, true), "matmul: dimension mismatch with signature (n,k=4),(k=5,1?)->(n,1?)");
  EXPECT_EQ(err({2, 5}, true), "matmul: dimension mismatch with signature (n,k=4),(k=5,m)->(n,m)");
  EXPECT_EQ(err({}, false), "Scalar operands are not allowed, use '*' instead");
  EXPECT_EQ(err({}, true), "Scalar operands are not allowed, use '*' instead");
  EXPECT_EQ(err({5, 5, 5}, false), "could not interpret dimensions");
}

TEST(EvalSparse, FormatNames) {
  EXPECT_EQ(sparse_format_name(std::nullopt, "coo", "sparse.random"), "coo");
  EXPECT_EQ(sparse_format_name("csc", "coo", "sparse.random"), "csc");
  EXPECT_EQ(error_text<cupp::ValueError>([] { sparse_format_name("lil", "csr", "sparse.eye"); }),
            "sparse.eye: format='lil' is not a cupp eval sparse value (csr, csc or coo)");
  EXPECT_EQ(error_text<cupp::ValueError>([] { sparse_format_name("xyz", "csr", "sparse.eye"); }),
            "unrecognized format 'xyz'");
}

// Argument errors come before any device work (no GPU here).
TEST(EvalSparse, ArgumentErrorsBeforeTheDevice) {
  for (const char* f : {"sparse.csr_matrix", "sparse.csr_array", "sparse.csc_matrix", "sparse.csc_array",
                        "sparse.coo_matrix", "sparse.coo_array", "sparse.random", "sparse.random_array",
                        "sparse.eye", "sparse.eye_array", "sparse.identity", "sparse.diags", "sparse.diags_array",
                        "sparse.toarray", "sparse.todense", "sparse.tocsr", "sparse.tocsc", "sparse.tocoo",
                        "sparse.nnz", "sparse.dtype", "sparse.issparse"}) {
    EXPECT_NE(functions().find(f), nullptr) << f;
  }
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.csr_matrix()"); }),
            "sparse.csr_matrix() missing required argument 'arg1' (pos 1)");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.csc_array(1.5)"); }).substr(0, 45),
            "sparse.csc_array() argument must be an array,");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.coo_matrix(s)"); }).substr(0, 46),
            "sparse.coo_matrix() argument must be an array,");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.csr_matrix((2, 3), bogus=1)"); }),
            "sparse.csr_matrix() got an unexpected keyword argument 'bogus'");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("sparse.csr_matrix((2, 3), shape=(1, 2, 3))"); }),
            "sparse.csr_matrix: shape must be a 2-tuple (M, N) in cupp eval, got 3 dimension(s)");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("sparse.random(3, 4, format='lil')"); }),
            "sparse.random: format='lil' is not a cupp eval sparse value (csr, csc or coo)");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("sparse.random(3, 4, density=1.5)"); }),
            "density expected to be 0 <= density <= 1");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.random(3, 4, rng=1, random_state=2)"); }),
            "sparse.random(): got both 'rng' and 'random_state' (the same seed under two names)");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("sparse.random(3, 4, random_state=-1)"); }),
            "Seed must be between 0 and 2**32 - 1");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.random_array((3, 4), 0.5)"); }),
            "sparse.random_array() takes 1 positional argument but 2 were given");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("sparse.eye(3, format='bogus')"); }), "unrecognized format 'bogus'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.eye(3, dtype=1)"); }).substr(0, 32),
            "sparse.eye(): dtype must be a st");
  EXPECT_EQ(error_text<cupp::ValueError>([] { E("sparse.diags((1, 2), (0, 1), format='dok')"); }),
            "sparse.diags: format='dok' is not a cupp eval sparse value (csr, csc or coo)");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.toarray(1)"); }),
            "sparse.toarray() argument must be a sparse matrix or array, not 'int'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.nnz(s)"); }),
            "sparse.nnz() argument must be a sparse matrix or array, not 'fake_matrix'");
  EXPECT_EQ(error_text<cupp::TypeError>([] { E("sparse.toarray()"); }),
            "sparse.toarray() missing required argument 'A' (pos 1)");
  const value no = E("sparse.issparse(1)");
  ASSERT_TRUE(no.is_scalar());
  EXPECT_EQ(no.scalar().k, py_scalar::kind::bool_);
  EXPECT_FALSE(no.scalar().b);
  EXPECT_FALSE(E("sparse.issparse(s)").scalar().b);  // an object, but not a sparse one
}
#endif  // CUPP_HAVE_EVAL_ENGINE

}  // namespace
}  // namespace cupp::eval
