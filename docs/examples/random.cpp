// Example for docs/random.md, built and run by the tests (CTest `example_random`, label gpu):
// default_rng with a seed, random/normal/integers/choice/permutation, array parameters that
// broadcast, spawn and jumped for independent streams, and the reproducibility promise (the same
// seed gives the same bits). Exits 1 on a wrong value.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/random.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  auto rng = cupp::random::default_rng(12345);
  const cupp::ndarray u = rng.random({1 << 20}, cupp::float32);       // [0, 1), float32
  const cupp::ndarray z = rng.normal(10.0, 2.0, {1 << 20});            // float64
  const cupp::ndarray k = rng.integers(0, 6, {1000}, cupp::int8);      // dice faces 0..5, int8
  const cupp::ndarray loc = cupp::asarray(std::vector<double>{0.0, 100.0});
  const cupp::ndarray two = rng.normal(loc, 1.0, {3, 2});              // loc broadcasts along rows
  const cupp::ndarray pick = rng.choice(1000, {10}, false);            // 10 distinct of arange(1000)
  const cupp::ndarray perm = rng.permutation(8);
  std::vector<cupp::random::Generator> kids = rng.spawn(2);            // independent streams
  cupp::random::Generator far(rng.bit_generator().jumped());           // counter + 2^64

  // The promise: the same seed gives the same bits, on any GPU and for any launch shape.
  auto again = cupp::random::default_rng(12345);
  const bool same = again.random({1 << 20}, cupp::float32).to_vector<float>() == u.to_vector<float>();

  const double mean_u = cupp::mean(u).item<double>(), mean_z = cupp::mean(z).item<double>();
  const std::vector<std::int8_t> faces = k.to_vector<std::int8_t>();
  const std::vector<std::int64_t> p = perm.to_vector<std::int64_t>();
  std::vector<std::int64_t> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  const std::vector<double> t = two.ravel().to_vector<double>();
  std::printf("mean(u) = %.4f, mean(z) = %.4f\nperm = %s\ntwo = %s\n", mean_u, mean_z, perm.repr().c_str(),
              two.repr().c_str());
  const bool ok = same && std::abs(mean_u - 0.5) < 0.01 && std::abs(mean_z - 10.0) < 0.05 &&
                  std::all_of(faces.begin(), faces.end(), [](std::int8_t f) { return f >= 0 && f < 6; }) &&
                  sorted == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7} && pick.size() == 10 &&
                  t[1] > 90 && t[0] < 10 && kids.size() == 2 &&
                  kids[0].random().item<double>() != kids[1].random().item<double>() &&
                  far.random().item<double>() != rng.random().item<double>();
  std::puts(ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
