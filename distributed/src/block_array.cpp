// cupp::distributed::block_array: a 1-D array in contiguous blocks over devices, its blockwise
// ufuncs, its gather by peer copies, and its reductions (local, then an NCCL all_reduce).
#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "cupp/creation.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/distributed.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"

namespace cupp::distributed {

namespace detail {
struct block_layout {
  std::vector<int> devices;   // block i's device
  std::vector<int> distinct;  // each device once, in first-use order
  std::mutex mutex;           // guards comms and their use
  std::vector<cuda::nccl::Communicator> comms;  // rank k on distinct[k]; made on first reduction
};
}  // namespace detail

struct block_access {
  static block_array make(std::shared_ptr<detail::block_layout> layout, std::vector<ndarray> blocks) {
    block_array out;
    out.layout_ = std::move(layout);
    out.dtype_ = blocks.empty() ? cupp::dtype() : blocks.front().dtype();
    std::int64_t offset = 0;
    for (const ndarray& b : blocks) {
      out.offsets_.push_back(offset);
      offset += b.size();
    }
    out.size_ = offset;
    out.blocks_ = std::move(blocks);
    return out;
  }
  static const std::shared_ptr<detail::block_layout>& layout(const block_array& a) { return a.layout_; }
};

namespace {

std::shared_ptr<detail::block_layout> new_layout(std::vector<int> devices) {
  auto layout = std::make_shared<detail::block_layout>();
  for (int d : devices)
    if (std::find(layout->distinct.begin(), layout->distinct.end(), d) == layout->distinct.end())
      layout->distinct.push_back(d);
  layout->devices = std::move(devices);
  return layout;
}

void require_devices(std::span<const int> devices, const char* routine) {
  if (devices.empty()) throw ValueError(std::string(routine) + ": no devices given");
  const int count = cuda::device_count();
  for (int d : devices)
    if (d < 0 || d >= count)
      throw ValueError(std::string(routine) + ": device " + std::to_string(d) + " is out of range (" +
                       std::to_string(count) + " device" + (count == 1 ? "" : "s") + ")");
}

// f(block i) on block i's device, the result in x's layout.
template <class F>
block_array map_blocks(const block_array& x, F&& f) {
  std::vector<ndarray> out;
  out.reserve(x.blocks().size());
  for (std::size_t i = 0; i < x.blocks().size(); ++i) {
    const cuda::DeviceGuard guard(x.blocks()[i].device());
    out.push_back(f(i));
  }
  return block_access::make(block_access::layout(x), std::move(out));
}

std::string layout_text(const block_array& a) {
  std::string s = "(";
  for (int i = 0; i < a.nblocks(); ++i) {
    if (i) s += ", ";
    s += std::to_string(a.block(i).size()) + " on " + std::to_string(a.block(i).device());
  }
  return s + ")";
}

using local_reduction = ndarray (*)(const ndarray&, const reduce_options&);

ndarray reduce(const block_array& x, cuda::nccl::reduce_op op, local_reduction local) {
  const auto& layout = block_access::layout(x);
  bool any_empty = false;
  for (const ndarray& b : x.blocks()) any_empty = any_empty || b.size() == 0;
  // Fewer elements than blocks: max/min have no identity for an empty block, so the (small)
  // array is reduced in one piece, which also raises NumPy's error for an empty one.
  if (any_empty && (op == cuda::nccl::reduce_op::max || op == cuda::nccl::reduce_op::min)) {
    const ndarray whole = x.gather();
    const cuda::DeviceGuard guard(whole.device());
    return local(whole, {});
  }
  // 1. each block on its device; 2. the partials of one device combined there.
  std::map<int, std::vector<ndarray>> per_device;
  for (const ndarray& b : x.blocks()) {
    const cuda::DeviceGuard guard(b.device());
    per_device[b.device()].push_back(local(b, {}));
  }
  std::vector<ndarray> partial;
  for (int d : layout->distinct) {
    const cuda::DeviceGuard guard(d);
    std::vector<ndarray>& p = per_device[d];
    partial.push_back(p.size() == 1 ? p.front() : local(stack(std::span<const ndarray>(p)), {}));
  }
  // 3. all_reduce over the devices, in place, in one group.
  if (layout->distinct.size() == 1 && !cuda::nccl::available()) return partial.front();
  const std::lock_guard<std::mutex> lock(layout->mutex);
  if (layout->comms.empty()) layout->comms = cuda::nccl::Communicator::init_all(layout->distinct);
  cuda::nccl::group_start();
  try {
    for (std::size_t k = 0; k < partial.size(); ++k) layout->comms[k].all_reduce(partial[k], partial[k], op);
  } catch (...) {
    try {
      cuda::nccl::group_end();
    } catch (...) {
    }
    throw;
  }
  cuda::nccl::group_end();
  return partial.front();
}

}  // namespace

block_array block_array::distribute(const ndarray& a, std::span<const int> devices) {
  if (a.is_null()) throw ValueError("block_array.distribute: a is a null ndarray");
  if (a.ndim() != 1)
    throw ValueError("block_array.distribute: a 1-D block distribution takes a 1-D array, got " +
                     std::to_string(a.ndim()) + " dimensions");
  require_devices(devices, "block_array.distribute");
  const std::int64_t k = static_cast<std::int64_t>(devices.size());
  const std::int64_t base = a.size() / k, extra = a.size() % k;
  std::vector<ndarray> blocks;
  std::int64_t offset = 0;
  for (std::int64_t i = 0; i < k; ++i) {
    const std::int64_t len = base + (i < extra ? 1 : 0);
    const cuda::DeviceGuard guard(devices[static_cast<std::size_t>(i)]);
    ndarray b = empty({len}, a.dtype());
    if (len > 0) b.assign(a(slice(offset, offset + len)));  // a peer copy where a lives elsewhere
    blocks.push_back(std::move(b));
    offset += len;
  }
  return block_access::make(new_layout(std::vector<int>(devices.begin(), devices.end())), std::move(blocks));
}

block_array block_array::distribute(const ndarray& a) {
  const int count = cuda::device_count();
  std::vector<int> devices(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) devices[static_cast<std::size_t>(i)] = i;
  return distribute(a, std::span<const int>(devices));
}

block_array block_array::from_blocks(std::vector<ndarray> blocks) {
  if (blocks.empty()) throw ValueError("block_array.from_blocks: no blocks given");
  std::vector<int> devices;
  for (const ndarray& b : blocks) {
    if (b.is_null()) throw ValueError("block_array.from_blocks: a block is a null ndarray");
    if (b.ndim() != 1)
      throw ValueError("block_array.from_blocks: blocks must be 1-D, got " + std::to_string(b.ndim()) + " dimensions");
    if (b.dtype() != blocks.front().dtype())
      throw TypeError("block_array.from_blocks: blocks of dtypes " + blocks.front().dtype().name() + " and " +
                      b.dtype().name() + "; they must be the same");
    devices.push_back(b.device());
  }
  return block_access::make(new_layout(std::move(devices)), std::move(blocks));
}

std::vector<int> block_array::devices() const {
  std::vector<int> out;
  for (const ndarray& b : blocks_) out.push_back(b.device());
  return out;
}

bool block_array::same_layout(const block_array& other) const noexcept {
  if (blocks_.size() != other.blocks_.size() || size_ != other.size_) return false;
  for (std::size_t i = 0; i < blocks_.size(); ++i)
    if (blocks_[i].device() != other.blocks_[i].device() || blocks_[i].size() != other.blocks_[i].size())
      return false;
  return true;
}

ndarray block_array::gather(int device) const {
  const int target = device >= 0 ? device : blocks_.front().device();
  const int devices[] = {target};
  require_devices(devices, "block_array.gather");
  const cuda::DeviceGuard guard(target);
  ndarray out = empty({size_}, dtype_);
  for (std::size_t i = 0; i < blocks_.size(); ++i)
    if (blocks_[i].size() > 0) out(slice(offsets_[i], offsets_[i] + blocks_[i].size())).assign(blocks_[i]);
  return out;
}

block_array apply(const ufunc& f, const block_array& x) {
  return map_blocks(x, [&](std::size_t i) { return f(x.blocks()[i]); });
}

block_array apply(const ufunc& f, const block_array& x, const block_array& y) {
  if (!x.same_layout(y))
    throw ValueError("distributed apply of '" + std::string(f.name()) + "': the operands' blocks differ " +
                     layout_text(x) + " and " + layout_text(y) + " (blocks and devices must match)");
  return map_blocks(x, [&](std::size_t i) { return f(x.blocks()[i], y.blocks()[i]); });
}

block_array apply(const ufunc& f, const block_array& x, const weak_scalar& y) {
  return map_blocks(x, [&](std::size_t i) { return f(x.blocks()[i], y); });
}

block_array apply(const ufunc& f, const weak_scalar& x, const block_array& y) {
  return map_blocks(y, [&](std::size_t i) { return f(x, y.blocks()[i]); });
}

ndarray sum(const block_array& x) { return reduce(x, cuda::nccl::reduce_op::sum, &cupp::sum); }
ndarray prod(const block_array& x) { return reduce(x, cuda::nccl::reduce_op::prod, &cupp::prod); }
ndarray max(const block_array& x) { return reduce(x, cuda::nccl::reduce_op::max, &cupp::max); }
ndarray min(const block_array& x) { return reduce(x, cuda::nccl::reduce_op::min, &cupp::min); }

}  // namespace cupp::distributed
