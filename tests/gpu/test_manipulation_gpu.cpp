// The array manipulation routines on the GPU (cupp/manipulation.hpp): every case of the NumPy
// reference set made by tests/conformance/make_manipulation_ref.py at build time
// (conformance/manipulation-ref: the case ids below are the script's; dtypes, shapes and values
// equal), every dtype through concatenate/roll/tile/repeat, out= and overlap, large arrays, and
// the errors raised before any device work.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "array/convert.hpp"
#include "conformance.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

namespace fs = std::filesystem;
using test::error_of;
using results = std::vector<ndarray>;

// The script's ar(shape, dtype): arange(size).reshape(shape).astype(dtype).
ndarray ar(std::initializer_list<std::int64_t> shape, dtype type = int64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return astype(arange(n).reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
results one(ndarray a) { return results{std::move(a)}; }

// The cupp call for each case of make_manipulation_ref.py (same ids).
const std::map<std::string, std::function<results()>>& cases() {
  static const std::map<std::string, std::function<results()>> table = {
      {"concat_axis0", [] { return one(concatenate({ar({2, 3}), ar({4, 3})})); }},
      {"concat_axis1_f32",
       [] { return one(concatenate({ar({2, 3}, float32), ar({2, 1}, float32), ar({2, 0}, float32)}, {.axis = 1})); }},
      {"concat_neg_axis", [] { return one(concatenate({ar({2, 3, 2}), ar({2, 3, 1})}, {.axis = -1})); }},
      {"concat_none", [] { return one(concatenate({ar({2, 3}), ar({4}), ar({})}, {.axis = std::nullopt})); }},
      {"concat_promote", [] { return one(concatenate({ar({3}, int8), ar({2}, uint8), ar({2}, float16)})); }},
      {"concat_int_float", [] { return one(concatenate({ar({3}, int64), ar({2}, float32)})); }},
      {"concat_bool_c128", [] { return one(concatenate({ar({2}, bool_), ar({3}, complex128)})); }},
      {"concat_dtype",
       [] {
         return one(concatenate({ar({3}, float64) * 1.5, ar({2})}, {.dtype = int32, .casting = casting::unsafe}));
       }},
      {"concat_empty", [] { return one(concatenate({ar({0, 3}), ar({0, 3})})); }},
      {"concat_transposed", [] { return one(concatenate({ar({3, 2}).T(), ar({3, 2}).T()}, {.axis = 0})); }},
      {"concat_strided",
       [] {
         return one(concatenate({ar({4}, uint16)(slice(std::nullopt, std::nullopt, -1)),
                                 ar({5}, uint16)(slice(std::nullopt, std::nullopt, 2))}));
       }},
      {"concat_rows", [] { return one(concatenate({ar({4, 300}, float32), ar({4, 200}, float32)}, {.axis = 1})); }},
      {"concat_f16_3d", [] { return one(concatenate({ar({2, 2, 3}, float16), ar({2, 1, 3}, float16)}, {.axis = 1})); }},
      {"stack_0", [] { return one(stack({ar({2, 3}), ar({2, 3}) + 10})); }},
      {"stack_neg", [] { return one(stack({ar({2, 3}, float32), ar({2, 3}, float32)}, {.axis = -1})); }},
      {"stack_0d", [] { return one(stack({ar({}), ar({})})); }},
      {"hstack_1d", [] { return one(hstack({ar({3}), ar({2})})); }},
      {"hstack_2d", [] { return one(hstack({ar({2, 3}, int16), ar({2, 1}, int16)})); }},
      {"vstack_1d", [] { return one(vstack({ar({3}), ar({3})})); }},
      {"vstack_2d", [] { return one(vstack({ar({2, 3}, complex64), ar({1, 3}, complex64)})); }},
      {"dstack", [] { return one(dstack({ar({2, 3}), ar({2, 3})})); }},
      {"dstack_1d", [] { return one(dstack({ar({3}), ar({3})})); }},
      {"column_stack", [] { return one(column_stack({ar({3}), ar({3, 2})})); }},
      {"append_none", [] { return one(append(ar({2, 2}), ar({3}))); }},
      {"append_axis0", [] { return one(append(ar({2, 3}), ar({1, 3}), 0)); }},
      {"split_3", [] { return split(ar({9}), 3); }},
      {"split_indices", [] { return split(ar({8}), {3, 5, 6, 10}); }},
      {"split_axis1", [] { return split(ar({2, 6}), 2, 1); }},
      {"array_split_3", [] { return array_split(ar({10}, float64), 3); }},
      {"array_split_neg", [] { return array_split(ar({3, 7}), {-2, 2}, -1); }},
      {"array_split_more", [] { return array_split(ar({2}), 4); }},
      {"hsplit", [] { return hsplit(ar({2, 4}), 2); }},
      {"hsplit_1d",
       [] {
         const std::int64_t at[] = {2};
         return hsplit(ar({6}), at);
       }},
      {"vsplit",
       [] {
         const std::int64_t at[] = {1, 3};
         return vsplit(ar({4, 2}), at);
       }},
      {"dsplit", [] { return dsplit(ar({2, 2, 4}), 2); }},
      {"flip_all", [] { return one(flip(ar({2, 3, 4}))); }},
      {"flip_axis1", [] { return one(flip(ar({2, 3, 4}, float32), 1)); }},
      {"flip_axes", [] { return one(flip(ar({2, 3, 4}), {0, -1})); }},
      {"flip_0d", [] { return one(flip(ar({}))); }},
      {"fliplr", [] { return one(fliplr(ar({3, 4}, bool_))); }},
      {"flipud", [] { return one(flipud(ar({3, 4}))); }},
      {"rot90_k1", [] { return one(rot90(ar({3, 4}))); }},
      {"rot90_k2", [] { return one(rot90(ar({3, 4}), 2)); }},
      {"rot90_k3", [] { return one(rot90(ar({3, 4}), 3)); }},
      {"rot90_kneg", [] { return one(rot90(ar({3, 4}), -1)); }},
      {"rot90_axes", [] { return one(rot90(ar({2, 3, 4}), 1, {2, 0})); }},
      {"roll_none", [] { return one(roll(ar({3, 4}), 5)); }},
      {"roll_axis0", [] { return one(roll(ar({3, 4}), 1, 0)); }},
      {"roll_neg", [] { return one(roll(ar({3, 4}, float64), -1, 1)); }},
      {"roll_tuple", [] { return one(roll(ar({3, 4}), {1, -2}, {0, 1})); }},
      {"roll_same_axis", [] { return one(roll(ar({5}), {1, 2}, {0, 0})); }},
      {"roll_shift_axes", [] { return one(roll(ar({3, 4}), {1}, {0, 1})); }},
      {"roll_big", [] { return one(roll(ar({3, 4}), 14, 1)); }},
      {"roll_0d", [] { return one(roll(ar({}), 3)); }},
      {"roll_empty", [] { return one(roll(ar({0, 3}), 1, 1)); }},
      {"tile_int", [] { return one(tile(ar({3}), 2)); }},
      {"tile_tuple", [] { return one(tile(ar({2, 3}), {2, 1})); }},
      {"tile_more_reps", [] { return one(tile(ar({3}, float32), {2, 2})); }},
      {"tile_fewer_reps", [] { return one(tile(ar({2, 2, 2}), 2)); }},
      {"tile_zero", [] { return one(tile(ar({2, 3}), {0, 2})); }},
      {"tile_ones", [] { return one(tile(ar({2}), {1, 1})); }},
      {"tile_0d", [] { return one(tile(ar({}), 3)); }},
      {"repeat_scalar", [] { return one(repeat(ar({2, 2}), 2)); }},
      {"repeat_axis", [] { return one(repeat(ar({2, 3}, int8), 3, 1)); }},
      {"repeat_counts", [] { return one(repeat(ar({4}), {1, 0, 2, 2})); }},
      {"repeat_counts_axis0", [] { return one(repeat(ar({3, 2}, complex128), {2, 2, 1}, 0)); }},
      {"repeat_counts_axis1", [] { return one(repeat(ar({2, 3}), asarray(std::vector<std::int64_t>{3, 1, 1}), -1)); }},
      {"repeat_zero", [] { return one(repeat(ar({3}), 0)); }},
      {"repeat_0d", [] { return one(repeat(ar({}), 4)); }},
      {"resize_grow", [] { return one(resize(ar({3}), {2, 4})); }},
      {"resize_shrink", [] { return one(resize(ar({2, 3}), {4})); }},
      {"resize_empty", [] { return one(resize(ar({0}, float32), {2, 2})); }},
      {"atleast_1d_0d", [] { return one(atleast_1d(ar({}))); }},
      {"atleast_2d_1d", [] { return one(atleast_2d(ar({3}))); }},
      {"atleast_3d_1d", [] { return one(atleast_3d(ar({3}))); }},
      {"atleast_3d_2d", [] { return one(atleast_3d(ar({2, 3}))); }},
      {"delete_int", [] { return one(delete_(ar({5}), std::int64_t{1})); }},
      {"delete_neg_axis", [] { return one(delete_(ar({3, 4}), std::int64_t{-1}, 1)); }},
      {"delete_slice", [] { return one(delete_(ar({3, 4}), slice(std::nullopt, std::nullopt, 2), 1)); }},
      {"delete_list", [] { return one(delete_(ar({2, 3}), std::vector<std::int64_t>{0, 4, 5})); }},
      {"delete_mask", [] { return one(delete_(ar({4, 2}), std::vector<bool>{true, false, true, false}, 0)); }},
      {"insert_int", [] { return one(insert(ar({5}), std::int64_t{2}, 99)); }},
      {"insert_int_axis",
       [] { return one(insert(ar({2, 3}), std::int64_t{1}, asarray(std::vector<std::int64_t>{7, 8}), 1)); }},
      {"insert_list",
       [] {
         return one(insert(ar({5}), std::vector<std::int64_t>{1, 1, 4}, asarray(std::vector<std::int64_t>{10, 20, 30})));
       }},
      {"insert_slice", [] { return one(insert(ar({2, 4}), slice(0, 4, 2), 5, 1)); }},
      {"insert_list_1",
       [] {
         return one(insert(ar({2, 3}), std::vector<std::int64_t>{1}, asarray(std::vector<std::int64_t>{7, 8}).reshape({2, 1}), 1));
       }},
      {"insert_end", [] { return one(insert(ar({3}, float32), std::int64_t{3}, 2.5)); }},
  };
  return table;
}

TEST(ManipulationGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  // Exact: the routines only move elements.
  test::check_reference_set("manipulation", cases(), [](const dtype&) { return 0.0; });
}

const dtype all_dtypes[] = {bool_,   int8,     int16,   int32,   int64,   uint8,     uint16,    uint32,
                            uint64,  float16,  bfloat16, float32, float64, complex64, complex128};

std::vector<double> as_doubles(const ndarray& a) { return astype(a, float64).to_vector<double>(); }

TEST(ManipulationGpu, EveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const ndarray a = astype(asarray(std::vector<double>{1, 0, 1, 1}), t).reshape({2, 2});
    EXPECT_EQ(concatenate({a, a}).dtype(), t);
    EXPECT_EQ(as_doubles(concatenate({a, a}, {.axis = 1})), std::vector<double>({1, 0, 1, 0, 1, 1, 1, 1}));
    EXPECT_EQ(as_doubles(roll(a, 1)), std::vector<double>({1, 1, 0, 1}));
    EXPECT_EQ(as_doubles(tile(a(0), 2)), std::vector<double>({1, 0, 1, 0}));
    EXPECT_EQ(as_doubles(repeat(a(1), {0, 2})), std::vector<double>({1, 1}));
    EXPECT_EQ(as_doubles(flip(a)), std::vector<double>({1, 1, 0, 1}));
  }
}

TEST(ManipulationGpu, OutAndOverlap) {
  CUPP_REQUIRE_GPU();
  const ndarray out = zeros({5}, float32);
  const ndarray r = concatenate({ar({2}), ar({3})}, {.out = out, .casting = casting::unsafe});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<float>(), std::vector<float>({0, 1, 0, 1, 2}));
  // Inputs that overlap out: read before written.
  const ndarray x = astype(arange(6), float32);
  concatenate({x(slice(3, 6)), x(slice(0, 3))}, {.out = x});
  EXPECT_EQ(x.to_vector<float>(), std::vector<float>({3, 4, 5, 0, 1, 2}));
  // A strided out with axis=None.
  const ndarray y = zeros({8}, int64);
  concatenate({ar({3}), ar({})}, {.axis = std::nullopt, .out = y(slice(std::nullopt, std::nullopt, 2))});
  EXPECT_EQ(y.to_vector<std::int64_t>(), std::vector<std::int64_t>({0, 0, 1, 0, 2, 0, 0, 0}));
  EXPECT_THROW(concatenate({ar({2}, float64), ar({3})}, {.out = zeros({5}, int8)}), TypeError);  // same_kind
  EXPECT_THROW(concatenate({ar({2}), ar({3})}, {.out = zeros({6}, int64)}), ValueError);  // wrong shape
  // Views are views: writing through split/flip reaches the array.
  const ndarray z = zeros({4}, float64);
  flip(z)(0) = 7.0;
  split(z, 2)[0](0) = 5.0;
  EXPECT_EQ(z.to_vector<double>(), std::vector<double>({5, 0, 0, 7}));
}

TEST(ManipulationGpu, LargeConcatenate) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 22) + 7;
  std::vector<ndarray> parts;
  for (int i = 0; i < 8; ++i) parts.push_back(full({n}, i, float32));
  const ndarray c = concatenate(parts);
  ASSERT_EQ(c.size(), 8 * n);
  const std::vector<float> h = c.to_vector<float>();
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(h[static_cast<std::size_t>(i * n)], float(i));
    EXPECT_EQ(h[static_cast<std::size_t>(i * n + n - 1)], float(i));
  }
  const ndarray rows = concatenate({ones({1000, 700}, float32), zeros({1000, 300}, float32)}, {.axis = 1});
  EXPECT_EQ(as_doubles(rows(999, slice(699, 701))), std::vector<double>({1, 0}));
}

TEST(ManipulationGpu, Errors) {
  CUPP_REQUIRE_GPU();
  EXPECT_THROW(concatenate({ar({2}), ar({2, 2})}), ValueError);
  EXPECT_THROW(concatenate({ar({2}), ar({2})}, {.axis = 1}), AxisError);
  EXPECT_THROW(concatenate({ar({2}, float64), ar({2})}, {.dtype = int64}), TypeError);
  EXPECT_NO_THROW(insert(ar({3}, uint8), std::int64_t{1}, 3));
  EXPECT_THROW(insert(ar({3}, uint8), std::int64_t{1}, 300), OverflowError);
  EXPECT_THROW(insert(ar({2, 3}), std::vector<std::int64_t>{0, 1}, ar({4})), ValueError);
  EXPECT_EQ(error_of<ValueError>([] { repeat(ar({3}), {1, 2}); }),
            "operands could not be broadcast together with shape (3,) (2,)");
}

}  // namespace
}  // namespace cupp
