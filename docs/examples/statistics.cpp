// Example for docs/statistics.md, built and run by the tests (CTest `example_statistics`, label
// gpu): isclose and allclose (read on the host), average with weights (returned=True too), cov
// with aweights, corrcoef, median, quantile with method="hazen" and nanpercentile. The expected
// values are NumPy's for the same inputs (NumPy 1.24; average over two axes with weights of the
// reduced axes' shape, NumPy 2's rule, computed as sum(a * w) / sum(w)); a mismatch prints
// "FAILED: ..." and exits 1.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/statistics.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

// True when r has this shape and these values (1e-12 relative tolerance).
bool same(const char* what, const cupp::ndarray& r, const std::vector<std::int64_t>& shape,
          const std::vector<double>& want) {
  bool ok = std::vector<std::int64_t>(r.shape().begin(), r.shape().end()) == shape;
  const std::vector<double> got = ok ? r.to_vector<double>() : std::vector<double>{};
  ok = ok && got.size() == want.size();
  for (std::size_t n = 0; ok && n < want.size(); ++n)
    ok = std::abs(got[n] - want[n]) <= 1e-12 * (1 + std::abs(want[n]));
  if (!ok) std::printf("FAILED: %s = %s\n", what, r.repr().c_str());
  return ok;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  // a(i, j, k) = (7 (20 i + 5 j + k)) % 11, shape (3, 4, 5); b = a (1 + 5e-4), b(0, 0, 0) one more.
  std::vector<double> ha, hb;
  for (int n = 0; n < 60; ++n) {
    ha.push_back(static_cast<double>((7 * n) % 11));
    hb.push_back(ha.back() * (1 + 5e-4) + (n == 0 ? 1 : 0));
  }
  const cupp::ndarray a = cupp::asarray(ha).reshape({3, 4, 5});
  const cupp::ndarray b = cupp::asarray(hb).reshape({3, 4, 5});
  const cupp::ndarray w = cupp::asarray(std::vector<double>{1, 2, 3});           // along axis 0
  const cupp::ndarray w2 = cupp::arange(1.0, 16.0, 1.0, cupp::float64).reshape({3, 5});  // axes (0, 2)
  const cupp::ndarray m = cupp::asarray(std::vector<double>{1, 2, 2, 5, 3, 3, 4, 9}).reshape({4, 2});
  const cupp::ndarray aw = cupp::asarray(std::vector<double>{1, 1, 2, 0.5});
  const cupp::ndarray x = cupp::asarray(std::vector<double>{1, 2, 3, 5});
  const cupp::ndarray y = cupp::asarray(std::vector<double>{2, 1, 4, 4});
  bool read_true = false;

  // [snippet statistics]
  auto close = cupp::isclose(a, b, {.rtol = 1e-3, .equal_nan = true});   // bool array
  cupp::ndarray ok = cupp::allclose(a, b);           // 0-d bool array: nothing waits for the GPU
  if (ok.item<bool>()) {                              // ... until it is read here
    read_true = true;
  }
  auto avg = cupp::average(a, {.axis = 0, .weights = w});
  auto [avg2, wsum] = cupp::average_returned(a, {.axis = {0, 2}, .weights = w2});   // returned=True
  auto c = cupp::cov(m, {.rowvar = false, .ddof = 0, .aweights = aw});
  auto r = cupp::corrcoef(x, {.y = y});
  auto med = cupp::median(a, {.axis = {0, 2}, .keepdims = true});
  auto q = cupp::quantile(a, cupp::asarray(std::vector<double>{0.1, 0.5, 0.9}), {.axis = 1, .method = "hazen"});
  auto p = cupp::nanpercentile(a, 95, {.axis = -1});
  // [end snippet]

  // NumPy's values (close: every element but the first; allclose: false).
  std::vector<bool> want_close(60, true);
  want_close[0] = false;
  // avg: shape (4, 5), float64
  const std::vector<double> want_avg{
      5.166666666666667, 3.0, 4.5, 6.0, 2.0, 7.166666666666667, 5.0, 6.5, 6.166666666666667, 4.0, 5.5,
      5.166666666666667, 3.0, 4.5, 6.0, 2.0, 7.166666666666667, 5.0, 6.5, 6.166666666666667};
  // avg2: shape (4,), float64
  const std::vector<double> want_avg2{4.075, 5.708333333333333, 4.958333333333333, 5.491666666666666};
  // wsum: shape (4,), float64
  const std::vector<double> want_wsum{120.0, 120.0, 120.0, 120.0};
  // c: shape (2, 2), float64
  const std::vector<double> want_c{0.9135802469135801, 1.1604938271604937, 1.1604938271604937, 4.320987654320987};
  // r: shape (2, 2), float64
  const std::vector<double> want_r{1.0, 0.7481900559272088, 0.7481900559272088, 1.0};
  // med: shape (1, 4, 1), float64
  const std::vector<double> want_med{4.0, 6.0, 4.0, 6.0};
  // q: shape (3, 3, 5), float64
  const std::vector<double> want_q{
      0.0, 0.0, 3.0, 1.0, 1.0, 1.0, 4.0, 0.0, 0.0, 3.0, 0.0, 1.0, 1.0, 4.0, 0.0, 3.0, 4.5, 6.0, 4.0, 7.0, 5.5,
      7.0, 3.0, 4.5, 6.0, 6.0, 4.0, 5.5, 7.0, 3.0, 6.0, 9.0, 9.0, 10.0, 10.0, 10.0, 10.0, 6.0, 9.0, 9.0, 9.0,
      7.0, 10.0, 10.0, 6.0};
  // p: shape (3, 4), float64
  const std::vector<double> want_p{
      9.399999999999999, 8.8, 9.399999999999999, 8.399999999999999, 7.8, 9.8, 7.8, 9.8, 7.3999999999999995,
      9.399999999999999, 8.8, 9.399999999999999};
  bool good = true;
  if (close.dtype() != cupp::bool_ || close.to_vector<bool>() != want_close) {
    std::printf("FAILED: isclose(a, b, rtol=1e-3, equal_nan=True) = %s\n", close.repr().c_str());
    good = false;
  }
  if (ok.ndim() != 0 || ok.dtype() != cupp::bool_ || read_true) {
    std::printf("FAILED: allclose(a, b) = %s (NumPy: False)\n", ok.repr().c_str());
    good = false;
  }
  good = good && same("average(a, axis=0, weights=w)", avg, {4, 5}, want_avg) &&
         same("average(a, axis=(0, 2), weights=w2)", avg2, {4}, want_avg2) &&
         same("average(..., returned=True) weights' sum", wsum, {4}, want_wsum) &&
         same("cov(m, rowvar=False, ddof=0, aweights=aw)", c, {2, 2}, want_c) &&
         same("corrcoef(x, y)", r, {2, 2}, want_r) &&
         same("median(a, axis=(0, 2), keepdims=True)", med, {1, 4, 1}, want_med) &&
         same("quantile(a, [0.1, 0.5, 0.9], axis=1, method='hazen')", q, {3, 3, 5}, want_q) &&
         same("nanpercentile(a, 95, axis=-1)", p, {3, 4}, want_p);
  if (!good) return 1;
  std::puts("ok");
  return 0;
}
