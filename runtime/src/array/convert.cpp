// Host-side element conversion, scalar fill bytes and byte swapping (convert.hpp).
#include "array/convert.hpp"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>

#include "cupp/errors.hpp"

namespace cupp::detail {

void convert_elements(const std::byte* src, dtype src_type, std::byte* dst, dtype dst_type, std::size_t n) {
  if (src_type == dst_type) {
    if (n) std::memcpy(dst, src, n * src_type.itemsize());
    return;
  }
  if (!src_type.is_builtin() || !dst_type.is_builtin())
    throw TypeError("Cannot cast array data from dtype('" + src_type.name() + "') to dtype('" + dst_type.name() +
                    "'): structured dtypes support field access only");
  visit_builtin(src_type.id(), [&](auto s) {
    using S = typename decltype(s)::type;
    visit_builtin(dst_type.id(), [&](auto d) {
      using D = typename decltype(d)::type;
      for (std::size_t i = 0; i < n; ++i) {
        S v;
        std::memcpy(&v, src + i * sizeof(S), sizeof(S));
        const D r = convert_value<D>(v);
        std::memcpy(dst + i * sizeof(D), &r, sizeof(D));
      }
    });
  });
}

namespace {

void scalar_into(const weak_scalar& value, dtype type, std::byte* out) {
  if (type.is_structured()) {
    for (const field& f : type.fields()) scalar_into(value, f.type, out + f.offset);
    return;
  }
  if (!type.is_builtin())
    throw TypeError("cannot set elements of dtype " + type.name() + " from a number");
  using kind = weak_scalar::kind;
  if (value.scalar_kind() == kind::complex_ && !type.is_complex())
    throw TypeError("cannot assign a complex value to an array of dtype " + type.name() +
                    " (NumPy would drop the imaginary part with a ComplexWarning)");
  if (value.scalar_kind() == kind::int_ && type.is_integer() && !value.fits(type))
    throw OverflowError("Python integer " + std::string(value.is_negative() ? "-" : "") +
                        std::to_string(value.magnitude()) + " out of bounds for " + type.name());
  visit_builtin(type.id(), [&](auto t) {
    using T = typename decltype(t)::type;
    T r{};
    switch (value.scalar_kind()) {
      case kind::bool_:
        r = convert_value<T>(value.magnitude() != 0);
        break;
      case kind::int_:
        if (value.is_negative()) r = convert_value<T>(static_cast<std::int64_t>(0 - value.magnitude()));
        else r = convert_value<T>(value.magnitude());
        break;
      case kind::float_:
        r = convert_value<T>(value.real());
        break;
      case kind::complex_:
        r = convert_value<T>(std::complex<double>(value.real(), value.imag()));
        break;
    }
    std::memcpy(out, &r, sizeof(T));
  });
}

}  // namespace

std::vector<std::byte> scalar_bytes(const weak_scalar& value, dtype type) {
  std::vector<std::byte> bytes(type.itemsize());
  scalar_into(value, type, bytes.data());
  return bytes;
}

void byteswap(std::byte* data, dtype type, std::size_t n) {
  const std::size_t size = type.itemsize();
  if (type.is_structured()) {
    for (std::size_t i = 0; i < n; ++i)
      for (const field& f : type.fields()) byteswap(data + i * size + f.offset, f.type, 1);
    return;
  }
  if (!type.is_builtin()) return;
  const std::size_t part = type.is_complex() ? size / 2 : size;
  if (part == 1) return;
  for (std::byte* p = data; p < data + n * size; p += part) std::reverse(p, p + part);
}

}  // namespace cupp::detail
