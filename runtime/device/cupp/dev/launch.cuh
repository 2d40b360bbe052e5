// The device side of the routines' launch kit (runtime/src/compiler/launch.hpp): the grid-stride
// loop over n elements of a 1-D launch.
#pragma once

// i runs over [0, n) in steps of the whole grid (64-bit: n may pass 2^31).
#define CUPP_GRID_LOOP(i, n)                                                               \
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (long long)(n); \
       i += (long long)gridDim.x * blockDim.x)
