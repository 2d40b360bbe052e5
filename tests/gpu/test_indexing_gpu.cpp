// The indexing routines on the GPU (cupp/indexing.hpp), what the NumPy reference cases run through
// cupp eval (tests/conformance/make_indexing_ref.py's EVAL_CASES, tests/gpu/test_eval_ref_gpu.cpp)
// cannot reach: the script's one classic case (conformance/indexing-ref: a put through a transposed
// view into its base; the reads a[...], the assignments a[...] = v (setitem_copy) and ufunc.at are
// EVAL_CASES), out-of-bounds indices
// raised through the device error state (and the state cleared for the next call), the array left
// as NumPy leaves it, every dtype, a large random take against the host, the end signal of the
// raising calls, and threads that see only their own errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>

#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/searching.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using test::error_of;
using results = std::vector<ndarray>;
using iv = std::vector<std::int64_t>;

ndarray ar(std::initializer_list<std::int64_t> shape, dtype type = int64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return astype(arange(n).reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
// The script's I(values): an int64 array (reshaped), or another dtype.
ndarray I(const iv& v, std::initializer_list<std::int64_t> shape = {}, dtype type = int64) {
  ndarray a = asarray(v);
  if (shape.size()) a = a.reshape(shape);
  return type == int64 ? a : astype(a, type);
}
ndarray B(const std::vector<bool>& v) { return asarray(v); }
results one(ndarray a) { return results{std::move(a)}; }
template <class F>
results inplace(ndarray a, F f) {
  f(a);
  return one(a);
}

const std::map<std::string, std::function<results()>>& cases() {
  static const std::map<std::string, std::function<results()>> table = {
      // a put into a transposed view
      {"put_noncontig",
       [] { return inplace(ar({4, 3}).T(), [](const ndarray& a) { put(a, I({0, 1, 5}), I({-1, -2, -3})); }); }},
  };
  return table;
}

TEST(IndexingGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  // Exact: the routines only move elements.
  test::check_reference_set("indexing", cases(), [](const dtype&) { return 0.0; });
}

TEST(IndexingGpu, OutOfBoundsThroughTheFlag) {
  CUPP_REQUIRE_GPU();
  const ndarray a = ar({2, 3});
  EXPECT_EQ(error_of<IndexError>([&] { take(a, I({0, 7}), {.axis = 1}); }), "index 7 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] { take(a, I({-7})); }), "index -7 is out of bounds for axis 0 with size 6");
  // The state is cleared: the next call succeeds.
  EXPECT_EQ(take(a, I({-1})).to_vector<std::int64_t>(), iv({5}));
  // out is buffered in mode raise: unchanged on error.
  const ndarray out = zeros({2}, int64);
  EXPECT_THROW(take(a, I({1, 9}), {.out = out}), IndexError);
  EXPECT_EQ(out.to_vector<std::int64_t>(), iv({0, 0}));
  take(a, I({1, 9}), {.out = out, .mode = clip_mode::clip});
  EXPECT_EQ(out.to_vector<std::int64_t>(), iv({1, 5}));
  // put: the writes before the first bad index are done (NumPy's loop order).
  const ndarray p = ar({5});
  EXPECT_EQ(error_of<IndexError>([&] { put(p, I({0, 1, 9, 2}), I({10, 11, 12, 13})); }),
            "index 9 is out of bounds for axis 0 with size 5");
  EXPECT_EQ(p.to_vector<std::int64_t>(), iv({10, 11, 2, 3, 4}));
  // put on a non-contiguous array: nothing written (NumPy's write-back copy is discarded).
  const ndarray q = ar({3, 2});
  EXPECT_THROW(put(q.T(), I({0, 9}), I({-1})), IndexError);
  EXPECT_EQ(q.to_vector<std::int64_t>(), iv({0, 1, 2, 3, 4, 5}));
  // take_along_axis / put_along_axis
  EXPECT_EQ(error_of<IndexError>([&] { take_along_axis(a, I({3, 0}, {2, 1}), 1); }),
            "index 3 is out of bounds for axis 1 with size 3");
  const ndarray r = ar({2, 3});
  EXPECT_THROW(put_along_axis(r, I({0, -4}, {2, 1}), 9, 1), IndexError);
  EXPECT_EQ(r.to_vector<std::int64_t>(), iv({0, 1, 2, 3, 4, 5}));
  // choose, unravel_index, ravel_multi_index raise ValueError as NumPy.
  EXPECT_EQ(error_of<ValueError>([&] { choose(I({0, 2}), {ar({2}), ar({2})}); }), "invalid entry in choice array");
  EXPECT_THROW(choose(I({-1, 0}), {ar({2}), ar({2})}), ValueError);
  EXPECT_EQ(error_of<ValueError>([&] { unravel_index(I({3, 6}), {2, 3}); }), "index 6 is out of bounds for array with size 6");
  const ndarray mi[] = {I({0, -1}), I({1, 1})};
  const iv dims{2, 3};
  EXPECT_EQ(error_of<ValueError>([&] { ravel_multi_index(mi, dims); }), "invalid entry in coordinates array");
  // compress with a long condition whose true element lies beyond the axis
  EXPECT_THROW(compress(B({false, false, false, true}), ar({3})), IndexError);
  EXPECT_EQ(take(a, I({2})).to_vector<std::int64_t>(), iv({2}));
}

const dtype all_dtypes[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                            uint64, float16, bfloat16, float32, float64, complex64, complex128};

TEST(IndexingGpu, EveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const ndarray a = astype(asarray(std::vector<double>{1, 0, 1, 1, 0, 1}), t).reshape({2, 3});
    const ndarray g = take(a, I({2, 0, -1}), {.axis = 1});
    EXPECT_EQ(g.dtype(), t);
    EXPECT_EQ(astype(g, float64).to_vector<double>(), std::vector<double>({1, 1, 1, 1, 1, 1}));
    const ndarray b = a.copy();
    put(b, I({1, 4}), astype(asarray(std::vector<double>{1}), t));
    EXPECT_EQ(astype(b, float64).to_vector<double>(), std::vector<double>({1, 1, 1, 1, 1, 1}));
    EXPECT_EQ(astype(extract(a, a), float64).to_vector<double>(), std::vector<double>({1, 1, 1, 1}));
    const ndarray c = zeros({3, 3}, t);
    fill_diagonal(c, 1);
    EXPECT_EQ(astype(c, float64).to_vector<double>(), std::vector<double>({1, 0, 0, 0, 1, 0, 0, 0, 1}));
  }
}

TEST(IndexingGpu, LargeRandomTakeAndPut) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = std::int64_t(1) << 22;
  std::mt19937_64 rng(7);
  std::vector<float> src(static_cast<std::size_t>(n));
  for (auto& x : src) x = static_cast<float>(rng() % 100000);
  std::vector<std::int64_t> idx(static_cast<std::size_t>(n));
  for (auto& i : idx) i = static_cast<std::int64_t>(rng() % (2 * n)) - n;  // in [-n, n)
  const ndarray a = asarray(src), ix = asarray(idx);
  const std::vector<float> got = take(a, ix).to_vector<float>();
  for (std::size_t k = 0; k < got.size(); ++k) {
    const std::int64_t j = idx[k] < 0 ? idx[k] + n : idx[k];
    ASSERT_EQ(got[k], src[static_cast<std::size_t>(j)]) << k;
  }
  // The flat gather in every word size (1, 2, 4, 8 and 16 bytes), a length that is no multiple
  // of the 512-element block, each mode, and one bad index in mode raise.
  const std::int64_t m_len = 100003, k_len = 70001;
  std::vector<std::int64_t> wide(static_cast<std::size_t>(k_len));
  for (auto& i : wide) i = static_cast<std::int64_t>(rng() % (6 * m_len)) - 3 * m_len;  // in [-3m, 3m)
  const ndarray wide_ix = asarray(wide);
  for (const dtype type : {bool_, int16, float32, float64, complex128}) {
    const ndarray values = astype(arange(m_len) % 251, type);
    for (const clip_mode mode : {clip_mode::wrap, clip_mode::clip}) {
      const auto got = astype(take(values, wide_ix, {.mode = mode}), complex128).to_vector<std::complex<double>>();
      for (std::size_t k = 0; k < got.size(); ++k) {
        std::int64_t j = wide[k];
        if (mode == clip_mode::wrap) j = ((j % m_len) + m_len) % m_len;
        else j = std::clamp<std::int64_t>(j, 0, m_len - 1);
        const double want = type == bool_ ? (j % 251 != 0 ? 1.0 : 0.0) : static_cast<double>(j % 251);
        ASSERT_EQ(got[k], std::complex<double>(want, 0.0)) << type.name() << " k " << k;
      }
    }
    std::vector<std::int64_t> one_bad(static_cast<std::size_t>(k_len));
    for (std::size_t k = 0; k < one_bad.size(); ++k) one_bad[k] = static_cast<std::int64_t>(k) % m_len;
    one_bad[54321] = m_len + 5;
    EXPECT_EQ(error_of<IndexError>([&] { take(values, asarray(one_bad)); }),
              "index " + std::to_string(m_len + 5) + " is out of bounds for axis 0 with size " + std::to_string(m_len))
        << type.name();
  }
  // put with many duplicates: the last write wins.
  const ndarray d = zeros({1000}, int64);
  std::vector<std::int64_t> pi(100000), pv(100000), want(1000, 0);
  for (std::size_t k = 0; k < pi.size(); ++k) {
    pi[k] = static_cast<std::int64_t>(rng() % 1000);
    pv[k] = static_cast<std::int64_t>(k);
    want[static_cast<std::size_t>(pi[k])] = pv[k];
  }
  put(d, asarray(pi), asarray(pv));
  EXPECT_EQ(d.to_vector<std::int64_t>(), want);
  // A large mask: flatnonzero across many tiles.
  const ndarray m = ar({300001}) % 3 == 1;
  CUPP_ASSERT_ARRAY_EQUAL(flatnonzero(m), test::tabulate(100000, [](std::int64_t k) { return 3 * k + 1; }), {.strict = true});
}

// A raising call learns "every index checked" from its kernel's end signal (the last block sets a
// host word) instead of a stream sync: results are complete in stream order, a bad index still
// raises, slots are reused across calls, threads and streams, each scheduling flag works, and a
// captured stream makes the call throw instead of waiting for a kernel that does not run.
TEST(IndexingGpu, EndSignalOnEveryPathAndSchedule) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = 100003;
  const ndarray values = arange(n) * 3;
  // Sizes around the flat gather's 512-element block; strided indices take the general gather.
  const auto check_takes = [&](std::uint64_t seed, int rounds) {
    std::mt19937_64 rng(seed);
    for (int r = 0; r < rounds; ++r) {
      const std::int64_t len = std::vector<std::int64_t>{1, 511, 512, 513, 70001}[static_cast<std::size_t>(r % 5)];
      iv idx(static_cast<std::size_t>(2 * len));
      for (auto& i : idx) i = static_cast<std::int64_t>(rng() % (2 * n)) - n;
      const ndarray all = asarray(idx);
      const ndarray used = r % 2 == 0 ? all(slice(0, len)) : all(slice(0, 2 * len, 2));  // flat, strided
      const iv got = take(values, used).to_vector<std::int64_t>();
      for (std::int64_t k = 0; k < len; ++k) {
        std::int64_t j = idx[static_cast<std::size_t>(r % 2 == 0 ? k : 2 * k)];
        if (j < 0) j += n;
        ASSERT_EQ(got[static_cast<std::size_t>(k)], 3 * j) << "round " << r << " k " << k;
      }
    }
  };
  check_takes(1, 40);
  // put and advanced indexing end their checks the same way.
  const ndarray d = zeros({n}, int64);
  put(d, asarray(iv{5, -1, 7}), asarray(iv{50, 10, 70}));
  const iv dv = d(asarray(iv{5, n - 1, 7, -3})).to_vector<std::int64_t>();
  EXPECT_EQ(dv, (iv{50, 10, 70, 0}));
  EXPECT_EQ(error_of<IndexError>([&] { put(d, asarray(iv{1, n}), asarray(iv{1, 2})); }),
            "index " + std::to_string(n) + " is out of bounds for axis 0 with size " + std::to_string(n));
  // Threads on their own streams at once (good indices: the error state is per program).
  std::vector<std::thread> threads;
  std::vector<std::string> failures(4);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      try {
        const cuda::Stream stream = cuda::Stream::create();
        const cuda::StreamGuard guard(stream);
        check_takes(100 + static_cast<std::uint64_t>(t), 25);
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(t)] = e.what();
      }
    });
  for (auto& th : threads) th.join();
  for (const auto& f : failures) EXPECT_EQ(f, "");
  // Each scheduling flag: blocking sync waits on the stream, yield yields while it polls.
  unsigned flags = 0;
  ASSERT_EQ(cudaGetDeviceFlags(&flags), cudaSuccess);
  for (const unsigned schedule : {unsigned{cudaDeviceScheduleBlockingSync}, unsigned{cudaDeviceScheduleYield}}) {
    ASSERT_EQ(cudaSetDeviceFlags((flags & ~unsigned{cudaDeviceScheduleMask}) | schedule), cudaSuccess);
    check_takes(7, 10);
    EXPECT_EQ(error_of<IndexError>([&] { take(values, asarray(iv{0, -n - 1})); }),
              "index " + std::to_string(-n - 1) + " is out of bounds for axis 0 with size " + std::to_string(n));
  }
  ASSERT_EQ(cudaSetDeviceFlags(flags), cudaSuccess);
  // A capturing stream: the kernel is recorded, not run, so the call must throw, not wait.
  {
    const cuda::Stream stream = cuda::Stream::create({.non_blocking = true});
    const cuda::StreamGuard guard(stream);
    const ndarray idx = asarray(iv{1, 2, 3});
    const ndarray warm = take(values, idx);  // allocations and the program, outside the capture
    const auto handle = static_cast<cudaStream_t>(stream.handle());
    ASSERT_EQ(cudaStreamBeginCapture(handle, cudaStreamCaptureModeRelaxed), cudaSuccess);
    EXPECT_THROW(take(values, idx), CudaError);
    cudaGraph_t graph = nullptr;
    (void)cudaStreamEndCapture(handle, &graph);
    if (graph != nullptr) (void)cudaGraphDestroy(graph);
    (void)cudaGetLastError();
  }
  check_takes(9, 10);
}

// The calls that may report share their program's error state and report word, so they take
// turns: threads on their own streams, half of their calls with a bad index of their own, each
// get exactly their own outcome (take, and searchsorted's sorter check in its own program).
TEST(IndexingGpu, ThreadsSeeOnlyTheirOwnErrors) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = 4099;
  const ndarray values = arange(n);
  constexpr int thread_count = 6;
  std::vector<std::thread> threads;
  std::vector<std::string> failures(thread_count);
  for (int t = 0; t < thread_count; ++t)
    threads.emplace_back([&, t] {
      try {
        const cuda::Stream stream = cuda::Stream::create({.non_blocking = true});
        const cuda::StreamGuard guard(stream);
        std::mt19937_64 rng(static_cast<std::uint64_t>(t));
        for (int r = 0; r < 60; ++r) {
          const bool bad = (r + t) % 2 == 0;
          iv idx(1000);
          for (auto& i : idx) i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n));
          if (bad) idx[rng() % idx.size()] = n + t;
          std::string what;
          iv got;
          try {
            got = take(values, asarray(idx)).to_vector<std::int64_t>();
          } catch (const IndexError& e) {
            what = e.what();
          }
          const std::string want =
              bad ? "index " + std::to_string(n + t) + " is out of bounds for axis 0 with size " + std::to_string(n) : "";
          if (what != want || (!bad && got != idx))
            throw std::runtime_error("take, round " + std::to_string(r) + ": got '" + what + "', want '" + want + "'");
          // The sorter's middle entry is the first one the search reads.
          iv sorter(static_cast<std::size_t>(n));
          std::iota(sorter.begin(), sorter.end(), std::int64_t{0});
          if (bad) sorter[static_cast<std::size_t>(n / 2)] = n + t;
          bool raised = false;
          iv pos;
          try {
            pos = searchsorted(values, asarray(iv{7, n / 2 + 3}), {.sorter = asarray(sorter)}).to_vector<std::int64_t>();
          } catch (const ValueError&) {
            raised = true;
          }
          if (raised != bad || (!bad && pos != iv{7, n / 2 + 3}))
            throw std::runtime_error("searchsorted, round " + std::to_string(r) + ": raised " + std::to_string(raised));
        }
      } catch (const std::exception& e) {
        failures[static_cast<std::size_t>(t)] = e.what();
      }
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < thread_count; ++t) EXPECT_EQ(failures[static_cast<std::size_t>(t)], "") << "thread " << t;
}

}  // namespace
}  // namespace cupp
