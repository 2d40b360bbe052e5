// ElementwiseKernel on the GPU: placeholders bound by arrays and scalars, broadcasting, given and
// allocated outputs, two outputs, casts of concrete parameters, strided and transposed inputs, and
// the type errors. References computed on the host.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

ndarray iota(std::int64_t n, dtype type) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i);
  return astype(asarray(v), type);
}

std::vector<double> values(const ndarray& a) { return astype(ascontiguousarray(a), float64).to_vector<double>(); }

TEST(ElementwiseKernelGpu, PlaceholdersBroadcastingAndOutputs) {
  CUPP_REQUIRE_GPU();
  const ElementwiseKernel axpy("T x, T y, float32 a", "T z", "z = a * x + y;", "axpy");
  const ndarray x = iota(12, float64).reshape({3, 4}), row = iota(4, float64);
  const ndarray z = axpy(x, row, 2.0f);  // row broadcast over x's rows; a is a float32 value
  EXPECT_EQ(z.dtype(), float64);
  ASSERT_EQ(z.ndim(), 2);
  CUPP_ASSERT_ARRAY_EQUAL(values(z), test::tabulate(3, 4, [](auto i, auto j) { return 2.0 * (i * 4 + j) + j; }));
  // Into a given output, with transposed and strided inputs.
  ndarray out = zeros({4, 3}, float64);
  axpy.call({x.T(), x.T(), 1.0f, out});
  CUPP_ASSERT_ARRAY_EQUAL(values(out), test::tabulate(4, 3, [](auto i, auto j) { return 2.0 * (j * 4 + i); }));
  // A float32 combination is its own kernel.
  EXPECT_EQ(axpy(iota(5, float32), iota(5, float32), 0.5f).dtype(), float32);
}

TEST(ElementwiseKernelGpu, ScalarsTwoOutputsAndCasts) {
  CUPP_REQUIRE_GPU();
  // A placeholder bound only by a scalar takes its kind's default dtype.
  const ElementwiseKernel fill_like("T v, int32 n", "T y", "y = v + n;", "fill_like");
  const ndarray f = fill_like(1.5, iota(3, int32));
  EXPECT_EQ(f.dtype(), float64);
  EXPECT_EQ(values(f), (std::vector<double>{1.5, 2.5, 3.5}));
  // Two outputs.
  const ElementwiseKernel divmod_("int64 a, int64 b", "int64 q, int64 r", "q = a / b; r = a % b;", "divmod_");
  const std::vector<ndarray> qr = divmod_.call({iota(6, int64), 4});
  ASSERT_EQ(qr.size(), 2u);
  EXPECT_EQ(values(qr[0]), (std::vector<double>{0, 0, 0, 0, 1, 1}));
  EXPECT_EQ(values(qr[1]), (std::vector<double>{0, 1, 2, 3, 0, 1}));
  // A concrete parameter casts its argument (same_kind): int16 into float32.
  const ElementwiseKernel half("float32 x", "float32 y", "y = x / 2;", "half");
  EXPECT_EQ(values(half(iota(4, int16))), (std::vector<double>{0, 0.5, 1, 1.5}));
}

TEST(ElementwiseKernelGpu, TypeErrors) {
  CUPP_REQUIRE_GPU();
  const ElementwiseKernel add2("T x, T y", "T z", "z = x + y;", "add2");
  EXPECT_EQ(test::error_of<TypeError>([&] { add2(iota(3, float32), iota(3, float64)); }),
            "Type is mismatched in add2: y is float64 but T is float32");
  EXPECT_NE(test::error_of<TypeError>([&] { add2(iota(3, float32)); }).find("Wrong number of arguments"),
            std::string::npos);
  const ElementwiseKernel make("int32 n", "U z", "z = n;", "make");
  EXPECT_NE(test::error_of<TypeError>([&] { make(iota(3, int32)); }).find("no argument binds U"), std::string::npos);
  ndarray given = zeros({3}, int16);
  EXPECT_EQ(make.call({iota(3, int32), given}).front().dtype(), int16);  // an output binds U
  const ElementwiseKernel narrow("int8 x", "int8 y", "y = x;", "narrow");
  EXPECT_THROW(narrow(iota(3, float64)), TypeError);  // float64 -> int8 is not same_kind
  EXPECT_THROW(narrow(300), OverflowError);           // a weak int must fit int8
  EXPECT_EQ(test::error_of<ValueError>([&] { add2(iota(3, float32), iota(4, float32)); }),
            "operands could not be broadcast together with shapes (3,) (4,) ");
  // A body that does not compile: CompileError with NVRTC's log; the device stays usable.
  const ElementwiseKernel broken("T x", "T y", "y = x +;", "broken");
  EXPECT_THROW(broken(iota(3, float32)), CompileError);
  EXPECT_EQ(values(add2(iota(2, float32), iota(2, float32))), (std::vector<double>{0, 2}));
}

TEST(ElementwiseKernelGpu, IndexIsTheOutputsCOrderIndex) {
  CUPP_REQUIRE_GPU();
  // Broadcasting: x (3, 1) and y (4,) give z (3, 4); i runs over z in C order.
  const ElementwiseKernel with_i("T x, T y", "T z", "z = x * 100 + y * 10 + i;", "with_i");
  const std::vector<double> z = values(with_i(iota(3, float64).reshape({3, 1}), iota(4, float64)));
  CUPP_ASSERT_ARRAY_EQUAL(z, test::tabulate(3, 4, [](auto r, auto c) { return r * 100.0 + c * 10.0 + (r * 4 + c); }));
  // A transposed output: i is still the C-order index of the (3, 4) view, not the memory order.
  const ElementwiseKernel index("T x", "int64 z", "z = i + 0 * x;", "index_of");
  ndarray base = zeros({4, 3}, int64);
  index.call({zeros({3, 4}, float32), base.T()});
  CUPP_ASSERT_ARRAY_EQUAL(values(base.T()), test::tabulate(12, [](auto k) { return static_cast<double>(k); }));
  // A transposed input with a C-contiguous output, and _ind.size().
  const ElementwiseKernel count("T x", "int64 z", "z = _ind.size() * 1000 + i;", "count_of");
  CUPP_ASSERT_ARRAY_EQUAL(values(count(iota(12, float32).reshape({3, 4}).T())),
                          test::tabulate(12, [](auto k) { return 12000.0 + static_cast<double>(k); }));
}

TEST(ElementwiseKernelGpu, RawParametersAreIndexedByTheBody) {
  CUPP_REQUIRE_GPU();
  // CuPy's gather: y = x[n - 1 - i], the loop size from the output.
  const ElementwiseKernel reverse("raw T x, int64 n", "T y", "y = x[n - 1 - i];", "reverse");
  ndarray y = zeros({10}, float32);
  reverse.call({iota(10, float32), 10, y});
  EXPECT_EQ(values(y), (std::vector<double>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  // size= when no argument is a non-raw array.
  const std::vector<ndarray> r = reverse.call({iota(5, float64), 5}, 5);
  EXPECT_EQ(r.front().dtype(), float64);
  EXPECT_EQ(values(r.front()), (std::vector<double>{4, 3, 2, 1, 0}));
  // A raw parameter of another dtype (int32 cast to int64) and x.size().
  const ElementwiseKernel pick("T x, raw int64 idx", "T y", "y = x * idx[i % idx.size()];", "pick");
  EXPECT_EQ(values(pick(iota(6, float64), astype(iota(3, float64), int32))), (std::vector<double>{0, 1, 4, 0, 4, 10}));
  // A non-contiguous raw input is read in its C order (a transposed view).
  const ElementwiseKernel flat("raw T x, T like", "T y", "y = x[i];", "flat");
  const std::vector<double> f = values(flat(iota(6, float64).reshape({2, 3}).T(), zeros({6}, float64)));
  EXPECT_EQ(f, (std::vector<double>{0, 3, 1, 4, 2, 5}));
  // A raw output (given) written by index, and many operands.
  const ElementwiseKernel scatter("T x", "raw T y", "y[_ind.size() - 1 - i] = x * 2;", "scatter");
  ndarray out = zeros({4}, float32);
  scatter.call({iota(4, float32), out});
  EXPECT_EQ(values(out), (std::vector<double>{6, 4, 2, 0}));
  const ElementwiseKernel sum5("T a, T b, T c, T d, T e", "T z", "z = a + b + c + d + e;", "sum5");
  const ndarray one = iota(3, int64);
  EXPECT_EQ(values(sum5(one, one, one, one, 1)), (std::vector<double>{1, 5, 9}));  // 4 x + 1
}

TEST(ElementwiseKernelGpu, RawParameterErrors) {
  CUPP_REQUIRE_GPU();
  const ElementwiseKernel scatter("T x", "raw T y", "y[i] = x;", "scatter_e");
  EXPECT_NE(test::error_of<ValueError>([&] { scatter(iota(3, float32)); }).find("size is undecided"), std::string::npos);
  ndarray wide = zeros({3, 2}, float32);
  EXPECT_NE(test::error_of<ValueError>([&] { scatter.call({iota(3, float32), wide.T()}); }).find("C-contiguous"),
            std::string::npos);
  const ElementwiseKernel reverse("raw T x, int64 n", "T y", "y = x[n - 1 - i];", "reverse_e");
  EXPECT_THROW(reverse(1.0, 3), TypeError);  // a scalar for a raw parameter
  EXPECT_NE(test::error_of<ValueError>([&] { reverse(iota(3, float32), 3); }).find("loop size is undecided"),
            std::string::npos);
  const ElementwiseKernel with_i("T x", "T z", "z = x + i;", "with_i_e");
  EXPECT_NE(test::error_of<ValueError>([&] { with_i.call({iota(3, float32)}, 3); }).find("size"), std::string::npos);
  EXPECT_NE(test::error_of<ValueError>([&] { with_i.call({iota(3, float32), zeros({4}, float32)}); }).find("shape"),
            std::string::npos);
}

}  // namespace
}  // namespace cupp
