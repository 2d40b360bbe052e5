// cupp::testing on host data (no GPU): each assertion's pass and fail cases over several dtypes,
// NaN / inf / signed zero / empty / 0-d / scalar broadcasting, exact int64 and uint64 beyond 2^53,
// and the failure messages, checked against the messages NumPy 2 prints for the same inputs
// (numpy/testing's docstrings and tests give the expected text).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/testing.hpp"
#include "cupp/testing/gtest.hpp"

namespace ct = cupp::testing;
using cupp::host_array;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// The AssertionError's message, or "<passed>".
template <class F>
std::string failure_of(F&& f) {
  try {
    f();
  } catch (const ct::AssertionError& e) { return e.what(); }
  return "<passed>";
}

template <class T>
host_array make(std::vector<T> values, cupp::shape_t shape) {
  host_array h = host_array::from(std::span<const T>(values));
  host_array out(h.dtype(), std::move(shape));
  EXPECT_EQ(out.nbytes(), h.nbytes());
  std::memcpy(out.data(), h.data(), h.nbytes());
  return out;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

// ---- assert_array_equal -------------------------------------------------------------------

TEST(TestingArrayEqual, PassesOnEqualArraysOfEveryKind) {
  ct::assert_array_equal(std::vector<double>{1, 2, kNaN}, std::vector<double>{1, 2, kNaN});
  ct::assert_array_equal(std::vector<float>{-0.0f, std::numeric_limits<float>::infinity()},
                         std::vector<double>{0.0, kInf});  // -0.0 == 0.0
  ct::assert_array_equal(std::vector<std::int8_t>{-3, 4}, std::vector<std::int64_t>{-3, 4});
  ct::assert_array_equal(std::vector<bool>{true, false}, std::vector<bool>{true, false});
  ct::assert_array_equal(std::vector<cupp::float16_t>{cupp::float16_t(0.5f)}, 0.5);
  ct::assert_array_equal(std::vector<cupp::bfloat16_t>{cupp::bfloat16_t(3.0f)}, std::vector<float>{3.0f});
  ct::assert_array_equal(std::vector<std::complex<float>>{{1, 2}}, std::complex<double>(1, 2));
  ct::assert_array_equal(host_array(cupp::float32, {0}), host_array(cupp::int64, {0}));  // empty
  ct::assert_array_equal(host_array(cupp::float32, {2, 0}), 7.0);                        // empty against a scalar
  ct::assert_array_equal(3, 3.0);                                                        // 0-d
  ct::assert_array_equal(make<double>({1, 1, 1, 1}, {2, 2}), 1);  // a scalar stands for every element
}

TEST(TestingArrayEqual, NumPyDocstringMessage) {
  const double pi = 3.141592653589793;
  const std::string msg = failure_of([&] {
    ct::assert_array_equal(std::vector<double>{1.0, pi, kNaN},
                           std::vector<double>{1, std::sqrt(pi) * std::sqrt(pi), kNaN});
  });
  EXPECT_TRUE(
      msg.starts_with("Arrays are not equal\n"
                      "\n"
                      "Mismatched elements: 1 / 3 (33.3%)\n"
                      "Mismatch at index:\n"
                      " [1]: 3.141592653589793 (ACTUAL), 3.1415926535897927 (DESIRED)\n"
                      "Max absolute difference among violations: 4.4408921e-16\n"
                      "Max relative difference among violations: 1.41357986e-16\n"
                      " ACTUAL: array(["))
      << msg;
  EXPECT_TRUE(contains(msg, "\n DESIRED: array([")) << msg;
}

TEST(TestingArrayEqual, IntegerMessagesAreExact) {
  // numpy/testing/tests: test_array_vs_array_not_equal and the division-by-zero case.
  std::string msg = failure_of([] {
    ct::assert_array_equal(std::vector<std::int64_t>{34986, 545676, 439655, 563766},
                           std::vector<std::int64_t>{34986, 545676, 439655, 0});
  });
  EXPECT_TRUE(contains(msg,
                       "Mismatched elements: 1 / 4 (25%)\n"
                       "Mismatch at index:\n"
                       " [3]: 563766 (ACTUAL), 0 (DESIRED)\n"
                       "Max absolute difference among violations: 563766\n"
                       "Max relative difference among violations: inf\n"))
      << msg;
  msg = failure_of([] {
    ct::assert_array_equal(std::vector<double>{34986, 545676, 439655.2, 563766},
                           std::vector<std::int64_t>{34986, 545676, 439655, 0});
  });
  EXPECT_TRUE(contains(msg,
                       "Mismatched elements: 2 / 4 (50%)\n"
                       "Mismatch at indices:\n"
                       " [2]: 439655.2 (ACTUAL), 439655 (DESIRED)\n"
                       " [3]: 563766.0 (ACTUAL), 0 (DESIRED)\n"
                       "Max absolute difference among violations: 563766.\n"
                       "Max relative difference among violations: 4.54902139e-07\n"))
      << msg;
  msg = failure_of([] { ct::assert_array_equal(std::vector<std::int64_t>{1, 2}, std::vector<std::int64_t>{0, 0}); });
  EXPECT_TRUE(contains(msg,
                       "Mismatched elements: 2 / 2 (100%)\n"
                       "Mismatch at indices:\n"
                       " [0]: 1 (ACTUAL), 0 (DESIRED)\n"
                       " [1]: 2 (ACTUAL), 0 (DESIRED)\n"
                       "Max absolute difference among violations: 2\n"
                       "Max relative difference among violations: inf"))
      << msg;
}

TEST(TestingArrayEqual, Float32AndSmallIntegerMessages) {
  // The differences are in the dtype of actual - desired: float32's shortest digits.
  std::string msg = failure_of([] { ct::assert_array_equal(std::vector<float>{1, 2}, std::vector<float>{1, 3}); });
  EXPECT_TRUE(contains(msg,
                       " [1]: 2.0 (ACTUAL), 3.0 (DESIRED)\nMax absolute difference among violations: 1.\n"
                       "Max relative difference among violations: 0.33333334\n"
                       " ACTUAL: array([1., 2.], dtype=float32)\n"
                       " DESIRED: array([1., 3.], dtype=float32)"))
      << msg;
  // Integer differences are exact (NumPy subtracts in uint8 / int8 and would print 1 for these).
  msg = failure_of([] { ct::assert_array_equal(std::vector<std::uint8_t>{0}, std::vector<std::uint8_t>{255}); });
  EXPECT_TRUE(contains(msg, "Max absolute difference among violations: 255\n")) << msg;
  msg = failure_of([] { ct::assert_array_equal(std::vector<std::int8_t>{-128}, std::int8_t{127}); });
  EXPECT_TRUE(contains(msg, " [0]: -128 (ACTUAL), 127 (DESIRED)\nMax absolute difference among violations: 255\n"))
      << msg;
}

TEST(TestingArrayEqual, Int64AndUint64BeyondTwoToThe53AreExact) {
  const std::int64_t big = (std::int64_t{1} << 53) + 1;
  ct::assert_array_equal(std::vector<std::int64_t>{big}, std::vector<std::int64_t>{big});
  // Through double these would be equal.
  const std::string msg =
      failure_of([&] { ct::assert_array_equal(std::vector<std::int64_t>{big}, std::vector<std::int64_t>{big - 1}); });
  EXPECT_TRUE(contains(msg,
                       " [0]: 9007199254740993 (ACTUAL), 9007199254740992 (DESIRED)\n"
                       "Max absolute difference among violations: 1\n"))
      << msg;
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  ct::assert_array_equal(std::vector<std::uint64_t>{top}, top);
  EXPECT_NE(failure_of([&] { ct::assert_array_equal(std::vector<std::uint64_t>{top}, top - 1); }), "<passed>");
  // uint64 against int64: compared as integers, not through float64 (2^63 vs -2^63 differ).
  EXPECT_NE(
      failure_of([] { ct::assert_array_equal(std::uint64_t{1} << 63, std::numeric_limits<std::int64_t>::min()); }),
      "<passed>");
  ct::assert_array_less(std::vector<std::int64_t>{big - 1}, big);
  EXPECT_NE(failure_of([&] { ct::assert_array_less(big, big); }), "<passed>");
}

TEST(TestingArrayEqual, NanAndInfPositions) {
  std::string msg = failure_of([] { ct::assert_array_equal(std::vector<double>{1, kNaN}, std::vector<double>{1, 2}); });
  EXPECT_TRUE(msg.starts_with("Arrays are not equal\n\nnan location mismatch:\n ACTUAL: array(")) << msg;
  msg = failure_of([] { ct::assert_array_equal(std::vector<double>{kInf, 0}, std::vector<double>{1, 0}); });
  EXPECT_TRUE(msg.starts_with("Arrays are not equal\n\ninf location mismatch:\n")) << msg;
  msg = failure_of([] { ct::assert_array_equal(std::vector<double>{kInf, 0}, std::vector<double>{-kInf, 0}); });
  EXPECT_TRUE(msg.starts_with("Arrays are not equal\n\ninf values mismatch:\n")) << msg;
  // The remaining elements are still compared (numpy/testing's gh12200 case).
  msg = failure_of([] { ct::assert_array_equal(std::vector<double>{kInf, 0}, std::vector<double>{kInf, 1}); });
  EXPECT_TRUE(contains(msg,
                       "Mismatched elements: 1 / 2 (50%)\n"
                       "Mismatch at index:\n"
                       " [1]: 0.0 (ACTUAL), 1.0 (DESIRED)\n"
                       "Max absolute difference among violations: 1.\n"
                       "Max relative difference among violations: 1.\n"))
      << msg;
  // Complex: NaN in either part is NaN.
  ct::assert_array_equal(std::complex<double>(kNaN, 1), std::complex<double>(1, kNaN));
}

TEST(TestingArrayEqual, ShapeMismatchAndStrict) {
  std::string msg = failure_of([] { ct::assert_array_equal(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3}); });
  EXPECT_TRUE(
      msg.starts_with("Arrays are not equal\n\n(shapes (2,), (3,) mismatch)\n ACTUAL: array([1., 2.])\n"
                      " DESIRED: array([1., 2., 3.])"))
      << msg;
  // As NumPy: only a 0-d operand stands for an array; (1,) against (3,) is a mismatch.
  msg = failure_of([] { ct::assert_array_equal(std::vector<double>{1}, std::vector<double>{1, 1, 1}); });
  EXPECT_TRUE(contains(msg, "(shapes (1,), (3,) mismatch)")) << msg;
  msg = failure_of([] { ct::assert_array_equal(make<double>({1, 2}, {1, 2}), make<double>({1, 2}, {2, 1})); });
  EXPECT_TRUE(contains(msg, "(shapes (1, 2), (2, 1) mismatch)")) << msg;
  msg = failure_of([] { ct::assert_array_equal(std::vector<double>{1, 1}, 1.0, {.strict = true}); });
  EXPECT_TRUE(contains(msg, "(shapes (2,), () mismatch)")) << msg;
  msg = failure_of([] { ct::assert_array_equal(std::vector<double>{1}, std::vector<float>{1}, {.strict = true}); });
  EXPECT_TRUE(contains(msg, "(dtypes float64, float32 mismatch)")) << msg;
}

TEST(TestingArrayEqual, IndicesBoolsSmallFloatsAndErrMsg) {
  // Two-dimensional positions, at most five of them listed.
  std::string msg = failure_of([] { ct::assert_array_equal(make<std::int32_t>({0, 1, 2, 3, 4, 5}, {2, 3}), 0); });
  EXPECT_TRUE(
      contains(msg, "Mismatched elements: 5 / 6 (83.3%)\nMismatch at indices:\n [0, 1]: 1 (ACTUAL), 0 (DESIRED)\n"))
      << msg;
  msg = failure_of([] { ct::assert_array_equal(make<std::int32_t>({1, 1, 1, 1, 1, 1}, {3, 2}), 0); });
  EXPECT_TRUE(contains(msg, "First 5 mismatches are at indices:\n [0, 0]:")) << msg;
  EXPECT_FALSE(contains(msg, "[2, 1]")) << msg;
  // Bools cannot be subtracted in NumPy: no difference lines.
  msg = failure_of([] { ct::assert_array_equal(std::vector<bool>{true, false}, std::vector<bool>{true, true}); });
  EXPECT_TRUE(contains(msg, " [1]: False (ACTUAL), True (DESIRED)\n ACTUAL: array([ True, False])")) << msg;
  EXPECT_FALSE(contains(msg, "Max absolute")) << msg;
  // float16 values print with float16's shortest digits, the difference in float16.
  msg = failure_of([] {
    ct::assert_array_equal(std::vector<cupp::float16_t>{cupp::float16_t(0.1f)},
                           std::vector<cupp::float16_t>{cupp::float16_t(0.2f)});
  });
  EXPECT_TRUE(contains(msg, " [0]: 0.1 (ACTUAL), 0.2 (DESIRED)\nMax absolute difference among violations: 0.1\n"))
      << msg;
  msg = failure_of([] {
    ct::assert_array_equal(std::vector<std::complex<double>>{{0, 2}}, std::complex<double>(-0.0, 2.5));
  });
  EXPECT_TRUE(contains(msg, " [0]: 2j (ACTUAL), (-0+2.5j) (DESIRED)\n")) << msg;
  msg = failure_of([] {
    ct::assert_array_equal(std::vector<std::complex<double>>{{1, 2}}, std::complex<double>(1, -2));
  });
  EXPECT_TRUE(contains(msg, " [0]: (1+2j) (ACTUAL), (1-2j) (DESIRED)\nMax absolute difference among violations: 4.\n"))
      << msg;
  // err_msg: a short one joins the header line.
  msg = failure_of([] { ct::assert_array_equal(1, 2, {.err_msg = "sum of ones"}); });
  EXPECT_TRUE(
      msg.starts_with("Arrays are not equal\nsum of ones\nMismatched elements: 1 / 1 (100%)\n"
                      "Max absolute difference among violations: 1\n"))
      << msg;
}

// ---- assert_allclose ----------------------------------------------------------------------

TEST(TestingAllclose, PassesWithinTolerance) {
  ct::assert_allclose(std::vector<double>{1.0, 2.0}, std::vector<double>{1.0 + 1e-8, 2.0});
  ct::assert_allclose(std::vector<float>{1.0f, 100.0f}, std::vector<double>{1.00001, 100.001}, 1e-5);
  ct::assert_allclose(std::vector<double>{1e-20}, 0.0, {.atol = 1e-15});
  ct::assert_allclose(std::vector<std::complex<float>>{{1, 1}}, std::complex<double>(1, 1.0000001), 1e-6);
  ct::assert_allclose(std::vector<double>{kNaN, kInf, -kInf}, std::vector<double>{kNaN, kInf, -kInf});
  ct::assert_allclose(std::vector<std::int16_t>{10, 20}, std::vector<std::int16_t>{10, 20}, 0.0);
  ct::assert_allclose(std::vector<cupp::bfloat16_t>{cupp::bfloat16_t(1.0f)}, 1.004, ct::tolerance_for(cupp::bfloat16));
  ct::assert_allclose(host_array(cupp::complex128, {0, 3}), host_array(cupp::complex128, {0, 3}));
}

TEST(TestingAllclose, FailureMessage) {
  const std::string msg = failure_of([] {
    ct::assert_allclose(std::vector<double>{1, 2, 3}, std::vector<double>{1, 2.5, 3});
  });
  EXPECT_EQ(msg,
            "Not equal to tolerance rtol=1e-07, atol=0\n"
            "\n"
            "Mismatched elements: 1 / 3 (33.3%)\n"
            "Mismatch at index:\n"
            " [1]: 2.0 (ACTUAL), 2.5 (DESIRED)\n"
            "Max absolute difference among violations: 0.5\n"
            "Max relative difference among violations: 0.2\n"
            " ACTUAL: array([1., 2., 3.])\n"
            " DESIRED: array([1. , 2.5, 3. ])");
  const std::string msg2 =
      failure_of([] { ct::assert_allclose(std::vector<float>{1.5f}, 0.0, {.rtol = 1e-5, .atol = 1e-8}); });
  EXPECT_TRUE(
      msg2.starts_with("Not equal to tolerance rtol=1e-05, atol=1e-08\n\nMismatched elements: 1 / 1 (100%)\n"
                       "Mismatch at index:\n [0]: 1.5 (ACTUAL), 0.0 (DESIRED)\n"
                       "Max absolute difference among violations: 1.5\n"
                       "Max relative difference among violations: inf\n"))
      << msg2;
}

TEST(TestingAllclose, LongArraysAreCutAndIntegersExact) {
  // The ACTUAL/DESIRED summaries keep 3 lines of the repr, then "...".
  std::vector<double> values(100, 1.0);
  const host_array big = make<double>(values, {10, 10});
  const std::string msg = failure_of([&] { ct::assert_allclose(big, 2.0); });
  EXPECT_TRUE(contains(msg,
                       "Mismatched elements: 100 / 100 (100%)\nFirst 5 mismatches are at indices:\n [0, 0]: 1.0 "
                       "(ACTUAL), 2.0 (DESIRED)\n"))
      << msg;
  const auto actual_line = msg.substr(msg.find("\n ACTUAL: "));
  EXPECT_TRUE(actual_line.starts_with("\n ACTUAL: array([[1., 1.,")) << msg;
  EXPECT_TRUE(contains(actual_line, "...\n DESIRED: array(2.)")) << msg;
  EXPECT_EQ(std::count(actual_line.begin(), actual_line.end(), '\n'), 4) << msg;
  // Two integer operands: the difference is exact (NumPy goes through float64 here and would pass).
  const std::int64_t top = std::numeric_limits<std::int64_t>::max();
  EXPECT_NE(failure_of([&] { ct::assert_allclose(top, top - 1, 0.0); }), "<passed>");
  ct::assert_allclose(top, top - 1, 1e-15);
}

TEST(TestingAllclose, NanHandlingAndTolerances) {
  EXPECT_TRUE(contains(failure_of([] { ct::assert_allclose(std::vector<double>{kNaN}, std::vector<double>{1.0}); }),
                       "nan location mismatch:"));
  // equal_nan=false: NaN never equals NaN (it is an ordinary mismatch with a NaN difference).
  const std::string msg = failure_of([] {
    ct::assert_allclose(std::vector<double>{kNaN, 1}, std::vector<double>{kNaN, 1}, 1e-7, 0.0, false);
  });
  EXPECT_TRUE(contains(msg,
                       "Mismatched elements: 1 / 2 (50%)\nMismatch at index:\n [0]: nan (ACTUAL), nan (DESIRED)\n"
                       "Max absolute difference among violations: nan\n"))
      << msg;
  EXPECT_NE(failure_of([] { ct::assert_allclose(std::vector<double>{1.0}, 1.0 + 1e-6); }), "<passed>");
  ct::assert_allclose(std::vector<double>{1.0}, 1.0 + 1e-6, {.rtol = 1e-5});
  ct::assert_allclose(std::vector<double>{1.0}, 1.0 + 1e-6, {.atol = 2e-6});
  // `{}` is the options' defaults (rtol 1e-7), not rtol = 0; likewise decimal 6, not 0.
  ct::assert_allclose(std::vector<double>{1.0}, 1.0 + 1e-9, {});
  EXPECT_NE(failure_of([] { ct::assert_allclose(std::vector<double>{1.0}, 1.0 + 1e-9, 0.0); }), "<passed>");
  EXPECT_NE(failure_of([] { ct::assert_array_almost_equal(1.0, 1.1, {}); }), "<passed>");
  ct::assert_array_almost_equal(1.0, 1.1, 0);
  EXPECT_NE(failure_of([] { ct::assert_allclose(std::vector<double>{kInf}, -kInf); }), "<passed>");
  EXPECT_NE(failure_of([] {
              ct::assert_allclose(make<float>({1, 2, 3, 4}, {2, 2}), std::vector<float>{1, 2, 3, 4});
            }),
            "<passed>");
}

// ---- assert_array_almost_equal ------------------------------------------------------------

TEST(TestingAlmostEqual, NumPyMessages) {
  std::string msg = failure_of([] {
    ct::assert_array_almost_equal(std::vector<double>{1.0, 2.33333, kNaN}, std::vector<double>{1.0, 2.33339, kNaN}, 5);
  });
  EXPECT_TRUE(
      msg.starts_with("Arrays are not almost equal to 5 decimals\n"
                      "\n"
                      "Mismatched elements: 1 / 3 (33.3%)\n"
                      "Mismatch at index:\n"
                      " [1]: 2.33333 (ACTUAL), 2.33339 (DESIRED)\n"
                      "Max absolute difference among violations: 6.e-05\n"
                      "Max relative difference among violations: 2.57136612e-05\n"))
      << msg;
  msg = failure_of([] {
    ct::assert_array_almost_equal(std::vector<double>{1.0, 2.3333333333333}, std::vector<double>{1.0, 2.33333334}, 9);
  });
  EXPECT_TRUE(contains(msg,
                       "Max absolute difference among violations: 6.66669964e-09\n"
                       "Max relative difference among violations: 2.85715698e-09\n"))
      << msg;
  msg = failure_of(
      [] { ct::assert_array_almost_equal(std::vector<double>{1234.2222}, std::vector<double>{1234.2223}, 5); });
  EXPECT_TRUE(contains(msg,
                       " [0]: 1234.2222 (ACTUAL), 1234.2223 (DESIRED)\n"
                       "Max absolute difference among violations: 1.e-04\n"
                       "Max relative difference among violations: 8.10226812e-08\n"))
      << msg;
  msg = failure_of([] {
    ct::assert_array_almost_equal(5498.42354, std::vector<double>{5498.42354, 849.54345, 0.0}, 9);
  });
  EXPECT_TRUE(
      contains(msg,
               "Mismatched elements: 2 / 3 (66.7%)\n"
               "Mismatch at indices:\n"
               " [1]: 5498.42354 (ACTUAL), 849.54345 (DESIRED)\n"
               " [2]: 5498.42354 (ACTUAL), 0.0 (DESIRED)\n"
               "Max absolute difference among violations: 5498.42354\n"
               "Max relative difference among violations: 5.47220991\n"))  // NumPy's test checks the prefix 5.4722099
      << msg;
  ct::assert_array_almost_equal(std::vector<double>{1234.2222}, std::vector<double>{1234.2223}, 4);
  ct::assert_array_almost_equal(std::vector<float>{1.0000001f, std::numeric_limits<float>::infinity()},
                                std::vector<double>{1.0, kInf});  // decimal 6
  EXPECT_NE(failure_of([] { ct::assert_array_almost_equal(std::vector<float>{1.00001f}, 1.0); }), "<passed>");
}

// ---- assert_array_less --------------------------------------------------------------------

TEST(TestingArrayLess, NumPyMessageAndInfinities) {
  const std::string msg = failure_of([] {
    ct::assert_array_less(std::vector<double>{1, 1, kNaN}, std::vector<double>{1, 2, kNaN});
  });
  EXPECT_TRUE(
      msg.starts_with("Arrays are not strictly ordered `x < y`\n"
                      "\n"
                      "Mismatched elements: 1 / 3 (33.3%)\n"
                      "Mismatch at index:\n"
                      " [0]: 1.0 (x), 1.0 (y)\n"
                      "Max absolute difference among violations: 0.\n"
                      "Max relative difference among violations: 0.\n"
                      " x: array("))
      << msg;
  ct::assert_array_less(std::vector<double>{1.0, 4.0}, 5.0);
  ct::assert_array_less(std::vector<double>{-kInf, 0}, std::vector<double>{0, kInf});  // infinities are values here
  EXPECT_NE(failure_of([] { ct::assert_array_less(std::vector<double>{kInf}, kInf); }), "<passed>");
  EXPECT_NE(failure_of([] { ct::assert_array_less(std::vector<std::uint8_t>{3, 4}, std::uint8_t{4}); }), "<passed>");
  ct::assert_array_less(std::vector<std::int8_t>{-128}, std::uint8_t{0});
}

// ---- ULP comparisons ----------------------------------------------------------------------

TEST(TestingUlp, AlmostEqualNulp) {
  const double one_up = std::nextafter(1.0, 2.0);
  ct::assert_array_almost_equal_nulp(std::vector<double>{1.0, 2.0}, std::vector<double>{one_up, 2.0});
  ct::assert_array_almost_equal_nulp(std::vector<float>{1.0f}, std::vector<float>{std::nextafter(1.0f, 2.0f)});
  std::string msg = failure_of([] {
    ct::assert_array_almost_equal_nulp(std::vector<float>{1.0f},
                                       std::vector<float>{std::nextafter(std::nextafter(1.0f, 2.0f), 2.0f)});
  });
  EXPECT_TRUE(msg.starts_with("Arrays are not equal to 1 ULP (max is 2)\n\nMismatched elements: 1 / 1 (100%)\n"))
      << msg;
  ct::assert_array_almost_equal_nulp(std::vector<float>{1.0f},
                                     std::vector<float>{std::nextafter(std::nextafter(1.0f, 2.0f), 2.0f)}, 2);
  // float16: one ULP at 1.0 is 2^-10.
  ct::assert_array_almost_equal_nulp(std::vector<cupp::float16_t>{cupp::float16_t(1.0f)},
                                     std::vector<cupp::float16_t>{cupp::float16_t(1.0f + 0x1p-10f)});
  EXPECT_NE(failure_of([] {
              ct::assert_array_almost_equal_nulp(std::vector<cupp::float16_t>{cupp::float16_t(1.0f)},
                                                 std::vector<cupp::float16_t>{cupp::float16_t(1.0f + 0x1p-9f)});
            }),
            "<passed>");
  msg =
      failure_of([] { ct::assert_array_almost_equal_nulp(std::complex<double>(1, 1), std::complex<double>(1, 1.5)); });
  EXPECT_TRUE(msg.starts_with("Arrays are not equal to 1 ULP\n")) << msg;
  // NaN and kInf never pass (NumPy compares |x - y| with the spacing, and NaN <= anything is false).
  EXPECT_NE(failure_of([] { ct::assert_array_almost_equal_nulp(kNaN, kNaN); }), "<passed>");
  ct::assert_array_almost_equal_nulp(std::vector<double>{-0.0}, 0.0);
}

TEST(TestingUlp, MaxUlp) {
  const double two_up = std::nextafter(std::nextafter(1.0, 2.0), 2.0);
  const host_array diffs =
      ct::assert_array_max_ulp(std::vector<double>{1.0, two_up, kNaN}, std::vector<double>{1.0, 1.0, kNaN}, 2);
  EXPECT_EQ(diffs.to_vector<double>(), (std::vector<double>{0, 2, 0}));
  ct::assert_array_max_ulp(std::vector<double>{-0.0}, 0.0);  // -0.0 and 0.0 are 0 ULP apart
  // Across zero: the smallest subnormals of either sign are 2 ULP apart.
  const double tiny = std::numeric_limits<double>::denorm_min();
  EXPECT_EQ(ct::assert_array_max_ulp(tiny, -tiny, 2).to_vector<double>(), (std::vector<double>{2}));
  const std::string msg = failure_of([&] { ct::assert_array_max_ulp(std::vector<double>{1.0, two_up}, 1.0); });
  EXPECT_TRUE(msg.starts_with(
      "Arrays are not almost equal up to 1 ULP (max difference is 2 ULP)\n\n"
      "Mismatched elements: 1 / 2 (50%)\nMismatch at index:\n [1]: 1.0000000000000004 (ACTUAL), 1.0 (DESIRED)\n"))
      << msg;
  // bfloat16: one ULP at 1.0 is 2^-7.
  ct::assert_array_max_ulp(std::vector<cupp::bfloat16_t>{cupp::bfloat16_t(1.0f + 0x1p-7f)},
                           std::vector<cupp::bfloat16_t>{cupp::bfloat16_t(1.0f)});
  EXPECT_THROW(ct::assert_array_max_ulp(std::complex<double>(1, 0), 1.0), cupp::TypeError);
  EXPECT_TRUE(contains(failure_of([] {
                         ct::assert_array_max_ulp(std::vector<double>{1, 2}, std::vector<double>{1, 2, 3});
                       }),
                       "(shapes (2,), (3,) mismatch)"));
}

// ---- assert_equal, tolerance_for, operands ------------------------------------------------

TEST(TestingEqual, ShapesAndDtypes) {
  ct::assert_equal(cupp::shape_t{2, 3}, cupp::shape_t{2, 3});
  ct::assert_equal(cupp::float32, cupp::float32);
  const cupp::shape_t two_three{2, 3};
  ct::assert_equal(std::span<const std::int64_t>(two_three), two_three);  // ndarray::shape()'s span
  EXPECT_NE(failure_of([&] { ct::assert_equal(std::span<const std::int64_t>(two_three), cupp::shape_t{2}); }),
            "<passed>");
  EXPECT_EQ(failure_of([] {
              ct::assert_equal(cupp::shape_t{2, 3}, cupp::shape_t{3});
            }),
            "Items are not equal:\n ACTUAL: (2, 3)\n DESIRED: (3,)");
  EXPECT_EQ(failure_of([] { ct::assert_equal(cupp::float32, cupp::float64, "result dtype"); }),
            "Items are not equal: result dtype\n ACTUAL: dtype('float32')\n DESIRED: dtype('float64')");
  EXPECT_EQ(failure_of([] { ct::assert_equal(cupp::shape_t{}, cupp::shape_t{1}); }),
            "Items are not equal:\n ACTUAL: ()\n DESIRED: (1,)");
}

TEST(TestingTolerance, PerDtypeDefaults) {
  EXPECT_EQ(ct::tolerance_for(cupp::float16), 2e-3);
  EXPECT_EQ(ct::tolerance_for(cupp::bfloat16), 8e-3);
  EXPECT_EQ(ct::tolerance_for(cupp::float32), 2e-6);
  EXPECT_EQ(ct::tolerance_for(cupp::complex64), 2e-6);
  EXPECT_EQ(ct::tolerance_for(cupp::float64), 1e-12);
  EXPECT_EQ(ct::tolerance_for(cupp::complex128), 1e-12);
  EXPECT_EQ(ct::tolerance_for(cupp::int32), 0.0);
  EXPECT_EQ(ct::tolerance_for(cupp::bool_), 0.0);
  EXPECT_EQ(ct::tolerance_for(cupp::float32, {.float32 = 5e-7}), 5e-7);
}

// Device arrays (and index_ref views) are operands through their get(); running that needs a GPU.
static_assert(std::is_constructible_v<ct::operand, const cupp::ndarray&>);
static_assert(std::is_constructible_v<ct::operand, const cupp::index_ref&>);
static_assert(!std::is_constructible_v<ct::operand, const std::string&>);
static_assert(std::is_base_of_v<cupp::Error, ct::AssertionError>);

TEST(TestingOperand, EveryKindOfOperand) {
  const std::vector<int> values{1, 2, 3};
  const host_array h = host_array::from(std::span<const int>(values));
  ct::assert_array_equal(h, std::span<const int>(values));
  ct::assert_array_equal(host_array(h), {1, 2, 3});  // an rvalue host_array; an initializer list
  std::vector<int> mutable_values = values;
  ct::assert_array_equal(std::span<int>(mutable_values), values);
  EXPECT_NE(failure_of([&] { ct::assert_array_equal(h, {1, 2, 4}); }), "<passed>");
  // std::vector<bool> (packed bits) is a bool array, element for element.
  const std::vector<bool> bits{true, false, true};
  ct::assert_array_equal(bits, std::vector<bool>{true, false, true});
  ct::assert_equal(cupp::testing::operand(bits).array().dtype(), cupp::bool_);
  EXPECT_NE(failure_of([&] { ct::assert_array_equal(bits, std::vector<bool>{true, true, true}); }), "<passed>");
  // A structured dtype is not a number.
  const host_array rec(cupp::dtype::structured(std::vector<cupp::field>{{"a", cupp::int32, 0}}), {1});
  EXPECT_THROW(ct::assert_array_equal(rec, rec), cupp::TypeError);
  EXPECT_STREQ(ct::AssertionError("x").class_name(), "AssertionError");
}

// ---- GoogleTest adaptors ------------------------------------------------------------------

TEST(TestingGtest, MacrosPassAndReportFailures) {
  CUPP_EXPECT_ALLCLOSE(std::vector<double>{1.0}, 1.0);
  CUPP_EXPECT_ALLCLOSE(std::vector<double>{1.0}, 1.001, {.rtol = 1e-2, .atol = 0});
  CUPP_ASSERT_ARRAY_EQUAL(std::vector<int>{1, 2}, std::vector<int>{1, 2});
  CUPP_EXPECT_ARRAY_ALMOST_EQUAL(1.0, 1.0000001);
  CUPP_EXPECT_ARRAY_ALMOST_EQUAL_NULP(1.0, 1.0);
  CUPP_EXPECT_ARRAY_MAX_ULP(1.0f, 1.0f, 0);
  CUPP_EXPECT_ARRAY_LESS(1, 2);
  CUPP_EXPECT_EQUAL(cupp::int8, cupp::int8);
  EXPECT_NONFATAL_FAILURE(CUPP_EXPECT_ALLCLOSE(std::vector<double>{1.0}, 2.0),
                          "Not equal to tolerance rtol=1e-07, atol=0\n\nMismatched elements: 1 / 1 (100%)");
  EXPECT_NONFATAL_FAILURE(CUPP_EXPECT_ARRAY_EQUAL(1, 2), "assert_array_equal(1, 2)");
  EXPECT_FATAL_FAILURE(CUPP_ASSERT_ARRAY_LESS(2, 1), "Arrays are not strictly ordered `x < y`");
  EXPECT_FATAL_FAILURE(CUPP_ASSERT_EQUAL(cupp::shape_t{1}, cupp::shape_t{2}), "Items are not equal:");
}
