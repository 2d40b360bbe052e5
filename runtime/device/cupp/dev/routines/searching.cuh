// The searching family's kernels (runtime/src/routines/searching/searching.cpp and sets.cpp),
// one program per element dtype: NumPy's sort order (NaN last, complex lexicographic) and
// equality, binary searches (searchsorted, isin, histogram), neighbour flags (unique, the set
// routines), counting kernels and dtype-free int64 helpers (launched from the int64 program), and
// the error state of a bad sorter index. The including source defines, after
// <cupp/dev/prelude.cuh>:
//   T                 the element's device type
//   cupp_end_block    the end signal's device half (compiler/report_word.hpp's kEndSignalDeviceSource)
#pragma once

#include <cupp/dev/launch.cuh>

// [0] set when a value was bad, [1] one bad value.
extern "C" __device__ unsigned long long cupp_search_state[2] = {0ull, 0ull};
// The report word in mapped pinned host memory (compiler/report_word.hpp), set with the state.
extern "C" __device__ unsigned int* cupp_search_flag = nullptr;

// NumPy's sort order (npysort's LT): NaN last; complex lexicographic, a NaN part sorting last.
template <class X>
__device__ inline bool ss_lt(X a, X b) { return a < b; }
__device__ inline bool ss_lt(float a, float b) { return a < b || (b != b && a == a); }
__device__ inline bool ss_lt(double a, double b) { return a < b || (b != b && a == a); }
__device__ inline bool ss_lt(__half a, __half b) { return ss_lt(__half2float(a), __half2float(b)); }
__device__ inline bool ss_lt(__nv_bfloat16 a, __nv_bfloat16 b) { return ss_lt(__bfloat162float(a), __bfloat162float(b)); }
template <class R>
__device__ inline bool ss_lt(cupp::dev::complex<R> a, cupp::dev::complex<R> b) {
  if (a.re < b.re) return a.im == a.im || b.im != b.im;
  if (a.re > b.re) return b.im != b.im && a.im == a.im;
  if (a.re == b.re || (a.re != a.re && b.re != b.re)) return a.im < b.im || (b.im != b.im && a.im == a.im);
  return b.re != b.re;
}
// NumPy's == (NaN unequal to everything).
template <class X>
__device__ inline bool ss_eq(X a, X b) { return a == b; }
__device__ inline bool ss_eq(__half a, __half b) { return __half2float(a) == __half2float(b); }
__device__ inline bool ss_eq(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
template <class R>
__device__ inline bool ss_eq(cupp::dev::complex<R> a, cupp::dev::complex<R> b) { return a.re == b.re && a.im == b.im; }

extern "C" __global__ void cupp_searchsorted(const T* a, long long n, const long long* sorter, const T* v,
                                             long long nv, long long* out, int right, unsigned int* end_counter,
                                             unsigned int* end_word) {
  CUPP_GRID_LOOP(i, nv) {
    const T key = v[i];
    long long lo = 0, hi = n;
    while (lo < hi) {
      const long long mid = lo + ((hi - lo) >> 1);
      long long k = mid;
      if (sorter) {
        k = sorter[mid];
        if (k < 0 || k >= n) {
          if (cupp_search_state[0] == 0ull && cupp_search_flag) *cupp_search_flag = 1u;  // a few writes, not one each
          cupp_search_state[1] = (unsigned long long)k;
          cupp_search_state[0] = 1ull;
          __threadfence_system();  // before the block's end signal
          break;
        }
      }
      const T x = a[k];
      if (right ? !ss_lt(key, x) : ss_lt(x, key)) lo = mid + 1; else hi = mid;
    }
    out[i] = lo;
  }
  cupp_end_block(end_counter, end_word);
}

extern "C" __global__ void cupp_unique_flags(const T* aux, long long n, unsigned char* flag, int equal_nan) {
  CUPP_GRID_LOOP(i, n) {
    bool f = true;
    if (i > 0) {
      if (equal_nan && cupp::dev::isnan(aux[i])) f = !cupp::dev::isnan(aux[i - 1]);
      else f = !ss_eq(aux[i], aux[i - 1]);
    }
    flag[i] = f;
  }
}

extern "C" __global__ void cupp_isin(const T* x, long long n, const T* t, long long nt, unsigned char* out, int invert) {
  CUPP_GRID_LOOP(i, n) {
    const T key = x[i];
    long long lo = 0, hi = nt;
    while (lo < hi) {
      const long long mid = lo + ((hi - lo) >> 1);
      if (ss_lt(t[mid], key)) lo = mid + 1; else hi = mid;
    }
    const bool found = lo < nt && ss_eq(t[lo], key);
    out[i] = found != (invert != 0);
  }
}

extern "C" __global__ void cupp_xor_flags(const T* aux, long long n, unsigned char* flag) {
  CUPP_GRID_LOOP(i, n) {
    const bool left = i == 0 || !ss_eq(aux[i], aux[i - 1]);
    const bool right = i == n - 1 || !ss_eq(aux[i + 1], aux[i]);
    flag[i] = left && right;
  }
}

extern "C" __global__ void cupp_adjacent_equal(const T* aux, long long n, unsigned char* flag) {
  CUPP_GRID_LOOP(i, n - 1) flag[i] = ss_eq(aux[i], aux[i + 1]);
}

// Bin j holds edges[j] <= x < edges[j+1]; the last bin also x == edges[ne-1]. wkind 0: counts,
// 1: real weights (one double each), 2: complex weights (two doubles each).
extern "C" __global__ void cupp_histogram(const T* x, long long n, const T* edges, long long ne, const double* w,
                                          int wkind, unsigned long long* counts, double* sums) {
  const long long nb = ne - 1;
  CUPP_GRID_LOOP(i, n) {
    const T key = x[i];
    if (cupp::dev::isnan(key)) continue;
    long long lo = 0, hi = ne;
    while (lo < hi) {
      const long long mid = lo + ((hi - lo) >> 1);
      if (ss_lt(key, edges[mid])) hi = mid; else lo = mid + 1;
    }
    long long j = lo - 1;
    if (j < 0) continue;
    if (j >= nb) {
      if (ss_lt(edges[nb], key)) continue;
      j = nb - 1;
    }
    if (wkind == 0) atomicAdd(&counts[j], 1ull);
    else if (wkind == 1) atomicAdd(&sums[j], w[i]);
    else {
      atomicAdd(&sums[2 * j], w[2 * i]);
      atomicAdd(&sums[2 * j + 1], w[2 * i + 1]);
    }
  }
}

extern "C" __global__ void cupp_minmax(const long long* x, long long n, long long* mm) {
  long long lo = 0x7fffffffffffffffll, hi = -0x7fffffffffffffffll - 1;
  CUPP_GRID_LOOP(i, n) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  atomicMin(&mm[0], lo);
  atomicMax(&mm[1], hi);
}

extern "C" __global__ void cupp_bincount(const long long* x, long long n, const double* w, unsigned long long* counts,
                                         double* sums) {
  CUPP_GRID_LOOP(i, n) {
    if (w) atomicAdd(&sums[x[i]], w[i]);
    else atomicAdd(&counts[x[i]], 1ull);
  }
}

extern "C" __global__ void cupp_scatter(const long long* idx, const long long* val, long long n, long long* out) {
  CUPP_GRID_LOOP(i, n) out[idx[i]] = val[i];
}

extern "C" __global__ void cupp_run_counts(const long long* pos, long long m, long long n, long long* out) {
  CUPP_GRID_LOOP(k, m) out[k] = (k + 1 < m ? pos[k + 1] : n) - pos[k];
}

// unique along an axis: n sorted rows of m elements (C order), flag preset to zeros. A thread per
// element: flag[0] is set, and row i's flag where one of its elements differs (NumPy's !=, so a NaN
// differs from everything) from the element above it. Several threads may set one flag (all 1s).
// m == 0: every row is empty and equal, only flag[0] (the launch has one thread).
extern "C" __global__ void cupp_row_flags(const T* aux, long long n, long long m, unsigned char* flag) {
  const long long total = m > 0 ? n * m : 1;
  CUPP_GRID_LOOP(k, total) {
    if (k == 0) flag[0] = 1;
    if (m > 0 && k >= m && !ss_eq(aux[k], aux[k - m])) flag[k / m] = 1;
  }
}
