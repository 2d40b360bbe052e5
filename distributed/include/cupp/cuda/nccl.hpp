// cupp::cuda::nccl: NCCL's collectives on cupp ndarrays (CuPy's cupy.cuda.nccl), from the
// distributed module (target cupp::distributed). libnccl is loaded at run time with dlopen, so a
// program linking this module starts where NCCL is absent: available() says whether it loaded,
// and every other call then throws cupp::CudaError naming dlopen and why.
//
//   auto id = cupp::cuda::nccl::get_unique_id();          // 128 bytes; rank 0 shares them
//   cupp::cuda::nccl::Communicator comm(nranks, id, rank);  // on the current device
//   comm.all_reduce(x, y, cupp::cuda::nccl::reduce_op::sum);  // on the current stream
//   auto comms = cupp::cuda::nccl::Communicator::init_all({0, 1});  // one process, two GPUs
//   cupp::cuda::nccl::group_start(); ... comms[i].send(...) ...; cupp::cuda::nccl::group_end();
//
// Collectives run on the calling thread's current stream of the communicator's device and
// return without synchronising. Buffers must be C-contiguous arrays on that device; send and
// receive arrays have the same dtype. Reductions take what NCCL reduces: bool (sum and max are
// logical or, prod and min logical and, as NumPy's add and multiply on bool), int8, uint8, int32,
// uint32, int64, uint64, float16, bfloat16, float32, float64, and complex64/complex128 for sum
// and avg (as pairs of floats); int16/uint16 and other dtypes are TypeError. Broadcast,
// all_gather, send and recv move any dtype (as bytes). Errors: ValueError for bad arguments
// (a rank, root or peer out of range, a wrong size, an array on another device), TypeError for
// dtypes, CudaError("<nccl call> failed: <ncclResult> (...)") for what NCCL reports.
//
// NVLink multicast: cupp never sets NCCL_NVLS_ENABLE; on shared machines run with
// NCCL_NVLS_ENABLE=0 (cupp's NCCL tests and benches refuse to run without it). docs/distributed.md
// is the guide.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "cupp/ndarray.hpp"

namespace cupp::cuda::nccl {

// The bytes of an ncclUniqueId (NCCL_UNIQUE_ID_BYTES, 128).
inline constexpr std::size_t unique_id_bytes = 128;

// Whether libnccl could be loaded (never throws; loads it on the first call).
bool available() noexcept;
// Why it could not be ("" when available): each library name tried and dlopen's message.
std::string unavailable_reason();
// The path or name libnccl was loaded from ("" when unavailable).
std::string library_path();
// NCCL's version code, 10000 * major + 100 * minor + patch (22803 for 2.28.3); CudaError when
// NCCL is unavailable.
int get_version();
// A new unique id (ncclGetUniqueId) as its bytes, for rank 0 to hand to the other ranks.
std::vector<std::byte> get_unique_id();

// The reductions (CuPy's NCCL_SUM, NCCL_PROD, NCCL_MAX, NCCL_MIN, NCCL_AVG). avg divides the sum
// by the number of ranks (integers: truncated, as NCCL does).
enum class reduce_op { sum, prod, max, min, avg };
// "sum", "prod", "max", "min", "avg".
const char* to_string(reduce_op op) noexcept;

// NCCL's group calls: between group_start() and group_end() collectives and point-to-point calls
// are queued and launched together (send/recv pairs between ranks must be grouped, as must
// collectives of several ranks driven by one thread).
void group_start();
void group_end();

class Communicator {
 public:
  // Rank `rank` of `ndev` ranks that share `unique_id` (get_unique_id()'s bytes), on the current
  // device (ncclCommInitRank: blocks until every rank joined). ValueError for ndev < 1, a rank
  // outside [0, ndev) or an id that is not unique_id_bytes long. One thread making several ranks
  // (one per device) calls the constructors between group_start() and group_end().
  Communicator(int ndev, std::span<const std::byte> unique_id, int rank);
  // One communicator per device for one process (ncclCommInitAll): rank i on devices[i].
  static std::vector<Communicator> init_all(std::span<const int> devices);
  static std::vector<Communicator> init_all(std::initializer_list<int> devices) {
    return init_all(std::span<const int>(devices.begin(), devices.size()));
  }
  // The first n devices, 0 .. n-1.
  static std::vector<Communicator> init_all(int n);

  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  Communicator(const Communicator&) = delete;
  Communicator& operator=(const Communicator&) = delete;
  ~Communicator();  // ncclCommDestroy; errors are dropped

  int rank() const;    // ncclCommUserRank
  int size() const;    // ncclCommCount
  int device() const;  // ncclCommCuDevice
  bool is_destroyed() const noexcept { return comm_ == nullptr; }
  // Destroys (ncclCommDestroy) or aborts (ncclCommAbort: without waiting for pending work) now;
  // every later call but these two is ValueError.
  void destroy();
  void abort();
  // ncclCommGetAsyncError: throws CudaError when NCCL reports an asynchronous error.
  void check_async_error() const;

  // recv = op over the ranks of send (same size and dtype; recv may be send: in place).
  void all_reduce(const ndarray& send, const ndarray& recv, reduce_op op = reduce_op::sum);
  // recv (on root only; a null ndarray elsewhere) = op over the ranks of send.
  void reduce(const ndarray& send, const ndarray& recv, reduce_op op = reduce_op::sum, int root = 0);
  // recv = root's send (send may be a null ndarray on the other ranks).
  void broadcast(const ndarray& send, const ndarray& recv, int root = 0);
  // buffer = root's buffer, in place (ncclBcast).
  void broadcast(const ndarray& buffer, int root = 0);
  // recv (size() * send.size() elements) = every rank's send, in rank order.
  void all_gather(const ndarray& send, const ndarray& recv);
  // recv = block `rank()` (recv.size() elements) of op over the ranks of send
  // (size() * recv.size() elements).
  void reduce_scatter(const ndarray& send, const ndarray& recv, reduce_op op = reduce_op::sum);
  // Point to point: the peer's matching recv must have the same byte count (pair them in a group).
  void send(const ndarray& array, int peer);
  void recv(const ndarray& array, int peer);

  // The ncclComm_t, for calls cupp does not wrap.
  void* handle() const noexcept { return comm_; }

 private:
  Communicator() = default;
  void* comm_ = nullptr;  // ncclComm_t
  int rank_ = 0, size_ = 0, device_ = 0;
};

}  // namespace cupp::cuda::nccl
