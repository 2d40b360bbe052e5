# The distributed module (cupp::distributed, include <cupp/cuda/nccl.hpp> and <cupp/distributed.hpp>):
# NCCL communicators and collectives on cupp ndarrays. libnccl is loaded with dlopen at run time,
# never linked, so only the loader library (CMAKE_DL_LIBS) is named here; nccl.h (the CUDA
# toolkit's include folder) gives the types.
cupp_add_module(distributed LIBRARIES ${CMAKE_DL_LIBS})

# The bench (distributed/bench/nccl_bench.cpp): all_reduce bandwidth over every device and the
# peer copy of a strided view; its PyTorch side is bench/torch_allreduce.py, bench/gpu-run.sh runs both.
if(CUPP_BUILD_BENCH)
  add_executable(cupp_bench_distributed ${CMAKE_CURRENT_LIST_DIR}/bench/nccl_bench.cpp)
  target_link_libraries(cupp_bench_distributed PRIVATE cupp_distributed cupp_core CUDA::cudart_static)
endif()
