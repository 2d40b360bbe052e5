// The array manipulation routines without a GPU (cupp/manipulation.hpp): the views (split pieces,
// flip, rot90, atleast_nd) over wrapped host memory (views never touch it), and the validation
// that happens before any device work, with NumPy's error classes and messages; and the segment
// copy behind concatenate (routines/segment_copy.hpp): word sizes, tables and the pieces it takes,
// and its kernel compiled with NVRTC for sm_90; and the generated cupp eval bindings of the shape
// and axis views (reshape, transpose, moveaxis, ...) on such arrays.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "compiler/nvrtc_program.hpp"
#include "routines/manipulation/segment_copy.hpp"
#ifdef CUPP_HAVE_EVAL_ENGINE
#include "functions.hpp"
#endif

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
  EXPECT_EQ(error_of<IndexError>([&] { split(a.a, 2, 1); }), "tuple index out of range");  // NumPy reads ary.shape[axis]
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

// ---- the segment copy

namespace sc = detail::segment_copy;

const void* addr(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }
void* waddr(std::uintptr_t a) { return reinterpret_cast<void*>(a); }
sc::segment seg(std::uintptr_t src, std::uintptr_t dst, std::int64_t rows, std::int64_t row_bytes,
                std::int64_t src_pitch, std::int64_t dst_pitch) {
  return {addr(src), waddr(dst), rows, row_bytes, src_pitch, dst_pitch};
}
sc::segment flat(std::uintptr_t src, std::uintptr_t dst, std::int64_t bytes) {
  return seg(src, dst, 1, bytes, bytes, bytes);
}

TEST(ManipulationHost, SegmentCopyWordSize) {
  EXPECT_EQ(sc::word_shift(flat(0x1000, 0x2000, 4096)), 4);
  EXPECT_EQ(sc::word_shift(flat(0x1004, 0x2000, 4096)), 2);  // a slice at an odd float32 offset
  EXPECT_EQ(sc::word_shift(flat(0x1000, 0x2008, 4096)), 3);
  EXPECT_EQ(sc::word_shift(flat(0x1000, 0x2000, 4098)), 1);
  EXPECT_EQ(sc::word_shift(flat(0x1000, 0x2000, 4097)), 0);
  EXPECT_EQ(sc::word_shift(flat(0x1000, 0x2000, 32)), 4);
  // Rows: both pitches count; one row: the pitches do not.
  EXPECT_EQ(sc::word_shift(seg(0x1000, 0x2000, 3, 32, 32, 40)), 3);
  EXPECT_EQ(sc::word_shift(seg(0x1000, 0x2000, 3, 32, 36, 48)), 2);
  EXPECT_EQ(sc::word_shift(seg(0x1000, 0x2000, 3, 32, 32, 33)), 0);
  EXPECT_EQ(sc::word_shift(seg(0x1000, 0x2000, 1, 32, 7, 9)), 4);
  // Rows adjacent on both sides are one block.
  const sc::segment n = sc::normalized(seg(0x1000, 0x2000, 5, 12, 12, 12));
  EXPECT_EQ(n.rows, 1);
  EXPECT_EQ(n.row_bytes, 60);
  EXPECT_EQ(sc::word_shift(n), 2);
  EXPECT_EQ(sc::word_count(n), 15);
  EXPECT_EQ(sc::normalized(seg(0x1000, 0x2000, 5, 12, 12, 20)).rows, 5);
  EXPECT_EQ(sc::word_count(seg(0x1000, 0x2000, 5, 12, 12, 20)), 15);
  EXPECT_EQ(sc::word_count(seg(0x1000, 0x2000, 5, 16, 16, 32)), 5);  // 16-byte words
  // Tiles: tile_words words of the segment's own size each.
  EXPECT_EQ(sc::tile_count(flat(0x1000, 0x2000, 16 * sc::tile_words)), 1);
  EXPECT_EQ(sc::tile_count(flat(0x1000, 0x2000, 16 * sc::tile_words + 16)), 2);
  EXPECT_EQ(sc::tile_count(flat(0x1000, 0x2004, 16 * sc::tile_words)), 4);  // 4-byte words
  EXPECT_EQ(sc::tile_count(flat(0x1000, 0x2000, 0)), 0);
  EXPECT_EQ(sc::tile_count(seg(0x1000, 0x2000, 0, 16, 16, 16)), 0);
}

TEST(ManipulationHost, SegmentCopyPlanSplitsAtCapacity) {
  // 100 segments, every tenth one empty: 90 in order, in tables of at most `capacity`.
  std::vector<sc::segment> in;
  std::vector<std::int64_t> sizes;
  for (int i = 0; i < 100; ++i) {
    const std::int64_t bytes = i % 10 == 0 ? 0 : std::int64_t(i) * 4 + (i % 3 == 0 ? 16 * sc::tile_words * 3 : 0);
    in.push_back(flat(0x100000 + std::uintptr_t(i) * 0x10000, 0x8000000 + std::uintptr_t(i) * 0x10000, bytes));
    if (bytes != 0) sizes.push_back(bytes);
  }
  const std::vector<sc::table> tables = sc::plan(in);
  ASSERT_EQ(tables.size(), 3u);
  EXPECT_EQ(tables[0].count, sc::capacity);
  EXPECT_EQ(tables[1].count, sc::capacity);
  EXPECT_EQ(tables[2].count, 90 - 2 * sc::capacity);
  std::size_t k = 0;
  for (const sc::table& t : tables) {
    EXPECT_EQ(t.first_tile[0], 0);
    for (long long i = 0; i < t.count; ++i, ++k) {
      const sc::table_entry& e = t.seg[i];
      const sc::segment back{e.src, e.dst, e.rows, e.row_bytes, e.src_pitch, e.dst_pitch};
      EXPECT_EQ(e.row_bytes, sizes[k]) << k;
      EXPECT_EQ(e.rows, 1);
      EXPECT_EQ(e.shift, sc::word_shift(back));
      EXPECT_EQ(t.first_tile[i + 1] - t.first_tile[i], sc::tile_count(back)) << k;
      EXPECT_GT(t.first_tile[i + 1], t.first_tile[i]);  // no empty segment: the kernel's search moves on
    }
  }
  EXPECT_EQ(k, sizes.size());
  EXPECT_TRUE(sc::plan(std::vector<sc::segment>{flat(0x1000, 0x2000, 0)}).empty());
  // Rows keep their pitches; adjacent rows become one block.
  const sc::segment rows[] = {seg(0x1000, 0x2000, 7, 12, 12, 40), seg(0x1000, 0x2000, 7, 12, 12, 12)};
  const std::vector<sc::table> r = sc::plan(rows);
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].count, 2);
  EXPECT_EQ(r[0].seg[0].rows, 7);
  EXPECT_EQ(r[0].seg[0].dst_pitch, 40);
  EXPECT_EQ(r[0].seg[0].shift, 2);
  EXPECT_EQ(r[0].seg[1].rows, 1);
  EXPECT_EQ(r[0].seg[1].row_bytes, 84);
  EXPECT_EQ(r[0].first_tile[2], 2);
}

TEST(ManipulationHost, SegmentCopyTakesByteCopies) {
  auto bytes_at = [](const ndarray& v, const fake& f) { return at(v, f); };
  // A contiguous slice: one block.
  fake out1({20}, float32), in1({4}, float32);
  const ndarray d1 = out1.a(slice(5, 9));
  const auto s1 = sc::byte_segment(d1, in1.a);
  ASSERT_TRUE(s1);
  EXPECT_EQ(s1->src, in1.a.data());
  EXPECT_EQ(bytes_at(d1, out1), 20);
  EXPECT_EQ(s1->dst, d1.data());
  EXPECT_EQ(s1->rows, 1);
  EXPECT_EQ(s1->row_bytes, 16);
  // concatenate(axis=1) of 2-d: rows of 4 floats at a pitch of 10.
  fake out2({4, 10}, float32), in2({4, 4}, float32);
  const auto s2 = sc::byte_segment(out2.a(slice(), slice(3, 7)), in2.a);
  ASSERT_TRUE(s2);
  EXPECT_EQ(s2->rows, 4);
  EXPECT_EQ(s2->row_bytes, 16);
  EXPECT_EQ(s2->src_pitch, 16);
  EXPECT_EQ(s2->dst_pitch, 40);
  EXPECT_EQ(static_cast<const unsigned char*>(s2->dst) - out2.bytes.data(), 12);
  // 3-d along axis 1 (the trailing axes stay whole) and axis 2 (the leading two collapse).
  fake out3({2, 5, 3}, int16), in3({2, 2, 3}, int16);
  const auto s3 = sc::byte_segment(out3.a(slice(), slice(1, 3), slice()), in3.a);
  ASSERT_TRUE(s3);
  EXPECT_EQ(s3->rows, 2);
  EXPECT_EQ(s3->row_bytes, 12);
  EXPECT_EQ(s3->dst_pitch, 30);
  fake out4({2, 3, 5}, int16), in4({2, 3, 2}, int16);
  const auto s4 = sc::byte_segment(out4.a(slice(), slice(), slice(1, 3)), in4.a);
  ASSERT_TRUE(s4);
  EXPECT_EQ(s4->rows, 6);
  EXPECT_EQ(s4->row_bytes, 4);
  EXPECT_EQ(s4->dst_pitch, 10);
  // Leading axes that are not one pitch, another dtype, a strided source, overlap, a negative
  // stride, nothing to copy: not byte copies.
  fake out5({2, 5, 5}, int16), in5({2, 2, 2}, int16);
  EXPECT_FALSE(sc::byte_segment(out5.a(slice(), slice(0, 4, 2), slice(1, 3)), in5.a));
  fake in6({4}, int32);
  EXPECT_FALSE(sc::byte_segment(out1.a(slice(0, 4)), in6.a));
  fake in7({8}, float32);
  EXPECT_FALSE(sc::byte_segment(out1.a(slice(0, 4)), in7.a(slice(0, 8, 2))));
  EXPECT_FALSE(sc::byte_segment(out1.a(slice(2, 6)), out1.a(slice(0, 4))));
  EXPECT_TRUE(sc::byte_segment(out1.a(slice(4, 8)), out1.a(slice(0, 4))));  // adjacent, not overlapping
  EXPECT_FALSE(sc::byte_segment(in7.a(slice(3, std::nullopt, -1)), in1.a));
  fake none({0}, float32);
  EXPECT_FALSE(sc::byte_segment(out1.a(slice(0, 0)), none.a));
}

TEST(ManipulationHost, SegmentCopyKernelCompiles) {
  // sm_90 (CI's architecture) and sm_75 (the oldest NVRTC 13 builds for; __grid_constant__ needs 70).
  const detail::routine_program p = sc::kernel_program();
  for (int arch : {90, 75}) {
    const detail::nvrtc_output out = detail::nvrtc_compile(
        {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = arch});
    ASSERT_EQ(out.lowered_names.size(), 1u) << arch;
    EXPECT_EQ(out.lowered_names[0], "cupp_copy_segments");
    EXPECT_FALSE(out.binary.empty()) << arch;
  }
}

TEST(ManipulationHost, RoutineTable) {
  const auto routines = manipulation_routines();
  EXPECT_GE(routines.size(), 26u);
  for (const routine_info& r : routines) EXPECT_NE(std::string(r.signature).find('('), std::string::npos) << r.name;
}

#ifdef CUPP_HAVE_EVAL_ENGINE
// The generated bindings (specs/routines/manipulation.yaml) of the view routines: arguments bound
// as NumPy binds them, the views' shapes, and the errors raised before any device work.
TEST(ManipulationHost, ViewRoutinesThroughCuppEval) {
  using eval::value;
  const eval::function_table table = eval::function_table::builtins();
  auto i = [](long long v) { return value(eval::py_scalar::integer(v)); };
  auto str = [](const char* v) { return value(std::string(v)); };
  auto tup = [](std::vector<value> v) { return value(eval::tuple_value(std::move(v))); };
  auto call = [&](std::string_view f, std::vector<value> args, std::vector<eval::keyword_value> kw = {}) {
    return table.call(f, args, kw);
  };
  auto shape = [](const value& v) { return shape_v(v.array().shape().begin(), v.array().shape().end()); };
  fake a({2, 3, 4}, float32), one({1, 3, 1}), col({3, 1}), row({4}), z({2, 3}, complex64);
  const ndarray& x = a.a;

  EXPECT_EQ(shape(call("transpose", {x})), (shape_v{4, 3, 2}));
  EXPECT_EQ(shape(call("transpose", {x, tup({i(1), i(-1), i(0)})})), (shape_v{3, 4, 2}));
  EXPECT_EQ(shape(call("permute_dims", {x}, {{"axes", tup({i(2), i(0), i(1)})}})), (shape_v{4, 2, 3}));
  EXPECT_EQ(shape(call("matrix_transpose", {x})), (shape_v{2, 4, 3}));
  EXPECT_EQ(shape(call("swapaxes", {x, i(0), i(-1)})), (shape_v{4, 3, 2}));
  EXPECT_EQ(shape(call("moveaxis", {x, tup({i(0), i(-1)}), tup({i(-1), i(0)})})), (shape_v{4, 3, 2}));
  EXPECT_EQ(shape(call("moveaxis", {x, i(1), i(-1)})), (shape_v{2, 4, 3}));
  EXPECT_EQ(shape(call("rollaxis", {x, i(-1), i(1)})), (shape_v{2, 4, 3}));
  EXPECT_EQ(shape(call("squeeze", {one.a})), (shape_v{3}));
  EXPECT_EQ(shape(call("squeeze", {one.a}, {{"axis", i(-1)}})), (shape_v{1, 3}));
  EXPECT_EQ(shape(call("expand_dims", {x, tup({i(0), i(-1)})})), (shape_v{1, 2, 3, 4, 1}));
  EXPECT_EQ(shape(call("broadcast_to", {col.a, tup({i(2), i(3), i(4)})})), (shape_v{2, 3, 4}));
  const value both = call("broadcast_arrays", {col.a, row.a});
  ASSERT_TRUE(both.is_tuple());
  ASSERT_EQ(both.tuple().size(), 2u);
  EXPECT_EQ(shape(both.tuple()[1]), (shape_v{3, 4}));
  EXPECT_EQ(shape(call("diagonal", {x, i(1), i(-1), i(0)})), (shape_v{3, 1}));
  EXPECT_EQ(shape(call("reshape", {x, tup({i(6), i(-1)})})), (shape_v{6, 4}));
  EXPECT_EQ(shape(call("reshape", {x}, {{"shape", i(24)}, {"copy", value(eval::py_scalar::boolean(false))}})),
            shape_v{24});
  const value t = call("transpose", {x});
  EXPECT_EQ(call("ravel", {t, str("K")}).array().data(), x.data());
  EXPECT_EQ(call("ravel", {t, str("F")}).array().strides()[0], 4);
  EXPECT_EQ(call("real", {z.a}).array().dtype(), float32);
  EXPECT_EQ(call("imag", {z.a}).array().strides()[1], 8);
  EXPECT_EQ(call("astype", {x, str("float32")}, {{"copy", value(eval::py_scalar::boolean(false))}}).array().data(),
            x.data());
  EXPECT_EQ(call("ascontiguousarray", {x}).array().data(), x.data());
  EXPECT_EQ(call("asfortranarray", {t}).array().data(), x.data());

  auto error = [&](std::string_view f, std::vector<value> args, std::vector<eval::keyword_value> kw = {}) {
    try {
      call(f, std::move(args), std::move(kw));
    } catch (const Error& e) {
      return std::string(e.class_name()) + ": " + e.what();
    }
    return std::string("no error");
  };
  EXPECT_EQ(error("transpose", {x, tup({i(0), i(0), i(1)})}), "ValueError: repeated axis in transpose");
  EXPECT_EQ(error("transpose", {x, value(eval::py_scalar::floating(1.5))}).rfind("TypeError: ", 0), 0u);
  EXPECT_EQ(error("swapaxes", {x, value(eval::py_scalar::floating(0.5)), i(1)}).rfind("TypeError: ", 0), 0u);
  EXPECT_EQ(error("swapaxes", {x, i(0), i(3)}), "AxisError: axis 3 is out of bounds for array of dimension 3");
  EXPECT_EQ(error("moveaxis", {x, tup({i(0), i(1)}), tup({i(0)})}),
            "ValueError: `source` and `destination` arguments must have the same number of elements");
  EXPECT_EQ(error("rollaxis", {x, i(0), i(5)}), "AxisError: 'start' arg requires -3 <= start < 4, but 5 was passed in");
  EXPECT_EQ(error("squeeze", {x}, {{"axis", i(0)}}),
            "ValueError: cannot select an axis to squeeze out which has size not equal to one");
  EXPECT_EQ(error("expand_dims", {x, tup({i(1), i(-4)})}), "ValueError: repeated axis");
  EXPECT_EQ(error("broadcast_to", {row.a, tup({i(2), i(3)})}).rfind("ValueError: operands could not be broadcast", 0), 0u);
  EXPECT_EQ(error("broadcast_to", {col.a, tup({i(3), i(1)})}, {{"subok", value(eval::py_scalar::boolean(true))}}),
            "ValueError: broadcast_to: subok= is not supported (cupp has no ndarray subclasses)");
  EXPECT_EQ(error("diagonal", {row.a}), "ValueError: diag requires an array of at least two dimensions");
  EXPECT_EQ(error("matrix_transpose", {row.a}), "ValueError: Input array must be at least 2-dimensional, but it is 1");
  EXPECT_EQ(error("reshape", {x, tup({i(5)})}).rfind("ValueError: cannot reshape array of size 24 into shape (5,)", 0), 0u);
  EXPECT_EQ(error("reshape", {x, i(24), str("K")}), "ValueError: order 'K' is not permitted for reshaping");
  EXPECT_EQ(error("reshape", {t, i(24)}, {{"copy", value(eval::py_scalar::boolean(false))}}),
            "ValueError: Unable to avoid creating a copy while reshaping.");
  EXPECT_EQ(error("ravel", {x, str("X")}), "ValueError: order must be one of 'C', 'F', 'A', or 'K' (got 'X')");
  EXPECT_EQ(error("copy", {x}, {{"order", str("X")}}), "ValueError: order must be one of 'C', 'F', 'A', or 'K' (got 'X')");
  EXPECT_EQ(error("astype", {x, str("float32")}, {{"device", str("cpu")}}),
            "ValueError: astype: device= is not supported (cupp arrays live on the current CUDA device)");
  EXPECT_EQ(error("ascontiguousarray", {x}, {{"like", x}}),
            "ValueError: ascontiguousarray: like= (the __array_function__ protocol) is not supported");
}
#endif

}  // namespace
}  // namespace cupp
