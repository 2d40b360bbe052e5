// Example for docs/scans.md, built and run by the tests (CTest `example_scans`, label gpu):
// cumsum (flattened, along an axis into out=), cumprod with dtype=, cumulative_sum with
// include_initial, subtract.accumulate, diff with n=2 and ediff1d with to_begin. Every result is
// compared with the same scan computed on the host; a mismatch prints "FAILED: ..." and exits 1.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/scans.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

// The input: h(i, j, k) = (20 i + 5 j + k) % 7 + 1, shape (3, 4, 5) (small, so products stay exact).
double h(int i, int j, int k) { return static_cast<double>((20 * i + 5 * j + k) % 7 + 1); }

// True when r is float64 with this shape and exactly these values (integers: exact in float64).
bool same(const char* what, const cupp::ndarray& r, const std::vector<std::int64_t>& shape,
          const std::vector<double>& want) {
  const bool ok = r.dtype() == cupp::float64 &&
                  std::vector<std::int64_t>(r.shape().begin(), r.shape().end()) == shape &&
                  r.to_vector<double>() == want;
  if (!ok) std::printf("FAILED: %s = %s\n", what, r.repr().c_str());
  return ok;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  std::vector<double> host;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) host.push_back(h(i, j, k));
  const cupp::ndarray a = cupp::asarray(host).reshape({3, 4, 5});
  const cupp::ndarray existing = cupp::zeros({3, 4, 5}, cupp::float64);
  const cupp::ndarray v = cupp::asarray(std::vector<double>{1, 2, 3, 4});
  const cupp::ndarray head = cupp::asarray(std::vector<double>{-1});

  // [snippet scans]
  // a: shape (3, 4, 5)
  cupp::ndarray c = cupp::cumsum(a);                        // flattened (C order): shape (60,)
  cupp::ndarray d = cupp::cumprod(a, {.axis = -1, .dtype = cupp::float64});
  cupp::cumsum(a, {.axis = 0, .out = existing});            // shape must match; same_kind cast
  cupp::ndarray e = cupp::cumulative_sum(v, {.include_initial = true});   // 0, v0, v0+v1, ...
  cupp::ndarray s = cupp::accumulate(cupp::subtract, a, {.axis = 1});     // subtract.accumulate
  cupp::ndarray f = cupp::diff(a, {.n = 2, .axis = 0});
  cupp::ndarray g = cupp::ediff1d(a, {.to_begin = head});
  // [end snippet]

  // The same scans on the host (C order).
  std::vector<double> want_c, want_d, want_existing, want_s, want_f, want_g{-1};
  double run = 0;
  for (double x : host) want_c.push_back(run += x);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      double prod = 1;
      for (int k = 0; k < 5; ++k) want_d.push_back(prod *= h(i, j, k));
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) {
        double sum = 0, acc = h(i, 0, k);
        for (int p = 0; p <= i; ++p) sum += h(p, j, k);
        for (int q = 1; q <= j; ++q) acc -= h(i, q, k);
        want_existing.push_back(sum);
        want_s.push_back(acc);
      }
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 5; ++k) want_f.push_back(h(2, j, k) - 2 * h(1, j, k) + h(0, j, k));
  for (std::size_t n = 1; n < host.size(); ++n) want_g.push_back(host[n] - host[n - 1]);

  const bool ok = same("cumsum(a)", c, {60}, want_c) && same("cumprod(a, axis=-1)", d, {3, 4, 5}, want_d) &&
                  same("cumsum(a, axis=0, out=existing)", existing, {3, 4, 5}, want_existing) &&
                  same("cumulative_sum(v, include_initial=True)", e, {5}, {0, 1, 3, 6, 10}) &&
                  same("subtract.accumulate(a, axis=1)", s, {3, 4, 5}, want_s) &&
                  same("diff(a, n=2, axis=0)", f, {1, 4, 5}, want_f) &&
                  same("ediff1d(a, to_begin=head)", g, {60}, want_g);
  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
