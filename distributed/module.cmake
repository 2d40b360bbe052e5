# The distributed module (cupp::distributed, include <cupp/cuda/nccl.hpp> and <cupp/distributed.hpp>):
# NCCL communicators and collectives on cupp ndarrays. libnccl is loaded with dlopen at run time,
# never linked, so only the loader library (CMAKE_DL_LIBS) is named here; nccl.h (the CUDA
# toolkit's include folder) gives the types.
cupp_add_module(distributed LIBRARIES ${CMAKE_DL_LIBS})
