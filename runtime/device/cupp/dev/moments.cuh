// var, std, nanvar and nanstd of real dtypes in one read of the input: each thread sums its
// elements' deviations from the first element it saw (a shift that keeps the sums well
// conditioned) in float64, turns them into (count, mean, M2), and the threads' and chunks'
// triples are merged with Chan's pairwise formula in a fixed tree, so results are identical run
// to run. The layouts are reduction.cuh's: rows (a block per output, threads striding over a
// chunk of the reduced elements) and columns (a thread per output walking its chunk in order);
// both write one triple per (output, chunk), and cupp_moments_finish merges an output's chunks and
// writes M2 / (count - ddof) (or its square root) in the result dtype. Embedded and handed to NVRTC.
#pragma once

#include <cupp/dev/reduction.cuh>

namespace cupp {
namespace dev {

struct moments {
  double n, mean, m2;
};

// Merges b into a (Chan et al.): exact for counts, stable for the mean and M2.
__device__ inline void moments_merge(moments& a, const moments& b) {
  if (b.n == 0) return;
  if (a.n == 0) {
    a = b;
    return;
  }
  const double n = a.n + b.n, d = b.mean - a.mean;
  a.mean += d * (b.n / n);
  a.m2 += b.m2 + d * d * (a.n * (b.n / n));
  a.n = n;
}

// One thread's running sums: the shift k (its first element), sum of x - k, sum of (x - k)^2.
struct shifted_sums {
  double k = 0, s1 = 0, s2 = 0, n = 0;
  template <bool SKIP_NAN, class In>
  __device__ void add(In value) {
    const double x = cast<double>(value);
    if (SKIP_NAN && isnan(x)) return;
    if (n == 0) k = x;
    const double d = x - k;
    s1 += d;
    s2 = fma(d, d, s2);
    n += 1;
  }
  __device__ moments finish() const {
    moments m{n, 0, 0};
    if (n == 0) return m;
    m.mean = k + s1 / n;
    const double m2 = s2 - s1 * (s1 / n);
    m.m2 = m2 < 0 ? 0 : m2;  // rounding can leave a tiny negative; NaN stays NaN
    return m;
  }
};

// The block's triples merged in a fixed tree; thread 0 gets the result.
__device__ inline moments moments_block_merge(moments m) {
  __shared__ moments values[256];
  values[threadIdx.x] = m;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned t = threadIdx.x;
    if (t % (2 * s) == 0 && t + s < blockDim.x) moments_merge(values[t], values[t + s]);
    __syncthreads();
  }
  m = values[0];
  __syncthreads();
  return m;
}

// Rows: a block per output; the chunk's triple goes to part[o * gridDim.y + blockIdx.y].
template <class In, int NK, int NR, bool SKIP_NAN>
__global__ void cupp_moments_rows(const char* in, moments* part, long long out_size, long long red_size, long long chunk,
                                  reduce_dims<NK> kept, reduce_dims<NR> reduced, const void*) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
    const char* base = in + offset_of(o, kept);
    shifted_sums s;
    if (NR == 1 && sizeof(In) < 16 && reduced.stride[0] == static_cast<long long>(sizeof(In))) {
      // Contiguous: 16-byte loads, four in flight per thread.
      constexpr int V = 16 / sizeof(In);
      const In* row = reinterpret_cast<const In*>(base);
      const unsigned misalign = static_cast<unsigned>(reinterpret_cast<unsigned long long>(row + r0) & 15u);
      long long head = misalign == 0 ? r0 : r0 + static_cast<long long>((16u - misalign) / sizeof(In));
      if (head > r1) head = r1;
      if (r0 + threadIdx.x < head) s.add<SKIP_NAN>(row[r0 + threadIdx.x]);
      const long long packs = (r1 - head) / V, step = blockDim.x;
      const element_pack<In>* p = reinterpret_cast<const element_pack<In>*>(row + head);
      long long q = threadIdx.x;
      for (; q + 3 * step < packs; q += 4 * step) {
        element_pack<In> v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = p[q + u * step];
#pragma unroll
        for (int u = 0; u < 4; ++u)
#pragma unroll
          for (int e = 0; e < V; ++e) s.add<SKIP_NAN>(v[u].v[e]);
      }
      for (; q < packs; q += step) {
        const element_pack<In> v = p[q];
#pragma unroll
        for (int e = 0; e < V; ++e) s.add<SKIP_NAN>(v.v[e]);
      }
      const long long tail = head + packs * V + threadIdx.x;
      if (tail < r1) s.add<SKIP_NAN>(row[tail]);
    } else {
      for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x)
        s.add<SKIP_NAN>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)));
    }
    const moments m = moments_block_merge(s.finish());
    if (threadIdx.x == 0) part[o * gridDim.y + blockIdx.y] = m;
  }
}

// Columns: a thread per output walking its chunk in order; part[blockIdx.y * out_size + o].
template <class In, int NK, int NR, bool SKIP_NAN>
__global__ void cupp_moments_columns(const char* in, moments* part, long long out_size, long long red_size,
                                     long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced, const void*) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= out_size) return;
  const char* base = in + offset_of(o, kept);
  shifted_sums s;
#pragma unroll 8
  for (long long r = r0; r < r1; ++r) s.add<SKIP_NAN>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)));
  part[static_cast<long long>(blockIdx.y) * out_size + o] = s.finish();
}

// The variance of merged triple m with `ddof` (SKIP_NAN: NaN when count - ddof <= 0, as nanvar;
// otherwise M2 / max(count - ddof, 0), as var), or its square root, as Out.
template <class Out, bool SKIP_NAN, bool ROOT>
__device__ inline Out moments_result(const moments& m, double ddof) {
  const double dof = m.n - ddof;
  double v;
  if (SKIP_NAN && dof <= 0) v = __longlong_as_double(0x7ff8000000000000ll);
  else v = m.m2 / (dof > 0 ? dof : 0.0);
  // NumPy squares and sums the deviations in the result's dtype: a float32 (or narrower) result
  // is inf once the sum of squares passes float32's largest value.
  if (sizeof(Out) <= 4 && m.m2 > 3.4028234663852886e38) v = __longlong_as_double(0x7ff0000000000000ll);
  if (ROOT) v = sqrt(v);
  return cast<Out>(v);
}

// Merges each output's `chunks` triples (output o's chunk c at part[o * o_step + c * c_step]) and
// writes its result. BLOCK (many chunks): a block per output, its threads merging every 256th
// chunk in order, then the block's fixed tree; otherwise a thread per output, in chunk order.
template <class Out, bool SKIP_NAN, bool ROOT, bool BLOCK>
__global__ void cupp_moments_finish(const moments* part, Out* out, long long out_size, long long chunks,
                                    long long o_step, long long c_step, double ddof) {
  if constexpr (BLOCK) {
    for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
      moments m{0, 0, 0};
      for (long long c = threadIdx.x; c < chunks; c += blockDim.x) moments_merge(m, part[o * o_step + c * c_step]);
      m = moments_block_merge(m);
      if (threadIdx.x == 0) out[o] = moments_result<Out, SKIP_NAN, ROOT>(m, ddof);
    }
  } else {
    const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (o >= out_size) return;
    moments m{0, 0, 0};
    for (long long c = 0; c < chunks; ++c) moments_merge(m, part[o * o_step + c * c_step]);
    out[o] = moments_result<Out, SKIP_NAN, ROOT>(m, ddof);
  }
}

}  // namespace dev
}  // namespace cupp
