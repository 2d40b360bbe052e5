// Ops loaded from YAML at run time (cupp::load_ops) on real arrays: a unary op over four dtypes
// and a binary op with two loops, written as spec files to a temporary folder, run through the
// same engine as built-in ufuncs (contiguous, strided and broadcast layouts, NEP 50 weak
// scalars, out=, where=, dtype=, casting=) and compared with values computed on the host from the
// same inputs; outputs are poisoned first. A third op checks that a loaded op's `raises` reaches
// the device error flag. Skips without a GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/load_ops.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCube = R"(name: lotgpu_cube
doc: Cube of x, element-wise.
nin: 1
nout: 1
body: out0 = in0 * in0 * in0;
loops:
  - sig: T -> T
    each: {T: [int32, int64, float32, float64]}
)";

// 2*x is exact, so 2*x + y rounds once whether or not the compiler contracts it to an FMA.
constexpr const char* kAxpb = R"(name: lotgpu_axpb
doc: Twice x plus y.
nin: 2
nout: 1
loops:
  - sig: float32, float32 -> float32
    body: out0 = 2.0f * in0 + in1;
  - sig: float64, float64 -> float64
    body: out0 = 2.0 * in0 + in1;
)";

constexpr const char* kChecked = R"(name: lotgpu_checked_half
doc: Half of an even number; odd numbers raise.
nin: 1
nout: 1
raises: {type: ValueError, message: lotgpu_checked_half of an odd number}
loops:
  - sig: int64 -> int64
    body: if (in0 % 2 != 0) cupp::dev::raise_error(); out0 = in0 / 2;
)";

// The three ops, loaded once from files in a temporary folder.
struct loaded {
  ufunc cube, axpb, checked;
};
const loaded& ops() {
  static const loaded l = [] {
    const fs::path dir = fs::temp_directory_path() / ("cupp_load_ops_gpu_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    auto load = [&](const char* name, const char* text) {
      const fs::path file = dir / name;
      std::ofstream(file) << text;
      return load_ops(file).at(0);
    };
    loaded r{load("lotgpu_cube.yaml", kCube), load("lotgpu_axpb.yaml", kAxpb),
             load("lotgpu_checked_half.yaml", kChecked)};
    fs::remove_all(dir);
    return r;
  }();
  return l;
}

ndarray poisoned(std::vector<std::int64_t> shape, dtype type) {
  ndarray a = empty(shape, type);
  a.fill(type.kind() == 'f' ? weak_scalar(std::nan("")) : weak_scalar(-7));
  return a;
}

std::vector<double> ramp(std::size_t n, double start, double step) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = start + step * static_cast<double>(i);
  return v;
}

// The host's (x * x) * x of each value, in the values' own type (what lotgpu_cube computes).
template <class T>
std::vector<T> cubes(const std::vector<T>& x) {
  std::vector<T> c(x.size());
  for (std::size_t k = 0; k < x.size(); ++k) c[k] = x[k] * x[k] * x[k];
  return c;
}

TEST(LoadOpsGpu, UnaryOpMatchesTheHost) {
  CUPP_REQUIRE_GPU();
  const loaded& l = ops();  // loads the specs (this may be the first test to run)
  const ufunc& cube = ufunc::get("lotgpu_cube");
  EXPECT_EQ(cube, l.cube);
  // int32 (exact), over a size that is not a multiple of the vector width.
  std::vector<std::int32_t> xi;
  for (int i = -500; i < 503; ++i) xi.push_back(i);
  const ndarray ci = cube(asarray(xi));
  ASSERT_EQ(ci.dtype(), int32);
  CUPP_ASSERT_ARRAY_EQUAL(ci, cubes(xi), {.strict = true});
  // int8 resolves to the int32 loop, uint32 to int64, float16 to float32 (the first safe loop).
  EXPECT_EQ(cube(asarray(std::vector<std::int8_t>{-3, 2})).dtype(), int32);
  EXPECT_EQ(cube(asarray(std::vector<std::uint32_t>{2000000})).to_vector<std::int64_t>(),
            std::vector<std::int64_t>{8000000000000000000LL});
  EXPECT_EQ(cube(astype(asarray(std::vector<double>{1.5}), float16)).dtype(), float32);
  // float64 and float32, exact against the host's (x*x)*x.
  const std::vector<double> xd = ramp(4097, -3.0, 0.00137);
  CUPP_ASSERT_ARRAY_EQUAL(cube(asarray(xd)), cubes(xd), {.strict = true});
  std::vector<float> xf(xd.begin(), xd.end());
  CUPP_ASSERT_ARRAY_EQUAL(cube(asarray(xf)), cubes(xf), {.strict = true});
  // A strided view (every third element, reversed).
  const ndarray all = asarray(xd);
  const ndarray view = all(slice(std::nullopt, std::nullopt, -3));
  std::vector<double> every_third_reversed;
  for (auto k = static_cast<std::int64_t>(xd.size()) - 1; k >= 0; k -= 3) every_third_reversed.push_back(xd[static_cast<std::size_t>(k)]);
  CUPP_ASSERT_ARRAY_EQUAL(cube(view), cubes(every_third_reversed), {.strict = true});
}

TEST(LoadOpsGpu, OutWhereAndCastingAsForBuiltInOps) {
  CUPP_REQUIRE_GPU();
  const ufunc& cube = ops().cube;
  const std::vector<float> xf = {-2.5f, -1.0f, 0.5f, 3.0f, 7.25f, 11.0f};
  // out= of another dtype: computed in the float32 loop, stored as float64.
  ndarray out = poisoned({6}, float64);
  const ndarray r = cube(asarray(xf), {.out = out});
  EXPECT_EQ(r.data(), out.data());
  const std::vector<float> want = cubes(xf);
  CUPP_EXPECT_ARRAY_EQUAL(out, std::vector<double>(want.begin(), want.end()), {.strict = true});
  // where=: unselected elements keep the poison.
  ndarray masked = poisoned({6}, float32);
  cube(asarray(xf), {.out = masked, .where = asarray(std::vector<bool>{true, false, false, true, true, false})});
  const std::vector<float> m = masked.to_vector<float>();
  EXPECT_EQ(m[0], xf[0] * xf[0] * xf[0]);
  EXPECT_TRUE(std::isnan(m[1]));
  EXPECT_TRUE(std::isnan(m[2]));
  EXPECT_EQ(m[3], 27.0f);
  EXPECT_EQ(m[4], xf[4] * xf[4] * xf[4]);
  EXPECT_TRUE(std::isnan(m[5]));
  // casting: a float64 result into an int32 out= is refused under same_kind, allowed unsafe.
  ndarray ints = poisoned({6}, int32);
  EXPECT_EQ(test::error_of<TypeError>([&] { cube(asarray(xf), {.out = ints}); }),
            "Cannot cast ufunc 'lotgpu_cube' output from dtype('float32') to dtype('int32') with casting rule 'same_kind'");
  cube(asarray(std::vector<float>{2.0f, -3.0f}), {.out = ints(slice(0, 2)), .casting = casting::unsafe});
  EXPECT_EQ(ints.to_vector<std::int32_t>(), (std::vector<std::int32_t>{8, -27, -7, -7, -7, -7}));
  // dtype= picks the loop by its output.
  EXPECT_EQ(cube(asarray(std::vector<std::int32_t>{2}), {.dtype = float64}).to_vector<double>(), std::vector<double>{8.0});
  // No loop: the message names the loaded op.
  EXPECT_EQ(test::error_of<TypeError>([&] { cube(astype(asarray(std::vector<bool>{true}), complex64)); }),
            "ufunc 'lotgpu_cube' did not contain a loop with signature matching types (dtype('complex64'),) -> None");
}

TEST(LoadOpsGpu, BinaryOpMatchesTheHost) {
  CUPP_REQUIRE_GPU();
  const loaded& l = ops();  // loads the specs (this may be the first test to run: gtest shards)
  const ufunc& axpb = ufunc::get("lotgpu_axpb");
  EXPECT_EQ(axpb, l.axpb);
  const std::vector<double> xd = ramp(1000, -1.0, 0.0031), yd = ramp(1000, 5.0, -0.0117);
  const std::vector<float> xf(xd.begin(), xd.end()), yf(yd.begin(), yd.end());
  // float32, float32 -> float32 (loop 0).
  ndarray out32 = poisoned({1000}, float32);
  axpb(asarray(xf), asarray(yf), {.out = out32});
  CUPP_ASSERT_ARRAY_EQUAL(out32, test::tabulate(1000, [&](std::size_t k) { return 2.0f * xf[k] + yf[k]; }), {.strict = true});
  // float32 with float64 -> float64 (loop 1), inputs cast in the kernel.
  const ndarray mixed = axpb(asarray(xf), asarray(yd));
  ASSERT_EQ(mixed.dtype(), float64);
  CUPP_ASSERT_ARRAY_EQUAL(mixed, test::tabulate(1000, [&](std::size_t k) { return 2.0 * static_cast<double>(xf[k]) + yd[k]; }));
  // NEP 50: a weak Python float keeps float32; with an int32 array the loop is float64.
  const ndarray weak = axpb(asarray(xf), 0.25);
  ASSERT_EQ(weak.dtype(), float32);
  EXPECT_EQ(weak.to_vector<float>()[10], 2.0f * xf[10] + 0.25f);
  EXPECT_EQ(axpb(asarray(std::vector<std::int32_t>{3, 4}), 0.5).to_vector<double>(), (std::vector<double>{6.5, 8.5}));
  // Broadcasting: a column against a row gives the outer table.
  const ndarray col = asarray(std::vector<double>{1, 2, 3}).reshape({3, 1});
  const ndarray row = asarray(std::vector<double>{10, 20});
  EXPECT_EQ(axpb(col, row).to_vector<double>(), (std::vector<double>{12, 22, 14, 24, 16, 26}));
  EXPECT_EQ(axpb.outer(asarray(std::vector<double>{1, 2}), row).to_vector<double>(),
            (std::vector<double>{12, 22, 14, 24}));
  // casting='no': the int16 input is not the loop's float32.
  EXPECT_EQ(test::error_of<TypeError>([&] {
              axpb(asarray(std::vector<std::int16_t>{1}), asarray(std::vector<float>{1}), {.casting = casting::no});
            }),
            "Cannot cast ufunc 'lotgpu_axpb' input 0 from dtype('int16') to dtype('float32') with casting rule 'no'");
  // dtype=float64 with float32 inputs runs loop 1.
  EXPECT_EQ(axpb(asarray(xf), asarray(yf), {.dtype = float64}).dtype(), float64);
}

TEST(LoadOpsGpu, RaisesThroughTheDeviceErrorFlag) {
  CUPP_REQUIRE_GPU();
  const ufunc& half = ops().checked;
  EXPECT_EQ(half(asarray(std::vector<std::int64_t>{2, 4, -6})).to_vector<std::int64_t>(),
            (std::vector<std::int64_t>{1, 2, -3}));
  EXPECT_EQ(test::error_of<ValueError>([&] { half(asarray(std::vector<std::int64_t>{2, 3})); }),
            "lotgpu_checked_half of an odd number");
  EXPECT_NO_THROW(half(asarray(std::vector<std::int64_t>{8})));
}

}  // namespace
}  // namespace cupp
