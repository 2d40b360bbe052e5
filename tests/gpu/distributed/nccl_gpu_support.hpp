// The NCCL GPU tests' guard: skip without a GPU; refuse (fail) unless NCCL_NVLS_ENABLE=0, since
// NVLink multicast can take a shared host's GPUs out of service; fail where libnccl does not load.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "cupp/cuda/nccl.hpp"
#include "gpu_support.hpp"

#define CUPP_REQUIRE_NCCL()                                                                             \
  do {                                                                                                  \
    CUPP_REQUIRE_GPU();                                                                                 \
    const char* nvls_ = std::getenv("NCCL_NVLS_ENABLE");                                                \
    if (nvls_ == nullptr || std::string(nvls_) != "0")                                                  \
      GTEST_FAIL() << "refusing to run NCCL tests: set NCCL_NVLS_ENABLE=0 (NVLink multicast can take "  \
                      "the host's GPUs out of service); it is "                                         \
                   << (nvls_ ? nvls_ : "unset");                                                        \
    if (!::cupp::cuda::nccl::available())                                                               \
      GTEST_FAIL() << "libnccl could not be loaded: " << ::cupp::cuda::nccl::unavailable_reason();      \
  } while (0)
