// Sparse products over cuSPARSE's generic API, on the current stream of the matrix's device:
// SpMV (CSR_ALG2, deterministic, by default), SpMM with row-major dense operands as given (no
// column-major copy; CSR_ALG3, falling back to ALG2 and ALG1 where one refuses, or the module's
// kernels: own_kernels.hpp, CUPP_SPARSE_SPMM), and SpGEMM (workEstimation -> compute ->
// copy; a product that repeats builds cuSPARSE's SpGEMMreuse state on its third call and runs only
// compute after; CUPP_SPARSE_SPGEMM=cupp: the module's row-sorting kernels, own_spgemm). Integer and bool values, and SpGEMM needing int64 indices, take the module's own
// kernels and expand-sort-sum (own_kernels.hpp). SpMV/SpMM descriptors, work buffers and _preprocess state
// are cached in the matrix's product_cache per (operation, algorithm, dtype, columns, stream), so a
// repeated product asks no buffer size and allocates nothing but its result; buffers come from
// cupp's pool.
#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <vector>

#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/promotion.hpp"
#include "cupp/sparse.hpp"
#include "cupp/ufunc.hpp"
#include "cusparse_wrap.hpp"
#include "own_kernels.hpp"
#include "primitives.hpp"
#include "products_internal.hpp"

namespace cupp::sparse {

namespace {

// The algorithms of spmv/spmm, chosen by SparseGpu.BenchFigures' measurement on the H200 (10^6 x
// 10^6, 10^7 nonzeros; sparse/bench/README.md). CSR_ALG2 of SpMV is documented bitwise
// deterministic; cuSPARSE documents run-to-run differences of SpMM only for a transposed A, and the
// H200 run measured CSR_ALG3 bitwise repeatable and the fastest with 64 row-major columns (0.90 ms,
// 10.1x SpMV; CSR_ALG2 1.19 ms; ALG3's preprocess slowed it to 0.95 ms), so SpMM takes ALG3 both ways.
constexpr cusparseSpMVAlg_t spmv_deterministic_alg = CUSPARSE_SPMV_CSR_ALG2;
constexpr cusparseSpMVAlg_t spmv_fast_alg = CUSPARSE_SPMV_CSR_ALG1;
constexpr bool spmv_preprocess = true;
constexpr cusparseSpMMAlg_t spmm_deterministic_alg = CUSPARSE_SPMM_CSR_ALG3;
constexpr cusparseSpMMAlg_t spmm_fast_alg = CUSPARSE_SPMM_CSR_ALG3;
constexpr bool spmm_preprocess = false;

// alpha = 1 and beta = 0 in the compute type, as host scalars.
struct scalars {
  std::complex<double> one_z{1.0, 0.0}, zero_z{0.0, 0.0};
  std::complex<float> one_c{1.0f, 0.0f}, zero_c{0.0f, 0.0f};
  double one_d = 1.0, zero_d = 0.0;
  float one_f = 1.0f, zero_f = 0.0f;
  const void* one(cudaDataType t) const {
    return t == CUDA_R_32F ? static_cast<const void*>(&one_f)
           : t == CUDA_R_64F ? static_cast<const void*>(&one_d)
           : t == CUDA_C_32F ? static_cast<const void*>(&one_c)
                             : static_cast<const void*>(&one_z);
  }
  const void* zero(cudaDataType t) const {
    return t == CUDA_R_32F ? static_cast<const void*>(&zero_f)
           : t == CUDA_R_64F ? static_cast<const void*>(&zero_d)
           : t == CUDA_C_32F ? static_cast<const void*>(&zero_c)
                             : static_cast<const void*>(&zero_z);
  }
};

// The product's dtype, checked against what cuSPARSE computes in.
cupp::dtype product_dtype(const cupp::dtype& a, const cupp::dtype& b, const char* op) {
  const cupp::dtype t = cupp::promote_types(a, b);
  detail::value_type(t, op);
  return t;
}

// An SpGEMM descriptor, destroyed with the scope.
class spgemm_descr {
 public:
  spgemm_descr() { detail::check(cusparseSpGEMM_createDescr(&d_), "cusparseSpGEMM_createDescr"); }
  ~spgemm_descr() { cusparseSpGEMM_destroyDescr(d_); }
  spgemm_descr(const spgemm_descr&) = delete;
  spgemm_descr& operator=(const spgemm_descr&) = delete;
  cusparseSpGEMMDescr_t get() const noexcept { return d_; }

 private:
  cusparseSpGEMMDescr_t d_ = nullptr;
};

// A as int32-indexed for SpGEMM: narrowed when its sizes fit, else ValueError.
csr with_int32_indices(const csr& a) {
  if (a.index_dtype() == int32) return a;
  if (std::max({a.shape()[0], a.shape()[1], a.nnz()}) > detail::int32_max)
    throw ValueError("spgemm: cuSPARSE's SpGEMM takes int32 indices; this matrix needs int64 (" +
                     std::to_string(a.shape()[0]) + "x" + std::to_string(a.shape()[1]) + ", nnz " +
                     std::to_string(a.nnz()) + ")");
  return csr::from_parts(a.data(), cupp::astype(a.indices(), int32), cupp::astype(a.indptr(), int32), a.shape(),
                         a.kind(), std::nullopt, std::nullopt);
}

// `a` in canonical form and dtype t: itself when it already is (so its cached descriptor and
// buffers serve), else a converted copy held in `holder`. cuSPARSE assumes sorted indices without
// duplicates; SciPy's products take any input, so cupp makes it canonical first, as SciPy does
// where a routine needs it.
const csr& prepared(const csr& a, const cupp::dtype& t, std::optional<csr>& holder) {
  if (a.dtype() == t && a.has_canonical_format()) return a;
  holder = a.dtype() == t ? a : a.astype(t, false);  // sum_duplicates rebinds the holder's arrays only
  holder->sum_duplicates();
  return *holder;
}

}  // namespace

namespace detail {

ndarray spmv_with(const csr& a, const ndarray& x, cusparseSpMVAlg_t alg, bool preprocess) {
  if (x.is_null()) throw ValueError("spmv: a null array");
  const auto [m, n] = a.shape();
  if (x.ndim() != 1 || x.shape(0) != n) throw ValueError("dimension mismatch");
  const cupp::dtype t = product_dtype(a.dtype(), x.dtype(), "spmv");
  if (a.nnz() == 0 || m == 0) return cupp::zeros({m}, t);
  std::optional<csr> holder;
  const csr& at = prepared(a, t, holder);
  const ndarray xt = cupp::ascontiguousarray(x.dtype() == t ? x : cupp::astype(x, t));
  ndarray y = cupp::empty({m}, t);
  const int device = at.data().device();
  cupp::detail::device_scope scope(device);
  cusparseHandle_t h = handle(device);
  const cudaDataType vt = value_type(t, "spmv");
  const auto cache = at.cache();
  std::lock_guard lock(cache->mutex);
  cusparseSpMatDescr_t mat = cache->csr(m, n, at.indptr(), at.indices(), at.data());
  dn_vec vx(n, const_cast<void*>(xt.data()), vt), vy(m, y.data(), vt);
  const scalars s;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  product_plan& p =
      cache->plan(operation::spmv, alg, vt, 0, device, cuda::detail::current_stream_handle(device));
  if (!p.sized) {  // a new plan: its buffer (kept) and, once, the preprocessing
    check(cusparseSpMV_bufferSize(h, op, s.one(vt), mat, vx.get(), s.zero(vt), vy.get(), vt, alg, &p.bytes),
          "cusparseSpMV_bufferSize");
    if (p.bytes > 0) p.buffer = cuda::alloc(p.bytes, device, p.stream);
    p.sized = true;
  }
  if (preprocess && !p.preprocessed) {
    check(cusparseSpMV_preprocess(h, op, s.one(vt), mat, vx.get(), s.zero(vt), vy.get(), vt, alg, p.buffer.ptr()),
          "cusparseSpMV_preprocess");
    p.preprocessed = true;
  }
  check(cusparseSpMV(h, op, s.one(vt), mat, vx.get(), s.zero(vt), vy.get(), vt, alg, p.buffer.ptr()), "cusparseSpMV");
  return y;
}

ndarray spmm_with(const csr& a, const ndarray& b, cusparseSpMMAlg_t alg, bool preprocess) {
  if (b.is_null()) throw ValueError("spmm: a null array");
  const auto [m, n] = a.shape();
  if (b.ndim() != 2 || b.shape(0) != n) throw ValueError("dimension mismatch");
  const std::int64_t k = b.shape(1);
  const cupp::dtype t = product_dtype(a.dtype(), b.dtype(), "spmm");
  if (a.nnz() == 0 || m == 0 || k == 0) return cupp::zeros({m, k}, t);
  std::optional<csr> holder;
  const csr& at = prepared(a, t, holder);
  const ndarray bt = cupp::ascontiguousarray(b.dtype() == t ? b : cupp::astype(b, t));
  ndarray c = cupp::empty({m, k}, t);
  const int device = at.data().device();
  cupp::detail::device_scope scope(device);
  cusparseHandle_t h = handle(device);
  const cudaDataType vt = value_type(t, "spmm");
  const auto cache = at.cache();
  std::lock_guard lock(cache->mutex);
  cusparseSpMatDescr_t mat = cache->csr(m, n, at.indptr(), at.indices(), at.data());
  dn_mat mb(n, k, k, const_cast<void*>(bt.data()), vt, CUSPARSE_ORDER_ROW), mc(m, k, k, c.data(), vt, CUSPARSE_ORDER_ROW);
  const scalars s;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const cuda::stream_handle stream = cuda::detail::current_stream_handle(device);
  // the asked algorithm, then CSR_ALG2 and CSR_ALG1 (which takes every operand) when cuSPARSE
  // refuses one for these operands; a refusal is remembered in that algorithm's plan
  std::vector<cusparseSpMMAlg_t> candidates{alg};
  for (const cusparseSpMMAlg_t next : {CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG1})
    if (std::find(candidates.begin(), candidates.end(), next) == candidates.end()) candidates.push_back(next);
  cusparseStatus_t status = CUSPARSE_STATUS_NOT_SUPPORTED;
  for (const cusparseSpMMAlg_t use : candidates) {
    product_plan& p = cache->plan(operation::spmm, use, vt, k, device, stream);
    if (p.refused) continue;
    if (!p.sized) {
      status = cusparseSpMM_bufferSize(h, op, op, s.one(vt), mat, mb.get(), s.zero(vt), mc.get(), vt, use, &p.bytes);
      if (status != CUSPARSE_STATUS_SUCCESS) {
        p.refused = true;
        continue;
      }
      if (p.bytes > 0) p.buffer = cuda::alloc(p.bytes, device, stream);
      p.sized = true;
    }
    const bool can_preprocess = use == CUSPARSE_SPMM_CSR_ALG1 || use == CUSPARSE_SPMM_CSR_ALG3;
    if (preprocess && can_preprocess && !p.preprocessed) {
      check(cusparseSpMM_preprocess(h, op, op, s.one(vt), mat, mb.get(), s.zero(vt), mc.get(), vt, use, p.buffer.ptr()),
            "cusparseSpMM_preprocess");
      p.preprocessed = true;
    }
    status = cusparseSpMM(h, op, op, s.one(vt), mat, mb.get(), s.zero(vt), mc.get(), vt, use, p.buffer.ptr());
    if (status == CUSPARSE_STATUS_SUCCESS) return c;
    if (status != CUSPARSE_STATUS_NOT_SUPPORTED && status != CUSPARSE_STATUS_INVALID_VALUE) break;
    p.refused = true;
  }
  check(status, "cusparseSpMM");
  return c;
}

}  // namespace detail

ndarray spmv(const csr& a, const ndarray& x, const product_options& opts) {
  if (x.is_null()) throw ValueError("spmv: a null array");
  // SciPy's upcast (a float16 x makes a float32 product); integer and bool values: the module's kernel
  const cupp::dtype t = detail::product_upcast(a.dtype(), x.dtype());
  if (!detail::has_value_type(t)) return detail::own_spmv(a, x);
  const detail::spmv_method method = detail::spmv_method_from_env();
  const bool real = t == float32 || t == float64;
  if (real && (method == detail::spmv_method::cupp ||
               (method == detail::spmv_method::auto_ && opts.deterministic && detail::own_spmv_by_default(t, a.nnz()))))
    return detail::own_spmv_groups(a, x, detail::spmv_group_for(a.nnz(), a.shape()[0]));
  const ndarray xt = t == cupp::promote_types(a.dtype(), x.dtype()) ? x : cupp::astype(x, t);
  return detail::spmv_with(a, xt, opts.deterministic ? spmv_deterministic_alg : spmv_fast_alg, spmv_preprocess);
}

ndarray spmm(const csr& a, const ndarray& b, const product_options& opts) {
  if (b.is_null()) throw ValueError("spmm: a null array");
  const cupp::dtype t = detail::product_upcast(a.dtype(), b.dtype());
  if (!detail::has_value_type(t)) return detail::own_spmm(a, b);
  const detail::spmm_method method = detail::spmm_method_from_env();
  const std::int64_t k = b.ndim() == 2 ? b.shape(1) : 0;
  const bool own = method == detail::spmm_method::cupp ||
                   (method == detail::spmm_method::auto_ && detail::own_spmm_by_default(t, k));
  if (own) return detail::own_spmm(a, b);
  const ndarray bt = t == cupp::promote_types(a.dtype(), b.dtype()) ? b : cupp::astype(b, t);
  return detail::spmm_with(a, bt, opts.deterministic ? spmm_deterministic_alg : spmm_fast_alg, spmm_preprocess);
}

namespace detail {

// SpGEMM of int32 CSR operands of dtype t with one algorithm: DEFAULT (workEstimation, compute,
// copy) or the memory-bounded ALG3 (workEstimation, getNumProducts, estimateMemory with a chunk
// fraction, compute, copy). DEFAULT's "insufficient resources" or an allocation that fails is
// thrown as alg_refused for spgemm to retry with ALG3.
struct alg_refused {};

csr spgemm_with(const csr& a, const csr& b, const cupp::dtype& t, sparse::kind kind, cusparseSpGEMMAlg_t alg) {
  const auto [m, n] = a.shape();
  const std::int64_t k = b.shape()[1];
  const int device = a.data().device();
  cupp::detail::device_scope scope(device);
  cusparseHandle_t h = handle(device);
  const cudaDataType vt = value_type(t, "spgemm");
  const sp_mat ma = make_csr(m, n, a.indptr(), a.indices(), a.data());
  const sp_mat mb = make_csr(n, k, b.indptr(), b.indices(), b.data());
  ndarray c_indptr = cupp::empty({m + 1}, int32);
  cusparseSpMatDescr_t raw_c = nullptr;
  check(cusparseCreateCsr(&raw_c, m, k, 0, c_indptr.data(), nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, vt),
        "cusparseCreateCsr");
  const sp_mat mc(raw_c);
  const spgemm_descr descr;
  const scalars s;
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const bool bounded = alg == CUSPARSE_SPGEMM_ALG3;
  const auto refusable = [&](cusparseStatus_t status, const char* call) {
    if (!bounded && status == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) throw alg_refused{};
    check(status, call);
  };
  const auto allocate = [&](std::size_t bytes) {
    try {
      return cuda::alloc(bytes);
    } catch (const OutOfMemoryError&) {
      if (bounded) throw;
      throw alg_refused{};
    }
  };
  std::size_t bytes1 = 0, bytes2 = 0;
  check(cusparseSpGEMM_workEstimation(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg,
                                      descr.get(), &bytes1, nullptr),
        "cusparseSpGEMM_workEstimation");
  cuda::Memory work1 = allocate(bytes1);
  refusable(cusparseSpGEMM_workEstimation(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg,
                                          descr.get(), &bytes1, work1.ptr()),
            "cusparseSpGEMM_workEstimation");
  if (bounded) {
    // ALG3 bounds its memory by computing in chunks of the intermediate products
    std::int64_t products = 0;
    check(cusparseSpGEMM_getNumProducts(descr.get(), &products), "cusparseSpGEMM_getNumProducts");
    constexpr float chunk_fraction = 0.2f;
    std::size_t bytes3 = 0;
    check(cusparseSpGEMM_estimateMemory(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg,
                                        descr.get(), chunk_fraction, &bytes3, nullptr, nullptr),
          "cusparseSpGEMM_estimateMemory");
    cuda::Memory work3 = cuda::alloc(bytes3);
    check(cusparseSpGEMM_estimateMemory(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg,
                                        descr.get(), chunk_fraction, &bytes3, work3.ptr(), &bytes2),
          "cusparseSpGEMM_estimateMemory");
  } else {
    refusable(cusparseSpGEMM_compute(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg,
                                     descr.get(), &bytes2, nullptr),
              "cusparseSpGEMM_compute");
  }
  cuda::Memory work2 = allocate(bytes2);
  refusable(cusparseSpGEMM_compute(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg,
                                   descr.get(), &bytes2, work2.ptr()),
            "cusparseSpGEMM_compute");
  std::int64_t rows = 0, cols = 0, nnz = 0;
  check(cusparseSpMatGetSize(mc.get(), &rows, &cols, &nnz), "cusparseSpMatGetSize");
  ndarray c_indices = cupp::empty({nnz}, int32);
  ndarray c_data = cupp::empty({nnz}, t);
  check(cusparseCsrSetPointers(mc.get(), c_indptr.data(), c_indices.data(), c_data.data()), "cusparseCsrSetPointers");
  check(cusparseSpGEMM_copy(h, op, op, s.one(vt), ma.get(), mb.get(), s.zero(vt), mc.get(), vt, alg, descr.get()),
        "cusparseSpGEMM_copy");
  return csr::from_parts(c_data, c_indices, c_indptr, {m, k}, kind, std::nullopt, std::nullopt);
}

csr spgemm_alg(const csr& a_in, const csr& b_in, cusparseSpGEMMAlg_t alg) {
  const auto [m, n] = a_in.shape();
  const auto [n2, k] = b_in.shape();
  if (n != n2) throw ValueError("dimension mismatch");
  // integer and bool values, and operands or a result that need int64 indices (cuSPARSE's SpGEMM
  // takes int32): expand-sort-sum on cupp's routines
  const cupp::dtype pt = cupp::promote_types(a_in.dtype(), b_in.dtype());
  const bool narrow = std::max({m, n, k, a_in.nnz(), b_in.nnz()}) <= int32_max;
  if (!has_value_type(pt) || !narrow) return esc_spgemm(a_in, b_in);
  const cupp::dtype t = product_dtype(a_in.dtype(), b_in.dtype(), "spgemm");
  const sparse::kind kind = a_in.kind();
  if (a_in.nnz() == 0 || b_in.nnz() == 0 || m == 0 || k == 0)
    return csr(shape2{m, k}, options{.dtype = t}).with_kind(kind);
  std::optional<csr> holder_a, holder_b;
  const csr a = with_int32_indices(prepared(a_in, t, holder_a));
  const csr b = with_int32_indices(prepared(b_in, t, holder_b));
  if (alg != CUSPARSE_SPGEMM_DEFAULT) return spgemm_with(a, b, t, kind, alg);
  if (spgemm_method_from_env() == spgemm_method::cupp)
    if (std::optional<csr> c = own_spgemm(a, b, t, kind)) return *std::move(c);
  try {
    return spgemm_with(a, b, t, kind, alg);
  } catch (const alg_refused&) {
    // short of memory: the memory-bounded algorithm instead of failing
    return spgemm_with(a, b, t, kind, CUSPARSE_SPGEMM_ALG3);
  }
}

}  // namespace detail

// ---- SpGEMMreuse, for products that repeat. A's product cache (shared by the handles over A's
// arrays, replaced when they change) keeps a reuse_slot: the state built for one product (B's
// pattern arrays held, so their addresses stay B's; the descriptors, the buffers
// cusparseSpGEMMreuse_compute needs and C's arrays) and the product seen last. A product runs plain
// cusparseSpGEMM (workEstimation, compute, copy: 4.2 ms on the A @ A, CuPy 4.4) until the same
// product (product_key) has come spgemm_plain_repeats times in a row; the next one builds the state
// (the reuse API's symbolic phases and a compute, 16 ms there) and every later one runs only compute
// and a copy of C's values (1.0 ms): a one-off product never pays for the state, a loop amortises it.
namespace {
// A product, as the reuse state sees it: A's values array (A's pattern is its cache's own), B's
// pattern arrays (and nnz), B's columns, the dtype, the device and the stream.
struct product_key {
  const void* a_data = nullptr;
  const void* b_indptr = nullptr;
  const void* b_indices = nullptr;
  std::int64_t b_nnz = -1, k = 0;
  int device = -1;
  cuda::stream_handle stream{};
  cupp::dtype type = float64;
  bool operator==(const product_key& o) const noexcept {
    return a_data == o.a_data && b_indptr == o.b_indptr && b_indices == o.b_indices && b_nnz == o.b_nnz &&
           k == o.k && device == o.device && stream == o.stream && type == o.type;
  }
};

struct reuse_state {
  product_key key;
  ndarray b_indptr, b_indices;
  detail::sp_mat ma, mb, mc;
  spgemm_descr descr;
  cuda::Memory work4, work5;
  ndarray c_indptr, c_indices, c_data;
};

struct reuse_slot {
  std::shared_ptr<reuse_state> built;  // the state, for built->key
  product_key last;                    // the last product `built` did not serve
  int repeats = 0;                     // how many times in a row `last` came
  bool refused = false;                // building the state for `last` ran short of memory: it stays plain
};

bool reusable(const csr& a, const csr& b) {
  const cupp::dtype t = a.dtype();
  const bool value_type_ok = t == float32 || t == float64 || t == complex64 || t == complex128;
  return value_type_ok && b.dtype() == t && a.index_dtype() == int32 && b.index_dtype() == int32 &&
         a.shape()[1] == b.shape()[0] && a.shape()[0] > 0 && b.shape()[1] > 0 && a.nnz() > 0 && b.nnz() > 0 &&
         a.has_canonical_format() && b.has_canonical_format();
}

product_key key_of(const csr& a, const csr& b) {
  const int device = a.data().device();
  return {a.data().data(), b.indptr().data(), b.indices().data(), b.nnz(), b.shape()[1], device,
          cuda::detail::current_stream_handle(device), a.dtype()};
}

// A's slot (made on first use); the caller holds the cache's mutex.
reuse_slot& slot_of(detail::product_cache& cache) {
  if (!cache.spgemm_reuse) cache.spgemm_reuse = std::make_shared<reuse_slot>();
  return *std::static_pointer_cast<reuse_slot>(cache.spgemm_reuse);
}

// The reuse state of A @ B on the current stream: the symbolic phases (workEstimation, nnz, copy)
// into a new state; alg_refused when cuSPARSE or the pool is short of memory.
std::shared_ptr<reuse_state> build_reuse(const csr& a, const csr& b, const product_key& key) {
  const auto [m, n] = a.shape();
  const std::int64_t k = b.shape()[1];
  cusparseHandle_t h = detail::handle(key.device);
  const cudaDataType vt = detail::value_type(key.type, "spgemm");
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const auto alg = CUSPARSE_SPGEMM_DEFAULT;
  const auto refusable = [](cusparseStatus_t status, const char* call) {
    if (status == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) throw detail::alg_refused{};
    detail::check(status, call);
  };
  const auto allocate = [](std::size_t bytes) {
    try {
      return cuda::alloc(bytes);
    } catch (const OutOfMemoryError&) {
      throw detail::alg_refused{};
    }
  };
  auto st = std::make_shared<reuse_state>();
  st->key = key;
  st->ma = detail::make_csr(m, n, a.indptr(), a.indices(), a.data());
  st->mb = detail::make_csr(n, k, b.indptr(), b.indices(), b.data());
  st->c_indptr = cupp::empty({m + 1}, int32);
  cusparseSpMatDescr_t raw_c = nullptr;
  detail::check(cusparseCreateCsr(&raw_c, m, k, 0, st->c_indptr.data(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                  CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt),
                "cusparseCreateCsr");
  st->mc = detail::sp_mat(raw_c);
  cusparseSpMatDescr_t ma = st->ma.get(), mb = st->mb.get(), mc = st->mc.get();
  cusparseSpGEMMDescr_t descr = st->descr.get();
  std::size_t bytes1 = 0, bytes2 = 0, bytes3 = 0, bytes4 = 0, bytes5 = 0;
  detail::check(cusparseSpGEMMreuse_workEstimation(h, op, op, ma, mb, mc, alg, descr, &bytes1, nullptr),
                "cusparseSpGEMMreuse_workEstimation");
  cuda::Memory work1 = allocate(bytes1);
  refusable(cusparseSpGEMMreuse_workEstimation(h, op, op, ma, mb, mc, alg, descr, &bytes1, work1.ptr()),
            "cusparseSpGEMMreuse_workEstimation");
  detail::check(cusparseSpGEMMreuse_nnz(h, op, op, ma, mb, mc, alg, descr, &bytes2, nullptr, &bytes3, nullptr,
                                        &bytes4, nullptr),
                "cusparseSpGEMMreuse_nnz");
  cuda::Memory work2 = allocate(bytes2), work3 = allocate(bytes3);
  st->work4 = allocate(bytes4);
  refusable(cusparseSpGEMMreuse_nnz(h, op, op, ma, mb, mc, alg, descr, &bytes2, work2.ptr(), &bytes3, work3.ptr(),
                                    &bytes4, st->work4.ptr()),
            "cusparseSpGEMMreuse_nnz");
  std::int64_t rows = 0, cols = 0, nnz = 0;
  detail::check(cusparseSpMatGetSize(mc, &rows, &cols, &nnz), "cusparseSpMatGetSize");
  st->c_indices = cupp::empty({nnz}, int32);
  st->c_data = cupp::empty({nnz}, key.type);
  detail::check(cusparseCsrSetPointers(mc, st->c_indptr.data(), st->c_indices.data(), st->c_data.data()),
                "cusparseCsrSetPointers");
  detail::check(cusparseSpGEMMreuse_copy(h, op, op, ma, mb, mc, alg, descr, &bytes5, nullptr),
                "cusparseSpGEMMreuse_copy");
  st->work5 = allocate(bytes5);
  refusable(cusparseSpGEMMreuse_copy(h, op, op, ma, mb, mc, alg, descr, &bytes5, st->work5.ptr()),
            "cusparseSpGEMMreuse_copy");
  st->b_indptr = b.indptr(), st->b_indices = b.indices();
  return st;
}

// C's values for A and B's values now (the pattern the state's): SpGEMMreuse_compute, then a copy
// of the values (the next compute writes the state's array again); C's pattern arrays are shared by
// every result of the state (nothing writes them again).
csr compute_reused(reuse_state& st, const csr& a, const csr& b) {
  const auto m = a.shape()[0];
  cusparseHandle_t h = detail::handle(st.key.device);
  const cudaDataType vt = detail::value_type(st.key.type, "spgemm");
  const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
  const scalars s;
  // B's values may be another array over the same pattern
  detail::check(cusparseCsrSetPointers(st.mb.get(), const_cast<void*>(b.indptr().data()),
                                       const_cast<void*>(b.indices().data()), const_cast<void*>(b.data().data())),
                "cusparseCsrSetPointers");
  detail::check(cusparseSpGEMMreuse_compute(h, op, op, s.one(vt), st.ma.get(), st.mb.get(), s.zero(vt), st.mc.get(), vt,
                                            CUSPARSE_SPGEMM_DEFAULT, st.descr.get()),
                "cusparseSpGEMMreuse_compute");
  return csr::from_parts(st.c_data.copy(), st.c_indices, st.c_indptr, {m, st.key.k}, a.kind(), std::nullopt,
                         std::nullopt);
}
}  // namespace

namespace detail {

csr spgemm_reused(const csr& a, const csr& b) {
  if (!reusable(a, b)) throw ValueError("internal: spgemm_reused takes canonical int32 float/complex operands of one dtype");
  const product_key key = key_of(a, b);
  cupp::detail::device_scope scope(key.device);
  const auto cache = a.cache();
  std::lock_guard lock(cache->mutex);
  reuse_slot& slot = slot_of(*cache);
  if (!slot.built || !(slot.built->key == key)) {
    slot.built.reset();
    slot.built = build_reuse(a, b, key);
  }
  return compute_reused(*slot.built, a, b);
}

std::optional<csr> spgemm_repeated(const csr& a, const csr& b) {
  if (!reusable(a, b)) return std::nullopt;
  const product_key key = key_of(a, b);
  cupp::detail::device_scope scope(key.device);
  const auto cache = a.cache();
  std::lock_guard lock(cache->mutex);
  reuse_slot& slot = slot_of(*cache);
  if (slot.built && slot.built->key == key) return compute_reused(*slot.built, a, b);
  if (slot.last == key) {
    ++slot.repeats;
  } else {
    slot.last = key, slot.repeats = 1, slot.refused = false;
  }
  if (slot.repeats <= spgemm_plain_repeats || slot.refused) return std::nullopt;
  try {
    slot.built.reset();  // another product's state goes first (its C and buffers are not held twice)
    std::shared_ptr<reuse_state> st = build_reuse(a, b, key);
    slot.built = st;
    slot.last = product_key{}, slot.repeats = 0;
    return compute_reused(*st, a, b);
  } catch (const alg_refused&) {
    slot.refused = true;  // short of memory for the reuse buffers: this product stays plain
    return std::nullopt;
  }
}

bool spgemm_reuse_built(const csr& a) {
  const auto cache = a.cache();
  std::lock_guard lock(cache->mutex);
  return cache->spgemm_reuse && std::static_pointer_cast<reuse_slot>(cache->spgemm_reuse)->built != nullptr;
}

}  // namespace detail

csr spgemm(const csr& a, const csr& b) {
  if (std::optional<csr> c = detail::spgemm_repeated(a, b)) return *std::move(c);
  return detail::spgemm_alg(a, b, CUSPARSE_SPGEMM_DEFAULT);
}

// ---- matmul (SciPy's @)

ndarray matmul(const csr& a, const ndarray& b, const product_options& opts) { return a.dot(b, opts); }
ndarray matmul(const csc& a, const ndarray& b, const product_options& opts) { return a.dot(b, opts); }
csr matmul(const csr& a, const csr& b) { return spgemm(a, b); }

ndarray matmul(const ndarray& a, const csr& b, const product_options& opts) {
  // a @ B = (B^T @ a^T)^T, B^T = B's CSC arrays read as CSR
  return matmul(a, b.tocsc(), opts);
}

ndarray matmul(const ndarray& a, const csc& b, const product_options& opts) {
  if (a.is_null()) throw ValueError("sparse matmul: a null array");
  const csr bt = b.transpose();
  const auto [m, n] = b.shape();
  if (a.ndim() == 1) {
    if (a.shape(0) != m) throw ValueError("dimension mismatch");
    return spmv(bt, a, opts);
  }
  if (a.ndim() != 2) throw ValueError("sparse matmul: the dense operand must be 1-D or 2-D");
  if (a.shape(1) != m) throw ValueError("dimension mismatch");
  const ndarray at = cupp::ascontiguousarray(a.transpose());
  return cupp::ascontiguousarray(spmm(bt, at, opts).transpose());
}

}  // namespace cupp::sparse
