# Enables CMake's CUDA language for cupp's ahead-of-time device code (the CUB accelerators in
# runtime/src/accel/*.cu). The architecture comes from CUPP_NVCC_GENERATE_CODE ("sm_90" by
# default; "current" = the GPU present at configure time, else sm_90) unless
# CMAKE_CUDA_ARCHITECTURES is given. nvcc is the toolkit's when CUDACXX does not name one.
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
  find_program(CUPP_NVCC_EXECUTABLE nvcc HINTS ENV CUDA_PATH PATH_SUFFIXES bin PATHS /usr/local/cuda/bin)
  if(CUPP_NVCC_EXECUTABLE)
    set(CMAKE_CUDA_COMPILER ${CUPP_NVCC_EXECUTABLE})
  endif()
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  set(_cupp_arch ${CUPP_NVCC_GENERATE_CODE})
  if(_cupp_arch STREQUAL "current")
    set(_cupp_arch "sm_90")
    find_program(CUPP_NVIDIA_SMI nvidia-smi)
    if(CUPP_NVIDIA_SMI)
      execute_process(COMMAND ${CUPP_NVIDIA_SMI} --query-gpu=compute_cap --format=csv,noheader
                      OUTPUT_VARIABLE _cupp_cc RESULT_VARIABLE _cupp_rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(_cupp_rc EQUAL 0 AND _cupp_cc MATCHES "^([0-9]+)\\.([0-9]+)")
        set(_cupp_arch "sm_${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      endif()
    endif()
  endif()
  string(REGEX REPLACE "^(sm_|compute_)" "" _cupp_arch "${_cupp_arch}")
  set(CMAKE_CUDA_ARCHITECTURES ${_cupp_arch})
endif()
if(NOT DEFINED CMAKE_CUDA_RUNTIME_LIBRARY)
  set(CMAKE_CUDA_RUNTIME_LIBRARY Static)  # as cupp_core links cudart_static
endif()
enable_language(CUDA)
