// Generator.integers (Lemire's bounded rejection, kernels.cuh's cupp_random_integers, with NumPy's
// dtype and range errors from numpy/random/_bounded_integers.pyx.in), and what is made from
// random keys and integers: permutation, shuffle, permuted, choice, bytes.
#include <cstring>
#include <limits>

#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/searching.hpp"
#include "cupp/sorting.hpp"
#include "generator_impl.hpp"
#include "philox_host.hpp"

namespace cupp::random {

using namespace detail;

namespace {

__extension__ typedef __int128 i128;

struct bounds {
  i128 lb, ub;
};

bounds bounds_of(cupp::dtype t) {
  if (t == bool_) return {0, 1};
  const int bits = static_cast<int>(t.itemsize()) * 8;
  if (t.kind() == 'u') return {0, (i128(1) << bits) - 1};
  return {-(i128(1) << (bits - 1)), (i128(1) << (bits - 1)) - 1};
}

i128 int_of(const weak_scalar& s) {
  if (s.scalar_kind() == weak_scalar::kind::int_ || s.scalar_kind() == weak_scalar::kind::bool_) {
    return s.is_negative() ? -i128(s.magnitude()) : i128(s.magnitude());
  }
  if (s.scalar_kind() == weak_scalar::kind::complex_) throw TypeError("can't convert complex to int");
  const double v = s.real();
  if (!std::isfinite(v)) throw ValueError("cannot convert float NaN or infinity to integer");
  return static_cast<i128>(v);  // NumPy's int(low): truncation
}

std::string bounds_error(bool closed, bool low_is_zero) {
  if (low_is_zero) return std::string("high ") + (closed ? "<" : "<=") + " 0";
  return std::string("low ") + (closed ? ">" : ">=") + " high";
}

// Random uint64 keys, two per counter (cupp_random_raw64).
ndarray raw_keys(const Philox& bits, const shape_t& shape) {
  ndarray keys = empty(shape, uint64);
  long long n = keys.size();
  if (n == 0) return keys;
  const std::int64_t groups = (n + 1) / 2;
  philox_call call = reserve(bits, static_cast<std::uint64_t>(groups));
  void* data = keys.data();
  void* args[] = {&data, &n, &call};
  launch(keys.device(), k_raw64, groups, args);
  return keys;
}

void launch_integers(const Philox& bits, const ndarray& out, const iparam& low, const iparam& range, bool wide) {
  long long n = out.size();
  if (n == 0) return;
  const int per = wide ? 2 : 4;
  const std::int64_t groups = (n + per - 1) / per;
  philox_call call = reserve(bits, static_cast<std::uint64_t>(groups));
  void* data = out.data();
  iparam l = low, r = range;
  int itemsize = static_cast<int>(out.itemsize()), w = wide ? 1 : 0, b = broken() ? 1 : 0;
  int vec = (reinterpret_cast<std::uintptr_t>(data) % 16) == 0 ? 1 : 0;
  void* args[] = {&data, &n, &call, &l, &r, &itemsize, &w, &b, &vec};
  launch(out.device(), k_integers, groups, args);
}

// integers with a scalar low and a scalar range below 2^32 (cupp_random_integers32: the same values
// as the general kernel's narrow lanes).
void launch_integers32(const Philox& bits, const ndarray& out, std::uint64_t low, std::uint64_t range) {
  long long n = out.size();
  if (n == 0) return;
  const std::int64_t groups = (n + 3) / 4;
  philox_call call = reserve(bits, static_cast<std::uint64_t>(groups));
  void* data = out.data();
  unsigned long long l = low, r = range;
  int itemsize = static_cast<int>(out.itemsize()), b = broken() ? 1 : 0, shuffled = shuffled_stores() ? 1 : 0;
  int vec = (reinterpret_cast<std::uintptr_t>(data) % 16) == 0 ? 1 : 0;
  void* args[] = {&data, &n, &call, &l, &r, &itemsize, &b, &vec, &shuffled};
  launch(out.device(), k_integers32, groups, args);
}

std::vector<std::int64_t> host_int64(const operand& v, const shape_t& shape) {
  ndarray a = v.is_array() ? astype(v.array(), int64) : scalar(v.scalar(), int64);
  return ascontiguousarray(broadcast_to(a, shape)).to_vector<std::int64_t>();
}

}  // namespace

ndarray Generator::integers(const operand& low_in, const std::optional<operand>& high_in, size_arg size,
                            cupp::dtype dtype, bool endpoint) {
  const operand low = high_in ? operand::borrow(low_in) : operand(0);
  const operand high = high_in ? operand::borrow(*high_in) : operand::borrow(low_in);
  if (!dtype.is_integer() && !dtype.is_bool())
    throw TypeError("Unsupported dtype " + dtype_repr(dtype) + " for integers");
  if (size.given() && count(size.shape()) == 0) return empty(size.shape(), dtype);
  const bounds bd = bounds_of(dtype);
  const std::string type_name = dtype == bool_ ? "bool" : dtype.name();
  const bool scalar_low = !low.is_array() || low.array().ndim() == 0;
  const bool scalar_high = !high.is_array() || high.array().ndim() == 0;
  if (scalar_low && scalar_high) {
    const i128 lo = low.is_array() ? i128(astype(low.array(), int64).item<std::int64_t>()) : int_of(low.scalar());
    i128 hi = high.is_array() ? i128(astype(high.array(), int64).item<std::int64_t>()) : int_of(high.scalar());
    if (!endpoint) hi -= 1;
    if (lo < bd.lb) throw ValueError("low is out of bounds for " + type_name);
    if (hi > bd.ub) throw ValueError("high is out of bounds for " + type_name);
    if (lo > hi) throw ValueError(bounds_error(endpoint, lo == 0));
    ndarray out = output_for(size, dtype, {});
    const std::uint64_t rng = static_cast<std::uint64_t>(hi - lo);
    if (rng <= 0xFFFFFFFFull)
      launch_integers32(bits_, out, static_cast<std::uint64_t>(lo), rng);
    else
      launch_integers(bits_, out, iparam{nullptr, static_cast<std::uint64_t>(lo)}, iparam{nullptr, rng}, true);
    return out;
  }
  // arrays: NumPy's checks element by element (read on the host), then one launch
  const shape_t shape = result_shape(size, {&low, &high});
  const std::vector<std::int64_t> lo = host_int64(low, shape), hi = host_int64(high, shape);
  std::vector<std::uint64_t> off(lo.size()), rng(lo.size());
  bool any_low_nonzero = false;
  for (std::int64_t v : lo) any_low_nonzero |= v != 0;
  for (std::size_t i = 0; i < lo.size(); ++i)
    if (lo[i] < bd.lb) throw ValueError("low is out of bounds for " + type_name);
  for (std::size_t i = 0; i < hi.size(); ++i)
    if (i128(hi[i]) - (endpoint ? 0 : 1) > bd.ub) throw ValueError("high is out of bounds for " + type_name);
  for (std::size_t i = 0; i < lo.size(); ++i) {
    const i128 h = i128(hi[i]) - (endpoint ? 0 : 1);
    if (lo[i] > h) throw ValueError(bounds_error(endpoint, !any_low_nonzero));
    off[i] = static_cast<std::uint64_t>(lo[i]);
    rng[i] = static_cast<std::uint64_t>(h - lo[i]);
  }
  ndarray out = empty(shape, dtype);
  const ndarray offs = asarray(off), rngs = asarray(rng);
  launch_integers(bits_, out, iparam{static_cast<const std::uint64_t*>(offs.data()), 0},
                  iparam{static_cast<const std::uint64_t*>(rngs.data()), 0}, dtype.itemsize() == 8);
  return out;
}

ndarray Generator::permutation(std::int64_t n) {
  if (n < 0) throw ValueError("negative dimensions are not allowed");
  return argsort(raw_keys(bits_, {n}));
}

ndarray Generator::permutation(const ndarray& x, int axis) {
  if (x.ndim() == 0) throw IndexError("x must be an integer or at least 1-dimensional");
  const int ax = axis < 0 ? axis + x.ndim() : axis;
  if (ax < 0 || ax >= x.ndim())
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(x.ndim()));
  return take(x, permutation(x.shape()[ax]), {.axis = ax});
}

void Generator::shuffle(const ndarray& x, int axis) {
  if (x.ndim() == 0) throw TypeError("shuffle: x must be an array, not a 0-d array");
  if (!x.writeable()) throw ValueError("array is read-only");
  x.assign(permutation(x, axis));
}

ndarray Generator::permuted(const ndarray& x, std::optional<int> axis, const ndarray& out) {
  if (!out.is_null()) {
    if (!std::equal(out.shape().begin(), out.shape().end(), x.shape().begin(), x.shape().end()))
      throw ValueError("out must have the same shape as x");
    if (!out.writeable()) throw ValueError("array is read-only");
  }
  const shape_t shape(x.shape().begin(), x.shape().end());
  ndarray result;
  if (!axis) {
    const ndarray flat = x.ravel();
    result = take(flat, argsort(raw_keys(bits_, {flat.size()}))).reshape(shape);
  } else {
    const ndarray order = argsort(raw_keys(bits_, shape), *axis);
    result = take_along_axis(x, order, *axis);
  }
  if (out.is_null()) return result;
  out.assign(result);
  return out;
}

namespace {

// choice(a, k, replace=False) without p, k <= a - 2: the images of 0, ..., k - 1 under a
// pseudo-random permutation of [0, a) (philox.cuh's feistel: a keyed Feistel network with cycle
// walking), its 16 round keys the words of 4 reserved counters, computed here. O(k) work, no sort.
ndarray choice_feistel(const Philox& bits, std::int64_t a, std::int64_t k) {
  ndarray out = empty({k}, int64);
  if (k == 0) return out;
  const philox_call c = reserve(bits, 4);
  const cupp_random::philox_call call{c.k0, c.k1, c.c0, c.c1, c.c2};
  cupp_random::feistel f{};
  f.a = static_cast<std::uint64_t>(a);
  std::uint32_t b = 2;
  while (b < 63 && (std::uint64_t{1} << b) < f.a) ++b;
  f.lbits = b / 2;
  f.rbits = b - f.lbits;
  for (int g = 0; g < 4; ++g) {
    const cupp_random::u32x4 w = cupp_random::draw(call, static_cast<std::uint64_t>(g), 0);
    for (int j = 0; j < 4; ++j) f.keys[4 * g + j] = w.v[j];
  }
  static_assert(sizeof(f.keys) / sizeof(f.keys[0]) == 2 * cupp_random::feistel_rounds);
  long long n = k;
  void* data = out.data();
  void* args[] = {&data, &n, &f};
  launch(out.device(), k_choice_feistel, k, args);
  return out;
}

}  // namespace

ndarray Generator::choice(std::int64_t a, size_arg size, bool replace, const ndarray& p, int axis, bool shuffle) {
  (void)axis;
  (void)shuffle;
  const shape_t shape = size.given() ? size.shape() : shape_t{};
  const std::int64_t k = count(shape);
  if (a <= 0 && k != 0) throw ValueError("a must be a positive integer unless no samples are taken");
  ndarray cdf;
  if (!p.is_null()) {
    if (p.ndim() != 1) throw ValueError("p must be 1-dimensional");
    if (p.size() != a) throw ValueError("a and p must have same size");
    const ndarray pd = ascontiguousarray(astype(p, float64, casting::unsafe, false));
    const std::vector<double> host = pd.to_vector<double>();
    double sum = 0.0, c = 0.0;  // kahan_sum, as NumPy
    bool negative = false;
    std::int64_t nonzero = 0;
    for (double v : host) {
      const double y = v - c, t = sum + y;
      c = (t - sum) - y;
      sum = t;
      negative |= v < 0;
      nonzero += v > 0;
    }
    double atol = std::sqrt(std::numeric_limits<double>::epsilon());
    if (p.dtype() == float32) atol = std::max(atol, std::sqrt(double(std::numeric_limits<float>::epsilon())));
    if (p.dtype() == float16) atol = std::max(atol, std::sqrt(0.0009765625));
    if (std::isnan(sum)) throw ValueError("Probabilities contain NaN");
    if (negative) throw ValueError("Probabilities are not non-negative");
    if (std::abs(sum - 1.0) > atol)
      throw ValueError("Probabilities do not sum to 1. See Notes section of docstring for more information.");
    if (!replace) {
      if (k > a) throw ValueError("Cannot take a larger sample than population when replace is False");
      if (nonzero < k) throw ValueError("Fewer non-zero entries in p than size");
      // successive sampling proportional to p = the k smallest exponential races E_i / p_i
      const ndarray keys = standard_exponential({a}) / pd;
      return take(argsort(keys), arange(k)).reshape(shape);
    }
    cdf = cumsum(pd);
    cdf = cdf / take(cdf, a - 1);
    return searchsorted(cdf, random(shape), {.side = search_side::right});
  }
  if (replace) return integers(0, a, shape, int64);
  if (k > a) throw ValueError("Cannot take a larger sample than population when replace is False");
  // k >= a - 1 fixes the whole permutation, and a Feistel network whose halves have 2 bits or more
  // is an even permutation of [0, 2^b) (each round translates one half): an argsort of random keys
  // then, whose permutations have either parity.
  if (k >= a - 1) return take(permutation(a), arange(k)).reshape(shape);
  return choice_feistel(bits_, a, k).reshape(shape);
}

ndarray Generator::choice(const ndarray& a, size_arg size, bool replace, const ndarray& p, int axis, bool shuffle) {
  if (a.ndim() == 0) {
    if (!a.dtype().is_integer())
      throw ValueError("a must be a sequence or an integer, not <class 'numpy.ndarray'>");
    return choice(astype(a, int64).item<std::int64_t>(), size, replace, p, axis, shuffle);
  }
  const int ax = axis < 0 ? axis + a.ndim() : axis;
  if (ax < 0 || ax >= a.ndim())
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
                    std::to_string(a.ndim()));
  const std::int64_t pop = a.shape()[ax];
  const shape_t shape = size.given() ? size.shape() : shape_t{};
  if (pop == 0 && count(shape) != 0) throw ValueError("a cannot be empty unless no samples are taken");
  const ndarray idx = choice(pop == 0 ? 1 : pop, size, replace, p, 0, shuffle);
  return take(a, idx, {.axis = ax});
}

std::string Generator::bytes(std::int64_t length) {
  if (length < 0) throw ValueError("negative dimensions are not allowed");
  const std::int64_t words = (length + 3) / 4;
  ndarray raw = empty({words}, uint32);
  if (words > 0) {
    long long n = words;
    philox_call call = reserve(bits_, static_cast<std::uint64_t>((words + 3) / 4));
    void* data = raw.data();
    void* args[] = {&data, &n, &call};
    launch(raw.device(), k_raw32, (words + 3) / 4, args);
  }
  const std::vector<std::uint32_t> host = raw.to_vector<std::uint32_t>();
  std::string out(static_cast<std::size_t>(length), '\0');
  if (length > 0) std::memcpy(out.data(), host.data(), static_cast<std::size_t>(length));
  return out;
}

}  // namespace cupp::random
