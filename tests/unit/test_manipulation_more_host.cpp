// The computing manipulation routines without a GPU (pad, clip, where, round, nan_to_num, angle,
// trim_zeros, interp, convolve, correlate; runtime/src/routines/manipulation/: elementwise_routines,
// pad and interp_convolve.cpp): NVRTC compiles each of their kernels for sm_90 for every dtype they
// take, and the checks made before any device work raise NumPy's error classes and messages. The GPU suite runs them
// (tests/gpu/test_manipulation_gpu.cpp).
#include <gtest/gtest.h>

#include <array>
#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "error_of.hpp"
#include "fake_array.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"
#include "routines/manipulation/manipulation_kernels.hpp"

namespace cupp {
namespace {

using test::error_of;

const dtype all_dtypes[] = {bool_,  int8,    int16,    int32,   int64,   uint8,     uint16,    uint32,
                            uint64, float16, bfloat16, float32, float64, complex64, complex128};

// A fake array on device 0 over host bytes (tests/support/fake_array.hpp).
struct fake : test::fake_array {
  fake(shape_t shape, dtype type = int64) : fake_array(std::move(shape), type) {}
};

void compile_op(const op_spec& op) {
  for (const auto width : {detail::index_width::i32, detail::index_width::i64}) {
    const detail::composed_program program = detail::compose_elementwise(op, width);
    const detail::nvrtc_output out = detail::nvrtc_compile(
        {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
    EXPECT_EQ(out.lowered_names.size(), op.loops.size()) << op.name;
  }
}

void compile_user(const ElementwiseKernel& k, const std::vector<dtype>& types, const std::vector<bool>& scalar_flags) {
  std::array<bool, 8> flags{};  // (std::vector<bool> has no span)
  for (std::size_t i = 0; i < scalar_flags.size(); ++i) flags[i] = scalar_flags[i];
  const detail::user_elementwise_desc desc =
      detail::elementwise_kernel_desc(k, types, types, std::span<const bool>(flags.data(), scalar_flags.size()), 1);
  const detail::composed_program program = detail::compose_user_elementwise(desc);
  const detail::nvrtc_output out = detail::nvrtc_compile(
      {.program_name = program.name, .source = program.source, .name_expressions = program.kernels, .arch = 90});
  EXPECT_EQ(out.lowered_names.size(), 1u) << k.name();
}

TEST(ManipulationMoreKernels, ElementwiseOpsCoverEveryDtypeAndCompile) {
  EXPECT_EQ(detail::clip_op().nin, 3);
  EXPECT_EQ(detail::clip_op().loops.size(), std::size(all_dtypes));
  EXPECT_EQ(detail::where_op().loops.size(), std::size(all_dtypes));
  EXPECT_EQ(detail::nan_to_num_op().loops.size(), 6u);  // the inexact dtypes
  for (const loop_spec& l : detail::where_op().loops) EXPECT_EQ(l.in[0], type_id::bool_);
  // The kernel cache knows them by names of their own (never a built-in's or a loaded op's).
  EXPECT_NE(std::string(detail::clip_op().kernel_name).find(':'), std::string::npos);
  compile_op(detail::clip_op());
  compile_op(detail::where_op());
  compile_op(detail::nan_to_num_op());
}

TEST(ManipulationMoreKernels, PadCorrelateAndInterpCompileForEveryDtype) {
  for (const dtype& t : all_dtypes) {
    SCOPED_TRACE(t.name());
    compile_user(detail::pad_kernel(), {t, int64, t, t}, {false, false, false, false});
    compile_user(detail::correlate_kernel(t), {t, t, int64, int64, int64, t}, {false, false, true, true, true, false});
  }
  compile_user(detail::interp_kernel(false), {float64, float64, float64, float64, float64, float64},
               {false, false, false, true, true, false});
  compile_user(detail::interp_kernel(true), {float64, float64, complex128, complex128, complex128, complex128},
               {false, false, false, true, true, false});
  // One kernel per kind of sum: the integer dtypes share one, the halves another.
  EXPECT_EQ(&detail::correlate_kernel(int8), &detail::correlate_kernel(uint64));
  EXPECT_EQ(&detail::correlate_kernel(float16), &detail::correlate_kernel(bfloat16));
  EXPECT_NE(&detail::correlate_kernel(float32), &detail::correlate_kernel(complex64));
}

TEST(ManipulationMoreHost, PadValidation) {
  fake a({2, 3}), z({0, 3}), s({});
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, -1); }), "index can't contain negative values");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, {{1, 2}, {0, -1}}); }), "index can't contain negative values");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, {{1, 2}, {0, 1}, {3, 3}}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,2)  and "
            "requested shape (2,2)");
  EXPECT_EQ(error_of<ValueError>([&] { pad(s.a, {{1, 2}, {0, 1}}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (2,2)  and "
            "requested shape (0,2)");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "bogus"}); }), "mode 'bogus' is not supported");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, -1, {.mode = "bogus"}); }), "index can't contain negative values");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "edge", .constant_values = 3}); }),
            "unsupported keyword arguments for mode 'edge': {'constant_values'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "wrap", .reflect_type = "even"}); }),
            "unsupported keyword arguments for mode 'wrap': {'reflect_type'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.constant_values = {{1, 2}, {3, 4}, {5, 6}}}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,2)  and "
            "requested shape (2,2)");
  for (const char* mode : {"edge", "reflect", "symmetric", "wrap"})
    EXPECT_EQ(error_of<ValueError>([&] { pad(z.a, {{1, 0}, {0, 0}}, {.mode = mode}); }),
              "can't extend empty axis 0 using modes other than 'constant' or 'empty'");
  EXPECT_THROW(pad(ndarray(), 1), ValueError);
}

// linear_ramp, maximum/minimum/mean/median and reflect_type='odd': every check NumPy makes before
// it computes, in NumPy's order, before any device work.
TEST(ManipulationMoreHost, PadStatisticAndRampValidation) {
  fake a({2, 3}), z({0, 3}), i1({3}), c({3}, complex128);
  // NumPy's allowed_kwargs: one keyword per mode; the message lists what the mode does not take.
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "edge", .end_values = 1}); }),
            "unsupported keyword arguments for mode 'edge': {'end_values'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "mean", .end_values = {1, 2}}); }),
            "unsupported keyword arguments for mode 'mean': {'end_values'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "linear_ramp", .stat_length = 2}); }),
            "unsupported keyword arguments for mode 'linear_ramp': {'stat_length'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "maximum", .reflect_type = "odd"}); }),
            "unsupported keyword arguments for mode 'maximum': {'reflect_type'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "constant", .stat_length = 1, .reflect_type = "odd"}); }),
            "unsupported keyword arguments for mode 'constant': {'stat_length', 'reflect_type'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "symmetric", .constant_values = 0}); }),
            "unsupported keyword arguments for mode 'symmetric': {'constant_values'}");
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "empty", .stat_length = 0}); }),
            "unsupported keyword arguments for mode 'empty': {'stat_length'}");
  // The keyword check comes before the empty-axis check and the arguments' own checks.
  EXPECT_EQ(error_of<ValueError>([&] { pad(z.a, 1, {.mode = "wrap", .end_values = 1}); }),
            "unsupported keyword arguments for mode 'wrap': {'end_values'}");
  // stat_length: negative values, a count of pairs that is neither 1 nor ndim.
  for (const char* mode : {"maximum", "minimum", "mean", "median"}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = mode, .stat_length = -1}); }),
              "index can't contain negative values");
    EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = mode, .stat_length = {{1, 2}, {3, -4}}}); }),
              "index can't contain negative values");
    EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = mode, .stat_length = {{1, 2}, {3, 4}, {5, 6}}}); }),
              "operands could not be broadcast together with remapped shapes [original->remapped]: (3,2)  and "
              "requested shape (2,2)");
    // An empty array is checked for extended empty axes only (NumPy never reads stat_length then).
    EXPECT_EQ(error_of<ValueError>([&] { pad(z.a, {{1, 0}, {0, 0}}, {.mode = mode, .stat_length = -1}); }),
              "can't extend empty axis 0 using modes other than 'constant' or 'empty'");
  }
  // stat_length 0 leaves maximum/minimum nothing to reduce, even on an axis without pads.
  for (const char* mode : {"maximum", "minimum"}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(error_of<ValueError>([&] { pad(i1.a, 1, {.mode = mode, .stat_length = 0}); }),
              "stat_length of 0 yields no value for padding");
    EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, {{1, 1}, {0, 0}}, {.mode = mode, .stat_length = {{1, 1}, {2, 0}}}); }),
              "stat_length of 0 yields no value for padding");
    EXPECT_EQ(error_of<ValueError>([&] { pad(c.a, {2, 0}, {.mode = mode, .stat_length = {0, 3}}); }),
              "stat_length of 0 yields no value for padding");
  }
  // end_values: the count of pairs; complex ends for an integer array (NumPy's floor raises).
  EXPECT_EQ(error_of<ValueError>([&] { pad(a.a, 1, {.mode = "linear_ramp", .end_values = {{1, 2}, {3, 4}, {5, 6}}}); }),
            "operands could not be broadcast together with remapped shapes [original->remapped]: (3,2)  and "
            "requested shape (2,2)");
  EXPECT_THROW(pad(i1.a, 1, {.mode = "linear_ramp", .end_values = std::complex<double>(0, 1)}), TypeError);
  EXPECT_THROW(pad(a.a, {{0, 0}, {0, 0}}, {.mode = "linear_ramp", .end_values = {{1, 2}, {std::complex<double>(3), 4}}}),
               TypeError);
  for (const char* mode : {"linear_ramp", "maximum", "minimum", "mean", "median"})
    EXPECT_EQ(error_of<ValueError>([&] { pad(z.a, {{0, 1}, {0, 0}}, {.mode = mode}); }),
              "can't extend empty axis 0 using modes other than 'constant' or 'empty'");
  for (const char* mode : {"reflect", "symmetric"})
    EXPECT_EQ(error_of<ValueError>([&] { pad(z.a, {{2, 0}, {0, 0}}, {.mode = mode, .reflect_type = "odd"}); }),
              "can't extend empty axis 0 using modes other than 'constant' or 'empty'");
}

TEST(ManipulationMoreHost, PadWidthForms) {
  const pad_widths all(2);
  EXPECT_TRUE(all.broadcast());
  const pad_widths pair{1, 3};
  ASSERT_EQ(pair.pairs().size(), 1u);
  EXPECT_EQ(pair.pairs()[0][1], 3);
  const pad_widths per_axis{{1, 2}, {3, 4}};
  EXPECT_FALSE(per_axis.broadcast());
  EXPECT_EQ(per_axis.pairs()[1][0], 3);
  EXPECT_FALSE(pad_widths().given());  // stat_length's None
  EXPECT_TRUE(pad_widths(0).given());
  const pad_options o{.mode = "mean", .stat_length = {{1, 2}, {0, 3}}};
  ASSERT_EQ(o.stat_length.pairs().size(), 2u);
  EXPECT_EQ(o.stat_length.pairs()[1][1], 3);
  const pad_options r{.mode = "linear_ramp", .end_values = {1.5, -2}};
  EXPECT_TRUE(r.end_values.broadcast());
  EXPECT_EQ(r.end_values.pairs()[0][1].scalar_kind(), weak_scalar::kind::int_);
  const pad_values v = 2.5;
  EXPECT_TRUE(v.given());
  EXPECT_FALSE(pad_values().given());
  const pad_values vp{1, std::complex<double>(0, 1)};
  EXPECT_EQ(vp.pairs()[0][1].scalar_kind(), weak_scalar::kind::complex_);
}

TEST(ManipulationMoreHost, TrimZerosValidationAndViews) {
  fake a({5}), s({}), m({2, 3});
  EXPECT_EQ(error_of<ValueError>([&] { trim_zeros(a.a, "x"); }), "unexpected character(s) in `trim`: 'x'");
  EXPECT_EQ(error_of<ValueError>([&] { trim_zeros(a.a, "FFB"); }), "unexpected character(s) in `trim`: 'ffb'");
  EXPECT_THROW(trim_zeros(a.a, ""), ValueError);
  // 0-d: returned as it is (a view, no device work); an axis is an AxisError.
  const ndarray t = trim_zeros(s.a);
  EXPECT_EQ(t.ndim(), 0);
  EXPECT_EQ(t.data(), s.a.data());
  EXPECT_THROW(trim_zeros(s.a, "fb", 0), AxisError);
  EXPECT_THROW(trim_zeros(m.a, "fb", 2), AxisError);
  EXPECT_THROW(trim_zeros(m.a, "fb", -3), AxisError);
}

TEST(ManipulationMoreHost, ConvolveCorrelateValidation) {
  fake a({5}), e({0}), m({2, 2}), s({});
  EXPECT_EQ(error_of<ValueError>([&] { convolve(e.a, a.a); }), "v cannot be empty");
  EXPECT_EQ(error_of<ValueError>([&] { convolve(e.a, e.a); }), "a cannot be empty");
  EXPECT_EQ(error_of<ValueError>([&] { convolve(m.a, a.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { correlate(e.a, a.a); }), "first array argument cannot be empty");
  EXPECT_EQ(error_of<ValueError>([&] { correlate(a.a, e.a); }), "second array argument cannot be empty");
  EXPECT_EQ(error_of<ValueError>([&] { correlate(s.a, a.a); }), "object of too small depth for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { correlate(a.a, m.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { correlate(a.a, a.a, "bogus"); }),
            "Use one of 'valid', 'same', or 'full' for convolve/correlate mode");
  EXPECT_THROW(convolve(a.a, a.a, "middle"), ValueError);
}

TEST(ManipulationMoreHost, InterpValidation) {
  fake x({4}, float64), xp({3}, float64), fp({3}, float64), fp2({2}, float64), e({0}, float64), m({2, 2}, float64),
      s({}, float64), c({4}, complex128), fpc({3}, complex64);
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, e.a, e.a); }), "array of sample points is empty");
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, xp.a, fp2.a); }), "fp and xp are not of the same length.");
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, m.a, m.a); }), "object too deep for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, s.a, fp.a); }), "object of too small depth for desired array");
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, xp.a, fp.a, {.period = 0.0}); }),
            "period must be a non-zero value");
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, m.a, m.a, {.period = 1.0}); }), "Data points must be 1-D sequences");
  EXPECT_EQ(error_of<ValueError>([&] { interp(x.a, xp.a, fp2.a, {.period = 1.0}); }),
            "fp and xp are not of the same length");
  EXPECT_EQ(error_of<TypeError>([&] { interp(c.a, xp.a, fp.a); }),
            "Cannot cast array data from dtype('complex128') to dtype('float64') according to the rule 'safe'");
  EXPECT_THROW(interp(x.a, c.a, c.a), TypeError);
  EXPECT_EQ(error_of<TypeError>([&] { interp(x.a, xp.a, fp.a, {.left = std::complex<double>(1, 1)}); }),
            "must be real number, not complex");
}

TEST(ManipulationMoreHost, RoundAndNanToNumReturnIntegerArraysWithoutDeviceWork) {
  for (const dtype& t : {int8, uint16, int64, uint64}) {
    fake a({3}, t);
    EXPECT_EQ(round(a.a).data(), a.a.data());
    EXPECT_EQ(around(a.a, 3).data(), a.a.data());
    EXPECT_EQ(nan_to_num(a.a, {.copy = false}).data(), a.a.data());
  }
  fake b({3}, bool_);
  EXPECT_EQ(nan_to_num(b.a, {.copy = false}).data(), b.a.data());
}

}  // namespace
}  // namespace cupp
