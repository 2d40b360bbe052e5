// Copies and casts on the element-wise engine: an internal one-input op whose loop per dtype is
// `out0 = in0`, so a strided copy, a broadcast, a cast (in registers, at the store) and a fill
// are all one generated kernel. astype, copy(order), ascontiguousarray, asfortranarray, copyto,
// and the ndarray's own copy/assign/fill use it. Arrays on another device come over through a
// peer copy of a contiguous staging array.
#include <cuda_runtime.h>

#include <array>
#include <utility>

#include "array/access.hpp"
#include "array/convert.hpp"
#include "array/layout.hpp"
#include "cuda/check.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "engine/elementwise.hpp"
#include "engine/internal.hpp"
#include "engine/layout_plan.hpp"
#include "engine/loop_resolution.hpp"

namespace cupp {

namespace engine {

namespace {

// The copy op: loop i copies dtype i to dtype i; the output accessor's storage dtype makes it
// a cast.
template <std::size_t... I>
constexpr auto make_copy_types(std::index_sequence<I...>) {
  return std::array<std::array<type_id, 2>, sizeof...(I)>{{{static_cast<type_id>(I), static_cast<type_id>(I)}...}};
}
constexpr auto copy_types = make_copy_types(std::make_index_sequence<n_builtin_types>{});

template <std::size_t... I>
constexpr auto make_copy_loops(std::index_sequence<I...>) {
  return std::array<loop_spec, sizeof...(I)>{
      {loop_spec{std::span(copy_types[I]).first(1), std::span(copy_types[I]).subspan(1), "out0 = in0;"}...}};
}
constexpr auto copy_loops = make_copy_loops(std::make_index_sequence<n_builtin_types>{});

constexpr op_spec copy_op{"_copy", "Copy or cast elements (internal).", 1, 1, {}, "", false, copy_loops};

std::size_t loop_of(const cupp::dtype& t) { return static_cast<std::size_t>(t.id()); }

void require_builtin(const cupp::dtype& t, std::string_view what) {
  detail::require_not_structured(t, what);
  if (!t.is_builtin()) throw TypeError(std::string(what) + ": no element kernel for dtype " + t.name());
}

// `a` as a C-contiguous array on `device` (a peer copy when it lives elsewhere).
ndarray on_device(const ndarray& a, int device) {
  if (a.device() == device) return a;
  const ndarray staged = a.is_c_contiguous() ? a : copy(a, order::C);
  ndarray moved = empty_with_strides(staged.shape(), layout::c_strides(staged.shape(), static_cast<std::int64_t>(staged.itemsize())),
                                     staged.dtype(), device);
  if (staged.nbytes() == 0) return moved;
  {
    cuda::DeviceGuard source_guard(staged.device());
    cuda::detail::check(cudaStreamSynchronize(cuda::current_stream().handle()), "cudaStreamSynchronize");
  }
  cuda::Event copied = [&] {
    cuda::DeviceGuard guard(device);
    cuda::detail::check(cudaMemcpyPeerAsync(moved.data(), device, staged.data(), staged.device(), staged.nbytes(),
                                            cuda::current_stream().handle()),
                        "cudaMemcpyPeerAsync");
    return cuda::current_stream().record();
  }();
  // The source's memory returns to its device's pool in that device's stream order: make that
  // stream wait for the copy, so a free of `staged` (or of the caller's array) cannot hand the
  // bytes to new work before the peer copy has read them.
  cuda::DeviceGuard source_guard(staged.device());
  cuda::current_stream().wait(copied);
  return moved;
}

}  // namespace

const op_spec& copy_op_spec() noexcept { return copy_op; }

void copy_into(const ndarray& dst, const ndarray& source, const ndarray& where) {
  require_builtin(dst.dtype(), "copy");
  require_builtin(source.dtype(), "copy");
  if (dst.size() == 0) return;
  ndarray src = on_device(source, dst.device());
  ndarray view;
  try {
    view = broadcast_to(src, dst.shape());
  } catch (const ValueError&) {
    throw ValueError("could not broadcast input array from shape " + layout::tuple_string(source.shape()) +
                     " into shape " + layout::tuple_string(dst.shape()));
  }
  if (overlaps(src, dst) && !same_elements(view, dst)) view = broadcast_to(copy(src, order::K), dst.shape());
  const ew_input input{view, {}};
  run_elementwise(copy_op, loop_of(src.dtype()), std::span<const ew_input>(&input, 1),
                  std::span<const ndarray>(&dst, 1), where);
}

void fill_with(const ndarray& dst, std::span<const std::byte> value, const ndarray& where) {
  require_builtin(dst.dtype(), "fill");
  if (dst.size() == 0) return;
  const ew_input input{ndarray(), std::vector<std::byte>(value.begin(), value.end())};
  run_elementwise(copy_op, loop_of(dst.dtype()), std::span<const ew_input>(&input, 1),
                  std::span<const ndarray>(&dst, 1), where);
}

}  // namespace engine

ndarray astype(const ndarray& a, cupp::dtype type, cupp::casting rule, bool copy_always) {
  detail::require_array(a, "astype");
  if (!copy_always && a.dtype() == type) return a;
  if (!can_cast(a.dtype(), type, rule))
    throw TypeError("Cannot cast array data from " + engine::dtype_repr(a.dtype()) + " to " + engine::dtype_repr(type) +
                    " according to the rule '" + std::string(to_string(rule)) + "'");
  ndarray out = engine::empty_in_order_of(a.shape(), std::span<const ndarray>(&a, 1), type, a.device());
  engine::copy_into(out, a);
  return out;
}

ndarray copy(const ndarray& a, order memory_order) {
  detail::require_array(a, "copy");
  const auto itemsize = static_cast<std::int64_t>(a.itemsize());
  const bool fortran = memory_order == order::F || (memory_order == order::A && a.is_f_contiguous() && !a.is_c_contiguous());
  ndarray out;
  if (memory_order == order::K) {
    out = engine::empty_in_order_of(a.shape(), std::span<const ndarray>(&a, 1), a.dtype(), a.device());
  } else {
    shape_t strides = layout::c_strides(a.shape(), itemsize);
    if (fortran) {
      std::vector<int> reversed(static_cast<std::size_t>(a.ndim()));
      for (int d = 0; d < a.ndim(); ++d) reversed[static_cast<std::size_t>(d)] = a.ndim() - 1 - d;
      strides = engine::strides_in_order(a.shape(), reversed, itemsize);
    }
    out = engine::empty_with_strides(a.shape(), strides, a.dtype(), a.device());
  }
  engine::copy_into(out, a);
  return out;
}

ndarray ascontiguousarray(const ndarray& a) {
  detail::require_array(a, "ascontiguousarray");
  const ndarray b = a.ndim() == 0 ? a.reshape({1}) : a;
  return b.is_c_contiguous() ? b : copy(b, order::C);
}

ndarray asfortranarray(const ndarray& a) {
  detail::require_array(a, "asfortranarray");
  const ndarray b = a.ndim() == 0 ? a.reshape({1}) : a;
  return b.is_f_contiguous() ? b : copy(b, order::F);
}

void copyto(const ndarray& dst, const operand& src, cupp::casting rule, const ndarray& where) {
  detail::require_array(dst, "copyto");
  detail::require_writeable(dst);
  ndarray mask;
  if (!where.is_null()) {
    if (where.dtype() != dtype(type_id::bool_))
      throw TypeError("Cannot cast array data from " + engine::dtype_repr(where.dtype()) +
                      " to dtype('bool') according to the rule 'safe'");
    mask = broadcast_to(where, dst.shape());
  }
  if (!src.is_array()) {
    const std::vector<std::byte> value = detail::scalar_bytes(src.scalar(), dst.dtype());
    if (mask.is_null()) {
      engine::fill_with(dst, value);
    } else {
      ndarray one = empty({}, dst.dtype());
      engine::fill_with(one, value);
      engine::copy_into(dst, one, mask);
    }
    return;
  }
  const ndarray& s = src.array();
  if (!can_cast(s.dtype(), dst.dtype(), rule))
    throw TypeError("Cannot cast array data from " + engine::dtype_repr(s.dtype()) + " to " +
                    engine::dtype_repr(dst.dtype()) + " according to the rule '" + std::string(to_string(rule)) + "'");
  engine::copy_into(dst, s, mask);
}

}  // namespace cupp
