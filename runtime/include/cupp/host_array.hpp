// cupp::host_array: array data on the host, as ndarray::get() returns it — a dtype, a shape and
// a contiguous C-order buffer in native (little-endian) byte order. Also the currency of .npy
// I/O and of uploads. pending_host_array is the result of a non-blocking download.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/float16.hpp"

namespace cupp {

using shape_t = std::vector<std::int64_t>;

// The C++ types that hold one element of a built-in dtype on the host.
template <class T>
inline constexpr bool is_host_element_v =
    std::is_arithmetic_v<T> || std::is_same_v<T, float16_t> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// The dtype of a C++ element type: bool, int8..uint64 by width and signedness, float16_t,
// bfloat16_t, float, double, std::complex<float/double>. (A plain `int` is int32 here:
// cupp::asarray of host values keeps C++'s widths. Python-style int -> int64 inference applies to
// initializer lists of integer literals, see cupp::array.)
template <class T>
inline cupp::dtype dtype_of() {
  static_assert(is_host_element_v<T> && !std::is_same_v<T, long double>, "no cupp dtype for this C++ type");
  if constexpr (std::is_same_v<T, bool>) return type_id::bool_;
  else if constexpr (std::is_same_v<T, float16_t>) return type_id::float16;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return type_id::bfloat16;
  else if constexpr (std::is_same_v<T, float>) return type_id::float32;
  else if constexpr (std::is_same_v<T, double>) return type_id::float64;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return type_id::complex64;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return type_id::complex128;
  else if constexpr (std::is_signed_v<T>) {
    if constexpr (sizeof(T) == 1) return type_id::int8;
    else if constexpr (sizeof(T) == 2) return type_id::int16;
    else if constexpr (sizeof(T) == 4) return type_id::int32;
    else return type_id::int64;
  } else {
    if constexpr (sizeof(T) == 1) return type_id::uint8;
    else if constexpr (sizeof(T) == 2) return type_id::uint16;
    else if constexpr (sizeof(T) == 4) return type_id::uint32;
    else return type_id::uint64;
  }
}

class host_array {
 public:
  // An empty 0-element float64 array of shape (0,).
  host_array() : shape_{0} {}
  // Zero-initialised storage for `shape` elements of `type`, C order. ValueError for a negative
  // dimension or more than 64 dimensions.
  host_array(cupp::dtype type, shape_t shape);
  // The given values as a 1-d array of their dtype_of<T>().
  template <class T>
  static host_array from(std::span<const T> values) {
    host_array h(dtype_of<T>(), shape_t{static_cast<std::int64_t>(values.size())});
    if (!values.empty()) std::memcpy(h.data(), values.data(), values.size_bytes());
    return h;
  }

  cupp::dtype dtype() const noexcept { return dtype_; }
  const shape_t& shape() const noexcept { return shape_; }
  int ndim() const noexcept { return static_cast<int>(shape_.size()); }
  std::int64_t size() const noexcept;
  std::size_t itemsize() const noexcept { return dtype_.itemsize(); }
  std::size_t nbytes() const noexcept { return bytes_.size(); }
  std::byte* data() noexcept { return bytes_.data(); }
  const std::byte* data() const noexcept { return bytes_.data(); }
  std::span<const std::byte> bytes() const noexcept { return bytes_; }
  std::span<std::byte> bytes() noexcept { return bytes_; }

  // The elements as T. T must be a host type of the dtype itself (float for float32, float16_t
  // for float16, int/long/long long of the right width, ...), else TypeError naming both.
  template <class T>
  std::vector<T> to_vector() const;
  // The single element of a 0-d or one-element array (ValueError otherwise), converted to T as
  // NumPy's item() then a C++ static_cast would (complex to real: TypeError; structured: TypeError).
  template <class T>
  T item() const;

  // NumPy's repr: array([1., 2.], dtype=float32), summarised with '...' beyond 1000 elements.
  std::string repr() const;

 private:
  cupp::dtype dtype_;
  shape_t shape_;
  std::vector<std::byte> bytes_;
};

// A download in flight (ndarray::get_nonblocking): the copy is enqueued on a stream into pinned
// memory; wait() blocks until it is done and returns the data.
class pending_host_array {
 public:
  pending_host_array() noexcept;
  pending_host_array(pending_host_array&&) noexcept;
  pending_host_array& operator=(pending_host_array&&) noexcept;
  ~pending_host_array();  // waits for the copy if still running (never throws)
  bool valid() const noexcept { return state_ != nullptr; }  // false after wait() or when default-made
  bool ready() const;  // true when the copy has finished (ValueError when !valid())
  host_array wait();   // blocks; callable once (ValueError after)

  struct state;  // the implementation's (opaque)

 private:
  friend struct ndarray_access;
  std::unique_ptr<state> state_;
};

}  // namespace cupp
