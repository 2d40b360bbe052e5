// cupp::ndarray: NumPy's array on the GPU. A handle with shared ownership of device memory:
// copying an ndarray (or assigning one ndarray variable to another) shares the data, like a
// Python name; a.copy() copies. Runtime dtype, shape, byte strides (negative and zero allowed),
// byte offset, device; up to 64 dimensions; 0-d and empty arrays.
//
// Indexing: a(1, cupp::slice(0, 10, 2), cupp::newaxis, cupp::ellipsis) is a view. Writing goes
// through a view: `a(0, cupp::slice()) = b;` assigns into the data (broadcasting, same_kind
// casting), while `x = b;` on a named ndarray rebinds x, as in Python. With an integer or bool
// ndarray (or a C++ bool) among the items, a(...) is NumPy's advanced indexing and gives a
// cupp::index_ref: `ndarray b = a(idx, cupp::slice());` copies (getitem), `a(mask) = 0.0;` writes
// (setitem). The rules and kernels: cupp/indexing.hpp.
//
// View functions (indexing, reshape when strides allow, transpose, broadcast_to, view(dtype),
// field, ...) do no device work at all. docs/arrays.md is the user guide.
#pragma once

#include <complex>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "cupp/dims.hpp"
#include "cupp/dtype.hpp"
#include "cupp/host_array.hpp"
#include "cupp/promotion.hpp"

namespace cupp {

inline constexpr int max_ndim = 64;

// cupp::slice(start, stop, step) — NumPy's start:stop:step; nullopt is an omitted bound.
// slice() is `:`, slice(stop) is `:stop`.
struct slice {
  std::optional<std::int64_t> start, stop, step;
  slice() = default;
  explicit slice(std::optional<std::int64_t> stop_) : stop(stop_) {}
  slice(std::optional<std::int64_t> start_, std::optional<std::int64_t> stop_,
        std::optional<std::int64_t> step_ = std::nullopt)
      : start(start_), stop(stop_), step(step_) {}
};
struct newaxis_t {};
struct ellipsis_t {};
inline constexpr newaxis_t newaxis{};
inline constexpr ellipsis_t ellipsis{};

// One item of a basic index.
using index_item = std::variant<std::int64_t, slice, newaxis_t, ellipsis_t>;

// Who owns wrapped external memory: released when the last array viewing it goes away.
// (A deleter becomes an owner: std::shared_ptr<void>(ptr, deleter).)
using memory_owner = std::shared_ptr<const void>;

// How host data goes to the device (asarray, assign).
struct upload_options {
  // false (default): the copy is enqueued on the current stream and the call returns. Data in
  // pageable memory is first staged into pinned memory, so the caller may reuse it at once;
  // data already in pinned (page-locked) memory is copied straight from it, so it must stay
  // unchanged until the stream reaches the copy. true: the call returns when the copy is done.
  bool blocking = false;
  // The host data is big-endian (e.g. '>f8' from a file): bytes are swapped on the way.
  bool big_endian = false;
};

class ndarray;
class index_ref;
namespace detail {
// An item that makes a(...) advanced indexing: an ndarray (integer or bool) or a C++ bool.
template <class T>
inline constexpr bool is_advanced_item_v =
    std::is_same_v<std::remove_cvref_t<T>, ndarray> || std::is_same_v<std::remove_cvref_t<T>, bool>;
}  // namespace detail

class ndarray {
 public:
  // A null handle: holds no array; every operation but assignment throws ValueError.
  ndarray() noexcept = default;

  // ---- properties
  bool is_null() const noexcept { return !has_array_; }
  cupp::dtype dtype() const noexcept { return dtype_; }
  int ndim() const noexcept { return static_cast<int>(shape_.size()); }
  std::span<const std::int64_t> shape() const noexcept { return shape_; }
  std::span<const std::int64_t> strides() const noexcept { return strides_; }  // bytes
  std::int64_t shape(int axis) const;      // negative axes count from the end; AxisError
  std::int64_t stride(int axis) const;     // bytes; negative axes count from the end
  std::int64_t size() const noexcept { return size_; }
  std::size_t itemsize() const noexcept { return dtype_.itemsize(); }
  std::size_t nbytes() const noexcept { return static_cast<std::size_t>(size_) * itemsize(); }
  std::int64_t offset() const noexcept { return offset_; }  // bytes from the memory's start
  int device() const noexcept { return device_; }
  bool is_c_contiguous() const noexcept;   // NumPy's flags (dimensions of length 1 ignored)
  bool is_f_contiguous() const noexcept;
  bool writeable() const noexcept { return writeable_; }
  // Address of the first element (memory start + offset); null for an empty array.
  void* data() const noexcept;
  // What keeps the data alive: the cupp::cuda::Memory block, or a wrapped pointer's owner.
  const std::shared_ptr<const void>& base() const noexcept { return memory_; }

  // ---- views (no device work)
  // Basic items give a view (an ndarray); an ndarray or bool item gives an index_ref (below).
  template <class... I>
  std::conditional_t<(detail::is_advanced_item_v<I> || ...), index_ref, ndarray> operator()(I&&... items) const;
  ndarray index(std::span<const index_item> items) const;
  // A view when the strides allow (NumPy's no-copy rule), else a C-order copy; one -1 inferred.
  ndarray reshape(std::span<const std::int64_t> shape) const;
  ndarray reshape(std::initializer_list<std::int64_t> shape) const {
    return reshape(std::span<const std::int64_t>(shape.begin(), shape.size()));
  }
  ndarray ravel() const;                                        // a view when possible, else a copy
  ndarray flatten() const { return ravel().copy(); }            // always a copy
  ndarray transpose() const;                                    // reverses the axes
  ndarray transpose(std::span<const int> axes) const;
  ndarray transpose(std::initializer_list<int> axes) const {
    return transpose(std::span<const int>(axes.begin(), axes.size()));
  }
  ndarray T() const { return transpose(); }
  ndarray swapaxes(int a, int b) const;
  ndarray moveaxis(int source, int destination) const;
  ndarray squeeze() const;
  ndarray squeeze(std::span<const int> axes) const;             // ValueError for an axis of length != 1
  ndarray expand_dims(int axis) const;
  ndarray view(cupp::dtype type) const;                         // reinterpret (NumPy's rules for the last axis)
  ndarray real() const;                                         // complex: a view of the real parts; else itself
  ndarray imag() const;                                         // complex: a view; else read-only zeros (NumPy)
  ndarray diagonal(std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) const;  // a read-only view, as NumPy
  // A structured array's field as a view with the field's dtype. ValueError for an unknown name,
  // or a field the GPU cannot address aligned (offset or strides not a multiple of its alignment).
  ndarray field(std::string_view name) const;
  ndarray operator[](std::string_view field_name) const { return field(field_name); }

  // ---- copies and host transfers
  ndarray copy() const;                                         // C order; same device
  host_array get() const;                                       // blocks until the data is on the host
  // Enqueues the download on the current stream into pinned memory and returns at once; the
  // result's wait() gives the host_array.
  pending_host_array get_nonblocking() const;
  template <class T>
  std::vector<T> to_vector() const { return get().to_vector<T>(); }
  template <class T>
  T item() const { return get().item<T>(); }

  // ---- writing through a view: `a(...) = b` (temporaries only; a named array rebinds)
  const ndarray& operator=(const ndarray& source) &&;
  const ndarray& operator=(const host_array& source) &&;
  const ndarray& operator=(const weak_scalar& value) &&;
  ndarray& operator=(const ndarray& other) & = default;         // rebinds, like a Python name
  ndarray& operator=(ndarray&& other) & noexcept = default;
  ndarray(const ndarray&) = default;
  ndarray(ndarray&&) noexcept = default;
  ~ndarray() = default;
  // Writes `source` (broadcast to this shape, same_kind cast) into this array's elements.
  // ValueError when this array is read-only or the shapes do not broadcast; TypeError for a
  // cast same_kind forbids. The source is read fully before anything is written, so overlap
  // between source and destination is safe.
  void assign(const ndarray& source) const;
  void assign(const host_array& source, upload_options options = {}) const;
  // Sets every element to `value` as NumPy's `a[...] = value` does: an integer that does not fit
  // an integer dtype is an OverflowError; a float into an integer dtype truncates; a complex
  // value into a real dtype is a TypeError (NumPy warns and drops the imaginary part). For a
  // structured dtype every field is set.
  void fill(const weak_scalar& value) const;

  std::string repr() const;  // array([1., 2.], dtype=float32), summarised when large

 private:
  friend struct ndarray_access;  // construction from the implementation
  static index_item to_index_item(newaxis_t) { return newaxis_t{}; }
  static index_item to_index_item(ellipsis_t) { return ellipsis_t{}; }
  static index_item to_index_item(const slice& s) { return s; }
  template <std::integral T>
  static index_item to_index_item(T i) { return static_cast<std::int64_t>(i); }

  std::shared_ptr<const void> memory_;  // cupp::cuda::Memory, or an external owner
  cupp::dtype dtype_;
  detail::dims shape_, strides_;  // inline up to six dimensions
  std::int64_t size_ = 0;
  std::int64_t offset_ = 0;
  void* base_ptr_ = nullptr;  // start of the memory the offset counts from
  int device_ = 0;
  bool writeable_ = true;
  bool has_array_ = false;  // false only for a default-constructed (null) handle
};

std::ostream& operator<<(std::ostream& os, const ndarray& a);  // repr()

// ---- advanced indexing (NumPy's a[...] with index arrays; cupp/indexing.hpp has the details)
// One item: a basic item, an integer or bool ndarray (a 0-d integer array is an integer), or a
// bool scalar (NumPy's a[True]).
using array_index_item = std::variant<std::int64_t, slice, newaxis_t, ellipsis_t, ndarray, bool>;
// a[items] (a copy; a view when every item is basic) and a[items] = values (values broadcast to
// the indexed shape, same_kind cast; duplicate indices: the last write wins).
ndarray getitem(const ndarray& a, std::span<const array_index_item> items);
void setitem(const ndarray& a, std::span<const array_index_item> items, const ndarray& values);
void setitem(const ndarray& a, std::span<const array_index_item> items, const weak_scalar& value);
void setitem(const ndarray& a, std::span<const array_index_item> items, const host_array& values);

// What a(...) with an advanced item returns: the array and the items, not yet evaluated. It
// converts to an ndarray (getitem: `ndarray b = a(idx);`, or .eval()) and is assigned to
// (setitem: `a(mask) = 0.0;`). Convert it at once: it reads the array when it is converted.
// cupp/ufunc.hpp makes it a ufunc operand and gives it the operators (`cupp::sin(a(idx))`,
// `a(idx) + b`, `a(idx) += 1`): each reads the gathered copy.
class index_ref {
 public:
  index_ref(ndarray base, std::vector<array_index_item> items) : base_(std::move(base)), items_(std::move(items)) {}
  index_ref(const index_ref&) = default;
  operator ndarray() const { return eval(); }  // NOLINT: implicit, as NumPy's a[idx] is an array
  ndarray eval() const { return getitem(base_, items_); }
  host_array get() const { return eval().get(); }
  template <class T>
  std::vector<T> to_vector() const { return eval().to_vector<T>(); }
  const index_ref& operator=(const ndarray& values) && {
    setitem(base_, items_, values);
    return *this;
  }
  const index_ref& operator=(const weak_scalar& value) && {
    setitem(base_, items_, value);
    return *this;
  }
  const index_ref& operator=(const host_array& values) && {
    setitem(base_, items_, values);
    return *this;
  }
  const index_ref& operator=(const index_ref& other) && { return std::move(*this) = other.eval(); }

 private:
  ndarray base_;
  std::vector<array_index_item> items_;
};

namespace detail {
inline array_index_item to_array_item(const ndarray& a) { return a; }
inline array_index_item to_array_item(bool b) { return array_index_item(std::in_place_type<bool>, b); }
template <std::integral T>
  requires(!std::is_same_v<T, bool>)
inline array_index_item to_array_item(T i) {
  return array_index_item(std::in_place_type<std::int64_t>, static_cast<std::int64_t>(i));
}
inline array_index_item to_array_item(const slice& s) { return s; }
inline array_index_item to_array_item(newaxis_t) { return newaxis_t{}; }
inline array_index_item to_array_item(ellipsis_t) { return ellipsis_t{}; }
}  // namespace detail

template <class... I>
std::conditional_t<(detail::is_advanced_item_v<I> || ...), index_ref, ndarray> ndarray::operator()(I&&... items) const {
  if constexpr (sizeof...(I) == 0) {
    return index({});
  } else if constexpr ((detail::is_advanced_item_v<I> || ...)) {
    return index_ref(*this, std::vector<array_index_item>{detail::to_array_item(std::forward<I>(items))...});
  } else {
    const index_item list[] = {to_index_item(std::forward<I>(items))...};
    return index(list);
  }
}
std::ostream& operator<<(std::ostream& os, const host_array& a);  // repr()

// ---- creation (ones, full, arange, linspace, eye and the rest: cupp/creation.hpp)
// On the current device, memory from the current allocator for the current stream.
ndarray empty(std::span<const std::int64_t> shape, cupp::dtype type = float64);
ndarray empty(std::initializer_list<std::int64_t> shape, cupp::dtype type = float64);
ndarray zeros(std::span<const std::int64_t> shape, cupp::dtype type = float64);  // cudaMemsetAsync
ndarray zeros(std::initializer_list<std::int64_t> shape, cupp::dtype type = float64);

// Host data to the device (see upload_options for when the call returns).
ndarray asarray(const host_array& host, upload_options options = {});
// Raw host memory of the given dtype and shape (C order), e.g. from another library.
ndarray asarray(const void* host, cupp::dtype type, std::span<const std::int64_t> shape,
                upload_options options = {});
// Host values keep their C++ type's dtype (dtype_of<T>: int -> int32, double -> float64, ...).
template <class T>
  requires is_host_element_v<T>
ndarray asarray(std::span<const T> values, upload_options options = {}) {
  const std::int64_t n = static_cast<std::int64_t>(values.size());
  return asarray(values.data(), dtype_of<T>(), std::span<const std::int64_t>(&n, 1), options);
}
template <class T>
  requires is_host_element_v<T>
ndarray asarray(const std::vector<T>& values, upload_options options = {}) {
  return asarray(std::span<const T>(values), options);
}
ndarray asarray(const std::vector<bool>& values, upload_options options = {});

namespace detail {
// The dtype an initializer list of T gets, Python-style: integers -> int64 (unsigned 64-bit ->
// uint64), bool -> bool, float -> float32, double -> float64, complex -> complex64/128.
template <class T>
inline cupp::dtype literal_dtype() {
  if constexpr (std::is_same_v<T, bool>) return type_id::bool_;
  else if constexpr (std::is_integral_v<T> && std::is_unsigned_v<T> && sizeof(T) == 8) return type_id::uint64;
  else if constexpr (std::is_integral_v<T>) return type_id::int64;
  else return dtype_of<T>();
}
template <class T>
using literal_host_t = std::conditional_t<
    std::is_same_v<T, bool>, bool,
    std::conditional_t<std::is_integral_v<T>,
                       std::conditional_t<std::is_unsigned_v<T> && sizeof(T) == 8, std::uint64_t, std::int64_t>, T>>;
ndarray array_from_values(const void* data, cupp::dtype type, const shape_t& shape);
// ValueError: nested lists of unequal lengths (NumPy's "inhomogeneous shape" message).
[[noreturn]] void throw_inhomogeneous(int dims, const shape_t& detected);
}  // namespace detail

// Nested initializer lists: cupp::array({{1, 2}, {3, 4}}) is a 2x2 int64 array, {1.5, 2.0} is
// float64, {true, false} is bool. Rows must have equal lengths (ValueError otherwise).
template <class T>
  requires is_host_element_v<T>
ndarray array(std::initializer_list<T> values) {
  using H = detail::literal_host_t<T>;
  std::vector<H> flat(values.begin(), values.end());
  if constexpr (std::is_same_v<H, bool>) {
    std::vector<unsigned char> bytes(flat.begin(), flat.end());
    return detail::array_from_values(bytes.data(), detail::literal_dtype<T>(), {std::int64_t(values.size())});
  } else {
    return detail::array_from_values(flat.data(), detail::literal_dtype<T>(), {std::int64_t(values.size())});
  }
}
template <class T>
  requires is_host_element_v<T>
ndarray array(std::initializer_list<std::initializer_list<T>> rows) {
  using H = std::conditional_t<std::is_same_v<T, bool>, unsigned char, detail::literal_host_t<T>>;
  std::vector<H> flat;
  const std::int64_t n0 = static_cast<std::int64_t>(rows.size());
  const std::int64_t n1 = n0 ? static_cast<std::int64_t>(rows.begin()->size()) : 0;
  for (const auto& row : rows) {
    if (static_cast<std::int64_t>(row.size()) != n1) detail::throw_inhomogeneous(1, {n0});
    for (const T& v : row) flat.push_back(static_cast<H>(v));
  }
  return detail::array_from_values(flat.data(), detail::literal_dtype<T>(), {n0, n1});
}
template <class T>
  requires is_host_element_v<T>
ndarray array(std::initializer_list<std::initializer_list<std::initializer_list<T>>> planes) {
  using H = std::conditional_t<std::is_same_v<T, bool>, unsigned char, detail::literal_host_t<T>>;
  std::vector<H> flat;
  const std::int64_t n0 = static_cast<std::int64_t>(planes.size());
  const std::int64_t n1 = n0 ? static_cast<std::int64_t>(planes.begin()->size()) : 0;
  const std::int64_t n2 = n1 ? static_cast<std::int64_t>(planes.begin()->begin()->size()) : 0;
  for (const auto& plane : planes) {
    if (static_cast<std::int64_t>(plane.size()) != n1) detail::throw_inhomogeneous(1, {n0});
    for (const auto& row : plane) {
      if (static_cast<std::int64_t>(row.size()) != n2) detail::throw_inhomogeneous(2, {n0, n1});
      for (const T& v : row) flat.push_back(static_cast<H>(v));
    }
  }
  return detail::array_from_values(flat.data(), detail::literal_dtype<T>(), {n0, n1, n2});
}

// Wraps existing device memory (not copied): `owner` keeps it alive (may be null when the caller
// guarantees the lifetime). Strides in bytes; empty strides mean C order. device -1: the device
// the pointer belongs to (asked from CUDA); a given device makes no CUDA call.
ndarray from_device_pointer(void* ptr, cupp::dtype type, std::span<const std::int64_t> shape,
                            std::span<const std::int64_t> strides, memory_owner owner, int device = -1);

// ---- broadcasting
// numpy.broadcast_shapes: ValueError "shape mismatch: objects cannot be broadcast to a single
// shape.  Mismatch is between arg 0 with shape (2,) and arg 1 with shape (3,)."
shape_t broadcast_shapes(std::span<const shape_t> shapes);
shape_t broadcast_shapes(std::initializer_list<shape_t> shapes);
ndarray broadcast_to(const ndarray& a, std::span<const std::int64_t> shape);      // read-only view
ndarray broadcast_to(const ndarray& a, std::initializer_list<std::int64_t> shape);
std::vector<ndarray> broadcast_arrays(std::span<const ndarray> arrays);           // read-only views

// Free-function forms and NumPy 2 / Array API aliases.
inline ndarray permute_dims(const ndarray& a, std::span<const int> axes) { return a.transpose(axes); }
inline ndarray transpose(const ndarray& a) { return a.transpose(); }
inline ndarray reshape(const ndarray& a, std::span<const std::int64_t> shape) { return a.reshape(shape); }
inline ndarray ravel(const ndarray& a) { return a.ravel(); }
inline ndarray swapaxes(const ndarray& a, int x, int y) { return a.swapaxes(x, y); }
inline ndarray moveaxis(const ndarray& a, int source, int destination) { return a.moveaxis(source, destination); }
inline ndarray squeeze(const ndarray& a) { return a.squeeze(); }
inline ndarray expand_dims(const ndarray& a, int axis) { return a.expand_dims(axis); }
inline ndarray diagonal(const ndarray& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) {
  return a.diagonal(offset, axis1, axis2);
}
inline ndarray real(const ndarray& a) { return a.real(); }
inline ndarray imag(const ndarray& a) { return a.imag(); }

namespace detail {
// Throws TypeError("<op>: structured dtypes support field access only ...") for a structured
// dtype: every kernel calls it on its operands.
void require_not_structured(const cupp::dtype& type, std::string_view op);
}  // namespace detail

}  // namespace cupp
