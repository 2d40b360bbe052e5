// Example for docs/linalg.md, built and run by the tests (CTest `example_linalg`, label gpu): matmul
// with batches, 1-D promotion, a transposed view, out= and dtype=, int8 wrapping, and the other
// products (dot, vecdot, tensordot, kron, cross, multi_dot, matrix_power, einsum). Exits 1 on a wrong value.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/linalg.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const cupp::ndarray a = cupp::asarray(std::vector<float>{1, 2, 3, 4, 5, 6}).reshape({2, 3});
  const cupp::ndarray b = cupp::asarray(std::vector<float>{1, 0, 0, 1, 1, 1}).reshape({3, 2});
  const cupp::ndarray x = cupp::asarray(std::vector<double>{1, 2, 3}), y = cupp::asarray(std::vector<double>{4, 5, 6});
  const cupp::ndarray m2 = cupp::asarray(std::vector<double>{1, 1, 0, 1}).reshape({2, 2});
  const cupp::ndarray batch = cupp::stack({m2, m2, m2});              // (3, 2, 2)
  cupp::ndarray out = cupp::zeros({2, 2}, cupp::float64);
  // [snippet products]
  auto c = cupp::matmul(a, b);                                // NumPy's a @ b; `cupp eval` reads a @ b as it
  auto ct = cupp::matmul(cupp::matrix_transpose(a), a);       // a.T @ a: a transpose flag, no copy
  cupp::matmul(a, b, {.out = out, .dtype = cupp::float32});   // out=, dtype=, casting= (float32 loop, float64 out)
  auto vd = cupp::vecdot(x, y, {.axis = 0});                  // sum(conj(x) * y) along axis 0
  auto t = cupp::tensordot(x, y, 0);  auto k = cupp::kron(x, y);  auto cr = cupp::cross(x, y);
  auto p = cupp::linalg::multi_dot({x, cupp::outer(x, y), y});  // the cheapest order (NumPy's chain order)
  auto m5 = cupp::linalg::matrix_power(m2, 5);                // NumPy's repeated squaring
  auto s = cupp::linalg::trace(batch);                        // shape batch.shape[:-2]
  // [end snippet]
  const cupp::ndarray v = cupp::matmul(a, cupp::asarray(std::vector<float>{1, 1, 1}));  // 1-D: (2,) row sums
  const cupp::ndarray wide = cupp::matmul(a, b, {.dtype = cupp::float64});
  const cupp::ndarray i8 = cupp::astype(cupp::full({1, 4}, 100), cupp::int8);
  const cupp::ndarray w = cupp::matmul(i8, cupp::matrix_transpose(i8));  // 40000 wraps to int8 64, as NumPy
  const double d = cupp::dot(x, y).item<double>();                    // 32
  const cupp::ndarray e = cupp::einsum("ij,jk->ik", {a, b});         // c again
  const cupp::ndarray tr = cupp::einsum("ii", {m2});                 // the trace: 2
  const cupp::ndarray ba = cupp::stack({a, a}), bb = cupp::stack({b, b});
  const cupp::ndarray x4 = cupp::ones({2, 3, 4, 5}, cupp::float32), y3 = cupp::ones({3, 5, 6}, cupp::float32);
  // [snippet einsum]
  auto bc = cupp::einsum("bij,bjk->bik", {ba, bb});
  auto t4 = cupp::einsum("ijkl,jlm->ikm", {x4, y3}, {.optimize = cupp::einsum_optimize::optimal()});
  auto dg = cupp::einsum("ii->i", {m2});                      // a diagonal
  // [end snippet]
  std::printf("c = %s\na.T @ a = %s\nint8 = %s\nm^5 = %s\n", c.repr().c_str(), ct.repr().c_str(), w.repr().c_str(),
              m5.repr().c_str());
  const bool ok = c.dtype() == cupp::float32 && c.ravel().to_vector<float>() == std::vector<float>{4, 5, 10, 11} &&
                  ct.shape()[0] == 3 && v.to_vector<float>() == std::vector<float>{6, 15} &&
                  out.ravel().to_vector<double>() == std::vector<double>{4, 5, 10, 11} &&
                  wide.dtype() == cupp::float64 && w.dtype() == cupp::int8 && w.item<std::int8_t>() == 64 &&
                  d == 32.0 && cr.to_vector<double>() == std::vector<double>{-3, 6, -3} && k.size() == 9 &&
                  p.item<double>() == 14.0 * 77.0 &&
                  m5.ravel().to_vector<double>() == std::vector<double>{1, 5, 0, 1} &&
                  cupp::vecdot(x, y).item<double>() == 32.0 && cupp::tensordot(x, y, 0).shape()[1] == 3 &&
                  e.ravel().to_vector<float>() == c.ravel().to_vector<float>() && tr.item<double>() == 2.0 &&
                  vd.item<double>() == 32.0 && t.shape()[0] == 3 && s.to_vector<double>() == std::vector<double>{2, 2, 2} &&
                  bc.shape()[0] == 2 && bc(1).ravel().to_vector<float>() == std::vector<float>{4, 5, 10, 11} &&
                  t4.shape()[0] == 2 && t4.shape()[1] == 4 && t4.shape()[2] == 6 &&
                  t4.ravel().to_vector<float>() == std::vector<float>(48, 15.0f) &&
                  dg.to_vector<double>() == std::vector<double>{1, 1};
  std::puts(ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
