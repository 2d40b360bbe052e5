// cupp::cuda::nccl: the communicator and its collectives over the dlopen'ed libnccl
// (nccl_library.hpp), on cupp ndarrays and the current stream of the communicator's device.
#include "cupp/cuda/nccl.hpp"

#include <cstring>
#include <set>
#include <string>
#include <utility>

#include "cuda/device_scope.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "nccl_checks.hpp"
#include "nccl_library.hpp"
#include "nccl_types.hpp"

namespace cupp::cuda::nccl {

using detail::check;
using detail::require_buffer;
using detail::require_elements;
using detail::require_rank;
using detail::require_same_dtype;
using detail::where;

namespace {

ncclComm_t as_comm(void* c) noexcept { return static_cast<ncclComm_t>(c); }

cudaStream_t stream_of(int device) { return current_stream(device).handle(); }

}  // namespace

const char* to_string(reduce_op op) noexcept {
  switch (op) {
    case reduce_op::sum: return "sum";
    case reduce_op::prod: return "prod";
    case reduce_op::max: return "max";
    case reduce_op::min: return "min";
    case reduce_op::avg: return "avg";
  }
  return "unknown";
}

bool available() noexcept { return detail::try_library() != nullptr; }

std::string unavailable_reason() { return available() ? std::string() : detail::load_errors(); }

std::string library_path() {
  const detail::api* nccl = detail::try_library();
  return nccl ? nccl->path : std::string();
}

int get_version() { return detail::library("ncclGetVersion").version; }

std::vector<std::byte> get_unique_id() {
  const detail::api& nccl = detail::library("ncclGetUniqueId");
  ncclUniqueId id{};
  check(nccl, nccl.GetUniqueId(&id), "ncclGetUniqueId");
  std::vector<std::byte> bytes(unique_id_bytes);
  std::memcpy(bytes.data(), id.internal, unique_id_bytes);
  return bytes;
}

void group_start() {
  const detail::api& nccl = detail::library("ncclGroupStart");
  check(nccl, nccl.GroupStart(), "ncclGroupStart");
}

void group_end() {
  const detail::api& nccl = detail::library("ncclGroupEnd");
  check(nccl, nccl.GroupEnd(), "ncclGroupEnd");
}

// ---- the communicator

Communicator::Communicator(int ndev, std::span<const std::byte> unique_id, int rank) {
  if (ndev < 1) throw ValueError("nccl Communicator: ndev must be at least 1, got " + std::to_string(ndev));
  require_rank(rank, ndev, "Communicator", "rank");
  if (unique_id.size() != unique_id_bytes)
    throw ValueError("nccl Communicator: the unique id has " + std::to_string(unique_id.size()) + " bytes, expected " +
                     std::to_string(unique_id_bytes) + " (get_unique_id()'s bytes)");
  const detail::api& nccl = detail::library("ncclCommInitRank");
  ncclUniqueId id{};
  std::memcpy(id.internal, unique_id.data(), unique_id_bytes);
  device_ = current_device();
  ncclComm_t comm = nullptr;
  check(nccl, nccl.CommInitRank(&comm, ndev, id, rank), "ncclCommInitRank");
  comm_ = comm;
  rank_ = rank;
  size_ = ndev;
}

std::vector<Communicator> Communicator::init_all(std::span<const int> devices) {
  if (devices.empty()) throw ValueError("nccl Communicator.init_all: no devices given");
  const int count = device_count();
  std::set<int> seen;
  for (int d : devices) {
    if (d < 0 || d >= count)
      throw ValueError("nccl Communicator.init_all: device " + std::to_string(d) + " is out of range (" +
                       std::to_string(count) + " device" + (count == 1 ? "" : "s") + ")");
    if (!seen.insert(d).second)
      throw ValueError("nccl Communicator.init_all: device " + std::to_string(d) +
                       " is listed twice (NCCL takes one rank per device)");
  }
  const detail::api& nccl = detail::library("ncclCommInitAll");
  std::vector<ncclComm_t> comms(devices.size(), nullptr);
  check(nccl, nccl.CommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
  std::vector<Communicator> out;
  out.reserve(devices.size());
  for (std::size_t i = 0; i < devices.size(); ++i) {
    Communicator c;
    c.comm_ = comms[i];
    c.rank_ = static_cast<int>(i);
    c.size_ = static_cast<int>(devices.size());
    c.device_ = devices[i];
    out.push_back(std::move(c));
  }
  return out;
}

std::vector<Communicator> Communicator::init_all(int n) {
  if (n < 1) throw ValueError("nccl Communicator.init_all: n must be at least 1, got " + std::to_string(n));
  std::vector<int> devices(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) devices[static_cast<std::size_t>(i)] = i;
  return init_all(std::span<const int>(devices));
}

Communicator::Communicator(Communicator&& other) noexcept
    : comm_(std::exchange(other.comm_, nullptr)), rank_(other.rank_), size_(other.size_), device_(other.device_) {}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    Communicator old(std::move(*this));  // destroys this communicator's comm at the end of the scope
    comm_ = std::exchange(other.comm_, nullptr);
    rank_ = other.rank_;
    size_ = other.size_;
    device_ = other.device_;
  }
  return *this;
}

Communicator::~Communicator() {
  if (comm_ == nullptr) return;
  if (const detail::api* nccl = detail::try_library()) (void)nccl->CommDestroy(as_comm(comm_));
  comm_ = nullptr;
}

int Communicator::rank() const { return rank_; }
int Communicator::size() const { return size_; }
int Communicator::device() const { return device_; }

void Communicator::destroy() {
  if (comm_ == nullptr) return;
  const detail::api& nccl = detail::library("ncclCommDestroy");
  ncclComm_t comm = as_comm(std::exchange(comm_, nullptr));
  check(nccl, nccl.CommDestroy(comm), "ncclCommDestroy");
}

void Communicator::abort() {
  if (comm_ == nullptr) return;
  const detail::api& nccl = detail::library("ncclCommAbort");
  ncclComm_t comm = as_comm(std::exchange(comm_, nullptr));
  check(nccl, nccl.CommAbort(comm), "ncclCommAbort");
}

namespace {
const detail::api& live(void* comm, const char* routine) {
  if (comm == nullptr) throw ValueError(where(routine) + ": the communicator was destroyed");
  return detail::library(routine);
}
}  // namespace

void Communicator::check_async_error() const {
  const detail::api& nccl = live(comm_, "check_async_error");
  ncclResult_t async = ncclSuccess;
  check(nccl, nccl.CommGetAsyncError(as_comm(comm_), &async), "ncclCommGetAsyncError", as_comm(comm_));
  check(nccl, async, "an asynchronous NCCL operation", as_comm(comm_));
}

// The op a reduction passes to NCCL. Before NCCL 2.29.7, a one-rank communicator's avg leaves the
// tail of the output unwritten when the count is not a multiple of its block count
// (NVIDIA/nccl#1950; seen here as the last element of 4099 float64 keeping its old value). The
// mean over one rank is the rank's own data, which sum gives bit for bit, so one rank sums there.
namespace {
ncclRedOp_t op_for_call(const detail::api& nccl, const detail::reduction_type& t, int size) {
  constexpr int first_fixed_version = 22907;
  return t.op == ncclAvg && size == 1 && nccl.version < first_fixed_version ? ncclSum : t.op;
}
}  // namespace

void Communicator::all_reduce(const ndarray& send, const ndarray& recv, reduce_op op) {
  const detail::api& nccl = live(comm_, "all_reduce");
  require_buffer(send, "all_reduce", "send", device_, false);
  require_buffer(recv, "all_reduce", "recv", device_, true);
  require_same_dtype(send, recv, "all_reduce");
  require_elements(recv, send.size(), "all_reduce", "recv", "as many as send");
  const detail::reduction_type t = detail::reduction_type_of(send.dtype(), op, "all_reduce");
  if (send.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl,
        nccl.AllReduce(send.data(), recv.data(), static_cast<std::size_t>(send.size()) * t.per_element, t.type,
                       op_for_call(nccl, t, size_), as_comm(comm_), stream_of(device_)),
        "ncclAllReduce", as_comm(comm_));
}

void Communicator::reduce(const ndarray& send, const ndarray& recv, reduce_op op, int root) {
  const detail::api& nccl = live(comm_, "reduce");
  require_rank(root, size_, "reduce", "root");
  require_buffer(send, "reduce", "send", device_, false);
  const bool at_root = rank_ == root;
  if (at_root || !recv.is_null()) {
    require_buffer(recv, "reduce", "recv", device_, true);
    require_same_dtype(send, recv, "reduce");
    require_elements(recv, send.size(), "reduce", "recv", "as many as send");
  }
  const detail::reduction_type t = detail::reduction_type_of(send.dtype(), op, "reduce");
  if (send.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl,
        nccl.Reduce(send.data(), recv.is_null() ? nullptr : recv.data(),
                    static_cast<std::size_t>(send.size()) * t.per_element, t.type, op_for_call(nccl, t, size_), root, as_comm(comm_),
                    stream_of(device_)),
        "ncclReduce", as_comm(comm_));
}

void Communicator::broadcast(const ndarray& send, const ndarray& recv, int root) {
  const detail::api& nccl = live(comm_, "broadcast");
  require_rank(root, size_, "broadcast", "root");
  require_buffer(recv, "broadcast", "recv", device_, true);
  const bool at_root = rank_ == root;
  if (at_root || !send.is_null()) {
    require_buffer(send, "broadcast", "send", device_, false);
    require_same_dtype(send, recv, "broadcast");
    require_elements(recv, send.size(), "broadcast", "recv", "as many as send");
  }
  if (recv.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl,
        nccl.Broadcast(send.is_null() ? nullptr : send.data(), recv.data(), recv.nbytes(), ncclUint8, root,
                       as_comm(comm_), stream_of(device_)),
        "ncclBroadcast", as_comm(comm_));
}

void Communicator::broadcast(const ndarray& buffer, int root) {
  const detail::api& nccl = live(comm_, "broadcast");
  require_rank(root, size_, "broadcast", "root");
  require_buffer(buffer, "broadcast", "buffer", device_, true);
  if (buffer.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl, nccl.Bcast(buffer.data(), buffer.nbytes(), ncclUint8, root, as_comm(comm_), stream_of(device_)),
        "ncclBcast", as_comm(comm_));
}

void Communicator::all_gather(const ndarray& send, const ndarray& recv) {
  const detail::api& nccl = live(comm_, "all_gather");
  require_buffer(send, "all_gather", "send", device_, false);
  require_buffer(recv, "all_gather", "recv", device_, true);
  require_same_dtype(send, recv, "all_gather");
  require_elements(recv, send.size() * size_, "all_gather", "recv", "size() times send's");
  if (send.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl,
        nccl.AllGather(send.data(), recv.data(), send.nbytes(), ncclUint8, as_comm(comm_), stream_of(device_)),
        "ncclAllGather", as_comm(comm_));
}

void Communicator::reduce_scatter(const ndarray& send, const ndarray& recv, reduce_op op) {
  const detail::api& nccl = live(comm_, "reduce_scatter");
  require_buffer(send, "reduce_scatter", "send", device_, false);
  require_buffer(recv, "reduce_scatter", "recv", device_, true);
  require_same_dtype(send, recv, "reduce_scatter");
  require_elements(send, recv.size() * size_, "reduce_scatter", "send", "size() times recv's");
  const detail::reduction_type t = detail::reduction_type_of(send.dtype(), op, "reduce_scatter");
  if (recv.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl,
        nccl.ReduceScatter(send.data(), recv.data(), static_cast<std::size_t>(recv.size()) * t.per_element, t.type,
                           op_for_call(nccl, t, size_), as_comm(comm_), stream_of(device_)),
        "ncclReduceScatter", as_comm(comm_));
}

void Communicator::send(const ndarray& array, int peer) {
  const detail::api& nccl = live(comm_, "send");
  require_rank(peer, size_, "send", "peer");
  require_buffer(array, "send", "array", device_, false);
  if (array.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl, nccl.Send(array.data(), array.nbytes(), ncclUint8, peer, as_comm(comm_), stream_of(device_)),
        "ncclSend", as_comm(comm_));
}

void Communicator::recv(const ndarray& array, int peer) {
  const detail::api& nccl = live(comm_, "recv");
  require_rank(peer, size_, "recv", "peer");
  require_buffer(array, "recv", "array", device_, true);
  if (array.size() == 0) return;
  const cupp::detail::device_scope scope(device_);
  check(nccl, nccl.Recv(array.data(), array.nbytes(), ncclUint8, peer, as_comm(comm_), stream_of(device_)),
        "ncclRecv", as_comm(comm_));
}

}  // namespace cupp::cuda::nccl
