// ufunc.at on the GPU (runtime/src/routines/indexing/). NumPy's results for every op with an
// atomic form on every dtype are tests/conformance/make_ufunc_at_ref.py's EVAL_CASES, run through
// cupp eval's engine by tests/gpu/test_eval_ref_gpu.cpp (ufunc_at_copy); here is the script's
// case eval cannot write (a view at an odd byte offset checked whole; its id is the script's),
// every (op, dtype) form against an exact host model with
// many repeated indices (bfloat16 included), heavy contention on the bytes of one 32-bit word (the
// compare-and-swap loop of 1- and 2-byte dtypes), float16's rounding per update, odd-offset views,
// and the forms that still run in rounds.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/testing/gtest.hpp"
#include "cupp/ufunc.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using results = std::vector<ndarray>;
using iv = std::vector<std::int64_t>;
using dv = std::vector<double>;
using cd = std::complex<double>;
using cv = std::vector<cd>;

// ---------------------------------------------------------------------------------------------
// the NumPy reference cases cupp eval cannot write (make_ufunc_at_ref.py's CASES; its EVAL_CASES,
// ufunc_at_copy(a, op, indices, b), run through cupp eval's engine in test_eval_ref_gpu.cpp)

ndarray I(const iv& v, dtype t = int64) { return astype(asarray(v), t); }
const std::map<std::string, std::function<results()>>& cases() {
  static const std::map<std::string, std::function<results()>> table = [] {
    std::map<std::string, std::function<results()>> t;
    // A view at an odd byte offset, checked whole: only its elements change.
    t["add_uint8_view_odd"] = [] {
      const ndarray a = arange(9, uint8);
      add.at(a(slice(1, std::nullopt)), I({0, 0, 2, 7, 7}), 200);
      return results{a};
    };
    return t;
  }();
  return table;
}

TEST(UfuncAtGpu, MatchesNumPyReference) {
  CUPP_REQUIRE_GPU();
  // Exact: every value is a small integer (or NaN), so the order of the updates does not matter.
  test::check_reference_set("ufunc_at", cases(), [](const dtype&) { return 0.0; });
}

// ---------------------------------------------------------------------------------------------
// every form against an exact host model

const char* const ops[] = {"add",  "subtract", "multiply",    "minimum",    "maximum",
                           "fmin", "fmax",     "bitwise_and", "bitwise_or", "bitwise_xor"};

// Complex values as an array of `type` (the real parts only for a real dtype).
ndarray real_or_complex(const cv& v, dtype type) {
  if (type.is_complex()) return astype(asarray(v), type);
  dv re(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) re[i] = v[i].real();
  return astype(asarray(re), type);
}

// The host model: integers in wrapping 64-bit arithmetic (truncated to the dtype by astype),
// floats and complex numbers exactly in double (the values keep every partial result exact).
struct model {
  std::string op;
  dtype type;
  std::vector<std::uint64_t> iv_;  // integers (two's complement bits)
  cv fv;                            // floats and complex

  void apply(std::size_t p, std::int64_t bi, cd bf) {
    if (type.is_integer()) {
      std::uint64_t& a = iv_[p];
      const std::uint64_t b = static_cast<std::uint64_t>(bi);
      const bool uns = type.kind() == 'u';
      const auto lt = [&](std::uint64_t x, std::uint64_t y) {
        return uns ? x < y : static_cast<std::int64_t>(x) < static_cast<std::int64_t>(y);
      };
      if (op == "add") a += b;
      else if (op == "subtract") a -= b;
      else if (op == "multiply") a *= b;
      else if (op == "minimum" || op == "fmin") a = lt(b, a) ? b : a;
      else if (op == "maximum" || op == "fmax") a = lt(a, b) ? b : a;
      else if (op == "bitwise_and") a &= b;
      else if (op == "bitwise_or") a |= b;
      else if (op == "bitwise_xor") a ^= b;
    } else {
      cd& a = fv[p];
      if (op == "add") a += bf;
      else if (op == "subtract") a -= bf;
      else if (op == "multiply") a *= bf;
      else if (op == "minimum" || op == "fmin") a = bf.real() < a.real() ? bf : a;
      else if (op == "maximum" || op == "fmax") a = bf.real() > a.real() ? bf : a;
    }
  }
  ndarray result(std::size_t n) const {
    if (type.is_integer()) {
      std::vector<std::uint64_t> v(iv_.begin(), iv_.begin() + static_cast<std::ptrdiff_t>(n));
      return astype(asarray(v), type);  // truncation to the dtype's bits
    }
    return real_or_complex(fv, type);
  }
};

TEST(UfuncAtGpu, EveryFormAgainstTheHost) {
  CUPP_REQUIRE_GPU();
  const dtype all[] = {int8,     uint8,   int16,   uint16,  int32,     uint32,    int64, uint64,
                       float16,  bfloat16, float32, float64, complex64, complex128};
  std::mt19937 rng(2024);
  const std::size_t n = 16, k = 1000;
  for (const char* op : ops) {
    const std::string o = op;
    for (dtype t : all) {
      if (o.rfind("bitwise_", 0) == 0 && !t.is_integer()) continue;
      if (t.is_complex() && o != "add" && o != "subtract" && o != "multiply") continue;
      SCOPED_TRACE(o + " " + t.name());
      const bool uns = t.kind() == 'u';
      // Small values: signed ones in [-3, 3], unsigned in [0, 6]; multiply of floats by +-1 only
      // (every partial product stays exact whatever the order).
      auto draw = [&]() -> std::int64_t {
        if (o == "multiply" && !t.is_integer()) return rng() % 2 ? 1 : -1;
        const std::int64_t v = static_cast<std::int64_t>(rng() % 7);
        return uns ? v : v - 3;
      };
      model m{o, t, std::vector<std::uint64_t>(n), cv(n)};
      iv a0(n), idx(k), bi(k);
      cv ac(n), bc(k);
      for (std::size_t i = 0; i < n; ++i) {
        a0[i] = draw();
        ac[i] = cd(static_cast<double>(a0[i]), t.is_complex() ? static_cast<double>(draw()) : 0.0);
        m.iv_[i] = static_cast<std::uint64_t>(a0[i]);
        m.fv[i] = ac[i];
      }
      for (std::size_t j = 0; j < k; ++j) {
        idx[j] = static_cast<std::int64_t>(rng() % n) - (j % 3 == 0 ? static_cast<std::int64_t>(n) : 0);
        bi[j] = draw();
        bc[j] = cd(static_cast<double>(bi[j]), t.is_complex() && o != "multiply" ? static_cast<double>(draw()) : 0.0);
        const std::size_t p = static_cast<std::size_t>(idx[j] < 0 ? idx[j] + static_cast<std::int64_t>(n) : idx[j]);
        m.apply(p, bi[j], bc[j]);
      }
      const ndarray a = t.is_integer() ? astype(asarray(a0), t) : real_or_complex(ac, t);
      const ndarray b = t.is_integer() ? astype(asarray(bi), t) : real_or_complex(bc, t);
      ufunc::get(o).at(a, asarray(idx), b);
      CUPP_ASSERT_ARRAY_EQUAL(a, m.result(n));
    }
  }
}

TEST(UfuncAtGpu, ContentionOnTheBytesOfOneWord) {
  CUPP_REQUIRE_GPU();
  // 4 (or 2) elements sharing one 32-bit word, each updated 50000 times at once.
  const std::int64_t per = 50000;
  for (dtype t : {int8, uint8, int16, uint16, float16, bfloat16}) {
    SCOPED_TRACE(t.name());
    const std::int64_t lanes = 4 / static_cast<std::int64_t>(t.itemsize());
    iv idx(static_cast<std::size_t>(lanes * per));
    for (std::size_t j = 0; j < idx.size(); ++j) idx[j] = static_cast<std::int64_t>(j) % lanes;
    const ndarray a = zeros({8}, t);
    add.at(a, asarray(idx), 1);
    const dv got = astype(a, float64).to_vector<double>();
    // Integers wrap (50000 mod 2^8 or 2^16, as a signed or unsigned value); float16 stops at
    // 2048 and bfloat16 at 256, where adding 1 rounds back to the same value.
    double want = 0;
    switch (t.id()) {
      case type_id::int8: want = static_cast<std::int8_t>(per & 0xFF); break;
      case type_id::uint8: want = static_cast<double>(per & 0xFF); break;
      case type_id::int16: want = static_cast<std::int16_t>(per & 0xFFFF); break;
      case type_id::uint16: want = static_cast<double>(per & 0xFFFF); break;
      case type_id::float16: want = 2048; break;
      default: want = 256; break;
    }
    CUPP_EXPECT_ARRAY_EQUAL(got, test::tabulate(8, [&](std::int64_t i) { return i < lanes ? want : 0.0; }));
    // maximum and bitwise_or on the same word: every lane's own result.
    const ndarray m = zeros({8}, t);
    iv vals(idx.size());
    for (std::size_t j = 0; j < vals.size(); ++j) vals[j] = static_cast<std::int64_t>(j % 97) + (idx[j] ? 0 : 3);
    maximum.at(m, asarray(idx), astype(asarray(vals), t));
    CUPP_EXPECT_ARRAY_EQUAL(astype(m, float64),  // lane 0: 96 + 3; lanes past `lanes` keep 0
                            test::tabulate(8, [&](std::int64_t i) { return i == 0 ? 99.0 : i < lanes ? 96.0 : 0.0; }));
    if (t.is_integer()) {
      const ndarray r = zeros({8}, t);
      iv bits(idx.size());
      for (std::size_t j = 0; j < bits.size(); ++j) bits[j] = std::int64_t{1} << (j / static_cast<std::size_t>(lanes) % 7);
      bitwise_or.at(r, asarray(idx), astype(asarray(bits), t));
      CUPP_EXPECT_ARRAY_EQUAL(astype(r, float64), test::tabulate(8, [&](std::int64_t i) { return i < lanes ? 127.0 : 0.0; }));
    }
  }
}

TEST(UfuncAtGpu, OddOffsetViewsLeaveTheirNeighbours) {
  CUPP_REQUIRE_GPU();
  for (dtype t : {uint8, int16, float16}) {
    SCOPED_TRACE(t.name());
    const ndarray a = arange(37, t);
    const ndarray v = a(slice(1, 36, 2));  // a strided view: worked on through a copy
    const ndarray w = a(slice(3, 30));     // a contiguous view at an odd element offset
    add.at(v, I({0, 0, 17}), 1);
    add.at(w, I({0, 1, 1, 26}), 2);
    dv want(37);
    for (std::size_t i = 0; i < 37; ++i) want[i] = static_cast<double>(i);
    want[1] += 2;
    want[35] += 1;
    want[3] += 2;
    want[4] += 4;
    want[29] += 2;
    EXPECT_EQ(astype(a, float64).to_vector<double>(), want);
  }
}

TEST(UfuncAtGpu, ComplexAndRoundsForms) {
  CUPP_REQUIRE_GPU();
  // complex add/subtract (atomicAdd per part), complex64 multiply (64-bit compare-and-swap),
  // complex128 multiply and complex maximum (rounds): exact small values.
  const ndarray c = asarray(cv{{1, 2}, {0, 0}, {-1, 1}});
  for (dtype t : {complex64, complex128}) {
    SCOPED_TRACE(t.name());
    const ndarray a = astype(c, t);
    add.at(a, I({0, 0, 2, 0}), astype(asarray(cv{{1, 1}, {2, -1}, {0, 3}, {-1, 0}}), t));
    subtract.at(a, I({1, 1}), astype(asarray(cv{{1, 0}, {0, 1}}), t));
    multiply.at(a, I({2, 2}), astype(asarray(cv{{0, 1}, {2, 0}}), t));
    CUPP_EXPECT_ARRAY_EQUAL(a, cv{{3, 2}, {-1, -1}, {-8, -2}});
    maximum.at(a, I({1, 1}), astype(asarray(cv{{-1, 5}, {-2, 0}}), t));
    CUPP_EXPECT_ARRAY_EQUAL(a, cv{{3, 2}, {-1, 5}, {-8, -2}});
  }
  // bool (rounds): add is logical or, multiply logical and.
  const ndarray b = asarray(std::vector<bool>{false, true, true});
  add.at(b, I({0, 0}), true);
  multiply.at(b, I({1, 1}), false);
  EXPECT_EQ(b.to_vector<bool>(), (std::vector<bool>{true, false, true}));
  // An operand of a wider dtype resolves to its loop (rounds), cast back same_kind.
  const ndarray i8 = zeros({2}, int8);
  add.at(i8, I({0, 0, 1}), I({100, 100, 5}));  // int64 loop: 200 wraps to -56 in int8
  EXPECT_EQ(astype(i8, int64).to_vector<std::int64_t>(), (iv{-56, 5}));
}

// NumPy's ufunc.at adds a Python int to uint64 in float64 (docs/deviations.md); cupp stays in
// uint64 and wraps, as a[idx] += 3 does.
TEST(UfuncAtGpu, Uint64WithPythonIntStaysUint64) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(asarray(std::vector<std::int64_t>{-2, 5}), uint64);  // 2^64 - 2, 5
  add.at(a, asarray(std::vector<std::int64_t>{0, 1, 0}), 3);
  EXPECT_EQ(a.dtype(), uint64);
  EXPECT_EQ(a.to_vector<std::uint64_t>(), (std::vector<std::uint64_t>{4, 8}));
}

}  // namespace
}  // namespace cupp
