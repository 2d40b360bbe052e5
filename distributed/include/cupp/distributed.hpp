// cupp::distributed, the distributed module (target cupp::distributed; cupp::cupp links it):
// NCCL's communicators and collectives on cupp ndarrays (cupp/cuda/nccl.hpp, namespace
// cupp::cuda::nccl; libnccl is loaded at run time), a 1-D block-distributed array over the GPUs
// of one process, and this module's `cupp info` rows. docs/distributed.md is the guide.
//
//   auto x = cupp::distributed::block_array::distribute(a, {0, 1});  // a's halves on GPUs 0 and 1
//   auto y = cupp::distributed::apply(cupp::multiply, x, 2.0);       // each block on its device
//   cupp::ndarray s = cupp::distributed::sum(y);                     // local sums, then all_reduce
//   cupp::ndarray back = y.gather(0);                                // one array on device 0
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <vector>

#include "cupp/cuda/nccl.hpp"
#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::distributed {

// The rows `cupp info` prints: NCCL's version and where it was loaded from (or why it could not
// be), NCCL_NVLS_ENABLE and CUPP_NCCL_LIBRARY as this process sees them.
std::vector<module_info_row> info();

namespace detail {
struct block_layout;  // the devices, the blocks' offsets, the communicators (made on first use)
}

// A 1-D array split into contiguous blocks, block i on device devices()[i], as
// numpy.array_split splits: the first size() % nblocks() blocks one element longer. A device may
// hold several blocks. Arrays made from one another (apply) share the layout and its NCCL
// communicators (one rank per distinct device, made by the first reduction).
class block_array {
 public:
  // `a` (1-D, on any device) copied into blocks on `devices` (ValueError for another ndim, an
  // empty device list or a device out of range; the copies are peer copies, cupp's assignment).
  static block_array distribute(const ndarray& a, std::span<const int> devices);
  static block_array distribute(const ndarray& a, std::initializer_list<int> devices) {
    return distribute(a, std::span<const int>(devices.begin(), devices.size()));
  }
  // Over every device, one block each.
  static block_array distribute(const ndarray& a);
  // Blocks made elsewhere (each 1-D, one dtype, block i on devices[i]) as one array.
  static block_array from_blocks(std::vector<ndarray> blocks);

  std::int64_t size() const noexcept { return size_; }
  cupp::dtype dtype() const noexcept { return dtype_; }
  int nblocks() const noexcept { return static_cast<int>(blocks_.size()); }
  const std::vector<ndarray>& blocks() const noexcept { return blocks_; }
  const ndarray& block(int i) const { return blocks_.at(static_cast<std::size_t>(i)); }
  std::vector<int> devices() const;
  // The index of block i's first element in the whole array.
  std::int64_t offset(int i) const { return offsets_.at(static_cast<std::size_t>(i)); }
  // The whole array on one device (-1: block 0's device), by peer copies.
  ndarray gather(int device = -1) const;
  // Whether `other` has the same blocks on the same devices (what apply needs).
  bool same_layout(const block_array& other) const noexcept;

 private:
  friend struct block_access;
  std::shared_ptr<detail::block_layout> layout_;
  std::vector<ndarray> blocks_;
  std::vector<std::int64_t> offsets_;
  cupp::dtype dtype_;
  std::int64_t size_ = 0;
};

// f on each block, on that block's device and its current stream; the result has x's layout.
// Two block arrays must have the same layout (ValueError otherwise); a scalar is broadcast.
block_array apply(const ufunc& f, const block_array& x);
block_array apply(const ufunc& f, const block_array& x, const block_array& y);
block_array apply(const ufunc& f, const block_array& x, const weak_scalar& y);
block_array apply(const ufunc& f, const weak_scalar& x, const block_array& y);

// Reductions of the whole array: cupp::sum / prod / max / min of each block on its device, the
// blocks of one device combined there, then an NCCL all_reduce over the distinct devices (in
// place, in one group). A 0-d array of NumPy's result dtype on block 0's device. NCCL's dtypes
// apply (TypeError for int16 partials, complex max, ...). With NCCL absent, an array on one
// device is reduced without it; several devices need it (CudaError). max/min of an empty array
// raise as NumPy's do.
ndarray sum(const block_array& x);
ndarray prod(const block_array& x);
ndarray max(const block_array& x);
ndarray min(const block_array& x);

}  // namespace cupp::distributed
