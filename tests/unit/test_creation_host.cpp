// The creation routines without a GPU (cupp/creation.hpp): NumPy's arange length rule and default
// dtypes, full's dtype inference, argument validation and error classes raised before any device
// work, views (diag of a 2-d array, sparse meshgrid without copy) over wrapped host memory (views
// never touch it), and the two NVRTC programs compiled for every dtype (sm_90).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "compiler/nvrtc_program.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {
namespace {

using test::error_of;

const dtype all_dtypes[] = {bool_,   int8,     int16,   int32,   int64,   uint8,     uint16,    uint32,
                            uint64,  float16,  bfloat16, float32, float64, complex64, complex128};

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type) : fake_array(std::move(shape), type) {}
};

TEST(CreationHost, ArangeLengthFollowsNumPy) {
  using detail::arange_length;
  EXPECT_EQ(arange_length(0, 10, 1), 10);
  EXPECT_EQ(arange_length(0, 10, 3), 4);     // ceil(10 / 3)
  EXPECT_EQ(arange_length(10, 0, -3), 4);
  EXPECT_EQ(arange_length(0, 10, -1), 0);    // negative length -> 0
  EXPECT_EQ(arange_length(5, 5, 1), 0);
  EXPECT_EQ(arange_length(0.0, 1.0, 0.1), 10);
  EXPECT_EQ(arange_length(1.0, 1.3, 0.1), 4);  // (1.3 - 1.0) / 0.1 = 3.0000000000000004: NumPy gives 4
  EXPECT_EQ(arange_length(0, 1, 0.3), 4);
  EXPECT_EQ(arange_length(-3, 3, 2), 3);
  EXPECT_EQ(arange_length(true, 3, 1), 2);
  EXPECT_EQ(arange_length(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                          std::int64_t(1) << 62),
            4);
  // complex: min(ceil(real), ceil(imag)) of (stop - start) / step
  EXPECT_EQ(arange_length(std::complex<double>(0, 0), std::complex<double>(4, 8), std::complex<double>(1, 1)), 2);
  EXPECT_EQ(arange_length(std::complex<double>(0, 0), std::complex<double>(4, 2), std::complex<double>(1, 1)), 0);
}

TEST(CreationHost, ArangeLengthErrors) {
  using detail::arange_length;
  EXPECT_EQ(error_of<ValueError>([] { arange_length(0, 10, 0); }), "arange: step must not be zero (division by zero)");
  EXPECT_EQ(error_of<ValueError>([] { arange_length(0.0, 1.0, 0.0); }),
            "arange: step must not be zero (float division by zero)");
  EXPECT_THROW(arange_length(0, std::complex<double>(1, 1), std::complex<double>(0, 0)), ValueError);
  EXPECT_EQ(error_of<TypeError>([] { arange_length(std::complex<double>(0, 1), 3, 1, /*complex_dtype=*/false); }),
            "must be real number, not complex");
  EXPECT_THROW(arange_length(std::complex<double>(0, 1), std::complex<double>(0, 1), 1, false), TypeError);
  EXPECT_EQ(arange_length(0, 3, 1, false), 3);
  EXPECT_THROW(arange(std::complex<double>(0, 1), 3, 1, float64), TypeError);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(error_of<ValueError>([&] { arange_length(0.0, nan, 1.0); }), "arange: cannot compute length");
  EXPECT_EQ(error_of<ValueError>([&] { arange_length(0.0, inf, 1.0); }), "Maximum allowed size exceeded");
  EXPECT_EQ(error_of<ValueError>([&] { arange_length(0.0, 1e300, 1e-300); }), "Maximum allowed size exceeded");
  // The step error is raised by arange itself too, before any device work.
  EXPECT_THROW(arange(0, 10, 0), ValueError);
}

TEST(CreationHost, ArangeDefaultDtype) {
  using detail::arange_default_dtype;
  EXPECT_EQ(arange_default_dtype(0, 5, 1), int64);
  EXPECT_EQ(arange_default_dtype(true, false, 1), int64);
  EXPECT_EQ(arange_default_dtype(0, 5.0, 1), float64);
  EXPECT_EQ(arange_default_dtype(0.5f, 5, 1), float64);
  EXPECT_EQ(arange_default_dtype(0, 5, std::complex<double>(1, 0)), complex128);
  EXPECT_EQ(arange_default_dtype(std::uint64_t(1) << 63, (std::uint64_t(1) << 63) + 5, 1), float64);  // uint64 + intp
  EXPECT_EQ(arange_default_dtype(std::int8_t(-3), std::uint8_t(5), 1), int64);
}

TEST(CreationHost, ArangeBoolLongerThanTwoIsTypeError) {
  EXPECT_EQ(error_of<TypeError>([] { arange(0, 3, 1, bool_); }),
            "arange() is only supported for booleans when the result has at most length 2.");
  const std::pair<std::string, dtype> fields[] = {{"x", float32}};
  const dtype s = dtype::structured(fields);
  EXPECT_THROW(arange(0, 3, 1, s), TypeError);
  EXPECT_THROW(arange(0, 3, 1, dtype::void_(4)), TypeError);
}

TEST(CreationHost, FullDefaultDtype) {
  using detail::full_default_dtype;
  EXPECT_EQ(full_default_dtype(true), bool_);
  EXPECT_EQ(full_default_dtype(3), int64);
  EXPECT_EQ(full_default_dtype(std::int8_t(3)), int64);  // a C++ integer is a Python int: int64
  EXPECT_EQ(full_default_dtype(std::uint64_t(1) << 63), uint64);
  EXPECT_EQ(full_default_dtype(-5), int64);
  EXPECT_EQ(full_default_dtype(2.5f), float64);
  EXPECT_EQ(full_default_dtype(std::complex<float>(1, 2)), complex128);
}

TEST(CreationHost, LinspaceValidation) {
  EXPECT_EQ(error_of<ValueError>([] { linspace(0, 1, -1); }), "Number of samples, -1, must be non-negative.");
  EXPECT_EQ(error_of<ValueError>([] { logspace(0, 1, -2); }), "Number of samples, -2, must be non-negative.");
  EXPECT_EQ(error_of<ValueError>([] { geomspace(1, 2, -3); }), "Number of samples, -3, must be non-negative.");
  EXPECT_THROW(linspace(0, 1, 5, {.axis = 1}), AxisError);
  EXPECT_THROW(linspace(0, 1, 5, {.axis = -2}), AxisError);
  // complex samples cannot be floored into an integer dtype (NumPy: floor has no complex loop)
  EXPECT_THROW(linspace(std::complex<double>(0, 1), 1, 5, {.dtype = int32}), TypeError);
  const std::pair<std::string, dtype> fields[] = {{"x", float32}};
  const dtype s = dtype::structured(fields);
  EXPECT_THROW(linspace(0, 1, 5, {.dtype = s}), TypeError);
}

TEST(CreationHost, MatrixValidation) {
  const std::pair<std::string, dtype> fields[] = {{"x", float32}};
  const dtype s = dtype::structured(fields);
  EXPECT_THROW(eye(3, std::nullopt, 0, s), TypeError);
  EXPECT_THROW(tri(3, std::nullopt, 0, dtype::void_(2)), TypeError);
  EXPECT_EQ(error_of<ValueError>([] { eye(-1); }), "negative dimensions are not allowed");
  // tri(2, -3) is a (2, 0) array in NumPy (aranges), not an error: checked on the GPU by the eval references.
  EXPECT_THROW(identity(-2), ValueError);
  fake scalar0({}, float64);
  EXPECT_THROW(tril(scalar0.a), TypeError);
  EXPECT_THROW(triu(scalar0.a), TypeError);
  EXPECT_THROW(tril(ndarray()), ValueError);
  fake cube({2, 2, 2}, float32);
  EXPECT_EQ(error_of<ValueError>([&] { diag(cube.a); }), "Input must be 1- or 2-d.");
  EXPECT_EQ(error_of<ValueError>([&] { diag(scalar0.a); }), "Input must be 1- or 2-d.");
}

TEST(CreationHost, DiagOfAMatrixIsAReadOnlyView) {
  fake m({3, 4}, float32);
  const ndarray d = diag(m.a, 1);
  ASSERT_EQ(d.ndim(), 1);
  EXPECT_EQ(d.shape(0), 3);
  EXPECT_FALSE(d.writeable());
  EXPECT_EQ(d.data(), static_cast<void*>(m.bytes.data() + 4));
  EXPECT_EQ(d.stride(0), 5 * 4);
  EXPECT_EQ(diag(m.a, -2).shape(0), 1);
  EXPECT_EQ(diag(m.a, 7).shape(0), 0);
}

TEST(CreationHost, MeshgridShapesAndErrors) {
  fake x({3}, float64), y({2}, float64), z({4}, int32);
  auto shapes = [](const std::vector<ndarray>& v) {
    std::vector<shape_t> s;
    for (const ndarray& a : v) s.emplace_back(a.shape().begin(), a.shape().end());
    return s;
  };
  // sparse, no copy: views only (no device work)
  EXPECT_EQ(shapes(meshgrid({x.a, y.a}, {.sparse = true, .copy = false})), (std::vector<shape_t>{{1, 3}, {2, 1}}));
  EXPECT_EQ(shapes(meshgrid({x.a, y.a}, {.indexing = "ij", .sparse = true, .copy = false})),
            (std::vector<shape_t>{{3, 1}, {1, 2}}));
  EXPECT_EQ(shapes(meshgrid({x.a, y.a, z.a}, {.sparse = true, .copy = false})),
            (std::vector<shape_t>{{1, 3, 1}, {2, 1, 1}, {1, 1, 4}}));
  // dense without copy: read-only broadcast views
  const auto dense = meshgrid({x.a, y.a, z.a}, {.copy = false});
  EXPECT_EQ(shapes(dense), (std::vector<shape_t>{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}}));
  EXPECT_FALSE(dense[0].writeable());
  EXPECT_EQ(shapes(meshgrid({x.a}, {.copy = false})), (std::vector<shape_t>{{3}}));
  EXPECT_TRUE(meshgrid(std::span<const ndarray>{}).empty());
  EXPECT_EQ(error_of<ValueError>([&] { meshgrid({x.a, y.a}, {.indexing = "xz"}); }),
            "Valid values for `indexing` are 'xy' and 'ij'.");
}

TEST(CreationHost, IndicesValidation) {
  EXPECT_EQ(error_of<ValueError>([] { indices({2, -1}); }), "negative dimensions are not allowed");
  const std::int64_t negative[] = {-1};
  EXPECT_THROW(indices_sparse(negative), ValueError);
  EXPECT_THROW(indices({2, 2}, dtype::void_(8)), TypeError);
  EXPECT_THROW(fromfunction(nullptr, {2, 2}), ValueError);
}

TEST(CreationHost, RoutineTableNamesEachRoutine) {
  const auto routines = creation_routines();
  std::vector<std::string> names;
  for (const routine_info& r : routines) names.emplace_back(r.name);
  for (const char* want : {"ones", "full", "empty_like", "zeros_like", "ones_like", "full_like", "arange", "linspace",
                           "logspace", "geomspace", "eye", "identity", "tri", "tril", "triu", "diag", "diagflat",
                           "meshgrid", "indices", "fromfunction"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

// The programs compile for every dtype in RoutinePrograms.EveryInstantiationCompiles.
TEST(CreationHost, KernelProgramsOfUnknownFamiliesAreRejected) {
  EXPECT_EQ(detail::creation_kernel_program("tri", float32).kernels,
            (std::vector<std::string>{"cupp_tri_fill", "cupp_tri_zero"}));
  EXPECT_THROW(detail::creation_kernel_program("nope", float32), ValueError);
}

}  // namespace
}  // namespace cupp
