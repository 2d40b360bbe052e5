// cupp::sparse on the GPU without reference data: SciPy's error messages for bad construction
// input and bad products (checked against the messages of scipy/sparse/_compressed.py and _coo.py),
// the matrix/array kind carried through conversions, index dtypes (int32 unless needed), products
// against an independent host computation, on a side stream and with a dtype promotion; and, when
// CUPP_SPARSE_BENCH=1, the benchmark figures (10^6 x 10^6 CSR float32, 10^7 nonzeros).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/statistics.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "cusparse_wrap.hpp"
#include "own_kernels.hpp"
#include "products_internal.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using test::error_of;

ndarray i32(std::vector<std::int32_t> v) { return asarray(v); }
ndarray f64(std::vector<double> v) { return asarray(v); }

TEST(SparseGpu, ConstructionErrorsAreSciPys) {
  CUPP_REQUIRE_GPU();
  const ndarray data = f64({1, 2, 3});
  auto csr_of = [&](ndarray indices, ndarray indptr, std::optional<sparse::shape2> shape = {}) {
    return [=] { sparse::csr(data, indices, indptr, {.shape = shape}); };
  };
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, 1, 2}), i32({0, 2, 3}), sparse::shape2{3, 3})),
            "index pointer size 3 should be 4");
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, 1, 2}), i32({1, 2, 3}))), "index pointer should start with 0");
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, 1}), i32({0, 1, 2}))), "indices and data should have the same size");
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, 1, 2}), i32({0, 2, 4}))),
            "Last value of index pointer should be less than the size of index and data arrays");
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, 5, 2}), i32({0, 2, 3}), sparse::shape2{2, 3})),
            "column index values must be < 3");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::csc(data, i32({0, 5, 2}), i32({0, 2, 3}), {.shape = sparse::shape2{3, 2}}); }),
            "row index values must be < 3");
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, -1, 2}), i32({0, 2, 3}), sparse::shape2{2, 3})),
            "column index values must be >= 0");
  EXPECT_EQ(error_of<ValueError>(csr_of(i32({0, 1, 2}), i32({0, 3, 2, 3}), sparse::shape2{3, 3})),
            "index pointer values must form a non-decreasing sequence");
  EXPECT_EQ(error_of<TypeError>(csr_of(f64({0, 1, 2}), i32({0, 2, 3}))),
            "sparse index arrays must have an integer dtype, not float64");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::coo(data, {i32({0, 1}), i32({0, 1, 2})}); }),
            "all index and data arrays must have the same length");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::coo(data, {i32({0, 4, 1}), i32({0, 1, 2})}, {.shape = sparse::shape2{3, 3}}); }),
            "axis 0 index 4 exceeds matrix dimension 3");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::coo(data, {i32({0, 1, 1}), i32({0, -2, 2})}, {.shape = sparse::shape2{3, 3}}); }),
            "negative axis 1 index: -2");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::coo(f64({}), {i32({}), i32({})}); }),
            "cannot infer dimensions from zero sized index arrays");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::csr(sparse::shape2{-1, 2}); }), "'shape' elements cannot be negative");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::csr(zeros({2, 2}, float16)); }).substr(0, 43),
            "scipy.sparse does not support dtype float16");
  // SciPy 1.18's eye(4, 4, k=7) (its diags_array): "Offset 7 (index 0) out of bounds"
  EXPECT_EQ(error_of<ValueError>([&] { sparse::eye(4, 4, 7); }), "Offset 7 (index 0) out of bounds");
  EXPECT_EQ(error_of<ValueError>([&] { sparse::eye(4, 2, -5); }), "Offset -5 (index 0) out of bounds");
  EXPECT_EQ(sparse::eye(4, 4, 4).nnz(), 0);
  const sparse::csr a(f64({1, 2, 3}), i32({0, 1, 2}), i32({0, 2, 3}), {.shape = sparse::shape2{2, 3}});
  EXPECT_EQ(error_of<ValueError>([&] { a.dot(f64({1, 2})); }), "dimension mismatch");
  EXPECT_EQ(error_of<ValueError>([&] { a.dot(zeros({2, 2})); }), "dimension mismatch");
  EXPECT_EQ(error_of<ValueError>([&] { a.dot(a); }), "dimension mismatch");
  // SciPy's upcast: bool @ float16 is float32 (the first of its dtypes float16 casts to); integer
  // products are computed (own_kernels.hpp)
  EXPECT_EQ(sparse::spmv(a.astype(bool_), ones({3}, float16)).dtype(), float32);
  CUPP_EXPECT_ARRAY_EQUAL(sparse::spmv(a.astype(int32), asarray(std::vector<std::int32_t>{1, 2, 3})),
                          std::vector<std::int32_t>{5, 9});
}

TEST(SparseGpu, ShapeInferenceKindsAndIndexDtypes) {
  CUPP_REQUIRE_GPU();
  const sparse::csr a(f64({1, 2, 3}), asarray(std::vector<std::int64_t>{0, 4, 2}), asarray(std::vector<std::int64_t>{0, 2, 3}));
  EXPECT_EQ(a.shape(), (sparse::shape2{2, 5}));
  EXPECT_EQ(a.index_dtype(), int32);  // int64 input narrowed, as SciPy's get_index_dtype(check_contents=True)
  EXPECT_FALSE(a.is_array());
  const sparse::csr b = sparse::csr_array(a);
  EXPECT_TRUE(b.is_array());
  EXPECT_TRUE(b.tocsc().is_array());
  EXPECT_TRUE(b.tocoo().is_array());
  EXPECT_TRUE(b.transpose().is_array());
  EXPECT_TRUE(sparse::eye_array(3).is_array());
  EXPECT_FALSE(sparse::identity(3).is_array());
  EXPECT_EQ(sparse::csr(zeros({3, 4})).nnz(), 0);
  EXPECT_EQ(sparse::csr(zeros({3, 4})).shape(), (sparse::shape2{3, 4}));
  EXPECT_EQ(sparse::csr(f64({0, 1, 0, 2})).shape(), (sparse::shape2{1, 4}));  // 1-D: one row
  const sparse::coo c(f64({1, 2}), {i32({2, 0}), i32({1, 3})});
  EXPECT_EQ(c.shape(), (sparse::shape2{3, 4}));
  EXPECT_FALSE(c.has_canonical_format());
  EXPECT_TRUE(c.tocsr().has_canonical_format());
  // a column dimension beyond int32: int64 indices (SciPy's maxval rule); entries stay few
  const sparse::csr wide(f64({1}), i32({5}), i32({0, 1}), {.shape = sparse::shape2{1, 3000000000LL}});
  EXPECT_EQ(wide.index_dtype(), int64);
  EXPECT_EQ(wide.tocoo().index_dtype(), int64);
  CUPP_EXPECT_ARRAY_EQUAL(wide.tocoo().col(), std::vector<std::int64_t>{5});
}

// y = A x and C = A B checked against loops over the host copies of the arrays.
TEST(SparseGpu, ProductsMatchAHostComputationOnASideStream) {
  CUPP_REQUIRE_GPU();
  const std::int64_t m = 50, n = 37, k = 5;
  std::vector<double> data;
  std::vector<std::int32_t> indices, indptr{0};
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = (i * 7) % 5; j < n; j += 3 + i % 4) {
      data.push_back(static_cast<double>((i * 31 + j * 17) % 11) - 5.0);
      indices.push_back(static_cast<std::int32_t>(j));
    }
    indptr.push_back(static_cast<std::int32_t>(indices.size()));
  }
  std::vector<float> x(n), b(n * k);
  for (std::int64_t j = 0; j < n; ++j) x[j] = static_cast<float>(j % 7) - 3.0f;
  for (std::int64_t j = 0; j < n * k; ++j) b[j] = static_cast<float>(j % 5) * 0.5f;
  std::vector<double> y(m, 0.0), cc(m * k, 0.0);
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int32_t p = indptr[i]; p < indptr[i + 1]; ++p) {
      y[i] += data[p] * x[indices[p]];
      for (std::int64_t q = 0; q < k; ++q) cc[i * k + q] += data[p] * b[indices[p] * k + q];
    }
  const cuda::Stream side = cuda::Stream::create({.non_blocking = true});
  const cuda::StreamGuard guard(side);
  const sparse::csr a(asarray(data), asarray(indices), asarray(indptr), {.shape = sparse::shape2{m, n}});
  const ndarray xd = asarray(x), bd = asarray(b).reshape({n, k});
  const ndarray yd = a.dot(xd);  // float64 @ float32: float64, as SciPy's upcast
  EXPECT_EQ(yd.dtype(), float64);
  CUPP_EXPECT_ALLCLOSE(yd, y, {.rtol = 1e-12});
  CUPP_EXPECT_ALLCLOSE(a.dot(bd).reshape({m * k}), cc, {.rtol = 1e-12});
  CUPP_EXPECT_ALLCLOSE(a.astype(float32).dot(xd), asarray(y).get(), {.rtol = 1e-5});
  // A @ I is A; I @ A is A
  CUPP_EXPECT_ARRAY_EQUAL(a.dot(sparse::identity(n)).toarray(), a.toarray());
  CUPP_EXPECT_ARRAY_EQUAL(sparse::identity(m).dot(a).toarray(), a.toarray());
  side.synchronize();
}

// The SpMV/SpMM descriptor and plans (work buffer, preprocessing) live in the object: reused by the
// next product on the same stream, freed with the last handle; a call on another stream gets a
// plan (buffer) for that stream.
TEST(SparseGpu, ProductCacheIsPerObjectAndStreamBound) {
  CUPP_REQUIRE_GPU();
  const ndarray d = array<float>({{1, 0, 2}, {0, 0, 3}, {4, 5, 0}});
  std::weak_ptr<sparse::detail::product_cache> old;
  const cuda::Stream side = cuda::Stream::create({.non_blocking = true});  // outlives the buffers made for it
  {
    sparse::csr a(d);
    const ndarray x = ones({3}, float32), b = ones({3, 2}, float32);
    CUPP_EXPECT_ARRAY_EQUAL(a.dot(x), std::vector<float>{3, 3, 9});
    const auto cache = a.cache();
    const void* descr = cache->descr.get();
    ASSERT_NE(descr, nullptr);
    ASSERT_EQ(cache->plans.size(), 1u);
    EXPECT_EQ(cache->plans[0].op, sparse::detail::operation::spmv);
    EXPECT_TRUE(cache->plans[0].sized);
    const void* buffer = cache->plans[0].buffer.ptr();
    CUPP_EXPECT_ARRAY_EQUAL(a.dot(x), std::vector<float>{3, 3, 9});
    CUPP_EXPECT_ARRAY_EQUAL(a.dot(b).reshape({6}), std::vector<float>{3, 3, 3, 3, 9, 9});
    CUPP_EXPECT_ARRAY_EQUAL(a.dot(b).reshape({6}), std::vector<float>{3, 3, 3, 3, 9, 9});
    EXPECT_EQ(cache->descr.get(), descr);
    ASSERT_EQ(cache->plans.size(), 2u);  // one SpMV plan, one SpMM plan (2 columns), each made once
    EXPECT_EQ(cache->plans[0].buffer.ptr(), buffer);
    EXPECT_EQ(cache->plans[1].op, sparse::detail::operation::spmm);
    EXPECT_EQ(cache->plans[1].cols, 2);
    const sparse::csr shared = a;  // a copy of the handle shares the cache
    EXPECT_EQ(shared.cache(), cache);
    a.sort_indices();  // already sorted: nothing rebound
    EXPECT_EQ(a.cache(), cache);
    old = cache;
    {
      const cuda::StreamGuard guard(side);
      CUPP_EXPECT_ARRAY_EQUAL(a.dot(x), std::vector<float>{3, 3, 9});
      EXPECT_EQ(cache->plans[0].stream, side.handle());  // the plan (and its buffer) is for the call's stream
      if (cache->plans[0].buffer) EXPECT_EQ(cache->plans[0].buffer.stream(), side.handle());
      side.synchronize();
    }
    CUPP_EXPECT_ARRAY_EQUAL(a.dot(x), std::vector<float>{3, 3, 9});  // back on the default stream
  }
  EXPECT_TRUE(old.expired());  // freed with the object
}

// `*` is A @ B for *_matrix objects and element-wise for *_array ones, as in SciPy; sums follow the
// kind's shapes (np.matrix (M, 1) / (1, N) against 1-D).
TEST(SparseGpu, StarAndSumFollowTheKind) {
  CUPP_REQUIRE_GPU();
  const ndarray d = array<double>({{1, 2}, {0, 3}});
  const sparse::csr m = sparse::csr_matrix(d), a = sparse::csr_array(d);
  CUPP_EXPECT_ARRAY_EQUAL((m * m).toarray(), array<double>({{1, 8}, {0, 9}}));
  CUPP_EXPECT_ARRAY_EQUAL((a * a).toarray(), array<double>({{1, 4}, {0, 9}}));
  CUPP_EXPECT_ARRAY_EQUAL((2.0 * a - a).toarray(), d);
  EXPECT_EQ((a - a).nnz(), 0);  // zeros of a result are not stored
  CUPP_EXPECT_ARRAY_EQUAL(sparse::sum(a, 1), std::vector<double>{3, 3});
  CUPP_EXPECT_ARRAY_EQUAL(sparse::sum(m, 1), array<double>({{3}, {3}}));
  CUPP_EXPECT_ARRAY_EQUAL(sparse::sum(m, 0), array<double>({{1, 5}}));
  CUPP_EXPECT_ARRAY_EQUAL(sparse::sum(m), std::vector<double>{6}.front());
  EXPECT_EQ(error_of<AxisError>([&] { sparse::sum(m, 2); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(error_of<ValueError>([&] { (void)(a + sparse::csr_array(zeros({3, 2}))); }), "inconsistent shapes");
}

// The module's SpMM kernels (own_kernels.hpp's spmm_kernel) on rows of 0 to 40 entries (empty rows,
// rows longer than a lane group and not a multiple of four, repeated columns), int32 and int64
// indices, float32 and float64, column counts that fill the lanes, leave some idle, span several
// stretches, or are no multiple of 16 bytes (where the vec forms give way to warp): every form
// against a host sum in double, and bitwise the warp kernel's result (every form sums a row's
// entries in index order: the same roundings).
TEST(SparseGpu, SpmmKernelFormsMatchTheWarpKernel) {
  CUPP_REQUIRE_GPU();
  using sparse::detail::spmm_kernel;
  const std::int64_t m = 70, n = 53;
  std::vector<double> data;
  std::vector<std::int64_t> indices, indptr{0};
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int64_t len = (i * 7) % 41;
    for (std::int64_t t = 0; t < len; ++t) {
      indices.push_back((i * 13 + t * 7) % n);
      data.push_back(0.1 * static_cast<double>((i * 31 + t * 17) % 23) - 1.05);
    }
    indptr.push_back(static_cast<std::int64_t>(indices.size()));
  }
  for (const dtype& t : {float32, float64}) {
    for (const bool wide : {false, true}) {
      const ndarray ind = wide ? asarray(indices) : astype(asarray(indices), int32);
      const ndarray ptr = wide ? asarray(indptr) : astype(asarray(indptr), int32);
      const sparse::csr a = sparse::csr::from_parts(astype(asarray(data), t), ind, ptr, {m, n}, sparse::kind::matrix,
                                                    false, false);
      ASSERT_EQ(a.index_dtype(), wide ? int64 : int32);
      for (const std::int64_t k : {1, 4, 6, 8, 60, 64, 128, 200}) {
        SCOPED_TRACE(t.name() + (wide ? " int64" : " int32") + " k=" + std::to_string(k));
        std::vector<double> bh(n * k), want(m * k, 0.0);
        for (std::int64_t j = 0; j < n * k; ++j) bh[j] = 0.01 * static_cast<double>((j * 37) % 101) - 0.5;
        const ndarray b = astype(asarray(bh), t).reshape({n, k});
        const std::vector<double> bt = astype(b, float64).to_vector<double>();  // B as the device holds it
        const std::vector<double> dt = astype(a.data(), float64).to_vector<double>();
        for (std::int64_t i = 0; i < m; ++i)
          for (std::int64_t p = indptr[i]; p < indptr[i + 1]; ++p)
            for (std::int64_t q = 0; q < k; ++q) want[i * k + q] += dt[p] * bt[indices[p] * k + q];
        const ndarray expected = asarray(want).reshape({m, k});
        const double rtol = t == float32 ? 1e-4 : 1e-12;
        const ndarray warp = sparse::detail::own_spmm_with(a, b, spmm_kernel::warp);
        CUPP_EXPECT_ALLCLOSE(astype(warp, float64), expected, {.rtol = rtol, .atol = rtol});
        const bool vec_applies = k % (16 / static_cast<std::int64_t>(t.itemsize())) == 0;
        for (const spmm_kernel form : sparse::detail::spmm_kernels) {
          SCOPED_TRACE(sparse::detail::spmm_kernel_name(form));
          spmm_kernel ran = spmm_kernel::warp;
          const ndarray c = sparse::detail::own_spmm_with(a, b, form, &ran);
          EXPECT_EQ(ran, vec_applies ? form : spmm_kernel::warp);
          ASSERT_EQ(c.dtype(), t);
          CUPP_EXPECT_ALLCLOSE(astype(c, float64), expected, {.rtol = rtol, .atol = rtol});
          EXPECT_TRUE(array_equal(c, warp).item<bool>());
        }
      }
    }
  }
  // B not 16-byte aligned (a view one element into its buffer): the warp kernel, the same values
  const sparse::csr a(f64({1, 2, 3}), i32({0, 1, 2}), i32({0, 2, 3}), {.shape = sparse::shape2{2, 3}});
  const ndarray flat = astype(arange(3 * 4 + 1, int64), float32);
  const ndarray b = flat(cupp::slice(1, std::nullopt)).reshape({3, 4});
  spmm_kernel ran = spmm_kernel::vec;
  const ndarray c = sparse::detail::own_spmm_with(a.astype(float32), b, spmm_kernel::shuffled_cs, &ran);
  EXPECT_EQ(ran, spmm_kernel::warp);
  ASSERT_NE(reinterpret_cast<std::uintptr_t>(b.data()) % 16, 0u);
  CUPP_EXPECT_ARRAY_EQUAL(c.reshape({8}), std::vector<float>{11, 14, 17, 20, 27, 30, 33, 36});
}

// spgemm's policy (products_internal.hpp): plain products until the same product has come
// spgemm_plain_repeats times in a row, then A's reuse state; a reused pattern serves only the product
// it was built for (A's arrays, B's pattern arrays, the stream): a new B pattern, A's pattern
// changed (setdiag rebinds A's arrays, so its cache is new), or another stream take the plain path,
// and new values in A's or B's arrays are read by the reused product.
TEST(SparseGpu, SpgemmReuseFollowsItsPolicyAndKey) {
  CUPP_REQUIRE_GPU();
  using sparse::detail::spgemm_plain_repeats;
  using sparse::detail::spgemm_reuse_built;
  sparse::csr a(sparse::random(90, 90, {.density = 0.06, .dtype = float32, .seed = 3}));
  a.sum_duplicates();
  sparse::csr b(sparse::random(90, 70, {.density = 0.07, .dtype = float32, .seed = 4}));
  b.sum_duplicates();
  const auto dense_product = [](const sparse::csr& x, const sparse::csr& y) {
    return cupp::matmul(astype(x.toarray(), float64), astype(y.toarray(), float64));
  };
  const auto expect_product = [&](const sparse::csr& c, const sparse::csr& x, const sparse::csr& y) {
    CUPP_EXPECT_ALLCLOSE(astype(c.toarray(), float64), dense_product(x, y), {.rtol = 1e-5, .atol = 1e-5});
  };
  // a one-off product and its first repeats: plain, no state
  for (int i = 0; i < spgemm_plain_repeats; ++i) {
    expect_product(sparse::spgemm(a, b), a, b);
    EXPECT_FALSE(spgemm_reuse_built(a)) << i;
  }
  const sparse::csr built = sparse::spgemm(a, b);  // the repeat that builds the state
  EXPECT_TRUE(spgemm_reuse_built(a));
  expect_product(built, a, b);
  const sparse::csr again = sparse::spgemm(a, b);
  EXPECT_EQ(again.indices().data(), built.indices().data());  // the state's pattern
  CUPP_EXPECT_ARRAY_EQUAL(again.toarray(), built.toarray());
  // another B pattern (the same shape): plain, right, and the state stays for B
  sparse::csr b2(sparse::random(90, 70, {.density = 0.05, .dtype = float32, .seed = 5}));
  b2.sum_duplicates();
  const sparse::csr other = sparse::spgemm(a, b2);
  EXPECT_NE(other.indices().data(), built.indices().data());
  expect_product(other, a, b2);
  EXPECT_EQ(sparse::spgemm(a, b).indices().data(), built.indices().data());
  // new values in B's own array, and B's pattern with other values: read by the reused product
  cupp::copyto(b.data(), multiply(b.data(), 2.0f));
  const sparse::csr twice = sparse::spgemm(a, b);
  EXPECT_EQ(twice.indices().data(), built.indices().data());
  expect_product(twice, a, b);
  const sparse::csr b3 = sparse::csr::from_parts(multiply(b.data(), -1.0f), b.indices(), b.indptr(), b.shape(),
                                                 b.kind(), true, true);
  expect_product(sparse::spgemm(a, b3), a, b3);
  // another stream: not the state's product (plain there); back on the default stream the state serves
  {
    const cuda::Stream side = cuda::Stream::create({.non_blocking = true});
    const cuda::StreamGuard guard(side);
    const sparse::csr on_side = sparse::spgemm(a, b);
    EXPECT_NE(on_side.indices().data(), built.indices().data());
    expect_product(on_side, a, b);
    side.synchronize();
  }
  EXPECT_EQ(sparse::spgemm(a, b).indices().data(), built.indices().data());
  // A's pattern changed: its arrays (and cache) are new, the products plain and right again
  const sparse::csr before = a;  // the old handle keeps the old arrays and their state
  a.setdiag(ones({90}, float32));
  EXPECT_FALSE(spgemm_reuse_built(a));
  EXPECT_TRUE(spgemm_reuse_built(before));
  for (int i = 0; i <= spgemm_plain_repeats; ++i) expect_product(sparse::spgemm(a, b), a, b);
  EXPECT_TRUE(spgemm_reuse_built(a));
  expect_product(sparse::spgemm(before, b), before, b);
  // A @ A through dot (which multiplies a copy of A's handle): the state lands in A's cache
  sparse::csr sq(sparse::random(60, 60, {.density = 0.1, .dtype = float64, .seed = 8}));
  sq.sum_duplicates();
  for (int i = 0; i <= spgemm_plain_repeats; ++i) {
    EXPECT_FALSE(spgemm_reuse_built(sq)) << i;
    CUPP_EXPECT_ALLCLOSE(sq.dot(sq).toarray(), dense_product(sq, sq), {.rtol = 1e-12, .atol = 1e-12});
  }
  EXPECT_TRUE(spgemm_reuse_built(sq));
}

double time_ms(const std::function<void()>& f, int reps, int warmups = 1) {
  for (int i = 0; i < warmups; ++i) f();
  cuda::Event start, stop;
  start.record();
  for (int i = 0; i < reps; ++i) f();
  stop.record();
  stop.synchronize();
  return start.elapsed_ms(stop) / reps;
}

// The figures: CUPP_SPARSE_BENCH=1 ./cupp_gpu_tests --gtest_filter=SparseGpu.BenchFigures
TEST(SparseGpu, BenchFigures) {
  CUPP_REQUIRE_GPU();
  const char* env = std::getenv("CUPP_SPARSE_BENCH");
  if (!env || std::string(env) != "1") GTEST_SKIP() << "set CUPP_SPARSE_BENCH=1 for the benchmark figures";
  const std::int64_t n = 1000000, per_row = 10, nnz = n * per_row;
  // columns from a multiplicative hash of the entry number (10 per row, rows in order)
  const ndarray cols = astype(remainder(multiply(arange(nnz, int64), std::int64_t{2654435761LL}), n), int32);
  const ndarray indptr = arange(0, nnz + 1, per_row, int32);
  const ndarray data = astype(add(remainder(arange(nnz, int64), 7), 1), float32);
  sparse::csr a(data, cols, indptr, {.shape = sparse::shape2{n, n}});
  a.sum_duplicates();
  const ndarray x = ones({n}, float32), b = ones({n, 64}, float32);
  const double spmv = time_ms([&] { (void)a.dot(x); }, 50);
  const double spmm = time_ms([&] { (void)a.dot(b); }, 10);
  // SpGEMM: a loop of A @ A (the warm-ups take it past spgemm's plain repeats and the one that builds
  // the reuse state, so this is what each product of a loop costs), and a one-off product (each on a
  // fresh copy of A, as a product of a new matrix: the plain path), timed alone
  const double spgemm = time_ms([&] { (void)a.dot(a); }, 5, sparse::detail::spgemm_plain_repeats + 2);
  const auto one_product_ms = [&](const std::function<void()>& f) {
    cuda::Event s0, s1;
    s0.record();
    f();
    s1.record();
    s1.synchronize();
    return static_cast<double>(s0.elapsed_ms(s1));
  };
  double spgemm_once = 0;
  for (int i = 0; i < 2; ++i) {
    const sparse::csr fresh = a.copy();
    spgemm_once += one_product_ms([&] { (void)fresh.dot(fresh); }) / 2;
  }
  const double tocsc = time_ms([&] { (void)a.tocsc(); }, 20);
  const double tocoo = time_ms([&] { (void)a.tocoo(); }, 20);
  std::printf("SPARSE_BENCH nnz=%lld spmv_ms=%.4f spmm64_ms=%.4f (x%.1f) spgemm_ms=%.3f spgemm_once_ms=%.3f "
              "tocsc_ms=%.4f tocoo_ms=%.4f\n",
              static_cast<long long>(a.nnz()), spmv, spmm, spmm / spmv, spgemm, spgemm_once, tocsc, tocoo);
  // The algorithm choices behind spmv/spmm (products.cpp's defaults come from these lines): each on a
  // fresh copy (its own plans), checked against the default's result and for bitwise repeatability.
  const ndarray y0 = a.dot(x), c0 = a.dot(b);
  const auto same_bits = [](const ndarray& u, const ndarray& v) { return cupp::array_equal(u, v).item<bool>(); };
  for (const auto& [name, alg] : {std::pair{"csr_alg1", CUSPARSE_SPMV_CSR_ALG1}, std::pair{"csr_alg2", CUSPARSE_SPMV_CSR_ALG2}}) {
    for (const bool pre : {false, true}) {
      const sparse::csr v = a.copy();
      const double ms = time_ms([&] { (void)sparse::detail::spmv_with(v, x, alg, pre); }, 50);
      const ndarray y1 = sparse::detail::spmv_with(v, x, alg, pre), y2 = sparse::detail::spmv_with(v, x, alg, pre);
      std::printf("SPARSE_BENCH_SPMV %s preprocess=%d ms=%.4f close=%d repeatable=%d\n", name, pre ? 1 : 0, ms,
                  cupp::allclose(y1, y0, {.rtol = 1e-5}).item<bool>() ? 1 : 0, same_bits(y1, y2) ? 1 : 0);
    }
  }
  for (const auto& [name, alg] : {std::pair{"csr_alg1", CUSPARSE_SPMM_CSR_ALG1}, std::pair{"csr_alg2", CUSPARSE_SPMM_CSR_ALG2},
                                  std::pair{"csr_alg3", CUSPARSE_SPMM_CSR_ALG3}}) {
    for (const bool pre : {false, true}) {
      const sparse::csr v = a.copy();
      const double ms = time_ms([&] { (void)sparse::detail::spmm_with(v, b, alg, pre); }, 10);
      const ndarray c1 = sparse::detail::spmm_with(v, b, alg, pre), c2 = sparse::detail::spmm_with(v, b, alg, pre);
      std::printf("SPARSE_BENCH_SPMM64 %s preprocess=%d ms=%.4f (x%.1f of spmv) close=%d repeatable=%d\n", name,
                  pre ? 1 : 0, ms, ms / spmv, cupp::allclose(c1, c0, {.rtol = 1e-5}).item<bool>() ? 1 : 0, same_bits(c1, c2) ? 1 : 0);
    }
  }
  // The tocsc candidates (own_kernels.hpp): CUB's stable radix sort of packed entries and
  // csr2cscEx2, each on the same arrays, their results compared array for array (both stable).
  {
    using sparse::detail::tocsc_method;
    const auto swap = [&](tocsc_method m) {
      return sparse::detail::swap_major(a.data(), a.indices(), a.indptr(), n, n, m);
    };
    const bool sort_applies = sparse::detail::sort_swap_applies(a.dtype(), n);
    const double sort_ms = sort_applies ? time_ms([&] { (void)swap(tocsc_method::sort); }, 20) : -1.0;
    const double cusparse_ms = time_ms([&] { (void)swap(tocsc_method::cusparse); }, 20);
    bool same = false;
    if (sort_applies) {
      const sparse::detail::swapped s1 = swap(tocsc_method::sort), s2 = swap(tocsc_method::cusparse);
      same = cupp::array_equal(s1.data, s2.data).item<bool>() && cupp::array_equal(s1.indices, s2.indices).item<bool>() &&
             cupp::array_equal(s1.indptr, s2.indptr).item<bool>();
    }
    std::printf("SPARSE_BENCH_TOCSC sort_ms=%.4f cusparse_ms=%.4f default_ms=%.4f same=%d sort_applies=%d (target <= 0.70)\n",
                sort_ms, cusparse_ms, tocsc, same ? 1 : 0, sort_applies ? 1 : 0);
    EXPECT_TRUE(!sort_applies || same);
  }
  // SpMV by the module's lane-group kernel (a candidate: cusparseSpMV CSR_ALG2 stays the default
  // until these lines show it ahead), for 4, 8 (spmv_group_for's choice here) and 16 lanes a row
  for (const int group : {4, 8, 16}) {
    const sparse::csr v = a.copy();
    const double ms = time_ms([&] { (void)sparse::detail::own_spmv_groups(v, x, group); }, 50);
    const ndarray y1 = sparse::detail::own_spmv_groups(v, x, group), y2 = sparse::detail::own_spmv_groups(v, x, group);
    std::printf("SPARSE_BENCH_SPMV cupp_groups group=%d ms=%.4f close=%d repeatable=%d%s\n", group, ms,
                cupp::allclose(y1, y0, {.rtol = 1e-5}).item<bool>() ? 1 : 0, same_bits(y1, y2) ? 1 : 0,
                group == sparse::detail::spmv_group_for(a.nnz(), n) ? " (the group it would take)" : "");
    EXPECT_TRUE(cupp::allclose(y1, y0, {.rtol = 1e-5}).item<bool>());
  }
  // SpMM by the module's kernels (own_kernels.hpp's spmm_kernel: warp-per-row, and spmm_vec's
  // 16-byte forms) against the cuSPARSE candidates above; `same_as_warp`: bitwise the warp kernel's
  // result (the in-order forms must be), `ran`: the kernel that ran (warp where a form does not apply)
  {
    const double ms = time_ms([&] { (void)sparse::detail::own_spmm(a, b); }, 10);
    const ndarray c1 = sparse::detail::own_spmm(a, b), c2 = sparse::detail::own_spmm(a, b);
    std::printf("SPARSE_BENCH_SPMM64 cupp_kernel ms=%.4f (x%.1f of spmv) close=%d repeatable=%d default=%s (target <= 10x)\n",
                ms, ms / spmv, cupp::allclose(c1, c0, {.rtol = 1e-5}).item<bool>() ? 1 : 0, same_bits(c1, c2) ? 1 : 0,
                sparse::detail::spmm_kernel_name(sparse::detail::spmm_kernel_default()));
    EXPECT_TRUE(cupp::allclose(c1, c0, {.rtol = 1e-5}).item<bool>());
    const ndarray warp = sparse::detail::own_spmm_with(a, b, sparse::detail::spmm_kernel::warp);
    for (const sparse::detail::spmm_kernel form : sparse::detail::spmm_kernels) {
      sparse::detail::spmm_kernel ran{};
      const double form_ms = time_ms([&] { (void)sparse::detail::own_spmm_with(a, b, form); }, 10);
      const ndarray f1 = sparse::detail::own_spmm_with(a, b, form, &ran), f2 = sparse::detail::own_spmm_with(a, b, form);
      const bool close = cupp::allclose(f1, c0, {.rtol = 1e-5}).item<bool>();
      std::printf("SPARSE_BENCH_SPMM64 cupp_form=%s ms=%.4f (x%.2f of spmv) close=%d repeatable=%d same_as_warp=%d ran=%s\n",
                  sparse::detail::spmm_kernel_name(form), form_ms, form_ms / spmv, close ? 1 : 0, same_bits(f1, f2) ? 1 : 0,
                  same_bits(f1, warp) ? 1 : 0, sparse::detail::spmm_kernel_name(ran));
      EXPECT_TRUE(close) << sparse::detail::spmm_kernel_name(form);
      EXPECT_TRUE(same_bits(f1, f2)) << sparse::detail::spmm_kernel_name(form);
    }
  }
  // SpGEMM's paths (products.cpp): five products in a row of a fresh copy through the public API,
  // each timed alone (spgemm_plain_repeats plain ones, the one that builds the reuse state, then
  // repeats that find it), whether the state was built after each; the loop of repeats; the reuse
  // state built at once on a fresh copy (detail::spgemm_reused: the symbolic phases and a compute);
  // and the plain cusparseSpGEMM product (workEstimation, compute, copy each time), DEFAULT and ALG3
  {
    const sparse::csr g = a.copy();
    std::string calls, built;
    sparse::csr c_first;
    for (int i = 0; i < 5; ++i) {
      sparse::csr c;
      const double ms = one_product_ms([&] { c = g.dot(g); });
      if (i == 0) c_first = c;
      char field[32];
      std::snprintf(field, sizeof field, "%s%.3f", i ? "," : "", ms);
      calls += field;
      built += sparse::detail::spgemm_reuse_built(g) ? '1' : '0';
    }
    EXPECT_EQ(built, std::string(sparse::detail::spgemm_plain_repeats, '0') +
                         std::string(5 - sparse::detail::spgemm_plain_repeats, '1'));
    const double reused_ms = time_ms([&] { (void)g.dot(g); }, 5);
    const sparse::csr c_reused = g.dot(g);
    double build_ms = 0;
    {
      const sparse::csr h = a.copy();
      build_ms = one_product_ms([&] { (void)sparse::detail::spgemm_reused(h, h); });
    }
    const double plain_ms = time_ms([&] { (void)sparse::detail::spgemm_alg(g, g, CUSPARSE_SPGEMM_DEFAULT); }, 3);
    const double alg3_ms = time_ms([&] { (void)sparse::detail::spgemm_alg(g, g, CUSPARSE_SPGEMM_ALG3); }, 3);
    const sparse::csr c_plain = sparse::detail::spgemm_alg(g, g, CUSPARSE_SPGEMM_DEFAULT);
    const auto same_as_plain = [&](const sparse::csr& c) {
      return c.nnz() == c_plain.nnz() && cupp::array_equal(c.indptr(), c_plain.indptr()).item<bool>() &&
             cupp::array_equal(c.indices(), c_plain.indices()).item<bool>() &&
             cupp::allclose(c.data(), c_plain.data(), {.rtol = 1e-5}).item<bool>();
    };
    const bool same = same_as_plain(c_first) && same_as_plain(c_reused);
    // the module's own SpGEMM kernels (CUPP_SPARSE_SPGEMM=cupp; spgemm.cuh): nothing is cached
    // between its calls, so its loop is what one product costs
    const double own_ms = time_ms([&] { (void)sparse::detail::own_spgemm(g, g, g.dtype(), g.kind()); }, 3);
    const std::optional<sparse::csr> c_own = sparse::detail::own_spgemm(g, g, g.dtype(), g.kind());
    const bool own_same = c_own && same_as_plain(*c_own);
    const std::optional<sparse::csr> c_own2 = sparse::detail::own_spgemm(g, g, g.dtype(), g.kind());
    const bool own_repeatable = c_own && c_own2 && same_bits(c_own->data(), c_own2->data());
    std::printf("SPARSE_BENCH_SPGEMM_OWN own_ms=%.3f same_pattern_as_cusparse=%d repeatable=%d (CUPP_SPARSE_SPGEMM=cupp; "
                "target <= CuPy's one product)\n",
                own_ms, own_same ? 1 : 0, own_repeatable ? 1 : 0);
    EXPECT_TRUE(own_same);
    EXPECT_TRUE(own_repeatable);
    std::printf("SPARSE_BENCH_SPGEMM nnz_c=%lld calls_ms=%s built=%s reused_ms=%.3f build_ms=%.3f plain_default_ms=%.3f "
                "plain_alg3_ms=%.3f same=%d (one-off = plain; target <= CuPy)\n",
                static_cast<long long>(c_first.nnz()), calls.c_str(), built.c_str(), reused_ms, build_ms, plain_ms,
                alg3_ms, same ? 1 : 0);
    EXPECT_TRUE(same);
  }
  // tocoo's row expansion against the write floor: a device-to-device copy of the same bytes
  const ndarray rows_like = empty({nnz}, int32);
  const double copy_ms = time_ms([&] { cupp::copyto(rows_like, a.indices()); }, 20);
  std::printf("SPARSE_BENCH_TOCOO tocoo_ms=%.4f copy_of_indices_ms=%.4f\n", tocoo, copy_ms);
  save_npz("/tmp/cupp-sparse-bench.npz", a, false);
}

}  // namespace
}  // namespace cupp
