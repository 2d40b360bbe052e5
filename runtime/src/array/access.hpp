// Internal: how the implementation builds ndarrays and reads their private parts (the friend
// struct ndarray_access), shared by the view code (ndarray.cpp) and the CUDA transfer code
// (transfer.cpp).
#pragma once

#include <memory>
#include <string_view>

#include "array/layout.hpp"
#include "cupp/ndarray.hpp"

namespace cupp {

struct ndarray_access {
  // A new array over `memory` whose element 0 sits at base_ptr + layout.offset.
  static ndarray make(std::shared_ptr<const void> memory, void* base_ptr, int device, cupp::dtype type,
                      layout::strided where, bool writeable) {
    ndarray a;
    a.memory_ = std::move(memory);
    a.base_ptr_ = base_ptr;
    a.device_ = device;
    a.dtype_ = type;
    a.size_ = layout::checked_size(where.shape);
    a.shape_ = where.shape;
    a.strides_ = where.strides;
    a.offset_ = where.offset;
    a.writeable_ = writeable;
    a.has_array_ = true;
    return a;
  }
  // A view of `a` with another layout (and dtype); read-only when `a` is or when asked.
  static ndarray view(const ndarray& a, layout::strided where, bool read_only = false) {
    return view(a, std::move(where), a.dtype_, read_only);
  }
  static ndarray view(const ndarray& a, layout::strided where, cupp::dtype type, bool read_only = false) {
    return make(a.memory_, a.base_ptr_, a.device_, type, std::move(where), a.writeable_ && !read_only);
  }
  static layout::strided where(const ndarray& a) {
    return {shape_t(a.shape_.begin(), a.shape_.end()), shape_t(a.strides_.begin(), a.strides_.end()), a.offset_};
  }
  static std::byte* base_ptr(const ndarray& a) { return static_cast<std::byte*>(a.base_ptr_); }
  // Defined where pending_host_array::state is complete (transfer.cpp).
  static void set_pending(pending_host_array& p, std::unique_ptr<pending_host_array::state> s);
};

namespace detail {
// ValueError for a null handle; `op` names the operation.
void require_array(const ndarray& a, std::string_view op);
// ValueError "assignment destination is read-only".
void require_writeable(const ndarray& a);
}  // namespace detail

}  // namespace cupp
