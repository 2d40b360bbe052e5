# The linalg module (cupp::linalg, namespace cupp::linalg, include <cupp/linalg.hpp>): NumPy's
# numpy.linalg and the matrix products over cuBLAS, cuBLASLt and cuSOLVER. Built by
# cmake/CuppModule.cmake's template; its routines go in specs/routines/ with `module: linalg`.
cupp_add_module(linalg LIBRARIES CUDA::cublas CUDA::cublasLt CUDA::cusolver)
