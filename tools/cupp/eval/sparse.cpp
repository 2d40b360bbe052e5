// cupp eval: the sparse module (cupp/sparse.hpp) in expressions. Its matrices are object values
// (object_value), so the evaluator knows nothing of the module: sparse.csr_matrix(a),
// sparse.csr_array(a), sparse.csc_matrix(a), sparse.coo_matrix(a) (and *_array) from a dense array,
// another sparse value, a shape or SciPy's (data, indices, indptr) / (data, (row, col)) tuples;
// sparse.random / random_array, sparse.eye / eye_array / identity, sparse.diags / diags_array;
// functions for the methods and attributes eval's syntax lacks (sparse.toarray(s), sparse.nnz(s),
// ...; transpose(s) and shape(s) as NumPy's functions call s.transpose() and s.shape). s @ d,
// d @ s, s @ t and matmul(...) run cupp::sparse::matmul with SciPy's result types and messages.
// A sparse result is written with save_npz (-o FILE.npz); NAME=FILE.npz reads one with load_npz.
#include "sparse.hpp"

// GCC warns -Wmaybe-uninitialized (at sparse.hpp's class coo) when a std::variant holding a
// cupp::sparse::coo is moved, though every member of coo has an initialiser: a false positive of
// the inlined variant move. Before the includes, since the warning points into the header.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <type_traits>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "arguments.hpp"
#include "cupp/errors.hpp"
#include "cupp/sparse.hpp"
#include "functions.hpp"

namespace cupp::eval {

namespace sp = cupp::sparse;

std::optional<std::string> sparse_matmul_error(std::array<std::int64_t, 2> sparse_shape,
                                               std::span<const std::int64_t> dense_shape, bool dense_on_left) {
  if (dense_shape.empty()) return std::string("Scalar operands are not allowed, use '*' instead");
  if (dense_shape.size() > 2) return std::string("could not interpret dimensions");
  // SciPy's D @ S is (S.T @ D.T).T: S.T has S's rows as its columns; D.T's rows are D's last axis
  const std::int64_t n = dense_on_left ? sparse_shape[0] : sparse_shape[1];
  const std::int64_t k = dense_on_left ? dense_shape.back() : dense_shape.front();
  const bool vector = dense_shape.size() == 1 || (dense_on_left ? dense_shape[0] == 1 : dense_shape[1] == 1);
  if (k == n) return std::nullopt;
  return "matmul: dimension mismatch with signature (n,k=" + std::to_string(n) + "),(k=" + std::to_string(k) +
         (vector ? ",1?)->(n,1?)" : ",m)->(n,m)");
}

std::string sparse_format_name(std::optional<std::string_view> format, std::string_view fallback,
                               std::string_view routine) {
  const std::string_view f = format ? *format : fallback;
  if (f == "csr" || f == "csc" || f == "coo") return std::string(f);
  if (f == "dia" || f == "lil" || f == "dok" || f == "bsr")
    throw cupp::ValueError(std::string(routine) + ": format='" + std::string(f) +
                           "' is not a cupp eval sparse value (csr, csc or coo)");
  throw cupp::ValueError("unrecognized format '" + std::string(f) + "'");
}

namespace {

using span_v = std::span<const value>;
using span_k = std::span<const keyword_value>;
using sparse_any = std::variant<sp::csr, sp::csc, sp::coo>;

sp::shape2 shape_of(const sparse_any& m) {
  return std::visit([](const auto& x) { return x.shape(); }, m);
}
bool is_array_kind(const sparse_any& m) {
  return std::visit([](const auto& x) { return x.is_array(); }, m);
}
sp::csr to_csr(const sparse_any& m) {
  return std::visit([](const auto& x) { return x.tocsr(); }, m);
}
cupp::ndarray to_dense(const sparse_any& m) {
  return std::visit([](const auto& x) { return x.toarray(); }, m);
}

// A CSR result as `format` ("csr", "csc", "coo"), its kind kept.
sparse_any as_format(const sp::csr& m, std::string_view format) {
  if (format == "csc") return m.tocsc();
  if (format == "coo") return m.tocoo();
  return m;
}
sparse_any with_kind(const sparse_any& m, sp::kind k) {
  return std::visit([k](const auto& x) { return sparse_any(x.with_kind(k)); }, m);
}

class sparse_object final : public object_value {
 public:
  explicit sparse_object(sparse_any m) : m_(std::move(m)) {}
  const sparse_any& get() const noexcept { return m_; }

  const char* type_name() const noexcept override {
    static constexpr std::array<std::array<const char*, 2>, 3> names = {
        {{"csr_matrix", "csr_array"}, {"csc_matrix", "csc_array"}, {"coo_matrix", "coo_array"}}};
    return names[m_.index()][is_array_kind(m_) ? 1 : 0];
  }

  // SciPy's __repr__ (1.13 and later), with its line break and tab.
  std::string repr() const override {
    static constexpr std::array<const char*, 3> formats = {"Compressed Sparse Row", "Compressed Sparse Column",
                                                           "COOrdinate"};
    const sp::shape2 s = shape_of(m_);
    const std::int64_t nnz = std::visit([](const auto& x) { return x.nnz(); }, m_);
    const cupp::dtype t = std::visit([](const auto& x) { return x.dtype(); }, m_);
    return std::string("<") + formats[m_.index()] + " sparse " + (is_array_kind(m_) ? "array" : "matrix") +
           " of dtype '" + t.name() + "'\n\twith " + std::to_string(nnz) + " stored elements and shape (" +
           std::to_string(s[0]) + ", " + std::to_string(s[1]) + ")>";
  }

  std::optional<value> matmul(const value& other, bool reflected) const override;

  std::optional<value> call_function(std::string_view name, span_v args, span_k keywords) const override;

  // save_npz: FILE.npz, or a name without a suffix (SciPy's save_npz appends .npz, as np.savez).
  void check_save(const std::string& path) const override { (void)npz_path(path); }
  void save(const std::string& path) const override {
    const std::string file = npz_path(path);
    std::visit([&](const auto& x) { sp::save_npz(file, x); }, m_);
  }

 private:
  sparse_any m_;

  std::string npz_path(const std::string& path) const {
    const std::string name = std::filesystem::path(path).filename().string();
    if (name.ends_with(".npz")) return path;
    if (name.find('.') != std::string::npos)
      throw cupp::TypeError(std::string("the result is a ") + type_name() +
                            ", which is saved as SciPy's .npz (save_npz): name the output FILE.npz, not '" + path +
                            "' (or save sparse.toarray(...) as .npy)");
    return path + ".npz";
  }
};

value wrap(sparse_any m) { return value(object_ptr(std::make_shared<const sparse_object>(std::move(m)))); }

const sparse_object* sparse_of(const value& v) {
  return v.is_object() ? dynamic_cast<const sparse_object*>(&v.object()) : nullptr;
}

const sparse_any& sparse_argument(const value& v, std::string_view routine) {
  if (const sparse_object* s = sparse_of(v)) return s->get();
  throw cupp::TypeError(std::string(routine) + "() argument must be a sparse matrix or array, not '" + v.type_name() +
                        "'");
}

// S @ other (reflected: other @ S), SciPy's _matmul_dispatch / _rmatmul_dispatch.
std::optional<value> sparse_object::matmul(const value& other, bool reflected) const {
  const sp::shape2 s = shape_of(m_);
  if (other.is_scalar()) throw cupp::ValueError("Scalar operands are not allowed, use '*' instead");
  if (const sparse_object* o = sparse_of(other)) {
    if (reflected) return o->matmul(wrap(m_), false);  // (never reached: the left operand is asked first)
    const sp::shape2 t = shape_of(o->get());
    if (s[1] != t[0])
      throw cupp::ValueError("matmul: dimension mismatch with signature (n,k=" + std::to_string(s[1]) + "),(k=" +
                             std::to_string(t[0]) + ",m)->(n,m)");
    // SciPy converts the right operand to this format and returns this format's class (coo: csr)
    const sp::csr product = sp::matmul(to_csr(m_), to_csr(o->get()));
    return wrap(m_.index() == 1 ? sparse_any(product.tocsc()) : sparse_any(product));
  }
  if (!other.is_array()) return std::nullopt;
  const cupp::ndarray& d = other.array();
  if (std::optional<std::string> e = sparse_matmul_error(s, d.shape(), reflected)) throw cupp::ValueError(*e);
  return std::visit(
      [&](const auto& x) -> value {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, sp::coo>) {
          const sp::csr c = x.tocsr();
          return value(reflected ? sp::matmul(d, c) : sp::matmul(c, d));
        } else {
          return value(reflected ? sp::matmul(d, x) : sp::matmul(x, d));
        }
      },
      m_);
}

// NumPy's functions that call the object's own method: matmul(a, b) is a @ b, transpose(s) is
// s.transpose(), shape(s) is s.shape, ndim(s) 2.
std::optional<value> sparse_object::call_function(std::string_view name, span_v args, span_k keywords) const {
  if (name == "matmul") {
    if (args.size() != 2 || !keywords.empty())
      throw cupp::TypeError("matmul() with a sparse operand takes two positional arguments and no keywords in cupp eval");
    std::optional<value> r;
    if (const sparse_object* a = sparse_of(args[0])) r = a->matmul(args[1], false);
    if (!r) {
      if (const sparse_object* b = sparse_of(args[1])) r = b->matmul(args[0], true);
    }
    if (!r)
      throw cupp::TypeError("unsupported operand type(s) for matmul: '" + std::string(args[0].type_name()) + "' and '" +
                            args[1].type_name() + "'");
    return r;
  }
  if (args.size() != 1 || !keywords.empty() || sparse_of(args[0]) != this) return std::nullopt;
  if (name == "transpose")
    return wrap(std::visit([](const auto& x) { return sparse_any(x.transpose()); }, m_));
  if (name == "shape") {
    const sp::shape2 s = shape_of(m_);
    return value(tuple_value{value(py_scalar::integer(s[0])), value(py_scalar::integer(s[1]))});
  }
  if (name == "ndim") return value(py_scalar::integer(2));
  return std::nullopt;
}

// A value as a dense array for the constructors: an array, or a Python number as a 0-d array.
cupp::ndarray dense_item(const value& v, std::string_view routine, const char* what) {
  if (v.is_array()) return v.array();
  if (v.is_scalar()) {
    const std::vector<value> one = {v};
    return arguments(std::string(routine), {what}, 1, one, {}).array_like(0);
  }
  throw cupp::TypeError(std::string(routine) + "(): '" + what + "' must be an array, not '" + v.type_name() + "'");
}

std::optional<sp::shape2> shape2_argument(const arguments& a, std::size_t i, std::string_view routine) {
  if (!a.has(i)) return std::nullopt;
  const cupp::shape_t s = a.shape(i);
  if (s.size() != 2)
    throw cupp::ValueError(std::string(routine) + ": shape must be a 2-tuple (M, N) in cupp eval, got " +
                           std::to_string(s.size()) + " dimension(s)");
  if (s[0] < 0 || s[1] < 0) throw cupp::ValueError("'shape' elements cannot be negative");
  return sp::shape2{s[0], s[1]};
}

// csr_matrix(arg1, shape=None, dtype=None, copy=False) and the other five classes.
function constructor(std::string routine, std::string format, sp::kind kind) {
  return [routine, format, kind](span_v args, span_k kw) -> value {
    const arguments a(routine, {"arg1", "shape", "dtype", "copy"}, 1, args, kw);
    sp::options opts;
    opts.shape = shape2_argument(a, 1, routine);
    opts.dtype = a.dtype(2);
    opts.copy = a.boolean(3, false);
    const value& arg = a.get(0);
    std::optional<sparse_any> made;  // (no default object: an empty csr would allocate)
    if (const sparse_object* s = sparse_of(arg)) {  // another sparse value: a conversion
      if (opts.shape && *opts.shape != shape_of(s->get()))
        throw cupp::ValueError(routine + ": shape " + std::to_string((*opts.shape)[0]) + "x" +
                               std::to_string((*opts.shape)[1]) + " does not match the sparse argument's");
      made = std::visit(
          [&](const auto& x) -> sparse_any {
            if (format == "csr") return x.tocsr(opts.copy);
            if (format == "csc") return x.tocsc(opts.copy);
            return x.tocoo(opts.copy);
          },
          s->get());
      if (opts.dtype) made = std::visit([&](const auto& x) { return sparse_any(x.astype(*opts.dtype, false)); }, *made);
    } else if (arg.is_tuple() && !arg.tuple().empty() && arg.tuple()[0].is_scalar()) {  // (M, N): empty
      const cupp::shape_t s = a.shape(0);
      if (s.size() != 2) throw cupp::ValueError(routine + ": a shape argument must be (M, N)");
      const sp::shape2 shape{s[0], s[1]};
      if (format == "csr") made = sp::csr(shape, opts);
      else if (format == "csc") made = sp::csc(shape, opts);
      else made = sp::coo(shape, opts);
    } else if (arg.is_tuple() && arg.tuple().size() == 2 && arg.tuple()[1].is_tuple()) {  // (data, (row, col))
      const tuple_value& ij = arg.tuple()[1].tuple();
      if (ij.size() != 2) throw cupp::TypeError(routine + ": (data, (row, col)) needs two index arrays");
      const sp::coords c{dense_item(ij[0], routine, "row"), dense_item(ij[1], routine, "col")};
      const cupp::ndarray data = dense_item(arg.tuple()[0], routine, "data");
      if (format == "csr") made = sp::csr(data, c, opts);
      else if (format == "csc") made = sp::csc(data, c, opts);
      else made = sp::coo(data, c, opts);
    } else if (arg.is_tuple() && arg.tuple().size() == 3) {  // (data, indices, indptr)
      const tuple_value& t = arg.tuple();
      if (format == "coo") throw cupp::TypeError(routine + ": (data, indices, indptr) is for csr and csc");
      const cupp::ndarray data = dense_item(t[0], routine, "data"), indices = dense_item(t[1], routine, "indices"),
                          indptr = dense_item(t[2], routine, "indptr");
      if (format == "csr") made = sp::csr(data, indices, indptr, opts);
      else made = sp::csc(data, indices, indptr, opts);
    } else if (arg.is_array()) {  // dense
      const cupp::ndarray& d = arg.array();
      if (d.ndim() > 2) throw cupp::TypeError("expected dimension <= 2 array or matrix");
      if (format == "csr") made = sp::csr(d, opts);
      else if (format == "csc") made = sp::csc(d, opts);
      else made = sp::coo(d, opts);
    } else {
      throw cupp::TypeError(routine + "() argument must be an array, a sparse value, a shape (M, N) or SciPy's "
                            "(data, indices, indptr) / (data, (row, col)) tuple, not '" + arg.type_name() + "'");
    }
    return wrap(with_kind(*made, kind));
  };
}

// random(m, n, density=0.01, format='coo', dtype=None, rng=None) (random_state= too, SciPy's old
// name; an int seed or None) and random_array(shape, *, density=0.01, format='coo', dtype=None, rng=None).
sp::random_options random_keywords(const arguments& a, std::size_t first, const std::string& routine) {
  sp::random_options o;
  o.density = a.real_or(first, 0.01);
  o.dtype = a.dtype(first + 2).value_or(cupp::float64);
  if (a.has(first + 3) && a.has(first + 4))
    throw cupp::TypeError(routine + "(): got both 'rng' and 'random_state' (the same seed under two names)");
  for (std::size_t i : {first + 3, first + 4}) {
    if (!a.has(i)) continue;
    const std::int64_t seed = a.integer(i, 0);
    if (seed < 0) throw cupp::ValueError("Seed must be between 0 and 2**32 - 1");
    o.seed = static_cast<std::uint64_t>(seed);
  }
  return o;
}

value to_format_value(const sp::csr& m, const std::string& format) { return wrap(as_format(m, format)); }

void add_constructors(function_table& t) {
  for (const char* f : {"csr", "csc", "coo"}) {
    t.add(std::string("sparse.") + f + "_matrix",
          constructor(std::string("sparse.") + f + "_matrix", f, sp::kind::matrix));
    t.add(std::string("sparse.") + f + "_array", constructor(std::string("sparse.") + f + "_array", f, sp::kind::array));
  }
  t.add("sparse.random", [](span_v args, span_k kw) -> value {
    const std::string r = "sparse.random";
    const arguments a(r, {"m", "n", "density", "format", "dtype", "rng", "random_state"}, 2, args, kw);
    const std::string format = sparse_format_name(a.optional_string(3), "coo", r);
    const sp::random_options o = random_keywords(a, 2, r);
    if (!(o.density >= 0 && o.density <= 1)) throw cupp::ValueError("density expected to be 0 <= density <= 1");
    const sp::coo m = sp::random(a.integer(0, 0), a.integer(1, 0), o);
    return wrap(format == "coo" ? sparse_any(m) : as_format(m.tocsr(), format));
  });
  t.add("sparse.random_array", [](span_v args, span_k kw) -> value {
    const std::string r = "sparse.random_array";
    const arguments a(r, {"shape", "density", "format", "dtype", "rng", "random_state"}, 1, 1, args, kw);
    const std::optional<sp::shape2> shape = shape2_argument(a, 0, r);
    if (!shape) throw cupp::TypeError(r + "(): 'shape' must be a tuple (M, N), not 'NoneType'");
    const std::string format = sparse_format_name(a.optional_string(2), "coo", r);
    const sp::random_options o = random_keywords(a, 1, r);
    if (!(o.density >= 0 && o.density <= 1)) throw cupp::ValueError("density expected to be 0 <= density <= 1");
    const sp::coo m = sp::random_array(*shape, o);
    return wrap(format == "coo" ? sparse_any(m) : as_format(m.tocsr(), format));
  });
  // eye(m, n=None, k=0, dtype=float, format=None) and eye_array(m, n=None, *, k=0, dtype=float, format=None):
  // SciPy's default format is dia, here csr (docs/deviations.md).
  for (const bool array : {false, true}) {
    const std::string r = array ? "sparse.eye_array" : "sparse.eye";
    t.add(r, [r, array](span_v args, span_k kw) -> value {
      const arguments a(r, {"m", "n", "k", "dtype", "format"}, 1, array ? 2 : 5, args, kw);
      const std::string format = sparse_format_name(a.optional_string(4), "csr", r);
      const cupp::dtype type = a.dtype(3).value_or(cupp::float64);
      const sp::csr m = array ? sp::eye_array(a.integer(0, 0), a.optional_integer(1), a.integer(2, 0), type)
                              : sp::eye(a.integer(0, 0), a.optional_integer(1), a.integer(2, 0), type);
      return to_format_value(m, format);
    });
  }
  t.add("sparse.identity", [](span_v args, span_k kw) -> value {
    const std::string r = "sparse.identity";
    const arguments a(r, {"n", "dtype", "format"}, 1, args, kw);
    const std::string format = sparse_format_name(a.optional_string(2), "csr", r);
    return to_format_value(sp::identity(a.integer(0, 0), a.dtype(1).value_or(cupp::float64)), format);
  });
  // diags(diagonals, offsets=0, shape=None, format=None, dtype=None): one diagonal as an array (or
  // a number), several as a tuple; offsets an int or a tuple of ints.
  for (const bool array : {false, true}) {
    const std::string r = array ? "sparse.diags_array" : "sparse.diags";
    t.add(r, [r, array](span_v args, span_k kw) -> value {
      const arguments a(r, {"diagonals", "offsets", "shape", "format", "dtype"}, 1, array ? 1 : 5, args, kw);
      const std::vector<std::int64_t> offsets = a.has(1) ? a.integers(1) : std::vector<std::int64_t>{0};
      const std::string format = sparse_format_name(a.optional_string(3), "csr", r);
      const std::optional<sp::shape2> shape = shape2_argument(a, 2, r);
      std::vector<cupp::ndarray> diagonals;  // (after the host checks: a number becomes a device array)
      const value& d = a.get(0);
      const auto diagonal = [&](const value& x) {  // a number is a diagonal of length 1 (broadcast)
        const cupp::ndarray a = dense_item(x, r, "diagonals");
        return a.ndim() == 0 ? a.reshape({1}) : a;
      };
      if (d.is_tuple()) {
        for (const value& x : d.tuple()) diagonals.push_back(diagonal(x));
      } else {
        diagonals.push_back(diagonal(d));
      }
      const sp::csr m = array ? sp::diags_array(diagonals, offsets, shape, a.dtype(4))
                              : sp::diags(diagonals, offsets, shape, a.dtype(4));
      return to_format_value(m, format);
    });
  }
}

// The methods and attributes as functions (cupp eval has no attribute syntax): sparse.toarray(s),
// sparse.todense(s) (an ndarray: cupp eval has no np.matrix), sparse.tocsr/tocsc/tocoo(s),
// sparse.nnz(s), sparse.dtype(s) (its name), sparse.issparse(x).
void add_methods(function_table& t) {
  const auto one = [](const std::string& r, span_v args, span_k kw) -> const sparse_any& {
    const arguments a(r, {"A"}, 1, args, kw);
    return sparse_argument(a.get(0), r);
  };
  for (const char* name : {"sparse.toarray", "sparse.todense"}) {
    const std::string r = name;
    t.add(r, [r, one](span_v args, span_k kw) -> value { return value(to_dense(one(r, args, kw))); });
  }
  for (const char* f : {"csr", "csc", "coo"}) {
    const std::string r = std::string("sparse.to") + f, format = f;
    t.add(r, [r, format, one](span_v args, span_k kw) -> value {
      const sparse_any& m = one(r, args, kw);
      if (format == "coo") return wrap(std::visit([](const auto& x) { return sparse_any(x.tocoo()); }, m));
      return wrap(as_format(to_csr(m), format));
    });
  }
  t.add("sparse.nnz", [one](span_v args, span_k kw) -> value {
    const sparse_any& m = one("sparse.nnz", args, kw);
    return value(py_scalar::integer(std::visit([](const auto& x) { return x.nnz(); }, m)));
  });
  t.add("sparse.dtype", [one](span_v args, span_k kw) -> value {
    const sparse_any& m = one("sparse.dtype", args, kw);
    return value(std::visit([](const auto& x) { return x.dtype(); }, m).name());
  });
  t.add("sparse.issparse", [](span_v args, span_k kw) -> value {
    const arguments a("sparse.issparse", {"x"}, 1, args, kw);
    return value(py_scalar::boolean(sparse_of(a.get(0)) != nullptr));
  });
}

// NAME=FILE.npz: SciPy's save_npz layout, in the format it holds (a dia file as csr).
value load_sparse(const std::filesystem::path& file) {
  const sp::loaded_npz f = sp::load_npz(file);
  if (f.csr_value) return wrap(*f.csr_value);
  if (f.csc_value) return wrap(*f.csc_value);
  if (f.coo_value) return wrap(*f.coo_value);
  return wrap(f.tocsr());
}

}  // namespace

void add_sparse(function_table& t) {
  add_constructors(t);
  add_methods(t);
  t.add_loader(".npz", load_sparse);
}

}  // namespace cupp::eval
