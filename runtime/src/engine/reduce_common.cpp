// What reductions and accumulations share (see reduce_common.hpp).
#include "engine/reduce_common.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>

#include "cuda/check.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/errors.hpp"

namespace cupp::engine {

dtype default_result(const op_spec& op, const dtype& in) {
  const type_id t = in.id();
  if (op.reduce_widens_ints) {  // the spec's reduce_widens_ints (add, multiply)
    if (t == type_id::bool_ || t == type_id::int8 || t == type_id::int16 || t == type_id::int32) return dtype(type_id::int64);
    if (t == type_id::uint8 || t == type_id::uint16 || t == type_id::uint32) return dtype(type_id::uint64);
  }
  if (op.name == "logical_and" || op.name == "logical_or" || op.name == "logical_xor") return dtype(type_id::bool_);
  return in;
}

std::size_t combining_loop(const op_spec& op, type_id acc, std::string_view method) {
  if (op.nin != 2 || op.nout != 1)
    throw ValueError(std::string(method) + " only supported for binary functions (ufunc '" + std::string(op.name) + "')");
  for (std::size_t i = 0; i < op.loops.size(); ++i) {
    const loop_spec& l = op.loops[i];
    if (l.in[0] == acc && l.in[1] == acc && l.out[0] == acc) return i;
  }
  throw TypeError("ufunc '" + std::string(op.name) + "' has no loop that can " + std::string(method) + " " +
                  dtype(acc).name());
}

int sm_count(int device) {
  static std::mutex mutex;
  static std::unordered_map<int, int> counts;
  const std::lock_guard lock(mutex);
  auto it = counts.find(device);
  if (it == counts.end())
    it = counts.emplace(device, std::max(1, cuda::get_device_properties(device).multiprocessor_count)).first;
  return it->second;
}

int resident_blocks(const void* kernel, int threads) {
  static std::mutex mutex;
  static std::unordered_map<const void*, int> blocks;
  const std::lock_guard lock(mutex);
  auto it = blocks.find(kernel);
  if (it == blocks.end()) {
    int n = 0;
    const cudaError_t rc = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, threads, 0);
    cuda::detail::ignore(rc);  // an unknown answer falls back to 8 (grids then take two waves at worst)
    it = blocks.emplace(kernel, rc == cudaSuccess && n > 0 ? n : 8).first;
  }
  return it->second;
}

}  // namespace cupp::engine
