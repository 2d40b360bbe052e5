// var, std, nanvar and nanstd of real dtypes in one read of the input: each thread takes its
// elements in small groups held in registers (the packs of one loop step), turns each group into
// (count, mean, M2) by sums of deviations from the group's first element in float64, and merges
// the groups, the threads' and the chunks' triples with Chan's pairwise formula in a fixed order,
// so results are identical run to run. The layouts are reduction.cuh's: rows (a block per output,
// threads striding over a chunk of the reduced elements) and columns (a thread per output walking
// its chunk in order); both write one triple per (output, chunk), and cupp_moments_finish merges
// an output's chunks and writes M2 / (count - ddof) (or its square root) in the result dtype.
// Overflow follows NumPy's two-pass formula: M2 is +inf exactly when the squared deviations
// overflow (a group whose squares overflow is summed again scaled by 2^-520, and no step forms
// inf - inf), and NaN only when an element is NaN or infinite. Embedded and handed to NVRTC.
#pragma once

#include <cupp/dev/reduction.cuh>

namespace cupp {
namespace dev {

struct moments {
  double n, mean, m2;
};

// Merges b into a (Chan et al.): exact for counts, stable for the mean and M2. Every term added
// to M2 is a non-negative part of the true M2, so M2 overflows only when the true M2 does; once it
// is +inf the mean no longer matters and is kept finite, so later merges add no inf - inf.
__device__ inline void moments_merge(moments& a, const moments& b) {
  if (b.n == 0) return;
  if (a.n == 0) {
    a = b;
    return;
  }
  const double n = a.n + b.n, d = b.mean - a.mean, w = b.n / n;
  a.mean += d * w;
  a.m2 += b.m2 + d * (d * (a.n * w));  // d * (d * c) with c >= 1/2 overflows only if the term does
  a.n = n;
  if (isinf(a.m2)) a.mean = 0;
}

// The triple of the first `count` of the G values x (NaNs left out when SKIP_NAN): sums of the
// deviations from the first value kept and of their squares. If the squares overflow (a deviation
// of 1e154 or more, or a NaN or infinite value) the sums are formed again on the values scaled by
// 2^-520, where they cannot overflow, and M2 is scaled back: +inf if it truly overflows, NaN if a
// value is NaN or infinite.
template <bool SKIP_NAN, int G, class In>
__device__ inline moments group_moments(const In (&x)[G], int count = G) {
  double k = 0, s1 = 0, s2 = 0, n = 0;
#pragma unroll
  for (int e = 0; e < G; ++e) {
    if (e >= count) break;
    const double v = cast<double>(x[e]);
    if (SKIP_NAN && isnan(v)) continue;
    if (n == 0) k = v;
    const double d = v - k;
    s1 += d;
    s2 = fma(d, d, s2);
    n += 1;
  }
  moments m{n, 0, 0};
  if (n == 0) return m;
  if (isfinite(s2)) {
    m.mean = k + s1 / n;
    const double m2 = s2 - s1 * (s1 / n);
    m.m2 = m2 < 0 ? 0 : m2;  // rounding can leave a tiny negative
    return m;
  }
  constexpr double down = 0x1p-520, up = 0x1p520;
  const double ks = k * down;
  s1 = 0;
  s2 = 0;
#pragma unroll
  for (int e = 0; e < G; ++e) {
    if (e >= count) break;
    const double v = cast<double>(x[e]);
    if (SKIP_NAN && isnan(v)) continue;
    const double d = v * down - ks;
    s1 += d;
    s2 = fma(d, d, s2);
  }
  const double m2 = s2 - s1 * (s1 / n);
  m.m2 = (m2 < 0 ? 0 : m2) * up * up;  // NaN stays NaN
  m.mean = isinf(m.m2) ? 0 : (ks + s1 / n) * up;
  return m;
}

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
    moments m{0, 0, 0};
    if (NR == 1 && sizeof(In) < 16 && reduced.stride[0] == static_cast<long long>(sizeof(In))) {
      // Contiguous: 16-byte loads, four in flight per thread, each step's packs one group.
      constexpr int V = 16 / sizeof(In);
      const In* row = reinterpret_cast<const In*>(base);
      const unsigned misalign = static_cast<unsigned>(reinterpret_cast<unsigned long long>(row + r0) & 15u);
      long long head = misalign == 0 ? r0 : r0 + static_cast<long long>((16u - misalign) / sizeof(In));
      if (head > r1) head = r1;
      if (r0 + threadIdx.x < head) {
        const In x[1] = {row[r0 + threadIdx.x]};
        m = group_moments<SKIP_NAN>(x);
      }
      const long long packs = (r1 - head) / V, step = blockDim.x;
      const element_pack<In>* p = reinterpret_cast<const element_pack<In>*>(row + head);
      long long q = threadIdx.x;
      for (; q + 3 * step < packs; q += 4 * step) {
        element_pack<In> v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = p[q + u * step];
        In x[4 * V];
#pragma unroll
        for (int u = 0; u < 4; ++u)
#pragma unroll
          for (int e = 0; e < V; ++e) x[u * V + e] = v[u].v[e];
        moments_merge(m, group_moments<SKIP_NAN>(x));
      }
      for (; q < packs; q += step) moments_merge(m, group_moments<SKIP_NAN>(p[q].v));
      const long long tail = head + packs * V + threadIdx.x;
      if (tail < r1) {
        const In x[1] = {row[tail]};
        moments_merge(m, group_moments<SKIP_NAN>(x));
      }
    } else {
      // Strided: four elements per group.
      for (long long r = r0 + threadIdx.x; r < r1; r += 4 * static_cast<long long>(blockDim.x)) {
        In x[4] = {};
        int count = 0;
#pragma unroll
        for (int u = 0; u < 4; ++u) {
          const long long ru = r + u * static_cast<long long>(blockDim.x);
          if (ru < r1) {
            x[u] = *reinterpret_cast<const In*>(base + offset_of(ru, reduced));
            count = u + 1;
          }
        }
        moments_merge(m, group_moments<SKIP_NAN>(x, count));
      }
    }
    m = moments_block_merge(m);
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
  moments m{0, 0, 0};
  constexpr int G = 8;  // elements per group, loaded together
  long long r = r0;
  for (; r + G <= r1; r += G) {
    In x[G];
#pragma unroll
    for (int u = 0; u < G; ++u) x[u] = *reinterpret_cast<const In*>(base + offset_of(r + u, reduced));
    moments_merge(m, group_moments<SKIP_NAN>(x));
  }
  if (r < r1) {
    In x[G] = {};
    const int count = static_cast<int>(r1 - r);
#pragma unroll
    for (int u = 0; u < G; ++u)
      if (u < count) x[u] = *reinterpret_cast<const In*>(base + offset_of(r + u, reduced));
    moments_merge(m, group_moments<SKIP_NAN>(x, count));
  }
  part[static_cast<long long>(blockIdx.y) * out_size + o] = m;
}

// The variance of merged triple m with `ddof` (SKIP_NAN: NaN when count - ddof <= 0, as nanvar;
// otherwise M2 / max(count - ddof, 0), as var), or its square root, as Out.
template <class Out, bool SKIP_NAN, bool ROOT>
__device__ inline Out moments_result(const moments& m, double ddof) {
  const double dof = m.n - ddof;
  double v;
  if (SKIP_NAN && dof <= 0) v = __longlong_as_double(0x7ff8000000000000ll);
  else v = m.m2 / (dof > 0 ? dof : 0.0);
  // NumPy sums the elements (for the mean) and the squared deviations in the result's dtype, so
  // the result is inf once either sum passes that dtype's largest value (float32's for float32 or
  // narrower results).
  const double largest = sizeof(Out) <= 4 ? 3.4028234663852886e38 : 1.7976931348623157e308;
  if (!isnan(v) && (m.m2 > largest || fabs(m.mean) * m.n > largest)) v = __longlong_as_double(0x7ff0000000000000ll);
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
