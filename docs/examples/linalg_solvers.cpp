// Example for docs/linalg.md's solvers section, built and run by the tests (CTest
// `example_linalg_solvers`, label gpu): solve with a batch, inv, slogdet, cholesky, eigh, svd,
// qr, lstsq, norm and scipy.linalg's lu_factor / lu_solve, and LinAlgError for a singular matrix.
// Exits 1 on a wrong value.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/errors.hpp>
#include <cupp/linalg.hpp>
#include <cupp/linalg_solvers.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

int failures = 0;

void expect_near(const char* what, double got, double want, double tol = 1e-9) {
  if (!(std::abs(got - want) <= tol * (1 + std::abs(want)))) {
    std::printf("FAIL %s: %.17g, want %.17g\n", what, got, want);
    ++failures;
  }
}

// max |x| over every element (a host double)
double max_abs(const cupp::ndarray& x) { return cupp::max(cupp::absolute(x)).item<double>(); }

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  namespace la = cupp::linalg;
  // a = [[4, 1], [1, 3]] (symmetric positive definite), a stack of three, and b
  const cupp::ndarray a = cupp::asarray(std::vector<double>{4, 1, 1, 3}).reshape({2, 2});
  const cupp::ndarray stack = cupp::stack({a, a * 2.0, a * 3.0});                     // (3, 2, 2)
  const cupp::ndarray b = cupp::asarray(std::vector<double>{1, 2});
  const cupp::ndarray tall = cupp::asarray(std::vector<double>{1, 1, 1, 2, 1, 3}).reshape({3, 2});
  const cupp::ndarray y = cupp::asarray(std::vector<double>{1, 2, 2});
  // [snippet solvers]
  auto x = la::solve(a, b);                            // a @ x == b; b (n,) is a vector (NumPy 2's rule)
  auto xs = la::solve(stack, b.reshape({2, 1}));       // batched: one LU per matrix, batch dims broadcast
  auto ainv = la::inv(stack);
  auto [sign, logabsdet] = la::slogdet(a);             // det = sign * exp(logabsdet)
  auto L = la::cholesky(a);                            // a = L @ L^H; {.upper = true} gives U
  auto [w, v] = la::eigh(a);                           // ascending eigenvalues; {.UPLO = "U"}
  auto [U, S, Vh] = la::svd(tall, {.full_matrices = false});
  auto [Q, R] = la::qr(tall);                          // mode "reduced"; "complete", "r", "raw"
  auto fit = la::lstsq(tall, y);                       // fit.x, fit.residuals, fit.rank, fit.s
  auto fro = la::norm(a);                              // Frobenius; {.ord = 2}, {.ord = "nuc"}, {.axis = {...}}
  auto lu = la::lu_factor(a);                          // scipy.linalg: packed LU and 0-based pivots
  auto x2 = la::lu_solve(lu, b, {.trans = 1});         // a^T @ x2 == b
  try {
    la::inv(cupp::zeros({2, 2}));
  } catch (const cupp::LinAlgError& e) {               // "Singular matrix", as NumPy
    std::printf("inv: %s\n", e.what());
  }
  // [end snippet]
  // x = a^-1 b = [1/11, 7/11]
  expect_near("solve x[0]", x(0).item<double>(), 1.0 / 11);
  expect_near("solve x[1]", x(1).item<double>(), 7.0 / 11);
  // stack[i] = (i + 1) a: x_i = x / (i + 1)
  expect_near("batched solve", xs(2, 1, 0).item<double>(), 7.0 / 33);
  expect_near("inv", max_abs(cupp::matmul(stack, ainv) - cupp::eye(2)), 0.0, 1e-12);
  expect_near("slogdet sign", sign.item<double>(), 1.0);
  expect_near("slogdet", logabsdet.item<double>(), std::log(11.0));
  expect_near("cholesky", max_abs(cupp::matmul(L, cupp::matrix_transpose(L)) - a), 0.0, 1e-12);
  expect_near("eigh w0", w(0).item<double>(), (7 - std::sqrt(5.0)) / 2);
  expect_near("eigh residual", max_abs(cupp::matmul(a, v) - v * w), 0.0, 1e-12);
  expect_near("svd", max_abs(cupp::matmul(U * S, Vh) - tall), 0.0, 1e-12);
  expect_near("qr", max_abs(cupp::matmul(Q, R) - tall), 0.0, 1e-12);
  // y = 1/3 + x/2 fits 1, 2, 2 at x = 1, 2, 3 best: residual 1/6
  expect_near("lstsq x0", fit.x(0).item<double>(), 2.0 / 3);
  expect_near("lstsq x1", fit.x(1).item<double>(), 0.5);
  expect_near("lstsq residual", fit.residuals(0).item<double>(), 1.0 / 6);
  if (fit.rank.item<std::int64_t>() != 2) ++failures;
  expect_near("norm", fro.item<double>(), std::sqrt(27.0));
  expect_near("lu_solve^T", max_abs(cupp::matmul(cupp::matrix_transpose(a), x2) - b), 0.0, 1e-12);
  std::printf("%s\n", failures ? "FAILED" : "OK");
  return failures ? 1 : 0;
}
