// cupp::testing: numpy.testing's array assertions for C++ tests (any framework). Each function
// compares an actual and a desired operand (a host_array, an ndarray or lazy expression — fetched
// with .get(), a std::vector / std::span / initializer list, or a scalar) and throws
// cupp::testing::AssertionError with NumPy 2's message when they differ. GoogleTest adaptors are
// in cupp/testing/gtest.hpp. docs/testing.md is the guide.
//
// Rules, as numpy.testing's: the shapes must be equal unless one side is 0-d (a scalar), which
// then stands for every element; NaNs must sit at the same positions (they are equal there unless
// equal_nan is false); infinities must sit at the same positions with the same sign; -0.0 equals
// 0.0; empty arrays of equal shape are equal. Values compare in double / complex<double>, except
// that two integer (or bool) operands compare exactly as integers (int64/uint64 beyond 2^53).
#pragma once

#include <complex>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"
#include "cupp/host_array.hpp"

namespace cupp::testing {

// What the assertions throw: what() is the whole NumPy-style message.
class AssertionError : public cupp::Error {
 public:
  using cupp::Error::Error;
  const char* class_name() const noexcept override { return "AssertionError"; }
};

// One side of a comparison, made implicitly from what a test holds. It refers to a host_array
// passed as an lvalue (no copy) and owns everything else; it lives for one call.
class operand {
 public:
  operand(const host_array& a) noexcept : ref_(&a) {}                        // NOLINT: implicit by design
  operand(host_array&& a) noexcept : owned_(std::move(a)), ref_(&owned_) {}  // NOLINT
  // Anything with get() returning a host_array: cupp::ndarray and its lazy expressions (a device
  // to host copy, so it needs a GPU at run time).
  template <class A>
  requires(!std::is_same_v<std::remove_cvref_t<A>, host_array> &&
           requires(const A& a) {
             { a.get() } -> std::convertible_to<host_array>;
           }) operand(const A& a)
      : owned_(a.get()), ref_(&owned_) {}  // NOLINT
  // A scalar: a 0-d array of dtype_of<T>() (a plain int is int32, a double float64).
  template <class T>
  requires is_host_element_v<T> operand(T value)
      : owned_(host_array(dtype_of<T>(), shape_t{})), ref_(&owned_) {  // NOLINT
    store(0, value);
  }
  // A 1-d array of the values' dtype.
  template <class T>
  requires is_host_element_v<T> operand(const std::vector<T>& values)
      : operand(values.begin(), values.end(), values.size()) {}  // NOLINT
  // std::vector<bool> (packed bits, no bool elements to point at): a 1-d bool array.
  operand(const std::vector<bool>& values)  // NOLINT
      : owned_(host_array(dtype_of<bool>(), shape_t{static_cast<std::int64_t>(values.size())})), ref_(&owned_) {
    for (std::size_t i = 0; i < values.size(); ++i) store(i, static_cast<bool>(values[i]));
  }
  template <class T, std::size_t N>
  requires is_host_element_v<std::remove_const_t<T>> operand(std::span<T, N> values)
      : operand(values.begin(), values.end(), values.size()) {}  // NOLINT
  template <class T>
  requires is_host_element_v<T> operand(std::initializer_list<T> values)
      : operand(values.begin(), values.end(), values.size()) {}  // NOLINT

  operand(const operand&) = delete;
  operand& operator=(const operand&) = delete;

  const host_array& array() const noexcept { return *ref_; }

 private:
  template <class It>
  operand(It first, It last, std::size_t n)
      : owned_(host_array(dtype_of<std::remove_cvref_t<decltype(*first)>>(), shape_t{static_cast<std::int64_t>(n)})),
        ref_(&owned_) {
    std::size_t i = 0;
    for (; first != last; ++first) store(i++, static_cast<std::remove_cvref_t<decltype(*first)>>(*first));
  }
  template <class T>
  void store(std::size_t i, T value) noexcept {
    std::memcpy(owned_.data() + i * sizeof(T), &value, sizeof(T));
  }

  host_array owned_;
  const host_array* ref_;
};

// numpy.testing.assert_allclose: |actual - desired| <= atol + rtol * |desired| elementwise.
// Header: "Not equal to tolerance rtol=1e-07, atol=0". strict: shapes and dtypes must be equal
// (no scalar stands for an array). err_msg is added to the message as NumPy's err_msg.
struct allclose_options {
  double rtol = 1e-7;
  double atol = 0.0;
  bool equal_nan = true;
  bool strict = false;
  std::string_view err_msg = {};
};
void assert_allclose(const operand& actual, const operand& desired, const allclose_options& options = {});
// NumPy's positional form. (A template, so that `{}` as the third argument means the options'
// defaults, not rtol = 0.)
template <class R>
requires std::is_arithmetic_v<R>
void assert_allclose(const operand& actual, const operand& desired, R rtol, double atol = 0.0, bool equal_nan = true) {
  assert_allclose(actual, desired,
                  allclose_options{.rtol = static_cast<double>(rtol), .atol = atol, .equal_nan = equal_nan});
}

// numpy.testing.assert_array_equal ("Arrays are not equal") and assert_array_less ("Arrays are
// not strictly ordered `x < y`", operands named x and y; infinities compare as values there).
struct compare_options {
  bool strict = false;
  std::string_view err_msg = {};
};
void assert_array_equal(const operand& actual, const operand& desired, const compare_options& options = {});
void assert_array_less(const operand& x, const operand& y, const compare_options& options = {});

// numpy.testing.assert_array_almost_equal: |actual - desired| < 1.5 * 10^-decimal elementwise.
// Header: "Arrays are not almost equal to 6 decimals".
struct almost_equal_options {
  int decimal = 6;
  std::string_view err_msg = {};
};
void assert_array_almost_equal(const operand& actual, const operand& desired, const almost_equal_options& options = {});
template <class I>
requires std::is_integral_v<I>
void assert_array_almost_equal(const operand& actual, const operand& desired, I decimal) {
  assert_array_almost_equal(actual, desired, almost_equal_options{.decimal = static_cast<int>(decimal)});
}

// numpy.testing.assert_array_almost_equal_nulp: |x - y| <= nulp * spacing(max(|x|, |y|)), in the
// operands' common floating type (float16, bfloat16, float32 or float64; integers: float64).
// Header: "Arrays are not equal to 1 ULP (max is 2)". The operands broadcast (NumPy's rule).
void assert_array_almost_equal_nulp(const operand& x, const operand& y, int nulp = 1);

// numpy.testing.assert_array_max_ulp: every element within maxulp units in the last place, in
// the common floating type (NaN equals NaN). Returns the ULP differences (float64, the broadcast
// shape). Header: "Arrays are not almost equal up to 1 ULP (max difference is 3 ULP)". Complex
// operands: cupp::TypeError, as NumPy raises NotImplementedError. (NumPy requires equal shapes;
// here the operands broadcast.)
host_array assert_array_max_ulp(const operand& a, const operand& b, double maxulp = 1.0);

// numpy.testing.assert_equal for shapes and dtypes: "Items are not equal:" with both values.
void assert_equal(const shape_t& actual, const shape_t& desired, std::string_view err_msg = {});
// ndarray::shape()'s form.
void assert_equal(std::span<const std::int64_t> actual, std::span<const std::int64_t> desired,
                  std::string_view err_msg = {});
void assert_equal(const dtype& actual, const dtype& desired, std::string_view err_msg = {});

// Default relative tolerances per dtype for results computed on the GPU (the figures cupp's
// reference tests use): float16, bfloat16, float32 and complex64, float64 and complex128;
// integers and bool compare exactly (0).
struct tolerances {
  double float16 = 2e-3;
  double bfloat16 = 8e-3;
  double float32 = 2e-6;   // and complex64
  double float64 = 1e-12;  // and complex128
};
double tolerance_for(const dtype& type, const tolerances& table = {});

}  // namespace cupp::testing
