// cub_select.hpp's implementation: CUB's DeviceSelect::Flagged over a counting iterator (the
// positions) and over words of 1, 4 and 8 bytes (any element of that size: the bytes are only
// moved; other sizes run on cupp's own compaction, to keep nvcc's time short); the count through
// cub_reduce.hpp's integer sum of the mask as bool.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstdint>

#include "accel/cub_common.cuh"
#include "accel/cub_reduce.hpp"
#include "accel/cub_select.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail::accel {

namespace {

template <class In, class Out>
void flagged(const In& in, const std::uint8_t* mask, Out* out, std::int64_t n, cudaStream_t stream,
             const temp_alloc& alloc) {
  // CUB writes the number selected to device memory: the scratch word (the caller knows it).
  run_cub(cub_family::select, "cub::DeviceSelect::Flagged", 8, alloc, [&](void* temp, std::size_t& b, char* s) {
    return cub::DeviceSelect::Flagged(temp, b, in, mask, out, reinterpret_cast<std::int64_t*>(s), n, stream);
  });
}

}  // namespace

void cub_count_true(const std::uint8_t* mask, std::int64_t n, std::int64_t* count, cudaStream_t stream,
                    const temp_alloc& alloc) {
  cub_int_sum_prod(false, 1, false, true, mask, n, count, 8, stream, alloc);
}

void cub_select_positions(const std::uint8_t* mask, std::int64_t n, std::int64_t* out, cudaStream_t stream,
                          const temp_alloc& alloc) {
  flagged(thrust::counting_iterator<std::int64_t>(0), mask, out, n, stream, alloc);
}

void cub_select_flagged(int elem_bytes, const void* in, const std::uint8_t* mask, std::int64_t n, void* out,
                        cudaStream_t stream, const temp_alloc& alloc) {
  switch (elem_bytes) {
    case 1: return flagged(static_cast<const std::uint8_t*>(in), mask, static_cast<std::uint8_t*>(out), n, stream, alloc);
    case 4: return flagged(static_cast<const std::uint32_t*>(in), mask, static_cast<std::uint32_t*>(out), n, stream, alloc);
    case 8: return flagged(static_cast<const std::uint64_t*>(in), mask, static_cast<std::uint64_t*>(out), n, stream, alloc);
    default: throw ValueError("cub select: element width must be 1, 4 or 8 bytes");
  }
}

}  // namespace cupp::detail::accel
