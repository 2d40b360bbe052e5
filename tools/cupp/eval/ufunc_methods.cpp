// cupp eval: the ufunc methods u.reduce, u.reduceat and u.accumulate (u.outer is functions.cpp's),
// bound with NumPy's signatures (specs/routines/reductions.yaml and scans.yaml list them under
// methods:) by the same argument readers as the generated routine bindings. out= is refused
// (outputs go to the -o files). The routines (sum, cumsum, ...) are generated bindings.
#include <string>
#include <vector>

#include "arguments.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/scans.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace {

// out= given by position (the keyword is refused by arguments itself).
void refuse_out(const arguments& a, std::size_t i, const std::string& name) {
  if (a.has(i)) throw cupp::TypeError(name + "(): out= is not supported by cupp eval (outputs go to the -o files)");
}

}  // namespace

// u.reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>, where=True)
value call_ufunc_reduce(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const arguments a(std::string(f.name()) + ".reduce", {"array", "axis", "dtype", "out", "keepdims", "initial", "where"},
                    1, args, keywords);
  refuse_out(a, 3, std::string(f.name()) + ".reduce");
  // absent: the first axis (reduce_options' default for ufunc.reduce); None: every axis
  return value(f.reduce(a.array(0), {.axis = a.axes(1), .keepdims = a.boolean(4, false), .dtype = a.dtype(2),
                                     .initial = a.optional_number(5), .where = a.where_mask(6)}));
}

// u.reduceat(array, indices, axis=0, dtype=None, out=None): indices an integer array, a tuple of
// integers or one integer (NumPy's ValueError for a 0-d index comes from the library).
value call_ufunc_reduceat(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const arguments a(std::string(f.name()) + ".reduceat", {"array", "indices", "axis", "dtype", "out"}, 2, args,
                    keywords);
  refuse_out(a, 4, std::string(f.name()) + ".reduceat");
  cupp::ndarray indices;
  if (a.get(1).is_array()) {
    indices = a.array(1);
  } else if (arguments::is_int(a.get(1))) {
    indices = cupp::asarray(std::vector<std::int64_t>{a.to_int(a.get(1), 1)}).reshape(std::span<const std::int64_t>());
  } else {
    indices = cupp::asarray(a.integers(1));
  }
  return value(f.reduceat(a.array(0), indices, {.axis = a.integer(2, 0), .dtype = a.dtype(3)}));
}

// u.accumulate(array, axis=0, dtype=None, out=None)
value call_ufunc_accumulate(const cupp::ufunc& f, std::span<const value> args, std::span<const keyword_value> keywords) {
  const arguments a(std::string(f.name()) + ".accumulate", {"array", "axis", "dtype", "out"}, 1, args, keywords);
  refuse_out(a, 3, std::string(f.name()) + ".accumulate");
  return value(cupp::accumulate(f, a.array(0), {.axis = a.integer(1, 0), .dtype = a.dtype(2)}));
}

}  // namespace cupp::eval
