// Internal: host-side element work for arrays until the copy/cast kernels arrive — converting
// elements between built-in dtypes (C++ casts with NumPy's results: bool is nonzero, complex to
// real keeps the real part, float to int of NaN/out of range gives the minimum), the bytes of
// one element set from a weak scalar (NumPy's `a[...] = value`), byte swapping, and a type
// dispatcher over the built-in dtypes' host types.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/float16.hpp"
#include "cupp/promotion.hpp"

namespace cupp::detail {

template <class T>
struct type_tag {
  using type = T;
};

// Calls f(type_tag<T>{}) with the host type T of the built-in dtype `id`.
template <class F>
decltype(auto) visit_builtin(type_id id, F&& f) {
  switch (id) {
    case type_id::bool_: return f(type_tag<bool>{});
    case type_id::int8: return f(type_tag<std::int8_t>{});
    case type_id::int16: return f(type_tag<std::int16_t>{});
    case type_id::int32: return f(type_tag<std::int32_t>{});
    case type_id::int64: return f(type_tag<std::int64_t>{});
    case type_id::uint8: return f(type_tag<std::uint8_t>{});
    case type_id::uint16: return f(type_tag<std::uint16_t>{});
    case type_id::uint32: return f(type_tag<std::uint32_t>{});
    case type_id::uint64: return f(type_tag<std::uint64_t>{});
    case type_id::float16: return f(type_tag<float16_t>{});
    case type_id::bfloat16: return f(type_tag<bfloat16_t>{});
    case type_id::float32: return f(type_tag<float>{});
    case type_id::float64: return f(type_tag<double>{});
    case type_id::complex64: return f(type_tag<std::complex<float>>{});
    default: return f(type_tag<std::complex<double>>{});
  }
}

template <class T>
inline constexpr bool is_complex_v = false;
template <class T>
inline constexpr bool is_complex_v<std::complex<T>> = true;

// One value converted as NumPy's unsafe cast does on x86 (the C++ cast where it is defined).
template <class D, class S>
D convert_value(const S& v) {
  if constexpr (is_complex_v<S> && !is_complex_v<D>) {
    return convert_value<D>(v.real());
  } else if constexpr (std::is_same_v<S, float16_t> || std::is_same_v<S, bfloat16_t>) {
    return convert_value<D>(static_cast<float>(v));
  } else if constexpr (std::is_same_v<D, bool>) {
    return v != S{};
  } else if constexpr (is_complex_v<D>) {
    using R = typename D::value_type;
    if constexpr (is_complex_v<S>) return D(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    else return D(static_cast<R>(v), R{0});
  } else if constexpr (std::is_same_v<D, float16_t> || std::is_same_v<D, bfloat16_t>) {
    return D(static_cast<double>(v));
  } else if constexpr (std::is_integral_v<D> && std::is_floating_point_v<S>) {
    // As x86-64 code compiled from C casts does (NumPy's results there): int32 and narrower
    // convert through a 32-bit cvttsd2si, wider types through the 64-bit one; NaN and values out
    // of range give the "integer indefinite" (the minimum), then truncate.
    const double x = static_cast<double>(v);
    if constexpr (std::is_unsigned_v<D> && sizeof(D) == 8) {
      if (x >= 0 && x < 18446744073709551616.0) return static_cast<D>(x);
    }
    if constexpr (sizeof(D) <= 2 || (sizeof(D) == 4 && std::is_signed_v<D>)) {
      if (!(x > -2147483649.0 && x < 2147483648.0)) return static_cast<D>(std::numeric_limits<std::int32_t>::min());
      return static_cast<D>(static_cast<std::int32_t>(x));
    } else {
      if (!(x >= -9223372036854775808.0 && x < 9223372036854775808.0))
        return static_cast<D>(std::numeric_limits<std::int64_t>::min());
      return static_cast<D>(static_cast<std::int64_t>(x));
    }
  } else {
    return static_cast<D>(v);
  }
}

// Converts n contiguous elements between built-in dtypes (the same dtype: a byte copy).
void convert_elements(const std::byte* src, dtype src_type, std::byte* dst, dtype dst_type, std::size_t n);

// The bytes of one element of `type` set from `value` as NumPy's `a[...] = value` does (see
// ndarray::fill); structured dtypes get the value in every field. `op` names the caller.
std::vector<std::byte> scalar_bytes(const weak_scalar& value, dtype type);

// Reverses the byte order of n elements in place (complex: each part; structured: each field;
// void: unchanged).
void byteswap(std::byte* data, dtype type, std::size_t n);

}  // namespace cupp::detail
