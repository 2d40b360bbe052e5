// The random module's kernel parameters (embedded as cupp/random/params.cuh): a distribution
// parameter (a scalar or a float64 array of the output's size, broadcast on the host), integers'
// low and range, and the distribution numbers of the kernels' families (random/src/sampling.hpp
// has the host's copy).
#pragma once

namespace cupp_random {

struct param {
  const double* p;  // an array of n values, or null
  double v;         // the scalar, when p is null
  __device__ __forceinline__ double at(long long i) const { return p ? p[i] : v; }
};

struct iparam {  // integers' low and range
  const unsigned long long* p;
  unsigned long long v;
  __device__ __forceinline__ unsigned long long at(long long i) const { return p ? p[i] : v; }
};

// The transform family's distributions (random/src/sampling.hpp: transform_dist).
enum transform_dist {
  t_random = 0, t_uniform, t_standard_exponential, t_exponential, t_laplace, t_logistic, t_gumbel,
  t_pareto, t_power, t_rayleigh, t_standard_cauchy, t_weibull, t_triangular,
  t_broken = 99,  // the test hook's deliberately broken generator: u^2 instead of u
};

// The stream family's distributions (sampling.hpp: stream_dist).
enum stream_dist {
  s_standard_gamma = 0, s_gamma, s_beta, s_chisquare, s_f, s_standard_t, s_wald, s_vonmises,
  s_poisson, s_binomial, s_geometric, s_negative_binomial, s_logseries, s_zipf,
  s_noncentral_chisquare, s_noncentral_f, s_hypergeometric,
};

}  // namespace cupp_random
