// cupp eval's sparse values on the GPU (tools/cupp/eval/sparse.cpp): sparse.csr_matrix(d) and
// the other classes, @ with a sparse operand on either side and between two, matmul(...), their
// result types (SciPy's: dense for sparse x dense, this format's class for sparse x sparse), the
// numbers against the dense product of the same values (integer-valued data: exact), SciPy's
// shape messages, repr, transpose/shape/nnz, sparse.random/eye/diags and the .npz round trip.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "error_of.hpp"
#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"
#include "gpu_support.hpp"

#ifdef CUPP_TEST_EVAL_ENGINE
#include "evaluator.hpp"
#include "functions.hpp"
#include "parser.hpp"
#include "value.hpp"

namespace cupp::eval {
namespace {

const function_table& functions() {
  static const function_table t = function_table::builtins();
  return t;
}

// d: (4, 5) with zeros, empty row 2 and empty column 3; x (5,), X (5, 3), c (5, 1), y (4,), Y (2, 4).
bindings inputs(cupp::dtype type) {
  std::vector<double> d = {1, 0, 2, 0, 0,  //
                           0, 3, 0, 0, 4,  //
                           0, 0, 0, 0, 0,  //
                           5, 0, 6, 0, 7};
  std::vector<double> x = {1, -2, 3, 4, -5}, X(15), c = {2, 0, 1, 1, 3}, y = {1, 2, -1, 3}, Y(8);
  for (std::size_t i = 0; i < X.size(); ++i) X[i] = static_cast<double>(i % 7) - 3;
  for (std::size_t i = 0; i < Y.size(); ++i) Y[i] = static_cast<double>(i % 5) - 2;
  const auto up = [&](const std::vector<double>& v, std::vector<std::int64_t> shape) {
    return cupp::astype(cupp::asarray(v.data(), cupp::float64, shape, {.blocking = true}), type);
  };
  bindings b;
  b.emplace("d", up(d, {4, 5}));
  b.emplace("x", up(x, {5}));
  b.emplace("X", up(X, {5, 3}));
  b.emplace("c", up(c, {5, 1}));
  b.emplace("y", up(y, {4}));
  b.emplace("Y", up(Y, {2, 4}));
  return b;
}

value run(const std::string& expr, const bindings& names) { return evaluate(*parse(expr), names, functions()); }

// The two arrays are equal in dtype, shape and every value.
void expect_same(const value& got, const value& want, const std::string& what) {
  ASSERT_TRUE(got.is_array()) << what << ": a " << got.type_name();
  ASSERT_TRUE(want.is_array()) << what;
  EXPECT_EQ(got.array().dtype(), want.array().dtype()) << what;
  EXPECT_EQ(std::vector<std::int64_t>(got.array().shape().begin(), got.array().shape().end()),
            std::vector<std::int64_t>(want.array().shape().begin(), want.array().shape().end()))
      << what;
  const auto values = [](const cupp::ndarray& a) {  // C order whatever the layout (transpose(d) is a view)
    return cupp::ascontiguousarray(cupp::astype(a, cupp::complex128)).to_vector<std::complex<double>>();
  };
  EXPECT_EQ(values(got.array()), values(want.array()))
      << what;
}

using cupp::test::error_text;

TEST(EvalSparseGpu, SparseTimesDenseMatchesTheDenseProduct) {
  CUPP_REQUIRE_GPU();
  for (const char* type : {"float32", "float64", "complex64", "complex128"}) {
    const bindings b = inputs(cupp::dtype::parse(type));
    for (const char* cls : {"csr_matrix", "csr_array", "csc_matrix", "csc_array", "coo_matrix", "coo_array"}) {
      const std::string S = std::string("sparse.") + cls + "(d)";
      const std::string tag = std::string(type) + " " + cls;
      const value s = run(S, b);
      ASSERT_TRUE(s.is_object()) << tag;
      EXPECT_STREQ(s.type_name(), cls);
      for (const char* rhs : {"x", "X", "c"}) {
        expect_same(run(S + " @ " + rhs, b), run(std::string("d @ ") + rhs, b), tag + " @ " + rhs);
        expect_same(run("matmul(" + S + ", " + rhs + ")", b), run(std::string("d @ ") + rhs, b), tag + " matmul");
      }
      for (const char* lhs : {"y", "Y"}) {
        expect_same(run(std::string(lhs) + " @ " + S, b), run(std::string(lhs) + " @ d", b), tag + " " + lhs + " @");
        expect_same(run(std::string("matmul(") + lhs + ", " + S + ")", b), run(std::string(lhs) + " @ d", b),
                    tag + " matmul(" + lhs + ", S)");
      }
      expect_same(run("sparse.toarray(" + S + ")", b), run("d", b), tag + " toarray");
      expect_same(run("sparse.todense(transpose(" + S + "))", b), run("transpose(d)", b), tag + " .T");
      EXPECT_EQ(run("sparse.nnz(" + S + ")", b).scalar().i, 7) << tag;
      EXPECT_EQ(run("sparse.dtype(" + S + ")", b).string(), type);
      const value shape = run("shape(" + S + ")", b);
      ASSERT_TRUE(shape.is_tuple());
      EXPECT_EQ(shape.tuple()[0].scalar().i, 4);
      EXPECT_EQ(shape.tuple()[1].scalar().i, 5);
    }
  }
}

TEST(EvalSparseGpu, SparseTimesSparseKeepsTheLeftFormat) {
  CUPP_REQUIRE_GPU();
  const bindings b = inputs(cupp::float32);
  const struct {
    const char* expr;
    const char* type;
  } cases[] = {{"sparse.csr_matrix(d) @ sparse.csr_matrix(transpose(d))", "csr_matrix"},
               {"sparse.csc_matrix(d) @ sparse.csr_matrix(transpose(d))", "csc_matrix"},
               {"sparse.coo_array(d) @ sparse.csc_array(transpose(d))", "csr_array"},
               {"matmul(sparse.csr_array(d), transpose(sparse.csr_array(d)))", "csr_array"}};
  for (const auto& c : cases) {
    const value p = run(c.expr, b);
    ASSERT_TRUE(p.is_object()) << c.expr;
    EXPECT_STREQ(p.type_name(), c.type) << c.expr;
    bindings b2 = b;
    b2.emplace("p", p);
    expect_same(run("sparse.toarray(p)", b2), run("d @ transpose(d)", b), c.expr);
  }
}

TEST(EvalSparseGpu, ErrorsAndRepr) {
  CUPP_REQUIRE_GPU();
  const bindings b = inputs(cupp::float32);
  EXPECT_EQ(run("sparse.csr_matrix(d)", b).object().repr(),
            "<Compressed Sparse Row sparse matrix of dtype 'float32'\n\twith 7 stored elements and shape (4, 5)>");
  EXPECT_EQ(run("sparse.coo_array(d)", b).object().repr(),
            "<COOrdinate sparse array of dtype 'float32'\n\twith 7 stored elements and shape (4, 5)>");
  EXPECT_EQ(run("sparse.csc_matrix(d)", b).object().repr(),
            "<Compressed Sparse Column sparse matrix of dtype 'float32'\n\twith 7 stored elements and shape (4, 5)>");
  EXPECT_EQ(error_text<cupp::ValueError>([&] { run("sparse.csr_matrix(d) @ y", b); }),
            "matmul: dimension mismatch with signature (n,k=5),(k=4,1?)->(n,1?)");
  EXPECT_EQ(error_text<cupp::ValueError>([&] { run("x @ sparse.csr_matrix(d)", b); }),
            "matmul: dimension mismatch with signature (n,k=4),(k=5,1?)->(n,1?)");
  EXPECT_EQ(error_text<cupp::ValueError>([&] { run("sparse.csr_matrix(d) @ sparse.csr_matrix(d)", b); }),
            "matmul: dimension mismatch with signature (n,k=5),(k=4,m)->(n,m)");
  EXPECT_EQ(error_text<cupp::ValueError>([&] { run("sparse.csr_matrix(d) @ 2", b); }),
            "Scalar operands are not allowed, use '*' instead");
  EXPECT_EQ(error_text<cupp::ValueError>([&] { run("2.5 @ sparse.csr_matrix(d)", b); }),
            "Scalar operands are not allowed, use '*' instead");
  EXPECT_EQ(error_text<cupp::TypeError>([&] { run("sparse.csr_matrix(d) + d", b); }),
            "unsupported operand type(s) for +: 'csr_matrix' and 'ndarray'");
}

TEST(EvalSparseGpu, ConstructorsAndNpz) {
  CUPP_REQUIRE_GPU();
  const bindings b = inputs(cupp::float32);
  const value r = run("sparse.random(50, 40, density=0.1, format='csr', dtype='float32', random_state=0)", b);
  ASSERT_TRUE(r.is_object());
  EXPECT_STREQ(r.type_name(), "csr_matrix");
  bindings b2 = b;
  b2.emplace("R", r);
  EXPECT_EQ(run("sparse.nnz(R)", b2).scalar().i, 200);
  // R @ v against the dense product (random values: within float32 rounding)
  b2.emplace("v", cupp::astype(run("arange(40) % 5 - 2", b).array(), cupp::float32));
  const std::vector<float> got = run("R @ v", b2).array().to_vector<float>();
  const std::vector<float> want = run("sparse.toarray(R) @ v", b2).array().to_vector<float>();
  ASSERT_EQ(got.size(), 50u);
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-5f * (1 + std::abs(want[i]))) << i;
  // the same seed, the same matrix
  expect_same(run("sparse.toarray(sparse.random(50, 40, density=0.1, format='csr', dtype='float32', random_state=0))", b),
              run("sparse.toarray(R)", b2), "random_state=0 twice");
  EXPECT_STREQ(run("sparse.random(5, 4, density=0.5)", b).type_name(), "coo_matrix");
  EXPECT_STREQ(run("sparse.random_array((5, 4), density=0.5, format='csc')", b).type_name(), "csc_array");
  expect_same(run("sparse.eye(5) @ x", b), run("float64(x)", b), "eye @ x");
  expect_same(run("sparse.toarray(sparse.diags((full(3, 1.0), full(2, 2.0)), (0, 1)))", b),
              run("eye(3) + 2 * eye(3, k=1)", b), "diags");
  expect_same(run("sparse.toarray(sparse.diags((1.0, 2.0), (0, 1), shape=(3, 3)))", b),
              run("eye(3) + 2 * eye(3, k=1)", b), "diags of numbers (broadcast)");
  // -o FILE.npz: save_npz; NAME=FILE.npz: the loader gives the same matrix back
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "cupp_eval_sparse_gpu";
  std::filesystem::create_directories(dir);
  const value s = run("sparse.csc_array(d)", b);
  s.object().save((dir / "s").string());  // ".npz" appended, as SciPy's save_npz
  const value back = functions().load(dir / "s.npz");
  ASSERT_TRUE(back.is_object());
  EXPECT_STREQ(back.type_name(), "csc_array");
  bindings b3 = b;
  b3.emplace("t", back);
  expect_same(run("sparse.toarray(t)", b3), run("d", b), "npz round trip");
  EXPECT_EQ(error_text<cupp::TypeError>([&] { s.object().check_save((dir / "s.npy").string()); }).substr(0, 40),
            "the result is a csc_array, which is save");
  EXPECT_FALSE(std::filesystem::exists(dir / "s.npy"));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cupp::eval
#endif  // CUPP_TEST_EVAL_ENGINE
