// Element access, broadcasting and message layout for cupp::testing (elements.hpp).
#include "elements.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cupp/errors.hpp"
#include "cupp/float16.hpp"

namespace cupp::testing::detail {
namespace {

template <class T>
T load(const std::byte* p) noexcept {
  T t;
  std::memcpy(&t, p, sizeof t);
  return t;
}

value int_value(int128 i) noexcept {
  value v;
  v.is_int = true;
  v.i = i;
  return v;
}

value complex_value(std::complex<double> c) noexcept {
  value v;
  v.c = c;
  return v;
}

}  // namespace

bool value::is_nan() const noexcept { return !is_int && (std::isnan(c.real()) || std::isnan(c.imag())); }
bool value::is_inf() const noexcept { return !is_int && (std::isinf(c.real()) || std::isinf(c.imag())); }

void require_numeric(const host_array& a, std::string_view function) {
  if (!a.dtype().is_builtin()) {
    throw cupp::TypeError(std::string("cupp::testing::") + std::string(function) +
                          ": only numeric and bool arrays can be compared, not dtype " + a.dtype().name());
  }
}

value read(const host_array& a, std::int64_t flat) {
  const std::byte* p = a.data() + static_cast<std::size_t>(flat) * a.itemsize();
  switch (a.dtype().id()) {
    case type_id::bool_: return int_value(load<std::uint8_t>(p) != 0 ? 1 : 0);
    case type_id::int8: return int_value(load<std::int8_t>(p));
    case type_id::int16: return int_value(load<std::int16_t>(p));
    case type_id::int32: return int_value(load<std::int32_t>(p));
    case type_id::int64: return int_value(load<std::int64_t>(p));
    case type_id::uint8: return int_value(load<std::uint8_t>(p));
    case type_id::uint16: return int_value(load<std::uint16_t>(p));
    case type_id::uint32: return int_value(load<std::uint32_t>(p));
    case type_id::uint64: return int_value(load<std::uint64_t>(p));
    case type_id::float16: return complex_value(static_cast<double>(load<float16_t>(p)));
    case type_id::bfloat16: return complex_value(static_cast<double>(static_cast<float>(load<bfloat16_t>(p))));
    case type_id::float32: return complex_value(static_cast<double>(load<float>(p)));
    case type_id::float64: return complex_value(load<double>(p));
    case type_id::complex64: {
      const auto z = load<std::complex<float>>(p);
      return complex_value({z.real(), z.imag()});
    }
    case type_id::complex128: return complex_value(load<std::complex<double>>(p));
    default: throw cupp::TypeError("cupp::testing: cannot compare elements of dtype " + a.dtype().name());
  }
}

bool equal(const value& x, const value& y) noexcept {
  if (x.is_int && y.is_int) return x.i == y.i;
  return x.as_complex() == y.as_complex();
}

double abs_diff(const value& x, const value& y) noexcept {
  if (x.is_int && y.is_int) {
    const int128 d = x.i - y.i;
    return static_cast<double>(d < 0 ? -d : d);
  }
  const std::complex<double> d = x.as_complex() - y.as_complex();
  return d.imag() == 0 ? std::fabs(d.real()) : std::abs(d);
}

double magnitude(const value& v) noexcept {
  if (v.is_int) return static_cast<double>(v.i < 0 ? -v.i : v.i);
  return v.c.imag() == 0 ? std::fabs(v.c.real()) : std::abs(v.c);
}

float_kind kind_of(const dtype& t) noexcept {
  switch (t.id()) {
    case type_id::float16: return float_kind::f16;
    case type_id::bfloat16: return float_kind::bf16;
    case type_id::float32:
    case type_id::complex64: return float_kind::f32;
    default: return float_kind::f64;
  }
}

std::string int128_str(int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  uint128 u = negative ? static_cast<uint128>(-(v + 1)) + 1 : static_cast<uint128>(v);
  std::string out;
  while (u != 0) {
    out.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) out.push_back('-');
  std::reverse(out.begin(), out.end());
  return out;
}

std::string element_str(const host_array& a, std::int64_t flat) {
  const value v = read(a, flat);
  const dtype t = a.dtype();
  if (t.is_bool()) return v.i != 0 ? "True" : "False";
  if (t.is_integer()) return int128_str(v.i);
  if (t.is_complex()) return complex_str(v.c, kind_of(t));
  return scalar_str(v.c.real(), kind_of(t));
}

std::int64_t element_count(const shape_t& shape) noexcept {
  std::int64_t n = 1;
  for (const auto d : shape) n *= d;
  return n;
}

std::optional<shape_t> broadcast_shapes(const shape_t& a, const shape_t& b) {
  const std::size_t nd = std::max(a.size(), b.size());
  shape_t out(nd, 1);
  for (std::size_t k = 0; k < nd; ++k) {
    const std::int64_t da = k < nd - a.size() ? 1 : a[k - (nd - a.size())];
    const std::int64_t db = k < nd - b.size() ? 1 : b[k - (nd - b.size())];
    if (da != db && da != 1 && db != 1) return std::nullopt;
    out[k] = da == 1 ? db : da;
  }
  return out;
}

std::vector<std::int64_t> broadcast_map(const shape_t& a, const shape_t& target) {
  const std::size_t nd = target.size();
  const std::size_t lead = nd - a.size();
  std::vector<std::int64_t> stride(nd, 0);  // element strides of a in target's dimensions
  std::int64_t s = 1;
  for (std::size_t k = a.size(); k-- > 0;) {
    stride[lead + k] = a[k] == 1 ? 0 : s;
    s *= a[k];
  }
  const std::int64_t n = element_count(target);
  std::vector<std::int64_t> map(static_cast<std::size_t>(n));
  std::vector<std::int64_t> index(nd, 0);
  std::int64_t offset = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    map[static_cast<std::size_t>(i)] = offset;
    for (std::size_t k = nd; k-- > 0;) {  // odometer step in C order
      ++index[k];
      offset += stride[k];
      if (index[k] < target[k]) break;
      offset -= stride[k] * index[k];
      index[k] = 0;
    }
  }
  return map;
}

std::string index_str(std::int64_t flat, const shape_t& shape) {
  std::vector<std::int64_t> index(shape.size());
  for (std::size_t k = shape.size(); k-- > 0;) {
    index[k] = flat % shape[k];
    flat /= shape[k];
  }
  std::string out = "[";
  for (std::size_t k = 0; k < index.size(); ++k) {
    if (k > 0) out += ", ";
    out += std::to_string(index[k]);
  }
  return out + "]";
}

namespace {
std::string cut_repr(const host_array& a) {
  std::string r = a.repr();
  std::size_t pos = 0;
  for (int line = 0; line < 3; ++line) {
    pos = r.find('\n', pos);
    if (pos == std::string::npos) return r;
    ++pos;
  }
  // More than 3 newlines means more than 4 lines: keep the first 3.
  if (r.find('\n', pos) == std::string::npos) return r;
  return r.substr(0, pos - 1) + "...";
}
}  // namespace

std::string build_message(std::string_view header, std::string_view err_msg, std::string_view remarks,
                          const host_array& x, const host_array& y, std::string_view name_x, std::string_view name_y) {
  std::string msg(header);
  const std::string text = std::string(err_msg) + std::string(remarks);
  if (!text.empty()) {
    if (text.find('\n') == std::string::npos && text.size() + header.size() < 79) msg += " " + text;
    else msg += "\n" + text;
  }
  msg += "\n " + std::string(name_x) + ": " + cut_repr(x);
  msg += "\n " + std::string(name_y) + ": " + cut_repr(y);
  return msg;
}

}  // namespace cupp::testing::detail
