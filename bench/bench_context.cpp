// The floor under "process start to first result": a program with no cupp in it, linked with
// CUDA's static runtime like every cupp program, that only creates the CUDA context
// (cudaFree(nullptr)). Prints the milliseconds from START_NS (the launcher's CLOCK_REALTIME in
// ns) to the context being ready, and to main() being entered.
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const auto now_ns = [] {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const long long main_ns = now_ns();
  if (argc < 2) {
    std::fprintf(stderr, "usage: bench_context START_NS\n");
    return 2;
  }
  const long long start = std::atoll(argv[1]);
  const cudaError_t rc = cudaFree(nullptr);
  const long long ready_ns = now_ns();
  if (rc != cudaSuccess) {
    std::printf("no CUDA context: %s\n", cudaGetErrorName(rc));
    return 0;
  }
  std::printf("main_entered_ms %.3f\ncontext_ready_ms %.3f\n", (main_ns - start) / 1e6, (ready_ns - start) / 1e6);
  return 0;
}
