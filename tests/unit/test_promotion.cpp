// NEP 50 promotion checked against NumPy 2.5.2's own answers (tests/conformance): every pair of
// promote_types/result_type, every Python-scalar cell, the 14 n-ary triples where NumPy's
// main-dtype rule differs from a left fold, and cupp's bfloat16 policy file. The expected values
// never come from specs/, so changing any cell of specs/promotion.yaml fails here.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "cupp/errors.hpp"
#include "cupp/promotion.hpp"

namespace cupp {
namespace {

using test::conformance_path;
using test::dtype_named;

const std::vector<std::string> kNumPyNames = {"bool",   "int8",   "int16",   "int32",   "int64",
                                              "uint8",  "uint16", "uint32",  "uint64",  "float16",
                                              "float32", "float64", "complex64", "complex128"};

YAML::Node numpy_promotion() { return test::load_yaml(conformance_path("numpy-ref/promotion.yaml")); }
YAML::Node bf16_policy() { return test::load_yaml(test::source_path("tests/conformance/bfloat16-policy.yaml")); }

weak_scalar python_scalar(const std::string& kind) {
  if (kind == "pybool") return weak_scalar(true);
  if (kind == "pyint") return weak_scalar(2);
  if (kind == "pyfloat") return weak_scalar(2.5);
  if (kind == "pycomplex") return weak_scalar(std::complex<double>(0.0, 2.0));
  throw std::runtime_error("unknown python scalar kind " + kind);
}

TEST(Promotion, EveryPairMatchesNumPy) {
  const YAML::Node table = numpy_promotion();
  int checked = 0;
  for (const auto& a : kNumPyNames) {
    for (const auto& b : kNumPyNames) {
      const std::string expected = table[a + "," + b].as<std::string>();
      EXPECT_EQ(promote_types(dtype_named(a), dtype_named(b)), dtype_named(expected)) << a << "," << b;
      EXPECT_EQ(result_type(dtype_named(a), dtype_named(b)), dtype_named(expected)) << a << "," << b;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 14 * 14);
}

TEST(Promotion, PythonScalarCellsMatchNumPy) {
  const YAML::Node table = numpy_promotion();
  int checked = 0;
  for (const auto& a : kNumPyNames) {
    for (const std::string kind : {"pybool", "pyint", "pyfloat", "pycomplex"}) {
      const std::string expected = table[a + "," + kind].as<std::string>();
      EXPECT_EQ(result_type(dtype_named(a), python_scalar(kind)), dtype_named(expected)) << a << "," << kind;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 14 * 4);
}

TEST(Promotion, BFloat16CellsFollowPolicyFile) {
  const YAML::Node policy = bf16_policy();
  const dtype bf = dtype_named("bfloat16");
  EXPECT_EQ(promote_types(bf, bf), bf);
  int checked = 0;
  for (const auto& kv : policy["array_pairs"]) {
    const dtype other = dtype_named(kv.first.as<std::string>());
    const dtype expected = dtype_named(kv.second.as<std::string>());
    EXPECT_EQ(promote_types(bf, other), expected) << "bfloat16," << other;
    EXPECT_EQ(promote_types(other, bf), expected) << other << ",bfloat16";
    ++checked;
  }
  EXPECT_EQ(checked, 14);
  for (const auto& kv : policy["python_scalars"]) {
    const std::string kind = kv.first.as<std::string>();
    const dtype expected = dtype_named(kv.second.as<std::string>());
    const weak_scalar s = kind == "pyint300" ? weak_scalar(300) : python_scalar(kind);
    EXPECT_EQ(result_type(bf, s), expected) << "bfloat16," << kind;
  }
}

TEST(Promotion, BFloat16CellsWhereNumPyAgreesMatchNumPy) {
  // Where NumPy+ml_dtypes answers (no DTypePromotionError), cupp's table agrees with it.
  const YAML::Node table = numpy_promotion();
  int compared = 0;
  for (const auto& a : kNumPyNames) {
    const std::string cell = table[a + ",bfloat16"].as<std::string>();
    if (cell.rfind("error:", 0) == 0) continue;
    EXPECT_EQ(promote_types(dtype_named(a), dtype::parse("bfloat16")), dtype_named(cell)) << a;
    ++compared;
  }
  EXPECT_GE(compared, 5);
}

TEST(Promotion, NaryTriplesFollowNumPyMainDtypeRule) {
  const YAML::Node extra = test::load_yaml(conformance_path("numpy-ref-extra/extra.yaml"));
  const YAML::Node triples = extra["nary_differs"];
  ASSERT_EQ(triples.size(), 14u);
  for (const auto& t : triples) {
    std::vector<dtype> in;
    std::string label;
    for (const auto& n : t["in"]) {
      in.push_back(dtype_named(n.as<std::string>()));
      label += n.as<std::string>() + " ";
    }
    EXPECT_EQ(result_type(in), dtype_named(t["result_type"].as<std::string>())) << label;
    EXPECT_EQ(promote_types(promote_types(in[0], in[1]), in[2]), dtype_named(t["left_fold"].as<std::string>()))
        << label;
  }
}

TEST(Promotion, NaryAgreesWithBinaryAndIsSymmetricForPairs) {
  for (const auto& a : kNumPyNames)
    for (const auto& b : kNumPyNames) {
      const dtype pair[] = {dtype_named(a), dtype_named(b)};
      EXPECT_EQ(result_type(pair), promote_types(pair[0], pair[1]));
      // Adding a dtype the result already covers changes nothing.
      const dtype triple[] = {pair[0], pair[1], dtype_named("bool")};
      EXPECT_EQ(result_type(triple), promote_types(pair[0], pair[1])) << a << "," << b;
    }
  EXPECT_THROW(result_type(std::span<const dtype>{}), ValueError);
}

TEST(Promotion, SafeCastingMatchesNumPyPromotion) {
  // For NumPy's built-in numbers, a casts safely to b exactly when promote_types(a, b) is b.
  const YAML::Node table = numpy_promotion();
  for (const auto& a : kNumPyNames)
    for (const auto& b : kNumPyNames) {
      const bool expected = table[a + "," + b].as<std::string>() == b;
      EXPECT_EQ(can_cast(dtype_named(a), dtype_named(b), casting::safe), expected) << a << " -> " << b;
    }
}

TEST(Promotion, CastingLevels) {
  // NumPy 2.5.2: np.can_cast(from, to, casting).
  EXPECT_TRUE(can_cast(float64, float32, casting::same_kind));
  EXPECT_FALSE(can_cast(float64, float32, casting::safe));
  EXPECT_TRUE(can_cast(uint64, int8, casting::same_kind));
  EXPECT_FALSE(can_cast(int64, uint8, casting::same_kind));
  EXPECT_FALSE(can_cast(float32, int32, casting::same_kind));
  EXPECT_FALSE(can_cast(complex64, float64, casting::same_kind));
  EXPECT_TRUE(can_cast(int64, float16, casting::same_kind));
  EXPECT_TRUE(can_cast(complex128, complex64, casting::same_kind));
  EXPECT_TRUE(can_cast(complex128, bool_, casting::unsafe));
  EXPECT_FALSE(can_cast(int8, int16, casting::no));
  EXPECT_FALSE(can_cast(int8, int16, casting::equiv));
  EXPECT_TRUE(can_cast(int8, int8, casting::no));
  EXPECT_TRUE(can_cast(bool_, complex128, casting::safe));
  EXPECT_TRUE(can_cast(bfloat16, float32, casting::safe));
  EXPECT_FALSE(can_cast(bfloat16, float16, casting::safe));
  EXPECT_TRUE(can_cast(bfloat16, float16, casting::same_kind));
  EXPECT_FALSE(can_cast(float32, bfloat16, casting::safe));
}

TEST(Promotion, WeakIntegerOverflowRaises) {
  // NumPy 2: np.array([1], np.uint8) + 300 -> OverflowError; + -1 likewise.
  EXPECT_THROW(result_type(uint8, weak_scalar(300)), OverflowError);
  EXPECT_THROW(result_type(uint8, weak_scalar(-1)), OverflowError);
  EXPECT_EQ(result_type(uint8, weak_scalar(255)), uint8);
  EXPECT_EQ(result_type(int8, weak_scalar(-128)), int8);
  EXPECT_THROW(result_type(int8, weak_scalar(128)), OverflowError);
  EXPECT_THROW(result_type(int8, weak_scalar(-129)), OverflowError);
  EXPECT_EQ(result_type(int64, weak_scalar(std::numeric_limits<std::int64_t>::min())), int64);
  EXPECT_THROW(result_type(int64, weak_scalar(std::numeric_limits<std::uint64_t>::max())), OverflowError);
  EXPECT_EQ(result_type(uint64, weak_scalar(std::numeric_limits<std::uint64_t>::max())), uint64);
  EXPECT_THROW(result_type(uint64, weak_scalar(-1)), OverflowError);
  // Float and complex results take any integer value.
  EXPECT_EQ(result_type(float16, weak_scalar(100000)), float16);
  EXPECT_EQ(result_type(bfloat16, weak_scalar(300)), bfloat16);
  try {
    result_type(uint8, weak_scalar(300));
    FAIL() << "no OverflowError";
  } catch (const OverflowError& e) {
    EXPECT_NE(std::string(e.what()).find("300"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("uint8"), std::string::npos) << e.what();
  }
}

TEST(Promotion, ManifestPythonScalarCasesOfAdd) {
  // np.add(array, python scalar): result dtype or error, for int/float/complex/bool/300/-1.
  const YAML::Node manifest = test::load_yaml(conformance_path("numpy-ref/manifest.yaml"));
  int checked = 0;
  for (const auto& c : manifest["cases"]) {
    if (c["ufunc"].as<std::string>() != "add") continue;
    const std::string tag = c["case"].as<std::string>();
    if (tag.rfind("pyscalar_", 0) != 0) continue;
    const dtype array = dtype_named(c["in"][0].as<std::string>());
    const std::string kind = c["in"][1].as<std::string>();
    const weak_scalar s = kind == "int"       ? weak_scalar(2)
                          : kind == "float"   ? weak_scalar(2.5)
                          : kind == "complex" ? weak_scalar(std::complex<double>(0, 2))
                          : kind == "bool"    ? weak_scalar(true)
                          : kind == "int300"  ? weak_scalar(300)
                                              : weak_scalar(-1);
    if (c["numpy_error"]) {
      EXPECT_EQ(c["numpy_error"].as<std::string>(), "OverflowError") << tag;
      EXPECT_THROW(result_type(array, s), OverflowError) << tag;
    } else {
      // bool + True: NumPy's add has a bool loop; result_type gives bool as well.
      EXPECT_EQ(result_type(array, s), dtype_named(c["out"][0].as<std::string>())) << tag;
    }
    ++checked;
  }
  EXPECT_GE(checked, 14 * 6);
}

TEST(Promotion, ScalarsAlone) {
  const weak_scalar one = 1, half = 0.5, b = true;
  const weak_scalar both[] = {one, half};
  const std::span<const dtype> none;
  EXPECT_EQ(result_type(none, std::span<const weak_scalar>(&one, 1)), int64);
  EXPECT_EQ(result_type(none, both), float64);
  EXPECT_EQ(result_type(none, std::span<const weak_scalar>(&b, 1)), bool_);
  const dtype arrays[] = {int8};
  const weak_scalar mixed[] = {1, std::complex<float>(0, 1)};
  EXPECT_EQ(result_type(arrays, mixed), complex128);
  const dtype halves[] = {float16};
  EXPECT_EQ(result_type(halves, mixed), complex64);
}

TEST(Promotion, VoidAndStructuredHaveNoCommonDtypeWithNumbers) {
  const dtype v8 = dtype::void_(8);
  EXPECT_EQ(promote_types(v8, v8), v8);
  EXPECT_THROW(promote_types(v8, float64), TypeError);
  EXPECT_THROW(promote_types(dtype::void_(4), v8), TypeError);
  EXPECT_TRUE(can_cast(v8, v8, casting::no));
  EXPECT_FALSE(can_cast(float64, v8, casting::same_kind));
}

}  // namespace
}  // namespace cupp
