// Example for docs/indexing.md, built and run by the tests (CTest example_indexing, label gpu): the
// indexing routines (take in mode wrap, put with a duplicate index, take_along_axis, extract,
// unravel_index) and advanced indexing (a(idx), a(i, :, j), a(mask), assignment, getitem,
// setitem, add.at, index_ref in expressions, a(idx) += 1, nonzero), each result compared with
// what NumPy gives for the same steps (computed with NumPy when this was written).
#include <cupp/creation.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/indexing.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {
int failures = 0;
void fail(const std::string& what) {
  std::printf("FAILED: %s\n", what.c_str());
  ++failures;
}
template <class T>
void expect(const cupp::ndarray& a, const cupp::shape_t& shape, const std::vector<T>& values, const std::string& what) {
  if (cupp::shape_t(a.shape().begin(), a.shape().end()) != shape) return fail(what + ": shape");
  if (a.to_vector<T>() != values) fail(what + ": values");
}
using i64 = std::vector<std::int64_t>;
using f64 = std::vector<double>;
}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  {
    const cupp::ndarray a = cupp::arange(-6.0, 6.0).reshape({3, 4});   // [[-6, ..., -3], ..., [2, ..., 5]]
    const cupp::ndarray idx = cupp::array({0, 6, 6, -1});
    const cupp::ndarray values = cupp::array({100.0, 200.0, 300.0, 400.0});
    const cupp::ndarray idx2d = cupp::array({{3}, {0}, {1}});
    const cupp::ndarray flat = cupp::array({1, 6, 11});
    // [snippet routines]
    auto t = cupp::take(a, idx, {.axis = 1, .mode = cupp::clip_mode::wrap});
    cupp::put(a, idx, values);                       // duplicates: the last write wins
    auto v = cupp::take_along_axis(a, idx2d, 1);
    auto e = cupp::extract(a > 0, a);
    auto coords = cupp::unravel_index(flat, {3, 4});      // std::vector of int64 arrays
    // [end snippet]
    expect(t, {3, 4}, f64{-6, -4, -4, -3, -2, 0, 0, 1, 2, 4, 4, 5}, "take along axis 1, mode wrap");
    expect(a, {3, 4}, f64{100, -5, -4, -3, -2, -1, 300, 1, 2, 3, 4, 400}, "put (last write wins, -1 from the end)");
    expect(v, {3, 1}, f64{-3, -2, 3}, "take_along_axis");
    expect(e, {7}, f64{100, 300, 1, 2, 3, 4, 400}, "extract");
    if (coords.size() != 2) return fail("unravel_index's count"), 1;
    expect(coords[0], {3}, i64{0, 1, 2}, "unravel_index rows");
    expect(coords[1], {3}, i64{1, 2, 3}, "unravel_index columns");
  }
  {
    const cupp::ndarray a = cupp::arange(24.0).reshape({2, 3, 4});
    const cupp::ndarray idx = cupp::array({1, 0, 1});
    const cupp::ndarray i = cupp::array({0, 1});
    const cupp::ndarray j = cupp::array({3, 2});
    const cupp::ndarray mask = a < 3.0;
    const cupp::ndarray b = cupp::array({-1.0, -2.0, -3.0, -4.0});
    const cupp::array_index_item items[] = {i, cupp::slice(), std::int64_t{0}};   // a[i, :, 0]
    const cupp::ndarray values = cupp::array({7.0, 8.0, 9.0});
    // [snippet advanced]
    cupp::ndarray rows = a(idx);                        // a[idx]
    cupp::ndarray pick = a(i, cupp::slice(), j);        // a[i, :, j]: i, j broadcast, dims first
    cupp::ndarray pos = a(a > 0);                       // a[a > 0]: stream compaction
    a(mask) = 0.0;                                      // a[mask] = 0
    a(idx, cupp::slice()) = b;                          // b broadcast; duplicates: last write wins
    auto m = cupp::getitem(a, items);                   // std::span<const cupp::array_index_item>
    cupp::setitem(a, items, values);
    cupp::add.at(a, idx, 1);                            // np.add.at: duplicates accumulate
    auto y = cupp::sin(a(idx)) + cupp::sum(a(mask));    // read: the gathered copies
    a(idx) += 1;                                        // a[idx] += 1: gather, add, scatter (no accumulation)
    std::vector<cupp::ndarray> nz = cupp::nonzero(a);   // np.nonzero; cupp::argwhere(a)
    // [end snippet]
    {
      std::vector<double> want;  // a[1], a[0], a[1] of arange(24)
      for (const int block : {1, 0, 1})
        for (int k = 0; k < 12; ++k) want.push_back(12 * block + k);
      expect(rows, {3, 3, 4}, want, "a(idx)");
    }
    expect(pick, {2, 3}, f64{3, 7, 11, 14, 18, 22}, "a(i, :, j)");
    if (pos.ndim() != 1 || pos.size() != 23) fail("a(a > 0) has the 23 positive elements");
    expect(m, {2, 3}, f64{-1, -1, -1, -1, -1, -1}, "getitem a[i, :, 0]");
    expect(a, {2, 3, 4}, f64{9, 0, -1, -2, 10, 0, -1, -2, 11, 0, -1, -2, 10, 1, 0, -1, 11, 1, 0, -1, 12, 1, 0, -1},
           "a after the assignments, add.at and +=");
    {
      const std::vector<double> got = y.to_vector<double>();
      const double want[] = {5.4121184852417565, 5.0, 4.158529015192103, 4.090702573174318, 4.4559788891106304};
      if (y.ndim() != 3 || y.size() != 36) {
        fail("sin(a(idx)) + sum(a(mask)): shape");
      } else {
        for (int k = 0; k < 5; ++k)
          if (std::abs(got[static_cast<std::size_t>(k)] - want[k]) > 1e-12) fail("sin(a(idx)) + sum(a(mask)): values");
      }
    }
    if (nz.size() != 3 || nz[0].size() != 18) fail("nonzero gives 3 arrays of 18 positions");
  }
  if (failures != 0) return 1;
  std::puts("indexing: all checks passed");
  return 0;
}
