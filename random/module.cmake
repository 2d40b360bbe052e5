# The random module (cupp::random, namespace cupp::random, include <cupp/random.hpp>): NumPy's
# numpy.random (counter-based Philox4x32-10; cuRAND for `cupp info`). Built by cmake/CuppModule.cmake's template.
cupp_add_module(random LIBRARIES CUDA::curand)
# The device code on the include path of the module's internal headers, so host tests can compile
# the kernels with tests/unit/random/device_shim.hpp (their logic checked without a GPU).
target_include_directories(cupp_random_internal INTERFACE $<BUILD_INTERFACE:${CMAKE_CURRENT_LIST_DIR}/device>
                                                          $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/runtime/device>)
