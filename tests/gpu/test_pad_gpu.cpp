// pad's value modes on the GPU (runtime/src/routines/manipulation/pad.cpp): linear_ramp,
// maximum/minimum/mean/median with stat_length, and reflect_type='odd', checked against values
// worked out by hand from NumPy's algorithm (axis by axis, each axis from the array padded so
// far), on every dtype (bfloat16 too, which the NumPy reference set leaves out) and on large
// arrays against closed forms. tests/gpu/test_manipulation_gpu.cpp compares the NumPy 2.5
// reference cases (make_manipulation_ref.py, pad_*).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using cd = std::complex<double>;

ndarray vals(const std::vector<double>& v, dtype type = float64) { return astype(asarray(v), type); }
std::vector<double> as_doubles(const ndarray& a) { return astype(a, float64).to_vector<double>(); }
shape_t shape_of(const ndarray& a) { return shape_t(a.shape().begin(), a.shape().end()); }

const dtype all_dtypes[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                            uint64, float16, bfloat16, float32, float64, complex64, complex128};

TEST(PadGpu, NumPyDocExamples) {
  CUPP_REQUIRE_GPU();
  const ndarray a = vals({1, 2, 3, 4, 5}, int64);
  EXPECT_EQ(as_doubles(pad(a, {2, 3}, {.mode = "linear_ramp", .end_values = {5, -4}})),
            std::vector<double>({5, 3, 1, 2, 3, 4, 5, 2, -1, -4}));
  EXPECT_EQ(as_doubles(pad(a, 2, {.mode = "maximum"})), std::vector<double>({5, 5, 1, 2, 3, 4, 5, 5, 5}));
  EXPECT_EQ(as_doubles(pad(a, 2, {.mode = "mean"})), std::vector<double>({3, 3, 1, 2, 3, 4, 5, 3, 3}));
  EXPECT_EQ(as_doubles(pad(a, 2, {.mode = "median"})), std::vector<double>({3, 3, 1, 2, 3, 4, 5, 3, 3}));
  EXPECT_EQ(as_doubles(pad(a, {2, 3}, {.mode = "reflect", .reflect_type = "odd"})),
            std::vector<double>({-1, 0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(as_doubles(pad(a, {2, 3}, {.mode = "symmetric", .reflect_type = "odd"})),
            std::vector<double>({0, 1, 1, 2, 3, 4, 5, 5, 6, 7}));
  // np.pad([[1, 2], [3, 4]], ((3, 2), (2, 3)), 'minimum')
  const ndarray m = pad(vals({1, 2, 3, 4}, int64).reshape({2, 2}), {{3, 2}, {2, 3}}, {.mode = "minimum"});
  ASSERT_EQ(shape_of(m), (shape_t{7, 7}));
  const std::vector<double> ones_row{1, 1, 1, 2, 1, 1, 1}, threes_row{3, 3, 3, 4, 3, 3, 3};
  std::vector<double> want;
  for (int r = 0; r < 7; ++r) want.insert(want.end(), (r == 4 ? threes_row : ones_row).begin(), (r == 4 ? threes_row : ones_row).end());
  EXPECT_EQ(as_doubles(m), want);
}

TEST(PadGpu, CornersFollowNumPysAxisOrder) {
  CUPP_REQUIRE_GPU();
  // Axis 0 first: the new rows are the column maxima [3, 4]; then every row (new ones included)
  // gets its own maximum on both sides.
  const ndarray p = pad(vals({1, 2, 3, 4}, int64).reshape({2, 2}), 1, {.mode = "maximum"});
  EXPECT_EQ(as_doubles(p), std::vector<double>({4, 3, 4, 4, 2, 1, 2, 2, 4, 3, 4, 4, 4, 3, 4, 4}));
  // Mean: the new rows are the column means [2, 3]; row [2, 3] has mean 2.5 -> 2 (half to even).
  const ndarray q = pad(vals({1, 2, 3, 4}, int32).reshape({2, 2}), 1, {.mode = "mean"});
  EXPECT_EQ(as_doubles(q), std::vector<double>({2, 2, 3, 2, 2, 1, 2, 2, 4, 3, 4, 4, 2, 2, 3, 2}));
  EXPECT_EQ(q.dtype(), int32);
}

TEST(PadGpu, StatLengthAndRounding) {
  CUPP_REQUIRE_GPU();
  const ndarray a = vals({1, 2, 3, 4, 5, 6}, int64);
  EXPECT_EQ(as_doubles(pad(a, 1, {.mode = "maximum", .stat_length = 2})),
            std::vector<double>({2, 1, 2, 3, 4, 5, 6, 6}));
  EXPECT_EQ(as_doubles(pad(a, 1, {.mode = "mean", .stat_length = {1, 3}})),
            std::vector<double>({1, 1, 2, 3, 4, 5, 6, 5}));
  EXPECT_EQ(as_doubles(pad(a, 1, {.mode = "minimum", .stat_length = {{4, 100}}})),
            std::vector<double>({1, 1, 2, 3, 4, 5, 6, 1}));
  // Integer means and medians round half to even: 1.5 -> 2, -3.5 -> -4, 252.5 -> 252.
  const ndarray r = vals({1, 2, 5, 6, -3, -4}, int32);
  EXPECT_EQ(as_doubles(pad(r, 2, {.mode = "mean", .stat_length = 2})),
            std::vector<double>({2, 2, 1, 2, 5, 6, -3, -4, -4, -4}));
  EXPECT_EQ(as_doubles(pad(r, 2, {.mode = "median", .stat_length = 2})),
            std::vector<double>({2, 2, 1, 2, 5, 6, -3, -4, -4, -4}));
  EXPECT_EQ(as_doubles(pad(vals({250, 255, 1}, uint8), {1, 0}, {.mode = "mean", .stat_length = 2})),
            std::vector<double>({252, 250, 255, 1}));
  // stat_length 0: mean and median of nothing are NaN (NumPy warns); max/min raise.
  const std::vector<double> z = as_doubles(pad(vals({1, 2}), 1, {.mode = "mean", .stat_length = 0}));
  ASSERT_EQ(z.size(), 4u);
  EXPECT_TRUE(std::isnan(z[0]) && std::isnan(z[3]));
  EXPECT_EQ(z[1], 1);
  const std::vector<double> zm = as_doubles(pad(vals({1, 2}, float32), 1, {.mode = "median", .stat_length = 0}));
  EXPECT_TRUE(std::isnan(zm[0]) && std::isnan(zm[3]));
  EXPECT_THROW(pad(vals({1, 2}), 1, {.mode = "maximum", .stat_length = 0}), ValueError);
  // NaN propagates through maximum and median.
  const std::vector<double> n = as_doubles(pad(vals({1, NAN, 3}), 1, {.mode = "median"}));
  EXPECT_TRUE(std::isnan(n[0]) && std::isnan(n[4]));
}

TEST(PadGpu, LinearRampRoundingAndTypes) {
  CUPP_REQUIRE_GPU();
  // The default end value is np.int64(0): float32 ramps compute in float64.
  EXPECT_EQ(as_doubles(pad(vals({1, 2}, float32), 2, {.mode = "linear_ramp"})),
            std::vector<double>({0, 0.5, 1, 2, 1, 0}));
  // Integers take the floor of the ramp.
  EXPECT_EQ(as_doubles(pad(vals({10}, int16), 3, {.mode = "linear_ramp"})), std::vector<double>({0, 3, 6, 10, 6, 3, 0}));
  EXPECT_EQ(as_doubles(pad(vals({0}, int8), 2, {.mode = "linear_ramp", .end_values = -5})),
            std::vector<double>({-5, -3, 0, -3, -5}));
  // bool: the float ramp cast (nonzero is true), no floor.
  EXPECT_EQ(as_doubles(pad(vals({1}, bool_), 2, {.mode = "linear_ramp"})), std::vector<double>({0, 1, 1, 1, 0}));
  // Complex ramps, and a complex end into a real array keeps the real part.
  const std::vector<cd> c = pad(astype(asarray(std::vector<cd>{cd(2, 4)}), complex128), {2, 0},
                                {.mode = "linear_ramp", .end_values = cd(0, 0)})
                                .to_vector<cd>();
  EXPECT_EQ(c, std::vector<cd>({cd(0, 0), cd(1, 2), cd(2, 4)}));
  EXPECT_EQ(as_doubles(pad(vals({4}), {2, 0}, {.mode = "linear_ramp", .end_values = cd(0, 7)})),
            std::vector<double>({0, 2, 4}));
  EXPECT_THROW(pad(vals({4}, int32), 1, {.mode = "linear_ramp", .end_values = cd(0, 7)}), TypeError);
  // 0-d arrays come back as copies; an empty array may be padded along its non-empty axes.
  EXPECT_EQ(as_doubles(pad(vals({3}).reshape({}), 2, {.mode = "linear_ramp"})), std::vector<double>({3}));
  EXPECT_EQ(shape_of(pad(zeros({0, 3}), {{0, 0}, {1, 1}}, {.mode = "linear_ramp"})), (shape_t{0, 5}));
  EXPECT_EQ(shape_of(pad(zeros({0, 3}), {{0, 0}, {1, 1}}, {.mode = "median", .stat_length = 0})), (shape_t{0, 5}));
}

TEST(PadGpu, ReflectOddWrapsAndExtendsSingletons) {
  CUPP_REQUIRE_GPU();
  // uint8: 2 * edge - x wraps, as NumPy's uint8 arithmetic: [-10, -5, 0, 5, 10, 15] mod 256.
  EXPECT_EQ(as_doubles(pad(vals({0, 5}, uint8), 2, {.mode = "reflect", .reflect_type = "odd"})),
            std::vector<double>({246, 251, 0, 5, 10, 15}));
  // A singleton axis takes its edge (NumPy's legacy rule), with no reflection.
  EXPECT_EQ(as_doubles(pad(vals({7}, int64), 2, {.mode = "reflect", .reflect_type = "odd"})),
            std::vector<double>({7, 7, 7, 7, 7}));
  // symmetric odd over several periods: 2 * edge - chunk about the current edge each time.
  EXPECT_EQ(as_doubles(pad(vals({1, 2, 4}, int64), {7, 9}, {.mode = "symmetric", .reflect_type = "odd"})),
            std::vector<double>({-5, -5, -4, -2, -2, 0, 1, 1, 2, 4, 4, 6, 7, 7, 8, 10, 10, 12, 13}));
  EXPECT_EQ(as_doubles(pad(vals({1, 2, 4}, int64), {7, 9}, {.mode = "reflect", .reflect_type = "odd"})),
            std::vector<double>({-10, -8, -6, -5, -4, -2, 0, 1, 2, 4, 6, 7, 8, 10, 12, 13, 14, 16, 18}));
}

TEST(PadGpu, EveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const ndarray a = vals({1, 0, 1, 1}, t);
    for (const char* mode : {"maximum", "minimum", "mean", "median", "linear_ramp"}) {
      SCOPED_TRACE(mode);
      const ndarray p = pad(a, 1, {.mode = mode});
      EXPECT_EQ(p.dtype(), t);
      ASSERT_EQ(p.size(), 6);
      const std::vector<double> h = as_doubles(p);
      EXPECT_EQ(std::vector<double>(h.begin() + 1, h.end() - 1), std::vector<double>({1, 0, 1, 1}));
      const std::string m = mode;
      // maximum 1; minimum 0; mean 0.75 (integers round to 1; bool is true); median 1; the
      // ramps from 0 end at 0.
      const double want = m == "minimum" || m == "linear_ramp" ? 0 : m == "mean" && t.is_inexact() ? 0.75 : 1;
      EXPECT_EQ(h.front(), want);
      EXPECT_EQ(h.back(), want);
    }
    for (const char* mode : {"reflect", "symmetric"}) {
      SCOPED_TRACE(mode);
      const ndarray p = pad(vals({1, 0, 1}, t), 1, {.mode = mode, .reflect_type = "odd"});
      EXPECT_EQ(p.dtype(), t);
      const std::vector<double> h = as_doubles(p);
      // reflect: 2 * 1 - 0 = 2 on both sides (bool: nonzero, true); symmetric: 2 * 1 - 1 = 1.
      const double want = std::string(mode) == "symmetric" || t.is_bool() ? 1 : 2;
      EXPECT_EQ(h.front(), want);
      EXPECT_EQ(h.back(), want);
    }
  }
}

TEST(PadGpu, LargeAgainstClosedForms) {
  CUPP_REQUIRE_GPU();
  const std::int64_t rows = 300, cols = 517, b0 = 700, a0 = 3, b1 = 1, a1 = 1100;
  const ndarray a = arange(rows * cols).reshape({rows, cols});  // a[i, j] = i * cols + j (linear)
  // An odd reflection of a linear array continues the line, corners included.
  const ndarray r = pad(a, {{b0, a0}, {b1, a1}}, {.mode = "reflect", .reflect_type = "odd"});
  ASSERT_EQ(shape_of(r), (shape_t{rows + b0 + a0, cols + b1 + a1}));
  const std::vector<std::int64_t> hr = r.to_vector<std::int64_t>();
  // The array grows along both axes, so maximum pads with the last row / column, and minimum over
  // the first / last 5 with the first / the fifth last, corners included.
  const std::vector<std::int64_t> hmax = pad(a, {{b0, a0}, {b1, a1}}, {.mode = "maximum"}).to_vector<std::int64_t>();
  const std::vector<std::int64_t> hmin =
      pad(a, {{b0, a0}, {b1, a1}}, {.mode = "minimum", .stat_length = 5}).to_vector<std::int64_t>();
  std::int64_t wrong = 0;
  const std::int64_t width = cols + b1 + a1;
  for (std::int64_t i = 0; i < rows + b0 + a0; i += 3) {
    for (std::int64_t j = 0; j < width; j += 5) {
      const std::int64_t si = i - b0, sj = j - b1;
      const bool in_i = si >= 0 && si < rows, in_j = sj >= 0 && sj < cols;
      const auto k = static_cast<std::size_t>(i * width + j);
      wrong += hr[k] != si * cols + sj;
      wrong += hmax[k] != (in_i ? si : rows - 1) * cols + (in_j ? sj : cols - 1);
      wrong += hmin[k] != (in_i ? si : si < 0 ? 0 : rows - 5) * cols + (in_j ? sj : sj < 0 ? 0 : cols - 5);
    }
  }
  EXPECT_EQ(wrong, 0);
  // A linear ramp from the edge value e to end value 0 over w steps: floor(e * k / w) (exact in
  // float64 for these sizes: the values are below 2^53 and the step is one division).
  const ndarray v = arange(1, 2).reshape({1}) * 1000000;
  const std::vector<std::int64_t> hv = pad(v, {5000, 0}, {.mode = "linear_ramp"}).to_vector<std::int64_t>();
  ASSERT_EQ(hv.size(), 5001u);
  EXPECT_EQ(hv[0], 0);
  EXPECT_EQ(hv[2500], 500000);
  EXPECT_EQ(hv[5000], 1000000);
}

}  // namespace
}  // namespace cupp
