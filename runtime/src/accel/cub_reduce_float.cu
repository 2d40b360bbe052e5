// cub_reduce.hpp's floating reductions: CUB's DeviceReduce, with run-time flags choosing the
// operation: sum/product of float16, bfloat16 (in float32), float32 and float64; argmin/argmax
// (and so min/max) of float32 and float64. Six instantiations.
#include "accel/cub_real.cuh"
#include "cupp/errors.hpp"

namespace cupp::detail::accel {

void cub_real_sum_prod(bool multiply, real_type t, const void* in, std::int64_t n, void* out, cudaStream_t stream,
                       const temp_alloc& alloc) {
  switch (t) {
    case real_type::float16: return real_sum_prod_impl<__half, float>(multiply, in, n, out, stream, alloc);
    case real_type::bfloat16: return real_sum_prod_impl<__nv_bfloat16, float>(multiply, in, n, out, stream, alloc);
    case real_type::float32: return real_sum_prod_impl<float, float>(multiply, in, n, out, stream, alloc);
    case real_type::float64: return real_sum_prod_impl<double, double>(multiply, in, n, out, stream, alloc);
  }
  throw ValueError("cub reduce: unknown element type");
}

void cub_real_arg(bool is_max, real_type t, const void* in, std::int64_t n, void* out, bool value, cudaStream_t stream,
                  const temp_alloc& alloc) {
  switch (t) {
    case real_type::float32: return real_arg_impl<float>(is_max, in, n, out, value, stream, alloc);
    case real_type::float64: return real_arg_impl<double>(is_max, in, n, out, value, stream, alloc);
    default: break;
  }
  throw ValueError("cub reduce: extrema of float16 and bfloat16 are not instantiated");
}

}  // namespace cupp::detail::accel
