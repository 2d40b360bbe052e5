# The fft module (cupp::fft, namespace cupp::fft, include <cupp/fft.hpp>): NumPy's numpy.fft over
# cuFFT. Built by cmake/CuppModule.cmake's template; its routines are specs/routines/fft.yaml.
cupp_add_module(fft LIBRARIES CUDA::cufft)
