// cupp::testing on device arrays (issue 32): every built-in dtype uploaded with cupp::asarray and
// compared through .get() with host data, with another device array and with a scalar; NaN, inf,
// signed zero, empty and 0-d operands; a deliberately wrong device result fails with NumPy's
// message. Skips without a GPU. (Written on a machine without one: first run is the GPU session's.)
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/float16.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/testing.hpp"
#include "cupp/testing/gtest.hpp"
#include "gpu_support.hpp"

namespace ct = cupp::testing;
using cupp::host_array;

namespace {

// `values` written into a host array of `type` (complex: real parts; bool: nonzero).
host_array host_of(cupp::dtype type, const std::vector<double>& values, cupp::shape_t shape) {
  host_array h(type, std::move(shape));
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::byte* p = h.data() + i * h.itemsize();
    const double v = values[i];
    auto put = [&](auto x) { std::memcpy(p, &x, sizeof x); };
    switch (type.id()) {
      case cupp::type_id::bool_: put(static_cast<std::uint8_t>(v != 0)); break;
      case cupp::type_id::int8: put(static_cast<std::int8_t>(v)); break;
      case cupp::type_id::int16: put(static_cast<std::int16_t>(v)); break;
      case cupp::type_id::int32: put(static_cast<std::int32_t>(v)); break;
      case cupp::type_id::int64: put(static_cast<std::int64_t>(v)); break;
      case cupp::type_id::uint8: put(static_cast<std::uint8_t>(v)); break;
      case cupp::type_id::uint16: put(static_cast<std::uint16_t>(v)); break;
      case cupp::type_id::uint32: put(static_cast<std::uint32_t>(v)); break;
      case cupp::type_id::uint64: put(static_cast<std::uint64_t>(v)); break;
      case cupp::type_id::float16: put(cupp::float16_t(v)); break;
      case cupp::type_id::bfloat16: put(cupp::bfloat16_t(v)); break;
      case cupp::type_id::float32: put(static_cast<float>(v)); break;
      case cupp::type_id::float64: put(v); break;
      case cupp::type_id::complex64: put(std::complex<float>(static_cast<float>(v), 0.0f)); break;
      case cupp::type_id::complex128: put(std::complex<double>(v, 0.0)); break;
      default: ADD_FAILURE() << "unexpected dtype"; break;
    }
  }
  return h;
}

const std::vector<cupp::dtype>& every_dtype() {
  static const std::vector<cupp::dtype> all{cupp::bool_,   cupp::int8,      cupp::int16,     cupp::int32,
                                            cupp::int64,   cupp::uint8,     cupp::uint16,    cupp::uint32,
                                            cupp::uint64,  cupp::float16,   cupp::bfloat16,  cupp::float32,
                                            cupp::float64, cupp::complex64, cupp::complex128};
  return all;
}

template <class F>
std::string failure_of(F&& f) {
  try {
    f();
  } catch (const ct::AssertionError& e) { return e.what(); }
  return "<passed>";
}

}  // namespace

TEST(TestingGpu, EveryDtypeAgainstHostDeviceAndScalar) {
  CUPP_REQUIRE_GPU();
  for (const cupp::dtype& t : every_dtype()) {
    SCOPED_TRACE(t.name());
    const std::vector<double> values = t.is_bool() ? std::vector<double>{1, 0, 1} : std::vector<double>{1, 2, 3};
    const host_array h = host_of(t, values, {3});
    const cupp::ndarray d = cupp::asarray(h);
    CUPP_EXPECT_ARRAY_EQUAL(d, h);
    CUPP_EXPECT_ARRAY_EQUAL(d, cupp::asarray(h));
    CUPP_EXPECT_ALLCLOSE(d, h, {.rtol = ct::tolerance_for(t)});
    CUPP_EXPECT_ARRAY_ALMOST_EQUAL(d, h);
    CUPP_EXPECT_EQUAL(d.dtype(), t);
    CUPP_EXPECT_EQUAL(d.shape(), cupp::shape_t{3});
    if (!t.is_complex()) CUPP_EXPECT_ARRAY_MAX_ULP(d, h, 0);
    const host_array ones = host_of(t, {1, 1}, {2});
    CUPP_EXPECT_ARRAY_EQUAL(cupp::asarray(ones), true);  // a scalar stands for every element
    // Empty and 0-d device arrays.
    CUPP_EXPECT_ARRAY_EQUAL(cupp::asarray(host_array(t, {0})), host_array(t, {0}));
    CUPP_EXPECT_ARRAY_EQUAL(cupp::asarray(host_of(t, {1}, {})), 1);
    // A wrong device result fails.
    const host_array wrong = host_of(t, t.is_bool() ? std::vector<double>{1, 1, 1} : std::vector<double>{1, 5, 3}, {3});
    const std::string msg = failure_of([&] { ct::assert_array_equal(cupp::asarray(wrong), h); });
    EXPECT_TRUE(
        msg.starts_with("Arrays are not equal\n\nMismatched elements: 1 / 3 (33.3%)\nMismatch at index:\n [1]: "))
        << msg;
  }
}

TEST(TestingGpu, NanInfAndSignedZeroOnTheDevice) {
  CUPP_REQUIRE_GPU();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  for (const cupp::dtype& t :
       {cupp::float16, cupp::bfloat16, cupp::float32, cupp::float64, cupp::complex64, cupp::complex128}) {
    SCOPED_TRACE(t.name());
    const host_array h = host_of(t, {nan, inf, -inf, -0.0}, {4});
    const cupp::ndarray d = cupp::asarray(h);
    CUPP_EXPECT_ARRAY_EQUAL(d, host_of(t, {nan, inf, -inf, 0.0}, {4}));
    CUPP_EXPECT_ALLCLOSE(d, h);
    EXPECT_TRUE(failure_of([&] {
                  ct::assert_array_equal(d, host_of(t, {1, inf, -inf, 0}, {4}));
                }).find("nan location mismatch:") != std::string::npos);
    EXPECT_TRUE(failure_of([&] {
                  ct::assert_array_equal(d, host_of(t, {nan, -inf, -inf, 0}, {4}));
                }).find("inf values mismatch:") != std::string::npos);
    EXPECT_NE(failure_of([&] { ct::assert_allclose(d, h, {.equal_nan = false}); }), "<passed>");
  }
}

TEST(TestingGpu, WrongResultMessage) {
  CUPP_REQUIRE_GPU();
  const cupp::ndarray d = cupp::asarray(std::vector<double>{1, 2, 3});
  EXPECT_EQ(failure_of([&] {
              ct::assert_allclose(d, std::vector<double>{1, 2.5, 3});
            }),
            "Not equal to tolerance rtol=1e-07, atol=0\n"
            "\n"
            "Mismatched elements: 1 / 3 (33.3%)\n"
            "Mismatch at index:\n"
            " [1]: 2.0 (ACTUAL), 2.5 (DESIRED)\n"
            "Max absolute difference among violations: 0.5\n"
            "Max relative difference among violations: 0.2\n"
            " ACTUAL: array([1., 2., 3.])\n"
            " DESIRED: array([1. , 2.5, 3. ])");
  // A kernel with a deliberate bug (element 617 gets one too many) against the host's 2 * x: the
  // message names the one bad element of 1000, its index and both values.
  const cupp::ElementwiseKernel doubled_with_a_bug("T x", "T y", "y = i == 617 ? x * 2 + 1 : x * 2;", "doubled_with_a_bug");
  std::vector<float> x(1000), twice(1000);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = static_cast<float>(i);
    twice[i] = 2.0f * static_cast<float>(i);
  }
  const std::string message = failure_of([&] { ct::assert_array_equal(doubled_with_a_bug(cupp::asarray(x)), twice); });
  EXPECT_EQ(message.substr(0, message.find(" ACTUAL: array(")),
            "Arrays are not equal\n"
            "\n"
            "Mismatched elements: 1 / 1000 (0.1%)\n"
            "Mismatch at index:\n"
            " [617]: 1235.0 (ACTUAL), 1234.0 (DESIRED)\n"
            "Max absolute difference among violations: 1.\n"
            "Max relative difference among violations: 0.00081037\n")
      << message;
  // The same kernel without the bug passes.
  const cupp::ElementwiseKernel doubled("T x", "T y", "y = x * 2;", "doubled");
  CUPP_EXPECT_ARRAY_EQUAL(doubled(cupp::asarray(x)), twice);
}
