// NEP 50 promotion and casting over the tables generated from specs/promotion.yaml:
// promote_types, result_type (binary, n-ary by NumPy's main-dtype rule, weak scalars), can_cast.
#include "cupp/promotion.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

int idx(dtype d) { return static_cast<int>(d.id()); }

[[noreturn]] void no_common_dtype(dtype a, dtype b) {
  throw TypeError("The dtypes " + a.name() + " and " + b.name() + " have no common dtype");
}

// NumPy's common-dtype rule for two dtype classes, seen from `self`: the dtype that knows more
// (the higher type number) answers, so `self` declines when `other` ranks higher. Returns
// nullopt for "not implemented here".
std::optional<dtype> common_from(dtype self, dtype other) {
  if (!self.is_builtin() || !other.is_builtin()) {
    if (self == other) return self;
    no_common_dtype(self, other);
  }
  if (detail::info(other.id()).type_num > detail::info(self.id()).type_num) return std::nullopt;
  return dtype(detail::promotion_table[idx(self)][idx(other)]);
}

int weak_row(weak_scalar::kind k) { return static_cast<int>(k); }

std::string describe(const weak_scalar& s) {
  switch (s.scalar_kind()) {
    case weak_scalar::kind::bool_: return s.magnitude() ? "True" : "False";
    case weak_scalar::kind::int_: return (s.is_negative() ? "-" : "") + std::to_string(s.magnitude());
    case weak_scalar::kind::float_: return std::to_string(s.real());
    case weak_scalar::kind::complex_: return "(" + std::to_string(s.real()) + "+" + std::to_string(s.imag()) + "j)";
  }
  return "?";
}

}  // namespace

std::string_view to_string(casting c) noexcept {
  switch (c) {
    case casting::no: return "no";
    case casting::equiv: return "equiv";
    case casting::safe: return "safe";
    case casting::same_kind: return "same_kind";
    case casting::unsafe: return "unsafe";
  }
  return "?";
}

bool weak_scalar::fits(dtype d) const noexcept {
  if (kind_ != kind::int_ && kind_ != kind::bool_) return false;
  if (!d.is_integer()) return d.is_bool() ? (kind_ == kind::bool_) : false;
  const std::size_t bits = d.itemsize() * 8;
  if (d.kind() == 'u') {
    if (negative_) return magnitude_ == 0;
    return bits == 64 || magnitude_ <= (std::uint64_t(1) << bits) - 1;
  }
  const std::uint64_t max_positive = (std::uint64_t(1) << (bits - 1)) - 1;
  return negative_ ? magnitude_ <= max_positive + 1 : magnitude_ <= max_positive;
}

dtype promote_types(dtype a, dtype b) {
  if (a == b) return a;
  if (!a.is_builtin() || !b.is_builtin()) no_common_dtype(a, b);
  return dtype(detail::promotion_table[idx(a)][idx(b)]);
}

dtype result_type(dtype a, dtype b) { return promote_types(a, b); }

dtype result_type(std::span<const dtype> dtypes) {
  if (dtypes.empty()) throw ValueError("result_type: at least one dtype is required");
  if (dtypes.size() == 1) return dtypes[0];
  if (dtypes.size() == 2) return promote_types(dtypes[0], dtypes[1]);

  // NumPy's PromoteDTypeSequence: pairwise halving finds the most knowledgeable ("main")
  // dtype, dropping dtypes that cannot change the result; then every remaining dtype is
  // promoted with the main one and the results are combined.
  std::vector<std::optional<dtype>> work(dtypes.begin(), dtypes.end());
  std::optional<dtype> last;  // the last pairwise result of the halving
  bool last_declined = false;
  std::size_t length = work.size();
  for (;;) {
    const std::size_t half = length / 2;
    for (std::size_t low = 0; low < half; ++low) {
      const std::size_t high = length - 1 - low;
      // A cleared slot never reaches the front half, so both are present here.
      std::optional<dtype> res =
          (*work[low] == *work[high]) ? work[low] : common_from(*work[low], *work[high]);
      last_declined = !res.has_value();
      if (last_declined) {
        std::swap(work[low], work[high]);
      } else if (*res == *work[low]) {
        work[high].reset();
      }
      last = res;
    }
    if (length == 2) break;
    length -= half;
  }
  const dtype main = *work[0];
  std::optional<dtype> result;
  std::size_t start = 1;
  if (!last_declined) {
    result = last;
    start = 2;
  }
  std::optional<dtype> prev;
  for (std::size_t i = start; i < work.size(); ++i) {
    if (!work[i] || (prev && *prev == *work[i])) continue;
    std::optional<dtype> promotion = common_from(main, *work[i]);
    if (!promotion) promotion = common_from(*work[i], main);  // cannot happen for built-ins
    if (!promotion) no_common_dtype(main, *work[i]);
    result = result ? promote_types(*result, *promotion) : *promotion;
    prev = work[i];
  }
  return *result;
}

dtype result_type(std::initializer_list<dtype> dtypes) {
  return result_type(std::span<const dtype>(dtypes.begin(), dtypes.size()));
}

dtype result_type(std::span<const dtype> arrays, std::span<const weak_scalar> scalars) {
  if (arrays.empty() && scalars.empty()) throw ValueError("result_type: at least one operand is required");
  // Only the highest kind among the weak scalars matters: bool < int < float < complex.
  const weak_scalar* top = nullptr;
  for (const weak_scalar& s : scalars)
    if (!top || s.scalar_kind() > top->scalar_kind()) top = &s;

  dtype result;
  if (arrays.empty()) {
    result = dtype(detail::weak_scalar_table[weak_row(top->scalar_kind())][n_builtin_types]);
  } else {
    result = result_type(arrays);
    if (top) {
      if (!result.is_builtin())
        throw TypeError("The dtype " + result.name() + " cannot be combined with a Python-like scalar");
      result = dtype(detail::weak_scalar_table[weak_row(top->scalar_kind())][idx(result)]);
    }
  }
  if (result.is_integer()) {
    for (const weak_scalar& s : scalars) {
      if (s.scalar_kind() == weak_scalar::kind::int_ && !s.fits(result))
        throw OverflowError("Python integer " + describe(s) + " out of bounds for " + result.name());
    }
  }
  return result;
}

dtype result_type(dtype array_dtype, const weak_scalar& scalar) {
  return result_type(std::span<const dtype>(&array_dtype, 1), std::span<const weak_scalar>(&scalar, 1));
}

bool can_cast(dtype from, dtype to, casting rule) {
  if (from == to) return true;
  if (!from.is_builtin() || !to.is_builtin()) {
    // Raw bytes reinterpret only unsafely, and only between equal sizes.
    return rule == casting::unsafe && from.kind() == 'V' && to.kind() == 'V' && from.itemsize() == to.itemsize();
  }
  switch (rule) {
    case casting::no:
    case casting::equiv: return false;  // distinct dtypes (byte order is always native here)
    case casting::safe: return detail::safe_cast_table[idx(from)][idx(to)];
    case casting::same_kind:
      return detail::safe_cast_table[idx(from)][idx(to)] ||
             detail::kind_order.find(from.kind()) <= detail::kind_order.find(to.kind());
    case casting::unsafe: return true;
  }
  return false;
}

}  // namespace cupp
