// Reductions with NumPy's where= and initial= (cupp::reduce_options), and ufunc.reduceat.
// Masked reductions: the same two layout classes as cupp/dev/reduction.cuh (rows: a block per
// output; columns: a thread per output), reading a boolean mask beside each element (broadcast by
// stride-0 dimensions; MASK = false reads none). A masked-out element is skipped, not replaced,
// as NumPy's loop skips it. Every output starts from `start` (initial=, else the op's identity)
// in the first chunk, so NumPy's order op(start, x0, x1, ...) holds and start counts once; a
// later chunk that selects nothing writes `fill` (the identity, or initial= for an idempotent op
// such as maximum; the host uses one chunk when there is neither). The partials are combined by
// reduction.cuh's kernels. reduceat: a thread per output element walks its segment in order.
// Embedded and handed to NVRTC.
#pragma once

#include <cupp/dev/reduction.cuh>

namespace cupp {
namespace dev {

// flags of the masked kernels: start and fill hold values.
constexpr int reduce_has_start = 1;
constexpr int reduce_has_fill = 2;

// Rows class: a block per output element (blockIdx.y selects the chunk of reduced elements).
// FINAL writes Out to out[o]; otherwise the partial to partial[o * gridDim.y + blockIdx.y].
template <class F, class Acc, class In, class Out, int NK, int NR, bool FINAL, class Map, bool MASK>
__global__ void cupp_reduce_masked_rows(const char* in, void* out, long long out_size, long long red_size,
                                        long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced,
                                        const void* aux, const char* mask, reduce_dims<NK> mask_kept,
                                        reduce_dims<NR> mask_reduced, Acc start, Acc fill, int flags) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
    const char* base = in + offset_of(o, kept);
    const char* mbase = MASK ? mask + offset_of(o, mask_kept) : nullptr;
    Acc acc{};
    bool have = false;
    if ((flags & reduce_has_start) && blockIdx.y == 0 && threadIdx.x == 0) {
      acc = start;
      have = true;
    }
    for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x) {
      if (MASK && *reinterpret_cast<const unsigned char*>(mbase + offset_of(r, mask_reduced)) == 0) continue;
      accumulate<F>(acc, have, Map::template apply<Acc>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)), aux, o));
    }
    have = block_combine<F, Acc>(acc, have);
    if (threadIdx.x == 0) {
      if (!have) acc = (flags & reduce_has_fill) ? fill : Acc{};
      if (FINAL) static_cast<Out*>(out)[o] = cast<Out>(acc);
      else static_cast<Acc*>(out)[o * gridDim.y + blockIdx.y] = acc;
    }
  }
}

// Columns class: a thread per output element walks its chunk in order. FINAL writes Out to
// out[o]; otherwise chunk-major partials, partial[blockIdx.y * out_size + o].
template <class F, class Acc, class In, class Out, int NK, int NR, bool FINAL, class Map, bool MASK>
__global__ void cupp_reduce_masked_columns(const char* in, void* out, long long out_size, long long red_size,
                                           long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced,
                                           const void* aux, const char* mask, reduce_dims<NK> mask_kept,
                                           reduce_dims<NR> mask_reduced, Acc start, Acc fill, int flags) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= out_size) return;
  const char* base = in + offset_of(o, kept);
  const char* mbase = MASK ? mask + offset_of(o, mask_kept) : nullptr;
  Acc acc{};
  bool have = false;
  if ((flags & reduce_has_start) && blockIdx.y == 0) {
    acc = start;
    have = true;
  }
  for (long long r = r0; r < r1; ++r) {
    if (MASK && *reinterpret_cast<const unsigned char*>(mbase + offset_of(r, mask_reduced)) == 0) continue;
    accumulate<F>(acc, have, Map::template apply<Acc>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)), aux, o));
  }
  if (!have) acc = (flags & reduce_has_fill) ? fill : Acc{};
  if (FINAL) static_cast<Out*>(out)[o] = cast<Out>(acc);
  else static_cast<Acc*>(out)[blockIdx.y * out_size + o] = acc;
}

// ufunc.reduceat along one axis: output o (C order over the input's shape with the axis replaced
// by n_idx entries) is (outer, i, inner); with s = indices[i] and e = indices[i + 1] (the axis
// length after the last), it is op over a[s:e] in order when s < e, else a[s]. `kept` holds the
// other axes (C order, the input's strides), walked by outer * inner_size + inner. An index
// outside [0, axis_len) records its position in *bad (the smallest one wins: NumPy reports the
// first), and its outputs are left unwritten; the host reads *bad once and raises IndexError.
template <class F, class Acc, class In, class Out, int NK>
__global__ void cupp_reduceat(const char* in, void* out, long long out_size, const long long* indices, long long n_idx,
                              long long axis_len, long long axis_stride, long long inner_size, reduce_dims<NK> kept,
                              unsigned long long* bad) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (long long i = t; i < n_idx; i += step) {
    const long long s = indices[i];
    if (s < 0 || s >= axis_len) atomicMin(bad, static_cast<unsigned long long>(i));
  }
  for (long long o = t; o < out_size; o += step) {
    const long long rest = o / inner_size, j = o - rest * inner_size;
    const long long outer = rest / n_idx, i = rest - outer * n_idx;
    const long long s = indices[i];
    if (s < 0 || s >= axis_len) continue;
    long long e = i + 1 < n_idx ? indices[i + 1] : axis_len;
    if (e > axis_len) e = axis_len;  // a bad next index is reported by its own position
    const char* p = in + offset_of(outer * inner_size + j, kept) + s * axis_stride;
    Acc acc = cast<Acc>(*reinterpret_cast<const In*>(p));
    for (long long r = s + 1; r < e; ++r) {
      p += axis_stride;
      F::apply(acc, cast<Acc>(*reinterpret_cast<const In*>(p)), acc);
    }
    static_cast<Out*>(out)[o] = cast<Out>(acc);
  }
}

}  // namespace dev
}  // namespace cupp
