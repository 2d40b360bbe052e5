// Reduction kernels (ufunc.reduce, sum, prod, max, min, all, any, mean): an op's binary loop
// `F` (Acc, Acc -> Acc) combines elements mapped to the accumulator type. The host collapses the
// array into kept dimensions (one per output element) and reduced dimensions; these kernels walk
// them with byte strides. Deterministic: a fixed combining order and no atomics. A large
// reduction is split into chunks along the reduced elements (blockIdx.y), each writing a partial
// accumulator; a second pass (cupp_reduce_rows over the partials) combines them. Embedded and
// handed to NVRTC.
#pragma once

#include <cupp/dev/math.cuh>

namespace cupp {
namespace dev {

// Up to N dimensions: extents and byte strides in C order (N >= 1; unused ones have extent 1).
template <int N>
struct reduce_dims {
  long long extent[N];
  long long stride[N];
};

// The byte offset of the i-th element (C order) of `d`.
template <int N>
__device__ inline long long offset_of(long long i, const reduce_dims<N>& d) {
  if (N == 1) return i * d.stride[0];
  long long off = 0;
#pragma unroll
  for (int k = N - 1; k >= 0; --k) {
    const long long q = i / d.extent[k];
    off += (i - q * d.extent[k]) * d.stride[k];
    i = q;
  }
  return off;
}

// Combines the per-thread accumulators of a block in a fixed tree order; thread 0 gets the
// result. `have` marks threads that saw at least one element.
template <class F, class Acc>
__device__ inline bool block_combine(Acc& acc, bool have) {
  __shared__ alignas(16) unsigned char storage[256 * sizeof(Acc)];
  __shared__ bool valid[256];
  Acc* values = reinterpret_cast<Acc*>(storage);
  values[threadIdx.x] = acc;
  valid[threadIdx.x] = have;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half && valid[threadIdx.x + half]) {
      if (valid[threadIdx.x]) F::apply(values[threadIdx.x], values[threadIdx.x + half], values[threadIdx.x]);
      else values[threadIdx.x] = values[threadIdx.x + half];
      valid[threadIdx.x] = true;
    }
    __syncthreads();
  }
  acc = values[0];
  have = valid[0];
  __syncthreads();  // the next output's round reuses the storage
  return have;
}

// Rows class: a block per output element; its threads stride over the element's chunk of
// reduced elements (blockIdx.y selects the chunk). FINAL writes Out to `out[o]`; otherwise the
// partial accumulator goes to `partial[o * gridDim.y + blockIdx.y]`. blockDim.x is 256.
template <class F, class Acc, class In, class Out, int NK, int NR, bool FINAL>
__global__ void cupp_reduce_rows(const char* in, void* out, long long out_size, long long red_size,
                                 long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
    const char* base = in + offset_of(o, kept);
    Acc acc{};
    bool have = false;
    long long r = r0 + threadIdx.x;
    const long long step = blockDim.x;
    // Eight independent loads in flight per thread, combined in order.
    for (; r + 7 * step < r1; r += 8 * step) {
      Acc v[8];
#pragma unroll
      for (int u = 0; u < 8; ++u) v[u] = cast<Acc>(*reinterpret_cast<const In*>(base + offset_of(r + u * step, reduced)));
      if (!have) {
        acc = v[0];
        have = true;
      } else {
        F::apply(acc, v[0], acc);
      }
#pragma unroll
      for (int u = 1; u < 8; ++u) F::apply(acc, v[u], acc);
    }
    for (; r < r1; r += step) {
      const Acc v = cast<Acc>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)));
      if (have) F::apply(acc, v, acc);
      else acc = v;
      have = true;
    }
    have = block_combine<F, Acc>(acc, have);
    if (threadIdx.x == 0) {
      if (FINAL) static_cast<Out*>(out)[o] = cast<Out>(acc);
      else static_cast<Acc*>(out)[o * gridDim.y + blockIdx.y] = acc;
    }
  }
}

// Columns class: a thread per output element, for layouts whose neighbouring outputs are
// neighbours in memory (a reduction over leading axes): each thread walks its chunk of reduced
// elements in order, and a warp's loads are coalesced. Outputs as in the rows class.
template <class F, class Acc, class In, class Out, int NK, int NR, bool FINAL>
__global__ void cupp_reduce_columns(const char* in, void* out, long long out_size, long long red_size,
                                    long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced) {
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= out_size) return;
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  const char* base = in + offset_of(o, kept);
  Acc acc = cast<Acc>(*reinterpret_cast<const In*>(base + offset_of(r0, reduced)));
#pragma unroll 8
  for (long long r = r0 + 1; r < r1; ++r) F::apply(acc, cast<Acc>(*reinterpret_cast<const In*>(base + offset_of(r, reduced))), acc);
  if (FINAL) static_cast<Out*>(out)[o] = cast<Out>(acc);
  else static_cast<Acc*>(out)[o * gridDim.y + blockIdx.y] = acc;
}

}  // namespace dev
}  // namespace cupp
