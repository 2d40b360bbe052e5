// Tests of ndarray views without a GPU: arrays wrap a fake device address with an explicit
// device (from_device_pointer then makes no CUDA call, and views never touch memory), so the
// handle semantics, shapes, strides, offsets, flags, read-only views, structured fields, the NumPy 2
// forms of the views (cupp/manipulation.hpp: reshape with order=/copy=, ravel with order=,
// matrix_transpose, rollaxis, moveaxis/expand_dims/squeeze with several axes) and the errors raised
// before any device work are checked in CI.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/ndarray.hpp"
#include "error_of.hpp"

namespace {

using cupp::ndarray;
using cupp::shape_t;
using cupp::slice;

using cupp::test::error_of;

// A fake device buffer: a host block whose address is never dereferenced by views.
struct fake {
  std::vector<std::byte> bytes = std::vector<std::byte>(1 << 16);
  ndarray wrap(cupp::dtype type, shape_t shape, shape_t strides = {}) {
    return cupp::from_device_pointer(bytes.data(), type, shape, strides, nullptr, /*device=*/0);
  }
  std::int64_t at(const ndarray& a) const {
    return static_cast<const std::byte*>(a.data()) - bytes.data();
  }
};

shape_t S(std::span<const std::int64_t> s) { return shape_t(s.begin(), s.end()); }

TEST(NdarrayViews, NullHandle) {
  ndarray a;
  EXPECT_TRUE(a.is_null());
  EXPECT_EQ(a.ndim(), 0);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_THROW(a.reshape({1}), cupp::ValueError);
  EXPECT_THROW(a(0), cupp::ValueError);
  EXPECT_THROW(a.T(), cupp::ValueError);
  EXPECT_THROW(a.get(), cupp::ValueError);
  EXPECT_EQ(a.repr(), "ndarray(null)");
  fake f;
  a = f.wrap(cupp::float32, {3});  // assignment rebinds a null handle
  EXPECT_FALSE(a.is_null());
}

TEST(NdarrayViews, HandleSharesData) {
  fake f;
  ndarray a = f.wrap(cupp::float64, {3, 4});
  ndarray b = a;
  EXPECT_EQ(a.data(), b.data());
  EXPECT_EQ(a.base(), b.base());
  ndarray v = a(1);
  EXPECT_EQ(f.at(v), 32);
  EXPECT_EQ(v.offset(), 32);
  EXPECT_EQ(v.base(), a.base());
}

TEST(NdarrayViews, Properties) {
  fake f;
  ndarray a = f.wrap(cupp::float32, {2, 3, 4});
  EXPECT_EQ(a.ndim(), 3);
  EXPECT_EQ(a.size(), 24);
  EXPECT_EQ(a.itemsize(), 4u);
  EXPECT_EQ(a.nbytes(), 96u);
  EXPECT_EQ(S(a.strides()), (shape_t{48, 16, 4}));
  EXPECT_EQ(a.shape(-1), 4);
  EXPECT_EQ(a.stride(0), 48);
  EXPECT_THROW(a.shape(3), cupp::AxisError);
  EXPECT_TRUE(a.is_c_contiguous());
  EXPECT_FALSE(a.is_f_contiguous());
  EXPECT_TRUE(a.writeable());
  EXPECT_EQ(a.device(), 0);

  ndarray z = f.wrap(cupp::int8, {});
  EXPECT_EQ(z.ndim(), 0);
  EXPECT_EQ(z.size(), 1);
  EXPECT_TRUE(z.is_c_contiguous() && z.is_f_contiguous());

  ndarray e = f.wrap(cupp::float64, {0, 3});
  EXPECT_EQ(e.size(), 0);
  EXPECT_EQ(e.data(), nullptr);
  EXPECT_TRUE(e.is_c_contiguous() && e.is_f_contiguous());

  // Negative and zero strides are accepted.
  ndarray n = f.wrap(cupp::float64, {3}, {-8});
  EXPECT_EQ(n.stride(0), -8);
  ndarray b = f.wrap(cupp::float64, {3}, {0});
  EXPECT_EQ(b.stride(0), 0);

  EXPECT_THROW(f.wrap(cupp::float64, shape_t(65, 1)), cupp::ValueError);
  EXPECT_NO_THROW(f.wrap(cupp::float64, shape_t(64, 1)));
  EXPECT_THROW(f.wrap(cupp::float64, {2, 3}, {8}), cupp::ValueError);
}

TEST(NdarrayViews, IndexingSyntax) {
  fake f;
  ndarray a = f.wrap(cupp::float64, {4, 5, 6});
  ndarray v = a(1, slice(0, 10, 2), cupp::newaxis, cupp::ellipsis);
  EXPECT_EQ(S(v.shape()), (shape_t{3, 1, 6}));
  EXPECT_EQ(S(v.strides()), (shape_t{96, 0, 8}));
  EXPECT_EQ(f.at(v), 240);
  v = a(cupp::ellipsis, -1);
  EXPECT_EQ(S(v.shape()), (shape_t{4, 5}));
  EXPECT_EQ(f.at(v), 40);
  v = a(slice(std::nullopt, std::nullopt, -1), 0, 0);
  EXPECT_EQ(S(v.strides()), (shape_t{-240}));
  EXPECT_EQ(f.at(v), 720);
  EXPECT_FALSE(v.is_c_contiguous());
  v = a(3u, 4L, 5LL);
  EXPECT_EQ(v.ndim(), 0);
  EXPECT_EQ(f.at(v), 3 * 240 + 4 * 48 + 5 * 8);
  v = a();
  EXPECT_EQ(S(v.shape()), S(a.shape()));
  EXPECT_EQ(error_of<cupp::IndexError>([&] { a(0, 5); }), "index 5 is out of bounds for axis 1 with size 5");
  EXPECT_THROW(a(0, 0, 0, 0), cupp::IndexError);
  EXPECT_THROW(a(cupp::ellipsis, 0, cupp::ellipsis), cupp::IndexError);
  EXPECT_THROW(a(slice(0, 4, 0)), cupp::ValueError);
  // An empty slice.
  v = a(slice(3, 1));
  EXPECT_EQ(v.size(), 0);
  EXPECT_EQ(v.data(), nullptr);
  // Views of views.
  v = a(slice(1, std::nullopt))(slice(std::nullopt, std::nullopt, -1))(0);
  EXPECT_EQ(f.at(v), 3 * 240);
}

TEST(NdarrayViews, ReshapeViews) {
  fake f;
  ndarray a = f.wrap(cupp::float64, {2, 3});
  ndarray r = a.reshape({3, -1});
  EXPECT_EQ(S(r.shape()), (shape_t{3, 2}));
  EXPECT_EQ(S(r.strides()), (shape_t{16, 8}));
  EXPECT_EQ(r.data(), a.data());
  EXPECT_EQ(S(a.ravel().shape()), shape_t{6});
  // A transposed array reshapes to (3, 2, 1) without a copy.
  r = a.T().reshape({3, 2, 1});
  EXPECT_EQ(S(r.strides()), (shape_t{8, 24, 24}));
  EXPECT_EQ(r.base(), a.base());
  // Non-contiguous but view-compatible.
  ndarray big = f.wrap(cupp::float64, {4, 6});
  r = big(slice(), slice(std::nullopt, std::nullopt, 2)).reshape({2, 2, 3});
  EXPECT_EQ(S(r.strides()), (shape_t{96, 48, 16}));
  EXPECT_EQ(error_of<cupp::ValueError>([&] { a.reshape({4}); }).rfind("cannot reshape array of size 6 into shape (4,)", 0),
            0u);
  EXPECT_THROW(a.reshape({-1, -1}), cupp::ValueError);
  // 0-d <-> 1 element.
  ndarray z = f.wrap(cupp::float64, {});
  EXPECT_EQ(S(z.reshape({1, 1}).shape()), (shape_t{1, 1}));
  EXPECT_EQ(a(0, 0).reshape(std::span<const std::int64_t>{}).ndim(), 0);
}

TEST(NdarrayViews, Transposes) {
  fake f;
  ndarray a = f.wrap(cupp::float32, {2, 3, 4});
  EXPECT_EQ(S(a.T().shape()), (shape_t{4, 3, 2}));
  EXPECT_EQ(S(a.T().strides()), (shape_t{4, 16, 48}));
  EXPECT_TRUE(a.T().is_f_contiguous());
  EXPECT_EQ(S(a.transpose({1, 0, 2}).shape()), (shape_t{3, 2, 4}));
  const int axes[] = {2, 0, 1};
  EXPECT_EQ(S(cupp::permute_dims(a, axes).shape()), (shape_t{4, 2, 3}));
  EXPECT_THROW(a.transpose({0, 1}), cupp::ValueError);
  EXPECT_EQ(S(a.swapaxes(0, -1).shape()), (shape_t{4, 3, 2}));
  EXPECT_EQ(S(a.swapaxes(0, -1).strides()), (shape_t{4, 16, 48}));
  EXPECT_EQ(S(a.moveaxis(0, -1).shape()), (shape_t{3, 4, 2}));
  EXPECT_EQ(S(a.moveaxis(0, -1).strides()), (shape_t{16, 4, 48}));
  EXPECT_THROW(a.moveaxis(3, 0), cupp::AxisError);
  ndarray one = f.wrap(cupp::float32, {1, 3, 1});
  EXPECT_EQ(S(one.squeeze().shape()), (shape_t{3}));
  const int ax0[] = {0};
  EXPECT_EQ(S(one.squeeze(ax0).shape()), (shape_t{3, 1}));
  const int ax1[] = {1};
  EXPECT_THROW(one.squeeze(ax1), cupp::ValueError);
  EXPECT_EQ(S(a.expand_dims(1).shape()), (shape_t{2, 1, 3, 4}));
  ndarray z = f.wrap(cupp::float32, {});
  EXPECT_EQ(z.T().ndim(), 0);
}

TEST(NdarrayViews, BroadcastToIsReadOnly) {
  fake f;
  ndarray a = f.wrap(cupp::float64, {3});
  ndarray b = cupp::broadcast_to(a, {2, 3});
  EXPECT_EQ(S(b.shape()), (shape_t{2, 3}));
  EXPECT_EQ(S(b.strides()), (shape_t{0, 8}));
  EXPECT_FALSE(b.writeable());
  EXPECT_FALSE(b(0).writeable());  // views of read-only arrays stay read-only
  EXPECT_EQ(error_of<cupp::ValueError>([&] { b.fill(1.0); }), "assignment destination is read-only");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { b(0) = 2.0; }), "assignment destination is read-only");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { b.assign(cupp::host_array(cupp::float64, {3})); }),
            "assignment destination is read-only");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::broadcast_to(a, {4}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,)  and "
            "requested shape (4,)");

  ndarray c = f.wrap(cupp::float64, {2, 1});
  const ndarray both[] = {a, c};
  const std::vector<ndarray> out = cupp::broadcast_arrays(both);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(S(out[0].shape()), (shape_t{2, 3}));
  EXPECT_EQ(S(out[1].shape()), (shape_t{2, 3}));
  EXPECT_EQ(S(out[1].strides()), (shape_t{8, 0}));
  ndarray d = f.wrap(cupp::float64, {4});
  const ndarray bad[] = {a, d};
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::broadcast_arrays(bad); }),
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with shape "
            "(3,) and arg 1 with shape (4,).");
  EXPECT_EQ(cupp::broadcast_shapes({{2, 1}, {3}}), (shape_t{2, 3}));
}

TEST(NdarrayViews, DtypeViewsRealImagDiagonal) {
  fake f;
  ndarray a = f.wrap(cupp::complex128, {2, 3});
  ndarray re = a.real(), im = a.imag();
  EXPECT_EQ(re.dtype(), cupp::float64);
  EXPECT_EQ(S(re.strides()), (shape_t{48, 16}));
  EXPECT_EQ(f.at(im), 8);
  EXPECT_TRUE(im.writeable());
  ndarray c64 = f.wrap(cupp::complex64, {4});
  EXPECT_EQ(c64.imag().dtype(), cupp::float32);
  EXPECT_EQ(f.at(c64.imag()), 4);

  ndarray v = a.view(cupp::float64);
  EXPECT_EQ(S(v.shape()), (shape_t{2, 6}));
  v = a.view(cupp::dtype::void_(16));
  EXPECT_EQ(v.dtype().name(), "V16");
  EXPECT_EQ(S(v.shape()), (shape_t{2, 3}));
  v = a.view(cupp::dtype::void_(48));
  EXPECT_EQ(S(v.shape()), (shape_t{2, 1}));
  EXPECT_THROW(a.T().view(cupp::float64), cupp::ValueError);
  ndarray r = f.wrap(cupp::float32, {3});
  EXPECT_EQ(r.real().data(), r.data());

  ndarray m = f.wrap(cupp::float64, {3, 4});
  ndarray d = m.diagonal();
  EXPECT_EQ(S(d.shape()), (shape_t{3}));
  EXPECT_EQ(S(d.strides()), (shape_t{40}));
  EXPECT_FALSE(d.writeable());
  EXPECT_EQ(f.at(m.diagonal(1)), 8);
  EXPECT_EQ(f.at(m.diagonal(-1)), 32);
}

TEST(NdarrayViews, StructuredFields) {
  fake f;
  const std::pair<std::string, cupp::dtype> aligned_fields[] = {{"a", cupp::int32}, {"b", cupp::float64}};
  const cupp::dtype aligned = cupp::dtype::structured(aligned_fields, /*align=*/true);
  ASSERT_EQ(aligned.itemsize(), 16u);
  ndarray s = f.wrap(aligned, {4});
  ndarray b = s["b"];
  EXPECT_EQ(b.dtype(), cupp::float64);
  EXPECT_EQ(S(b.strides()), (shape_t{16}));
  EXPECT_EQ(f.at(b), 8);
  EXPECT_EQ(s.field("a").dtype(), cupp::int32);
  EXPECT_EQ(f.at(s(slice(1, 3))["b"]), 24);
  EXPECT_EQ(error_of<cupp::ValueError>([&] { s["c"]; }), "no field of name c");
  EXPECT_THROW(f.wrap(cupp::float64, {3})["a"], cupp::ValueError);

  // Packed: 'b' at offset 1 breaks float32's alignment.
  const std::pair<std::string, cupp::dtype> packed_fields[] = {{"a", cupp::int8}, {"b", cupp::float32}};
  const cupp::dtype packed = cupp::dtype::structured(packed_fields);
  ndarray p = f.wrap(packed, {4});
  const std::string m = error_of<cupp::ValueError>([&] { p["b"]; });
  EXPECT_NE(m.find("GPU needs aligned fields"), std::string::npos) << m;
  EXPECT_NO_THROW(p["a"]);  // int8 is always aligned
  // A field at an aligned offset but an odd element stride: also rejected.
  const std::pair<std::string, cupp::dtype> odd_fields[] = {{"x", cupp::int32}, {"y", cupp::int8}};
  ndarray o = f.wrap(cupp::dtype::structured(odd_fields), {3});  // itemsize 5
  EXPECT_THROW(o["x"], cupp::ValueError);
  EXPECT_NO_THROW(o(slice(0, 1))["x"]);  // one element: no stride to misalign

  // Kernels other than field access, copy and fill refuse structured dtypes.
  EXPECT_EQ(error_of<cupp::TypeError>([&] { s.imag(); }).find("structured dtypes support field access only"),
            std::string("imag: ").size());
  EXPECT_THROW(s.assign(cupp::host_array(cupp::float64, {4})), cupp::TypeError);
  EXPECT_THROW(cupp::detail::require_not_structured(aligned, "add"), cupp::TypeError);
  EXPECT_NO_THROW(cupp::detail::require_not_structured(cupp::float64, "add"));
}

TEST(NdarrayViews, ErrorsBeforeDeviceWork) {
  fake f;
  ndarray u8 = f.wrap(cupp::uint8, {3});
  EXPECT_EQ(error_of<cupp::OverflowError>([&] { u8.fill(300); }), "Python integer 300 out of bounds for uint8");
  EXPECT_EQ(error_of<cupp::OverflowError>([&] { u8(0) = -1; }), "Python integer -1 out of bounds for uint8");
  EXPECT_THROW(f.wrap(cupp::float64, {3}).fill(std::complex<double>(1, 2)), cupp::TypeError);
  // same_kind casting on assignment.
  ndarray i64 = f.wrap(cupp::int64, {3});
  EXPECT_EQ(error_of<cupp::TypeError>([&] { i64.assign(cupp::host_array(cupp::float64, {3})); }),
            "Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'same_kind'");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { i64.assign(cupp::host_array(cupp::int64, {4})); }),
            "could not broadcast input array from shape (4,) into shape (3,)");
}

TEST(NdarrayViews, DtypeInference) {
  EXPECT_EQ(cupp::detail::literal_dtype<int>(), cupp::int64);
  EXPECT_EQ(cupp::detail::literal_dtype<long>(), cupp::int64);
  EXPECT_EQ(cupp::detail::literal_dtype<unsigned>(), cupp::int64);
  EXPECT_EQ(cupp::detail::literal_dtype<unsigned long long>(), cupp::uint64);
  EXPECT_EQ(cupp::detail::literal_dtype<double>(), cupp::float64);
  EXPECT_EQ(cupp::detail::literal_dtype<float>(), cupp::float32);
  EXPECT_EQ(cupp::detail::literal_dtype<bool>(), cupp::bool_);
  EXPECT_EQ(cupp::detail::literal_dtype<std::complex<double>>(), cupp::complex128);
  EXPECT_EQ(cupp::dtype_of<int>(), cupp::int32);
  EXPECT_EQ(cupp::dtype_of<long long>(), cupp::int64);
  EXPECT_EQ(cupp::dtype_of<unsigned char>(), cupp::uint8);
  EXPECT_EQ(cupp::dtype_of<std::uint16_t>(), cupp::uint16);
  EXPECT_EQ(cupp::dtype_of<cupp::bfloat16_t>(), cupp::bfloat16);
  EXPECT_EQ(cupp::dtype_of<std::complex<float>>(), cupp::complex64);
  // Ragged nested lists are refused before any device work.
  EXPECT_EQ(error_of<cupp::ValueError>([] { cupp::array({{1, 2}, {3}}); }),
            "setting an array element with a sequence. The requested array has an inhomogeneous shape after 1 "
            "dimensions. The detected shape was (2,) + inhomogeneous part.");
}

TEST(NdarrayViews, NumPy2ViewForms) {
  fake f;
  ndarray a = f.wrap(cupp::float64, {2, 3});
  // reshape order='F': a.T reshaped to the reversed shape, transposed back (NumPy's strides).
  ndarray r = cupp::reshape(a.T(), std::vector<std::int64_t>{6}, {.order = cupp::order::F});
  EXPECT_EQ(S(r.strides()), shape_t{8});
  EXPECT_EQ(r.data(), a.data());
  r = cupp::reshape(a.T(), std::vector<std::int64_t>{2, -1}, {.order = cupp::order::F, .copy = false});
  EXPECT_EQ(S(r.shape()), (shape_t{2, 3}));
  EXPECT_EQ(S(r.strides()), (shape_t{8, 16}));
  EXPECT_EQ(r.base(), a.base());
  // order='A' of a Fortran-contiguous array reads it in Fortran order (a view).
  r = cupp::reshape(a.T(), std::vector<std::int64_t>{2, 3}, {.order = cupp::order::A, .copy = false});
  EXPECT_EQ(S(r.strides()), (shape_t{8, 16}));
  EXPECT_EQ(error_of<cupp::ValueError>(
                [&] { cupp::reshape(a.T(), std::vector<std::int64_t>{6}, {.copy = false}); }),
            "Unable to avoid creating a copy while reshaping.");
  EXPECT_EQ(error_of<cupp::ValueError>(
                [&] { cupp::reshape(a, std::vector<std::int64_t>{6}, {.order = cupp::order::K}); }),
            "order 'K' is not permitted for reshaping");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::reshape(a, std::vector<std::int64_t>{4}, {}); })
                .rfind("cannot reshape array of size 6 into shape (4,)", 0),
            0u);
  EXPECT_EQ(cupp::parse_order("K"), cupp::order::K);
  EXPECT_EQ(error_of<cupp::ValueError>([] { cupp::parse_order("X"); }),
            "order must be one of 'C', 'F', 'A', or 'K' (got 'X')");

  // ravel: F and A of a Fortran-contiguous array, K of a transposed or reversed one: views.
  EXPECT_EQ(cupp::ravel(a.T(), cupp::order::F).data(), a.data());
  EXPECT_EQ(S(cupp::ravel(a.T(), cupp::order::A).strides()), shape_t{8});
  ndarray t = f.wrap(cupp::float64, {2, 3, 4}).transpose({2, 0, 1});
  EXPECT_EQ(S(cupp::ravel(t, cupp::order::K).strides()), shape_t{8});
  ndarray back = f.wrap(cupp::float64, {5})(slice(std::nullopt, std::nullopt, -1));
  EXPECT_EQ(S(cupp::ravel(back, cupp::order::K).strides()), shape_t{-8});  // read forwards, as NumPy

  // matrix_transpose, rollaxis.
  ndarray b = f.wrap(cupp::float32, {2, 3, 4});
  EXPECT_EQ(S(cupp::matrix_transpose(b).shape()), (shape_t{2, 4, 3}));
  EXPECT_EQ(S(cupp::matrix_transpose(b).strides()), (shape_t{48, 4, 16}));
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::matrix_transpose(b(0, 0)); }),
            "Input array must be at least 2-dimensional, but it is 1");
  EXPECT_EQ(S(cupp::rollaxis(b, 2).shape()), (shape_t{4, 2, 3}));
  EXPECT_EQ(S(cupp::rollaxis(b, 0, 3).shape()), (shape_t{3, 4, 2}));
  EXPECT_EQ(S(cupp::rollaxis(b, 1, 1).shape()), (shape_t{2, 3, 4}));
  EXPECT_EQ(S(cupp::rollaxis(b, 2, -1).shape()), (shape_t{2, 3, 4}));
  EXPECT_EQ(error_of<cupp::AxisError>([&] { cupp::rollaxis(b, 0, 5); }),
            "'start' arg requires -3 <= start < 4, but 5 was passed in");
  EXPECT_THROW(cupp::rollaxis(b, 3), cupp::AxisError);

  // moveaxis with several axes (NumPy's strides).
  const int src[] = {0, 1}, dst[] = {-1, -2};
  EXPECT_EQ(S(cupp::moveaxis(b, src, dst).shape()), (shape_t{4, 3, 2}));
  EXPECT_EQ(S(cupp::moveaxis(b, src, dst).strides()), (shape_t{4, 16, 48}));
  const int src2[] = {2, 0}, dst2[] = {0, 1};
  EXPECT_EQ(S(cupp::moveaxis(b, src2, dst2).shape()), (shape_t{4, 2, 3}));
  const int twice[] = {0, 0}, one[] = {0}, two[] = {1, 2}, three[] = {3};
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::moveaxis(b, twice, two); }),
            "repeated axis in `source` argument");
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::moveaxis(b, one, two); }),
            "`source` and `destination` arguments must have the same number of elements");
  EXPECT_EQ(error_of<cupp::AxisError>([&] { cupp::moveaxis(b, three, one); }),
            "source: axis 3 is out of bounds for array of dimension 3");

  // expand_dims with several axes, each counted in the result's ndim; squeeze with axes.
  EXPECT_EQ(S(cupp::expand_dims(a, {0, 3}).shape()), (shape_t{1, 2, 3, 1}));
  EXPECT_EQ(S(cupp::expand_dims(a, {-1, 0}).shape()), (shape_t{1, 2, 3, 1}));
  EXPECT_EQ(S(cupp::expand_dims(a, std::span<const int>()).shape()), (shape_t{2, 3}));
  EXPECT_EQ(error_of<cupp::ValueError>([&] { cupp::expand_dims(a, {1, 1}); }), "repeated axis");
  EXPECT_EQ(error_of<cupp::AxisError>([&] { cupp::expand_dims(a, {4}); }),
            "axis 4 is out of bounds for array of dimension 3");
  ndarray ones = f.wrap(cupp::float32, {1, 3, 1});
  const int last[] = {-1};
  EXPECT_EQ(S(cupp::squeeze(ones, last).shape()), (shape_t{1, 3}));
}

}  // namespace
