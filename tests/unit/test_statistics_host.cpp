// The statistics and logic routines without a GPU (cupp/statistics.hpp): the argument checks that
// happen before any device work, with NumPy's error classes and messages, the quantile method
// table, the routine table, the dtypes cov's matrix-product program refuses, and isclose's fused
// kernel compiled for every compute dtype.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/statistics.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"
#include "routines/routine_programs.hpp"
#include "routines/statistics/statistics_internal.hpp"

namespace cupp {
namespace {

using test::error_of;

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = float64) : fake_array(std::move(shape), type) {}
};

TEST(StatisticsHost, RoutineTableNamesEachRoutine) {
  std::vector<std::string> names;
  for (const routine_info& r : statistics_routines()) {
    names.emplace_back(r.name);
    EXPECT_NE(std::string(r.signature).find(r.name), std::string::npos) << r.name;
  }
  for (const char* want : {"isclose", "allclose", "array_equal", "array_equiv", "average", "cov", "corrcoef", "median",
                           "nanmedian", "quantile", "percentile", "nanquantile", "nanpercentile"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
  EXPECT_EQ(names.size(), 13u);
}

TEST(StatisticsHost, QuantileMethods) {
  const char* methods[] = {"inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                           "hazen",        "weibull",               "linear",              "median_unbiased",
                           "normal_unbiased", "lower",              "higher",              "midpoint",
                           "nearest"};
  for (int i = 0; i < 13; ++i) EXPECT_EQ(detail::quantile_method_index(methods[i]), i) << methods[i];
  EXPECT_EQ(error_of<ValueError>([] { detail::quantile_method_index("foo"); }),
            "method='foo' is not a valid method. Use one of: dict_keys(['inverted_cdf', 'averaged_inverted_cdf', "
            "'closest_observation', 'interpolated_inverted_cdf', 'hazen', 'weibull', 'linear', 'median_unbiased', "
            "'normal_unbiased', 'lower', 'higher', 'midpoint', 'nearest'])");
  EXPECT_THROW(detail::quantile_method_index("Linear"), ValueError);
  EXPECT_THROW(detail::quantile_method_index(""), ValueError);
}

TEST(StatisticsHost, NullArrays) {
  const ndarray null;
  fake a({3});
  EXPECT_THROW(isclose(null, a.a), ValueError);
  EXPECT_THROW(isclose(a.a, null), ValueError);
  EXPECT_THROW(average(null), ValueError);
  EXPECT_THROW(cov(null), ValueError);
  EXPECT_THROW(median(null), ValueError);
  EXPECT_THROW(nanmedian(null), ValueError);
  EXPECT_THROW(quantile(null, 0.5), ValueError);
  EXPECT_THROW(percentile(null, 50), ValueError);
}

TEST(StatisticsHost, AverageWeightChecks) {
  fake a({2, 3, 4}), w({3}), w2({4, 3}), w3({3, 4}), wbad({5});
  EXPECT_EQ(error_of<TypeError>([&] { average(a.a, {.weights = w.a}); }),
            "Axis must be specified when shapes of a and weights differ.");
  EXPECT_EQ(error_of<ValueError>([&] { average(a.a, {.axis = 1, .weights = wbad.a}); }),
            "Shape of weights must be consistent with shape of a along specified axis.");
  EXPECT_EQ(error_of<ValueError>([&] { average(a.a, {.axis = {1, 2}, .weights = w2.a}); }),
            "Shape of weights must be consistent with shape of a along specified axis.");
  EXPECT_EQ(error_of<ValueError>([&] { average(a.a, {.axis = {2, 1}, .weights = w3.a}); }),
            "Shape of weights must be consistent with shape of a along specified axis.");
  EXPECT_EQ(error_of<AxisError>([&] { average(a.a, {.axis = 3, .weights = w.a}); }),
            "axis 3 is out of bounds for array of dimension 3");
  EXPECT_EQ(error_of<AxisError>([&] { average(a.a, {.axis = -4}); }), "axis -4 is out of bounds for array of dimension 3");
  EXPECT_EQ(error_of<ValueError>([&] { average(a.a, {.axis = {1, -2}, .weights = w2.a}); }), "repeated axis");
}

TEST(StatisticsHost, CovChecks) {
  fake m3({2, 2, 2}), m({2, 3});
  EXPECT_EQ(error_of<ValueError>([&] { cov(m3.a); }), "m has more than 2 dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { cov(m.a, {.y = m3.a}); }), "y has more than 2 dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { corrcoef(m3.a); }), "m has more than 2 dimensions");
}

TEST(StatisticsHost, QuantileChecks) {
  fake c({4}, complex128), a({2, 3});
  EXPECT_EQ(error_of<TypeError>([&] { quantile(c.a, 0.5); }), "a must be an array of real numbers");
  EXPECT_EQ(error_of<TypeError>([&] { percentile(c.a, 50); }), "a must be an array of real numbers");
  EXPECT_EQ(error_of<TypeError>([&] { nanquantile(c.a, 0.5); }), "a must be an array of real numbers");
  EXPECT_EQ(error_of<TypeError>([&] { nanpercentile(c.a, 50); }), "a must be an array of real numbers");
  EXPECT_EQ(error_of<AxisError>([&] { median(a.a, {.axis = 2}); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<ValueError>([&] { median(a.a, {.axis = {0, -2}}); }), "repeated axis");
}

TEST(StatisticsHost, CovKernelOnlyForFloatDtypes) {
  // Every float and complex dtype compiles in RoutinePrograms.EveryInstantiationCompiles.
  EXPECT_THROW(detail::cov_kernel_program(int64), TypeError);
  EXPECT_THROW(detail::cov_kernel_program(bool_), TypeError);
}

TEST(StatisticsHost, IscloseKernelCompilesForEveryComputeDtype) {
  // (compute dtype D = result_type(a, y), y's dtype Y, a's stored dtype)
  const dtype cases[][3] = {{float16, float16, int8},   {bfloat16, bfloat16, bool_}, {float32, float16, int16},
                            {float32, bfloat16, float32}, {float32, float32, float16}, {float64, float64, int64},
                            {float64, float16, uint64},  {float64, float32, float64}};
  for (const auto& c : cases) {
    for (bool equal_nan : {false, true}) {
      SCOPED_TRACE(c[0].name() + " " + c[1].name() + (equal_nan ? " equal_nan" : ""));
      const ElementwiseKernel& k = detail::stats::isclose_kernel(c[0], equal_nan);
      EXPECT_EQ(&k, &detail::stats::isclose_kernel(c[0], equal_nan)) << "one kernel per compute dtype";
      ASSERT_TRUE(k.indexed());  // four inputs: the general path
      const std::vector<dtype> types = {c[0], c[1], c[1], c[1], bool_};
      const std::vector<dtype> storage = {c[2], c[1], c[1], c[1], bool_};
      const bool scalar[] = {false, false, true, true, false};
      const detail::user_elementwise_desc desc = detail::elementwise_kernel_desc(k, types, storage, scalar, 1);
      const detail::composed_program program = detail::compose_user_elementwise(desc);
      const detail::nvrtc_output out = detail::nvrtc_compile(
          {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
      EXPECT_EQ(out.lowered_names.size(), 1u);
    }
  }
}

}  // namespace
}  // namespace cupp
