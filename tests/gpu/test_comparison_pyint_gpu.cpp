// NumPy 2's comparison promoter on the GPU: comparing an integer array with a Python int outside
// its dtype (`uint8_array == -1`, `int8_array < 300`) gives the exact answer at every element,
// instead of NEP 50's OverflowError (which arithmetic keeps). For each comparison, every integer
// dtype, values just outside both ends (and far outside, up to 64-bit magnitudes), the scalar on
// either side, arrays holding the dtype's extremes, out= (bool and a wider dtype), where= (only
// masked elements written), dtype=, casting= and strided operands; each result is checked against
// a truth computed on the host by comparing the exact values.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <type_traits>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

// An exact integer as sign and magnitude (every int64 and uint64 value, and a weak_scalar's).
struct exact {
  bool negative;
  std::uint64_t magnitude;
};
exact exact_of(std::int64_t v) {
  return {v < 0, v < 0 ? std::uint64_t(0) - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v)};
}
exact exact_of(std::uint64_t v) { return {false, v}; }
exact exact_of(const weak_scalar& w) { return {w.is_negative() && w.magnitude() != 0, w.magnitude()}; }
// -1, 0, 1 as a < b, a == b, a > b.
int order(exact a, exact b) {
  if (a.negative != b.negative) return a.negative ? -1 : 1;
  if (a.magnitude == b.magnitude) return 0;
  return (a.magnitude < b.magnitude) != a.negative ? -1 : 1;
}

struct comparison {
  const ufunc* f;
  std::function<bool(int)> holds;  // the truth for an order of x1 against x2
};
std::vector<comparison> comparisons() {
  return {{&equal, [](int o) { return o == 0; }},     {&not_equal, [](int o) { return o != 0; }},
          {&less, [](int o) { return o < 0; }},       {&less_equal, [](int o) { return o <= 0; }},
          {&greater, [](int o) { return o > 0; }},    {&greater_equal, [](int o) { return o >= 0; }}};
}

// One integer dtype: an array of its extremes and neighbours, and Python ints outside it.
struct int_case {
  dtype type;
  ndarray values;               // min, min + 1, 0, 1, max - 1, max (as the dtype)
  std::vector<exact> elements;  // the same, exactly
  std::vector<weak_scalar> outside;
};

template <class T>
int_case make_case(dtype type) {
  using L = std::numeric_limits<T>;
  const std::vector<T> v = {L::min(), static_cast<T>(L::min() + 1), T(0), T(1), static_cast<T>(L::max() - 1), L::max()};
  int_case c{type, asarray(v), {}, {}};
  for (T x : v) {
    if constexpr (std::is_signed_v<T>) c.elements.push_back(exact_of(static_cast<std::int64_t>(x)));
    else c.elements.push_back(exact_of(static_cast<std::uint64_t>(x)));
  }
  // Just below the minimum and just above the maximum, and far outside (up to 64-bit magnitudes:
  // a C++ integer cannot go beyond, unlike a Python int).
  if constexpr (std::is_signed_v<T> && sizeof(T) < 8) {
    c.outside = {weak_scalar(std::int64_t{L::min()} - 1), weak_scalar(std::int64_t{L::max()} + 1),
                 weak_scalar(std::int64_t{-1} << 40), weak_scalar(std::int64_t{1} << 40)};
    if constexpr (sizeof(T) == 1) c.outside.push_back(weak_scalar(300));
  } else if constexpr (std::is_signed_v<T>) {
    // int64: 2**63 and 2**64 - 1 (outside int64 entirely). Below -2**63 no C++ integer reaches.
    c.outside = {weak_scalar(std::uint64_t{1} << 63), weak_scalar(std::numeric_limits<std::uint64_t>::max())};
  } else {
    c.outside = {weak_scalar(-1), weak_scalar(-300), weak_scalar(std::numeric_limits<std::int64_t>::min())};
    if constexpr (sizeof(T) < 8) c.outside.push_back(weak_scalar(std::uint64_t{L::max()} + 1));
  }
  return c;
}

std::vector<int_case> int_cases() {
  return {make_case<std::int8_t>(int8),   make_case<std::uint8_t>(uint8),   make_case<std::int16_t>(int16),
          make_case<std::uint16_t>(uint16), make_case<std::int32_t>(int32), make_case<std::uint32_t>(uint32),
          make_case<std::int64_t>(int64), make_case<std::uint64_t>(uint64)};
}

std::vector<bool> truth(const comparison& c, const int_case& k, const weak_scalar& w, bool scalar_first) {
  std::vector<bool> t;
  for (const exact& e : k.elements) t.push_back(c.holds(scalar_first ? order(exact_of(w), e) : order(e, exact_of(w))));
  return t;
}

std::vector<bool> as_bools(const ndarray& a) {
  std::vector<bool> b;
  for (std::uint8_t x : astype(a, uint8).to_vector<std::uint8_t>()) b.push_back(x != 0);
  return b;
}

std::string label(const comparison& c, const int_case& k, const weak_scalar& w, bool scalar_first) {
  const std::string value = (w.is_negative() ? "-" : "") + std::to_string(w.magnitude());
  return std::string(c.f->name()) + (scalar_first ? "(" + value + ", " + k.type.name() + " array)"
                                                  : "(" + k.type.name() + " array, " + value + ")");
}

TEST(ComparisonPyIntGpu, EveryElementIsExactForEveryOpDtypeAndSide) {
  CUPP_REQUIRE_GPU();
  int checked = 0;
  for (const comparison& c : comparisons()) {
    for (const int_case& k : int_cases()) {
      ASSERT_GE(k.outside.size(), 2u) << k.type.name();
      for (const weak_scalar& w : k.outside) {
        for (const bool scalar_first : {false, true}) {
          SCOPED_TRACE(label(c, k, w, scalar_first));
          ndarray r;
          ASSERT_NO_THROW(r = scalar_first ? (*c.f)(w, k.values) : (*c.f)(k.values, w));
          EXPECT_EQ(r.dtype(), bool_);
          EXPECT_EQ(as_bools(r), truth(c, k, w, scalar_first));
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 6 * 8 * 2 * 2);
  // int64's least value is in range: the kernel compares it as usual.
  EXPECT_EQ(as_bools(less(asarray(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 0}),
                          std::numeric_limits<std::int64_t>::min())),
            (std::vector<bool>{false, false}));
}

TEST(ComparisonPyIntGpu, OperatorsAndInRangeNeighbours) {
  CUPP_REQUIRE_GPU();
  const ndarray u8 = asarray(std::vector<std::uint8_t>{0, 1, 254, 255});
  const ndarray i8 = asarray(std::vector<std::int8_t>{-128, -1, 0, 127});
  EXPECT_EQ(as_bools(u8 == -1), (std::vector<bool>{false, false, false, false}));
  EXPECT_EQ(as_bools(u8 != -1), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(as_bools(u8 > -1), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(as_bools(u8 < 256), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(as_bools(i8 < 300), (std::vector<bool>{true, true, true, true}));
  EXPECT_EQ(as_bools(i8 >= 128), (std::vector<bool>{false, false, false, false}));
  EXPECT_EQ(as_bools(-129 < i8), (std::vector<bool>{true, true, true, true}));
  // The extremes themselves are in range: the kernel compares them.
  EXPECT_EQ(as_bools(u8 == 255), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(as_bools(u8 <= 0), (std::vector<bool>{true, false, false, false}));
  EXPECT_EQ(as_bools(i8 > 126), (std::vector<bool>{false, false, false, true}));
  EXPECT_EQ(as_bools(i8 == -128), (std::vector<bool>{true, false, false, false}));
  // Arithmetic, bitwise and min/max keep NEP 50's OverflowError, with NumPy's message.
  EXPECT_EQ(test::error_of<OverflowError>([&] { add(u8, -1); }), "Python integer -1 out of bounds for uint8");
  EXPECT_EQ(test::error_of<OverflowError>([&] { maximum(i8, 300); }), "Python integer 300 out of bounds for int8");
  EXPECT_THROW(bitwise_and(u8, 256), OverflowError);
  // Float arrays convert the int: compared as usual.
  EXPECT_EQ(as_bools(less(asarray(std::vector<float>{299.0f, 300.0f, 301.0f}), 300)),
            (std::vector<bool>{true, false, false}));
}

TEST(ComparisonPyIntGpu, OutWhereDtypeAndCastingAreHonoured) {
  CUPP_REQUIRE_GPU();
  const ndarray a = asarray(std::vector<std::int16_t>{-32768, -1, 0, 5, 32767, 7});
  // out= a bool array: filled in place and returned.
  ndarray out = astype(asarray(std::vector<std::uint8_t>{0, 1, 0, 1, 0, 1}), bool_);
  const ndarray r = less(a, 40000, {.out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(as_bools(out), std::vector<bool>(6, true));
  // out= a wider dtype (bool casts safely): 0 and 1.
  ndarray wide = asarray(std::vector<std::int32_t>(6, 9));
  greater(a, -40000, {.out = wide});
  EXPECT_EQ(wide.to_vector<std::int32_t>(), std::vector<std::int32_t>(6, 1));
  equal(a, -40000, {.out = wide});
  EXPECT_EQ(wide.to_vector<std::int32_t>(), std::vector<std::int32_t>(6, 0));
  // where=: only masked elements are written; the others keep their values.
  const ndarray mask = astype(asarray(std::vector<std::uint8_t>{1, 0, 1, 0, 0, 1}), bool_);
  ndarray kept = asarray(std::vector<std::int32_t>{7, 7, 7, 7, 7, 7});
  not_equal(a, 100000, {.out = kept, .where = mask});
  EXPECT_EQ(kept.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 7, 1, 7, 7, 1}));
  less_equal(-100000, a, {.out = kept, .where = mask});
  EXPECT_EQ(kept.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 7, 1, 7, 7, 1}));
  greater_equal(-100000, a, {.out = kept, .where = mask});
  EXPECT_EQ(kept.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 7, 0, 7, 7, 0}));
  // where= broadcast over a 2-d result, on a fresh output (unmasked elements are unspecified, as
  // in NumPy, so only the masked ones are checked).
  const ndarray grid = a.reshape({2, 3});
  const ndarray row_mask = astype(asarray(std::vector<std::uint8_t>{1, 0, 1}), bool_);
  const ndarray g = greater(grid, -1000000, {.where = row_mask});
  EXPECT_EQ(g.dtype(), bool_);
  const std::vector<bool> gb = as_bools(g);
  for (int i : {0, 2, 3, 5}) EXPECT_TRUE(gb[static_cast<std::size_t>(i)]) << i;
  // dtype=bool with the array's own loop; another dtype has no comparison loop (TypeError, as
  // NumPy). (For an int16 array, dtype=bool picks the int8 loop under same_kind casting: there
  // cupp keeps the OverflowError rather than claim an outcome for values the loop cannot hold.)
  const ndarray i8_values = asarray(std::vector<std::int8_t>{-128, 0, 127});
  EXPECT_EQ(as_bools(less(i8_values, 300, {.dtype = bool_})), std::vector<bool>(3, true));
  EXPECT_EQ(as_bools(greater_equal(i8_values, -300, {.dtype = bool_})), std::vector<bool>(3, true));
  EXPECT_THROW(less(a, 40000, {.dtype = int8}), TypeError);
  // casting= checks out= as usual: bool into int8 is safe, into nothing narrower.
  ndarray i8 = zeros({6}, int8);
  EXPECT_NO_THROW(less(a, 40000, {.out = i8, .casting = casting::safe}));
  EXPECT_EQ(i8.to_vector<std::int8_t>(), std::vector<std::int8_t>(6, 1));
  ndarray b = zeros({6}, bool_);
  EXPECT_NO_THROW(equal(a, 40000, {.out = b, .casting = casting::no}));
  EXPECT_THROW(less(a, 40000, {.out = zeros({6}, float32), .casting = casting::no}), TypeError);
  // out= with the wrong shape is refused as for any call.
  EXPECT_THROW(less(a, 40000, {.out = zeros({5}, bool_)}), ValueError);
  // Strided and broadcast operands (the general path), and an empty array.
  const ndarray big = asarray(std::vector<std::uint32_t>(100, 4000000000u));
  EXPECT_EQ(as_bools(greater(big(slice(0, 100, 3)), -1)), std::vector<bool>(34, true));
  EXPECT_EQ(as_bools(less(broadcast_to(asarray(std::vector<std::uint32_t>{1}), {5}), -1)), std::vector<bool>(5, false));
  EXPECT_EQ(less(zeros({0}, uint8), -1).size(), 0);
  // Large: many blocks of the fill.
  const ndarray many = zeros({1 << 20}, uint16);
  EXPECT_EQ(as_bools(equal(many, 70000)), std::vector<bool>(1 << 20, false));
}

}  // namespace
}  // namespace cupp
