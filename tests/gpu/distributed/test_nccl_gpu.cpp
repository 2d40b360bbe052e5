// NCCL through cupp::cuda::nccl on the GPU: a communicator of one rank (any one-GPU machine) runs
// every collective on every dtype and op NCCL takes, out of place into poisoned buffers and in
// place, send/recv to itself in a group, on a non-default current stream; the argument checks
// with real arrays; and, where two or more devices exist, init_all over all of them with results
// bit-identical across ranks and equal to host sums. Skips without a device; refuses to run
// (fails) unless NCCL_NVLS_ENABLE=0, since NVLink multicast can take a shared host's GPUs out of
// service, and fails where libnccl cannot be loaded on a GPU machine.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/nccl.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "nccl_gpu_support.hpp"

namespace cupp::cuda::nccl {
namespace {

using test::error_of;

const std::vector<dtype>& all_dtypes() {
  static const std::vector<dtype> types{bool_,   int8,     int16,   int32,   int64,     uint8,     uint16,    uint32,
                                        uint64,  float16,  bfloat16, float32, float64, complex64, complex128};
  return types;
}

bool reducible(const dtype& t, reduce_op op) {
  if (t == int16 || t == uint16) return false;
  if (t.is_complex()) return op == reduce_op::sum || op == reduce_op::avg;
  if (t == bool_) return op != reduce_op::avg;
  return true;
}

constexpr reduce_op all_ops[] = {reduce_op::sum, reduce_op::prod, reduce_op::max, reduce_op::min, reduce_op::avg};

// n elements of `type` from a pattern that depends on `seed` (small values: exact in every dtype).
ndarray pattern(const dtype& type, std::int64_t n, int seed) {
  if (type == bool_) {
    std::vector<bool> v(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = ((i * 7 + seed) % 3) == 0;
    return asarray(v);
  }
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (i * 37 + seed * 11) % 13 + 1;
  return astype(asarray(v), type);
}

// Different values from every pattern(): what a collective must overwrite.
ndarray poison(const dtype& type, std::int64_t n) {
  if (type == bool_) return logical_not(pattern(type, n, 0));
  return astype(full({n}, 77), type);
}

// "" when `got` and `want` hold the same bytes; otherwise how many elements differ and the first
// one, as hex (a readable failure where a byte dump would be cut off).
std::string bit_difference(const ndarray& got, const ndarray& want) {
  const host_array g = got.get(), w = want.get();
  const std::size_t item = static_cast<std::size_t>(want.dtype().itemsize());
  if (g.bytes().size() != w.bytes().size()) return "sizes differ";
  std::size_t differing = 0, first = 0;
  for (std::size_t i = 0; i * item < w.bytes().size(); ++i)
    if (std::memcmp(g.bytes().data() + i * item, w.bytes().data() + i * item, item) != 0 && differing++ == 0) first = i;
  if (differing == 0) return "";
  auto hex = [&](const host_array& a) {
    std::string out;
    for (std::size_t b = item; b-- > 0;) {
      const auto v = static_cast<unsigned>(a.bytes()[first * item + b]);
      out += "0123456789abcdef"[v >> 4];
      out += "0123456789abcdef"[v & 15];
    }
    return out;
  };
  return std::to_string(differing) + " of " + std::to_string(w.bytes().size() / item) + " elements differ; first at " +
         std::to_string(first) + ": 0x" + hex(g) + ", expected 0x" + hex(w);
}

std::vector<std::byte> bytes_of(const ndarray& a) {
  const host_array h = a.get();
  return std::vector<std::byte>(h.bytes().begin(), h.bytes().end());
}

class NcclGpu : public ::testing::Test {
 protected:
  static void TearDownTestSuite() { comm_.reset(); }
  // A communicator of one rank on the current device, made once for the suite.
  static Communicator& comm() {
    if (!comm_) comm_ = std::make_unique<Communicator>(1, get_unique_id(), 0);
    return *comm_;
  }
  static inline std::unique_ptr<Communicator> comm_;
};

constexpr std::int64_t n = 4099;  // odd: no multiple of a vector width

TEST_F(NcclGpu, OneRankCommunicator) {
  CUPP_REQUIRE_NCCL();
  Communicator& c = comm();
  EXPECT_EQ(c.rank(), 0);
  EXPECT_EQ(c.size(), 1);
  EXPECT_EQ(c.device(), current_device());
  EXPECT_FALSE(c.is_destroyed());
  EXPECT_NE(c.handle(), nullptr);
  EXPECT_NO_THROW(c.check_async_error());
  EXPECT_GE(get_version(), 21000);
}

TEST_F(NcclGpu, AllReduceEveryDtypeAndOp) {
  CUPP_REQUIRE_NCCL();
  for (const dtype& t : all_dtypes())
    for (reduce_op op : all_ops) {
      if (!reducible(t, op)) continue;
      SCOPED_TRACE(t.name() + " " + to_string(op));
      const ndarray x = pattern(t, n, 1), y = poison(t, n);
      comm().all_reduce(x, y, op);
      EXPECT_EQ(bit_difference(y, x), "");  // one rank: op over {x} is x, bit for bit
      const ndarray z = x.copy();
      comm().all_reduce(z, z, op);  // in place
      EXPECT_EQ(bit_difference(z, x), "");
    }
}

TEST_F(NcclGpu, ReduceEveryDtypeAndOp) {
  CUPP_REQUIRE_NCCL();
  for (const dtype& t : all_dtypes())
    for (reduce_op op : all_ops) {
      if (!reducible(t, op)) continue;
      SCOPED_TRACE(t.name() + " " + to_string(op));
      const ndarray x = pattern(t, n, 2), y = poison(t, n);
      comm().reduce(x, y, op, 0);
      EXPECT_EQ(bit_difference(y, x), "");
    }
}

TEST_F(NcclGpu, ReduceScatterEveryDtypeAndOp) {
  CUPP_REQUIRE_NCCL();
  for (const dtype& t : all_dtypes())
    for (reduce_op op : all_ops) {
      if (!reducible(t, op)) continue;
      SCOPED_TRACE(t.name() + " " + to_string(op));
      const ndarray x = pattern(t, n, 3), y = poison(t, n);
      comm().reduce_scatter(x, y, op);
      EXPECT_EQ(bit_difference(y, x), "");
    }
}

TEST_F(NcclGpu, BroadcastAllGatherEveryDtype) {
  CUPP_REQUIRE_NCCL();
  for (const dtype& t : all_dtypes()) {  // int16 and uint16 too: moved as bytes
    SCOPED_TRACE(t.name());
    const ndarray x = pattern(t, n, 4);
    const ndarray b = poison(t, n), g = poison(t, n), in_place = x.copy();
    comm().broadcast(x, b, 0);
    comm().all_gather(x, g);
    comm().broadcast(in_place, 0);
    EXPECT_EQ(bytes_of(b), bytes_of(x));
    EXPECT_EQ(bytes_of(g), bytes_of(x));
    EXPECT_EQ(bytes_of(in_place), bytes_of(x));
  }
}

TEST_F(NcclGpu, SendRecvToSelfInAGroup) {
  CUPP_REQUIRE_NCCL();
  for (const dtype& t : all_dtypes()) {
    SCOPED_TRACE(t.name());
    const ndarray x = pattern(t, n, 5), y = poison(t, n);
    group_start();
    comm().send(x, 0);
    comm().recv(y, 0);
    group_end();
    EXPECT_EQ(bit_difference(y, x), "");
  }
}

TEST_F(NcclGpu, RunsOnTheCurrentStream) {
  CUPP_REQUIRE_NCCL();
  const Stream s = Stream::create({.non_blocking = true});
  ndarray x, y;
  {
    StreamGuard on_s(s);
    // Made, reduced and read back on s: a collective on another stream would race the fill.
    x = astype(arange(0, 1 << 22, 1), float32);
    y = empty({1 << 22}, float32);
    comm().all_reduce(x, y, reduce_op::sum);
    EXPECT_EQ(bit_difference(y, x), "");
  }
  s.synchronize();
}

TEST_F(NcclGpu, EmptyArraysAreNoOps) {
  CUPP_REQUIRE_NCCL();
  const ndarray e = empty({0}, float32);
  EXPECT_NO_THROW(comm().all_reduce(e, e));
  EXPECT_NO_THROW(comm().all_gather(e, e));
  EXPECT_NO_THROW(comm().broadcast(e, 0));
  group_start();
  EXPECT_NO_THROW(comm().send(e, 0));
  EXPECT_NO_THROW(comm().recv(e, 0));
  group_end();
}

TEST_F(NcclGpu, ArgumentErrors) {
  CUPP_REQUIRE_NCCL();
  Communicator& c = comm();
  const ndarray x = pattern(float32, 8, 0), y = empty({8}, float32);
  EXPECT_EQ(error_of<TypeError>([&] { c.all_reduce(pattern(int16, 8, 0), empty({8}, int16)); }),
            "nccl all_reduce: cannot reduce dtype int16 with 'sum': NCCL has no 16-bit integer type (it reduces "
            "int8, uint8, int32, uint32, int64, uint64, float16, bfloat16, float32, float64)");
  EXPECT_NE(error_of<TypeError>([&] {
              c.reduce(pattern(complex64, 8, 0), empty({8}, complex64), reduce_op::max);
            }),
            "<no error>");
  EXPECT_EQ(error_of<TypeError>([&] { c.all_reduce(x, empty({8}, float64)); }),
            "nccl all_reduce: send has dtype float32 and recv float64; they must be the same");
  EXPECT_EQ(error_of<ValueError>([&] { c.all_reduce(x, empty({7}, float32)); }),
            "nccl all_reduce: recv has 7 elements, expected 8 (as many as send)");
  EXPECT_EQ(error_of<ValueError>([&] { c.all_reduce(x(slice(0, 8, 2)), empty({4}, float32)); }),
            "nccl all_reduce: send must be C-contiguous (NCCL takes one contiguous buffer; copy it with "
            "cupp::ascontiguousarray)");
  const std::int64_t shape8[] = {8};
  EXPECT_EQ(error_of<ValueError>([&] { c.all_reduce(x, broadcast_to(pattern(float32, 1, 0), shape8)); }),
            "nccl all_reduce: recv must be C-contiguous (NCCL takes one contiguous buffer; copy it with "
            "cupp::ascontiguousarray)");
  EXPECT_EQ(error_of<ValueError>([&] { c.all_reduce(ndarray(), y); }), "nccl all_reduce: send is a null ndarray");
  EXPECT_EQ(error_of<ValueError>([&] { c.reduce(x, y, reduce_op::sum, 1); }),
            "nccl reduce: root 1 is out of range for 1 rank");
  EXPECT_EQ(error_of<ValueError>([&] { c.broadcast(x, y, -1); }), "nccl broadcast: root -1 is out of range for 1 rank");
  EXPECT_EQ(error_of<ValueError>([&] { c.send(x, 1); }), "nccl send: peer 1 is out of range for 1 rank");
  EXPECT_EQ(error_of<ValueError>([&] { c.recv(y, 3); }), "nccl recv: peer 3 is out of range for 1 rank");
  EXPECT_EQ(error_of<ValueError>([&] { c.all_gather(x, empty({16}, float32)); }),
            "nccl all_gather: recv has 16 elements, expected 8 (size() times send's)");
  EXPECT_EQ(error_of<ValueError>([&] { c.reduce_scatter(x, empty({4}, float32)); }),
            "nccl reduce_scatter: send has 8 elements, expected 4 (size() times recv's)");
}

TEST_F(NcclGpu, DestroyedCommunicator) {
  CUPP_REQUIRE_NCCL();
  Communicator c(1, get_unique_id(), 0);
  const ndarray x = pattern(int32, 16, 0);
  c.all_reduce(x, x);
  c.destroy();
  EXPECT_TRUE(c.is_destroyed());
  EXPECT_EQ(error_of<ValueError>([&] { c.all_reduce(x, x); }), "nccl all_reduce: the communicator was destroyed");
  EXPECT_NO_THROW(c.destroy());  // twice: nothing to do
  Communicator moved = std::move(c);
  EXPECT_TRUE(moved.is_destroyed());
}

TEST_F(NcclGpu, InitAllChecks) {
  CUPP_REQUIRE_NCCL();
  const int count = device_count();
  EXPECT_EQ(error_of<ValueError>([] { Communicator::init_all({0, 0}); }),
            "nccl Communicator.init_all: device 0 is listed twice (NCCL takes one rank per device)");
  EXPECT_EQ(error_of<ValueError>([&] { Communicator::init_all({count}); }),
            "nccl Communicator.init_all: device " + std::to_string(count) + " is out of range (" +
                std::to_string(count) + " device" + (count == 1 ? "" : "s") + ")");
  std::vector<Communicator> one = Communicator::init_all({0});
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].device(), 0);
  EXPECT_EQ(one[0].size(), 1);
  DeviceGuard on0(0);
  const ndarray x = pattern(float64, 100, 6), y = poison(float64, 100);
  one[0].all_reduce(x, y, reduce_op::max);
  EXPECT_EQ(bit_difference(y, x), "");
}

// ---- several devices (the multi-GPU machine; skips with one)

TEST_F(NcclGpu, AllReduceAcrossDevicesIsBitIdentical) {
  CUPP_REQUIRE_NCCL();
  const int count = device_count();
  if (count < 2) GTEST_SKIP() << "needs two devices (the multi-GPU machine)";
  std::vector<Communicator> comms = Communicator::init_all(count);
  for (const dtype& t : all_dtypes())
    for (reduce_op op : all_ops) {
      if (!reducible(t, op)) continue;
      SCOPED_TRACE(t.name() + " " + to_string(op));
      std::vector<ndarray> x(count), y(count);
      for (int r = 0; r < count; ++r) {
        DeviceGuard g(r);
        x[r] = pattern(t, n, r + 1);
        y[r] = poison(t, n);
      }
      group_start();
      for (int r = 0; r < count; ++r) comms[r].all_reduce(x[r], y[r], op);
      group_end();
      const std::vector<std::byte> first = bytes_of(y[0]);
      for (int r = 1; r < count; ++r) EXPECT_EQ(bytes_of(y[r]), first) << "rank " << r;
      if (t == int64 && op == reduce_op::sum) {  // against a host sum
        std::vector<std::int64_t> expected(static_cast<std::size_t>(n), 0);
        for (int r = 0; r < count; ++r) {
          const std::vector<std::int64_t> v = x[r].to_vector<std::int64_t>();
          for (std::int64_t i = 0; i < n; ++i) expected[static_cast<std::size_t>(i)] += v[static_cast<std::size_t>(i)];
        }
        EXPECT_EQ(y[0].to_vector<std::int64_t>(), expected);
      }
    }
}

}  // namespace
}  // namespace cupp::cuda::nccl

namespace cupp::cuda::nccl {
namespace {

std::vector<std::int32_t> ints(const ndarray& a) { return a.to_vector<std::int32_t>(); }

TEST_F(NcclGpu, EveryCollectiveAcrossDevices) {
  CUPP_REQUIRE_NCCL();
  const int count = device_count();
  if (count < 2) GTEST_SKIP() << "needs two devices (the multi-GPU machine)";
  std::vector<Communicator> comms = Communicator::init_all(count);
  constexpr std::int64_t m = 1000;
  std::vector<ndarray> x(count), gathered(count), bcast(count), reduced(count), scattered(count), ring(count),
      spread(count);
  for (int r = 0; r < count; ++r) {
    DeviceGuard g(r);
    x[r] = full({m}, r + 1, int32);
    gathered[r] = full({count * m}, -1, int32);
    bcast[r] = full({m}, -1, int32);
    reduced[r] = r == 0 ? full({m}, -1, int32) : ndarray();
    spread[r] = add(arange(0, count * m, 1, int32), r);
    scattered[r] = full({m}, -1, int32);
    ring[r] = full({m}, -1, int32);
  }
  group_start();
  for (int r = 0; r < count; ++r) {
    comms[r].all_gather(x[r], gathered[r]);
    comms[r].broadcast(r == count - 1 ? x[r] : ndarray(), bcast[r], count - 1);
    comms[r].reduce(x[r], reduced[r], reduce_op::sum, 0);
    comms[r].reduce_scatter(spread[r], scattered[r], reduce_op::sum);
    comms[r].send(x[r], (r + 1) % count);
    comms[r].recv(ring[r], (r + count - 1) % count);
  }
  group_end();
  std::vector<std::int32_t> all_ranks;
  for (int k = 0; k < count; ++k) all_ranks.insert(all_ranks.end(), m, k + 1);
  for (int r = 0; r < count; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    EXPECT_EQ(ints(gathered[r]), all_ranks);
    EXPECT_EQ(ints(bcast[r]), std::vector<std::int32_t>(m, count));
    EXPECT_EQ(ints(ring[r]), std::vector<std::int32_t>(m, (r + count - 1) % count + 1));
    std::vector<std::int32_t> block(m);
    for (std::int64_t i = 0; i < m; ++i)
      block[static_cast<std::size_t>(i)] =
          static_cast<std::int32_t>(count * (r * m + i) + count * (count - 1) / 2);
    EXPECT_EQ(ints(scattered[r]), block);
  }
  EXPECT_EQ(ints(reduced[0]), std::vector<std::int32_t>(m, count * (count + 1) / 2));
  // A communicator given another device's array.
  EXPECT_EQ(test::error_of<ValueError>([&] { comms[1].all_reduce(x[0], x[0]); }),
            "nccl all_reduce: send is on device 0, the communicator on device 1");
}

}  // namespace
}  // namespace cupp::cuda::nccl
