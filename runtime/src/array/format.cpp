// NumPy's array repr for host data (host_array::repr, ndarray::repr): element formats (bool,
// integers, floats in positional or scientific notation with the shortest unique digits up to
// 8 decimals, complex, structured tuples, void bytes), line wrapping at 75 columns, and
// summarisation with '...' beyond 1000 elements (3 edge items), like numpy.array_repr.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "array/convert.hpp"
#include "array/layout.hpp"
#include "cupp/host_array.hpp"

namespace cupp {

namespace {

constexpr int line_width = 75;
constexpr std::int64_t threshold = 1000;
constexpr std::int64_t edge_items = 3;
constexpr int float_precision = 8;

// Reads element `i` of a built-in dtype as double / complex.
double as_double(const std::byte* p, type_id id) {
  return detail::visit_builtin(id, [&](auto t) -> double {
    using T = typename decltype(t)::type;
    T v;
    std::memcpy(&v, p, sizeof(T));
    if constexpr (detail::is_complex_v<T>) return static_cast<double>(v.real());
    else return static_cast<double>(v);
  });
}

// Whether the decimal text parses back to v in the float type `id`.
bool round_trips(const char* text, double v, type_id id) {
  switch (id) {
    case type_id::float32: case type_id::complex64: return std::strtof(text, nullptr) == static_cast<float>(v);
    case type_id::float16: return static_cast<float>(float16_t(std::strtod(text, nullptr))) == static_cast<float>(v);
    case type_id::bfloat16: return static_cast<float>(bfloat16_t(std::strtod(text, nullptr))) == static_cast<float>(v);
    default: return std::strtod(text, nullptr) == v;
  }
}

// The shortest text of v ("%.{p}f" or "%.{p}e") that round-trips in its type, at most 8
// decimals (beyond that rounded to 8 with trailing zeros removed), as Dragon4's unique mode.
std::string shortest(double v, type_id id, char conv) {
  char buf[512];
  for (int p = 0; p <= float_precision; ++p) {
    std::snprintf(buf, sizeof buf, conv == 'f' ? "%.*f" : "%.*e", p, v);
    if (round_trips(buf, v, id)) return buf;
  }
  std::string s = buf;
  const std::size_t e = s.find('e');
  std::string mant = s.substr(0, e), rest = e == std::string::npos ? "" : s.substr(e);
  while (mant.size() > 1 && mant.back() == '0') mant.pop_back();
  return mant + rest;
}

// Splits "-12.5" into int part "-12" and fraction "5" ("3" -> "3", "").
void split_point(const std::string& s, std::string& int_part, std::string& frac) {
  const std::size_t dot = s.find('.');
  int_part = s.substr(0, dot);
  frac = dot == std::string::npos ? "" : s.substr(dot + 1);
}

// numpy's FloatingFormat (floatmode 'maxprec', precision 8, suppress off).
class float_format {
 public:
  float_format(const std::vector<double>& values, type_id id, bool plus) : id_(id), plus_(plus) {
    std::vector<double> finite;
    for (double v : values)
      if (std::isfinite(v)) finite.push_back(v);
    bool have_nonzero = false;
    double max_val = 0, min_val = 0;
    for (double v : finite) {
      if (v == 0) continue;
      const double a = std::fabs(v);
      if (!have_nonzero) max_val = min_val = a;
      max_val = std::max(max_val, a);
      min_val = std::min(min_val, a);
      have_nonzero = true;
    }
    if (have_nonzero) {
      double ratio = max_val / min_val;
      if (id == type_id::float16) ratio = static_cast<float>(float16_t(ratio));  // overflows like NumPy's
      if (id == type_id::float32 || id == type_id::complex64) ratio = static_cast<float>(ratio);
      exp_ = max_val >= 1e8 || min_val < 0.0001 || ratio > 1000.;
    }
    if (finite.empty()) {
      pad_left_ = pad_right_ = 0;
      exp_size_ = -1;
      exp_ = false;
    } else if (exp_) {
      std::size_t frac_max = 0, exp_max = 0;
      for (double v : finite) {
        const std::string s = with_sign(shortest(v, id_, 'e'), v);
        const std::size_t e = s.find('e');
        std::string ip, fp;
        split_point(s.substr(0, e), ip, fp);
        pad_left_ = std::max<int>(pad_left_, static_cast<int>(ip.size()));
        frac_max = std::max(frac_max, fp.size());
        exp_max = std::max(exp_max, s.size() - e - 2);  // digits after "e+"
      }
      precision_ = static_cast<int>(frac_max);
      exp_size_ = static_cast<int>(exp_max);
      pad_right_ = exp_size_ + 2 + precision_;
    } else {
      for (double v : finite) {
        std::string ip, fp;
        split_point(with_sign(shortest(v, id_, 'f'), v), ip, fp);
        pad_left_ = std::max<int>(pad_left_, static_cast<int>(ip.size()));
        pad_right_ = std::max<int>(pad_right_, static_cast<int>(fp.size()));
      }
    }
    if (finite.size() != values.size()) {
      bool neginf = plus_;
      for (double v : values)
        if (std::isinf(v) && v < 0) neginf = true;
      const int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + (neginf ? 1 : 0) - offset});
    }
  }

  std::string operator()(double v) const {
    if (!std::isfinite(v)) {
      std::string r = std::isnan(v) ? (plus_ ? "+nan" : "nan") : (v < 0 ? "-inf" : (plus_ ? "+inf" : "inf"));
      const int width = pad_left_ + pad_right_ + 1;
      return std::string(std::max(0, width - static_cast<int>(r.size())), ' ') + r;
    }
    std::string ip, fp;
    if (exp_) {
      const std::string s = with_sign(shortest(v, id_, 'e'), v);
      const std::size_t e = s.find('e');
      split_point(s.substr(0, e), ip, fp);
      fp.resize(std::max<std::size_t>(fp.size(), precision_), '0');
      std::string digits = s.substr(e + 2);
      while (static_cast<int>(digits.size()) < exp_size_) digits.insert(digits.begin(), '0');
      return pad(ip) + "." + fp + "e" + s[e + 1] + digits;
    }
    split_point(with_sign(shortest(v, id_, 'f'), v), ip, fp);
    return pad(ip) + "." + fp + std::string(std::max(0, pad_right_ - static_cast<int>(fp.size())), ' ');
  }

 private:
  std::string with_sign(std::string s, double v) const {
    if (plus_ && !std::signbit(v)) s.insert(s.begin(), '+');
    return s;
  }
  std::string pad(const std::string& ip) const {
    return std::string(std::max(0, pad_left_ - static_cast<int>(ip.size())), ' ') + ip;
  }

  type_id id_;
  bool plus_;
  bool exp_ = false;
  int pad_left_ = 0, pad_right_ = 0, precision_ = 0, exp_size_ = 0;
};

std::string int_text(const std::byte* p, type_id id) {
  return detail::visit_builtin(id, [&](auto t) -> std::string {
    using T = typename decltype(t)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      T v;
      std::memcpy(&v, p, sizeof(T));
      return std::to_string(v);
    } else {
      return {};
    }
  });
}

std::string bytes_repr(const std::byte* p, std::size_t n) {
  std::string s = "b'";
  char buf[8];
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c == '\\' || c == '\'') { s += '\\'; s += static_cast<char>(c); }
    else if (c == '\t') s += "\\t";
    else if (c == '\n') s += "\\n";
    else if (c == '\r') s += "\\r";
    else if (c >= 0x20 && c < 0x7f) s += static_cast<char>(c);
    else {
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      s += buf;
    }
  }
  return s + "'";
}

using element_format = std::function<std::string(const std::byte*)>;

// NumPy's _get_format_function over the shown elements (`items`: their addresses).
element_format make_format(dtype type, const std::vector<const std::byte*>& items, bool zero_d) {
  if (type.is_structured()) {
    std::vector<element_format> parts;
    std::vector<std::size_t> offsets;
    for (const field& f : type.fields()) {
      std::vector<const std::byte*> sub;
      for (const std::byte* p : items) sub.push_back(p + f.offset);
      parts.push_back(make_format(f.type, sub, false));
      offsets.push_back(f.offset);
    }
    return [parts, offsets](const std::byte* p) {
      std::string s = "(";
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (i) s += ", ";
        s += parts[i](p + offsets[i]);
      }
      if (parts.size() == 1) s += ",";
      return s + ")";
    };
  }
  if (!type.is_builtin()) {
    const std::size_t n = type.itemsize();
    return [n](const std::byte* p) { return bytes_repr(p, n); };
  }
  const type_id id = type.id();
  if (type.is_bool()) {
    return [zero_d](const std::byte* p) {
      const bool v = std::to_integer<int>(*p) != 0;
      return v ? std::string(zero_d ? "True" : " True") : std::string("False");
    };
  }
  if (type.is_integer()) {
    std::size_t width = 0;
    for (const std::byte* p : items) width = std::max(width, int_text(p, id).size());
    return [id, width](const std::byte* p) {
      const std::string s = int_text(p, id);
      return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
    };
  }
  if (type.is_floating()) {
    std::vector<double> values;
    for (const std::byte* p : items) values.push_back(as_double(p, id));
    float_format f(values, id, false);
    return [f, id](const std::byte* p) { return f(as_double(p, id)); };
  }
  // complex: real and imaginary parts formatted separately, the imaginary with a sign.
  const std::size_t half = type.itemsize() / 2;
  const type_id part = id == type_id::complex64 ? type_id::float32 : type_id::float64;
  std::vector<double> re, im;
  for (const std::byte* p : items) {
    re.push_back(as_double(p, part));
    im.push_back(as_double(p + half, part));
  }
  float_format fr(re, id, false), fi(im, id, true);
  return [fr, fi, part, half](const std::byte* p) {
    std::string r = fr(as_double(p, part)), i = fi(as_double(p + half, part));
    const std::size_t end = i.find_last_not_of(' ') + 1;
    i.insert(end, "j");
    return r + i;
  };
}

std::string rstrip(std::string s) {
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

struct printer {
  const std::byte* data;
  shape_t shape, strides;
  bool summary;
  element_format format;
  std::string next_line_prefix;

  void extend_line(std::string& s, std::string& line, const std::string& word, int width) const {
    bool wrap = static_cast<int>(line.size() + word.size()) > width;
    if (line.size() <= next_line_prefix.size()) wrap = false;
    if (wrap) {
      s += rstrip(line) + "\n";
      line = next_line_prefix;
    }
    line += word;
  }

  std::string recurse(std::size_t axis, std::int64_t offset, const std::string& hanging, int width) const {
    if (axis == shape.size()) return format(data + offset);
    const std::string next_hanging = hanging + " ";
    const int next_width = width - 1;
    const std::int64_t n = shape[axis];
    const bool show = summary && 2 * edge_items < n;
    const std::int64_t leading = show ? edge_items : 0, trailing = show ? edge_items : n;
    auto at = [&](std::int64_t i) { return offset + i * strides[axis]; };
    std::string s;
    if (axis + 1 == shape.size()) {
      const int elem_width = width - 1;
      std::string line = hanging;
      for (std::int64_t i = 0; i < leading; ++i) {
        extend_line(s, line, recurse(axis + 1, at(i), next_hanging, next_width), elem_width);
        line += ", ";
      }
      if (show) {
        extend_line(s, line, "...", elem_width);
        line += ", ";
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        extend_line(s, line, recurse(axis + 1, at(n - i), next_hanging, next_width), elem_width);
        line += ", ";
      }
      extend_line(s, line, recurse(axis + 1, at(n - 1), next_hanging, next_width), elem_width);
      s += line;
    } else {
      const std::string line_sep = "," + std::string(shape.size() - axis - 1, '\n');
      for (std::int64_t i = 0; i < leading; ++i)
        s += hanging + recurse(axis + 1, at(i), next_hanging, next_width) + line_sep;
      if (show) s += hanging + "..." + line_sep;
      for (std::int64_t i = trailing; i > 1; --i)
        s += hanging + recurse(axis + 1, at(n - i), next_hanging, next_width) + line_sep;
      s += hanging + recurse(axis + 1, at(n - 1), next_hanging, next_width);
    }
    return "[" + s.substr(hanging.size()) + "]";
  }
};

// The addresses of the elements that will be shown (all, or the edges when summarising).
void collect(const printer& p, std::size_t axis, std::int64_t offset, std::vector<const std::byte*>& out) {
  if (axis == p.shape.size()) {
    out.push_back(p.data + offset);
    return;
  }
  const std::int64_t n = p.shape[axis];
  const bool show = p.summary && 2 * edge_items < n;
  for (std::int64_t i = 0; i < n; ++i) {
    if (show && i == edge_items) i = n - edge_items;
    collect(p, axis + 1, offset + i * p.strides[axis], out);
  }
}

bool dtype_is_implied(const dtype& t) {
  return t == int64 || t == float64 || t == complex128 || t == bool_;
}

std::string dtype_short_repr(const dtype& t) {
  if (t.is_structured()) return t.name();
  if (!t.is_builtin()) return "'|" + t.name() + "'";
  return t.name();
}

}  // namespace

std::string host_array::repr() const {
  const std::string prefix = "array(";
  std::string body;
  const std::int64_t n = size();
  if (n == 0) {
    body = "[]";
  } else {
    printer p{data(), shape_, layout::c_strides(shape_, static_cast<std::int64_t>(itemsize())), n > threshold, {},
              std::string(1 + prefix.size(), ' ')};
    std::vector<const std::byte*> shown;
    collect(p, 0, 0, shown);
    p.format = make_format(dtype_, shown, shape_.empty());
    body = p.recurse(0, 0, p.next_line_prefix, line_width - 1);
  }
  std::vector<std::string> extras;
  if ((n == 0 && !(shape_.size() == 1 && shape_[0] == 0)) || n > threshold)
    extras.push_back("shape=" + layout::tuple_string(shape_));
  if (!dtype_is_implied(dtype_) || n == 0) extras.push_back("dtype=" + dtype_short_repr(dtype_));
  if (extras.empty()) return prefix + body + ")";
  const std::string arr = prefix + body + ",";
  std::string extra;
  for (std::size_t i = 0; i < extras.size(); ++i) extra += (i ? ", " : "") + extras[i];
  extra += ")";
  const std::size_t nl = arr.rfind('\n');
  const std::size_t last_line = arr.size() - (nl == std::string::npos ? 0 : nl + 1);
  const std::string spacer =
      static_cast<int>(last_line + extra.size() + 1) > line_width ? "\n" + std::string(prefix.size(), ' ') : " ";
  return arr + spacer + extra;
}

}  // namespace cupp
