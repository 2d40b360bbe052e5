// End-to-end proof of the spec pipeline on a GPU: a kernel composed from a generated op spec is
// compiled with NVRTC for the device, loaded with the runtime's library API, launched on real
// memory, and its results compared with a host reference. Skips without a GPU.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>

#include "cupp/float16.hpp"
#include "cupp/ops.hpp"
#include "cupp/testing/gtest.hpp"
#include "gpu_support.hpp"
#include "engine/kernel_composer.hpp"
#include "compiler/nvrtc_program.hpp"
#include "core/tables.hpp"

namespace cupp {
namespace {

using test::device_vector;
using test::loaded_library;

// Index of the loop of `op` whose inputs are exactly `ins`.
std::size_t loop_index(const op_spec& op, std::initializer_list<type_id> ins) {
  for (std::size_t i = 0; i < op.loops.size(); ++i)
    if (std::equal(op.loops[i].in.begin(), op.loops[i].in.end(), ins.begin(), ins.end())) return i;
  throw std::runtime_error("no such loop in " + std::string(op.name));
}

int device_arch() {
  int dev = 0, major = 0, minor = 0;
  CUPP_CUDA_CHECK(cudaGetDevice(&dev));
  CUPP_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  CUPP_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
  return major * 10 + minor;
}

// Compiles every loop of an op for the current device and launches one of them.
class compiled_op {
 public:
  explicit compiled_op(std::string_view name) : op_(*find_op(name)) {
    const auto program = detail::compose_elementwise(op_, detail::index_width::i32);
    output_ = detail::nvrtc_compile({.program_name = program.name, .source = program.source,
                                     .name_expressions = program.kernels, .arch = device_arch()});
    library_.emplace(output_.binary);
  }
  const op_spec& op() const { return op_; }

  template <class... Ptrs>
  void launch(std::initializer_list<type_id> ins, unsigned n, Ptrs... ptrs) {
    const cudaKernel_t kernel = library_->kernel(output_.lowered_names.at(loop_index(op_, ins)));
    void* args[] = {&n, &ptrs...};
    const unsigned block = 256, grid = (n + block - 1) / block;
    CUPP_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(grid), dim3(block), args, 0, nullptr));
    CUPP_CUDA_CHECK(cudaGetLastError());
    CUPP_CUDA_CHECK(cudaDeviceSynchronize());
  }

 private:
  const op_spec& op_;
  detail::nvrtc_output output_;
  std::optional<loaded_library> library_;
};

template <class T>
std::vector<T> random_values(std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(dist(rng));
  return v;
}

TEST(GeneratedKernelsGpu, AddFloat32MatchesHost) {
  CUPP_REQUIRE_GPU();
  compiled_op add("add");
  const std::size_t n = 100003;  // not a multiple of the block size
  const auto a = random_values<float>(n, -1e3, 1e3, 1), b = random_values<float>(n, -1e3, 1e3, 2);
  device_vector<float> da(a), db(b), dc(std::vector<float>(n, std::nanf("")));  // poisoned output
  add.launch({type_id::float32, type_id::float32}, n, da.get(), db.get(), dc.get());
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
  CUPP_ASSERT_ARRAY_EQUAL(dc.to_host(), want);
}

TEST(GeneratedKernelsGpu, AddInt8WrapsAndBoolIsLogicalOr) {
  CUPP_REQUIRE_GPU();
  compiled_op add("add");
  device_vector<std::int8_t> a(std::vector<std::int8_t>{100, -128, 127, 5}), b(std::vector<std::int8_t>{100, -1, 1, -5});
  device_vector<std::int8_t> c(4);
  add.launch({type_id::int8, type_id::int8}, 4, a.get(), b.get(), c.get());
  EXPECT_EQ(c.to_host(), (std::vector<std::int8_t>{-56, 127, -128, 0}));
  // bool arrays hold one byte per element, 0 or 1.
  device_vector<std::uint8_t> p(std::vector<std::uint8_t>{1, 1, 0, 0}), q(std::vector<std::uint8_t>{1, 0, 1, 0});
  device_vector<std::uint8_t> r(4);
  add.launch({type_id::bool_, type_id::bool_}, 4, p.get(), q.get(), r.get());
  EXPECT_EQ(r.to_host(), (std::vector<std::uint8_t>{1, 1, 1, 0}));
}

TEST(GeneratedKernelsGpu, MultiplyComplex128) {
  CUPP_REQUIRE_GPU();
  compiled_op mul("multiply");
  const std::size_t n = 4096;
  const auto re = random_values<double>(2 * n, -10, 10, 3);
  std::vector<std::complex<double>> a(n), b(n);
  for (std::size_t i = 0; i < n; ++i) a[i] = {re[i], re[n - 1 - i]}, b[i] = {re[n + i], re[i] * 0.5};
  device_vector<std::complex<double>> da(a), db(b), dc(n);
  mul.launch({type_id::complex128, type_id::complex128}, n, da.get(), db.get(), dc.get());
  const auto c = dc.to_host();
  for (std::size_t i = 0; i < n; ++i) {
    const std::complex<double> expected = a[i] * b[i];
    ASSERT_NEAR(c[i].real(), expected.real(), 1e-12 * (1 + std::abs(expected))) << i;
    ASSERT_NEAR(c[i].imag(), expected.imag(), 1e-12 * (1 + std::abs(expected))) << i;
  }
}

TEST(GeneratedKernelsGpu, SinFloat64WithinTwoUlp) {
  CUPP_REQUIRE_GPU();
  compiled_op sin("sin");
  const std::size_t n = 65536;
  const auto x = random_values<double>(n, -100, 100, 4);
  device_vector<double> dx(x), dy(n);
  sin.launch({type_id::float64}, n, dx.get(), dy.get());
  std::vector<double> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = std::sin(x[i]);
  CUPP_ASSERT_ARRAY_MAX_ULP(dy.to_host(), want, 2);
}

TEST(GeneratedKernelsGpu, SinFloat16RoundsOnce) {
  CUPP_REQUIRE_GPU();
  compiled_op sin("sin");
  std::vector<float16_t> x;
  for (std::uint32_t bits = 0; bits < 0x7c00; bits += 7) x.push_back(float16_t::from_bits(static_cast<std::uint16_t>(bits)));
  device_vector<float16_t> dx(x), dy(x.size());
  sin.launch({type_id::float16}, static_cast<unsigned>(x.size()), dx.get(), dy.get());
  const auto y = dy.to_host();
  for (std::size_t i = 0; i < x.size(); ++i) {
    const float16_t expected(std::sin(static_cast<double>(static_cast<float>(x[i]))));
    ASSERT_LE(std::abs(int(y[i].bits()) - int(expected.bits())), 1) << static_cast<float>(x[i]);
  }
}

TEST(GeneratedKernelsGpu, IsnanAndMixedSignEqual) {
  CUPP_REQUIRE_GPU();
  compiled_op isnan("isnan");
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  device_vector<float> x(std::vector<float>{0.f, nan, -nan, inf, -inf, 1e-45f});
  device_vector<std::uint8_t> flags(6);
  isnan.launch({type_id::float32}, 6, x.get(), flags.get());
  EXPECT_EQ(flags.to_host(), (std::vector<std::uint8_t>{0, 1, 1, 0, 0, 0}));

  compiled_op equal("equal");
  device_vector<std::int64_t> s(std::vector<std::int64_t>{-1, 5, std::numeric_limits<std::int64_t>::max(), 0});
  device_vector<std::uint64_t> u(std::vector<std::uint64_t>{std::numeric_limits<std::uint64_t>::max(), 5,
                                                             std::uint64_t(std::numeric_limits<std::int64_t>::max()), 0});
  device_vector<std::uint8_t> eq(4);
  equal.launch({type_id::int64, type_id::uint64}, 4, s.get(), u.get(), eq.get());
  EXPECT_EQ(eq.to_host(), (std::vector<std::uint8_t>{0, 1, 1, 1}));
}

}  // namespace
}  // namespace cupp
