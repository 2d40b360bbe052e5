// The batched matrix product under every product routine (gemm.hpp has the contract): operand
// layouts read as cuBLAS's transpose flags and leading dimensions, batch dimensions collapsed
// into one strided batch (the rest looped on the host), a stack times one matrix folded into one
// GEMM, and the dispatch by dtype to cuBLAS (floats, complex, int8 -> int32) or the generic
// NVRTC kernel (bool and the other integers).
#include "gemm.hpp"

#include <cuComplex.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/ufunc.hpp"
#include "handles.hpp"
#include "linalg_device_headers.hpp"

namespace cupp::linalg::detail {

namespace {

using i64 = std::int64_t;

// A matrix as BLAS reads it: row-major (C order) or column-major, with its leading dimension,
// all in elements.
struct blas_layout {
  bool row_major = true;
  i64 ld = 1;
};

// How cuBLAS can read a rows x cols matrix with element strides (sr, sc), if it can: unit stride
// along one axis and a leading dimension at least that axis's length. A length-1 axis takes any
// stride. Negative or non-unit inner strides cannot be described.
std::optional<blas_layout> layout_of(i64 rows, i64 cols, i64 sr, i64 sc) {
  if ((cols <= 1 || sc == 1) && (rows <= 1 || sr >= std::max<i64>(cols, 1)))
    return blas_layout{true, rows <= 1 ? std::max<i64>(cols, 1) : sr};
  if ((rows <= 1 || sr == 1) && (cols <= 1 || sc >= std::max<i64>(rows, 1)))
    return blas_layout{false, cols <= 1 ? std::max<i64>(rows, 1) : sc};
  return std::nullopt;
}

// Element strides, inline up to eight dimensions (no heap allocation on the hot path).
class elem_strides {
 public:
  explicit elem_strides(int n) : n_(n) {
    if (n > static_cast<int>(small_.size())) big_.resize(static_cast<std::size_t>(n));
  }
  i64* data() noexcept { return n_ > static_cast<int>(small_.size()) ? big_.data() : small_.data(); }
  const i64* data() const noexcept { return n_ > static_cast<int>(small_.size()) ? big_.data() : small_.data(); }
  i64 operator[](int i) const noexcept { return data()[i]; }
  operator std::span<const i64>() const noexcept { return {data(), static_cast<std::size_t>(n_)}; }  // NOLINT

 private:
  std::array<i64, 8> small_{};
  std::vector<i64> big_;
  int n_ = 0;
};

// Element strides of x, or nullopt when a byte stride is not a multiple of the itemsize.
std::optional<elem_strides> element_strides(const ndarray& x) {
  const int nd = x.ndim();
  std::optional<elem_strides> out(std::in_place, nd);
  i64* s = out->data();
  const i64 size = static_cast<i64>(x.itemsize());
  const auto st = x.strides();
  for (int d = 0; d < nd; ++d) {
    if (st[d] % size != 0) return std::nullopt;
    s[d] = st[d] / size;
  }
  return out;
}

std::optional<blas_layout> matrix_layout(const ndarray& x) {
  const int nd = x.ndim();
  const i64 size = static_cast<i64>(x.itemsize());
  const i64 sr = x.strides()[nd - 2], sc = x.strides()[nd - 1];
  if (sr % size != 0 || sc % size != 0) return std::nullopt;
  return layout_of(x.shape()[nd - 2], x.shape()[nd - 1], sr / size, sc / size);
}

// One batch dimension of the product: its length and each operand's element stride (0 where
// the operand broadcasts).
struct batch_dim {
  i64 size;
  i64 sa, sb, sc;
};

// The batch dimensions (ndim - 2 leading axes) with the length-1 ones dropped and neighbours
// merged where all three operands step through them as one: outermost first.
std::vector<batch_dim> collapse_batch(const ndarray& c, std::span<const i64> a_s, std::span<const i64> b_s,
                                      std::span<const i64> c_s, const ndarray& a, const ndarray& b) {
  std::vector<batch_dim> dims;
  for (int d = 0; d + 2 < c.ndim(); ++d) {
    const i64 size = c.shape()[d];
    if (size == 1) continue;
    batch_dim bd{size, a.shape()[d] == 1 ? 0 : a_s[d], b.shape()[d] == 1 ? 0 : b_s[d], c_s[d]};
    if (!dims.empty()) {
      batch_dim& outer = dims.back();
      if (outer.sa == bd.sa * bd.size && outer.sb == bd.sb * bd.size && outer.sc == bd.sc * bd.size) {
        outer = {outer.size * bd.size, bd.sa, bd.sb, bd.sc};
        continue;
      }
    }
    dims.push_back(bd);
  }
  return dims;
}

// Calls f(a_offset, b_offset, c_offset) (elements) for every index of the outer dimensions
// (all of `dims` but the last, which the callee takes as its strided batch).
template <class F>
void for_each_outer(std::span<const batch_dim> outer, F&& f) {
  std::vector<i64> index(outer.size(), 0);
  while (true) {
    i64 oa = 0, ob = 0, oc = 0;
    for (std::size_t d = 0; d < outer.size(); ++d) {
      oa += index[d] * outer[d].sa;
      ob += index[d] * outer[d].sb;
      oc += index[d] * outer[d].sc;
    }
    f(oa, ob, oc);
    std::size_t d = outer.size();
    while (d > 0) {
      --d;
      if (++index[d] < outer[d].size) break;
      index[d] = 0;
      if (d == 0) return;
    }
    if (outer.empty()) return;
  }
}

struct blas_types {
  cudaDataType ab, c;
  cublasComputeType_t compute;
  const void* one;
  const void* zero;
};

blas_types types_for(type_id id) {
  static const float f_one = 1.0f, f_zero = 0.0f;
  static const double d_one = 1.0, d_zero = 0.0;
  static const cuComplex c_one = {1.0f, 0.0f}, c_zero = {0.0f, 0.0f};
  static const cuDoubleComplex z_one = {1.0, 0.0}, z_zero = {0.0, 0.0};
  static const std::int32_t i_one = 1, i_zero = 0;
  const cublasComputeType_t f32 = tf32_enabled() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  switch (id) {
    case type_id::float16: return {CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, &f_one, &f_zero};
    case type_id::bfloat16: return {CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, &f_one, &f_zero};
    case type_id::float32: return {CUDA_R_32F, CUDA_R_32F, f32, &f_one, &f_zero};
    case type_id::float64: return {CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, &d_one, &d_zero};
    case type_id::complex64: return {CUDA_C_32F, CUDA_C_32F, CUBLAS_COMPUTE_32F, &c_one, &c_zero};
    case type_id::complex128: return {CUDA_C_64F, CUDA_C_64F, CUBLAS_COMPUTE_64F, &z_one, &z_zero};
    case type_id::int8: return {CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I, &i_one, &i_zero};
    default: break;
  }
  throw TypeError("linalg: no cuBLAS path for dtype " + dtype(id).name());
}

// ---- cuBLASLt with cached plans: a matmul descriptor, the three matrix layouts and the algorithm
// Lt's heuristic chose, made once per problem (dtype, compute type, transposes, sizes, leading
// dimensions, batch and its strides, operand alignments, device) and kept per thread, so a warm
// call is a hash lookup and one cublasLtMatmul (no descriptor creation, no heuristic query).

struct lt_key {
  int device;
  type_id id;
  cublasComputeType_t compute;
  cublasOperation_t op_a, op_b;  // cuBLAS's A and B (our b and a)
  i64 m, n, k, lda, ldb, ldc, batch, sa, sb, sc;
  std::uint32_t align_a, align_b, align_c;
  bool operator==(const lt_key&) const = default;
};

struct lt_key_hash {
  std::size_t operator()(const lt_key& key) const noexcept {
    std::size_t h = 1469598103934665603ull;
    auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull + (h >> 29); };
    mix(static_cast<std::uint64_t>(key.device));
    mix(static_cast<std::uint64_t>(key.id));
    mix(static_cast<std::uint64_t>(key.compute));
    mix(static_cast<std::uint64_t>(key.op_a) * 4 + static_cast<std::uint64_t>(key.op_b));
    for (i64 v : {key.m, key.n, key.k, key.lda, key.ldb, key.ldc, key.batch, key.sa, key.sb, key.sc})
      mix(static_cast<std::uint64_t>(v));
    mix((std::uint64_t{key.align_a} << 42) ^ (std::uint64_t{key.align_b} << 21) ^ key.align_c);
    return h;
  }
};

struct lt_desc_deleter {
  void operator()(cublasLtMatmulDescOpaque_t* d) const noexcept { static_cast<void>(cublasLtMatmulDescDestroy(d)); }
};
struct lt_layout_deleter {
  void operator()(cublasLtMatrixLayoutOpaque_t* l) const noexcept { static_cast<void>(cublasLtMatrixLayoutDestroy(l)); }
};
struct lt_pref_deleter {
  void operator()(cublasLtMatmulPreferenceOpaque_t* p) const noexcept {
    static_cast<void>(cublasLtMatmulPreferenceDestroy(p));
  }
};
using lt_layout_ptr = std::unique_ptr<cublasLtMatrixLayoutOpaque_t, lt_layout_deleter>;

// One problem's plan; `usable` is false when Lt has no algorithm for it (cublasGemmEx then runs).
struct lt_plan {
  std::unique_ptr<cublasLtMatmulDescOpaque_t, lt_desc_deleter> desc;
  lt_layout_ptr a, b, c;
  cublasLtMatmulAlgo_t algo{};
  bool usable = false;
};

gemm_path path_override = gemm_path::automatic;

// CUPP_LINALG_GEMM (read once): auto (the default), lt, gemmex, kernel (gemm.hpp); set_gemm_path
// overrides it.
gemm_path configured_path() {
  if (path_override != gemm_path::automatic) return path_override;
  static const gemm_path from_env = [] {
    const char* v = std::getenv("CUPP_LINALG_GEMM");
    const std::string s = v ? v : "";
    if (s == "lt") return gemm_path::lt;
    if (s == "gemmex") return gemm_path::gemmex;
    if (s == "kernel") return gemm_path::kernel;
    return gemm_path::automatic;
  }();
  return from_env;
}

// auto's choice: cuBLASLt, except the large double-precision products, which take cublasGemmEx
// (cublasDgemm's kernel choice, PyTorch's path: on the H200, Lt's first heuristic answer for
// 8192^3 float64 ran at 96.5% of PyTorch's TFLOP/s).
bool lt_for(gemm_path p, type_id id, i64 m, i64 n, i64 k) {
  if (p == gemm_path::gemmex) return false;
  if (p != gemm_path::automatic) return true;
  const bool dbl = id == type_id::float64 || id == type_id::complex128;
  return !(dbl && static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k) >= double(1 << 30));
}

// The largest power of two (at most 256) dividing every value: the alignment Lt may assume.
std::uint32_t alignment_of(std::initializer_list<std::uint64_t> values) {
  std::uint64_t bits = 256;
  for (std::uint64_t v : values)
    if (v != 0) bits = std::min<std::uint64_t>(bits, v & (~v + 1));
  return static_cast<std::uint32_t>(bits);
}

cudaDataType scale_type_of(cublasComputeType_t compute, type_id id) {
  const bool complex = id == type_id::complex64 || id == type_id::complex128;
  if (compute == CUBLAS_COMPUTE_64F) return complex ? CUDA_C_64F : CUDA_R_64F;
  return complex ? CUDA_C_32F : CUDA_R_32F;
}

lt_layout_ptr make_layout(cudaDataType type, i64 rows, i64 cols, i64 ld, i64 batch, i64 stride) {
  cublasLtMatrixLayout_t l = nullptr;
  check_cublas(cublasLtMatrixLayoutCreate(&l, type, static_cast<std::uint64_t>(rows), static_cast<std::uint64_t>(cols), ld),
               "cublasLtMatrixLayoutCreate");
  lt_layout_ptr owned(l);
  if (batch > 1) {
    const auto count = static_cast<std::int32_t>(batch);
    check_cublas(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)),
                 "cublasLtMatrixLayoutSetAttribute");
    const std::int64_t offset = stride;
    check_cublas(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &offset, sizeof(offset)),
                 "cublasLtMatrixLayoutSetAttribute");
  }
  return owned;
}

std::unique_ptr<lt_plan> make_plan(const lt_key& key, const blas_types& t, cublasLtHandle_t lt) {
  auto plan = std::make_unique<lt_plan>();
  cublasLtMatmulDesc_t desc = nullptr;
  check_cublas(cublasLtMatmulDescCreate(&desc, key.compute, scale_type_of(key.compute, key.id)),
               "cublasLtMatmulDescCreate");
  plan->desc.reset(desc);
  check_cublas(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &key.op_a, sizeof(key.op_a)),
               "cublasLtMatmulDescSetAttribute");
  check_cublas(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &key.op_b, sizeof(key.op_b)),
               "cublasLtMatmulDescSetAttribute");
  // Column-major: A is m x k (k x m stored when transposed), B k x n (n x k), C m x n.
  plan->a = key.op_a == CUBLAS_OP_N ? make_layout(t.ab, key.m, key.k, key.lda, key.batch, key.sa)
                                    : make_layout(t.ab, key.k, key.m, key.lda, key.batch, key.sa);
  plan->b = key.op_b == CUBLAS_OP_N ? make_layout(t.ab, key.k, key.n, key.ldb, key.batch, key.sb)
                                    : make_layout(t.ab, key.n, key.k, key.ldb, key.batch, key.sb);
  plan->c = make_layout(t.c, key.m, key.n, key.ldc, key.batch, key.sc);
  cublasLtMatmulPreference_t pref = nullptr;
  check_cublas(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
  const std::unique_ptr<cublasLtMatmulPreferenceOpaque_t, lt_pref_deleter> owned_pref(pref);
  const std::uint64_t bytes = workspace_bytes;
  check_cublas(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes, sizeof(bytes)),
               "cublasLtMatmulPreferenceSetAttribute");
  for (auto [attr, value] : {std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, key.align_a},
                             std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, key.align_b},
                             std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, key.align_c},
                             std::pair{CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, key.align_c}})
    check_cublas(cublasLtMatmulPreferenceSetAttribute(pref, attr, &value, sizeof(value)),
                 "cublasLtMatmulPreferenceSetAttribute");
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  const cublasStatus_t s = cublasLtMatmulAlgoGetHeuristic(lt, desc, plan->a.get(), plan->b.get(), plan->c.get(),
                                                          plan->c.get(), pref, 1, &result, &found);
  if (s == CUBLAS_STATUS_SUCCESS && found > 0 && result.state == CUBLAS_STATUS_SUCCESS) {
    plan->algo = result.algo;
    plan->usable = result.workspaceSize <= workspace_bytes;
  } else if (s != CUBLAS_STATUS_NOT_SUPPORTED && s != CUBLAS_STATUS_SUCCESS) {
    check_cublas(s, "cublasLtMatmulAlgoGetHeuristic");
  }
  return plan;
}

// The calling thread's plan for `key` (made on first use; the table is cleared when it grows past
// a few thousand problems, so a program sweeping shapes cannot grow it without bound).
const lt_plan& plan_for(const lt_key& key, const blas_types& t, cublasLtHandle_t lt) {
  thread_local std::unordered_map<lt_key, std::unique_ptr<lt_plan>, lt_key_hash> plans;
  // The last problem's plan first: a loop of one product is a comparison, not a hash lookup.
  thread_local lt_key last_key{};
  thread_local const lt_plan* last_plan = nullptr;
  if (last_plan && key == last_key) [[likely]]
    return *last_plan;
  auto it = plans.find(key);
  if (it == plans.end()) {
    if (plans.size() >= 4096) plans.clear();
    it = plans.emplace(key, make_plan(key, t, lt)).first;
  }
  last_key = key;
  last_plan = it->second.get();
  return *last_plan;
}

// c = a @ b through cuBLAS; c is row-major in its last two axes (checked by the caller). Returns
// false (nothing launched) when cuBLAS reports CUBLAS_STATUS_NOT_SUPPORTED for the first call.
bool blas_gemm(const ndarray& a0, const ndarray& b0, const ndarray& c, const blas_types& t) {
  // Operands cuBLAS cannot describe are copied (before broadcasting: their own batch only).
  std::optional<blas_layout> la0 = matrix_layout(a0), lb0 = matrix_layout(b0);
  ndarray a = la0 ? a0 : ascontiguousarray(a0);
  ndarray b = lb0 ? b0 : ascontiguousarray(b0);
  if (!la0) la0 = matrix_layout(a);
  if (!lb0) lb0 = matrix_layout(b);
  if (t.compute == CUBLAS_COMPUTE_32I) {
    // cuBLAS's int8 tensor-core (IMMA) kernels take k contiguous in both operands (its "TN"
    // form): a C-ordered, b F-ordered. Another layout runs a far slower kernel (measured: 4096^3
    // with both C-ordered 1.12 ms), so one of these O(n^2) copies pays for itself.
    if (!la0->row_major) {
      a = ascontiguousarray(a);
      la0 = matrix_layout(a);
    }
    if (lb0->row_major && b.shape()[b.ndim() - 1] > 1) {
      b = ascontiguousarray(b.swapaxes(-1, -2)).swapaxes(-1, -2);
      lb0 = matrix_layout(b);
    }
  }
  const blas_layout la = *la0, lb = *lb0;
  const auto as = *element_strides(a), bs = *element_strides(b), cs = *element_strides(c);
  const int nd = c.ndim();
  i64 n = c.shape()[nd - 2];
  const i64 m = c.shape()[nd - 1], k = a.shape()[nd - 1];
  const i64 ldc = n <= 1 ? std::max<i64>(m, 1) : cs[nd - 2];
  std::vector<batch_dim> dims = collapse_batch(c, as, bs, cs, a, b);
  // A stack of row-major matrices times one matrix: one GEMM over all their rows.
  if (!dims.empty() && dims.back().sb == 0 && la.row_major && dims.back().sa == n * la.ld &&
      dims.back().sc == n * ldc) {
    n *= dims.back().size;
    dims.pop_back();
  }
  const batch_dim inner = dims.empty() ? batch_dim{1, 0, 0, 0} : dims.back();
  if (!dims.empty()) dims.pop_back();
  // cuBLAS's integer GEMM wants 4-byte aligned operands and leading dimensions (and batch
  // strides) that are multiples of 4; elsewhere the generic kernel runs instead.
  if (t.compute == CUBLAS_COMPUTE_32I) {
    const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 4 == 0; };
    if (la.ld % 4 != 0 || lb.ld % 4 != 0 || inner.sa % 4 != 0 || inner.sb % 4 != 0 || !aligned(a.data()) ||
        !aligned(b.data()) || std::any_of(dims.begin(), dims.end(), [](const batch_dim& d) {
          return d.sa % 4 != 0 || d.sb % 4 != 0;
        }))
      return false;
  }
  const blas_binding& blas = blas_on_current_stream(c.device());
  // Row-major C is column-major C^T = B^T A^T: cuBLAS's A is b, its B is a.
  const cublasOperation_t op_b = lb.row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  const cublasOperation_t op_a = la.row_major ? CUBLAS_OP_N : CUBLAS_OP_T;
  const i64 isz = static_cast<i64>(a.itemsize()), csz = static_cast<i64>(c.itemsize());
  const char* pa = static_cast<const char*>(a.data());
  const char* pb = static_cast<const char*>(b.data());
  char* pc = static_cast<char*>(c.data());
  // Float types: cuBLASLt with the cached plan (one lookup per call); int8, a batch beyond
  // int32, a broadcast (stride 0) or reversed batch, or a problem Lt has no algorithm for:
  // cublasGemmEx / cublasGemmStridedBatchedEx.
  if (lt_for(configured_path(), c.dtype().id(), m, n, k) && t.compute != CUBLAS_COMPUTE_32I && inner.size <= INT32_MAX &&
      (inner.size == 1 || (inner.sa > 0 && inner.sb > 0 && inner.sc > 0))) {
    std::uint64_t outer_a = 0, outer_b = 0, outer_c = 0;
    for (const batch_dim& d : dims) {
      outer_a |= static_cast<std::uint64_t>(d.sa * isz);
      outer_b |= static_cast<std::uint64_t>(d.sb * isz);
      outer_c |= static_cast<std::uint64_t>(d.sc * csz);
    }
    const lt_key key{c.device(), c.dtype().id(), t.compute, op_b, op_a, m, n, k, lb.ld, la.ld, ldc, inner.size,
                     inner.size > 1 ? inner.sb : 0, inner.size > 1 ? inner.sa : 0, inner.size > 1 ? inner.sc : 0,
                     alignment_of({reinterpret_cast<std::uintptr_t>(pb), outer_b}),
                     alignment_of({reinterpret_cast<std::uintptr_t>(pa), outer_a}),
                     alignment_of({reinterpret_cast<std::uintptr_t>(pc), outer_c})};
    const lt_plan& plan = plan_for(key, t, blas.lt);
    if (plan.usable) {
      for_each_outer(dims, [&](i64 oa, i64 ob, i64 oc) {
        check_cublas(cublasLtMatmul(blas.lt, plan.desc.get(), t.one, pb + ob * isz, plan.a.get(), pa + oa * isz,
                                    plan.b.get(), t.zero, pc + oc * csz, plan.c.get(), pc + oc * csz, plan.c.get(),
                                    &plan.algo, blas.workspace, blas.workspace_bytes, blas.stream),
                     "cublasLtMatmul");
      });
      return true;
    }
  }
  bool first = true, supported = true;
  for_each_outer(dims, [&](i64 oa, i64 ob, i64 oc) {
    if (!supported) return;
    const cublasStatus_t s =
        inner.size == 1
            ? cublasGemmEx_64(blas.cublas, op_b, op_a, m, n, k, t.one, pb + ob * isz, t.ab, lb.ld, pa + oa * isz, t.ab,
                              la.ld, t.zero, pc + oc * csz, t.c, ldc, t.compute, CUBLAS_GEMM_DEFAULT)
            : cublasGemmStridedBatchedEx_64(blas.cublas, op_b, op_a, m, n, k, t.one, pb + ob * isz, t.ab, lb.ld,
                                            inner.sb, pa + oa * isz, t.ab, la.ld, inner.sa, t.zero, pc + oc * csz,
                                            t.c, ldc, inner.sc, inner.size, t.compute, CUBLAS_GEMM_DEFAULT);
    if (s == CUBLAS_STATUS_NOT_SUPPORTED && first) {
      supported = false;
      return;
    }
    first = false;
    check_cublas(s, inner.size == 1 ? "cublasGemmEx_64" : "cublasGemmStridedBatchedEx_64");
  });
  return supported;
}

const char* device_type(type_id id) {
  switch (id) {
    case type_id::bool_: return "bool";
    case type_id::int8: return "signed char";
    case type_id::uint8: return "unsigned char";
    case type_id::int16: return "short";
    case type_id::uint16: return "unsigned short";
    case type_id::int32: return "int";
    case type_id::uint32: return "unsigned int";
    case type_id::int64: return "long long";
    case type_id::uint64: return "unsigned long long";
    case type_id::float32: return "float";  // the tiniest float products (gemm_path)
    case type_id::float64: return "double";
    default: break;
  }
  throw TypeError("linalg: no generic matmul kernel for dtype " + dtype(id).name());
}

// c = a @ b with the generic kernel (any strides; a copy only for a stride that is not a whole
// number of elements).
void generic_gemm(const ndarray& a0, const ndarray& b0, const ndarray& c) {
  const ndarray a = element_strides(a0) ? a0 : ascontiguousarray(a0);
  const ndarray b = element_strides(b0) ? b0 : ascontiguousarray(b0);
  const auto as = *element_strides(a), bs = *element_strides(b), cs = *element_strides(c);
  const int nd = c.ndim();
  long long n = c.shape()[nd - 2], m = c.shape()[nd - 1], k = a.shape()[nd - 1];
  long long a_rs = as[nd - 2], a_cs = as[nd - 1], b_rs = bs[nd - 2], b_cs = bs[nd - 1];
  long long c_rs = cs[nd - 2], c_cs = cs[nd - 1];
  std::vector<batch_dim> dims = collapse_batch(c, as, bs, cs, a, b);
  const batch_dim inner = dims.empty() ? batch_dim{1, 0, 0, 0} : dims.back();
  if (!dims.empty()) dims.pop_back();
  const int device = c.device();
  // The thread's last module first (a loop of one small product skips the cache's lookup).
  thread_local int last_device = -1;
  thread_local type_id last_id{};
  thread_local const cupp::detail::kernel_module* last_module = nullptr;
  const type_id id = c.dtype().id();
  if (!last_module || last_device != device || last_id != id) {
    last_module = &cupp::detail::routine_module(device, {"linalg:matmul_generic", static_cast<std::uint64_t>(id)},
                                                [&] { return generic_matmul_program(c.dtype()); });
    last_device = device;
    last_id = id;
  }
  const cupp::detail::kernel_module& module = *last_module;
  const i64 isz = static_cast<i64>(c.itemsize());
  const i64 tiles = ((n + 15) / 16) * ((m + 15) / 16) * inner.size;
  for_each_outer(dims, [&](i64 oa, i64 ob, i64 oc) {
    const void* pa = static_cast<const char*>(a.data()) + oa * isz;
    const void* pb = static_cast<const char*>(b.data()) + ob * isz;
    void* pc = static_cast<char*>(c.data()) + oc * isz;
    long long batch = inner.size, a_bs = inner.sa, b_bs = inner.sb, c_bs = inner.sc;
    void* args[] = {&pc, &pa, &pb, &n, &m, &k, &a_rs, &a_cs, &b_rs, &b_cs, &c_rs, &c_cs, &batch, &a_bs, &b_bs, &c_bs};
    cupp::detail::launch_1d(module.function(0), tiles * 256, args, device, std::min<i64>(tiles, i64{1} << 20), 256);
  });
}

bool is_blas_float(type_id id) {
  return id == type_id::float16 || id == type_id::bfloat16 || id == type_id::float32 || id == type_id::float64 ||
         id == type_id::complex64 || id == type_id::complex128;
}

}  // namespace

void set_gemm_path(gemm_path path) noexcept { path_override = path; }

cupp::detail::routine_program generic_matmul_program(cupp::dtype type) {
  const type_id id = type.id();
  std::string source = std::string("#define CUPP_LINALG_T ") + device_type(id) + "\n";
  if (id == type_id::bool_) source += "#define CUPP_LINALG_BOOL 1\n";
  else if (id == type_id::float32 || id == type_id::float64) source += std::string("#define CUPP_LINALG_ACC ") + device_type(id) + "\n";
  else source += std::string("#define CUPP_LINALG_ACC ") + (type.itemsize() == 8 ? "unsigned long long" : "unsigned int") + "\n";
  source += "#include <cupp/linalg/matmul_generic.cuh>\n";
  return {.name = "cupp_linalg_matmul_generic",
          .source = std::move(source),
          .kernels = {"cupp_linalg_matmul_generic"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

void gemm_into(const ndarray& a, const ndarray& b, const ndarray& c) {
  const int nd = c.ndim();
  if (a.ndim() != nd || b.ndim() != nd || nd < 2 || a.dtype() != c.dtype() || b.dtype() != c.dtype())
    throw ValueError("linalg: gemm_into needs operands of one dtype and ndim");
  if (c.size() == 0) return;
  if (a.shape()[nd - 1] == 0) {  // k == 0: every product is an empty sum
    c.fill(0);
    return;
  }
  cupp::cuda::DeviceGuard guard(c.device());
  const type_id id = c.dtype().id();
  const std::optional<blas_layout> lc = matrix_layout(c);
  const bool c_row_major = lc && lc->row_major && (nd == 2 || element_strides(c).has_value());
  const gemm_path path = configured_path();
  const i64 madds = c.size() * a.shape()[nd - 1];
  if ((id == type_id::float32 || id == type_id::float64) &&
      ((path == gemm_path::kernel && madds <= small_gemm_max) || (path == gemm_path::automatic && madds <= auto_kernel_max))) {
    generic_gemm(a, b, c);  // cupp's kernel: one launch, no library call
    return;
  }
  if (is_blas_float(id) || id == type_id::int8) {
    if (!c_row_major || id == type_id::int8) {
      // int8: cuBLAS sums into int32, cast down modulo 2^8 (NumPy's wrapping int8 result). Any
      // other C layout: computed C-ordered, then copied into place.
      ndarray tmp = empty(c.shape(), id == type_id::int8 ? cupp::dtype(type_id::int32) : c.dtype());
      if (blas_gemm(a, b, tmp, types_for(id))) {
        c.assign(id == type_id::int8 ? astype(tmp, c.dtype(), casting::unsafe) : tmp);
        return;
      }
      if (id != type_id::int8) throw CudaError("cublasGemmEx_64 failed: CUBLAS_STATUS_NOT_SUPPORTED", 15);
    } else if (blas_gemm(a, b, c, types_for(id))) {
      return;
    } else {
      throw CudaError("cublasGemmEx_64 failed: CUBLAS_STATUS_NOT_SUPPORTED", 15);
    }
  }
  generic_gemm(a, b, c);  // bool and integers (int8 where cuBLAS declined the shape)
}

}  // namespace cupp::linalg::detail
