// NumPy's array manipulation routines (cupp/manipulation.hpp), composed from the ndarray's views
// (index with slices and negative steps, reshape, transpose, expand_dims, broadcast_to) and the
// engine's copy (engine::copy_into: one element-wise kernel, casting at the store). concatenate
// writes each input into its slice of the output: every same-dtype C-contiguous input whose slice
// is one block, or rows of one pitch, is a segment of one launch of the segment copy kernel
// (segment_copy.hpp; 32 segments a launch), anything else one copy kernel each. roll, delete_
// and insert batch their pieces the same way. Shapes, axes and counts are validated on the host
// before any device work.
#include "cupp/manipulation.hpp"
#include "cupp/creation.hpp"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "array/access.hpp"
#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "engine/internal.hpp"
#include "engine/layout_plan.hpp"
#include "engine/loop_resolution.hpp"
#include "routines/manipulation/segment_copy.hpp"

namespace cupp {

namespace {

using std::int64_t;

std::string str(int64_t v) { return std::to_string(v); }

// a[:, :, ..., item] with `item` at `axis`.
ndarray along(const ndarray& a, int axis, index_item item) {
  std::vector<index_item> items(static_cast<std::size_t>(axis), slice());
  items.push_back(std::move(item));
  return a.index(items);
}
ndarray along(const ndarray& a, int axis, int64_t start, int64_t stop) { return along(a, axis, slice(start, stop)); }

shape_t shape_of(const ndarray& a) { return shape_t(a.shape().begin(), a.shape().end()); }

void require_arrays(std::span<const ndarray> arrays, std::string_view op) {
  for (const ndarray& a : arrays) detail::require_array(a, op);
}

std::string cast_error(const dtype& from, const dtype& to, casting rule) {
  return "Cannot cast array data from " + engine::dtype_repr(from) + " to " + engine::dtype_repr(to) +
         " according to the rule '" + std::string(to_string(rule)) + "'";
}

ndarray concatenate_impl(std::span<const ndarray> in, const concatenate_options& o, std::string_view name) {
  if (in.empty()) throw ValueError("need at least one array to concatenate");
  require_arrays(in, name);
  if (!o.out.is_null() && o.dtype)
    throw TypeError(std::string(name) + "() only takes `out` or `dtype` as an argument, but both were provided.");
  std::vector<dtype> types;
  for (const ndarray& a : in) types.push_back(a.dtype());
  const dtype type = !o.out.is_null() ? o.out.dtype() : o.dtype ? *o.dtype : result_type(types);
  shape_t shape;
  int axis = 0;
  if (!o.axis) {
    int64_t total = 0;
    for (const ndarray& a : in) total += a.size();
    shape = {total};
  } else {
    const int nd = in[0].ndim();
    if (nd == 0) throw ValueError("zero-dimensional arrays cannot be concatenated");
    axis = layout::normalize_axis(*o.axis, nd);
    shape = shape_of(in[0]);
    for (std::size_t i = 1; i < in.size(); ++i) {
      const ndarray& a = in[i];
      if (a.ndim() != nd)
        throw ValueError("all the input arrays must have same number of dimensions, but the array at index 0 has " +
                         str(nd) + " dimension(s) and the array at index " + str(int64_t(i)) + " has " +
                         str(a.ndim()) + " dimension(s)");
      for (int d = 0; d < nd; ++d) {
        if (d == axis) continue;
        if (a.shape(d) != in[0].shape(d))
          throw ValueError("all the input array dimensions except for the concatenation axis must match exactly, but "
                           "along dimension " + str(d) + ", the array at index 0 has size " + str(in[0].shape(d)) +
                           " and the array at index " + str(int64_t(i)) + " has size " + str(a.shape(d)));
      }
      shape[static_cast<std::size_t>(axis)] += a.shape(axis);
    }
  }
  for (const ndarray& a : in) {
    if (!can_cast(a.dtype(), type, o.casting)) throw TypeError(cast_error(a.dtype(), type, o.casting));
  }
  layout::checked_size(shape);
  ndarray out;
  if (!o.out.is_null()) {
    detail::require_writeable(o.out);
    if (o.out.ndim() != static_cast<int>(shape.size()) ||
        !std::equal(shape.begin(), shape.end(), o.out.shape().begin()))
      throw ValueError("Output array is the wrong shape");
    bool overlap = false;
    for (const ndarray& a : in) overlap = overlap || engine::overlaps(a, o.out);
    if (overlap || (!o.axis && !o.out.is_c_contiguous())) {
      // Through a fresh array: a later input must not read what an earlier one wrote.
      concatenate_options fresh = o;
      fresh.out = ndarray();
      fresh.dtype = type;
      engine::copy_into(o.out, concatenate_impl(in, fresh, name));
      return o.out;
    }
    out = o.out;
  } else if (!o.axis) {
    out = engine::empty_with_strides(shape, layout::c_strides(shape, static_cast<int64_t>(type.itemsize())), type,
                                     in[0].device());
  } else {
    // NumPy keeps the inputs' memory order: Fortran order when every input is (only) Fortran-ordered.
    const bool fortran = std::all_of(in.begin(), in.end(), [](const ndarray& a) {
      return a.is_f_contiguous() && !a.is_c_contiguous();
    });
    const auto item = static_cast<int64_t>(type.itemsize());
    if (fortran) {
      std::vector<int> reversed(shape.size());
      for (std::size_t d = 0; d < shape.size(); ++d) reversed[d] = static_cast<int>(shape.size() - 1 - d);
      out = engine::empty_with_strides(shape, engine::strides_in_order(shape, reversed, item), type, in[0].device());
    } else {
      out = engine::empty_with_strides(shape, layout::c_strides(shape, item), type, in[0].device());
    }
  }
  detail::segment_copy::batch pieces;
  int64_t pos = 0;
  for (const ndarray& a : in) {
    const int64_t n = o.axis ? a.shape(axis) : a.size();
    if (n == 0) continue;
    if (!o.axis) {
      pieces.copy(out(slice(pos, pos + n)).reshape(a.shape()), a);
    } else {
      pieces.copy(along(out, axis, pos, pos + n), a);
    }
    pos += n;
  }
  pieces.flush();
  return out;
}

// Python's slice semantics for the split points: a[start:stop] along axis.
std::vector<ndarray> split_at(const ndarray& a, const std::vector<int64_t>& points, int axis) {
  std::vector<ndarray> pieces;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) pieces.push_back(along(a, axis, points[i], points[i + 1]));
  return pieces;
}

// NumPy's split functions read ary.shape[axis] first: an axis out of range (any axis of a 0-d
// array) is Python's IndexError, not AxisError.
int split_axis(const ndarray& a, int axis, std::string_view op) {
  detail::require_array(a, op);
  if (axis < -a.ndim() || axis >= a.ndim()) throw IndexError("tuple index out of range");
  return layout::normalize_axis(axis, a.ndim());
}

std::vector<int64_t> section_points(int64_t length, int64_t sections) {
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  const int64_t each = length / sections, extras = length % sections;
  std::vector<int64_t> points{0};
  for (int64_t i = 0; i < sections; ++i) points.push_back(points.back() + each + (i < extras ? 1 : 0));
  return points;
}

std::vector<int64_t> index_points(int64_t length, std::span<const int64_t> indices) {
  std::vector<int64_t> points{0};
  points.insert(points.end(), indices.begin(), indices.end());
  points.push_back(length);
  return points;
}

std::vector<int> normalize_axes(std::span<const int> axes, int ndim, bool allow_duplicate) {
  std::vector<int> out;
  for (int ax : axes) {
    const int n = layout::normalize_axis(ax, ndim);
    if (!allow_duplicate && std::find(out.begin(), out.end(), n) != out.end()) throw ValueError("repeated axis");
    out.push_back(n);
  }
  return out;
}

ndarray reversed_axes(const ndarray& m, const std::vector<int>& axes) {
  std::vector<index_item> items(static_cast<std::size_t>(m.ndim()), slice());
  for (int ax : axes) items[static_cast<std::size_t>(ax)] = slice(std::nullopt, std::nullopt, -1);
  return m.index(items);
}

ndarray new_c_array(std::span<const int64_t> shape, const dtype& type, int device) {
  return engine::empty_with_strides(shape, layout::c_strides(shape, static_cast<int64_t>(type.itemsize())), type,
                                    device);
}

// a broadcast to `target` copied into a new C-ordered array (one copy kernel).
ndarray broadcast_copy(const ndarray& view, std::span<const int64_t> target) {
  ndarray out = new_c_array(target, view.dtype(), view.device());
  if (out.size() != 0) engine::copy_into(out, broadcast_to(view, target));
  return out;
}

void check_counts(std::span<const int64_t> counts) {
  for (int64_t c : counts)
    if (c < 0) throw ValueError("repeats may not contain negative values.");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// joining

ndarray concatenate(std::span<const ndarray> arrays, const concatenate_options& options) {
  return concatenate_impl(arrays, options, "concatenate");
}
ndarray concatenate(std::initializer_list<ndarray> arrays, const concatenate_options& options) {
  return concatenate_impl(std::span<const ndarray>(arrays.begin(), arrays.size()), options, "concatenate");
}
ndarray concat(std::span<const ndarray> arrays, const concatenate_options& options) {
  return concatenate_impl(arrays, options, "concat");
}
ndarray concat(std::initializer_list<ndarray> arrays, const concatenate_options& options) {
  return concatenate_impl(std::span<const ndarray>(arrays.begin(), arrays.size()), options, "concat");
}

ndarray stack(std::span<const ndarray> arrays, const stack_options& options) {
  if (arrays.empty()) throw ValueError("need at least one array to stack");
  require_arrays(arrays, "stack");
  for (const ndarray& a : arrays) {
    if (!std::equal(a.shape().begin(), a.shape().end(), arrays[0].shape().begin(), arrays[0].shape().end()))
      throw ValueError("all input arrays must have the same shape");
  }
  const int axis = layout::normalize_axis(options.axis, arrays[0].ndim() + 1);
  std::vector<ndarray> expanded;
  for (const ndarray& a : arrays) expanded.push_back(a.expand_dims(axis));
  return concatenate_impl(expanded, {.axis = axis, .out = options.out, .dtype = options.dtype, .casting = options.casting},
                          "stack");
}
ndarray stack(std::initializer_list<ndarray> arrays, const stack_options& options) {
  return stack(std::span<const ndarray>(arrays.begin(), arrays.size()), options);
}

ndarray hstack(std::span<const ndarray> arrays, const join_options& options) {
  require_arrays(arrays, "hstack");
  const std::vector<ndarray> arrs = atleast_1d(arrays);
  const int axis = !arrs.empty() && arrs[0].ndim() == 1 ? 0 : 1;
  return concatenate_impl(arrs, {.axis = axis, .dtype = options.dtype, .casting = options.casting}, "hstack");
}
ndarray hstack(std::initializer_list<ndarray> arrays, const join_options& options) {
  return hstack(std::span<const ndarray>(arrays.begin(), arrays.size()), options);
}
ndarray vstack(std::span<const ndarray> arrays, const join_options& options) {
  require_arrays(arrays, "vstack");
  return concatenate_impl(atleast_2d(arrays), {.axis = 0, .dtype = options.dtype, .casting = options.casting},
                          "vstack");
}
ndarray vstack(std::initializer_list<ndarray> arrays, const join_options& options) {
  return vstack(std::span<const ndarray>(arrays.begin(), arrays.size()), options);
}
ndarray dstack(std::span<const ndarray> arrays) {
  require_arrays(arrays, "dstack");
  return concatenate_impl(atleast_3d(arrays), {.axis = 2}, "dstack");
}
ndarray dstack(std::initializer_list<ndarray> arrays) {
  return dstack(std::span<const ndarray>(arrays.begin(), arrays.size()));
}
ndarray column_stack(std::span<const ndarray> arrays) {
  require_arrays(arrays, "column_stack");
  std::vector<ndarray> cols;
  for (const ndarray& a : arrays) {
    if (a.ndim() == 0) cols.push_back(a.reshape({1, 1}));
    else if (a.ndim() == 1) cols.push_back(a(slice(), newaxis));
    else cols.push_back(a);
  }
  return concatenate_impl(cols, {.axis = 1}, "column_stack");
}
ndarray column_stack(std::initializer_list<ndarray> arrays) {
  return column_stack(std::span<const ndarray>(arrays.begin(), arrays.size()));
}

ndarray append(const ndarray& arr, const ndarray& values, std::optional<int> axis) {
  detail::require_array(arr, "append");
  detail::require_array(values, "append");
  if (!axis) {
    const ndarray a = arr.ndim() == 1 ? arr : arr.ravel();
    const ndarray both[] = {a, values.ravel()};
    return concatenate_impl(both, {.axis = a.ndim() - 1}, "append");
  }
  const ndarray both[] = {arr, values};
  return concatenate_impl(both, {.axis = *axis}, "append");
}

// ---------------------------------------------------------------------------------------------
// splitting

std::vector<ndarray> array_split(const ndarray& a, std::int64_t sections, int axis) {
  const int ax = split_axis(a, axis, "array_split");
  return split_at(a, section_points(a.shape(ax), sections), ax);
}
std::vector<ndarray> array_split(const ndarray& a, std::span<const std::int64_t> indices, int axis) {
  const int ax = split_axis(a, axis, "array_split");
  return split_at(a, index_points(a.shape(ax), indices), ax);
}
std::vector<ndarray> array_split(const ndarray& a, std::initializer_list<std::int64_t> indices, int axis) {
  return array_split(a, std::span<const std::int64_t>(indices.begin(), indices.size()), axis);
}
std::vector<ndarray> split(const ndarray& a, std::int64_t sections, int axis) {
  const int ax = split_axis(a, axis, "split");
  if (sections <= 0) throw ValueError("number sections must be larger than 0.");
  if (a.shape(ax) % sections != 0) throw ValueError("array split does not result in an equal division");
  return split_at(a, section_points(a.shape(ax), sections), ax);
}
std::vector<ndarray> split(const ndarray& a, std::span<const std::int64_t> indices, int axis) {
  const int ax = split_axis(a, axis, "split");
  return split_at(a, index_points(a.shape(ax), indices), ax);
}
std::vector<ndarray> split(const ndarray& a, std::initializer_list<std::int64_t> indices, int axis) {
  return split(a, std::span<const std::int64_t>(indices.begin(), indices.size()), axis);
}

namespace {
int hsplit_axis(const ndarray& a) {
  detail::require_array(a, "hsplit");
  if (a.ndim() == 0) throw ValueError("hsplit only works on arrays of 1 or more dimensions");
  return a.ndim() > 1 ? 1 : 0;
}
void require_ndim(const ndarray& a, int n, const char* op) {
  detail::require_array(a, op);
  if (a.ndim() < n)
    throw ValueError(std::string(op) + " only works on arrays of " + str(n) + " or more dimensions");
}
}  // namespace

std::vector<ndarray> hsplit(const ndarray& a, std::int64_t sections) { return split(a, sections, hsplit_axis(a)); }
std::vector<ndarray> hsplit(const ndarray& a, std::span<const std::int64_t> indices) {
  return split(a, indices, hsplit_axis(a));
}
std::vector<ndarray> vsplit(const ndarray& a, std::int64_t sections) {
  require_ndim(a, 2, "vsplit");
  return split(a, sections, 0);
}
std::vector<ndarray> vsplit(const ndarray& a, std::span<const std::int64_t> indices) {
  require_ndim(a, 2, "vsplit");
  return split(a, indices, 0);
}
std::vector<ndarray> dsplit(const ndarray& a, std::int64_t sections) {
  require_ndim(a, 3, "dsplit");
  return split(a, sections, 2);
}
std::vector<ndarray> dsplit(const ndarray& a, std::span<const std::int64_t> indices) {
  require_ndim(a, 3, "dsplit");
  return split(a, indices, 2);
}

// ---------------------------------------------------------------------------------------------
// rearranging

ndarray flip(const ndarray& m) {
  detail::require_array(m, "flip");
  std::vector<int> all(static_cast<std::size_t>(m.ndim()));
  std::iota(all.begin(), all.end(), 0);
  return reversed_axes(m, all);
}
ndarray flip(const ndarray& m, int axis) { return flip(m, std::span<const int>(&axis, 1)); }
ndarray flip(const ndarray& m, std::span<const int> axes) {
  detail::require_array(m, "flip");
  return reversed_axes(m, normalize_axes(axes, m.ndim(), false));
}
ndarray flip(const ndarray& m, std::initializer_list<int> axes) {
  return flip(m, std::span<const int>(axes.begin(), axes.size()));
}
ndarray fliplr(const ndarray& m) {
  detail::require_array(m, "fliplr");
  if (m.ndim() < 2) throw ValueError("Input must be >= 2-d.");
  return reversed_axes(m, {1});
}
ndarray flipud(const ndarray& m) {
  detail::require_array(m, "flipud");
  if (m.ndim() < 1) throw ValueError("Input must be >= 1-d.");
  return reversed_axes(m, {0});
}

ndarray rot90(const ndarray& m, std::int64_t k, std::array<int, 2> axes) {
  detail::require_array(m, "rot90");
  const int nd = m.ndim();
  if (axes[0] == axes[1] || std::abs(axes[0] - axes[1]) == nd) throw ValueError("Axes must be different.");
  if (axes[0] >= nd || axes[0] < -nd || axes[1] >= nd || axes[1] < -nd)
    throw ValueError("Axes=(" + str(axes[0]) + ", " + str(axes[1]) + ") out of range for array of ndim=" + str(nd) +
                     ".");
  k = ((k % 4) + 4) % 4;
  if (k == 0) return m(ellipsis);
  if (k == 2) return flip(flip(m, axes[0]), axes[1]);
  std::vector<int> order(static_cast<std::size_t>(nd));
  std::iota(order.begin(), order.end(), 0);
  const int a0 = layout::normalize_axis(axes[0], nd), a1 = layout::normalize_axis(axes[1], nd);
  std::swap(order[static_cast<std::size_t>(a0)], order[static_cast<std::size_t>(a1)]);
  if (k == 1) return flip(m, axes[1]).transpose(order);
  return flip(m.transpose(order), axes[1]);
}

ndarray roll(const ndarray& a, std::int64_t shift) {
  detail::require_array(a, "roll");
  const int zero = 0;
  return roll(a.ravel(), std::span<const int64_t>(&shift, 1), std::span<const int>(&zero, 1)).reshape(a.shape());
}
ndarray roll(const ndarray& a, std::int64_t shift, int axis) {
  return roll(a, std::span<const int64_t>(&shift, 1), std::span<const int>(&axis, 1));
}
ndarray roll(const ndarray& a, std::initializer_list<std::int64_t> shifts, std::initializer_list<int> axes) {
  return roll(a, std::span<const int64_t>(shifts.begin(), shifts.size()), std::span<const int>(axes.begin(), axes.size()));
}
ndarray roll(const ndarray& a, std::span<const std::int64_t> shifts, std::span<const int> axes) {
  detail::require_array(a, "roll");
  const std::vector<int> ax = normalize_axes(axes, a.ndim(), true);
  const std::size_t ns = shifts.size(), na = ax.size();
  if (ns != na && ns != 1 && na != 1)
    throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with "
                     "shape (" + str(int64_t(ns)) + ",) and arg 1 with shape (" + str(int64_t(na)) + ",).");
  const std::size_t n = (ns == 1 || na == 1) ? std::max(ns, na) * (std::min(ns, na) == 0 ? 0 : 1) : ns;
  std::vector<int64_t> offset(static_cast<std::size_t>(a.ndim()), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int axis = ax[na == 1 ? 0 : i];
    const int64_t sh = shifts[ns == 1 ? 0 : i];
    const int64_t len = std::max<int64_t>(a.shape(axis), 1);
    int64_t& o = offset[static_cast<std::size_t>(axis)];
    o = (((o + sh % len) % len) + len) % len;
  }
  ndarray result = empty_like(a);
  if (a.size() == 0) return result;
  std::vector<int> moving;
  for (int d = 0; d < a.ndim(); ++d)
    if (offset[static_cast<std::size_t>(d)] != 0) moving.push_back(d);
  // Each rolled axis has two pieces: a[:-o] -> r[o:] and a[-o:] -> r[:o]; every combination once.
  detail::segment_copy::batch pieces;
  for (std::uint64_t combo = 0; combo < (std::uint64_t(1) << moving.size()); ++combo) {
    std::vector<index_item> src(static_cast<std::size_t>(a.ndim()), slice()), dst = src;
    for (std::size_t j = 0; j < moving.size(); ++j) {
      const auto d = static_cast<std::size_t>(moving[j]);
      const int64_t o = offset[d];
      if ((combo >> j) & 1) {
        src[d] = slice(-o, std::nullopt);
        dst[d] = slice(std::nullopt, o);
      } else {
        src[d] = slice(std::nullopt, -o);
        dst[d] = slice(o, std::nullopt);
      }
    }
    pieces.copy(result.index(dst), a.index(src));
  }
  pieces.flush();
  return result;
}

// ---------------------------------------------------------------------------------------------
// tiling and repeating

ndarray tile(const ndarray& a, std::span<const std::int64_t> reps) {
  detail::require_array(a, "tile");
  for (int64_t r : reps)
    if (r < 0) throw ValueError("negative dimensions are not allowed");
  ndarray c = a;
  while (c.ndim() < static_cast<int>(reps.size())) c = c.expand_dims(0);
  std::vector<int64_t> tup(static_cast<std::size_t>(c.ndim()) - reps.size(), 1);
  tup.insert(tup.end(), reps.begin(), reps.end());
  shape_t out_shape;
  for (int d = 0; d < c.ndim(); ++d) out_shape.push_back(c.shape(d) * tup[static_cast<std::size_t>(d)]);
  layout::checked_size(out_shape);
  if (std::all_of(tup.begin(), tup.end(), [](int64_t r) { return r == 1; })) return c.copy();
  // c viewed as (1, s0, 1, s1, ...) on the repeated axes, broadcast to (r0, s0, r1, s1, ...).
  std::vector<index_item> items;
  shape_t target;
  for (int d = 0; d < c.ndim(); ++d) {
    const int64_t r = tup[static_cast<std::size_t>(d)];
    if (r != 1) {
      items.emplace_back(newaxis);
      target.push_back(r);
    }
    items.emplace_back(slice());
    target.push_back(c.shape(d));
  }
  layout::check_ndim(target.size());
  return broadcast_copy(c.index(items), target).reshape(out_shape);
}
ndarray tile(const ndarray& a, std::initializer_list<std::int64_t> reps) {
  return tile(a, std::span<const std::int64_t>(reps.begin(), reps.size()));
}
ndarray tile(const ndarray& a, std::int64_t reps) { return tile(a, std::span<const std::int64_t>(&reps, 1)); }

ndarray repeat(const ndarray& a, std::int64_t repeats, std::optional<int> axis) {
  detail::require_array(a, "repeat");
  check_counts(std::span<const int64_t>(&repeats, 1));
  const ndarray b = axis ? a : a.ravel();
  const int ax = axis ? layout::normalize_axis(*axis, a.ndim()) : 0;
  shape_t out_shape = shape_of(b), target = shape_of(b);
  out_shape[static_cast<std::size_t>(ax)] *= repeats;
  target.insert(target.begin() + ax + 1, repeats);
  layout::checked_size(out_shape);
  return broadcast_copy(b.expand_dims(ax + 1), target).reshape(out_shape);
}
ndarray repeat(const ndarray& a, std::span<const std::int64_t> repeats, std::optional<int> axis) {
  detail::require_array(a, "repeat");
  if (repeats.size() == 1) return repeat(a, repeats[0], axis);
  const ndarray b = axis ? a : a.ravel();
  const int ax = axis ? layout::normalize_axis(*axis, a.ndim()) : 0;
  const int64_t n = b.shape(ax);
  if (static_cast<int64_t>(repeats.size()) != n)
    throw ValueError("operands could not be broadcast together with shape (" + str(n) + ",) (" +
                     str(int64_t(repeats.size())) + ",)");
  check_counts(repeats);
  shape_t out_shape = shape_of(b);
  out_shape[static_cast<std::size_t>(ax)] = std::accumulate(repeats.begin(), repeats.end(), int64_t(0));
  layout::checked_size(out_shape);
  ndarray out = new_c_array(out_shape, b.dtype(), b.device());
  if (out.size() == 0) return out;
  // Runs of equal counts: a[i0:i1] with each element repeated c times is one broadcast copy into
  // out[pos:pos + (i1 - i0) * c] viewed as (..., i1 - i0, c, ...).
  int64_t pos = 0;
  for (int64_t i0 = 0; i0 < n;) {
    const int64_t c = repeats[static_cast<std::size_t>(i0)];
    int64_t i1 = i0 + 1;
    while (i1 < n && repeats[static_cast<std::size_t>(i1)] == c) ++i1;
    if (c > 0) {
      const ndarray dst = along(out, ax, pos, pos + (i1 - i0) * c);
      shape_t split = shape_of(dst);
      split[static_cast<std::size_t>(ax)] = i1 - i0;
      split.insert(split.begin() + ax + 1, c);
      const ndarray dst_split = dst.reshape(split);
      if (dst_split.base() != out.base()) throw ValueError("repeat: internal error (an output view was copied)");
      engine::copy_into(dst_split, broadcast_to(along(b, ax, i0, i1).expand_dims(ax + 1), split));
      pos += (i1 - i0) * c;
    }
    i0 = i1;
  }
  return out;
}
ndarray repeat(const ndarray& a, std::initializer_list<std::int64_t> repeats, std::optional<int> axis) {
  return repeat(a, std::span<const std::int64_t>(repeats.begin(), repeats.size()), axis);
}
ndarray repeat(const ndarray& a, const ndarray& repeats, std::optional<int> axis) {
  detail::require_array(a, "repeat");
  detail::require_array(repeats, "repeat");
  if (!can_cast(repeats.dtype(), int64, casting::safe)) throw TypeError(cast_error(repeats.dtype(), int64, casting::safe));
  if (repeats.ndim() > 1) throw ValueError("object too deep for desired array");
  const std::vector<int64_t> counts = astype(repeats, int64).to_vector<int64_t>();
  return repeat(a, std::span<const int64_t>(counts), axis);
}

ndarray resize(const ndarray& a, std::span<const std::int64_t> new_shape) {
  detail::require_array(a, "resize");
  int64_t new_size = 1;
  for (int64_t d : new_shape) {
    if (d < 0) throw ValueError("all elements of `new_shape` must be non-negative");
    new_size *= d;
  }
  layout::checked_size(new_shape);
  if (a.size() == 0 || new_size == 0) return zeros(new_shape, a.dtype());
  const ndarray flat = a.ravel();
  const int64_t n = flat.size(), reps = (new_size + n - 1) / n;
  const int64_t target[] = {reps, n};
  return broadcast_copy(flat(newaxis, slice()), target).reshape({reps * n})(slice(0, new_size)).reshape(new_shape);
}
ndarray resize(const ndarray& a, std::initializer_list<std::int64_t> new_shape) {
  return resize(a, std::span<const std::int64_t>(new_shape.begin(), new_shape.size()));
}

// ---------------------------------------------------------------------------------------------
// dimensions

ndarray atleast_1d(const ndarray& a) {
  detail::require_array(a, "atleast_1d");
  return a.ndim() == 0 ? a.reshape({1}) : a;
}
ndarray atleast_2d(const ndarray& a) {
  detail::require_array(a, "atleast_2d");
  if (a.ndim() == 0) return a.reshape({1, 1});
  if (a.ndim() == 1) return a(newaxis, slice());
  return a;
}
ndarray atleast_3d(const ndarray& a) {
  detail::require_array(a, "atleast_3d");
  if (a.ndim() == 0) return a.reshape({1, 1, 1});
  if (a.ndim() == 1) return a(newaxis, slice(), newaxis);
  if (a.ndim() == 2) return a(slice(), slice(), newaxis);
  return a;
}
std::vector<ndarray> atleast_1d(std::span<const ndarray> arrays) {
  std::vector<ndarray> out;
  for (const ndarray& a : arrays) out.push_back(atleast_1d(a));
  return out;
}
std::vector<ndarray> atleast_2d(std::span<const ndarray> arrays) {
  std::vector<ndarray> out;
  for (const ndarray& a : arrays) out.push_back(atleast_2d(a));
  return out;
}
std::vector<ndarray> atleast_3d(std::span<const ndarray> arrays) {
  std::vector<ndarray> out;
  for (const ndarray& a : arrays) out.push_back(atleast_3d(a));
  return out;
}

// ---------------------------------------------------------------------------------------------
// editing

namespace {

// The array and axis insert/delete work on: flattened without an axis.
std::pair<ndarray, int> edit_target(const ndarray& arr, std::optional<int> axis, const char* op) {
  detail::require_array(arr, op);
  if (!axis) {
    const ndarray a = arr.ndim() == 1 ? arr : arr.ravel();
    return {a, 0};
  }
  return {arr, layout::normalize_axis(*axis, arr.ndim())};
}

[[noreturn]] void out_of_bounds(int64_t index, int axis, int64_t size) {
  throw IndexError("index " + str(index) + " is out of bounds for axis " + str(axis) + " with size " + str(size));
}

// Copies the entries of `a` along axis where keep[i] into out (C-ordered, keep-count long), one
// piece per run of kept entries (byte pieces: one segment copy launch for all of them).
void copy_kept(const ndarray& out, const ndarray& a, int axis, const std::vector<bool>& keep) {
  const auto n = static_cast<int64_t>(keep.size());
  detail::segment_copy::batch pieces;
  int64_t pos = 0;
  for (int64_t i = 0; i < n;) {
    if (!keep[static_cast<std::size_t>(i)]) {
      ++i;
      continue;
    }
    int64_t j = i;
    while (j < n && keep[static_cast<std::size_t>(j)]) ++j;
    pieces.copy(along(out, axis, pos, pos + (j - i)), along(a, axis, i, j));
    pos += j - i;
    i = j;
  }
  pieces.flush();
}

ndarray delete_mask(const ndarray& a, int axis, const std::vector<bool>& keep) {
  shape_t shape = shape_of(a);
  shape[static_cast<std::size_t>(axis)] = std::count(keep.begin(), keep.end(), true);
  ndarray out = new_c_array(shape, a.dtype(), a.device());
  if (out.size() != 0) copy_kept(out, a, axis, keep);
  return out;
}

std::vector<int64_t> spec_indices(const index_spec& obj, int64_t length) {
  if (const auto* s = std::get_if<slice>(&obj)) {
    const layout::slice_range r = layout::resolve_slice(*s, length);
    std::vector<int64_t> out;
    for (int64_t k = 0; k < r.count; ++k) out.push_back(r.start + k * r.step);
    return out;
  }
  if (const auto* i = std::get_if<int64_t>(&obj)) return {*i};
  return std::get<std::vector<int64_t>>(obj);
}

}  // namespace

ndarray delete_(const ndarray& arr, const index_spec& obj, std::optional<int> axis) {
  const auto [a, ax] = edit_target(arr, axis, "delete");
  const int64_t n = a.shape(ax);
  std::vector<bool> keep(static_cast<std::size_t>(n), true);
  for (int64_t i : spec_indices(obj, n)) {
    if (i < -n || i >= n) out_of_bounds(i, ax, n);
    keep[static_cast<std::size_t>(i < 0 ? i + n : i)] = false;
  }
  return delete_mask(a, ax, keep);
}
ndarray delete_(const ndarray& arr, const std::vector<bool>& mask, std::optional<int> axis) {
  const auto [a, ax] = edit_target(arr, axis, "delete");
  const int64_t n = a.shape(ax);
  if (static_cast<int64_t>(mask.size()) != n)
    throw ValueError("boolean array argument obj to delete must be one dimensional and match the axis length of " +
                     str(n));
  std::vector<bool> keep(mask.size());
  for (std::size_t i = 0; i < mask.size(); ++i) keep[i] = !mask[i];
  return delete_mask(a, ax, keep);
}

ndarray insert(const ndarray& arr, const index_spec& obj, const operand& values, std::optional<int> axis) {
  const auto [a, ax] = edit_target(arr, axis, "insert");
  const int64_t n = a.shape(ax);
  const int nd = a.ndim();
  ndarray vals = values.is_array() ? astype(values.array(), a.dtype(), casting::unsafe, false)
                                   : scalar(values.scalar(), a.dtype());
  std::vector<int64_t> indices = spec_indices(obj, n);
  shape_t shape = shape_of(a);
  if (indices.size() == 1) {
    int64_t index = indices[0];
    if (index < -n || index > n) out_of_bounds(index, ax, n);
    if (index < 0) index += n;
    while (vals.ndim() < nd) vals = vals.expand_dims(0);
    if (std::holds_alternative<int64_t>(obj)) vals = vals.moveaxis(0, ax);
    const int64_t numnew = vals.shape(ax);
    shape[static_cast<std::size_t>(ax)] += numnew;
    ndarray out = new_c_array(shape, a.dtype(), a.device());
    if (out.size() == 0) return out;
    detail::segment_copy::batch pieces;
    pieces.copy(along(out, ax, 0, index), along(a, ax, 0, index));
    pieces.copy(along(out, ax, index + numnew, shape[static_cast<std::size_t>(ax)]), along(a, ax, index, n));
    pieces.flush();
    const ndarray middle = along(out, ax, index, index + numnew);
    if (middle.size() != 0) engine::copy_into(middle, vals);
    return out;
  }
  for (int64_t& i : indices) {
    if (i < -n || i > n) out_of_bounds(i, ax, n);
    if (i < 0) i += n;
  }
  const auto numnew = static_cast<int64_t>(indices.size());
  std::vector<std::size_t> order(indices.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return indices[x] < indices[y]; });
  for (std::size_t k = 0; k < order.size(); ++k) indices[order[k]] += static_cast<int64_t>(k);
  shape[static_cast<std::size_t>(ax)] += numnew;
  const int64_t total = shape[static_cast<std::size_t>(ax)];
  shape_t vshape = shape_of(a);
  vshape[static_cast<std::size_t>(ax)] = numnew;
  ndarray vb;
  try {
    vb = broadcast_to(vals, vshape);
  } catch (const ValueError&) {
    throw ValueError("shape mismatch: value array of shape " + layout::tuple_string(vals.shape()) +
                     " could not be broadcast to indexing result of shape " + layout::tuple_string(vshape));
  }
  ndarray out = new_c_array(shape, a.dtype(), a.device());
  if (out.size() == 0) return out;
  std::vector<bool> old(static_cast<std::size_t>(total), true);
  for (int64_t i : indices) old[static_cast<std::size_t>(i)] = false;
  // Old entries: runs of `old` in out take consecutive entries of a.
  detail::segment_copy::batch pieces;
  int64_t src = 0;
  for (int64_t i = 0; i < total;) {
    if (!old[static_cast<std::size_t>(i)]) {
      ++i;
      continue;
    }
    int64_t j = i;
    while (j < total && old[static_cast<std::size_t>(j)]) ++j;
    pieces.copy(along(out, ax, i, j), along(a, ax, src, src + (j - i)));
    src += j - i;
    i = j;
  }
  pieces.flush();
  // New entries, in the order given (a later duplicate index wins, as NumPy's assignment).
  for (std::size_t k = 0; k < indices.size(); ++k)
    engine::copy_into(along(out, ax, indices[k]), along(vb, ax, static_cast<int64_t>(k)));
  return out;
}

// manipulation_routines(), the table `cupp ops` lists: generated from specs/routines/manipulation.yaml
// (generated/src/routine_tables.cpp).

}  // namespace cupp
