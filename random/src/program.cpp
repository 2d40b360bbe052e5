// The random module's NVRTC programs and launches (random/src/sampling.hpp): kernels.cuh's
// kernels in one program and stream.cuh's rejection samplers in another (much slower to compile,
// so a program that draws only uniforms, normals and integers never pays for it); the launch
// shape (or the test hook's forced one); counter reservation; the test hooks.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/errors.hpp"
#include "random_device_headers.hpp"
#include "sampling.hpp"

namespace cupp::random::detail {

namespace {

struct forced_shape {
  std::mutex mutex;
  std::optional<std::int64_t> blocks;
  std::optional<unsigned> threads;
};
forced_shape& forced() {
  static forced_shape f;
  return f;
}
std::atomic<bool> broken_flag{false};
std::atomic<bool> shuffled_flag{true};

// The device's SM count (one wave of fixed-draw kernels: each thread then draws many counters
// with its round keys computed once).
int sm_count(int device) {
  static std::mutex mutex;
  static std::vector<int> counts;
  std::lock_guard lock(mutex);
  if (device >= static_cast<int>(counts.size())) counts.resize(device + 1, 0);
  if (counts[device] == 0) {
    int n = 0;
    if (cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device) != cudaSuccess || n <= 0) n = 132;
    counts[device] = n;
  }
  return counts[device];
}

// How many blocks of `threads` of kernel `fn` an SM holds at once (the occupancy calculator, asked
// once per kernel and block size): a fixed-draw launch is exactly one full wave of them, so no SM
// runs a second, partial wave of grid-stride blocks (a kernel of 48 registers fits 5 blocks of 256
// per SM: 8 per SM took two waves, the second 60 % full). 8 when the calculator does not answer.
int resident_blocks(const void* fn, unsigned threads) {
  static std::mutex mutex;
  static std::vector<std::pair<std::pair<const void*, unsigned>, int>> known;
  std::lock_guard lock(mutex);
  for (const auto& [key, blocks] : known)
    if (key.first == fn && key.second == threads) return blocks;
  int n = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, fn, static_cast<int>(threads), 0) != cudaSuccess || n <= 0) {
    (void)cudaGetLastError();  // the calculator's error is not the caller's: clear it
    n = 8;
  }
  known.push_back({{fn, threads}, n});
  return n;
}

}  // namespace

// broken: the test hook's programs, with CUPP_RANDOM_BROKEN_WORDS (philox.cuh's weaken()).
cupp::detail::routine_program program(bool broken) {
  return {.name = broken ? "cupp_random_broken" : "cupp_random",
          .source = std::string(broken ? "#define CUPP_RANDOM_BROKEN_WORDS 1\n" : "") +
                    "#include <cupp/random/kernels.cuh>\n",
          .kernels = {"cupp_random_transform_f32", "cupp_random_transform_f64", "cupp_random_normal_f32",
                      "cupp_random_normal_f64", "cupp_random_raw32", "cupp_random_raw64", "cupp_random_integers",
                      "cupp_random_check", "cupp_random_integers32", "cupp_random_choice_feistel",
                      "cupp_random_uniform_f64"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

cupp::detail::routine_program stream_program(bool broken) {
  return {.name = broken ? "cupp_random_stream_broken" : "cupp_random_stream",
          .source = std::string(broken ? "#define CUPP_RANDOM_BROKEN_WORDS 1\n" : "") +
                    "#include <cupp/random/stream.cuh>\n",
          .kernels = {"cupp_random_stream"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

const void* kernel(int device, kernel_index k) {
  const bool b = k != k_check && broken();  // the constraint check is never broken
  if (k == k_stream) {
    const cupp::detail::kernel_module& module = cupp::detail::routine_module(
        device, {b ? "random:stream:broken" : "random:stream", 0}, [b] { return stream_program(b); });
    return module.function(0);
  }
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(
      device, {b ? "random:kernels:broken" : "random:kernels", 0}, [b] { return program(b); });
  return module.function(k);
}

void launch(int device, kernel_index k, std::int64_t groups, void** args) {
  if (groups <= 0) return;
  std::optional<std::int64_t> blocks;
  unsigned threads = cupp::detail::launch_threads;
  {
    forced_shape& f = forced();
    std::lock_guard lock(f.mutex);
    blocks = f.blocks;
    if (f.threads) threads = *f.threads;
  }
  const void* fn = kernel(device, k);
  if (threads > cupp::detail::launch_threads) {
    // a forced shape above what the kernel's registers allow: its largest (the output does not
    // depend on the shape)
    cudaFuncAttributes attributes{};
    if (cudaFuncGetAttributes(&attributes, fn) == cudaSuccess && attributes.maxThreadsPerBlock > 0 &&
        threads > static_cast<unsigned>(attributes.maxThreadsPerBlock))
      threads = static_cast<unsigned>(attributes.maxThreadsPerBlock) / 32 * 32;
  }
  if (!blocks) {
    // enough blocks to cover the groups, at most one full wave for the fixed-draw kernels (the
    // blocks every SM holds at once) and 2^20 for the others (grid_blocks); grid-stride beyond
    blocks = cupp::detail::grid_blocks(groups, threads);
    if (k != k_stream && k != k_check)
      *blocks = std::min<std::int64_t>(*blocks, std::int64_t{resident_blocks(fn, threads)} * sm_count(device));
  }
  cupp::detail::launch_1d(fn, groups, args, device, blocks, threads);
}

philox_call reserve(const Philox& bits, std::uint64_t n_counters) {
  const std::array<std::uint32_t, 2> key = bits.key();
  const std::array<std::uint32_t, 3> c = bits.reserve(n_counters);
  return {key[0], key[1], c[0], c[1], c[2]};
}

void force_launch_shape(std::optional<std::int64_t> blocks, std::optional<unsigned> threads) {
  forced_shape& f = forced();
  std::lock_guard lock(f.mutex);
  f.blocks = blocks;
  f.threads = threads;
}

void set_broken(bool broken) { broken_flag.store(broken); }
void set_shuffled_stores(bool on) { shuffled_flag.store(on); }
bool shuffled_stores() { return shuffled_flag.load(); }
bool broken() { return broken_flag.load(); }

}  // namespace cupp::random::detail
