// cupp::ndarray properties and views: indexing, reshape, transposes, squeeze/expand_dims,
// broadcasting, dtype views, real/imag, diagonal, structured fields. No CUDA here: a view only
// computes a new layout (layout.hpp) over the same memory. Copies and transfers: transfer.cpp.
#include <algorithm>
#include <ostream>
#include <string>

#include "array/access.hpp"
#include "array/layout.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ndarray.hpp"

namespace cupp {

namespace detail {

void require_array(const ndarray& a, std::string_view op) {
  if (a.is_null()) throw ValueError(std::string(op) + ": the ndarray is a null handle (default-constructed)");
}

void require_writeable(const ndarray& a) {
  require_array(a, "assignment");
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
}

void require_not_structured(const cupp::dtype& type, std::string_view op) {
  if (type.is_structured())
    throw TypeError(std::string(op) + ": structured dtypes support field access only (dtype " + type.name() +
                    "); use a field view, copy(), fill or zeros");
}

[[noreturn]] void throw_inhomogeneous(int dims, const shape_t& detected) {
  throw ValueError("setting an array element with a sequence. The requested array has an inhomogeneous shape after " +
                   std::to_string(dims) + " dimensions. The detected shape was " + layout::tuple_string(detected) +
                   " + inhomogeneous part.");
}

}  // namespace detail

using access = ndarray_access;

std::int64_t ndarray::shape(int axis) const {
  detail::require_array(*this, "shape");
  return shape_[layout::normalize_axis(axis, ndim())];
}

std::int64_t ndarray::stride(int axis) const {
  detail::require_array(*this, "stride");
  return strides_[layout::normalize_axis(axis, ndim())];
}

bool ndarray::is_c_contiguous() const noexcept {
  return has_array_ && layout::is_c_contiguous(shape_, strides_, static_cast<std::int64_t>(itemsize()));
}

bool ndarray::is_f_contiguous() const noexcept {
  return has_array_ && layout::is_f_contiguous(shape_, strides_, static_cast<std::int64_t>(itemsize()));
}

void* ndarray::data() const noexcept {
  if (!has_array_ || size_ == 0 || base_ptr_ == nullptr) return nullptr;
  return static_cast<std::byte*>(base_ptr_) + offset_;
}

ndarray ndarray::index(std::span<const index_item> items) const {
  detail::require_array(*this, "index");
  return access::view(*this, layout::index(access::where(*this), static_cast<std::int64_t>(itemsize()), items));
}

ndarray ndarray::reshape(std::span<const std::int64_t> newshape) const {
  detail::require_array(*this, "reshape");
  const shape_t target = layout::infer_shape(newshape, size_, shape_);
  const auto strides = layout::reshape_strides(shape_, strides_, target, static_cast<std::int64_t>(itemsize()));
  if (strides) return access::view(*this, {target, *strides, offset_});
  return copy().reshape(target);
}

ndarray ndarray::ravel() const {
  const std::int64_t n = -1;
  return reshape(std::span<const std::int64_t>(&n, 1));
}

ndarray ndarray::transpose() const {
  detail::require_array(*this, "transpose");
  std::vector<int> order(shape_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(order.size() - 1 - i);
  return access::view(*this, layout::permute(access::where(*this), order));
}

ndarray ndarray::transpose(std::span<const int> axes) const {
  detail::require_array(*this, "transpose");
  return access::view(*this, layout::permute(access::where(*this), layout::transpose_axes(axes, ndim())));
}

ndarray ndarray::swapaxes(int a, int b) const {
  detail::require_array(*this, "swapaxes");
  const int x = layout::normalize_axis(a, ndim()), y = layout::normalize_axis(b, ndim());
  std::vector<int> order(shape_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  std::swap(order[x], order[y]);
  return access::view(*this, layout::permute(access::where(*this), order));
}

ndarray ndarray::moveaxis(int source, int destination) const {
  detail::require_array(*this, "moveaxis");
  return access::view(*this, layout::permute(access::where(*this), layout::moveaxis_order(source, destination, ndim())));
}

ndarray ndarray::squeeze() const {
  detail::require_array(*this, "squeeze");
  return access::view(*this, layout::squeeze_all(access::where(*this)));
}

ndarray ndarray::squeeze(std::span<const int> axes) const {
  detail::require_array(*this, "squeeze");
  return access::view(*this, layout::squeeze(access::where(*this), axes));
}

ndarray ndarray::expand_dims(int axis) const {
  detail::require_array(*this, "expand_dims");
  return access::view(*this, layout::expand_dims(access::where(*this), static_cast<std::int64_t>(itemsize()), axis));
}

ndarray ndarray::view(cupp::dtype type) const {
  detail::require_array(*this, "view");
  layout::strided w = layout::view_as(access::where(*this), static_cast<std::int64_t>(itemsize()),
                                      static_cast<std::int64_t>(type.itemsize()));
  return access::view(*this, std::move(w), type);
}

namespace {

cupp::dtype component_type(const cupp::dtype& t) { return t.id() == type_id::complex64 ? float32 : float64; }

}  // namespace

ndarray ndarray::real() const {
  detail::require_array(*this, "real");
  if (!dtype_.is_complex()) return *this;
  return access::view(*this, access::where(*this), component_type(dtype_));
}

ndarray ndarray::imag() const {
  detail::require_array(*this, "imag");
  if (dtype_.is_complex()) {
    layout::strided w = access::where(*this);
    w.offset += static_cast<std::int64_t>(itemsize() / 2);
    return access::view(*this, std::move(w), component_type(dtype_));
  }
  detail::require_not_structured(dtype_, "imag");
  // NumPy: a read-only array of zeros of the same shape and dtype (on this array's device).
  cuda::DeviceGuard guard(device_);
  ndarray z = zeros(shape_, dtype_);
  z.writeable_ = false;
  return z;
}

ndarray ndarray::diagonal(std::int64_t offset, int axis1, int axis2) const {
  detail::require_array(*this, "diagonal");
  return access::view(*this, layout::diagonal(access::where(*this), offset, axis1, axis2), /*read_only=*/true);
}

ndarray ndarray::field(std::string_view name) const {
  detail::require_array(*this, "field");
  if (!dtype_.is_structured())
    throw ValueError("field '" + std::string(name) + "': the array's dtype " + dtype_.name() + " has no fields");
  for (const cupp::field& f : dtype_.fields()) {
    if (f.name != name) continue;
    const auto align = static_cast<std::int64_t>(f.type.alignment());
    layout::strided w = access::where(*this);
    w.offset += static_cast<std::int64_t>(f.offset);
    bool aligned = static_cast<std::int64_t>(f.offset) % align == 0 && w.offset % align == 0;
    for (std::size_t i = 0; i < w.shape.size(); ++i)
      if (w.shape[i] > 1 && w.strides[i] % align != 0) aligned = false;
    if (!aligned)
      throw ValueError("field '" + f.name + "' (" + f.type.name() + ") of dtype " + dtype_.name() + " is at offset " +
                       std::to_string(f.offset) + " with element strides " + layout::tuple_string(strides_) +
                       ": not a multiple of its alignment " + std::to_string(align) +
                       " bytes; the GPU needs aligned fields (make the dtype with align=true)");
    return access::view(*this, std::move(w), f.type);
  }
  throw ValueError("no field of name " + std::string(name));
}

std::ostream& operator<<(std::ostream& os, const ndarray& a) { return os << a.repr(); }
std::ostream& operator<<(std::ostream& os, const host_array& a) { return os << a.repr(); }

std::string ndarray::repr() const {
  if (is_null()) return "ndarray(null)";
  return get().repr();
}

// ---- broadcasting

shape_t broadcast_shapes(std::span<const shape_t> shapes) { return layout::broadcast_shapes(shapes); }
shape_t broadcast_shapes(std::initializer_list<shape_t> shapes) {
  return layout::broadcast_shapes(std::span<const shape_t>(shapes.begin(), shapes.size()));
}

ndarray broadcast_to(const ndarray& a, std::span<const std::int64_t> shape) {
  detail::require_array(a, "broadcast_to");
  layout::strided w = access::where(a);
  w.strides = layout::broadcast_strides(a.shape(), a.strides(), shape);
  w.shape.assign(shape.begin(), shape.end());
  return access::view(a, std::move(w), /*read_only=*/true);
}

ndarray broadcast_to(const ndarray& a, std::initializer_list<std::int64_t> shape) {
  return broadcast_to(a, std::span<const std::int64_t>(shape.begin(), shape.size()));
}

std::vector<ndarray> broadcast_arrays(std::span<const ndarray> arrays) {
  std::vector<shape_t> shapes;
  for (const ndarray& a : arrays) {
    detail::require_array(a, "broadcast_arrays");
    shapes.emplace_back(a.shape().begin(), a.shape().end());
  }
  const shape_t target = layout::broadcast_shapes(shapes);
  std::vector<ndarray> out;
  for (const ndarray& a : arrays) out.push_back(broadcast_to(a, target));
  return out;
}

}  // namespace cupp
