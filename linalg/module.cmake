# The linalg module (cupp::linalg, namespace cupp::linalg, include <cupp/linalg.hpp>): NumPy's
# numpy.linalg and the matrix products over cuBLAS, cuBLASLt and cuSOLVER. Built by
# cmake/CuppModule.cmake's template; its routines go in specs/routines/ with `module: linalg`.
cupp_add_module(linalg LIBRARIES CUDA::cublas CUDA::cublasLt CUDA::cusolver)
# linalg/bench/host_path.cpp: where a product's host and device time goes (run on the GPU machine).
add_executable(cupp_bench_linalg_host_path ${CMAKE_CURRENT_LIST_DIR}/bench/host_path.cpp)
target_link_libraries(cupp_bench_linalg_host_path PRIVATE cupp::linalg cupp_linalg_internal cupp_core_internal
                                                          CUDA::cublas CUDA::cublasLt)
