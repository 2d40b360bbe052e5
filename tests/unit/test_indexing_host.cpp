// The indexing routines without a GPU (cupp/indexing.hpp): the validation that happens before
// any device work, with NumPy's error classes and messages, the result shape of take, and the
// NVRTC program of every word size (compiled by RoutinePrograms.EveryInstantiationCompiles).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {
namespace {

using test::error_of;
using shape_v = std::vector<std::int64_t>;

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = int64) : fake_array(std::move(shape), type) {}
};

TEST(IndexingHost, ClipMode) {
  EXPECT_EQ(parse_clip_mode("raise"), clip_mode::raise);
  EXPECT_EQ(parse_clip_mode("wrap"), clip_mode::wrap);
  EXPECT_EQ(parse_clip_mode("clip"), clip_mode::clip);
  EXPECT_EQ(error_of<ValueError>([] { parse_clip_mode("nope"); }), "clipmode must be one of 'clip', 'raise', or 'wrap'");
}

TEST(IndexingHost, TakeShape) {
  EXPECT_EQ(detail::take_shape(shape_v{2, 3, 4}, shape_v{5, 6}, 1), (shape_v{2, 5, 6, 4}));
  EXPECT_EQ(detail::take_shape(shape_v{2, 3, 4}, shape_v{5}, -1), (shape_v{2, 3, 5}));
  EXPECT_EQ(detail::take_shape(shape_v{2, 3, 4}, shape_v{}, 0), (shape_v{3, 4}));
  EXPECT_EQ(detail::take_shape(shape_v{2, 3}, shape_v{7}, std::nullopt), (shape_v{7}));
  EXPECT_THROW(detail::take_shape(shape_v{2, 3}, shape_v{1}, 2), AxisError);
}

TEST(IndexingHost, TakeValidation) {
  fake a({2, 3}), fi({2}, float64), i({2}), e({0, 3}), out({5});
  EXPECT_EQ(error_of<TypeError>([&] { take(a.a, fi.a); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  // uint64 indices are taken (NumPy 2 casts them same_kind): not an error; bool is not an index here either way.
  EXPECT_EQ(error_of<AxisError>([&] { take(a.a, i.a, {.axis = 2}); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<IndexError>([&] { take(e.a, i.a, {.axis = 0}); }), "cannot do a non-empty take from an empty axes.");
  EXPECT_EQ(error_of<ValueError>([&] { take(a.a, i.a, {.axis = 0, .out = out.a}); }),
            "output array does not match result of ndarray.take");
  fake fo({2, 3}, float32);
  EXPECT_THROW(take(a.a, i.a, {.axis = 0, .out = fo.a(slice(0, 2))}), TypeError);  // int64 -> float32 not safe
}

TEST(IndexingHost, AlongAxisValidation) {
  fake a({2, 3}), i1({2}), i2({2, 2}), fi({2, 2}, float32);
  EXPECT_EQ(error_of<ValueError>([&] { take_along_axis(a.a, i1.a, 0); }),
            "`indices` and `arr` must have the same number of dimensions");
  EXPECT_EQ(error_of<ValueError>([&] { take_along_axis(a.a, i2.a, std::nullopt); }),
            "when axis=None, `indices` must have a single dimension.");
  EXPECT_THROW(take_along_axis(a.a, i2.a, 2), AxisError);
  EXPECT_EQ(error_of<IndexError>([&] { take_along_axis(a.a, fi.a, 0); }), "`indices` must be an integer array");
  EXPECT_THROW(put_along_axis(broadcast_to(a.a, {2, 3}), i2.a, 1, 0), ValueError);  // read-only
}

TEST(IndexingHost, PutValidation) {
  fake a({2, 3}), fi({2}, float64);
  EXPECT_THROW(put(a.a, fi.a, 1), TypeError);
  EXPECT_EQ(error_of<ValueError>([&] { put(broadcast_to(a.a, {2, 3}), a.a, 1); }),
            "put: assignment destination is read-only");
}

TEST(IndexingHost, MaskValidation) {
  fake a({2, 3}), c2({2, 2}, bool_), m({5}, bool_);
  EXPECT_EQ(error_of<ValueError>([&] { compress(c2.a, a.a); }), "condition must be a 1-d array");
  EXPECT_EQ(error_of<ValueError>([&] { putmask(a.a, m.a, 1); }), "putmask: mask and data must be the same size");
  EXPECT_EQ(error_of<ValueError>([&] { place(a.a, m.a, 1); }), "place: mask and data must be the same size");
}

TEST(IndexingHost, ChooseSelectValidation) {
  fake a({3}), f({3}, float64), c({3}), b({3}, bool_);
  EXPECT_EQ(error_of<ValueError>([&] { choose(a.a, std::span<const ndarray>()); }), "0-length sequence.");
  EXPECT_THROW(choose(f.a, {c.a, c.a}), TypeError);
  const ndarray conds[] = {b.a, b.a}, choices[] = {c.a};
  EXPECT_EQ(error_of<ValueError>([&] { select(conds, choices); }),
            "list of cases must be same length as list of conditions");
  EXPECT_EQ(error_of<ValueError>([&] { select({}, {}); }), "select with an empty condition list is not possible");
  const ndarray bad_conds[] = {b.a, c.a}, two[] = {c.a, c.a};
  EXPECT_EQ(error_of<TypeError>([&] { select(bad_conds, two); }), "invalid entry 1 in condlist: should be boolean ndarray");
}

TEST(IndexingHost, FillDiagonalValidation) {
  fake a({3}), b({2, 2, 3});
  EXPECT_EQ(error_of<ValueError>([&] { fill_diagonal(a.a, 1); }), "array must be at least 2-d");
  EXPECT_EQ(error_of<ValueError>([&] { fill_diagonal(b.a, 1); }), "All dimensions of input must be of equal length");
}

TEST(IndexingHost, IndexArithmeticValidation) {
  fake f({3}, float64), i({3});
  EXPECT_EQ(error_of<TypeError>([&] { unravel_index(f.a, {2, 3}); }), "only int indices permitted");
  EXPECT_THROW(unravel_index(i.a, {2, 3}, order::K), ValueError);
  const ndarray one[] = {i.a};
  const std::int64_t dims2[] = {2, 3};
  EXPECT_EQ(error_of<ValueError>([&] { ravel_multi_index(one, dims2); }),
            "parameter multi_index must be a sequence of length 2");
  const ndarray fl[] = {f.a, i.a};
  EXPECT_THROW(ravel_multi_index(fl, dims2), TypeError);
  const ndarray two[] = {i.a, i.a};
  const std::int64_t huge[] = {std::int64_t(1) << 40, std::int64_t(1) << 40};
  EXPECT_THROW(ravel_multi_index(two, huge), ValueError);
  const clip_mode three[] = {clip_mode::raise, clip_mode::raise, clip_mode::raise};
  EXPECT_THROW(ravel_multi_index(two, dims2, three), ValueError);
}

TEST(IndexingHost, IxValidation) {
  fake a({2, 2}), f({3}, float32), i({3}), j({4}, int32);
  const ndarray two_d[] = {a.a};
  EXPECT_EQ(error_of<ValueError>([&] { ix_(two_d); }), "Cross index must be 1 dimensional");
  const ndarray fl[] = {f.a};
  EXPECT_EQ(error_of<ValueError>([&] { ix_(fl); }), "arrays used as indices must be of integer (or boolean) type");
  const ndarray ok[] = {i.a, j.a};
  const std::vector<ndarray> r = ix_(ok);  // views: no device work
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(shape_v(r[0].shape().begin(), r[0].shape().end()), (shape_v{3, 1}));
  EXPECT_EQ(shape_v(r[1].shape().begin(), r[1].shape().end()), (shape_v{1, 4}));
  EXPECT_EQ(r[1].dtype(), int32);
}

// The move program of every word size (RoutinePrograms.EveryInstantiationCompiles compiles them).
TEST(IndexingHost, ProgramForEveryWord) {
  for (int w : {1, 2, 4, 8, 16}) {
    const detail::routine_program p = detail::indexing_kernel_program(w);
    EXPECT_EQ(p.kernels.size(), 12u) << w;
    EXPECT_NE(p.source.find("#define CUPP_INDEXING_WORD " + std::to_string(w) + "\n"), std::string::npos) << w;
  }
  EXPECT_THROW(detail::indexing_kernel_program(3), ValueError);
}

}  // namespace
}  // namespace cupp
