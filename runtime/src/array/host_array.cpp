// cupp::host_array: construction, element access (to_vector, item) with their type checks.
// (repr is in format.cpp; pending_host_array, which needs CUDA, in transfer.cpp.)
#include "cupp/host_array.hpp"

#include <cstring>
#include <string>

#include "array/convert.hpp"
#include "array/layout.hpp"
#include "cupp/errors.hpp"

namespace cupp {

host_array::host_array(cupp::dtype type, shape_t shape) : dtype_(type), shape_(std::move(shape)) {
  const std::int64_t n = layout::checked_size(shape_);
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(n), type.itemsize(), &bytes))
    throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  bytes_.resize(bytes);
}

std::int64_t host_array::size() const noexcept {
  std::int64_t n = 1;
  for (std::int64_t d : shape_) n *= d;
  return n;
}

template <class T>
std::vector<T> host_array::to_vector() const {
  const cupp::dtype want = dtype_of<T>();
  if (!(want == dtype_))
    throw TypeError("to_vector: the array's dtype is " + dtype_.name() + ", but the element type asked for is " +
                    want.name() + " (use astype, or a matching C++ type)");
  const std::size_t n = static_cast<std::size_t>(size());
  std::vector<T> out(n);
  if constexpr (std::is_same_v<T, bool>) {
    for (std::size_t i = 0; i < n; ++i) out[i] = std::to_integer<int>(bytes_[i]) != 0;
  } else {
    if (n) std::memcpy(out.data(), bytes_.data(), n * sizeof(T));
  }
  return out;
}

template <class T>
T host_array::item() const {
  if (size() != 1) throw ValueError("can only convert an array of size 1 to a Python scalar");
  if (!dtype_.is_builtin())
    throw TypeError("item: dtype " + dtype_.name() + " has no C++ scalar type (structured dtypes support field access only)");
  if (dtype_.is_complex() && !detail::is_complex_v<T>)
    throw TypeError("item: cannot convert a complex value (dtype " + dtype_.name() + ") to a real C++ type");
  return detail::visit_builtin(dtype_.id(), [&](auto t) -> T {
    using S = typename decltype(t)::type;
    S v;
    std::memcpy(&v, bytes_.data(), sizeof(S));
    return detail::convert_value<T>(v);
  });
}

#define CUPP_HOST_ARRAY_INSTANTIATE(T)                    \
  template std::vector<T> host_array::to_vector<T>() const; \
  template T host_array::item<T>() const;
CUPP_HOST_ARRAY_INSTANTIATE(bool)
CUPP_HOST_ARRAY_INSTANTIATE(signed char)
CUPP_HOST_ARRAY_INSTANTIATE(unsigned char)
CUPP_HOST_ARRAY_INSTANTIATE(short)
CUPP_HOST_ARRAY_INSTANTIATE(unsigned short)
CUPP_HOST_ARRAY_INSTANTIATE(int)
CUPP_HOST_ARRAY_INSTANTIATE(unsigned int)
CUPP_HOST_ARRAY_INSTANTIATE(long)
CUPP_HOST_ARRAY_INSTANTIATE(unsigned long)
CUPP_HOST_ARRAY_INSTANTIATE(long long)
CUPP_HOST_ARRAY_INSTANTIATE(unsigned long long)
CUPP_HOST_ARRAY_INSTANTIATE(float16_t)
CUPP_HOST_ARRAY_INSTANTIATE(bfloat16_t)
CUPP_HOST_ARRAY_INSTANTIATE(float)
CUPP_HOST_ARRAY_INSTANTIATE(double)
CUPP_HOST_ARRAY_INSTANTIATE(std::complex<float>)
CUPP_HOST_ARRAY_INSTANTIATE(std::complex<double>)
#undef CUPP_HOST_ARRAY_INSTANTIATE

}  // namespace cupp
