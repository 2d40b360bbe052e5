// Example for docs/ufuncs.md, built and run by the tests (CTest `example_ufuncs`, label gpu): ufunc
// calls with weak scalars, out=, where=, dtype=, operators, outer, in-place operators and casts.
// Checks every value against NumPy's; prints "FAILED: ..." and exits 1 on a mismatch.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/ufunc.hpp>

#include <cstdio>
#include <vector>

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  // [snippet calls]
  cupp::ndarray a = cupp::asarray(std::vector<float>{1, 2, 3});
  cupp::ndarray b = cupp::add(a, 2);                          // [3, 4, 5], float32 (2 is weak)
  cupp::ndarray c = a * b - 1;                                // operators map to ufuncs
  cupp::ndarray d = cupp::empty({3}, cupp::float64);
  cupp::multiply(a, b, {.out = d});                           // out= of another dtype (same_kind)
  cupp::add(a, 100, {.out = d, .where = a > 1});              // where=: other elements keep theirs
  cupp::ndarray e = cupp::add(a, b, {.dtype = cupp::float64});  // dtype= picks the loop
  cupp::ndarray o = cupp::multiply.outer(a, b);               // shape (3, 3)
  a += 1;                                                     // in place, same_kind casting
  // [end snippet]

  const cupp::ndarray h = cupp::astype(cupp::sin(a), cupp::float16);
  std::printf("b = %s\nc = %s\nd = %s\ne = %s\nouter = %s\na = %s\nsin as float16 = %s\n", b.repr().c_str(),
              c.repr().c_str(), d.repr().c_str(), e.repr().c_str(), o.repr().c_str(), a.repr().c_str(),
              h.repr().c_str());
  if (b.dtype() != cupp::float32 || b.to_vector<float>() != std::vector<float>{3, 4, 5}) {
    std::puts("FAILED: add(a, 2) is not float32 [3, 4, 5]");
    return 1;
  }
  if (c.dtype() != cupp::float32 || c.to_vector<float>() != std::vector<float>{2, 7, 14}) {
    std::puts("FAILED: a * b - 1 is not float32 [2, 7, 14]");
    return 1;
  }
  if (d.to_vector<double>() != std::vector<double>{3, 102, 103}) {
    std::puts("FAILED: d (out= then where=) is not [3, 102, 103]");
    return 1;
  }
  if (e.dtype() != cupp::float64 || e.to_vector<double>() != std::vector<double>{4, 6, 8}) {
    std::puts("FAILED: add(a, b, dtype=float64) is not float64 [4, 6, 8]");
    return 1;
  }
  if (o.ndim() != 2 || o.shape()[0] != 3 || o.shape()[1] != 3 ||
      o.to_vector<float>() != std::vector<float>{3, 4, 5, 6, 8, 10, 9, 12, 15}) {
    std::puts("FAILED: multiply.outer(a, b) is wrong");
    return 1;
  }
  if (a.dtype() != cupp::float32 || a.to_vector<float>() != std::vector<float>{2, 3, 4}) {
    std::puts("FAILED: a += 1 is not float32 [2, 3, 4]");
    return 1;
  }
  if (h.dtype() != cupp::float16) {
    std::puts("FAILED: astype(float16) has another dtype");
    return 1;
  }
  std::puts("ok");
  return 0;
}
