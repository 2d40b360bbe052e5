// Internal: op specs (specs/ufuncs/*.yaml's schema) read at run time with yaml-cpp and validated
// as codegen/model.py validates them: the same checks in the same order, the same dtype groups
// (the table codegen emits from specs/dtypes.yaml), the same loop expansion and order, the same
// duplicate and unreachable-loop rules against the same safe-cast table, and the same
// "FILE:LINE: message" errors (cupp::SpecError). YAML scalars are typed as PyYAML types them
// (YAML 1.1: `yes` is a bool, `0x1f` an int, a quoted "1" a string), so a value codegen
// rejects is rejected here too. Nothing here registers anything (load_ops.cpp does).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cupp/dtype.hpp"

namespace cupp::detail {

struct parsed_loop {
  std::vector<type_id> in, out;
  std::string body;  // stripped, as codegen stores it
  int line = 0;      // the loop's entry in `loops`
  bool raises = false;  // the body names raise_error (body_raises)
};

// The one rule for which loops raise, as codegen/model.py's body_raises states it: a loop may set
// the device error flag exactly when its body names cupp::dev::raise_error (the word
// `raise_error` anywhere in it). Only such loops make the engine read the flag.
bool body_raises(std::string_view body);

struct parsed_op {
  std::string file;  // as errors show it
  int line = 0;      // the op's mapping
  int name_line = 0;
  int aliases_line = 0;
  std::string name;
  std::string doc;
  int nin = 0, nout = 0;
  std::optional<std::string> identity;
  bool commutative = false;
  std::vector<std::string> aliases;
  std::vector<std::pair<type_id, int>> ulp;  // in the spec's order
  type_id int_inputs_as = type_id::void_;
  std::string bool_inputs_error;
  std::string raises;  // "ValueError: message", or empty
  bool weak_scalars_by_truth = false;
  bool reduce_widens_ints = false;  // reduce/accumulate widen bool and small ints (add, multiply)
  std::optional<std::pair<bool, bool>> python_int_out_of_range;  // (when_less, when_greater)
  std::vector<parsed_loop> loops;
};

// The ops in YAML text. The text holds one op (a mapping, as in specs/ufuncs/: then, when `stem`
// is not empty, the op must be named `stem`, as codegen requires of <name>.yaml), a list of ops,
// or several documents of one op each. `shown` names the file in errors. Throws SpecError.
std::vector<parsed_op> parse_op_specs(std::string_view text, const std::string& shown, std::string_view stem);
// The ops of a file (shown as `path` was given; stem: the file's name without extension).
std::vector<parsed_op> parse_op_spec_file(const std::filesystem::path& path);

}  // namespace cupp::detail
