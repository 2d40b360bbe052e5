// The linalg solvers' own device code run on the CPU: the kernels of lu_blocked.cuh and
// solver_checks.cuh (float64) compiled as C++ under a small emulation of what they use from CUDA
// (a std::thread per CUDA thread, std::barrier for __syncthreads and for the warp shuffles, static
// storage for __shared__, one block at a time), so the host tests check their index math and
// barrier placement: the blocked LU's factors, pivots and info against LAPACK's getf2 (written
// out below), the tiled transpose with its NaN scrub, the copy with the NaN scrub, the
// triangle zeroing, and the permuted identity inv's `permuted` form starts from. The device runs of the same kernels are tests/gpu/linalg's.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <thread>
#include <vector>

namespace cupp_linalg_cpu {

struct emu_dim {
  unsigned x = 1, y = 1, z = 1;
};
thread_local emu_dim threadIdx;
emu_dim blockIdx, blockDim, gridDim;
std::unique_ptr<std::barrier<>> block_barrier;
std::vector<std::unique_ptr<std::barrier<>>> warp_barriers;
std::vector<std::array<std::array<unsigned char, 16>, 32>> warp_slots;

void __syncthreads() { block_barrier->arrive_and_wait(); }

template <class T>
T __shfl_down_sync(unsigned, T v, int offset) {
  const int lane = static_cast<int>(threadIdx.x % 32), warp = static_cast<int>(threadIdx.x / 32);
  std::memcpy(warp_slots[warp][lane].data(), &v, sizeof(T));
  warp_barriers[warp]->arrive_and_wait();
  T r = v;
  if (lane + offset < 32) std::memcpy(&r, warp_slots[warp][lane + offset].data(), sizeof(T));
  warp_barriers[warp]->arrive_and_wait();
  return r;
}

using std::fabs;
using std::isfinite;

// Runs `kernel` as `blocks` blocks of `threads` (a multiple of 32), one block after another.
void launch(unsigned blocks, unsigned threads, const std::function<void()>& kernel) {
  gridDim.x = blocks;
  blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b) {
    blockIdx.x = b;
    block_barrier = std::make_unique<std::barrier<>>(threads);
    warp_barriers.clear();
    warp_slots.assign(threads / 32, {});
    for (unsigned w = 0; w < threads / 32; ++w) warp_barriers.push_back(std::make_unique<std::barrier<>>(32));
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back([t, &kernel] {
        threadIdx.x = t;
        kernel();
      });
    for (std::thread& t : pool) t.join();
  }
}

#define __global__
#define __device__
#define __shared__ static
#define __launch_bounds__(x)
#define CUPP_LINALG_R double
#define CUPP_LINALG_NB 32
#include "../../../linalg/device/cupp/linalg/lu_blocked.cuh"
#include "../../../linalg/device/cupp/linalg/solver_checks.cuh"
#undef __global__
#undef __device__
#undef __shared__
#undef __launch_bounds__

constexpr long long nb = CUPP_LINALG_NB;

// LAPACK's unblocked getf2 on the column-major n x n matrix a: first largest |x| as the pivot,
// no elimination past an exactly zero pivot (info = its 1-based column).
void getf2(std::vector<double>& a, long long n, std::vector<int>& piv, int& info) {
  info = 0;
  for (long long j = 0; j < n; ++j) {
    long long p = j;
    double best = -1;
    for (long long r = j; r < n; ++r)
      if (std::fabs(a[r + j * n]) > best) {
        best = std::fabs(a[r + j * n]);
        p = r;
      }
    piv[j] = static_cast<int>(p + 1);
    if (a[p + j * n] != 0) {
      if (p != j)
        for (long long c = 0; c < n; ++c) std::swap(a[j + c * n], a[p + c * n]);
      for (long long r = j + 1; r < n; ++r) a[r + j * n] /= a[j + j * n];
    } else if (info == 0) {
      info = static_cast<int>(j + 1);
    }
    for (long long c = j + 1; c < n; ++c)
      for (long long r = j + 1; r < n; ++r) a[r + c * n] -= a[r + j * n] * a[j + c * n];
  }
}

}  // namespace cupp_linalg_cpu

namespace {

namespace lc = cupp_linalg_cpu;

// lu.cpp's blocked_getrf, with the trailing update written out: a panel launch per nb columns,
// then A22 -= L21 U12.
void blocked_lu(std::vector<double>& a, long long batch, long long n, std::vector<int>& piv, std::vector<int>& info) {
  const unsigned threads = static_cast<unsigned>(std::max<long long>((n + 31) / 32 * 32, 32));
  for (long long k0 = 0; k0 < n; k0 += lc::nb) {
    lc::launch(static_cast<unsigned>(batch), threads,
               [&] { lc::cupp_linalg_lu_panel(a.data(), piv.data(), info.data(), batch, n, k0); });
    if (n - k0 - lc::nb <= 0) continue;
    for (long long b = 0; b < batch; ++b) {
      double* m = a.data() + b * n * n;
      for (long long c = k0 + lc::nb; c < n; ++c)
        for (long long r = k0 + lc::nb; r < n; ++r) {
          double s = 0;
          for (long long q = k0; q < k0 + lc::nb; ++q) s += m[r + q * n] * m[q + c * n];
          m[r + c * n] -= s;
        }
    }
  }
}

TEST(LinalgKernelsCpu, BlockedLuIsLapacksGetf2) {
  std::mt19937_64 gen(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (long long n : {1, 5, 32, 33, 70})
    for (long long zero_col : {-1LL, 3LL}) {
      if (zero_col >= n) continue;
      const long long batch = 2;
      std::vector<double> a(static_cast<std::size_t>(batch * n * n));
      for (double& x : a) x = u(gen);
      if (zero_col >= 0)
        for (long long r = 0; r < n; ++r) a[static_cast<std::size_t>(n * n + r + zero_col * n)] = 0;  // matrix 1
      const std::vector<double> input = a;
      std::vector<int> piv(static_cast<std::size_t>(batch * n), -1), info(static_cast<std::size_t>(batch), 0);
      blocked_lu(a, batch, n, piv, info);
      for (long long b = 0; b < batch; ++b) {
        std::vector<double> ref(input.begin() + b * n * n, input.begin() + (b + 1) * n * n);
        std::vector<int> ref_piv(static_cast<std::size_t>(n));
        int ref_info = 0;
        lc::getf2(ref, n, ref_piv, ref_info);
        double diff = 0;
        for (long long i = 0; i < n * n; ++i) diff = std::max(diff, std::fabs(ref[i] - a[b * n * n + i]));
        EXPECT_LE(diff, 1e-12) << "n=" << n << " b=" << b;
        EXPECT_EQ(std::vector<int>(piv.begin() + b * n, piv.begin() + (b + 1) * n), ref_piv) << "n=" << n << " b=" << b;
        EXPECT_EQ(info[b], ref_info) << "n=" << n << " b=" << b;
      }
    }
}

TEST(LinalgKernelsCpu, WorkCopiesAndTriangles) {
  std::mt19937_64 gen(2);
  std::uniform_real_distribution<double> u(-1, 1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const std::array<long long, 3>& s : {std::array<long long, 3>{1, 1, 1}, {3, 33, 65}, {1, 70, 5}}) {
    const long long batch = s[0], rows = s[1], cols = s[2];
    std::vector<double> src(static_cast<std::size_t>(batch * rows * cols)), dst(src.size(), -9);
    for (double& x : src) x = u(gen);
    src[src.size() / 2] = nan;
    int flag = 0;
    const long long tiles = batch * ((rows + 31) / 32) * ((cols + 31) / 32);
    // fewer blocks than tiles: the blocks' loop over the tiles
    lc::launch(static_cast<unsigned>(std::min<long long>(tiles, 3)), 256,
               [&] { lc::cupp_linalg_transpose_copy(src.data(), dst.data(), batch, rows, cols, &flag); });
    EXPECT_EQ(flag, 1);
    for (long long b = 0; b < batch; ++b)
      for (long long r = 0; r < rows; ++r)
        for (long long c = 0; c < cols; ++c) {
          const double x = src[b * rows * cols + r * cols + c], y = dst[b * rows * cols + c * rows + r];
          EXPECT_EQ(y, std::isnan(x) ? 0.0 : x) << b << " " << r << " " << c;
        }
  }
  std::vector<double> src(1000), dst(1000);
  for (double& x : src) x = u(gen);
  src[777] = nan;
  int flag = 0;
  lc::launch(2, 256, [&] { lc::cupp_linalg_copy_scrub(src.data(), dst.data(), 1000, &flag); });
  EXPECT_EQ(flag, 1);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(dst[i], i == 777 ? 0.0 : src[i]) << i;
  for (int lower : {0, 1}) {
    const long long n = 37, batch = 2;
    std::vector<double> w(static_cast<std::size_t>(batch * n * n), 1.0);
    lc::launch(3, 256, [&] { lc::cupp_linalg_zero_triangle(w.data(), batch, n, lower); });
    for (long long b = 0; b < batch; ++b)
      for (long long i = 0; i < n; ++i)
        for (long long j = 0; j < n; ++j)
          EXPECT_EQ(w[b * n * n + i * n + j], (lower ? i > j : i < j) ? 0.0 : 1.0) << lower << " " << i << " " << j;
  }
}

// P I from LAPACK's pivots (applied in order to the identity's rows, as getrs applies them to
// b), and the unit pivots: against the interchanges written out, for sizes below and above the
// block's 256 threads and a stack longer than the grid.
TEST(LinalgKernelsCpu, PermutedIdentity) {
  std::mt19937 gen(4);
  for (const long long n : {1LL, 5LL, 300LL}) {
    const long long batch = 3;
    std::vector<int> piv(static_cast<std::size_t>(batch * n)), unit(piv.size(), -1);
    for (long long b = 0; b < batch; ++b)
      for (long long i = 0; i < n; ++i)
        piv[b * n + i] = static_cast<int>(i + 1 + std::uniform_int_distribution<long long>(0, n - 1 - i)(gen));
    std::vector<double> x(static_cast<std::size_t>(batch * n * n), -9);
    lc::launch(2, 256, [&] { lc::cupp_linalg_permuted_identity(piv.data(), x.data(), unit.data(), batch, n); });
    for (long long b = 0; b < batch; ++b) {
      std::vector<double> want(static_cast<std::size_t>(n * n), 0.0);  // column-major identity, rows swapped
      for (long long i = 0; i < n; ++i) want[i + i * n] = 1;
      for (long long i = 0; i < n; ++i) {
        const long long p = piv[b * n + i] - 1;
        for (long long c = 0; c < n; ++c) std::swap(want[i + c * n], want[p + c * n]);
      }
      for (long long e = 0; e < n * n; ++e) EXPECT_EQ(x[b * n * n + e], want[e]) << "n=" << n << " b=" << b << " e=" << e;
      for (long long i = 0; i < n; ++i) EXPECT_EQ(unit[b * n + i], i + 1);
    }
  }
}

}  // namespace
