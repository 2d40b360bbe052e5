// GPU tests of ndarray on real device memory: round trips for every dtype, views of device data
// (slices, negative steps, transposes, broadcasts, diagonals, real/imag), strided gathers,
// reshape copies, assignment into slices (host data, device arrays, scalars, casting,
// broadcasting), read-only errors, structured arrays (zeros, field read/write, whole copies),
// non-blocking downloads, pinned uploads, big-endian uploads, wrapped device pointers and repr.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <numeric>
#include <vector>

#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"
#include "gpu_support.hpp"

namespace {

using cupp::ndarray;
using cupp::shape_t;
using cupp::slice;

std::vector<double> iota(std::size_t n, double start = 0) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

TEST(NdarrayGpu, RoundTrips) {
  CUPP_REQUIRE_GPU();
  const std::vector<float> f{1.5f, -2.0f, 3.25f};
  EXPECT_EQ(cupp::asarray(f).to_vector<float>(), f);
  const std::vector<std::int8_t> i8{-128, 0, 127};
  EXPECT_EQ(cupp::asarray(i8).to_vector<std::int8_t>(), i8);
  const std::vector<std::complex<double>> c{{1, 2}, {-3, 4}};
  EXPECT_EQ(cupp::asarray(c).to_vector<std::complex<double>>(), c);
  const std::vector<bool> b{true, false, true};
  ndarray ab = cupp::asarray(b);
  EXPECT_EQ(ab.dtype(), cupp::bool_);
  EXPECT_EQ(ab.to_vector<bool>(), b);
  ndarray a = cupp::array({{1, 2}, {3, 4}});
  EXPECT_EQ(a.dtype(), cupp::int64);
  EXPECT_EQ(a.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(a.repr(), "array([[1, 2],\n       [3, 4]])");
  EXPECT_EQ(cupp::array({1.0, 2.0}).repr(), "array([1., 2.])");
  EXPECT_EQ(cupp::array({true, false}).repr(), "array([ True, False])");
  EXPECT_EQ(cupp::asarray(std::vector<float>{1, 2}).repr(), "array([1., 2.], dtype=float32)");
  EXPECT_EQ(a(1, 0).item<std::int64_t>(), 3);
  // Every built-in dtype through zeros + get.
  for (cupp::dtype t : {cupp::bool_, cupp::int8, cupp::int16, cupp::int32, cupp::int64, cupp::uint8, cupp::uint16,
                        cupp::uint32, cupp::uint64, cupp::float16, cupp::bfloat16, cupp::float32, cupp::float64,
                        cupp::complex64, cupp::complex128}) {
    ndarray z = cupp::zeros({2, 3}, t);
    const cupp::host_array h = z.get();
    EXPECT_EQ(h.dtype(), t);
    for (std::byte x : h.bytes()) EXPECT_EQ(x, std::byte{0});
  }
  // 0-d and empty.
  ndarray z0 = cupp::zeros(std::span<const std::int64_t>{}, cupp::float32);
  EXPECT_EQ(z0.item<float>(), 0.0f);
  ndarray e = cupp::empty({0, 4});
  EXPECT_EQ(e.get().size(), 0);
  EXPECT_EQ(e.repr(), "array([], shape=(0, 4), dtype=float64)");
}

TEST(NdarrayGpu, ViewsOfDeviceData) {
  CUPP_REQUIRE_GPU();
  ndarray a = cupp::asarray(iota(24)).reshape({4, 6});
  EXPECT_EQ(a(1).to_vector<double>(), (std::vector<double>{6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(a(slice(), 2).to_vector<double>(), (std::vector<double>{2, 8, 14, 20}));
  EXPECT_EQ(a(slice(std::nullopt, std::nullopt, -2), slice(std::nullopt, std::nullopt, -3)).to_vector<double>(),
            (std::vector<double>{23, 20, 11, 8}));
  EXPECT_EQ(a.T()(0).to_vector<double>(), (std::vector<double>{0, 6, 12, 18}));
  EXPECT_EQ(a.diagonal().to_vector<double>(), (std::vector<double>{0, 7, 14, 21}));
  EXPECT_EQ(a.diagonal(2).to_vector<double>(), (std::vector<double>{2, 9, 16, 23}));
  ndarray row = cupp::asarray(std::vector<double>{1, 2, 3});
  EXPECT_EQ(cupp::broadcast_to(row, {2, 3}).to_vector<double>(), (std::vector<double>{1, 2, 3, 1, 2, 3}));
  // Reshape of a transposed array copies; the copy is independent.
  ndarray flat = a.T().reshape({-1});
  EXPECT_NE(flat.base(), a.base());
  EXPECT_EQ(flat(slice(0, 4)).to_vector<double>(), (std::vector<double>{0, 6, 12, 18}));
  EXPECT_EQ(a.T().ravel().size(), 24);
  ndarray c = a.T().copy();
  EXPECT_TRUE(c.is_c_contiguous());
  EXPECT_EQ(c(1).to_vector<double>(), (std::vector<double>{1, 7, 13, 19}));
  // real / imag views.
  ndarray z = cupp::asarray(std::vector<std::complex<float>>{{1, 2}, {3, 4}});
  EXPECT_EQ(z.real().to_vector<float>(), (std::vector<float>{1, 3}));
  EXPECT_EQ(z.imag().to_vector<float>(), (std::vector<float>{2, 4}));
  z.imag() = 9.0;
  EXPECT_EQ(z.to_vector<std::complex<float>>(), (std::vector<std::complex<float>>{{1, 9}, {3, 9}}));
  ndarray im = row.imag();
  EXPECT_FALSE(im.writeable());
  EXPECT_EQ(im.to_vector<double>(), (std::vector<double>{0, 0, 0}));
  // view(dtype).
  ndarray u = cupp::asarray(std::vector<float>{1.0f}).view(cupp::uint32);
  EXPECT_EQ(u.item<std::uint32_t>(), 0x3f800000u);
}

TEST(NdarrayGpu, AssignmentIntoSlices) {
  CUPP_REQUIRE_GPU();
  ndarray a = cupp::zeros({10}, cupp::float64);
  a(slice(2, 5)).assign(cupp::host_array::from(std::span<const double>(std::vector<double>{1, 2, 3})));
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{0, 0, 1, 2, 3, 0, 0, 0, 0, 0}));
  a(slice(std::nullopt, std::nullopt, 3)) = 7;  // strided scatter of a scalar
  EXPECT_EQ(a.to_vector<double>(), (std::vector<double>{7, 0, 1, 7, 3, 0, 7, 0, 0, 7}));
  ndarray src = cupp::asarray(std::vector<std::int32_t>{5, 6});
  a(slice(8, std::nullopt)) = src;  // int32 -> float64 (same_kind allows)
  EXPECT_EQ(a(slice(8, std::nullopt)).to_vector<double>(), (std::vector<double>{5, 6}));
  // Broadcasting a row into a 2-d slice, reversed.
  ndarray m = cupp::zeros({3, 4}, cupp::int64);
  m(slice(std::nullopt, std::nullopt, -1), slice(1, 3)) = cupp::array({1, 2});
  EXPECT_EQ(m.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 0, 0, 1, 2, 0, 0, 1, 2, 0}));
  m(1) = m(0);  // device to device
  m.T()(0) = 9;  // column through a transposed view
  EXPECT_EQ(m.to_vector<std::int64_t>(), (std::vector<std::int64_t>{9, 1, 2, 0, 9, 1, 2, 0, 9, 1, 2, 0}));
  // Overlapping source and destination.
  ndarray o = cupp::asarray(iota(6));
  o(slice(1, std::nullopt)) = o(slice(std::nullopt, 5));
  EXPECT_EQ(o.to_vector<double>(), (std::vector<double>{0, 0, 1, 2, 3, 4}));
  // Casting and value errors.
  EXPECT_THROW(m(0) = cupp::asarray(std::vector<double>{1, 2, 3, 4}), cupp::TypeError);
  EXPECT_THROW(m(0) = cupp::array({1, 2, 3}), cupp::ValueError);
  ndarray u8 = cupp::zeros({2}, cupp::uint8);
  EXPECT_THROW(u8(0) = 300, cupp::OverflowError);
  u8 = cupp::zeros({2}, cupp::uint8);
  u8(slice()) = 255;
  EXPECT_EQ(u8.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{255, 255}));
  // Read-only views.
  ndarray b = cupp::broadcast_to(cupp::asarray(iota(3)), {2, 3});
  try {
    b(0) = 1.0;
    ADD_FAILURE() << "writing through broadcast_to did not throw";
  } catch (const cupp::ValueError& e) {
    EXPECT_STREQ(e.what(), "assignment destination is read-only");
  }
  EXPECT_THROW(m.diagonal() = 1, cupp::ValueError);
  // fill on every kind.
  ndarray h = cupp::empty({3}, cupp::float16);
  h.fill(1.5);
  EXPECT_EQ(h.to_vector<cupp::float16_t>()[2], cupp::float16_t(1.5));
  ndarray cx = cupp::empty({2}, cupp::complex128);
  cx.fill(std::complex<double>(1, -1));
  EXPECT_EQ(cx(1).item<std::complex<double>>(), std::complex<double>(1, -1));
  EXPECT_THROW(cx.item<std::complex<double>>(), cupp::ValueError);  // two elements
}

TEST(NdarrayGpu, StructuredArrays) {
  CUPP_REQUIRE_GPU();
  const std::pair<std::string, cupp::dtype> fields[] = {{"id", cupp::int32}, {"x", cupp::float64}};
  const cupp::dtype t = cupp::dtype::structured(fields, /*align=*/true);
  ndarray s = cupp::zeros({4}, t);
  EXPECT_EQ(s["x"].to_vector<double>(), (std::vector<double>(4, 0.0)));
  s["x"] = cupp::asarray(std::vector<double>{1, 2, 3, 4});
  s["id"](slice(1, 3)) = 7;
  EXPECT_EQ(s["id"].to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 7, 7, 0}));
  EXPECT_EQ(s["x"].to_vector<double>(), (std::vector<double>{1, 2, 3, 4}));
  ndarray c = s.copy();  // a byte copy
  s.fill(0);
  EXPECT_EQ(c["x"].to_vector<double>(), (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(s["x"].to_vector<double>(), (std::vector<double>(4, 0.0)));
  s = c;  // rebinding
  EXPECT_EQ(s.data(), c.data());
  EXPECT_THROW(c.imag(), cupp::TypeError);
  EXPECT_THROW(c.assign(cupp::zeros({4}, cupp::float64)), cupp::TypeError);
  EXPECT_NE(c.repr().find("(7, 2.)"), std::string::npos) << c.repr();
  const std::pair<std::string, cupp::dtype> packed[] = {{"a", cupp::int8}, {"b", cupp::float32}};
  ndarray p = cupp::zeros({3}, cupp::dtype::structured(packed));
  EXPECT_THROW(p["b"], cupp::ValueError);
  EXPECT_EQ(p["a"].to_vector<std::int8_t>(), (std::vector<std::int8_t>{0, 0, 0}));
}

TEST(NdarrayGpu, NonBlockingAndPinned) {
  CUPP_REQUIRE_GPU();
  ndarray a = cupp::asarray(iota(1000)).reshape({10, 100});
  cupp::pending_host_array pending = a(slice(), 5).get_nonblocking();
  EXPECT_TRUE(pending.valid());
  const cupp::host_array h = pending.wait();
  EXPECT_FALSE(pending.valid());
  EXPECT_THROW(pending.wait(), cupp::ValueError);
  std::vector<double> want;
  for (int i = 0; i < 10; ++i) want.push_back(i * 100 + 5);
  EXPECT_EQ(h.to_vector<double>(), want);
  { cupp::pending_host_array dropped = a.get_nonblocking(); }  // destroyed without wait: no error

  // Upload from pinned memory: asynchronous by default; blocking on request.
  cupp::cuda::PinnedMemory pinned = cupp::cuda::alloc_pinned_memory(4 * sizeof(float));
  const float src[4] = {1, 2, 3, 4};
  std::memcpy(pinned.ptr(), src, sizeof src);
  const std::int64_t n = 4;
  ndarray up = cupp::asarray(pinned.ptr(), cupp::float32, std::span<const std::int64_t>(&n, 1), {.blocking = true});
  EXPECT_EQ(up.to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));
  ndarray up2 = cupp::asarray(pinned.ptr(), cupp::float32, std::span<const std::int64_t>(&n, 1));
  cupp::cuda::current_stream().synchronize();
  EXPECT_EQ(up2.to_vector<float>(), (std::vector<float>{1, 2, 3, 4}));

  // Big-endian host data becomes little-endian.
  const unsigned char be[8] = {0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x01, 0x00};
  const std::int64_t two = 2;
  ndarray swapped = cupp::asarray(be, cupp::int32, std::span<const std::int64_t>(&two, 1), {.big_endian = true});
  EXPECT_EQ(swapped.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 256}));
}

TEST(NdarrayGpu, WrappedDevicePointer) {
  CUPP_REQUIRE_GPU();
  auto buffer = std::make_shared<cupp::test::device_vector<float>>(std::vector<float>{1, 2, 3, 4, 5, 6});
  const std::int64_t shape[] = {2, 3};
  ndarray w = cupp::from_device_pointer(buffer->get(), cupp::float32, shape, {}, buffer);
  EXPECT_EQ(w.data(), buffer->get());
  EXPECT_EQ(w.T()(0).to_vector<float>(), (std::vector<float>{1, 4}));
  const std::int64_t fshape[] = {3, 2}, fstrides[] = {4, 12};  // Fortran order
  ndarray f = cupp::from_device_pointer(buffer->get(), cupp::float32, fshape, fstrides, buffer);
  EXPECT_TRUE(f.is_f_contiguous());
  EXPECT_EQ(f.to_vector<float>(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  std::weak_ptr<cupp::test::device_vector<float>> watch = buffer;
  buffer.reset();
  EXPECT_FALSE(watch.expired());  // the arrays keep the owner alive
  w = ndarray();
  f = ndarray();
  EXPECT_TRUE(watch.expired());
}

TEST(NdarrayGpu, LargeRepr) {
  CUPP_REQUIRE_GPU();
  ndarray a = cupp::asarray(iota(1001));
  EXPECT_EQ(a.repr(), "array([   0.,    1.,    2., ...,  998.,  999., 1000.], shape=(1001,))");
}

}  // namespace
