// The random module's rejection-sampler kernel (embedded as cupp/random/stream.cuh; a program of
// its own, random/src/program.cpp): one element per counter group, reading its own words
// (philox.cuh's element_stream) as samplers.cuh's algorithms need them.
#pragma once

#include <cupp/dev/launch.cuh>
#include <cupp/random/params.cuh>
#include <cupp/random/samplers.cuh>

// The stream family: one element per counter group; float64, float32 (standard_gamma's dtype) or
// int64 (the discrete distributions) out.
extern "C" __global__ void cupp_random_stream(void* out, long long n, cupp_random::philox_call call, int dist,
                                              cupp_random::param a, cupp_random::param b, cupp_random::param c,
                                              int out_kind) {
  using namespace cupp_random;
  CUPP_GRID_LOOP(i, n) {
    element_stream s(call, (u64)i);
    const double av = a.at(i), bv = b.at(i), cv = c.at(i);
    switch (out_kind) {
      case 0: static_cast<double*>(out)[i] = sample_real(s, dist, av, bv, cv); break;
      case 1: static_cast<float*>(out)[i] = (float)sample_real(s, dist, av, bv, cv); break;
      default: static_cast<long long*>(out)[i] = sample_int(s, dist, av, bv, cv); break;
    }
  }
}

