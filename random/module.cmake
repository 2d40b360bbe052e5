# The random module (cupp::random, namespace cupp::random, include <cupp/random.hpp>): NumPy's
# numpy.random (counter-based Philox, cuRAND). Built by cmake/CuppModule.cmake's template.
cupp_add_module(random LIBRARIES CUDA::curand)
