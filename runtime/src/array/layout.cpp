// Shape, stride and index arithmetic of ndarray views (layout.hpp): NumPy's rules, host only.
#include "array/layout.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <variant>

#include "cupp/errors.hpp"

namespace cupp::layout {

namespace {

std::string join(std::span<const std::int64_t> shape, const char* sep) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += sep;
    s += shape[i] < 0 ? std::string("newaxis") : std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

std::int64_t mul_or_keep(std::int64_t stride, std::int64_t step, std::int64_t count) {
  std::int64_t r = 0;
  if (__builtin_mul_overflow(stride, step, &r)) {
    if (count <= 1) return stride;  // any stride serves an axis of length 0 or 1
    throw ValueError("slice step makes the stride overflow");
  }
  return r;
}

}  // namespace

std::string tuple_string(std::span<const std::int64_t> shape) { return join(shape, ", "); }
std::string compact_string(std::span<const std::int64_t> shape) { return join(shape, ","); }

void check_ndim(std::size_t ndim) {
  if (ndim > static_cast<std::size_t>(max_ndim))
    throw ValueError("maximum supported dimension for an ndarray is currently " + std::to_string(max_ndim) +
                     ", found " + std::to_string(ndim));
}

std::int64_t checked_size(std::span<const std::int64_t> shape) {
  check_ndim(shape.size());
  std::int64_t size = 1;
  bool overflow = false;
  for (std::int64_t d : shape) {
    if (d < 0) throw ValueError("negative dimensions are not allowed");
    if (!overflow && __builtin_mul_overflow(size, d, &size)) overflow = true;
  }
  for (std::int64_t d : shape)
    if (d == 0) return 0;
  if (overflow) throw ValueError("array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  return size;
}

shape_t c_strides(std::span<const std::int64_t> shape, std::int64_t itemsize) {
  shape_t strides(shape.size());
  std::int64_t s = itemsize;
  for (std::size_t i = shape.size(); i-- > 0;) {
    strides[i] = s;
    if (shape[i]) s *= shape[i];
  }
  return strides;
}

bool is_c_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize) {
  for (std::int64_t d : shape)
    if (d == 0) return true;  // empty arrays are both
  std::int64_t expected = itemsize;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

bool is_f_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize) {
  for (std::int64_t d : shape)
    if (d == 0) return true;  // empty arrays are both
  std::int64_t expected = itemsize;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return true;
    if (shape[i] != 1) {
      if (strides[i] != expected) return false;
      expected *= shape[i];
    }
  }
  return true;
}

byte_extent extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize) {
  byte_extent e{0, itemsize};
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0) return {0, 0};
    const std::int64_t span = strides[i] * (shape[i] - 1);
    if (span < 0) e.low += span;
    else e.high += span;
  }
  return e;
}

int normalize_axis(std::int64_t axis, int ndim) {
  if (axis < -ndim || axis >= ndim)
    throw AxisError("axis " + std::to_string(axis) + " is out of bounds for array of dimension " + std::to_string(ndim));
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

slice_range resolve_slice(const slice& s, std::int64_t length) {
  std::int64_t step = s.step.value_or(1);
  if (step == 0) throw ValueError("slice step cannot be zero");
  if (step == std::numeric_limits<std::int64_t>::min()) step = -std::numeric_limits<std::int64_t>::max();
  const bool back = step < 0;
  auto adjust = [&](std::optional<std::int64_t> v, std::int64_t absent) {
    if (!v) return absent;
    std::int64_t x = *v;
    if (x < 0) {
      x += length;
      if (x < 0) x = back ? -1 : 0;
    } else if (x >= length) {
      x = back ? length - 1 : length;
    }
    return x;
  };
  const std::int64_t start = adjust(s.start, back ? length - 1 : 0);
  const std::int64_t stop = adjust(s.stop, back ? -1 : length);
  std::int64_t count = 0;
  if (back) {
    if (stop < start) count = (start - stop - 1) / (-step) + 1;
  } else if (start < stop) {
    count = (stop - start - 1) / step + 1;
  }
  return {start, step, count};
}

strided index(const strided& a, std::int64_t itemsize, std::span<const index_item> items) {
  (void)itemsize;
  const int ndim = static_cast<int>(a.shape.size());
  int consumed = 0, ellipses = 0;
  for (const index_item& item : items) {
    if (std::holds_alternative<std::int64_t>(item) || std::holds_alternative<slice>(item)) ++consumed;
    if (std::holds_alternative<ellipsis_t>(item)) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > ndim)
    throw IndexError("too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
                     std::to_string(consumed) + " were indexed");
  strided out;
  out.offset = a.offset;
  int axis = 0;
  for (const index_item& item : items) {
    if (const auto* i = std::get_if<std::int64_t>(&item)) {
      const std::int64_t n = a.shape[axis];
      if (*i < -n || *i >= n)
        throw IndexError("index " + std::to_string(*i) + " is out of bounds for axis " + std::to_string(axis) +
                         " with size " + std::to_string(n));
      out.offset += (*i < 0 ? *i + n : *i) * a.strides[axis];
      ++axis;
    } else if (const auto* s = std::get_if<slice>(&item)) {
      const slice_range r = resolve_slice(*s, a.shape[axis]);
      if (r.count > 0) out.offset += r.start * a.strides[axis];
      out.shape.push_back(r.count);
      out.strides.push_back(mul_or_keep(a.strides[axis], r.step, r.count));
      ++axis;
    } else if (std::holds_alternative<newaxis_t>(item)) {
      out.shape.push_back(1);
      out.strides.push_back(0);
    } else {
      for (int k = 0; k < ndim - consumed; ++k, ++axis) {
        out.shape.push_back(a.shape[axis]);
        out.strides.push_back(a.strides[axis]);
      }
    }
  }
  for (; axis < ndim; ++axis) {
    out.shape.push_back(a.shape[axis]);
    out.strides.push_back(a.strides[axis]);
  }
  check_ndim(out.shape.size());
  return out;
}

shape_t infer_shape(std::span<const std::int64_t> newshape, std::int64_t size, std::span<const std::int64_t> oldshape) {
  check_ndim(newshape.size());
  int unknown = -1;
  std::int64_t known = 1;
  bool overflow = false;
  for (std::size_t i = 0; i < newshape.size(); ++i) {
    if (newshape[i] == -1) {
      if (unknown >= 0) throw ValueError("can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (newshape[i] < 0) {
      throw ValueError("negative dimensions not allowed");
    } else if (!overflow && __builtin_mul_overflow(known, newshape[i], &known)) {
      overflow = true;
    }
  }
  auto mismatch = [&] {
    return ValueError("cannot reshape array of size " + std::to_string(size) + " into shape " +
                      compact_string(newshape) + " (the array's shape is " + compact_string(oldshape) + ")");
  };
  shape_t out(newshape.begin(), newshape.end());
  if (unknown >= 0) {
    if (known == 0 || overflow || size % known != 0) throw mismatch();
    out[unknown] = size / known;
  } else if (overflow || known != size) {
    throw mismatch();
  }
  return out;
}

std::optional<shape_t> reshape_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                       std::span<const std::int64_t> newshape, std::int64_t itemsize) {
  if (is_c_contiguous(shape, strides, itemsize)) return c_strides(newshape, itemsize);
  // Not C-contiguous (and so not empty): group old and new axes into blocks of equal size and
  // check that each old block is contiguous in itself.
  shape_t olddims, oldstrides;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) {
      olddims.push_back(shape[i]);
      oldstrides.push_back(strides[i]);
    }
  }
  const std::size_t oldnd = olddims.size(), newnd = newshape.size();
  shape_t newstrides(newnd, 0);
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    std::int64_t np = newshape[ni], op = olddims[oi];
    while (np != op) {
      if (np < op) np *= newshape[nj++];
      else op *= olddims[oj++];
    }
    for (std::size_t ok = oi; ok + 1 < oj; ++ok)
      if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]) return std::nullopt;
    newstrides[nj - 1] = oldstrides[oj - 1];
    for (std::size_t nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * newshape[nk];
    ni = nj++;
    oi = oj++;
  }
  const std::int64_t last = ni >= 1 ? newstrides[ni - 1] : itemsize;
  for (std::size_t nk = ni; nk < newnd; ++nk) newstrides[nk] = last;
  return newstrides;
}

namespace {

// Broadcast result, or the indices (first, second) of the two shapes that clash.
struct broadcast_result {
  shape_t shape;
  int clash_a = -1, clash_b = -1;
};

broadcast_result try_broadcast(std::span<const shape_t> shapes) {
  std::size_t nd = 0;
  for (const shape_t& s : shapes) nd = std::max(nd, s.size());
  check_ndim(nd);
  broadcast_result r;
  r.shape.assign(nd, 1);
  for (std::size_t i = 0; i < nd; ++i) {
    int source = -1;
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      const std::int64_t k = static_cast<std::int64_t>(i) + static_cast<std::int64_t>(shapes[j].size()) -
                             static_cast<std::int64_t>(nd);
      if (k < 0) continue;
      const std::int64_t d = shapes[j][k];
      if (d == 1) continue;
      if (r.shape[i] == 1) {
        r.shape[i] = d;
        source = static_cast<int>(j);
      } else if (r.shape[i] != d) {
        r.clash_a = source;
        r.clash_b = static_cast<int>(j);
        return r;
      }
    }
  }
  return r;
}

}  // namespace

shape_t broadcast_shapes(std::span<const shape_t> shapes) {
  broadcast_result r = try_broadcast(shapes);
  if (r.clash_b >= 0)
    throw ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg " +
                     std::to_string(r.clash_a) + " with shape " + tuple_string(shapes[r.clash_a]) + " and arg " +
                     std::to_string(r.clash_b) + " with shape " + tuple_string(shapes[r.clash_b]) + ".");
  return std::move(r.shape);
}

shape_t broadcast_operand_shapes(std::span<const shape_t> shapes) {
  broadcast_result r = try_broadcast(shapes);
  if (r.clash_b >= 0) {
    std::string m = "operands could not be broadcast together with shapes ";
    for (const shape_t& s : shapes) m += compact_string(s) + " ";
    throw ValueError(m);
  }
  return std::move(r.shape);
}

shape_t broadcast_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                          std::span<const std::int64_t> target) {
  check_ndim(target.size());
  for (std::int64_t d : target)
    if (d < 0) throw ValueError("all elements of broadcast shape must be non-negative");
  if (shape.size() > target.size())
    throw ValueError("input operand has more dimensions than allowed by the axis remapping");
  const std::size_t lead = target.size() - shape.size();
  shape_t out(target.size(), 0);
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const std::int64_t d = shape[i], t = target[lead + i];
    if (d == t) out[lead + i] = strides[i];
    else if (d == 1) out[lead + i] = 0;
    else
      throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                       compact_string(shape) + "  and requested shape " + compact_string(target));
  }
  return out;
}

std::vector<int> transpose_axes(std::span<const int> axes, int ndim) {
  if (static_cast<int>(axes.size()) != ndim) throw ValueError("axes don't match array");
  std::vector<int> order(axes.size());
  std::vector<bool> seen(axes.size(), false);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const int a = normalize_axis(axes[i], ndim);
    if (seen[a]) throw ValueError("repeated axis in transpose");
    seen[a] = true;
    order[i] = a;
  }
  return order;
}

std::vector<int> moveaxis_order(int source, int destination, int ndim) {
  const int s = normalize_axis(source, ndim), d = normalize_axis(destination, ndim);
  std::vector<int> order;
  for (int i = 0; i < ndim; ++i)
    if (i != s) order.push_back(i);
  order.insert(order.begin() + d, s);
  return order;
}

strided permute(const strided& a, std::span<const int> order) {
  strided out;
  out.offset = a.offset;
  for (int axis : order) {
    out.shape.push_back(a.shape[axis]);
    out.strides.push_back(a.strides[axis]);
  }
  return out;
}

strided squeeze(const strided& a, std::span<const int> axes) {
  const int ndim = static_cast<int>(a.shape.size());
  std::vector<bool> drop(ndim, false);
  for (int axis : axes) {
    const int k = normalize_axis(axis, ndim);
    if (drop[k]) throw ValueError("duplicate value in 'axis'");
    if (a.shape[k] != 1) throw ValueError("cannot select an axis to squeeze out which has size not equal to one");
    drop[k] = true;
  }
  strided out;
  out.offset = a.offset;
  for (int i = 0; i < ndim; ++i) {
    if (drop[i]) continue;
    out.shape.push_back(a.shape[i]);
    out.strides.push_back(a.strides[i]);
  }
  return out;
}

strided squeeze_all(const strided& a) {
  strided out;
  out.offset = a.offset;
  for (std::size_t i = 0; i < a.shape.size(); ++i) {
    if (a.shape[i] == 1) continue;
    out.shape.push_back(a.shape[i]);
    out.strides.push_back(a.strides[i]);
  }
  return out;
}

strided expand_dims(const strided& a, std::int64_t itemsize, int axis) {
  const int ndim = static_cast<int>(a.shape.size()) + 1;
  check_ndim(static_cast<std::size_t>(ndim));
  const int k = normalize_axis(axis, ndim);
  // NumPy reshapes: the strides are those its no-copy reshape gives (always possible here).
  strided out = a;
  out.shape.insert(out.shape.begin() + k, 1);
  out.strides = *reshape_strides(a.shape, a.strides, out.shape, itemsize);
  return out;
}

strided diagonal(const strided& a, std::int64_t offset, int axis1, int axis2) {
  const int ndim = static_cast<int>(a.shape.size());
  if (ndim < 2) throw ValueError("diag requires an array of at least two dimensions");
  const int a1 = normalize_axis(axis1, ndim), a2 = normalize_axis(axis2, ndim);
  if (a1 == a2) throw ValueError("axis1 and axis2 cannot be the same");
  const std::int64_t n1 = a.shape[a1], n2 = a.shape[a2];
  std::int64_t length = 0, start = 0;
  if (offset >= 0) {
    length = offset >= n2 ? 0 : std::min(n1, n2 - offset);
    start = length > 0 ? offset * a.strides[a2] : 0;
  } else {
    length = -offset >= n1 ? 0 : std::min(n1 + offset, n2);
    start = length > 0 ? -offset * a.strides[a1] : 0;
  }
  strided out;
  out.offset = a.offset + start;
  for (int i = 0; i < ndim; ++i) {
    if (i == a1 || i == a2) continue;
    out.shape.push_back(a.shape[i]);
    out.strides.push_back(a.strides[i]);
  }
  out.shape.push_back(length);
  out.strides.push_back(a.strides[a1] + a.strides[a2]);
  return out;
}

strided view_as(const strided& a, std::int64_t old_itemsize, std::int64_t new_itemsize) {
  if (old_itemsize == new_itemsize) return a;
  if (a.shape.empty())
    throw ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  const std::size_t last = a.shape.size() - 1;
  if (a.shape[last] != 1 && a.strides[last] != old_itemsize)
    throw ValueError("To change to a dtype of a different size, the last axis must be contiguous");
  strided out = a;
  if (new_itemsize < old_itemsize) {
    if (old_itemsize % new_itemsize != 0)
      throw ValueError("When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
    out.shape[last] = a.shape[last] * (old_itemsize / new_itemsize);
  } else {
    const std::int64_t bytes = a.shape[last] * old_itemsize;
    if (bytes % new_itemsize != 0)
      throw ValueError("When changing to a larger dtype, its size must be a divisor of the total size in bytes of "
                       "the last axis of the array.");
    out.shape[last] = bytes / new_itemsize;
  }
  out.strides[last] = new_itemsize;
  return out;
}

}  // namespace cupp::layout
