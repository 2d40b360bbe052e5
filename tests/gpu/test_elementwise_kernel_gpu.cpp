// ElementwiseKernel on the GPU: placeholders bound by arrays and scalars, broadcasting, given and
// allocated outputs, two outputs, casts of concrete parameters, strided and transposed inputs, and
// the type errors. References computed on the host.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
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
  const std::vector<double> zv = values(z);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) ASSERT_EQ(zv[static_cast<std::size_t>(i * 4 + j)], 2.0 * (i * 4 + j) + j);
  // Into a given output, with transposed and strided inputs.
  ndarray out = zeros({4, 3}, float64);
  axpy.call({x.T(), x.T(), 1.0f, out});
  const std::vector<double> ov = values(out);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) ASSERT_EQ(ov[static_cast<std::size_t>(i * 3 + j)], 2.0 * (j * 4 + i));
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

}  // namespace
}  // namespace cupp
