// Loop resolution (NEP 50, first safe loop, promoters) checked against NumPy 2.5.2's recorded
// answers: for every reference case (sig_*, mix_*, pyscalar_*) of every op cupp registers, the
// output dtypes NumPy gave, or the error class it raised. No GPU: only the resolver runs. The
// expected values come from tests/conformance, never from specs/.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "conformance.hpp"
#include "cupp/errors.hpp"
#include "cupp/ops.hpp"
#include "engine/loop_resolution.hpp"

namespace cupp {
namespace {

// The error class a resolution raises ("" when it succeeds), with the value check the call does
// for weak integers (scalar to the loop's input dtype).
// With `last_is_scalar`, the last input names a Python scalar kind (pyscalar_* cases).
std::string resolve(const op_spec& op, const std::vector<std::string>& in, bool last_is_scalar,
                    std::vector<std::string>& out) {
  std::vector<weak_scalar> scalars;
  scalars.reserve(in.size());
  std::vector<engine::input_type> types;
  for (std::size_t k = 0; k < in.size(); ++k) {
    if (last_is_scalar && k + 1 == in.size()) {
      scalars.push_back(test::manifest_python_scalar(in[k]));
      types.push_back({dtype(type_id::bool_), &scalars.back()});
    } else {
      types.push_back({test::dtype_named(in[k]), nullptr});
    }
  }
  try {
    const engine::loop_choice c = engine::choose_loop(op, types, std::nullopt, casting::same_kind);
    const loop_spec& loop = op.loops[c.index];
    // NumPy 2's comparison promoter: an out-of-range Python int compares exactly (no value check).
    const bool exact =
        types.size() == 2 && engine::out_of_range_comparison(op, loop, types[0], types[1]).has_value();
    for (std::size_t k = 0; k < types.size() && !exact; ++k) {
      const weak_scalar* w = types[k].weak;
      if (w && !op.weak_scalars_by_truth && w->scalar_kind() == weak_scalar::kind::int_ &&
          dtype(loop.in[k]).is_integer() && !w->fits(loop.in[k]))
        throw OverflowError("out of bounds");
    }
    for (type_id t : loop.out) out.push_back(dtype(t).name());
    return "";
  } catch (const OverflowError&) {
    return "OverflowError";
  } catch (const TypeError&) {
    return "TypeError";
  }
}

TEST(LoopResolution, MatchesNumPyForEveryReferenceCase) {
  const YAML::Node manifest = test::load_yaml(test::conformance_path("numpy-ref/manifest.yaml"));
  int checked = 0, mismatches = 0;
  std::map<std::string, int> per_op;
  for (const auto& c : manifest["cases"]) {
    const std::string name = c["ufunc"].as<std::string>();
    const op_spec* op = find_op(name);
    if (!op || op->name != name) continue;  // not registered yet (or an alias: checked once)
    const std::string tag = c["case"].as<std::string>();
    std::vector<std::string> in;
    for (const auto& t : c["in"]) in.push_back(t.as<std::string>());
    std::vector<std::string> got;
    const std::string error = resolve(*op, in, tag.rfind("pyscalar_", 0) == 0, got);
    std::string expected_error;
    std::vector<std::string> expected;
    if (c["numpy_error"]) expected_error = test::cupp_error_class(c["numpy_error"].as<std::string>());
    else
      for (const auto& t : c["out"]) expected.push_back(t.as<std::string>());
    // An error that depends on the data (power: a negative integer exponent) is the op's
    // declared `raises`, checked on the GPU; resolution itself must succeed.
    const std::string_view raises = op->raises.substr(0, op->raises.find(':'));
    if (!expected_error.empty() && raises == expected_error && error.empty()) {
      ++checked;
      ++per_op[name];
      continue;
    }
    ++checked;
    ++per_op[name];
    if (error != expected_error || got != expected) {
      ++mismatches;
      ADD_FAILURE() << name << " " << tag << ": NumPy gives "
                    << (expected_error.empty() ? testing::PrintToString(expected) : expected_error) << ", cupp "
                    << (error.empty() ? testing::PrintToString(got) : error);
    }
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(checked, 1000) << "the reference manifest should hold many cases for cupp's ops";
  EXPECT_GE(per_op.size(), 15u) << "every registered op with reference data should be checked";
}

TEST(LoopResolution, DtypeArgumentPicksTheLoopByOutput) {
  const op_spec& add = *find_op("add");
  const std::vector<engine::input_type> ints = {{dtype(type_id::int64), nullptr}, {dtype(type_id::int64), nullptr}};
  const auto f32 = engine::choose_loop(add, ints, dtype(type_id::float32), casting::same_kind);
  EXPECT_EQ(dtype(add.loops[f32.index].out[0]), dtype(type_id::float32));
  // float64 inputs to an int32 loop: not same_kind.
  const std::vector<engine::input_type> doubles = {{dtype(type_id::float64), nullptr}, {dtype(type_id::float64), nullptr}};
  // float64 inputs with dtype=int32: the int32 loop, whose input cast same_kind then refuses
  // (NumPy's order of checks and message).
  const auto i32 = engine::choose_loop(add, doubles, dtype(type_id::int32), casting::same_kind);
  EXPECT_EQ(dtype(add.loops[i32.index].in[0]), dtype(type_id::int32));
  EXPECT_THROW(engine::check_input_casting(add, 0, dtype(type_id::float64), add.loops[i32.index].in[0], casting::same_kind),
               TypeError);
  EXPECT_NO_THROW(engine::choose_loop(add, doubles, dtype(type_id::int32), casting::unsafe));
  // No loop gives complex64 from bitwise_and.
  EXPECT_THROW(engine::choose_loop(*find_op("bitwise_and"), doubles, dtype(type_id::complex64), casting::unsafe), TypeError);
}

TEST(LoopResolution, MessagesNameTheUfuncAndDtypes) {
  const std::vector<engine::input_type> floats = {{dtype(type_id::float32), nullptr},
                                                  {dtype(type_id::float32), nullptr}};
  try {
    engine::choose_loop(*find_op("bitwise_and"), floats, std::nullopt, casting::same_kind);
    FAIL() << "bitwise_and has no float loop";
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "ufunc 'bitwise_and' did not contain a loop with signature matching types (dtype('float32'), "
                 "dtype('float32')) -> None");
  }
  const std::vector<engine::input_type> bools = {{dtype(type_id::bool_), nullptr}, {dtype(type_id::bool_), nullptr}};
  try {
    engine::choose_loop(*find_op("subtract"), bools, std::nullopt, casting::same_kind);
    FAIL() << "bool - bool is a TypeError in NumPy";
  } catch (const TypeError& e) {
    EXPECT_NE(std::string(e.what()).find("numpy boolean subtract"), std::string::npos) << e.what();
  }
  try {
    engine::check_input_casting(*find_op("add"), 1, dtype(type_id::int16), dtype(type_id::int8), casting::no);
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(), "Cannot cast ufunc 'add' input 1 from dtype('int16') to dtype('int8') with casting rule 'no'");
  }
  try {
    engine::check_output_casting(*find_op("add"), dtype(type_id::float64), dtype(type_id::int32), casting::same_kind);
    FAIL();
  } catch (const TypeError& e) {
    EXPECT_STREQ(e.what(),
                 "Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') with casting rule 'same_kind'");
  }
}

// The loop a weak scalar meets beside an array of `type` (scalar second, or first).
const loop_spec& loop_for(const op_spec& op, type_id type, const weak_scalar& value, bool scalar_first = false) {
  std::vector<engine::input_type> in = {{dtype(type), nullptr}, {dtype(type_id::bool_), &value}};
  if (scalar_first) std::swap(in[0], in[1]);
  return op.loops[engine::choose_loop(op, in, std::nullopt, casting::same_kind).index];
}

// NumPy 2's comparison promoter: an integer array with a Python int outside its dtype compares
// exactly. The truth: the value lies below every element when negative, above when not.
TEST(LoopResolution, ComparisonsWithOutOfRangePythonIntsAreExact) {
  struct relation {
    const char* name;
    bool (*holds)(int order);  // order: -1 when x1 < x2, +1 when x1 > x2
  };
  const relation relations[] = {
      {"equal", [](int) { return false; }},          {"not_equal", [](int) { return true; }},
      {"less", [](int o) { return o < 0; }},         {"less_equal", [](int o) { return o < 0; }},
      {"greater", [](int o) { return o > 0; }},      {"greater_equal", [](int o) { return o > 0; }},
  };
  struct outside {
    type_id type;
    weak_scalar value;
  };
  const outside values[] = {
      {type_id::uint8, weak_scalar(-1)},          {type_id::uint8, weak_scalar(256)},
      {type_id::int8, weak_scalar(-129)},         {type_id::int8, weak_scalar(128)},
      {type_id::int8, weak_scalar(300)},          {type_id::uint16, weak_scalar(65536)},
      {type_id::int16, weak_scalar(-32769)},      {type_id::uint32, weak_scalar(-1)},
      {type_id::int32, weak_scalar(std::int64_t{1} << 31)},
      {type_id::int64, weak_scalar(std::numeric_limits<std::uint64_t>::max())},  // beyond int64 entirely
      {type_id::int64, weak_scalar(std::uint64_t{1} << 63)},
      {type_id::uint64, weak_scalar(std::numeric_limits<std::int64_t>::min())},
      {type_id::uint64, weak_scalar(-1)},
  };
  int checked = 0;
  for (const relation& r : relations) {
    const op_spec& op = *find_op(r.name);
    ASSERT_TRUE(op.python_int_out_of_range) << r.name;
    for (const outside& v : values) {
      for (const bool scalar_first : {false, true}) {
        SCOPED_TRACE(std::string(r.name) + " " + dtype(v.type).name() + (scalar_first ? " scalar first" : ""));
        const loop_spec& loop = loop_for(op, v.type, v.value, scalar_first);
        EXPECT_EQ(dtype(loop.in[0]), dtype(v.type));
        const weak_scalar* x1 = scalar_first ? &v.value : nullptr;
        const weak_scalar* x2 = scalar_first ? nullptr : &v.value;
        const std::optional<bool> known = engine::out_of_range_comparison(op, loop, x1, x2);
        ASSERT_TRUE(known.has_value()) << "no OverflowError: the result is known";
        const int value_side = v.value.is_negative() ? -1 : 1;  // the scalar against every element
        EXPECT_EQ(*known, r.holds(scalar_first ? value_side : -value_side));
        ++checked;
      }
    }
    // In range (the extremes included): compared by the kernel as usual.
    const weak_scalar edge[] = {weak_scalar(255), weak_scalar(0)};
    for (const weak_scalar& w : edge)
      EXPECT_FALSE(engine::out_of_range_comparison(op, loop_for(op, type_id::uint8, w), nullptr, &w).has_value());
    // A float array: the int becomes a float, never out of range.
    const weak_scalar big(300);
    EXPECT_FALSE(engine::out_of_range_comparison(op, loop_for(op, type_id::float16, big), nullptr, &big).has_value());
    // Two Python ints (no array: the int64 loop), one beyond int64: compared exactly too.
    const weak_scalar huge(std::numeric_limits<std::uint64_t>::max()), small(5);
    const std::vector<engine::input_type> both = {{dtype(type_id::bool_), &huge}, {dtype(type_id::bool_), &small}};
    const loop_spec& ints = op.loops[engine::choose_loop(op, both, std::nullopt, casting::same_kind).index];
    EXPECT_EQ(engine::out_of_range_comparison(op, ints, &huge, &small), std::optional<bool>(r.holds(1)));
    EXPECT_EQ(engine::out_of_range_comparison(op, ints, &small, &huge), std::optional<bool>(r.holds(-1)));
  }
  EXPECT_EQ(checked, 6 * 13 * 2);
}

// The resolution with the value check the call makes: comparisons never raise OverflowError for
// an out-of-range Python int, arithmetic and bitwise ops still do (NumPy 2 / NEP 50).
TEST(LoopResolution, OutOfRangePythonIntsRaiseOnlyOutsideComparisons) {
  for (const char* name : {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}) {
    for (const char* type : {"uint8", "int8", "int16", "uint32", "int64", "uint64"}) {
      for (const char* kind : {"int300", "intneg"}) {
        std::vector<std::string> out;
        EXPECT_EQ(resolve(*find_op(name), {type, kind}, true, out), "") << name << " " << type << " " << kind;
        EXPECT_EQ(out, std::vector<std::string>{"bool"});
      }
    }
  }
  for (const char* name : {"add", "subtract", "multiply", "maximum", "bitwise_and", "power"}) {
    const op_spec& op = *find_op(name);
    EXPECT_FALSE(op.python_int_out_of_range) << name;
    std::vector<std::string> out;
    EXPECT_EQ(resolve(op, {"uint8", "intneg"}, true, out), "OverflowError") << name;
    EXPECT_EQ(resolve(op, {"int8", "int300"}, true, out), "OverflowError") << name;
    const weak_scalar minus_one(-1);
    EXPECT_FALSE(
        engine::out_of_range_comparison(op, loop_for(op, type_id::uint8, minus_one), nullptr, &minus_one).has_value());
  }
  // dtype= that picks a narrower loop (int16 array, dtype=bool: the int8 loop under same_kind):
  // the elements need not lie in the loop's range, so no outcome is claimed (OverflowError).
  const op_spec& less = *find_op("less");
  const weak_scalar w200(200);
  const std::vector<engine::input_type> narrowed = {{dtype(type_id::int16), nullptr}, {dtype(type_id::bool_), &w200}};
  const loop_spec& int8_loop = less.loops[engine::choose_loop(less, narrowed, dtype(type_id::bool_), casting::same_kind).index];
  if (dtype(int8_loop.in[0]) == dtype(type_id::int8))
    EXPECT_FALSE(engine::out_of_range_comparison(less, int8_loop, narrowed[0], narrowed[1]).has_value());
  const std::vector<engine::input_type> exact_types = {{dtype(type_id::int8), nullptr}, {dtype(type_id::bool_), &w200}};
  EXPECT_EQ(engine::out_of_range_comparison(less, int8_loop, exact_types[0], exact_types[1]), std::optional<bool>(true));
  // Logical ops take weak scalars by truth: no OverflowError either (nothing to compare).
  std::vector<std::string> out;
  EXPECT_EQ(resolve(*find_op("logical_and"), {"uint8", "intneg"}, true, out), "");
}

// `raises` is per loop: a loop raises exactly when its body names cupp::dev::raise_error, so the
// engine reads the error flag (a stream synchronisation) after power's signed integer loops only.
TEST(LoopResolution, OnlyPowersSignedIntegerLoopsRaise) {
  const op_spec& power = *find_op("power");
  ASSERT_FALSE(power.raises.empty());
  int raising = 0;
  for (const loop_spec& loop : power.loops) {
    const dtype t(loop.in[0]);
    EXPECT_EQ(loop.raises, t.kind() == 'i') << loop_signature(loop);
    EXPECT_EQ(loop.raises, loop.body.find("raise_error") != std::string_view::npos) << loop_signature(loop);
    raising += loop.raises;
  }
  EXPECT_EQ(raising, 4);
  // Every other op: no loop raises unless the op declares `raises`.
  for (const op_spec& op : builtin_ops())
    for (const loop_spec& loop : op.loops)
      if (op.raises.empty()) EXPECT_FALSE(loop.raises) << op.name << " " << loop_signature(loop);
}

}  // namespace
}  // namespace cupp
