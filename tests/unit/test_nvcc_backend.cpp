// The NVCC backend without a GPU: nvcc compiles an extern "C" kernel to a CUBIN for sm_90, a
// broken source is a CompileError carrying nvcc's output, the cache key tells the backends
// apart, and RawModule rejects what the backend cannot do.
#include <gtest/gtest.h>

#include <string>

#include "compiler/compiler.hpp"
#include "compiler/nvcc_backend.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail {
namespace {

TEST(NvccBackend, CompilesToACubin) {
  const std::string cubin =
      nvcc_compile("t", "extern \"C\" __global__ void k(int* p) { *p = 42; }", 90, {}, /*debug=*/false);
  ASSERT_GT(cubin.size(), 4u);
  EXPECT_EQ(cubin.substr(0, 4), "\x7f" "ELF");
  EXPECT_NE(nvcc_version_text().find("Cuda compilation tools"), std::string::npos) << nvcc_version_text();
}

TEST(NvccBackend, ErrorsCarryNvccOutput) {
  try {
    nvcc_compile("broken", "extern \"C\" __global__ void k() { no_such_function(); }", 90, {}, false);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(e.log().find("no_such_function"), std::string::npos) << e.log();
    EXPECT_NE(std::string(e.what()).find("nvcc failed"), std::string::npos);
  }
}

TEST(NvccBackend, KeyDiffersFromNvrtc) {
  const program_source nvrtc{"p", "extern \"C\" __global__ void k() {}", {}, {}, false};
  program_source nvcc = nvrtc;
  nvcc.use_nvcc = true;
  const compile_flags flags{.arch = 90};
  EXPECT_NE(program_key(nvrtc, flags), program_key(nvcc, flags));
}

TEST(NvccBackend, RawModuleRejectsWhatItCannotDo) {
  EXPECT_THROW(cuda::RawModule("", {.backend = "clang"}), ValueError);
  EXPECT_THROW(cuda::RawModule("", {.name_expressions = {"k<int>"}, .backend = "nvcc"}), ValueError);
  EXPECT_NO_THROW(cuda::RawModule("", {.backend = "nvcc"}));
}

}  // namespace
}  // namespace cupp::detail
