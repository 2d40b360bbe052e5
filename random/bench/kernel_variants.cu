// A microbenchmark of the random module's generation kernels and candidate variants of them (not
// part of the build: random/bench/build-variants.sh compiles it with nvcc for the GPU run). It
// includes the production kernels (kernels.cuh) and times them, with CUDA-event medians, under the
// launch shapes a host can choose (one wave of 8 blocks of 256 per SM, the occupancy calculator's
// resident blocks, more), next to variants: two counter groups per thread and iteration (more
// independent work per thread), round keys computed on the fly instead of held, and Box-Muller with
// the SFU's log2 and rsqrt; Generator.random's fast path (uniform_runs: counter_run's 17-multiply
// Philox) in production and on its own kernel (launch shapes, the bit-built conversions, stepped or
// multiplied m0 * lo, two groups a thread), float32 and float64, a call that wraps the counter's
// low word, odd sizes. Each uniform's whole output is compared word for word with the general
// path's (element stores: draw() per group), the normals with production's by their largest
// difference (bit for bit where the arithmetic is the same), and the
// write floor of the same bytes is measured in the same run (cudaMemsetAsync and a float4 store).
// Prints "VARIANT name ms floor_fraction regs blocks_per_sm" lines.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <cupp/random/kernels.cuh>

#include "bit_conversions.cuh"

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

using namespace cupp_random;

// Keys on the fly: the same words as round_keys (a register-light alternative).
__device__ __forceinline__ u32x4 draw_fly(const philox_call& call, u64 g) {
  const u64 lo = ((u64)call.c1 << 32 | call.c0) + g;
  const u32 c2 = call.c2 + (lo < g ? 1u : 0u);
  return philox4x32_10((u32)lo, (u32)(lo >> 32), c2, 0u, call.k0, call.k1);
}

// to_float01_bits / to_double01_bits (bit_conversions.cuh): NumPy's conversions without I2F, the same values.
template <int ILP, bool HELD, bool STREAM = false, bool CONV = false>
__global__ void uniform_f32(float* out, long long n, philox_call call) {
  const long long groups = (n + 3) / 4;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const round_keys keys(call.k0, call.k1);
  for (long long g0 = blockIdx.x * (long long)blockDim.x + threadIdx.x; g0 < groups; g0 += ILP * stride) {
    u32x4 w[ILP];
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
      const long long g = g0 + u * stride;
      if (g < groups) w[u] = HELD ? draw(call, keys, (u64)g, 0) : draw_fly(call, (u64)g);
    }
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
      const long long g = g0 + u * stride;
      if (g >= groups) break;
      const long long e = 4 * g;
      const float4 r = CONV ? make_float4(to_float01_bits(w[u].v[0]), to_float01_bits(w[u].v[1]),
                                          to_float01_bits(w[u].v[2]), to_float01_bits(w[u].v[3]))
                            : make_float4(to_float01(w[u].v[0]), to_float01(w[u].v[1]), to_float01(w[u].v[2]),
                                          to_float01(w[u].v[3]));
      if (e + 3 < n) {
        if (STREAM) __stcs(reinterpret_cast<float4*>(out + e), r);
        else *reinterpret_cast<float4*>(out + e) = r;
      } else {
        const float rr[4] = {r.x, r.y, r.z, r.w};
        for (int k = 0; k < 4 && e + k < n; ++k) out[e + k] = rr[k];
      }
    }
  }
}

// MATH 0: logf and sqrtf (production); 1: __log2f and x * rsqrtf(x); 2: logf and rsqrtf.
template <int MATH>
__device__ __forceinline__ void box_muller(u32 a, u32 b, float& z0, float& z1) {
  const float u = to_float_radius(a);
  float t;
  if (MATH == 1) t = -1.3862943611198906f * __log2f(u);  // -2 ln u
  else t = -2.0f * logf(u);
  float radius;
  if (MATH == 0) radius = sqrtf(t);
  else radius = t > 0.0f ? t * rsqrtf(t) : 0.0f;
  float s, c;
  __sincosf(3.14159265358979f * (2.0f * to_float_open(b) - 1.0f), &s, &c);
  z0 = radius * c;
  z1 = radius * s;
}

template <int ILP, int MATH>
__global__ void normal_f32(float* out, long long n, philox_call call, float loc, float scale) {
  const long long groups = (n + 3) / 4;
  const long long stride = (long long)gridDim.x * blockDim.x;
  const round_keys keys(call.k0, call.k1);
  for (long long g0 = blockIdx.x * (long long)blockDim.x + threadIdx.x; g0 < groups; g0 += ILP * stride) {
    u32x4 w[ILP];
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
      const long long g = g0 + u * stride;
      if (g < groups) w[u] = draw(call, keys, (u64)g, 0);
    }
#pragma unroll
    for (int u = 0; u < ILP; ++u) {
      const long long g = g0 + u * stride;
      if (g >= groups) break;
      const long long e = 4 * g;
      float r[4];
      box_muller<MATH>(w[u].v[0], w[u].v[1], r[0], r[1]);
      box_muller<MATH>(w[u].v[2], w[u].v[3], r[2], r[3]);
#pragma unroll
      for (int k = 0; k < 4; ++k) r[k] = loc + scale * r[k];
      if (e + 3 < n) {
        *reinterpret_cast<float4*>(out + e) = make_float4(r[0], r[1], r[2], r[3]);
      } else {
        for (int k = 0; k < 4 && e + k < n; ++k) out[e + k] = r[k];
      }
    }
  }
}

// int64 integers on [low, low + range] for a scalar 32-bit range: Lemire on each word, the rare
// retry on the lane's counter (group, j) as the production kernel (the same outputs), no
// per-element parameter reads.
__global__ void integers_i64(long long* out, long long n, philox_call call, long long low, u32 range) {
  const long long groups = n / 4;  // n a multiple of 4 here
  const round_keys keys(call.k0, call.k1);
  const u32 s = range + 1u;
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    long long v[4];
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      u64 m = (u64)w.v[k] * s;
      if ((u32)m < s) {
        const u32 t = (0u - s) % s;
        for (u32 j = 1; (u32)m < t; ++j) m = (u64)draw(call, (u64)g, j).v[k] * s;
      }
      v[k] = low + (long long)(m >> 32);
    }
    reinterpret_cast<longlong2*>(out + 4 * g)[0] = make_longlong2(v[0], v[1]);
    reinterpret_cast<longlong2*>(out + 4 * g)[1] = make_longlong2(v[2], v[3]);
  }
}

// Philox alone (the words XORed, one store per thread): the integer pipes' bound on the kernels.
__global__ void philox_only(unsigned* out, long long groups, philox_call call) {
  const round_keys keys(call.k0, call.k1);
  u32 acc = 0;
  CUPP_GRID_LOOP(g, groups) {
    const u32x4 w = draw(call, keys, (u64)g, 0);
    acc ^= w.v[0] ^ w.v[1] ^ w.v[2] ^ w.v[3];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// counter_run's Philox alone (one run, m0 * lo stepped; the words XORed, one store per thread): the
// fast path's compute bound, beside philox_only's.
__global__ void philox_runs_only(unsigned* out, long long groups, philox_call call) {
  u32 acc = 0;
  uniform_runs(reinterpret_cast<uint4*>(0), (u64)groups, call,
               [&acc](uint4*, const u32x4& w) { acc ^= w.v[0] ^ w.v[1] ^ w.v[2] ^ w.v[3]; });
  out[(u64)blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void store_floor(float4* out, long long n4) {
  CUPP_GRID_LOOP(i, n4) out[i] = make_float4(1.f, 1.f, 1.f, 1.f);
}

// The int64 integers' store pattern alone: each thread two 16-byte stores of its own 32 bytes (a
// warp's store instruction half-fills 32 sectors), the same bytes as store_floor.
__global__ void store_floor_strided32(float4* out, long long n4) {
  CUPP_GRID_LOOP(i, n4 / 2) {
    out[2 * i] = make_float4(1.f, 1.f, 1.f, 1.f);
    out[2 * i + 1] = make_float4(1.f, 1.f, 1.f, 1.f);
  }
}

__global__ void store_floor_stream(float4* out, long long n4) {
  CUPP_GRID_LOOP(i, n4) __stcs(out + i, make_float4(1.f, 1.f, 1.f, 1.f));
}

// Generator.random's fast path (kernels.cuh's uniform_runs: counter_run's 17-multiply Philox, words
// 1 and 2 fixed per run, m0 * lo stepped) on its own kernel, for the launch shapes and conversions:
// CONV 0 NumPy's (x >> 8) * 2^-24 by I2F (production), 1 from the float's bits (to_float01_bits);
// STEP false: m0 * lo multiplied for every group instead of stepped; ILP 2: two groups a thread and
// iteration. n a multiple of 4 (no partial group).
template <int CONV>
__device__ __forceinline__ float4 to_float4(const u32x4& w) {
  return CONV ? make_float4(to_float01_bits(w.v[0]), to_float01_bits(w.v[1]), to_float01_bits(w.v[2]),
                            to_float01_bits(w.v[3]))
              : make_float4(to_float01(w.v[0]), to_float01(w.v[1]), to_float01(w.v[2]), to_float01(w.v[3]));
}
template <int CONV, bool STEP, int ILP, bool STREAM = false>
__global__ void fast_f32(float* out, long long n, philox_call call) {
  float4* const out4 = reinterpret_cast<float4*>(out);
  const u64 full = (u64)n / 4;
  if (STREAM) {  // streaming stores (st.global.cs)
    uniform_runs<ILP>(out4, full, call, [](float4* p, const u32x4& w) { __stcs(p, to_float4<CONV>(w)); });
    return;
  }
  if (STEP) {
    uniform_runs<ILP>(out4, full, call, [](float4* p, const u32x4& w) { *p = to_float4<CONV>(w); });
    return;
  }
  const u64 stride = (u64)gridDim.x * blockDim.x;
  const u64 t = (u64)blockIdx.x * blockDim.x + threadIdx.x;
  for (u64 r = 0; r < run_count(call, full); ++r) {
    const run_span s = run_at(call, full, r);
    const counter_run cr(call.k0, call.k1, s.c1, s.c2);
    for (u64 g = s.begin + t; g < s.end; g += stride)
      out4[g] = to_float4<CONV>(cr.words((u64)philox_m0 * (u32)(s.lo0 + (u32)(g - s.begin))));
  }
}

template <int CONV, int ILP>
__global__ void fast_f64(double* out, long long n, philox_call call) {
  uniform_runs<ILP>(reinterpret_cast<double2*>(out), (u64)n / 2, call, [](double2* p, const u32x4& w) {
    *p = CONV ? make_double2(to_double01_bits(w.v[0], w.v[1]), to_double01_bits(w.v[2], w.v[3]))
              : make_double2(to_double01(w.v[0], w.v[1]), to_double01(w.v[2], w.v[3]));
  });
}

// Words of a and b that differ (the bit-exactness check over a whole output).
__global__ void count_diff(const unsigned* a, const unsigned* b, long long n, unsigned long long* bad) {
  unsigned long long c = 0;
  CUPP_GRID_LOOP(i, n) c += a[i] != b[i] ? 1 : 0;
  if (c) atomicAdd(bad, c);
}

namespace {

int sms = 0;

double median_ms(const std::function<void()>& f, int reps = 20) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  CHECK(cudaGetLastError());
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(a));
  CHECK(cudaEventDestroy(b));
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

struct shape {
  int blocks, regs, per_sm;
};
template <class K>
shape shape_of(K kernel, int threads, int grid_mode) {
  cudaFuncAttributes attr{};
  CHECK(cudaFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel)));
  int per_sm = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reinterpret_cast<const void*>(kernel), threads, 0));
  // grid_mode 0: 8 blocks per SM (the module's launch before); 1: resident blocks; 2: 4x resident
  const int blocks = grid_mode == 0 ? 8 * sms : grid_mode == 1 ? per_sm * sms : 4 * per_sm * sms;
  return {blocks, attr.numRegs, per_sm};
}

void report(const char* name, double ms, double floor_ms, const shape& s) {
  std::printf("VARIANT %-40s %8.4f ms  %.3f of floor  regs %d  resident %d/SM  grid %d\n", name, ms, floor_ms / ms,
              s.regs, s.per_sm, s.blocks);
  std::fflush(stdout);
}

unsigned long long differing_words(const void* a, const void* b, long long words) {
  static unsigned long long* bad = nullptr;
  if (!bad) CHECK(cudaMalloc(&bad, sizeof *bad));
  CHECK(cudaMemset(bad, 0, sizeof *bad));
  count_diff<<<4 * sms, 256>>>(static_cast<const unsigned*>(a), static_cast<const unsigned*>(b), words, bad);
  unsigned long long h = 0;
  CHECK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  return h;
}

std::vector<float> host(const float* d, long long n) {
  std::vector<float> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

}  // namespace

int main(int argc, char** argv) {
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  const long long n = 1ll << 28;
  float *out = nullptr, *ref = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&ref, n * sizeof(float)));
  const philox_call call{0x12345678u, 0x9abcdef0u, 77u, 0u, 0u};
  if (argc > 1 && std::string(argv[1]) == "once") {  // each key kernel once, for ncu
    const shape su = shape_of(cupp_random_transform_f32, 256, 1);
    cupp_random_transform_f32<<<su.blocks, 256>>>(out, n, call, 0, 1);
    const shape s1 = shape_of(uniform_f32<1, true, true, true>, 256, 1);
    uniform_f32<1, true, true, true><<<s1.blocks, 256>>>(out, n, call);
    const shape si = shape_of(cupp_random_integers32, 256, 1);
    for (int shuffled : {0, 1})
      cupp_random_integers32<<<si.blocks, 256>>>(out, n / 2, call, 0ull, 999999ull, 8, 0, 1, shuffled);
    store_floor<<<4 * sms * 8, 256>>>(reinterpret_cast<float4*>(out), n / 4);
    store_floor_strided32<<<4 * sms * 8, 256>>>(reinterpret_cast<float4*>(out), n / 4);
    const shape sp = shape_of(philox_only, 256, 1);
    philox_only<<<sp.blocks, 256>>>(reinterpret_cast<unsigned*>(ref), n / 4, call);
    CHECK(cudaDeviceSynchronize());
    return 0;
  }
  const double memset_ms = median_ms([&] { CHECK(cudaMemsetAsync(out, 0, n * 4)); });
  const double store_ms = median_ms([&] { store_floor<<<4 * sms * 8, 256>>>(reinterpret_cast<float4*>(out), n / 4); });
  const double floor_ms = std::min(memset_ms, store_ms);
  std::printf("VARIANT floor memset %.4f ms, float4 store %.4f ms, SMs %d\n", memset_ms, store_ms, sms);
  std::printf("VARIANT floor float4 streaming store %.4f ms, two float4 a thread (32-byte stride) %.4f ms\n",
              median_ms([&] { store_floor_stream<<<4 * sms * 8, 256>>>(reinterpret_cast<float4*>(out), n / 4); }),
              median_ms([&] { store_floor_strided32<<<4 * sms * 8, 256>>>(reinterpret_cast<float4*>(out), n / 4); }));

  {
    const shape s = shape_of(philox_only, 256, 1);
    report("philox only (2^26 counters, no stores)",
           median_ms([&] { philox_only<<<s.blocks, 256>>>(reinterpret_cast<unsigned*>(ref), n / 4, call); }), floor_ms, s);
    for (int mode : {1, 2}) {
      const shape r = shape_of(philox_runs_only, 256, mode);
      char name[96];
      std::snprintf(name, sizeof name, "philox counter_run only (no stores) grid%d", mode);
      report(name, median_ms([&] { philox_runs_only<<<r.blocks, 256>>>(reinterpret_cast<unsigned*>(ref), n / 4, call); }),
             floor_ms, r);
    }
  }
  // the reference for every uniform variant: the production kernel's general path (element stores,
  // vec = 0: draw() per group, 20 multiplies), before the fast path; every variant's whole output
  // (2^28 floats) is compared with it word for word
  cupp_random_transform_f32<<<8 * sms, 256>>>(ref, n, call, 0, 0);
  CHECK(cudaDeviceSynchronize());
  auto same_u = [&](const char* name) {
    const unsigned long long bad = differing_words(out, ref, n);
    std::printf("VARIANT %s: %llu of 2^28 words differ from the general path%s\n", name, bad,
                bad ? " (OUTPUT DIFFERS)" : "");
  };

  for (int mode : {0, 1, 2}) {
    for (int threads : {256, 512}) {
      const shape s = shape_of(cupp_random_transform_f32, threads, mode);
      char name[96];
      std::snprintf(name, sizeof name, "prod.random_f32 grid%d t%d", mode, threads);
      report(name, median_ms([&] { cupp_random_transform_f32<<<s.blocks, threads>>>(out, n, call, 0, 1); }), floor_ms, s);
      same_u(name);
    }
  }
#define UVAR(ILP, HELD)                                                                              \
  for (int mode : {1, 2}) {                                                                          \
    const shape s = shape_of(uniform_f32<ILP, HELD>, 256, mode);                                     \
    char name[96];                                                                                   \
    std::snprintf(name, sizeof name, "uniform ilp%d %s grid%d", ILP, HELD ? "held" : "fly", mode);    \
    report(name, median_ms([&] { uniform_f32<ILP, HELD><<<s.blocks, 256>>>(out, n, call); }), floor_ms, s); \
    same_u(name);                                                                                    \
  }
  UVAR(1, true) UVAR(2, true) UVAR(4, true) UVAR(1, false) UVAR(2, false)
#define UVAR2(ILP, STREAM, CONV)                                                                                   \
  for (int mode : {1}) {                                                                                           \
    const shape s = shape_of(uniform_f32<ILP, true, STREAM, CONV>, 256, mode);                                    \
    char name[96];                                                                                                 \
    std::snprintf(name, sizeof name, "uniform ilp%d held%s%s grid%d", ILP, STREAM ? " stcs" : "",                 \
                  CONV ? " bitconv" : "", mode);                                                                   \
    report(name, median_ms([&] { uniform_f32<ILP, true, STREAM, CONV><<<s.blocks, 256>>>(out, n, call); }), floor_ms, \
           s);                                                                                                     \
    same_u(name);                                                                                                  \
  }
  UVAR2(1, true, false) UVAR2(1, false, true) UVAR2(1, true, true) UVAR2(2, true, true)

  // the fast path on its own (fast_f32): shapes, conversions, stepping, ILP
#define FVAR(CONV, STEP, ILP, THREADS, MODE)                                                                   \
  {                                                                                                            \
    const shape s = shape_of(fast_f32<CONV, STEP, ILP>, THREADS, MODE);                                       \
    char name[96];                                                                                             \
    std::snprintf(name, sizeof name, "fast%s%s%s t%d grid%d", CONV ? " bitconv" : "", STEP ? "" : " nostep",    \
                  ILP == 2 ? " ilp2" : "", THREADS, MODE);                                                     \
    report(name, median_ms([&] { fast_f32<CONV, STEP, ILP><<<s.blocks, THREADS>>>(out, n, call); }), floor_ms, s); \
    same_u(name);                                                                                              \
  }
  FVAR(0, true, 1, 256, 1) FVAR(0, true, 1, 256, 2) FVAR(0, true, 1, 512, 1) FVAR(0, true, 1, 512, 2)
  FVAR(0, true, 1, 1024, 1) FVAR(1, true, 1, 256, 1) FVAR(1, true, 1, 256, 2) FVAR(0, false, 1, 256, 1)
  FVAR(0, false, 1, 256, 2) FVAR(0, true, 2, 256, 1) FVAR(0, true, 2, 256, 2) FVAR(0, true, 2, 512, 1)
  FVAR(1, true, 2, 256, 1)
  {
    const shape s = shape_of(fast_f32<0, true, 1, true>, 256, 1);
    report("fast stcs t256 grid1", median_ms([&] { fast_f32<0, true, 1, true><<<s.blocks, 256>>>(out, n, call); }),
           floor_ms, s);
    same_u("fast stcs t256 grid1");
  }
  {  // a call whose groups wrap the counter's low word and carry into word 2 (two runs)
    const philox_call wrap{0x12345678u, 0x9abcdef0u, 0xffffffffu - (1u << 25), 0xffffffffu, 5u};
    cupp_random_transform_f32<<<8 * sms, 256>>>(ref, n, wrap, 0, 0);
    for (int mode : {0, 1}) {
      const shape s = shape_of(cupp_random_transform_f32, 256, mode);
      char name[96];
      std::snprintf(name, sizeof name, "prod.random_f32 wrapping call grid%d", mode);
      report(name, median_ms([&] { cupp_random_transform_f32<<<s.blocks, 256>>>(out, n, wrap, 0, 1); }), floor_ms, s);
      same_u(name);
    }
    // odd sizes (a partial group) against the general path on the same call
    for (long long m : {n - 1, n - 3, 1000001ll}) {
      cupp_random_transform_f32<<<8 * sms, 256>>>(ref, m, wrap, 0, 0);
      cupp_random_transform_f32<<<8 * sms, 256>>>(out, m, wrap, 0, 1);
      std::printf("VARIANT prod.random_f32 n=%lld (partial group): %llu values differ from the general path\n", m,
                  differing_words(out, ref, m));
    }
  }

  // normals: the reference is the production kernel's general path (element stores, vec = 0);
  // production (vec = 1) takes uniform_runs, and must differ by 0
  cupp_random_normal_f32<<<8 * sms, 256>>>(ref, n, call, 0.0f, 1.0f, 0);
  CHECK(cudaDeviceSynchronize());
  const std::vector<float> nref = host(ref, 1 << 20);
  auto diff_n = [&](const char* name) {
    const std::vector<float> got = host(out, 1 << 20);
    double worst = 0;
    long long bad = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      const double d = std::fabs((double)got[i] - nref[i]);
      if (!(d <= 1e-3)) ++bad;
      worst = std::max(worst, d);
    }
    std::printf("VARIANT %s: largest |difference| from production %.3g, %lld over 1e-3 (or NaN)\n", name, worst, bad);
  };
  for (int mode : {0, 1, 2}) {
    const shape s = shape_of(cupp_random_normal_f32, 256, mode);
    char name[96];
    std::snprintf(name, sizeof name, "prod.standard_normal_f32 grid%d", mode);
    report(name, median_ms([&] { cupp_random_normal_f32<<<s.blocks, 256>>>(out, n, call, 0.0f, 1.0f, 1); }), floor_ms,
           s);
    diff_n(name);
    std::printf("VARIANT %s: %llu of 2^28 words differ from the general path\n", name, differing_words(out, ref, n));
  }
#define NVAR(ILP, MATH)                                                                                        \
  for (int mode : {1, 2}) {                                                                                    \
    const shape s = shape_of(normal_f32<ILP, MATH>, 256, mode);                                                \
    char name[96];                                                                                             \
    std::snprintf(name, sizeof name, "normal ilp%d math%d grid%d", ILP, MATH, mode);                           \
    report(name, median_ms([&] { normal_f32<ILP, MATH><<<s.blocks, 256>>>(out, n, call, 0.0f, 1.0f); }), floor_ms, s); \
    diff_n(name);                                                                                              \
  }
  NVAR(1, 0) NVAR(2, 0) NVAR(1, 1) NVAR(2, 1) NVAR(1, 2) NVAR(2, 2)

  // float64 uniforms and int64 integers (the production kernels under each grid)
  double* out64 = reinterpret_cast<double*>(out);  // 2^27 doubles fit; time 2^27 (half the bytes of 2^28)
  for (int mode : {0, 1, 2}) {
    const shape s = shape_of(cupp_random_transform_f64, 256, mode);
    char name[96];
    std::snprintf(name, sizeof name, "prod.random_f64_2^27 grid%d", mode);
    const param z{nullptr, 0.0};
    report(name, median_ms([&] { cupp_random_transform_f64<<<s.blocks, 256>>>(out64, n / 2, call, 0, z, z, z, 1); }),
           floor_ms, s);
  }
  {  // Generator.random float64's own kernel (uniform_runs) and the bit-built conversion, each output
     // (2^27 doubles) against the general transform's element stores
    const param z{nullptr, 0.0};
    cupp_random_transform_f64<<<8 * sms, 256>>>(reinterpret_cast<double*>(ref), n / 2, call, 0, z, z, z, 0);
    for (int mode : {0, 1, 2}) {
      for (int threads : {256, 512}) {
        const shape s = shape_of(cupp_random_uniform_f64, threads, mode);
        char name[96];
        std::snprintf(name, sizeof name, "prod.uniform_f64_2^27 grid%d t%d", mode, threads);
        report(name, median_ms([&] { cupp_random_uniform_f64<<<s.blocks, threads>>>(out64, n / 2, call); }), floor_ms, s);
        same_u(name);
      }
    }
#define DVAR(CONV, ILP)                                                                                      \
  for (int mode : {1, 2}) {                                                                                  \
    const shape s = shape_of(fast_f64<CONV, ILP>, 256, mode);                                               \
    char name[96];                                                                                           \
    std::snprintf(name, sizeof name, "fast_f64_2^27%s ilp%d grid%d", CONV ? " bitconv" : "", ILP, mode);     \
    report(name, median_ms([&] { fast_f64<CONV, ILP><<<s.blocks, 256>>>(out64, n / 2, call); }), floor_ms, s); \
    same_u(name);                                                                                            \
  }
    DVAR(1, 1) DVAR(0, 2) DVAR(1, 2)
    for (long long m : {n / 2 - 1, 999999ll}) {
      cupp_random_transform_f64<<<8 * sms, 256>>>(reinterpret_cast<double*>(ref), m, call, 0, z, z, z, 0);
      cupp_random_uniform_f64<<<8 * sms, 256>>>(out64, m, call);
      std::printf("VARIANT prod.uniform_f64 n=%lld (odd): %llu words differ from the general path\n", m,
                  differing_words(out, ref, 2 * m));
    }
  }
  for (int mode : {0, 1, 2}) {
    const shape s = shape_of(cupp_random_integers, 256, mode);
    char name[96];
    std::snprintf(name, sizeof name, "prod.integers_i64_2^27 grid%d", mode);
    const iparam low{nullptr, 0}, range{nullptr, 999999};
    report(name, median_ms([&] { cupp_random_integers<<<s.blocks, 256>>>(out, n / 2, call, low, range, 8, 0, 0, 1); }),
           floor_ms, s);
  }
  {
    const iparam low{nullptr, 0}, range{nullptr, 999999};
    cupp_random_integers<<<8 * sms, 256>>>(ref, n / 2, call, low, range, 8, 0, 0, 1);
    for (int mode : {1, 2}) {
      const shape s = shape_of(integers_i64, 256, mode);
      char name[96];
      std::snprintf(name, sizeof name, "integers_i64_2^27 scalar grid%d", mode);
      report(name, median_ms([&] { integers_i64<<<s.blocks, 256>>>(reinterpret_cast<long long*>(out), n / 2, call, 0, 999999u); }),
             floor_ms, s);
      std::vector<float> a = host(ref, 1 << 20), b = host(out, 1 << 20);
      if (a != b) std::printf("VARIANT %s: OUTPUT DIFFERS from the production kernel\n", name);
    }
  }
  {
    const iparam low{nullptr, 0}, range{nullptr, 999999};
    cupp_random_integers<<<8 * sms, 256>>>(ref, n / 2, call, low, range, 8, 0, 0, 1);
    CHECK(cudaDeviceSynchronize());
    const std::vector<float> iref = host(ref, 1 << 20);
    for (int shuffled : {0, 1})
      for (int mode : {1, 2}) {
        const shape s = shape_of(cupp_random_integers32, 256, mode);
        char name[96];
        std::snprintf(name, sizeof name, "prod.integers32_i64_2^27 %s grid%d", shuffled ? "shuffled" : "own32B", mode);
        report(name, median_ms([&] {
                 cupp_random_integers32<<<s.blocks, 256>>>(out, n / 2, call, 0ull, 999999ull, 8, 0, 1, shuffled);
               }),
               floor_ms, s);
        if (host(out, 1 << 20) != iref) std::printf("VARIANT %s: OUTPUT DIFFERS from the general kernel\n", name);
      }
    const shape s = shape_of(cupp_random_integers32, 256, 1);
    report("prod.integers32_i32_2^27 (half the bytes)", median_ms([&] {
             cupp_random_integers32<<<s.blocks, 256>>>(out, n / 2, call, 0ull, 999999ull, 4, 0, 1, 1);
           }),
           floor_ms / 2, s);
  }
  {  // choice(2^24, 2^20, replace=False): the Feistel permutation's first 2^20 images
    feistel f{};
    f.a = 1ull << 24;
    f.lbits = 12;
    f.rbits = 12;
    for (int k = 0; k < 2 * feistel_rounds; ++k) f.keys[k] = 0x9E3779B9u * (k + 1);
    const shape s = shape_of(cupp_random_choice_feistel, 256, 1);
    const long long k = 1ll << 20;
    report("prod.choice_feistel 2^20 of 2^24",
           median_ms([&] { cupp_random_choice_feistel<<<s.blocks, 256>>>(reinterpret_cast<long long*>(out), k, f); }),
           0.0, s);
    std::vector<long long> got(k);
    CHECK(cudaMemcpy(got.data(), out, k * 8, cudaMemcpyDeviceToHost));
    std::vector<char> seen(1 << 24, 0);
    long long bad = 0;
    for (long long i = 0; i < k; ++i) {
      if (got[i] < 0 || got[i] >= (1 << 24) || seen[got[i]]) ++bad;
      else seen[got[i]] = 1;
      if (i < 4096 && got[i] != (long long)feistel_permute(f, (u64)i)) ++bad;
    }
    std::printf("VARIANT choice_feistel: %lld repeated, out of range or unlike the host\n", bad);
  }
  for (int mode : {0, 1}) {
    const shape s = shape_of(cupp_random_normal_f64, 256, mode);
    char name[96];
    std::snprintf(name, sizeof name, "prod.standard_normal_f64_2^27 grid%d", mode);
    const param loc{nullptr, 0.0}, scale{nullptr, 1.0};
    report(name, median_ms([&] { cupp_random_normal_f64<<<s.blocks, 256>>>(out64, n / 2, call, loc, scale, 0, 1); }),
           floor_ms, s);
  }
  CHECK(cudaFree(out));
  CHECK(cudaFree(ref));
  return 0;
}
