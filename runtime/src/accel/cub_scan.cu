// cub_scan.hpp's implementation: CUB's DeviceScan::InclusiveScan with the operation chosen at run
// time (one functor), instantiated for 64-bit results from inputs of 1, 4 and 8 bytes: three
// instantiations (nvcc's time; other widths run on cupp's own scan).
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <type_traits>

#include "accel/cub_common.cuh"
#include "accel/cub_scan.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail::accel {

namespace {

// A word widened to 64 bits: bool (any nonzero byte) to 0/1, else sign- or zero-extended.
struct widen64 {
  bool is_signed, is_bool;
  template <class U>
  __host__ __device__ __forceinline__ std::uint64_t operator()(U v) const {
    if (is_bool) return v != 0 ? 1u : 0u;
    if (is_signed) return static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::make_signed_t<U>>(v)));
    return static_cast<std::uint64_t>(v);
  }
};

struct combine {
  scan_op op;
  bool is_signed;
  template <class U>
  __host__ __device__ __forceinline__ U operator()(U a, U b) const {
    // Narrow words compute in unsigned int (never promoted to int, whose overflow is undefined).
    using W = std::conditional_t<(sizeof(U) < 4), unsigned, U>;
    const W x = a, y = b;
    constexpr W sign = static_cast<W>(U{1} << (8 * sizeof(U) - 1));
    switch (op) {
      case scan_op::add: return static_cast<U>(x + y);
      case scan_op::multiply: return static_cast<U>(x * y);
      case scan_op::maximum:
      case scan_op::minimum: {
        const W kx = is_signed ? static_cast<W>(x ^ sign) : x, ky = is_signed ? static_cast<W>(y ^ sign) : y;
        return (op == scan_op::maximum ? kx >= ky : kx <= ky) ? a : b;
      }
      case scan_op::bit_and: return static_cast<U>(x & y);
      case scan_op::bit_or: return static_cast<U>(x | y);
      case scan_op::bit_xor: return static_cast<U>(x ^ y);
    }
    return a;
  }
};

template <class In, class Out>
void scan(const In& in, Out* out, std::int64_t n, combine op, cudaStream_t stream, const temp_alloc& alloc) {
  run_cub(cub_family::scan, "cub::DeviceScan::InclusiveScan", 0, alloc, [&](void* temp, std::size_t& b, char*) {
    return cub::DeviceScan::InclusiveScan(temp, b, in, out, op, n, stream);
  });
}

}  // namespace

void cub_inclusive_scan(scan_op op, int in_bytes, bool in_signed, bool in_bool, const void* in, bool out_signed,
                        void* out, std::int64_t n, cudaStream_t stream, const temp_alloc& alloc) {
  const combine f{op, out_signed};
  auto* o = static_cast<std::uint64_t*>(out);
  switch (in_bytes) {
    case 1: {
      thrust::transform_iterator<widen64, const std::uint8_t*, std::uint64_t> it(static_cast<const std::uint8_t*>(in),
                                                                                widen64{in_signed, in_bool});
      return scan(it, o, n, f, stream, alloc);
    }
    case 4: {
      thrust::transform_iterator<widen64, const std::uint32_t*, std::uint64_t> it(
          static_cast<const std::uint32_t*>(in), widen64{in_signed, in_bool});
      return scan(it, o, n, f, stream, alloc);
    }
    case 8: return scan(static_cast<const std::uint64_t*>(in), o, n, f, stream, alloc);
    default: throw ValueError("cub scan: input words of 1, 4 or 8 bytes");
  }
}

}  // namespace cupp::detail::accel
