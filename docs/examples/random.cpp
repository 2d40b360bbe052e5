// Example for docs/random.md, built and run by the tests (CTest `example_random`, label gpu):
// default_rng with a seed, random/normal/integers/choice/permutation, array parameters that
// broadcast, spawn and jumped for independent streams, and the reproducibility promise (the same
// seed gives the same bits). Checks dtypes, shapes, ranges, means, distinctness and the repeated
// bits; a mismatch prints "FAILED: ..." and exits 1.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/random.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <vector>

namespace {

bool fail(const char* what, const cupp::ndarray& r) {
  std::printf("FAILED: %s (%s)\n", what, r.repr().c_str());
  return false;
}

bool has_shape(const cupp::ndarray& r, const std::vector<std::int64_t>& shape) {
  return std::vector<std::int64_t>(r.shape().begin(), r.shape().end()) == shape;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const cupp::ndarray loc = cupp::asarray(std::vector<double>{0.0, 100.0});

  // [snippet generator]
  auto rng = cupp::random::default_rng(12345);
  cupp::ndarray u = rng.random({1 << 20}, cupp::float32);     // [0, 1), float32
  cupp::ndarray z = rng.normal(10.0, 2.0, {1 << 20});          // float64
  cupp::ndarray k = rng.integers(0, 6, {1000}, cupp::int8);    // 0..5, int8
  cupp::ndarray two = rng.normal(loc, 1.0, {3, 2});            // an array parameter broadcasts
  cupp::ndarray pick = rng.choice(1000, {10}, false);          // 10 distinct values, int64
  cupp::ndarray perm = rng.permutation(8);
  std::vector<cupp::random::Generator> kids = rng.spawn(2);    // independent streams
  cupp::random::Generator far(rng.bit_generator().jumped());   // the counter moved by 2^64
  // [end snippet]

  bool ok = true;
  // The promise: the same seed gives the same bits, on any GPU and for any launch shape.
  auto again = cupp::random::default_rng(12345);
  if (again.random({1 << 20}, cupp::float32).to_vector<float>() != u.to_vector<float>())
    ok = fail("default_rng(12345) twice gave other bits", u);

  const double mean_u = cupp::mean(u).item<double>(), mean_z = cupp::mean(z).item<double>();
  const double min_u = cupp::min(u).item<double>(), max_u = cupp::max(u).item<double>();
  std::printf("mean(u) = %.4f, mean(z) = %.4f\nperm = %s\ntwo = %s\npick = %s\n", mean_u, mean_z,
              perm.repr().c_str(), two.repr().c_str(), pick.repr().c_str());
  if (u.dtype() != cupp::float32 || !has_shape(u, {1 << 20}) || min_u < 0 || max_u >= 1 ||
      std::abs(mean_u - 0.5) > 0.01)
    ok = fail("random({2^20}, float32) is not float32 in [0, 1) with mean 0.5", u);
  if (z.dtype() != cupp::float64 || !has_shape(z, {1 << 20}) || std::abs(mean_z - 10.0) > 0.05)
    ok = fail("normal(10, 2, {2^20}) is not float64 with mean 10", z);
  const std::vector<std::int8_t> faces = k.to_vector<std::int8_t>();
  if (k.dtype() != cupp::int8 || faces.size() != 1000 ||
      !std::all_of(faces.begin(), faces.end(), [](std::int8_t f) { return f >= 0 && f < 6; }))
    ok = fail("integers(0, 6, {1000}, int8) is not int8 in 0..5", k);
  const std::vector<double> t = two.to_vector<double>();
  bool rows_ok = two.dtype() == cupp::float64 && has_shape(two, {3, 2});
  for (std::size_t r = 0; rows_ok && r < 3; ++r) rows_ok = std::abs(t[2 * r]) < 10 && std::abs(t[2 * r + 1] - 100) < 10;
  if (!rows_ok) ok = fail("normal([0, 100], 1, {3, 2}) does not broadcast loc along the rows", two);
  const std::vector<std::int64_t> picked = pick.to_vector<std::int64_t>();
  const std::set<std::int64_t> distinct(picked.begin(), picked.end());
  if (pick.dtype() != cupp::int64 || picked.size() != 10 || distinct.size() != 10 || *distinct.begin() < 0 ||
      *distinct.rbegin() >= 1000)
    ok = fail("choice(1000, {10}, false) is not 10 distinct int64 values of 0..999", pick);
  std::vector<std::int64_t> sorted = perm.to_vector<std::int64_t>();
  std::sort(sorted.begin(), sorted.end());
  if (perm.dtype() != cupp::int64 || sorted != std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7})
    ok = fail("permutation(8) is not a permutation of 0..7", perm);
  const cupp::ndarray a = kids.size() == 2 ? kids[0].random({4}) : cupp::ndarray{};
  if (kids.size() != 2 || a.to_vector<double>() == kids[1].random({4}).to_vector<double>())
    ok = fail("spawn(2) did not give two generators with their own streams", a);
  const cupp::ndarray b = far.random({4});
  if (b.to_vector<double>() == rng.random({4}).to_vector<double>())
    ok = fail("the jumped generator repeats the original's numbers", b);
  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
