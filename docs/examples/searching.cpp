// Example for docs/searching.md, built and run by the tests (CTest `example_searching`, label
// gpu): searchsorted, digitize, bincount with weights, histogram with density, unique (plain,
// with index/inverse/counts, along an axis), unique_counts, isin with invert, intersect1d with and
// without indices. Every result is compared with NumPy's value for the same inputs; a mismatch
// prints "FAILED: ..." and exits 1.
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/searching.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <utility>
#include <vector>

namespace {

template <class T>
bool same(const char* what, const cupp::ndarray& r, const std::vector<T>& want) {
  const bool ok = r.to_vector<T>() == want;
  if (!ok) std::printf("FAILED: %s = %s\n", what, r.repr().c_str());
  return ok;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  using i64 = std::vector<std::int64_t>;
  using f64 = std::vector<double>;
  const cupp::ndarray edges = cupp::asarray(f64{0, 1, 2, 3});
  const cupp::ndarray bins = edges;
  const cupp::ndarray x = cupp::asarray(f64{0.5, 1, 2.5, 3, -1});
  const cupp::ndarray labels = cupp::asarray(i64{0, 1, 1, 3, 2, 1});
  const cupp::ndarray w = cupp::asarray(f64{0.5, 1, 1, 2, 0.25, 1});
  // Values at the centres of histogram bins 2, 7, 12 and 17 of 20 over [0, 1], and 1 (the last bin).
  const cupp::ndarray a = cupp::asarray(f64{0.125, 0.375, 0.375, 1.0, 0.125, 0.625, 1.0, 0.875});
  const cupp::ndarray b = cupp::asarray(f64{1.0, 0.5, 0.125, 0.125});
  const cupp::ndarray m = cupp::array({{1, 2}, {3, 4}, {1, 2}});

  // [snippet searching]
  auto i = cupp::searchsorted(edges, x, {.side = cupp::search_side::right});
  auto d = cupp::digitize(x, bins, /*right=*/true);
  auto c = cupp::bincount(labels, {.weights = w, .minlength = 10});
  auto [hist, bin_edges] = cupp::histogram(a, 20, {.range = std::pair{0.0, 1.0}, .density = true});
  auto u = cupp::unique(a);                                        // sorted, NaNs collapsed
  auto r = cupp::unique(a, {.return_index = true, .return_inverse = true, .return_counts = true});
  auto [values, counts] = cupp::unique_counts(a);                  // NumPy 2's Array API form
  auto rows = cupp::unique(m, {.return_counts = true, .axis = 0});  // the unique rows of m
  auto outside = cupp::isin(a, cupp::array({1, 5, 7}), {.invert = true});
  auto both = cupp::intersect1d(a, b);
  auto [common, ia, ib] = cupp::intersect1d_with_indices(a, b);     // return_indices=True
  // [end snippet]

  bool ok = same("searchsorted(edges, x, side='right')", i, i64{1, 2, 3, 4, 0}) &&
            same("digitize(x, bins, right=True)", d, i64{1, 1, 3, 3, 0}) &&
            same("bincount(labels, weights=w, minlength=10)", c, f64{0.5, 3, 0.25, 2, 0, 0, 0, 0, 0, 0}) &&
            same("unique(a)", u, f64{0.125, 0.375, 0.625, 0.875, 1.0}) &&
            same("unique(a).values", r.values, f64{0.125, 0.375, 0.625, 0.875, 1.0}) &&
            same("unique(a).index", r.index, i64{0, 1, 5, 7, 3}) &&
            same("unique(a).inverse", r.inverse, i64{0, 1, 1, 4, 0, 2, 4, 3}) &&
            same("unique(a).counts", r.counts, i64{2, 2, 1, 1, 2}) &&
            same("unique_counts(a).values", values, f64{0.125, 0.375, 0.625, 0.875, 1.0}) &&
            same("unique_counts(a).counts", counts, i64{2, 2, 1, 1, 2}) &&
            same("unique(m, axis=0).values", rows.values, i64{1, 2, 3, 4}) &&
            same("unique(m, axis=0).counts", rows.counts, i64{2, 1}) &&
            same("isin(a, [1, 5, 7], invert=True)", outside,
                 std::vector<bool>{true, true, true, false, true, true, false, true}) &&
            same("intersect1d(a, b)", both, f64{0.125, 1.0}) &&
            same("intersect1d(...).values", common, f64{0.125, 1.0}) &&
            same("intersect1d(...).indices1", ia, i64{0, 3}) && same("intersect1d(...).indices2", ib, i64{2, 0});
  if (ok && (rows.values.ndim() != 2 || rows.values.shape()[0] != 2 || rows.values.shape()[1] != 2))
    ok = same("unique(m, axis=0).values (shape (2, 2))", rows.values, i64{});
  // histogram: 21 edges from 0 to 1; density = count / (8 * the bin's width).
  const f64 e = bin_edges.to_vector<double>(), h = hist.to_vector<double>();
  const f64 count{0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 2};
  bool hist_ok = hist.dtype() == cupp::float64 && e.size() == 21 && h.size() == 20 && e.front() == 0 && e.back() == 1;
  for (std::size_t k = 0; hist_ok && k < 20; ++k)
    hist_ok = std::abs(h[k] - count[k] / (8 * (e[k + 1] - e[k]))) <= 1e-12 * (1 + h[k]);
  if (ok && !hist_ok) {
    std::printf("FAILED: histogram(a, 20, range=(0, 1), density=True) = %s, %s\n", hist.repr().c_str(),
                bin_edges.repr().c_str());
    ok = false;
  }
  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
