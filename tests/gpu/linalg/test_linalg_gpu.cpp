// The linalg module's products on a GPU, checked against a host computation of each product (in
// double, or exact integers with NumPy's wrapping): every dtype cupp::matmul serves, transposed /
// F-ordered / strided / negative-stride / broadcast operands (no result may depend on the layout),
// the int8 cuBLAS path and its wrapping, the generic integer and bool kernel, out=, and the
// per-(thread, stream) cuBLAS state (results right on several streams and threads). The NumPy
// reference cases (tests/conformance/make_products_ref.py, make_linalg_ref.py) check the rest
// through cupp eval.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/linalg.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "gemm.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using i64 = std::int64_t;

// Values exact in every float dtype: (k % 17 - 8) / 4 with k scrambled.
std::vector<double> values(i64 count, int seed) {
  std::vector<double> v(static_cast<std::size_t>(count));
  for (i64 i = 0; i < count; ++i) v[static_cast<std::size_t>(i)] = static_cast<double>(((i * 37 + seed) % 101) % 17 - 8) / 4.0;
  return v;
}

ndarray device(const std::vector<double>& v, std::initializer_list<i64> shape, dtype type) {
  return astype(asarray(v).reshape(shape), type);
}

// C-ordered host matrix product of (batch, n, k) and (batch, k, m), plus the sums of |products|.
void host_matmul(const std::vector<double>& a, const std::vector<double>& b, i64 batch, i64 n, i64 k, i64 m,
                 std::vector<double>& c, std::vector<double>& scale) {
  c.assign(static_cast<std::size_t>(batch * n * m), 0.0);
  scale.assign(c.size(), 0.0);
  for (i64 z = 0; z < batch; ++z)
    for (i64 i = 0; i < n; ++i)
      for (i64 j = 0; j < m; ++j) {
        double s = 0, t = 0;
        for (i64 p = 0; p < k; ++p) {
          const double x = a[static_cast<std::size_t>((z * n + i) * k + p)] * b[static_cast<std::size_t>((z * k + p) * m + j)];
          s += x;
          t += std::abs(x);
        }
        c[static_cast<std::size_t>((z * n + i) * m + j)] = s;
        scale[static_cast<std::size_t>((z * n + i) * m + j)] = t;
      }
}

// The rounding a product in `type` may carry: its output rounding plus K accumulations.
double bound(dtype type, i64 k) {
  switch (type.id()) {
    case type_id::float16: return std::ldexp(1.0, -10) + k * std::ldexp(1.0, -23);
    case type_id::bfloat16: return std::ldexp(1.0, -7) + k * std::ldexp(1.0, -23);
    case type_id::float32: case type_id::complex64: return (2.0 + k) * std::ldexp(1.0, -23);
    default: return (2.0 + k) * std::ldexp(1.0, -52);
  }
}

void expect_close(const ndarray& got, const std::vector<double>& want, const std::vector<double>& scale, dtype type,
                  i64 k, const std::string& what) {
  ASSERT_EQ(got.dtype(), type) << what;
  const std::vector<double> g = astype(got, float64).ravel().to_vector<double>();
  ASSERT_EQ(g.size(), want.size()) << what;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < g.size(); ++i)
    if (!(std::abs(g[i] - want[i]) <= bound(type, k) * scale[i] + 1e-300)) ++bad;
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " elements beyond the bound, e.g. element 0: " << g[0] << " vs "
                     << want[0];
}

TEST(LinalgGpu, MatmulEveryFloatDtypeMatchesTheHost) {
  CUPP_REQUIRE_GPU();
  const i64 batch = 3, n = 33, k = 70, m = 17;
  const auto a = values(batch * n * k, 1), b = values(batch * k * m, 2);
  std::vector<double> want, scale;
  host_matmul(a, b, batch, n, k, m, want, scale);
  for (dtype t : {dtype(float16), dtype(bfloat16), dtype(float32), dtype(float64)}) {
    const ndarray c = matmul(device(a, {batch, n, k}, t), device(b, {batch, k, m}, t));
    expect_close(c, want, scale, t, k, "matmul " + t.name());
  }
}

// Every gemm path (cuBLASLt, cublasGemmEx, cupp's small-product kernel of CUPP_LINALG_GEMM=kernel)
// gives the host's product: the 2-D fast path, a batch, a transposed operand, out=, and a product
// above the kernel's size (cuBLASLt then).
TEST(LinalgGpu, EveryGemmPathMatchesTheHost) {
  CUPP_REQUIRE_GPU();
  using linalg::detail::gemm_path;
  for (gemm_path path : {gemm_path::lt, gemm_path::gemmex, gemm_path::kernel}) {
    linalg::detail::set_gemm_path(path);
    const std::string name = path == gemm_path::lt ? "lt" : path == gemm_path::gemmex ? "gemmex" : "kernel";
    for (dtype t : {dtype(float32), dtype(float64)}) {
      for (const auto& [batch, n, k, m] : std::vector<std::array<i64, 4>>{{1, 64, 64, 64}, {1, 5, 33, 7}, {3, 17, 9, 12},
                                                                          {1, 200, 130, 90}}) {
        const auto a = values(batch * n * k, 3), b = values(batch * k * m, 4);
        std::vector<double> want, scale;
        host_matmul(a, b, batch, n, k, m, want, scale);
        const ndarray x = batch == 1 ? device(a, {n, k}, t) : device(a, {batch, n, k}, t);
        const ndarray y = batch == 1 ? device(b, {k, m}, t) : device(b, {batch, k, m}, t);
        const std::string what = name + " " + t.name() + " " + std::to_string(n) + "x" + std::to_string(k) + "x" +
                                 std::to_string(m);
        expect_close(matmul(x, y), want, scale, t, k, what);
        // the same product with a transposed (F-ordered) first operand and into out=
        const ndarray xt = ascontiguousarray(x.swapaxes(-1, -2)).swapaxes(-1, -2);
        const ndarray c = batch == 1 ? empty({n, m}, t) : empty({batch, n, m}, t);
        matmul(xt, y, {.out = c});
        expect_close(c, want, scale, t, k, what + " (F-ordered a, out=)");
      }
    }
  }
  linalg::detail::set_gemm_path(gemm_path::automatic);
}

TEST(LinalgGpu, ComplexMatmulMatchesTheHost) {
  CUPP_REQUIRE_GPU();
  const i64 n = 9, k = 40, m = 12;
  const auto ar = values(n * k, 3), ai = values(n * k, 4), br = values(k * m, 5), bi = values(k * m, 6);
  for (dtype t : {dtype(complex64), dtype(complex128)}) {
    const dtype real = t == complex64 ? dtype(float32) : dtype(float64);
    const ndarray a = add(device(ar, {n, k}, real), multiply(device(ai, {n, k}, real), scalar(std::complex<double>(0, 1), t)));
    const ndarray b = add(device(br, {k, m}, real), multiply(device(bi, {k, m}, real), scalar(std::complex<double>(0, 1), t)));
    const ndarray c = matmul(a, b);
    ASSERT_EQ(c.dtype(), t);
    std::vector<double> rr, ii, ri, ir, s1, s2, s3, s4;
    host_matmul(ar, br, 1, n, k, m, rr, s1);
    host_matmul(ai, bi, 1, n, k, m, ii, s2);
    host_matmul(ar, bi, 1, n, k, m, ri, s3);
    host_matmul(ai, br, 1, n, k, m, ir, s4);
    std::vector<double> re(rr.size()), im(rr.size()), sr(rr.size()), si(rr.size());
    for (std::size_t i = 0; i < rr.size(); ++i) {
      re[i] = rr[i] - ii[i];
      im[i] = ri[i] + ir[i];
      sr[i] = s1[i] + s2[i];
      si[i] = s3[i] + s4[i];
    }
    expect_close(c.real().copy(), re, sr, real, k, "real part " + t.name());
    expect_close(c.imag().copy(), im, si, real, k, "imaginary part " + t.name());
  }
}

// Every layout gives the same numbers: transposes, F order, strided and reversed views, broadcast
// batches and a stack times one matrix (float64 sums of these values are exact in any order).
TEST(LinalgGpu, LayoutsDoNotChangeTheResult) {
  CUPP_REQUIRE_GPU();
  const i64 n = 24, k = 20, m = 28;
  const auto av = values(4 * n * k, 7), bv = values(4 * k * m, 8);
  const ndarray a = asarray(av).reshape({4, n, k}), b = asarray(bv).reshape({4, k, m});
  const std::vector<double> want = matmul(a, b).ravel().to_vector<double>();
  auto same = [&](const ndarray& x, const ndarray& y, const std::string& what) {
    EXPECT_EQ(matmul(x, y).ravel().to_vector<double>(), want) << what;
  };
  const ndarray at = ascontiguousarray(a.swapaxes(-1, -2)), bt = ascontiguousarray(b.swapaxes(-1, -2));
  same(at.swapaxes(-1, -2), b, "a as a transposed view");
  same(a, bt.swapaxes(-1, -2), "b as a transposed view");
  same(at.swapaxes(-1, -2), bt.swapaxes(-1, -2), "both transposed");
  const ndarray ar = flip(a, 1);  // rows reversed: negative row stride
  const std::vector<double> wr = flip(matmul(a, b), 1).copy().ravel().to_vector<double>();
  EXPECT_EQ(matmul(ar, b).ravel().to_vector<double>(), wr) << "negative row stride";
  const ndarray bs = repeat(b, 2, 0)(slice(0, 8, 2));  // batch stride twice the matrix
  same(a, bs, "strided batch");
  const ndarray ac = repeat(a, 2, 2)(slice(), slice(), slice(0, 2 * k, 2));  // a with inner stride 2
  same(ac, b, "non-unit inner stride (copied)");
  // Broadcast batch: one matrix against a stack, both ways.
  const std::vector<double> w0 = matmul(a(0), b(1)).ravel().to_vector<double>();
  const ndarray one = a(slice(0, 1)), stack = broadcast_to(b(slice(1, 2)), {3, k, m});
  const std::vector<double> got = matmul(one, stack).ravel().to_vector<double>();
  ASSERT_EQ(got.size(), 3 * w0.size());
  for (int z = 0; z < 3; ++z)
    EXPECT_EQ(std::vector<double>(got.begin() + z * w0.size(), got.begin() + (z + 1) * w0.size()), w0) << "broadcast " << z;
  // A stack times one matrix (folded into one GEMM) equals the per-matrix products.
  const ndarray folded = matmul(a, b(0));
  for (int z = 0; z < 4; ++z)
    EXPECT_EQ(folded(z).copy().ravel().to_vector<double>(), matmul(a(z), b(0)).ravel().to_vector<double>()) << z;
}

// int8: cuBLAS's int32 sums cast down modulo 2^8 equal NumPy's wrapping int8 matmul bit for bit;
// K = 4096 (cuBLAS's IMMA path) and K = 37 (not a multiple of 4) both.
TEST(LinalgGpu, Int8WrapsAsNumPy) {
  CUPP_REQUIRE_GPU();
  for (i64 k : {i64{4096}, i64{37}}) {
    const i64 n = 8, m = 12;
    std::vector<std::int64_t> av(static_cast<std::size_t>(n * k)), bv(static_cast<std::size_t>(k * m));
    for (std::size_t i = 0; i < av.size(); ++i) av[i] = static_cast<std::int64_t>((i * 53) % 255) - 127;
    for (std::size_t i = 0; i < bv.size(); ++i) bv[i] = static_cast<std::int64_t>((i * 31) % 255) - 127;
    const ndarray a = astype(asarray(av).reshape({n, k}), int8), b = astype(asarray(bv).reshape({k, m}), int8);
    const ndarray c = matmul(a, b);
    ASSERT_EQ(c.dtype(), int8);
    const std::vector<std::int64_t> got = astype(c, int64).ravel().to_vector<std::int64_t>();
    for (i64 i = 0; i < n; ++i)
      for (i64 j = 0; j < m; ++j) {
        std::int64_t s = 0;
        for (i64 p = 0; p < k; ++p) s += av[static_cast<std::size_t>(i * k + p)] * bv[static_cast<std::size_t>(p * m + j)];
        const auto wrapped = static_cast<std::int8_t>(static_cast<std::uint8_t>(s & 0xff));
        ASSERT_EQ(got[static_cast<std::size_t>(i * m + j)], wrapped) << "k=" << k << " at " << i << "," << j;
      }
  }
}

// The generic kernel: int16, uint32, int64 and uint64 wrap as NumPy's, bool is OR of ANDs, on
// transposed and reversed operands too.
TEST(LinalgGpu, GenericKernelIntegersAndBool) {
  CUPP_REQUIRE_GPU();
  const i64 n = 19, k = 45, m = 21;
  std::vector<std::int64_t> av(static_cast<std::size_t>(n * k)), bv(static_cast<std::size_t>(k * m));
  for (std::size_t i = 0; i < av.size(); ++i) av[i] = static_cast<std::int64_t>((i * 7919) % 60001) - 30000;
  for (std::size_t i = 0; i < bv.size(); ++i) bv[i] = static_cast<std::int64_t>((i * 104729) % 50001) - 25000;
  for (dtype t : {dtype(int16), dtype(uint32), dtype(int64), dtype(uint64)}) {
    const ndarray a = astype(asarray(av).reshape({n, k}), t), b = astype(asarray(bv).reshape({k, m}), t);
    const std::vector<std::int64_t> ah = astype(a, int64).ravel().to_vector<std::int64_t>();
    const std::vector<std::int64_t> bh = astype(b, int64).ravel().to_vector<std::int64_t>();
    const ndarray c = matmul(flip(a, 0), b.T().copy().T());
    ASSERT_EQ(c.dtype(), t);
    const std::vector<std::uint64_t> got = astype(flip(c, 0), uint64, casting::unsafe).ravel().to_vector<std::uint64_t>();
    const unsigned bits = static_cast<unsigned>(t.itemsize() * 8);
    for (i64 i = 0; i < n; ++i)
      for (i64 j = 0; j < m; ++j) {
        std::uint64_t s = 0;
        for (i64 p = 0; p < k; ++p)
          s += static_cast<std::uint64_t>(ah[static_cast<std::size_t>(i * k + p)]) *
               static_cast<std::uint64_t>(bh[static_cast<std::size_t>(p * m + j)]);
        std::uint64_t w = bits == 64 ? s : (s & ((std::uint64_t{1} << bits) - 1));
        if (t.kind() == 'i' && bits < 64 && (w >> (bits - 1)) != 0) w |= ~((std::uint64_t{1} << bits) - 1);  // sign
        ASSERT_EQ(got[static_cast<std::size_t>(i * m + j)], w) << t.name() << " at " << i << "," << j;
      }
  }
  const ndarray ab = astype(asarray(av).reshape({n, k}), bool_), bb = greater(asarray(bv).reshape({k, m}), 20000);
  const std::vector<std::int64_t> got = astype(matmul(ab, bb), int64).ravel().to_vector<std::int64_t>();
  const std::vector<std::int64_t> bh = astype(bb, int64).ravel().to_vector<std::int64_t>();
  for (i64 i = 0; i < n; ++i)
    for (i64 j = 0; j < m; ++j) {
      bool any = false;
      for (i64 p = 0; p < k; ++p) any |= av[static_cast<std::size_t>(i * k + p)] != 0 && bh[static_cast<std::size_t>(p * m + j)] != 0;
      ASSERT_EQ(got[static_cast<std::size_t>(i * m + j)], any ? 1 : 0) << i << "," << j;
    }
}

TEST(LinalgGpu, OutIsWrittenAndReturned) {
  CUPP_REQUIRE_GPU();
  const ndarray a = asarray(values(6, 1)).reshape({2, 3}), b = asarray(values(12, 2)).reshape({3, 4});
  const std::vector<double> want = matmul(a, b).ravel().to_vector<double>();
  const ndarray out = zeros({2, 4});
  const ndarray r = matmul(a, b, {.out = out});
  EXPECT_EQ(r.data(), out.data());
  EXPECT_EQ(out.ravel().to_vector<double>(), want);
  const ndarray f = zeros({4, 2}).T();  // an F-ordered out
  matmul(a, b, {.out = f});
  EXPECT_EQ(f.copy().ravel().to_vector<double>(), want);
  const ndarray o32 = zeros({3, 2, 4}, float32);  // out broadcasts the batch; a cast to float32 (same_kind)
  matmul(a, b, {.out = o32});
  for (int z = 0; z < 3; ++z) EXPECT_EQ(astype(o32(z), float64).ravel().to_vector<double>(), want) << z;
  // The empty sum and empty results.
  EXPECT_EQ(matmul(zeros({2, 0}), zeros({0, 3})).ravel().to_vector<double>(), std::vector<double>(6, 0.0));
  EXPECT_EQ(matmul(zeros({0, 2}), zeros({2, 3})).size(), 0);
}

// The cuBLAS handle follows the current stream (workspace re-bound after each cublasSetStream),
// and each thread has its own handle: results are right on every stream and thread.
TEST(LinalgGpu, StreamsAndThreadsEachGetTheirBinding) {
  CUPP_REQUIRE_GPU();
  const ndarray a = asarray(values(64 * 64, 1)).reshape({64, 64}), b = asarray(values(64 * 64, 2)).reshape({64, 64});
  const std::vector<double> want = matmul(a, b).ravel().to_vector<double>();
  for (int round = 0; round < 3; ++round) {
    cuda::Stream s = cuda::Stream::create();
    cuda::StreamGuard guard(s);
    EXPECT_EQ(matmul(a, b).ravel().to_vector<double>(), want) << round;
    EXPECT_EQ(matmul(astype(a, float32), astype(b, float32)).dtype(), float32);
  }
  EXPECT_EQ(matmul(a, b).ravel().to_vector<double>(), want) << "back on the default stream";
  std::vector<double> other;
  std::thread t([&] { other = matmul(a, b).ravel().to_vector<double>(); });
  t.join();
  EXPECT_EQ(other, want);
}

TEST(LinalgGpu, ProductsAgreeWithMatmul) {
  CUPP_REQUIRE_GPU();
  const ndarray a = asarray(values(24, 1)).reshape({2, 3, 4}), b = asarray(values(20, 2)).reshape({4, 5});
  EXPECT_EQ(dot(a, b).ravel().to_vector<double>(), matmul(a, b).ravel().to_vector<double>());
  EXPECT_EQ(tensordot(a, b, 1).ravel().to_vector<double>(), matmul(a, b).ravel().to_vector<double>());
  const ndarray v = asarray(values(4, 3));
  EXPECT_EQ(vecdot(a, v).ravel().to_vector<double>(), matmul(a, v).ravel().to_vector<double>());
  EXPECT_EQ(matvec(a, v).ravel().to_vector<double>(), matmul(a, v).ravel().to_vector<double>());
  const ndarray p = linalg::matrix_power(asarray(values(9, 4)).reshape({3, 3}), 5);
  const ndarray m = asarray(values(9, 4)).reshape({3, 3});
  const ndarray want = matmul(m, matmul(matmul(m, m), matmul(m, m)));
  EXPECT_EQ(p.ravel().to_vector<double>(), want.ravel().to_vector<double>());
  const ndarray x = asarray(std::vector<double>{1, 2, 3}), y = asarray(std::vector<double>{4, 5, 6});
  EXPECT_EQ(cross(x, y).to_vector<double>(), (std::vector<double>{-3, 6, -3}));
  EXPECT_EQ(kron(x, y).to_vector<double>(), (std::vector<double>{4, 5, 6, 8, 10, 12, 12, 15, 18}));
  EXPECT_EQ(vdot(x, y).item<double>(), 32.0);
}

}  // namespace
}  // namespace cupp

namespace cupp {
namespace {

// einsum against the products it stands for (values exact in float64 and in int32 with wrapping
// alike): a matrix product, a batched one, a diagonal, sums, an outer product, ellipsis broadcast,
// a three-operand chain in every optimize mode, and a 4-D contraction against tensordot.
TEST(LinalgGpu, EinsumMatchesTheProductsItStandsFor) {
  CUPP_REQUIRE_GPU();
  auto eq = [](const ndarray& got, const ndarray& want, const std::string& what) {
    ASSERT_EQ(got.dtype(), want.dtype()) << what;
    ASSERT_EQ(std::vector<i64>(got.shape().begin(), got.shape().end()),
              std::vector<i64>(want.shape().begin(), want.shape().end())) << what;
    EXPECT_EQ(astype(got, float64).ravel().to_vector<double>(), astype(want, float64).ravel().to_vector<double>())
        << what;
  };
  const ndarray a = asarray(values(12, 1)).reshape({3, 4}), b = asarray(values(20, 2)).reshape({4, 5});
  eq(einsum("ij,jk->ik", {a, b}), matmul(a, b), "ij,jk->ik");
  eq(einsum("ij,jk", {a, b}), matmul(a, b), "implicit");
  eq(einsum("ij->ji", {a}), a.T(), "transpose");
  eq(einsum("ij->", {a}), sum(a), "sum all");
  eq(einsum("ij->j", {a}), sum(a, {.axis = 0}), "sum axis 0");
  const ndarray s = asarray(values(16, 3)).reshape({4, 4});
  eq(einsum("ii->i", {s}), s.diagonal().copy(), "diagonal");
  eq(einsum("ii", {s}), sum(s.diagonal()), "trace");
  const ndarray x = asarray(values(3, 4)), y = asarray(values(5, 5));
  eq(einsum("i,j->ij", {x, y}), outer(x, y), "outer");
  const ndarray p = asarray(values(2 * 3 * 4, 6)).reshape({2, 3, 4}), q = asarray(values(2 * 4 * 5, 7)).reshape({2, 4, 5});
  eq(einsum("bij,bjk->bik", {p, q}), matmul(p, q), "batched");
  eq(einsum("...ij,...jk->...ik", {p, b}), matmul(p, b), "ellipsis broadcast");
  const ndarray c = asarray(values(10, 8)).reshape({5, 2});
  const ndarray chain = matmul(matmul(a, b), c);
  for (const einsum_optimize& o : {einsum_optimize(false), einsum_optimize(true), einsum_optimize::optimal(),
                                   einsum_optimize::given({{1, 2}, {0, 1}})})
    eq(einsum("ij,jk,kl->il", {a, b, c}, {.optimize = o}), chain, "chain");
  const ndarray t = asarray(values(2 * 3 * 4 * 5, 9)).reshape({2, 3, 4, 5}), u = asarray(values(3 * 5 * 6, 10)).reshape({3, 5, 6});
  const int ta[] = {1, 3}, tb[] = {0, 1};
  eq(einsum("ijkl,jlm->ikm", {t, u}), tensordot(t, u, ta, tb), "ijkl,jlm->ikm");
  const ndarray ai = astype(asarray(values(12, 11)).reshape({3, 4}), int8), bi = astype(b, int8);
  eq(einsum("ij,jk->ik", {ai, bi}), matmul(ai, bi), "int8");
  eq(einsum("ij,jk->ik", {ai, bi}, {.dtype = int32}), matmul(astype(ai, int32), astype(bi, int32)), "dtype=int32");
}

}  // namespace
}  // namespace cupp
