// The array manipulation routines on the GPU (cupp/manipulation.hpp), what only C++ has: every
// dtype through concatenate/roll/tile/repeat, out= and overlap, large arrays, and the errors
// raised before any device work. The NumPy reference cases are make_manipulation_ref.py's
// EVAL_CASES (tests/gpu/test_eval_ref_gpu.cpp runs them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "array/convert.hpp"
#include "conformance.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/manipulation.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using test::error_of;

// The script's ar(shape, dtype): arange(size).reshape(shape).astype(dtype).
ndarray ar(std::initializer_list<std::int64_t> shape, dtype type = int64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return astype(arange(n).reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
constexpr double nan_v = std::numeric_limits<double>::quiet_NaN();
constexpr double inf_v = std::numeric_limits<double>::infinity();
using cd = std::complex<double>;

ndarray vals(std::vector<double> v, dtype type = float64) { return astype(asarray(v), type); }
ndarray cvals(std::vector<cd> v, dtype type = complex128) { return astype(asarray(v), type); }
ndarray cond23() { return asarray(std::vector<bool>{true, false, true, false, true, false}).reshape({2, 3}); }

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

// ---- pad, clip, where, round, nan_to_num, angle, trim_zeros, interp, convolve: what the
// reference set cannot hold (bfloat16, out=/where=/copy=, large arrays against host loops).

TEST(ManipulationGpu, MoreRoutinesOnBfloat16) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(vals({0, -1.5, 2, 0, 3.25, 0}), bfloat16);
  EXPECT_EQ(pad(a, 1, {.mode = "wrap"}).dtype(), bfloat16);
  EXPECT_EQ(as_doubles(pad(a, {2, 1}, {.mode = "reflect"})), std::vector<double>({2, -1.5, 0, -1.5, 2, 0, 3.25, 0, 3.25}));
  EXPECT_EQ(as_doubles(pad(a(slice(0, 2)), 1, {.constant_values = 7})), std::vector<double>({7, 0, -1.5, 7}));
  const ndarray c = clip(a, -1, 2.5);
  EXPECT_EQ(c.dtype(), bfloat16);  // weak scalars take the array's dtype
  EXPECT_EQ(as_doubles(c), std::vector<double>({0, -1, 2, 0, 2.5, 0}));
  EXPECT_EQ(where(a, a, 9).dtype(), bfloat16);
  EXPECT_EQ(as_doubles(where(a, a, 9)), std::vector<double>({9, -1.5, 2, 9, 3.25, 9}));
  EXPECT_EQ(as_doubles(round(a)), std::vector<double>({0, -2, 2, 0, 3, 0}));
  EXPECT_EQ(round(a, 1).dtype(), bfloat16);
  const ndarray special = astype(vals({nan_v, inf_v, -inf_v, 1}), bfloat16);
  const std::vector<double> fixed = as_doubles(nan_to_num(special));
  EXPECT_EQ(fixed[0], 0);
  EXPECT_EQ(fixed[1], 3.3895313892515355e38);
  EXPECT_EQ(fixed[2], -3.3895313892515355e38);
  EXPECT_EQ(as_doubles(trim_zeros(a)), std::vector<double>({-1.5, 2, 0, 3.25}));
  EXPECT_EQ(convolve(a, a).dtype(), bfloat16);
  EXPECT_EQ(as_doubles(convolve(astype(vals({1, 2, 3}), bfloat16), astype(vals({1, 1}), bfloat16))),
            std::vector<double>({1, 3, 5, 3}));
  EXPECT_EQ(angle(a).dtype(), bfloat16);
  EXPECT_EQ(interp(a, vals({-2, 4}), vals({0, 6})).dtype(), float64);
}

TEST(ManipulationGpu, ClipAndWhereOptions) {
  CUPP_REQUIRE_GPU();
  // out= and where= as a ufunc's.
  const ndarray out = full({5}, -7.0, float64);
  const ndarray mask = asarray(std::vector<bool>{true, false, true, false, true});
  const ndarray r = clip(ar({5}), 1, 3, {.out = out, .where = mask});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.to_vector<double>(), std::vector<double>({1, -7, 2, -7, 3}));
  EXPECT_THROW(clip(ar({5}, float64), 1, 3, {.out = zeros({5}, int8)}), TypeError);  // same_kind
  EXPECT_EQ(clip(ar({4}, int32), 1, 2, {.dtype = float32}).dtype(), float32);
  // One bound as a broadcast array, the other None.
  EXPECT_EQ(as_doubles(clip(ar({2, 3}), std::nullopt, vals({1, 5, 0}, int64))), std::vector<double>({0, 1, 0, 1, 4, 0}));
  // NaN bounds propagate; bounds beyond an integer dtype are no bounds.
  EXPECT_TRUE(std::isnan(as_doubles(clip(vals({1, 2}), nan_v, 3))[1]));
  EXPECT_EQ(clip(ar({3}, uint8), 0, 255).dtype(), uint8);
  EXPECT_THROW(clip(ar({3}, uint8), 300, 400), OverflowError);  // maximum(a, 300), as NumPy 2
  // where: a weak scalar is cast unsafely to the common dtype (NumPy's where: no OverflowError).
  const ndarray w = where(cond23(), ar({2, 3}, int8), 300);
  EXPECT_EQ(w.dtype(), int8);
  EXPECT_EQ(as_doubles(w), std::vector<double>({0, 44, 2, 44, 4, 44}));
  EXPECT_EQ(where(true, 1, 2).to_vector<std::int64_t>(), std::vector<std::int64_t>({1}));
  EXPECT_EQ(where(0.0, 1, 2.5).dtype(), float64);
  EXPECT_THROW(where(cond23(), ar({3, 2}), 1), ValueError);  // shapes do not broadcast
  // Inputs of another memory order give a like-ordered result (order='K').
  const ndarray ft = ar({3, 4}, float32).T();
  EXPECT_EQ(as_doubles(where(ft > 4.0f, ft, 0.0f)), as_doubles(where(ft.copy() > 4.0f, ft.copy(), 0.0f)));
}

TEST(ManipulationGpu, NanToNumInPlaceAndCopies) {
  CUPP_REQUIRE_GPU();
  const ndarray x = vals({nan_v, inf_v, -inf_v, 2});
  const ndarray same = nan_to_num(x, {.copy = false, .nan = 1.0});
  EXPECT_EQ(same.data(), x.data());
  EXPECT_EQ(x.to_vector<double>(), std::vector<double>({1, DBL_MAX, -DBL_MAX, 2}));
  const ndarray i = ar({3}, int16);
  EXPECT_NE(nan_to_num(i).data(), i.data());  // a copy
  EXPECT_EQ(nan_to_num(i).dtype(), int16);
  const ndarray c = cvals({cd(nan_v, inf_v), cd(-inf_v, nan_v)}, complex64);
  const std::vector<std::complex<float>> h = nan_to_num(c, {.nan = 3.0}).to_vector<std::complex<float>>();
  EXPECT_EQ(h[0], std::complex<float>(3.0f, FLT_MAX));
  EXPECT_EQ(h[1], std::complex<float>(-FLT_MAX, 3.0f));
  // A strided view in place.
  const ndarray y = vals({nan_v, nan_v, nan_v, nan_v});
  nan_to_num(y(slice(std::nullopt, std::nullopt, 2)), {.copy = false});
  const std::vector<double> hy = y.to_vector<double>();
  EXPECT_EQ(hy[0], 0);
  EXPECT_TRUE(std::isnan(hy[1]));
  EXPECT_EQ(hy[2], 0);
}

TEST(ManipulationGpu, PadLargeAgainstHostLoops) {
  CUPP_REQUIRE_GPU();
  const std::int64_t rows = 300, cols = 517;
  const ndarray a = ar({rows, cols}, int32);
  for (const char* mode : {"edge", "reflect", "symmetric", "wrap", "constant"}) {
    SCOPED_TRACE(mode);
    const std::int64_t b0 = 700, a0 = 3, b1 = 1, a1 = 1100;
    const ndarray p = pad(a, {{b0, a0}, {b1, a1}}, {.mode = mode});
    ASSERT_EQ(p.shape(0), rows + b0 + a0);
    ASSERT_EQ(p.shape(1), cols + b1 + a1);
    const std::vector<std::int32_t> h = p.to_vector<std::int32_t>();
    const std::string m = mode;
    auto src = [&](std::int64_t r, std::int64_t n) -> std::int64_t {
      auto mod = [](std::int64_t x, std::int64_t k) { return ((x % k) + k) % k; };
      if (r >= 0 && r < n) return r;
      if (m == "constant") return -1;
      if (m == "edge") return r < 0 ? 0 : n - 1;
      if (m == "wrap") return mod(r, n);
      if (m == "reflect") {
        const std::int64_t q = mod(r, 2 * (n - 1));
        return q < n ? q : 2 * (n - 1) - q;
      }
      const std::int64_t q = mod(r, 2 * n);
      return q < n ? q : 2 * n - 1 - q;
    };
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < p.shape(0); i += 7) {
      for (std::int64_t j = 0; j < p.shape(1); j += 3) {
        const std::int64_t si = src(i - b0, rows), sj = src(j - b1, cols);
        const std::int32_t want = si < 0 || sj < 0 ? 0 : static_cast<std::int32_t>(si * cols + sj);
        wrong += h[static_cast<std::size_t>(i * p.shape(1) + j)] != want;
      }
    }
    EXPECT_EQ(wrong, 0);
  }
}

TEST(ManipulationGpu, InterpAndConvolveLargeAgainstHostLoops) {
  CUPP_REQUIRE_GPU();
  std::vector<double> xp, fp, x;
  for (int k = 0; k < 5000; ++k) {
    xp.push_back(k * 0.5 + (k % 3) * 0.125);
    fp.push_back(std::sin(k * 0.01) * 100);
  }
  for (int k = 0; k < 200000; ++k) x.push_back(-10 + k * 0.0131);
  const std::vector<double> got = interp(asarray(x), asarray(xp), asarray(fp)).to_vector<double>();
  std::int64_t wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto it = std::upper_bound(xp.begin(), xp.end(), x[i]);
    const std::int64_t j = (it - xp.begin()) - 1;
    double want;
    if (j < 0) want = fp.front();
    else if (j >= static_cast<std::int64_t>(xp.size()) - 1) want = fp.back();
    else if (xp[j] == x[i]) want = fp[j];
    else {
      const double slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
      volatile double prod = slope * (x[i] - xp[j]);  // rounded on its own, as NumPy's
      want = prod + fp[j];
    }
    wrong += got[i] != want;
  }
  EXPECT_EQ(wrong, 0);
  // convolve: integer data, every sum exact.
  std::vector<std::int64_t> av, vv;
  for (int k = 0; k < 20000; ++k) av.push_back((k * 7919) % 13 - 6);
  for (int k = 0; k < 301; ++k) vv.push_back((k * 104729) % 11 - 5);
  for (const char* mode : {"full", "same", "valid"}) {
    SCOPED_TRACE(mode);
    const std::vector<double> c = as_doubles(convolve(astype(asarray(av), float64), astype(asarray(vv), float64), mode));
    const std::int64_t n = static_cast<std::int64_t>(av.size()), m = static_cast<std::int64_t>(vv.size());
    const std::int64_t left = std::string(mode) == "full" ? m - 1 : std::string(mode) == "same" ? m / 2 : 0;
    ASSERT_EQ(static_cast<std::int64_t>(c.size()), std::string(mode) == "full" ? n + m - 1 : std::string(mode) == "same" ? n : n - m + 1);
    std::int64_t bad = 0;
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(c.size()); k += 13) {
      std::int64_t sum = 0;
      for (std::int64_t j = 0; j < m; ++j) {
        const std::int64_t i = k - left + j;
        if (i >= 0 && i < n) sum += av[static_cast<std::size_t>(i)] * vv[static_cast<std::size_t>(m - 1 - j)];
      }
      bad += c[static_cast<std::size_t>(k)] != double(sum);
    }
    EXPECT_EQ(bad, 0);
  }
}

TEST(ManipulationGpu, MoreRoutinesErrorsAndEdges) {
  CUPP_REQUIRE_GPU();
  EXPECT_THROW(trim_zeros(ar({2, 3}), "fb", 5), AxisError);
  EXPECT_EQ(trim_zeros(ar({4}), "fb", 9).size(), 3);  // a 1-d filt ignores axis, as NumPy's
  EXPECT_THROW(pad(ar({2}), {{1, 1}, {1, 1}}), ValueError);
  EXPECT_THROW(pad(ar({2}), 1, {.mode = "median", .reflect_type = "odd"}), ValueError);
  EXPECT_THROW(round(ar({3}, bool_), 1), TypeError);  // multiply(bool, 10.0, out=bool)
  EXPECT_THROW(interp(ar({3}), zeros({0}), zeros({0})), ValueError);
  EXPECT_THROW(convolve(ar({3}), zeros({0})), ValueError);
  // Views: trim_zeros gives one.
  const ndarray z = vals({0, 5, 0});
  trim_zeros(z)(0) = 6.0;
  EXPECT_EQ(z.to_vector<double>(), std::vector<double>({0, 6, 0}));
  // Empty x / 0-d shapes survive.
  EXPECT_EQ(interp(zeros({2, 0}), vals({0, 1}), vals({0, 1})).ndim(), 2);
  EXPECT_EQ(clip(zeros({0}, int8), 1, 2).size(), 0);
  EXPECT_EQ(pad(zeros({0}, float32), {2, 3}).to_vector<float>(), std::vector<float>(5, 0.0f));
}


// ---- the segment copy kernel behind concatenate, roll, delete_ and insert
// (runtime/src/routines/manipulation/segment_copy.hpp): every same-dtype, byte-copyable input of a call is a
// segment of one launch. Values are raw byte patterns, compared element by element with a result
// built on the host; outputs given through out= are poisoned first, so bytes the kernel misses or
// writes outside its segments show.

using bytes_t = std::vector<unsigned char>;
using shape_v = std::vector<std::int64_t>;
constexpr unsigned char poison = 0xA5;

std::int64_t count_of(const shape_v& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}
// n elements of `type` as hashed bytes (bool: 0 or 1).
bytes_t pattern(const dtype& type, std::int64_t n, std::uint32_t seed) {
  bytes_t b(static_cast<std::size_t>(n) * type.itemsize());
  std::uint32_t x = seed * 2654435761u + 12345u;
  for (unsigned char& c : b) {
    x = x * 1664525u + 1013904223u;
    c = static_cast<unsigned char>(x >> 24);
    if (type == bool_) c &= 1;
  }
  return b;
}
ndarray upload(const bytes_t& b, const dtype& type, const shape_v& shape) {
  return asarray(b.data(), type, std::span<const std::int64_t>(shape));
}
bytes_t download(const ndarray& a) {
  const host_array h = a.get();
  const auto* p = reinterpret_cast<const unsigned char*>(h.data());
  return bytes_t(p, p + h.nbytes());
}
ndarray poisoned(const dtype& type, const shape_v& shape) {
  return upload(bytes_t(static_cast<std::size_t>(count_of(shape)) * type.itemsize(), poison), type, shape);
}
// NumPy's concatenate of C-ordered inputs (their bytes and shapes) along `axis` (nullopt: flattened).
bytes_t host_concatenate(const std::vector<bytes_t>& parts, const std::vector<shape_v>& shapes, std::optional<int> axis,
                         std::size_t itemsize) {
  bytes_t out;
  if (!axis) {
    for (const bytes_t& p : parts) out.insert(out.end(), p.begin(), p.end());
    return out;
  }
  const int nd = static_cast<int>(shapes[0].size());
  const int ax = *axis < 0 ? *axis + nd : *axis;
  std::int64_t outer = 1;
  for (int d = 0; d < ax; ++d) outer *= shapes[0][static_cast<std::size_t>(d)];
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::size_t k = 0; k < parts.size(); ++k) {
      const auto chunk = static_cast<std::size_t>(count_of(shapes[k]) / std::max<std::int64_t>(outer, 1)) * itemsize;
      const auto from = parts[k].begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(o) * chunk);
      out.insert(out.end(), from, from + static_cast<std::ptrdiff_t>(chunk));
    }
  }
  return out;
}
// got and want as `itemsize`-byte elements, compared one by one.
::testing::AssertionResult same_elements(const bytes_t& got, const bytes_t& want, std::size_t itemsize) {
  if (got.size() != want.size())
    return ::testing::AssertionFailure() << got.size() << " bytes, want " << want.size();
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < want.size() / itemsize; ++i) {
    if (std::memcmp(&got[i * itemsize], &want[i * itemsize], itemsize) != 0 && bad++ == 0) first = i;
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << want.size() / itemsize
                                       << " elements differ, the first at element " << first;
}

// Inputs of `type` and `shapes` (seeded), concatenated along `axis` into a fresh array and into a
// poisoned out=, both compared with the host's result.
void check_concatenate(const dtype& type, const std::vector<shape_v>& shapes, std::optional<int> axis,
                       std::uint32_t seed) {
  std::vector<bytes_t> parts;
  std::vector<ndarray> in;
  for (std::size_t k = 0; k < shapes.size(); ++k) {
    parts.push_back(pattern(type, count_of(shapes[k]), seed + static_cast<std::uint32_t>(k)));
    in.push_back(upload(parts.back(), type, shapes[k]));
  }
  const bytes_t want = host_concatenate(parts, shapes, axis, type.itemsize());
  const ndarray fresh = concatenate(in, {.axis = axis});
  ASSERT_EQ(fresh.dtype(), type);
  EXPECT_TRUE(same_elements(download(fresh), want, type.itemsize())) << "fresh output";
  const shape_v out_shape(fresh.shape().begin(), fresh.shape().end());
  const ndarray out = poisoned(type, out_shape);
  const ndarray r = concatenate(in, {.axis = axis, .out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_TRUE(same_elements(download(out), want, type.itemsize())) << "poisoned out=";
}

TEST(ManipulationGpu, ConcatenateSegmentKernelOddSizes) {
  CUPP_REQUIRE_GPU();
  const std::vector<shape_v> flat = {{1}, {3}, {1000003}, {17}, {5}, {262147}, {2}, {31}};
  {
    SCOPED_TRACE("axis=0");
    check_concatenate(float32, flat, 0, 11);
  }
  {
    SCOPED_TRACE("axis=None");
    check_concatenate(float32, {{1, 1}, {3, 1}, {1000003}, {17, 1}, {5}, {1, 262147}, {2, 1}, {31}}, std::nullopt, 21);
  }
  {
    SCOPED_TRACE("axis=0, with empty inputs");
    check_concatenate(float32, {{0}, {7}, {0}, {4096}, {0}}, 0, 31);
  }
}

TEST(ManipulationGpu, ConcatenateSegmentKernelMisalignedSlices) {
  CUPP_REQUIRE_GPU();
  // Slices of one array at odd float32 offsets (4-byte aligned, not 16): C-contiguous inputs
  // whose segments take narrower words.
  const std::int64_t n = 3000000;
  const bytes_t base_bytes = pattern(float32, n, 41);
  const ndarray base = upload(base_bytes, float32, {n});
  const std::pair<std::int64_t, std::int64_t> pieces[] = {{1, 1000001}, {1000003, 17},    {1000021, 500001},
                                                          {1500023, 3}, {1500031, 1},     {5, 8},
                                                          {7, 1000000}, {2999999, 1}};
  std::vector<ndarray> in;
  bytes_t want;
  for (const auto& [at, len] : pieces) {
    in.push_back(base(slice(at, at + len)));
    want.insert(want.end(), base_bytes.begin() + at * 4, base_bytes.begin() + (at + len) * 4);
  }
  const auto total = static_cast<std::int64_t>(want.size() / 4);
  EXPECT_TRUE(same_elements(download(concatenate(in)), want, 4));
  // Into a slice at an odd offset of a poisoned buffer: the bytes around it stay poison.
  const ndarray big = poisoned(float32, {total + 8});
  concatenate(in, {.out = big(slice(3, 3 + total))});
  const bytes_t got = download(big);
  bytes_t expect(3 * 4, poison);
  expect.insert(expect.end(), want.begin(), want.end());
  expect.insert(expect.end(), 5 * 4, poison);
  EXPECT_TRUE(same_elements(got, expect, 4));
  // Rows of a 2-d slice at an odd offset, along axis 1.
  const ndarray rows_a = base(slice(1, 1 + 301 * 13)).reshape({301, 13});
  const ndarray rows_b = base(slice(4001, 4001 + 301 * 6)).reshape({301, 6});
  const bytes_t pa(base_bytes.begin() + 4, base_bytes.begin() + (1 + 301 * 13) * 4);
  const bytes_t pb(base_bytes.begin() + 4001 * 4, base_bytes.begin() + (4001 + 301 * 6) * 4);
  const ndarray out = poisoned(float32, {301, 19});
  concatenate({rows_a, rows_b}, {.axis = 1, .out = out});
  EXPECT_TRUE(same_elements(download(out), host_concatenate({pa, pb}, {{301, 13}, {301, 6}}, 1, 4), 4));
}

TEST(ManipulationGpu, ConcatenateSegmentKernelRows) {
  CUPP_REQUIRE_GPU();
  {
    SCOPED_TRACE("axis=1, odd widths");
    check_concatenate(float32, {{1237, 1}, {1237, 3}, {1237, 7}, {1237, 130}, {1237, 1001}, {1237, 4}, {1237, 64},
                                {1237, 2}},
                      1, 51);
  }
  {
    SCOPED_TRACE("axis=1, 16-byte rows and pitch");
    check_concatenate(float32, {{513, 4}, {513, 8}, {513, 12}}, 1, 61);
  }
  {
    SCOPED_TRACE("axis=1, wide rows");
    check_concatenate(float32, {{301, 2048}, {301, 1024}, {301, 1}, {301, 4096}}, 1, 71);
  }
  {
    SCOPED_TRACE("axis=-1, 3-d");
    check_concatenate(float32, {{5, 7, 3}, {5, 7, 1}, {5, 7, 9}}, -1, 81);
  }
  {
    SCOPED_TRACE("axis=1, 3-d");
    check_concatenate(float32, {{6, 1, 5}, {6, 2, 5}, {6, 3, 5}}, 1, 91);
  }
  {
    SCOPED_TRACE("stack, axis=1");
    std::vector<bytes_t> parts;
    std::vector<ndarray> in;
    for (std::uint32_t k = 0; k < 5; ++k) {
      parts.push_back(pattern(float32, 77 * 9, 101 + k));
      in.push_back(upload(parts.back(), float32, {77, 9}));
    }
    const ndarray out = poisoned(float32, {77, 5, 9});
    stack(in, {.axis = 1, .out = out});
    EXPECT_TRUE(same_elements(download(out),
                              host_concatenate(parts, std::vector<shape_v>(5, shape_v{77, 1, 9}), 1, 4), 4));
  }
}

TEST(ManipulationGpu, ConcatenateSegmentKernelManyInputs) {
  CUPP_REQUIRE_GPU();
  // More inputs than one launch's table holds (several launches of one call).
  std::vector<shape_v> flat, rows;
  for (int i = 0; i < 100; ++i) {
    flat.push_back({(i * 37) % 23});  // some empty
    rows.push_back({33, i % 5 + 1});
  }
  {
    SCOPED_TRACE("100 inputs, axis=0");
    check_concatenate(int32, flat, 0, 111);
  }
  {
    SCOPED_TRACE("100 inputs, axis=1");
    check_concatenate(float32, rows, 1, 211);
  }
  {
    SCOPED_TRACE("stack of 100");
    std::vector<bytes_t> parts;
    std::vector<ndarray> in;
    for (std::uint32_t k = 0; k < 100; ++k) {
      parts.push_back(pattern(float64, 9, 311 + k));
      in.push_back(upload(parts.back(), float64, {9}));
    }
    const ndarray out = poisoned(float64, {100, 9});
    stack(in, {.out = out});
    EXPECT_TRUE(same_elements(download(out), host_concatenate(parts, std::vector<shape_v>(100, shape_v{9}),
                                                             std::nullopt, 8),
                              8));
  }
}

TEST(ManipulationGpu, ConcatenateSegmentKernelDtypes) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : {dtype(bool_), dtype(float16), dtype(float64), dtype(complex128)}) {
    SCOPED_TRACE(t.name());
    check_concatenate(t, {{1}, {3}, {10007}, {17}, {5}, {2}}, 0, 401);
    check_concatenate(t, {{3, 1}, {10007}, {1, 17}, {5}}, std::nullopt, 501);
    check_concatenate(t, {{257, 1}, {257, 3}, {257, 5}, {257, 2}}, 1, 601);
    // Slices at odd element offsets.
    const bytes_t b = pattern(t, 5001, 701);
    const ndarray base = upload(b, t, {5001});
    const auto item = static_cast<std::ptrdiff_t>(t.itemsize());
    bytes_t want(b.begin() + 1 * item, b.begin() + 2001 * item);
    want.insert(want.end(), b.begin() + 2003 * item, b.begin() + 5000 * item);
    const ndarray out = poisoned(t, {2000 + 2997});
    concatenate({base(slice(1, 2001)), base(slice(2003, 5000))}, {.out = out});
    EXPECT_TRUE(same_elements(download(out), want, t.itemsize()));
  }
}

TEST(ManipulationGpu, SegmentKernelRollDeleteInsert) {
  CUPP_REQUIRE_GPU();
  const std::int64_t rows = 301, cols = 517;
  const bytes_t b = pattern(int32, rows * cols, 801);
  std::vector<std::int32_t> h(static_cast<std::size_t>(rows * cols));
  std::memcpy(h.data(), b.data(), b.size());
  const ndarray a = upload(b, int32, {rows, cols});
  auto at = [&](std::int64_t i, std::int64_t j) { return h[static_cast<std::size_t>(i * cols + j)]; };
  auto mod = [](std::int64_t x, std::int64_t n) { return ((x % n) + n) % n; };
  {
    SCOPED_TRACE("roll");
    const std::vector<std::int32_t> got = roll(a, {7, -11}, {0, 1}).to_vector<std::int32_t>();
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        wrong += got[static_cast<std::size_t>(i * cols + j)] != at(mod(i - 7, rows), mod(j + 11, cols));
    EXPECT_EQ(wrong, 0);
  }
  {
    SCOPED_TRACE("delete_ along axis 1");
    std::vector<bool> mask(static_cast<std::size_t>(cols));
    std::vector<std::int64_t> kept;
    for (std::int64_t j = 0; j < cols; ++j) {
      mask[static_cast<std::size_t>(j)] = j % 3 == 1;
      if (j % 3 != 1) kept.push_back(j);
    }
    const ndarray d = delete_(a, mask, 1);
    ASSERT_EQ(d.shape(1), static_cast<std::int64_t>(kept.size()));
    const std::vector<std::int32_t> got = d.to_vector<std::int32_t>();
    std::int64_t wrong = 0;
    for (std::int64_t i = 0; i < rows; ++i)
      for (std::size_t k = 0; k < kept.size(); ++k)
        wrong += got[static_cast<std::size_t>(i) * kept.size() + k] != at(i, kept[k]);
    EXPECT_EQ(wrong, 0);
  }
  {
    SCOPED_TRACE("insert along axis 0");
    const std::vector<std::int64_t> where = {0, 5, 5, rows};
    const ndarray r = insert(a, where, 0, 0);
    ASSERT_EQ(r.shape(0), rows + 4);
    std::vector<std::int32_t> want;
    for (std::int64_t i = 0; i <= rows; ++i) {
      for (std::int64_t w : where)
        if (w == i) want.insert(want.end(), static_cast<std::size_t>(cols), 0);
      if (i < rows) want.insert(want.end(), h.begin() + i * cols, h.begin() + (i + 1) * cols);
    }
    EXPECT_EQ(r.to_vector<std::int32_t>(), want);
    const ndarray one = insert(a, std::int64_t{100}, 0, 0);
    std::vector<std::int32_t> want1(h.begin(), h.begin() + 100 * cols);
    want1.insert(want1.end(), static_cast<std::size_t>(cols), 0);
    want1.insert(want1.end(), h.begin() + 100 * cols, h.end());
    EXPECT_EQ(one.to_vector<std::int32_t>(), want1);
  }
}

TEST(ManipulationGpu, ConcatenateSegmentKernelRowsPast32BitWords) {
  CUPP_REQUIRE_GPU();
  // One segment of 2 rows of 2^31 + 11 bytes (1-byte words): word indices pass 2^32 in its second
  // row, where the kernel's row division switches to 64 bits.
  std::size_t free_bytes = 0, total_bytes = 0;
  CUPP_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (free_bytes < (std::size_t(12) << 30)) GTEST_SKIP() << "needs 12 GiB of free device memory";
  const std::int64_t wa = (std::int64_t(1) << 31) + 11;
  const ndarray a = resize(astype(arange(251), uint8), {2, wa});  // a[r, j] = (r * wa + j) % 251
  const ndarray b = astype(arange(10) + 100, uint8).reshape({2, 5});
  const ndarray c = concatenate({a, b}, {.axis = 1});
  ASSERT_EQ(c.shape(1), wa + 5);
  auto want = [&](std::int64_t r, std::int64_t j) -> std::uint8_t {
    return static_cast<std::uint8_t>(j < wa ? (r * wa + j) % 251 : 100 + r * 5 + (j - wa));
  };
  const std::int64_t starts[] = {0, 1000, wa / 2, (std::int64_t(1) << 31) - 40, wa - 40, wa - 3};
  for (std::int64_t r = 0; r < 2; ++r) {
    for (std::int64_t j0 : starts) {
      const std::int64_t j1 = std::min(j0 + 48, wa + 5);
      const std::vector<std::uint8_t> got = c(r, slice(j0, j1)).copy().to_vector<std::uint8_t>();
      ASSERT_EQ(static_cast<std::int64_t>(got.size()), j1 - j0);
      for (std::int64_t j = j0; j < j1; ++j)
        EXPECT_EQ(int(got[static_cast<std::size_t>(j - j0)]), int(want(r, j))) << "row " << r << ", column " << j;
    }
  }
}

}  // namespace
}  // namespace cupp
