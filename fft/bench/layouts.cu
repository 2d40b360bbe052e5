// The fft module's layout study (issue 26): raw cuFFT timings, without cupp, of the choices the
// engine makes for a transform along a non-last axis and for the norm factor. It prints one line
// per variant ("name shape ms ratio-to-reference"), CUDA-event medians after warm-up:
//   axis0: along axis 0 of a C-ordered rows x cols complex array, against the last-axis plan of
//     the same array: the strided plan (istride cols, idist 1, batch cols) out of place and in
//     place, the same plan run over column tiles of T columns (one plan of batch T, executions
//     over shifted pointers, so cuFFT's passes over one tile stay in L2), and a copy to the
//     transposed layout + a last-axis plan + a copy back.
//   axis0 rank-2: a rank-2 plan n = {rows, K} over K adjacent columns (inembed {rows, cols},
//     istride 1, idist K, batch cols / K) is F_rows (x) F_K; with a load callback that first mixes
//     each row's K neighbours by an inverse K-point DFT it computes the K column transforms
//     exactly. K = 2, 4, 8, 16, with the plain rank-2 plan (no callback) as its floor; and the
//     strided plan split into P = 2, 4, 8 plans over column blocks run in turn.
//   axis0 cupp kernel: fft/device/cupp/fft/columns.cuh (the engine's column FFT: one pass over
//     memory, a block per W adjacent columns, Stockham radix 16 through shared memory), for several
//     W, with its registers/spills, and checked against the strided cuFFT plan; and its pair form
//     (a cluster of two blocks per W columns, each the transform of every other row, combined
//     through distributed shared memory: W = 8 complex64 columns of 4096 points, 64-byte rows).
//   rows: batched contiguous rows by cupp's row kernel (the same passes, Rows; and its pipelined
//   form, CUPP_FFT_ROW_KERNEL=2), unscaled and with
//     the norm factor in its stores, beside cuFFT's plain plan and its literal-factor store callback.
//   scale: a transform and its norm factor, against the unnormalised transform: a separate scaling
//     kernel after it, and an LTO store callback (NVRTC -dlto, cufftXtSetJITCallback) that
//     multiplies as it stores; with the planning time of the first and later callback plans.
// Build (no CMake target: a study, not a test):
//   nvcc -O2 -std=c++17 -arch=sm_90 fft/bench/layouts.cu -o layouts -lcufft -lnvrtc
#include <cuda_runtime.h>
#include <cufft.h>
#include "../device/cupp/fft/columns.cuh"
#include <cufftXt.h>
#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <tuple>
#include <string>
#include <vector>

#define CK(x)                                                                                  \
  do {                                                                                         \
    auto r_ = (x);                                                                             \
    if (r_ != 0) {                                                                             \
      std::fprintf(stderr, "%s failed (%d) at line %d\n", #x, static_cast<int>(r_), __LINE__); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

static double median_ms(const std::function<void()>& f, int reps = 25) {
  for (int i = 0; i < 3; ++i) f();
  CK(cudaDeviceSynchronize());
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(a));
    f();
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CK(cudaGetLastError());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class T>
__global__ void scale_kernel(T* x, long long n, double s) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    x[i].x = x[i].x * s;
    x[i].y = x[i].y * s;
  }
}

__global__ void fill_kernel(float2* x, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    x[i] = make_float2(float((i * 2654435761ull) % 1000) * 1e-3f - 0.5f, float((i * 40503ull) % 997) * 1e-3f - 0.5f);
}

// The studies' input: fill_kernel's values, for complex64 on the device, for complex128 on the host
// (the same hash in double precision).
template <class C>
static void fill_input(C* x, long long total) {
  if constexpr (sizeof(C) == 16) {
    std::vector<C> h(total);
    for (long long i = 0; i < total; ++i)
      h[i] = cupp_fft_columns::cx<C>(((i * 2654435761ull) % 1000) * 1e-3 - 0.5, ((i * 40503ull) % 997) * 1e-3 - 0.5);
    CK(cudaMemcpy(x, h.data(), total * sizeof(C), cudaMemcpyHostToDevice));
  } else {
    fill_kernel<<<1024, 256>>>(reinterpret_cast<float2*>(x), total);
  }
}

template <class T>
__global__ void transpose_kernel(const T* in, T* out, long long rows, long long cols) {
  __shared__ T tile[32][33];
  const long long c = blockIdx.x * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const long long r = blockIdx.y * 32 + j;
    if (r < rows && c < cols) tile[j][threadIdx.x] = in[r * cols + c];
  }
  __syncthreads();
  const long long r2 = blockIdx.y * 32 + threadIdx.x;
  for (int j = threadIdx.y; j < 32; j += blockDim.y) {
    const long long c2 = blockIdx.x * 32 + j;
    if (r2 < rows && c2 < cols) out[c2 * rows + r2] = tile[threadIdx.x][j];
  }
}

static const char* scale_source =
    "__device__ void cupp_scale_c(void* out, unsigned long long i, float2 v, void* info, void*) {\n"
    "  const float s = *static_cast<const float*>(info);\n"
    "  static_cast<float2*>(out)[i] = make_float2(v.x * s, v.y * s);\n}\n"
    "__device__ void cupp_scale_z(void* out, unsigned long long i, double2 v, void* info, void*) {\n"
    "  const double s = *static_cast<const double*>(info);\n"
    "  static_cast<double2*>(out)[i] = make_double2(v.x * s, v.y * s);\n}\n";

static std::string ltoir(const char* source = scale_source) {
  nvrtcProgram p;
  CK(nvrtcCreateProgram(&p, source, "scale.cu", 0, nullptr, nullptr));
  const char* opts[] = {"-dlto", "-rdc=true", "-arch=compute_90"};
  if (nvrtcCompileProgram(p, 3, opts) != NVRTC_SUCCESS) {
    size_t n;
    nvrtcGetProgramLogSize(p, &n);
    std::string log(n, '\0');
    nvrtcGetProgramLog(p, log.data());
    std::fprintf(stderr, "%s\n", log.c_str());
    std::exit(1);
  }
  size_t n;
  CK(nvrtcGetLTOIRSize(p, &n));
  std::string ir(n, '\0');
  CK(nvrtcGetLTOIR(p, ir.data()));
  nvrtcDestroyProgram(&p);
  return ir;
}

struct plan_t {
  cufftHandle h = 0;
  void* work = nullptr;
  double plan_ms = 0;
  ~plan_t() {
    if (h) cufftDestroy(h);
    if (work) cudaFree(work);
  }
};

// One LTO callback to attach to a plan: its symbol, LTO-IR, type and caller_info.
struct callback_t {
  const char* name;
  const std::string* ir;
  cufftXtCallbackType type;
  void* info;
};

// A rank-1 plan: n points at stride `stride`, `batch` transforms `dist` apart (same layout in and
// out); with the scale store callback when `cb_info` is given, and with `extra` callbacks.
static plan_t* make_plan(long long n, long long stride, long long dist, long long batch, bool dbl, void* cb_info,
                         const std::string* ir, std::vector<callback_t> extra = {}) {
  auto* p = new plan_t;
  auto t0 = std::chrono::steady_clock::now();
  CK(cufftCreate(&p->h));
  CK(cufftSetAutoAllocation(p->h, 0));
  if (cb_info) {
    void* info = cb_info;
    CK(cufftXtSetJITCallback(p->h, dbl ? "cupp_scale_z" : "cupp_scale_c", ir->data(), ir->size(),
                             dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX, &info));
  }
  for (callback_t& c : extra) CK(cufftXtSetJITCallback(p->h, c.name, c.ir->data(), c.ir->size(), c.type, &c.info));
  long long nn[1] = {n}, emb[1] = {n};
  size_t ws = 0;
  const cudaDataType t = dbl ? CUDA_C_64F : CUDA_C_32F;
  if (const cufftResult r = cufftXtMakePlanMany(p->h, 1, nn, emb, stride, dist, t, emb, stride, dist, t, batch, &ws, t)) {
    std::printf("cufftXtMakePlanMany failed (%d): n %lld stride %lld dist %lld batch %lld%s\n", static_cast<int>(r), n,
                stride, dist, batch, cb_info || !extra.empty() ? " with callbacks" : "");
    delete p;
    return nullptr;
  }
  p->plan_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (ws) CK(cudaMalloc(&p->work, ws));
  if (ws) CK(cufftSetWorkArea(p->h, p->work));
  return p;
}

static void line(const char* what, const char* shape, double ms, double ref) {
  std::printf("%-34s %-14s %8.4f ms  %5.2fx\n", what, shape, ms, ms / ref);
  std::fflush(stdout);
}

static void axis0(long long rows, long long cols) {
  const long long total = rows * cols;
  float2 *x, *y, *t;
  CK(cudaMalloc(&x, total * 8));
  CK(cudaMalloc(&y, total * 8));
  CK(cudaMalloc(&t, total * 8));
  fill_kernel<<<1024, 256>>>(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld", rows, cols);
  const double copy = median_ms([&] { CK(cudaMemcpyAsync(y, x, total * 8, cudaMemcpyDeviceToDevice)); });
  std::unique_ptr<plan_t> last(make_plan(cols, 1, cols, rows, false, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(last->h, x, y, CUFFT_FORWARD)); });
  line("copy floor (memcpy d2d)", shape, copy, ref);
  line("last axis (reference)", shape, ref, ref);
  {
    std::unique_ptr<plan_t> p(make_plan(rows, cols, 1, cols, false, nullptr, nullptr));
    line("axis0 strided out of place", shape, median_ms([&] { CK(cufftXtExec(p->h, x, y, CUFFT_FORWARD)); }), ref);
    line("axis0 strided in place", shape, median_ms([&] { CK(cufftXtExec(p->h, y, y, CUFFT_FORWARD)); }), ref);
  }
  for (long long tile : {64LL, 128LL, 256LL, 512LL, 1024LL, 2048LL}) {
    if (tile >= cols || cols % tile) continue;
    std::unique_ptr<plan_t> p(make_plan(rows, cols, 1, tile, false, nullptr, nullptr));
    char what[64];
    std::snprintf(what, sizeof what, "axis0 tiles of %lld columns", tile);
    line(what, shape, median_ms([&] {
           for (long long c = 0; c < cols; c += tile) CK(cufftXtExec(p->h, x + c, y + c, CUFFT_FORWARD));
         }),
         ref);
  }
  {
    std::unique_ptr<plan_t> p(make_plan(rows, 1, rows, cols, false, nullptr, nullptr));
    const dim3 block(32, 8);
    line("axis0 transpose+last+transpose", shape, median_ms([&] {
           transpose_kernel<<<dim3((cols + 31) / 32, (rows + 31) / 32), block>>>(x, t, rows, cols);
           CK(cufftXtExec(p->h, t, t, CUFFT_FORWARD));
           transpose_kernel<<<dim3((rows + 31) / 32, (cols + 31) / 32), block>>>(t, y, cols, rows);
         }),
         ref);
    line("  (the transposed plan alone)", shape, median_ms([&] { CK(cufftXtExec(p->h, t, y, CUFFT_FORWARD)); }), ref);
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(t);
}

// A batch of `batch` n-point transforms (contiguous), double precision when dbl.
static void scale(long long n, long long batch, bool dbl, const std::string& ir, void* info) {
  const long long total = n * batch, item = dbl ? 16 : 8;
  void *x, *y;
  CK(cudaMalloc(&x, total * item));
  CK(cudaMalloc(&y, total * item));
  CK(cudaMemset(x, 0, total * item));
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld%s", batch, n, dbl ? " c128" : "");
  std::unique_ptr<plan_t> plain(make_plan(n, 1, n, batch, dbl, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(plain->h, x, y, CUFFT_FORWARD)); });
  line("scale: plain transform", shape, ref, ref);
  line("scale: transform + scaling kernel", shape, median_ms([&] {
         CK(cufftXtExec(plain->h, x, y, CUFFT_FORWARD));
         if (dbl) scale_kernel<<<1024, 256>>>(static_cast<double2*>(y), total, 0.5);
         else scale_kernel<<<1024, 256>>>(static_cast<float2*>(y), total, 0.5);
       }),
       ref);
  std::unique_ptr<plan_t> cb(make_plan(n, 1, n, batch, dbl, info, &ir));
  if (!cb) return;
  line("scale: store callback", shape, median_ms([&] { CK(cufftXtExec(cb->h, x, y, CUFFT_FORWARD)); }), ref);
  std::printf("%-34s %-14s plan %.1f ms (plain %.1f ms)\n", "scale: callback planning", shape, cb->plan_ms, plain->plan_ms);
  cudaFree(x);
  cudaFree(y);
}

// Callback variants of the norm on contiguous rows (batch x n complex64), against the plain
// transform: the store callback reading the factor from memory (the engine's), a store callback
// with the factor as a literal in its source, and a load callback scaling each input instead.
static void scale_variants(long long n, long long batch, void* info) {
  const long long total = n * batch;
  float2 *x, *y;
  CK(cudaMalloc(&x, total * 8));
  CK(cudaMalloc(&y, total * 8));
  fill_kernel<<<1024, 256>>>(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld", batch, n);
  static const std::string loaded = ltoir(), literal = ltoir(
      "__device__ void cupp_store_lit(void* out, unsigned long long i, float2 v, void*, void*) {\n"
      "  static_cast<float2*>(out)[i] = make_float2(v.x * 0.015625f, v.y * 0.015625f);\n}\n"
      "__device__ float2 cupp_load_lit(void* in, unsigned long long i, void*, void*) {\n"
      "  const float2 v = static_cast<const float2*>(in)[i];\n  return make_float2(v.x * 0.015625f, v.y * 0.015625f);\n}\n"
      "__device__ void cupp_store_plain(void* out, unsigned long long i, float2 v, void*, void*) {\n"
      "  static_cast<float2*>(out)[i] = v;\n}\n");
  std::unique_ptr<plan_t> plain(make_plan(n, 1, n, batch, false, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(plain->h, x, y, CUFFT_FORWARD)); });
  line("norm: plain transform", shape, ref, ref);
  struct variant {
    const char* what;
    const char* name;
    const std::string* ir;
    cufftXtCallbackType type;
    void* info;
  };
  for (const variant& v : {variant{"norm: store cb, factor in memory", "cupp_scale_c", &loaded, CUFFT_CB_ST_COMPLEX, info},
                           variant{"norm: store cb, literal factor", "cupp_store_lit", &literal, CUFFT_CB_ST_COMPLEX, nullptr},
                           variant{"norm: load cb, literal factor", "cupp_load_lit", &literal, CUFFT_CB_LD_COMPLEX, nullptr},
                           variant{"norm: store cb that only stores", "cupp_store_plain", &literal, CUFFT_CB_ST_COMPLEX, nullptr}}) {
    std::unique_ptr<plan_t> p(make_plan(n, 1, n, batch, false, nullptr, nullptr, {{v.name, v.ir, v.type, v.info}}));
    if (p) line(v.what, shape, median_ms([&] { CK(cufftXtExec(p->h, x, y, CUFFT_FORWARD)); }), ref);
  }
  // the same on the inverse (ifft rows: the backward norm 1/n)
  const double iref = median_ms([&] { CK(cufftXtExec(plain->h, x, y, CUFFT_INVERSE)); });
  std::unique_ptr<plan_t> p(make_plan(n, 1, n, batch, false, info, &loaded));
  if (p) line("norm: inverse, store cb", shape, median_ms([&] { CK(cufftXtExec(p->h, x, y, CUFFT_INVERSE)); }), iref);
  cudaFree(x);
  cudaFree(y);
}

// Which problems cuFFT plans a store callback for (CUFFT_NOT_SUPPORTED shows as a failed plan).
static void callback_support(void* info) {
  static const std::string ir = ltoir();
  for (auto [n, b] : std::vector<std::pair<long long, long long>>{
           {4099, 256}, {4099, 1}, {4099, 2}, {4097, 256}, {1021, 1024}, {127, 8192}, {131, 8192}, {3 * 5 * 7 * 11 * 13, 64}}) {
    std::unique_ptr<plan_t> p(make_plan(n, 1, n, b, false, info, &ir));
    std::printf("%-34s n %lld batch %lld: %s\n", "callback support", n, b, p ? "planned" : "refused");
  }
}

// Axis 0 of a C-ordered rows x cols complex64 array as a contiguous-layout plan (n = rows, idist
// rows, batch cols) whose load callback reads element i of transform b from in[i * cols + b] and
// whose store callback writes it to out[i * cols + b] (the real output in caller_info; the
// plan's own output is a scratch array for whatever cuFFT keeps between its kernels): the
// single-pass row kernels over strided columns, the L2 absorbing the strided reads.
static void axis0_callbacks(long long rows, long long cols) {
  const long long total = rows * cols;
  float2 *x, *y, *scratch;
  CK(cudaMalloc(&x, total * 8));
  CK(cudaMalloc(&y, total * 8));
  CK(cudaMalloc(&scratch, total * 8));
  fill_kernel<<<1024, 256>>>(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld", rows, cols);
  // The load and the store callback in separate LTO-IR modules (one module holding both, attached
  // twice, was refused with CUFFT_INVALID_VALUE on the H200: probably its symbols, defined twice).
  char lsrc[1024], src[2048];
  std::snprintf(lsrc, sizeof lsrc,
                "__device__ float2 cupp_tload(void* in, unsigned long long o, void*, void*) {\n"
                "  const unsigned long long b = o / %lldull, i = o - b * %lldull;\n"
                "  return static_cast<const float2*>(in)[i * %lldull + b];\n}\n",
                rows, rows, cols);
  std::snprintf(src, sizeof src,
                "__device__ void cupp_tstore(void*, unsigned long long o, float2 v, void* info, void*) {\n"
                "  const unsigned long long b = o / %lldull, i = o - b * %lldull;\n"
                "  static_cast<float2*>(info)[i * %lldull + b] = v;\n}\n"
                "__device__ void cupp_tstore_s(void*, unsigned long long o, float2 v, void* info, void*) {\n"
                "  const unsigned long long b = o / %lldull, i = o - b * %lldull;\n"
                "  static_cast<float2*>(info)[i * %lldull + b] = make_float2(v.x * 0.015625f, v.y * 0.015625f);\n}\n",
                rows, rows, cols, rows, rows, cols);
  const std::string ir = ltoir(src), lir = ltoir(lsrc);
  std::unique_ptr<plan_t> last(make_plan(cols, 1, cols, rows, false, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(last->h, x, y, CUFFT_FORWARD)); });
  std::unique_ptr<plan_t> strided(make_plan(rows, cols, 1, cols, false, nullptr, nullptr));
  line("axis0 strided (again)", shape, median_ms([&] { CK(cufftXtExec(strided->h, x, y, CUFFT_FORWARD)); }), ref);
  for (bool scaled : {false, true}) {
    std::unique_ptr<plan_t> p(make_plan(rows, 1, rows, cols, false, nullptr, nullptr,
                                        {{"cupp_tload", &lir, CUFFT_CB_LD_COMPLEX, nullptr},
                                         {scaled ? "cupp_tstore_s" : "cupp_tstore", &ir, CUFFT_CB_ST_COMPLEX, y}}));
    if (!p) continue;
    const double ms = median_ms([&] { CK(cufftXtExec(p->h, x, scratch, CUFFT_FORWARD)); });
    line(scaled ? "axis0 transposing callbacks + norm" : "axis0 transposing callbacks", shape, ms, ref);
    if (!scaled) {  // check it against the strided plan
      CK(cufftXtExec(strided->h, x, scratch, CUFFT_FORWARD));
      std::vector<float2> a(total), b(total);
      CK(cudaMemcpy(a.data(), scratch, total * 8, cudaMemcpyDeviceToHost));
      CK(cufftXtExec(p->h, x, scratch, CUFFT_FORWARD));
      CK(cudaMemcpy(b.data(), y, total * 8, cudaMemcpyDeviceToHost));
      double err = 0, mag = 0;
      for (long long k = 0; k < total; k += 97) {
        err = std::max(err, (double)std::abs(a[k].x - b[k].x) + std::abs(a[k].y - b[k].y));
        mag = std::max(mag, (double)std::abs(a[k].x) + std::abs(a[k].y));
      }
      std::printf("%-34s %-14s max |diff| %.3g of max %.3g\n", "  (against the strided plan)", shape, err, mag);
    }
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(scratch);
}

// The largest |a - b| and |a| over a device array pair (every 97th element), as a line.
template <class C>
static void compare(const char* what, const char* shape, const C* a_dev, const C* b_dev, long long total) {
  std::vector<C> a(total), b(total);
  CK(cudaMemcpy(a.data(), a_dev, total * sizeof(C), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), b_dev, total * sizeof(C), cudaMemcpyDeviceToHost));
  double err = 0, mag = 0;
  for (long long k = 0; k < total; k += 97) {
    err = std::max(err, std::abs((double)a[k].x - (double)b[k].x) + std::abs((double)a[k].y - (double)b[k].y));
    mag = std::max(mag, std::abs((double)a[k].x) + std::abs((double)a[k].y));
  }
  std::printf("%-34s %-14s max |diff| %.3g of max %.3g (%.2g)%s\n", what, shape, err, mag, err / mag,
              err / mag < (sizeof(C) == 8 ? 1e-5 : 1e-13) ? "" : "  MISMATCH");
  std::fflush(stdout);
}

// Axis 0 as a rank-2 plan over K adjacent columns with a premixing load callback (see the header).
static void axis0_rank2(long long rows, long long cols) {
  const long long total = rows * cols;
  float2 *x, *y, *ref_out;
  CK(cudaMalloc(&x, total * 8));
  CK(cudaMalloc(&y, total * 8));
  CK(cudaMalloc(&ref_out, total * 8));
  fill_kernel<<<1024, 256>>>(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld", rows, cols);
  std::unique_ptr<plan_t> last(make_plan(cols, 1, cols, rows, false, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(last->h, x, y, CUFFT_FORWARD)); });
  std::unique_ptr<plan_t> strided(make_plan(rows, cols, 1, cols, false, nullptr, nullptr));
  CK(cufftXtExec(strided->h, x, ref_out, CUFFT_FORWARD));
  // The strided plan split into P plans over column blocks (batch cols / P each), run in turn.
  for (long long P : {2LL, 4LL, 8LL}) {
    std::vector<std::unique_ptr<plan_t>> parts;
    for (long long q = 0; q < P; ++q) parts.emplace_back(make_plan(rows, cols, 1, cols / P, false, nullptr, nullptr));
    char what[64];
    std::snprintf(what, sizeof what, "axis0 split into %lld plans", P);
    line(what, shape, median_ms([&] {
           for (long long q = 0; q < P; ++q) CK(cufftXtExec(parts[q]->h, x + q * (cols / P), y + q * (cols / P), CUFFT_FORWARD));
         }),
         ref);
  }
  for (long long K : {2LL, 4LL, 8LL, 16LL}) {
    if (cols % K) continue;
    // z_k = (1/K) sum_j x_j exp(+2 pi i j k / K) over the K neighbours of the loaded element
    std::string src = "__device__ float2 cupp_premix(void* in, unsigned long long o, void*, void*) {\n";
    char buf[256];
    src += "  const float2 w[" + std::to_string(K) + "] = {";
    for (long long m = 0; m < K; ++m) {
      const double a = 2.0 * 3.14159265358979323846 * (double)m / (double)K;
      std::snprintf(buf, sizeof buf, "%s{%.9ef, %.9ef}", m ? ", " : "", std::cos(a) / K, std::sin(a) / K);
      src += buf;
    }
    std::snprintf(buf, sizeof buf,
                  "};\n  const unsigned k = (unsigned)(o %% %lldull);\n  const float2* p = static_cast<const float2*>(in) + (o - k);\n",
                  K);
    src += buf;
    src += "  float2 z = make_float2(0.f, 0.f);\n#pragma unroll\n  for (unsigned j = 0; j < " + std::to_string(K) +
           "u; ++j) {\n    const float2 v = p[j];\n    const float2 t = w[(j * k) % " + std::to_string(K) +
           "u];\n    z.x += v.x * t.x - v.y * t.y;\n    z.y += v.x * t.y + v.y * t.x;\n  }\n  return z;\n}\n";
    const std::string ir = ltoir(src.c_str());
    for (bool premix : {false, true}) {
      auto* p = new plan_t;
      std::unique_ptr<plan_t> owner(p);
      CK(cufftCreate(&p->h));
      CK(cufftSetAutoAllocation(p->h, 0));
      if (premix) {
        void* info = nullptr;
        if (const cufftResult r = cufftXtSetJITCallback(p->h, "cupp_premix", ir.data(), ir.size(), CUFFT_CB_LD_COMPLEX, &info)) {
          std::printf("axis0 rank-2 K=%lld premix: cufftXtSetJITCallback failed (%d)\n", K, (int)r);
          continue;
        }
      }
      long long n[2] = {rows, K}, emb[2] = {rows, cols};
      size_t ws = 0;
      if (const cufftResult r =
              cufftXtMakePlanMany(p->h, 2, n, emb, 1, K, CUDA_C_32F, emb, 1, K, CUDA_C_32F, cols / K, &ws, CUDA_C_32F)) {
        std::printf("axis0 rank-2 K=%lld%s: cufftXtMakePlanMany failed (%d)\n", K, premix ? " premix" : "", (int)r);
        continue;
      }
      if (ws) CK(cudaMalloc(&p->work, ws));
      if (ws) CK(cufftSetWorkArea(p->h, p->work));
      char what[64];
      std::snprintf(what, sizeof what, "axis0 rank-2 K=%lld%s", K, premix ? " + premix cb" : " (F_N x F_K)");
      line(what, shape, median_ms([&] { CK(cufftXtExec(p->h, x, y, CUFFT_FORWARD)); }), ref);
      if (premix) compare("  (premix against the strided plan)", shape, ref_out, y, total);
    }
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(ref_out);
}

// Axis 0 by cupp's column kernel (columns.cuh) with W columns a block, against the last-axis plan
// of the same array; checked against cuFFT's strided plan. `scale` 1, or the norm factor.
template <class C, int N, int W>
static void axis0_cupp(long long cols, double scale = 1.0) {
  using K = cupp_fft_columns::columns<C, N, W>;
  const bool dbl = sizeof(C) == 16;
  const long long rows = N, total = rows * cols;
  C *x, *y, *ref_out, *tw;
  CK(cudaMalloc(&x, total * sizeof(C)));
  CK(cudaMalloc(&y, total * sizeof(C)));
  CK(cudaMalloc(&ref_out, total * sizeof(C)));
  const int tw_count = cupp_fft_columns::twiddle_count(N);
  CK(cudaMalloc(&tw, tw_count * sizeof(C)));
  std::vector<C> table(tw_count);
  cupp_fft_columns::fill_twiddles(table.data(), N);
  CK(cudaMemcpy(tw, table.data(), tw_count * sizeof(C), cudaMemcpyHostToDevice));
  fill_input(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld%s", rows, cols, dbl ? " c128" : "");
  std::unique_ptr<plan_t> last(make_plan(cols, 1, cols, rows, dbl, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(last->h, x, y, CUFFT_FORWARD)); });
  std::unique_ptr<plan_t> strided(make_plan(rows, cols, 1, cols, dbl, nullptr, nullptr));
  const double strided_ms = median_ms([&] { CK(cufftXtExec(strided->h, x, ref_out, CUFFT_FORWARD)); });
  auto kernel = cupp_fft_columns::cupp_fft_columns<C, N, W>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, K::tile_bytes));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, K::threads, K::tile_bytes));
  const unsigned blocks = static_cast<unsigned>((cols + W - 1) / W);
  using real = cupp_fft_columns::real_t<C>;
  auto run = [&](const C* in, C* out, int inverse) {
    kernel<<<blocks, K::threads, K::tile_bytes>>>(in, out, cols, cols, 1, cols, 1, tw, real(scale), inverse);
  };
  char what[80];
  std::snprintf(what, sizeof what, "axis0 cupp kernel W=%d%s", W, scale != 1.0 ? " + norm" : "");
  line("axis0 strided (cuFFT, this shape)", shape, strided_ms, ref);
  line(what, shape, median_ms([&] { run(x, y, 0); }), ref);
  std::printf("%-34s %-14s %d threads, %d B shared, %d regs, %zu B local, %d blocks/SM\n", "  (kernel resources)", shape,
              K::threads, K::tile_bytes, attr.numRegs, attr.localSizeBytes, per_sm);
  CK(cudaGetLastError());
  if (scale == 1.0) {
    compare("  (cupp against the strided plan)", shape, ref_out, y, total);
    run(x, x, 0);  // in place
    compare("  (in place)", shape, ref_out, x, total);
  }
  cudaFree(x);
  cudaFree(y);
  cudaFree(ref_out);
  cudaFree(tw);
}

// Axis 0 by columns.cuh's pair form (cupp_fft_columns_pair: a cluster of two blocks per W adjacent
// columns, each the half-length transform of every other row, combined through distributed shared
// memory), so W = 8 complex64 columns (64-byte row segments), which one block's 4096-row tile
// cannot hold; checked against the strided plan.
template <class C, int N, int W>
static void axis0_cluster(long long cols, double scale = 1.0) {
  using P = cupp_fft_columns::pair<C, N, W>;
  const bool dbl = sizeof(C) == 16;
  const long long rows = N, total = rows * cols;
  C *x, *y, *ref_out, *tw;
  CK(cudaMalloc(&x, total * sizeof(C)));
  CK(cudaMalloc(&y, total * sizeof(C)));
  CK(cudaMalloc(&ref_out, total * sizeof(C)));
  CK(cudaMalloc(&tw, P::twiddle_entries() * sizeof(C)));
  std::vector<C> table(P::twiddle_entries());
  cupp_fft_columns::fill_pair_twiddles(table.data(), N);
  CK(cudaMemcpy(tw, table.data(), table.size() * sizeof(C), cudaMemcpyHostToDevice));
  fill_input(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%lld%s", rows, cols, dbl ? " c128" : "");
  std::unique_ptr<plan_t> last(make_plan(cols, 1, cols, rows, dbl, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(last->h, x, y, CUFFT_FORWARD)); });
  std::unique_ptr<plan_t> strided(make_plan(rows, cols, 1, cols, dbl, nullptr, nullptr));
  CK(cufftXtExec(strided->h, x, ref_out, CUFFT_FORWARD));
  auto kernel = cupp_fft_columns::cupp_fft_columns_pair<C, N, W>;
  if (cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, P::tile_bytes) != cudaSuccess) {
    std::printf("axis0 pair W=%d: no %d B of shared memory\n", W, P::tile_bytes);
    cudaGetLastError();
    return;
  }
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  const unsigned blocks = static_cast<unsigned>(2 * ((cols + W - 1) / W));
  using real = cupp_fft_columns::real_t<C>;
  auto run = [&] { kernel<<<blocks, P::threads, P::tile_bytes>>>(x, y, cols, cols, 1, cols, 1, tw, real(scale), 0); };
  run();
  if (const cudaError_t e = cudaDeviceSynchronize()) {
    std::printf("axis0 pair W=%d: %s\n", W, cudaGetErrorString(e));
    cudaGetLastError();
    return;
  }
  char what[80];
  std::snprintf(what, sizeof what, "axis0 cupp pair (cluster 2) W=%d%s", W, scale != 1.0 ? " + norm" : "");
  line(what, shape, median_ms(run), ref);
  std::printf("%-34s %-14s %d threads, %d B shared, %d regs, %zu B local\n", "  (kernel resources)", shape, P::threads,
              P::tile_bytes, attr.numRegs, attr.localSizeBytes);
  if (scale == 1.0) compare("  (pair against the strided plan)", shape, ref_out, y, total);
  cudaFree(x);
  cudaFree(y);
  cudaFree(ref_out);
  cudaFree(tw);
}

// The device's SM count.
static int prop_sms() {
  int sms = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  return sms;
}

// Batched contiguous rows by cupp's row kernel (columns.cuh with Rows, W rows a block) against the
// plain cuFFT row plan: unscaled, with the norm factor in its stores (what the engine uses for
// ortho / forward / the inverse's 1/n), and cuFFT's literal-factor store callback beside it.
template <class C, int N, int W>
static void rows_cupp(long long batch, double scale) {
  using K = cupp_fft_columns::columns<C, N, W, true>;
  const bool dbl = sizeof(C) == 16;
  const long long total = N * batch;
  C *x, *y, *ref_out, *tw;
  CK(cudaMalloc(&x, total * sizeof(C)));
  CK(cudaMalloc(&y, total * sizeof(C)));
  CK(cudaMalloc(&ref_out, total * sizeof(C)));
  const int tw_count = cupp_fft_columns::twiddle_count(N);
  CK(cudaMalloc(&tw, tw_count * sizeof(C)));
  std::vector<C> table(tw_count);
  cupp_fft_columns::fill_twiddles(table.data(), N);
  CK(cudaMemcpy(tw, table.data(), tw_count * sizeof(C), cudaMemcpyHostToDevice));
  fill_input(x, total);
  char shape[64];
  std::snprintf(shape, sizeof shape, "%lldx%d%s", batch, N, dbl ? " c128" : "");
  std::unique_ptr<plan_t> plain(make_plan(N, 1, N, batch, dbl, nullptr, nullptr));
  const double ref = median_ms([&] { CK(cufftXtExec(plain->h, x, ref_out, CUFFT_FORWARD)); });
  auto kernel = cupp_fft_columns::cupp_fft_columns<C, N, W, true>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, K::tile_bytes));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, K::threads, K::tile_bytes));
  const unsigned blocks = static_cast<unsigned>((batch + W - 1) / W);
  using real = cupp_fft_columns::real_t<C>;
  auto run = [&](const C* in, C* out, double s) {
    kernel<<<blocks, K::threads, K::tile_bytes>>>(in, out, batch, 1, N, 1, N, tw, real(s), 0);
  };
  line("rows: cuFFT plain (reference)", shape, ref, ref);
  char what[80];
  std::snprintf(what, sizeof what, "rows: cupp row kernel W=%d", W);
  line(what, shape, median_ms([&] { run(x, y, 1.0); }), ref);
  std::snprintf(what, sizeof what, "rows: cupp row kernel W=%d + norm", W);
  line(what, shape, median_ms([&] { run(x, y, scale); }), ref);
  std::printf("%-34s %-14s %d threads, %d B shared, %d regs, %zu B local, %d blocks/SM\n", "  (kernel resources)", shape,
              K::threads, K::tile_bytes, attr.numRegs, attr.localSizeBytes, per_sm);
  CK(cudaGetLastError());
  run(x, y, 1.0);
  compare("  (row kernel against cuFFT)", shape, ref_out, y, total);
  // The pipelined form (CUPP_FFT_ROW_KERNEL=2): a grid of the blocks that fit at once, each looping
  // over groups of rows with the next group's loads in flight (cp.async) while it transforms one;
  // __launch_bounds__ asking 3 blocks an SM (the engine's, complex64) and 2 (more registers, no spills).
  auto pipelined = [&](auto kernel, const char* name) {
    const int bytes = K::pipelined_bytes;
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
    cudaFuncAttributes pa;
    CK(cudaFuncGetAttributes(&pa, kernel));
    int fit = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, K::threads, bytes));
    const unsigned grid = std::min<unsigned>(blocks, static_cast<unsigned>(fit * prop_sms()));
    auto go = [&](double s) { kernel<<<grid, K::threads, bytes>>>(x, y, batch, 1, N, 1, N, tw, real(s), 0); };
    std::snprintf(what, sizeof what, "rows: pipelined W=%d %s + norm", W, name);
    line(what, shape, median_ms([&] { go(scale); }), ref);
    std::printf("%-34s %-14s %d threads, %d B shared, %d regs, %zu B local, %d blocks/SM, grid %u\n", "  (kernel resources)",
                shape, K::threads, bytes, pa.numRegs, pa.localSizeBytes, fit, grid);
    CK(cudaGetLastError());
    go(1.0);
    compare("  (pipelined rows against cuFFT)", shape, ref_out, y, total);
  };
  if (K::pipelined_bytes <= 227 * 1024) {
    pipelined(cupp_fft_columns::cupp_fft_rows_pipelined<C, N, W>, "engine's bounds");
    pipelined(cupp_fft_columns::cupp_fft_rows_pipelined<C, N, W, 2>, "2 blocks/SM bounds");
  }
  // cuFFT with the factor as a literal in its store callback (the engine's callback form)
  char src[512];
  if (dbl)
    std::snprintf(src, sizeof src, "__device__ void cupp_rows_lit(void* out, unsigned long long i, double2 v, void*, void*) {\n"
                  "  static_cast<double2*>(out)[i] = make_double2(v.x * %a, v.y * %a);\n}\n", scale, scale);
  else
    std::snprintf(src, sizeof src, "__device__ void cupp_rows_lit(void* out, unsigned long long i, float2 v, void*, void*) {\n"
                  "  static_cast<float2*>(out)[i] = make_float2(v.x * %af, v.y * %af);\n}\n", (double)(float)scale, (double)(float)scale);
  const std::string ir = ltoir(src);
  std::unique_ptr<plan_t> cb(make_plan(N, 1, N, batch, dbl, nullptr, nullptr,
                                       {{"cupp_rows_lit", &ir, dbl ? CUFFT_CB_ST_COMPLEX_DOUBLE : CUFFT_CB_ST_COMPLEX, nullptr}}));
  if (cb) line("rows: cuFFT + literal store cb", shape, median_ms([&] { CK(cufftXtExec(cb->h, x, y, CUFFT_FORWARD)); }), ref);
  cudaFree(x);
  cudaFree(y);
  cudaFree(ref_out);
  cudaFree(tw);
}

int main() {
  int dev = 0;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  std::printf("%s, L2 %d MiB, cuFFT ", prop.name, prop.l2CacheSize >> 20);
  int v = 0;
  cufftGetVersion(&v);
  std::printf("%d\n", v);
  // The axis-0 candidates first (issue 26's 1.2x): cupp's column kernel and the rank-2 premix.
  axis0_cupp<float2, 4096, 4>(4096);
  axis0_cluster<float2, 4096, 8>(4096);
  axis0_cluster<float2, 4096, 8>(4096, 1.0 / 64);
  axis0_cluster<float2, 4096, 4>(4096);
  axis0_cluster<double2, 4096, 4>(4096);
  axis0_cluster<float2, 2048, 16>(2048);
  axis0_cluster<float2, 1024, 16>(16384);
  axis0_cupp<float2, 4096, 2>(4096);
  axis0_cupp<float2, 4096, 4>(4096, 1.0 / 64);
  axis0_cupp<double2, 4096, 2>(4096);
  axis0_cupp<float2, 2048, 4>(2048);
  axis0_cupp<float2, 2048, 8>(2048);
  axis0_cupp<float2, 1024, 8>(16384);
  axis0_cupp<float2, 1024, 16>(16384);
  axis0_cupp<float2, 256, 16>(65536);
  axis0_cupp<float2, 4096, 4>(256);
  axis0_cupp<float2, 8192, 2>(8192);
  axis0_cupp<double2, 1024, 4>(4096);
  axis0_rank2(4096, 4096);
  // The norm on batched rows (issue 26's 1.15x): cupp's row kernel with the factor in its stores.
  rows_cupp<float2, 4096, 1>(4096, 1.0 / 64);
  rows_cupp<float2, 4096, 2>(4096, 1.0 / 64);
  rows_cupp<float2, 256, 16>(65536, 1.0 / 16);
  rows_cupp<float2, 1024, 4>(16384, 1.0 / 32);
  rows_cupp<double2, 4096, 1>(4096, 1.0 / 64);
  if (std::getenv("LAYOUTS_AXIS0_ONLY")) {
    std::printf("layouts: done (LAYOUTS_AXIS0_ONLY)\n");
    return 0;
  }
  for (auto [r, c] : std::vector<std::pair<long long, long long>>{
           {4096, 4096}, {8192, 8192}, {1024, 16384}, {4096, 256}})
    axis0(r, c);
  // axis 0 with the scale callback, strided and tiled (4096^2)
  const std::string ir = ltoir();
  float* sf;
  double* sd;
  CK(cudaMalloc(&sf, 4));
  CK(cudaMalloc(&sd, 8));
  const float hf = 0.5f;
  const double hd = 0.5;
  CK(cudaMemcpy(sf, &hf, 4, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(sd, &hd, 8, cudaMemcpyHostToDevice));
  for (auto [n, b, d] : std::vector<std::tuple<long long, long long, bool>>{{4096, 4096, false},
                                                                            {1LL << 24, 1, false},
                                                                            {256, 65536, false},
                                                                            {1LL << 20, 16, false},
                                                                            {4096, 4096, true}})
    scale(n, b, d, ir, d ? static_cast<void*>(sd) : static_cast<void*>(sf));
  {
    // axis 0 of 4096^2 with the callback: strided, and in tiles of 512 / 1024
    const long long rows = 4096, cols = 4096, total = rows * cols;
    float2 *x, *y;
    CK(cudaMalloc(&x, total * 8));
    CK(cudaMalloc(&y, total * 8));
    fill_kernel<<<1024, 256>>>(x, total);
    std::unique_ptr<plan_t> last(make_plan(cols, 1, cols, rows, false, nullptr, nullptr));
    const double ref = median_ms([&] { CK(cufftXtExec(last->h, x, y, CUFFT_FORWARD)); });
    std::unique_ptr<plan_t> s(make_plan(rows, cols, 1, cols, false, sf, &ir));
    if (s) line("axis0 strided + store callback", "4096x4096", median_ms([&] { CK(cufftXtExec(s->h, x, y, CUFFT_FORWARD)); }), ref);
    for (long long tile : {256LL, 512LL, 1024LL}) {
      std::unique_ptr<plan_t> p(make_plan(rows, cols, 1, tile, false, sf, &ir));
      if (!p) continue;
      char what[64];
      std::snprintf(what, sizeof what, "axis0 tiles %lld + store callback", tile);
      line(what, "4096x4096", median_ms([&] {
             for (long long c = 0; c < cols; c += tile) CK(cufftXtExec(p->h, x + c, y + c, CUFFT_FORWARD));
           }),
           ref);
    }
    cudaFree(x);
    cudaFree(y);
  }
  callback_support(sf);
  for (auto [b, n] : std::vector<std::pair<long long, long long>>{{4096, 4096}, {65536, 256}})
    scale_variants(n, b, sf);
  for (auto [r, c] : std::vector<std::pair<long long, long long>>{{4096, 4096}, {2048, 2048}, {8192, 8192}, {1024, 16384}})
    axis0_callbacks(r, c);
  std::printf("layouts: done\n");
  return 0;
}
