// Every instantiation of the routines' NVRTC programs (routines/routine_programs.hpp) compiles
// for sm_90 with NVRTC, which needs no GPU: a kernel that does not compile fails here in CI, not
// on a user's first call. Each program must name its kernels and lower every name expression.
#include <gtest/gtest.h>

#include <optional>
#include <set>
#include <string>

#include "compiler/builtin_kernels.hpp"
#include "compiler/nvrtc_program.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {
namespace {

// Every instantiation compiles for sm_90. Built with the built-in kernel table (runtime/aot), the
// build compiled each already (a failure fails the build): the test then finds each in the table
// instead of compiling it again.
TEST(RoutinePrograms, EveryInstantiationCompiles) {
  const auto programs = detail::every_routine_program();
  ASSERT_FALSE(programs.empty());
  std::set<std::string> labels;
  for (const detail::routine_program_instance& p : programs) {
    EXPECT_TRUE(labels.insert(p.label).second) << "two instantiations are labelled " << p.label;
    ASSERT_FALSE(p.program.kernels.empty()) << p.label;
#if CUPP_TEST_AOT_KERNELS
    const std::optional<detail::compiled_program> built =
        detail::builtin_kernels().find(detail::builtin_key(p.program.to_source(), detail::builtin_kernels().architectures().at(0)));
    ASSERT_TRUE(built.has_value()) << p.label << " is not in the built-in table";
    EXPECT_EQ(built->lowered_names.size(), p.program.kernels.size()) << p.label;
    EXPECT_FALSE(built->binary.empty()) << p.label;
    continue;
#endif
    const detail::nvrtc_output out = detail::nvrtc_compile({.program_name = p.program.name,
                                                            .source = p.program.source,
                                                            .name_expressions = p.program.kernels,
                                                            .arch = 90});
    EXPECT_EQ(out.lowered_names.size(), p.program.kernels.size()) << p.label;
    EXPECT_FALSE(out.binary.empty()) << p.label;
  }
}

}  // namespace
}  // namespace cupp
