// The reduction and scan routine tables generated from specs/routines/ (no GPU needed): every
// routine the project has is listed once, each name is callable through `cupp eval`'s function
// table, each entry agrees with the ufunc it folds, and the integer widening of reductions comes
// from the ufunc spec's reduce_widens_ints (a loaded op with the key widens, one without keeps).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/generated/routine_specs.hpp"
#include "cupp/load_ops.hpp"
#include "cupp/ops.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/searching.hpp"
#include "cupp/sorting.hpp"
#include "cupp/statistics.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "engine/reduce_common.hpp"
#include "loader/spec_parser.hpp"
#ifdef CUPP_HAVE_EVAL_ENGINE
#include "functions.hpp"
#endif

namespace cupp {
namespace {

std::vector<std::string> names_of(std::span<const routine_info> table) {
  std::vector<std::string> out;
  for (const routine_info& r : table) out.emplace_back(r.name);
  return out;
}

std::vector<std::string> new_family_names() {
  std::vector<std::string> out = names_of(reduction_routines());
  for (std::string& n : names_of(scan_routines())) out.push_back(std::move(n));
  return out;
}

// The routines whose C++ is hand-written in cupp/reductions.hpp and cupp/scans.hpp are in the
// spec (the folding ones are declared from it, so they are in it by construction), and each
// folding routine of the spec is declared: the generated header names it (it links, below).
TEST(ReductionRoutines, TablesListEveryRoutine) {
  const std::set<std::string> hand_reductions = {"argmax", "argmin", "mean",    "var",       "std",       "ptp",
                                                 "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd"};
  const std::set<std::string> hand_scans = {"diff", "ediff1d"};
  const std::vector<std::string> r = names_of(reduction_routines()), s = names_of(scan_routines());
  const std::set<std::string> listed_r(r.begin(), r.end()), listed_s(s.begin(), s.end());
  for (const std::string& n : hand_reductions) EXPECT_EQ(listed_r.count(n), 1u) << n;
  for (const std::string& n : hand_scans) EXPECT_EQ(listed_s.count(n), 1u) << n;
  EXPECT_GE(listed_r.size(), hand_reductions.size() + 11);  // sum, prod, max, amax, min, amin, all, any, count_nonzero, nansum, ...
  EXPECT_GE(listed_s.size(), hand_scans.size() + 6);        // cumsum, cumprod, nancumsum, nancumprod, cumulative_*
}

// The generated folding routines are the C++ functions of those names (declared from the spec:
// this compiles and links only if they are) and reach the engine: a null array is its ValueError,
// with no device work, for each form of options.
TEST(ReductionRoutines, FoldingRoutinesAreDeclaredFromTheSpec) {
  using reduce_fn = ndarray (*)(const ndarray&, const reduce_options&);
  using scan_fn = ndarray (*)(const ndarray&, const scan_options&);
  using cumulative_fn = ndarray (*)(const ndarray&, const cumulative_options&);
  const ndarray null;
  for (reduce_fn f : {&sum, &prod, &max, &amax, &min, &amin, &all, &any, &count_nonzero, &nansum, &nanprod,
                      &nanmax, &nanmin})
    EXPECT_THROW(f(null, {}), ValueError);
  for (scan_fn f : {&cumsum, &cumprod, &nancumsum, &nancumprod}) EXPECT_THROW(f(null, {}), ValueError);
  for (cumulative_fn f : {&cumulative_sum, &cumulative_prod}) EXPECT_THROW(f(null, {}), ValueError);
}

// What the generated folding routines refuse: a keyword their NumPy signature lacks (the spec's
// signature is the rule, checked before any device work).
TEST(ReductionRoutines, FoldingRoutinesRefuseKeywordsTheirSignatureLacks) {
  const ndarray none;  // never reached: the refusal comes first
  EXPECT_THROW(all(none, {.initial = weak_scalar(1)}), TypeError);
  EXPECT_THROW(any(none, {.initial = weak_scalar(0)}), TypeError);
  EXPECT_THROW(count_nonzero(none, {.initial = weak_scalar(0)}), TypeError);
  EXPECT_THROW(sum(none, {.initial = weak_scalar(0)}), ValueError);  // sum takes initial=: the null input is next
}

TEST(ReductionRoutines, NamesAreUniqueAndClashWithNoOtherName) {
  std::map<std::string, int> seen;
  for (const std::string& n : new_family_names()) ++seen[n];
  for (const auto& [name, count] : seen) EXPECT_EQ(count, 1) << name << " is listed " << count << " times";
  for (const auto& [name, count] : seen) EXPECT_EQ(find_op(name), nullptr) << name << " is also a ufunc";
  for (const auto& table : {creation_routines(), manipulation_routines(), indexing_routines(), sorting_routines(),
                            searching_routines(), statistics_routines()})
    for (const routine_info& r : table) EXPECT_EQ(seen.count(r.name), 0u) << r.name << " is in another family too";
}

#ifdef CUPP_HAVE_EVAL_ENGINE
TEST(ReductionRoutines, EveryNameIsCallableThroughCuppEval) {
  const eval::function_table table = eval::function_table::builtins();
  for (const std::string& n : new_family_names()) EXPECT_NE(table.find(n), nullptr) << "cupp eval has no " << n << "()";
  EXPECT_EQ(table.find("no_such_reduction"), nullptr);
}
#else
TEST(ReductionRoutines, EveryNameIsCallableThroughCuppEval) {
  GTEST_SKIP() << "built without the cupp tool (CUPP_BUILD_TOOLS=OFF): no eval function table to ask";
}
#endif

// The routine_info tables and the routine_spec entries are one spec: same names and signatures,
// and each entry's facts agree with the generated op registry.
TEST(ReductionRoutines, SpecEntriesAgreeWithTheTablesAndTheUfuncs) {
  std::map<std::string, const detail::routine_spec*> specs;
  for (const detail::routine_spec& s : detail::routine_specs())
    if (s.family == "reductions" || s.family == "scans") specs.emplace(std::string(s.name), &s);
  const std::vector<std::string> names = new_family_names();
  EXPECT_EQ(specs.size(), names.size());
  auto rule_known = [](std::string_view kind, std::string_view name) {
    for (const detail::routine_rule& r : detail::routine_rules())
      if (r.kind == kind && r.name == name) return !r.meaning.empty();
    return false;
  };
  for (const auto& [family, table] : {std::pair{"reductions", reduction_routines()}, std::pair{"scans", scan_routines()}}) {
    for (const routine_info& r : table) {
      SCOPED_TRACE(r.name);
      const detail::routine_spec* s = detail::find_routine_spec(r.name);
      ASSERT_NE(s, nullptr);
      EXPECT_EQ(s->family, family);
      EXPECT_EQ(s->signature, r.signature);
      EXPECT_TRUE(std::string_view(r.signature).starts_with(std::string(r.name) + "("));
      EXPECT_TRUE(rule_known("result", s->result)) << s->result;
      EXPECT_TRUE(rule_known("nan", s->nan)) << s->nan;
      if (!s->alias_of.empty()) EXPECT_NE(detail::find_routine_spec(s->alias_of), nullptr);
      if (s->folds.empty()) {
        EXPECT_NE(s->result, "widen_ints") << "only a folded ufunc widens";
        continue;
      }
      const op_spec* op = find_op(s->folds);
      ASSERT_NE(op, nullptr) << "folds " << s->folds;
      EXPECT_EQ(op->nin, 2);
      EXPECT_EQ(op->nout, 1);
      if (s->result == "widen_ints") EXPECT_TRUE(op->reduce_widens_ints) << s->folds;
      if (s->result == "keep") EXPECT_FALSE(op->reduce_widens_ints) << s->folds;
      if (s->empty.starts_with("identity")) {
        EXPECT_FALSE(op->identity.empty()) << s->folds << " has no identity";
        EXPECT_EQ(s->empty, "identity (" + std::string(op->identity) + ")");
      }
    }
  }
  EXPECT_EQ(detail::find_routine_spec("no_such_reduction"), nullptr);
  EXPECT_EQ(detail::find_routine_spec("sum")->folds, "add");
  EXPECT_EQ(detail::find_routine_spec("std")->cpp, "std_");
  EXPECT_EQ(detail::find_routine_spec("amax")->alias_of, "max");
  EXPECT_EQ(detail::find_routine_spec("max")->empty,
            "ValueError: zero-size array to reduction operation maximum which has no identity");
}

// ---- the widening rule is the ufunc spec's reduce_widens_ints

const std::string widening_yaml = R"(
name: rrtest_widening_add
doc: add with NumPy's widening reduce (test only).
nin: 2
nout: 1
identity: 0
reduce_widens_ints: true
body: out0 = in0 + in1;
loops:
  - sig: T, T -> T
    each: {T: number}
)";

TEST(ReductionRoutines, WideningIsReadFromTheSpecField) {
  const op_spec& widening = load_ops_from_string(widening_yaml, "widening.yaml").at(0).spec();
  std::string plain_yaml = widening_yaml;
  plain_yaml.replace(plain_yaml.find("rrtest_widening_add"), 19, "rrtest_plain_add");
  plain_yaml.erase(plain_yaml.find("reduce_widens_ints: true\n"), 25);
  const op_spec& plain = load_ops_from_string(plain_yaml, "plain.yaml").at(0).spec();
  EXPECT_TRUE(widening.reduce_widens_ints);
  EXPECT_FALSE(plain.reduce_widens_ints);

  EXPECT_EQ(engine::default_result(widening, dtype(type_id::int8)), dtype(type_id::int64));
  EXPECT_EQ(engine::default_result(widening, dtype(type_id::bool_)), dtype(type_id::int64));
  EXPECT_EQ(engine::default_result(widening, dtype(type_id::int32)), dtype(type_id::int64));
  EXPECT_EQ(engine::default_result(widening, dtype(type_id::uint16)), dtype(type_id::uint64));
  EXPECT_EQ(engine::default_result(widening, dtype(type_id::uint64)), dtype(type_id::uint64));
  EXPECT_EQ(engine::default_result(widening, dtype(type_id::float16)), dtype(type_id::float16));
  EXPECT_EQ(engine::default_result(widening, dtype(type_id::float32)), dtype(type_id::float32));
  EXPECT_EQ(engine::default_result(plain, dtype(type_id::int8)), dtype(type_id::int8));
  EXPECT_EQ(engine::default_result(plain, dtype(type_id::uint16)), dtype(type_id::uint16));
  EXPECT_EQ(engine::default_result(plain, dtype(type_id::bool_)), dtype(type_id::bool_));

  // The built-in ops say it through their specs, and behave as before.
  for (std::string_view name : {"add", "multiply"}) {
    SCOPED_TRACE(name);
    const op_spec& op = *find_op(name);
    EXPECT_TRUE(op.reduce_widens_ints);
    EXPECT_EQ(engine::default_result(op, dtype(type_id::int8)), dtype(type_id::int64));
    EXPECT_EQ(engine::default_result(op, dtype(type_id::uint8)), dtype(type_id::uint64));
  }
  for (std::string_view name : {"maximum", "minimum", "subtract", "bitwise_xor", "fmax"}) {
    SCOPED_TRACE(name);
    const op_spec& op = *find_op(name);
    EXPECT_FALSE(op.reduce_widens_ints);
    EXPECT_EQ(engine::default_result(op, dtype(type_id::int8)), dtype(type_id::int8));
  }
  EXPECT_EQ(engine::default_result(*find_op("logical_and"), dtype(type_id::int8)), dtype(type_id::bool_));
}

// The key is part of a loaded op's definition: the same op reloaded without it is another op.
TEST(ReductionRoutines, WideningIsPartOfALoadedOpsDefinition) {
  std::string yaml = widening_yaml;
  yaml.replace(yaml.find("rrtest_widening_add"), 19, "rrtest_widening_two");
  load_ops_from_string(yaml, "two.yaml");
  EXPECT_NO_THROW(load_ops_from_string(yaml, "two_again.yaml")) << "the same definition again is fine";
  yaml.erase(yaml.find("reduce_widens_ints: true\n"), 25);
  EXPECT_THROW(load_ops_from_string(yaml, "two_plain.yaml"), SpecError);
}

// The run-time reader gives every real spec the flag codegen gave the generated op.
TEST(ReductionRoutines, RunTimeReaderAgreesWithCodegenOnTheFlag) {
  namespace fs = std::filesystem;
  int widening = 0;
  for (const op_spec& op : builtin_ops()) {
    const fs::path file = fs::path(CUPP_SOURCE_DIR) / "specs" / "ufuncs" / (std::string(op.name) + ".yaml");
    if (!fs::exists(file)) continue;
    SCOPED_TRACE(file.string());
    const std::vector<detail::parsed_op> parsed = detail::parse_op_spec_file(file);
    ASSERT_EQ(parsed.size(), 1u);
    EXPECT_EQ(parsed[0].reduce_widens_ints, op.reduce_widens_ints);
    widening += op.reduce_widens_ints ? 1 : 0;
  }
  EXPECT_EQ(widening, 2) << "add and multiply";
  try {
    load_ops_from_string("name: rrtest_bad\ndoc: d\nnin: 2\nnout: 1\nreduce_widens_ints: 1\n"
                         "loops:\n  - sig: int8, int8 -> int8\n    body: out0 = in0;\n",
                         "bad.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const SpecError& e) {
    EXPECT_STREQ(e.what(), "bad.yaml:5: reduce_widens_ints must be true or false");
  }
}

}  // namespace
}  // namespace cupp
