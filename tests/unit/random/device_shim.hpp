// Test support: what the random module's device code (random/device/cupp/random/*.cuh) needs to
// compile as host C++, so tests/unit/random/test_kernels_host.cpp can run its kernels on the CPU
// without a GPU: CUDA's qualifiers as nothing, the vector types, the intrinsics by their libm
// twins (__sincosf as sincosf: the device's is within 2^-21), and blockIdx/threadIdx/blockDim/
// gridDim as variables the test sets to walk a grid (per OS thread), and warp shuffles between
// OS threads. Include it, then the .cuh files, inside one
// namespace (the vector types must not meet CUDA's own in another translation unit).
#pragma once
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
struct d3 { unsigned x = 0, y = 0, z = 0; };
// Per OS thread, so a test can also run a block's threads as real threads (warps, below).
inline thread_local d3 blockIdx, threadIdx, blockDim{1, 1, 1}, gridDim{1, 1, 1};
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct uint2 { unsigned x, y; };
struct uint4 { unsigned x, y, z, w; };
struct ulonglong2 { unsigned long long x, y; };
inline float4 make_float4(float a, float b, float c, float d) { return {a, b, c, d}; }
inline double2 make_double2(double a, double b) { return {a, b}; }
inline uint2 make_uint2(unsigned a, unsigned b) { return {a, b}; }
inline uint4 make_uint4(unsigned a, unsigned b, unsigned c, unsigned d) { return {a, b, c, d}; }
inline ulonglong2 make_ulonglong2(unsigned long long a, unsigned long long b) { return {a, b}; }
inline void sincospif(float x, float* s, float* c) { *s = std::sin(float(M_PI) * x); *c = std::cos(float(M_PI) * x); }
inline void sincospi(double x, double* s, double* c) { *s = std::sin(M_PI * x); *c = std::cos(M_PI * x); }
inline double cospi(double x) { return std::cos(M_PI * x); }
inline void __sincosf(float x, float* s, float* c) { *s = std::sin(x); *c = std::cos(x); }
inline float __log2f(float x) { return std::log2(x); }   // the SFU's: abs error < 2^-22 on [0.5, 2]
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) { return (unsigned long long)(((__uint128_t)a * b) >> 64); }
inline long long __double_as_longlong(double d) { long long v; std::memcpy(&v, &d, 8); return v; }
// Warp shuffles: a test that runs a block's threads as OS threads (test_kernels_host.cpp's
// run_warps) gives each warp of 32 a warp_context; every lane publishes its value, waits for the
// others, reads lane src's, and waits again (so the slots are reused safely). Only whole warps
// whose 32 lanes all reach each shuffle (the kernels' shuffles sit in warp-uniform loops). A
// shuffle outside run_warps (the sequential run_grid) throws.
struct warp_context {
  std::barrier<>* bar;
  unsigned long long slot[32];
};
inline thread_local warp_context* this_warp = nullptr;
template <class T>
T __shfl_sync(unsigned, T v, int src) {
  if (this_warp == nullptr) throw std::logic_error("__shfl_sync outside an emulated warp");
  this_warp->slot[threadIdx.x & 31] = static_cast<unsigned long long>(v);
  this_warp->bar->arrive_and_wait();
  const T r = static_cast<T>(this_warp->slot[src & 31]);
  this_warp->bar->arrive_and_wait();
  return r;
}
inline unsigned atomicOr(unsigned* p, unsigned v) { unsigned o = *p; *p |= v; return o; }
using std::log1p; using std::log; using std::exp; using std::expm1; using std::pow; using std::sqrt; using std::tan;
using std::lgamma; using std::floor; using std::ceil; using std::fabs; using std::fmod; using std::acos; using std::cos;
inline float log1pf(float x) { return std::log1p(x); }
