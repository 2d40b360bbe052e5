# The sparse module (cupp::sparse, namespace cupp::sparse, include <cupp/sparse.hpp>): SciPy's
# scipy.sparse over cuSPARSE. Built by cmake/CuppModule.cmake's template.
cupp_add_module(sparse LIBRARIES CUDA::cusparse)
