// cupp eval: what a call f(...) in an expression runs. A small table of named callables comes
// first (a reduction such as sum(a, axis=(0, 2), keepdims=True) is added here by registering
// a function); any other name is looked up as a ufunc (a name that is neither is the ValueError
// "cupp eval has no function 'NAME'"). "u.outer" calls the ufunc u's outer method (ValueError
// "cupp has no ufunc 'u'" when u is none). A call with a module's object among its positional
// arguments asks that object first (object_value::call_function). Loaders read NAME=FILE inputs
// that are no .npy by their suffix (a module registers one: sparse's .npz).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>

#include "cupp/ufunc.hpp"
#include "value.hpp"

namespace cupp::eval {

using function = std::function<value(std::span<const value> args, std::span<const keyword_value> keywords)>;
using loader = std::function<value(const std::filesystem::path& file)>;

class function_table {
 public:
  // The functions cupp eval knows besides the ufuncs: the dtype names as casts and strong
  // scalars (float32(2.5), int8(a)), and view(a, 'bfloat16') (a.view(dtype): the same bytes as
  // another dtype, e.g. bfloat16 stored as uint16 bit patterns).
  static function_table builtins();

  void add(std::string name, function f) { table_.insert_or_assign(std::move(name), std::move(f)); }
  const function* find(std::string_view name) const;

  // NAME=FILE inputs: a file whose name ends with `suffix` (".npz") is read by `f`; any other by
  // cupp::load (a .npy file as an array).
  void add_loader(std::string suffix, loader f) { loaders_.insert_or_assign(std::move(suffix), std::move(f)); }
  value load(const std::filesystem::path& file) const;

  // The ufunc methods `u.METHOD(...)` calls: outer, reduce, reduceat, accumulate.
  static bool is_ufunc_method(std::string_view method) noexcept;

  // The ufunc a call of `name` (no table function, no dot) runs: cupp::ufunc::get(name), or the
  // ValueError "cupp eval has no function 'NAME'" when there is none.
  static const cupp::ufunc& ufunc_callee(std::string_view name);

  // Runs `name`: the table's function, else u.outer / u.reduce / ... / the ufunc of that name.
  value call(std::string_view name, std::span<const value> args, std::span<const keyword_value> keywords) const;

 private:
  std::map<std::string, function, std::less<>> table_;
  std::map<std::string, loader, std::less<>> loaders_;
};

// A ufunc call with NumPy's keyword arguments dtype=, casting=, where= (out= is refused: cupp
// eval writes outputs to the -o files). One output gives an array, several a tuple.
value call_ufunc(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords);
value call_ufunc_outer(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords);
// u.reduce, u.reduceat and u.accumulate with NumPy's signatures (ufunc_methods.cpp).
value call_ufunc_reduce(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords);
value call_ufunc_reduceat(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords);
value call_ufunc_accumulate(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords);
// Registers pad, clip and where, whose arguments the typed signatures cannot express
// (manipulation.cpp; the rest of the family is generated).
void add_manipulation(function_table& t);
// Registers every routine whose spec (specs/routines/) has a typed signature and a call: the
// bindings codegen writes into generated/tools/eval_bindings.cpp.
void add_generated_bindings(function_table& t);
// Registers unique, whose tuple follows its flags (searching.cpp; the rest of the family is generated).
void add_searching(function_table& t);
// Registers linalg.qr, the norms, cho_factor, lu_solve and cho_solve (linalg_solvers.cpp; the rest
// of the family is generated).
void add_linalg_solvers(function_table& t);
// Registers the sparse module's constructors (sparse.csr_matrix(a), sparse.random, sparse.eye,
// sparse.diags, ...), its stand-ins for the methods and attributes (sparse.toarray(s), ...), the
// .npz loader and its objects' @ (sparse.cpp).
void add_sparse(function_table& t);

// Held around a call of `f` when f raises from the data (its spec's `raises`, e.g. power): such
// an op's kernels share one device error flag per compiled program, which the engine reads and
// resets after each launch, so two threads calling it at once (cupp eval --batch --jobs N) could
// see each other's error. Those calls are serialised; any other op's lock is empty.
std::unique_lock<std::mutex> lock_if_raising(const cupp::ufunc& f);

// A value as a ufunc operand: an array, or a scalar as a weak scalar; TypeError otherwise.
cupp::operand to_operand(const value& v, std::string_view function, std::size_t position);

}  // namespace cupp::eval
