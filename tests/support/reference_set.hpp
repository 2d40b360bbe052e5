// The routine families' NumPy reference sets (tests/conformance/routine_ref.py writes them): every
// case of a family's table is run by cupp and compared with NumPy's outputs: dtype, shape, and
// values by cupp::testing::assert_allclose (a relative tolerance per dtype, complex ones by
// magnitude; 0 means exact, NaN equal to NaN).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "array/convert.hpp"
#include "conformance.hpp"
#include "cupp/io.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/testing/gtest.hpp"

namespace cupp::test {

using reference_results = std::vector<ndarray>;
using reference_cases = std::map<std::string, std::function<reference_results()>>;

// Every element of `h` as a complex double (for tests that look at values one by one).
inline std::vector<std::complex<double>> complex_values(const host_array& h) {
  std::vector<std::complex<double>> v(static_cast<std::size_t>(h.size()));
  if (!v.empty())
    detail::convert_elements(h.data(), h.dtype(), reinterpret_cast<std::byte*>(v.data()), complex128, v.size());
  return v;
}

// cupp::testing follows NumPy, where a complex value with a NaN in either part is NaN; the
// reference sets also hold cupp to NumPy's NaN parts (nan+0j is not 0+nanj). "" when they agree
// (or the dtype is not complex), else the first element whose NaN parts differ.
inline std::string complex_nan_parts_mismatch(const host_array& have, const host_array& want) {
  if (want.dtype().kind() != 'c') return "";
  const auto h = complex_values(have), w = complex_values(want);
  for (std::size_t i = 0; i < h.size() && i < w.size(); ++i) {
    if (std::isnan(h[i].real()) != std::isnan(w[i].real()) || std::isnan(h[i].imag()) != std::isnan(w[i].imag())) {
      std::ostringstream m;
      m << "element " << i << ": " << h[i] << ", NumPy's " << w[i] << " (NaN parts differ)";
      return m.str();
    }
  }
  return "";
}

// Runs every case of `cases` against <conformance>/<family>-ref/manifest.json (skips the test,
// saying why, when the build could not make the set). Cases marked numpy2_only are left out when
// the set was made by NumPy 1; every other case of the table and of the script must meet.
inline void check_reference_set(const std::string& family, const reference_cases& cases,
                                const std::function<double(const dtype&)>& tolerance) {
  const std::string dir = conformance_path(family + "-ref");
  if (!std::filesystem::exists(dir + "/manifest.json")) {
    GTEST_SKIP() << "no " << family << " reference data in " << dir
                 << " (NumPy was not importable when the project was configured)";
  }
  const YAML::Node manifest = load_yaml(dir + "/manifest.json");
  const bool numpy2 = manifest["numpy2"].as<bool>();
  std::size_t checked = 0, numpy2_only = 0;
  for (const auto& [id, run] : cases) {
    SCOPED_TRACE(id);
    const YAML::Node c = manifest["cases"][id];
    ASSERT_TRUE(c.IsDefined()) << "make_" << family << "_ref.py has no case " << id;
    if (c["numpy2_only"].as<bool>() && !numpy2) {
      ++numpy2_only;
      continue;
    }
    const reference_results got = run();
    const YAML::Node outs = c["outputs"];
    ASSERT_EQ(got.size(), outs.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
      const host_array want = io::load_npy(dir + "/" + outs[k]["file"].as<std::string>());
      const host_array have = got[k].get();
      ASSERT_EQ(have.dtype(), want.dtype()) << "output " << k << ": " << have.dtype().name() << " vs NumPy's "
                                            << want.dtype().name();
      ASSERT_EQ(have.shape(), want.shape()) << "output " << k;
      const std::string where = "output " + std::to_string(k);
      CUPP_ASSERT_ALLCLOSE(have, want, {.rtol = tolerance(want.dtype()), .atol = 0, .strict = true, .err_msg = where});
      ASSERT_EQ(complex_nan_parts_mismatch(have, want), "") << where;
    }
    ++checked;
  }
  EXPECT_EQ(checked + numpy2_only, cases.size());
  EXPECT_EQ(manifest["cases"].size(), cases.size()) << "a case of make_" << family << "_ref.py has no C++ call";
}

}  // namespace cupp::test
