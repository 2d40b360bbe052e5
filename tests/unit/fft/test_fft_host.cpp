// The fft module without a GPU (tests/unit/<module>/ is globbed with the unit tests): fftfreq's and
// rfftfreq's errors come before any device work, as NumPy's do before any array is made; the
// module list cupp::cupp carries names the four module folders.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "cupp/errors.hpp"
#include "cupp/fft.hpp"
#include "cupp/modules.hpp"
#include "error_of.hpp"

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
  EXPECT_EQ(names, (std::set<std::string>{"fft", "linalg", "random", "sparse"}));
}

}  // namespace
}  // namespace cupp
