// nvJitLink without a GPU: two pieces compiled separately to LTO-IR link into one CUBIN for
// sm_90; an unresolved device function is a CompileError with nvJitLink's log.
#include <gtest/gtest.h>

#include <string>

#include "compiler/lto_link.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail {
namespace {

const lto_piece kCaller{"caller", R"(
extern __device__ float helper(float);
extern "C" __global__ void apply(float* x) { x[threadIdx.x] = helper(x[threadIdx.x]); })", {}};
const lto_piece kHelper{"helper", "__device__ float helper(float v) { return 2.0f * v + 1.0f; }", {}};

TEST(LtoLink, SeparatePiecesLinkIntoOneCubin) {
  const lto_piece pieces[] = {kCaller, kHelper};
  const std::string cubin = compile_and_link(pieces, 90);
  ASSERT_GT(cubin.size(), 4u);
  EXPECT_EQ(cubin.substr(0, 4), "\x7f" "ELF");
  EXPECT_NE(cubin.find("apply"), std::string::npos);
  EXPECT_FALSE(nvjitlink_version_string().empty());
}

TEST(LtoLink, UnresolvedSymbolIsACompileErrorWithTheLog) {
  const lto_piece pieces[] = {kCaller};
  try {
    compile_and_link(pieces, 90);
    FAIL() << "expected CompileError";
  } catch (const CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("nvJitLink"), std::string::npos) << e.what();
    EXPECT_FALSE(e.log().empty());
  }
}

}  // namespace
}  // namespace cupp::detail
