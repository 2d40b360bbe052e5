// Example for docs/user-kernels.md, built and run by the tests (CTest `example_raw_kernel`, label
// gpu): a RawKernel and a template RawModule on device memory from cupp's pool, ElementwiseKernels
// (placeholders, given outputs, two outputs, the index `i` and raw parameters) and
// ReductionKernels (every axis, an axis tuple with keepdims, out=, a float64 accumulator). Every
// result is compared with the value computed on the host; a mismatch prints "FAILED: ..." and
// exits 1.
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/raw_kernel.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/cuda/stream.hpp>
#include <cupp/creation.hpp>
#include <cupp/elementwise_kernel.hpp>
#include <cupp/reduction_kernel.hpp>

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

bool fail(const char* what) {
  std::printf("FAILED: %s\n", what);
  return false;
}

template <class T>
bool same(const char* what, const cupp::ndarray& r, const std::vector<T>& want) {
  if (r.to_vector<T>() == want) return true;
  std::printf("FAILED: %s = %s\n", what, r.repr().c_str());
  return false;
}

// The host copy of n floats at device address p.
std::vector<float> download(const void* p, unsigned n) {
  std::vector<float> host(n);
  cudaMemcpy(host.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost);
  return host;
}

}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  bool ok = true;

  {  // RawKernel: one extern "C" kernel on device memory from cupp's pool.
    const unsigned n = 1 << 20;
    std::vector<float> host(n, 1.0f);
    const cupp::cuda::Memory memory = cupp::cuda::alloc(n * sizeof(float));
    cudaMemcpy(memory.ptr(), host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    float* ptr = static_cast<float*>(memory.ptr());

    // [snippet raw_kernel]
    using namespace cupp::cuda;
    RawKernel scale(R"(
      extern "C" __global__ void scale(float* x, float a, unsigned n) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] *= a;
      })", "scale", {.options = {"--use_fast_math"}});
    scale({(n + 255) / 256}, {256}, ptr, 3.0f, n);     // grid, block, then the arguments
    // [end snippet]

    host = download(ptr, n);
    if (host[0] != 3.0f || host[n - 1] != 3.0f) ok = fail("RawKernel scale: x[0], x[n-1] are not 3");
  }

  {  // RawModule: template kernels, launched on a stream of our own.
    using namespace cupp::cuda;
    const std::string source = R"(
      template <class T>
      __global__ void add_scalar(T* x, T v, unsigned n) {
        unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) x[i] += v;
      })";
    const unsigned n = 1000, blocks = (n + 255) / 256;
    const Memory memory = alloc(n * sizeof(float));
    cudaMemset(memory.ptr(), 0, n * sizeof(float));
    float* x = static_cast<float*>(memory.ptr());
    const Stream s = Stream::create();

    // [snippet raw_module]
    RawModule module(source, {.name_expressions = {"add_scalar<float>", "add_scalar<int>"}});
    module.get_function("add_scalar<float>").launch({.grid = {blocks}, .block = {256}, .stream = s}, x, 0.5f, n);
    // [end snippet]

    s.synchronize();
    const std::vector<float> host = download(x, n);
    if (host[0] != 0.5f || host[n - 1] != 0.5f) ok = fail("RawModule add_scalar<float>: x[0], x[n-1] are not 0.5");
  }

  {  // ElementwiseKernel: placeholders, a given output, two outputs.
    const cupp::ndarray x = cupp::asarray(std::vector<float>{1, 2, 3, 4});
    const cupp::ndarray y = cupp::asarray(std::vector<float>{10, 20, 30, 40});
    const cupp::ndarray out = cupp::zeros({4}, cupp::float32);
    const cupp::ndarray a = cupp::asarray(std::vector<std::int64_t>{7, 8, 9, 10});
    const cupp::ElementwiseKernel divmod_("T a, T b", "T q, T r", "q = a / b; r = a % b;", "divmod_");

    // [snippet elementwise]
    cupp::ElementwiseKernel axpy("T x, T y, float32 a", "T z", "z = a * x + y;", "axpy");
    cupp::ndarray z = axpy(x, y, 2.0f);        // z is allocated; T is the dtype of x and y
    axpy.call({x, y, 2.0f, out});              // into a given output
    auto qr = divmod_.call({a, 4});            // several outputs: call() returns them all
    // [end snippet]

    const std::vector<float> axpy_want{12, 24, 36, 48};
    ok = same("axpy(x, y, 2)", z, axpy_want) && same("axpy(x, y, 2, out)", out, axpy_want) &&
         (qr.size() == 2 || fail("divmod_ did not return two outputs")) &&
         same("divmod_(a, 4) quotients", qr[0], std::vector<std::int64_t>{1, 2, 2, 2}) &&
         same("divmod_(a, 4) remainders", qr[1], std::vector<std::int64_t>{3, 0, 1, 2}) && ok;
    if (z.dtype() != cupp::float32) ok = fail("axpy(x, y, 2) is not float32 (T is x's dtype)");
  }

  {  // The index i and raw parameters.
    const cupp::ndarray x = cupp::asarray(std::vector<float>{0, 1, 2, 3, 4, 5});
    const std::int64_t n = 6;
    const cupp::ndarray y = cupp::zeros({6}, cupp::float32);
    const cupp::ndarray out = cupp::zeros({6}, cupp::float32);

    // [snippet raw_params]
    cupp::ElementwiseKernel reverse("raw T x, int64 n", "T y", "y = x[n - 1 - i];", "reverse");
    reverse.call({x, n, y});                       // loop size from y
    auto r = reverse.call({x, n}, n);              // CuPy's size=: no non-raw array argument
    cupp::ElementwiseKernel scatter("T x", "raw T y", "y[_ind.size() - 1 - i] = x;", "scatter");
    scatter.call({x, out});                        // raw outputs must be given
    // [end snippet]

    const std::vector<float> reversed{5, 4, 3, 2, 1, 0};
    ok = same("reverse(x, n, y)", y, reversed) && (r.size() == 1 || fail("reverse did not return one output")) &&
         same("reverse(x, n, size=n)", r[0], reversed) && same("scatter(x, out)", out, reversed) && ok;
  }

  {  // ReductionKernel.
    const cupp::ndarray x = cupp::arange(0.0, 24.0, 1.0, cupp::float32).reshape({2, 3, 4});
    const cupp::ndarray out = cupp::zeros({2, 4}, cupp::float32);

    // [snippet reduction]
    cupp::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
    cupp::ndarray n = l2norm(x);                                    // every axis: a 0-d array
    cupp::ndarray r = l2norm(x, {.axis = {0, 2}, .keepdims = true});
    l2norm(x, {.axis = 1, .out = out});                             // into out (same_kind cast)
    cupp::ReductionKernel total("T x", "float32 y", "x", "a + b", "", "0", "total", "float64");
    // [end snippet]

    const cupp::ndarray t = total(x);
    // The host's values: x(i, j, k) = 12 i + 4 j + k.
    double all = 0, sum = 0;
    std::vector<double> by_j(3, 0), by_ik(8, 0);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) {
          const double v = 12.0 * i + 4.0 * j + k;
          all += v * v;
          sum += v;
          by_j[j] += v * v;
          by_ik[4 * i + k] += v * v;
        }
    auto near = [](const cupp::ndarray& got, const std::vector<double>& squares) {
      const std::vector<float> g = got.to_vector<float>();
      bool good = got.dtype() == cupp::float32 && g.size() == squares.size();
      for (std::size_t e = 0; good && e < g.size(); ++e)
        good = std::abs(g[e] - std::sqrt(squares[e])) <= 1e-5 * std::sqrt(squares[e]);
      return good;
    };
    if (n.ndim() != 0 || !near(n, {all})) ok = fail("l2norm(x) is not a 0-d sqrt(sum(x * x))");
    if (r.ndim() != 3 || r.shape()[0] != 1 || r.shape()[1] != 3 || r.shape()[2] != 1 || !near(r, by_j))
      ok = fail("l2norm(x, axis=(0, 2), keepdims=True) is wrong");
    if (!near(out, by_ik)) ok = fail("l2norm(x, axis=1, out=out) is wrong");
    if (t.dtype() != cupp::float32 || t.item<float>() != static_cast<float>(sum)) ok = fail("total(x) is not 276");
  }

  if (!ok) return 1;
  std::puts("ok");
  return 0;
}
