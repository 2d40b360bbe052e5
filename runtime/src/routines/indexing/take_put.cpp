// take, take_along_axis, put, put_along_axis and fill_diagonal (cupp/indexing.hpp): the gather
// and scatter of the move program along one axis, or over the flat array.
#include <algorithm>

#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/indexing/indexing_internal.hpp"

namespace cupp {

using namespace indexing_internal;

// ---------------------------------------------------------------------------------------------
// take

namespace indexing_internal {

// message_axis: the axis an IndexError names (advanced indexing: the indexed array's axis, and
// an empty axis raises as any out of bounds index does).
ndarray take_impl(const ndarray& a0, const ndarray& indices, const take_options& options, const char* routine,
                  std::optional<int> message_axis) {
  require_kernel_dtype(a0.dtype(), routine);
  const ndarray a = options.axis ? a0 : a0.reshape({-1});
  const int ax = options.axis ? layout::normalize_axis(*options.axis, a.ndim()) : 0;
  const ndarray idx = as_intp(indices, routine, true);
  const shape_t shape = detail::take_shape(a.shape(), idx.shape(), ax);
  const std::int64_t axis_len = a.shape(ax);
  if (!message_axis && layout::checked_size(shape) > 0 && axis_len == 0 && idx.size() > 0)
    throw IndexError("cannot do a non-empty take from an empty axes.");
  if (!options.out.is_null()) {
    const auto os = options.out.shape();
    if (!std::equal(os.begin(), os.end(), shape.begin(), shape.end()))
      throw ValueError("output array does not match result of ndarray.take");
    require_writeable(options.out, routine);
    if (!can_cast(a.dtype(), options.out.dtype(), casting::safe))
      throw TypeError("Cannot cast array data from dtype('" + a.dtype().name() + "') to dtype('" +
                      options.out.dtype().name() + "') according to the rule 'safe'");
  }
  // Direct into out when it is C-contiguous of a's dtype and not buffered (mode raise buffers).
  const bool direct = !options.out.is_null() && options.mode != clip_mode::raise && options.out.dtype() == a.dtype() &&
                      options.out.is_c_contiguous();
  ndarray result = direct ? options.out : empty(shape, a.dtype());
  geom g;
  fill_geom(g, shape);
  const int ni = idx.ndim();
  for (int d = 0; d < ax; ++d) g.s0[d] = a.stride(d);
  for (int d = 0; d < ni; ++d) g.s1[ax + d] = idx.stride(d);
  for (int d = ax + 1; d < a.ndim(); ++d) g.s0[ni + d - 1] = a.stride(d);
  if (const auto bad = gather(result, a, idx, g, axis_len, a.stride(ax), mode_int(options.mode)))
    throw_out_of_bounds(bad->first, message_axis.value_or(ax), axis_len);
  if (!options.out.is_null() && !direct) {
    copyto(options.out, result, casting::safe);
    return options.out;
  }
  return result;
}

}  // namespace indexing_internal

ndarray take(const ndarray& a, const ndarray& indices, const take_options& options) {
  return take_impl(a, indices, options, "take");
}

ndarray take(const ndarray& a, std::int64_t index, const take_options& options) {
  const ndarray idx = scalar(weak_scalar(index), int64);
  return take_impl(a, idx, options, "take");
}

// ---------------------------------------------------------------------------------------------
// take_along_axis, put, put_along_axis

namespace {

struct along {
  ndarray arr, idx;    // arr (flattened for axis None), int64 indices
  int axis = 0;
  shape_t shape;       // the broadcast index shape (the result's)
  shape_t arr_strides; // arr's strides broadcast over shape (0 on the axis)
};

along prepare_along(const ndarray& arr0, const ndarray& indices, std::optional<int> axis, const char* routine) {
  require_kernel_dtype(arr0.dtype(), routine);
  along p;
  if (!indices.dtype().is_integer()) throw IndexError("`indices` must be an integer array");
  if (!axis) {
    if (indices.ndim() != 1)
      throw ValueError("when axis=None, `indices` must have a single dimension.");
    p.arr = arr0.reshape({-1});
    p.axis = 0;
  } else {
    p.arr = arr0;
    p.axis = layout::normalize_axis(*axis, arr0.ndim());
    if (indices.ndim() != arr0.ndim())
      throw ValueError("`indices` and `arr` must have the same number of dimensions");
  }
  p.idx = as_intp(indices, routine, true);
  // Broadcast off the axis.
  shape_t a_shape(p.arr.shape().begin(), p.arr.shape().end()), i_shape(p.idx.shape().begin(), p.idx.shape().end());
  a_shape[p.axis] = 1;
  i_shape[p.axis] = 1;
  shape_t b = broadcast_shapes({a_shape, i_shape});
  b[p.axis] = p.idx.shape(p.axis);
  p.shape = b;
  shape_t idx_target = b;
  p.idx = broadcast_to(p.idx, idx_target);
  shape_t arr_target = b;
  arr_target[p.axis] = p.arr.shape(p.axis);
  const ndarray ab = broadcast_to(p.arr, arr_target);
  p.arr_strides.assign(ab.strides().begin(), ab.strides().end());
  p.arr_strides[p.axis] = 0;
  return p;
}

}  // namespace

ndarray take_along_axis(const ndarray& arr, const ndarray& indices, std::optional<int> axis) {
  along p = prepare_along(arr, indices, axis, "take_along_axis");
  const std::int64_t axis_len = p.arr.shape(p.axis);
  ndarray result = empty(p.shape, p.arr.dtype());
  geom g;
  fill_geom(g, p.shape);
  for (int d = 0; d < g.ndim; ++d) {
    g.s0[d] = p.arr_strides[d];
    g.s1[d] = p.idx.stride(d);
  }
  if (const auto bad = gather(result, p.arr, p.idx, g, axis_len, p.arr.stride(p.axis), 0))
    throw_out_of_bounds(bad->first, axis ? p.axis : 0, axis_len);
  return result;
}

void put(const ndarray& a, const ndarray& indices, const operand& values, clip_mode mode) {
  require_kernel_dtype(a.dtype(), "put");
  require_writeable(a, "put");
  const ndarray idx = flat_c(as_intp(indices, "put"));
  const ndarray vals = flat_values(values, a.dtype());
  if (idx.size() == 0 || vals.size() == 0) return;  // NumPy: nothing to do
  if (a.size() == 0) throw IndexError("cannot replace elements of an empty array");
  const ndarray dst = a.is_c_contiguous() ? a : a.copy();
  const ndarray work = flat_c(dst);
  geom g;
  fill_geom(g, idx.shape());
  g.s1[0] = idx.stride(0);
  const auto bad = scatter(work, idx, vals, g, idx.size(), a.size(), static_cast<std::int64_t>(a.itemsize()), mode,
                           vals.size(), false);
  if (bad) throw_out_of_bounds(bad->first, 0, a.size());
  if (!a.is_c_contiguous()) a.assign(dst);
}

void put_along_axis(const ndarray& arr, const ndarray& indices, const operand& values, std::optional<int> axis) {
  require_writeable(arr, "put_along_axis");
  const bool contiguous_arr = arr.is_c_contiguous();
  const ndarray dst = contiguous_arr ? arr : arr.copy();
  along p = prepare_along(dst, indices, axis, "put_along_axis");
  const std::int64_t axis_len = p.arr.shape(p.axis);
  const std::int64_t total = layout::checked_size(p.shape);
  if (total == 0) return;
  ndarray vals = values.is_array() ? values.array() : scalar(values.scalar(), dst.dtype());
  if (vals.dtype() != dst.dtype()) vals = astype(vals, dst.dtype(), casting::unsafe);
  vals = broadcast_to(vals, p.shape);
  geom g;
  fill_geom(g, p.shape);
  for (int d = 0; d < g.ndim; ++d) {
    g.s0[d] = p.arr_strides[d];
    g.s1[d] = p.idx.stride(d);
    g.s2[d] = vals.stride(d);
  }
  if (axis_len == 0) throw_out_of_bounds(0, p.axis, 0);
  // Nothing is written when an index is bad (NumPy checks the whole index first).
  {
    const int device = dst.device();
    const detail::kernel_module& m = program_for(8, device);
    const void* i = p.idx.data();
    long long t = total, n = axis_len;
    int md = 0;
    raising_call end = begin_raising(m, device);
    void* args[] = {&i, &g, &t, &n, &md, end.counter_arg(), end.word_arg()};
    detail::launch_1d(m.function(k_check), total, args, device);
    if (const auto bad = read_state(m, device, end)) throw_out_of_bounds(bad->first, axis ? p.axis : 0, axis_len);
  }
  scatter(p.arr, p.idx, vals, g, total, axis_len, p.arr.stride(p.axis), clip_mode::wrap, 0, false);
  if (!contiguous_arr) arr.assign(dst);
}

// ---------------------------------------------------------------------------------------------
// fill_diagonal

void fill_diagonal(const ndarray& a, const operand& val, bool wrap) {
  if (a.ndim() < 2) throw ValueError("array must be at least 2-d");
  require_writeable(a, "fill_diagonal");
  std::int64_t step = 0, end = a.size();
  if (a.ndim() == 2) {
    step = a.shape(1) + 1;
    if (!wrap) end = std::min(a.size(), a.shape(1) * a.shape(1));
  } else {
    for (int d = 1; d < a.ndim(); ++d)
      if (a.shape(d) != a.shape(0)) throw ValueError("All dimensions of input must be of equal length");
    std::int64_t acc = 1, sum = 0;
    for (int d = 0; d + 1 < a.ndim(); ++d) {
      acc *= a.shape(d);
      sum += acc;
    }
    step = 1 + sum;
    (void)sum;
  }
  if (a.size() == 0) return;
  const ndarray dst = a.is_c_contiguous() ? a : a.copy();
  const ndarray diag = flat_c(dst)(slice(0, end, step));
  if (!val.is_array()) {
    diag.fill(val.scalar());
  } else {
    // NumPy's flat assignment repeats the values.
    const ndarray v = flat_values(val, a.dtype());
    if (v.size() == 0) return;
    const ndarray pos = arange(diag.size());
    diag.assign(take(v, pos, {.mode = clip_mode::wrap}));
  }
  if (!a.is_c_contiguous()) a.assign(dst);
}

}  // namespace cupp
