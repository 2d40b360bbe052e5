// The device error flag (docs/architecture.md): an op whose spec declares `raises` may call
// cupp::dev::raise_error() in its body; after its kernel the op reads the flag once, resets it
// and throws the declared error. Checked with a test-only op through the engine's launcher, in
// the contiguous and strided classes, and that a clean call after an error does not throw.
#include <gtest/gtest.h>

#include <span>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "engine/elementwise.hpp"
#include "error_of.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

constexpr type_id kTypes[] = {type_id::int64, type_id::int64};
constexpr loop_spec kLoops[] = {{std::span(kTypes).first(1), std::span(kTypes).subspan(1),
                                 "if (in0 < 0) cupp::dev::raise_error(); out0 = in0 * 2;", true}};
constexpr op_spec kRaisingOp{"_test_raises", "Doubles; raises on negative input (test only).", 1, 1, {}, "", false,
                             kLoops, type_id::void_, {}, "ValueError: negative input is not allowed"};

void run(const ndarray& in, const ndarray& out) {
  const engine::ew_input input{in, {}};
  engine::run_elementwise(kRaisingOp, 0, std::span<const engine::ew_input>(&input, 1), std::span<const ndarray>(&out, 1),
                          ndarray());
}

TEST(ErrorFlagGpu, RaisesOnceAfterTheKernelAndResets) {
  CUPP_REQUIRE_GPU();
  const ndarray good = asarray(std::vector<std::int64_t>{1, 2, 3, 4});
  const ndarray bad = asarray(std::vector<std::int64_t>{1, -2, 3, 4});
  ndarray out = zeros({4}, int64);
  run(good, out);
  EXPECT_EQ(out.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 4, 6, 8}));
  EXPECT_EQ(test::error_of<ValueError>([&] { run(bad, out); }), "negative input is not allowed");
  // The flag was reset: a clean call does not throw, and a bad one throws again.
  EXPECT_NO_THROW(run(good, out));
  EXPECT_EQ(test::error_of<ValueError>([&] { run(bad, out); }), "negative input is not allowed");
  // Strided class (a reversed, stepped view), same program family.
  const ndarray big = asarray(std::vector<std::int64_t>(1000, 5));
  ndarray strided_out = zeros({500}, int64);
  EXPECT_NO_THROW(run(big(slice(std::nullopt, std::nullopt, -2)), strided_out));
  big(7) = weak_scalar(-1);
  EXPECT_THROW(run(big(slice(1, std::nullopt, 2)), strided_out), ValueError);
  // Other ops and the device still work.
  EXPECT_EQ(add(good, 1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 3, 4, 5}));
}

}  // namespace
}  // namespace cupp
