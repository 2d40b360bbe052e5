// Where the time of cupp's matrix products goes, on the GPU machine (linalg/bench/README.md), and,
// with the argument `solvers`, the linalg part 2 paths side by side (solvers_main below):
//  - host time per call (medians of batches of back-to-back calls, the stream drained between
//    batches) of an empty RawKernel launch (the floor issue 24 measures against), a raw
//    cublasGemmEx and a raw cublasLtMatmul with a prepared algorithm on 64x64 float32, cupp::empty,
//    and cupp::matmul with out= and allocating, through cuBLASLt's cached plans and through
//    cublasGemmEx and through cupp's own small-product kernel (linalg::detail::set_gemm_path), and
//    the pieces of that path (the handle binding, gemm_into without the allocation);
//  - device time (CUDA-event medians) of the large bench problems both ways, and of the int8
//    path's steps (the whole matmul, the int32 GEMM alone is not separable: the whole and a float
//    GEMM of the same size for scale).
// Prints one line per figure; exits 0 without a GPU.
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cusolverDn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/linalg.hpp"
#include "cupp/ufunc.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/linalg_solvers.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "gemm.hpp"
#include "handles.hpp"
#include "solver_common.hpp"

namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
void check(cusolverStatus_t s, const char* what) {
  if (s != CUSOLVER_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: cuSOLVER status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: cuBLAS status %d\n", what, static_cast<int>(s));
    std::exit(1);
  }
}

double host_us(const std::function<void()>& call) {
  constexpr int warmup = 2000, batches = 40, batch = 500;
  for (int i = 0; i < warmup; ++i) call();
  check(cudaDeviceSynchronize(), "sync");
  std::vector<double> per_call;
  for (int b = 0; b < batches; ++b) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < batch; ++i) call();
    const auto stop = std::chrono::steady_clock::now();
    per_call.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / batch);
    check(cudaDeviceSynchronize(), "sync");
  }
  std::sort(per_call.begin(), per_call.end());
  return per_call[per_call.size() / 2];
}

double device_ms(const std::function<void()>& call, int reps) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  for (int i = 0; i < 3; ++i) call();
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(e0, nullptr), "record");
    call();
    check(cudaEventRecord(e1, nullptr), "record");
    check(cudaEventSynchronize(e1), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    t.push_back(ms);
  }
  check(cudaEventDestroy(e0), "event");
  check(cudaEventDestroy(e1), "event");
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// ---- `cupp_bench_linalg_host_path solvers [sections...]`: the linalg part 2 paths, each timed
// in one process (CUDA-event medians; every path synchronises at its one read, so the events
// bracket the whole call). Sections: chol, solve, lu, svd, blocked (default: all). Prints
//   device <routine>_<shape>_<path>_ms <median> [check ...]
// where the check is a residual (solve, inv, cholesky) or the largest singular-value difference
// from the first path's (svd); each path is named by the CUPP_LINALG_* values that select it
// (linalg/README.md); a path that throws prints "device <label> failed: <what>".
double median_ms(const std::function<void()>& call, int reps, int warmup = 1) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "event");
  check(cudaEventCreate(&e1), "event");
  const cudaStream_t stream = cupp::cuda::current_stream().handle();
  for (int i = 0; i < warmup; ++i) call();
  check(cudaStreamSynchronize(stream), "sync");
  std::vector<float> t;
  for (int i = 0; i < reps; ++i) {
    check(cudaEventRecord(e0, stream), "record");
    call();
    check(cudaEventRecord(e1, stream), "record");
    check(cudaEventSynchronize(e1), "sync");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, e0, e1), "elapsed");
    t.push_back(ms);
  }
  check(cudaEventDestroy(e0), "event");
  check(cudaEventDestroy(e1), "event");
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// A deterministic float64 fill in [-1, 1] of the given shape (no random module needed).
cupp::ndarray fill(std::initializer_list<std::int64_t> shape, double phase) {
  std::int64_t n = 1;
  for (std::int64_t v : shape) n *= v;
  return cupp::sin(cupp::arange(n, cupp::float64) * 0.7548776662466927 + phase).reshape(shape);
}

double max_abs(const cupp::ndarray& x) { return cupp::max(cupp::absolute(x)).item<double>(); }

// Runs one timed candidate; a candidate that throws (a path a cuSOLVER refuses, say) prints
// "device <label> failed: <what>" and the section goes on.
void attempt(const std::string& label, const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    std::printf("device %s failed: %s\n", label.c_str(), e.what());
  }
}

// Sets linalg path variables for a scope (set_path_override), back to auto after.
struct paths_scope {
  std::vector<std::string> names;
  paths_scope(std::initializer_list<std::pair<const char*, const char*>> vs) {
    for (const auto& [k, v] : vs) {
      cupp::linalg::detail::set_path_override(k, v);
      names.emplace_back(k);
    }
  }
  ~paths_scope() {
    for (const std::string& k : names) cupp::linalg::detail::set_path_override(k.c_str(), "auto");
  }
};

int solvers_main(int argc, char** argv) {
  namespace la = cupp::linalg;
  namespace ld = cupp::linalg::detail;
  std::vector<std::string> sections(argv, argv + argc);
  const auto want = [&](const char* s) {
    return sections.empty() || std::find(sections.begin(), sections.end(), s) != sections.end();
  };
  const int reps = std::getenv("LINALG_PATH_REPS") ? std::atoi(std::getenv("LINALG_PATH_REPS")) : 5;
  using kv = std::pair<const char*, const char*>;
  // Every line names its own path values: "auto" is cupp's choice by size, whatever the
  // environment says (CUPP_LINALG_STREAMS still applies).
  for (const char* v : {"CUPP_LINALG_LU", "CUPP_LINALG_INV", "CUPP_LINALG_SOLVE", "CUPP_LINALG_GETRF_ALG", "CUPP_LINALG_SVD",
                        "CUPP_LINALG_CHOLESKY", "CUPP_LINALG_COPY"})
    ld::set_path_override(v, "auto");
  if (want("chol")) {
    const std::int64_t n = 4096;
    const cupp::ndarray x = fill({n, n}, 0.1);
    const cupp::ndarray spd = cupp::matmul(x, x.T()) + cupp::eye(n, std::nullopt, 0, cupp::float64) * double(n);
    // cholesky's candidates: the default (lower mode on the column-major copy, one tiled transpose
    // kernel, the factor cut out in place), the same with cupp's assign and triu (CUPP_LINALG_COPY=
    // assign, the form before), CuPy's upper mode on the C-ordered copy, and upper=True.
    struct cand {
      const char* name;
      std::vector<kv> env;
    };
    for (const cand& c : {cand{"auto", {}}, cand{"assign", {kv{"CUPP_LINALG_COPY", "assign"}}},
                          cand{"upper-fill", {kv{"CUPP_LINALG_CHOLESKY", "upper-fill"}}}}) {
      attempt(std::string("cholesky_4096_") + c.name, [&] {
        for (const auto& [k, v] : c.env) ld::set_path_override(k, v);
        const double ms = median_ms([&] { const cupp::ndarray r = la::cholesky(spd); }, reps);
        const cupp::ndarray L = la::cholesky(spd);
        const double res = max_abs(cupp::matmul(L, cupp::swapaxes(L, 0, 1)) - spd) / max_abs(spd);
        const double up = max_abs(cupp::triu(L, 1));
        for (const auto& [k, v] : c.env) ld::set_path_override(k, "auto");
        std::printf("device cholesky_4096_%s_ms %.3f (residual %.2e, max |above the diagonal| %.1e)\n", c.name, ms, res, up);
      });
    }
    attempt("cholesky_4096_upper", [&] {
      const double ms = median_ms([&] { const cupp::ndarray r = la::cholesky(spd, {.upper = true}); }, reps);
      const cupp::ndarray U = la::cholesky(spd, {.upper = true});
      std::printf("device cholesky_4096_upper_ms %.3f (residual %.2e)\n", ms,
                  max_abs(cupp::matmul(cupp::swapaxes(U, 0, 1), U) - spd) / max_abs(spd));
    });
    // The pieces: the plain copy, the transposed one through assign and through colmajor_copy's
    // kernel, and Xpotrf alone in each fill mode (each mode's own workspace sizes).
    cupp::ndarray w = cupp::empty({n, n}, cupp::float64);
    std::printf("device copy_4096_ms %.3f\n", median_ms([&] { w.assign(spd); }, reps));
    std::printf("device transposed_copy_4096_assign_ms %.3f\n", median_ms([&] { w.swapaxes(0, 1).assign(spd); }, reps));
    std::printf("device transposed_copy_4096_kernel_ms %.3f\n",
                median_ms([&] { const cupp::ndarray c = ld::colmajor_copy(spd, cupp::float64); }, reps));
    const cupp::ndarray tc = ld::colmajor_copy(spd, cupp::float64);
    std::printf("device transposed_copy_4096_kernel_check %.1e (max |colmajor_copy - a^T| read C-ordered)\n",
                max_abs(tc - cupp::swapaxes(spd, 0, 1)));
    const ld::solver_binding& sb = ld::solver_on_current_stream(0);
    const cupp::ndarray info = cupp::zeros({1}, cupp::int32);
    for (cublasFillMode_t mode : {CUBLAS_FILL_MODE_UPPER, CUBLAS_FILL_MODE_LOWER}) {
      const char* name = mode == CUBLAS_FILL_MODE_UPPER ? "upper" : "lower";
      attempt(std::string("raw_Xpotrf_") + name, [&] {
        std::size_t db = 0, hb = 0;
        ld::check_cusolver(cusolverDnXpotrf_bufferSize(sb.handle, sb.params, mode, n, CUDA_R_64F, w.data(), n,
                                                       CUDA_R_64F, &db, &hb),
                           "cusolverDnXpotrf_bufferSize");
        cupp::cuda::Memory dw = ld::workspace(std::max<std::size_t>(db, 1), 0);
        std::vector<char> hw(std::max<std::size_t>(hb, 1));
        const double ms = median_ms([&] {
          w.assign(spd);
          ld::check_cusolver(cusolverDnXpotrf(sb.handle, sb.params, mode, n, CUDA_R_64F, w.data(), n, CUDA_R_64F,
                                              dw.ptr(), db, hb ? hw.data() : nullptr, hb, static_cast<int*>(info.data())),
                             "cusolverDnXpotrf");
          static_cast<void>(info.to_vector<int>());
        }, reps);
        std::printf("device raw_Xpotrf_%s_4096_ms %.3f (with a plain copy and the info read; info %d; workspace %zu B)\n",
                    name, ms, info.to_vector<int>()[0], db);
      });
    }
  }
  if (want("solve")) {
    const std::int64_t n = 4096;
    const cupp::ndarray a = fill({n, n}, 0.2) + cupp::eye(n, std::nullopt, 0, cupp::float64) * 8.0;
    const cupp::ndarray b = fill({n, 1}, 0.3);
    // solve's candidates: the default (one matrix of 512 and more: colmajor), the C-ordered copy
    // scanned for NaN in the same pass with Xgetrs's transpose flag (rowmajor), PyTorch's form (a
    // column-major copy, Xgetrs without it: colmajor), cuSOLVER's other Xgetrf algorithm, and the
    // copy and NaN scan as two passes (the form before).
    struct cand {
      const char* name;
      std::vector<kv> env;
    };
    for (const cand& c : {cand{"auto", {}}, cand{"rowmajor", {kv{"CUPP_LINALG_SOLVE", "rowmajor"}}},
                          cand{"colmajor", {kv{"CUPP_LINALG_SOLVE", "colmajor"}}},
                          cand{"alg1", {kv{"CUPP_LINALG_GETRF_ALG", "1"}}},
                          cand{"colmajor_alg1", {kv{"CUPP_LINALG_SOLVE", "colmajor"}, kv{"CUPP_LINALG_GETRF_ALG", "1"}}},
                          cand{"assign", {kv{"CUPP_LINALG_COPY", "assign"}}}}) {
      attempt(std::string("solve_4096_") + c.name, [&] {
        for (const auto& [k, v] : c.env) ld::set_path_override(k, v);
        const double ms = median_ms([&] { const cupp::ndarray x = la::solve(a, b); }, reps);
        const double res = max_abs(cupp::matmul(a, la::solve(a, b)) - b);
        for (const auto& [k, v] : c.env) ld::set_path_override(k, "auto");
        std::printf("device solve_4096_%s_ms %.3f (residual %.2e)\n", c.name, ms, res);
      });
    }
    // Raw Xgetrf + Xgetrs (nrhs 1) + the info read on each layout, no NaN scan: C-ordered copy
    // with the transpose flag, column-major copy without it.
    const ld::solver_binding& sb = ld::solver_on_current_stream(0);
    cupp::ndarray w = cupp::empty({n, n}, cupp::float64), piv = cupp::empty({n}, cupp::int64);
    cupp::ndarray info = cupp::zeros({1}, cupp::int32), x = cupp::empty({n}, cupp::float64);
    for (bool col : {false, true}) {
      attempt(col ? "raw_getrf_getrs_colmajor" : "raw_getrf_getrs_rowmajor", [&] {
        std::size_t db = 0, hb = 0;
        ld::check_cusolver(cusolverDnXgetrf_bufferSize(sb.handle, sb.params, n, n, CUDA_R_64F, w.data(), n, CUDA_R_64F,
                                                       &db, &hb),
                           "cusolverDnXgetrf_bufferSize");
        cupp::cuda::Memory dw = ld::workspace(std::max<std::size_t>(db, 1), 0);
        std::vector<char> hw(std::max<std::size_t>(hb, 1));
        const double ms = median_ms([&] {
          if (col)
            w.swapaxes(0, 1).assign(a);
          else
            w.assign(a);
          x.assign(b.reshape({n}));
          ld::check_cusolver(cusolverDnXgetrf(sb.handle, sb.params, n, n, CUDA_R_64F, w.data(), n,
                                              static_cast<std::int64_t*>(piv.data()), CUDA_R_64F, dw.ptr(), db,
                                              hb ? hw.data() : nullptr, hb, static_cast<int*>(info.data())),
                             "cusolverDnXgetrf");
          ld::check_cusolver(cusolverDnXgetrs(sb.handle, sb.params, col ? CUBLAS_OP_N : CUBLAS_OP_T, n, 1, CUDA_R_64F,
                                              w.data(), n, static_cast<const std::int64_t*>(piv.data()), CUDA_R_64F,
                                              x.data(), n, static_cast<int*>(info.data())),
                             "cusolverDnXgetrs");
          static_cast<void>(info.to_vector<int>());
        }, reps);
        const double res = max_abs(cupp::matmul(a, x) - b.reshape({n}));
        std::printf("device raw_getrf_getrs_%s_4096_ms %.3f (residual %.2e; the copy with cupp's assign)\n",
                    col ? "colmajor" : "rowmajor", ms, res);
      });
    }
    // cuSOLVER's legacy 32-bit entry points (cusolverDnDgetrf + Dgetrs, what PyTorch's looped
    // cuSOLVER path calls) on the C-ordered copy with the transpose flag, as PyTorch factors A^T.
    attempt("raw_legacy_getrf_getrs", [&] {
      const int ni = static_cast<int>(n);
      int lwork = 0;
      ld::check_cusolver(cusolverDnDgetrf_bufferSize(sb.handle, ni, ni, static_cast<double*>(w.data()), ni, &lwork),
                         "cusolverDnDgetrf_bufferSize");
      cupp::cuda::Memory dw = ld::workspace(std::max<std::size_t>(std::size_t(lwork) * sizeof(double), 1), 0);
      cupp::ndarray piv32 = cupp::empty({n}, cupp::int32);
      const double ms = median_ms([&] {
        w.assign(a);
        x.assign(b.reshape({n}));
        ld::check_cusolver(cusolverDnDgetrf(sb.handle, ni, ni, static_cast<double*>(w.data()), ni,
                                            static_cast<double*>(dw.ptr()), static_cast<int*>(piv32.data()),
                                            static_cast<int*>(info.data())),
                           "cusolverDnDgetrf");
        ld::check_cusolver(cusolverDnDgetrs(sb.handle, CUBLAS_OP_T, ni, 1, static_cast<const double*>(w.data()), ni,
                                            static_cast<const int*>(piv32.data()), static_cast<double*>(x.data()), ni,
                                            static_cast<int*>(info.data())),
                           "cusolverDnDgetrs");
        static_cast<void>(info.to_vector<int>());
      }, reps);
      const double res = max_abs(cupp::matmul(a, x) - b.reshape({n}));
      std::printf("device raw_legacy_getrf_getrs_rowmajor_4096_ms %.3f (residual %.2e; workspace %d doubles)\n", ms,
                  res, lwork);
    });
  }
  struct stack {
    std::int64_t count, n;
  };
  struct lu_cand {
    std::string name;
    std::vector<kv> env;
  };
  // solve and inv of the bench's three stacks on each candidate
  const auto lu_stacks = [&](const std::vector<lu_cand>& cands) {
    for (const stack& st : {stack{1000, 64}, stack{100, 256}, stack{20, 512}}) {
      // well conditioned, and with its rows reversed, so partial pivoting interchanges rows at
      // nearly every step as on the bench's random inputs (the unreversed matrix needs none, which
      // hid the cost of getrs's interchanges over inv's n right-hand sides)
      const cupp::ndarray a = cupp::ascontiguousarray(cupp::flip(
          fill({st.count, st.n, st.n}, 0.4) + cupp::eye(st.n, std::nullopt, 0, cupp::float64) * std::sqrt(double(st.n)),
          -2));
      const cupp::ndarray b = fill({st.count, st.n, 1}, 0.5);
      const std::string shape = std::to_string(st.count) + "x" + std::to_string(st.n);
      for (const lu_cand& c : cands) {
        attempt("lu_" + shape + "_" + c.name, [&] {
          for (const auto& [k, v] : c.env) ld::set_path_override(k, v);
          const double ts = median_ms([&] { const cupp::ndarray x = la::solve(a, b); }, reps);
          const double ti = median_ms([&] { const cupp::ndarray x = la::inv(a); }, reps);
          const double rs = max_abs(cupp::matmul(a, la::solve(a, b)) - b);
          const double ri = max_abs(cupp::matmul(a, la::inv(a)) - cupp::eye(st.n, std::nullopt, 0, cupp::float64));
          for (const auto& [k, v] : c.env) ld::set_path_override(k, "auto");
          std::printf("device solve_%s_%s_ms %.3f (residual %.2e)\n", shape.c_str(), c.name.c_str(), ts, rs);
          std::printf("device inv_%s_%s_ms %.3f (residual %.2e)\n", shape.c_str(), c.name.c_str(), ti, ri);
        });
        for (const auto& [k, v] : c.env) ld::set_path_override(k, "auto");
      }
    }
  };
  if (want("lu")) {
    // Each library LU path with solve and inv; for cuBLAS's batched LU, inv by getriBatched and
    // by getrsBatched against the identity; Xgetrf's ALG_1 on the side streams; the copy and NaN
    // scan as two passes (CUPP_LINALG_COPY=assign) on the default path. (cupp's blocked LU: the
    // section `blocked`, run last.)
    lu_stacks({
        {"auto", {}},
        {"batched", {kv{"CUPP_LINALG_LU", "batched"}}},
        {"batched_getri", {kv{"CUPP_LINALG_LU", "batched"}, kv{"CUPP_LINALG_INV", "getri"}}},
        {"batched_getrs", {kv{"CUPP_LINALG_LU", "batched"}, kv{"CUPP_LINALG_INV", "getrs"}}},
        {"batched_permuted", {kv{"CUPP_LINALG_LU", "batched"}, kv{"CUPP_LINALG_INV", "permuted"}}},
        {"loop", {kv{"CUPP_LINALG_LU", "loop"}}},
        {"streams", {kv{"CUPP_LINALG_LU", "streams"}}},
        {"streams_alg1", {kv{"CUPP_LINALG_LU", "streams"}, kv{"CUPP_LINALG_GETRF_ALG", "1"}}},
        {"auto_assign", {kv{"CUPP_LINALG_COPY", "assign"}}},
    });
  }
  if (want("svd")) {
    const auto svd_paths = [&](const cupp::ndarray& a, const std::string& shape, std::initializer_list<const char*> paths,
                               int nreps) {
      cupp::ndarray ref;
      for (const char* path : paths) {
        attempt("svd_" + shape + "_" + path, [&] {
          ld::set_path_override("CUPP_LINALG_SVD", path);
          ld::gesvdp_redone() = 0;
          ld::gesvdj_fallbacks() = 0;
          const double ms = median_ms([&] { const auto r = la::svd(a); }, nreps);
          const long long redone = static_cast<long long>(ld::gesvdp_redone());
          const long long fallbacks = static_cast<long long>(ld::gesvdj_fallbacks());
          const auto r = la::svd(a);
          ld::set_path_override("CUPP_LINALG_SVD", "auto");
          if (ref.is_null()) ref = r.S;
          const double ds = max_abs(r.S - ref) / max_abs(ref);
          const double rec = max_abs(cupp::matmul(r.U * r.S.expand_dims(-2), r.Vh) - a) / max_abs(a);
          std::printf("device svd_%s_%s_ms %.1f (S vs the first path's %.2e, reconstruction %.2e, Xgesvdp matrices "
                      "redone by Xgesvd %lld, gesvdj calls that fell back to Xgesvd %lld)\n",
                      shape.c_str(), path, ms, ds, rec, redone, fallbacks);
        });
        ld::set_path_override("CUPP_LINALG_SVD", "auto");
      }
    };
    svd_paths(fill({20, 512, 512}, 0.6), "20x512", {"gesvd", "auto", "gesvdp", "jacobi"}, std::min(reps, 2));  // gesvdj: turned off (svd.cpp)
    // One 4096^2 (the bench's single-matrix case): Xgesvd (CuPy's path), Xgesvdp (auto now).
    svd_paths(fill({4096, 4096}, 0.7), "4096", {"gesvd", "gesvdp", "auto"}, 1);
  }
  if (want("blocked")) {
    // cupp's blocked LU (last: a kernel of cupp's own), with inv by each of cuBLAS's solvers
    lu_stacks({
        {"blocked", {kv{"CUPP_LINALG_LU", "blocked"}}},
        {"blocked_getri", {kv{"CUPP_LINALG_LU", "blocked"}, kv{"CUPP_LINALG_INV", "getri"}}},
        {"blocked_getrs", {kv{"CUPP_LINALG_LU", "blocked"}, kv{"CUPP_LINALG_INV", "getrs"}}},
        {"blocked_permuted", {kv{"CUPP_LINALG_LU", "blocked"}, kv{"CUPP_LINALG_INV", "permuted"}}},
    });
  }
  return 0;
}

}  // namespace

// cuBLASLt's objects for an n x n x n product of one type (square, column-major, no transposes),
// with a preference bounded by `workspace` bytes; destroyed with the object.
struct lt_square {
  cublasLtHandle_t lt = nullptr;
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t layout = nullptr;
  cublasLtMatmulPreference_t pref = nullptr;
  lt_square(cublasComputeType_t compute, cudaDataType type, std::int64_t n, std::uint64_t workspace) {
    check(cublasLtCreate(&lt), "cublasLtCreate");
    check(cublasLtMatmulDescCreate(&desc, compute, type), "cublasLtMatmulDescCreate");
    check(cublasLtMatrixLayoutCreate(&layout, type, n, n, n), "cublasLtMatrixLayoutCreate");
    check(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    check(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                               sizeof(workspace)),
          "cublasLtMatmulPreferenceSetAttribute");
  }
  lt_square(const lt_square&) = delete;
  lt_square& operator=(const lt_square&) = delete;
  ~lt_square() {
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(layout);
    cublasLtMatmulDescDestroy(desc);
    cublasLtDestroy(lt);
  }
};

// ---- `cupp_bench_linalg_host_path dgemm`: float64 8192^3 on non-constant operands (a GEMM's
// power draw, so its clock, depends on the values: ones run faster than the bench's hash fill),
// through cublasDgemm, cublasGemmEx and each of cuBLASLt's heuristic answers, all with cupp's
// workspace size; one line per path, `device dgemm_8192_<path>_ms <median> (<TFLOP/s>)`.
int dgemm_main() {
  constexpr std::int64_t n = 8192;
  const cupp::ndarray x = fill({n, n}, 0.1), y = fill({n, n}, 0.2), z = cupp::empty({n, n}, cupp::float64);
  const double flops = 2.0 * static_cast<double>(n) * n * n, one = 1.0, zero = 0.0;
  const int ni = static_cast<int>(n);
  const auto* px = static_cast<const double*>(x.data());
  const auto* py = static_cast<const double*>(y.data());
  auto* pz = static_cast<double*>(z.data());
  const auto report = [&](const std::string& path, double ms) {
    std::printf("device dgemm_8192_%s_ms %.4f (%.1f TFLOP/s)\n", path.c_str(), ms, flops / ms * 1e-9);
  };
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  void* ws = nullptr;
  const std::size_t ws_bytes = cupp::linalg::detail::workspace_bytes;
  check(cudaMalloc(&ws, ws_bytes), "cudaMalloc");
  check(cublasSetWorkspace(h, ws, ws_bytes), "cublasSetWorkspace");
  report("cupp_matmul", device_ms([&] { cupp::matmul(x, y, {.out = z}); }, 10));
  report("dgemm", device_ms([&] {
           check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, py, ni, px, ni, &zero, pz, ni), "Dgemm");
         }, 10));
  report("gemmex", device_ms([&] {
           check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, py, CUDA_R_64F, ni, px, CUDA_R_64F, ni,
                              &zero, pz, CUDA_R_64F, ni, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT),
                 "GemmEx");
         }, 10));
  const lt_square setup(CUBLAS_COMPUTE_64F, CUDA_R_64F, n, ws_bytes);
  cublasLtHandle_t lt = setup.lt;
  cublasLtMatmulDesc_t desc = setup.desc;
  cublasLtMatrixLayout_t l = setup.layout;
  cublasLtMatmulPreference_t pref = setup.pref;
  constexpr int wanted = 12;
  cublasLtMatmulHeuristicResult_t results[wanted] = {};
  int found = 0;
  check(cublasLtMatmulAlgoGetHeuristic(lt, desc, l, l, l, l, pref, wanted, results, &found), "heuristic");
  for (int i = 0; i < found; ++i) {
    if (results[i].state != CUBLAS_STATUS_SUCCESS) continue;
    int tile = 0, stages = 0, splitk = 0;
    std::size_t written = 0;
    cublasLtMatmulAlgoConfigGetAttribute(&results[i].algo, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile), &written);
    cublasLtMatmulAlgoConfigGetAttribute(&results[i].algo, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stages, sizeof(stages), &written);
    cublasLtMatmulAlgoConfigGetAttribute(&results[i].algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &splitk, sizeof(splitk), &written);
    const double ms = device_ms([&] {
      check(cublasLtMatmul(lt, desc, &one, py, l, px, l, &zero, pz, l, pz, l, &results[i].algo, ws, ws_bytes, nullptr),
            "cublasLtMatmul");
    }, 10);
    report("lt" + std::to_string(i) + "_tile" + std::to_string(tile) + "_stages" + std::to_string(stages) + "_splitk" +
               std::to_string(splitk) + "_ws" + std::to_string(results[i].workspaceSize),
           ms);
  }
  // Beyond the heuristic: every algorithm id with each tile and stages choice it reports (at most
  // `budget` configurations, each checked by cublasLtMatmulAlgoCheck), timed on the same operands.
  {
    constexpr int max_ids = 64;
    int ids[max_ids] = {}, nids = 0;
    check(cublasLtMatmulAlgoGetIds(lt, CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F,
                                   max_ids, ids, &nids),
          "cublasLtMatmulAlgoGetIds");
    int tried = 0, budget = 160;
    double best = 1e30;
    std::string best_name;
    for (int a = 0; a < nids && tried < budget; ++a) {
      cublasLtMatmulAlgo_t algo{};
      if (cublasLtMatmulAlgoInit(lt, CUBLAS_COMPUTE_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F,
                                 ids[a], &algo) != CUBLAS_STATUS_SUCCESS)
        continue;
      const auto list = [&](cublasLtMatmulAlgoCapAttributes_t cap) {
        std::size_t bytes = 0;
        cublasLtMatmulAlgoCapGetAttribute(&algo, cap, nullptr, 0, &bytes);
        std::vector<std::uint32_t> v(bytes / sizeof(std::uint32_t));
        if (!v.empty()) cublasLtMatmulAlgoCapGetAttribute(&algo, cap, v.data(), bytes, &bytes);
        if (v.empty()) v.push_back(0);
        return v;
      };
      const std::vector<std::uint32_t> tiles = list(CUBLASLT_ALGO_CAP_TILE_IDS), stages = list(CUBLASLT_ALGO_CAP_STAGES_IDS);
      for (std::uint32_t tile : tiles)
        for (std::uint32_t stage : stages) {
          if (tried >= budget) break;
          cublasLtMatmulAlgo_t c = algo;
          cublasLtMatmulAlgoConfigSetAttribute(&c, CUBLASLT_ALGO_CONFIG_TILE_ID, &tile, sizeof(tile));
          cublasLtMatmulAlgoConfigSetAttribute(&c, CUBLASLT_ALGO_CONFIG_STAGES_ID, &stage, sizeof(stage));
          cublasLtMatmulHeuristicResult_t r{};
          if (cublasLtMatmulAlgoCheck(lt, desc, l, l, l, l, &c, &r) != CUBLAS_STATUS_SUCCESS || r.workspaceSize > ws_bytes)
            continue;
          ++tried;
          const double ms = device_ms([&] {
            check(cublasLtMatmul(lt, desc, &one, py, l, px, l, &zero, pz, l, pz, l, &c, ws, ws_bytes, nullptr),
                  "cublasLtMatmul");
          }, 2);
          const std::string name = "id" + std::to_string(ids[a]) + "_tile" + std::to_string(tile) + "_stages" +
                                   std::to_string(stage);
          if (ms < best) best = ms, best_name = name;
          if (ms < 21.0) report("search_" + name, ms);
        }
    }
    std::printf("device dgemm_8192_search tried=%d of %d ids best=%s %.4f ms\n", tried, nids, best_name.c_str(), best);
  }
  report("cupp_matmul_again", device_ms([&] { cupp::matmul(x, y, {.out = z}); }, 10));
  check(cudaFree(ws), "cudaFree");
  check(cublasDestroy(h), "cublasDestroy");
  return 0;
}

int main(int argc, char** argv) {
  if (!cupp::cuda::is_available()) {
    std::puts("linalg host_path: no CUDA device; nothing to measure");
    return 0;
  }
  using cupp::linalg::detail::gemm_path;
  using cupp::linalg::detail::set_gemm_path;
  const auto set_lt_enabled = [](bool lt) { set_gemm_path(lt ? gemm_path::lt : gemm_path::gemmex); };
  if (argc > 1 && std::string(argv[1]) == "solvers") return solvers_main(argc - 2, argv + 2);
  if (argc > 1 && std::string(argv[1]) == "dgemm") return dgemm_main();
  cupp::cuda::RawKernel empty(R"(extern "C" __global__ void empty() {})", "empty");
  const double t_empty = host_us([&] { empty({1}, {1}); });
  std::printf("host empty_launch_us %.3f\n", t_empty);

  // Raw cuBLAS on 64x64 float32 (legacy default stream, as cupp's default).
  const int n = 64;
  const cupp::ndarray a = cupp::ones({n, n}, cupp::float32), b = cupp::ones({n, n}, cupp::float32);
  const cupp::ndarray c = cupp::zeros({n, n}, cupp::float32);
  cublasHandle_t h = nullptr;
  check(cublasCreate(&h), "cublasCreate");
  void* ws = nullptr;
  const std::size_t ws_bytes = std::size_t{32} << 20;
  check(cudaMalloc(&ws, ws_bytes), "cudaMalloc");
  check(cublasSetWorkspace(h, ws, ws_bytes), "cublasSetWorkspace");
  const float one = 1, zero = 0;
  const double t_gemmex = host_us([&] {
    check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.data(), CUDA_R_32F, n, a.data(), CUDA_R_32F, n,
                       &zero, c.data(), CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
          "cublasGemmEx");
  });
  std::printf("host raw_cublasGemmEx_64_us %.3f (%.2fx empty)\n", t_gemmex, t_gemmex / t_empty);
  const double t_sgemm = host_us([&] {
    check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, static_cast<const float*>(b.data()), n,
                      static_cast<const float*>(a.data()), n, &zero, static_cast<float*>(c.data()), n),
          "cublasSgemm");
  });
  std::printf("host raw_cublasSgemm_64_us %.3f (%.2fx empty)\n", t_sgemm, t_sgemm / t_empty);
  const lt_square setup(CUBLAS_COMPUTE_32F, CUDA_R_32F, n, ws_bytes);
  cublasLtHandle_t lt = setup.lt;
  cublasLtMatmulDesc_t desc = setup.desc;
  cublasLtMatrixLayout_t la = setup.layout;
  cublasLtMatmulPreference_t pref = setup.pref;
  cublasLtMatmulHeuristicResult_t r{};
  int found = 0;
  check(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, la, la, la, pref, 1, &r, &found), "heuristic");
  const double t_lt = host_us([&] {
    check(cublasLtMatmul(lt, desc, &one, b.data(), la, a.data(), la, &zero, c.data(), la, c.data(), la, &r.algo, ws,
                         ws_bytes, nullptr),
          "cublasLtMatmul");
  });
  std::printf("host raw_cublasLtMatmul_64_us %.3f (%.2fx empty)\n", t_lt, t_lt / t_empty);
  const double t_alloc = host_us([&] { const cupp::ndarray e = cupp::empty({n, n}, cupp::float32); });
  std::printf("host cupp_empty_64x64_us %.3f\n", t_alloc);
  // The pieces of cupp's warm path: the handle binding (a comparison when the stream is the
  // same), gemm_into (the layout reading, the plan lookup and the library call, no allocation),
  // and the whole matmul with out= and allocating, through each gemm path.
  const double t_bind = host_us([&] { static_cast<void>(cupp::linalg::detail::blas_on_current_stream(0)); });
  std::printf("host cupp_blas_binding_us %.3f\n", t_bind);
  const std::pair<gemm_path, const char*> paths[] = {
      {gemm_path::lt, "lt"}, {gemm_path::gemmex, "gemmex"}, {gemm_path::kernel, "kernel"}};
  for (const auto& [path, how] : paths) {
    set_gemm_path(path);
    const double t_into = host_us([&] { cupp::linalg::detail::gemm_into(a, b, c); });
    const double t_out = host_us([&] { cupp::matmul(a, b, {.out = c}); });
    const double t_new = host_us([&] { const cupp::ndarray r2 = cupp::matmul(a, b); });
    std::printf("host cupp_gemm_into_64_%s_us %.3f (%.2fx empty)\n", how, t_into, t_into / t_empty);
    std::printf("host cupp_matmul_out_64_%s_us %.3f (%.2fx empty)\n", how, t_out, t_out / t_empty);
    std::printf("host cupp_matmul_64_%s_us %.3f (%.2fx empty)\n", how, t_new, t_new / t_empty);
    // the result against the float64 product of the same operands (all ones: exactly 64)
    const double v = cupp::matmul(a, b)(0, 0).item<float>();
    if (v != 64.0) std::printf("host cupp_matmul_64_%s WRONG: %g\n", how, v);
  }
  set_gemm_path(gemm_path::automatic);
  // Device time of the small product each way (one call, CUDA events).
  for (const auto& [path, how] : paths) {
    set_gemm_path(path);
    std::printf("device matmul_64_%s_ms %.4f\n", how, device_ms([&] { cupp::matmul(a, b, {.out = c}); }, 50));
  }
  set_gemm_path(gemm_path::automatic);

  // Large problems, both ways.
  struct big {
    const char* name;
    cupp::dtype type;
    std::int64_t size;
  };
  for (const big& p : {big{"float64_8192", cupp::float64, 8192}, big{"float32_8192", cupp::float32, 8192},
                       big{"float16_8192", cupp::float16, 8192}, big{"complex64_8192", cupp::complex64, 8192}}) {
    const cupp::ndarray x = cupp::ones({p.size, p.size}, p.type), y = cupp::ones({p.size, p.size}, p.type);
    const cupp::ndarray z = cupp::empty({p.size, p.size}, p.type);
    const double flops = (p.type.kind() == 'c' ? 8.0 : 2.0) * static_cast<double>(p.size) * p.size * p.size;
    for (bool use_lt : {true, false}) {
      set_lt_enabled(use_lt);
      const double ms = device_ms([&] { cupp::matmul(x, y, {.out = z}); }, 10);
      std::printf("device matmul_%s_%s_ms %.4f (%.1f TFLOP/s)\n", p.name, use_lt ? "lt" : "gemmex", ms,
                  flops / ms * 1e-9);
    }
  }
  set_lt_enabled(true);
  {
    const std::int64_t s = 4096;
    const cupp::ndarray x = cupp::ones({s, s}, cupp::int8), y = cupp::ones({s, s}, cupp::int8);
    const cupp::ndarray yf = ascontiguousarray(y.T()).T();  // already F-ordered: no copy in the int8 path
    const cupp::ndarray i32 = cupp::empty({s, s}, cupp::int32), i8 = cupp::empty({s, s}, cupp::int8);
    std::printf("device int8_4096_CC_ms %.4f\n", device_ms([&] { const cupp::ndarray r2 = cupp::matmul(x, y); }, 20));
    std::printf("device int8_4096_CF_ms %.4f\n", device_ms([&] { const cupp::ndarray r2 = cupp::matmul(x, yf); }, 20));
    std::printf("device int8_transpose_copy_ms %.4f\n",
                device_ms([&] { const cupp::ndarray t2 = ascontiguousarray(y.T()); }, 20));
    std::printf("device int32_to_int8_cast_ms %.4f\n",
                device_ms([&] { i8.assign(cupp::astype(i32, cupp::int8, cupp::casting::unsafe)); }, 20));
    // The raw int8 GEMM in the TN form cuBLAS's IMMA kernels take, into int32.
    const std::int32_t ione = 1, izero = 0;
    std::printf("device raw_int8_TN_gemm_ms %.4f\n", device_ms([&] {
                  check(cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, s, s, s, &ione, yf.data(), CUDA_R_8I, s, x.data(),
                                     CUDA_R_8I, s, &izero, i32.data(), CUDA_R_32I, s, CUBLAS_COMPUTE_32I,
                                     CUBLAS_GEMM_DEFAULT),
                        "cublasGemmEx int8");
                }, 20));
  }
  check(cudaFree(ws), "cudaFree");
  check(cublasDestroy(h), "cublasDestroy");
  return 0;
}
