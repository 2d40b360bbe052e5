// The error hierarchy mirrors NumPy's exception classes (docs/architecture.md "Errors").
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "cupp/errors.hpp"

namespace cupp {
namespace {

TEST(Errors, HierarchyFollowsNumPy) {
  static_assert(std::is_base_of_v<std::exception, Error>);
  static_assert(std::is_base_of_v<Error, TypeError>);
  static_assert(std::is_base_of_v<Error, ValueError>);
  static_assert(std::is_base_of_v<ValueError, AxisError>);  // NumPy's AxisError is a ValueError
  static_assert(std::is_base_of_v<Error, IndexError>);
  static_assert(std::is_base_of_v<Error, OverflowError>);
  static_assert(std::is_base_of_v<Error, LinAlgError>);
  static_assert(std::is_base_of_v<Error, OutOfMemoryError>);
  static_assert(std::is_base_of_v<Error, CompileError>);
  static_assert(std::is_base_of_v<Error, CudaError>);
  static_assert(!std::is_base_of_v<ValueError, TypeError>);
  EXPECT_THROW(throw AxisError("axis 3 is out of bounds for array of dimension 2"), ValueError);
}

TEST(Errors, OutOfMemoryNamesRequestedInUseAndLimit) {
  const OutOfMemoryError e(1024, 4096, 8192);
  const std::string msg = e.what();
  EXPECT_NE(msg.find("1024"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4096"), std::string::npos) << msg;
  EXPECT_NE(msg.find("8192"), std::string::npos) << msg;
  EXPECT_EQ(e.requested(), 1024u);
  EXPECT_EQ(e.in_use(), 4096u);
  EXPECT_EQ(e.limit(), 8192u);
  const std::string no_limit = OutOfMemoryError(1, 2, 0).what();
  EXPECT_EQ(no_limit.find("limit"), std::string::npos) << no_limit;
}

TEST(Errors, CompileAndCudaErrorsKeepTheirDetails) {
  const CompileError c("NVRTC failed", "line 1: error", "1\tsource");
  EXPECT_EQ(c.log(), "line 1: error");
  EXPECT_EQ(c.source(), "1\tsource");
  const CudaError d("cudaMalloc failed: cudaErrorMemoryAllocation", 2);
  EXPECT_EQ(d.code(), 2);
  EXPECT_NE(std::string(d.what()).find("cudaMalloc"), std::string::npos);
}

}  // namespace
}  // namespace cupp
