// GoogleTest adaptors for cupp::testing (header-only: cupp::testing itself does not depend on
// GoogleTest; include this after or instead of <gtest/gtest.h>). Each CUPP_EXPECT_* / CUPP_ASSERT_*
// macro runs the cupp::testing function of the same name with the same arguments and reports its
// AssertionError's message as a non-fatal (EXPECT) or fatal (ASSERT, returns from the test) gtest
// failure at the macro's file and line:
//
//   CUPP_EXPECT_ALLCLOSE(cupp::sin(x).get(), expected, {.rtol = 1e-6});
//   CUPP_ASSERT_ARRAY_EQUAL(result, std::vector<std::int64_t>{1, 2, 3});
//
// The extra arguments are those of the function (an options struct, rtol/atol, decimal, nulp).
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <string>
#include <utility>

#include "cupp/testing.hpp"

namespace cupp::testing::gtest {

// Runs `check`; success, or a failure carrying the AssertionError's message. Other exceptions
// propagate (gtest reports them as such).
template <class F>
::testing::AssertionResult check(const char* expression, F&& check) {
  try {
    std::forward<F>(check)();
    return ::testing::AssertionSuccess();
  } catch (const cupp::testing::AssertionError& e) {
    return ::testing::AssertionFailure() << expression << "\n" << e.what();
  }
}

}  // namespace cupp::testing::gtest

// The expression `function(args...)` checked as a gtest predicate (EXPECT_ or ASSERT_ flavour).
#define CUPP_TESTING_CHECK_(gtest_macro, function, ...) \
  gtest_macro(                                          \
      ::cupp::testing::gtest::check(#function "(" #__VA_ARGS__ ")", [&] { ::cupp::testing::function(__VA_ARGS__); }))

#define CUPP_EXPECT_ALLCLOSE(...) CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_allclose, __VA_ARGS__)
#define CUPP_ASSERT_ALLCLOSE(...) CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_allclose, __VA_ARGS__)
#define CUPP_EXPECT_ARRAY_EQUAL(...) CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_array_equal, __VA_ARGS__)
#define CUPP_ASSERT_ARRAY_EQUAL(...) CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_array_equal, __VA_ARGS__)
#define CUPP_EXPECT_ARRAY_ALMOST_EQUAL(...) CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_array_almost_equal, __VA_ARGS__)
#define CUPP_ASSERT_ARRAY_ALMOST_EQUAL(...) CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_array_almost_equal, __VA_ARGS__)
#define CUPP_EXPECT_ARRAY_ALMOST_EQUAL_NULP(...) \
  CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_array_almost_equal_nulp, __VA_ARGS__)
#define CUPP_ASSERT_ARRAY_ALMOST_EQUAL_NULP(...) \
  CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_array_almost_equal_nulp, __VA_ARGS__)
#define CUPP_EXPECT_ARRAY_MAX_ULP(...) CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_array_max_ulp, __VA_ARGS__)
#define CUPP_ASSERT_ARRAY_MAX_ULP(...) CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_array_max_ulp, __VA_ARGS__)
#define CUPP_EXPECT_ARRAY_LESS(...) CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_array_less, __VA_ARGS__)
#define CUPP_ASSERT_ARRAY_LESS(...) CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_array_less, __VA_ARGS__)
#define CUPP_EXPECT_EQUAL(...) CUPP_TESTING_CHECK_(EXPECT_TRUE, assert_equal, __VA_ARGS__)
#define CUPP_ASSERT_EQUAL(...) CUPP_TESTING_CHECK_(ASSERT_TRUE, assert_equal, __VA_ARGS__)
