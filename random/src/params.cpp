// What every Generator method does with its parameters (random/src/sampling.hpp): NumPy's
// constraint checks with its messages (numpy/random/_common.pyx check_constraint for scalars,
// check_array_constraint for arrays: one kernel and one flag read), the result shape (size=, or
// the parameters' broadcast shape), and the float64 broadcast copy a kernel reads.
#include <cmath>
#include <string>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "sampling.hpp"

namespace cupp::random::detail {

namespace {

constexpr double poisson_lam_max = 9.223372006484771e18;  // int64 max - sqrt(int64 max) * 10

std::string n(const char* name) { return name; }

void check_scalar(double v, const char* name, cons c) {
  switch (c) {
    case cons::none: return;
    case cons::non_negative:
      if (!std::isnan(v) && std::signbit(v)) throw ValueError(n(name) + " < 0");
      return;
    case cons::positive:
    case cons::positive_not_nan:
      if (c == cons::positive_not_nan && std::isnan(v)) throw ValueError(n(name) + " must not be NaN");
      if (v <= 0) throw ValueError(n(name) + " <= 0");
      return;
    case cons::bounded_0_1:
      if (!(v >= 0) || !(v <= 1)) throw ValueError(n(name) + " < 0, " + name + " > 1 or " + name + " is NaN");
      return;
    case cons::bounded_gt_0_1:
      if (!(v > 0) || !(v <= 1)) throw ValueError(n(name) + " <= 0, " + name + " > 1 or " + name + " contains NaNs");
      return;
    case cons::bounded_lt_0_1:
      if (!(v >= 0) || !(v < 1)) throw ValueError(n(name) + " < 0, " + name + " >= 1 or " + name + " is NaN");
      return;
    case cons::gt_1:
      if (!(v > 1)) throw ValueError(n(name) + " <= 1 or " + name + " is NaN");
      return;
    case cons::gte_1:
      if (!(v >= 1)) throw ValueError(n(name) + " < 1 or " + name + " is NaN");
      return;
    case cons::poisson:
      if (!(v >= 0)) throw ValueError(n(name) + " < 0 or " + name + " is NaN");
      if (!(v <= poisson_lam_max)) throw ValueError(n(name) + " value too large");
      return;
  }
}

// The bits cupp_random_check sets (kernels.cuh).
enum : unsigned {
  b_nan = 1, b_sign = 2, b_le0 = 4, b_gt1 = 8, b_ge1 = 16, b_lt1 = 32, b_le1 = 64, b_big = 128, b_lt0 = 256,
};

void check_bits(unsigned bits, const char* name, cons c) {
  const std::string nm = name;
  switch (c) {
    case cons::none: return;
    case cons::non_negative:
      if (bits & b_sign) throw ValueError(nm + " < 0");
      return;
    case cons::positive:
    case cons::positive_not_nan:
      if (c == cons::positive_not_nan && (bits & b_nan)) throw ValueError(nm + " must not be NaN");
      if (bits & b_le0) throw ValueError(nm + " <= 0");
      return;
    case cons::bounded_0_1:
      if (bits & (b_nan | b_lt0 | b_gt1)) throw ValueError(nm + " < 0, " + nm + " > 1 or " + nm + " contains NaNs");
      return;
    case cons::bounded_gt_0_1:
      if (bits & (b_nan | b_le0 | b_gt1)) throw ValueError(nm + " <= 0, " + nm + " > 1 or " + nm + " contains NaNs");
      return;
    case cons::bounded_lt_0_1:
      if (bits & (b_nan | b_lt0 | b_ge1)) throw ValueError(nm + " < 0, " + nm + " >= 1 or " + nm + " contains NaNs");
      return;
    case cons::gt_1:
      if (bits & (b_nan | b_le1)) throw ValueError(nm + " <= 1 or " + nm + " contains NaNs");
      return;
    case cons::gte_1:
      if (bits & (b_nan | b_lt1)) throw ValueError(nm + " < 1 or " + nm + " contains NaNs");
      return;
    case cons::poisson:
      if (bits & (b_nan | b_big)) throw ValueError(nm + " value too large");
      if (bits & b_lt0) throw ValueError(nm + " < 0 or " + nm + " contains NaNs");
      return;
  }
}

ndarray as_float64(const ndarray& a) {
  if (a.dtype().is_complex()) throw TypeError("Cannot cast array data from dtype('" + a.dtype().name() +
                                              "') to dtype('float64') according to the rule 'safe'");
  return ascontiguousarray(astype(a, float64, casting::unsafe, false));
}

// A shape as Python prints a tuple: (), (3,), (2, 3).
std::string tuple_text(const shape_t& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

std::int64_t count(const shape_t& shape) {
  std::int64_t c = 1;
  for (std::int64_t d : shape) c *= d;
  return c;
}

std::optional<double> scalar_of(const operand& value) {
  if (!value.is_array()) {
    if (value.scalar().scalar_kind() == weak_scalar::kind::complex_)
      throw TypeError("can't convert complex to float");
    return value.scalar().real();
  }
  if (value.array().ndim() == 0) return as_float64(value.array()).item<double>();
  return std::nullopt;
}

void check(const operand& value, const char* name, cons constraint) {
  if (constraint == cons::none) {
    (void)scalar_of(value);  // a complex value is NumPy's TypeError
    return;
  }
  if (const std::optional<double> v = scalar_of(value)) {
    check_scalar(*v, name, constraint);
    return;
  }
  const ndarray a = as_float64(value.array());
  if (a.size() == 0) return;
  ndarray flags = zeros({1}, uint32);
  const double* p = static_cast<const double*>(a.data());
  long long len = a.size();
  unsigned* f = static_cast<unsigned*>(flags.data());
  void* args[] = {&p, &len, &f};
  cupp::detail::launch_1d(kernel(a.device(), k_check), len, args, a.device());
  check_bits(flags.item<std::uint32_t>(), name, constraint);
}

shape_t result_shape(const size_arg& size, std::initializer_list<const operand*> params) {
  std::vector<shape_t> shapes;
  for (const operand* p : params) {
    if (p->is_array() && p->array().ndim() > 0) {
      const auto s = p->array().shape();
      shapes.emplace_back(s.begin(), s.end());
    }
  }
  if (size.given()) {
    for (std::int64_t d : size.shape())
      if (d < 0) throw ValueError("negative dimensions are not allowed");
    if (shapes.empty()) return size.shape();
    // NumPy's np.broadcast(out, *params), then validate_output_shape
    std::vector<shape_t> all{size.shape()};
    all.insert(all.end(), shapes.begin(), shapes.end());
    const shape_t b = broadcast_shapes(std::span<const shape_t>(all));
    if (b != size.shape())
      throw ValueError("Output size " + tuple_text(size.shape()) + " is not compatible with broadcast dimensions of inputs " +
                       tuple_text(b) + ".");
    return size.shape();
  }
  if (shapes.empty()) return {};
  return broadcast_shapes(std::span<const shape_t>(shapes));
}

prepared prepare(const operand& value, const shape_t& shape) {
  prepared out;
  if (const std::optional<double> v = scalar_of(value)) {
    out.p.v = *v;
    return out;
  }
  ndarray a = as_float64(value.array());
  if (!std::equal(a.shape().begin(), a.shape().end(), shape.begin(), shape.end()))
    a = ascontiguousarray(broadcast_to(a, shape));
  out.held = a;
  out.p.p = static_cast<const double*>(a.data());
  out.is_array = true;
  return out;
}

}  // namespace cupp::random::detail
