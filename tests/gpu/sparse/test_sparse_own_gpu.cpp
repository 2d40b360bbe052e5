// cupp::sparse's own kernels and routine paths (sparse/src/own_kernels.hpp) against host loops, on
// a CSR with empty rows, a long row, duplicates and unsorted indices: tocsc's sort path (CUB's
// stable radix sort of packed entries) for values of 1, 2 and 4 bytes and both index widths,
// against a host stable counting sort and, array for array, csr2cscEx2; SpMV and the row-major
// SpMM kernel for every value dtype (integers wrap as NumPy's, bool is an or of ands) against
// exact host sums; SpGEMM by expand-sort-sum for integer, bool and int64-indexed operands; the
// own SpGEMM kernels for float and complex operands against cuSPARSE's; and SciPy's point-wise
// A[rows, cols].
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/sparse.hpp"
#include "cupp/statistics.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "own_kernels.hpp"
#include "products_internal.hpp"

namespace cupp {
namespace {

using i64 = std::int64_t;
using test::error_of;

// A host CSR pattern with int64 values: empty rows (every 5th), row 3 of 100 entries (duplicates
// of every column), unsorted indices, a duplicate at the front of rows 1, 5, 9, ...
struct host_csr {
  i64 m = 0, n = 0;
  std::vector<i64> indptr{0}, indices, values;
};

host_csr pattern(i64 m, i64 n, i64 scale, int salt) {
  host_csr h;
  h.m = m, h.n = n;
  for (i64 i = 0; i < m; ++i) {
    const i64 len = i == 3 ? 100 : i % 5 == 0 ? 0 : (i + salt) % 9;
    for (i64 t = 0; t < len; ++t) {
      h.indices.push_back((i * 13 + t * 7 + salt) % n);
      h.values.push_back((((i * 7 + t * 3 + salt) % 7) - 3) * scale);
    }
    if (len > 0 && i % 4 == 1) {
      h.indices.push_back(h.indices[h.indptr.back()]);
      h.values.push_back(scale);
    }
    h.indptr.push_back(static_cast<i64>(h.indices.size()));
  }
  return h;
}

sparse::csr device_csr(const host_csr& h, const dtype& type, const dtype& idx) {
  return sparse::csr::from_parts(astype(asarray(h.values), type), astype(asarray(h.indices), idx),
                                 astype(asarray(h.indptr), idx), {h.m, h.n}, sparse::kind::matrix, std::nullopt,
                                 std::nullopt);
}

bool is_bool(const dtype& t) { return t == bool_; }

// The host value as the device holds it for bool (nonzero: 1); other dtypes: the int64 value, whose
// sums of products taken modulo 2^bits are the device's wrapped ones.
i64 as_held(i64 v, const dtype& t) { return is_bool(t) ? (v != 0 ? 1 : 0) : v; }

TEST(SparseOwnGpu, TocscSortPathMatchesAHostStableSortAndCsr2csc) {
  CUPP_REQUIRE_GPU();
  for (const dtype idx : {int32, int64}) {
    for (const dtype type : {float32, int8, uint8, int16, uint16, int32, bool_, float64, complex128}) {
      SCOPED_TRACE(idx.name() + " indices, " + type.name() + " values");
      const host_csr h = pattern(70, 45, 1, 0);
      // host: entries by column, each column in entry order (stable)
      std::vector<i64> ptr(h.n + 1, 0), rows, vals;
      for (const i64 c : h.indices) ++ptr[c + 1];
      for (i64 c = 0; c < h.n; ++c) ptr[c + 1] += ptr[c];
      for (i64 c = 0; c < h.n; ++c)
        for (i64 i = 0; i < h.m; ++i)
          for (i64 p = h.indptr[i]; p < h.indptr[i + 1]; ++p)
            if (h.indices[p] == c) rows.push_back(i), vals.push_back(h.values[p]);
      const sparse::csr a = device_csr(h, type, idx);
      for (const auto method : {sparse::detail::tocsc_method::auto_, sparse::detail::tocsc_method::sort,
                                sparse::detail::tocsc_method::cusparse}) {
        const sparse::detail::swapped s =
            sparse::detail::swap_major(a.data(), a.indices(), a.indptr(), h.m, h.n, method);
        EXPECT_EQ(s.indices.dtype(), idx);
        EXPECT_EQ(s.data.dtype(), type);
        CUPP_EXPECT_ARRAY_EQUAL(astype(s.indptr, int64), ptr);
        CUPP_EXPECT_ARRAY_EQUAL(astype(s.indices, int64), rows);
        CUPP_EXPECT_ARRAY_EQUAL(s.data, astype(asarray(vals), type));
      }
      if (sparse::detail::sort_swap_applies(type, h.m)) {
        const sparse::detail::swapped s = sparse::detail::sort_swap(a.data(), a.indices(), a.indptr(), h.m, h.n);
        CUPP_EXPECT_ARRAY_EQUAL(astype(s.indices, int64), rows);
      }
      CUPP_EXPECT_ARRAY_EQUAL(a.tocsc().toarray(), a.toarray());
      CUPP_EXPECT_ARRAY_EQUAL(a.tocsc().tocsr().toarray(), a.toarray());
    }
  }
  // an empty matrix and one entry
  const sparse::csr e(sparse::shape2{3, 4}, {.dtype = float32});
  EXPECT_EQ(e.tocsc().nnz(), 0);
  CUPP_EXPECT_ARRAY_EQUAL(e.tocsc().indptr(), std::vector<std::int32_t>{0, 0, 0, 0, 0});
  const sparse::csr one(asarray(std::vector<float>{5}), asarray(std::vector<std::int32_t>{2}),
                        asarray(std::vector<std::int32_t>{0, 0, 1}), {.shape = sparse::shape2{2, 3}});
  CUPP_EXPECT_ARRAY_EQUAL(one.tocsc().indptr(), std::vector<std::int32_t>{0, 0, 0, 1});
  CUPP_EXPECT_ARRAY_EQUAL(one.tocsc().indices(), std::vector<std::int32_t>{1});
}

// C = A @ B (B row-major, k columns) and y = A @ x by the module's kernels, exact against host sums.
TEST(SparseOwnGpu, ProductKernelsMatchExactHostSumsForEveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype type : {float32, float64, int8, uint8, int16, int32, uint32, int64, uint64, bool_}) {
    const i64 scale = type.is_integer() ? 40 : 1;  // integer products wrap in int8 / uint8 / int16
    const host_csr h = pattern(70, 45, scale, 1);
    for (const dtype idx : {int32, int64}) {
      const sparse::csr a = device_csr(h, type, idx);
      for (const i64 k : {1, 3, 32, 64, 129, 300}) {
        SCOPED_TRACE(type.name() + " values, " + idx.name() + " indices, k = " + std::to_string(k));
        std::vector<i64> b(h.n * k), c(h.m * k, 0);
        for (i64 j = 0; j < h.n * k; ++j) b[j] = ((j * 5 + j / k * 3) % 5 - 2) * scale;
        for (i64 i = 0; i < h.m; ++i)
          for (i64 p = h.indptr[i]; p < h.indptr[i + 1]; ++p)
            for (i64 q = 0; q < k; ++q)
              c[i * k + q] += as_held(h.values[p], type) * as_held(b[h.indices[p] * k + q], type);
        const ndarray bd = astype(asarray(b), type).reshape({h.n, k});
        const ndarray expected = astype(asarray(c), type).reshape({h.m, k});
        const ndarray got = sparse::detail::own_spmm(a, bd);
        EXPECT_EQ(got.dtype(), type);
        CUPP_EXPECT_ARRAY_EQUAL(got, expected);
        CUPP_EXPECT_ARRAY_EQUAL(sparse::detail::own_spmm(a, bd), got);  // bitwise repeatable
        if (k == 1) {
          const ndarray x = bd.reshape({h.n});
          CUPP_EXPECT_ARRAY_EQUAL(sparse::detail::own_spmv(a, x), expected.reshape({h.m}));
          if (type == float32 || type == float64)  // the lane-group candidate, every group size
            for (const int group : {2, 4, 8, 16, 32})
              CUPP_EXPECT_ARRAY_EQUAL(sparse::detail::own_spmv_groups(a, x, group), expected.reshape({h.m}));
          CUPP_EXPECT_ARRAY_EQUAL(a.dot(x), expected.reshape({h.m}));  // the public path
        }
        if (k == 64) CUPP_EXPECT_ARRAY_EQUAL(a.dot(bd), expected);
      }
    }
  }
}

TEST(SparseOwnGpu, ComplexProductKernelsAndPromotion) {
  CUPP_REQUIRE_GPU();
  const host_csr h = pattern(40, 30, 1, 2);
  const i64 k = 33;
  std::vector<std::complex<double>> av, bv(h.n * k), cv(h.m * k);
  for (std::size_t p = 0; p < h.values.size(); ++p) av.emplace_back(h.values[p], (h.values[p] * 5 + 1) % 3);
  for (i64 j = 0; j < h.n * k; ++j) bv[j] = {static_cast<double>(j % 5 - 2), static_cast<double>(j % 3 - 1)};
  for (i64 i = 0; i < h.m; ++i)
    for (i64 p = h.indptr[i]; p < h.indptr[i + 1]; ++p)
      for (i64 q = 0; q < k; ++q) cv[i * k + q] += av[p] * bv[h.indices[p] * k + q];
  for (const dtype type : {complex64, complex128}) {
    SCOPED_TRACE(type.name());
    const sparse::csr a = sparse::csr::from_parts(astype(asarray(av), type), asarray(h.indices), asarray(h.indptr),
                                                  {h.m, h.n}, sparse::kind::matrix, std::nullopt, std::nullopt);
    const ndarray bd = astype(asarray(bv), type).reshape({h.n, k});
    CUPP_EXPECT_ARRAY_EQUAL(sparse::detail::own_spmm(a, bd), astype(asarray(cv), type).reshape({h.m, k}));
    // cuSPARSE's SpMM on the same operands
    CUPP_EXPECT_ALLCLOSE(sparse::detail::spmm_with(a, bd, CUSPARSE_SPMM_CSR_ALG3, false),
                         astype(asarray(cv), type).reshape({h.m, k}), {.rtol = 1e-6});
  }
  // SciPy's upcast: int8 @ int16 is int16, uint8 @ int8 int16, bool @ bool bool, int32 @ float32 float64,
  // bool @ float16 float32
  const host_csr g = pattern(10, 8, 1, 3);
  const auto prod = [&](const dtype& ta, const dtype& tb) {
    return sparse::spmv(device_csr(g, ta, int32), astype(ones({g.n}, int64), tb)).dtype();
  };
  EXPECT_EQ(prod(int8, int16), int16);
  EXPECT_EQ(prod(uint8, int8), int16);
  EXPECT_EQ(prod(bool_, bool_), bool_);
  EXPECT_EQ(prod(int32, float32), float64);
  EXPECT_EQ(prod(bool_, float16), float32);  // SciPy's upcast: float16 -> float32
  EXPECT_EQ(prod(int8, float16), float32);
  CUPP_EXPECT_ARRAY_EQUAL(
      sparse::spmm(device_csr(g, bool_, int32), astype(ones({g.n, 40}, int64), float16)),
      sparse::spmm(device_csr(g, float32, int32).astype(bool_).astype(float32), ones({g.n, 40}, float32)));
  EXPECT_EQ(error_of<ValueError>([&] {
              sparse::detail::own_spmm(device_csr(g, int32, int32), ones({3, 2}, int32));
            }),
            "dimension mismatch");
  EXPECT_EQ(
      error_of<ValueError>([&] { sparse::detail::own_spmv_groups(device_csr(g, float32, int32), ones({g.n}), 6); }),
      "spmv: a lane group is a power of two from 2 to 32, not 6");
  EXPECT_EQ(
      error_of<TypeError>([&] { sparse::detail::own_spmv_groups(device_csr(g, int32, int32), ones({g.n}, int32), 4); }),
      "spmv by lane groups: float32 and float64 only, not int32");
}

// A @ B by expand-sort-sum: integer (wrapping), bool and float operands against host dense
// products; canonical results with the zeros dropped (SciPy's csr_matmat); the int64 path of a
// result wider than int32.
TEST(SparseOwnGpu, SpgemmByExpandSortSumMatchesHostProducts) {
  CUPP_REQUIRE_GPU();
  const host_csr ha = pattern(30, 25, 1, 4), hb = pattern(25, 20, 1, 5);
  for (const dtype type : {int32, int8, uint16, bool_, float32, float64}) {
    const i64 scale = type == int8 ? 40 : 1;
    host_csr sa = ha, sb = hb;
    for (i64& v : sa.values) v *= scale;
    for (i64& v : sb.values) v *= scale;
    std::vector<i64> da(sa.m * sa.n, 0), db(sb.m * sb.n, 0), dc(sa.m * sb.n, 0);
    // the operands' dense values (bool: duplicates or-ed, as True + True is True)
    const auto densify = [&](const host_csr& h, std::vector<i64>& d) {
      for (i64 i = 0; i < h.m; ++i)
        for (i64 p = h.indptr[i]; p < h.indptr[i + 1]; ++p) {
          i64& slot = d[i * h.n + h.indices[p]];
          slot = is_bool(type) ? (slot | as_held(h.values[p], type)) : slot + h.values[p];
        }
    };
    densify(sa, da);
    densify(sb, db);
    for (i64 i = 0; i < sa.m; ++i)
      for (i64 j = 0; j < sa.n; ++j)
        for (i64 q = 0; q < sb.n; ++q) dc[i * sb.n + q] += da[i * sa.n + j] * db[j * sb.n + q];
    for (const dtype idx : {int32, int64}) {
      SCOPED_TRACE(type.name() + " values, " + idx.name() + " indices");
      const sparse::csr a = device_csr(sa, type, idx), b = device_csr(sb, type, idx);
      const ndarray expected = astype(asarray(dc), type).reshape({sa.m, sb.n});
      const sparse::csr c = sparse::detail::esc_spgemm(a, b);
      EXPECT_EQ(c.dtype(), type);
      EXPECT_EQ(c.index_dtype(), int32);  // SciPy's index dtype for the result's size
      EXPECT_TRUE(c.has_canonical_format());
      CUPP_EXPECT_ARRAY_EQUAL(c.toarray(), expected);
      EXPECT_EQ(c.nnz(), count_nonzero(expected).item<i64>());            // zeros dropped
      CUPP_EXPECT_ARRAY_EQUAL(sparse::spgemm(a, b).toarray(), expected);  // the public path
    }
  }
  // cancellation: [[1, 1]] @ [[1], [-1]] stores nothing (SciPy's csr_matmat)
  const sparse::csr row(array<std::int32_t>({{1, 1}})), col(array<std::int32_t>({{1}, {-1}}));
  EXPECT_EQ(sparse::spgemm(row, col).nnz(), 0);
  EXPECT_EQ(sparse::spgemm(row, col).shape(), (sparse::shape2{1, 1}));
  // a result with 3e9 columns: int64 indices, through expand-sort-sum (cuSPARSE's SpGEMM takes int32)
  const i64 wide = 3000000000LL;
  const sparse::csr b(asarray(std::vector<double>{2, 3, 4}), asarray(std::vector<i64>{5, wide - 1, 7}),
                      asarray(std::vector<i64>{0, 2, 3}), {.shape = sparse::shape2{2, wide}});
  ASSERT_EQ(b.index_dtype(), int64);
  const sparse::csr a(array<double>({{1, 0}, {0, 1}, {1, 1}}));
  const sparse::csr c = sparse::spgemm(a, b);
  EXPECT_EQ(c.shape(), (sparse::shape2{3, wide}));
  EXPECT_EQ(c.index_dtype(), int64);
  CUPP_EXPECT_ARRAY_EQUAL(c.indptr(), std::vector<i64>{0, 2, 3, 6});
  CUPP_EXPECT_ARRAY_EQUAL(c.indices(), std::vector<i64>{5, wide - 1, 7, 5, 7, wide - 1});
  CUPP_EXPECT_ARRAY_EQUAL(c.data(), std::vector<double>{2, 3, 4, 2, 4, 3});
}

// A canonical random CSR (sorted distinct columns) of one float or complex dtype with row r of
// length(r) entries, int32 indices.
template <class Len>
sparse::csr random_canonical(i64 m, i64 n, Len length, const dtype& type, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<i64> indptr{0}, indices;
  std::vector<double> values;
  std::vector<i64> all(static_cast<std::size_t>(n));
  for (i64 c = 0; c < n; ++c) all[c] = c;
  for (i64 r = 0; r < m; ++r) {
    const i64 len = std::min<i64>(length(r), n);
    std::shuffle(all.begin(), all.end(), gen);
    std::vector<i64> pick(all.begin(), all.begin() + len);
    std::sort(pick.begin(), pick.end());
    for (i64 c : pick) {
      indices.push_back(c);
      values.push_back(u(gen));
      values.push_back(u(gen));  // the imaginary part (dropped for real dtypes)
    }
    indptr.push_back(static_cast<i64>(indices.size()));
  }
  const i64 nnz = static_cast<i64>(indices.size());
  ndarray v = asarray(values).reshape({nnz, 2});
  const ndarray data = type.is_complex() ? astype(v.view(complex128).reshape({nnz}), type)
                                         : astype(ascontiguousarray(v(slice(), 0)), type);
  return sparse::csr::from_parts(data, astype(asarray(indices), int32), astype(asarray(indptr), int32), {m, n},
                                 sparse::kind::matrix, true, true);
}

// The module's own SpGEMM kernels (spgemm.cuh) against cuSPARSE's product, every float and complex
// dtype: the same canonical pattern and close values, bitwise repeatable; rows of the warp kernel
// (more than 32 A entries among them), rows past the warp cap (the block kernel), A rows naming
// only empty B rows, empty rows; nullopt for a row past the block cap; the public path with
// CUPP_SPARSE_SPGEMM=cupp, and a bad value of it.
TEST(SparseOwnGpu, OwnSpgemmMatchesCusparseForEveryFloatDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype type : {float32, float64, complex64, complex128}) {
    SCOPED_TRACE(type.name());
    const i64 m = 300, n = 400, k = 350;
    // A: row 7 empty, rows 10 .. 12 of 60 entries (about 480 products: the block kernel), row 20 of
    // 50 entries, the rest 1 .. 12; B: every 6th row empty, the rest 1 .. 15 entries
    const sparse::csr a = random_canonical(m, n, [](i64 r) -> i64 {
      return r == 7 ? 0 : r >= 10 && r <= 12 ? 60 : r == 20 ? 50 : 1 + (r * 7) % 12;
    }, type, 11);
    const sparse::csr b = random_canonical(n, k, [](i64 r) -> i64 { return r % 6 == 0 ? 0 : 1 + (r * 5) % 15; }, type, 12);
    const sparse::csr ref = sparse::detail::spgemm_alg(a, b, CUSPARSE_SPGEMM_DEFAULT);
    const std::optional<sparse::csr> own = sparse::detail::own_spgemm(a, b, type, a.kind());
    ASSERT_TRUE(own.has_value());
    EXPECT_EQ(own->dtype(), type);
    EXPECT_EQ(own->index_dtype(), int32);
    EXPECT_TRUE(own->has_canonical_format());
    CUPP_EXPECT_ARRAY_EQUAL(own->indptr(), ref.indptr());
    CUPP_EXPECT_ARRAY_EQUAL(own->indices(), ref.indices());
    const double rtol = type == float32 || type == complex64 ? 1e-5 : 1e-12;
    EXPECT_TRUE(allclose(own->data(), ref.data(), {.rtol = rtol, .atol = rtol}).item<bool>());
    const std::optional<sparse::csr> again = sparse::detail::own_spgemm(a, b, type, a.kind());
    EXPECT_TRUE(array_equal(own->data(), again->data()).item<bool>());
    // the dense product as a third opinion
    EXPECT_TRUE(allclose(own->toarray(), matmul(a.toarray(), b.toarray()), {.rtol = rtol, .atol = rtol}).item<bool>());
    // A's rows naming only an empty B row: empty rows of C
    const sparse::csr a0 = random_canonical(4, 1, [](i64) -> i64 { return 1; }, type, 13);
    const sparse::csr b0 = random_canonical(1, 5, [](i64) -> i64 { return 0; }, type, 14);
    const std::optional<sparse::csr> none = sparse::detail::own_spgemm(a0, b0, type, a0.kind());
    ASSERT_TRUE(none.has_value());
    EXPECT_EQ(none->nnz(), 0);
    CUPP_EXPECT_ARRAY_EQUAL(none->indptr(), std::vector<std::int32_t>{0, 0, 0, 0, 0});
    // a row past the block cap: left to cuSPARSE
    const i64 cap = sparse::detail::own_spgemm_block_cap(type);
    const sparse::csr wide_a = random_canonical(2, 200, [](i64 r) -> i64 { return r == 1 ? 200 : 3; }, type, 15);
    const sparse::csr wide_b =
        random_canonical(200, 4000, [cap](i64) -> i64 { return cap / 100 + 1; }, type, 16);
    EXPECT_FALSE(sparse::detail::own_spgemm(wide_a, wide_b, type, wide_a.kind()).has_value());
    // the public path
    ASSERT_EQ(setenv("CUPP_SPARSE_SPGEMM", "cupp", 1), 0);
    const sparse::csr pub = sparse::spgemm(a, b);
    const sparse::csr pub_wide = sparse::spgemm(wide_a, wide_b);  // cuSPARSE's, past the cap
    ASSERT_EQ(setenv("CUPP_SPARSE_SPGEMM", "simd", 1), 0);
    EXPECT_EQ(error_of<ValueError>([&] { (void)sparse::spgemm(a, b); }),
              "CUPP_SPARSE_SPGEMM must be cupp, cusparse or auto, not 'simd'");
    ASSERT_EQ(unsetenv("CUPP_SPARSE_SPGEMM"), 0);
    EXPECT_TRUE(array_equal(pub.data(), own->data()).item<bool>());
    EXPECT_TRUE(allclose(pub_wide.toarray(), matmul(wide_a.toarray(), wide_b.toarray()), {.rtol = rtol, .atol = rtol})
                    .item<bool>());
  }
}

TEST(SparseOwnGpu, PointwiseSelectionIsSciPys) {
  CUPP_REQUIRE_GPU();
  const host_csr h = pattern(12, 9, 1, 6);  // duplicates and unsorted indices
  const sparse::csr m = device_csr(h, float64, int32);
  const sparse::csr a = m.with_kind(sparse::kind::array);
  const ndarray dense = m.toarray();
  const ndarray r = asarray(std::vector<i64>{0, 3, 3, -1, 5}), c = asarray(std::vector<i64>{1, 2, 2, 8, -9});
  std::vector<double> want;
  for (const auto& [i, j] : std::vector<std::pair<i64, i64>>{{0, 1}, {3, 2}, {3, 2}, {11, 8}, {5, 0}})
    want.push_back(dense(i, j).item<double>());
  const ndarray va = sparse::select_values(a, r, c);
  EXPECT_EQ(va.ndim(), 1);
  CUPP_EXPECT_ARRAY_EQUAL(va, want);
  const ndarray vm = sparse::select_values(m, r, c);  // np.matrix (1, 5)
  ASSERT_EQ(vm.ndim(), 2);
  EXPECT_EQ(vm.shape(0), 1);
  CUPP_EXPECT_ARRAY_EQUAL(vm.reshape({5}), want);
  CUPP_EXPECT_ARRAY_EQUAL(sparse::select_values(m.tocsc(), r, c).reshape({5}), want);
  // 2-D index arrays: a sparse object of their shape
  const ndarray r2 = asarray(std::vector<i64>{0, 3, 4, 5}).reshape({2, 2}),
                c2 = asarray(std::vector<i64>{1, 2, 0, 4}).reshape({2, 2});
  const sparse::csr s = sparse::select(m, r2, c2);
  EXPECT_EQ(s.shape(), (sparse::shape2{2, 2}));
  EXPECT_FALSE(s.is_array());
  CUPP_EXPECT_ARRAY_EQUAL(s.toarray(), sparse::select_values(m, r2, c2));
  CUPP_EXPECT_ARRAY_EQUAL(sparse::select_values(a, asarray(std::vector<i64>{3}), c),  // (1,) broadcasts
                          sparse::select_values(a, asarray(std::vector<i64>{3, 3, 3, 3, 3}), c));
  CUPP_EXPECT_ARRAY_EQUAL(sparse::select(m.tocsc(), r2, c2).toarray(), s.toarray());
  // errors as SciPy's / NumPy's
  EXPECT_EQ(error_of<IndexError>([&] {
              sparse::select_values(a, asarray(std::vector<i64>{0, 12}), c(cupp::slice(0, 2)));
            }),
            "index (12) out of range");
  EXPECT_EQ(error_of<IndexError>([&] { sparse::select_values(a, r, asarray(std::vector<i64>{-10})); }),
            "index (-10) out of range");
  EXPECT_EQ(error_of<ValueError>([&] {
              sparse::select_values(a, r, asarray(std::vector<i64>{1, 2, 3}));
            }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape (5,) "
            "and arg 1 with shape (3,).");
  EXPECT_EQ(error_of<IndexError>(
                [&] { sparse::select_values(a, asarray(std::vector<i64>{1}).reshape(std::vector<i64>{}), c); }),
            "Index dimension must be 1 or 2. Got 0");
  EXPECT_EQ(error_of<IndexError>([&] {
              sparse::select_values(a, r, asarray(std::vector<double>{1, 2, 3, 4, 5}));
            }),
            "invalid index");
  // an empty selection and an empty matrix
  EXPECT_EQ(sparse::select_values(a, asarray(std::vector<i64>{}), asarray(std::vector<i64>{})).size(), 0);
  const sparse::csr z(sparse::shape2{3, 3});
  CUPP_EXPECT_ARRAY_EQUAL(sparse::select_values(z.with_kind(sparse::kind::array), asarray(std::vector<i64>{0, 2}),
                                                asarray(std::vector<i64>{1, -1})),
                          std::vector<double>{0, 0});
}

}  // namespace
}  // namespace cupp
