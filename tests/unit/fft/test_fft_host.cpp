// The fft module without a GPU (tests/unit/<module>/ is globbed with the unit tests): fftfreq's and
// rfftfreq's errors come before any device work, as NumPy's do before any array is made; the
// module list cupp::cupp carries names the module folders; the module's own device code (embedded
// from fft/device/) compiles with NVRTC, which needs no GPU.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "compiler/nvrtc_program.hpp"
#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/modules.hpp"
#include "error_of.hpp"
#include "fft_device_headers.hpp"
#include "helpers_program.hpp"

namespace cupp {
namespace {

using test::error_of;

TEST(FftHost, SampleFrequencyErrorsAreNumPys) {
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(0); }), "float division by zero");
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(8, 0.0); }), "float division by zero");
  EXPECT_EQ(error_of<ValueError>([] { fft::rfftfreq(0, 2.0); }), "float division by zero");
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(-3); }), "negative dimensions are not allowed");
  // n * d == 0 is checked first, as NumPy's 1.0 / (n * d) comes before its empty(n).
  EXPECT_EQ(error_of<ValueError>([] { fft::fftfreq(-3, 0.0); }), "float division by zero");
}

TEST(ModulesHost, CuppCarriesEveryModuleWithItsLibraryVersions) {
  std::set<std::string> names;
  for (const module_entry& m : modules()) {
    names.emplace(m.name);
    const auto rows = m.info();
    ASSERT_FALSE(rows.empty()) << m.name;
    for (const module_info_row& r : rows) {
      EXPECT_FALSE(r.key.empty()) << m.name;
      EXPECT_EQ(r.value.find("unknown"), std::string::npos) << m.name << ": " << r.key << " " << r.value;
    }
  }
  for (const char* name : {"fft", "linalg", "random", "sparse"}) EXPECT_EQ(names.count(name), 1u) << name;
}

// The module's device headers are embedded under their include names, with a digest, and its
// program compiles for sm_90 from them (cupp's own headers come along: launch.cuh).
TEST(FftHost, ModuleDeviceCodeIsEmbeddedAndCompiles) {
  bool found = false;
  for (const cupp::detail::embedded_header& h : fft::detail::embedded_headers())
    found |= h.name == "cupp/fft/frequencies.cuh" && h.contents.find("cupp_fft_frequencies") != std::string_view::npos;
  EXPECT_TRUE(found);
  EXPECT_EQ(fft::detail::embedded_headers_digest().size(), 64u);
  const cupp::detail::routine_program p = fft::detail::helpers_program();
  ASSERT_FALSE(p.headers.empty());
  const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
      {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
       .extra_headers = p.headers});
  EXPECT_EQ(out.lowered_names.size(), 1u);
  EXPECT_FALSE(out.binary.empty());
  // Without the module's headers the program cannot find its include.
  EXPECT_THROW(cupp::detail::nvrtc_compile({.program_name = p.name, .source = p.source,
                                            .name_expressions = p.kernels, .arch = 90}),
               std::exception);
}

}  // namespace
}  // namespace cupp
