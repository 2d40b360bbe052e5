// The sparse module's product kernels (sparse/device/cupp/sparse/products.cuh) run on the CPU: the
// device header is compiled as host C++ under a small shim (CUDA's qualifiers empty, threadIdx and
// friends thread-local, __ldg and the cache-hinted loads and stores plain ones) and every (block,
// thread) of a small grid is run in turn, which is exact for kernels without shared memory, barriers
// or shuffles. Checked against host sums: the (row, column-stretch) work split of spmm_rows over
// grids smaller than the work (grid-stride), k from 1 to 300 (1 to 3 stretches of 128 columns, a
// partial last one), duplicates, unsorted indices and empty rows, int32 and int64 indices, and the
// multiply-adds: float, int8 wrapping modulo 256, bool as an or of ands, complex. spmm_vec, whose
// forms shuffle, runs each warp as 32 threads whose __shfl_sync / __shfl_xor_sync meet at a barrier
// of the lanes the mask names (a lockstep emulation of the warp's exchanges), and is checked against
// spmm_rows bit for bit, and spmm_rows against host sums. No GPU needed.
#include <gtest/gtest.h>

#include <array>
#include <barrier>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

// ---- the shim (before the device header; no CUDA header is included in this file)
#define __device__
#define __forceinline__ inline
#define __global__
#define __launch_bounds__(...)
namespace kernel_shim {
struct index3 {
  unsigned x = 0, y = 0, z = 0;
};
}  // namespace kernel_shim
inline thread_local kernel_shim::index3 threadIdx, blockIdx, blockDim, gridDim;
template <class T>
T __ldg(const T* p) {
  return *p;
}
template <class T>
T __ldcs(const T* p) {
  return *p;
}
template <class T>
void __stcs(T* p, const T& v) {
  *p = v;
}
template <class T>
void __stwb(T* p, const T& v) {
  *p = v;
}
struct float2 {
  float x, y;
};
struct float4 {
  float x, y, z, w;
};
struct double2 {
  double x, y;
};
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
inline double2 make_double2(double x, double y) { return {x, y}; }
// A warp's exchanges: the lanes a mask names meet at that mask's barrier, write their values, meet
// again, read the source lane's (run_warps gives each warp one and each lane its own thread).
namespace kernel_shim {
struct warp_exchange {
  std::mutex mutex;
  std::map<unsigned, std::unique_ptr<std::barrier<>>> barriers;
  std::array<std::uint64_t, 32> slot{};
  std::barrier<>& of(unsigned mask) {
    std::lock_guard lock(mutex);
    auto& b = barriers[mask];
    if (!b) b = std::make_unique<std::barrier<>>(std::popcount(mask));
    return *b;
  }
  template <class T>
  T exchange(unsigned mask, T v, int from) {
    static_assert(sizeof(T) <= 8);
    const int lane = static_cast<int>(threadIdx_lane());
    std::barrier<>& b = of(mask);
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof v);
    slot[lane] = bits;
    b.arrive_and_wait();
    T out;
    std::memcpy(&out, &slot[from], sizeof out);
    b.arrive_and_wait();
    return out;
  }
  static unsigned threadIdx_lane();
};
inline thread_local warp_exchange* warp = nullptr;
}  // namespace kernel_shim
template <class T>
T __shfl_sync(unsigned mask, T v, int src, int width = 32) {
  const int lane = static_cast<int>(kernel_shim::warp_exchange::threadIdx_lane());
  return kernel_shim::warp->exchange(mask, v, (lane & ~(width - 1)) + (src & (width - 1)));
}
template <class T>
T __shfl_xor_sync(unsigned mask, T v, int lane_mask, int width = 32) {
  const int lane = static_cast<int>(kernel_shim::warp_exchange::threadIdx_lane());
  const int from = lane ^ lane_mask;
  return kernel_shim::warp->exchange(mask, v, (from & ~(width - 1)) == (lane & ~(width - 1)) ? from : lane);
}
#include "../../../sparse/device/cupp/sparse/products.cuh"

unsigned kernel_shim::warp_exchange::threadIdx_lane() { return threadIdx.x & 31; }

namespace {

using i64 = std::int64_t;

// Runs f() for every thread of a grid of `blocks` x `threads`, one after another.
template <class F>
void run_grid(unsigned blocks, unsigned threads, F&& f) {
  gridDim.x = blocks, blockDim.x = threads;
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t) {
      blockIdx.x = b, threadIdx.x = t;
      f();
    }
}

struct pattern {
  i64 m = 0, n = 0;
  std::vector<i64> indptr{0}, indices, values;
};

// Empty rows (every 4th), a long row with duplicates (row 2), unsorted columns.
pattern make_pattern(i64 m, i64 n) {
  pattern p;
  p.m = m, p.n = n;
  for (i64 i = 0; i < m; ++i) {
    const i64 len = i == 2 ? 70 : i % 4 == 0 ? 0 : 1 + (i * 5) % 7;
    for (i64 t = 0; t < len; ++t) {
      p.indices.push_back((i * 11 + t * 13) % n);
      p.values.push_back((i * 3 + t * 7) % 9 - 4);
    }
    p.indptr.push_back(static_cast<i64>(p.indices.size()));
  }
  return p;
}

template <class I>
std::vector<I> as(const std::vector<i64>& v) {
  return std::vector<I>(v.begin(), v.end());
}

// C = A @ B by spmm_rows<T, Ops, I> on a grid of 3 blocks (24 warps: fewer than the work items),
// against the exact int64 sums of the values `held` makes of the pattern's, each cast by `to_t`
// (the device's values and the expected results: modulo 2^bits for integers, != 0 for bool).
template <class T, class Ops, class I, class Held, class ToT>
void check_spmm(const pattern& p, i64 k, Held held, ToT to_t, const std::string& what) {
  SCOPED_TRACE(what + ", k = " + std::to_string(k));
  std::vector<i64> b(p.n * k);
  for (i64 j = 0; j < p.n * k; ++j) b[j] = (j * 7 + j / k) % 5 - 2;
  std::vector<i64> ref(p.m * k, 0);
  for (i64 i = 0; i < p.m; ++i)
    for (i64 e = p.indptr[i]; e < p.indptr[i + 1]; ++e)
      for (i64 q = 0; q < k; ++q) ref[i * k + q] += held(p.values[e]) * held(b[p.indices[e] * k + q]);
  // plain arrays (std::vector<bool> has no data())
  const auto filled = [&](const std::vector<i64>& v) {
    auto out = std::make_unique<T[]>(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out[i] = to_t(held(v[i]));
    return out;
  };
  const auto data = filled(p.values), bd = filled(b);
  const std::vector<I> ptr = as<I>(p.indptr), ind = as<I>(p.indices);
  const auto c = std::make_unique<T[]>(p.m * k);
  for (i64 j = 0; j < p.m * k; ++j) c[j] = to_t(99);  // every element is written
  run_grid(3, cupp_sparse::spmm_threads,
           [&] { cupp_sparse::spmm_rows<T, Ops, I>(ptr.data(), ind.data(), data.get(), bd.get(), c.get(), p.m, k); });
  for (i64 j = 0; j < p.m * k; ++j) {
    const T want = to_t(ref[j]);
    ASSERT_TRUE(c[j] == want) << "element " << j << " (row " << j / k << ", column " << j % k << ")";
  }
  if (k == 1) {  // spmv_rows: the same sums, a thread per row, 2 blocks of 16 threads (grid-stride)
    const auto y = std::make_unique<T[]>(p.m);
    for (i64 i = 0; i < p.m; ++i) y[i] = to_t(99);
    run_grid(2, 16,
             [&] { cupp_sparse::spmv_rows<T, Ops, I>(ptr.data(), ind.data(), data.get(), bd.get(), y.get(), p.m); });
    for (i64 i = 0; i < p.m; ++i) ASSERT_TRUE(y[i] == to_t(ref[i])) << "row " << i;
  }
}

TEST(SparseKernelsHost, SpmmAndSpmvRowsSumAsTheHost) {
  const pattern p = make_pattern(70, 45);
  const auto same = [](i64 v) { return v; };
  for (const i64 k : {1, 5, 32, 64, 128, 129, 300}) {
    check_spmm<float, cupp_sparse::real_ops<float>, int>(
        p, k, same, [](i64 v) { return static_cast<float>(v); }, "float, int32 indices");
    check_spmm<double, cupp_sparse::real_ops<double>, long long>(
        p, k, same, [](i64 v) { return static_cast<double>(v); }, "double, int64 indices");
    // int8 with values times 40: products and sums wrap modulo 256, as NumPy's
    check_spmm<signed char, cupp_sparse::wrap_ops<signed char, unsigned int>, int>(
        p, k, [](i64 v) { return v * 40; }, [](i64 v) { return static_cast<signed char>(v); }, "int8, int32 indices");
    check_spmm<unsigned long long, cupp_sparse::wrap_ops<unsigned long long, unsigned long long>, long long>(
        p, k, same, [](i64 v) { return static_cast<unsigned long long>(v); }, "uint64, int64 indices");
    // bool: nonzero values are True; a sum of products is True when any product is
    check_spmm<bool, cupp_sparse::bool_ops, int>(
        p, k, [](i64 v) { return static_cast<i64>(v != 0); }, [](i64 v) { return v != 0; }, "bool, int32 indices");
  }
}

// Runs f() for every thread of a grid, a warp at a time, its 32 lanes as threads sharing one
// warp_exchange (so the kernel's shuffles meet as on the device).
template <class F>
void run_warps(unsigned blocks, unsigned threads, F&& f) {
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned w = 0; w < threads / 32; ++w) {
      kernel_shim::warp_exchange exchange;
      std::vector<std::thread> lanes;
      for (unsigned l = 0; l < 32; ++l)
        lanes.emplace_back([&, l] {
          gridDim.x = blocks, blockDim.x = threads, blockIdx.x = b, threadIdx.x = w * 32 + l;
          kernel_shim::warp = &exchange;
          f();
        });
      for (std::thread& t : lanes) t.join();
    }
}

// spmm_vec's forms on 2 blocks of 64 threads (4 warps: fewer than the work items), the lanes a row
// as own_kernels.cpp picks them (spmm_vec_group) and two a row, against spmm_rows
// bit for bit (inexact values, so another order would show); spmm_rows within rounding of the host
// sums.
template <class T, class I>
void check_spmm_vec(const pattern& p, i64 k, const std::string& what) {
  SCOPED_TRACE(what + ", k = " + std::to_string(k));
  constexpr int width = 16 / static_cast<int>(sizeof(T));
  int group = 1;
  while (group < 32 && group * width < k) group *= 2;
  std::vector<T> b(p.n * k), data(p.values.size());
  for (i64 j = 0; j < p.n * k; ++j) b[j] = static_cast<T>(0.01 * static_cast<double>((j * 37) % 101) - 0.5);
  for (std::size_t e = 0; e < data.size(); ++e) data[e] = static_cast<T>(0.1 * static_cast<double>(p.values[e]) + 0.03);
  std::vector<double> ref(p.m * k, 0.0);
  for (i64 i = 0; i < p.m; ++i)
    for (i64 e = p.indptr[i]; e < p.indptr[i + 1]; ++e)
      for (i64 q = 0; q < k; ++q) ref[i * k + q] += static_cast<double>(data[e]) * static_cast<double>(b[p.indices[e] * k + q]);
  const std::vector<I> ptr = as<I>(p.indptr), ind = as<I>(p.indices);
  // 16-byte aligned B and C, as own_kernels.cpp requires of spmm_vec
  std::vector<float4> b_store((b.size() * sizeof(T) + 15) / 16 + 1), rows_store((p.m * k * sizeof(T) + 15) / 16 + 1),
      vec_store(rows_store.size());
  T* bd = reinterpret_cast<T*>(b_store.data());
  std::memcpy(bd, b.data(), b.size() * sizeof(T));
  T* rows = reinterpret_cast<T*>(rows_store.data());
  T* c = reinterpret_cast<T*>(vec_store.data());
  run_grid(3, cupp_sparse::spmm_threads, [&] {
    cupp_sparse::spmm_rows<T, cupp_sparse::real_ops<T>, I>(ptr.data(), ind.data(), data.data(), bd, rows, p.m, k);
  });
  const auto run = [&](auto form, auto stream, int lanes) {
    for (i64 j = 0; j < p.m * k; ++j) c[j] = T(99);  // every element is written
    run_warps(2, 64, [&] {
      cupp_sparse::spmm_vec<T, I, decltype(form)::value, decltype(stream)::value>(ptr.data(), ind.data(), data.data(), bd,
                                                                                  c, p.m, k, lanes);
    });
  };
  const std::integral_constant<int, cupp_sparse::spmm_in_order> in_order;
  const std::integral_constant<int, cupp_sparse::spmm_shuffled> shuffled;
  const auto bitwise = [&](const char* form) {
    for (i64 j = 0; j < p.m * k; ++j)
      ASSERT_EQ(std::memcmp(&c[j], &rows[j], sizeof(T)), 0) << form << ", element " << j << ": " << c[j] << " vs " << rows[j];
  };
  run(in_order, std::false_type{}, group);
  bitwise("in order");
  run(in_order, std::true_type{}, group);
  bitwise("in order, streaming");
  run(shuffled, std::true_type{}, group);
  bitwise("shuffled, streaming");
  // fewer lanes than the row's columns (several column stretches a row, shuffles among two lanes)
  const int narrow = group > 2 ? 2 : group;
  run(shuffled, std::true_type{}, narrow);
  bitwise("shuffled, two lanes a row");
  for (i64 j = 0; j < p.m * k; ++j) {
    const double tol = sizeof(T) == 4 ? 1e-4 : 1e-12;
    ASSERT_NEAR(static_cast<double>(rows[j]), ref[j], tol * (1 + std::abs(ref[j]))) << "spmm_rows, element " << j;
  }
}

TEST(SparseKernelsHost, SpmmVecFormsSumAsSpmmRows) {
  const pattern p = make_pattern(70, 45);  // rows of 0 to 70 entries: one, two and several shuffle batches
  for (const i64 k : {4, 8, 12, 60, 64, 128, 200}) {
    check_spmm_vec<float, int>(p, k, "float, int32 indices");
    check_spmm_vec<double, long long>(p, k, "double, int64 indices");
  }
  check_spmm_vec<float, long long>(p, 64, "float, int64 indices");
  check_spmm_vec<double, int>(p, 6, "double, int32 indices");
}

TEST(SparseKernelsHost, ComplexMultiplyAddIsTheComplexProduct) {
  using ops = cupp_sparse::complex_ops<float2>;
  const float2 a{2, -3}, b{-1, 4}, acc{0.5f, 0.25f};
  const float2 r = ops::madd(acc, a, b);
  const std::complex<float> want =
      std::complex<float>(0.5f, 0.25f) + std::complex<float>(2, -3) * std::complex<float>(-1, 4);
  EXPECT_EQ(r.x, want.real());
  EXPECT_EQ(r.y, want.imag());
  EXPECT_EQ(ops::zero().x, 0.0f);
  EXPECT_EQ(ops::zero().y, 0.0f);
  // a 3x2 complex A times a 2x40 B through spmm_rows
  const std::vector<int> ptr{0, 2, 2, 3}, ind{1, 0, 1};
  const std::vector<float2> data{{1, 1}, {0, 2}, {-1, 0}};
  const i64 k = 40;
  std::vector<float2> bd(2 * k), c(3 * k, float2{9, 9});
  for (i64 j = 0; j < 2 * k; ++j) bd[j] = {static_cast<float>(j % 3), static_cast<float>(j % 2)};
  run_grid(1, 64, [&] {
    cupp_sparse::spmm_rows<float2, ops, int>(ptr.data(), ind.data(), data.data(), bd.data(), c.data(), 3, k);
  });
  for (i64 q = 0; q < k; ++q) {
    const auto z = [](float2 v) { return std::complex<float>(v.x, v.y); };
    const std::complex<float> r0 = z(data[0]) * z(bd[k + q]) + z(data[1]) * z(bd[q]);
    const std::complex<float> r2 = z(data[2]) * z(bd[k + q]);
    EXPECT_EQ(z(c[q]), r0) << q;
    EXPECT_EQ(z(c[k + q]), std::complex<float>(0, 0)) << q;  // an empty row is written as zeros
    EXPECT_EQ(z(c[2 * k + q]), r2) << q;
  }
}

}  // namespace
