// Internal to the random module: the NVRTC program of its kernels (random/device/cupp/random/
// kernels.cuh), the launches (each reserves its counters from the Philox state first), the
// parameter handling every Generator method shares (NumPy's constraint checks and messages,
// broadcasting against size=), and the test hooks (forced launch shapes, a broken generator).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/random.hpp"

namespace cupp::random::detail {

// The host image of the device's philox_call (kernels take it by value).
struct philox_call {
  std::uint32_t k0, k1;
  std::uint32_t c0, c1, c2;
};
struct param {  // a scalar, or a float64 array of the output's size
  const double* p = nullptr;
  double v = 0.0;
};
struct iparam {
  const std::uint64_t* p = nullptr;
  std::uint64_t v = 0;
};

// kernels.cuh's transform_dist and stream_dist.
enum transform_dist : int {
  t_random = 0, t_uniform, t_standard_exponential, t_exponential, t_laplace, t_logistic, t_gumbel,
  t_pareto, t_power, t_rayleigh, t_standard_cauchy, t_weibull, t_triangular, t_broken = 99,
};
enum stream_dist : int {
  s_standard_gamma = 0, s_gamma, s_beta, s_chisquare, s_f, s_standard_t, s_wald, s_vonmises,
  s_poisson, s_binomial, s_geometric, s_negative_binomial, s_logseries, s_zipf,
  s_noncentral_chisquare, s_noncentral_f, s_hypergeometric,
};

// NumPy's constraint types (numpy/random/_common.pxd).
enum class cons { none, non_negative, positive, positive_not_nan, bounded_0_1, bounded_gt_0_1, bounded_lt_0_1,
                  gt_1, gte_1, poisson };

// The programs: kernels.cuh's kernels in the order of kernel_index (k_stream excepted), and
// stream.cuh's one kernel.
// broken: the test hook's broken generator (every Philox word x -> x & (x >> 1)).
cupp::detail::routine_program program(bool broken = false);
cupp::detail::routine_program stream_program(bool broken = false);
enum kernel_index : unsigned {
  k_transform_f32 = 0, k_transform_f64, k_normal_f32, k_normal_f64, k_raw32, k_raw64, k_integers, k_check,
  k_integers32, k_choice_feistel, k_uniform_f64, k_stream,
};
const void* kernel(int device, kernel_index k);

// Launches kernel k over `groups` counter groups with `args` on the current stream of `device`
// (the forced shape, when the test hook sets one).
void launch(int device, kernel_index k, std::int64_t groups, void** args);

// The call record for n counters reserved from bits.
philox_call reserve(const Philox& bits, std::uint64_t n_counters);

// Test hooks (tests/gpu/random): force every launch to `blocks` x `threads` (nullopt: the default
// shape), and the deliberately broken generator the statistical tests must catch: every kernel
// then comes from the broken programs (each Philox word x becomes x & (x >> 1), so every
// distribution is off), random() also squares its uniforms and integers skip Lemire's rejection.
void force_launch_shape(std::optional<std::int64_t> blocks, std::optional<unsigned> threads);
void set_broken(bool broken);
bool broken();
// Whether integers32's int64 tiles are stored through warp shuffles (the default) or each group's
// 32 bytes by its own thread (RandomBench times both).
void set_shuffled_stores(bool on);
bool shuffled_stores();

// A parameter prepared for a kernel: its scalar value, or its broadcast float64 copy (held).
struct prepared {
  param p;
  ndarray held;
  bool is_array = false;
};

// NumPy's check of one parameter (scalar on the host, array with one flag read): ValueError with
// NumPy's message ("scale < 0", "p < 0, p > 1 or p is NaN", ...).
void check(const operand& value, const char* name, cons constraint);
// The result shape: size when given (each parameter must broadcast to it: NumPy's ValueError
// otherwise), else the parameters' broadcast shape.
shape_t result_shape(const size_arg& size, std::initializer_list<const operand*> params);
// The parameter as the kernel reads it for an output of `shape`.
prepared prepare(const operand& value, const shape_t& shape);
// A scalar parameter's value, or nullopt for an array.
std::optional<double> scalar_of(const operand& value);

std::int64_t count(const shape_t& shape);

}  // namespace cupp::random::detail
