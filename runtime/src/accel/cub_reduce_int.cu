// cub_reduce.hpp's integer and bool reductions: CUB's DeviceReduce over unsigned words, with
// run-time flags (sum or product, signed or not, max or min) so that each width is instantiated
// once per algorithm: sum/product for 1, 2, 4 and 8 bytes, argmin/argmax (and so min/max) for 1,
// 4 and 8 bytes.
#include <cub/device/device_reduce.cuh>
#include <cub/iterator/arg_index_input_iterator.cuh>

#include <cstdint>

#include "accel/cub_common.cuh"
#include "accel/cub_reduce.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail::accel {

namespace {

using u64 = std::uint64_t;

// A word widened to 64 bits as its dtype converts: bool (any nonzero byte is 1), sign- or
// zero-extended.
struct widen {
  bool is_signed, is_bool;
  template <class U>
  __device__ __forceinline__ u64 operator()(U v) const {
    if (is_bool) return v != 0 ? 1u : 0u;
    if constexpr (sizeof(U) < 8) {
      if (is_signed) {
        using S = std::make_signed_t<U>;
        return static_cast<u64>(static_cast<std::int64_t>(static_cast<S>(v)));
      }
    }
    return static_cast<u64>(v);
  }
};

// Wrapping sum or product modulo 2^64 (the same bits for signed and unsigned words).
struct sum_or_prod {
  bool multiply;
  __device__ __forceinline__ u64 operator()(u64 a, u64 b) const { return multiply ? a * b : a + b; }
};

// The order key of a word: the sign bit flipped for signed words (then unsigned order is signed
// order). Arithmetic in unsigned int at least, so that narrow words never promote to int.
template <class U>
__device__ __forceinline__ U order_key(U v, bool is_signed) {
  constexpr U sign = static_cast<U>(U{1} << (8 * sizeof(U) - 1));
  return is_signed ? static_cast<U>(v ^ sign) : v;
}

// (position, word) pairs: a key < 0 is the empty start value; equal words keep the first position.
struct arg_pick {
  bool is_max, is_signed;
  template <class P>
  __device__ __forceinline__ P operator()(const P& a, const P& b) const {
    if (a.key < 0) return b;
    if (b.key < 0) return a;
    const auto ka = order_key(a.value, is_signed), kb = order_key(b.value, is_signed);
    if (ka == kb) return a.key < b.key ? a : b;
    return (is_max ? ka > kb : ka < kb) ? a : b;
  }
};

template <class F>
void by_width(int bytes, F&& f) {
  switch (bytes) {
    case 1: f(std::uint8_t{}); break;
    case 2: f(std::uint16_t{}); break;
    case 4: f(std::uint32_t{}); break;
    case 8: f(std::uint64_t{}); break;
    default: throw ValueError("cub reduce: integer width must be 1, 2, 4 or 8 bytes");
  }
}

}  // namespace

void cub_int_sum_prod(bool multiply, int in_bytes, bool in_signed, bool in_bool, const void* in, std::int64_t n,
                      void* out, int out_bytes, cudaStream_t stream, const temp_alloc& alloc) {
  if (out_bytes != 1 && out_bytes != 2 && out_bytes != 4 && out_bytes != 8)
    throw ValueError("cub reduce: integer result width must be 1, 2, 4 or 8 bytes");
  by_width(in_bytes, [&](auto word) {
    using U = decltype(word);
    const U* p = static_cast<const U*>(in);
    const u64 init = multiply ? 1u : 0u;
    // A full-width result goes straight to `out`; a narrower one through the scratch word.
    const bool direct = out_bytes == 8;
    char* scratch = run_cub(cub_family::reduce, "cub::DeviceReduce::TransformReduce", 8, alloc,
                            [&](void* temp, std::size_t& bytes, char* s) {
                              u64* target = direct ? static_cast<u64*>(out) : reinterpret_cast<u64*>(s);
                              return cub::DeviceReduce::TransformReduce(temp, bytes, p, target, n,
                                                                         sum_or_prod{multiply},
                                                                         widen{in_signed, in_bool}, init, stream);
                            });
    if (!direct) copy_out(out, scratch, static_cast<std::size_t>(out_bytes), stream);
  });
}

void cub_int_arg(bool is_max, int bytes, bool is_signed, const void* in, std::int64_t n, void* out, bool value,
                 cudaStream_t stream, const temp_alloc& alloc) {
  if (bytes == 2) throw ValueError("cub reduce: 2-byte extrema are not instantiated");
  by_width(bytes, [&](auto word) {
    using U = decltype(word);
    if constexpr (sizeof(U) != 2) {
    using pair = cub::KeyValuePair<std::int64_t, U>;
    cub::ArgIndexInputIterator<const U*, std::int64_t, U> it(static_cast<const U*>(in));
    char* scratch = run_cub(cub_family::reduce, "cub::DeviceReduce::Reduce", sizeof(pair), alloc,
                            [&](void* temp, std::size_t& b, char* s) {
                              return cub::DeviceReduce::Reduce(temp, b, it, reinterpret_cast<pair*>(s), n,
                                                               arg_pick{is_max, is_signed}, pair(-1, U{0}), stream);
                            });
    if (value) copy_out(out, scratch + value_offset<pair>(), sizeof(U), stream);
    else copy_out(out, scratch + key_offset<pair>(), sizeof(std::int64_t), stream);
    }
  });
}

}  // namespace cupp::detail::accel
