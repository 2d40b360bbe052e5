// power (pow), float_power, nextafter, spacing and bitwise_count on the GPU, beyond the
// conformance data: power's data-dependent error (an integer to a negative integer power raises
// ValueError with NumPy's message, through the device error flag, and the next call works),
// integer wrap-around, NumPy's complex special cases, and the bit-level float16/bfloat16 steps
// (bfloat16 is a documented deviation from ml_dtypes, pinned here).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

constexpr const char* kNegativePower = "Integers to negative integer powers are not allowed.";

std::vector<std::uint16_t> bits(const ndarray& a) { return a.view(uint16).to_vector<std::uint16_t>(); }
ndarray from_bits(std::vector<std::uint16_t> b, dtype type) { return asarray(b).view(type); }

TEST(PowerGpu, IntegerToNegativePowerRaisesAndTheNextCallWorks) {
  CUPP_REQUIRE_GPU();
  const ndarray base = asarray(std::vector<std::int64_t>{2, 3, 4, 0});
  const ndarray bad = asarray(std::vector<std::int64_t>{1, -1, 2, 3});
  const ndarray good = asarray(std::vector<std::int64_t>{1, 2, 3, 0});
  EXPECT_EQ(test::error_of<ValueError>([&] { power(base, bad); }), kNegativePower);
  EXPECT_EQ(power(base, good).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 9, 64, 1}));
  // 0 ** -1 raises too; so does a weak negative Python int that fits the dtype, and the alias.
  const ndarray zeros32 = zeros({3}, int32);
  EXPECT_EQ(test::error_of<ValueError>([&] { power(zeros32, -1); }), kNegativePower);
  EXPECT_EQ(test::error_of<ValueError>([&] { pow(asarray(std::vector<std::int8_t>{1, 2}), std::int64_t{-2}); }),
            kNegativePower);
  EXPECT_EQ(power(zeros32, 0).to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 1, 1}));
  // An unsigned array with -1: NEP 50's OverflowError, before any kernel.
  EXPECT_EQ(test::error_of<OverflowError>([&] { power(asarray(std::vector<std::uint8_t>{1, 2}), -1); }),
            "Python integer -1 out of bounds for uint8");
  // Strided operands, and an error in the middle of a large array.
  std::vector<std::int16_t> big(4097, 2);
  big[3000] = -3;
  const ndarray exps = asarray(big);
  EXPECT_THROW(power(asarray(std::vector<std::int16_t>(4097, 1)), exps), ValueError);
  EXPECT_NO_THROW(power(exps(slice(0, 2000, 2)), exps(slice(1, 2001, 2))));
  // Float loops of the same op do not raise.
  EXPECT_NO_THROW(power(asarray(std::vector<double>{2.0, 0.0}), -1.0));
}

// A kernel that keeps its stream busy for `ns` nanoseconds (the GPU's global timer).
constexpr const char* kSpin = R"(
extern "C" __global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
})";

// `raises` is per loop: only power's signed integer loops read the device error flag (a copy to
// the host and a stream synchronisation). A float, complex or unsigned power queued behind a
// long kernel returns while the stream is still busy; a signed one waits, and still raises.
TEST(PowerGpu, OnlySignedIntegerLoopsSynchronize) {
  CUPP_REQUIRE_GPU();
  const cuda::Stream stream = cuda::Stream::create({.non_blocking = true});
  const cuda::StreamGuard guard(stream);
  const cuda::RawKernel spin(kSpin, "spin");
  const std::size_t n = 4096;
  const ndarray f64 = asarray(std::vector<double>(n, 2.0)), half = asarray(std::vector<double>(n, 0.5));
  const ndarray f32 = astype(f64, float32), f16 = astype(f64, float16), c128 = astype(f64, complex128);
  const ndarray i32 = asarray(std::vector<std::int32_t>(n, 3)), u32 = asarray(std::vector<std::uint32_t>(n, 3));
  const ndarray minus = asarray(std::vector<std::int32_t>(n, -1));
  const std::vector<std::pair<ndarray, ndarray>> calm = {{f64, half}, {f32, astype(half, float32)},
                                                         {f16, astype(half, float16)}, {c128, astype(half, complex128)},
                                                         {u32, u32}};
  // Warm up: kernels compiled and loaded, the pool holding blocks of the results' sizes.
  spin({1}, {1}, 1000ull);
  for (const auto& [a, b] : calm) (void)power(a, b);
  (void)power(i32, i32);
  stream.synchronize();

  constexpr unsigned long long kBusy = 300'000'000ull;  // 0.3 s, far longer than a call's host time
  for (const auto& [a, b] : calm) {
    SCOPED_TRACE(a.dtype().name());
    spin({1}, {1}, kBusy);
    const ndarray r = power(a, b);
    EXPECT_FALSE(stream.query()) << "power(" << a.dtype().name() << ") waited for the stream";
    stream.synchronize();
    EXPECT_EQ(r.dtype(), a.dtype());
  }
  EXPECT_EQ(power(u32, u32).to_vector<std::uint32_t>(), std::vector<std::uint32_t>(n, 27));
  EXPECT_NEAR(power(f64, half).to_vector<double>().back(), std::sqrt(2.0), 1e-15);
  // A signed integer loop reads the flag: the call returns only when the stream is done.
  spin({1}, {1}, kBusy);
  const ndarray r = power(i32, i32);
  EXPECT_TRUE(stream.query()) << "power(int32) should have read the error flag";
  EXPECT_EQ(r.to_vector<std::int32_t>(), std::vector<std::int32_t>(n, 27));
  // And raises with NumPy's message, behind a busy stream too; the next call works.
  spin({1}, {1}, kBusy);
  EXPECT_EQ(test::error_of<ValueError>([&] { power(i32, minus); }), kNegativePower);
  EXPECT_EQ(test::error_of<ValueError>([&] { power(astype(i32, int64), -1); }), kNegativePower);
  EXPECT_EQ(power(i32, 2).to_vector<std::int32_t>(), std::vector<std::int32_t>(n, 9));
}

TEST(PowerGpu, IntegerPowersWrapAround) {
  CUPP_REQUIRE_GPU();
  EXPECT_EQ(power(asarray(std::vector<std::int8_t>{3, -2, 1, -1}), asarray(std::vector<std::int8_t>{5, 7, 100, 3}))
                .to_vector<std::int8_t>(),
            (std::vector<std::int8_t>{-13, -128, 1, -1}));
  EXPECT_EQ(power(asarray(std::vector<std::uint64_t>{2, 2, 3}), asarray(std::vector<std::uint64_t>{63, 64, 41}))
                .to_vector<std::uint64_t>(),
            (std::vector<std::uint64_t>{9223372036854775808ull, 0ull, 18026252303461234787ull}));  // 3**41 mod 2**64
}

TEST(PowerGpu, FloatAndComplexSpecialCases) {
  CUPP_REQUIRE_GPU();
  const auto f = power(asarray(std::vector<float>{2.0f, -8.0f, 0.0f}), asarray(std::vector<float>{0.5f, 2.0f, -1.0f}))
                     .to_vector<float>();
  EXPECT_FLOAT_EQ(f[0], std::sqrt(2.0f));
  EXPECT_EQ(f[1], 64.0f);
  EXPECT_EQ(f[2], std::numeric_limits<float>::infinity());
  using c128 = std::complex<double>;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  const ndarray a = asarray(std::vector<c128>{{1, 1}, {nan, inf}, {-1, 0}, {-1, 0}, {0, 0}, {0, 0}});
  const ndarray b = asarray(std::vector<c128>{{2, 0}, {0.5, 0}, {nan, inf}, {-1, 0}, {1, 0}, {-1, 0}});
  const std::vector<c128> r = power(a, b).to_vector<c128>();
  EXPECT_EQ(r[0], c128(0, 2));  // (1+1j)**2 by a product: exact
  EXPECT_EQ(r[1].real(), inf);  // NumPy: (inf+nanj), glibc's cpow with Annex G's product
  EXPECT_TRUE(std::isnan(r[1].imag()));
  EXPECT_EQ(r[2].real(), 0.0);  // NumPy: -0j, the sign of x86's default NaN
  EXPECT_EQ(r[2].imag(), 0.0);
  EXPECT_TRUE(std::signbit(r[2].imag()));
  EXPECT_EQ(r[3].real(), -1.0);  // 1 / (-1+0j) = (-1-0j)
  EXPECT_TRUE(std::signbit(r[3].imag()));
  EXPECT_EQ(r[4], c128(0, 0));
  EXPECT_TRUE(std::isnan(r[5].real()) && std::isnan(r[5].imag()));
  // float_power: everything in float64 / complex128.
  const ndarray fp = float_power(asarray(std::vector<std::int8_t>{2, 3}), -1);
  EXPECT_EQ(fp.dtype(), float64);
  const std::vector<double> got = fp.to_vector<double>();
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0], 0.5);
  EXPECT_NEAR(got[1], 1.0 / 3.0, 2 * std::numeric_limits<double>::epsilon() / 3.0);  // CUDA's pow: within 2 ULP
}

TEST(PowerGpu, Float16NextafterAndSpacingAsNumPy) {
  CUPP_REQUIRE_GPU();
  // 1.0, -1.0, 0, -65504, inf
  const ndarray h = from_bits({0x3c00, 0xbc00, 0x0000, 0xfbff, 0x7c00}, float16);
  // npy_half_spacing: never negative; for -1.0 the step toward zero, 2**-11.
  const std::vector<std::uint16_t> s = bits(spacing(h));
  EXPECT_EQ(std::vector<std::uint16_t>(s.begin(), s.begin() + 4), (std::vector<std::uint16_t>{0x1400, 0x1000, 0x0001, 0x5000}));
  EXPECT_EQ(s[4] & 0x7c00, 0x7c00);  // NaN
  EXPECT_NE(s[4] & 0x03ff, 0);
  const ndarray to = from_bits({0x4000, 0x0000, 0x8000, 0xfc00, 0x7c00}, float16);
  EXPECT_EQ(bits(nextafter(h, to)), (std::vector<std::uint16_t>{0x3c01, 0xbbff, 0x0000, 0xfc00, 0x7c00}));
}

TEST(PowerGpu, Bfloat16NextafterAndSpacingAreBitLevel) {
  CUPP_REQUIRE_GPU();
  // Documented deviation: ml_dtypes steps in float32 and rounds (nextafter(1, 2) == 1 there).
  // 1.0, -1.0, 0, max, inf
  const ndarray x = from_bits({0x3f80, 0xbf80, 0x0000, 0x7f7f, 0x7f80}, bfloat16);
  const ndarray to = from_bits({0x4000, 0x0000, 0xbf80, 0x7f80, 0x0000}, bfloat16);
  EXPECT_EQ(bits(nextafter(x, to)), (std::vector<std::uint16_t>{0x3f81, 0xbf7f, 0x8001, 0x7f80, 0x7f7f}));
  const std::vector<std::uint16_t> s = bits(spacing(x));
  // 2**-7, -2**-7, the smallest subnormal, inf, NaN
  EXPECT_EQ(std::vector<std::uint16_t>(s.begin(), s.begin() + 4), (std::vector<std::uint16_t>{0x3c00, 0xbc00, 0x0001, 0x7f80}));
  EXPECT_EQ(s[4] & 0x7f80, 0x7f80);
  EXPECT_NE(s[4] & 0x007f, 0);
}

TEST(PowerGpu, BitwiseCountOfTheMagnitudeAsUint8) {
  CUPP_REQUIRE_GPU();
  const ndarray c = bitwise_count(asarray(std::vector<std::int8_t>{-128, -1, 0, 127, -3}));
  EXPECT_EQ(c.dtype(), uint8);
  EXPECT_EQ(c.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{1, 1, 0, 7, 2}));
  EXPECT_EQ(bitwise_count(asarray(std::vector<std::uint64_t>{~0ull, 0x8000000000000001ull})).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{64, 2}));
  EXPECT_EQ(bitwise_count(asarray(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()})).to_vector<std::uint8_t>(),
            (std::vector<std::uint8_t>{1}));
}

}  // namespace
}  // namespace cupp
