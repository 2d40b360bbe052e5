// Example for docs/manipulation.md, built and run by the tests (CTest example_manipulation, label
// gpu): calls of the joining, splitting, flipping, rolling, tiling, shape, insert/delete, pad,
// clip, where, round, nan_to_num, angle, trim_zeros, interp and convolve routines, each result's
// dtype, shape and values compared with NumPy's (computed with NumPy when this was written), the
// views checked to share their input's memory.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/creation.hpp>
#include <cupp/manipulation.hpp>
#include <cupp/ufunc.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

namespace {
int failures = 0;
void fail(const std::string& what) {
  std::printf("FAILED: %s\n", what.c_str());
  ++failures;
}
// a has this dtype and shape and exactly these values (T: the dtype's own C++ type).
template <class T>
void expect(const cupp::ndarray& a, cupp::dtype type, const cupp::shape_t& shape, const std::vector<T>& values,
            const std::string& what) {
  if (a.dtype() != type || cupp::shape_t(a.shape().begin(), a.shape().end()) != shape) return fail(what + ": dtype or shape");
  if (a.to_vector<T>() != values) fail(what + ": values");
}
void expect_close(const cupp::ndarray& a, const cupp::shape_t& shape, const std::vector<double>& values, const std::string& what) {
  if (a.dtype() != cupp::float64 || cupp::shape_t(a.shape().begin(), a.shape().end()) != shape)
    return fail(what + ": dtype or shape");
  const std::vector<double> got = a.to_vector<double>();
  for (std::size_t k = 0; k < values.size(); ++k)
    if (std::abs(got[k] - values[k]) > 1e-12 * (1 + std::abs(values[k]))) return fail(what + ": values");
}
using i64 = std::vector<std::int64_t>;
using f64 = std::vector<double>;
const cupp::dtype int64 = cupp::int64;
}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  {
    // [snippet concatenate]
    auto a = cupp::array({{1, 2}, {3, 4}});
    auto b = cupp::array({{5, 6}});
    auto rows = cupp::concatenate({a, b});                          // axis 0: [[1, 2], [3, 4], [5, 6]]
    auto flat = cupp::concatenate({a, b}, {.axis = std::nullopt});  // axis=None: [1, 2, 3, 4, 5, 6]
    auto wide = cupp::concat({a, a.T()}, {.axis = 1, .dtype = cupp::float32});   // [[1, 2, 1, 3], [3, 4, 2, 4]]
    auto out = cupp::empty({3, 2}, cupp::int64);
    cupp::concatenate({a, b}, {.out = out});                        // written into out
    // [end snippet]
    expect(rows, int64, {3, 2}, i64{1, 2, 3, 4, 5, 6}, "concatenate along axis 0");
    expect(flat, int64, {6}, i64{1, 2, 3, 4, 5, 6}, "concatenate with axis None");
    expect(wide, cupp::float32, {2, 4}, std::vector<float>{1, 2, 1, 3, 3, 4, 2, 4}, "concat along axis 1 into float32");
    expect(out, int64, {3, 2}, i64{1, 2, 3, 4, 5, 6}, "concatenate into out");
  }
  {
    // [snippet stack]
    auto x = cupp::array({1, 2, 3});
    auto y = cupp::array({4, 5, 6});
    auto s0 = cupp::stack({x, y});                     // (2, 3)
    auto s1 = cupp::stack({x, y}, {.axis = -1});       // (3, 2): [[1, 4], [2, 5], [3, 6]]
    auto h = cupp::hstack({x, y});                     // [1, 2, 3, 4, 5, 6]
    auto v = cupp::vstack({x, y}, {.dtype = cupp::float64});   // (2, 3) float64
    auto d = cupp::dstack({x, y});                     // (1, 3, 2)
    auto c = cupp::column_stack({x, y});               // (3, 2), as s1
    auto app = cupp::append(x, y);                     // flattened and joined, as h
    // [end snippet]
    expect(s0, int64, {2, 3}, i64{1, 2, 3, 4, 5, 6}, "stack");
    expect(s1, int64, {3, 2}, i64{1, 4, 2, 5, 3, 6}, "stack along axis -1");
    expect(h, int64, {6}, i64{1, 2, 3, 4, 5, 6}, "hstack");
    expect(v, cupp::float64, {2, 3}, f64{1, 2, 3, 4, 5, 6}, "vstack into float64");
    expect(d, int64, {1, 3, 2}, i64{1, 4, 2, 5, 3, 6}, "dstack");
    expect(c, int64, {3, 2}, i64{1, 4, 2, 5, 3, 6}, "column_stack");
    expect(app, int64, {6}, i64{1, 2, 3, 4, 5, 6}, "append");
  }
  {
    // [snippet split]
    auto a = cupp::arange(9);
    auto thirds = cupp::split(a, 3);                     // [0, 1, 2], [3, 4, 5], [6, 7, 8]: views of a
    auto pieces = cupp::split(a, {2, 5, 20});            // a[:2], a[2:5], a[5:20], a[20:] (empty)
    auto uneven = cupp::array_split(cupp::arange(7), 3); // lengths 3, 2, 2
    auto halves = cupp::hsplit(cupp::arange(8).reshape({2, 4}), 2);   // two (2, 2) pieces
    // [end snippet]
    if (thirds.size() != 3 || pieces.size() != 4 || uneven.size() != 3 || halves.size() != 2) return fail("split counts"), 1;
    expect(thirds[1], int64, {3}, i64{3, 4, 5}, "split(a, 3)[1]");
    if (thirds[1].base() != a.base()) fail("split's pieces are views");
    expect(pieces[2], int64, {4}, i64{5, 6, 7, 8}, "split at 2, 5, 20: [5:20]");
    expect(pieces[3], int64, {0}, i64{}, "split at 2, 5, 20: [20:]");
    expect(uneven[0], int64, {3}, i64{0, 1, 2}, "array_split(7, 3)[0]");
    expect(uneven[2], int64, {2}, i64{5, 6}, "array_split(7, 3)[2]");
    expect(halves[1], int64, {2, 2}, i64{2, 3, 6, 7}, "hsplit(2)[1]");
  }
  {
    // [snippet flip]
    auto m = cupp::arange(6).reshape({2, 3});  // [[0, 1, 2], [3, 4, 5]]
    auto all = cupp::flip(m);                  // [[5, 4, 3], [2, 1, 0]]: a view, negative strides
    auto cols = cupp::flip(m, 1);              // [[2, 1, 0], [5, 4, 3]]
    auto both = cupp::flip(m, {0, 1});         // as all
    auto lr = cupp::fliplr(m);                 // as cols
    auto ud = cupp::flipud(m);                 // [[3, 4, 5], [0, 1, 2]]
    auto r = cupp::rot90(m);                   // [[2, 5], [1, 4], [0, 3]]
    auto back = cupp::rot90(m, -1, {1, 0});    // k modulo 4, the axes the other way round: as r
    // [end snippet]
    expect(all, int64, {2, 3}, i64{5, 4, 3, 2, 1, 0}, "flip");
    if (all.base() != m.base() || all.stride(0) >= 0) fail("flip is a view with negative strides");
    expect(cols, int64, {2, 3}, i64{2, 1, 0, 5, 4, 3}, "flip along axis 1");
    expect(both, int64, {2, 3}, i64{5, 4, 3, 2, 1, 0}, "flip along 0 and 1");
    expect(lr, int64, {2, 3}, i64{2, 1, 0, 5, 4, 3}, "fliplr");
    expect(ud, int64, {2, 3}, i64{3, 4, 5, 0, 1, 2}, "flipud");
    expect(r, int64, {3, 2}, i64{2, 5, 1, 4, 0, 3}, "rot90");
    expect(back, int64, {3, 2}, i64{2, 5, 1, 4, 0, 3}, "rot90(m, -1, {1, 0})");
  }
  {
    // [snippet roll]
    auto a = cupp::arange(10).reshape({2, 5});
    auto flat = cupp::roll(a, 2);                 // the flattened array: [[8, 9, 0, 1, 2], [3, 4, 5, 6, 7]]
    auto left = cupp::roll(a, -1, 1);             // [[1, 2, 3, 4, 0], [6, 7, 8, 9, 5]]
    auto both = cupp::roll(a, {1, 2}, {0, 1});    // [[8, 9, 5, 6, 7], [3, 4, 0, 1, 2]]
    // [end snippet]
    expect(flat, int64, {2, 5}, i64{8, 9, 0, 1, 2, 3, 4, 5, 6, 7}, "roll(a, 2)");
    expect(left, int64, {2, 5}, i64{1, 2, 3, 4, 0, 6, 7, 8, 9, 5}, "roll(a, -1, 1)");
    expect(both, int64, {2, 5}, i64{8, 9, 5, 6, 7, 3, 4, 0, 1, 2}, "roll(a, {1, 2}, {0, 1})");
  }
  {
    // [snippet tile]
    auto x = cupp::array({1, 2});
    auto t = cupp::tile(x, {2, 2});               // [[1, 2, 1, 2], [1, 2, 1, 2]]
    auto t3 = cupp::tile(x, 3);                   // [1, 2, 1, 2, 1, 2]
    auto r = cupp::repeat(x, 2);                  // [1, 1, 2, 2]
    auto counts = cupp::repeat(x, {3, 1});        // [1, 1, 1, 2]
    auto rows = cupp::repeat(cupp::array({{1, 2}, {3, 4}}), cupp::array({1, 2}), 0);   // [[1, 2], [3, 4], [3, 4]]
    auto z = cupp::resize(x, {2, 3});             // [[1, 2, 1], [2, 1, 2]]
    // [end snippet]
    expect(t, int64, {2, 4}, i64{1, 2, 1, 2, 1, 2, 1, 2}, "tile(x, {2, 2})");
    expect(t3, int64, {6}, i64{1, 2, 1, 2, 1, 2}, "tile(x, 3)");
    expect(r, int64, {4}, i64{1, 1, 2, 2}, "repeat(x, 2)");
    expect(counts, int64, {4}, i64{1, 1, 1, 2}, "repeat(x, {3, 1})");
    expect(rows, int64, {3, 2}, i64{1, 2, 3, 4, 3, 4}, "repeat by an array of counts along axis 0");
    expect(z, int64, {2, 3}, i64{1, 2, 1, 2, 1, 2}, "resize");
  }
  {
    const cupp::ndarray a = cupp::arange(24).reshape({2, 3, 4});
    const cupp::ndarray x = cupp::arange(6).reshape({2, 3});
    const std::int64_t shape[] = {4, 6};
    // [snippet shapes]
    auto f = cupp::reshape(a, shape, {.order = cupp::order::F});   // order='F', 'A'; copy= true/false
    auto k = cupp::ravel(a, cupp::order::K);                       // order='C', 'F', 'A', 'K'
    auto m = cupp::matrix_transpose(x);                            // ValueError for ndim < 2
    auto r = cupp::rollaxis(a, 2, 0);
    auto v = cupp::moveaxis(a, std::vector{0, 1}, std::vector{-1, -2});
    auto e = cupp::expand_dims(a, {0, -1});                        // each axis counts in the result's ndim
    // [end snippet]
    expect(f, int64, {4, 6}, i64{0, 8, 5, 2, 10, 7, 12, 20, 17, 14, 22, 19, 4, 1, 9, 6, 3, 11, 16, 13, 21, 18, 15, 23},
           "reshape in Fortran order");
    expect(cupp::ravel(a.transpose({2, 0, 1}), cupp::order::K), int64, {24}, [] {
      i64 all(24);
      for (std::int64_t i = 0; i < 24; ++i) all[static_cast<std::size_t>(i)] = i;
      return all;
    }(), "ravel in K order reads memory order");
    expect(k, int64, {24}, a.to_vector<std::int64_t>(), "ravel of a C-ordered array");
    expect(m, int64, {3, 2}, i64{0, 3, 1, 4, 2, 5}, "matrix_transpose");
    if (r.shape(0) != 4 || r.shape(1) != 2 || r.shape(2) != 3) fail("rollaxis(a, 2, 0) is (4, 2, 3)");
    if (v.shape(0) != 4 || v.shape(1) != 3 || v.shape(2) != 2) fail("moveaxis to -1, -2 is (4, 3, 2)");
    if (e.ndim() != 5 || e.shape(0) != 1 || e.shape(4) != 1) fail("expand_dims(a, {0, -1}) is (1, 2, 3, 4, 1)");
  }
  {
    // [snippet insert_delete]
    auto a = cupp::arange(6);
    auto d1 = cupp::delete_(a, 1);                                      // [0, 2, 3, 4, 5]
    auto d2 = cupp::delete_(a, cupp::slice(std::nullopt, std::nullopt, 2));   // [1, 3, 5]
    auto d3 = cupp::delete_(a, std::vector<std::int64_t>{0, -1});       // [1, 2, 3, 4]
    auto d4 = cupp::delete_(a.reshape({2, 3}), std::vector<bool>{true, false, true}, 1);   // [[1], [4]]
    auto i1 = cupp::insert(a, 2, 99);                                   // [0, 1, 99, 2, 3, 4, 5]
    auto i2 = cupp::insert(a, std::vector<std::int64_t>{1, 3}, cupp::array({10, 20}));   // [0, 10, 1, 2, 20, 3, 4, 5]
    // [end snippet]
    expect(d1, int64, {5}, i64{0, 2, 3, 4, 5}, "delete_ one index");
    expect(d2, int64, {3}, i64{1, 3, 5}, "delete_ a slice");
    expect(d3, int64, {4}, i64{1, 2, 3, 4}, "delete_ a list");
    expect(d4, int64, {2, 1}, i64{1, 4}, "delete_ by a mask along axis 1");
    expect(i1, int64, {7}, i64{0, 1, 99, 2, 3, 4, 5}, "insert one value");
    expect(i2, int64, {8}, i64{0, 10, 1, 2, 20, 3, 4, 5}, "insert at a list of indices");
  }
  {
    const cupp::ndarray a = cupp::array({{1, 2}, {3, 4}});
    // [snippet pad]
    // a = [[1, 2], [3, 4]]
    auto p1 = cupp::pad(a, 2);                                        // zeros, 2 on every side
    auto p2 = cupp::pad(a, {1, 3}, {.mode = "reflect"});              // 1 before, 3 after, every axis
    auto p3 = cupp::pad(a, {{1, 2}, {0, 4}}, {.constant_values = {{1, 2}, {3, 4}}});
    auto p4 = cupp::pad(a, 2, {.mode = "linear_ramp", .end_values = {1, 2}});
    auto p5 = cupp::pad(a, 3, {.mode = "mean", .stat_length = {{1, 2}, {3, 4}}});
    auto p6 = cupp::pad(a, {2, 3}, {.mode = "symmetric", .reflect_type = "odd"});
    auto p7 = cupp::pad(a, 1, {.mode = "maximum"});                   // corners 4 (see below)
    // [end snippet]
    expect(p1, int64, {6, 6}, i64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 3, 4, 0, 0,
                                   0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "pad constant");
    expect(p2, int64, {6, 6}, i64{4, 3, 4, 3, 4, 3, 2, 1, 2, 1, 2, 1, 4, 3, 4, 3, 4, 3, 2, 1, 2, 1, 2, 1,
                                   4, 3, 4, 3, 4, 3, 2, 1, 2, 1, 2, 1}, "pad reflect");
    expect(p3, int64, {5, 6}, i64{1, 1, 4, 4, 4, 4, 1, 2, 4, 4, 4, 4, 3, 4, 4, 4, 4, 4, 2, 2, 4, 4, 4, 4, 2, 2, 4, 4, 4, 4},
           "pad with constant values per axis");
    expect(p4, int64, {6, 6}, i64{1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 2, 2, 2, 1, 2, 3, 4, 3, 2,
                                   1, 1, 2, 3, 2, 2, 1, 1, 2, 2, 2, 2}, "pad linear_ramp");
    expect(p5, int64, {8, 8}, i64{2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 2, 2,
                                   2, 2, 2, 1, 2, 2, 2, 2, 4, 4, 4, 3, 4, 4, 4, 4, 2, 2, 2, 2, 3, 2, 2, 2,
                                   2, 2, 2, 2, 3, 2, 2, 2, 2, 2, 2, 2, 3, 2, 2, 2}, "pad mean with stat_length");
    expect(p6, int64, {7, 7}, i64{-2, -1, -1, 0, 0, 1, 1, 0, 1, 1, 2, 2, 3, 3, 0, 1, 1, 2, 2, 3, 3, 2, 3, 3, 4, 4, 5, 5,
                                   2, 3, 3, 4, 4, 5, 5, 4, 5, 5, 6, 6, 7, 7, 4, 5, 5, 6, 6, 7, 7}, "pad symmetric odd");
    expect(p7, int64, {4, 4}, i64{4, 3, 4, 4, 2, 1, 2, 2, 4, 3, 4, 4, 4, 3, 4, 4}, "pad maximum");
  }
  {
    // [snippet clip]
    auto a = cupp::array({-2.0, 0.5, 3.0});
    auto hi = cupp::array({1.0, 0.0, 2.0});
    auto c1 = cupp::clip(a, 0, 1);                       // [0, 0.5, 1]
    auto c2 = cupp::clip(a, std::nullopt, hi);           // minimum(a, hi): [-2, 0, 2]
    auto o = cupp::empty({3});
    cupp::clip(a, 1, 5, {.out = o});                     // o = [1, 1, 3]
    auto i8 = cupp::asarray(std::vector<std::int8_t>{-1, 2, 9});
    auto f = cupp::clip(i8, 0.5, 3);                     // float64 [0.5, 2, 3] (NEP 50)
    auto same = cupp::clip(i8, 1, 3);                    // int8 [1, 2, 3]
    // [end snippet]
    expect(c1, cupp::float64, {3}, f64{0, 0.5, 1}, "clip(a, 0, 1)");
    expect(c2, cupp::float64, {3}, f64{-2, 0, 2}, "clip with an upper array only");
    expect(o, cupp::float64, {3}, f64{1, 1, 3}, "clip into out");
    expect(f, cupp::float64, {3}, f64{0.5, 2, 3}, "clip of int8 by a float bound");
    expect(same, cupp::int8, {3}, std::vector<std::int8_t>{1, 2, 3}, "clip of int8 by integer bounds");
  }
  {
    // [snippet where]
    auto c = cupp::array({true, false, true});
    auto w1 = cupp::where(c, cupp::array({1, 2, 3}), cupp::array({10, 20, 30}));   // [1, 20, 3]
    auto w2 = cupp::where(c, 1, 2.5);                                   // float64 [1, 2.5, 1]
    auto w3 = cupp::where(c, cupp::asarray(std::vector<std::int8_t>{1, 2, 3}), 300);   // int8 [1, 44, 3]
    // [end snippet]
    expect(w1, int64, {3}, i64{1, 20, 3}, "where of two arrays");
    expect(w2, cupp::float64, {3}, f64{1, 2.5, 1}, "where of two scalars");
    expect(w3, cupp::int8, {3}, std::vector<std::int8_t>{1, 44, 3}, "where with a weak scalar cast unsafely");
  }
  {
    // [snippet round]
    auto a = cupp::array({0.5, 1.5, 2.675, -1.25});
    auto r0 = cupp::round(a);                            // [0, 2, 3, -1]: halves to even
    auto r1 = cupp::around(a, 1);                        // [0.5, 1.5, 2.7, -1.2]
    auto ints = cupp::round(cupp::array({1234, 5678}), -2);   // int64 [1200, 5700]
    // [end snippet]
    expect(r0, cupp::float64, {4}, f64{0, 2, 3, -1}, "round");
    expect(r1, cupp::float64, {4}, f64{0.5, 1.5, 2.7, -1.2}, "around(a, 1)");
    expect(ints, int64, {2}, i64{1200, 5700}, "round of integers to hundreds");
  }
  {
    constexpr double big = std::numeric_limits<double>::max();
    // [snippet nan_to_num]
    constexpr double inf = std::numeric_limits<double>::infinity();
    auto x = cupp::array({std::nan(""), inf, -inf, 1.0});
    auto n1 = cupp::nan_to_num(x);                        // [0, 1.797e308, -1.797e308, 1]
    auto n2 = cupp::nan_to_num(x, {.nan = -1.0, .posinf = 1e6, .neginf = -1e6});   // [-1, 1e6, -1e6, 1]
    auto n3 = cupp::nan_to_num(x, {.copy = false});       // replaces in x and returns it
    // [end snippet]
    expect(n1, cupp::float64, {4}, f64{0, big, -big, 1}, "nan_to_num");
    expect(n2, cupp::float64, {4}, f64{-1, 1e6, -1e6, 1}, "nan_to_num with values");
    expect(x, cupp::float64, {4}, f64{0, big, -big, 1}, "nan_to_num in place");
    if (n3.data() != x.data()) fail("nan_to_num with copy = false returns x");
  }
  {
    constexpr double pi = std::numbers::pi;
    // [snippet angle]
    using namespace std::complex_literals;
    auto z = cupp::array({1.0 + 1.0i, -1.0 + 0.0i});
    auto rad = cupp::angle(z);                            // [pi/4, pi]
    auto deg = cupp::angle(z, true);                      // [45, 180]
    auto ints = cupp::angle(cupp::array({-1, 2}));        // float64 [pi, 0]
    // [end snippet]
    expect_close(rad, {2}, f64{pi / 4, pi}, "angle");
    expect_close(deg, {2}, f64{45, 180}, "angle in degrees");
    expect_close(ints, {2}, f64{pi, 0}, "angle of integers");
  }
  {
    // [snippet trim_zeros]
    auto f = cupp::array({0, 0, 1, 2, 0, 3, 0});
    auto both = cupp::trim_zeros(f);                      // [1, 2, 0, 3]: a view of f
    auto front = cupp::trim_zeros(f, "f");                // [1, 2, 0, 3, 0]
    auto m = cupp::array({{0, 0, 0}, {0, 5, 0}, {0, 0, 0}});
    auto box = cupp::trim_zeros(m);                       // [[5]]: the nonzero bounding box
    auto rows = cupp::trim_zeros(m, "fb", 0);             // axis 0 only: [[0, 5, 0]]
    // [end snippet]
    expect(both, int64, {4}, i64{1, 2, 0, 3}, "trim_zeros");
    if (both.base() != f.base()) fail("trim_zeros gives a view");
    expect(front, int64, {5}, i64{1, 2, 0, 3, 0}, "trim_zeros at the front");
    expect(box, int64, {1, 1}, i64{5}, "trim_zeros of a matrix");
    expect(rows, int64, {1, 3}, i64{0, 5, 0}, "trim_zeros along axis 0");
  }
  {
    // [snippet interp]
    auto xp = cupp::array({1.0, 2.0, 3.0});
    auto fp = cupp::array({3.0, 2.0, 0.0});
    auto y = cupp::interp(cupp::array({0.0, 1.5, 2.5, 4.0}), xp, fp);        // [3, 2.5, 1, 0]
    auto lr = cupp::interp(cupp::array({0.0, 4.0}), xp, fp, {.left = -1.0, .right = 9.0});   // [-1, 9]
    auto angles = cupp::interp(cupp::array({-180.0, 370.0}), cupp::array({0.0, 90.0, 180.0, 270.0}),
                               cupp::array({0.0, 1.0, 2.0, 3.0}), {.period = 360.0});      // [2, 0.111...]
    // [end snippet]
    expect(y, cupp::float64, {4}, f64{3, 2.5, 1, 0}, "interp");
    expect(lr, cupp::float64, {2}, f64{-1, 9}, "interp with left and right");
    expect(angles, cupp::float64, {2}, f64{2.0, 0.11111111111111112}, "interp with a period");
  }
  {
    // [snippet convolve]
    auto a = cupp::array({1, 2, 3});
    auto v = cupp::array({0.0, 1.0, 0.5});
    auto full = cupp::convolve(a, v);                     // float64 [0, 1, 2.5, 4, 1.5]
    auto same = cupp::convolve(a, v, "same");             // [1, 2.5, 4]
    auto valid = cupp::correlate(a, v);                   // [3.5]
    auto lags = cupp::correlate(a, v, "full");            // [0.5, 2, 3.5, 3, 0]
    // [end snippet]
    expect(full, cupp::float64, {5}, f64{0, 1, 2.5, 4, 1.5}, "convolve");
    expect(same, cupp::float64, {3}, f64{1, 2.5, 4}, "convolve same");
    expect(valid, cupp::float64, {1}, f64{3.5}, "correlate");
    expect(lags, cupp::float64, {5}, f64{0.5, 2, 3.5, 3, 0}, "correlate full");
  }
  if (failures != 0) return 1;
  std::puts("manipulation: all checks passed");
  return 0;
}
