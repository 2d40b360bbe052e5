// Loop resolution (NEP 50, first safe loop, promoters) checked against NumPy 2.5.2's recorded
// answers: for every reference case (sig_*, mix_*, pyscalar_*) of every op cupp registers, the
// output dtypes NumPy gave, or the error class it raised. No GPU: only the resolver runs. The
// expected values come from tests/conformance, never from specs/.
#include <gtest/gtest.h>

#include <complex>
#include <map>
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
    for (std::size_t k = 0; k < types.size(); ++k) {
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
    // Documented deviation (docs/deviations.md): NumPy compares an array with an out-of-range
    // Python int exactly; cupp raises OverflowError as for arithmetic.
    const bool comparison = name == "equal" || name == "not_equal" || name == "less" || name == "less_equal" ||
                            name == "greater" || name == "greater_equal";
    if (comparison && (tag.find("_int300") != std::string::npos || tag.find("_intneg") != std::string::npos) &&
        error == "OverflowError") {
      ++checked;
      continue;
    }
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

}  // namespace
}  // namespace cupp
