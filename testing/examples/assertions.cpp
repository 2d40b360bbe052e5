// The example of docs/testing.md: cupp::testing's assertions in a GoogleTest program, on host data
// (so it runs without a GPU; a cupp::ndarray is passed the same way and fetched with .get()).
// The build compiles it and CTest runs it (testing_example_assertions).
#include <cstdint>
#include <string>
#include <vector>

// [snippet comparisons]
#include "cupp/testing.hpp"
#include "cupp/testing/gtest.hpp"

namespace ct = cupp::testing;

TEST(TestingExample, Comparisons) {
  const std::vector<double> result{0.1 + 0.2, 1.0 / 3.0};
  const std::vector<double> expected{0.3, 0.333333333333333};
  CUPP_EXPECT_ALLCLOSE(result, expected);  // rtol 1e-7, atol 0
  CUPP_EXPECT_ALLCLOSE(result, expected, {.rtol = 1e-12, .atol = 1e-15});
  CUPP_EXPECT_ARRAY_ALMOST_EQUAL(result, expected, 10);  // 10 decimals
  CUPP_EXPECT_ARRAY_EQUAL(std::vector<std::int64_t>{1, 2, 3}, {1, 2, 3});
  CUPP_EXPECT_ARRAY_LESS(result, 1.0);  // a scalar stands for every element
  CUPP_EXPECT_ARRAY_MAX_ULP(0.1 + 0.2, 0.3, 1);
  CUPP_EXPECT_EQUAL(cupp::shape_t{2}, cupp::shape_t{2});

  // Per-dtype defaults for GPU results.
  const cupp::dtype t = cupp::float32;
  CUPP_EXPECT_ALLCLOSE(std::vector<float>{1.0f}, 1.000001, {.rtol = ct::tolerance_for(t)});
}
// [end snippet]

// [snippet without_gtest]
TEST(TestingExample, WithoutGoogleTest) {
  // The functions throw cupp::testing::AssertionError, with NumPy's message.
  try {
    ct::assert_allclose(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2.5, 3});
    FAIL() << "no AssertionError";
  } catch (const ct::AssertionError& e) {
    EXPECT_EQ(std::string(e.what()),
              "Not equal to tolerance rtol=1e-07, atol=0\n"
              "\n"
              "Mismatched elements: 1 / 3 (33.3%)\n"
              "Mismatch at index:\n"
              " [1]: 2.0 (ACTUAL), 2.5 (DESIRED)\n"
              "Max absolute difference among violations: 0.5\n"
              "Max relative difference among violations: 0.2\n"
              " ACTUAL: array([1., 2., 3.])\n"
              " DESIRED: array([1. , 2.5, 3. ])");
  }
}
// [end snippet]
