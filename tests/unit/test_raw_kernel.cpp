// User kernels without a GPU: construction is lazy (nothing compiles or touches CUDA), and a
// template kernel that is not among the module's name expressions is a ValueError.
#include <gtest/gtest.h>

#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/errors.hpp"

namespace cupp::cuda {
namespace {

TEST(RawKernel, ConstructionIsLazy) {
  // Invalid CUDA: only the first launch or compile() would notice.
  EXPECT_NO_THROW(RawKernel("this is not CUDA", "k"));
  RawModule m("template <class T> __global__ void k(T*) {}", {.name_expressions = {"k<float>"}});
  EXPECT_NO_THROW(m.get_function("k<float>"));
  EXPECT_THROW(m.get_function("k<int>"), ValueError);
  EXPECT_EQ(m.get_function("k<float>").name(), "k<float>");
}

}  // namespace
}  // namespace cupp::cuda
