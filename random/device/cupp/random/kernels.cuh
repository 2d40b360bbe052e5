// The random module's kernels (embedded as cupp/random/kernels.cuh; one NVRTC program,
// random/src/program.cpp). Every kernel loops over element groups with CUPP_GRID_LOOP, and group g
// reads only the Philox counters (base + g, j) (philox.cuh), so the output is a function of the
// key, the base counter and n alone, never of the launch shape:
// - fixed-draw transforms (uniform, exponential, ... , normal) put W elements in a group: four
//   float32 values per counter (one word each) or two float64 values (two words each);
// - integers (Lemire's bounded rejection) put four (32-bit ranges) or two (64-bit ranges)
//   elements in a group, each owning its lane of the group's words, j counting its retries;
// - rejection samplers (gamma, beta, poisson, binomial, ...) have one element per group, which
//   reads its words (base + i, 0), (base + i, 1), ... as it needs them (element_stream); their
//   kernel is a program of its own (stream.cuh), as it takes NVRTC much longer to compile.
// A parameter is a scalar or a float64 array of the output's size (the host broadcasts it).
#pragma once

#include <cupp/dev/launch.cuh>
#include <cupp/random/params.cuh>
#include <cupp/random/philox.cuh>

namespace cupp_random {

__device__ __forceinline__ double transform(int dist, double u, double uo, double a, double b, double c) {
  switch (dist) {
    case t_random: return u;
    case t_uniform: return a + b * u;  // b: high - low
    case t_standard_exponential: return -log1p(-u);
    case t_exponential: return a * -log1p(-u);
    case t_laplace: return uo >= 0.5 ? a - b * log(2.0 - 2.0 * uo) : a + b * log(2.0 * uo);
    case t_logistic: return a + b * log(uo / (1.0 - uo));
    case t_gumbel: return a - b * log(-log(uo));
    case t_pareto: return expm1(-log1p(-u) / a);
    case t_power: return pow(-expm1(log1p(-u)), 1.0 / a);
    case t_rayleigh: return a * sqrt(-2.0 * log1p(-u));
    case t_standard_cauchy: return tan(3.141592653589793 * (uo - 0.5));
    case t_weibull: return a == 0.0 ? 0.0 : pow(-log1p(-u), 1.0 / a);
    case t_triangular: {
      const double base = c - a, leftbase = b - a, ratio = leftbase / base;
      return u <= ratio ? a + sqrt(u * leftbase * base) : c - sqrt((1.0 - u) * (c - b) * base);
    }
    case t_broken: return u * u;
  }
  return 0.0;
}

__device__ __forceinline__ float transform_f(int dist, u32 w) {
  const float u = to_float01(w);
  switch (dist) {
    case t_standard_exponential: return -log1pf(-u);
    case t_broken: return u * u;
  }
  return u;
}

}  // namespace cupp_random

namespace cupp_random {

// The fixed-draw kernels' fast path for plain uniforms (Generator.random): the groups with all
// their elements, W16 elements of 16 bytes a group (float4 or double2, out 16-byte aligned), run
// by run (run_span: words 1 and 2 of the counter fixed) with counter_run's Philox, each thread's
// m0 * lo stepped by m0 * (the grid's threads); store(p, w) writes a group's element vector from
// its words. The same words, hence values, as draw(call, keys, g, 0); the last, partial group
// (if any) is left to the caller. ILP 2: two groups a thread and iteration (g and g + the grid's
// threads: two independent Philox chains; random/bench/kernel_variants.cu times both).
template <int ILP = 1, class V, class Store>
__device__ __forceinline__ void uniform_runs(V* out, u64 full, const philox_call& call, Store store) {
  const u64 stride = (u64)gridDim.x * blockDim.x;
  const u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  const u64 step = (u64)philox_m0 * stride;  // mod 2^64: exact while it is used (lo + stride < 2^32)
  const u64 runs = run_count(call, full);
  for (u64 r = 0; r < runs; ++r) {
    const run_span s = run_at(call, full, r);
    const counter_run cr(call.k0, call.k1, s.c1, s.c2);
    u64 p0 = (u64)philox_m0 * (u32)(s.lo0 + (u32)t);  // m0 * lo of the thread's first group
    V* const stop = out + s.end;
    if (ILP == 1) {
      for (V* p = out + s.begin + t; p < stop; p += stride, p0 += step) store(p, weaken(cr.words(p0)));
    } else {
      for (V* p = out + s.begin + t; p < stop; p += 2 * stride, p0 += 2 * step) {
        const bool second = p + stride < stop;
        const u32x4 w0 = cr.words(p0);
        const u32x4 w1 = cr.words(p0 + step);  // unused past the run's end
        store(p, weaken(w0));
        if (second) store(p + stride, weaken(w1));
      }
    }
  }
}

}  // namespace cupp_random

// float32 transforms: four elements (one word each) per counter; vec: out is 16-byte aligned.
extern "C" __global__ void cupp_random_transform_f32(float* out, long long n, cupp_random::philox_call call,
                                                     int dist, int vec) {
  using namespace cupp_random;
  const long long groups = (n + 3) / 4;
  const round_keys keys(call.k0, call.k1);
  if (dist == t_random && vec) {  // Generator.random: uniform_runs, then the partial group
    uniform_runs(reinterpret_cast<float4*>(out), (u64)n / 4, call, [](float4* p, const u32x4& w) {
      *p = make_float4(to_float01(w.v[0]), to_float01(w.v[1]), to_float01(w.v[2]), to_float01(w.v[3]));
    });
    if (n % 4 != 0 && blockIdx.x == 0 && threadIdx.x == 0) {
      const u32x4 w = draw(call, keys, (u64)(n / 4), 0);
      for (long long k = 0; k < n % 4; ++k) out[n / 4 * 4 + k] = to_float01(w.v[k]);
    }
    return;
  }
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    const long long e = 4 * g;
    float r[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) r[k] = transform_f(dist, w.v[k]);
    if (vec && e + 3 < n) {
      *reinterpret_cast<float4*>(out + e) = make_float4(r[0], r[1], r[2], r[3]);
    } else {
      for (int k = 0; k < 4 && e + k < n; ++k) out[e + k] = r[k];
    }
  }
}

// Generator.random float64 into a 16-byte aligned out: uniform_runs (two elements a group, 53 bits
// each from a word pair), then the last element if n is odd. A kernel of its own: the general
// float64 transform's registers (its parameters and libm calls) would cut its occupancy.
extern "C" __global__ void cupp_random_uniform_f64(double* out, long long n, cupp_random::philox_call call) {
  using namespace cupp_random;
  uniform_runs(reinterpret_cast<double2*>(out), (u64)n / 2, call, [](double2* p, const u32x4& w) {
    *p = make_double2(to_double01(w.v[0], w.v[1]), to_double01(w.v[2], w.v[3]));
  });
  if (n % 2 != 0 && blockIdx.x == 0 && threadIdx.x == 0) {
    const u32x4 w = draw(call, (u64)(n / 2), 0);
    out[n - 1] = to_double01(w.v[0], w.v[1]);
  }
}

// float64 transforms: two elements (two words each) per counter.
extern "C" __global__ void cupp_random_transform_f64(double* out, long long n, cupp_random::philox_call call,
                                                     int dist, cupp_random::param a, cupp_random::param b,
                                                     cupp_random::param c, int vec) {
  using namespace cupp_random;
  const long long groups = (n + 1) / 2;
  const round_keys keys(call.k0, call.k1);
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    const long long e = 2 * g;
    double r[2];
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const long long i = e + k < n ? e + k : e;
      r[k] = transform(dist, to_double01(w.v[2 * k], w.v[2 * k + 1]), to_double_open(w.v[2 * k], w.v[2 * k + 1]),
                       a.at(i), b.at(i), c.at(i));
    }
    if (vec && e + 1 < n) {
      *reinterpret_cast<double2*>(out + e) = make_double2(r[0], r[1]);
    } else {
      for (int k = 0; k < 2 && e + k < n; ++k) out[e + k] = r[k];
    }
  }
}

namespace cupp_random {

// A float32 Box-Muller pair from two words: the radius sqrt(-2 ln u), u = to_float_radius(a) in
// (0, 1], by the SFU's log2 and reciprocal square root (one instruction each: the accurate logf and
// sqrtf cost about 30 FP32 instructions a pair, more than Philox's share). -2 ln u is then within
// 2.2e-7 absolute (log2's 2^-22.6 on [0.5, 2], CUDA's table) and 2 ulp relative, so the radius r is
// within min(4.7e-4, 2.2e-7 / r) + 2^-21 r of sqrt(-2 ln u): off by more than 2^-20 r only where r
// is below 0.5, and by at most 4.7e-4 near r = 0 (where float32's own grid of u near 1, steps of
// 2^-24, already spaces the radii 3.5e-4 apart). The angle is uniform on
// [-pi, pi) (the same law as [0, 2 pi)), __sincosf's range, error < 2^-21.
__device__ __forceinline__ void box_muller_f32(u32 a, u32 b, float& z0, float& z1) {
  const float t = -1.3862943611198906f * __log2f(to_float_radius(a));  // -2 ln u
  const float radius = t > 0.0f ? t * rsqrtf(t) : 0.0f;
  float s, c;
  __sincosf(3.14159265358979f * (2.0f * to_float_open(b) - 1.0f), &s, &c);
  z0 = radius * c;
  z1 = radius * s;
}

// A group's four float32 normals, loc + scale * z, from its words (two Box-Muller pairs).
__device__ __forceinline__ void normal4_f32(const u32x4& w, float loc, float scale, float r[4]) {
  box_muller_f32(w.v[0], w.v[1], r[0], r[1]);
  box_muller_f32(w.v[2], w.v[3], r[2], r[3]);
#pragma unroll
  for (int k = 0; k < 4; ++k) r[k] = loc + scale * r[k];
}

}  // namespace cupp_random

// Normals by Box-Muller: float32 four per counter (two pairs of words, box_muller_f32), float64 two
// per counter (a 53-bit radius and a 53-bit angle). loc + scale * z, exp of it for lognormal.
extern "C" __global__ void cupp_random_normal_f32(float* out, long long n, cupp_random::philox_call call, float loc,
                                                  float scale, int vec) {
  using namespace cupp_random;
  const long long groups = (n + 3) / 4;
  const round_keys keys(call.k0, call.k1);
  if (vec) {  // uniform_runs (the same words as draw()), then the partial group
    uniform_runs(reinterpret_cast<float4*>(out), (u64)n / 4, call, [loc, scale](float4* p, const u32x4& w) {
      float r[4];
      normal4_f32(w, loc, scale, r);
      *p = make_float4(r[0], r[1], r[2], r[3]);
    });
    if (n % 4 != 0 && blockIdx.x == 0 && threadIdx.x == 0) {
      float r[4];
      normal4_f32(draw(call, keys, (u64)(n / 4), 0), loc, scale, r);
      for (long long k = 0; k < n % 4; ++k) out[n / 4 * 4 + k] = r[k];
    }
    return;
  }
  CUPP_GRID_LOOP(g, groups) {
    const long long e = 4 * g;
    float r[4];
    normal4_f32(draw(call, keys, (u64)g, 0), loc, scale, r);
    if (vec && e + 3 < n) {
      *reinterpret_cast<float4*>(out + e) = make_float4(r[0], r[1], r[2], r[3]);
    } else {
      for (int k = 0; k < 4 && e + k < n; ++k) out[e + k] = r[k];
    }
  }
}

extern "C" __global__ void cupp_random_normal_f64(double* out, long long n, cupp_random::philox_call call,
                                                  cupp_random::param loc, cupp_random::param scale, int lognormal,
                                                  int vec) {
  using namespace cupp_random;
  const long long groups = (n + 1) / 2;
  const round_keys keys(call.k0, call.k1);
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    const long long e = 2 * g;
    const double u1 = (double)(((((u64)w.v[0] << 32) | w.v[1]) >> 11) + 1) * (1.0 / 9007199254740992.0);
    const double radius = sqrt(-2.0 * log(u1));
    double s, c;
    sincospi(2.0 * to_double01(w.v[2], w.v[3]), &s, &c);
    double r[2] = {radius * c, radius * s};
#pragma unroll
    for (int k = 0; k < 2; ++k) {
      const long long i = e + k < n ? e + k : e;
      r[k] = loc.at(i) + scale.at(i) * r[k];
      if (lognormal) r[k] = exp(r[k]);
    }
    if (vec && e + 1 < n) {
      *reinterpret_cast<double2*>(out + e) = make_double2(r[0], r[1]);
    } else {
      for (int k = 0; k < 2 && e + k < n; ++k) out[e + k] = r[k];
    }
  }
}

// Raw words: bytes (uint32, four per counter) and permutation keys (uint64, two per counter).
extern "C" __global__ void cupp_random_raw32(unsigned int* out, long long n, cupp_random::philox_call call) {
  using namespace cupp_random;
  const long long groups = (n + 3) / 4;
  const round_keys keys(call.k0, call.k1);
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    for (int k = 0; k < 4 && 4 * g + k < n; ++k) out[4 * g + k] = w.v[k];
  }
}

extern "C" __global__ void cupp_random_raw64(unsigned long long* out, long long n, cupp_random::philox_call call) {
  using namespace cupp_random;
  const long long groups = (n + 1) / 2;
  const round_keys keys(call.k0, call.k1);
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    for (int k = 0; k < 2 && 2 * g + k < n; ++k) out[2 * g + k] = ((u64)w.v[2 * k] << 32) | w.v[2 * k + 1];
  }
}

namespace cupp_random {

// Lemire's nearly divisionless bounded integers on [0, rng] (rng = high - low, closed), one
// candidate word (or word pair, wide) from the element's lane of counter (group, j).
__device__ __forceinline__ u64 lane_word(const philox_call& call, u64 g, u32 j, int lane, int wide,
                                         const u32x4& first) {
  const u32x4 w = j == 0 ? first : draw(call, g, j);
  return wide ? (((u64)w.v[2 * lane] << 32) | w.v[2 * lane + 1]) : (u64)w.v[lane];
}

__device__ __forceinline__ u64 bounded(const philox_call& call, u64 g, int lane, int wide, const u32x4& first,
                                       u64 rng, int broken) {
  if (rng == 0) return 0;
  u32 j = 0;
  if (!wide || rng <= 0xFFFFFFFFull) {
    // 32-bit Lemire on the lane's low word (wide groups use the pair's second word)
    if (rng == 0xFFFFFFFFull) return lane_word(call, g, 0, lane, wide, first) & 0xFFFFFFFFull;
    const u32 s = (u32)rng + 1u;
    u64 m = (u64)(u32)lane_word(call, g, j, lane, wide, first) * s;
    if (!broken && (u32)m < s) {
      const u32 t = (0u - s) % s;
      while ((u32)m < t) m = (u64)(u32)lane_word(call, g, ++j, lane, wide, first) * s;
    }
    return m >> 32;
  }
  if (rng == 0xFFFFFFFFFFFFFFFFull) return lane_word(call, g, 0, lane, wide, first);
  const u64 s = rng + 1;
  u64 x = lane_word(call, g, j, lane, wide, first);
  u64 lo = x * s;
  if (lo < s) {
    const u64 t = (0ull - s) % s;
    while (lo < t) {
      x = lane_word(call, g, ++j, lane, wide, first);
      lo = x * s;
    }
  }
  return __umul64hi(x, s);
}

}  // namespace cupp_random

namespace cupp_random {

// integers' general body: PER elements a group (4: 32-bit ranges, 2: 64-bit, wide), each its lane of
// the group's words, with array or scalar low and range. Fully unrolled over the lanes, so the
// values stay in registers (a loop bound of n spilled them to the stack: 48 bytes a thread).
template <int PER>
__device__ __forceinline__ void integers_general(void* out, long long n, const philox_call& call, const iparam& low,
                                                 const iparam& range, int itemsize, int broken, int vec) {
  const long long groups = (n + PER - 1) / PER;
  const int wide = PER == 2;
  const round_keys keys(call.k0, call.k1);
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 first = draw(call, keys, (u64)g, 0);
    const long long i0 = g * PER;
    u64 v[PER];
#pragma unroll
    for (int k = 0; k < PER; ++k) {
      const long long i = i0 + k < n ? i0 + k : i0;  // past the end: a harmless in-range read
      v[k] = low.at(i) + bounded(call, (u64)g, k, wide, first, range.at(i), broken);
    }
    if (i0 + PER <= n && vec) {  // a full group: 16-byte (or 8- / 4-byte) stores
      if (PER == 4) {
        switch (itemsize) {
          case 1: reinterpret_cast<unsigned int*>(static_cast<unsigned char*>(out) + i0)[0] =
                      (u32)(v[0] & 0xff) | (u32)(v[1] & 0xff) << 8 | (u32)(v[2 % PER] & 0xff) << 16 |
                      (u32)(v[3 % PER] & 0xff) << 24;
                  continue;
          case 2: *reinterpret_cast<uint2*>(static_cast<unsigned short*>(out) + i0) =
                      make_uint2((u32)(v[0] & 0xffff) | (u32)(v[1] & 0xffff) << 16,
                                 (u32)(v[2 % PER] & 0xffff) | (u32)(v[3 % PER] & 0xffff) << 16);
                  continue;
          case 4: *reinterpret_cast<uint4*>(static_cast<unsigned int*>(out) + i0) =
                      make_uint4((u32)v[0], (u32)v[1], (u32)v[2 % PER], (u32)v[3 % PER]);
                  continue;
          default: break;
        }
      }
      if (itemsize == 8) {
        reinterpret_cast<ulonglong2*>(static_cast<unsigned long long*>(out) + i0)[0] = make_ulonglong2(v[0], v[1]);
        if (PER == 4)
          reinterpret_cast<ulonglong2*>(static_cast<unsigned long long*>(out) + i0)[1] =
              make_ulonglong2(v[2 % PER], v[3 % PER]);
        continue;
      }
    }
#pragma unroll
    for (int k = 0; k < PER; ++k) {
      const long long i = i0 + k;
      if (i >= n) break;
      switch (itemsize) {
        case 1: static_cast<unsigned char*>(out)[i] = (unsigned char)v[k]; break;
        case 2: static_cast<unsigned short*>(out)[i] = (unsigned short)v[k]; break;
        case 4: static_cast<unsigned int*>(out)[i] = (unsigned int)v[k]; break;
        default: static_cast<unsigned long long*>(out)[i] = v[k]; break;
      }
    }
  }
}

// Lemire on one 32-bit word x for [0, s) (s = range + 1 in [1, 2^32 - 1]): the rare retry reads the
// lane's word of counter (g, j), j = 1, 2, ... (the same values as bounded()).
template <int LANE>
__device__ __forceinline__ u32 lemire32(u32 x, u32 s, const philox_call& call, u64 g, int broken) {
  u64 m = (u64)x * s;
  if ((u32)m < s && !broken) {
    const u32 t = (0u - s) % s;
    for (u32 j = 1; (u32)m < t; ++j) m = (u64)draw(call, g, j).v[LANE] * s;
  }
  return (u32)(m >> 32);
}

// The four values of group g for a scalar 32-bit range (range < 2^32 - 1) or the raw words (full).
__device__ __forceinline__ void integers32_group(const philox_call& call, const round_keys& keys, u64 g, u32 s,
                                                 int full, int broken, u32 r[4]) {
  const u32x4 w = draw(call, keys, g, 0);
  if (full) {
    r[0] = w.v[0], r[1] = w.v[1], r[2] = w.v[2], r[3] = w.v[3];
    return;
  }
  r[0] = lemire32<0>(w.v[0], s, call, g, broken);
  r[1] = lemire32<1>(w.v[1], s, call, g, broken);
  r[2] = lemire32<2>(w.v[2], s, call, g, broken);
  r[3] = lemire32<3>(w.v[3], s, call, g, broken);
}

// int64 (and uint64) outputs of integers32: a warp computes 32 adjacent groups (128 values, 1 KiB)
// and stores them as two fully coalesced 512-byte rows of 16-byte stores (lane l stores values
// 2l, 2l + 1 and 64 + 2l, 65 + 2l of the tile, which it takes from lanes l / 2 and 16 + l / 2 by
// shuffles), where each thread storing its own group's 32 bytes leaves every 32-byte sector of
// a store half written. shuffled = 0 (a test hook) stores each group's 32 bytes by its thread.
// Needs whole warps (blockDim.x a multiple of 32; the host launches only such blocks).
__device__ __forceinline__ void integers32_i64(unsigned long long* out, long long n, const philox_call& call,
                                               unsigned long long low, u32 s, int full, int broken, int shuffled) {
  const long long groups = (n + 3) / 4;
  const round_keys keys(call.k0, call.k1);
  const int lane = threadIdx.x & 31;
  const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
  const long long tiles = (groups + 31) / 32;
  for (long long t = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5; t < tiles; t += warps) {
    const long long g = 32 * t + lane;
    u32 r[4] = {0, 0, 0, 0};
    if (g < groups) integers32_group(call, keys, (u64)g, s, full, broken, r);
    const u64 v0 = low + r[0], v1 = low + r[1], v2 = low + r[2], v3 = low + r[3];
    unsigned long long* tile = out + 128 * t;
    if (128 * (t + 1) <= n) {  // a whole tile (the condition is the same for the warp's lanes)
      if (shuffled) {
        const int odd = lane & 1;
        int src = lane >> 1;
        u64 a0 = __shfl_sync(0xffffffffu, v0, src), a1 = __shfl_sync(0xffffffffu, v1, src);
        u64 a2 = __shfl_sync(0xffffffffu, v2, src), a3 = __shfl_sync(0xffffffffu, v3, src);
        reinterpret_cast<ulonglong2*>(tile)[lane] = odd ? make_ulonglong2(a2, a3) : make_ulonglong2(a0, a1);
        src += 16;
        a0 = __shfl_sync(0xffffffffu, v0, src), a1 = __shfl_sync(0xffffffffu, v1, src);
        a2 = __shfl_sync(0xffffffffu, v2, src), a3 = __shfl_sync(0xffffffffu, v3, src);
        reinterpret_cast<ulonglong2*>(tile)[32 + lane] = odd ? make_ulonglong2(a2, a3) : make_ulonglong2(a0, a1);
      } else {
        reinterpret_cast<ulonglong2*>(tile)[2 * lane] = make_ulonglong2(v0, v1);
        reinterpret_cast<ulonglong2*>(tile)[2 * lane + 1] = make_ulonglong2(v2, v3);
      }
      continue;
    }
    const u64 v[4] = {v0, v1, v2, v3};
#pragma unroll
    for (int k = 0; k < 4; ++k)
      if (4 * g + k < n) out[4 * g + k] = v[k];
  }
}

}  // namespace cupp_random

// integers: out[i] = low[i] + bounded(range[i]), stored in `itemsize` bytes (two's complement
// truncation gives every signed and unsigned dtype; bool is 0/1 in one byte). wide: 64-bit lanes.
// The general kernel (array bounds, 64-bit ranges); integers32 below takes scalar 32-bit ranges.
extern "C" __global__ void cupp_random_integers(void* out, long long n, cupp_random::philox_call call,
                                                cupp_random::iparam low, cupp_random::iparam range, int itemsize,
                                                int wide, int broken, int vec) {
  if (wide)
    cupp_random::integers_general<2>(out, n, call, low, range, itemsize, broken, vec);
  else
    cupp_random::integers_general<4>(out, n, call, low, range, itemsize, broken, vec);
}

// integers with a scalar low and a scalar range below 2^32 (the usual call): four values a counter,
// the same values as cupp_random_integers' narrow lanes, with no per-element parameter reads and
// Lemire's threshold computed only for the rare candidate below s. vec: out is 16-byte aligned;
// shuffled: int64 tiles stored through warp shuffles (integers32_i64).
extern "C" __global__ void cupp_random_integers32(void* out, long long n, cupp_random::philox_call call,
                                                  unsigned long long low, unsigned long long range, int itemsize,
                                                  int broken, int vec, int shuffled) {
  using namespace cupp_random;
  const int full = range == 0xFFFFFFFFull;
  const u32 s = (u32)range + 1u;
  if (itemsize == 8 && vec && (blockDim.x & 31) == 0) {
    integers32_i64(static_cast<unsigned long long*>(out), n, call, low, s, full, broken, shuffled);
    return;
  }
  const long long groups = (n + 3) / 4;
  const round_keys keys(call.k0, call.k1);
  const u32 lo = (u32)low;
  CUPP_GRID_LOOP(g, groups) {
    u32 r[4];
    integers32_group(call, keys, (u64)g, s, full, broken, r);
    const long long i0 = 4 * g;
    if (i0 + 4 <= n && vec) {
      switch (itemsize) {
        case 1: reinterpret_cast<unsigned int*>(static_cast<unsigned char*>(out) + i0)[0] =
                    ((lo + r[0]) & 0xff) | ((lo + r[1]) & 0xff) << 8 | ((lo + r[2]) & 0xff) << 16 | (lo + r[3]) << 24;
                continue;
        case 2: *reinterpret_cast<uint2*>(static_cast<unsigned short*>(out) + i0) =
                    make_uint2(((lo + r[0]) & 0xffff) | (lo + r[1]) << 16, ((lo + r[2]) & 0xffff) | (lo + r[3]) << 16);
                continue;
        case 4: *reinterpret_cast<uint4*>(static_cast<unsigned int*>(out) + i0) =
                    make_uint4(lo + r[0], lo + r[1], lo + r[2], lo + r[3]);
                continue;
        default:
          reinterpret_cast<ulonglong2*>(static_cast<unsigned long long*>(out) + i0)[0] =
              make_ulonglong2(low + r[0], low + r[1]);
          reinterpret_cast<ulonglong2*>(static_cast<unsigned long long*>(out) + i0)[1] =
              make_ulonglong2(low + r[2], low + r[3]);
          continue;
      }
    }
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      const long long i = i0 + k;
      if (i >= n) break;
      const u64 v = low + r[k];
      switch (itemsize) {
        case 1: static_cast<unsigned char*>(out)[i] = (unsigned char)v; break;
        case 2: static_cast<unsigned short*>(out)[i] = (unsigned short)v; break;
        case 4: static_cast<unsigned int*>(out)[i] = (unsigned int)v; break;
        default: static_cast<unsigned long long*>(out)[i] = v; break;
      }
    }
  }
}

// choice without replacement: out[t] = pi(t), pi philox.cuh's feistel permutation.
extern "C" __global__ void cupp_random_choice_feistel(long long* out, long long k, cupp_random::feistel f) {
  CUPP_GRID_LOOP(t, k) out[t] = (long long)cupp_random::feistel_permute(f, (cupp_random::u64)t);
}

// A parameter array's facts for NumPy's constraint messages: bits of check_bits (sampling.hpp).
extern "C" __global__ void cupp_random_check(const double* p, long long n, unsigned int* flags) {
  CUPP_GRID_LOOP(i, n) {
    const double v = p[i];
    unsigned int bits = 0;
    if (v != v) bits |= 1u;                            // NaN
    else {
      if (__double_as_longlong(v) < 0) bits |= 2u;    // < 0 or -0.0
      if (v <= 0) bits |= 4u;
      if (v > 1) bits |= 8u;
      if (v >= 1) bits |= 16u;
      if (v < 1) bits |= 32u;
      if (v <= 1) bits |= 64u;
      if (v > 9.223372006484771e18) bits |= 128u;     // NumPy's POISSON_LAM_MAX
      if (v < 0) bits |= 256u;
    }
    if (bits) atomicOr(flags, bits);
  }
}
