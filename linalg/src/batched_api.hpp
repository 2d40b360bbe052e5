// Internal to the linalg solvers: the typed cuBLAS / cuSOLVER calls that have no generic-type form
// (getrfBatched, getrsBatched, getriBatched, potrfBatched, trsmBatched, trsm, orgqr/ungqr, gesvdjBatched, gesvdj), each
// dispatched on cupp's dtype. Pointers are untyped (void*) here and cast to the dtype's type.
#pragma once

#include <cuComplex.h>
#include <cublas_v2.h>
#include <cusolverDn.h>

#include <cstdint>
#include <type_traits>

#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"

namespace cupp::linalg::detail {

// Calls f(T{}) with T the host type of t (float, double, cuComplex, cuDoubleComplex).
template <class F>
decltype(auto) with_type(cupp::dtype t, F&& f) {
  switch (t.id()) {
    case type_id::float32: return f(float{});
    case type_id::float64: return f(double{});
    case type_id::complex64: return f(cuComplex{});
    case type_id::complex128: return f(cuDoubleComplex{});
    default: break;
  }
  throw TypeError("linalg: unsupported dtype " + t.name());
}

template <class T>
struct real_type {
  using type = T;
};
template <>
struct real_type<cuComplex> {
  using type = float;
};
template <>
struct real_type<cuDoubleComplex> {
  using type = double;
};

template <class T>
T* const* ptrs(void* p) {
  return static_cast<T* const*>(p);
}

template <class T>
cublasStatus_t getrf_batched(cublasHandle_t h, int n, void* a, int lda, int* piv, int* info, int batch) {
  if constexpr (std::is_same_v<T, float>) return cublasSgetrfBatched(h, n, ptrs<float>(a), lda, piv, info, batch);
  else if constexpr (std::is_same_v<T, double>) return cublasDgetrfBatched(h, n, ptrs<double>(a), lda, piv, info, batch);
  else if constexpr (std::is_same_v<T, cuComplex>) return cublasCgetrfBatched(h, n, ptrs<cuComplex>(a), lda, piv, info, batch);
  else return cublasZgetrfBatched(h, n, ptrs<cuDoubleComplex>(a), lda, piv, info, batch);
}

template <class T>
cublasStatus_t getrs_batched(cublasHandle_t h, cublasOperation_t op, int n, int nrhs, void* a, int lda, const int* piv,
                             void* b, int ldb, int* info, int batch) {
  if constexpr (std::is_same_v<T, float>)
    return cublasSgetrsBatched(h, op, n, nrhs, static_cast<const float* const*>(a), lda, piv, ptrs<float>(b), ldb, info, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cublasDgetrsBatched(h, op, n, nrhs, static_cast<const double* const*>(a), lda, piv, ptrs<double>(b), ldb, info, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cublasCgetrsBatched(h, op, n, nrhs, static_cast<const cuComplex* const*>(a), lda, piv, ptrs<cuComplex>(b), ldb, info, batch);
  else
    return cublasZgetrsBatched(h, op, n, nrhs, static_cast<const cuDoubleComplex* const*>(a), lda, piv,
                               ptrs<cuDoubleComplex>(b), ldb, info, batch);
}

template <class T>
cublasStatus_t getri_batched(cublasHandle_t h, int n, void* a, int lda, const int* piv, void* c, int ldc, int* info,
                             int batch) {
  if constexpr (std::is_same_v<T, float>)
    return cublasSgetriBatched(h, n, static_cast<const float* const*>(a), lda, piv, ptrs<float>(c), ldc, info, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cublasDgetriBatched(h, n, static_cast<const double* const*>(a), lda, piv, ptrs<double>(c), ldc, info, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cublasCgetriBatched(h, n, static_cast<const cuComplex* const*>(a), lda, piv, ptrs<cuComplex>(c), ldc, info, batch);
  else
    return cublasZgetriBatched(h, n, static_cast<const cuDoubleComplex* const*>(a), lda, piv, ptrs<cuDoubleComplex>(c),
                               ldc, info, batch);
}

template <class T>
cusolverStatus_t potrf_batched(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, void* a, int lda, int* info, int batch) {
  if constexpr (std::is_same_v<T, float>) return cusolverDnSpotrfBatched(h, uplo, n, static_cast<float**>(a), lda, info, batch);
  else if constexpr (std::is_same_v<T, double>) return cusolverDnDpotrfBatched(h, uplo, n, static_cast<double**>(a), lda, info, batch);
  else if constexpr (std::is_same_v<T, cuComplex>) return cusolverDnCpotrfBatched(h, uplo, n, static_cast<cuComplex**>(a), lda, info, batch);
  else return cusolverDnZpotrfBatched(h, uplo, n, static_cast<cuDoubleComplex**>(a), lda, info, batch);
}

template <class T>
cublasStatus_t trsm_batched(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, int m,
                            int n, const T* alpha, void* a, int lda, void* b, int ldb, int batch) {
  if constexpr (std::is_same_v<T, float>)
    return cublasStrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const float* const*>(a), lda, ptrs<float>(b), ldb, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cublasDtrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const double* const*>(a), lda, ptrs<double>(b), ldb, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cublasCtrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const cuComplex* const*>(a), lda, ptrs<cuComplex>(b), ldb, batch);
  else
    return cublasZtrsmBatched(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const cuDoubleComplex* const*>(a), lda,
                              ptrs<cuDoubleComplex>(b), ldb, batch);
}

template <class T>
cublasStatus_t trsm(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t op, cublasDiagType_t diag, std::int64_t m,
                    std::int64_t n, const T* alpha, const void* a, std::int64_t lda, void* b, std::int64_t ldb) {
  if constexpr (std::is_same_v<T, float>)
    return cublasStrsm_v2_64(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const float*>(a), lda, static_cast<float*>(b), ldb);
  else if constexpr (std::is_same_v<T, double>)
    return cublasDtrsm_v2_64(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const double*>(a), lda, static_cast<double*>(b), ldb);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cublasCtrsm_v2_64(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const cuComplex*>(a), lda, static_cast<cuComplex*>(b), ldb);
  else
    return cublasZtrsm_v2_64(h, CUBLAS_SIDE_LEFT, uplo, op, diag, m, n, alpha, static_cast<const cuDoubleComplex*>(a), lda,
                             static_cast<cuDoubleComplex*>(b), ldb);
}

template <class T>
cusolverStatus_t orgqr_buffer(cusolverDnHandle_t h, int m, int n, int k, void* a, int lda, void* tau, int* lwork) {
  if constexpr (std::is_same_v<T, float>) return cusolverDnSorgqr_bufferSize(h, m, n, k, static_cast<float*>(a), lda, static_cast<float*>(tau), lwork);
  else if constexpr (std::is_same_v<T, double>) return cusolverDnDorgqr_bufferSize(h, m, n, k, static_cast<double*>(a), lda, static_cast<double*>(tau), lwork);
  else if constexpr (std::is_same_v<T, cuComplex>) return cusolverDnCungqr_bufferSize(h, m, n, k, static_cast<cuComplex*>(a), lda, static_cast<cuComplex*>(tau), lwork);
  else return cusolverDnZungqr_bufferSize(h, m, n, k, static_cast<cuDoubleComplex*>(a), lda, static_cast<cuDoubleComplex*>(tau), lwork);
}

template <class T>
cusolverStatus_t orgqr(cusolverDnHandle_t h, int m, int n, int k, void* a, int lda, void* tau, void* work, int lwork, int* info) {
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSorgqr(h, m, n, k, static_cast<float*>(a), lda, static_cast<float*>(tau), static_cast<float*>(work), lwork, info);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDorgqr(h, m, n, k, static_cast<double*>(a), lda, static_cast<double*>(tau), static_cast<double*>(work), lwork, info);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCungqr(h, m, n, k, static_cast<cuComplex*>(a), lda, static_cast<cuComplex*>(tau), static_cast<cuComplex*>(work), lwork, info);
  else
    return cusolverDnZungqr(h, m, n, k, static_cast<cuDoubleComplex*>(a), lda, static_cast<cuDoubleComplex*>(tau),
                            static_cast<cuDoubleComplex*>(work), lwork, info);
}

template <class T>
cusolverStatus_t gesvdj_batched_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n, void* a, int lda, void* s,
                                       void* u, int ldu, void* v, int ldv, int* lwork, gesvdjInfo_t params, int batch) {
  using R = typename real_type<T>::type;
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSgesvdjBatched_bufferSize(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDgesvdjBatched_bufferSize(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCgesvdjBatched_bufferSize(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params, batch);
  else
    return cusolverDnZgesvdjBatched_bufferSize(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params, batch);
}

template <class T>
cusolverStatus_t gesvdj_batched(cusolverDnHandle_t h, cusolverEigMode_t jobz, int m, int n, void* a, int lda, void* s, void* u,
                                int ldu, void* v, int ldv, void* work, int lwork, int* info, gesvdjInfo_t params, int batch) {
  using R = typename real_type<T>::type;
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSgesvdjBatched(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params, batch);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDgesvdjBatched(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params, batch);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCgesvdjBatched(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params, batch);
  else
    return cusolverDnZgesvdjBatched(h, jobz, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params, batch);
}

// One matrix's Jacobi SVD (gesvdj): econ 1 gives U m x min(m, n), V n x min(m, n).
template <class T>
cusolverStatus_t gesvdj_buffer(cusolverDnHandle_t h, cusolverEigMode_t jobz, int econ, int m, int n, void* a, int lda,
                               void* s, void* u, int ldu, void* v, int ldv, int* lwork, gesvdjInfo_t params) {
  using R = typename real_type<T>::type;
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params);
  else
    return cusolverDnZgesvdj_bufferSize(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, lwork, params);
}

template <class T>
cusolverStatus_t gesvdj(cusolverDnHandle_t h, cusolverEigMode_t jobz, int econ, int m, int n, void* a, int lda, void* s,
                        void* u, int ldu, void* v, int ldv, void* work, int lwork, int* info, gesvdjInfo_t params) {
  using R = typename real_type<T>::type;
  if constexpr (std::is_same_v<T, float>)
    return cusolverDnSgesvdj(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params);
  else if constexpr (std::is_same_v<T, double>)
    return cusolverDnDgesvdj(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params);
  else if constexpr (std::is_same_v<T, cuComplex>)
    return cusolverDnCgesvdj(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params);
  else
    return cusolverDnZgesvdj(h, jobz, econ, m, n, static_cast<T*>(a), lda, static_cast<R*>(s), static_cast<T*>(u), ldu, static_cast<T*>(v), ldv, static_cast<T*>(work), lwork, info, params);
}

}  // namespace cupp::linalg::detail
