// Reduction kernels (ufunc.reduce, sum, prod, max, min, all, any, mean): an op's binary loop
// `F` (Acc, Acc -> Acc) combines elements mapped to the accumulator type. The host collapses the
// array into kept dimensions (one per output element) and reduced dimensions; these kernels walk
// them with byte strides. Deterministic: a fixed combining order and no atomics. A large
// reduction is split into chunks along the reduced elements (blockIdx.y), each writing a partial
// accumulator; a second pass (cupp_reduce_rows over the partials) combines them. A map (map_cast
// and the others below) says what each element contributes (count_nonzero, the nan-functions,
// var's squared deviations). argmax/argmin have their own (value, index) pair kernels at the end.
// Embedded and handed to NVRTC.
#pragma once

#include <cupp/dev/math.cuh>

namespace cupp {
namespace dev {

// ---- maps: what an element contributes to the accumulator. `aux` is a per-launch pointer (the
// squared deviations read the mean of output `o` from it).
struct map_cast {  // the element itself
  template <class Acc, class In>
  __device__ static Acc apply(In x, const void*, long long) { return cast<Acc>(x); }
};
struct map_nonzero {  // count_nonzero: 1 for a nonzero element (NaN included)
  template <class Acc, class In>
  __device__ static Acc apply(In x, const void*, long long) { return cast<Acc>(cast<bool>(x)); }
};
template <int V>
struct map_nan_to {  // nansum (V = 0), nanprod (V = 1): NaN becomes the identity
  template <class Acc, class In>
  __device__ static Acc apply(In x, const void*, long long) { return isnan(x) ? cast<Acc>(V) : cast<Acc>(x); }
};
struct map_not_nan {  // the nan-functions' counts
  template <class Acc, class In>
  __device__ static Acc apply(In x, const void*, long long) { return cast<Acc>(!isnan(x)); }
};
// var/std: |x - mean[o]|^2 with the mean (type M) read per output; SKIP_NAN: NaN contributes 0
// (nanvar). Complex deviations give re^2 + im^2, as NumPy's x * conj(x) does.
template <class M, bool SKIP_NAN>
struct map_squared_deviation {
  template <class Acc, class In>
  __device__ static Acc apply(In x, const void* aux, long long o) {
    if (SKIP_NAN && isnan(x)) return cast<Acc>(0);
    const M d = cast<M>(x) - static_cast<const M*>(aux)[o];
    if constexpr (is_complex<M>::value) return cast<Acc>(mul_rn(d.re, d.re) + mul_rn(d.im, d.im));
    else return cast<Acc>(mul_rn(d, d));
  }
};

// ---- post-maps: what is written for a final accumulator (ReductionKernel's post_map_expr;
// the built-in reductions cast it).
struct post_cast {
  template <class Out, class Acc>
  __device__ static Out apply(Acc a) { return cast<Out>(a); }
};

// Up to N dimensions: extents and byte strides in C order (N >= 1; unused ones have extent 1).
template <int N>
struct reduce_dims {
  long long extent[N];
  long long stride[N];
};

// The byte offset of the i-th element (C order) of `d`.
template <int N>
__device__ inline long long offset_of(long long i, const reduce_dims<N>& d) {
  if (N == 1) return i * d.stride[0];
  long long off = 0;
#pragma unroll
  for (int k = N - 1; k >= 0; --k) {
    const long long q = i / d.extent[k];
    off += (i - q * d.extent[k]) * d.stride[k];
    i = q;
  }
  return off;
}

// Combines the per-thread accumulators of a block in a fixed tree that keeps index order: at
// each level thread t takes in thread t + s (t a multiple of 2s), so the left operand always
// holds the earlier elements. With at most one element per thread that is a left-to-right tree
// (the first NaN of a complex max stays the one NumPy returns). Thread 0 gets the result. `have`
// marks threads that saw at least one element.
template <class F, class Acc>
__device__ inline bool block_combine(Acc& acc, bool have) {
  __shared__ alignas(16) unsigned char storage[256 * sizeof(Acc)];
  __shared__ bool valid[256];
  Acc* values = reinterpret_cast<Acc*>(storage);
  values[threadIdx.x] = acc;
  valid[threadIdx.x] = have;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned t = threadIdx.x;
    if (t % (2 * s) == 0 && t + s < blockDim.x && valid[t + s]) {
      if (valid[t]) F::apply(values[t], values[t + s], values[t]);
      else values[t] = values[t + s];
      valid[t] = true;
    }
    __syncthreads();
  }
  acc = values[0];
  have = valid[0];
  __syncthreads();  // the next output's round reuses the storage
  return have;
}

// Adds element value `v` to a thread's accumulator (the first element starts it).
template <class F, class Acc>
__device__ inline void accumulate(Acc& acc, bool& have, const Acc& v) {
  if (have) {
    F::apply(acc, v, acc);
  } else {
    acc = v;
    have = true;
  }
}

// Sixteen bytes of elements, loaded at once.
template <class In>
struct alignas(16) element_pack {
  In v[16 / sizeof(In)];
};

// A block's threads accumulate elements [r0, r1) of one contiguous row with 16-byte loads
// (four in flight per thread): first the elements before the first 16-byte boundary, then whole
// packs, then the rest; each thread takes its elements in index order.
template <class F, class Acc, class In, class Map>
__device__ inline void accumulate_contiguous(Acc& acc, bool& have, const In* row, long long r0, long long r1,
                                             const void* aux, long long o) {
  constexpr int V = 16 / sizeof(In);
  const long long step = blockDim.x;
  const unsigned misalign = static_cast<unsigned>(reinterpret_cast<unsigned long long>(row + r0) & 15u);
  long long head = misalign == 0 ? r0 : r0 + static_cast<long long>((16u - misalign) / sizeof(In));
  if (head > r1) head = r1;
  if (r0 + threadIdx.x < head) accumulate<F>(acc, have, Map::template apply<Acc>(row[r0 + threadIdx.x], aux, o));
  const long long packs = (r1 - head) / V;
  const element_pack<In>* p = reinterpret_cast<const element_pack<In>*>(row + head);
  long long q = threadIdx.x;
  // Four accumulators (one per pack in flight) keep the dependency chains short; they are
  // folded in a fixed order, so results stay identical run to run.
  Acc lane[4];
  bool lane_has[4] = {false, false, false, false};
  if (q + 3 * step < packs) {
    // The first four packs start the lanes, so the loop below needs no "have" flags.
    element_pack<In> v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = p[q + u * step];
#pragma unroll
    for (int u = 0; u < 4; ++u) {
      lane[u] = Map::template apply<Acc>(v[u].v[0], aux, o);
#pragma unroll
      for (int e = 1; e < V; ++e) F::apply(lane[u], Map::template apply<Acc>(v[u].v[e], aux, o), lane[u]);
      lane_has[u] = true;
    }
    q += 4 * step;
  }
  for (; q + 3 * step < packs; q += 4 * step) {
    element_pack<In> v[4];
#pragma unroll
    for (int u = 0; u < 4; ++u) v[u] = p[q + u * step];
#pragma unroll
    for (int u = 0; u < 4; ++u)
#pragma unroll
      for (int e = 0; e < V; ++e) F::apply(lane[u], Map::template apply<Acc>(v[u].v[e], aux, o), lane[u]);
  }
#pragma unroll
  for (int u = 0; u < 3; ++u) {
    if (q + u * step >= packs) break;
    const element_pack<In> v = p[q + u * step];
#pragma unroll
    for (int e = 0; e < V; ++e) accumulate<F>(lane[u], lane_has[u], Map::template apply<Acc>(v.v[e], aux, o));
  }
#pragma unroll
  for (int u = 0; u < 4; ++u)
    if (lane_has[u]) accumulate<F>(acc, have, lane[u]);
  const long long tail = head + packs * V + threadIdx.x;
  if (tail < r1) accumulate<F>(acc, have, Map::template apply<Acc>(row[tail], aux, o));
}

// Rows class: a block per output element; its threads stride over the element's chunk of
// reduced elements (blockIdx.y selects the chunk). FINAL writes Out to `out[o]`; otherwise the
// partial accumulator goes to `partial[o * gridDim.y + blockIdx.y]`. blockDim.x is 256.
template <class F, class Acc, class In, class Out, int NK, int NR, bool FINAL, class Map = map_cast,
          class Post = post_cast>
__global__ void cupp_reduce_rows(const char* in, void* out, long long out_size, long long red_size,
                                 long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced, const void* aux) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
    const char* base = in + offset_of(o, kept);
    Acc acc{};
    bool have = false;
    if (NR == 1 && sizeof(In) < 16 && reduced.stride[0] == static_cast<long long>(sizeof(In))) {
      accumulate_contiguous<F, Acc, In, Map>(acc, have, reinterpret_cast<const In*>(base), r0, r1, aux, o);
      have = block_combine<F, Acc>(acc, have);
      if (threadIdx.x == 0) {
        if (FINAL) static_cast<Out*>(out)[o] = Post::template apply<Out>(acc);
        else static_cast<Acc*>(out)[o * gridDim.y + blockIdx.y] = acc;
      }
      continue;
    }
    long long r = r0 + threadIdx.x;
    const long long step = blockDim.x;
    // Eight independent loads in flight per thread, combined in order.
    for (; r + 7 * step < r1; r += 8 * step) {
      Acc v[8];
#pragma unroll
      for (int u = 0; u < 8; ++u) v[u] = Map::template apply<Acc>(*reinterpret_cast<const In*>(base + offset_of(r + u * step, reduced)), aux, o);
      if (!have) {
        acc = v[0];
        have = true;
      } else {
        F::apply(acc, v[0], acc);
      }
#pragma unroll
      for (int u = 1; u < 8; ++u) F::apply(acc, v[u], acc);
    }
    for (; r < r1; r += step) {
      const Acc v = Map::template apply<Acc>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)), aux, o);
      if (have) F::apply(acc, v, acc);
      else acc = v;
      have = true;
    }
    have = block_combine<F, Acc>(acc, have);
    if (threadIdx.x == 0) {
      if (FINAL) static_cast<Out*>(out)[o] = Post::template apply<Out>(acc);
      else static_cast<Acc*>(out)[o * gridDim.y + blockIdx.y] = acc;
    }
  }
}

// Columns class: a thread per output element, for layouts whose neighbouring outputs are
// neighbours in memory (a reduction over leading axes): each thread walks its chunk of reduced
// elements in order, and a warp's loads are coalesced. FINAL writes Out to `out[o]`; otherwise
// partials are chunk-major, `partial[blockIdx.y * out_size + o]`, so that the combining pass
// (this kernel again, over the chunks) reads them coalesced too.
// PACKED (the host checks: one kept dimension of unit stride, 16-byte aligned rows, out_size a
// multiple of the pack): each thread reduces the 16 / sizeof(In) neighbouring outputs of one
// 16-byte load, four loads in flight.
template <class F, class Acc, class In, class Out, int NK, int NR, bool FINAL, bool HAS_IDENTITY, long long IDENTITY,
          bool PACKED, class Map = map_cast, class Post = post_cast>
__global__ void cupp_reduce_columns(const char* in, void* out, long long out_size, long long red_size,
                                    long long chunk, reduce_dims<NK> kept, reduce_dims<NR> reduced, const void* aux) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  if constexpr (PACKED && sizeof(In) < 16) {
    constexpr int V = 16 / sizeof(In);
    const long long o0 = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) * V;
    if (o0 >= out_size) return;
    const char* base = in + o0 * static_cast<long long>(sizeof(In));
    Acc acc[V];
    {
      const element_pack<In> v = *reinterpret_cast<const element_pack<In>*>(base + offset_of(r0, reduced));
#pragma unroll
      for (int e = 0; e < V; ++e) {
        acc[e] = Map::template apply<Acc>(v.v[e], aux, o0 + e);
        if (HAS_IDENTITY && r0 == 0) F::apply(cast<Acc>(IDENTITY), acc[e], acc[e]);
      }
    }
    long long r = r0 + 1;
    for (; r + 3 < r1; r += 4) {
      element_pack<In> v[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) v[u] = *reinterpret_cast<const element_pack<In>*>(base + offset_of(r + u, reduced));
#pragma unroll
      for (int u = 0; u < 4; ++u)
#pragma unroll
        for (int e = 0; e < V; ++e) F::apply(acc[e], Map::template apply<Acc>(v[u].v[e], aux, o0 + e), acc[e]);
    }
    for (; r < r1; ++r) {
      const element_pack<In> v = *reinterpret_cast<const element_pack<In>*>(base + offset_of(r, reduced));
#pragma unroll
      for (int e = 0; e < V; ++e) F::apply(acc[e], Map::template apply<Acc>(v.v[e], aux, o0 + e), acc[e]);
    }
#pragma unroll
    for (int e = 0; e < V; ++e) {
      if (FINAL) static_cast<Out*>(out)[o0 + e] = Post::template apply<Out>(acc[e]);
      else static_cast<Acc*>(out)[blockIdx.y * out_size + o0 + e] = acc[e];  // chunk-major partials
    }
    return;
  }
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= out_size) return;
  const char* base = in + offset_of(o, kept);
  Acc acc = Map::template apply<Acc>(*reinterpret_cast<const In*>(base + offset_of(r0, reduced)), aux, o);
  // NumPy starts a reduction of an op with an identity from the identity: (1 + 0j) * (inf + 2j)
  // is inf + nan j, not inf + 2j. Short reductions (this class) follow it exactly.
  if (HAS_IDENTITY && r0 == 0) F::apply(cast<Acc>(IDENTITY), acc, acc);
#pragma unroll 8
  for (long long r = r0 + 1; r < r1; ++r)
    F::apply(acc, Map::template apply<Acc>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)), aux, o), acc);
  if (FINAL) static_cast<Out*>(out)[o] = Post::template apply<Out>(acc);
  else static_cast<Acc*>(out)[blockIdx.y * out_size + o] = acc;  // chunk-major partials
}

// A reduction over no elements with an identity (ReductionKernel): every output is the
// post-map of the identity (Id::template value<Acc>()).
template <class Id, class Post, class Acc, class Out>
__global__ void cupp_reduce_identity(void* out, long long out_size) {
  const long long step = static_cast<long long>(gridDim.x) * blockDim.x;
  for (long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; o < out_size; o += step)
    static_cast<Out*>(out)[o] = Post::template apply<Out>(Id::template value<Acc>());
}

// ---- argmax, argmin, nanargmax, nanargmin: a (value, index) pair reduction. The combine is
// order-free (NaN first unless skipped, then the extreme value, then the lower index), so any
// tree gives the first occurrence NumPy returns, and the result is the same run to run. Complex
// values are ordered by real part, then imaginary part; a NaN in either part makes a NaN.
// SKIP_NAN (the nan-functions) reads a NaN as -inf (argmax) or +inf (argmin), as NumPy's
// _replace_nan does, and remembers whether any element was a number: an all-NaN slice writes
// index -1, which the host turns into NumPy's ValueError.
template <class T>
struct arg_acc {
  T v;
  long long i;  // -1: no element yet
  bool number;  // an element that was not NaN was seen
};

template <bool MAX, class T>
__device__ inline bool arg_beyond(T a, T b) {  // a strictly beyond b (neither NaN)
  if constexpr (is_complex<T>::value) {
    return MAX ? (a.re > b.re || (a.re == b.re && a.im > b.im)) : (a.re < b.re || (a.re == b.re && a.im < b.im));
  } else if constexpr (is_half<T>::value) {
    return MAX ? to_float(a) > to_float(b) : to_float(a) < to_float(b);
  } else {
    return MAX ? a > b : a < b;
  }
}

template <bool MAX, class T>
__device__ inline void arg_combine(arg_acc<T>& a, const arg_acc<T>& b) {
  if (b.i < 0) return;
  a.number = a.number || b.number;
  if (a.i < 0) {
    a.v = b.v;
    a.i = b.i;
    return;
  }
  const bool an = isnan(a.v), bn = isnan(b.v);
  bool take;
  if (an || bn) take = an && bn ? b.i < a.i : bn;
  else if (arg_beyond<MAX>(b.v, a.v)) take = true;
  else if (arg_beyond<MAX>(a.v, b.v)) take = false;
  else take = b.i < a.i;
  if (take) {
    a.v = b.v;
    a.i = b.i;
  }
}

template <bool MAX, bool SKIP_NAN, class T>
__device__ inline arg_acc<T> arg_element(T x, long long i) {
  arg_acc<T> e;
  e.v = x;
  e.i = i;
  e.number = true;
  if constexpr (SKIP_NAN && (is_float_like<T>::value || is_complex<T>::value)) {
    if (isnan(x)) {
      const double inf = __longlong_as_double(0x7ff0000000000000ll);
      e.v = cast<T>(MAX ? -inf : inf);
      e.number = false;
    }
  }
  return e;
}

// Adds element e that comes after every element already in a (one thread's in-order walk): a
// cheaper combine, since a tie keeps a.
template <bool MAX, class T>
__device__ inline void arg_next(arg_acc<T>& a, const arg_acc<T>& e) {
  if (a.i < 0) {
    a = e;
    return;
  }
  a.number = a.number || e.number;
  if (isnan(a.v)) return;
  if (isnan(e.v) || arg_beyond<MAX>(e.v, a.v)) {
    a.v = e.v;
    a.i = e.i;
  }
}

// x, an element after `cur`, replaces it: x is beyond cur, or x is the first NaN.
template <bool MAX, class T>
__device__ inline bool arg_wins(T x, T cur) {
  if constexpr (is_float_like<T>::value) return !isnan(cur) && (isnan(x) || arg_beyond<MAX>(x, cur));
  else return arg_beyond<MAX>(x, cur);
}

// The extreme of a and b with NaN winning (NumPy's maximum/minimum): one instruction for float32
// (max.NaN), float16 and bfloat16, two compares and selects otherwise. Which of two equal values
// it returns (+0 or -0) does not matter: the caller only compares with it.
template <bool MAX, class T>
__device__ inline T nan_extreme(T a, T b) {
  if constexpr (same<T, float>::value) {
    float r;
    if (MAX) asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    else asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
  } else if constexpr (is_half<T>::value) {
    return MAX ? __hmax_nan(a, b) : __hmin_nan(a, b);
  } else if constexpr (is_float_like<T>::value) {
    return isnan(a) ? a : isnan(b) ? b : (MAX ? (b > a ? b : a) : (b < a ? b : a));
  } else {
    return MAX ? (b > a ? b : a) : (b < a ? b : a);
  }
}

// Adds U packs of V elements (pack u's first index first + u * stride, increasing) that come
// after every element already in `a` (argmax/argmin of a real dtype): their extreme is found
// without branches (a tree of nan_extreme: per pack, then across packs), and its first position
// is looked for only when it beats `a`, which after the first packs is rare. The same result as
// U * V calls of arg_next.
template <bool MAX, class T, int V, int U>
__device__ inline void arg_next_packs(arg_acc<T>& a, const T (&v)[U][V], long long first, long long stride) {
  T pm[U];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    pm[u] = v[u][0];
#pragma unroll
    for (int e = 1; e < V; ++e) pm[u] = nan_extreme<MAX>(pm[u], v[u][e]);
  }
#pragma unroll
  for (int w = 1; w < U; w *= 2)
#pragma unroll
    for (int u = 0; u + w < U; u += 2 * w) pm[u] = nan_extreme<MAX>(pm[u], pm[u + w]);
  const T m = pm[0];
  if (a.i >= 0 && !arg_wins<MAX>(m, a.v)) return;
  const bool nan = isnan(m);
  long long k = 0;
#pragma unroll
  for (int u = U - 1; u >= 0; --u)
#pragma unroll
    for (int e = V - 1; e >= 0; --e)
      if (nan ? isnan(v[u][e]) : !arg_beyond<MAX>(m, v[u][e])) k = first + u * stride + e;  // the first equal to m
  a.v = m;
  a.i = k;
  a.number = true;
}

template <class T>
__device__ inline arg_acc<T> arg_none() {
  arg_acc<T> e;
  e.v = cast<T>(0);
  e.i = -1;
  e.number = false;
  return e;
}

template <bool MAX, class T>
__device__ inline void arg_block_combine(arg_acc<T>& acc) {
  __shared__ alignas(16) unsigned char storage[256 * sizeof(arg_acc<T>)];
  arg_acc<T>* values = reinterpret_cast<arg_acc<T>*>(storage);
  values[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    const unsigned t = threadIdx.x;
    if (t % (2 * s) == 0 && t + s < blockDim.x) arg_combine<MAX>(values[t], values[t + s]);
    __syncthreads();
  }
  acc = values[0];
  __syncthreads();
}

// FINAL: the index (int64) to out[o], -1 for an all-NaN slice of a nan-function; otherwise the
// pair to partial[o * gridDim.y + blockIdx.y] (at most 32 bytes each; the host allocates so).
template <bool FINAL, bool SKIP_NAN, class T>
__device__ inline void arg_write(void* out, long long o, const arg_acc<T>& acc) {
  static_assert(sizeof(arg_acc<T>) <= 32, "the host allocates 32 bytes per partial pair");
  if (FINAL) static_cast<long long*>(out)[o] = SKIP_NAN && !acc.number ? -1 : acc.i;
  else static_cast<arg_acc<T>*>(out)[o * gridDim.y + blockIdx.y] = acc;
}

// Rows: a block per output, its threads striding over the chunk's reduced elements.
template <class In, bool MAX, bool SKIP_NAN, int NK, int NR, bool FINAL>
__global__ void cupp_arg_rows(const char* in, void* out, long long out_size, long long red_size, long long chunk,
                              reduce_dims<NK> kept, reduce_dims<NR> reduced, const void*) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
    const char* base = in + offset_of(o, kept);
    arg_acc<In> acc = arg_none<In>();
    if (NR == 1 && sizeof(In) < 16 && reduced.stride[0] == static_cast<long long>(sizeof(In))) {
      // Contiguous: 16-byte loads, four in flight; each thread walks its elements in index order.
      constexpr int V = 16 / sizeof(In);
      const In* row = reinterpret_cast<const In*>(base);
      const unsigned misalign = static_cast<unsigned>(reinterpret_cast<unsigned long long>(row + r0) & 15u);
      long long head = misalign == 0 ? r0 : r0 + static_cast<long long>((16u - misalign) / sizeof(In));
      if (head > r1) head = r1;
      if (r0 + threadIdx.x < head) arg_next<MAX>(acc, arg_element<MAX, SKIP_NAN>(row[r0 + threadIdx.x], r0 + threadIdx.x));
      const long long packs = (r1 - head) / V, step = blockDim.x;
      const element_pack<In>* p = reinterpret_cast<const element_pack<In>*>(row + head);
      long long q = threadIdx.x;
      for (; q + 3 * step < packs; q += 4 * step) {
        element_pack<In> v[4];
#pragma unroll
        for (int u = 0; u < 4; ++u) v[u] = p[q + u * step];
        if constexpr (!SKIP_NAN && !is_complex<In>::value) {
          In x[4][V];
#pragma unroll
          for (int u = 0; u < 4; ++u)
#pragma unroll
            for (int e = 0; e < V; ++e) x[u][e] = v[u].v[e];
          arg_next_packs<MAX>(acc, x, head + q * V, step * V);
        } else {
#pragma unroll
          for (int u = 0; u < 4; ++u)
#pragma unroll
            for (int e = 0; e < V; ++e)
              arg_next<MAX>(acc, arg_element<MAX, SKIP_NAN>(v[u].v[e], head + (q + u * step) * V + e));
        }
      }
      for (; q < packs; q += step) {
        const element_pack<In> v = p[q];
        if constexpr (!SKIP_NAN && !is_complex<In>::value) {
          In x[1][V];
#pragma unroll
          for (int e = 0; e < V; ++e) x[0][e] = v.v[e];
          arg_next_packs<MAX>(acc, x, head + q * V, 0);
        } else {
#pragma unroll
          for (int e = 0; e < V; ++e) arg_next<MAX>(acc, arg_element<MAX, SKIP_NAN>(v.v[e], head + q * V + e));
        }
      }
      const long long tail = head + packs * V + threadIdx.x;
      if (tail < r1) arg_next<MAX>(acc, arg_element<MAX, SKIP_NAN>(row[tail], tail));
    } else {
      for (long long r = r0 + threadIdx.x; r < r1; r += blockDim.x)
        arg_combine<MAX>(acc, arg_element<MAX, SKIP_NAN>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)), r));
    }
    arg_block_combine<MAX>(acc);
    if (threadIdx.x == 0) arg_write<FINAL, SKIP_NAN>(out, o, acc);
  }
}

// Columns: a thread per output, walking the chunk's reduced elements in order.
template <class In, bool MAX, bool SKIP_NAN, int NK, int NR, bool FINAL>
__global__ void cupp_arg_columns(const char* in, void* out, long long out_size, long long red_size, long long chunk,
                                 reduce_dims<NK> kept, reduce_dims<NR> reduced, const void*) {
  const long long r0 = static_cast<long long>(blockIdx.y) * chunk;
  const long long r1 = red_size < r0 + chunk ? red_size : r0 + chunk;
  const long long o = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (o >= out_size) return;
  const char* base = in + offset_of(o, kept);
  arg_acc<In> acc = arg_none<In>();
  for (long long r = r0; r < r1; ++r)
    arg_combine<MAX>(acc, arg_element<MAX, SKIP_NAN>(*reinterpret_cast<const In*>(base + offset_of(r, reduced)), r));
  arg_write<FINAL, SKIP_NAN>(out, o, acc);
}

// The second pass: a block per output combines its red_size partial pairs (contiguous).
template <class In, bool MAX, bool SKIP_NAN>
__global__ void cupp_arg_combine(const char* in, void* out, long long out_size, long long red_size, long long,
                                 reduce_dims<1>, reduce_dims<1>, const void*) {
  const arg_acc<In>* partial = reinterpret_cast<const arg_acc<In>*>(in);
  for (long long o = blockIdx.x; o < out_size; o += gridDim.x) {
    arg_acc<In> acc = arg_none<In>();
    for (long long r = threadIdx.x; r < red_size; r += blockDim.x) arg_combine<MAX>(acc, partial[o * red_size + r]);
    arg_block_combine<MAX>(acc);
    if (threadIdx.x == 0) arg_write<true, SKIP_NAN>(out, o, acc);
  }
}

}  // namespace dev
}  // namespace cupp
