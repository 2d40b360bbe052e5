// The searching, counting and set routines on the GPU (cupp/searching.hpp): every case of the NumPy
// reference set made by tests/conformance/make_searching_ref.py at build time
// (conformance/searching-ref: the case ids below are the script's), the errors NumPy raises
// (the data-dependent ones through the device), every dtype of searchsorted, unique and isin
// against host computations with NaN first, in the middle and last, and large random inputs of
// every routine against the host.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/searching.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "tolerance.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using test::error_of;
using results = std::vector<ndarray>;
using iv = std::vector<std::int64_t>;
using dv = std::vector<double>;
using cd = std::complex<double>;
using cv = std::vector<cd>;

const double nan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

ndarray ar(std::initializer_list<std::int64_t> shape, dtype type = int64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return astype(arange(n).reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
// The script's I(values, dtype), F(values, dtype), C(values, dtype).
ndarray I(const iv& v, dtype type = int64, std::initializer_list<std::int64_t> shape = {}) {
  ndarray a = asarray(v);
  if (shape.size()) a = a.reshape(shape);
  return type == int64 ? a : astype(a, type);
}
ndarray U(const std::vector<std::uint64_t>& v) { return asarray(v); }
ndarray I0(std::int64_t v) { return scalar(weak_scalar(v), int64); }
ndarray F(const dv& v, dtype type = float64) {
  const ndarray a = asarray(v);
  return type == float64 ? a : astype(a, type);
}
ndarray C(const cv& v, dtype type = complex128) {
  const ndarray a = asarray(v);
  return type == complex128 ? a : astype(a, type);
}
results one(ndarray a) { return results{std::move(a)}; }
results two(const histogram_result& h) { return results{h.hist, h.bin_edges}; }
results of(const unique_result& r) {
  results out{r.values};
  for (const ndarray& x : {r.index, r.inverse, r.counts})
    if (!x.is_null()) out.push_back(x);
  return out;
}
// np.sort of the script's C_SORTED list: R+Rj, then R+nanj, nan+Rj, nan+nanj.
ndarray c_sorted(dtype type = complex128) {
  return C({{-1, 5}, {1, 1}, {1, 2}, {2, 0}, {1, nan}, {nan, 0}, {nan, nan}}, type);
}

const std::map<std::string, std::function<results()>>& cases() {
  static const std::map<std::string, std::function<results()>> table = {
      // searchsorted
      {"ss_left", [] { return one(searchsorted(ar({10}) * 2, I({-1, 0, 3, 18, 19, 40}))); }},
      {"ss_right_dups",
       [] { return one(searchsorted(I({1, 2, 2, 2, 3}), I({2, 0, 5, 1}), {.side = search_side::right})); }},
      {"ss_left_dups", [] { return one(searchsorted(I({1, 2, 2, 2, 3}), I({2, 0, 5, 1}))); }},
      {"ss_f4_nan",
       [] { return one(searchsorted(F({-inf, 1, 2, inf, nan, nan}, float32), F({nan, 1.5, -inf, inf, 2}, float32))); }},
      {"ss_f4_nan_right",
       [] {
         return one(searchsorted(F({-inf, 1, 2, inf, nan, nan}, float32), F({nan, 1.5, -inf, inf, 2}, float32),
                                 {.side = search_side::right}));
       }},
      {"ss_f2", [] { return one(searchsorted(F({0.5, 1, 1, 2.25, 1000}, float16), F({1, 0, 3, 2000, 2.25}, float16))); }},
      {"ss_f8_negzero",
       [] { return one(searchsorted(F({-1, -0.0, 0.0, 1}), F({0.0, -0.0}), {.side = search_side::right})); }},
      {"ss_c16", [] { return one(searchsorted(c_sorted(), C({{1, 1.5}, {nan, 1}, {1, nan}, {0, 0}, {3, 0}}))); }},
      {"ss_c8_right",
       [] {
         return one(searchsorted(c_sorted(complex64), C({{1, 1}, {2, 0}, {nan, nan}}, complex64),
                                 {.side = search_side::right}));
       }},
      {"ss_bool", [] { return one(searchsorted(I({0, 0, 1, 1}, bool_), I({1, 0}, bool_))); }},
      {"ss_u1_i2", [] { return one(searchsorted(I({1, 5, 200, 250}, uint8), I({-5, 5, 300}, int16))); }},
      {"ss_i8_f8", [] { return one(searchsorted(I({1, 5, 9}), F({4.5, 5.0, 9.5}))); }},
      {"ss_u8",
       [] {
         return one(searchsorted(U({0, 1ull << 63, ~0ull - 1}), U({(1ull << 63) + 1, 1, ~0ull})));
       }},
      {"ss_i1",
       [] { return one(searchsorted(I({-128, -1, 0, 127}, int8), I({-1, 100, -128}, int8), {.side = search_side::right})); }},
      {"ss_sorter", [] { return one(searchsorted(I({30, 10, 20}), I({20, 0, 35}), {.sorter = I({1, 2, 0})})); }},
      {"ss_sorter_right_i4",
       [] {
         return one(searchsorted(I({30, 10, 20}), I({20, 10}), {.side = search_side::right, .sorter = I({1, 2, 0}, int32)}));
       }},
      {"ss_0d_v", [] { return one(searchsorted(ar({5}), I0(3))); }},
      {"ss_empty_a", [] { return one(searchsorted(I({}), I({1, 2}))); }},
      {"ss_empty_v", [] { return one(searchsorted(ar({5}), I({}))); }},
      {"ss_2d_v", [] { return one(searchsorted(ar({5}), I({1, 2, 3, 9}, int64, {2, 2}), {.side = search_side::right})); }},
      {"ss_strided",
       [] {
         return one(searchsorted(ar({12}, float64)(slice(std::nullopt, std::nullopt, 3)),
                                 ar({6}, float64)(slice(std::nullopt, std::nullopt, -1))));
       }},
      // digitize
      {"dig_inc", [] { return one(digitize(F({0.2, 6.4, 3.0, 1.6, -1, 10}), F({0, 1, 2.5, 4, 10}))); }},
      {"dig_inc_right", [] { return one(digitize(F({0.2, 6.4, 3.0, 1.6, -1, 10, 0}), F({0, 1, 2.5, 4, 10}), true)); }},
      {"dig_dec", [] { return one(digitize(F({0.2, 6.4, 3.0, 1.6, -1, 10}), F({10, 4, 2.5, 1, 0}))); }},
      {"dig_dec_right", [] { return one(digitize(F({0.2, 6.4, 3.0, 1.6, -1, 10, 0}), F({10, 4, 2.5, 1, 0}), true)); }},
      {"dig_int", [] { return one(digitize(ar({10}, int32), I({2, 4, 4, 7}, int16))); }},
      {"dig_nan", [] { return one(digitize(F({nan, 1, 3}, float32), F({0, 2, 4}, float32))); }},
      {"dig_empty_bins", [] { return one(digitize(F({1, 2}), F({}))); }},
      {"dig_2d_x", [] { return one(digitize(ar({2, 3}, float64), F({1, 3}))); }},
      {"dig_const_bins", [] { return one(digitize(I({1, 2, 3}), I({2, 2, 2}))); }},
      // bincount
      {"bc_basic", [] { return one(bincount(I({0, 1, 1, 3, 2, 1, 7}))); }},
      {"bc_minlength", [] { return one(bincount(I({0, 1, 1, 3}), {.minlength = 10})); }},
      {"bc_minlength_short", [] { return one(bincount(I({0, 9, 1}), {.minlength = 3})); }},
      {"bc_weights",
       [] { return one(bincount(I({0, 1, 1, 2, 2, 2}), {.weights = F({0.3, 0.5, 0.2, 0.7, 1.0, -0.6})})); }},
      {"bc_weights_i4", [] { return one(bincount(I({2, 0, 2}), {.weights = I({5, 6, 7}, int32)})); }},
      {"bc_weights_f4", [] { return one(bincount(I({1, 1}), {.weights = F({0.25, 0.5}, float32)})); }},
      {"bc_bool", [] { return one(bincount(I({1, 0, 1}, bool_))); }},
      {"bc_u1", [] { return one(bincount(I({255, 0, 255}, uint8))); }},
      {"bc_i1", [] { return one(bincount(I({3, 3, 0}, int8))); }},
      {"bc_u4", [] { return one(bincount(I({4, 1}, uint32))); }},
      {"bc_empty", [] { return one(bincount(I({}))); }},
      {"bc_empty_minlength", [] { return one(bincount(I({}), {.minlength = 4})); }},
      {"bc_empty_weights", [] { return one(bincount(I({}), {.weights = F({})})); }},
      {"bc_big", [] { return one(bincount(ar({100000}) % 1000)); }},
      // histogram
      {"hist_default", [] { return two(histogram(F({1, 2, 1, 4, 3.5, 0, 10, 2.5}))); }},
      {"hist_bins5_range",
       [] { return two(histogram(F({1, 2, 1, 4, 3.5, 0, 10, 2.5}), 5, {.range = std::pair{0.0, 5.0}})); }},
      {"hist_int", [] { return two(histogram(ar({20}, int32), 4)); }},
      {"hist_i8_3", [] { return two(histogram(ar({10}), 3)); }},
      {"hist_u1_const", [] { return two(histogram(I({5, 5, 5}, uint8))); }},
      {"hist_f4", [] { return two(histogram(F({0.1, 0.7, 0.3, 0.9, 0.5, 0.2, 0.6}, float32), 7)); }},
      {"hist_f4_const", [] { return two(histogram(F({2.5, 2.5}, float32), 2)); }},
      {"hist_f2", [] { return two(histogram(F({0.1, 0.7, 0.3, 0.9, 0.5}, float16), 3)); }},
      {"hist_f2_range",
       [] { return two(histogram(F({0.1, 0.7, 0.3, 0.9, 0.5}, float16), 4, {.range = std::pair{0.0, 1.0}})); }},
      {"hist_edges", [] { return two(histogram(F({0, 1, 1.5, 2, 3, 3, 4, 5, -1}), F({0, 1, 2, 3}))); }},
      {"hist_edges_int", [] { return two(histogram(I({0, 1, 2, 2, 5, 9}), I({0, 2, 2, 5, 9}))); }},
      {"hist_edges_f4_data_f8_edges", [] { return two(histogram(F({0.5, 1.5, 2.5}, float32), F({0, 1, 2, 3}))); }},
      {"hist_weights", [] { return two(histogram(F({1, 2, 2, 3}), 3, {.weights = F({0.5, 1, 2, 4})})); }},
      {"hist_weights_i8", [] { return two(histogram(F({1, 2, 2, 3}), 3, {.weights = I({1, 2, 3, 4})})); }},
      {"hist_weights_f4", [] { return two(histogram(F({1, 2, 2, 3}), 2, {.weights = F({0.5, 1, 2, 4}, float32)})); }},
      {"hist_weights_c16",
       [] { return two(histogram(F({1, 2, 2, 3}), 2, {.weights = C({{1, 1}, {2, 0}, {0, 3}, {4, 0}})})); }},
      {"hist_weights_edges",
       [] { return two(histogram(F({1, 2, 2, 3}), F({1, 2.5, 3}), {.weights = F({0.5, 1, 2, 4})})); }},
      {"hist_density", [] { return two(histogram(F({1, 2, 2, 3, 7}), 4, {.density = true})); }},
      {"hist_density_edges", [] { return two(histogram(F({1, 2, 2, 3, 7}), F({0, 1, 5, 10}), {.density = true})); }},
      {"hist_nan_range", [] { return two(histogram(F({nan, 1, 2, nan, 3}), 2, {.range = std::pair{0.0, 4.0}})); }},
      {"hist_outside", [] { return two(histogram(ar({10}, float64), 3, {.range = std::pair{2.5, 6.0}})); }},
      {"hist_range_equal", [] { return two(histogram(F({1, 2, 3}), 2, {.range = std::pair{2.0, 2.0}})); }},
      {"hist_empty", [] { return two(histogram(F({}), 3)); }},
      {"hist_empty_int", [] { return two(histogram(I({}), 2)); }},
      {"hist_bool", [] { return two(histogram(I({1, 0, 1}, bool_), 2)); }},
      {"hist_2d", [] { return two(histogram(ar({3, 4}, float64), 3)); }},
      {"hist_big", [] { return two(histogram(sin(ar({100000}, float64)), 37)); }},
      // unique
      {"uq_basic", [] { return one(unique(I({3, 1, 2, 3, 1}))); }},
      {"uq_all_i4",
       [] {
         return of(unique(I({3, 1, 2, 3, 1, 3}, int32),
                          {.return_index = true, .return_inverse = true, .return_counts = true}));
       }},
      {"uq_index", [] { return of(unique(I({5, 5, 4, 4, 5, 1}), {.return_index = true})); }},
      {"uq_counts_u2", [] { return of(unique(I({7, 7, 0, 65535, 7}, uint16), {.return_counts = true})); }},
      {"uq_nan", [] { return one(unique(F({nan, 1, nan, 2, 1}))); }},
      {"uq_nan_noeq", [] { return of(unique(F({nan, 1, nan, 2, 1}), {.equal_nan = false})); }},
      {"uq_nan_flags",
       [] {
         return of(unique(F({nan, 1, nan, 2, 1, nan}, float32),
                          {.return_index = true, .return_inverse = true, .return_counts = true}));
       }},
      {"uq_nan_flags_noeq",
       [] {
         return of(unique(F({nan, 1, nan, 2, 1}, float32), {.return_index = true, .return_counts = true, .equal_nan = false}));
       }},
      {"uq_nan_first", [] { return of(unique(F({nan, nan, nan}), {.return_counts = true})); }},
      {"uq_c8",
       [] {
         return of(unique(C({{1, 1}, {nan, 1}, {1, 1}, {1, nan}, {0, 0}, {1, 0}}, complex64), {.return_counts = true}));
       }},
      {"uq_c16_noeq", [] { return of(unique(C({{nan, 1}, {0, 2}, {1, nan}, {0, 2}}), {.equal_nan = false})); }},
      {"uq_bool", [] { return of(unique(I({1, 0, 1, 1}, bool_), {.return_counts = true})); }},
      {"uq_f2", [] { return of(unique(F({1.5, -2, 1.5, 65504, -2}, float16), {.return_index = true})); }},
      {"uq_u1", [] { return one(unique(I({200, 3, 200, 0}, uint8))); }},
      {"uq_i1", [] { return of(unique(I({-5, 3, -5, 0}, int8), {.return_counts = true})); }},
      {"uq_u8", [] { return of(unique(U({~0ull, 3, ~0ull, 0}), {.return_index = true})); }},
      {"uq_negzero", [] { return of(unique(F({0.0, -0.0, 1.0, 0.0}), {.return_index = true})); }},
      {"uq_2d", [] { return of(unique(ar({3, 4}) % 5, {.return_inverse = true})); }},
      {"uq_0d", [] { return of(unique(I0(5), {.return_inverse = true})); }},
      {"uq_empty",
       [] { return of(unique(I({}), {.return_index = true, .return_inverse = true, .return_counts = true})); }},
      {"uq_big",
       [] {
         return of(unique((ar({100000}) * 7919) % 1009,
                          {.return_index = true, .return_inverse = true, .return_counts = true}));
       }},
      // unique along an axis
      {"uqa_rows", [] { return one(unique(I({1, 0, 0, 1, 0, 0, 2, 3, 4}, int64, {3, 3}), {.axis = 0}).values); }},
      {"uqa_all_i4",
       [] {
         return of(unique(I({3, 1, 1, 2, 3, 1, 0, 5, 1, 2}, int32, {5, 2}),
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_cols",
       [] { return of(unique(I({1, 0, 1, 2, 3, 4, 3, 5}, int64, {2, 4}), {.return_counts = true, .axis = 1})); }},
      {"uqa_3d_axis1",
       [] {
         return of(unique(floor_divide((ar({2, 5, 3}) * 7) % 4, 2),
                          {.return_index = true, .return_inverse = true, .axis = 1}));
       }},
      {"uqa_3d_neg",
       [] { return of(unique(floor_divide(ar({3, 2, 4}), 3) % 2, {.return_counts = true, .axis = -1})); }},
      {"uqa_3d_axis0",
       [] {
         return of(unique(I({0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 4}, int64, {3, 2, 2}), {.return_inverse = true, .axis = 0}));
       }},
      {"uqa_1d",
       [] {
         return of(unique(I({3, 1, 3, 2}),
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_f8_nan",
       [] {
         return of(unique(F({nan, 1, nan, 1, 1, 2, 0, nan, 1, 2}).reshape({5, 2}),
                          {.return_index = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_f8_nan_noeq",
       [] { return one(unique(F({nan, 1, nan, 1, 1, 2}).reshape({3, 2}), {.axis = 0, .equal_nan = false}).values); }},
      {"uqa_f8_inf",
       [] {
         return of(unique(F({inf, -inf, 1, -inf, inf, -inf, -inf, 0}).reshape({4, 2}), {.return_inverse = true, .axis = 0}));
       }},
      {"uqa_negzero",
       [] {
         return of(unique(F({0.0, 1, -0.0, 1, -0.0, 0, 0.0, 0}).reshape({4, 2}),
                          {.return_index = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_f4",
       [] {
         return of(unique(F({2.5, -1, 2.5, -1, 0.5, 7, -3, 0.25}, float32).reshape({4, 2}),
                          {.return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_f4_axis1",
       [] {
         return of(unique(F({2.5, 2.5, -1, nan, nan, 3, 3, 1, 1, 1}, float32).reshape({2, 5}),
                          {.return_counts = true, .axis = 1}));
       }},
      {"uqa_f2",
       [] {
         return of(unique(F({1.5, -2, 65504, 1.5, -2, 65504, 0.5, 0.5, 0.5}, float16).reshape({3, 3}),
                          {.return_index = true, .axis = 0}));
       }},
      {"uqa_c16",
       [] {
         return of(unique(C({{1, 1}, {2, 0}, {1, nan}, {0, 0}, {1, 1}, {2, 0}, {nan, 0}, {1, 0}, {1, 1}, {1, 0}}).reshape({5, 2}),
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_c8_axis1",
       [] {
         return of(unique(C({{0, 1}, {2, 0}, {0, 1}, {2, 0}, {3, 0}, {2, 0}, {3, 0}, {2, 0}}, complex64).reshape({2, 4}),
                          {.return_counts = true, .axis = 1}));
       }},
      {"uqa_bool",
       [] {
         return of(unique(I({1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0}, bool_, {4, 3}),
                          {.return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_u1",
       [] { return of(unique(I({200, 3, 0, 255, 200, 3, 0, 0}, uint8, {4, 2}), {.return_counts = true, .axis = 0})); }},
      {"uqa_i1",
       [] { return of(unique(I({-5, 3, 127, -128, -5, 3, -5, -3}, int8, {4, 2}), {.return_index = true, .axis = 0})); }},
      {"uqa_i2_axis1",
       [] { return of(unique(I({-300, 7, -300, 7, 5, 5, 5, 4}, int16, {2, 4}), {.return_inverse = true, .axis = 1})); }},
      {"uqa_u2",
       [] { return of(unique(I({65535, 0, 65535, 0, 1, 1}, uint16, {3, 2}), {.return_counts = true, .axis = 0})); }},
      {"uqa_u4", [] { return one(unique(I({4000000000, 1, 2, 3, 4000000000, 1}, uint32, {3, 2}), {.axis = 0}).values); }},
      {"uqa_u8",
       [] {
         return of(unique(U({~0ull, 3, 1ull << 63, 3, ~0ull, 3, 0, 0}).reshape({4, 2}),
                          {.return_index = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_strided",
       [] {
         const ndarray a = (ar({6, 8}) % 3)(slice(std::nullopt, std::nullopt, -1), slice(std::nullopt, std::nullopt, 2));
         return of(unique(a, {.return_index = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_transposed", [] { return of(unique((ar({4, 3}) % 2).T(), {.return_inverse = true, .axis = 1})); }},
      {"uqa_empty_axis",
       [] {
         return of(unique(F({}).reshape({0, 3}),
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_zero_width",
       [] {
         return of(unique(I({}, int8).reshape({3, 0}),
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uqa_zero_width_axis1",
       [] {
         return of(unique(I({}, int8).reshape({2, 0}),
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 1}));
       }},
      {"uqa_zeros_3d", [] { return one(unique(F({}).reshape({0, 2, 0}), {.axis = 1}).values); }},
      {"uqa_big",
       [] {
         return of(unique((ar({3000, 3}) * 7919) % 5,
                          {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0}));
       }},
      {"uq_values", [] { return one(unique_values(F({nan, 2, nan, 1, 2}))); }},
      {"uq_counts_api",
       [] {
         const auto r = unique_counts(F({nan, 2, nan, 1, 2}));
         return results{r.values, r.counts};
       }},
      {"uq_inverse_api",
       [] {
         const auto r = unique_inverse(ar({2, 3}) % 2);
         return results{r.values, r.inverse_indices};
       }},
      {"uq_all_api",
       [] {
         const auto r = unique_all(F({nan, 2, nan, 1, 2}, float32));
         return results{r.values, r.indices, r.inverse_indices, r.counts};
       }},
      // isin, in1d
      {"isin_basic", [] { return one(isin(ar({2, 3}), I({1, 4, 9}))); }},
      {"isin_invert", [] { return one(isin(ar({2, 3}), I({1, 4, 9}), {.invert = true})); }},
      {"isin_f8_nan", [] { return one(isin(F({nan, 1, 2, -0.0}), F({nan, 0.0, 2}))); }},
      {"isin_mixed", [] { return one(isin(I({1, 2, 3}, int32), F({2.0, 2.5}))); }},
      {"isin_c16", [] { return one(isin(C({{1, 1}, {2, 0}, {nan, 0}}), C({{2, 0}, {1, 1}, {nan, 0}}))); }},
      {"isin_empty_test", [] { return one(isin(ar({3}), I({}))); }},
      {"isin_empty_test_invert", [] { return one(isin(ar({3}), I({}), {.invert = true})); }},
      {"isin_empty_element", [] { return one(isin(I({}), ar({3}))); }},
      {"isin_0d", [] { return one(isin(I0(4), I({4, 5}))); }},
      {"isin_bool", [] { return one(isin(I({1, 0}, bool_), I({1}, bool_))); }},
      {"isin_2d_test", [] { return one(isin(ar({5}, float32), ar({2, 2}, float32) * 2)); }},
      {"isin_big", [] { return one(isin(ar({100000}) % 977, (ar({300}) * 13) % 977)); }},
      {"in1d_2d", [] { return one(in1d(ar({2, 3}), I({0, 5}))); }},
      // intersect1d
      {"ix_basic", [] { return one(intersect1d(I({1, 3, 4, 3}), I({3, 1, 2, 1}))); }},
      {"ix_indices",
       [] {
         const auto r = intersect1d_with_indices(I({1, 1, 2, 3, 4}), I({2, 1, 4, 6}));
         return results{r.values, r.indices1, r.indices2};
       }},
      {"ix_assume_unique", [] { return one(intersect1d(I({5, 1, 3}), I({3, 9, 5}), true)); }},
      {"ix_assume_unique_indices",
       [] {
         const auto r = intersect1d_with_indices(I({5, 1, 3}), I({3, 9, 5}), true);
         return results{r.values, r.indices1, r.indices2};
       }},
      {"ix_f4_nan", [] { return one(intersect1d(F({nan, 1, 2}, float32), F({nan, 2}, float32))); }},
      {"ix_mixed", [] { return one(intersect1d(I({1, 2, 3}, int8), F({2, 3.5, 1}, float32))); }},
      {"ix_empty", [] { return one(intersect1d(I({}), I({1, 2}))); }},
      {"ix_2d", [] { return one(intersect1d(ar({2, 3}), ar({3, 2}) + 3)); }},
      // union1d, setdiff1d, setxor1d
      {"union_basic", [] { return one(union1d(I({-1, 0, 1}), I({-2, 0, 2}))); }},
      {"union_nan", [] { return one(union1d(F({nan, 1}), F({nan, 2, 1}))); }},
      {"union_mixed", [] { return one(union1d(I({1, 2}, uint8), I({-1, 2}, int8))); }},
      {"union_2d", [] { return one(union1d(ar({2, 2}), I({7}))); }},
      {"setdiff_basic", [] { return one(setdiff1d(I({1, 2, 3, 2, 4, 1}), I({3, 4, 5, 6}))); }},
      {"setdiff_assume_unique", [] { return one(setdiff1d(I({9, 2, 5, 1}), I({5, 0}), true)); }},
      {"setdiff_nan", [] { return one(setdiff1d(F({nan, 1, 2}), F({nan, 1}))); }},
      {"setdiff_f2", [] { return one(setdiff1d(F({0.5, 1, 1.5}, float16), F({1}, float16))); }},
      {"setxor_basic", [] { return one(setxor1d(I({1, 2, 3, 2, 4}), I({2, 3, 5, 7, 5}))); }},
      {"setxor_nan", [] { return one(setxor1d(F({nan, 1}), F({nan}))); }},
      {"setxor_empty", [] { return one(setxor1d(I({}), I({}))); }},
      {"setxor_assume_unique", [] { return one(setxor1d(I({3, 1}), I({1, 2}), true)); }},
      {"setxor_c8", [] { return one(setxor1d(C({{0, 1}, {2, 0}}, complex64), C({{2, 0}, {3, 0}}, complex64))); }},
  };
  return table;
}

double tolerance(const dtype& t) {
  return test::tolerance_of(t, {.float16 = 1e-3, .bfloat16 = 1e-2, .float32 = 1e-6, .float64 = 1e-12});
}

TEST(SearchingGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  test::check_reference_set("searching", cases(), tolerance);
}

// ---------------------------------------------------------------------------------------------
// errors

TEST(SearchingGpu, Errors) {
  CUPP_REQUIRE_GPU();
  // A sorter index out of range is found by the kernel; the state is cleared for the next call.
  EXPECT_EQ(error_of<ValueError>([] { searchsorted(I({1, 2, 3}), I({2}), {.sorter = I({0, 5, 1})}); }),
            "Sorter index out of range.");
  EXPECT_THROW(searchsorted(I({1, 2, 3}), I({2}), {.sorter = I({0, -1, 1})}), ValueError);
  EXPECT_EQ(searchsorted(I({1, 2, 3}), I({2}), {.sorter = I({0, 1, 2})}).to_vector<std::int64_t>(), iv({1}));
  EXPECT_EQ(searchsorted(I({1, 2, 3}), I({2})).to_vector<std::int64_t>(), iv({1}));
  EXPECT_EQ(error_of<ValueError>([] { searchsorted(ar({2, 2}), I({1})); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([] { searchsorted(I0(1), I({1})); }), "object of too small depth for desired array");
  // digitize
  EXPECT_EQ(error_of<ValueError>([] { digitize(F({1, 2}), F({1, 3, 2})); }),
            "bins must be monotonically increasing or decreasing");
  EXPECT_EQ(error_of<TypeError>([] { digitize(C({{1, 0}}), F({1, 2})); }), "x may not be complex");
  // bincount
  EXPECT_EQ(error_of<ValueError>([] { bincount(I({1, -2, 3})); }), "'list' argument must have no negative elements");
  EXPECT_EQ(error_of<ValueError>([] { bincount(I({-1}, int8)); }), "'list' argument must have no negative elements");
  EXPECT_EQ(error_of<TypeError>([] { bincount(F({1.0})); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'");
  EXPECT_EQ(bincount(U({1})).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1}));  // NumPy 2: same_kind
  // histogram
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, nan})); }), "autodetected range of [nan, nan] is not finite");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, inf})); }), "autodetected range of [1.0, inf] is not finite");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), F({0, 2, 1})); }),
            "`bins` must increase monotonically, when an array");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), 0); }), "`bins` must be positive, when an integer");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), 3, {.range = std::pair{1.0, 0.0}}); }),
            "max must be larger than min in range parameter.");
  EXPECT_EQ(error_of<ValueError>([] { histogram(F({1, 2}), 3, {.weights = F({1})}); }),
            "weights should have the same shape as a.");
  EXPECT_EQ(error_of<ValueError>([] { parse_search_side("up"); }), "search side must be 'left' or 'right' (got 'up')");
}

// ---------------------------------------------------------------------------------------------
// every dtype against the host

const dtype every_dtype[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                             uint64, float16, bfloat16, float32, float64, complex64, complex128};

// NumPy's sort order on complex doubles (real values have imag 0: NaN last).
bool host_lt(cd a, cd b) {
  auto n = [](double x) { return x != x; };
  if (a.real() < b.real()) return !n(a.imag()) || n(b.imag());
  if (a.real() > b.real()) return n(b.imag()) && !n(a.imag());
  if (a.real() == b.real() || (n(a.real()) && n(b.real()))) return a.imag() < b.imag() || (n(b.imag()) && !n(a.imag()));
  return n(b.real());
}
bool host_nan(cd a) { return std::isnan(a.real()) || std::isnan(a.imag()); }
bool same(cd a, cd b) {
  auto eq = [](double x, double y) { return (std::isnan(x) && std::isnan(y)) || x == y; };
  return eq(a.real(), b.real()) && eq(a.imag(), b.imag());
}

// Values that survive the cast to `t` exactly: small integers (0/1 for bool, non-negative for
// unsigned), NaN placed first, in the middle and last for inexact dtypes (complex: NaN in either
// part).
cv values_for(dtype t, std::size_t n, std::uint32_t seed, bool with_nan) {
  std::mt19937 rng(seed);
  const bool uns = t.kind() == 'u' || t.is_bool();
  std::uniform_int_distribution<int> d(uns ? 0 : -20, 20);
  cv v(n);
  for (auto& x : v) {
    double re = t.is_bool() ? d(rng) % 2 : d(rng);
    double im = t.is_complex() ? d(rng) % 3 : 0.0;
    x = {re, im};
  }
  if (with_nan && t.is_inexact() && n >= 3) {
    v.front() = {nan, 0};
    v[n / 2] = t.is_complex() ? cd(1, nan) : cd(nan, 0);
    v.back() = t.is_complex() ? cd(nan, 2) : cd(nan, 0);
  }
  return v;
}
ndarray device_of(const cv& v, dtype t) { return astype(asarray(v), t); }
std::vector<cd> host_of(const ndarray& a) { return test::complex_values(a.get()); }

TEST(SearchingGpu, SearchsortedEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    SCOPED_TRACE(t.name());
    cv a = values_for(t, 301, 7, true);
    std::stable_sort(a.begin(), a.end(), host_lt);
    const cv keys = values_for(t, 257, 11, true);
    const ndarray da = device_of(a, t), dk = device_of(keys, t);
    for (search_side side : {search_side::left, search_side::right}) {
      const auto got = searchsorted(da, dk, {.side = side}).to_vector<std::int64_t>();
      ASSERT_EQ(got.size(), keys.size());
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::int64_t want =
            side == search_side::left
                ? std::lower_bound(a.begin(), a.end(), keys[i], host_lt) - a.begin()
                : std::upper_bound(a.begin(), a.end(), keys[i], host_lt) - a.begin();
        ASSERT_EQ(got[i], want) << "key " << keys[i] << (side == search_side::left ? " left" : " right");
      }
    }
    // With a sorter: the unsorted values and their stable order.
    const cv raw = values_for(t, 101, 5, true);
    std::vector<std::int64_t> order(raw.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<std::int64_t>(i);
    std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return host_lt(raw[x], raw[y]); });
    cv sorted_raw;
    for (auto k : order) sorted_raw.push_back(raw[k]);
    const auto got = searchsorted(device_of(raw, t), dk, {.sorter = asarray(order)}).to_vector<std::int64_t>();
    for (std::size_t i = 0; i < keys.size(); ++i)
      ASSERT_EQ(got[i], std::lower_bound(sorted_raw.begin(), sorted_raw.end(), keys[i], host_lt) - sorted_raw.begin());
  }
}

struct host_unique {
  cv values;
  iv index, inverse, counts;
};
host_unique unique_on_host(const cv& x, bool equal_nan) {
  std::vector<std::int64_t> perm(x.size());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(i);
  std::stable_sort(perm.begin(), perm.end(), [&](auto a, auto b) { return host_lt(x[a], x[b]); });
  host_unique r;
  r.inverse.resize(x.size());
  for (std::size_t i = 0; i < perm.size(); ++i) {
    const cd v = x[perm[i]];
    bool fresh = i == 0;
    if (i > 0) {
      const cd p = x[perm[i - 1]];
      fresh = equal_nan && host_nan(v) ? !host_nan(p) : !(v == p);
    }
    if (fresh) {
      r.values.push_back(v);
      r.index.push_back(perm[i]);
      r.counts.push_back(0);
    }
    ++r.counts.back();
    r.inverse[perm[i]] = static_cast<std::int64_t>(r.values.size()) - 1;
  }
  return r;
}

TEST(SearchingGpu, UniqueEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    for (bool equal_nan : {true, false}) {
      SCOPED_TRACE(t.name() + (equal_nan ? " equal_nan" : " nan distinct"));
      const cv x = values_for(t, 513, 3, true);
      const host_unique want = unique_on_host(x, equal_nan);
      const unique_result got = unique(device_of(x, t), {.return_index = true,
                                                         .return_inverse = true,
                                                         .return_counts = true,
                                                         .equal_nan = equal_nan});
      ASSERT_EQ(got.values.dtype(), t);
      const cv v = host_of(got.values);
      ASSERT_EQ(v.size(), want.values.size());
      for (std::size_t i = 0; i < v.size(); ++i) ASSERT_TRUE(same(v[i], want.values[i])) << i << ": " << v[i];
      EXPECT_EQ(got.index.to_vector<std::int64_t>(), want.index);
      EXPECT_EQ(got.inverse.to_vector<std::int64_t>(), want.inverse);
      EXPECT_EQ(got.counts.to_vector<std::int64_t>(), want.counts);
      // The plain form agrees with the values.
      const cv plain = host_of(unique(device_of(x, t), {.equal_nan = equal_nan}).values);
      ASSERT_EQ(plain.size(), v.size());
      for (std::size_t i = 0; i < v.size(); ++i) ASSERT_TRUE(same(plain[i], v[i]));
    }
  }
}

TEST(SearchingGpu, IsinAndSetsEveryDtypeAgainstHost) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    SCOPED_TRACE(t.name());
    const cv x = values_for(t, 200, 21, true), y = values_for(t, 37, 22, true);
    const ndarray dx = device_of(x, t), dy = device_of(y, t);
    for (bool invert : {false, true}) {
      const auto got = isin(dx, dy, {.invert = invert}).to_vector<bool>();
      for (std::size_t i = 0; i < x.size(); ++i) {
        const bool found = std::any_of(y.begin(), y.end(), [&](cd v) { return v == x[i]; });
        ASSERT_EQ(got[i], found != invert) << x[i];
      }
    }
    // intersect1d / setdiff1d / union1d / setxor1d against the host's sorted unique sets.
    const host_unique ux = unique_on_host(x, true), uy = unique_on_host(y, true);
    auto in = [](const cv& s, cd v) { return std::any_of(s.begin(), s.end(), [&](cd w) { return w == v; }); };
    cv inter, diff, xo;
    for (cd v : ux.values) {
      if (in(uy.values, v)) inter.push_back(v);
      else diff.push_back(v);
      if (!in(uy.values, v)) xo.push_back(v);
    }
    for (cd v : uy.values)
      if (!in(ux.values, v)) xo.push_back(v);
    std::stable_sort(xo.begin(), xo.end(), host_lt);
    auto check = [](const ndarray& got, const cv& want, const char* what) {
      const cv g = host_of(got);
      ASSERT_EQ(g.size(), want.size()) << what;
      for (std::size_t i = 0; i < g.size(); ++i) ASSERT_TRUE(same(g[i], want[i])) << what << " " << i << ": " << g[i];
    };
    check(intersect1d(dx, dy), inter, "intersect1d");
    check(setdiff1d(dx, dy), diff, "setdiff1d");
    check(setxor1d(dx, dy), xo, "setxor1d");
    cv both = x;
    both.insert(both.end(), y.begin(), y.end());
    check(union1d(dx, dy), unique_on_host(both, true).values, "union1d");
    // intersect1d's indices: first occurrences.
    const auto r = intersect1d_with_indices(dx, dy);
    const auto i1 = r.indices1.to_vector<std::int64_t>(), i2 = r.indices2.to_vector<std::int64_t>();
    ASSERT_EQ(i1.size(), inter.size());
    for (std::size_t k = 0; k < inter.size(); ++k) {
      EXPECT_EQ(i1[k], std::find(x.begin(), x.end(), inter[k]) - x.begin());
      EXPECT_EQ(i2[k], std::find(y.begin(), y.end(), inter[k]) - y.begin());
    }
  }
}

TEST(SearchingGpu, DigitizeAndHistogramEveryRealDtype) {
  CUPP_REQUIRE_GPU();
  for (dtype t : every_dtype) {
    if (t.is_complex()) continue;
    SCOPED_TRACE(t.name());
    const cv x = values_for(t, 300, 31, false);
    const ndarray dx = device_of(x, t);
    // digitize with increasing and decreasing int bins.
    const dv inc = {0, 2, 5, 9}, dec = {9, 5, 2, 0};
    for (bool right : {false, true}) {
      const auto gi = digitize(dx, F(inc), right).to_vector<std::int64_t>();
      const auto gd = digitize(dx, F(dec), right).to_vector<std::int64_t>();
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x[i].real();
        std::int64_t wi = 0, wd = 0;
        for (double b : inc) wi += right ? (b < v) : (b <= v);
        for (double b : dec) wd += right ? (b >= v) : (b > v);
        ASSERT_EQ(gi[i], wi) << v;
        ASSERT_EQ(gd[i], wd) << v;
      }
    }
    // histogram with integer edges: exact counts.
    const auto h = histogram(dx, F({-20, -5, 0, 0.5, 7, 20}));
    const auto counts = h.hist.to_vector<std::int64_t>();
    const dv e = {-20, -5, 0, 0.5, 7, 20};
    for (std::size_t b = 0; b + 1 < e.size(); ++b) {
      std::int64_t want = 0;
      for (cd v : x) want += v.real() >= e[b] && (v.real() < e[b + 1] || (b + 2 == e.size() && v.real() == e[b + 1]));
      EXPECT_EQ(counts[b], want) << "bin " << b;
    }
    // histogram with equal bins: the counts sum to the size (no NaN here), edges of NumPy's dtype.
    const auto hu = histogram(dx, 7);
    EXPECT_EQ(hu.bin_edges.dtype(), detail::histogram_bin_dtype(t.is_bool() ? dtype(uint8) : t));
    EXPECT_EQ(sum(hu.hist).item<std::int64_t>(), static_cast<std::int64_t>(x.size()));
  }
}

// ---------------------------------------------------------------------------------------------
// large random inputs against the host

TEST(SearchingGpu, LargeRandomAgainstHost) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(42);
  // searchsorted: 2^20 float64 queries into 100003 sorted values.
  {
    std::uniform_real_distribution<double> u(-1000, 1000);
    dv a(100003), v(1 << 20);
    for (auto& x : a) x = std::round(u(rng) * 4) / 4;
    for (auto& x : v) x = std::round(u(rng) * 8) / 8;
    std::sort(a.begin(), a.end());
    const auto got = searchsorted(F(a), F(v), {.side = search_side::right}).to_vector<std::int64_t>();
    for (std::size_t i = 0; i < v.size(); ++i)
      ASSERT_EQ(got[i], std::upper_bound(a.begin(), a.end(), v[i]) - a.begin()) << i;
  }
  // bincount: 2^22 int32 values in [0, 4099), with and without weights.
  {
    std::uniform_int_distribution<std::int64_t> u(0, 4098);
    iv x(1 << 22);
    for (auto& k : x) k = u(rng);
    iv want(4099, 0);
    for (auto k : x) ++want[k];
    const ndarray dx = I(x, int32);
    EXPECT_EQ(bincount(dx).to_vector<std::int64_t>(), want);
    const auto ws = bincount(dx, {.weights = ones({static_cast<std::int64_t>(x.size())}, float32)}).to_vector<double>();
    for (std::size_t k = 0; k < want.size(); ++k) ASSERT_EQ(ws[k], static_cast<double>(want[k]));  // exact: integers
  }
  // histogram: 2^20 float32 normals into 64 bins; the host bins them by the returned edges.
  {
    std::normal_distribution<float> g(0, 1);
    std::vector<float> a(1 << 20);
    for (auto& x : a) x = g(rng);
    const auto h = histogram(asarray(a), 64);
    const auto edges = h.bin_edges.to_vector<float>();
    ASSERT_EQ(h.bin_edges.dtype(), float32);
    iv want(64, 0);
    for (float x : a) {
      std::int64_t j = std::upper_bound(edges.begin(), edges.end(), x) - edges.begin() - 1;
      if (j == 64 && x == edges.back()) j = 63;
      if (j >= 0 && j < 64) ++want[j];
    }
    EXPECT_EQ(h.hist.to_vector<std::int64_t>(), want);
    EXPECT_FLOAT_EQ(edges.front(), *std::min_element(a.begin(), a.end()));
    EXPECT_FLOAT_EQ(edges.back(), *std::max_element(a.begin(), a.end()));
  }
  // unique with every output: 2^20 int64 values in [0, 50000).
  {
    std::uniform_int_distribution<std::int64_t> u(0, 49999);
    cv x(1 << 20);
    for (auto& k : x) k = cd(static_cast<double>(u(rng)), 0);
    const host_unique want = unique_on_host(x, true);
    iv xi;
    for (cd v : x) xi.push_back(static_cast<std::int64_t>(v.real()));
    const unique_result got = unique(I(xi), {.return_index = true, .return_inverse = true, .return_counts = true});
    const auto vals = got.values.to_vector<std::int64_t>();
    ASSERT_EQ(vals.size(), want.values.size());
    for (std::size_t i = 0; i < vals.size(); ++i) ASSERT_EQ(vals[i], static_cast<std::int64_t>(want.values[i].real()));
    EXPECT_EQ(got.index.to_vector<std::int64_t>(), want.index);
    EXPECT_EQ(got.inverse.to_vector<std::int64_t>(), want.inverse);
    EXPECT_EQ(got.counts.to_vector<std::int64_t>(), want.counts);
  }
  // isin: 2^20 values against 1000 test values.
  {
    std::uniform_int_distribution<std::int64_t> u(0, 99999);
    iv x(1 << 20), t(1000);
    for (auto& k : x) k = u(rng);
    for (auto& k : t) k = u(rng);
    std::vector<std::int64_t> ts = t;
    std::sort(ts.begin(), ts.end());
    const auto got = isin(I(x), I(t)).to_vector<bool>();
    for (std::size_t i = 0; i < x.size(); ++i) ASSERT_EQ(got[i], std::binary_search(ts.begin(), ts.end(), x[i])) << i;
  }
}

}  // namespace
}  // namespace cupp
