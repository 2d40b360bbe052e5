// ReductionKernel on the GPU: sum of squares, L2 norm with a post-map, max-abs with an identity,
// axis tuples, keepdims, out=, mixed dtypes, long reductions (two passes) and both layout
// classes, empty reductions; errors. References computed on the host.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/reduction_kernel.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

ndarray wave(std::int64_t n, dtype type) {  // values of both signs
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(static_cast<int>(i * 7 % 23) - 11);
  return astype(asarray(v), type);
}

shape_t dims(const ndarray& a) { return shape_t(a.shape().begin(), a.shape().end()); }

std::vector<double> host(const ndarray& a) { return astype(ascontiguousarray(a), float64).to_vector<double>(); }

const ReductionKernel& sumsq() {
  static const ReductionKernel k("T x", "T y", "x * x", "a + b", "y = a", "0", "sumsq");
  return k;
}

TEST(ReductionKernelGpu, SumOfSquaresAndL2Norm) {
  CUPP_REQUIRE_GPU();
  const ndarray x = wave(1000, float64);
  const std::vector<double> v = host(x);
  double ss = 0;
  for (double e : v) ss += e * e;
  const ndarray s = sumsq()(x);
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.dtype(), float64);
  EXPECT_EQ(s.item<double>(), ss);
  const ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  EXPECT_NEAR(l2norm(astype(x, float32)).item<float>(), std::sqrt(ss), 1e-3);
  // Rows (axis 1) and columns (axis 0) of a 2-D array, keepdims.
  const ndarray m = x.reshape({40, 25});
  const ndarray rows = l2norm(m, {.axis = 1, .keepdims = true});
  ASSERT_EQ(dims(rows), (shape_t{40, 1}));
  const ndarray cols = l2norm(m, {.axis = 0});
  ASSERT_EQ(dims(cols), (shape_t{25}));
  auto norm_of = [&](std::int64_t first, std::int64_t step, int count) {  // sqrt(sum of squares) on the host
    double t = 0;
    for (int k = 0; k < count; ++k) t += v[static_cast<std::size_t>(first + k * step)] * v[static_cast<std::size_t>(first + k * step)];
    return std::sqrt(t);
  };
  CUPP_ASSERT_ALLCLOSE(host(rows), test::tabulate(40, [&](std::int64_t r) { return norm_of(r * 25, 1, 25); }), {.rtol = 0, .atol = 1e-12});
  CUPP_ASSERT_ALLCLOSE(host(cols), test::tabulate(25, [&](std::int64_t c) { return norm_of(c, 25, 40); }), {.rtol = 0, .atol = 1e-12});
}

TEST(ReductionKernelGpu, MaxAbsWithIdentityAxisTuplesAndOut) {
  CUPP_REQUIRE_GPU();
  const ReductionKernel maxabs("T x", "T y", "x < 0 ? -x : x", "a > b ? a : b", "y = a", "0", "maxabs");
  const ndarray x = wave(60, int32).reshape({3, 4, 5});
  const std::vector<double> v = host(x);
  const ndarray r = maxabs(x, {.axis = {0, 2}});
  ASSERT_EQ(dims(r), (shape_t{4}));
  EXPECT_EQ(r.dtype(), int32);
  const std::vector<double> rv = host(r);
  CUPP_ASSERT_ARRAY_EQUAL(rv, test::tabulate(4, [&](std::int64_t j) {
    double m = 0;
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 5; ++k) m = std::max(m, std::abs(v[static_cast<std::size_t>(i * 20 + j * 5 + k)]));
    return m;
  }));
  // keepdims with a tuple, negative axes, and out= (its dtype binds T too, as in CuPy: an out of
  // another dtype is a TypeError).
  ndarray out = zeros({1, 4, 1}, int32);
  const ndarray o = maxabs(x, {.axis = {-1, 0}, .keepdims = true, .out = out});
  EXPECT_EQ(host(out), rv);
  EXPECT_EQ(o.dtype(), int32);
  EXPECT_THROW(maxabs(x, {.axis = {-1, 0}, .keepdims = true, .out = zeros({1, 4, 1}, int64)}), TypeError);
  // An empty reduction gives the post-map of the identity.
  EXPECT_EQ(host(maxabs(zeros({3, 0}, float32), {.axis = 1})), (std::vector<double>{0, 0, 0}));
  const ReductionKernel no_identity("T x", "T y", "x", "a > b ? a : b", "y = a", "", "no_identity");
  EXPECT_NE(test::error_of<ValueError>([&] { no_identity(zeros({0}, float32)); }).find("no identity"),
            std::string::npos);
  EXPECT_EQ(no_identity(wave(23, float32)).item<float>(), 11.0f);
}

TEST(ReductionKernelGpu, MixedDtypesLongReductionsAndStridedInputs) {
  CUPP_REQUIRE_GPU();
  // int16 elements, a float64 accumulator and a float32 result.
  const ReductionKernel total("T x", "float32 y", "x", "a + b", "y = a * 0.5", "0", "half_total", "float64");
  const ndarray big = wave(1 << 20, int16);  // long enough for the two-pass split
  const std::vector<double> v = host(big);
  double t = 0;
  for (double e : v) t += e;
  const ndarray r = total(big);
  EXPECT_EQ(r.dtype(), float32);
  EXPECT_EQ(r.item<float>(), static_cast<float>(t * 0.5));
  // Deterministic: the same bits run to run.
  EXPECT_EQ(total(big).item<float>(), r.item<float>());
  // Over leading axes (columns class, two passes) and a transposed input.
  const ndarray m = big.reshape({4096, 256});
  const std::vector<double> cols = host(total(m, {.axis = 0}));
  const std::vector<double> rows_t = host(total(m.T(), {.axis = 1}));
  CUPP_ASSERT_ARRAY_EQUAL(cols, test::tabulate(256, [&](std::int64_t c) {
    double s = 0;
    for (int rr = 0; rr < 4096; ++rr) s += v[static_cast<std::size_t>(rr * 256 + c)];
    return static_cast<double>(static_cast<float>(s * 0.5));
  }));
  CUPP_ASSERT_ARRAY_EQUAL(rows_t, cols);
  // A float16 input read into a float32 parameter (concrete input type).
  const ReductionKernel f32sum("float32 x", "float32 y", "x", "a + b", "", "0", "f32sum");
  double s100 = 0;
  for (double e : host(wave(100, float64))) s100 += e;
  EXPECT_EQ(f32sum(wave(100, float16)).item<float>(), static_cast<float>(s100));
}

TEST(ReductionKernelGpu, Errors) {
  CUPP_REQUIRE_GPU();
  const ndarray x = wave(12, float32).reshape({3, 4});
  EXPECT_THROW(sumsq()(x, {.axis = 2}), AxisError);
  EXPECT_THROW(sumsq()(x, {.axis = -3}), AxisError);
  EXPECT_NE(test::error_of<ValueError>([&] { sumsq()(x, {.axis = {0, 0}}); }).find("duplicate"), std::string::npos);
  ndarray wrong = zeros({4}, float32);
  EXPECT_THROW(sumsq()(x, {.axis = 1, .out = wrong}), ValueError);
  const ReductionKernel narrow("int8 x", "int8 y", "x", "a + b", "", "0", "narrow");
  EXPECT_THROW(narrow(x), TypeError);  // float32 -> int8 is not same_kind
  const ReductionKernel broken("T x", "T y", "x *", "a + b", "y = a", "0", "broken_rk");
  try {
    broken(x);
    FAIL() << "the map expression does not compile";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("expected an expression"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sumsq()(wave(3, float32)).item<float>(), 121.0f + 16.0f + 9.0f);
}

}  // namespace
}  // namespace cupp
