// cupp::random's benchmark of the issue's cases (disabled by default; run with
// --gtest_also_run_disabled_tests --gtest_filter='*RandomBench*'): CUDA-event medians of
// Generator.random float32 2^28, standard_normal float32 2^28, integers int64 2^27 and
// choice(2^24, 2^20, replace=False) (and integers with the int64 tiles' shuffled stores off, int32
// integers), next to the write-only floor of the same bytes measured in
// the same run (cupp's fill kernel, the issue's store-kernel floor, and cudaMemsetAsync). Prints one
// line per case: "RANDOM_BENCH name ms store_floor_ms fraction_of_store_floor fraction_of_memset". random/bench/peers.py times CuPy and PyTorch.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <vector>

#include "cupp/cuda/stream.hpp"
#include "cupp/random.hpp"
#include "gpu_support.hpp"
#include "sampling.hpp"

namespace cupp {
namespace {

struct event {  // a CUDA event, destroyed with its scope
  cudaEvent_t e = nullptr;
  event() { CUPP_CUDA_CHECK(cudaEventCreate(&e)); }
  ~event() { (void)cudaEventDestroy(e); }  // no throwing destructor; the event is ours alone
  event(const event&) = delete;
  event& operator=(const event&) = delete;
};

double median_ms(const std::function<void()>& f, int reps = 20) {
  event ea, eb;
  cudaEvent_t a = ea.e, b = eb.e;
  cudaStream_t s = reinterpret_cast<cudaStream_t>(cuda::current_stream().handle());
  for (int i = 0; i < 3; ++i) f();  // warm-up (compiles, pools)
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CUPP_CUDA_CHECK(cudaEventRecord(a, s));
    f();
    CUPP_CUDA_CHECK(cudaEventRecord(b, s));
    CUPP_CUDA_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CUPP_CUDA_CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// The write floors of `bytes`: cupp's fill kernel (a store kernel of the same bytes: the issue's
// floor) and cudaMemsetAsync (the driver's, usually a little faster), both printed.
struct floors {
  double store_ms = 0, memset_ms = 0;
};
floors write_floor_ms(std::size_t bytes) {
  ndarray buf = empty({static_cast<std::int64_t>(bytes / 4)}, float32);
  cudaStream_t s = reinterpret_cast<cudaStream_t>(cuda::current_stream().handle());
  floors f;
  f.memset_ms = median_ms([&] { CUPP_CUDA_CHECK(cudaMemsetAsync(buf.data(), 0, bytes, s)); });
  f.store_ms = median_ms([&] { buf.fill(1.0f); });
  std::printf("RANDOM_BENCH floor_%zu_bytes store_kernel %.4f memset %.4f\n", bytes, f.store_ms, f.memset_ms);
  return f;
}

// "RANDOM_BENCH name ms store_floor_ms fraction_of_store_floor fraction_of_memset"
void report(const char* name, double ms, const floors& f) {
  std::printf("RANDOM_BENCH %s %.4f %.4f %.3f %.3f\n", name, ms, f.store_ms, f.store_ms > 0 ? f.store_ms / ms : 0.0,
              f.memset_ms > 0 ? f.memset_ms / ms : 0.0);
}

TEST(RandomBench, DISABLED_IssueCases) {
  CUPP_REQUIRE_GPU();
  auto rng = random::default_rng(0);
  const std::int64_t n28 = std::int64_t{1} << 28, n27 = std::int64_t{1} << 27;
  ndarray out32 = empty({n28}, float32);
  const floors floor32 = write_floor_ms(static_cast<std::size_t>(n28) * 4);
  report("Generator.random_float32_2^28", median_ms([&] { rng.random({}, float32, out32); }), floor32);
  report("Generator.standard_normal_float32_2^28", median_ms([&] { rng.standard_normal({}, float32, out32); }), floor32);
  ndarray out64 = empty({n28}, float64);
  report("Generator.random_float64_2^28", median_ms([&] { rng.random({}, float64, out64); }),
         write_floor_ms(static_cast<std::size_t>(n28) * 8));
  const floors floor_i = write_floor_ms(static_cast<std::size_t>(n27) * 8);
  report("Generator.integers_int64_2^27", median_ms([&] { (void)rng.integers(0, 1000000, {n27}); }), floor_i);
  random::detail::set_shuffled_stores(false);  // each group's 32 bytes stored by its own thread
  report("Generator.integers_int64_2^27_own32B", median_ms([&] { (void)rng.integers(0, 1000000, {n27}); }), floor_i);
  random::detail::set_shuffled_stores(true);
  report("Generator.integers_int32_2^27", median_ms([&] { (void)rng.integers(0, 1000000, {n27}, int32); }),
         floors{floor_i.store_ms / 2, floor_i.memset_ms / 2});
  report("Generator.integers_int64_2^27_wide", median_ms([&] { (void)rng.integers(0, std::int64_t{1} << 40, {n27}); }),
         floor_i);
  report("Generator.choice_2^24_2^20_noreplace",
         median_ms([&] { (void)rng.choice(std::int64_t{1} << 24, {std::int64_t{1} << 20}, false); }, 10), floors{});
  report("Generator.gamma_2.5_2^24", median_ms([&] { (void)rng.gamma(2.5, 1.0, {std::int64_t{1} << 24}); }, 10), floors{});
  report("Generator.poisson_40_2^24", median_ms([&] { (void)rng.poisson(40.0, {std::int64_t{1} << 24}); }, 10), floors{});
}

}  // namespace
}  // namespace cupp
