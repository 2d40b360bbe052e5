// Advanced indexing (cupp/indexing.hpp): getitem and setitem with index arrays, masks and
// basic items mixed, planned by array/advanced_index.hpp: the index arrays become byte offsets
// (one bounds-checked pass per array), which one gather reads or one scatter writes (last write
// wins); a(mask) is one stream compaction. The write target is shared with ufunc.at.
#include <algorithm>

#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/indexing/indexing_internal.hpp"

namespace cupp {

using namespace indexing_internal;

namespace {

prepared_items prepare_items(std::span<const array_index_item> items) {
  prepared_items p;
  for (const array_index_item& item : items) {
    index_term t;
    ndarray arr;
    if (const auto* i = std::get_if<std::int64_t>(&item)) {
      t.kind = index_term::integer;
      t.value = *i;
    } else if (const auto* s = std::get_if<slice>(&item)) {
      t.kind = index_term::range;
      t.range_value = *s;
    } else if (std::holds_alternative<newaxis_t>(item)) {
      t.kind = index_term::new_axis;
    } else if (std::holds_alternative<ellipsis_t>(item)) {
      t.kind = index_term::dots;
    } else if (const bool* b = std::get_if<bool>(&item)) {
      t.kind = index_term::bool_scalar;
      t.value = *b ? 1 : 0;
    } else {
      const ndarray& x = std::get<ndarray>(item);
      if (x.is_null()) throw ValueError("index: an index array is a null handle (default-constructed)");
      if (x.dtype().is_bool()) {
        if (x.ndim() == 0) {
          t.kind = index_term::bool_scalar;
          t.value = x.item<bool>() ? 1 : 0;
        } else {
          t.kind = index_term::bool_array;
          t.shape.assign(x.shape().begin(), x.shape().end());
          arr = x;
        }
      } else if (x.dtype().is_integer()) {
        if (x.ndim() == 0) {
          t.kind = index_term::integer;
          t.value = x.item<std::int64_t>();
        } else {
          t.kind = index_term::int_array;
          t.shape.assign(x.shape().begin(), x.shape().end());
          arr = x.dtype() == int64 ? x : astype(x, int64, casting::unsafe);
        }
      } else {
        throw IndexError("arrays used as indices must be of integer (or boolean) type");
      }
    }
    p.terms.push_back(std::move(t));
    p.arrays.push_back(std::move(arr));
  }
  return p;
}

// Each mask's nonzero rows (one compaction per mask) and its true count.
void compute_mask_rows(prepared_items& p) {
  for (std::size_t i = 0; i < p.terms.size(); ++i) {
    if (p.terms[i].kind != index_term::bool_array) continue;
    p.arrays[i] = mask_positions(p.arrays[i], position_layout::rows);
    p.terms[i].count = p.arrays[i].shape(1);
  }
}

detail::index_plan plan_items(const ndarray& a, prepared_items& p) {
  detail::plan_index(a.shape(), p.terms, /*check_only=*/true);  // errors before any device work
  compute_mask_rows(p);
  return detail::plan_index(a.shape(), p.terms);
}

// a(mask) with a mask of a's whole shape: validated as the planner would (its shape messages).
const ndarray* whole_mask(const ndarray& a, std::span<const array_index_item> items) {
  if (items.size() != 1 || a.ndim() == 0) return nullptr;
  const ndarray* m = std::get_if<ndarray>(&items[0]);
  if (m == nullptr || m->is_null() || !m->dtype().is_bool() || m->ndim() != a.ndim()) return nullptr;
  index_term t;
  t.kind = index_term::bool_array;
  t.shape.assign(m->shape().begin(), m->shape().end());
  detail::plan_index(a.shape(), std::span<const index_term>(&t, 1));
  return m;
}

[[noreturn]] void throw_first_bad(const detail::index_plan& plan, const prepared_items& p, const ndarray& v) {
  // NumPy checks the index arrays one after another: the first bad value of the first bad array.
  for (const detail::advanced_axis& ax : plan.axes) {
    if (p.terms[ax.term].kind != index_term::int_array) continue;
    const std::int64_t n = v.shape(ax.view_axis);
    for (const std::int64_t x : p.arrays[ax.term].to_vector<std::int64_t>())
      if (x < -n || x >= n) throw_out_of_bounds(x, ax.array_axis, n);
  }
  throw IndexError("index out of bounds");
}

// The byte offsets (int64, C-contiguous over plan.broadcast) the advanced indices select in the
// basic view v, plus `base`. Bounds are checked first (IndexError; nothing is written). `bits`
// gets every stride and constant the offsets are made of (for the word size).
ndarray advanced_offsets(const detail::index_plan& plan, const prepared_items& p, const ndarray& v,
                         std::int64_t base, std::int64_t& bits) {
  const shape_t& b_shape = plan.broadcast;
  const std::int64_t total = layout::checked_size(b_shape);
  std::int64_t init = base;
  bits = base;
  std::vector<const detail::advanced_axis*> arrays;
  for (const detail::advanced_axis& ax : plan.axes) {
    const index_term& t = p.terms[ax.term];
    if (t.kind == index_term::bool_scalar) continue;
    bits |= v.stride(ax.view_axis);
    if (t.kind == index_term::integer) {
      const std::int64_t n = v.shape(ax.view_axis);
      init += (t.value < 0 ? t.value + n : t.value) * v.stride(ax.view_axis);
    } else {
      arrays.push_back(&ax);
    }
  }
  bits |= init;
  ndarray off = empty(b_shape, int64);
  if (total == 0) return off;
  if (arrays.empty()) {
    off.fill(weak_scalar(init));
    return off;
  }
  const int device = v.device();
  const detail::kernel_module& m = program_for(8, device);
  const bool checked = std::any_of(arrays.begin(), arrays.end(), [&](const detail::advanced_axis* ax) {
    return p.terms[ax->term].kind == index_term::int_array;
  });
  raising_call none, end = checked ? begin_raising(m, device) : raising_call();  // ended by the last launch
  for (std::size_t j = 0; j < arrays.size(); ++j) {
    const detail::advanced_axis& ax = *arrays[j];
    const index_term& t = p.terms[ax.term];
    const ndarray idx = t.kind == index_term::int_array ? p.arrays[ax.term] : p.arrays[ax.term](ax.dim);
    const ndarray bi = broadcast_to(idx, b_shape);
    geom g;
    fill_geom(g, b_shape);
    for (int d = 0; d < g.ndim; ++d) g.s1[d] = bi.stride(d);
    int md = t.kind == index_term::int_array ? 0 : 4;
    raising_call& e = j + 1 == arrays.size() ? end : none;
    long long tot = total, n = v.shape(ax.view_axis), st = v.stride(ax.view_axis), in = init;
    int acc = j > 0 ? 1 : 0;
    void* op = off.data();
    const void* ip = bi.data();
    void* args[] = {&op, &ip, &g, &tot, &n, &st, &md, &in, &acc, e.counter_arg(), e.word_arg()};
    detail::launch_1d(m.function(k_offsets), total, args, device);
  }
  if (checked && read_state(m, device, end)) throw_first_bad(plan, p, v);
  return off;
}

// Writes vals (C-contiguous over g's shape, or nv > 0 elements repeated) at the positions
// o0 + off into the C-contiguous dst; duplicates: the last position in C order wins.
void scatter_offsets(const ndarray& dst, const ndarray& off, const ndarray& vals, geom& g, std::int64_t nv,
                     std::int64_t bits) {
  std::int64_t total = 1;
  for (int d = 0; d < g.ndim; ++d) total *= g.shape[d];
  if (total == 0 || dst.size() == 0) return;
  for (int d = 0; d < g.ndim; ++d) bits |= g.s0[d] | g.s2[d];
  const int w = word_bytes(dst.itemsize(), {addr(dst), addr(vals), bits});
  int nw = static_cast<int>(dst.itemsize()) / w;
  const int device = dst.device();
  const detail::kernel_module& m = program_for(w, device);
  const void* i = off.data();
  long long t = total, n = 1, as = 1, nvv = nv;
  int md = 4;
  const ndarray win = zeros({dst.size()}, uint64);
  void* wv = win.data();
  {
    void* args[] = {&wv, &i, &g, &t, &n, &as, &md, &nw};
    detail::launch_1d(m.function(k_win), total, args, device);
  }
  const unsigned long long* wp = static_cast<const unsigned long long*>(win.data());
  void* d = dst.data();
  const void* v = vals.data();
  unsigned* no_signal = nullptr;
  void* args[] = {&d, &v, &wp, &i, &g, &t, &n, &as, &md, &nw, &nvv, &no_signal, &no_signal};
  detail::launch_1d(m.function(k_write), total, args, device);
}

[[noreturn]] void throw_cast(const dtype& from, const dtype& to, const char* rule) {
  throw TypeError("Cannot cast array data from dtype('" + from.name() + "') to dtype('" + to.name() +
                  "') according to the rule '" + rule + "'");
}

void setitem_impl(const ndarray& a, std::span<const array_index_item> items, const ndarray* values,
                  const weak_scalar* value) {
  if (a.is_null()) throw ValueError("assignment: the ndarray is a null handle (default-constructed)");
  if (!a.writeable()) throw ValueError("assignment destination is read-only");
  if (values && !can_cast(values->dtype(), a.dtype(), casting::same_kind))
    throw_cast(values->dtype(), a.dtype(), "same_kind");
  // a(mask) = scalar over a contiguous a: one putmask pass.
  if (const ndarray* m = whole_mask(a, items);
      m && a.is_c_contiguous() && (value || (values->size() == 1 && values->ndim() <= 1))) {
    const ndarray one = value ? scalar(*value, a.dtype()) : values->copy();  // it may be one of a's elements
    putmask(a, *m, one);
    return;
  }
  write_target t = prepare_write(a, items, "assignment");
  if (!t.plan.advanced) {
    const ndarray v = a.index(t.plan.basic);
    if (value) v.fill(*value);
    else v.assign(*values);
    return;
  }
  const shape_t& r = t.plan.result_shape;
  if (layout::checked_size(r) == 0) return;
  ndarray vals;
  std::int64_t nv = 0;
  if (value) {
    vals = scalar(*value, a.dtype()).reshape({1});
    nv = 1;
  } else {
    const ndarray src = strip_leading_ones(*values, r.size());
    if (src.size() == 1 && src.dtype() == a.dtype() && static_cast<std::size_t>(src.ndim()) <= r.size()) {
      vals = flat_c(src).copy();  // it may be one of the elements written
      nv = 1;
    } else {
      vals = empty(r, a.dtype());
      copyto(vals, src, casting::same_kind);
    }
  }
  geom g;
  map_result_dims(t.plan, t.view, t.off, g);
  if (nv == 0)
    for (int d = 0; d < g.ndim; ++d) g.s2[d] = vals.stride(d);
  scatter_offsets(t.work, t.off, vals, g, nv, t.bits);
  if (!a.is_c_contiguous()) a.assign(t.work);
}

}  // namespace

namespace indexing_internal {

// The result's dims: s0 = the basic view's strides on the dims it keeps, s1 = the offsets'
// strides on the broadcast dims.
void map_result_dims(const detail::index_plan& plan, const ndarray& v, const ndarray& off, geom& g) {
  std::vector<int> rest;
  for (int d = 0; d < v.ndim(); ++d) {
    const bool indexed = std::any_of(plan.axes.begin(), plan.axes.end(),
                                     [&](const detail::advanced_axis& a) { return a.view_axis == d; });
    if (!indexed) rest.push_back(d);
  }
  fill_geom(g, plan.result_shape);
  const int nb = static_cast<int>(plan.broadcast.size()), at = plan.insert_at;
  for (int d = 0; d < g.ndim; ++d) {
    if (d >= at && d < at + nb) {
      g.s1[d] = off.stride(d - at);
    } else {
      g.s0[d] = v.stride(rest[d < at ? d : d - nb]);
    }
  }
}

// values broadcast to `shape` as NumPy's setitem does (extra leading length-1 dims dropped).
ndarray strip_leading_ones(ndarray v, std::size_t ndim) {
  while (static_cast<std::size_t>(v.ndim()) > ndim && v.shape(0) == 1) v = v(0);
  return v;
}

write_target prepare_write(const ndarray& a, std::span<const array_index_item> items, const char* routine) {
  write_target t;
  t.items = prepare_items(items);
  t.plan = plan_items(a, t.items);
  if (!t.plan.advanced) return t;
  require_kernel_dtype(a.dtype(), routine);
  t.work = a.is_c_contiguous() ? a : a.copy();
  t.view = t.work.index(t.plan.basic);
  t.off = advanced_offsets(t.plan, t.items, t.view, t.view.offset() - t.work.offset(), t.bits);
  return t;
}

}  // namespace indexing_internal

ndarray getitem(const ndarray& a, std::span<const array_index_item> items) {
  if (a.is_null()) throw ValueError("index: the ndarray is a null handle (default-constructed)");
  if (const ndarray* m = whole_mask(a, items)) {
    require_kernel_dtype(a.dtype(), "index");
    return mask_select(a, *m);
  }
  prepared_items p = prepare_items(items);
  const detail::index_plan plan = plan_items(a, p);
  if (!plan.advanced) return a.index(plan.basic);
  require_kernel_dtype(a.dtype(), "index");
  const ndarray v = a.index(plan.basic);
  // One index array: take's gather kernel.
  if (plan.axes.size() == 1 && p.terms[plan.axes[0].term].kind == index_term::int_array) {
    const detail::advanced_axis& ax = plan.axes[0];
    return take_impl(v, p.arrays[ax.term], {.axis = ax.view_axis}, "index", ax.array_axis);
  }
  ndarray out = empty(plan.result_shape, a.dtype());
  std::int64_t bits = 0;
  const ndarray off = advanced_offsets(plan, p, v, 0, bits);
  if (out.size() == 0) return out;
  geom g;
  map_result_dims(plan, v, off, g);
  gather(out, v, off, g, 1, 1, 4, bits);
  return out;
}

void setitem(const ndarray& a, std::span<const array_index_item> items, const ndarray& values) {
  if (values.is_null()) throw ValueError("assignment: the value is a null handle (default-constructed)");
  setitem_impl(a, items, &values, nullptr);
}

void setitem(const ndarray& a, std::span<const array_index_item> items, const weak_scalar& value) {
  setitem_impl(a, items, nullptr, &value);
}

void setitem(const ndarray& a, std::span<const array_index_item> items, const host_array& values) {
  const ndarray v = asarray(values);
  setitem_impl(a, items, &v, nullptr);
}

}  // namespace cupp
