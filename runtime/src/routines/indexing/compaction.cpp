// Stream compaction and the routines built on it (cupp/indexing.hpp): flatnonzero, nonzero,
// argwhere, compress, extract, a[mask] (mask_select), and the mask writes putmask and place.
#include <cuda_runtime.h>

#include <algorithm>

#include "accel/cub_dispatch.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/errors.hpp"
#include "routines/indexing/indexing_internal.hpp"

namespace cupp {

using namespace indexing_internal;

namespace {

constexpr std::int64_t compact_tile = 8192;  // CUPP_CTILE

// A flat contiguous bool view of `mask` (nonzero = true), and its per-block ranks.
struct compaction {
  ndarray mask;
  ndarray offsets;  // blocks + 1 uint64: exclusive ranks, then the total
  std::int64_t blocks = 0, total = 0;
  int aligned = 0;
};

ndarray bool_flat(const ndarray& m) {
  require_kernel_dtype(m.dtype(), "nonzero");
  if (m.dtype().is_bool()) return flat_c(m);
  return flat_c(astype(m, bool_, casting::unsafe));
}

// Pass 1 and 2 on the device, then the one round trip that learns the total.
compaction count_true(const ndarray& mask, const detail::kernel_module& m, int device) {
  compaction c;
  c.mask = bool_flat(mask);
  const std::int64_t n = c.mask.size();
  if (n == 0) return c;
  c.blocks = (n + compact_tile - 1) / compact_tile;
  c.aligned = addr(c.mask) % 16 == 0 ? 1 : 0;
  c.offsets = empty({c.blocks + 1}, uint64);
  const void* mp = c.mask.data();
  long long nn = n, nb = c.blocks;
  void* op = c.offsets.data();
  {
    void* args[] = {&mp, &nn, &c.aligned, &op};
    detail::launch_1d(m.function(k_count), n, args, device, c.blocks);
  }
  {
    void* args[] = {&op, &nb};
    detail::launch_1d(m.function(k_scan), 1, args, device, 1, 1024);
  }
  detail::device_scope scope(device);
  const auto stream = cuda::detail::current_stream_handle(device);
  std::uint64_t total = 0;
  cuda::detail::check(cudaMemcpyAsync(&total, static_cast<const std::uint64_t*>(c.offsets.data()) + c.blocks, 8,
                                      cudaMemcpyDeviceToHost, stream),
                      "cudaMemcpyAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  c.total = static_cast<std::int64_t>(total);
  return c;
}

// Pass 3: kind 0 coordinates (g: the shape to unravel by, 1-d for flat positions), kind 1 the
// elements of the contiguous `src`.
void write_true(const compaction& c, const detail::kernel_module& m, int device, int kind, void* out,
                const void* src, int nw, geom& g, std::int64_t row_stride, std::int64_t col_stride) {
  if (c.total == 0) return;
  const void* mp = c.mask.data();
  long long nn = c.mask.size(), rs = row_stride, cs = col_stride;
  const void* op = c.offsets.data();
  int aligned = c.aligned;
  void* args[] = {&mp, &nn, &aligned, &op, &kind, &out, &src, &nw, &g, &rs, &cs};
  detail::launch_1d(m.function(k_mask_write), nn, args, device, c.blocks);
}

}  // namespace

namespace indexing_internal {

// flatnonzero (flat: (count,)), nonzero (rows: (ndim, count)), argwhere (columns: (count, ndim)).
ndarray mask_positions(const ndarray& mask, position_layout layout_kind) {
  // CUB (CUPP_ACCELERATORS=cub) for flat positions (a 1-d mask's rows and columns are the same).
  if ((layout_kind == position_layout::flat || mask.ndim() == 1) && detail::accel::enabled()) {
    const ndarray p = detail::accel::flatnonzero(bool_flat(mask));
    if (layout_kind == position_layout::flat) return p;
    return layout_kind == position_layout::rows ? p.reshape({1, p.size()}) : p.reshape({p.size(), 1});
  }
  const int device = mask.device();
  const detail::kernel_module& m = program_for(8, device);
  const compaction c = count_true(mask, m, device);
  geom g;
  std::int64_t nd = 1;
  if (layout_kind == position_layout::flat) {
    g.ndim = 1;
    g.shape[0] = std::max<std::int64_t>(c.mask.size(), 1);
  } else {
    fill_geom(g, mask.shape());
    nd = mask.ndim();
  }
  ndarray out;
  std::int64_t rs = 0, cs = 1;
  if (layout_kind == position_layout::flat) {
    out = empty({c.total}, int64);
  } else if (layout_kind == position_layout::rows) {
    out = empty({nd, c.total}, int64);
    rs = c.total;
  } else {
    out = empty({c.total, nd}, int64);
    rs = 1;
    cs = nd;
  }
  if (out.size() > 0) write_true(c, m, device, 0, out.data(), nullptr, 1, g, rs, cs);
  return out;
}

// a[mask] for a mask of a's shape: the elements where it is true, in C order (a 1-d copy).
ndarray mask_select(const ndarray& a0, const ndarray& mask) {
  const ndarray a = flat_c(a0);
  if (detail::accel::can_select(a)) return detail::accel::mask_select(a, bool_flat(mask));  // CUB
  const int w = word_bytes(a.itemsize(), {addr(a)});
  const int device = a.device();
  const detail::kernel_module& m = program_for(w, device);
  const compaction c = count_true(mask, m, device);
  ndarray out = empty({c.total}, a.dtype());
  if (c.total == 0) return out;
  geom g;
  g.ndim = 1;
  g.shape[0] = 1;
  write_true(c, m, device, 1, out.data(), a.data(), static_cast<int>(a.itemsize()) / w, g, 0, 1);
  return out;
}

}  // namespace indexing_internal

// ---------------------------------------------------------------------------------------------
// masks

ndarray flatnonzero(const ndarray& mask) { return mask_positions(mask, position_layout::flat); }

ndarray compress(const ndarray& condition, const ndarray& a, std::optional<int> axis, const ndarray& out) {
  if (condition.ndim() != 1) throw ValueError("condition must be a 1-d array");
  const ndarray pos = flatnonzero(condition);
  return take_impl(a, pos, {.axis = axis, .out = out, .mode = clip_mode::raise}, "compress");
}

ndarray extract(const ndarray& condition, const ndarray& arr) {
  const ndarray pos = flatnonzero(condition);
  return take_impl(arr, pos, {}, "extract");
}

void putmask(const ndarray& a, const ndarray& mask0, const operand& values) {
  require_kernel_dtype(a.dtype(), "putmask");
  require_writeable(a, "putmask");
  if (mask0.size() != a.size()) throw ValueError("putmask: mask and data must be the same size");
  const ndarray vals = flat_values(values, a.dtype());
  if (a.size() == 0) return;
  if (vals.size() == 0) return;  // NumPy: nothing happens with empty values
  const ndarray mask = flat_c(mask0.dtype().is_bool() ? mask0 : astype(mask0, bool_, casting::unsafe));
  const ndarray dst = a.is_c_contiguous() ? a : a.copy();
  const int w = word_bytes(a.itemsize(), {addr(dst), addr(vals)});
  int nw = static_cast<int>(a.itemsize()) / w;
  const detail::kernel_module& m = program_for(w, a.device());
  void* d = dst.data();
  const void* mp = mask.data();
  const void* v = vals.data();
  long long n = a.size(), nv = vals.size();
  void* args[] = {&d, &mp, &v, &n, &nv, &nw};
  detail::launch_1d(m.function(k_putmask), n, args, a.device());
  if (!a.is_c_contiguous()) a.assign(dst);
}

void place(const ndarray& arr, const ndarray& mask, const operand& vals0) {
  require_kernel_dtype(arr.dtype(), "place");
  require_writeable(arr, "place");
  if (mask.size() != arr.size()) throw ValueError("place: mask and data must be the same size");
  const ndarray vals = flat_values(vals0, arr.dtype());
  const ndarray pos = flatnonzero(mask);
  if (pos.size() == 0) return;
  if (vals.size() == 0) throw ValueError("Cannot insert from an empty array!");
  const ndarray dst = arr.is_c_contiguous() ? arr : arr.copy();
  geom g;
  fill_geom(g, pos.shape());
  g.s1[0] = 8;
  scatter(flat_c(dst), pos, vals, g, pos.size(), arr.size(), static_cast<std::int64_t>(arr.itemsize()),
          clip_mode::wrap, vals.size(), true);
  if (!arr.is_c_contiguous()) arr.assign(dst);
}

// ---------------------------------------------------------------------------------------------
// nonzero, argwhere

std::vector<ndarray> nonzero(const ndarray& a) {
  if (a.is_null()) throw ValueError("nonzero: the ndarray is a null handle (default-constructed)");
  if (a.ndim() == 0)
    throw ValueError(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead. If the context of "
        "this error is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
  const ndarray rows = mask_positions(a, position_layout::rows);
  std::vector<ndarray> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(rows(d));
  return out;
}

ndarray argwhere(const ndarray& a) {
  if (a.is_null()) throw ValueError("argwhere: the ndarray is a null handle (default-constructed)");
  if (a.ndim() == 0) {
    require_kernel_dtype(a.dtype(), "argwhere");
    const bool truth = astype(a, bool_, casting::unsafe).item<bool>();
    return empty({truth ? 1 : 0, 0}, int64);
  }
  return mask_positions(a, position_layout::columns);
}

}  // namespace cupp
