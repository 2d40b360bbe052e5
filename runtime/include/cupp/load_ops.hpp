// Ops from YAML at run time: cupp::load_ops reads op specs in the schema of specs/ufuncs/*.yaml
// (docs/writing-specs.md), validates them exactly as the build's generator does, and registers
// each as a ufunc that works like a built-in one:
//
//   std::vector<cupp::ufunc> mine = cupp::load_ops("my_ops.yaml");
//   const cupp::ufunc& f = cupp::ufunc::get("axpb");          // found by name, like "add"
//   cupp::ndarray y = f(x, 2.0, {.out = y0, .where = mask});   // NEP 50, out=, where=, dtype=, casting=
//
// Kernels are composed by the same composer as built-in ops' and compiled by NVRTC on first use
// (the same kernel cache, in memory and on disk). docs/load-ops.md is the guide.
//
// A file holds one op (a mapping, as in specs/ufuncs/: the file must then be named <name>.yaml,
// as the generator requires), a list of ops, or several YAML documents of one op each (any file
// name). A file is loaded all or nothing: any error leaves the registry as it was.
//
// Errors are cupp::SpecError (a ValueError) with what() = "FILE:LINE: message", FILE as given:
// every check of codegen/ (unknown or missing keys, bad arity, undefined dtypes or groups, a body
// that never assigns an output, duplicate or unreachable loops, ...), plus
//   - a name or alias that a built-in op already has ("add", "abs"): an error;
//   - a name or alias that another loaded op already has: an error, unless that op has exactly
//     the same definition, which is then reused. So loading a file twice is idempotent (the
//     second call returns the same ufuncs), while loading a changed definition under a name
//     already loaded is an error: a loaded op is never replaced or removed (running kernels,
//     ufunc objects and cached programs refer to it until the process exits).
// Loading is thread-safe, and so is calling loaded ops from any thread.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/ufunc.hpp"

namespace cupp {

// Loads the ops of a YAML file; returns their ufuncs in the file's order. Throws SpecError.
std::vector<ufunc> load_ops(const std::filesystem::path& file);

// The same for YAML text; `shown` names it in errors. A single op in the text may have any name.
std::vector<ufunc> load_ops_from_string(std::string_view yaml, const std::string& shown = "<string>");

// Every op loaded so far, in load order.
std::vector<ufunc> loaded_ops();

}  // namespace cupp
