// cupp::distributed::block_array on the GPU: blocks split as numpy.array_split, blockwise ufuncs,
// gather by peer copies, and the reductions (local, then NCCL's all_reduce) equal to cupp's
// single-array reductions. On one GPU the blocks repeat device 0 (the layout, the ufuncs, the
// per-device combine and a one-rank all_reduce); where two or more GPUs exist, the blocks spread
// over all of them. Skips without a device; refuses to run without NCCL_NVLS_ENABLE=0.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/distributed.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "nccl_gpu_support.hpp"

namespace cupp::distributed {
namespace {

using test::error_of;

ndarray values(std::int64_t n, cupp::dtype type) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = (i * 31 + 7) % 23 - 5;
  return astype(asarray(v), type);
}

template <class T>
std::vector<T> host(const ndarray& a) {
  return a.to_vector<T>();
}

// Three blocks on device 0 on one GPU; one block per device on more.
std::vector<int> layout_devices() {
  const int count = cuda::device_count();
  if (count < 2) return {0, 0, 0};
  std::vector<int> d;
  for (int i = 0; i < count; ++i) d.push_back(i);
  return d;
}

TEST(BlockArrayGpu, SplitsAsArraySplitAndGathers) {
  CUPP_REQUIRE_NCCL();
  const ndarray a = values(10, int64);
  const block_array x = block_array::distribute(a, {0, 0, 0});
  ASSERT_EQ(x.nblocks(), 3);
  EXPECT_EQ(x.size(), 10);
  EXPECT_EQ(x.dtype(), int64);
  EXPECT_EQ(x.block(0).size(), 4);  // numpy.array_split(range(10), 3): 4, 3, 3
  EXPECT_EQ(x.block(1).size(), 3);
  EXPECT_EQ(x.block(2).size(), 3);
  EXPECT_EQ(x.offset(1), 4);
  EXPECT_EQ(x.offset(2), 7);
  EXPECT_EQ(x.devices(), (std::vector<int>{0, 0, 0}));
  const std::vector<std::int64_t> all = host<std::int64_t>(a);
  EXPECT_EQ(host<std::int64_t>(x.block(1)), std::vector<std::int64_t>(all.begin() + 4, all.begin() + 7));
  EXPECT_EQ(host<std::int64_t>(x.gather()), all);
  EXPECT_EQ(host<std::int64_t>(x.gather(0)), all);
}

TEST(BlockArrayGpu, UfuncsRunBlockwise) {
  CUPP_REQUIRE_NCCL();
  const ndarray a = values(1001, float64), b = values(1001, float64);
  const block_array x = block_array::distribute(a, layout_devices());
  const block_array y = block_array::distribute(cupp::add(b, 0.5), layout_devices());
  const block_array z = apply(cupp::multiply, apply(cupp::add, x, y), 3.0);
  EXPECT_TRUE(z.same_layout(x));
  EXPECT_EQ(host<double>(z.gather(0)), host<double>(cupp::multiply(cupp::add(a, cupp::add(b, 0.5)), 3.0)));
  const block_array s = apply(cupp::sin, x);
  EXPECT_EQ(host<double>(s.gather(0)), host<double>(cupp::sin(a)));  // the same kernel on the same values
  const block_array r = apply(cupp::subtract, 1, x);
  EXPECT_EQ(host<double>(r.gather(0)), host<double>(cupp::subtract(1, a)));
  const block_array cmp = apply(cupp::greater, x, 0);
  EXPECT_EQ(cmp.dtype(), bool_);
  const block_array other = block_array::distribute(a, {0, 0});
  EXPECT_EQ(error_of<ValueError>([&] { apply(cupp::add, x, other); }).rfind(
                "distributed apply of 'add': the operands' blocks differ", 0),
            0u);
}

TEST(BlockArrayGpu, ReductionsEqualTheSingleArrays) {
  CUPP_REQUIRE_NCCL();
  for (cupp::dtype t : {int32, int64, uint8, float32, float64, bool_}) {
    SCOPED_TRACE(t.name());
    const ndarray a = values(100003, t);
    const block_array x = block_array::distribute(a, layout_devices());
    const ndarray s = sum(x), whole = cupp::sum(a);
    EXPECT_EQ(s.ndim(), 0);
    EXPECT_EQ(s.dtype(), whole.dtype());  // NumPy's result dtype (int64 for small ints and bool)
    EXPECT_EQ(s.device(), 0);
    if (t.is_floating()) {
      EXPECT_NEAR(s.item<double>(), whole.item<double>(), 1e-6 * 100003 * 20);
    } else {
      EXPECT_EQ(s.item<double>(), whole.item<double>());
    }
    EXPECT_EQ(max(x).item<double>(), cupp::max(a).item<double>());
    EXPECT_EQ(min(x).item<double>(), cupp::min(a).item<double>());
    EXPECT_EQ(max(x).dtype(), t);
  }
  const ndarray small = cupp::add(values(40, float64), 100.0);  // 95 .. 117: a product that fits
  const ndarray p = prod(block_array::distribute(cupp::divide(small, 100.0), layout_devices()));
  EXPECT_NEAR(p.item<double>(), cupp::prod(cupp::divide(small, 100.0)).item<double>(), 1e-12);
}

TEST(BlockArrayGpu, FewerElementsThanBlocks) {
  CUPP_REQUIRE_NCCL();
  const block_array x = block_array::distribute(values(2, int64), {0, 0, 0});
  EXPECT_EQ(x.block(2).size(), 0);
  EXPECT_EQ(max(x).item<std::int64_t>(), cupp::max(values(2, int64)).item<std::int64_t>());
  EXPECT_EQ(sum(x).item<std::int64_t>(), cupp::sum(values(2, int64)).item<std::int64_t>());
  const block_array e = block_array::distribute(empty({0}, float32), {0, 0});
  EXPECT_EQ(sum(e).item<float>(), 0.0f);
  EXPECT_EQ(error_of<ValueError>([&] { max(e); }), error_of<ValueError>([] { cupp::max(empty({0}, float32)); }));
}

TEST(BlockArrayGpu, Errors) {
  CUPP_REQUIRE_NCCL();
  const int count = cuda::device_count();
  EXPECT_EQ(error_of<ValueError>([] { block_array::distribute(zeros({2, 3}), {0}); }),
            "block_array.distribute: a 1-D block distribution takes a 1-D array, got 2 dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { block_array::distribute(zeros({4}), {count}); }),
            "block_array.distribute: device " + std::to_string(count) + " is out of range (" + std::to_string(count) +
                " device" + (count == 1 ? "" : "s") + ")");
  EXPECT_EQ(error_of<TypeError>([] { sum(block_array::distribute(values(8, int16), {0})); }),
            "<no error>");  // int16 sums to int64: NCCL reduces the partials
  EXPECT_NE(error_of<TypeError>([] { max(block_array::distribute(values(8, int16), {0})); }), "<no error>");
}

}  // namespace
}  // namespace cupp::distributed
