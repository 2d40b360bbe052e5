// The creation routines on the GPU (cupp/creation.hpp), what the NumPy reference cases run
// through cupp eval (tests/conformance/make_creation_ref.py's EVAL_CASES, tests/gpu/
// test_eval_ref_gpu.cpp) cannot reach: fromfunction with a C++ callable (the script's one
// classic case, conformance/creation-ref: dtypes and shapes equal, floats within a few ULP), every
// routine on every dtype, the kernel cache (a second call compiles nothing), large arrays, the
// errors that need the device (values set into a dtype, zero endpoints, array endpoints), the
// memory order of the *_like forms and array bases of logspace.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "cupp/testing.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp {
namespace {

using test::error_of;
using results = std::vector<ndarray>;

ndarray f64(std::initializer_list<double> v) { return asarray(std::vector<double>(v)); }

// The cupp call for each case of make_creation_ref.py's CASES (same ids).
const std::map<std::string, std::function<results()>>& cases() {
  static const std::map<std::string, std::function<results()>> table = {
      {"fromfunction",
       [] {
         return results{fromfunction([](std::span<const ndarray> ij) { return ij[0] * 10 + ij[1]; }, {3, 4})};
       }},
  };
  return table;
}

// Relative tolerance of a float dtype's comparison (a few ULP; exact for integers and bools).
double tolerance(const dtype& t) {
  return cupp::testing::tolerance_for(t, {.float16 = 1e-3, .bfloat16 = 8e-3, .float32 = 5e-7, .float64 = 4e-15});
}

TEST(CreationGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  test::check_reference_set("creation", cases(), tolerance);
}

const dtype all_dtypes[] = {bool_,   int8,     int16,   int32,   int64,   uint8,     uint16,    uint32,
                            uint64,  float16,  bfloat16, float32, float64, complex64, complex128};

std::vector<double> as_doubles(const ndarray& a) { return astype(a, float64).to_vector<double>(); }

TEST(CreationGpu, EveryRoutineOnEveryDtype) {
  CUPP_REQUIRE_GPU();
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    const bool is_bool = t.is_bool();
    EXPECT_EQ(as_doubles(arange(0, is_bool ? 2 : 5, 1, t)), is_bool ? std::vector<double>({0, 1})
                                                                     : std::vector<double>({0, 1, 2, 3, 4}));
    EXPECT_EQ(as_doubles(eye(2, 3, 1, t)), std::vector<double>({0, 1, 0, 0, 0, 1}));
    EXPECT_EQ(as_doubles(tri(2, 2, 0, t)), std::vector<double>({1, 0, 1, 1}));
    EXPECT_EQ(as_doubles(ones({3}, t)), std::vector<double>({1, 1, 1}));
    EXPECT_EQ(as_doubles(full({2}, 1, t)), std::vector<double>({1, 1}));
    EXPECT_EQ(as_doubles(linspace(0, 1, 2, {.dtype = t})), std::vector<double>({0, 1}));
    const ndarray m = ones({2, 2}, t);
    EXPECT_EQ(as_doubles(tril(m)), std::vector<double>({1, 0, 1, 1}));
    EXPECT_EQ(as_doubles(triu(m)), std::vector<double>({1, 1, 0, 1}));
    EXPECT_EQ(as_doubles(diag(ones({2}, t))), std::vector<double>({1, 0, 0, 1}));
    EXPECT_EQ(zeros_like(m).dtype(), t);
    if (!is_bool) EXPECT_EQ(as_doubles(indices({2}, t)), std::vector<double>({0, 1}));
  }
}

TEST(CreationGpu, SecondCallCompilesNothing) {
  CUPP_REQUIRE_GPU();
  // Each routine once (compiling what this process has not compiled yet: the test may run first,
  // or alone in a gtest shard), then again with other arguments of the same dtype: no compile.
  auto each_routine = [](std::int64_t k) {
    (void)arange(k, 10 * k, k, int16);
    (void)linspace(0, 7 * k, 9, {.dtype = int16});
    (void)eye(3 + k, 2, -k, int16);
    (void)tril(ones({k + 2, k + 2}, int16));
  };
  each_routine(1);
  const std::uint64_t before = detail::nvrtc_compile_count();
  each_routine(2);
  EXPECT_EQ(detail::nvrtc_compile_count(), before);
}

TEST(CreationGpu, LargeArraysAreFilledOnTheDevice) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = (std::int64_t(1) << 24) + 3;
  const std::vector<float> a = arange(n, float32).to_vector<float>();
  ASSERT_EQ(static_cast<std::int64_t>(a.size()), n);
  EXPECT_EQ(a[12345], 12345.0f);
  EXPECT_EQ(a.back(), static_cast<float>(n - 1));
  const std::vector<double> l = linspace(0, 1, 1000001).to_vector<double>();
  EXPECT_EQ(l.front(), 0.0);
  EXPECT_EQ(l.back(), 1.0);
  EXPECT_EQ(l[500000], 0.5);
  const ndarray e = eye(3000, std::nullopt, 0, float32);
  EXPECT_EQ(sum(e).item<float>(), 3000.0f);
}

TEST(CreationGpu, ErrorsThatNeedTheDevice) {
  CUPP_REQUIRE_GPU();
  // Values set into the dtype as NumPy 2 does.
  EXPECT_THROW(arange(250, 260, 1, int8), OverflowError);
  EXPECT_THROW(arange(0, 300, 256, uint8), OverflowError);  // the second value, 256, does not fit
  EXPECT_THROW(full({2}, 300, uint8), OverflowError);
  EXPECT_THROW(full({2}, -1, uint8), OverflowError);
  EXPECT_THROW(arange(std::complex<double>(0, 1), std::complex<double>(3, 5), 1, float64), TypeError);
  EXPECT_EQ(error_of<TypeError>([] { arange(std::complex<double>(0, 1), 3, 1, float64); }),
            "must be real number, not complex");  // NumPy reads the complex quotient as a float
  // A complex fill into a real dtype keeps the real part (NumPy: ComplexWarning).
  EXPECT_EQ(full({1}, std::complex<double>(2.5, 1), float64).item<double>(), 2.5);
  EXPECT_EQ(error_of<ValueError>([] { geomspace(0, 10, 3); }), "Geometric sequence cannot include zero");
  EXPECT_THROW(geomspace(f64({1, 0}), 10, 3), ValueError);
  EXPECT_THROW(linspace(f64({0, 1}), 5.0, 4, {.axis = 2}), AxisError);
  EXPECT_THROW(linspace(f64({0, 1}), f64({1, 2, 3}), 4), ValueError);  // shapes do not broadcast
  EXPECT_THROW(full({2, 2}, f64({1, 2, 3})), ValueError);
  EXPECT_THROW(diag(ones({2, 2, 2})), ValueError);
  EXPECT_THROW(diag(ones({2, 2}))(0) = 1.0, ValueError);  // a read-only view
}

TEST(CreationGpu, LikeFormsKeepTheMemoryOrder) {
  CUPP_REQUIRE_GPU();
  const ndarray f = arange(6).reshape({2, 3}).T();  // Fortran-ordered (3, 2)
  const ndarray e = empty_like(f);
  EXPECT_TRUE(e.is_f_contiguous());
  EXPECT_FALSE(e.is_c_contiguous());
  const ndarray c = zeros_like(f, {.shape = shape_t{3, 4}});
  EXPECT_TRUE(c.is_c_contiguous());
  EXPECT_EQ(as_doubles(full_like(f, 7)), std::vector<double>(6, 7.0));
  EXPECT_EQ(ones_like(f, {.dtype = bfloat16}).dtype(), bfloat16);
}

TEST(CreationGpu, GeomspaceAndLogspaceOfArrays) {
  CUPP_REQUIRE_GPU();
  const ndarray g = geomspace(f64({1, -1}), f64({1000, -1000}), 4, {.axis = 1});
  EXPECT_EQ(g.shape()[0], 2);
  EXPECT_EQ(g.shape()[1], 4);
  const std::vector<double> v = g.to_vector<double>();
  CUPP_EXPECT_ALLCLOSE(v, std::vector<double>{1, 10, 100, 1000, -1, -10, -100, -1000}, {.rtol = 1e-12});
  const ndarray l = logspace(f64({0, 1}), 2, 3, {.base = f64({10, 2})});
  const std::vector<double> lv = l.to_vector<double>();  // shape (3, 2)
  CUPP_EXPECT_ALLCLOSE(lv, std::vector<double>{1, 2, 10, std::pow(2.0, 1.5), 100, 4}, {.rtol = 1e-12});
}

}  // namespace
}  // namespace cupp
