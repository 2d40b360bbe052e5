// Internal to the sparse module: cuSPARSE under RAII. check() turns a cusparseStatus_t into a
// CudaError naming the call; handle() is this thread's handle on a device (one per (thread,
// device), made on first use, destroyed at thread exit) bound to the device's current cupp stream
// on every call; sp_mat / dn_mat / dn_vec own generic-API descriptors; product_cache is what an
// object keeps between products (its CSR descriptor and, per operation, algorithm and stream, the
// work buffer and its _preprocess state), freed with the object.
#pragma once

#include <cusparse.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "cupp/cuda/memory.hpp"
#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::sparse::detail {

void check(cusparseStatus_t status, const char* call);

// This thread's cuSPARSE handle on `device` (the current device made current by the caller),
// with cusparseSetStream to that device's current cupp stream done.
cusparseHandle_t handle(int device);

// cudaDataType of a value dtype; TypeError naming `op` for dtypes cuSPARSE does not compute in.
cudaDataType value_type(const cupp::dtype& type, const char* op);
bool has_value_type(const cupp::dtype& type) noexcept;
cusparseIndexType_t index_type(const cupp::dtype& type);

class sp_mat {
 public:
  sp_mat() noexcept = default;
  explicit sp_mat(cusparseSpMatDescr_t d) noexcept : d_(d) {}
  ~sp_mat() { reset(); }
  sp_mat(sp_mat&& o) noexcept : d_(std::exchange(o.d_, nullptr)) {}
  sp_mat& operator=(sp_mat&& o) noexcept {
    if (this != &o) reset(), d_ = std::exchange(o.d_, nullptr);
    return *this;
  }
  sp_mat(const sp_mat&) = delete;
  sp_mat& operator=(const sp_mat&) = delete;
  cusparseSpMatDescr_t get() const noexcept { return d_; }
  explicit operator bool() const noexcept { return d_ != nullptr; }
  void reset() noexcept {
    if (d_) cusparseDestroySpMat(d_);
    d_ = nullptr;
  }

 private:
  cusparseSpMatDescr_t d_ = nullptr;
};

class dn_mat {
 public:
  dn_mat(std::int64_t rows, std::int64_t cols, std::int64_t ld, void* values, cudaDataType type, cusparseOrder_t order);
  ~dn_mat() {
    if (d_) cusparseDestroyDnMat(d_);
  }
  dn_mat(const dn_mat&) = delete;
  dn_mat& operator=(const dn_mat&) = delete;
  cusparseDnMatDescr_t get() const noexcept { return d_; }

 private:
  cusparseDnMatDescr_t d_ = nullptr;
};

class dn_vec {
 public:
  dn_vec(std::int64_t size, void* values, cudaDataType type);
  ~dn_vec() {
    if (d_) cusparseDestroyDnVec(d_);
  }
  dn_vec(const dn_vec&) = delete;
  dn_vec& operator=(const dn_vec&) = delete;
  cusparseDnVecDescr_t get() const noexcept { return d_; }

 private:
  cusparseDnVecDescr_t d_ = nullptr;
};

// A CSR descriptor over (rows, cols, nnz, indptr, indices, data); empty arrays may have null data.
sp_mat make_csr(std::int64_t rows, std::int64_t cols, const ndarray& indptr, const ndarray& indices,
                const ndarray& data);

enum class operation : int { spmv = 0, spmm = 1 };

// What one (operation, algorithm, compute type, dense columns) keeps between products on one
// stream: its work buffer (bufferSize asked once) and whether _preprocess has run into it.
struct product_plan {
  operation op = operation::spmv;
  int alg = 0;
  cudaDataType type = CUDA_R_32F;
  std::int64_t cols = 0;  // SpMM's dense columns (0 for SpMV)
  cuda::stream_handle stream{};
  int device = -1;
  bool sized = false;  // bufferSize asked
  std::size_t bytes = 0;
  cuda::Memory buffer;
  bool preprocessed = false;
  bool refused = false;  // cuSPARSE refused the algorithm for these operands (SpMM tries the next)
};

struct product_cache {
  std::mutex mutex;
  // The descriptor of the arrays it was made for (rebuilt when the object's arrays change).
  sp_mat descr;
  const void *data = nullptr, *indices = nullptr, *indptr = nullptr;
  int device = -1;
  cupp::dtype type = float64;
  // The plans made for this descriptor (cleared when it is rebuilt).
  std::vector<product_plan> plans;
  // SpGEMMreuse's state for the last B multiplied with this object (products.cpp's reuse_state:
  // B's pattern, the descriptors, the buffers compute needs and C's arrays).
  std::shared_ptr<void> spgemm_reuse;

  // The cached descriptor for these arrays (made on a miss).
  cusparseSpMatDescr_t csr(std::int64_t rows, std::int64_t cols, const ndarray& indptr_a, const ndarray& indices_a,
                           const ndarray& data_a);
  // The plan of (op, alg, type, cols) for `stream` of `dev`: found, or new (bytes 0, no buffer,
  // not preprocessed) in place of one made for another stream.
  product_plan& plan(operation op, int alg, cudaDataType type, std::int64_t cols, int dev, cuda::stream_handle stream);
};

}  // namespace cupp::sparse::detail
