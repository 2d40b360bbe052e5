// Tests of the host-side array layout arithmetic (runtime/src/array/layout.hpp) against NumPy 2's
// results: C strides, contiguity flags, slice resolution, basic indexing, reshape without copy,
// broadcasting and its messages, transposes, squeeze/expand_dims, diagonal, dtype views. Expected
// values are what NumPy gives for the same operations (float64 unless stated).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "error_of.hpp"

namespace {

using cupp::index_item;
using cupp::shape_t;
using cupp::slice;
namespace L = cupp::layout;

using cupp::test::error_of;

L::strided c_array(shape_t shape, std::int64_t itemsize = 8) {
  L::strided s;
  s.strides = L::c_strides(shape, itemsize);
  s.shape = std::move(shape);
  return s;
}

TEST(NdarrayLayout, CStrides) {
  EXPECT_EQ(L::c_strides(shape_t{2, 3, 4}, 8), (shape_t{96, 32, 8}));
  EXPECT_EQ(L::c_strides(shape_t{2, 0, 3}, 8), (shape_t{24, 24, 8}));  // np.empty((2,0,3)).strides
  EXPECT_EQ(L::c_strides(shape_t{}, 8), shape_t{});
  EXPECT_EQ(L::c_strides(shape_t{5}, 2), shape_t{2});
}

TEST(NdarrayLayout, ContiguityFlags) {
  EXPECT_TRUE(L::is_c_contiguous(shape_t{2, 3}, shape_t{24, 8}, 8));
  EXPECT_FALSE(L::is_f_contiguous(shape_t{2, 3}, shape_t{24, 8}, 8));
  EXPECT_TRUE(L::is_f_contiguous(shape_t{2, 3}, shape_t{8, 16}, 8));
  EXPECT_FALSE(L::is_c_contiguous(shape_t{2, 3}, shape_t{8, 16}, 8));
  EXPECT_TRUE(L::is_c_contiguous(shape_t{3}, shape_t{8}, 8));
  EXPECT_TRUE(L::is_f_contiguous(shape_t{3}, shape_t{8}, 8));
  // Axes of length 1 do not matter (NumPy's relaxed strides).
  EXPECT_TRUE(L::is_c_contiguous(shape_t{2, 1, 3}, shape_t{24, 999, 8}, 8));
  EXPECT_TRUE(L::is_c_contiguous(shape_t{1, 1}, shape_t{-5, 7}, 8));
  EXPECT_TRUE(L::is_f_contiguous(shape_t{1, 1}, shape_t{-5, 7}, 8));
  // Empty arrays are both.
  EXPECT_TRUE(L::is_c_contiguous(shape_t{0, 3}, shape_t{1, 1}, 8));
  EXPECT_TRUE(L::is_f_contiguous(shape_t{0, 3}, shape_t{1, 1}, 8));
  // 0-d is both.
  EXPECT_TRUE(L::is_c_contiguous(shape_t{}, shape_t{}, 8));
  EXPECT_TRUE(L::is_f_contiguous(shape_t{}, shape_t{}, 8));
  // Negative and stepped strides are neither.
  EXPECT_FALSE(L::is_c_contiguous(shape_t{3}, shape_t{-8}, 8));
  EXPECT_FALSE(L::is_c_contiguous(shape_t{3}, shape_t{16}, 8));
  EXPECT_FALSE(L::is_c_contiguous(shape_t{3}, shape_t{0}, 8));
}

TEST(NdarrayLayout, Extent) {
  auto e = L::extent(shape_t{3}, shape_t{-8}, 8);
  EXPECT_EQ(e.low, -16);
  EXPECT_EQ(e.high, 8);
  e = L::extent(shape_t{2, 3}, shape_t{24, 8}, 8);
  EXPECT_EQ(e.low, 0);
  EXPECT_EQ(e.high, 48);
  e = L::extent(shape_t{0, 3}, shape_t{24, 8}, 8);
  EXPECT_EQ(e.high - e.low, 0);
}

struct slice_case {
  slice s;
  std::int64_t length, start, step, count;
};

TEST(NdarrayLayout, SliceResolution) {
  // Python's slice(...).indices(length) and len(range(*...)).
  const slice_case cases[] = {
      {slice(), 5, 0, 1, 5},
      {slice(1, -1), 5, 1, 1, 3},
      {slice(-100, 100), 5, 0, 1, 5},
      {slice(std::nullopt, std::nullopt, -1), 5, 4, -1, 5},
      {slice(3, 0, -1), 5, 3, -1, 3},
      {slice(-1, -6, -1), 5, 4, -1, 5},
      {slice(10, std::nullopt, -2), 5, 4, -2, 3},
      {slice(5, 2), 5, 5, 1, 0},
      {slice(0, 5, 3), 5, 0, 3, 2},
      {slice(2, 2), 5, 2, 1, 0},
      {slice(-2, std::nullopt), 5, 3, 1, 2},
      {slice(1, 4, -1), 5, 1, -1, 0},
      {slice(), 0, 0, 1, 0},
      {slice(std::nullopt, std::nullopt, -1), 0, -1, -1, 0},
      {slice(std::nullopt, -10, -1), 5, 4, -1, 5},
      {slice(3), 5, 0, 1, 3},
      {slice(std::nullopt, std::nullopt, 100), 5, 0, 100, 1},
      {slice(std::nullopt, std::nullopt, -100), 5, 4, -100, 1},
  };
  for (const slice_case& c : cases) {
    const L::slice_range r = L::resolve_slice(c.s, c.length);
    EXPECT_EQ(r.count, c.count) << c.s.start.value_or(-999) << ":" << c.s.stop.value_or(-999) << ":"
                                << c.s.step.value_or(-999) << " len " << c.length;
    if (c.count > 0) {
      EXPECT_EQ(r.start, c.start);
    }
    EXPECT_EQ(r.step, c.step);
  }
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::resolve_slice(slice(0, 5, 0), 5); }), "slice step cannot be zero");
}

TEST(NdarrayLayout, BasicIndexing) {
  const L::strided a = c_array({4, 5, 6});  // strides (240, 48, 8)
  auto idx = [&](std::vector<index_item> items) { return L::index(a, 8, items); };

  L::strided r = idx({std::int64_t{1}});
  EXPECT_EQ(r.shape, (shape_t{5, 6}));
  EXPECT_EQ(r.strides, (shape_t{48, 8}));
  EXPECT_EQ(r.offset, 240);

  r = idx({std::int64_t{-1}, slice(std::nullopt, std::nullopt, 2)});
  EXPECT_EQ(r.shape, (shape_t{3, 6}));
  EXPECT_EQ(r.strides, (shape_t{96, 8}));
  EXPECT_EQ(r.offset, 720);

  r = idx({cupp::ellipsis, std::int64_t{0}});
  EXPECT_EQ(r.shape, (shape_t{4, 5}));
  EXPECT_EQ(r.strides, (shape_t{240, 48}));
  EXPECT_EQ(r.offset, 0);

  r = idx({cupp::newaxis, std::int64_t{0}, cupp::ellipsis, cupp::newaxis});
  EXPECT_EQ(r.shape, (shape_t{1, 5, 6, 1}));
  EXPECT_EQ(r.strides, (shape_t{0, 48, 8, 0}));

  r = idx({slice(std::nullopt, std::nullopt, -1)});
  EXPECT_EQ(r.shape, (shape_t{4, 5, 6}));
  EXPECT_EQ(r.strides, (shape_t{-240, 48, 8}));
  EXPECT_EQ(r.offset, 720);

  r = idx({slice(1, 3), slice(std::nullopt, std::nullopt, -2), std::int64_t{-2}});
  EXPECT_EQ(r.shape, (shape_t{2, 3}));
  EXPECT_EQ(r.strides, (shape_t{240, -96}));
  EXPECT_EQ(r.offset, 240 + 4 * 48 + 4 * 8);

  r = idx({slice(2, 1)});
  EXPECT_EQ(r.shape, (shape_t{0, 5, 6}));

  r = idx({});
  EXPECT_EQ(r.shape, a.shape);
  EXPECT_EQ(r.strides, a.strides);

  r = idx({cupp::ellipsis});
  EXPECT_EQ(r.shape, a.shape);

  // All integers: a 0-d view.
  r = idx({std::int64_t{3}, std::int64_t{4}, std::int64_t{5}});
  EXPECT_TRUE(r.shape.empty());
  EXPECT_EQ(r.offset, 3 * 240 + 4 * 48 + 5 * 8);

  EXPECT_EQ(error_of<cupp::IndexError>([&] { idx({std::int64_t{4}}); }),
            "index 4 is out of bounds for axis 0 with size 4");
  EXPECT_EQ(error_of<cupp::IndexError>([&] { idx({std::int64_t{0}, std::int64_t{0}, std::int64_t{-7}}); }),
            "index -7 is out of bounds for axis 2 with size 6");
  EXPECT_EQ(error_of<cupp::IndexError>([&] {
              idx({std::int64_t{0}, std::int64_t{0}, std::int64_t{0}, std::int64_t{0}});
            }),
            "too many indices for array: array is 3-dimensional, but 4 were indexed");
  EXPECT_EQ(error_of<cupp::IndexError>([&] { idx({cupp::ellipsis, cupp::ellipsis}); }),
            "an index can only have a single ellipsis ('...')");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { idx({slice(0, 2, 0)}); }), "slice step cannot be zero");

  // 0-d arrays: () and newaxis.
  const L::strided z = c_array({});
  EXPECT_TRUE(L::index(z, 8, {}).shape.empty());
  const index_item na[] = {cupp::newaxis};
  EXPECT_EQ(L::index(z, 8, na).shape, shape_t{1});
  const index_item one[] = {std::int64_t{0}};
  EXPECT_EQ(error_of<cupp::IndexError>([&] { L::index(z, 8, one); }),
            "too many indices for array: array is 0-dimensional, but 1 were indexed");
}

TEST(NdarrayLayout, InferShape) {
  const shape_t old{3, 4};
  EXPECT_EQ(L::infer_shape(shape_t{-1, 3}, 12, old), (shape_t{4, 3}));
  EXPECT_EQ(L::infer_shape(shape_t{-1}, 12, old), (shape_t{12}));
  EXPECT_EQ(L::infer_shape(shape_t{2, 2, 3}, 12, old), (shape_t{2, 2, 3}));
  EXPECT_EQ(L::infer_shape(shape_t{-1}, 0, shape_t{0, 3}), (shape_t{0}));
  EXPECT_EQ(L::infer_shape(shape_t{}, 1, shape_t{1, 1}), shape_t{});
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::infer_shape(shape_t{2, -1, -1}, 12, old); }),
            "can only specify one unknown dimension");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::infer_shape(shape_t{5}, 12, old); }).rfind(
                "cannot reshape array of size 12 into shape (5,)", 0),
            0u);
  const std::string m = error_of<cupp::ValueError>([&] { L::infer_shape(shape_t{5, -1}, 12, old); });
  EXPECT_EQ(m.rfind("cannot reshape array of size 12 into shape (5,newaxis)", 0), 0u) << m;
  EXPECT_NE(m.find("(3,4)"), std::string::npos) << m;  // names the array's shape too
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::infer_shape(shape_t{0, -1}, 0, shape_t{0}); }).rfind(
                "cannot reshape array of size 0 into shape (0,newaxis)", 0),
            0u);
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::infer_shape(shape_t{-2, 6}, 12, old); }),
            "negative dimensions not allowed");
}

TEST(NdarrayLayout, ReshapeWithoutCopy) {
  // C-contiguous: always a view with C strides.
  EXPECT_EQ(*L::reshape_strides(shape_t{2, 3}, shape_t{24, 8}, shape_t{3, 2}, 8), (shape_t{16, 8}));
  EXPECT_EQ(*L::reshape_strides(shape_t{2, 3}, shape_t{24, 8}, shape_t{6}, 8), (shape_t{8}));
  // np.ones((2,3)).T: (3,2) strides (8,24).
  EXPECT_FALSE(L::reshape_strides(shape_t{3, 2}, shape_t{8, 24}, shape_t{6}, 8).has_value());
  EXPECT_FALSE(L::reshape_strides(shape_t{3, 2}, shape_t{8, 24}, shape_t{2, 3}, 8).has_value());
  EXPECT_EQ(*L::reshape_strides(shape_t{3, 2}, shape_t{8, 24}, shape_t{3, 2, 1}, 8), (shape_t{8, 24, 24}));
  EXPECT_EQ(*L::reshape_strides(shape_t{3, 2}, shape_t{8, 24}, shape_t{1, 3, 2}, 8), (shape_t{24, 8, 24}));
  // np.ones((4,6))[:, ::2]: (4,3) strides (48,16) is every other element: flat views work.
  EXPECT_EQ(*L::reshape_strides(shape_t{4, 3}, shape_t{48, 16}, shape_t{2, 2, 3}, 8), (shape_t{96, 48, 16}));
  EXPECT_EQ(*L::reshape_strides(shape_t{4, 3}, shape_t{48, 16}, shape_t{12}, 8), (shape_t{16}));
  // np.ones((4,6))[:, :3]: (4,3) strides (48,8).
  EXPECT_EQ(*L::reshape_strides(shape_t{4, 3}, shape_t{48, 8}, shape_t{2, 2, 3}, 8), (shape_t{96, 48, 8}));
  EXPECT_FALSE(L::reshape_strides(shape_t{4, 3}, shape_t{48, 8}, shape_t{12}, 8).has_value());
  EXPECT_FALSE(L::reshape_strides(shape_t{4, 3}, shape_t{48, 8}, shape_t{3, 4}, 8).has_value());
  EXPECT_EQ(*L::reshape_strides(shape_t{4, 3}, shape_t{48, 8}, shape_t{4, 1, 3}, 8), (shape_t{48, 24, 8}));
  // Length-1 axes with odd strides are dropped first.
  EXPECT_EQ(*L::reshape_strides(shape_t{2, 1, 3}, shape_t{48, 7, 8}, shape_t{2, 3}, 8), (shape_t{48, 8}));
  EXPECT_FALSE(L::reshape_strides(shape_t{2, 1, 3}, shape_t{48, 7, 8}, shape_t{6}, 8).has_value());
  // np.ones(10)[::2]: (5,) strides (16,) -> (5,1) and (1,5).
  EXPECT_EQ(*L::reshape_strides(shape_t{5}, shape_t{16}, shape_t{5, 1}, 8), (shape_t{16, 16}));
  EXPECT_EQ(*L::reshape_strides(shape_t{5}, shape_t{16}, shape_t{1, 5}, 8), (shape_t{80, 16}));
  // Reversed: np.ones(6)[::-1].reshape(2,3) is a view with strides (-24,-8).
  EXPECT_EQ(*L::reshape_strides(shape_t{6}, shape_t{-8}, shape_t{2, 3}, 8), (shape_t{-24, -8}));
  // A broadcast (stride 0) axis splits into stride-0 axes.
  EXPECT_EQ(*L::reshape_strides(shape_t{4}, shape_t{0}, shape_t{2, 2}, 8), (shape_t{0, 0}));
  // Empty arrays are contiguous.
  EXPECT_EQ(*L::reshape_strides(shape_t{0, 3}, shape_t{8, 16}, shape_t{3, 0}, 8), (shape_t{8, 8}));
}

TEST(NdarrayLayout, BroadcastShapes) {
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{{2, 3}, {3}}), (shape_t{2, 3}));
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{{1}, {3, 1}}), (shape_t{3, 1}));
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{{5, 1, 4}, {3, 1}}), (shape_t{5, 3, 4}));
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{}), shape_t{});
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{{}, {2}}), shape_t{2});
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{{0}, {1}}), shape_t{0});
  EXPECT_EQ(L::broadcast_shapes(std::vector<shape_t>{{1, 0}, {5, 1}}), (shape_t{5, 0}));
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::broadcast_shapes(std::vector<shape_t>{{2}, {3}}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
            "(2,) and arg 1 with shape (3,).");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::broadcast_shapes(std::vector<shape_t>{{1, 3}, {2, 1}, {4, 1}}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 1 with shape "
            "(2, 1) and arg 2 with shape (4, 1).");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::broadcast_shapes(std::vector<shape_t>{{0}, {2}}); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
            "(0,) and arg 1 with shape (2,).");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::broadcast_operand_shapes(std::vector<shape_t>{{2, 3}, {4}}); }),
            "operands could not be broadcast together with shapes (2,3) (4,) ");
}

TEST(NdarrayLayout, BroadcastStrides) {
  EXPECT_EQ(L::broadcast_strides(shape_t{3}, shape_t{8}, shape_t{2, 3}), (shape_t{0, 8}));
  EXPECT_EQ(L::broadcast_strides(shape_t{3, 1}, shape_t{8, 8}, shape_t{3, 4}), (shape_t{8, 0}));
  EXPECT_EQ(L::broadcast_strides(shape_t{}, shape_t{}, shape_t{2, 2}), (shape_t{0, 0}));
  EXPECT_EQ(L::broadcast_strides(shape_t{1}, shape_t{8}, shape_t{0}), (shape_t{0}));
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::broadcast_strides(shape_t{3}, shape_t{8}, shape_t{4}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,)  and "
            "requested shape (4,)");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::broadcast_strides(shape_t{2, 3}, shape_t{24, 8}, shape_t{3}); }),
            "input operand has more dimensions than allowed by the axis remapping");
}

TEST(NdarrayLayout, Permutations) {
  EXPECT_EQ(L::transpose_axes(std::vector<int>{1, 0}, 2), (std::vector<int>{1, 0}));
  EXPECT_EQ(L::transpose_axes(std::vector<int>{-1, 0, 1}, 3), (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::transpose_axes(std::vector<int>{0, 0}, 2); }),
            "repeated axis in transpose");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::transpose_axes(std::vector<int>{0}, 2); }), "axes don't match array");
  EXPECT_EQ(error_of<cupp::AxisError>([] { L::transpose_axes(std::vector<int>{0, 2}, 2); }),
            "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(L::moveaxis_order(0, -1, 3), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(L::moveaxis_order(2, 0, 3), (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(L::moveaxis_order(1, 1, 3), (std::vector<int>{0, 1, 2}));
  const L::strided p = L::permute(c_array({2, 3, 4}), std::vector<int>{2, 0, 1});
  EXPECT_EQ(p.shape, (shape_t{4, 2, 3}));
  EXPECT_EQ(p.strides, (shape_t{8, 96, 32}));
}

TEST(NdarrayLayout, SqueezeAndExpandDims) {
  L::strided a{{1, 3, 1}, {24, 8, 8}, 0};
  EXPECT_EQ(L::squeeze_all(a).shape, (shape_t{3}));
  EXPECT_EQ(L::squeeze_all(a).strides, (shape_t{8}));
  EXPECT_EQ(L::squeeze(a, std::vector<int>{0}).shape, (shape_t{3, 1}));
  EXPECT_EQ(L::squeeze(a, std::vector<int>{-1}).shape, (shape_t{1, 3}));
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::squeeze(a, std::vector<int>{1}); }),
            "cannot select an axis to squeeze out which has size not equal to one");
  EXPECT_EQ(L::squeeze_all(c_array({})).shape, shape_t{});

  const L::strided b = c_array({2, 3});
  L::strided e = L::expand_dims(b, 8, 0);
  EXPECT_EQ(e.shape, (shape_t{1, 2, 3}));
  EXPECT_EQ(e.strides, (shape_t{48, 24, 8}));  // np.expand_dims(np.ones((2,3)), 0).strides
  e = L::expand_dims(b, 8, -1);
  EXPECT_EQ(e.shape, (shape_t{2, 3, 1}));
  EXPECT_EQ(e.strides, (shape_t{24, 8, 8}));
  e = L::expand_dims(b, 8, 1);
  EXPECT_EQ(e.shape, (shape_t{2, 1, 3}));
  EXPECT_EQ(e.strides, (shape_t{24, 24, 8}));
  EXPECT_EQ(error_of<cupp::AxisError>([&] { L::expand_dims(b, 8, 3); }),
            "axis 3 is out of bounds for array of dimension 3");
}

TEST(NdarrayLayout, Diagonal) {
  const L::strided a = c_array({3, 4});  // strides (32, 8)
  L::strided d = L::diagonal(a, 0, 0, 1);
  EXPECT_EQ(d.shape, (shape_t{3}));
  EXPECT_EQ(d.strides, (shape_t{40}));
  EXPECT_EQ(d.offset, 0);
  d = L::diagonal(a, 1, 0, 1);
  EXPECT_EQ(d.shape, (shape_t{3}));
  EXPECT_EQ(d.offset, 8);
  d = L::diagonal(a, -1, 0, 1);
  EXPECT_EQ(d.shape, (shape_t{2}));
  EXPECT_EQ(d.offset, 32);
  d = L::diagonal(a, 4, 0, 1);
  EXPECT_EQ(d.shape, (shape_t{0}));
  d = L::diagonal(a, -3, 0, 1);
  EXPECT_EQ(d.shape, (shape_t{0}));
  d = L::diagonal(a, 0, 1, 0);  // same elements as (0, 1) on a 2-d array
  EXPECT_EQ(d.shape, (shape_t{3}));

  const L::strided c = c_array({2, 3, 4});  // strides (96, 32, 8)
  d = L::diagonal(c, 0, 1, 2);
  EXPECT_EQ(d.shape, (shape_t{2, 3}));
  EXPECT_EQ(d.strides, (shape_t{96, 40}));
  d = L::diagonal(c, 0, 0, 2);
  EXPECT_EQ(d.shape, (shape_t{3, 2}));
  EXPECT_EQ(d.strides, (shape_t{32, 104}));
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::diagonal(c, 0, 1, 1); }), "axis1 and axis2 cannot be the same");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { L::diagonal(c_array({3}), 0, 0, 1); }),
            "diag requires an array of at least two dimensions");
}

TEST(NdarrayLayout, DtypeViews) {
  // float64 (2,3) viewed as float32: (2,6) strides (24,4).
  L::strided v = L::view_as(c_array({2, 3}), 8, 4);
  EXPECT_EQ(v.shape, (shape_t{2, 6}));
  EXPECT_EQ(v.strides, (shape_t{24, 4}));
  // float32 (2,4) viewed as float64: (2,2) strides (16,8).
  v = L::view_as(c_array({2, 4}, 4), 4, 8);
  EXPECT_EQ(v.shape, (shape_t{2, 2}));
  EXPECT_EQ(v.strides, (shape_t{16, 8}));
  // Same itemsize: unchanged, any layout.
  v = L::view_as(L::strided{{3}, {-8}, 16}, 8, 8);
  EXPECT_EQ(v.strides, (shape_t{-8}));
  // Last axis of length 1 with any stride is fine.
  v = L::view_as(L::strided{{3, 1}, {8, 100}, 0}, 8, 4);
  EXPECT_EQ(v.shape, (shape_t{3, 2}));
  EXPECT_EQ(v.strides, (shape_t{8, 4}));
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::view_as(L::strided{{3}, {1}, 0}, 1, 2); }),
            "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last axis "
            "of the array.");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::view_as(L::strided{{2, 3}, {8, 16}, 0}, 8, 4); }),
            "To change to a dtype of a different size, the last axis must be contiguous");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::view_as(L::strided{{}, {}, 0}, 8, 4); }),
            "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::view_as(c_array({2}), 8, 3); }),
            "When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
}

TEST(NdarrayLayout, ShapeStringsAndLimits) {
  EXPECT_EQ(L::tuple_string(shape_t{2, 3}), "(2, 3)");
  EXPECT_EQ(L::tuple_string(shape_t{2}), "(2,)");
  EXPECT_EQ(L::tuple_string(shape_t{}), "()");
  EXPECT_EQ(L::compact_string(shape_t{2, 3}), "(2,3)");
  EXPECT_EQ(L::checked_size(shape_t{2, 0, 5}), 0);
  EXPECT_EQ(L::checked_size(shape_t{}), 1);
  EXPECT_NO_THROW(L::check_ndim(64));
  EXPECT_EQ(error_of<cupp::ValueError>([] { L::check_ndim(65); }),
            "maximum supported dimension for an ndarray is currently 64, found 65");
  EXPECT_THROW(L::checked_size(shape_t{-1}), cupp::ValueError);
}

TEST(NdarrayLayout, ForEachOffset) {
  std::vector<std::int64_t> seen;
  L::for_each_offset(shape_t{2, 3}, shape_t{8, 16}, [&](std::int64_t o) { seen.push_back(o); });
  EXPECT_EQ(seen, (std::vector<std::int64_t>{0, 16, 32, 8, 24, 40}));
  seen.clear();
  L::for_each_offset(shape_t{}, shape_t{}, [&](std::int64_t o) { seen.push_back(o); });
  EXPECT_EQ(seen, (std::vector<std::int64_t>{0}));
  seen.clear();
  L::for_each_offset(shape_t{2, 0}, shape_t{8, 8}, [&](std::int64_t o) { seen.push_back(o); });
  EXPECT_TRUE(seen.empty());
}

}  // namespace
