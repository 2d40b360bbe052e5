// Example for docs/distributed.md, built and run by the tests (CTest example_distributed, label
// gpu): one process per GPU, bootstrapped by an NCCL unique id that rank 0 writes to a shared
// file. Run without arguments, it starts one copy of itself per device (`--rank R --size N
// --id-file PATH`) and waits for them; each rank all_reduces a vector of its rank + 1 and checks
// the sum 1 + 2 + ... + N. Then, in this process, a block_array over every device (three blocks on
// device 0 where there is one GPU): a blockwise ufunc, its sum (local, then all_reduce) against
// cupp::sum of the whole array, and a gather. Skips without a device or without libnccl; refuses
// to run unless NCCL_NVLS_ENABLE=0 (NVLink multicast can take a shared host's GPUs out of service).
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <cupp/creation.hpp>
#include <cupp/cuda/nccl.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/distributed.hpp>
#include <cupp/reductions.hpp>
#include <cupp/ufunc.hpp>

namespace {

namespace nccl = cupp::cuda::nccl;

// [snippet bootstrap]
// Rank 0 makes the id and publishes it atomically (write, then rename); the others wait for it.
std::vector<std::byte> shared_unique_id(int rank, const std::string& path) {
  if (rank == 0) {
    const std::vector<std::byte> id = nccl::get_unique_id();
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char*>(id.data()), std::streamsize(id.size()));
    std::filesystem::rename(tmp, path);
    return id;
  }
  std::vector<std::byte> id(nccl::unique_id_bytes);
  for (int waited_ms = 0; !std::filesystem::exists(path); waited_ms += 10) {
    if (waited_ms > 60000) throw std::runtime_error("no unique id in " + path + " after 60 s");
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ifstream(path, std::ios::binary).read(reinterpret_cast<char*>(id.data()), std::streamsize(id.size()));
  return id;
}

int run_rank(int rank, int size, const std::string& id_file) {
  cupp::cuda::Device(rank).use();  // one GPU per process
  nccl::Communicator comm(size, shared_unique_id(rank, id_file), rank);
  cupp::ndarray x = cupp::full({1 << 20}, rank + 1, cupp::float32);
  comm.all_reduce(x, x, nccl::reduce_op::sum);  // in place, on the current stream
  const float expected = size * (size + 1) / 2.0f;
  // [end snippet]
  const float lo = cupp::min(x).item<float>(), hi = cupp::max(x).item<float>();
  std::printf("rank %d of %d on device %d: all_reduce gave %g..%g (expected %g)\n", rank, size, comm.device(), lo, hi,
              expected);
  return lo == expected && hi == expected ? 0 : 1;
}

int launch_ranks() {
  const int n = cupp::cuda::device_count();
  const std::string self = std::filesystem::read_symlink("/proc/self/exe");
  const std::string id_file = (std::filesystem::temp_directory_path() / ("cupp-nccl-id-" + std::to_string(getpid())));
  std::vector<pid_t> children;
  for (int r = 0; r < n; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {
      const std::string rank = std::to_string(r), size = std::to_string(n);
      execl(self.c_str(), self.c_str(), "--rank", rank.c_str(), "--size", size.c_str(), "--id-file", id_file.c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    if (pid < 0) {
      std::perror("fork");
      return 1;
    }
    children.push_back(pid);
  }
  int failed = 0;
  for (pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) ++failed;
  }
  std::filesystem::remove(id_file);
  std::printf("%d rank process%s, %d failed\n", n, n == 1 ? "" : "es", failed);
  return failed == 0 ? 0 : 1;
}

int block_array_demo() {
  const int count = cupp::cuda::device_count();
  std::vector<int> devices;
  for (int d = 0; d < count; ++d) devices.push_back(d);
  if (count == 1) devices = {0, 0, 0};
  const cupp::ndarray a = cupp::arange(0, 1000003, 1, cupp::int64);
  // [snippet block_array]
  namespace dist = cupp::distributed;
  dist::block_array x = dist::block_array::distribute(a, devices);  // array_split's blocks
  dist::block_array y = dist::apply(cupp::multiply, x, 3);          // on each block's device
  cupp::ndarray total = dist::sum(y);                               // local sums, then all_reduce
  cupp::ndarray back = y.gather(0);                                 // the whole array on device 0
  // [end snippet]
  const std::int64_t expected = cupp::sum(cupp::multiply(a, 3)).item<std::int64_t>();
  const bool ok = total.item<std::int64_t>() == expected && back.size() == a.size() &&
                  cupp::all(cupp::equal(back, cupp::multiply(a, 3))).item<bool>();
  std::printf("block_array over %zu blocks: sum %lld (expected %lld), gather %s\n", devices.size(),
              static_cast<long long>(total.item<std::int64_t>()), static_cast<long long>(expected),
              ok ? "equal" : "DIFFERS");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  if (nvls == nullptr || std::strcmp(nvls, "0") != 0) {
    std::puts("refusing to run: set NCCL_NVLS_ENABLE=0 (NVLink multicast can take a shared host's GPUs out of service)");
    return 1;
  }
  if (!nccl::available()) {
    std::printf("SKIPPED: NCCL is not available: %s\n", nccl::unavailable_reason().c_str());
    return 0;
  }
  try {
    if (argc == 7 && std::strcmp(argv[1], "--rank") == 0)
      return run_rank(std::atoi(argv[2]), std::atoi(argv[4]), argv[6]);
    return launch_ranks() | block_array_demo();
  } catch (const std::exception& e) {
    std::printf("FAILED: %s\n", e.what());
    return 1;
  }
}
