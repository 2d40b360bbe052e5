# The fft module (cupp::fft, namespace cupp::fft, include <cupp/fft.hpp>): NumPy's numpy.fft over
# cuFFT. Built by cmake/CuppModule.cmake's template; its routines are specs/routines/fft.yaml.
cupp_add_module(fft LIBRARIES CUDA::cufft)
# fft/bench/callbacks.cpp: a store callback's first use and its cost against the plain transform
# (run on the GPU machine by fft/bench/gpu-run.sh's callbacks step).
add_executable(cupp_bench_fft_callbacks ${CMAKE_CURRENT_LIST_DIR}/bench/callbacks.cpp)
target_link_libraries(cupp_bench_fft_callbacks PRIVATE cupp::fft cupp_core_internal)
