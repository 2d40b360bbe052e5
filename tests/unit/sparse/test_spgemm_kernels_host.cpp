// The module's own SpGEMM kernels (sparse/device/cupp/sparse/spgemm.cuh, float64) run on the CPU:
// the header compiled as host C++ under a small emulation of what it uses from CUDA (a std::thread
// per CUDA thread, one block at a time; std::barrier for __syncthreads, and per warp for
// __syncwarp and the exchanges of __shfl_sync / __shfl_up_sync / __shfl_xor_sync / __ballot_sync,
// which every lane of a warp runs; static storage for __shared__), driven as own_spgemm.cpp drives
// them: bound, count (warp rows and the listed block rows), the scan, fill. Checked against a
// host product summing each column in A's entry order, bit for bit: the row bounds, C's indptr,
// its sorted columns and its values, on rows with more than 32 entries (the warp's chunks), rows
// naming empty B rows, empty rows, and rows past the warp cap (the block kernels). No GPU needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace cupp_spgemm_cpu {

struct emu_dim {
  unsigned x = 1, y = 1, z = 1;
};
thread_local emu_dim threadIdx;
emu_dim blockIdx, blockDim, gridDim;
std::unique_ptr<std::barrier<>> block_barrier;
struct warp_state {
  std::unique_ptr<std::barrier<>> barrier;
  std::array<std::uint64_t, 32> slot{};
};
std::vector<warp_state> warps;

struct float2 {
  float x, y;
};
struct double2 {
  double x, y;
};

inline int lane_id() { return static_cast<int>(threadIdx.x % 32); }
inline warp_state& my_warp() { return warps[threadIdx.x / 32]; }

// Every lane writes its value, all meet, each reads lane `from`'s, all meet again.
template <class T>
T exchange(T v, int from) {
  static_assert(sizeof(T) <= 8);
  warp_state& w = my_warp();
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  w.slot[lane_id()] = bits;
  w.barrier->arrive_and_wait();
  T out;
  std::memcpy(&out, &w.slot[from & 31], sizeof out);
  w.barrier->arrive_and_wait();
  return out;
}

void __syncthreads() { block_barrier->arrive_and_wait(); }
void __syncwarp() { my_warp().barrier->arrive_and_wait(); }
template <class T>
T __shfl_sync(unsigned, T v, int from) {
  return exchange(v, from);
}
template <class T>
T __shfl_up_sync(unsigned, T v, unsigned delta) {
  const int lane = lane_id();
  return exchange(v, lane >= static_cast<int>(delta) ? lane - static_cast<int>(delta) : lane);
}
template <class T>
T __shfl_xor_sync(unsigned, T v, int mask) {
  return exchange(v, lane_id() ^ mask);
}
unsigned __ballot_sync(unsigned, bool pred) {
  warp_state& w = my_warp();
  w.slot[lane_id()] = pred ? 1 : 0;
  w.barrier->arrive_and_wait();
  unsigned mask = 0;
  for (int l = 0; l < 32; ++l) mask |= static_cast<unsigned>(w.slot[l]) << l;
  w.barrier->arrive_and_wait();
  return mask;
}
int __popc(unsigned x) { return std::popcount(x); }
int atomicAdd(int* p, int v) { return std::atomic_ref<int>(*p).fetch_add(v); }

// Runs `kernel` as `blocks` blocks of `threads` (a multiple of 32), one block after another.
void launch(unsigned blocks, unsigned threads, const std::function<void()>& kernel) {
  gridDim.x = blocks;
  blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b) {
    blockIdx.x = b;
    block_barrier = std::make_unique<std::barrier<>>(threads);
    warps.clear();
    warps.resize(threads / 32);
    for (warp_state& w : warps) w.barrier = std::make_unique<std::barrier<>>(32);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
      pool.emplace_back([t, &kernel] {
        threadIdx.x = t;
        kernel();
      });
    for (std::thread& t : pool) t.join();
  }
}

#define __global__
#define __device__
#define __forceinline__ inline
#define __restrict__
#define __shared__ static
#define __launch_bounds__(x)
#define CUPP_SPARSE_T double
#define CUPP_SPGEMM_WARP_CAP 256
#define CUPP_SPGEMM_BLOCK_CAP 2048
#include "../../../sparse/device/cupp/sparse/spgemm.cuh"
#undef __global__
#undef __device__
#undef __forceinline__
#undef __restrict__
#undef __shared__
#undef __launch_bounds__

}  // namespace cupp_spgemm_cpu

namespace {

namespace sc = cupp_spgemm_cpu;

struct csr_host {
  long long rows = 0, cols = 0;
  std::vector<int> ptr{0}, ind;
  std::vector<double> val;
};

// A canonical random matrix whose row r has lengths(r) entries (sorted distinct columns).
template <class Len>
csr_host random_csr(long long rows, long long cols, Len lengths, std::mt19937& gen) {
  csr_host a;
  a.rows = rows, a.cols = cols;
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<int> all(static_cast<std::size_t>(cols));
  for (long long c = 0; c < cols; ++c) all[c] = static_cast<int>(c);
  for (long long r = 0; r < rows; ++r) {
    const long long len = std::min<long long>(lengths(r), cols);
    std::shuffle(all.begin(), all.end(), gen);
    std::vector<int> pick(all.begin(), all.begin() + len);
    std::sort(pick.begin(), pick.end());
    for (int c : pick) {
      a.ind.push_back(c);
      a.val.push_back(u(gen));
    }
    a.ptr.push_back(static_cast<int>(a.ind.size()));
  }
  return a;
}

// C = A @ B on the host: each column's products summed in A's entry order (the kernels' order).
csr_host host_product(const csr_host& a, const csr_host& b) {
  csr_host c;
  c.rows = a.rows, c.cols = b.cols;
  for (long long i = 0; i < a.rows; ++i) {
    std::map<int, double> acc;
    for (int e = a.ptr[i]; e < a.ptr[i + 1]; ++e) {
      const int j = a.ind[e];
      for (int f = b.ptr[j]; f < b.ptr[j + 1]; ++f) {
        const double p = a.val[e] * b.val[f];
        auto [it, fresh] = acc.emplace(b.ind[f], p);
        if (!fresh) it->second = it->second + p;
      }
    }
    for (const auto& [col, v] : acc) {
      c.ind.push_back(col);
      c.val.push_back(v);
    }
    c.ptr.push_back(static_cast<int>(c.ind.size()));
  }
  return c;
}

// own_spgemm.cpp's sequence on the emulated kernels (grids smaller than the work: grid-stride).
// narrow: fill_warp's 32-bit keys (own_spgemm.cpp takes them below 2^24 columns of B; both forms
// are valid on the tests' small B).
csr_host emulated_product(const csr_host& a, const csr_host& b, std::vector<long long>& ub, int narrow) {
  const long long m = a.rows;
  ub.assign(static_cast<std::size_t>(m), -1);
  sc::launch(3, 256, [&] { sc::cupp_sparse_spgemm_bound(a.ptr.data(), a.ind.data(), b.ptr.data(), m, ub.data()); });
  std::vector<long long> long_rows;
  for (long long i = 0; i < m; ++i)
    if (ub[i] > CUPP_SPGEMM_WARP_CAP) long_rows.push_back(i);
  const long long nlong = static_cast<long long>(long_rows.size());
  std::vector<int> counts(static_cast<std::size_t>(m), -1);
  sc::launch(3, 128, [&] {
    sc::cupp_sparse_spgemm_count_warp(a.ptr.data(), a.ind.data(), b.ptr.data(), b.ind.data(), ub.data(), m,
                                      counts.data());
  });
  if (nlong > 0)
    sc::launch(2, 256, [&] {
      sc::cupp_sparse_spgemm_count_block(a.ptr.data(), a.ind.data(), b.ptr.data(), b.ind.data(), ub.data(),
                                         long_rows.data(), nlong, counts.data());
    });
  std::vector<long long> c_ptr(static_cast<std::size_t>(m + 1), 0);
  for (long long i = 0; i < m; ++i) c_ptr[i + 1] = c_ptr[i] + counts[i];
  csr_host c;
  c.rows = m, c.cols = b.cols;
  c.ind.assign(static_cast<std::size_t>(c_ptr[m]), -1);
  c.val.assign(static_cast<std::size_t>(c_ptr[m]), -99.0);
  sc::launch(3, 128, [&] {
    sc::cupp_sparse_spgemm_fill_warp(a.ptr.data(), a.ind.data(), a.val.data(), b.ptr.data(), b.ind.data(), b.val.data(),
                                     ub.data(), m, c_ptr.data(), c.ind.data(), c.val.data(), narrow);
  });
  if (nlong > 0)
    sc::launch(2, 256, [&] {
      sc::cupp_sparse_spgemm_fill_block(a.ptr.data(), a.ind.data(), a.val.data(), b.ptr.data(), b.ind.data(),
                                        b.val.data(), ub.data(), long_rows.data(), nlong, c_ptr.data(), c.ind.data(),
                                        c.val.data());
    });
  c.ptr.assign(c_ptr.begin(), c_ptr.end());
  return c;
}

TEST(SpgemmKernelsHost, RowsSortAndSumAsTheHost) {
  std::mt19937 gen(7);
  const long long m = 40, n = 300, k = 500;
  // A: row 3 empty, row 5 has 70 entries (3 warp chunks), rows 7 and 11 make 400+ products (block
  // rows), row 13 150-odd (the warp's widest register sort), the rest 1 .. 12 entries; B: every
  // 5th row empty, the rest 1 .. 15 entries
  const csr_host a = random_csr(
      m, n,
      [](long long r) -> long long {
        return r == 3 ? 0 : r == 5 ? 70 : r == 7 || r == 11 ? 60 : r == 13 ? 30 : 1 + (r * 7) % 12;
      },
      gen);
  const csr_host b = random_csr(
      n, k, [](long long r) -> long long { return r % 5 == 0 ? 0 : 1 + (r * 3) % 15; }, gen);
  for (const int narrow : {1, 0}) {
    SCOPED_TRACE(narrow ? "32-bit keys" : "64-bit keys");
    std::vector<long long> ub;
    const csr_host got = emulated_product(a, b, ub, narrow);
    const csr_host want = host_product(a, b);
    long long past_warp_cap = 0;
    std::map<int, int> warp_sort_widths;  // rows per register sort width (32, 64, 128, 256 keys)
    for (long long i = 0; i < m; ++i) {
      long long s = 0;
      for (int e = a.ptr[i]; e < a.ptr[i + 1]; ++e) s += b.ptr[a.ind[e] + 1] - b.ptr[a.ind[e]];
      EXPECT_EQ(ub[i], s) << "row " << i;
      past_warp_cap += s > CUPP_SPGEMM_WARP_CAP;
      if (s > 0 && s <= CUPP_SPGEMM_WARP_CAP)
        ++warp_sort_widths[static_cast<int>(std::bit_ceil(static_cast<unsigned long long>(std::max(s, 32LL))))];
    }
    EXPECT_GE(past_warp_cap, 2);  // the block kernels ran
    for (int width : {32, 64, 128, 256}) EXPECT_GE(warp_sort_widths[width], 1) << "no row sorts " << width << " keys";
    ASSERT_EQ(got.ptr, want.ptr);
    EXPECT_EQ(got.ind, want.ind);
    for (std::size_t q = 0; q < want.val.size(); ++q)
      EXPECT_EQ(got.val[q], want.val[q]) << "entry " << q;  // bit for bit: the same order of sums
  }
}

// A row whose products repeat one column many times (B's rows all alike): long runs, summed in
// A's order, across the warp's 32-position chunks and the block's 256.
TEST(SpgemmKernelsHost, LongRunsOfOneColumn) {
  std::mt19937 gen(8);
  const csr_host b = random_csr(
      50, 6, [](long long) -> long long { return 6; }, gen);  // dense 50 x 6
  for (const long long len : {5LL, 40LL, 50LL}) {             // 30, 240 (warp) and 300 (block) products
    SCOPED_TRACE(len);
    const csr_host a = random_csr(
        3, 50, [len](long long) { return len; }, gen);
    std::vector<long long> ub;
    const csr_host got = emulated_product(a, b, ub, 1);
    const csr_host want = host_product(a, b);
    ASSERT_EQ(got.ptr, want.ptr);
    EXPECT_EQ(got.ind, want.ind);
    EXPECT_EQ(got.val, want.val);
  }
}

}  // namespace
