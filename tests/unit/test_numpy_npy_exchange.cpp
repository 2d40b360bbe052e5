// The .npy exchange with real NumPy. tests/conformance/npy_exchange.py wrote files with NumPy
// 2.5.2 on the GPU machine (structured, nested big-endian, Fortran order, float16, bfloat16,
// complex, ...): they are committed as tests/conformance/numpy-written-npy.tgz and cupp must read
// them (CI too; CUPP_TEST_NUMPY_WRITTEN_DIR reads a fresh set instead). cupp writes files that
// NumPy must read back (CUPP_TEST_CUPP_WRITE_DIR, checked by `npy_exchange.py check` on the GPU
// machine; skipped elsewhere).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "compiler/hash.hpp"
#include "conformance.hpp"
#include "cupp/host_array.hpp"
#include "cupp/io.hpp"

namespace cupp {
namespace {

std::string sha256_hex(std::span<const std::byte> bytes) {
  detail::sha256 h;
  h.update(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  return detail::to_hex(h.finish());
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

TEST(NpyExchange, ReadsWhatNumPyWrote) {
  std::string dir = env("CUPP_TEST_NUMPY_WRITTEN_DIR");
  if (dir.empty()) dir = test::conformance_path("numpy-written-npy");
  const YAML::Node manifest = YAML::LoadFile(dir + "/manifest.json");
  ASSERT_GE(manifest.size(), 10u);
  for (const auto& entry : manifest) {
    const std::string file = entry["file"].as<std::string>();
    const host_array a = io::load_npy(dir + "/" + file);
    shape_t shape;
    for (const auto& d : entry["shape"]) shape.push_back(d.as<std::int64_t>());
    EXPECT_EQ(a.shape(), shape) << file;
    EXPECT_EQ(a.dtype().itemsize(), entry["itemsize"].as<std::size_t>()) << file;
    EXPECT_EQ(sha256_hex(a.bytes()), entry["sha256"].as<std::string>()) << file << ": data differs";
    if (entry["bfloat16"].as<bool>()) {
      const host_array b = io::load_npy(dir + "/" + file, {.dtype = bfloat16});
      EXPECT_EQ(b.dtype(), bfloat16);
      EXPECT_EQ(sha256_hex(b.bytes()), entry["sha256"].as<std::string>());
    }
  }
}

host_array filled(dtype type, shape_t shape) {
  host_array a(type, std::move(shape));
  for (std::size_t i = 0; i < a.nbytes(); ++i) a.data()[i] = static_cast<std::byte>((i * 37 + 11) & 0xff);
  return a;
}

TEST(NpyExchange, WritesForNumPy) {
  const std::string dir = env("CUPP_TEST_CUPP_WRITE_DIR");
  if (dir.empty()) GTEST_SKIP() << "CUPP_TEST_CUPP_WRITE_DIR not set (NumPy checks the files on the GPU machine)";
  std::filesystem::create_directories(dir);
  const std::pair<std::string, host_array> arrays[] = {
      {"int16.npy", filled(int16, {4, 6})},
      {"uint64.npy", filled(uint64, {5})},
      {"float64.npy", filled(float64, {3, 2, 2})},
      {"complex64.npy", filled(complex64, {7})},
      {"float16.npy", filled(float16, {9})},
      {"bfloat16.npy", filled(bfloat16, {2, 3})},
      {"bool.npy", host_array(bool_, {6})},
      {"zero_d.npy", filled(float32, {})},
      {"empty.npy", host_array(int8, {0, 3})},
      {"structured.npy", filled(dtype::parse("[('a', '<i4'), ('b', '<f8'), ('c', '|u1')]"), {3})},
      {"structured_aligned.npy",
       filled(dtype::structured(std::vector<std::pair<std::string, dtype>>{{"x", uint8}, {"y", float64}, {"z", int16}},
                                /*align=*/true),
              {2})},
  };
  // JSON, for Python's json module: one object per file.
  std::string json = "[";
  for (const auto& [file, a] : arrays) {
    io::save_npy(dir + "/" + file, a);
    std::string shape;
    for (auto d : a.shape()) shape += (shape.empty() ? "" : ", ") + std::to_string(d);
    const std::string descr = a.dtype() == bfloat16 ? std::string("|V2") : a.dtype().descr();
    std::string quoted;  // the descr as a JSON string (structured descrs hold single quotes only)
    for (char ch : descr) quoted += ch == '"' || ch == '\\' ? std::string("\\") + ch : std::string(1, ch);
    json += std::string(json.size() > 1 ? ", " : "") + "{\"file\": \"" + file + "\", \"shape\": [" + shape +
            "], \"descr\": \"" + quoted + "\", \"sha256\": \"" + sha256_hex(a.bytes()) + "\"}";
  }
  json += "]\n";
  std::ofstream(dir + "/manifest.json") << json;
}

}  // namespace
}  // namespace cupp
