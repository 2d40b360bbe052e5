// Example for docs/sparse-linalg.md, built and run by the tests (CTest `example_sparse_linalg`,
// label gpu): the 2-D Poisson matrix of a 16 x 16 grid, solved by cg and gmres and by the direct
// spsolve, its largest eigenvalues by eigsh and singular values by svds, its norms and the 1-norm
// estimate. Each result is checked against what the matrix is known to give (residuals, the
// grid's closed-form eigenvalues, column sums); a mismatch prints "FAILED: ..." and exits 1.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/linalg.hpp>
#include <cupp/reductions.hpp>
#include <cupp/sparse.hpp>
#include <cupp/sparse_linalg.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

namespace {

double relative_residual(const cupp::sparse::csr& A, const cupp::ndarray& x, const cupp::ndarray& b) {
  const cupp::ndarray r = cupp::subtract(b, A.dot(x));
  return std::sqrt(cupp::sum(cupp::multiply(r, r)).item<double>() / cupp::sum(cupp::multiply(b, b)).item<double>());
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  constexpr std::int64_t m = 16, n = m * m;
  namespace sp = cupp::sparse;
  const sp::csr T = sp::diags({cupp::full({m - 1}, -1.0), cupp::full({m}, 2.0), cupp::full({m - 1}, -1.0)}, {-1, 0, 1});
  const sp::csr I = sp::identity(m);
  const cupp::ndarray b = cupp::ones({n});

  // [snippet overview]
  namespace sla = cupp::sparse::linalg;
  sp::csr A = sp::kron(I, T) + sp::kron(T, I);   // the 5-point Laplacian of a 16 x 16 grid
  auto [x, info] = sla::cg(A, b, {.rtol = 1e-10});          // SciPy's (x, info): 0 converged
  auto g = sla::gmres(A, b, {.rtol = 1e-10, .restart = 40});
  cupp::ndarray y = sla::spsolve(A, b);                    // cuSOLVER's sparse QR
  auto e = sla::eigsh(A, {.k = 3, .which = "LA"});          // e.w ascending, e.v (N, 3)
  auto s = sla::svds(A, {.k = 2});                          // s.s ascending
  double fro = sla::norm(A).item<double>();                 // Frobenius
  double one = sla::norm(A, 1.0).item<double>();            // the largest column sum
  double est = sla::onenormest(A);                          // Higham and Tisseur's estimate
  // [end snippet]

  bool ok = true;
  auto check = [&ok](bool good, const char* what) {
    if (!good) std::printf("FAILED: %s\n", what);
    ok = ok && good;
  };
  check(info == 0 && relative_residual(A, x, b) < 1e-9, "cg converges to a residual below 1e-9");
  check(g.info == 0 && relative_residual(A, g.x, b) < 1e-9, "gmres converges to a residual below 1e-9");
  check(relative_residual(A, y, b) < 1e-12, "spsolve's residual is below 1e-12");
  // the grid's eigenvalues: 4 - 2 cos(i pi / (m + 1)) - 2 cos(j pi / (m + 1)), i, j = 1..m
  const double c1 = std::cos(std::numbers::pi / (m + 1)), c2 = std::cos(2 * std::numbers::pi / (m + 1));
  const double largest = 4 + 4 * c1, second = 4 + 2 * c1 + 2 * c2;  // (m, m), then (m, m-1) twice
  const std::vector<double> w = e.w.to_vector<double>();
  check(w.size() == 3 && std::abs(w[2] - largest) < 1e-9 && std::abs(w[1] - second) < 1e-9 &&
            std::abs(w[0] - second) < 1e-9,
        "eigsh's three largest eigenvalues are the grid's");
  const std::vector<double> sv = s.s.to_vector<double>();
  check(sv.size() == 2 && std::abs(sv[1] - largest) < 1e-8, "svds' largest singular value is the largest eigenvalue");
  // entries: n diagonal 4s and 4 m (m - 1) off-diagonal -1s
  check(std::abs(fro - std::sqrt(16.0 * n + 4.0 * m * (m - 1))) < 1e-9, "the Frobenius norm");
  check(one == 8.0 && est <= 8.0 + 1e-12 && est >= 6.0, "the 1-norm and its estimate");
  if (!ok) return 1;
  std::printf("cg and gmres converged, eigsh's largest %.6f, svds' largest %.6f, |A|_F %.4f, |A|_1 %.0f (estimate %.0f)\n",
              w[2], sv[1], fro, one, est);
  std::puts("OK");
  return 0;
}
