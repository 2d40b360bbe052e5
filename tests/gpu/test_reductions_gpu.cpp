// Reductions on the GPU: the sum, prod, max, min, mean, all and any cases of NumPy's reference
// set for six dtypes (a 3x4x5 array; axis None, 0, 1, 2, (0, 2); every dtype runs through
// tests/conformance/eval_conformance.py) with NumPy's result dtypes and
// shapes and values (integers and bools exactly; floats within the summation-order bound); then
// sizes and layouts the reference set lacks (2^25 ones summed exactly, run-to-run identity, a
// large random sum against a host sum, rows and columns on a transposed input), keepdims, out=,
// empty reductions and the errors.
#include <gtest/gtest.h>

#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "conformance.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/float16.hpp"
#include "cupp/io.hpp"
#include "cupp/reductions.hpp"
#include "cupp/testing/gtest.hpp"
#include "error_of.hpp"
#include "expected.hpp"
#include "gpu_support.hpp"

namespace cupp {
namespace {

namespace fs = std::filesystem;

ndarray reduce_by_name(const std::string& fn, const ndarray& a, const reduce_options& o) {
  if (fn == "argmax" || fn == "argmin") {
    arg_options q;
    if (!o.axis.all()) q.axis = o.axis.list()[0];
    return fn == "argmax" ? argmax(a, q) : argmin(a, q);
  }
  if (fn == "var" || fn == "std") {
    const var_options v{.axis = o.axis};
    return fn == "var" ? var(a, v) : std_(a, v);
  }
  if (fn == "count_nonzero") return count_nonzero(a, o);
  if (fn == "nansum") return nansum(a, o);
  if (fn == "nanmax") return nanmax(a, o);
  if (fn == "nanmean") return nanmean(a, o);
  if (fn == "sum") return sum(a, o);
  if (fn == "prod") return prod(a, o);
  if (fn == "max") return max(a, o);
  if (fn == "min") return min(a, o);
  if (fn == "mean") return mean(a, o);
  if (fn == "all") return all(a, o);
  return any(a, o);
}

double epsilon_of(const dtype& t) {
  switch (t.id()) {
    case type_id::float16: return std::ldexp(1.0, -10);
    case type_id::bfloat16: return std::ldexp(1.0, -7);
    case type_id::float32:
    case type_id::complex64: return std::ldexp(1.0, -23);
    default: return std::ldexp(1.0, -52);
  }
}

// One part (real or imaginary) of a result: NaN and inf exactly, finite values within `bound`.
bool close_part(double got, double want, double bound) {
  if (std::isnan(got) || std::isnan(want)) return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want)) return got == want;
  return std::fabs(got - want) <= bound;
}

double finite_or_zero(double x) { return std::isfinite(x) ? x : 0.0; }

TEST(ReductionsGpu, EveryReferenceCaseAgreesWithNumPy) {
  CUPP_REQUIRE_GPU();
  const YAML::Node cases = test::load_yaml(test::conformance_path("numpy-ref/reductions.yaml"));
  const fs::path root = test::conformance_path("numpy-ref/reductions");
  int checked = 0, failed = 0;
  auto fail = [&](const std::string& what) {
    if (++failed <= 30) ADD_FAILURE() << what;
  };
  // The cases (a sample of the dtypes; the whole set runs through `cupp eval --batch --jobs 16`
  // in eval_conformance.py), their inputs and options.
  struct reference_case {
    std::string fn, name, in;
    ndarray a;
    reduce_options o;
    std::int64_t n_reduced = 0;
  };
  std::vector<reference_case> list;
  for (const YAML::Node& c : cases) {
    const std::string fn = c["fn"].as<std::string>(), name = c["case"].as<std::string>();
    static const std::vector<std::string> known = {"sum",    "prod",   "max",           "min", "mean", "all",
                                                   "any",    "argmax", "argmin",        "var", "std", "nansum",
                                                   "nanmax", "nanmean", "count_nonzero"};
    if (std::find(known.begin(), known.end(), fn) == known.end()) continue;  // cumsum, cumprod: not yet
    const std::string in = c["in"].as<std::string>();
    if (in != "bool" && in != "int8" && in != "uint32" && in != "float16" && in != "float32" && in != "complex128") continue;
    reference_case r{fn, name, in, load(root / name / "in0.npy"), {}, 0};
    r.n_reduced = r.a.size();
    if (c["axis"].IsScalar()) {
      r.o.axis = axes(c["axis"].as<std::int64_t>());
      r.n_reduced = r.a.shape()[c["axis"].as<std::size_t>()];
    } else if (c["axis"].IsSequence()) {
      std::vector<std::int64_t> axis_list;
      r.n_reduced = 1;
      for (const auto& x : c["axis"]) {
        axis_list.push_back(x.as<std::int64_t>());
        r.n_reduced *= r.a.shape()[x.as<std::size_t>()];
      }
      r.o.axis = axes(axis_list);
    }
    list.push_back(std::move(r));
  }
  // Compile every case's kernels first, on 16 threads (NVRTC dominates: about 0.3 s a program);
  // the checks below then find them in the kernel cache. Errors show up in the checks.
  {
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 16; ++t)
      threads.emplace_back([&] {
        for (std::size_t i = next++; i < list.size(); i = next++) {
          try {
            (void)reduce_by_name(list[i].fn, list[i].a, list[i].o);
          } catch (const std::exception&) {
          }
        }
        (void)cudaDeviceSynchronize();
      });
    for (std::thread& t : threads) t.join();
  }
  for (const reference_case& r : list) {
    const std::string& fn = r.fn;
    const std::string& name = r.name;
    const std::string& in = r.in;
    const ndarray& a = r.a;
    const reduce_options& o = r.o;
    const std::int64_t n_reduced = r.n_reduced;
    ++checked;
    ndarray got;
    try {
      got = reduce_by_name(fn, a, o);
    } catch (const Error& e) {
      fail(name + ": " + e.class_name() + ": " + e.what());
      continue;
    }
    const ndarray want = load(root / name / "out0.npy");
    if (got.dtype() != want.dtype()) {
      fail(name + ": dtype " + got.dtype().name() + ", NumPy " + want.dtype().name());
      continue;
    }
    if (!std::equal(got.shape().begin(), got.shape().end(), want.shape().begin(), want.shape().end())) {
      fail(name + ": shape differs");
      continue;
    }
    const char kind = want.dtype().kind();
    if (kind == 'b' || kind == 'i' || kind == 'u') {
      const auto g = astype(got, int64).to_vector<std::int64_t>(), w = astype(want, int64).to_vector<std::int64_t>();
      for (std::size_t i = 0; i < g.size(); ++i)
        if (g[i] != w[i]) {
          fail(name + ": element " + std::to_string(i) + ": cupp " + std::to_string(g[i]) + ", NumPy " + std::to_string(w[i]));
          break;
        }
      continue;
    }
    const auto g = astype(got, complex128).to_vector<std::complex<double>>();
    const auto w = astype(want, complex128).to_vector<std::complex<double>>();
    auto x = astype(a, complex128).to_vector<std::complex<double>>();
    // The nan-functions: NaN (in either part) is the identity or ignored; `counted` per element.
    std::vector<bool> counted(x.size(), true);
    if (fn.rfind("nan", 0) == 0)
      for (std::size_t f = 0; f < x.size(); ++f)
        if (std::isnan(x[f].real()) || std::isnan(x[f].imag())) {
          x[f] = 0;
          counted[f] = false;
        }
    // Per result, the sum of |x| over the elements it reduces (C order; kept axes in order).
    std::vector<bool> reduced(static_cast<std::size_t>(a.ndim()), o.axis.all());
    for (std::int64_t ax : o.axis.list()) reduced[static_cast<std::size_t>(ax < 0 ? ax + a.ndim() : ax)] = true;
    // Per result and part, the sum of |x| over the elements it reduces.
    // (long double: terms near the float64 maximum must not overflow the bound away), and the
    // float16 product multiplied in float32 in C order and rounded once (docs/deviations.md).
    std::vector<long double> magnitude_re(g.size(), 0.0L), magnitude_im(g.size(), 0.0L);
    std::vector<float> product_once(g.size(), 1.0f);
    // var/std: per result the count, the sum (for the mean) and the mean of |x|^2, in long double;
    // then the two-pass variance on the host (float16: NumPy computes in float16, cupp in float32).
    std::vector<long double> count(g.size(), 0.0L), squares(g.size(), 0.0L), deviation(g.size(), 0.0L);
    std::vector<std::complex<long double>> total(g.size());
    std::vector<std::size_t> out_of(x.size());
    for (std::size_t f = 0; f < x.size(); ++f) {
      std::size_t rest = f, out_index = 0, scale = 1;
      for (int d = a.ndim() - 1; d >= 0; --d) {
        const auto extent = static_cast<std::size_t>(a.shape()[static_cast<std::size_t>(d)]);
        const std::size_t coordinate = rest % extent;
        rest /= extent;
        if (!reduced[static_cast<std::size_t>(d)]) {
          out_index += coordinate * scale;
          scale *= extent;
        }
      }
      out_of[f] = out_index;
      count[out_index] += counted[f] ? 1 : 0;
      total[out_index] += std::complex<long double>(x[f].real(), x[f].imag());
      squares[out_index] += static_cast<long double>(x[f].real()) * x[f].real() + static_cast<long double>(x[f].imag()) * x[f].imag();
      magnitude_re[out_index] += std::fabs(static_cast<long double>(x[f].real()));
      magnitude_im[out_index] += std::fabs(static_cast<long double>(x[f].imag()));
      product_once[out_index] *= static_cast<float>(x[f].real());
    }
    for (std::size_t f = 0; f < x.size(); ++f) {
      const std::size_t i = out_of[f];
      const std::complex<long double> d = std::complex<long double>(x[f].real(), x[f].imag()) - total[i] / count[i];
      deviation[i] += d.real() * d.real() + d.imag() * d.imag();
    }
    const double eps = epsilon_of(want.dtype());
    const auto n = static_cast<double>(n_reduced);
    for (std::size_t i = 0; i < g.size(); ++i) {
      // Another summation order: within 2n * eps * sum|x| for sums (means: divided by n), plus an
      // ULP; (2n + 1) * eps * |w| for products; max, min, all, any exactly. Each part by its own
      // bound (a NaN real part leaves the imaginary part's bound finite); a bound that is not
      // finite means exact.
      auto agrees = [&](std::complex<double> want_i) {
        auto bound_of = [&](long double magnitude, double w_part) {
          long double bound = 0;
          if (fn == "sum" || fn == "mean" || fn == "nansum")
            bound = 2.0L * n * eps * (fn == "mean" ? magnitude / n : magnitude) + eps * std::fabs(w_part);
          if (fn == "nanmean")
            bound = 2.0L * n * eps * magnitude / std::max(count[i], 1.0L) + eps * std::fabs(w_part);
          // var: within 4n * eps * (var + mean |x|^2); std: the square root of that.
          if (fn == "var") bound = 4.0L * n * eps * (std::fabs(w_part) + squares[i] / n);
          if (fn == "std") bound = std::sqrt(4.0L * n * eps * (w_part * static_cast<long double>(w_part) + squares[i] / n));
          if (fn == "prod")
            bound = (2.0L * n + 1) * eps *
                    std::abs(std::complex<double>(finite_or_zero(want_i.real()), finite_or_zero(want_i.imag())));
          const auto b = static_cast<double>(bound);
          return std::isfinite(b) ? b : 0.0;
        };
        return close_part(g[i].real(), want_i.real(), bound_of(magnitude_re[i], want_i.real())) &&
               close_part(g[i].imag(), want_i.imag(), bound_of(magnitude_im[i], want_i.imag()));
      };
      if (agrees(w[i])) continue;
      // docs/deviations.md: cupp multiplies float16 in float32 and rounds once; NumPy rounds to
      // float16 between its inner loops (overflowing to inf, or losing digits to subnormals).
      if (fn == "prod" && in == "float16" && agrees(static_cast<float>(float16_t(product_once[i])))) continue;
      // docs/deviations.md: float16 var/std compute in float32 and round once (NumPy: in float16).
      if ((fn == "var" || fn == "std") && in == "float16") {
        const long double v = deviation[i] / n;
        if (agrees(static_cast<float>(float16_t(static_cast<float>(fn == "var" ? v : std::sqrt(v)))))) continue;
      }
      std::ostringstream s;
      s << name << ": element " << i << ": cupp " << g[i] << ", NumPy " << w[i];
      fail(s.str());
      break;
    }
  }
  std::cout << "[reduction conformance] " << checked << " cases checked, " << failed << " disagree\n";
  EXPECT_GT(checked, 350);
  EXPECT_EQ(failed, 0);
}

TEST(ReductionsGpu, TwoToThe25OnesSumExactlyAndIdenticallyEveryRun) {
  CUPP_REQUIRE_GPU();
  const ndarray ones = empty({std::int64_t(1) << 25}, float32);
  ones.fill(1.0);
  const ndarray s = sum(ones);
  EXPECT_EQ(s.dtype(), float32);
  EXPECT_EQ(s.ndim(), 0);
  EXPECT_EQ(s.to_vector<float>()[0], 33554432.0f);
  std::vector<float> v(1 << 22);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  double host = 0;
  for (float& x : v) host += (x = u(rng));
  const ndarray r = asarray(v);
  const float first = sum(r).to_vector<float>()[0];
  for (int k = 0; k < 3; ++k) EXPECT_EQ(sum(r).to_vector<float>()[0], first) << "run " << k;
  EXPECT_NEAR(first, host, 1e-6 * 4194304.0 * 0.5);
}

TEST(ReductionsGpu, RowsColumnsAndTransposedLayoutsMatchTheHost) {
  CUPP_REQUIRE_GPU();
  const std::int64_t rows = 1000, cols = 777;
  std::vector<double> v(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>((i * 7919) % 1013) - 500.0;
  const ndarray a = asarray(v).reshape({rows, cols});
  for (const ndarray& m : {a, a.T()}) {
    const std::int64_t r = m.shape()[0], c = m.shape()[1];
    const std::vector<double> h = astype(ascontiguousarray(m), float64).to_vector<double>();
    auto at = [&](std::int64_t i, std::int64_t j) { return h[static_cast<std::size_t>(i * c + j)]; };
    // Integers: the sums are exact.
    CUPP_ASSERT_ARRAY_EQUAL(astype(sum(m, {.axis = 0}), float64), test::tabulate(c, [&](std::int64_t j) {
      double t = 0;
      for (std::int64_t i = 0; i < r; ++i) t += at(i, j);
      return t;
    }), {.err_msg = "axis 0"});
    CUPP_ASSERT_ARRAY_EQUAL(astype(sum(m, {.axis = -1}), float64), test::tabulate(r, [&](std::int64_t i) {
      double t = 0;
      for (std::int64_t j = 0; j < c; ++j) t += at(i, j);
      return t;
    }), {.err_msg = "axis 1"});
    CUPP_ASSERT_ARRAY_EQUAL(astype(max(m, {.axis = 1}), float64), test::tabulate(r, [&](std::int64_t i) {
      double hi = -1e300;
      for (std::int64_t j = 0; j < c; ++j) hi = std::max(hi, at(i, j));
      return hi;
    }), {.err_msg = "max along axis 1"});
  }
}

TEST(ReductionsGpu, KeepdimsOutAndEmpty) {
  CUPP_REQUIRE_GPU();
  const ndarray a = astype(asarray(std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}).reshape({2, 3}), int8);
  const ndarray k = sum(a, {.axis = {1}, .keepdims = true});
  EXPECT_EQ(k.dtype(), int64);
  EXPECT_EQ(k.shape()[0], 2);
  EXPECT_EQ(k.shape()[1], 1);
  EXPECT_EQ(k.to_vector<std::int64_t>(), (std::vector<std::int64_t>{6, 15}));
  ndarray out = empty({3}, float32);
  out.fill(-7);
  EXPECT_EQ(prod(a, {.axis = 0, .out = out}).data(), out.data());
  EXPECT_EQ(out.to_vector<float>(), (std::vector<float>{4, 10, 18}));
  EXPECT_EQ(sum(a, {.dtype = float64}).to_vector<double>()[0], 21.0);
  EXPECT_EQ(mean(a).to_vector<double>()[0], 3.5);
  // Empty: identities where the op has one, NumPy's ValueError where it has none.
  const ndarray e = empty({0, 4}, float32);
  EXPECT_EQ(sum(e, {.axis = 0}).to_vector<float>(), (std::vector<float>(4, 0.0f)));
  EXPECT_EQ(prod(e).to_vector<float>()[0], 1.0f);
  EXPECT_EQ(astype(all(e), int8).to_vector<std::int8_t>()[0], 1);
  EXPECT_EQ(astype(any(e), int8).to_vector<std::int8_t>()[0], 0);
  EXPECT_EQ(max(e, {.axis = 1}).size(), 0);
  EXPECT_EQ(test::error_of<ValueError>([&] { max(e); }),
            "zero-size array to reduction operation maximum which has no identity");
  EXPECT_EQ(test::error_of<AxisError>([&] { sum(a, {.axis = 2}); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(test::error_of<ValueError>([&] { sum(a, {.axis = {0, -2}}); }), "duplicate value in 'axis'");
  EXPECT_NE(test::error_of<ValueError>([&] { sum(a, {.axis = 0, .out = empty({2}, int64)}); }), "<no error>");
  // A 0-d array reduces to itself.
  EXPECT_EQ(sum(asarray(std::vector<double>{2.5}).reshape(std::initializer_list<std::int64_t>{})).to_vector<double>()[0], 2.5);
  // NaN propagates through max; all/any of floats test truth.
  const ndarray f = asarray(std::vector<double>{1.0, std::nan(""), 3.0});
  EXPECT_TRUE(std::isnan(max(f).to_vector<double>()[0]));
  EXPECT_EQ(astype(all(f), int8).to_vector<std::int8_t>()[0], 1);
}

// argmax/argmin: first occurrence, NaN first-middle-last, a long row (two passes), columns,
// keepdims, out=, the nan-forms and the errors.
TEST(ReductionsGpu, ArgmaxFirstOccurrenceNaNAndLongRows) {
  CUPP_REQUIRE_GPU();
  const double nan = std::nan("");
  EXPECT_EQ(argmax(asarray(std::vector<double>{1, 3, 3, 2})).item<std::int64_t>(), 1);
  EXPECT_EQ(argmin(asarray(std::vector<double>{1, 0, 0, 2})).item<std::int64_t>(), 1);
  for (std::size_t at : {std::size_t(0), std::size_t(500000), std::size_t(999999)}) {
    std::vector<float> v(1000000, 1.0f);
    v[at] = nanf("");
    v[(at + 7) % v.size()] = nanf("");
    const ndarray a = asarray(v);
    EXPECT_EQ(argmax(a).item<std::int64_t>(), static_cast<std::int64_t>(std::min(at, (at + 7) % v.size()))) << at;
    EXPECT_EQ(argmin(a).item<std::int64_t>(), static_cast<std::int64_t>(std::min(at, (at + 7) % v.size()))) << at;
    EXPECT_EQ(nanargmax(a).item<std::int64_t>(), at == 0 ? 1 : 0) << at;
  }
  // A long row with the maximum twice (the lower index wins across chunks) and ties everywhere.
  std::vector<std::int32_t> big(3000000, 5);
  big[2999999] = 9;
  big[1234567] = 9;
  EXPECT_EQ(argmax(asarray(big)).item<std::int64_t>(), 1234567);
  EXPECT_EQ(argmin(asarray(big)).item<std::int64_t>(), 0);
  // Columns (axis 0 of a wide matrix) and rows (axis 1), a transposed view, keepdims and out=.
  const std::int64_t r = 300, c = 257;
  std::vector<double> m(static_cast<std::size_t>(r * c));
  for (std::size_t k = 0; k < m.size(); ++k) m[k] = static_cast<double>((k * 7919) % 1013);
  const ndarray a = asarray(m).reshape({r, c});
  for (const ndarray& x : {a, a.T()}) {
    const std::vector<double> h = ascontiguousarray(x).to_vector<double>();
    const std::int64_t rr = x.shape()[0], cc = x.shape()[1];
    const auto g0 = argmax(x, {.axis = 0}).to_vector<std::int64_t>(), g1 = argmin(x, {.axis = -1}).to_vector<std::int64_t>();
    for (std::int64_t j = 0; j < cc; ++j) {
      std::int64_t best = 0;
      for (std::int64_t i = 1; i < rr; ++i)
        if (h[static_cast<std::size_t>(i * cc + j)] > h[static_cast<std::size_t>(best * cc + j)]) best = i;
      ASSERT_EQ(g0[static_cast<std::size_t>(j)], best) << "column " << j;
    }
    for (std::int64_t i = 0; i < rr; ++i) {
      std::int64_t best = 0;
      for (std::int64_t j = 1; j < cc; ++j)
        if (h[static_cast<std::size_t>(i * cc + j)] < h[static_cast<std::size_t>(i * cc + best)]) best = j;
      ASSERT_EQ(g1[static_cast<std::size_t>(i)], best) << "row " << i;
    }
  }
  const ndarray k = argmax(a, {.axis = 1, .keepdims = true});
  EXPECT_EQ(k.ndim(), 2);
  EXPECT_EQ(k.shape()[1], 1);
  EXPECT_EQ(argmax(a, {.keepdims = true}).shape()[0], 1);
  ndarray out = empty({c}, int64);
  EXPECT_EQ(argmax(a, {.axis = 0, .out = out}).data(), out.data());
  // Complex: real part first, then imaginary; NaN in either part wins.
  const ndarray z = asarray(std::vector<std::complex<double>>{{1, 5}, {2, -1}, {2, 3}, {0, 0}});
  EXPECT_EQ(argmax(z).item<std::int64_t>(), 2);
  EXPECT_EQ(argmin(z).item<std::int64_t>(), 3);
  EXPECT_EQ(argmin(asarray(std::vector<std::complex<double>>{{1, 0}, {5, nan}})).item<std::int64_t>(), 1);
  // float16 and bool.
  EXPECT_EQ(argmax(astype(asarray(std::vector<double>{0.5, 2.5, 2.5}), float16)).item<std::int64_t>(), 1);
  EXPECT_EQ(argmax(astype(asarray(std::vector<double>{0, 0, 1}), bool_)).item<std::int64_t>(), 2);
  // Errors.
  EXPECT_EQ(test::error_of<ValueError>([&] { argmax(empty({0}, float32)); }), "attempt to get argmax of an empty sequence");
  EXPECT_EQ(test::error_of<ValueError>([&] { argmin(empty({0, 3}, float32), {.axis = 0}); }),
            "attempt to get argmin of an empty sequence");
  EXPECT_EQ(argmax(empty({0, 3}, float32), {.axis = 1}).size(), 0);
  EXPECT_EQ(test::error_of<AxisError>([&] { argmax(a, {.axis = 2}); }), "axis 2 is out of bounds for array of dimension 2");
  EXPECT_EQ(test::error_of<ValueError>([&] { nanargmax(asarray(std::vector<double>{nan, nan})); }),
            "All-NaN slice encountered");
}

TEST(ReductionsGpu, CountNonzeroVarStdAndTheNanFunctions) {
  CUPP_REQUIRE_GPU();
  const double nan = std::nan("");
  const ndarray a = asarray(std::vector<double>{1, 0, nan, 4, 0, 6}).reshape({2, 3});
  const ndarray cz = count_nonzero(a);
  EXPECT_EQ(cz.ndim(), 0);
  EXPECT_EQ(cz.dtype(), int64);
  EXPECT_EQ(cz.item<std::int64_t>(), 4);  // NaN is nonzero
  EXPECT_EQ(count_nonzero(a, {.axis = 0}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0, 2}));
  EXPECT_EQ(nansum(a).item<double>(), 11.0);
  EXPECT_EQ(nanmax(a, {.axis = 1}).to_vector<double>(), (std::vector<double>{1, 6}));
  EXPECT_EQ(nanmean(a, {.axis = 1}).to_vector<double>(), (std::vector<double>{0.5, 10.0 / 3}));
  EXPECT_EQ(nanprod(a).item<double>(), 0.0);
  EXPECT_TRUE(std::isnan(nanmean(asarray(std::vector<float>{nanf(""), nanf("")})).item<float>()));
  EXPECT_TRUE(std::isnan(nanmax(asarray(std::vector<float>{nanf(""), nanf("")})).item<float>()));
  // var/std: the two-pass result; ddof; n - ddof <= 0 gives inf (or NaN for 0/0); ints -> float64.
  const ndarray v = asarray(std::vector<std::int32_t>{2, 4, 4, 4, 5, 5, 7, 9});
  EXPECT_EQ(var(v).dtype(), float64);
  EXPECT_EQ(var(v).item<double>(), 4.0);
  EXPECT_EQ(std_(v).item<double>(), 2.0);
  EXPECT_DOUBLE_EQ(var(v, {.ddof = 1}).item<double>(), 32.0 / 7);
  EXPECT_TRUE(std::isinf(var(v, {.ddof = 8}).item<double>()));
  EXPECT_TRUE(std::isnan(var(asarray(std::vector<double>{3, 3}), {.ddof = 2}).item<double>()));
  EXPECT_EQ(var(astype(v, float16)).dtype(), float16);
  EXPECT_EQ(astype(var(astype(v, float16)), float32).item<float>(), 4.0f);
  const ndarray zc = asarray(std::vector<std::complex<float>>{{1, 1}, {-1, -1}});
  EXPECT_EQ(var(zc).dtype(), float32);
  EXPECT_EQ(var(zc).item<float>(), 2.0f);
  EXPECT_EQ(nanvar(a, {.axis = 1}).to_vector<double>()[0], 0.25);
  EXPECT_TRUE(std::isnan(nanvar(asarray(std::vector<double>{nan, 1.0}), {.ddof = 1}).item<double>()));
  const ndarray m = asarray(std::vector<double>{1, 2, 3, 4, 5, 6}).reshape({2, 3});
  const ndarray k = std_(m, {.axis = 1, .keepdims = true});
  EXPECT_EQ(k.shape()[1], 1);
  EXPECT_DOUBLE_EQ(k.to_vector<double>()[0], std::sqrt(2.0 / 3));
  EXPECT_EQ(ptp(m, {.axis = 0}).to_vector<double>(), (std::vector<double>{3, 3, 3}));
  EXPECT_NE(test::error_of<TypeError>([&] { ptp(astype(m, bool_)); }), "<no error>");
}

// The contiguous argmax path (16-byte loads, each thread in index order): views starting off a
// 16-byte boundary, the extreme near chunk edges and repeated, every element width.
TEST(ReductionsGpu, ArgmaxContiguousPathMatchesTheHost) {
  CUPP_REQUIRE_GPU();
  const std::int64_t n = 3000011;
  std::vector<double> h(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) h[static_cast<std::size_t>(i)] = static_cast<double>((i * 7919) % 100);
  for (std::int64_t at : {std::int64_t(5), std::int64_t(2048 * 16 - 1), std::int64_t(1500000), n - 2}) {
    h[static_cast<std::size_t>(at)] = 120;
    h[static_cast<std::size_t>(at) + 1] = -20;
  }
  const ndarray base = asarray(h);
  for (const dtype& t : {float64, float32, float16, int8, int16, int32, uint8, complex64}) {
    const ndarray whole = astype(base, t);
    for (std::int64_t offset : {0, 1, 3}) {
      const ndarray a = whole(slice(offset, std::nullopt));
      std::int64_t best = 0, worst = 0;
      for (std::int64_t i = 1; i + offset < n; ++i) {
        const double x = h[static_cast<std::size_t>(i + offset)];
        if (x > h[static_cast<std::size_t>(best + offset)]) best = i;
        if (x < h[static_cast<std::size_t>(worst + offset)]) worst = i;
      }
      if (t == uint8 || t == int8) {  // -20 wraps in uint8 and 120 stays: recompute on the cast values
        const auto v = astype(a, float64).to_vector<double>();
        best = std::max_element(v.begin(), v.end()) - v.begin();
        worst = std::min_element(v.begin(), v.end()) - v.begin();
      }
      EXPECT_EQ(argmax(a).item<std::int64_t>(), best) << t.name() << " offset " << offset;
      EXPECT_EQ(argmin(a).item<std::int64_t>(), worst) << t.name() << " offset " << offset;
    }
  }
  // NaN: the first one wins (argmax), or is skipped (nanargmax), from any position of a pack.
  std::vector<float> f(1000003, 1.0f);
  f[777777] = 2.0f;
  f[999998] = nanf("");
  f[555555] = nanf("");
  const ndarray fa = asarray(f)(slice(1, std::nullopt));
  EXPECT_EQ(argmax(fa).item<std::int64_t>(), 555554);
  EXPECT_EQ(nanargmax(fa).item<std::int64_t>(), 777776);
  EXPECT_EQ(nanargmin(fa).item<std::int64_t>(), 0);
}

// var/std in one read: float64 accumulation keeps a large mean from costing precision (float32
// data around 1e4 with unit spread), every layout matches a two-pass float64 computation on the
// host, and results are the same bits run to run.
TEST(ReductionsGpu, OnePassVarianceIsAccurateInEveryLayout) {
  CUPP_REQUIRE_GPU();
  const std::int64_t rows = 64, cols = 65537;
  std::vector<float> h(static_cast<std::size_t>(rows * cols));
  std::mt19937 rng(7);
  std::normal_distribution<float> noise(0.0f, 1.0f);
  for (auto& x : h) x = 10000.0f + noise(rng);
  const ndarray m = asarray(h).reshape({rows, cols});
  auto host_var = [&](auto element, std::int64_t count, double ddof) {
    double mean = 0;
    for (std::int64_t i = 0; i < count; ++i) mean += element(i);
    mean /= static_cast<double>(count);
    double m2 = 0;
    for (std::int64_t i = 0; i < count; ++i) m2 += (element(i) - mean) * (element(i) - mean);
    return m2 / (static_cast<double>(count) - ddof);
  };
  const double all = host_var([&](std::int64_t i) { return static_cast<double>(h[static_cast<std::size_t>(i)]); },
                              rows * cols, 0);
  EXPECT_NEAR(var(m).item<float>(), all, 1e-5 * all);
  EXPECT_NEAR(std_(m, {.ddof = 1}).item<float>(), std::sqrt(all * rows * cols / (rows * cols - 1.0)), 1e-5);
  // Rows (axis 1, also from a view starting off a 16-byte boundary) and columns (axis 0).
  const auto by_row = var(m, {.axis = 1}).to_vector<float>();
  const auto by_row_view = var(m(slice(), slice(1, std::nullopt)), {.axis = 1}).to_vector<float>();
  for (std::int64_t r = 0; r < rows; r += 7) {
    const float* row = h.data() + r * cols;
    const double want = host_var([&](std::int64_t i) { return static_cast<double>(row[i]); }, cols, 0);
    EXPECT_NEAR(by_row[static_cast<std::size_t>(r)], want, 1e-5 * want) << "row " << r;
    const double want_view = host_var([&](std::int64_t i) { return static_cast<double>(row[i + 1]); }, cols - 1, 0);
    EXPECT_NEAR(by_row_view[static_cast<std::size_t>(r)], want_view, 1e-5 * want_view) << "row " << r;
  }
  const auto by_col = var(m, {.axis = 0, .ddof = 1}).to_vector<float>();
  for (std::int64_t c = 0; c < cols; c += 4099) {
    const double want =
        host_var([&](std::int64_t i) { return static_cast<double>(h[static_cast<std::size_t>(i * cols + c)]); }, rows, 1);
    EXPECT_NEAR(by_col[static_cast<std::size_t>(c)], want, 1e-5 * want) << "column " << c;
  }
  // Transposed and strided inputs, int16 and float16 inputs, nanvar with NaN spread through.
  const auto t = var(m.T(), {.axis = 0}).to_vector<float>();
  EXPECT_EQ(t, by_row);
  const ndarray ints = astype(asarray(std::vector<std::int64_t>{-3, 7, 1000, -1000, 5}), int16);
  EXPECT_DOUBLE_EQ(var(ints).item<double>(), host_var([](std::int64_t i) {
                     const double v[] = {-3, 7, 1000, -1000, 5};
                     return v[i];
                   }, 5, 0));
  std::vector<double> with_nan(1 << 20);
  for (std::size_t i = 0; i < with_nan.size(); ++i) with_nan[i] = i % 97 == 3 ? std::nan("") : static_cast<double>(i % 1000);
  std::vector<double> kept;
  for (double x : with_nan)
    if (!std::isnan(x)) kept.push_back(x);
  const double want_nan = host_var([&](std::int64_t i) { return kept[static_cast<std::size_t>(i)]; },
                                   static_cast<std::int64_t>(kept.size()), 0);
  EXPECT_NEAR(nanvar(asarray(with_nan)).item<double>(), want_nan, 1e-12 * want_nan);
  EXPECT_TRUE(std::isnan(var(asarray(with_nan)).item<double>()));
  // inf makes NaN, as NumPy's (x - mean) does.
  EXPECT_TRUE(std::isnan(var(asarray(std::vector<double>{1, INFINITY, 2})).item<double>()));
  // Empty reductions give NaN; empty results stay empty.
  EXPECT_TRUE(std::isnan(var(empty({0}, float32)).item<float>()));
  EXPECT_EQ(var(empty({0, 4}, float32), {.axis = 0}).size(), 4);
  EXPECT_EQ(var(empty({4, 0}, float32), {.axis = 0}).size(), 0);
  // Identical bits run to run.
  const float first = var(m).item<float>();
  for (int k = 0; k < 3; ++k) EXPECT_EQ(var(m).item<float>(), first);
}

// var/std overflow as NumPy's two-pass formula: inf when the squared deviations (or the sum for
// the mean) pass the largest value, NaN only for NaN or infinite elements, and a finite result
// when only the deviations from an element (not from the mean) would overflow. Rows, columns and
// strided layouts, and the nan variants.
TEST(ReductionsGpu, VarianceOverflowsAsNumPy) {
  CUPP_REQUIRE_GPU();
  const double big = 1.7976931348623157e308;
  // NumPy's conformance case: the column [big, 1420, -16.95] has a finite mean and var inf.
  const ndarray col = asarray(std::vector<double>{big, 0.5, 1420.0, 2.0, -16.95, 3.0}).reshape({3, 2});
  const auto by_col = var(col, {.axis = 0}).to_vector<double>();
  EXPECT_TRUE(std::isinf(by_col[0]) && by_col[0] > 0) << by_col[0];
  EXPECT_NEAR(by_col[1], (0.5 * 0.5 + 2.0 * 2.0 + 3.0 * 3.0) / 3.0 - (5.5 / 3.0) * (5.5 / 3.0), 1e-12);
  EXPECT_TRUE(std::isinf(var(col.T(), {.axis = 1}).to_vector<double>()[0]));
  EXPECT_TRUE(std::isinf(std_(asarray(std::vector<double>{big, 1420.0, -16.95})).item<double>()));
  // The sum for the mean overflows: NumPy's mean is inf, and so is its var.
  EXPECT_TRUE(std::isinf(var(asarray(std::vector<double>{1e308, 1e308})).item<double>()));
  EXPECT_TRUE(std::isinf(var(asarray(std::vector<float>{3e38f, 3e38f})).item<float>()));
  // Squares overflow float32 (the result dtype) but not float64.
  EXPECT_TRUE(std::isinf(var(asarray(std::vector<float>{3e38f, -3e38f})).item<float>()));
  // Elements 1e152 apart from the first but not from the mean: finite, in every layout.
  const std::int64_t n = 1 << 18;
  std::vector<double> far(static_cast<std::size_t>(n), 1e152);
  far[0] = 0;
  auto var_of_far = [](double count) {  // one 0 and count - 1 times 1e152
    const double mean = 1e152 * (count - 1.0) / count;
    return (mean * mean + (count - 1.0) * (1e152 - mean) * (1e152 - mean)) / count;
  };
  const double want = var_of_far(static_cast<double>(n));
  EXPECT_NEAR(var(asarray(far)).item<double>(), want, 1e-9 * want);
  EXPECT_NEAR(var(asarray(far).reshape({n, 1}), {.axis = 0}).to_vector<double>()[0], want, 1e-9 * want);
  const double want_half = var_of_far(static_cast<double>(n / 2));  // far[0::2]
  EXPECT_NEAR(var(asarray(far).reshape({n / 2, 2}).T(), {.axis = 1}).to_vector<double>()[0], want_half,
              1e-9 * want_half);
  // NaN and inf elements give NaN even next to an overflow; nanvar skips the NaN and overflows.
  EXPECT_TRUE(std::isnan(var(asarray(std::vector<double>{big, -big, std::nan("")})).item<double>()));
  EXPECT_TRUE(std::isnan(var(asarray(std::vector<double>{big, -big, INFINITY})).item<double>()));
  const double with_nan = nanvar(asarray(std::vector<double>{std::nan(""), 1e308, -1e308})).item<double>();
  EXPECT_TRUE(std::isinf(with_nan) && with_nan > 0) << with_nan;
  // One overflowing element in a long row: inf, whichever thread and chunk holds it.
  std::vector<double> long_row(1 << 22, 1.0);
  long_row[(1 << 21) + 3] = big;
  long_row[17] = -big;
  EXPECT_TRUE(std::isinf(var(asarray(long_row)).item<double>()));
}

// ufunc.reduce reduces the first axis unless told (NumPy's axis=0); axes::none() reduces every
// axis; sum and the other functions keep None as their default; a 0-d array reduces to itself.
TEST(ReductionsGpu, UfuncReduceDefaultsToTheFirstAxis) {
  CUPP_REQUIRE_GPU();
  const ndarray a = asarray(std::vector<double>{1, 2, 3, 10, 20, 30}).reshape({2, 3});
  const ndarray first = add.reduce(a);
  EXPECT_EQ(first.ndim(), 1);
  EXPECT_EQ(first.to_vector<double>(), (std::vector<double>{11, 22, 33}));
  EXPECT_EQ(subtract.reduce(a).to_vector<double>(), (std::vector<double>{-9, -18, -27}));
  EXPECT_EQ(add.reduce(a, {.axis = axes::none()}).ndim(), 0);
  EXPECT_EQ(add.reduce(a, {.axis = axes::none()}).item<double>(), 66.0);
  EXPECT_EQ(sum(a).ndim(), 0);
  EXPECT_EQ(maximum.reduce(a, {.keepdims = true}).to_vector<double>(), (std::vector<double>{10, 20, 30}));
  EXPECT_THROW(subtract.reduce(a, {.axis = axes::none()}), ValueError);  // not reorderable
  const ndarray zero_d = asarray(std::vector<double>{7}).reshape({});
  EXPECT_EQ(add.reduce(zero_d).item<double>(), 7.0);
  EXPECT_EQ(argmax(zero_d, {.axis = 0}).item<std::int64_t>(), 0);
  EXPECT_THROW(mean(zero_d, {.axis = 0}), AxisError);
}

}  // namespace
}  // namespace cupp
