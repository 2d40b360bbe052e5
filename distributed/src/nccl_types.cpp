// cupp dtypes as NCCL element types, for reductions (nccl_types.hpp).
#include "nccl_types.hpp"

#include <string>

#include "cupp/errors.hpp"

namespace cupp::cuda::nccl::detail {

ncclRedOp_t nccl_op(reduce_op op) noexcept {
  switch (op) {
    case reduce_op::sum: return ncclSum;
    case reduce_op::prod: return ncclProd;
    case reduce_op::max: return ncclMax;
    case reduce_op::min: return ncclMin;
    case reduce_op::avg: return ncclAvg;
  }
  return ncclSum;
}

reduction_type reduction_type_of(const cupp::dtype& type, reduce_op op, std::string_view routine) {
  const auto refuse = [&](const std::string& why) -> reduction_type {
    throw TypeError("nccl " + std::string(routine) + ": cannot reduce dtype " + type.name() + " with '" +
                    to_string(op) + "': " + why);
  };
  if (static_cast<int>(op) < 0 || static_cast<int>(op) > static_cast<int>(reduce_op::avg))
    throw ValueError("nccl " + std::string(routine) + ": unknown reduce_op " + std::to_string(static_cast<int>(op)));
  if (!type.is_builtin()) return refuse("NCCL reduces numbers only");
  const ncclRedOp_t nop = nccl_op(op);
  switch (type.id()) {
    case type_id::bool_:
      // NumPy's add on bool is logical or, multiply logical and: max and min of 0/1 bytes.
      if (op == reduce_op::avg) return refuse("the mean of bools is not a bool");
      return {ncclUint8, 1, op == reduce_op::sum ? ncclMax : op == reduce_op::prod ? ncclMin : nop};
    case type_id::int8: return {ncclInt8, 1, nop};
    case type_id::uint8: return {ncclUint8, 1, nop};
    case type_id::int32: return {ncclInt32, 1, nop};
    case type_id::uint32: return {ncclUint32, 1, nop};
    case type_id::int64: return {ncclInt64, 1, nop};
    case type_id::uint64: return {ncclUint64, 1, nop};
    case type_id::float16: return {ncclFloat16, 1, nop};
    case type_id::bfloat16: return {ncclBfloat16, 1, nop};
    case type_id::float32: return {ncclFloat32, 1, nop};
    case type_id::float64: return {ncclFloat64, 1, nop};
    case type_id::complex64:
    case type_id::complex128:
      if (op != reduce_op::sum && op != reduce_op::avg)
        return refuse("NCCL reduces complex numbers as pairs of floats, which is right for sum and avg only");
      return {type.id() == type_id::complex64 ? ncclFloat32 : ncclFloat64, 2, nop};
    case type_id::int16:
    case type_id::uint16:
      return refuse("NCCL has no 16-bit integer type (it reduces int8, uint8, int32, uint32, int64, uint64, "
                    "float16, bfloat16, float32, float64)");
    default: return refuse("NCCL has no such type");
  }
}

}  // namespace cupp::cuda::nccl::detail
