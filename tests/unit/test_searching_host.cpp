// The searching, counting and set routines without a GPU (cupp/searching.hpp): the validation that
// happens before any device work (NumPy's error classes and messages), NumPy's bins monotonicity
// rule, histogram's edge dtype, side= parsing and the routine table. The NVRTC program of every
// dtype compiles in RoutinePrograms.EveryInstantiationCompiles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/searching.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"

namespace cupp {
namespace {

using test::error_of;

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = int64) : fake_array(std::move(shape), type) {}
};

TEST(SearchingHost, Side) {
  EXPECT_EQ(parse_search_side("left"), search_side::left);
  EXPECT_EQ(parse_search_side("right"), search_side::right);
  EXPECT_EQ(error_of<ValueError>([] { parse_search_side("middle"); }),
            "search side must be 'left' or 'right' (got 'middle')");
}

TEST(SearchingHost, Monotonicity) {
  using v = std::vector<double>;
  const double nan = std::nan("");
  EXPECT_EQ(detail::bins_monotonicity(v{}), 1);
  EXPECT_EQ(detail::bins_monotonicity(v{3}), 1);
  EXPECT_EQ(detail::bins_monotonicity(v{2, 2, 2}), 1);
  EXPECT_EQ(detail::bins_monotonicity(v{1, 2, 2, 3}), 1);
  EXPECT_EQ(detail::bins_monotonicity(v{3, 3, 2, 1, 1}), -1);
  EXPECT_EQ(detail::bins_monotonicity(v{1, 3, 2}), 0);
  EXPECT_EQ(detail::bins_monotonicity(v{3, 1, 2}), 0);
  // NumPy's C loop: a NaN compares false, so [1, nan] reads as decreasing, [1, 2, nan] increasing.
  EXPECT_EQ(detail::bins_monotonicity(v{1, nan}), -1);
  EXPECT_EQ(detail::bins_monotonicity(v{1, 2, nan}), 1);
  EXPECT_EQ(detail::bins_monotonicity(v{-INFINITY, 0, INFINITY}), 1);
}

TEST(SearchingHost, HistogramBinDtype) {
  EXPECT_EQ(detail::histogram_bin_dtype(float16), float16);
  EXPECT_EQ(detail::histogram_bin_dtype(bfloat16), bfloat16);
  EXPECT_EQ(detail::histogram_bin_dtype(float32), float32);
  EXPECT_EQ(detail::histogram_bin_dtype(float64), float64);
  for (dtype t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64})
    EXPECT_EQ(detail::histogram_bin_dtype(t), float64) << t.name();
}

TEST(SearchingHost, SearchsortedValidation) {
  fake a2({2, 3}), a0({}), a({4}), v({3}), fs({4}, float64), s3({3}), su({4}, uint64);
  EXPECT_EQ(error_of<ValueError>([&] { searchsorted(a2.a, v.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { searchsorted(a0.a, v.a); }), "object of too small depth for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { searchsorted(a.a, v.a, {.sorter = s3.a}); }), "sorter.size must equal a.size");
  EXPECT_EQ(error_of<TypeError>([&] { searchsorted(a.a, v.a, {.sorter = fs.a}); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  EXPECT_THROW(searchsorted(a.a, v.a, {.sorter = su.a}), TypeError);
}

TEST(SearchingHost, DigitizeValidation) {
  fake x({3}), xc({3}, complex128), b2({2, 2}, float64), bc({3}, complex64);
  EXPECT_EQ(error_of<TypeError>([&] { digitize(xc.a, x.a); }), "x may not be complex");
  EXPECT_EQ(error_of<ValueError>([&] { digitize(x.a, b2.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<TypeError>([&] { digitize(x.a, bc.a); }),
            "Cannot cast array data from dtype('complex64') to dtype('float64') according to the rule 'safe'");
}

TEST(SearchingHost, BincountValidation) {
  fake x({3}), x2({2, 2}), x0({}), xf({3}, float64), w2({2}, float64), wc({3}, complex128);
  EXPECT_EQ(error_of<ValueError>([&] { bincount(x2.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { bincount(x0.a); }), "object of too small depth for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { bincount(x.a, {.minlength = -1}); }), "'minlength' must not be negative");
  EXPECT_EQ(error_of<TypeError>([&] { bincount(xf.a); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  // uint64 is accepted (NumPy 2 casts it same_kind); float64 is not (above).
  EXPECT_EQ(error_of<ValueError>([&] { bincount(x.a, {.weights = w2.a}); }),
            "The weights and list don't have the same length.");
  EXPECT_THROW(bincount(x.a, {.weights = wc.a}), TypeError);
}

TEST(SearchingHost, HistogramValidation) {
  fake a({4}, float64), ac({4}, complex128), w({3}, float64), b2({2, 2}, float64), bc({3}, complex128);
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, 0); }), "`bins` must be positive, when an integer");
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, -3); }), "`bins` must be positive, when an integer");
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, 10, {.range = std::pair{2.0, 1.0}}); }),
            "max must be larger than min in range parameter.");
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, 10, {.range = std::pair{0.0, INFINITY}}); }),
            "supplied range of [0.0, inf] is not finite");
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, 10, {.range = std::pair{std::nan(""), 1.0}}); }),
            "supplied range of [nan, 1.0] is not finite");
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, 10, {.weights = w.a}); }),
            "weights should have the same shape as a.");
  EXPECT_EQ(error_of<ValueError>([&] { histogram(a.a, b2.a); }), "`bins` must be 1d, when an array");
  EXPECT_THROW(histogram(ac.a, 10), TypeError);
  EXPECT_THROW(histogram(a.a, bc.a), TypeError);
}

TEST(SearchingHost, UniqueAxisValidation) {
  // NumPy's AxisError (moveaxis's, without its prefix) before any device work, a 0-d array too.
  fake a({2, 3}), a0({}, float64), s({4}, float32);
  EXPECT_EQ(error_of<AxisError>([&] { unique(a.a, {.axis = 2}); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<AxisError>([&] { unique(a.a, {.axis = -3}); }),
            "axis -3 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<AxisError>([&] { unique(a0.a, {.axis = 0}); }), "axis 0 is out of bounds for array of dimension 0");
  EXPECT_EQ(error_of<AxisError>([&] { unique(a0.a, {.return_counts = true, .axis = -1}); }),
            "axis -1 is out of bounds for array of dimension 0");
  EXPECT_THROW(unique(s.a, {.return_index = true, .axis = 1}), ValueError);  // AxisError is a ValueError
  // The designated initializers keep NumPy's keyword order: axis sits before equal_nan.
  constexpr unique_options o{.return_inverse = true, .axis = 0, .equal_nan = false};
  static_assert(o.axis == 0 && !o.equal_nan && o.return_inverse);
}

TEST(SearchingHost, RoutineTable) {
  std::set<std::string> names;
  for (const routine_info& r : searching_routines()) {
    names.insert(r.name);
    EXPECT_EQ(std::string(r.signature).rfind(std::string(r.name) + "(", 0), 0u) << r.name;
    EXPECT_FALSE(std::string(r.summary).empty()) << r.name;
  }
  for (const char* n : {"searchsorted", "digitize", "bincount", "histogram", "unique", "unique_values",
                        "unique_counts", "unique_inverse", "unique_all", "isin", "in1d", "intersect1d", "union1d",
                        "setdiff1d", "setxor1d"})
    EXPECT_TRUE(names.count(n)) << n;
}

}  // namespace
}  // namespace cupp
