// Example for docs/sorting.md, built and run by the tests (CTest `example_sorting`, label gpu):
// sort along the last axis, of the flattened array and stably along axis 0, a stable argsort,
// lexsort of two keys, partition and argpartition. Results are compared with std::stable_sort on
// the host (NaN last, as NumPy sorts it); partitions with NumPy's contract (the kth element where
// a sort puts it, nothing greater before it, nothing smaller after it). A mismatch prints
// "FAILED: ..." and exits 1.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/sorting.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numeric>
#include <optional>
#include <vector>

namespace {

// NumPy's sort order: NaN after everything.
bool before(float x, float y) { return !std::isnan(x) && (std::isnan(y) || x < y); }
bool same_value(float x, float y) { return (std::isnan(x) && std::isnan(y)) || x == y; }

// The positions of a line (the elements first, first + step, ...) in a stable sort.
std::vector<std::int64_t> stable_order(const std::vector<float>& v, std::size_t first, std::size_t step,
                                       std::size_t n) {
  std::vector<std::int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t x, std::int64_t y) {
    return before(v[first + static_cast<std::size_t>(x) * step], v[first + static_cast<std::size_t>(y) * step]);
  });
  return order;
}

bool fail(const char* what, const cupp::ndarray& r) {
  std::printf("FAILED: %s = %s\n", what, r.repr().c_str());
  return false;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> host{3, 1, 4, 1, 5,  //
                                9, 2, 6, 5, 3,  //
                                5, nan, 9, 7, 9,  //
                                3, 2, 3, 8, 4};
  const cupp::ndarray a = cupp::asarray(host).reshape({4, 5});
  // Six people: sorted by last name, then first name (codes stand for the names).
  const cupp::ndarray last_name = cupp::asarray(std::vector<std::int32_t>{2, 1, 2, 0, 1, 0});
  const cupp::ndarray first_name = cupp::asarray(std::vector<std::int32_t>{5, 3, 1, 4, 0, 4});

  // [snippet sort]
  auto s = cupp::sort(a);                               // along the last axis
  auto f = cupp::sort(a, std::nullopt);                 // axis=None: the flattened array
  auto t = cupp::sort(a, {.axis = 0, .stable = true});  // kind= / stable= as NumPy 2
  auto i = cupp::argsort(a, 1);                         // int64, always stable
  auto l = cupp::lexsort({first_name, last_name});      // by last_name, then first_name (the last key leads)
  auto p = cupp::partition(a, 3);                       // kth: an integer or {k1, k2, ...}
  auto q = cupp::argpartition(a, {1, -1}, 0);
  // [end snippet]

  bool ok = true;
  // sort and argsort along the last axis (rows of 5).
  const std::vector<float> sv = s.to_vector<float>(), pv = p.to_vector<float>();
  const std::vector<std::int64_t> iv = i.to_vector<std::int64_t>();
  for (std::size_t r = 0; r < 4; ++r) {
    const std::vector<std::int64_t> order = stable_order(host, 5 * r, 1, 5);
    for (std::size_t c = 0; c < 5; ++c) {
      const float want = host[5 * r + static_cast<std::size_t>(order[c])];
      if (!same_value(sv[5 * r + c], want)) ok = ok && fail("sort(a)", s);
      if (iv[5 * r + c] != order[c]) ok = ok && fail("argsort(a, 1)", i);
      // partition(a, 3): position 3 holds the sorted row's element 3; smaller before, larger after.
      const float kth = host[5 * r + static_cast<std::size_t>(order[3])];
      const float got = pv[5 * r + c];
      if ((c == 3 && !same_value(got, kth)) || (c < 3 && before(kth, got)) || (c > 3 && before(got, kth)))
        ok = ok && fail("partition(a, 3)", p);
    }
  }
  // sort of the flattened array.
  std::vector<float> flat = host;
  std::stable_sort(flat.begin(), flat.end(), before);
  const std::vector<float> fv = f.to_vector<float>();
  if (f.ndim() != 1 || fv.size() != flat.size() || !std::equal(fv.begin(), fv.end(), flat.begin(), same_value))
    ok = ok && fail("sort(a, None)", f);
  // Stable sort and argpartition along axis 0 (columns of 4).
  const std::vector<float> tv = t.to_vector<float>();
  const std::vector<std::int64_t> qv = q.to_vector<std::int64_t>();
  for (std::size_t c = 0; c < 5; ++c) {
    const std::vector<std::int64_t> order = stable_order(host, c, 5, 4);
    for (std::size_t r = 0; r < 4; ++r) {
      if (!same_value(tv[5 * r + c], host[5 * static_cast<std::size_t>(order[r]) + c]))
        ok = ok && fail("sort(a, axis=0)", t);
      const float got = host[5 * static_cast<std::size_t>(qv[5 * r + c]) + c];
      for (std::size_t k : {std::size_t{1}, std::size_t{3}}) {
        const float kth = host[5 * static_cast<std::size_t>(order[k]) + c];
        if ((r == k && !same_value(got, kth)) || (r < k && before(kth, got)) || (r > k && before(got, kth)))
          ok = ok && fail("argpartition(a, {1, -1}, 0)", q);
      }
    }
  }
  // lexsort: (last, first) = (2,5) (1,3) (2,1) (0,4) (1,0) (0,4) -> 3, 5, 4, 1, 2, 0 (ties keep their order).
  if (l.to_vector<std::int64_t>() != std::vector<std::int64_t>{3, 5, 4, 1, 2, 0}) ok = ok && fail("lexsort", l);
  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
