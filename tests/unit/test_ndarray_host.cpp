// Tests of the host side of arrays without a GPU: host_array (construction, to_vector, item and
// their type checks), NumPy's repr of host data (bool, integers, floats in positional and
// scientific form, nan/inf, complex, 0-d, empty, wrapping, summarised with shape=), and the
// host element conversions behind assignment and fill (NumPy's casts, OverflowError, byte swaps).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "array/convert.hpp"
#include "cupp/errors.hpp"
#include "cupp/host_array.hpp"

namespace {

using cupp::host_array;
using cupp::shape_t;

template <class T>
host_array make(cupp::dtype type, shape_t shape, const std::vector<T>& values) {
  host_array h(type, std::move(shape));
  EXPECT_EQ(h.nbytes(), values.size() * sizeof(T));
  if (!values.empty()) std::memcpy(h.data(), values.data(), h.nbytes());
  return h;
}

template <class T>
host_array vec(const std::vector<T>& values) {
  return make(cupp::dtype_of<T>(), {static_cast<std::int64_t>(values.size())}, values);
}

TEST(HostArray, Basics) {
  host_array h(cupp::float32, {2, 3});
  EXPECT_EQ(h.size(), 6);
  EXPECT_EQ(h.nbytes(), 24u);
  EXPECT_EQ(h.ndim(), 2);
  for (float v : h.to_vector<float>()) EXPECT_EQ(v, 0.0f);  // zero-initialised
  host_array d;
  EXPECT_EQ(d.size(), 0);
  EXPECT_EQ(d.shape(), shape_t{0});
  host_array z(cupp::int64, {});
  EXPECT_EQ(z.size(), 1);
  EXPECT_EQ(z.nbytes(), 8u);
  EXPECT_THROW(host_array(cupp::int8, {-1}), cupp::ValueError);
  EXPECT_THROW(host_array(cupp::int8, shape_t(65, 1)), cupp::ValueError);
  const std::vector<double> v{1.5, 2.5};
  host_array f = host_array::from(std::span<const double>(v));
  EXPECT_EQ(f.dtype(), cupp::float64);
  EXPECT_EQ(f.to_vector<double>(), v);
}

TEST(HostArray, ToVectorAndItem) {
  host_array h = vec<std::int64_t>({7});
  EXPECT_EQ(h.to_vector<std::int64_t>(), std::vector<std::int64_t>{7});
  EXPECT_EQ(h.to_vector<long long>(), std::vector<long long>{7});
  EXPECT_EQ(h.item<double>(), 7.0);
  EXPECT_EQ(h.item<int>(), 7);
  EXPECT_EQ(h.item<bool>(), true);
  try {
    h.to_vector<double>();
    ADD_FAILURE();
  } catch (const cupp::TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("int64"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos);
  }
  EXPECT_THROW(vec<float>({1, 2}).item<float>(), cupp::ValueError);
  EXPECT_THROW(vec<std::complex<double>>({{1, 2}}).item<double>(), cupp::TypeError);
  EXPECT_EQ(vec<std::complex<double>>({{1, 2}}).item<std::complex<double>>(), std::complex<double>(1, 2));
  EXPECT_EQ(vec<float>({2.75f}).item<int>(), 2);
  EXPECT_EQ(vec<cupp::float16_t>({cupp::float16_t(1.5)}).item<float>(), 1.5f);
  host_array b = make<unsigned char>(cupp::bool_, {2}, {1, 0});
  EXPECT_EQ(b.to_vector<bool>(), (std::vector<bool>{true, false}));
}

TEST(HostArrayRepr, Basics) {
  EXPECT_EQ(vec<double>({1, 2}).repr(), "array([1., 2.])");
  EXPECT_EQ(vec<float>({1, 2}).repr(), "array([1., 2.], dtype=float32)");
  EXPECT_EQ(make<std::int64_t>(cupp::int64, {2, 2}, {1, 2, 3, 4}).repr(), "array([[1, 2],\n       [3, 4]])");
  EXPECT_EQ(make<unsigned char>(cupp::bool_, {2}, {1, 0}).repr(), "array([ True, False])");
  EXPECT_EQ(vec<double>({1.5, 2.25}).repr(), "array([1.5 , 2.25])");
  EXPECT_EQ(vec<double>({-1, 2}).repr(), "array([-1.,  2.])");
  EXPECT_EQ(vec<double>({0.1, 0.2, 0.3}).repr(), "array([0.1, 0.2, 0.3])");
  EXPECT_EQ(vec<std::int32_t>({1, -20}).repr(), "array([  1, -20], dtype=int32)");
  EXPECT_EQ(vec<std::uint64_t>({18446744073709551615ull}).repr(), "array([18446744073709551615], dtype=uint64)");
  EXPECT_EQ(vec<double>({0.123456789}).repr(), "array([0.12345679])");
  EXPECT_EQ(vec<double>({1e7, 1}).repr(), "array([1.e+07, 1.e+00])");  // ratio > 1000
  EXPECT_EQ(vec<double>({100, 1}).repr(), "array([100.,   1.])");
}

TEST(HostArrayRepr, Scientific) {
  EXPECT_EQ(vec<double>({0.1, 1e-5}).repr(), "array([1.e-01, 1.e-05])");
  EXPECT_EQ(vec<double>({1e-5, 1.5}).repr(), "array([1.0e-05, 1.5e+00])");
  EXPECT_EQ(vec<double>({1e100, 1}).repr(), "array([1.e+100, 1.e+000])");
  EXPECT_EQ(vec<double>({-1e-5, 1}).repr(), "array([-1.e-05,  1.e+00])");
  EXPECT_EQ(vec<double>({1e8}).repr(), "array([1.e+08])");
}

TEST(HostArrayRepr, NonFinite) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(vec<double>({nan, 1, -inf}).repr(), "array([ nan,   1., -inf])");
  EXPECT_EQ(vec<double>({nan, inf}).repr(), "array([nan, inf])");
  EXPECT_EQ(vec<double>({1.5, inf}).repr(), "array([1.5, inf])");
}

TEST(HostArrayRepr, ComplexAndSmallFloats) {
  EXPECT_EQ(vec<std::complex<double>>({{1, 2}, {3, -4}}).repr(), "array([1.+2.j, 3.-4.j])");
  EXPECT_EQ(vec<std::complex<float>>({{0, 1}}).repr(), "array([0.+1.j], dtype=complex64)");
  EXPECT_EQ(vec<std::complex<double>>({{1.5, 0}, {0, -2.25}}).repr(), "array([1.5+0.j  , 0. -2.25j])");
  EXPECT_EQ(vec<float>({0.1f}).repr(), "array([0.1], dtype=float32)");
  EXPECT_EQ(vec<cupp::float16_t>({cupp::float16_t(0.1)}).repr(), "array([0.1], dtype=float16)");
  EXPECT_EQ(vec<cupp::bfloat16_t>({cupp::bfloat16_t(1.0), cupp::bfloat16_t(0.5)}).repr(),
            "array([1. , 0.5], dtype=bfloat16)");
  EXPECT_EQ(vec<float>({1.0f / 3}).repr(), "array([0.33333334], dtype=float32)");
}

TEST(HostArrayRepr, ZeroDAndEmpty) {
  EXPECT_EQ(make<double>(cupp::float64, {}, {5}).repr(), "array(5.)");
  EXPECT_EQ(make<double>(cupp::float64, {}, {1.0 / 3}).repr(), "array(0.33333333)");
  EXPECT_EQ(make<unsigned char>(cupp::bool_, {}, {1}).repr(), "array(True)");
  EXPECT_EQ(make<std::int32_t>(cupp::int32, {}, {7}).repr(), "array(7, dtype=int32)");
  EXPECT_EQ(host_array(cupp::float64, {0}).repr(), "array([], dtype=float64)");
  EXPECT_EQ(host_array(cupp::int64, {2, 0}).repr(), "array([], shape=(2, 0), dtype=int64)");
}

TEST(HostArrayRepr, WrappingAndNesting) {
  std::vector<std::int64_t> v(30);
  std::iota(v.begin(), v.end(), 0);
  EXPECT_EQ(vec<std::int64_t>(v).repr(),
            "array([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16,\n"
            "       17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])");
  EXPECT_EQ(make<std::int64_t>(cupp::int64, {2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}).repr(),
            "array([[[0, 1],\n        [2, 3]],\n\n       [[4, 5],\n        [6, 7]]])");
  // The dtype goes to a new line when it does not fit.
  std::vector<float> f(12);
  std::iota(f.begin(), f.end(), 0.0f);
  EXPECT_EQ(vec<float>(f).repr(),
            "array([ 0.,  1.,  2.,  3.,  4.,  5.,  6.,  7.,  8.,  9., 10., 11.],\n      dtype=float32)");
}

TEST(HostArrayRepr, Summarised) {
  std::vector<std::int64_t> v(1001);
  std::iota(v.begin(), v.end(), 0);
  EXPECT_EQ(vec<std::int64_t>(v).repr(), "array([   0,    1,    2, ...,  998,  999, 1000], shape=(1001,))");
  std::vector<std::int64_t> w(1000);
  std::iota(w.begin(), w.end(), 0);
  EXPECT_EQ(vec<std::int64_t>(w).repr().find("..."), std::string::npos);  // threshold is size > 1000
  std::vector<std::int64_t> m(2000);
  std::iota(m.begin(), m.end(), 0);
  EXPECT_EQ(make<std::int64_t>(cupp::int64, {40, 50}, m).repr(),
            "array([[   0,    1,    2, ...,   47,   48,   49],\n"
            "       [  50,   51,   52, ...,   97,   98,   99],\n"
            "       [ 100,  101,  102, ...,  147,  148,  149],\n"
            "       ...,\n"
            "       [1850, 1851, 1852, ..., 1897, 1898, 1899],\n"
            "       [1900, 1901, 1902, ..., 1947, 1948, 1949],\n"
            "       [1950, 1951, 1952, ..., 1997, 1998, 1999]], shape=(40, 50))");
}

TEST(HostArrayRepr, StructuredAndVoid) {
  const std::pair<std::string, cupp::dtype> fields[] = {{"a", cupp::int64}, {"b", cupp::float64}};
  const cupp::dtype t = cupp::dtype::structured(fields);
  host_array h(t, {2});
  const std::int64_t a0 = 1, a1 = 3;
  const double b0 = 2.0, b1 = 4.5;
  std::memcpy(h.data(), &a0, 8);
  std::memcpy(h.data() + 8, &b0, 8);
  std::memcpy(h.data() + 16, &a1, 8);
  std::memcpy(h.data() + 24, &b1, 8);
  EXPECT_EQ(h.repr(), "array([(1, 2. ), (3, 4.5)], dtype=[('a', '<i8'), ('b', '<f8')])");
  host_array v(cupp::dtype::void_(2), {1});
  v.data()[1] = std::byte{0x41};
  EXPECT_EQ(v.repr(), "array([b'\\x00A'], dtype='|V2')");
}

TEST(HostConvert, Elements) {
  const std::vector<double> src{1.5, -2.7, std::nan(""), 3e10};
  std::vector<std::int32_t> out(4);
  cupp::detail::convert_elements(reinterpret_cast<const std::byte*>(src.data()), cupp::float64,
                                 reinterpret_cast<std::byte*>(out.data()), cupp::int32, 4);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], -2);
  EXPECT_EQ(out[2], std::numeric_limits<std::int32_t>::min());  // x86's cvttsd2si, as NumPy gives
  EXPECT_EQ(out[3], std::numeric_limits<std::int32_t>::min());
  const std::vector<std::int64_t> ints{0, 5, -1};
  std::vector<unsigned char> bools(3);
  cupp::detail::convert_elements(reinterpret_cast<const std::byte*>(ints.data()), cupp::int64,
                                 reinterpret_cast<std::byte*>(bools.data()), cupp::bool_, 3);
  EXPECT_EQ(bools, (std::vector<unsigned char>{0, 1, 1}));
  std::vector<std::uint8_t> wrapped(3);
  cupp::detail::convert_elements(reinterpret_cast<const std::byte*>(ints.data()), cupp::int64,
                                 reinterpret_cast<std::byte*>(wrapped.data()), cupp::uint8, 3);
  EXPECT_EQ(wrapped[2], 255);  // integer casts wrap
  std::vector<cupp::float16_t> halves(1);
  const double third = 1.0 / 3;
  cupp::detail::convert_elements(reinterpret_cast<const std::byte*>(&third), cupp::float64,
                                 reinterpret_cast<std::byte*>(halves.data()), cupp::float16, 1);
  EXPECT_EQ(halves[0].bits(), cupp::float16_t(1.0 / 3).bits());
}

TEST(HostConvert, ScalarFill) {
  using cupp::detail::scalar_bytes;
  auto as = [](const std::vector<std::byte>& b, auto zero) {
    decltype(zero) v;
    std::memcpy(&v, b.data(), sizeof v);
    return v;
  };
  EXPECT_EQ(as(scalar_bytes(255, cupp::uint8), std::uint8_t{}), 255);
  EXPECT_THROW(scalar_bytes(256, cupp::uint8), cupp::OverflowError);
  EXPECT_THROW(scalar_bytes(-129, cupp::int8), cupp::OverflowError);
  EXPECT_THROW(scalar_bytes(-1, cupp::uint64), cupp::OverflowError);
  EXPECT_EQ(as(scalar_bytes(-128, cupp::int8), std::int8_t{}), -128);
  EXPECT_EQ(as(scalar_bytes(2.5, cupp::int32), std::int32_t{}), 2);  // float into int truncates
  EXPECT_EQ(as(scalar_bytes(true, cupp::float32), float{}), 1.0f);
  EXPECT_EQ(as(scalar_bytes(5, cupp::bool_), std::uint8_t{}), 1);
  EXPECT_EQ(as(scalar_bytes(1e300, cupp::float32), float{}), std::numeric_limits<float>::infinity());
  EXPECT_EQ(as(scalar_bytes(std::complex<double>(1, 2), cupp::complex64), std::complex<float>{}),
            std::complex<float>(1, 2));
  EXPECT_THROW(scalar_bytes(std::complex<double>(1, 2), cupp::float64), cupp::TypeError);
  EXPECT_EQ(as(scalar_bytes(18446744073709551615ull, cupp::uint64), std::uint64_t{}), 18446744073709551615ull);
  // Structured: every field.
  const std::pair<std::string, cupp::dtype> fields[] = {{"a", cupp::int32}, {"b", cupp::float64}};
  const auto b = scalar_bytes(3, cupp::dtype::structured(fields, true));
  ASSERT_EQ(b.size(), 16u);
  std::int32_t a;
  double d;
  std::memcpy(&a, b.data(), 4);
  std::memcpy(&d, b.data() + 8, 8);
  EXPECT_EQ(a, 3);
  EXPECT_EQ(d, 3.0);
  EXPECT_THROW(scalar_bytes(1, cupp::dtype::void_(4)), cupp::TypeError);
}

TEST(HostConvert, Byteswap) {
  std::uint32_t x = 0x01020304;
  cupp::detail::byteswap(reinterpret_cast<std::byte*>(&x), cupp::int32, 1);
  EXPECT_EQ(x, 0x04030201u);
  std::uint32_t c[2] = {0x01020304, 0x05060708};  // complex64: each part
  cupp::detail::byteswap(reinterpret_cast<std::byte*>(c), cupp::complex64, 1);
  EXPECT_EQ(c[0], 0x04030201u);
  EXPECT_EQ(c[1], 0x08070605u);
  std::uint8_t u = 7;
  cupp::detail::byteswap(reinterpret_cast<std::byte*>(&u), cupp::uint8, 1);
  EXPECT_EQ(u, 7);
}

}  // namespace
