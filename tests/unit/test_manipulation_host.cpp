// The array manipulation routines without a GPU (cupp/manipulation.hpp): the views (split pieces,
// flip, rot90, atleast_nd) over wrapped host memory (views never touch it), and the validation
// that happens before any device work, with NumPy's error classes and messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"

namespace cupp {
namespace {

using test::error_of;
using shape_v = std::vector<std::int64_t>;

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = int64) : fake_array(std::move(shape), type) {}
};

shape_v shape(const ndarray& a) { return shape_v(a.shape().begin(), a.shape().end()); }
shape_v strides(const ndarray& a) { return shape_v(a.strides().begin(), a.strides().end()); }
std::ptrdiff_t at(const ndarray& view, const fake& f) {
  return static_cast<const unsigned char*>(view.data()) - f.bytes.data();
}

TEST(ManipulationHost, ConcatenateValidation) {
  fake a({2, 3}), b({2}), c({}), d({4, 2});
  EXPECT_EQ(error_of<ValueError>([] { concatenate(std::span<const ndarray>()); }),
            "need at least one array to concatenate");
  EXPECT_EQ(error_of<ValueError>([&] { concatenate({c.a, c.a}); }), "zero-dimensional arrays cannot be concatenated");
  EXPECT_EQ(error_of<ValueError>([&] { concatenate({a.a, b.a}); }),
            "all the input arrays must have same number of dimensions, but the array at index 0 has 2 dimension(s) "
            "and the array at index 1 has 1 dimension(s)");
  EXPECT_EQ(error_of<ValueError>([&] { concatenate({a.a, d.a}); }),
            "all the input array dimensions except for the concatenation axis must match exactly, but along "
            "dimension 1, the array at index 0 has size 3 and the array at index 1 has size 2");
  EXPECT_EQ(error_of<AxisError>([&] { concatenate({a.a, a.a}, {.axis = 2}); }),
            "axis 2 is out of bounds for array of dimension 2");
  EXPECT_THROW(concatenate({a.a, a.a}, {.axis = -3}), AxisError);
  EXPECT_EQ(error_of<TypeError>([&] { concatenate({a.a, a.a}, {.out = d.a, .dtype = float32}); }),
            "concatenate() only takes `out` or `dtype` as an argument, but both were provided.");
  fake f({2}, float64);
  EXPECT_EQ(error_of<TypeError>([&] { concat({f.a, b.a}, {.dtype = int64}); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'");
  EXPECT_EQ(error_of<ValueError>([&] { concatenate({a.a, a.a}, {.out = d.a}); }), "Output array is the wrong shape");
  EXPECT_THROW(concatenate({a.a, ndarray()}), ValueError);
}

TEST(ManipulationHost, StackValidation) {
  fake a({2, 3}), b({3, 2});
  EXPECT_EQ(error_of<ValueError>([] { stack(std::span<const ndarray>()); }), "need at least one array to stack");
  EXPECT_EQ(error_of<ValueError>([&] { stack({a.a, b.a}); }), "all input arrays must have the same shape");
  EXPECT_THROW(stack({a.a, a.a}, {.axis = 3}), AxisError);
  EXPECT_THROW(hstack(std::span<const ndarray>()), ValueError);
  EXPECT_THROW(vstack({a.a, b.a}), ValueError);
  EXPECT_THROW(dstack({a.a, b.a}), ValueError);
  EXPECT_THROW(column_stack({a.a, b.a}), ValueError);
  EXPECT_THROW(append(a.a, b.a, 0), ValueError);
  EXPECT_THROW(append(a.a, b.a, 2), AxisError);
}

TEST(ManipulationHost, SplitsAreViews) {
  fake a({10});
  const auto parts = array_split(a.a, 3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(shape(parts[0]), shape_v({4}));
  EXPECT_EQ(shape(parts[1]), shape_v({3}));
  EXPECT_EQ(at(parts[2], a), 7 * 8);
  EXPECT_EQ(error_of<ValueError>([&] { split(a.a, 3); }), "array split does not result in an equal division");
  EXPECT_EQ(error_of<ValueError>([&] { array_split(a.a, 0); }), "number sections must be larger than 0.");
  EXPECT_THROW(split(a.a, 0), ValueError);
  const auto at_idx = split(a.a, {3, -2, 20});
  ASSERT_EQ(at_idx.size(), 4u);
  EXPECT_EQ(shape(at_idx[0]), shape_v({3}));
  EXPECT_EQ(shape(at_idx[1]), shape_v({5}));
  EXPECT_EQ(shape(at_idx[2]), shape_v({2}));
  EXPECT_EQ(shape(at_idx[3]), shape_v({0}));
  EXPECT_EQ(array_split(a.a, 12).size(), 12u);
  EXPECT_THROW(split(a.a, 2, 1), AxisError);
  fake m({2, 4, 6});
  const auto cols = split(m.a, {1}, -1);
  EXPECT_EQ(shape(cols[1]), shape_v({2, 4, 5}));
  EXPECT_EQ(at(cols[1], m), 8);
  EXPECT_EQ(shape(hsplit(m.a, 2)[0]), shape_v({2, 2, 6}));
  EXPECT_EQ(shape(vsplit(m.a, 2)[1]), shape_v({1, 4, 6}));
  EXPECT_EQ(shape(dsplit(m.a, 3)[2]), shape_v({2, 4, 2}));
  fake s({}), v({4});
  EXPECT_EQ(error_of<ValueError>([&] { hsplit(s.a, 1); }), "hsplit only works on arrays of 1 or more dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { vsplit(v.a, 2); }), "vsplit only works on arrays of 2 or more dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { dsplit(v.a, 2); }), "dsplit only works on arrays of 3 or more dimensions");
  EXPECT_EQ(shape(hsplit(v.a, 2)[1]), shape_v({2}));
}

TEST(ManipulationHost, FlipAndRot90AreViews) {
  fake a({2, 3}, float32);
  const ndarray f = flip(a.a);
  EXPECT_EQ(strides(f), shape_v({-12, -4}));
  EXPECT_EQ(at(f, a), 5 * 4);
  EXPECT_EQ(strides(flip(a.a, -1)), shape_v({12, -4}));
  EXPECT_EQ(strides(fliplr(a.a)), shape_v({12, -4}));
  EXPECT_EQ(strides(flipud(a.a)), shape_v({-12, 4}));
  EXPECT_EQ(at(flipud(a.a), a), 12);
  EXPECT_EQ(error_of<ValueError>([&] { flip(a.a, {0, -2}); }), "repeated axis");
  EXPECT_THROW(flip(a.a, 2), AxisError);
  fake v({3}), s({});
  EXPECT_EQ(error_of<ValueError>([&] { fliplr(v.a); }), "Input must be >= 2-d.");
  EXPECT_EQ(error_of<ValueError>([&] { flipud(s.a); }), "Input must be >= 1-d.");
  EXPECT_EQ(flip(s.a).ndim(), 0);
  EXPECT_THROW(flip(s.a, 0), AxisError);

  EXPECT_EQ(shape(rot90(a.a)), shape_v({3, 2}));
  EXPECT_EQ(strides(rot90(a.a)), shape_v({-4, 12}));
  EXPECT_EQ(at(rot90(a.a), a), 2 * 4);
  EXPECT_EQ(strides(rot90(a.a, 2)), shape_v({-12, -4}));
  EXPECT_EQ(strides(rot90(a.a, -1)), shape_v({4, -12}));
  EXPECT_EQ(strides(rot90(a.a, 4)), shape_v({12, 4}));
  EXPECT_EQ(error_of<ValueError>([&] { rot90(a.a, 1, {0, 0}); }), "Axes must be different.");
  EXPECT_EQ(error_of<ValueError>([&] { rot90(a.a, 1, {0, -2}); }), "Axes must be different.");
  EXPECT_EQ(error_of<ValueError>([&] { rot90(a.a, 1, {0, 2}); }), "Axes must be different.");  // NumPy: |0 - 2| == ndim
  EXPECT_EQ(error_of<ValueError>([&] { rot90(a.a, 1, {0, 3}); }), "Axes=(0, 3) out of range for array of ndim=2.");
  EXPECT_THROW(rot90(v.a), ValueError);
}

TEST(ManipulationHost, AtLeastNdAreViews) {
  fake s({}), v({3}), m({2, 3}), t({2, 3, 4});
  EXPECT_EQ(shape(atleast_1d(s.a)), shape_v({1}));
  EXPECT_EQ(shape(atleast_2d(s.a)), shape_v({1, 1}));
  EXPECT_EQ(shape(atleast_2d(v.a)), shape_v({1, 3}));
  EXPECT_EQ(shape(atleast_3d(s.a)), shape_v({1, 1, 1}));
  EXPECT_EQ(shape(atleast_3d(v.a)), shape_v({1, 3, 1}));
  EXPECT_EQ(shape(atleast_3d(m.a)), shape_v({2, 3, 1}));
  EXPECT_EQ(atleast_3d(t.a).data(), t.a.data());
  const ndarray both[] = {s.a, m.a};
  const auto r = atleast_2d(both);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(shape(r[0]), shape_v({1, 1}));
  EXPECT_EQ(r[1].data(), m.a.data());
}

TEST(ManipulationHost, ValidationBeforeDeviceWork) {
  fake a({3, 4}), v({4}), f({4}, float64), u({4}, uint64);
  EXPECT_THROW(roll(a.a, 1, 2), AxisError);
  EXPECT_EQ(error_of<ValueError>([&] { roll(a.a, {1, 2, 3}, {0, 1}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
            "(3,) and arg 1 with shape (2,).");
  EXPECT_EQ(error_of<ValueError>([&] { tile(a.a, {-1, 2}); }), "negative dimensions are not allowed");
  EXPECT_EQ(error_of<ValueError>([&] { repeat(a.a, -1); }), "repeats may not contain negative values.");
  EXPECT_EQ(error_of<ValueError>([&] { repeat(v.a, {1, -1, 0, 2}); }), "repeats may not contain negative values.");
  EXPECT_EQ(error_of<ValueError>([&] { repeat(a.a, {1, 2}, 1); }),
            "operands could not be broadcast together with shape (4,) (2,)");
  EXPECT_THROW(repeat(a.a, 2, 2), AxisError);
  EXPECT_EQ(error_of<TypeError>([&] { repeat(v.a, f.a); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  EXPECT_THROW(repeat(v.a, u.a), TypeError);
  EXPECT_EQ(error_of<ValueError>([&] { resize(a.a, {2, -1}); }), "all elements of `new_shape` must be non-negative");
  EXPECT_EQ(error_of<IndexError>([&] { delete_(a.a, std::int64_t{4}, 0); }),
            "index 4 is out of bounds for axis 0 with size 3");
  EXPECT_THROW(delete_(a.a, std::int64_t{-13}), IndexError);
  EXPECT_THROW(delete_(a.a, std::vector<std::int64_t>{0, 12}), IndexError);
  EXPECT_EQ(error_of<ValueError>([&] { delete_(a.a, std::vector<bool>{true, false}, 1); }),
            "boolean array argument obj to delete must be one dimensional and match the axis length of 4");
  EXPECT_THROW(delete_(a.a, std::int64_t{0}, 2), AxisError);
  EXPECT_EQ(error_of<IndexError>([&] { insert(v.a, std::int64_t{5}, v.a); }),
            "index 5 is out of bounds for axis 0 with size 4");
  EXPECT_THROW(insert(v.a, std::vector<std::int64_t>{0, -5}, v.a), IndexError);
  EXPECT_THROW(insert(a.a, std::int64_t{0}, v.a, 2), AxisError);
}

TEST(ManipulationHost, RoutineTable) {
  const auto routines = manipulation_routines();
  EXPECT_GE(routines.size(), 26u);
  for (const routine_info& r : routines) EXPECT_NE(std::string(r.signature).find('('), std::string::npos) << r.name;
}

}  // namespace
}  // namespace cupp
