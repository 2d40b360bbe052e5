// The sorting routines without a GPU (cupp/sorting.hpp): the argument checks that happen before
// any device work (NumPy's error classes and messages) and the accelerator switch. The NVRTC
// program of the sorting kernels compiles in RoutinePrograms.EveryInstantiationCompiles.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cupp/config.hpp"
#include "cupp/errors.hpp"
#include "cupp/sorting.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"

namespace cupp {
namespace {

using test::error_of;

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = float32) : fake_array(std::move(shape), type) {}
};

TEST(SortingHost, SortKind) {
  EXPECT_NO_THROW(detail::check_sort_kind({}));
  for (const char* k : {"quicksort", "mergesort", "heapsort", "stable", "Q", "s"})
    EXPECT_NO_THROW(detail::check_sort_kind({.kind = k})) << k;
  EXPECT_EQ(error_of<ValueError>([] { detail::check_sort_kind({.kind = "bogus"}); }),
            "sort kind must be one of 'quick', 'heap', or 'stable' (got 'bogus')");
  EXPECT_EQ(error_of<ValueError>([] { detail::check_sort_kind({.kind = "stable", .stable = true}); }),
            "`kind` and `stable` parameters can't be provided at the same time. Use only one of them.");
  fake f({4});
  EXPECT_THROW(sort(f.a, {.kind = "x"}), ValueError);
  EXPECT_THROW(argsort(f.a, {.kind = "x"}), ValueError);
}

TEST(SortingHost, Kth) {
  const std::int64_t k1[] = {1, -1, 0, 4};
  EXPECT_EQ(detail::normalize_kth(k1, 5), (std::vector<std::int64_t>{1, 4, 0, 4}));
  const std::int64_t k2[] = {5};
  EXPECT_EQ(error_of<ValueError>([&] { detail::normalize_kth(k2, 5); }), "kth(=5) out of bounds (5)");
  const std::int64_t k3[] = {-6};
  EXPECT_EQ(error_of<ValueError>([&] { detail::normalize_kth(k3, 5); }), "kth(=-1) out of bounds (5)");
  fake f({5});
  EXPECT_EQ(error_of<ValueError>([&] { partition(f.a, 5); }), "kth(=5) out of bounds (5)");
  EXPECT_EQ(error_of<ValueError>([&] { argpartition(f.a, {1, 7}); }), "kth(=7) out of bounds (5)");
  fake g({2, 3});
  EXPECT_EQ(error_of<ValueError>([&] { partition(g.a, 2, 0); }), "kth(=2) out of bounds (2)");
}

TEST(SortingHost, AxisErrors) {
  fake scalar0({});
  EXPECT_EQ(error_of<AxisError>([&] { sort(scalar0.a); }), "axis -1 is out of bounds for array of dimension 0");
  EXPECT_EQ(error_of<AxisError>([&] { partition(scalar0.a, 0); }),
            "axis -1 is out of bounds for array of dimension 0");
  fake m({2, 3});
  EXPECT_EQ(error_of<AxisError>([&] { sort(m.a, 2); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<AxisError>([&] { argsort(m.a, -3); }), "axis -3 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<AxisError>([&] { lexsort({m.a}, 2); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_TRUE(dynamic_cast<const ValueError*>(&static_cast<const Error&>(AxisError("x"))) != nullptr);
}

TEST(SortingHost, LexsortArguments) {
  EXPECT_EQ(error_of<TypeError>([] { lexsort(std::span<const ndarray>()); }),
            "need sequence of keys with len > 0 in lexsort");
  fake a({3}), b({4});
  EXPECT_EQ(error_of<ValueError>([&] { lexsort({a.a, b.a}); }), "all keys need to be the same shape");
}

TEST(SortingHost, AcceleratorSwitch) {
  detail::set_sort_accelerator(false);
  EXPECT_FALSE(detail::sort_uses_cub());
  detail::set_sort_accelerator(true);
  EXPECT_TRUE(detail::sort_uses_cub());
  detail::set_sort_accelerator(std::nullopt);
  EXPECT_EQ(detail::sort_uses_cub(), config::get().accelerator_enabled("cub"));
  // CUPP_ACCELERATORS: `cub` by default, none when empty.
  const auto none = config::from_environment([](std::string_view n) -> std::optional<std::string> {
    if (n == "CUPP_ACCELERATORS") return std::string();
    return std::nullopt;
  });
  EXPECT_FALSE(none.accelerator_enabled("cub"));
  const auto dflt = config::from_environment([](std::string_view) -> std::optional<std::string> { return std::nullopt; });
  EXPECT_TRUE(dflt.accelerator_enabled("cub"));
  EXPECT_EQ(detail::cub_sort_launches(), 0u);  // nothing sorted on a machine without a GPU
}

TEST(SortingHost, Routines) {
  std::vector<std::string> names;
  for (const routine_info& r : sorting_routines()) names.emplace_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"sort", "argsort", "lexsort", "partition", "argpartition"}));
}

}  // namespace
}  // namespace cupp
