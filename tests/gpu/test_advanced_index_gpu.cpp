// Advanced indexing on the GPU beyond the NumPy reference cases of test_indexing_gpu.cpp: every
// dtype through a(idx), a(mask), assignment and nonzero; the errors found on the device (with
// the state cleared for the next call, and nothing written); duplicates (last write wins,
// ufunc.at accumulates); empty masks and index arrays; large arrays against a host reference
// (many compaction tiles, unaligned masks, the atomic and the round-based ufunc.at).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using test::error_of;
using iv = std::vector<std::int64_t>;
using dv = std::vector<double>;

ndarray ar(std::initializer_list<std::int64_t> shape, dtype type = int64) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return astype(arange(n).reshape(std::span<const std::int64_t>(shape.begin(), shape.size())), type);
}
ndarray I(const iv& v, std::initializer_list<std::int64_t> shape = {}, dtype type = int64) {
  ndarray a = asarray(v);
  if (shape.size()) a = a.reshape(shape);
  return type == int64 ? a : astype(a, type);
}
ndarray B(const std::vector<bool>& v) { return asarray(v); }
dv as_f64(const ndarray& a) { return astype(a, float64).to_vector<double>(); }
iv shape_of(const ndarray& a) { return iv(a.shape().begin(), a.shape().end()); }

const dtype all_dtypes[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                            uint64, float16, bfloat16, float32, float64, complex64, complex128};

TEST(AdvancedIndexGpu, EveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const ndarray a = astype(asarray(dv{1, 0, 1, 1, 0, 1}), t).reshape({2, 3});
    // one index array (take's gather), two arrays (offsets + gather), a whole mask (compaction)
    ndarray g = a(slice(), I({2, 0, -1}));
    EXPECT_EQ(g.dtype(), t);
    EXPECT_EQ(as_f64(g), dv({1, 1, 1, 1, 1, 1}));
    g = a(I({1, 0}), I({2, 1}));
    EXPECT_EQ(as_f64(g), dv({1, 0}));
    g = a(astype(a, bool_));
    EXPECT_EQ(g.dtype(), t);
    EXPECT_EQ(as_f64(g), dv({1, 1, 1, 1}));
    // assignment: scalar through a mask, array through indices with duplicates
    const ndarray b = a.copy();
    b(astype(a, bool_)) = 0;
    EXPECT_EQ(as_f64(b), dv({0, 0, 0, 0, 0, 0}));
    b(I({1, 1, 0}), I({2, 2, 0})) = astype(asarray(dv{0, 1, 1}), t);
    EXPECT_EQ(as_f64(b), dv({1, 0, 0, 0, 0, 1}));
    // nonzero / argwhere
    const std::vector<ndarray> nz = nonzero(a);
    ASSERT_EQ(nz.size(), 2u);
    EXPECT_EQ(nz[0].to_vector<std::int64_t>(), iv({0, 0, 1, 1}));
    EXPECT_EQ(nz[1].to_vector<std::int64_t>(), iv({0, 2, 0, 2}));
    EXPECT_EQ(argwhere(a).to_vector<std::int64_t>(), iv({0, 0, 0, 2, 1, 0, 1, 2}));
  }
}

TEST(AdvancedIndexGpu, IndexDtypes) {
  CUPP_REQUIRE_GPU();
  const ndarray a = ar({6}, float32);
  for (const dtype& t : {int8, int16, int32, int64, uint8, uint16, uint32, uint64}) {
    SCOPED_TRACE(t.name());
    EXPECT_EQ(as_f64(a(I({5, 0, 3}, {}, t))), dv({5, 0, 3}));
  }
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(I({1}, {}, float32)); }),
            "arrays used as indices must be of integer (or boolean) type");
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(I({1}, {}, complex64)); }),
            "arrays used as indices must be of integer (or boolean) type");
  // 0-d arrays: an integer index, a bool scalar
  EXPECT_EQ(as_f64(ar({2, 3})(scalar(weak_scalar(1), int32))), dv({3, 4, 5}));
  EXPECT_EQ(shape_of(ar({2, 3})(scalar(weak_scalar(true), bool_))), iv({1, 2, 3}));
  EXPECT_EQ(shape_of(ar({2, 3})(scalar(weak_scalar(false), bool_))), iv({0, 2, 3}));
  const ndarray z = scalar(weak_scalar(7.0), float64);
  EXPECT_EQ(as_f64(z(true)), dv({7}));
}

TEST(AdvancedIndexGpu, OutOfBoundsThroughTheFlag) {
  CUPP_REQUIRE_GPU();
  const ndarray a = ar({2, 3});
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(slice(), I({0, 7})); }), "index 7 is out of bounds for axis 1 with size 3");
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(I({-3})); }), "index -3 is out of bounds for axis 0 with size 2");
  // The axis named is the array's, not the view's (newaxis before it).
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(newaxis, slice(), I({5})); }),
            "index 5 is out of bounds for axis 1 with size 3");
  // Two arrays: the first bad array in order, its first bad value (NumPy's order).
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(I({1, 7}), I({9, 0})); }),
            "index 7 is out of bounds for axis 0 with size 2");
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(I({1, 0}), I({0, -4})); }),
            "index -4 is out of bounds for axis 1 with size 3");
  // The state is cleared: the next calls succeed.
  EXPECT_EQ(ndarray(a(I({1, 0}), I({2, 0}))).to_vector<std::int64_t>(), iv({5, 0}));
  EXPECT_EQ(ndarray(a(slice(), I({-1}))).to_vector<std::int64_t>(), iv({2, 5}));
  // Assignment: nothing written on an error.
  const ndarray b = ar({2, 3});
  EXPECT_THROW(b(I({0, 1}), I({0, 3})) = 9, IndexError);
  EXPECT_THROW(b(I({0, 5})) = 9, IndexError);
  EXPECT_EQ(b.to_vector<std::int64_t>(), iv({0, 1, 2, 3, 4, 5}));
  EXPECT_THROW(add.at(b, I({0, 2}), 1), IndexError);
  EXPECT_EQ(b.to_vector<std::int64_t>(), iv({0, 1, 2, 3, 4, 5}));
  // Indexing an empty axis.
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = zeros({0, 3})(I({0})); }),
            "index 0 is out of bounds for axis 0 with size 0");
  // Masks of the wrong shape.
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(B({true, false, true})); }),
            "boolean index did not match indexed array along axis 0; size of axis is 2 but size of corresponding "
            "boolean axis is 3");
  EXPECT_EQ(error_of<IndexError>([&] { b(B({true, false, true})) = 1; }),
            "boolean index did not match indexed array along axis 0; size of axis is 2 but size of corresponding "
            "boolean axis is 3");
  EXPECT_EQ(error_of<IndexError>([&] { ndarray r = a(I({0, 1}), I({0, 1, 2})); }),
            "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) ");
  EXPECT_EQ(ndarray(a(I({1}))).to_vector<std::int64_t>(), iv({3, 4, 5}));
}

TEST(AdvancedIndexGpu, EmptyMasksAndIndices) {
  CUPP_REQUIRE_GPU();
  const ndarray a = ar({3, 4}, float32);
  ndarray r = a(a > 100);
  EXPECT_EQ(shape_of(r), iv({0}));
  r = a(zeros({3}, bool_));
  EXPECT_EQ(shape_of(r), iv({0, 4}));
  r = a(I({}));
  EXPECT_EQ(shape_of(r), iv({0, 4}));
  r = a(slice(), I({}));
  EXPECT_EQ(shape_of(r), iv({3, 0}));
  r = zeros({0, 4})(zeros({0, 4}, bool_));
  EXPECT_EQ(shape_of(r), iv({0}));
  const ndarray b = a.copy();
  b(a > 100) = 5;
  b(I({})) = 5;
  b(zeros({3}, bool_)) = ar({4}, float32);
  EXPECT_EQ(as_f64(b), as_f64(a));
  EXPECT_EQ(nonzero(zeros({5})).at(0).size(), 0);
  EXPECT_EQ(shape_of(argwhere(zeros({2, 0}))), iv({0, 2}));
  EXPECT_EQ(flatnonzero(zeros({0})).size(), 0);
  add.at(b, I({}), 1);
  EXPECT_EQ(as_f64(b), as_f64(a));
  EXPECT_EQ(error_of<ValueError>([] { nonzero(scalar(weak_scalar(1), int64)); }),
            "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. If the "
            "context of this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
}

TEST(AdvancedIndexGpu, AssignmentBroadcastsAndCasts) {
  CUPP_REQUIRE_GPU();
  const ndarray a = zeros({3, 4}, float64);
  a(I({2, 0}), slice()) = ar({4}, float64);  // a row broadcast to (2, 4)
  EXPECT_EQ(as_f64(a), dv({0, 1, 2, 3, 0, 0, 0, 0, 0, 1, 2, 3}));
  a(slice(), I({1})) = ar({3, 1}, float64) + 10;  // a column
  EXPECT_EQ(as_f64(a), dv({0, 10, 2, 3, 0, 11, 0, 0, 0, 12, 2, 3}));
  EXPECT_THROW(a(I({0}), slice()) = ar({3}, float64), ValueError);  // (3,) into (1, 4)
  // same_kind: float into int is a TypeError, int into float is fine
  const ndarray i = zeros({4}, int32);
  EXPECT_THROW(i(I({0})) = asarray(dv{1.5}), TypeError);
  i(I({0, 1})) = I({7, 8});
  EXPECT_EQ(i.to_vector<std::int32_t>(), std::vector<std::int32_t>({7, 8, 0, 0}));
  // a(idx) = a(idx2): the source is read before anything is written
  const ndarray s = ar({5});
  s(I({1, 2, 3})) = s(I({0, 1, 2}));
  EXPECT_EQ(s.to_vector<std::int64_t>(), iv({0, 0, 1, 2, 4}));
  // a strided view: written through to the base
  const ndarray base = ar({4, 4});
  const ndarray v = base(slice(std::nullopt, std::nullopt, 2), slice(1, std::nullopt, 2));  // (2, 2)
  v(I({1}), I({0})) = -1;
  EXPECT_EQ(base.to_vector<std::int64_t>()[9], -1);
  v(v > 100) = 0;  // mask over a non-contiguous view
  v(B({true, false}), slice()) = -2;
  const iv got = base.to_vector<std::int64_t>();
  EXPECT_EQ(got[1], -2);
  EXPECT_EQ(got[3], -2);
  // read-only destinations
  EXPECT_EQ(error_of<ValueError>([&] { broadcast_to(s, {2, 5})(I({0})) = 1; }), "assignment destination is read-only");
}

TEST(AdvancedIndexGpu, LargeMaskSelectAndNonzero) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 21) + 3;  // many tiles and a ragged end
  std::mt19937_64 rng(11);
  std::vector<float> src(static_cast<std::size_t>(n));
  std::vector<bool> mask(static_cast<std::size_t>(n));
  std::vector<float> want;
  std::vector<std::int64_t> pos;
  for (std::int64_t k = 0; k < n; ++k) {
    src[k] = static_cast<float>(k);
    mask[k] = rng() % 2 == 0;
    if (mask[k]) {
      want.push_back(src[k]);
      pos.push_back(k);
    }
  }
  const ndarray a = asarray(src), m = asarray(mask);
  EXPECT_EQ(ndarray(a(m)).to_vector<float>(), want);
  EXPECT_EQ(flatnonzero(m).to_vector<std::int64_t>(), pos);
  EXPECT_EQ(nonzero(m).at(0).to_vector<std::int64_t>(), pos);
  // An unaligned mask (a view starting at byte 1) and source.
  const ndarray m1 = m(slice(1, std::nullopt)), a1 = a(slice(1, std::nullopt));
  std::vector<float> want1;
  for (std::int64_t k = 1; k < n; ++k)
    if (mask[k]) want1.push_back(src[k]);
  EXPECT_EQ(ndarray(a1(m1)).to_vector<float>(), want1);
  // A 2-d nonzero / argwhere against the host.
  const ndarray m2 = m(slice(0, 1024 * 2048)).reshape({1024, 2048});
  const std::vector<ndarray> nz = nonzero(m2);
  const std::vector<std::int64_t> r = nz[0].to_vector<std::int64_t>(), c = nz[1].to_vector<std::int64_t>();
  const std::vector<std::int64_t> aw = argwhere(m2).to_vector<std::int64_t>();
  std::size_t j = 0;
  for (std::int64_t k = 0; k < 1024 * 2048; ++k) {
    if (!mask[k]) continue;
    ASSERT_LT(j, r.size());
    ASSERT_EQ(r[j], k / 2048) << k;
    ASSERT_EQ(c[j], k % 2048) << k;
    ASSERT_EQ(aw[2 * j], k / 2048) << k;
    ASSERT_EQ(aw[2 * j + 1], k % 2048) << k;
    ++j;
  }
  EXPECT_EQ(j, r.size());
  // A non-bool mask (nonzero of floats) and a 16-byte element.
  const ndarray f = astype(m, float32) * 2.5;
  EXPECT_EQ(flatnonzero(f).to_vector<std::int64_t>(), pos);
  const ndarray z = astype(a, complex128);
  EXPECT_EQ(ndarray(z(m)).size(), static_cast<std::int64_t>(want.size()));
}

TEST(AdvancedIndexGpu, LargeScatterAndUfuncAt) {
  CUPP_REQUIRE_GPU();
  std::mt19937_64 rng(5);
  const std::int64_t n = 1000, k = 200000;
  std::vector<std::int64_t> idx(static_cast<std::size_t>(k)), vals(static_cast<std::size_t>(k));
  std::vector<std::int64_t> last(static_cast<std::size_t>(n), -1), sum(static_cast<std::size_t>(n), 0);
  std::vector<double> fsum(static_cast<std::size_t>(n), 0.0);
  std::vector<std::int64_t> mn(static_cast<std::size_t>(n), 1 << 30);
  for (std::int64_t i = 0; i < k; ++i) {
    idx[i] = static_cast<std::int64_t>(rng() % n) - (i % 2 ? n : 0);  // half negative
    vals[i] = static_cast<std::int64_t>(rng() % 1000);
    const std::size_t p = static_cast<std::size_t>(idx[i] < 0 ? idx[i] + n : idx[i]);
    last[p] = vals[i];
    sum[p] += vals[i];
    fsum[p] += static_cast<double>(vals[i]);
    mn[p] = std::min(mn[p], vals[i]);
  }
  const ndarray ix = asarray(idx), vx = asarray(vals);
  // setitem: the last write wins
  const ndarray a = full({n}, -1, int64);
  a(ix) = vx;
  EXPECT_EQ(a.to_vector<std::int64_t>(), last);
  // add.at: atomics (int64, float64; int16 through a compare-and-swap loop on its 32-bit word)
  const ndarray s = zeros({n}, int64);
  add.at(s, ix, vx);
  EXPECT_EQ(s.to_vector<std::int64_t>(), sum);
  const ndarray fs = zeros({n}, float64);
  add.at(fs, ix, astype(vx, float64));
  EXPECT_EQ(fs.to_vector<double>(), fsum);
  const ndarray m = full({n}, 1 << 30, int64);
  minimum.at(m, ix, vx);
  EXPECT_EQ(m.to_vector<std::int64_t>(), mn);
  const ndarray c = zeros({n}, int16);
  add.at(c, ix(slice(0, 5000)), 1);  // up to ~20 occurrences of a position
  std::vector<std::int16_t> cnt(static_cast<std::size_t>(n), 0);
  for (std::int64_t i = 0; i < 5000; ++i) ++cnt[static_cast<std::size_t>(idx[i] < 0 ? idx[i] + n : idx[i])];
  EXPECT_EQ(c.to_vector<std::int16_t>(), cnt);
  // A 2-d target with a scalar operand, and a casting error as the ufunc gives it.
  const ndarray h = zeros({4, 3}, float32);
  const array_index_item items[] = {I({0, 0, 3}), slice()};
  add.at(h, items, 1.5);
  EXPECT_EQ(as_f64(h), dv({3, 3, 3, 0, 0, 0, 0, 0, 0, 1.5, 1.5, 1.5}));
  EXPECT_THROW(add.at(zeros({3}, int64), I({0}), asarray(dv{1.5})), TypeError);
}

}  // namespace
}  // namespace cupp
