// The routine families' NumPy reference cases that run through `cupp eval`'s engine: each case of
// <conformance>/<family>-ref/eval/manifest.json (written by tests/conformance/routine_ref.py's
// write_eval_set for a make_<family>_ref.py's EVAL_CASES) is an expression in NumPy's names over
// named .npy inputs. cupp evaluates it in this process (tools/cupp/eval: the parser, the function
// table of `cupp eval`) and the result is compared with NumPy's: dtype, shape, values (integers
// and bool exactly; floats within a relative tolerance per dtype, or the case's own; NaN equal to
// NaN), or the exception class NumPy raised (cupp's class or a subclass of it: AxisError is a
// ValueError). No C++ per case: a case added to a script is tested here.
//
// Cases expecting a result run first in worker threads (CUPP_TEST_EVAL_JOBS, default up to 16),
// since most of their time is first-use kernel compiles; a case that fails there and every case
// expecting an error then run one at a time in the test's thread (routines that raise from the
// data read a module-wide error state, which concurrent calls of the same routine would share), and
// that run decides. The in-place routines are given as *_copy functions (the array after the call:
// routine_ref.py's put_copy, putmask_copy, ..., and ufunc_at_copy(a, 'add', indices, b) for
// ufunc.at), registered here with select, which `cupp eval` does not have.
#include <gtest/gtest.h>

#if defined(CUPP_TEST_EVAL_ENGINE)

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "arguments.hpp"
#include "cupp/generated/routine_specs.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/io.hpp"
#include "cupp/sorting.hpp"
#include "cupp/testing.hpp"
#include "cupp/ufunc.hpp"
#include "evaluator.hpp"
#include "functions.hpp"
#include "gpu_support.hpp"
#include "parser.hpp"
#include "plan_cache.hpp"  // (the fft module's engine options)
#include "transform.hpp"
#include "reference_set.hpp"

namespace cupp {
namespace {

using span_v = std::span<const eval::value>;
using span_k = std::span<const eval::keyword_value>;

struct eval_case {
  std::string id, expr;
  std::vector<std::pair<std::string, std::string>> inputs;  // name, file
  std::vector<std::string> outputs;                         // files of NumPy's outputs
  std::string error;                                        // NumPy's exception class, or empty
  std::optional<double> rtol;
  bool numpy2_only = false;
};

clip_mode mode_argument(const eval::arguments& a, std::size_t i) {
  return a.has(i) ? parse_clip_mode(a.string(i, "raise")) : clip_mode::raise;
}

ndarray index_argument(const eval::arguments& a, std::size_t i) {
  if (eval::arguments::is_int(a.get(i))) return scalar(weak_scalar(a.to_int(a.get(i), i)), int64);
  return a.array(i);
}

// cupp eval's functions, and the in-place routines as NumPy's call on a copy, giving the copy
// (routine_ref.py's *_copy: put_copy, ..., ufunc_at_copy, setitem_copy), and select.
const eval::function_table& functions() {
  static const eval::function_table table = [] {
    eval::function_table t = eval::function_table::builtins();
    t.add("put_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("put_copy", {"a", "ind", "v", "mode"}, 3, args, kw);
      ndarray out = a.array(0).copy();
      put(out, index_argument(a, 1), a.operand(2), mode_argument(a, 3));
      return eval::value(out);
    });
    t.add("put_along_axis_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("put_along_axis_copy", {"arr", "indices", "values", "axis"}, 4, args, kw);
      ndarray out = a.array(0).copy();
      put_along_axis(out, a.array(1), a.operand(2), a.axis_or_none(3, -1));
      return eval::value(out);
    });
    t.add("putmask_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("putmask_copy", {"a", "mask", "values"}, 3, args, kw);
      ndarray out = a.array(0).copy();
      putmask(out, a.array(1), a.operand(2));
      return eval::value(out);
    });
    t.add("place_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("place_copy", {"arr", "mask", "vals"}, 3, args, kw);
      ndarray out = a.array(0).copy();
      place(out, a.array(1), a.operand(2));
      return eval::value(out);
    });
    t.add("fill_diagonal_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("fill_diagonal_copy", {"a", "val", "wrap"}, 2, args, kw);
      ndarray out = a.array(0).copy();
      fill_diagonal(out, a.operand(1), a.boolean(2, false));
      return eval::value(out);
    });
    // ufunc_at_copy(a, op, indices, b=None): the ufunc named op (a string, looked up as cupp eval
    // looks up a called name: cupp::ufunc::get) applied at indices of a copy of a, giving the copy
    // (NumPy's getattr(np, op).at(a, indices, b); without b a unary op).
    t.add("ufunc_at_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("ufunc_at_copy", {"a", "op", "indices", "b"}, 3, args, kw);
      const ufunc& f = ufunc::get(a.string(1, ""));
      bool advanced = false;
      const std::vector<array_index_item> items = eval::index_items_of(a.get(2), advanced);
      ndarray out = a.array(0).copy();
      const auto lock = eval::lock_if_raising(f);  // an op that raises from the data (power)
      if (a.has(3)) f.at(out, items, a.operand(3));
      else f.at(out, items);
      return eval::value(out);
    });
    // setitem_copy(a, index, v): a[index] = v on a copy of a, giving the copy; index as a[...]
    // takes it (ints, slice(...), None, integer or bool arrays, a tuple of them).
    t.add("setitem_copy", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("setitem_copy", {"a", "index", "v"}, 3, args, kw);
      bool advanced = false;
      const std::vector<array_index_item> items = eval::index_items_of(a.get(1), advanced);
      const ndarray out = a.array(0).copy();
      const eval::value& v = a.get(2);
      if (v.is_array()) setitem(out, items, v.array());
      else if (v.is_scalar()) setitem(out, items, eval::to_weak(v.scalar()));
      else throw TypeError(std::string("setitem_copy(): v must be an array or a number, not '") + v.type_name() + "'");
      return eval::value(out);
    });
    t.add("select", [](span_v args, span_k kw) -> eval::value {
      const eval::arguments a("select", {"condlist", "choicelist", "default"}, 2, args, kw);
      const std::vector<ndarray> conds = a.arrays(0), choices = a.arrays(1);
      return eval::value(select(conds, choices, a.has(2) ? a.number(2) : weak_scalar(0)));
    });
    return t;
  }();
  return table;
}

// A Python scalar result as the 0-d array numpy.asarray makes of it.
ndarray scalar_result(const eval::py_scalar& s) {
  using kind = eval::py_scalar::kind;
  switch (s.k) {
    case kind::bool_: return full(std::vector<std::int64_t>{}, weak_scalar(s.b), bool_);
    case kind::float_: return full(std::vector<std::int64_t>{}, weak_scalar(s.f), float64);
    case kind::complex_: return full(std::vector<std::int64_t>{}, weak_scalar(s.c), complex128);
    case kind::int_: break;
  }
  return full(std::vector<std::int64_t>{}, eval::to_weak(s), int64);
}

std::vector<ndarray> results_of(const eval::value& v) {
  std::vector<ndarray> out;
  auto one = [&](const eval::value& x) {
    if (x.is_array()) out.push_back(x.array());
    else if (x.is_scalar()) out.push_back(scalar_result(x.scalar()));
    else throw TypeError(std::string("the result holds a '") + x.type_name() + "', not an array");
  };
  if (v.is_tuple()) {
    for (const auto& x : v.tuple()) one(x);
  } else {
    one(v);
  }
  return out;
}

// cupp's exception is NumPy's class or a subclass of it.
bool raises_as(const Error& e, const std::string& numpy_class) {
  if (numpy_class == "AxisError") return dynamic_cast<const AxisError*>(&e) != nullptr;
  if (numpy_class == "ValueError") return dynamic_cast<const ValueError*>(&e) != nullptr;
  if (numpy_class == "TypeError") return dynamic_cast<const TypeError*>(&e) != nullptr;
  if (numpy_class == "IndexError") return dynamic_cast<const IndexError*>(&e) != nullptr;
  if (numpy_class == "OverflowError") return dynamic_cast<const OverflowError*>(&e) != nullptr;
  return numpy_class == e.class_name();
}

double default_tolerance(const dtype& t) {
  return cupp::testing::tolerance_for(t, {.float16 = 2e-3, .bfloat16 = 2e-3, .float32 = 2e-6, .float64 = 1e-12});
}

std::string shape_string(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// "" when `have` is NumPy's `want`, else what differs.
std::string compare(const host_array& have, const host_array& want, std::optional<double> rtol) {
  if (have.dtype() != want.dtype()) return "dtype " + have.dtype().name() + ", NumPy's " + want.dtype().name();
  if (have.shape() != want.shape())
    return "shape " + shape_string(have.shape()) + ", NumPy's " + shape_string(want.shape());
  // Integers and bools exactly (as integers, int64 and uint64 beyond 2^53 too), floats within the
  // tolerance, complex ones by magnitude, NaN equal to NaN (cupp::testing's NumPy rules), and
  // complex NaNs in the same parts as NumPy's.
  try {
    cupp::testing::assert_allclose(have, want, {.rtol = rtol.value_or(default_tolerance(want.dtype())), .atol = 0});
  } catch (const cupp::testing::AssertionError& e) {
    return e.what();
  }
  return test::complex_nan_parts_mismatch(have, want);
}

// "" when cupp agrees with NumPy on the case, else what differs.
std::string run_case(const eval_case& c, const std::string& dir) {
  try {
    eval::bindings names;
    for (const auto& [name, file] : c.inputs) names.emplace(name, load(dir + "/" + file));
    const eval::value v = eval::evaluate(*eval::parse(c.expr), names, functions());
    if (!c.error.empty()) return "NumPy raises " + c.error + ", cupp gives a result";
    const std::vector<ndarray> got = results_of(v);
    if (got.size() != c.outputs.size())
      return std::to_string(got.size()) + " outputs, NumPy's " + std::to_string(c.outputs.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const std::string d = compare(got[k].get(), io::load_npy(dir + "/" + c.outputs[k]), c.rtol);
      if (!d.empty()) return "output " + std::to_string(k) + ": " + d;
    }
    return "";
  } catch (const Error& e) {
    if (c.error.empty()) return std::string("cupp raises ") + e.class_name() + ": " + e.what();
    if (!raises_as(e, c.error))
      return "NumPy raises " + c.error + ", cupp " + e.class_name() + ": " + e.what();
    return "";
  } catch (const std::exception& e) {
    return std::string("std::exception: ") + e.what();
  }
}

std::vector<eval_case> load_cases(const std::string& dir, bool& numpy2) {
  const YAML::Node manifest = test::load_yaml(dir + "/manifest.json");
  numpy2 = manifest["numpy2"].as<bool>();
  std::vector<eval_case> cases;
  for (const auto& kv : manifest["cases"]) {
    eval_case c;
    c.id = kv.first.as<std::string>();
    const YAML::Node n = kv.second;
    c.expr = n["expr"].as<std::string>();
    for (const auto& in : n["inputs"]) c.inputs.emplace_back(in.first.as<std::string>(), in.second.as<std::string>());
    for (const auto& out : n["outputs"]) c.outputs.push_back(out["file"].as<std::string>());
    if (n["error"] && !n["error"].IsNull()) c.error = n["error"].as<std::string>();
    if (n["rtol"] && !n["rtol"].IsNull()) c.rtol = n["rtol"].as<double>();
    c.numpy2_only = n["numpy2_only"].as<bool>();
    cases.push_back(std::move(c));
  }
  return cases;
}

int worker_count() {
  if (const char* v = std::getenv("CUPP_TEST_EVAL_JOBS"); v && *v) return std::max(1, std::atoi(v));
  return static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 16u));
}

void check_eval_reference_set(const std::string& family) {
  CUPP_REQUIRE_GPU();
  const std::string root = test::conformance_path(family + "-ref");
  if (!std::filesystem::exists(root + "/manifest.json"))
    GTEST_SKIP() << "no " << family << " reference data in " << root
                 << " (NumPy was not importable when the project was configured)";
  const std::string dir = root + "/eval";
  ASSERT_TRUE(std::filesystem::exists(dir + "/manifest.json"))
      << dir << "/manifest.json is missing: make_" << family << "_ref.py has no EVAL_CASES, or the set is "
      << "older than them (remake it)";
  bool numpy2 = false;
  const std::vector<eval_case> cases = load_cases(dir, numpy2);
  std::vector<std::size_t> run;
  std::size_t skipped = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (cases[i].numpy2_only && !numpy2) ++skipped;
    else run.push_back(i);
  }
  // Cases expecting a result, in worker threads; the others (and any that fail) below, in order.
  std::vector<std::string> outcome(cases.size());
  std::vector<char> decided(cases.size(), 0);
  {
    std::vector<std::size_t> parallel;
    for (std::size_t i : run)
      if (cases[i].error.empty()) parallel.push_back(i);
    const int device = cuda::current_device();
    std::atomic<std::size_t> next{0};
    auto worker = [&] {
      cuda::Device(device).use();
      for (std::size_t j; (j = next.fetch_add(1)) < parallel.size();) {
        const std::size_t i = parallel[j];
        outcome[i] = run_case(cases[i], dir);
        decided[i] = outcome[i].empty();
      }
    };
    std::vector<std::thread> threads;
    const int n = std::min<int>(worker_count(), static_cast<int>(std::max<std::size_t>(parallel.size(), 1)));
    for (int t = 0; t < n; ++t) threads.emplace_back(worker);
    for (auto& t : threads) t.join();
  }
  std::size_t failures = 0;
  for (std::size_t i : run) {
    if (!decided[i]) outcome[i] = run_case(cases[i], dir);
    if (!outcome[i].empty()) {
      ++failures;
      ADD_FAILURE() << family << "/" << cases[i].id << ": " << cases[i].expr << ": " << outcome[i];
    }
  }
  std::cout << "[ " << family << " ] " << run.size() - failures << " of " << run.size()
            << " NumPy reference cases agree through cupp eval's engine";
  if (skipped) std::cout << " (" << skipped << " NumPy-2-only cases skipped: the set was made by NumPy 1)";
  std::cout << "\n";
  EXPECT_EQ(failures, 0u);
}

// One test per routine family of the specs (the generated registry: a module's family joins with
// no edit here); a family whose reference data has no EVAL_CASES fails, one without data skips.
std::vector<std::string> spec_families() {
  std::vector<std::string> names;
  for (const detail::routine_spec& s : detail::routine_specs())
    if (std::find(names.begin(), names.end(), s.family) == names.end()) names.emplace_back(s.family);
  return names;
}

// The spec families, then (sorted) every other reference set with EVAL_CASES data: a
// <conformance>/<name>-ref/eval/manifest.json, such as reduction_where's and ufunc_at's, whose
// scripts test routines of no family of their own (a new make_<name>_ref.py with EVAL_CASES
// joins with no edit here). <name> is make_<name>_ref.py's, a Python identifier, as gtest's
// parameter names need: a folder named otherwise is no set of a script and is left out. Read
// when the tests are registered (CUPP_TEST_CONFORMANCE_DIR is read then); no data, no extra sets.
std::vector<std::string> eval_families() {
  std::vector<std::string> names = spec_families(), more;
  namespace fs = std::filesystem;
  const std::string_view suffix = "-ref";
  std::error_code ec;
  fs::directory_iterator it(test::conformance_path(""), ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const std::string folder = it->path().filename().string();
    if (folder.size() <= suffix.size() || !folder.ends_with(suffix)) continue;
    const std::string name = folder.substr(0, folder.size() - suffix.size());
    const bool identifier = std::all_of(name.begin(), name.end(), [](unsigned char c) {
      return std::isalnum(c) || c == '_';
    }) && !std::isdigit(static_cast<unsigned char>(name.front()));
    std::error_code exists_ec;
    if (!identifier || !fs::exists(it->path() / "eval" / "manifest.json", exists_ec)) continue;
    if (std::find(names.begin(), names.end(), name) == names.end()) more.push_back(name);
  }
  std::sort(more.begin(), more.end());
  names.insert(names.end(), more.begin(), more.end());
  return names;
}

// The sorting family once more with cupp's own sort in place of CUB's (for the process while it
// runs): both engines must agree with NumPy, and no CUB sort may run.
TEST(EvalRefGpu, SortingWithoutCub) {
  struct restore {
    restore() { detail::set_sort_accelerator(false); }
    ~restore() { detail::set_sort_accelerator(std::nullopt); }
  } own;
  const std::uint64_t before = detail::cub_sort_launches();
  check_eval_reference_set("sorting");
  EXPECT_EQ(detail::cub_sort_launches(), before) << "a CUB kernel ran with the accelerator off";
}

// The fft family once more with the norm factor in cupp's store callback wherever it can go and
// strided columns tiled wherever they can be (tiles of 2 columns up), for the process while it
// runs: both engine paths must agree with NumPy, and the callback must have scaled.
TEST(EvalRefGpu, FftNormInStoreCallbackAndColumnTiles) {
  struct restore {
    fft::detail::engine_options saved = fft::detail::get_engine_options();
    restore() {
      fft::detail::set_engine_options({.norm_callback = 1, .column_tile_bytes = 2048, .column_tile_min = 2, .column_kernel = 0});
    }
    ~restore() { fft::detail::set_engine_options(saved); }
  } forced;
  const std::uint64_t before = fft::detail::scaled_executions();
  check_eval_reference_set("fft");
  if (IsSkipped()) return;  // (no GPU: the set skipped)
  EXPECT_GT(fft::detail::scaled_executions(), before) << "no transform scaled in the store callback";
}

// The same cases with cupp's column kernel (fft/device/cupp/fft/columns.cuh) wherever it can go:
// power-of-two lengths from 32 along strided axes of adjacent columns, however few.
TEST(EvalRefGpu, FftColumnKernelWherePossible) {
  struct restore {
    fft::detail::engine_options saved = fft::detail::get_engine_options();
    restore() { fft::detail::set_engine_options({.column_kernel = 2, .column_kernel_min_n = 32, .column_kernel_min_blocks = 1}); }
    ~restore() { fft::detail::set_engine_options(saved); }
  } forced;
  const std::uint64_t before = fft::detail::column_kernel_executions();
  check_eval_reference_set("fft");
  if (IsSkipped()) return;  // (no GPU: the set skipped)
  EXPECT_GT(fft::detail::column_kernel_executions(), before) << "no reference case ran the column kernel";
}

class Families : public ::testing::TestWithParam<std::string> {};
TEST_P(Families, AgreeWithNumPy) { check_eval_reference_set(GetParam()); }
INSTANTIATE_TEST_SUITE_P(EvalRefGpu, Families, ::testing::ValuesIn(eval_families()),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace cupp

#else

TEST(EvalRefGpu, NeedsTheEvalEngine) {
  GTEST_SKIP() << "cupp_gpu_tests was built without cupp eval's engine (CUPP_BUILD_TOOLS=OFF): the routine "
                  "families' EVAL_CASES are not run";
}

#endif
