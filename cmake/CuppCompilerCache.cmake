# Uses ccache for C++ (and later nvcc) compiles when it is installed: builds on 2 cores are slow.
find_program(CUPP_CCACHE ccache)
if(CUPP_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${CUPP_CCACHE})
  set(CMAKE_CUDA_COMPILER_LAUNCHER ${CUPP_CCACHE})
endif()
