// DLPack export/import without a GPU: arrays wrap fake device addresses with an explicit device
// (no CUDA call), so the struct contents, the dtype/shape/stride conversions, the deleter being
// called exactly once, the lifetime of exported memory and the import errors are checked in CI.
// The exchange with PyTorch and CuPy runs on the GPU machine (tests/dlpack_interop).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cupp/dlpack.hpp"
#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"
#include "error_of.hpp"

namespace {

using cupp::ndarray;
using cupp::shape_t;
using cupp::slice;

using cupp::test::error_of;

// A fake device buffer (never dereferenced) and an owner that records its release.
struct fake_memory {
  alignas(256) std::byte bytes[4096]{};
  int released = 0;
  cupp::memory_owner owner() {
    return cupp::memory_owner(bytes, [this](const void*) { ++released; });
  }
};

ndarray wrap(fake_memory& m, cupp::dtype type, shape_t shape, shape_t byte_strides = {}, int device = 0) {
  return cupp::from_device_pointer(m.bytes, type, shape, byte_strides, m.owner(), device);
}

std::vector<std::int64_t> span_of(const std::int64_t* p, int n) { return {p, p + n}; }
std::vector<std::int64_t> vec(std::span<const std::int64_t> s) { return {s.begin(), s.end()}; }

// A producer-side tensor with a counting deleter, as another library would hand over.
template <class Managed>
struct foreign_tensor {
  static inline int deleted = 0;
  shape_t shape, strides;
  Managed managed{};
  foreign_tensor(void* data, DLDataType dtype, shape_t shape_, shape_t strides_,
                 DLDeviceType device_type = kDLCUDA, int device_id = 0)
      : shape(std::move(shape_)), strides(std::move(strides_)) {
    managed.dl_tensor.data = data;
    managed.dl_tensor.device = {device_type, device_id};
    managed.dl_tensor.ndim = static_cast<std::int32_t>(shape.size());
    managed.dl_tensor.dtype = dtype;
    managed.dl_tensor.shape = shape.data();
    managed.dl_tensor.strides = strides.empty() ? nullptr : strides.data();
    managed.deleter = [](Managed*) { ++deleted; };
    if constexpr (std::is_same_v<Managed, DLManagedTensorVersioned>) managed.version = {1, 0};
  }
};

TEST(DLPack, ExportVersionedDescribesTheArray) {
  fake_memory m;
  const ndarray a = wrap(m, cupp::float32, {2, 3}, {}, 1);
  DLManagedTensorVersioned* t = cupp::to_dlpack_versioned(a);
  EXPECT_EQ(t->version.major, 1u);
  EXPECT_EQ(t->version.minor, 1u);
  EXPECT_EQ(t->flags, 0u);
  EXPECT_EQ(t->dl_tensor.data, a.data());
  EXPECT_EQ(t->dl_tensor.byte_offset, 0u);
  EXPECT_EQ(t->dl_tensor.device.device_type, kDLCUDA);
  EXPECT_EQ(t->dl_tensor.device.device_id, 1);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.dtype.code, kDLFloat);
  EXPECT_EQ(t->dl_tensor.dtype.bits, 32);
  EXPECT_EQ(t->dl_tensor.dtype.lanes, 1);
  EXPECT_EQ(span_of(t->dl_tensor.shape, 2), (shape_t{2, 3}));
  EXPECT_EQ(span_of(t->dl_tensor.strides, 2), (shape_t{3, 1}));
  t->deleter(t);
}

TEST(DLPack, StridedViewsKeepTheirStridesInElements) {
  fake_memory m;
  const ndarray a = wrap(m, cupp::float64, {4, 6});
  const ndarray v = a(slice(1, 4), slice(0, 6, 2)).T();  // shape (3, 3), byte strides (16, 48)
  DLManagedTensor* t = cupp::to_dlpack(v);
  EXPECT_EQ(span_of(t->dl_tensor.shape, 2), (shape_t{3, 3}));
  EXPECT_EQ(span_of(t->dl_tensor.strides, 2), (shape_t{2, 6}));
  EXPECT_EQ(t->dl_tensor.data, v.data());
  // And back: same pointer, shape and byte strides.
  const ndarray back = cupp::from_dlpack(t);
  EXPECT_EQ(back.data(), v.data());
  EXPECT_EQ(vec(back.shape()), vec(v.shape()));
  EXPECT_EQ(vec(back.strides()), vec(v.strides()));
  EXPECT_EQ(back.dtype(), cupp::float64);
  EXPECT_EQ(back.device(), 0);
}

TEST(DLPack, NegativeStridesAndZeroDims) {
  fake_memory m;
  const ndarray a = wrap(m, cupp::int16, {5});
  const ndarray reversed = a(slice(std::nullopt, std::nullopt, -1));
  DLManagedTensorVersioned* t = cupp::to_dlpack_versioned(reversed);
  EXPECT_EQ(span_of(t->dl_tensor.strides, 1), (shape_t{-1}));
  const ndarray back = cupp::from_dlpack(t);
  EXPECT_EQ(vec(back.strides()), (shape_t{-2}));
  EXPECT_EQ(back.data(), reversed.data());

  const ndarray scalar = wrap(m, cupp::complex128, {});
  DLManagedTensorVersioned* s = cupp::to_dlpack_versioned(scalar);
  EXPECT_EQ(s->dl_tensor.ndim, 0);
  const ndarray scalar_back = cupp::from_dlpack(s);
  EXPECT_EQ(scalar_back.ndim(), 0);
  EXPECT_EQ(scalar_back.dtype(), cupp::complex128);
}

TEST(DLPack, EveryBuiltinDtypeRoundTrips) {
  using cupp::type_id;
  struct row { type_id id; std::uint8_t code, bits; };
  const row rows[] = {
      {type_id::bool_, kDLBool, 8},        {type_id::int8, kDLInt, 8},        {type_id::int16, kDLInt, 16},
      {type_id::int32, kDLInt, 32},        {type_id::int64, kDLInt, 64},      {type_id::uint8, kDLUInt, 8},
      {type_id::uint16, kDLUInt, 16},      {type_id::uint32, kDLUInt, 32},    {type_id::uint64, kDLUInt, 64},
      {type_id::float16, kDLFloat, 16},    {type_id::bfloat16, kDLBfloat, 16}, {type_id::float32, kDLFloat, 32},
      {type_id::float64, kDLFloat, 64},    {type_id::complex64, kDLComplex, 64},
      {type_id::complex128, kDLComplex, 128}};
  for (const row& r : rows) {
    SCOPED_TRACE(cupp::dtype(r.id).name());
    const DLDataType dl = cupp::detail::to_dl_dtype(r.id);
    EXPECT_EQ(dl.code, r.code);
    EXPECT_EQ(dl.bits, r.bits);
    EXPECT_EQ(dl.lanes, 1);
    EXPECT_EQ(cupp::detail::from_dl_dtype(dl), cupp::dtype(r.id));
    fake_memory m;
    const ndarray a = wrap(m, r.id, {2, 2});
    const ndarray back = cupp::from_dlpack(cupp::to_dlpack_versioned(a));
    EXPECT_EQ(back.dtype(), cupp::dtype(r.id));
    EXPECT_EQ(vec(back.strides()), vec(a.strides()));
  }
}

TEST(DLPack, ExportKeepsTheMemoryUntilTheDeleterRuns) {
  fake_memory m;
  DLManagedTensorVersioned* t = nullptr;
  {
    const ndarray a = wrap(m, cupp::float32, {8});
    t = cupp::to_dlpack_versioned(a);
  }
  EXPECT_EQ(m.released, 0);  // the array is gone, the exported tensor still holds the memory
  t->deleter(t);
  EXPECT_EQ(m.released, 1);
}

TEST(DLPack, ImportCallsTheProducersDeleterOnceWhenTheLastViewGoes) {
  using F = foreign_tensor<DLManagedTensorVersioned>;
  fake_memory m;
  F::deleted = 0;
  F producer(m.bytes, {kDLFloat, 32, 1}, {3, 4}, {1, 3});  // Fortran order
  {
    ndarray a = cupp::from_dlpack(&producer.managed);
    EXPECT_EQ(vec(a.strides()), (shape_t{4, 12}));
    EXPECT_TRUE(a.is_f_contiguous());
    const ndarray view = a(1);
    ndarray copy_of_handle = a;
    a = ndarray();
    copy_of_handle = ndarray();
    EXPECT_EQ(F::deleted, 0);  // `view` still uses the memory
    EXPECT_EQ(view.shape(0), 4);
  }
  EXPECT_EQ(F::deleted, 1);
}

TEST(DLPack, ImportUnversionedHonoursByteOffsetAndCOrder) {
  using F = foreign_tensor<DLManagedTensor>;
  fake_memory m;
  F::deleted = 0;
  F producer(m.bytes, {kDLInt, 64, 1}, {2, 5}, {});  // null strides: C order
  producer.managed.dl_tensor.byte_offset = 64;
  {
    const ndarray a = cupp::from_dlpack(&producer.managed);
    EXPECT_EQ(a.data(), static_cast<void*>(m.bytes + 64));
    EXPECT_EQ(vec(a.strides()), (shape_t{40, 8}));
    EXPECT_TRUE(a.writeable());
  }
  EXPECT_EQ(F::deleted, 1);
}

TEST(DLPack, ReadOnlyIsFlaggedBothWays) {
  fake_memory m;
  const ndarray a = wrap(m, cupp::float32, {3});
  const ndarray ro = cupp::broadcast_to(a, {2, 3});
  DLManagedTensorVersioned* t = cupp::to_dlpack_versioned(ro);
  EXPECT_EQ(t->flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
  EXPECT_EQ(span_of(t->dl_tensor.strides, 2), (shape_t{0, 1}));
  const ndarray back = cupp::from_dlpack(t);
  EXPECT_FALSE(back.writeable());
  EXPECT_NE(error_of<cupp::ValueError>([&] { back.fill(1.0); }), "<no error>");
}

TEST(DLPack, ImportErrorsLeaveTheTensorToTheCaller) {
  using F = foreign_tensor<DLManagedTensorVersioned>;
  fake_memory m;
  F::deleted = 0;
  for (DLDeviceType where : {kDLCPU, kDLCUDAHost}) {
    F host(m.bytes, {kDLFloat, 32, 1}, {4}, {}, where);
    EXPECT_NE(error_of<cupp::ValueError>([&] { cupp::from_dlpack(&host.managed); })
                  .find("from_dlpack needs device memory"),
              std::string::npos);
  }
  F opaque(m.bytes, {kDLOpaqueHandle, 64, 1}, {4}, {});
  EXPECT_NE(error_of<cupp::TypeError>([&] { cupp::from_dlpack(&opaque.managed); }).find("code 3"),
            std::string::npos);
  F vector_lanes(m.bytes, {kDLFloat, 32, 4}, {4}, {});
  EXPECT_NE(error_of<cupp::TypeError>([&] { cupp::from_dlpack(&vector_lanes.managed); }).find("lanes 4"),
            std::string::npos);
  F odd_bits(m.bytes, {kDLFloat, 8, 1}, {4}, {});
  EXPECT_NE(error_of<cupp::TypeError>([&] { cupp::from_dlpack(&odd_bits.managed); }).find("code 2, bits 8"),
            std::string::npos);
  F null_data(nullptr, {kDLFloat, 32, 1}, {4}, {});
  EXPECT_NE(error_of<cupp::ValueError>([&] { cupp::from_dlpack(&null_data.managed); }), "<no error>");
  F future(m.bytes, {kDLFloat, 32, 1}, {4}, {});
  future.managed.version = {2, 0};
  EXPECT_NE(error_of<cupp::ValueError>([&] { cupp::from_dlpack(&future.managed); }).find("major version 2"),
            std::string::npos);
  EXPECT_EQ(F::deleted, 0);  // none of them was taken over
}

TEST(DLPack, ExportErrors) {
  fake_memory m;
  const ndarray odd = wrap(m, cupp::float32, {3}, {6});
  EXPECT_NE(error_of<cupp::ValueError>([&] { cupp::to_dlpack_versioned(odd); }).find("not a multiple of the itemsize"),
            std::string::npos);
  const ndarray rec = wrap(m, cupp::dtype::parse("f4, i8"), {2});
  EXPECT_NE(error_of<cupp::TypeError>([&] { cupp::to_dlpack(rec); }), "<no error>");
  EXPECT_NE(error_of<cupp::ValueError>([&] { cupp::to_dlpack(ndarray()); }), "<no error>");
  EXPECT_EQ(m.released, 0);  // nothing leaked a reference either way
}

TEST(DLPack, ConsumerVersionChoosesTheForm) {
  fake_memory m;
  const ndarray a = wrap(m, cupp::uint8, {4});
  auto v = cupp::to_dlpack_for(a, DLPackVersion{1, 0});
  ASSERT_NE(v.versioned, nullptr);
  EXPECT_EQ(v.unversioned, nullptr);
  v.versioned->deleter(v.versioned);
  auto legacy = cupp::to_dlpack_for(a, std::nullopt);
  ASSERT_NE(legacy.unversioned, nullptr);
  EXPECT_EQ(legacy.versioned, nullptr);
  legacy.unversioned->deleter(legacy.unversioned);
  auto old = cupp::to_dlpack_for(a, DLPackVersion{0, 8});
  ASSERT_NE(old.unversioned, nullptr);
  old.unversioned->deleter(old.unversioned);
}

TEST(DLPack, ManagedMemoryIsReportedPerExportVersion) {
  EXPECT_EQ(cupp::detail::export_device_type(true, 0, 6), kDLCUDA);
  EXPECT_EQ(cupp::detail::export_device_type(true, 1, 0), kDLCUDAManaged);
  EXPECT_EQ(cupp::detail::export_device_type(false, 1, 0), kDLCUDA);
}

TEST(DLPack, AbiLayoutMatchesTheSpecification) {
  EXPECT_EQ(sizeof(DLDevice), 8u);
  EXPECT_EQ(sizeof(DLDataType), 4u);
  EXPECT_EQ(sizeof(DLTensor), 48u);
  EXPECT_EQ(offsetof(DLTensor, shape), 24u);
  EXPECT_EQ(offsetof(DLTensor, byte_offset), 40u);
  EXPECT_EQ(offsetof(DLManagedTensor, deleter), 56u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, flags), 24u);
  EXPECT_EQ(offsetof(DLManagedTensorVersioned, dl_tensor), 32u);
}

}  // namespace
