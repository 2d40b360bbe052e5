// Example for docs/ufuncs.md, built and run by the tests (CTest `example_ufuncs`, label gpu): ufunc
// calls with weak scalars, out=, where=, dtype=, operators, outer and casts. Exits 1 on a wrong value.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/ufunc.hpp>

#include <cstdio>
#include <vector>

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const cupp::ndarray a = cupp::asarray(std::vector<float>{1, 2, 3});
  const cupp::ndarray b = cupp::add(a, 2);  // weak 2: stays float32
  cupp::ndarray d = cupp::zeros({3}, cupp::float64);
  cupp::multiply(a, b, {.out = d});          // float32 loop, stored as float64
  cupp::add(a, 100, {.out = d, .where = a > 1});
  cupp::ndarray c = a * b - 1;
  c += 1;
  const cupp::ndarray o = cupp::multiply.outer(a, b);
  const cupp::ndarray h = cupp::astype(cupp::sin(a), cupp::float16);
  std::printf("b = %s\nd = %s\nc = %s\nouter = %s\nsin as float16 = %s\n", b.repr().c_str(), d.repr().c_str(),
              c.repr().c_str(), o.repr().c_str(), h.repr().c_str());
  const std::vector<double> dv = d.to_vector<double>();
  const bool ok = b.dtype() == cupp::float32 && dv == std::vector<double>{3, 102, 103} &&
                  c.to_vector<float>() == std::vector<float>{3, 8, 15} && o.shape()[1] == 3 &&
                  h.dtype() == cupp::float16;
  std::puts(ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
