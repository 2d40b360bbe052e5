// Tests of cupp/config.hpp: defaults, every kind of value (booleans, integers, lists, byte or
// percentage limits, versions), errors that name the variable, and the CUDA root lookup, all
// parsed from a given map rather than the process environment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>
#include <string>

#include "cupp/config.hpp"
#include "cupp/errors.hpp"

namespace {

using env_map = std::map<std::string, std::string, std::less<>>;

cupp::config::lookup_fn lookup_in(const env_map& env) {
  return [env](std::string_view name) -> std::optional<std::string> {
    auto it = env.find(name);
    if (it == env.end()) return std::nullopt;
    return it->second;
  };
}

cupp::config::settings parse(const env_map& env) { return cupp::config::from_environment(lookup_in(env)); }

// Expects ValueError whose message names the variable.
void expect_error(const std::string& name, const std::string& value) {
  try {
    parse({{name, value}, {"HOME", "/home/u"}});
    ADD_FAILURE() << name << "=" << value << " was accepted";
  } catch (const cupp::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
  }
}

TEST(Config, Defaults) {
  const auto s = parse({{"HOME", "/home/u"}});
  EXPECT_EQ(s.cuda_path, "");
  EXPECT_EQ(s.cache_dir, "/home/u/.cupp/kernel_cache");
  EXPECT_FALSE(s.cache_save_cuda_source);
  EXPECT_FALSE(s.cache_in_memory);
  EXPECT_FALSE(s.dump_cuda_source_on_error);
  EXPECT_FALSE(s.cuda_compile_with_debug);
  EXPECT_FALSE(s.nvtx_ops);
  EXPECT_FALSE(s.log_compiles);
  EXPECT_TRUE(s.builtin_kernels);
  EXPECT_FALSE(s.seed.has_value());
  EXPECT_EQ(s.accelerators, std::vector<std::string>{"cub"});
  EXPECT_TRUE(s.accelerator_enabled("cub"));
  EXPECT_FALSE(s.tf32);
  EXPECT_EQ(s.dlpack_export_major, 0);
  EXPECT_EQ(s.dlpack_export_minor, 6);
  EXPECT_EQ(s.nvcc, "nvcc");
  EXPECT_FALSE(s.per_thread_default_stream);
  EXPECT_FALSE(s.compile_with_ptx);
  EXPECT_TRUE(s.gpu_memory_limit.unlimited());
  EXPECT_TRUE(s.cuda_array_interface_sync);
  EXPECT_EQ(s.cuda_array_interface_export_version, 3);
  EXPECT_FALSE(s.experimental_slice_copy);
  EXPECT_FALSE(s.disable_jitify_cache);
  EXPECT_EQ(s.cutensor_path, "");
  for (const auto& v : s.variables) {
    EXPECT_FALSE(v.is_set) << v.name;
    EXPECT_EQ(v.value, v.default_value) << v.name;
    EXPECT_FALSE(v.cupy_name.empty()) << v.name;
    EXPECT_FALSE(v.effect.empty()) << v.name;
  }
}

TEST(Config, ListsEveryVariableOnce) {
  const auto s = parse({});
  const std::vector<std::string_view> expected = {
      "CUDA_PATH", "CUPP_CACHE_DIR", "CUPP_CACHE_SAVE_CUDA_SOURCE", "CUPP_CACHE_IN_MEMORY",
      "CUPP_CACHE_MAX_BYTES", "CUPP_DUMP_CUDA_SOURCE_ON_ERROR", "CUPP_CUDA_COMPILE_WITH_DEBUG", "CUPP_NVTX_OPS", "CUPP_LOG_COMPILES", "CUPP_BUILTIN_KERNELS", "CUPP_SEED", "CUPP_ACCELERATORS",
      "CUPP_TF32", "CUPP_DLPACK_EXPORT_VERSION", "NVCC", "CUPP_CUDA_PER_THREAD_DEFAULT_STREAM",
      "CUPP_COMPILE_WITH_PTX", "CUPP_GPU_MEMORY_LIMIT", "CUPP_CUDA_ARRAY_INTERFACE_SYNC",
      "CUPP_CUDA_ARRAY_INTERFACE_EXPORT_VERSION", "CUPP_EXPERIMENTAL_SLICE_COPY", "CUPP_DISABLE_JITIFY_CACHE",
      "CUTENSOR_PATH"};
  ASSERT_EQ(s.variables.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(s.variables[i].name, expected[i]);
}

TEST(Config, DocsListEveryVariable) {
  std::ifstream in(std::string(CUPP_SOURCE_DIR) + "/docs/environment.md");
  ASSERT_TRUE(in) << "docs/environment.md missing";
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& v : parse({}).variables) {
    EXPECT_NE(text.find("`" + std::string(v.name) + "`"), std::string::npos) << v.name;
    EXPECT_NE(text.find("`" + std::string(v.cupy_name) + "`"), std::string::npos) << v.cupy_name;
  }
}

TEST(Config, SetValues) {
  const auto s = parse({{"CUDA_PATH", "/opt/cuda"},
                        {"CUPP_CACHE_DIR", "/tmp/kc"},
                        {"CUPP_CACHE_SAVE_CUDA_SOURCE", "1"},
                        {"CUPP_CACHE_IN_MEMORY", "true"},
                        {"CUPP_CACHE_MAX_BYTES", "1000000"},
                        {"CUPP_DUMP_CUDA_SOURCE_ON_ERROR", "yes"},
                        {"CUPP_CUDA_COMPILE_WITH_DEBUG", " 1 "},
                        {"CUPP_NVTX_OPS", "on"},
                        {"CUPP_LOG_COMPILES", "1"},
                        {"CUPP_BUILTIN_KERNELS", "0"},
                        {"CUPP_SEED", "18446744073709551615"},
                        {"CUPP_ACCELERATORS", "cutensor, CUB"},
                        {"CUPP_TF32", "1"},
                        {"CUPP_DLPACK_EXPORT_VERSION", "1.0"},
                        {"NVCC", "/opt/cuda/bin/nvcc -ccbin g++-12"},
                        {"CUPP_CUDA_PER_THREAD_DEFAULT_STREAM", "1"},
                        {"CUPP_COMPILE_WITH_PTX", "1"},
                        {"CUPP_GPU_MEMORY_LIMIT", "1073741824"},
                        {"CUPP_CUDA_ARRAY_INTERFACE_SYNC", "0"},
                        {"CUPP_CUDA_ARRAY_INTERFACE_EXPORT_VERSION", "2"},
                        {"CUPP_EXPERIMENTAL_SLICE_COPY", "1"},
                        {"CUPP_DISABLE_JITIFY_CACHE", "1"},
                        {"CUTENSOR_PATH", "/opt/cutensor"}});
  EXPECT_EQ(s.cuda_path, "/opt/cuda");
  EXPECT_EQ(s.cache_dir, "/tmp/kc");
  EXPECT_TRUE(s.cache_save_cuda_source);
  EXPECT_TRUE(s.cache_in_memory);
  EXPECT_EQ(s.cache_max_bytes, 1000000u);
  EXPECT_TRUE(s.dump_cuda_source_on_error);
  EXPECT_TRUE(s.cuda_compile_with_debug);
  EXPECT_TRUE(s.nvtx_ops);
  EXPECT_TRUE(s.log_compiles);
  EXPECT_FALSE(s.builtin_kernels);
  EXPECT_EQ(s.seed, std::uint64_t(18446744073709551615ull));
  EXPECT_EQ(s.accelerators, (std::vector<std::string>{"cutensor", "cub"}));
  EXPECT_TRUE(s.tf32);
  EXPECT_EQ(s.dlpack_export_major, 1);
  EXPECT_EQ(s.dlpack_export_minor, 0);
  EXPECT_EQ(s.nvcc, "/opt/cuda/bin/nvcc -ccbin g++-12");
  EXPECT_TRUE(s.per_thread_default_stream);
  EXPECT_TRUE(s.compile_with_ptx);
  EXPECT_EQ(s.gpu_memory_limit.bytes, 1073741824u);
  EXPECT_EQ(s.gpu_memory_limit.resolve(80ull << 30), 1073741824u);
  EXPECT_FALSE(s.cuda_array_interface_sync);
  EXPECT_EQ(s.cuda_array_interface_export_version, 2);
  EXPECT_TRUE(s.experimental_slice_copy);
  EXPECT_TRUE(s.disable_jitify_cache);
  EXPECT_EQ(s.cutensor_path, "/opt/cutensor");
  for (const auto& v : s.variables) EXPECT_TRUE(v.is_set) << v.name;
}

TEST(Config, EmptyValues) {
  // Empty counts as unset, except for the accelerator list, where it means "none".
  const auto s = parse({{"CUPP_TF32", ""}, {"CUPP_SEED", ""}, {"CUPP_ACCELERATORS", ""}, {"CUPP_CACHE_DIR", ""},
                        {"HOME", "/h"}});
  EXPECT_FALSE(s.tf32);
  EXPECT_FALSE(s.seed);
  EXPECT_EQ(s.cache_dir, "/h/.cupp/kernel_cache");
  EXPECT_TRUE(s.accelerators.empty());
  EXPECT_FALSE(s.accelerator_enabled("cub"));
}

TEST(Config, MemoryLimitPercentages) {
  auto limit = [](const std::string& v) { return parse({{"CUPP_GPU_MEMORY_LIMIT", v}}).gpu_memory_limit; };
  EXPECT_TRUE(limit("0").unlimited());
  EXPECT_TRUE(limit("0%").unlimited());
  EXPECT_DOUBLE_EQ(limit("90%").fraction, 0.9);
  EXPECT_EQ(limit("50%").resolve(1000), 500u);
  EXPECT_EQ(limit("100%").resolve(1000), 1000u);
  EXPECT_EQ(limit("12.5%").resolve(8000), 1000u);
  EXPECT_EQ(limit(" 25 %").resolve(400), 100u);
  EXPECT_EQ(limit("4096").resolve(1000), 4096u);  // bytes are taken as given
  EXPECT_EQ(limit("90%").resolve(0), 0u);
}

TEST(Config, MalformedValuesNameTheVariable) {
  expect_error("CUPP_CACHE_SAVE_CUDA_SOURCE", "2");
  expect_error("CUPP_CACHE_IN_MEMORY", "maybe");
  expect_error("CUPP_TF32", "1.0");
  expect_error("CUPP_COMPILE_WITH_PTX", "-1");
  expect_error("CUPP_SEED", "-5");
  expect_error("CUPP_SEED", "12abc");
  expect_error("CUPP_SEED", "18446744073709551616");  // 2^64
  expect_error("CUPP_ACCELERATORS", "cub,thrust");
  expect_error("CUPP_ACCELERATORS", "cub,,cutensor");
  expect_error("CUPP_ACCELERATORS", "cub,");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "1GB");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "-1");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "150%");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "-10%");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "%");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "nan%");
  expect_error("CUPP_GPU_MEMORY_LIMIT", "0.5");
  expect_error("CUPP_DLPACK_EXPORT_VERSION", "1");
  expect_error("CUPP_DLPACK_EXPORT_VERSION", "v1.0");
  expect_error("CUPP_DLPACK_EXPORT_VERSION", "2.0");
  expect_error("CUPP_CUDA_ARRAY_INTERFACE_EXPORT_VERSION", "4");
  expect_error("CUPP_CUDA_ARRAY_INTERFACE_EXPORT_VERSION", "three");
  expect_error("CUPP_CUDA_ARRAY_INTERFACE_SYNC", "off-ish");
}

TEST(Config, MessageQuotesTheValue) {
  try {
    parse({{"CUPP_GPU_MEMORY_LIMIT", "lots"}});
    FAIL();
  } catch (const cupp::ValueError& e) {
    EXPECT_NE(std::string(e.what()).find("'lots'"), std::string::npos) << e.what();
  }
}

TEST(Config, CudaRoot) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cupp_config_test_" + std::to_string(::getpid()));
  fs::create_directories(dir / "cuda" / "bin");
  fs::create_directories(dir / "cuda" / "include");
  fs::create_directories(dir / "wrappers" / "bin");
  fs::create_directories(dir / "links");
  std::ofstream(dir / "cuda" / "bin" / "nvcc") << "#!/bin/sh\n";
  std::ofstream(dir / "cuda" / "include" / "cuda_runtime.h") << "\n";
  // A wrapper script with no toolkit beside it (like /usr/local/bin/nvcc on our machines).
  std::ofstream(dir / "wrappers" / "bin" / "nvcc") << "#!/bin/sh\nexec nvcc \"$@\"\n";
  fs::create_symlink(dir / "cuda" / "bin" / "nvcc", dir / "links" / "nvcc");
  const auto none = parse({});

  // CUDA_PATH wins.
  EXPECT_EQ(cupp::config::cuda_root(parse({{"CUDA_PATH", "/opt/x"}}), lookup_in({{"PATH", (dir / "cuda/bin").string()}})),
            "/opt/x");
  // Else the toolkit holding the first nvcc on PATH (trailing slash allowed).
  EXPECT_EQ(cupp::config::cuda_root(none, lookup_in({{"PATH", "/nonexistent:" + (dir / "cuda/bin/").string()}})),
            (dir / "cuda").string());
  // A wrapper without headers beside it is passed over; a symlink is followed to its toolkit.
  EXPECT_EQ(cupp::config::cuda_root(
                none, lookup_in({{"PATH", (dir / "wrappers/bin").string() + ":" + (dir / "cuda/bin").string()}})),
            (dir / "cuda").string());
  EXPECT_EQ(cupp::config::cuda_root(none, lookup_in({{"PATH", (dir / "links").string()}})),
            fs::canonical(dir / "cuda").string());
  // Else /usr/local/cuda.
  EXPECT_EQ(cupp::config::cuda_root(none, lookup_in({{"PATH", (dir / "wrappers/bin").string()}})), "/usr/local/cuda");
  EXPECT_EQ(cupp::config::cuda_root(none, lookup_in({{"PATH", "/nonexistent"}})), "/usr/local/cuda");
  EXPECT_EQ(cupp::config::cuda_root(none, lookup_in({})), "/usr/local/cuda");
  fs::remove_all(dir);
}

TEST(Config, ProcessEnvironmentIsReadOnce) {
  const auto& a = cupp::config::get();
  const auto& b = cupp::config::get();
  EXPECT_EQ(&a, &b);
  EXPECT_FALSE(cupp::config::cuda_include_dir().empty());
}

}  // namespace
