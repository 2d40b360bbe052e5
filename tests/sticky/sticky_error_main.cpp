// The sticky-error test, in its own process because it loses the CUDA context on purpose: a
// kernel writes through an invalid address; the synchronising call must throw CudaError naming
// cudaErrorIllegalAddress, every later cupp call must throw a CudaError that says the context is
// lost (sticky), and the destructors of live streams and events must run without throwing or
// crashing. Prints "SKIPPED: no CUDA device" and exits 0 without a GPU.
#include <cuda_runtime.h>

#include <cstdio>
#include <optional>
#include <string>

#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "compiler/nvrtc_program.hpp"

namespace {

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAILED", what.c_str());
  if (!ok) ++failures;
}

template <class F>
std::string cuda_error_of(F&& f) {
  try {
    f();
  } catch (const cupp::CudaError& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong exception type: ") + e.what();
  }
  return "";
}

}  // namespace

int main() {
  using namespace cupp::cuda;
  if (!is_available()) {
    std::printf("SKIPPED: no CUDA device\n");
    return 0;
  }
  const int arch = Device().compute_capability();
  const auto compiled = cupp::detail::nvrtc_compile(
      {.program_name = "sticky",
       .source = "extern \"C\" __global__ void poke(int* p) { *p = 1; }",
       .name_expressions = {},
       .arch = arch});
  cudaLibrary_t lib = nullptr;
  cudaKernel_t kernel = nullptr;
  if (cudaLibraryLoadData(&lib, compiled.binary.data(), nullptr, nullptr, 0, nullptr, nullptr, 0) != cudaSuccess ||
      cudaLibraryGetKernel(&kernel, lib, "poke") != cudaSuccess) {
    std::printf("FAILED: could not load the test kernel\n");
    return 1;
  }

  std::optional<Stream> stream = Stream::create();
  std::optional<Event> event = Event();
  int* bad = reinterpret_cast<int*>(0x10);  // never a valid device address
  void* args[] = {&bad};
  expect(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(1), dim3(1), args, 0, stream->handle()) ==
             cudaSuccess,
         "the faulting kernel launches");

  const std::string first = cuda_error_of([&] { stream->synchronize(); });
  expect(first.find("cudaErrorIllegalAddress") != std::string::npos, "synchronize reports the illegal address: " + first);

  const std::string later = cuda_error_of([&] { Stream::create(); });
  expect(later.find("sticky") != std::string::npos, "a later call says the context is lost: " + later);
  const std::string later2 = cuda_error_of([&] { Event().record(*stream); });
  expect(later2.find("sticky") != std::string::npos, "and so does the next: " + later2);
  bool available = true;
  try {
    available = cupp::cuda::is_available();
    expect(true, std::string("is_available() does not throw (") + (available ? "true" : "false") + ")");
  } catch (...) {
    expect(false, "is_available() threw");
  }

  // Destructors after the loss: no throw, no crash.
  stream.reset();
  event.reset();
  expect(true, "stream and event destructors ran");
  std::printf("%s\n", failures == 0 ? "PASSED" : "FAILED");
  return failures == 0 ? 0 : 1;
}
