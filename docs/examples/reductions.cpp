// Example for docs/reductions.md, built and run by the tests (CTest `example_reductions`, label
// gpu): sum over every axis and over some, keepdims, max, multiply.reduce with dtype=, out=, and
// initial=/where= on sum, max, mean and var. Every result is compared with the same reduction
// computed on the host; a mismatch prints "FAILED: ..." and exits 1.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

namespace {

// The input: h(i, j, k) = 20 i + 5 j + k - 30, shape (3, 4, 5).
double h(int i, int j, int k) { return 20.0 * i + 5.0 * j + k - 30.0; }

// True when r has this shape and these values (NaN equals NaN; 1e-12 relative tolerance).
bool same(const char* what, const cupp::ndarray& r, const std::vector<std::int64_t>& shape,
          const std::vector<double>& want) {
  bool ok = r.dtype() == cupp::float64 &&
            std::vector<std::int64_t>(r.shape().begin(), r.shape().end()) == shape;
  const std::vector<double> got = ok ? r.to_vector<double>() : std::vector<double>{};
  ok = ok && got.size() == want.size();
  for (std::size_t n = 0; ok && n < want.size(); ++n) {
    ok = (std::isnan(got[n]) && std::isnan(want[n])) || got[n] == want[n] ||
         std::abs(got[n] - want[n]) <= 1e-12 * std::abs(want[n]);
  }
  if (!ok) std::printf("FAILED: %s = %s\n", what, r.repr().c_str());
  return ok;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const cupp::ndarray a = cupp::arange(-30.0, 30.0, 1.0, cupp::float64).reshape({3, 4, 5});
  const cupp::ndarray existing = cupp::zeros({3, 5}, cupp::float64);
  const cupp::ndarray mask = a >= 5;  // selects a(1, 3, :) and a(2, :, :)

  // [snippet basics]
  // a: shape (3, 4, 5)
  cupp::ndarray s = cupp::sum(a);                          // 0-d, every axis
  cupp::ndarray t = cupp::sum(a, {.axis = {0, 2}, .keepdims = true});   // shape (1, 4, 1)
  cupp::ndarray m = cupp::max(a, {.axis = -1});
  cupp::ndarray p = cupp::multiply.reduce(a, {.axis = 0, .dtype = cupp::float64});
  cupp::sum(a, {.axis = 1, .out = existing});              // shape must match; same_kind cast
  // [end snippet]

  // [snippet masked]
  cupp::ndarray s1 = cupp::sum(a, {.axis = 0, .initial = 10, .where = mask});    // 10 + the selected elements
  cupp::ndarray m1 = cupp::max(a, {.axis = 1, .initial = -1.0, .where = a > 0});  // -1 where a row selects nothing
  cupp::ndarray u1 = cupp::mean(a, {.axis = 1, .where = mask});                   // NaN where a row selects nothing
  cupp::ndarray v1 = cupp::var(a, {.axis = 0, .ddof = 1, .where = mask});         // n counts the selected elements
  // [end snippet]

  // The same reductions on the host.
  std::vector<double> want_t(4, 0), want_m, want_p, want_existing, want_s1, want_m1, want_u1, want_v1;
  double want_s = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 5; ++k) {
        want_s += h(i, j, k);
        want_t[j] += h(i, j, k);
      }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) want_m.push_back(h(i, j, 4));
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 5; ++k) {
      want_p.push_back(h(0, j, k) * h(1, j, k) * h(2, j, k));
      double sum = 10, n = 0, total = 0;
      for (int i = 0; i < 3; ++i)
        if (h(i, j, k) >= 5) sum += h(i, j, k), total += h(i, j, k), n += 1;
      want_s1.push_back(sum);
      double dev = 0;
      for (int i = 0; i < 3; ++i)
        if (h(i, j, k) >= 5) dev += (h(i, j, k) - total / n) * (h(i, j, k) - total / n);
      want_v1.push_back(n - 1 > 0 ? dev / (n - 1) : nan);  // n = 1: 0 / 0
    }
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 5; ++k) {
      double sum = 0, best = -1, total = 0, n = 0;
      for (int j = 0; j < 4; ++j) {
        sum += h(i, j, k);
        if (h(i, j, k) > 0 && h(i, j, k) > best) best = h(i, j, k);
        if (h(i, j, k) >= 5) total += h(i, j, k), n += 1;
      }
      want_existing.push_back(sum);
      want_m1.push_back(best);
      want_u1.push_back(n > 0 ? total / n : nan);
    }

  const bool ok = same("sum(a)", s, {}, {want_s}) && same("sum(a, axis=(0, 2), keepdims)", t, {1, 4, 1}, want_t) &&
                  same("max(a, axis=-1)", m, {3, 4}, want_m) &&
                  same("multiply.reduce(a, axis=0)", p, {4, 5}, want_p) &&
                  same("sum(a, axis=1, out=existing)", existing, {3, 5}, want_existing) &&
                  same("sum(a, axis=0, initial=10, where=mask)", s1, {4, 5}, want_s1) &&
                  same("max(a, axis=1, initial=-1, where=a > 0)", m1, {3, 5}, want_m1) &&
                  same("mean(a, axis=1, where=mask)", u1, {3, 5}, want_u1) &&
                  same("var(a, axis=0, ddof=1, where=mask)", v1, {4, 5}, want_v1);
  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
