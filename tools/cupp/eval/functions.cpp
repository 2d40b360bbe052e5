// cupp eval: the function table and the ufunc call adapter (keyword arguments -> ufunc_options).
#include "functions.hpp"

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/promotion.hpp"
#include "evaluator.hpp"

namespace cupp::eval {

namespace {

std::string callee(std::string_view name) { return std::string(name) + "()"; }

[[noreturn]] void unexpected_keyword(std::string_view function, std::string_view keyword) {
  throw cupp::TypeError(callee(function) + " got an unexpected keyword argument '" + std::string(keyword) + "'");
}

void check_positional(std::string_view function, std::size_t want, std::size_t got) {
  if (want == got) return;
  throw cupp::TypeError(callee(function) + " takes " + std::to_string(want) + " positional argument" +
                        (want == 1 ? "" : "s") + " but " + std::to_string(got) + (got == 1 ? " was" : " were") +
                        " given");
}

cupp::casting parse_casting(const value& v) {
  static constexpr std::array<std::pair<std::string_view, cupp::casting>, 5> rules = {{
      {"no", cupp::casting::no}, {"equiv", cupp::casting::equiv}, {"safe", cupp::casting::safe},
      {"same_kind", cupp::casting::same_kind}, {"unsafe", cupp::casting::unsafe}}};
  if (v.is_string()) {
    for (const auto& [name, rule] : rules) {
      if (v.string() == name) return rule;
    }
  }
  throw cupp::ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

std::optional<cupp::dtype> parse_dtype(const value& v, std::string_view function) {
  if (v.is_none()) return std::nullopt;
  if (!v.is_string())
    throw cupp::TypeError(callee(function) + ": dtype must be a string such as 'float32', not '" + v.type_name() + "'");
  return cupp::dtype::parse(v.string());
}

cupp::ufunc_options ufunc_keywords(std::string_view function, std::span<const keyword_value> keywords) {
  cupp::ufunc_options options;
  for (const auto& k : keywords) {
    if (k.name == "out") {
      throw cupp::ValueError(callee(function) + ": out= is not allowed in cupp eval; name the output files with -o");
    } else if (k.name == "dtype") {
      options.dtype = parse_dtype(k.v, function);
    } else if (k.name == "casting") {
      options.casting = parse_casting(k.v);
    } else if (k.name == "where") {
      if (k.v.is_array()) {
        options.where = k.v.array();
      } else if (!(k.v.is_none() || (k.v.is_scalar() && k.v.scalar().k == py_scalar::kind::bool_ && k.v.scalar().b))) {
        throw cupp::TypeError(callee(function) + ": where= must be a boolean array (or True), not '" +
                              k.v.type_name() + "'");
      }
    } else {
      unexpected_keyword(function, k.name);
    }
  }
  return options;
}

value outputs(std::vector<cupp::ndarray> results) {
  if (results.size() == 1) return value(std::move(results.front()));
  tuple_value t;
  for (auto& r : results) t.emplace_back(std::move(r));
  return value(std::move(t));
}

// float32(x): a strong scalar of that dtype from a number, or an array cast to it (unsafe, as
// np.float32(array) / astype does).
function dtype_constructor(std::string name) {
  return [name](std::span<const value> args, std::span<const keyword_value> keywords) -> value {
    if (!keywords.empty()) unexpected_keyword(name, keywords.front().name);
    check_positional(name, 1, args.size());
    const cupp::dtype type = cupp::dtype::parse(name == "bool_" ? "bool" : name);
    if (args[0].is_array()) return value(cupp::astype(args[0].array(), type));
    if (args[0].is_scalar()) return value(cupp::scalar(to_weak(args[0].scalar()), type));
    throw cupp::TypeError(callee(name) + " argument must be an array or a number, not '" +
                          std::string(args[0].type_name()) + "'");
  };
}

// view(a, dtype): a.view(dtype), NumPy's ndarray.view (the same bytes read as another dtype).
value view_function(std::span<const value> args, std::span<const keyword_value> keywords) {
  std::vector<value> all(args.begin(), args.end());
  for (const auto& k : keywords) {
    if (k.name != "dtype") unexpected_keyword("view", k.name);
    all.push_back(k.v);
  }
  check_positional("view", 2, all.size());
  if (!all[0].is_array())
    throw cupp::TypeError("view() argument 1 must be an array, not '" + std::string(all[0].type_name()) + "'");
  const std::optional<cupp::dtype> type = parse_dtype(all[1], "view");
  if (!type) return all[0];
  return value(all[0].array().view(*type));
}

// Python's slice(stop) / slice(start, stop[, step]): a slice object, for an index given as an
// argument (delete(a, slice(None, None, 2)), ufunc.at's indices). Its bounds are read as a[i:j:k]
// reads them (ints, bools, None, 0-d integer arrays); Python's slice takes no keywords.
value slice_function(std::span<const value> args, std::span<const keyword_value> keywords) {
  if (!keywords.empty()) throw cupp::TypeError("slice() takes no keyword arguments");
  if (args.empty() || args.size() > 3)
    throw cupp::TypeError("slice expected at least 1 argument, got " + std::to_string(args.size()) +
                          (args.size() > 3 ? " (at most 3)" : ""));
  if (args.size() == 1) return value(cupp::slice(index_bound(args[0])));
  return value(cupp::slice(index_bound(args[0]), index_bound(args[1]),
                           args.size() == 3 ? index_bound(args[2]) : std::nullopt));
}

}  // namespace

std::unique_lock<std::mutex> lock_if_raising(const cupp::ufunc& f) {
  static std::mutex raising;
  if (f.spec().raises.empty()) return {};
  return std::unique_lock<std::mutex>(raising);
}

cupp::operand to_operand(const value& v, std::string_view function, std::size_t position) {
  if (v.is_array()) return cupp::operand(v.array());
  if (v.is_scalar()) return cupp::operand(to_weak(v.scalar()));
  throw cupp::TypeError(callee(function) + " argument " + std::to_string(position + 1) +
                        " must be an array or a number, not '" + v.type_name() + "'");
}

value call_ufunc(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const std::string_view name = f.name();
  check_positional(name, static_cast<std::size_t>(f.nin()), args.size());
  const cupp::ufunc_options options = ufunc_keywords(name, keywords);
  std::vector<cupp::operand> operands;
  operands.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) operands.push_back(to_operand(args[i], name, i));
  const auto lock = lock_if_raising(f);
  return outputs(f.call(operands, options));
}

value call_ufunc_outer(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const std::string name = std::string(f.name()) + ".outer";
  check_positional(name, 2, args.size());
  const cupp::ufunc_options options = ufunc_keywords(name, keywords);
  const auto lock = lock_if_raising(f);
  return value(f.outer(to_operand(args[0], name, 0), to_operand(args[1], name, 1), options));
}

function_table function_table::builtins() {
  function_table t;
  for (const char* name : {"bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                           "float16", "bfloat16", "float32", "float64", "complex64", "complex128"}) {
    t.add(name, dtype_constructor(name));
  }
  t.add("view", view_function);
  t.add("slice", slice_function);
  add_manipulation(t);
  add_searching(t);
  add_linalg_solvers(t);
  add_generated_bindings(t);
  add_sparse(t);
  return t;
}

value function_table::load(const std::filesystem::path& file) const {
  const std::string name = file.filename().string();
  for (const auto& [suffix, f] : loaders_) {
    if (name.size() >= suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
      return f(file);
  }
  return value(cupp::load(file));
}

bool function_table::is_ufunc_method(std::string_view method) noexcept {
  return method == "outer" || method == "reduce" || method == "reduceat" || method == "accumulate";
}

const function* function_table::find(std::string_view name) const {
  const auto it = table_.find(name);
  return it == table_.end() ? nullptr : &it->second;
}

value function_table::call(std::string_view name, std::span<const value> args,
                           std::span<const keyword_value> keywords) const {
  for (const value& a : args) {  // a module's object among the arguments: it is asked first
    if (!a.is_object()) continue;
    if (std::optional<value> r = a.object().call_function(name, args, keywords)) return std::move(*r);
    break;
  }
  if (const function* f = find(name)) return (*f)(args, keywords);
  const auto dot = name.find('.');
  if (dot != std::string_view::npos) {
    const std::string_view method = name.substr(dot + 1);
    if (method == "outer") return call_ufunc_outer(cupp::ufunc::get(name.substr(0, dot)), args, keywords);
    if (method == "reduce") return call_ufunc_reduce(cupp::ufunc::get(name.substr(0, dot)), args, keywords);
    if (method == "reduceat") return call_ufunc_reduceat(cupp::ufunc::get(name.substr(0, dot)), args, keywords);
    if (method == "accumulate") return call_ufunc_accumulate(cupp::ufunc::get(name.substr(0, dot)), args, keywords);
    throw cupp::ValueError("cupp eval has no function '" + std::string(name) + "'");
  }
  return call_ufunc(ufunc_callee(name), args, keywords);
}

const cupp::ufunc& function_table::ufunc_callee(std::string_view name) {
  try {
    return cupp::ufunc::get(name);
  } catch (const cupp::ValueError&) {  // ufunc::get's "cupp has no ufunc": no function either
    throw cupp::ValueError("cupp eval has no function '" + std::string(name) + "'");
  }
}

}  // namespace cupp::eval
