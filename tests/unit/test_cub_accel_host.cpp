// The CUB accelerators' dispatch decisions (accel/cub_dispatch.hpp) and switches
// (cupp/accelerators.hpp), on the host: which reductions, scans and layouts go to CUB, and the
// override that sorting honours too. No GPU needed.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "accel/accelerators.hpp"
#include "accel/cub_dispatch.hpp"
#include "cupp/accelerators.hpp"
#include "cupp/config.hpp"
#include "cupp/sorting.hpp"

namespace cupp {
namespace {

using detail::accel::one_contiguous_run;
using detail::accel::plan_arg_reduce;
using detail::accel::plan_reduce;
using detail::accel::plan_scan;
using detail::accel::reduce_path;
using t = type_id;
using sv = std::vector<std::int64_t>;

TEST(CubAccelHost, ReducePlans) {
  // NumPy's default accumulators: integer sums and products widen to 64 bits; halves in float32.
  EXPECT_EQ(plan_reduce("add", t::int8, t::int64, t::int64), reduce_path::int_sum_prod);
  EXPECT_EQ(plan_reduce("add", t::bool_, t::int64, t::int64), reduce_path::int_sum_prod);
  EXPECT_EQ(plan_reduce("multiply", t::uint16, t::uint64, t::uint64), reduce_path::int_sum_prod);
  EXPECT_EQ(plan_reduce("add", t::int32, t::int8, t::int8), reduce_path::int_sum_prod);  // dtype=int8 wraps
  EXPECT_EQ(plan_reduce("add", t::float32, t::float32, t::float32), reduce_path::real_sum_prod);
  EXPECT_EQ(plan_reduce("multiply", t::float64, t::float64, t::float64), reduce_path::real_sum_prod);
  EXPECT_EQ(plan_reduce("add", t::float16, t::float32, t::float16), reduce_path::real_sum_prod);
  EXPECT_EQ(plan_reduce("add", t::bfloat16, t::float32, t::bfloat16), reduce_path::real_sum_prod);
  EXPECT_EQ(plan_reduce("add", t::float16, t::float32, t::float32), reduce_path::real_sum_prod);
  EXPECT_EQ(plan_reduce("maximum", t::int8, t::int8, t::int8), reduce_path::int_min_max);
  EXPECT_EQ(plan_reduce("minimum", t::uint64, t::uint64, t::uint64), reduce_path::int_min_max);
  EXPECT_EQ(plan_reduce("maximum", t::bool_, t::bool_, t::bool_), reduce_path::int_min_max);
  EXPECT_EQ(plan_reduce("minimum", t::float32, t::float32, t::float32), reduce_path::real_min_max);
  EXPECT_EQ(plan_reduce("maximum", t::float64, t::float64, t::float64), reduce_path::real_min_max);
  // Not instantiated or not NumPy's plain loop: cupp's own kernels.
  EXPECT_EQ(plan_reduce("add", t::complex64, t::complex64, t::complex64), reduce_path::none);
  EXPECT_EQ(plan_reduce("maximum", t::complex128, t::complex128, t::complex128), reduce_path::none);
  EXPECT_EQ(plan_reduce("maximum", t::int16, t::int16, t::int16), reduce_path::none);
  EXPECT_EQ(plan_reduce("maximum", t::float16, t::float16, t::float16), reduce_path::none);
  EXPECT_EQ(plan_reduce("add", t::int8, t::float64, t::float64), reduce_path::none);  // mean's sum of ints
  EXPECT_EQ(plan_reduce("add", t::float32, t::float64, t::float64), reduce_path::none);
  EXPECT_EQ(plan_reduce("add", t::bool_, t::bool_, t::bool_), reduce_path::none);
  EXPECT_EQ(plan_reduce("logical_and", t::bool_, t::bool_, t::bool_), reduce_path::none);
  EXPECT_EQ(plan_reduce("fmax", t::float32, t::float32, t::float32), reduce_path::none);
  EXPECT_EQ(plan_reduce("subtract", t::int64, t::int64, t::int64), reduce_path::none);
}

TEST(CubAccelHost, ArgAndScanPlans) {
  for (t x : {t::bool_, t::int8, t::uint8, t::int32, t::uint32, t::int64, t::uint64, t::float32, t::float64})
    EXPECT_TRUE(plan_arg_reduce(x)) << static_cast<int>(x);
  for (t x : {t::int16, t::uint16, t::float16, t::bfloat16, t::complex64, t::complex128})
    EXPECT_FALSE(plan_arg_reduce(x)) << static_cast<int>(x);
  EXPECT_TRUE(plan_scan("add", t::int8, t::int64));
  EXPECT_TRUE(plan_scan("add", t::bool_, t::int64));
  EXPECT_TRUE(plan_scan("multiply", t::uint32, t::uint64));
  EXPECT_TRUE(plan_scan("maximum", t::int64, t::int64));
  EXPECT_TRUE(plan_scan("bitwise_xor", t::uint8, t::int64));
  EXPECT_FALSE(plan_scan("add", t::int16, t::int64));      // width not instantiated
  EXPECT_FALSE(plan_scan("add", t::int32, t::int32));      // narrow accumulator
  EXPECT_FALSE(plan_scan("add", t::float32, t::float32));  // floats: cupp's own scan (run-to-run bits)
  EXPECT_FALSE(plan_scan("add", t::float64, t::float64));
  EXPECT_FALSE(plan_scan("logical_and", t::bool_, t::bool_));
  EXPECT_FALSE(plan_scan("gcd", t::int64, t::int64));
}

TEST(CubAccelHost, OneContiguousRun) {
  const std::vector<bool> all2{true, true}, first{true, false}, second{false, true};
  // C order, every axis reduced.
  EXPECT_TRUE(one_contiguous_run(sv{3, 4}, sv{32, 8}, 8, 4096, all2, false));
  // Fortran order: any order only (sums and extrema), not for positions.
  EXPECT_TRUE(one_contiguous_run(sv{3, 4}, sv{8, 24}, 8, 4096, all2, true));
  EXPECT_FALSE(one_contiguous_run(sv{3, 4}, sv{8, 24}, 8, 4096, all2, false));
  // A kept axis of length > 1: many results.
  EXPECT_FALSE(one_contiguous_run(sv{3, 4}, sv{32, 8}, 8, 4096, first, false));
  // A kept axis of length 1 is fine.
  EXPECT_TRUE(one_contiguous_run(sv{1, 4}, sv{32, 8}, 8, 4096, second, false));
  // Gaps (a strided view), reversed strides, misaligned data, empty arrays.
  EXPECT_FALSE(one_contiguous_run(sv{4}, sv{16}, 8, 4096, {true}, true));
  EXPECT_FALSE(one_contiguous_run(sv{4}, sv{-8}, 8, 4096, {true}, true));
  EXPECT_FALSE(one_contiguous_run(sv{4}, sv{4}, 4, 4098, {true}, true));
  EXPECT_FALSE(one_contiguous_run(sv{0}, sv{4}, 4, 4096, {true}, true));
  // 0-d: one element.
  EXPECT_TRUE(one_contiguous_run(sv{}, sv{}, 4, 4096, {}, false));
  // complex128: 16-byte alignment.
  EXPECT_TRUE(one_contiguous_run(sv{5}, sv{16}, 16, 4096 + 16, {true}, true));
  EXPECT_FALSE(one_contiguous_run(sv{5}, sv{16}, 16, 4096 + 8, {true}, true));
}

TEST(CubAccelHost, SwitchAndSortingFollowIt) {
  detail::set_cub_accelerators(false);
  EXPECT_FALSE(detail::cub_accelerators_enabled());
  EXPECT_FALSE(detail::sort_uses_cub());
  detail::set_cub_accelerators(true);
  const bool built = detail::cub_accelerators_enabled();  // false only without the nvcc objects
  EXPECT_EQ(detail::sort_uses_cub(), built);
  detail::set_sort_accelerator(false);  // the sort switch still decides for sorting alone
  EXPECT_FALSE(detail::sort_uses_cub());
  EXPECT_EQ(detail::cub_accelerators_enabled(), built);
  detail::set_sort_accelerator(std::nullopt);
  detail::set_cub_accelerators(std::nullopt);
  EXPECT_EQ(detail::cub_accelerators_enabled(), built && config::get().accelerator_enabled("cub"));
  EXPECT_EQ(detail::sort_uses_cub(), detail::cub_accelerators_enabled());
}

// The CUB paths slower than cupp's own (extrema, stream compaction) run only when the override
// forces CUB on; CUPP_ACCELERATORS=cub alone leaves them to cupp's kernels.
TEST(CubAccelHost, SlowerPathsOnlyWhenForced) {
  detail::set_cub_accelerators(std::nullopt);
  EXPECT_FALSE(detail::accel::cub_forced_on());
  EXPECT_FALSE(detail::accel::enabled());
  detail::set_cub_accelerators(true);
  const bool built = detail::cub_accelerators_enabled();
  EXPECT_EQ(detail::accel::cub_forced_on(), built);
  EXPECT_EQ(detail::accel::enabled(), built);
  detail::set_cub_accelerators(false);
  EXPECT_FALSE(detail::accel::cub_forced_on());
  EXPECT_FALSE(detail::accel::enabled());
  detail::set_cub_accelerators(std::nullopt);
}

// Where CUB pays: sums/products and integer scans from 2^20 elements; never extrema, argmax or
// compaction; everything when forced.
TEST(CubAccelHost, PaysOnlyWhereMeasuredFaster) {
  using detail::accel::cub_pays;
  using detail::accel::cub_use;
  const std::int64_t big = std::int64_t(1) << 20;
  for (cub_use u : {cub_use::sum_prod, cub_use::scan}) {
    EXPECT_TRUE(cub_pays(u, big, false));
    EXPECT_FALSE(cub_pays(u, big - 1, false));
    EXPECT_FALSE(cub_pays(u, 1024, false));
  }
  for (cub_use u : {cub_use::extrema, cub_use::arg_extrema, cub_use::select})
    EXPECT_FALSE(cub_pays(u, std::int64_t(1) << 30, false));
  for (cub_use u : {cub_use::sum_prod, cub_use::extrema, cub_use::arg_extrema, cub_use::scan, cub_use::select})
    EXPECT_TRUE(cub_pays(u, 7, true));
}

TEST(CubAccelHost, CountersStartAtZero) {
  // Nothing runs on the device in the unit tests.
  const auto c = detail::accelerator_launch_counts();
  EXPECT_EQ(c.reduce, 0u);
  EXPECT_EQ(c.scan, 0u);
  EXPECT_EQ(c.select, 0u);
  EXPECT_EQ(detail::accelerator_launches(), c.sort + c.reduce + c.scan + c.select);
}

}  // namespace
}  // namespace cupp
