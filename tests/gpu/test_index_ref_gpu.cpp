// a(idx) (cupp::index_ref) read straight into ufuncs, operators and routines on the GPU: the same
// values as with the gathered ndarray, NumPy's a[idx] += b (gather, op, scatter: a repeated index
// is written once), and assignment unchanged.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

using iv = std::vector<std::int64_t>;
using dv = std::vector<double>;

dv f64(const ndarray& a) { return astype(a, float64).to_vector<double>(); }

TEST(IndexRefGpu, UfuncsAndOperatorsReadTheGather) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(arange(12), float64).reshape({3, 4});
  const ndarray idx = asarray(iv{2, 0, 2});
  const ndarray g = a(idx).eval();  // rows 2, 0, 2
  const ndarray mask = a > 6.5;
  EXPECT_EQ(f64(sin(a(idx))), f64(sin(g)));
  EXPECT_EQ(f64(a(idx) + 1), f64(g + 1));
  EXPECT_EQ(f64(2 * a(idx)), f64(g * 2));
  EXPECT_EQ(f64(a(idx) - a(idx)), dv(12, 0.0));
  EXPECT_EQ(f64(a(idx) * a(0, slice())), f64(g * a(0, slice())));
  EXPECT_EQ(f64(a(0, slice()) / (a(idx) + 1)), f64(a(0, slice()) / (g + 1)));  // no 0 / 0 (NaN != NaN)
  EXPECT_EQ(astype(a(idx) < 5, int64).to_vector<std::int64_t>(), astype(g < 5, int64).to_vector<std::int64_t>());
  EXPECT_EQ(f64(add(a(idx), a(idx), {.dtype = float32})), f64(g * 2));
  EXPECT_EQ(f64(maximum(a(mask), 8.0)), (dv{8, 8, 9, 10, 11}));
  EXPECT_EQ(sum(a(mask)).item<double>(), 7 + 8 + 9 + 10 + 11);
  EXPECT_EQ(f64(-a(mask)), (dv{-7, -8, -9, -10, -11}));
  // out= and where= with a gathered input.
  const ndarray out = zeros({3, 4});
  multiply(a(idx), 3, {.out = out});
  EXPECT_EQ(f64(out), f64(g * 3));
  // A ufunc.at operand, copyto, a routine taking arrays.
  const ndarray acc = zeros({4});
  add.at(acc, asarray(iv{0, 0, 3}), a(asarray(iv{1, 1, 1}), 0));  // operand a[[1,1,1], 0] = [4, 4, 4]
  EXPECT_EQ(f64(acc), (dv{8, 0, 0, 4}));
  const ndarray dst = zeros({3, 4});
  copyto(dst, a(idx));
  EXPECT_EQ(f64(dst), f64(g));
  EXPECT_EQ(concatenate({a(idx), g}).shape(0), 6);
}

TEST(IndexRefGpu, CompoundAssignmentIsGatherOpScatter) {
  CUPP_REQUIRE_GPU();
  // NumPy: a[[0, 0, 2]] += 1 adds 1 once to element 0 (the gathered copy is written back).
  const ndarray a = zeros({4}, int32);
  a(asarray(iv{0, 0, 2})) += 1;
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{1, 0, 1, 0}));
  // A mask, an index_ref operand, same_kind casting into the array's dtype.
  const ndarray b = astype(arange(6), float32);
  b(b > 2.5) *= 2;
  EXPECT_EQ(f64(b), (dv{0, 1, 2, 6, 8, 10}));
  b(asarray(iv{0, 1})) -= b(asarray(iv{5, 4}));
  EXPECT_EQ(f64(b), (dv{-10, -7, 2, 6, 8, 10}));
  const ndarray i = arange(4);
  EXPECT_THROW(i(asarray(iv{0})) += 1.5, TypeError);  // int64 += float64: same_kind refuses
  EXPECT_EQ(i.to_vector<std::int64_t>(), (iv{0, 1, 2, 3}));
  i(asarray(iv{1, 3})) <<= 2;
  EXPECT_EQ(i.to_vector<std::int64_t>(), (iv{0, 4, 2, 12}));
}

TEST(IndexRefGpu, AssignmentStillWrites) {
  CUPP_REQUIRE_GPU();
  const ndarray a = zeros({5});
  a(asarray(iv{1, 3})) = 7.0;
  a(asarray(iv{0})) = a(asarray(iv{3}));
  a(a > 6.5) = a(a > 6.5) + 1;
  EXPECT_EQ(f64(a), (dv{8, 8, 0, 8, 0}));
}

}  // namespace
}  // namespace cupp
