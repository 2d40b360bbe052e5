// cuSPARSE under RAII (cusparse_wrap.hpp says what each piece is): status checks, the per-thread,
// per-device handles bound to cupp's current stream, the descriptors and the per-object cache.
#include "cusparse_wrap.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cuda/current_stream.hpp"
#include "cupp/errors.hpp"

namespace cupp::sparse::detail {

namespace {

const char* status_name(cusparseStatus_t s) noexcept {
  switch (s) {
    case CUSPARSE_STATUS_SUCCESS: return "CUSPARSE_STATUS_SUCCESS";
    case CUSPARSE_STATUS_NOT_INITIALIZED: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case CUSPARSE_STATUS_ALLOC_FAILED: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case CUSPARSE_STATUS_INVALID_VALUE: return "CUSPARSE_STATUS_INVALID_VALUE";
    case CUSPARSE_STATUS_ARCH_MISMATCH: return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case CUSPARSE_STATUS_EXECUTION_FAILED: return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case CUSPARSE_STATUS_INTERNAL_ERROR: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSPARSE_STATUS_NOT_SUPPORTED: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
    default: return "an unknown cusparseStatus_t";
  }
}

// One thread's handles, by device; destroyed when the thread ends.
struct thread_handles {
  std::vector<cusparseHandle_t> by_device;
  ~thread_handles() {
    for (cusparseHandle_t h : by_device)
      if (h) cusparseDestroy(h);
  }
};

}  // namespace

void check(cusparseStatus_t status, const char* call) {
  if (status != CUSPARSE_STATUS_SUCCESS) [[unlikely]]
    throw CudaError(std::string(call) + " failed: " + status_name(status) + " (" +
                        std::to_string(static_cast<int>(status)) + ")",
                    static_cast<int>(status));
}

cusparseHandle_t handle(int device) {
  thread_local thread_handles handles;
  if (device < 0 || device > 4096) throw ValueError("invalid device id " + std::to_string(device));
  auto& all = handles.by_device;
  if (static_cast<std::size_t>(device) >= all.size()) all.resize(device + 1, nullptr);
  if (!all[device]) {
    cusparseHandle_t h = nullptr;
    check(cusparseCreate(&h), "cusparseCreate");
    all[device] = h;
  }
  check(cusparseSetStream(all[device], cuda::detail::current_stream_handle(device)), "cusparseSetStream");
  return all[device];
}

bool has_value_type(const cupp::dtype& type) noexcept {
  return type == float32 || type == float64 || type == complex64 || type == complex128;
}

cudaDataType value_type(const cupp::dtype& type, const char* op) {
  if (type == float32) return CUDA_R_32F;
  if (type == float64) return CUDA_R_64F;
  if (type == complex64) return CUDA_C_32F;
  if (type == complex128) return CUDA_C_64F;
  throw TypeError(std::string(op) + ": cuSPARSE computes in float32, float64, complex64 and complex128, not " +
                  type.name() + " (docs/deviations.md)");
}

cusparseIndexType_t index_type(const cupp::dtype& type) {
  if (type == int32) return CUSPARSE_INDEX_32I;
  if (type == int64) return CUSPARSE_INDEX_64I;
  throw TypeError("sparse index arrays are int32 or int64, not " + type.name());
}

dn_mat::dn_mat(std::int64_t rows, std::int64_t cols, std::int64_t ld, void* values, cudaDataType type,
               cusparseOrder_t order) {
  check(cusparseCreateDnMat(&d_, rows, cols, ld, values, type, order), "cusparseCreateDnMat");
}

dn_vec::dn_vec(std::int64_t size, void* values, cudaDataType type) {
  check(cusparseCreateDnVec(&d_, size, values, type), "cusparseCreateDnVec");
}

sp_mat make_csr(std::int64_t rows, std::int64_t cols, const ndarray& indptr, const ndarray& indices,
                const ndarray& data) {
  cusparseSpMatDescr_t d = nullptr;
  const cusparseIndexType_t it = index_type(indices.dtype());
  check(cusparseCreateCsr(&d, rows, cols, data.size(), indptr.data(), indices.data(), data.data(), it, it,
                          CUSPARSE_INDEX_BASE_ZERO, value_type(data.dtype(), "sparse product")),
        "cusparseCreateCsr");
  return sp_mat(d);
}

cusparseSpMatDescr_t product_cache::csr(std::int64_t rows, std::int64_t cols, const ndarray& indptr_a,
                                        const ndarray& indices_a, const ndarray& data_a) {
  if (!descr || data != data_a.data() || indices != indices_a.data() || indptr != indptr_a.data() ||
      device != data_a.device() || type != data_a.dtype()) {
    plans.clear();  // their preprocessing was for the old descriptor
    descr = make_csr(rows, cols, indptr_a, indices_a, data_a);
    data = data_a.data(), indices = indices_a.data(), indptr = indptr_a.data();
    device = data_a.device(), type = data_a.dtype();
  }
  return descr.get();
}

product_plan& product_cache::plan(operation op, int alg, cudaDataType t, std::int64_t cols, int dev,
                                  cuda::stream_handle stream) {
  for (product_plan& p : plans) {
    if (p.op != op || p.alg != alg || p.type != t || p.cols != cols) continue;
    if (p.stream != stream || p.device != dev) {  // a buffer is for one stream: start again on this one
      p.buffer.reset();
      p.sized = false;
      p.bytes = 0;
      p.preprocessed = false;
      p.stream = stream, p.device = dev;
    }
    return p;
  }
  product_plan& p = plans.emplace_back();
  p.op = op, p.alg = alg, p.type = t, p.cols = cols, p.stream = stream, p.device = dev;
  return p;
}

}  // namespace cupp::sparse::detail
