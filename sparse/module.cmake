# The sparse module (cupp::sparse, namespace cupp::sparse, include <cupp/sparse.hpp>): SciPy's
# scipy.sparse over cuSPARSE. Built by cmake/CuppModule.cmake's template.
cupp_add_module(sparse LIBRARIES CUDA::cusparse CUDA::cusolver cupp::linalg)  # cusolver, linalg: sparse.linalg (src/linalg/)
# sparse.random / random_array draw through cupp::random's generator.
target_link_libraries(cupp_sparse PRIVATE cupp_random)
# tocsc's sort path calls the runtime's nvcc-compiled CUB radix sort (runtime/src/accel/cub_sort.hpp),
# present only when cupp is built with the accelerators.
if(CUPP_AOT_ACCELERATORS)
  target_compile_definitions(cupp_sparse PRIVATE CUPP_SPARSE_HAVE_CUB=1)
endif()
