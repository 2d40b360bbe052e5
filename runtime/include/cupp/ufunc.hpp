// cupp::ufunc: NumPy's universal functions on the GPU. A ufunc is a small value naming one op of
// the registry (generated from specs/ufuncs/*.yaml); calling it resolves the loop by NEP 50
// (weak C++ scalars take the dtype of the arrays they meet), broadcasts, checks casting, and
// runs one generated kernel on the current stream:
//
//   cupp::ndarray c = cupp::add(a, b);                       // like np.add(a, b)
//   cupp::add(a, 2.5, {.out = c, .where = mask});            // out=, where=
//   cupp::multiply(a, b, {.dtype = cupp::float64});          // dtype=
//   const cupp::ufunc& f = cupp::ufunc::get("sin");          // by name or alias
//
// Errors as NumPy: no loop for the dtypes -> TypeError naming the ufunc and dtypes; shapes that
// do not broadcast -> ValueError; a weak integer that does not fit the loop's dtype ->
// OverflowError; a cast the `casting` rule forbids -> TypeError. Inputs that overlap an output
// are copied first, so `cupp::add(x, x.T(), {.out = x})` gives NumPy's result.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/ops.hpp"
#include "cupp/promotion.hpp"

namespace cupp {

// An input of a ufunc: an ndarray (strong dtype) or a plain C++ scalar (weak, NEP 50).
// cupp::scalar(value, dtype) makes a strong scalar (a 0-d array).
// Like std::string_view, an operand made from an ndarray lvalue refers to that array (no copy of
// its handle on every call); keep the array alive while the operand is in use. An operand made
// from a temporary ndarray holds it.
class operand {
 public:
  operand(const ndarray& a) noexcept : value_(&a) {}  // NOLINT: implicit, arrays are operands
  operand(ndarray&& a) noexcept : value_(std::move(a)) {}  // NOLINT
  operand(const weak_scalar& s) : value_(s) {}  // NOLINT
  // a(idx) (advanced indexing) read as an input: the gathered copy, so `cupp::sin(a(idx))` works.
  operand(const index_ref& r) : value_(r.eval()) {}  // NOLINT: implicit, as a[idx] is an array
  template <class T>
    requires(std::is_arithmetic_v<T> || std::is_constructible_v<weak_scalar, T>) &&
            (!std::is_same_v<std::remove_cvref_t<T>, weak_scalar>)
  operand(T v) : value_(weak_scalar(v)) {}  // NOLINT: implicit, like a Python scalar

  // An operand that refers to `other`'s array (or copies its scalar); `other` must outlive it.
  static operand borrow(const operand& other) {
    return other.is_array() ? operand(other.array()) : operand(other.scalar());
  }

  bool is_array() const noexcept { return value_.index() != 2; }
  const ndarray& array() const { return value_.index() == 0 ? *std::get<0>(value_) : std::get<1>(value_); }
  const weak_scalar& scalar() const { return std::get<2>(value_); }

 private:
  std::variant<const ndarray*, ndarray, weak_scalar> value_;
};

// A strong scalar: a 0-d array of `type` holding `value` (cast as NumPy's np.float32(v) would).
ndarray scalar(const weak_scalar& value, cupp::dtype type);

// The arrays given as out=: one array, or one per output ({.out = {q, r}}). One array is held
// inline (no allocation per call).
class out_arrays {
 public:
  out_arrays() = default;
  out_arrays(const ndarray& a) : one_(a), count_(1) {}  // NOLINT: {.out = c}
  out_arrays(std::initializer_list<ndarray> list) : out_arrays(std::vector<ndarray>(list)) {}
  explicit out_arrays(std::vector<ndarray> list) {
    count_ = list.size();
    if (count_ == 1) one_ = std::move(list.front());
    else many_ = std::move(list);
  }
  bool empty() const noexcept { return count_ == 0; }
  std::span<const ndarray> arrays() const noexcept {
    return count_ == 1 ? std::span<const ndarray>(&one_, 1) : std::span<const ndarray>(many_);
  }

 private:
  ndarray one_;
  std::vector<ndarray> many_;
  std::size_t count_ = 0;
};

// Keyword arguments of a ufunc call (NumPy's out=, where=, dtype=, casting=).
struct ufunc_options {
  out_arrays out{};                   // empty: allocate the outputs
  ndarray where{};                    // bool array broadcast to the result; null: everywhere
  std::optional<cupp::dtype> dtype{}; // the outputs' dtype, which picks the loop (NumPy's dtype=)
  cupp::casting casting = casting::same_kind;
};

// NumPy's axis= of a reduction: every axis (None, the default), one axis, or several
// ({.axis = 0}, {.axis = {0, 2}}); negative axes count from the end.
class axes {
 public:
  axes() = default;                                         // not given: the function's default
  axes(std::int64_t axis) : list_{axis}, all_(false), given_(true) {}  // NOLINT: {.axis = 0}
  axes(std::initializer_list<std::int64_t> list) : list_(list), all_(false), given_(true) {}
  explicit axes(std::vector<std::int64_t> list) : list_(std::move(list)), all_(false), given_(true) {}
  // axis=None given explicitly: every axis (ufunc.reduce's default is the first axis).
  static axes none() {
    axes a;
    a.given_ = true;
    return a;
  }
  // Every axis: None, or not given (the default of sum, max, mean and the other functions).
  bool all() const noexcept { return all_; }
  bool given() const noexcept { return given_; }
  std::span<const std::int64_t> list() const noexcept { return list_; }

 private:
  std::vector<std::int64_t> list_;
  bool all_ = true;
  bool given_ = false;
};

// Keyword arguments of a reduction (ufunc.reduce, sum, prod, max, min, all, any, mean).
// initial= and where= as NumPy's: `initial` (a number, cast to the result dtype as NumPy packs
// it) starts every result, once; `where` (a bool array broadcast against the input) selects the
// elements that take part. An op without identity (maximum, minimum, fmax, fmin) needs initial=
// with where= (ValueError otherwise); an empty reduction with initial= gives initial. Functions
// that NumPy gives no initial= (all, any, mean, nanmean) or neither (count_nonzero, ptp) raise
// TypeError "f() got an unexpected keyword argument 'initial'".
//   cupp::sum(a, {.axis = 0, .initial = 10, .where = mask});
//   cupp::max(a, {.initial = -1.0, .where = a > 0});
struct reduce_options {
  cupp::axes axis{};                   // default: every axis (ufunc.reduce: the first; axes::none(): every)
  bool keepdims = false;               // keep reduced axes with length 1
  std::optional<cupp::dtype> dtype{};  // the result's dtype (and the accumulator's)
  ndarray out{};                       // write the result here (its shape must match)
  std::optional<weak_scalar> initial{};  // NumPy's initial=: the first value of every result
  ndarray where{};                     // NumPy's where=: bool, broadcast against the input; null: all
};

// Keyword arguments of ufunc.reduceat (NumPy's axis=, dtype=, out=).
struct reduceat_options {
  std::int64_t axis = 0;               // one axis; negative counts from the end
  std::optional<cupp::dtype> dtype{};  // the result's dtype (default as reduce's)
  ndarray out{};                       // write the result here (its shape must match)
};

class ufunc;
namespace detail {
// The ufunc of an op loaded at run time (cupp::load_ops); `op` lives until the process exits.
ufunc loaded_ufunc(const op_spec& op) noexcept;
}  // namespace detail

class ufunc {
 public:
  // The index of a built-in op in builtin_ops() (the generated objects below use it).
  explicit constexpr ufunc(std::size_t op_index) noexcept : index_(op_index) {}

  // A registered ufunc by name or alias, built in or loaded at run time (cupp::load_ops);
  // ValueError "cupp has no ufunc 'foo'" otherwise. The reference stays valid until exit.
  static const ufunc& get(std::string_view name);
  // Every registered ufunc (built in, then loaded ones), sorted by name.
  static std::vector<ufunc> all();

  const op_spec& spec() const noexcept;
  std::string_view name() const noexcept { return spec().name; }
  int nin() const noexcept { return spec().nin; }
  int nout() const noexcept { return spec().nout; }

  // Calls for one output (TypeError when the arity differs).
  ndarray operator()(const operand& x, const ufunc_options& options = {}) const;
  ndarray operator()(const operand& x, const operand& y, const ufunc_options& options = {}) const;
  // The general call: nin inputs, returns nout outputs (the out= arrays when given).
  std::vector<ndarray> call(std::span<const operand> inputs, const ufunc_options& options = {}) const;
  // ufunc.outer(x, y): op(x[..., newaxis, ...], y) over every pair, result shape x.shape + y.shape.
  ndarray outer(const operand& x, const operand& y, const ufunc_options& options = {}) const;
  // ufunc.reduce(a): combines a's elements along the axes with this binary op (add.reduce is a
  // sum); NumPy's result dtypes; ValueError for an empty reduction of an op without identity.
  // As NumPy's, it reduces the first axis when no axis is given ({.axis = cupp::axes::none()}
  // reduces every axis; a 0-d array is returned reduced over nothing).
  ndarray reduce(const ndarray& a, const reduce_options& options = {}) const;
  // ufunc.reduceat(a, indices): along `axis`, result i is this op over a[indices[i]:indices[i+1]]
  // (the last up to the end) when indices[i] < indices[i+1], else a[indices[i]]; the result's
  // shape is a's with that axis len(indices). `indices` is a 1-d integer array (safe cast to
  // int64: TypeError otherwise); an index outside [0, n) is NumPy's IndexError "index 7
  // out-of-bounds in add.reduceat [0, 5)" (read back once per call). One GPU kernel, a thread per
  // result element walking its segment in order.
  ndarray reduceat(const ndarray& a, const ndarray& indices, const reduceat_options& options = {}) const;
  // ufunc.at(a, indices, b): a[indices] = op(a[indices], b) unbuffered, in place: repeated indices
  // accumulate (np.add.at). `indices` are a(...)'s items (cupp/indexing.hpp has the rules and
  // kernels); b broadcasts to the indexed shape. ValueError for a missing or extra b, a ufunc with
  // more than two inputs or one output; IndexError for bad indices; TypeError as the call would.
  void at(const ndarray& a, std::span<const array_index_item> indices) const;
  void at(const ndarray& a, std::span<const array_index_item> indices, const operand& b) const;
  void at(const ndarray& a, const ndarray& indices) const;
  void at(const ndarray& a, const ndarray& indices, const operand& b) const;

  friend bool operator==(const ufunc& a, const ufunc& b) noexcept { return &a.spec() == &b.spec(); }

 private:
  friend ufunc detail::loaded_ufunc(const op_spec& op) noexcept;
  std::size_t index_;
  const op_spec* loaded_ = nullptr;  // an op loaded at run time, else null (built in: index_)
};

// The resolved loop of a call, for inspection (what `cupp eval` and tests ask): the dtypes the
// loop computes in, and the outputs' dtypes. Throws as the call would (TypeError, OverflowError).
struct resolved_loop {
  std::size_t loop_index;
  std::vector<cupp::dtype> in;   // the loop's input dtypes (inputs are cast to these)
  std::vector<cupp::dtype> out;  // the outputs' dtypes
};
resolved_loop resolve_loop(const ufunc& f, std::span<const operand> inputs, const ufunc_options& options = {});

// ---- copies and casts (on the element-wise engine)
enum class order { C, F, A, K };
// numpy.ndarray.astype: a new array of `type` (copy=false returns `a` itself when no cast is
// needed); TypeError when `rule` forbids the cast.
ndarray astype(const ndarray& a, cupp::dtype type, cupp::casting rule = casting::unsafe, bool copy = true);
ndarray copy(const ndarray& a, order memory_order = order::K);
ndarray ascontiguousarray(const ndarray& a);
ndarray asfortranarray(const ndarray& a);
// numpy.copyto(dst, src, casting, where): src broadcast to dst.
void copyto(const ndarray& dst, const operand& src, cupp::casting rule = casting::same_kind,
            const ndarray& where = {});

// ---- operators: map to ufuncs (a + b is cupp::add(a, b)); compound assignment writes into
// the left array with same_kind casting, as NumPy's in-place operators do.
ndarray operator+(const ndarray& a, const ndarray& b);
ndarray operator+(const ndarray& a, const operand& b);
ndarray operator+(const operand& a, const ndarray& b);
ndarray operator-(const ndarray& a, const ndarray& b);
ndarray operator-(const ndarray& a, const operand& b);
ndarray operator-(const operand& a, const ndarray& b);
ndarray operator*(const ndarray& a, const ndarray& b);
ndarray operator*(const ndarray& a, const operand& b);
ndarray operator*(const operand& a, const ndarray& b);
ndarray operator/(const ndarray& a, const ndarray& b);
ndarray operator/(const ndarray& a, const operand& b);
ndarray operator/(const operand& a, const ndarray& b);
ndarray operator%(const ndarray& a, const ndarray& b);
ndarray operator%(const ndarray& a, const operand& b);
ndarray operator%(const operand& a, const ndarray& b);
ndarray operator<<(const ndarray& a, const ndarray& b);
ndarray operator<<(const ndarray& a, const operand& b);
ndarray operator<<(const operand& a, const ndarray& b);
ndarray operator>>(const ndarray& a, const ndarray& b);
ndarray operator>>(const ndarray& a, const operand& b);
ndarray operator>>(const operand& a, const ndarray& b);
ndarray operator&(const ndarray& a, const ndarray& b);
ndarray operator&(const ndarray& a, const operand& b);
ndarray operator&(const operand& a, const ndarray& b);
ndarray operator|(const ndarray& a, const ndarray& b);
ndarray operator|(const ndarray& a, const operand& b);
ndarray operator|(const operand& a, const ndarray& b);
ndarray operator^(const ndarray& a, const ndarray& b);
ndarray operator^(const ndarray& a, const operand& b);
ndarray operator^(const operand& a, const ndarray& b);
ndarray operator==(const ndarray& a, const ndarray& b);
ndarray operator==(const ndarray& a, const operand& b);
ndarray operator==(const operand& a, const ndarray& b);
ndarray operator!=(const ndarray& a, const ndarray& b);
ndarray operator!=(const ndarray& a, const operand& b);
ndarray operator!=(const operand& a, const ndarray& b);
ndarray operator<(const ndarray& a, const ndarray& b);
ndarray operator<(const ndarray& a, const operand& b);
ndarray operator<(const operand& a, const ndarray& b);
ndarray operator<=(const ndarray& a, const ndarray& b);
ndarray operator<=(const ndarray& a, const operand& b);
ndarray operator<=(const operand& a, const ndarray& b);
ndarray operator>(const ndarray& a, const ndarray& b);
ndarray operator>(const ndarray& a, const operand& b);
ndarray operator>(const operand& a, const ndarray& b);
ndarray operator>=(const ndarray& a, const ndarray& b);
ndarray operator>=(const ndarray& a, const operand& b);
ndarray operator>=(const operand& a, const ndarray& b);
ndarray operator-(const ndarray& a);
ndarray operator+(const ndarray& a);
ndarray operator~(const ndarray& a);
ndarray& operator+=(ndarray& a, const operand& b);
ndarray& operator-=(ndarray& a, const operand& b);
ndarray& operator*=(ndarray& a, const operand& b);
ndarray& operator/=(ndarray& a, const operand& b);
ndarray& operator&=(ndarray& a, const operand& b);
ndarray& operator|=(ndarray& a, const operand& b);
ndarray& operator^=(ndarray& a, const operand& b);
ndarray& operator%=(ndarray& a, const operand& b);
ndarray& operator<<=(ndarray& a, const operand& b);
ndarray& operator>>=(ndarray& a, const operand& b);

// ---- a(idx) (an index_ref, advanced indexing) in expressions: read as its gathered copy.
// `a(idx) + b`, `2 * a(mask)`, `a(i) < a(j)` give ndarrays; these overloads take the index_ref as
// it is, so it meets neither conversion (to ndarray or to operand) on its way and no call is
// ambiguous. `a(idx) += b` is NumPy's a[idx] += b: a[idx] = a[idx] + b (gather, the in-place op
// on the copy with same_kind casting, scatter; a repeated index is written once, as NumPy: use
// ufunc.at to accumulate).
#define CUPP_INDEX_REF_BINARY(OP)                                                                       \
  inline ndarray operator OP(const index_ref& a, const ndarray& b) { return a.eval() OP b; }           \
  inline ndarray operator OP(const ndarray& a, const index_ref& b) { return a OP b.eval(); }           \
  inline ndarray operator OP(const index_ref& a, const index_ref& b) { return a.eval() OP b.eval(); }  \
  inline ndarray operator OP(const index_ref& a, const operand& b) { return a.eval() OP b; }           \
  inline ndarray operator OP(const operand& a, const index_ref& b) { return a OP b.eval(); }
CUPP_INDEX_REF_BINARY(+)
CUPP_INDEX_REF_BINARY(-)
CUPP_INDEX_REF_BINARY(*)
CUPP_INDEX_REF_BINARY(/)
CUPP_INDEX_REF_BINARY(%)
CUPP_INDEX_REF_BINARY(<<)
CUPP_INDEX_REF_BINARY(>>)
CUPP_INDEX_REF_BINARY(&)
CUPP_INDEX_REF_BINARY(|)
CUPP_INDEX_REF_BINARY(^)
CUPP_INDEX_REF_BINARY(==)
CUPP_INDEX_REF_BINARY(!=)
CUPP_INDEX_REF_BINARY(<)
CUPP_INDEX_REF_BINARY(<=)
CUPP_INDEX_REF_BINARY(>)
CUPP_INDEX_REF_BINARY(>=)
#undef CUPP_INDEX_REF_BINARY
#define CUPP_INDEX_REF_COMPOUND(OP)                                      \
  inline const index_ref& operator OP(index_ref&& r, const operand& b) { \
    ndarray values = r.eval();                                           \
    values OP b;                                                         \
    std::move(r) = values;                                               \
    return r;                                                            \
  }
CUPP_INDEX_REF_COMPOUND(+=)
CUPP_INDEX_REF_COMPOUND(-=)
CUPP_INDEX_REF_COMPOUND(*=)
CUPP_INDEX_REF_COMPOUND(/=)
CUPP_INDEX_REF_COMPOUND(%=)
CUPP_INDEX_REF_COMPOUND(&=)
CUPP_INDEX_REF_COMPOUND(|=)
CUPP_INDEX_REF_COMPOUND(^=)
CUPP_INDEX_REF_COMPOUND(<<=)
CUPP_INDEX_REF_COMPOUND(>>=)
#undef CUPP_INDEX_REF_COMPOUND

}  // namespace cupp

// The generated ufunc objects: cupp::add, cupp::multiply, cupp::sin, ... and their aliases.
#include "cupp/generated/ufuncs.hpp"
