// The sparse module's own SpGEMM, C = A @ B for canonical int32-indexed CSR operands of one float or
// complex dtype (embedded as cupp/sparse/spgemm.cuh; src/own_spgemm.cpp drives it). Row by row,
// three steps:
//   bound: ub[i] = the number of products row i makes (the lengths of B's rows that A's row names),
//     a warp a row;
//   count: the row's products' columns gathered, sorted (bitonic: a warp's rows in registers, a
//     block's in shared memory), the distinct ones counted into counts[i];
//   fill: the products (column, their order) and values gathered and sorted by column, then each
//     column's run summed in the order of A's entries (SciPy's csr_matmat order: bitwise
//     repeatable, no atomics on values) and written at C's indptr[i], columns ascending.
// Rows of at most CUPP_SPGEMM_WARP_CAP products take a warp each (the `_warp` kernels, which skip
// the others; the products spread over the lanes by a scan of the B row lengths), rows up to
// CUPP_SPGEMM_BLOCK_CAP a block each (the `_block` kernels, over a list of those rows); a product
// with a longer row goes to cuSPARSE (the host checks the bound first). Explicit zeros of the sums
// are kept, as cuSPARSE's SpGEMM keeps them.
// The source defines CUPP_SPARSE_T (float, double, float2, double2), CUPP_SPGEMM_WARP_CAP and
// CUPP_SPGEMM_BLOCK_CAP (powers of two; the host sizes the block cap by the element size so the
// static shared memory stays under 48 KiB).
#pragma once

#if !defined(CUPP_SPARSE_T) || !defined(CUPP_SPGEMM_WARP_CAP) || !defined(CUPP_SPGEMM_BLOCK_CAP)
#error "define CUPP_SPARSE_T, CUPP_SPGEMM_WARP_CAP and CUPP_SPGEMM_BLOCK_CAP before including cupp/sparse/spgemm.cuh"
#endif
#if CUPP_SPGEMM_WARP_CAP < 32 || CUPP_SPGEMM_WARP_CAP > 256
#error "the warp kernels sort 32 to 256 keys in registers: CUPP_SPGEMM_WARP_CAP from 32 to 256"
#endif

namespace cupp_sparse_spgemm {

constexpr int warp_threads = 128;   // 4 rows (warps) a block
constexpr int block_threads = 256;  // one row a block
constexpr unsigned full = 0xffffffffu;
typedef unsigned long long key64;

__device__ __forceinline__ float mul(float a, float b) { return a * b; }
__device__ __forceinline__ double mul(double a, double b) { return a * b; }
__device__ __forceinline__ float2 mul(float2 a, float2 b) {
  float2 r;
  r.x = a.x * b.x - a.y * b.y;
  r.y = a.x * b.y + a.y * b.x;
  return r;
}
__device__ __forceinline__ double2 mul(double2 a, double2 b) {
  double2 r;
  r.x = a.x * b.x - a.y * b.y;
  r.y = a.x * b.y + a.y * b.x;
  return r;
}
__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ double add(double a, double b) { return a + b; }
__device__ __forceinline__ float2 add(float2 a, float2 b) {
  float2 r;
  r.x = a.x + b.x;
  r.y = a.y + b.y;
  return r;
}
__device__ __forceinline__ double2 add(double2 a, double2 b) {
  double2 r;
  r.x = a.x + b.x;
  r.y = a.y + b.y;
  return r;
}
__device__ __forceinline__ float shfl(float v, int from) { return __shfl_sync(full, v, from); }
__device__ __forceinline__ double shfl(double v, int from) { return __shfl_sync(full, v, from); }
__device__ __forceinline__ float2 shfl(float2 v, int from) {
  v.x = __shfl_sync(full, v.x, from);
  v.y = __shfl_sync(full, v.y, from);
  return v;
}
__device__ __forceinline__ double2 shfl(double2 v, int from) {
  v.x = __shfl_sync(full, v.x, from);
  v.y = __shfl_sync(full, v.y, from);
  return v;
}

struct block_sync {
  __device__ __forceinline__ void operator()() const { __syncthreads(); }
};

// The smallest power of two >= x (x >= 1).
__device__ __forceinline__ int pow2_at_least(int x) {
  int s = 1;
  while (s < x) s <<= 1;
  return s;
}

// Sorts key[0 .. s) ascending (s a power of two), moving val with its key when V is not void:
// bitonic, `threads` threads taking the compare-exchange pairs, `sync` between the stages. The
// caller syncs before (the keys written) and the last stage syncs after.
template <class K, class V, class Sync>
__device__ void bitonic_sort(K* key, V* val, int s, int tid, int threads, Sync sync) {
  for (int k = 2; k <= s; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int t = tid; t < (s >> 1); t += threads) {
        const int i = ((t & ~(j - 1)) << 1) | (t & (j - 1)), l = i + j;  // the pair (i, i + j); j a power of two
        const K a = key[i], b = key[l];
        const bool ascending = (i & k) == 0;
        if ((a > b) == ascending) {
          key[i] = b;
          key[l] = a;
          if (val) {
            const V v = val[i];
            val[i] = val[l];
            val[l] = v;
          }
        }
      }
      sync();
    }
}

// A warp's bitonic sort of 32 * E keys held in registers, position g = e * 32 + lane holding x[e]
// (so loads and stores of key[g] are conflict-free): pairs of positions up to 16 apart meet by
// __shfl_xor_sync, pairs 32 and more apart inside one lane. Every lane runs it. Nothing moves with
// the keys (fill's keys carry their value's position), so equal keys need no tie rule.
template <class K>
__device__ __forceinline__ K key_min(K a, K b) {
  return b < a ? b : a;
}
template <class K>
__device__ __forceinline__ K key_max(K a, K b) {
  return a < b ? b : a;
}
template <class K, int E>
__device__ void warp_sort_registers(K (&x)[E], int lane) {
#pragma unroll
  for (int k = 2; k <= 32 * E; k <<= 1) {
#pragma unroll
    for (int j = k >> 1; j > 0; j >>= 1) {
      if (j >= 32) {
        const int je = j / 32;
#pragma unroll
        for (int e = 0; e < E; ++e) {
          if ((e & je) == 0) {
            const bool ascending = ((e * 32 + lane) & k) == 0;
            const K a = x[e], b = x[e | je];
            x[e] = ascending ? key_min(a, b) : key_max(a, b);
            x[e | je] = ascending ? key_max(a, b) : key_min(a, b);
          }
        }
      } else {
#pragma unroll
        for (int e = 0; e < E; ++e) {
          const K y = __shfl_xor_sync(full, x[e], j);
          const bool ascending = ((e * 32 + lane) & k) == 0, lower = (lane & j) == 0;
          x[e] = lower == ascending ? key_min(x[e], y) : key_max(x[e], y);
        }
      }
    }
  }
}

template <class K, int E>
__device__ void warp_sort_through_registers(K* key, int lane) {
  K x[E];
#pragma unroll
  for (int e = 0; e < E; ++e) x[e] = key[e * 32 + lane];
  warp_sort_registers<K, E>(x, lane);
#pragma unroll
  for (int e = 0; e < E; ++e) key[e * 32 + lane] = x[e];
  __syncwarp();
}

// Sorts a warp's key[0 .. s) ascending in place (s a power of two from 32 to 256, the caller's
// padding written and synced), through registers; synced after.
template <class K>
__device__ void warp_sort(K* key, int s, int lane) {
  if (s <= 32)
    warp_sort_through_registers<K, 1>(key, lane);
  else if (s <= 64)
    warp_sort_through_registers<K, 2>(key, lane);
  else if (s <= 128)
    warp_sort_through_registers<K, 4>(key, lane);
  else
    warp_sort_through_registers<K, 8>(key, lane);
}

// Row i's products, spread over a warp's lanes: for each product q (0 .. ub), in the order of A's
// entries and then of B's, put(q, column, value of A's entry, position in B). Every lane runs the
// loops (the shuffles need the whole warp).
template <class Put>
__device__ void warp_products(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                              const CUPP_SPARSE_T* __restrict__ a_dat, const int* __restrict__ b_ptr,
                              const int* __restrict__ b_ind, long long i, int lane, Put put) {
  const int a0 = a_ptr[i], a1 = a_ptr[i + 1];
  int done = 0;  // products of the earlier chunks
  for (int e0 = a0; e0 < a1; e0 += 32) {
    const int e = e0 + lane;
    int start = 0, len = 0;
    CUPP_SPARSE_T av{};
    if (e < a1) {
      const int j = a_ind[e];
      start = b_ptr[j];
      len = b_ptr[j + 1] - start;
      if (a_dat) av = a_dat[e];
    }
    int incl = len;  // inclusive scan of the lengths over the lanes
    for (int o = 1; o < 32; o <<= 1) {
      const int v = __shfl_up_sync(full, incl, o);
      if (lane >= o) incl += v;
    }
    const int total = __shfl_sync(full, incl, 31), excl = incl - len;
    for (int q0 = 0; q0 < total; q0 += 32) {
      const int q = q0 + lane;
      // the owner: the last lane whose first product is <= q
      int r = 0;
      for (int step = 16; step > 0; step >>= 1) {
        const int ex = __shfl_sync(full, excl, r + step);
        if (ex <= q) r += step;
      }
      const int owner_start = __shfl_sync(full, start, r), owner_excl = __shfl_sync(full, excl, r);
      const CUPP_SPARSE_T owner_val = shfl(av, r);
      if (q < total) put(done + q, owner_start + (q - owner_excl), owner_val);
    }
    done += total;
  }
}

// The number of heads (flag set) before this warp lane's position and in all, over 32 positions.
__device__ __forceinline__ int lanes_before(unsigned mask, int lane) { return __popc(mask & ((1u << lane) - 1u)); }

}  // namespace cupp_sparse_spgemm

// ub[i] = sum over A's row i of the lengths of the B rows it names; a warp a row.
extern "C" __global__ void cupp_sparse_spgemm_bound(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                                                    const int* __restrict__ b_ptr, long long m, long long* ub) {
  const int lane = threadIdx.x & 31;
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x / 32) + threadIdx.x / 32; i < m; i += warps) {
    long long s = 0;
    for (int e = a_ptr[i] + lane; e < a_ptr[i + 1]; e += 32) {
      const int j = a_ind[e];
      s += b_ptr[j + 1] - b_ptr[j];
    }
    for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(cupp_sparse_spgemm::full, s, o);
    if (lane == 0) ub[i] = s;
  }
}

// counts[i] = the distinct columns of row i's products, for the rows of at most WARP_CAP products
// (the others are left to cupp_sparse_spgemm_count_block).
extern "C" __global__ void __launch_bounds__(cupp_sparse_spgemm::warp_threads)
    cupp_sparse_spgemm_count_warp(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                                  const int* __restrict__ b_ptr, const int* __restrict__ b_ind,
                                  const long long* __restrict__ ub, long long m, int* counts) {
  using namespace cupp_sparse_spgemm;
  __shared__ unsigned cols_all[warp_threads / 32][CUPP_SPGEMM_WARP_CAP];
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  unsigned* cols = cols_all[w];
  const long long warps = static_cast<long long>(gridDim.x) * (warp_threads / 32);
  for (long long i = blockIdx.x * static_cast<long long>(warp_threads / 32) + w; i < m; i += warps) {
    const long long n = ub[i];
    if (n > CUPP_SPGEMM_WARP_CAP) continue;
    if (n == 0) {
      if (lane == 0) counts[i] = 0;
      continue;
    }
    const int s = pow2_at_least(n < 32 ? 32 : static_cast<int>(n));
    warp_products(a_ptr, a_ind, static_cast<const CUPP_SPARSE_T*>(nullptr), b_ptr, b_ind, i, lane,
                  [&](int q, int bpos, CUPP_SPARSE_T) { cols[q] = static_cast<unsigned>(b_ind[bpos]); });
    for (int q = static_cast<int>(n) + lane; q < s; q += 32) cols[q] = 0xffffffffu;
    __syncwarp();
    warp_sort(cols, s, lane);
    int distinct = 0;
    for (int q0 = 0; q0 < n; q0 += 32) {
      const int q = q0 + lane;
      const bool head = q < n && (q == 0 || cols[q] != cols[q - 1]);
      distinct += __popc(__ballot_sync(full, head));
    }
    if (lane == 0) counts[i] = distinct;
    __syncwarp();  // cols is rewritten for the warp's next row
  }
}

// counts[rows[r]] for the listed rows (more than WARP_CAP products, at most BLOCK_CAP): a block a
// row, its warps taking A's entries in turn and their lanes the B row's.
extern "C" __global__ void __launch_bounds__(cupp_sparse_spgemm::block_threads)
    cupp_sparse_spgemm_count_block(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                                   const int* __restrict__ b_ptr, const int* __restrict__ b_ind,
                                   const long long* __restrict__ ub, const long long* __restrict__ rows,
                                   long long nrows, int* counts) {
  using namespace cupp_sparse_spgemm;
  __shared__ unsigned cols[CUPP_SPGEMM_BLOCK_CAP];
  __shared__ int filled, distinct;
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32, nw = block_threads / 32;
  for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {
    const long long i = rows[r];
    const int n = static_cast<int>(ub[i]), s = pow2_at_least(n);
    if (threadIdx.x == 0) filled = 0, distinct = 0;
    __syncthreads();
    for (int e = a_ptr[i] + w; e < a_ptr[i + 1]; e += nw) {
      const int j = a_ind[e], start = b_ptr[j], len = b_ptr[j + 1] - start;
      for (int t0 = 0; t0 < len; t0 += 32) {
        int base = 0;
        if (lane == 0) base = atomicAdd(&filled, len - t0 < 32 ? len - t0 : 32);
        base = __shfl_sync(full, base, 0);
        if (t0 + lane < len) cols[base + lane] = static_cast<unsigned>(b_ind[start + t0 + lane]);
      }
    }
    for (int q = n + threadIdx.x; q < s; q += block_threads) cols[q] = 0xffffffffu;
    __syncthreads();
    bitonic_sort(cols, static_cast<int*>(nullptr), s, threadIdx.x, block_threads, block_sync{});
    int mine = 0;
    for (int q = threadIdx.x; q < n; q += block_threads) mine += q == 0 || cols[q] != cols[q - 1];
    for (int o = 16; o > 0; o >>= 1) mine += __shfl_xor_sync(full, mine, o);
    if (lane == 0) atomicAdd(&distinct, mine);
    __syncthreads();
    if (threadIdx.x == 0) counts[i] = distinct;
    __syncthreads();
  }
}

namespace cupp_sparse_spgemm {

// fill's sort keys: a product's column above its place q in the row (below WARP_CAP), so a
// column's run comes in A's entry order and the key names its value. 32 bits when B has fewer
// than 2^24 columns (the column in the top 24 bits, q in the low 8: half the shuffles), else 64.
struct narrow_key {
  typedef unsigned type;
  static __device__ __forceinline__ type make(unsigned col, int q) { return (col << 8) | static_cast<unsigned>(q); }
  static __device__ __forceinline__ unsigned col(type k) { return k >> 8; }
  static __device__ __forceinline__ unsigned pos(type k) { return k & 0xffu; }
};
struct wide_key {
  typedef key64 type;
  static __device__ __forceinline__ type make(unsigned col, int q) {
    return (static_cast<key64>(col) << 32) | static_cast<unsigned>(q);
  }
  static __device__ __forceinline__ unsigned col(type k) { return static_cast<unsigned>(k >> 32); }
  static __device__ __forceinline__ unsigned pos(type k) { return static_cast<unsigned>(k); }
};

// fill_warp's work for one row i (n products, 1 .. WARP_CAP), keys and vals the warp's buffers.
template <class Key>
__device__ void fill_warp_row(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                              const CUPP_SPARSE_T* __restrict__ a_dat, const int* __restrict__ b_ptr,
                              const int* __restrict__ b_ind, const CUPP_SPARSE_T* __restrict__ b_dat, long long i,
                              int n, long long out, int* c_ind, CUPP_SPARSE_T* c_dat, typename Key::type* keys,
                              CUPP_SPARSE_T* vals, int lane) {
  typedef typename Key::type K;
  const int s = pow2_at_least(n < 32 ? 32 : n);
  warp_products(a_ptr, a_ind, a_dat, b_ptr, b_ind, i, lane, [&](int q, int bpos, CUPP_SPARSE_T av) {
    keys[q] = Key::make(static_cast<unsigned>(b_ind[bpos]), q);
    vals[q] = mul(av, b_dat[bpos]);
  });
  for (int q = n + lane; q < s; q += 32) keys[q] = ~K{0};
  __syncwarp();
  warp_sort(keys, s, lane);
  int heads = 0;  // runs that start before this chunk
  for (int q0 = 0; q0 < n; q0 += 32) {
    const int q = q0 + lane;
    const unsigned col = q < n ? Key::col(keys[q]) : 0u;
    const bool head = q < n && (q == 0 || Key::col(keys[q - 1]) != col);
    const unsigned mask = __ballot_sync(full, head);
    if (head) {
      CUPP_SPARSE_T sum = vals[Key::pos(keys[q])];
      for (int t = q + 1; t < n && Key::col(keys[t]) == col; ++t) sum = add(sum, vals[Key::pos(keys[t])]);
      const long long at = out + heads + lanes_before(mask, lane);
      c_ind[at] = static_cast<int>(col);
      c_dat[at] = sum;
    }
    heads += __popc(mask);
  }
  __syncwarp();  // keys and vals are rewritten for the warp's next row
}

}  // namespace cupp_sparse_spgemm

// C's columns and values of the rows of at most WARP_CAP products, at c_ptr[i] (int64). narrow:
// B has fewer than 2^24 columns (32-bit sort keys).
extern "C" __global__ void __launch_bounds__(cupp_sparse_spgemm::warp_threads)
    cupp_sparse_spgemm_fill_warp(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                                 const CUPP_SPARSE_T* __restrict__ a_dat, const int* __restrict__ b_ptr,
                                 const int* __restrict__ b_ind, const CUPP_SPARSE_T* __restrict__ b_dat,
                                 const long long* __restrict__ ub, long long m, const long long* __restrict__ c_ptr,
                                 int* c_ind, CUPP_SPARSE_T* c_dat, int narrow) {
  using namespace cupp_sparse_spgemm;
  __shared__ key64 keys_all[warp_threads / 32][CUPP_SPGEMM_WARP_CAP];  // narrow keys use its first half
  __shared__ CUPP_SPARSE_T vals_all[warp_threads / 32][CUPP_SPGEMM_WARP_CAP];
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32;
  CUPP_SPARSE_T* vals = vals_all[w];
  const long long warps = static_cast<long long>(gridDim.x) * (warp_threads / 32);
  for (long long i = blockIdx.x * static_cast<long long>(warp_threads / 32) + w; i < m; i += warps) {
    const long long n = ub[i];
    if (n == 0 || n > CUPP_SPGEMM_WARP_CAP) continue;
    if (narrow)
      fill_warp_row<narrow_key>(a_ptr, a_ind, a_dat, b_ptr, b_ind, b_dat, i, static_cast<int>(n), c_ptr[i], c_ind,
                                c_dat, reinterpret_cast<unsigned*>(keys_all[w]), vals, lane);
    else
      fill_warp_row<wide_key>(a_ptr, a_ind, a_dat, b_ptr, b_ind, b_dat, i, static_cast<int>(n), c_ptr[i], c_ind,
                              c_dat, keys_all[w], vals, lane);
  }
}

// C's columns and values of the listed rows (more than WARP_CAP products, at most BLOCK_CAP).
extern "C" __global__ void __launch_bounds__(cupp_sparse_spgemm::block_threads)
    cupp_sparse_spgemm_fill_block(const int* __restrict__ a_ptr, const int* __restrict__ a_ind,
                                  const CUPP_SPARSE_T* __restrict__ a_dat, const int* __restrict__ b_ptr,
                                  const int* __restrict__ b_ind, const CUPP_SPARSE_T* __restrict__ b_dat,
                                  const long long* __restrict__ ub, const long long* __restrict__ rows,
                                  long long nrows, const long long* __restrict__ c_ptr, int* c_ind,
                                  CUPP_SPARSE_T* c_dat) {
  using namespace cupp_sparse_spgemm;
  __shared__ key64 keys[CUPP_SPGEMM_BLOCK_CAP];
  __shared__ CUPP_SPARSE_T vals[CUPP_SPGEMM_BLOCK_CAP];
  __shared__ int filled, warp_heads[block_threads / 32];
  const int lane = threadIdx.x & 31, w = threadIdx.x / 32, nw = block_threads / 32;
  for (long long r = blockIdx.x; r < nrows; r += gridDim.x) {
    const long long i = rows[r];
    const int n = static_cast<int>(ub[i]), s = pow2_at_least(n);
    const int a0 = a_ptr[i];
    if (threadIdx.x == 0) filled = 0;
    __syncthreads();
    // key: the column above the A entry's place in its row (one product per (column, A entry))
    for (int e = a0 + w; e < a_ptr[i + 1]; e += nw) {
      const int j = a_ind[e], start = b_ptr[j], len = b_ptr[j + 1] - start;
      const CUPP_SPARSE_T av = a_dat[e];
      for (int t0 = 0; t0 < len; t0 += 32) {
        int base = 0;
        if (lane == 0) base = atomicAdd(&filled, len - t0 < 32 ? len - t0 : 32);
        base = __shfl_sync(full, base, 0);
        if (t0 + lane < len) {
          const int bpos = start + t0 + lane;
          keys[base + lane] = (static_cast<key64>(static_cast<unsigned>(b_ind[bpos])) << 32) |
                              static_cast<unsigned>(e - a0);
          vals[base + lane] = mul(av, b_dat[bpos]);
        }
      }
    }
    for (int q = n + threadIdx.x; q < s; q += block_threads) keys[q] = ~key64{0};
    __syncthreads();
    bitonic_sort(keys, vals, s, threadIdx.x, block_threads, block_sync{});
    const long long out = c_ptr[i];
    int heads = 0;  // runs that start before this chunk
    for (int q0 = 0; q0 < n; q0 += block_threads) {
      const int q = q0 + threadIdx.x;
      const unsigned col = q < n ? static_cast<unsigned>(keys[q] >> 32) : 0u;
      const bool head = q < n && (q == 0 || static_cast<unsigned>(keys[q - 1] >> 32) != col);
      const unsigned mask = __ballot_sync(full, head);
      if (lane == 0) warp_heads[w] = __popc(mask);
      __syncthreads();
      int before = heads, chunk = 0;
      for (int v = 0; v < nw; ++v) {
        if (v < w) before += warp_heads[v];
        chunk += warp_heads[v];
      }
      if (head) {
        CUPP_SPARSE_T sum = vals[q];
        for (int t = q + 1; t < n && static_cast<unsigned>(keys[t] >> 32) == col; ++t) sum = add(sum, vals[t]);
        const long long at = out + before + lanes_before(mask, lane);
        c_ind[at] = static_cast<int>(col);
        c_dat[at] = sum;
      }
      heads += chunk;
      __syncthreads();  // warp_heads is rewritten by the next chunk
    }
  }
}
