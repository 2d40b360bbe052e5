// The modules' built-in kernel tables (cmake/CuppAotKernels.cmake, compiler/builtin_kernels.hpp's
// registry): each module's list (<module>/src/builtin_programs.cpp) is non-empty with unique keys
// and holds exactly the programs its loaders make (every dtype they take), a registered table
// serves a kernel cache miss of a module program without NVRTC, CUPP_BUILTIN_KERNELS=0 compiles
// it, and (built with CUPP_AOT_MODULE_KERNELS, the default) every listed program is in the library. No GPU:
// loading is injected.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "compiler/builtin_kernels.hpp"
#include "compiler/kernel_cache.hpp"
#include "compiler/nvrtc_program.hpp"
#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"
#include "gemm.hpp"
#include "linalg_device_headers.hpp"
#include "lu_core.hpp"
#include "solver_common.hpp"
#include "sparse_device_headers.hpp"
#include "device_program.hpp"
#include "own_kernels.hpp"
#include "fft_device_headers.hpp"
#include "helpers_program.hpp"
#include "random_device_headers.hpp"
#include "sampling.hpp"
#include "stand_in_cache.hpp"

namespace cupp::linalg::detail {
std::vector<cupp::detail::program_source> builtin_programs();
}
namespace cupp::sparse::detail {
std::vector<cupp::detail::program_source> builtin_programs();
}
namespace cupp::random::detail {
std::vector<cupp::detail::program_source> builtin_programs();
}
namespace cupp::fft::detail {
std::vector<cupp::detail::program_source> builtin_programs();
}

namespace cupp::detail {
namespace {

constexpr int test_arch = 90;

std::set<digest256> keys_of(const std::vector<program_source>& programs) {
  std::set<digest256> keys;
  for (const program_source& p : programs) keys.insert(builtin_key(p, test_arch));
  return keys;
}

// What a module's loaders make: every program function over every dtype it takes (a dtype it
// refuses throws, as the loader's call would).
using maker = std::function<routine_program(const cupp::dtype&)>;
std::set<digest256> loader_keys(const std::vector<maker>& makers) {
  std::set<digest256> keys;
  for (const maker& make : makers)
    for (int t = 0; t < static_cast<int>(n_builtin_types); ++t) {
      try {
        keys.insert(builtin_key(make(cupp::dtype(static_cast<type_id>(t))).to_source(), test_arch));
      } catch (const cupp::Error&) {
      }
    }
  return keys;
}

void check_list(const std::vector<program_source>& list, const std::set<digest256>& expected) {
  ASSERT_FALSE(list.empty());
  const std::set<digest256> keys = keys_of(list);
  EXPECT_EQ(keys.size(), list.size()) << "two listed programs share a key";
  EXPECT_EQ(keys, expected) << "the list and the module's loaders differ";
  const compile_flags flags{.arch = test_arch};
  for (const program_source& p : list) {
    EXPECT_TRUE(builtin_eligible(p, flags)) << p.name;
    EXPECT_FALSE(p.headers_digest.empty()) << p.name;
  }
}

TEST(BuiltinKernelsModules, SparseListIsWhatItsLoadersMake) {
  namespace s = cupp::sparse::detail;
  std::set<digest256> expected = loader_keys({[](const cupp::dtype& t) { return s::products_program(t); },
                                              [](const cupp::dtype& t) { return s::spmm_vec_program(t); },
                                              [](const cupp::dtype& t) { return s::spgemm_program(t); }});
  expected.insert(builtin_key(s::transpose_program().to_source(), test_arch));
  expected.insert(builtin_key(s::expand_program().to_source(), test_arch));
  check_list(s::builtin_programs(), expected);
}

TEST(BuiltinKernelsModules, LinalgListIsWhatItsLoadersMake) {
  namespace l = cupp::linalg::detail;
  // The solver programs take the four float and complex dtypes (their loaders are called with no other).
  auto solver = [](auto make) {
    return [make](const cupp::dtype& t) {
      if (!t.is_floating() && !t.is_complex()) throw cupp::TypeError("solver dtype");
      if (t == cupp::float16 || t == cupp::bfloat16) throw cupp::TypeError("solver dtype");
      return make(t);
    };
  };
  const std::set<digest256> expected =
      loader_keys({[](const cupp::dtype& t) { return l::generic_matmul_program(t); },
                   solver([](const cupp::dtype& t) { return l::solver_checks_program(t); }),
                   solver([](const cupp::dtype& t) { return l::lu_blocked_program(t); })});
  check_list(l::builtin_programs(), expected);
}

TEST(BuiltinKernelsModules, RandomListIsWhatItsLoadersMake) {
  namespace r = cupp::random::detail;
  const std::set<digest256> expected{builtin_key(r::program(false).to_source(), test_arch),
                                     builtin_key(r::stream_program(false).to_source(), test_arch)};
  check_list(r::builtin_programs(), expected);
  EXPECT_FALSE(expected.contains(builtin_key(r::program(true).to_source(), test_arch))) << "the test hook's program";
}

TEST(BuiltinKernelsModules, FftListIsWhatItsLoadersMake) {
  check_list(cupp::fft::detail::builtin_programs(), {builtin_key(cupp::fft::detail::helpers_program().to_source(), test_arch)});
}

// The module key covers its headers' digest: the same program with other headers is another key.
TEST(BuiltinKernelsModules, KeyCoversTheModulesHeaders) {
  program_source p = cupp::sparse::detail::transpose_program().to_source();
  const digest256 k = builtin_key(p, test_arch);
  p.headers_digest = "another digest";
  EXPECT_NE(builtin_key(p, test_arch), k);
  p.headers_digest = {};
  EXPECT_FALSE(builtin_eligible(p, compile_flags{.arch = test_arch})) << "module headers without their digest";
}

// A table registered with the process's registry serves a miss of a module program through a
// cache left on its default tables; CUPP_BUILTIN_KERNELS=0 passes over it and NVRTC compiles.
TEST(BuiltinKernelsModules, RegisteredTableServesAMissWithoutNvrtc) {
  // A listed program under a test-only name, so that the stand-in cannot answer for the real one.
  program_source p = cupp::sparse::detail::builtin_programs().front();
  p.name += "_registry_test";
  builtin_entry stand_in;
  stand_in.key = builtin_key(p, test_arch);
  stand_in.arch = test_arch;
  stand_in.program.binary = "stand-in binary";
  stand_in.program.lowered_names.assign(p.name_expressions.size(), "k");
  static const std::string blob = write_builtin_blob(std::vector<builtin_entry>{stand_in});
  static const builtin_table table({reinterpret_cast<const std::byte*>(blob.data()), blob.size()});
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(builtin_table_for(stand_in.key), nullptr);
  register_builtin_table(table);
  register_builtin_table(table);  // idempotent
  EXPECT_EQ(builtin_table_for(stand_in.key), &table);
  const std::vector<const builtin_table*> all = builtin_tables();
  EXPECT_EQ(all.front(), &builtin_kernels()) << "core's table comes first";
  EXPECT_EQ(std::count(all.begin(), all.end(), &table), 1);

  std::vector<std::string> loaded;
  auto cache_with = [&](bool use_builtin) { return cupp::test::stand_in_cache(use_builtin, test_arch, nullptr, loaded); };
  const auto before = nvrtc_compile_count();
  auto on = cache_with(true);
  on->get(0, {"sparse:registry_test", 1}, [&] { return p; });
  EXPECT_EQ(nvrtc_compile_count(), before) << "a registered program went to NVRTC";
  EXPECT_EQ(on->stats().builtin_hits, 1u);
  ASSERT_EQ(loaded.size(), 1u);
  EXPECT_EQ(loaded[0], "stand-in binary");

  auto off = cache_with(false);  // CUPP_BUILTIN_KERNELS=0: the real program compiles
  EXPECT_FALSE(off->builtin(p, test_arch).has_value());
  off->get(0, {"sparse:registry_test", 1}, [&] { return p; });
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(off->stats().compiles, 1u);
  ASSERT_EQ(loaded.size(), 2u);
  EXPECT_NE(loaded[1], "stand-in binary");
}

// Built with CUPP_AOT_MODULE_KERNELS: a module's first program registers its table, which holds
// every listed program for the built architectures (without it, nothing is registered).
TEST(BuiltinKernelsModules, LibraryHoldsEveryListedProgram) {
  (void)cupp::sparse::detail::embedded_headers();  // what a module's first program does
  (void)cupp::linalg::detail::embedded_headers();
  (void)cupp::random::detail::embedded_headers();
  (void)cupp::fft::detail::embedded_headers();
  int missing_modules = 0;
  for (const auto& list : {cupp::sparse::detail::builtin_programs(), cupp::linalg::detail::builtin_programs(),
                           cupp::random::detail::builtin_programs(), cupp::fft::detail::builtin_programs()}) {
    std::size_t found = 0;
    const std::vector<int> archs = builtin_kernels().architectures();
    if (archs.empty()) GTEST_SKIP() << "built without CUPP_AOT_KERNELS";
    for (const int arch : archs)
      for (const program_source& p : list) {
        const builtin_table* t = builtin_table_for(builtin_key(p, arch));
        if (t != nullptr) {
          ++found;
          EXPECT_NE(t, &builtin_kernels()) << p.name << " is in core's table";
          EXPECT_TRUE(t->find(builtin_key(p, arch)).has_value()) << p.name;
        }
      }
    if (found == 0) ++missing_modules;
    else EXPECT_EQ(found, list.size() * archs.size()) << list.front().name << "'s module table lacks some of its list";
  }
  if (missing_modules == 4) GTEST_SKIP() << "built without CUPP_AOT_MODULE_KERNELS";
  EXPECT_EQ(missing_modules, 0) << "some modules have their tables, others none";

  // A miss of sparse's float32 products program and linalg's float64 generic matmul, through a
  // cache on the default tables: loaded from the modules' tables, NVRTC not called.
  const int arch = builtin_kernels().architectures().front();
  kernel_cache::settings s;
  s.use_disk = false;
  s.arch_of = [arch](int) { return arch; };
  s.load = [](const compiled_program& c, int) {
    return std::make_unique<kernel_module>(library{}, std::vector<cudaKernel_t>(c.lowered_names.size()));
  };
  kernel_cache cache(s);
  const auto before = nvrtc_compile_count();
  const kernel_module& products = cache.get(0, {"sparse:products", static_cast<std::uint64_t>(type_id::float32)}, [] {
    return cupp::sparse::detail::products_program(cupp::float32).to_source();
  });
  EXPECT_EQ(products.size(), 6u);
  const kernel_module& matmul = cache.get(0, {"linalg:matmul_generic", static_cast<std::uint64_t>(type_id::float64)}, [] {
    return cupp::linalg::detail::generic_matmul_program(cupp::float64).to_source();
  });
  EXPECT_EQ(matmul.size(), 1u);
  EXPECT_EQ(nvrtc_compile_count(), before) << "a module's built-in program went to NVRTC";
  EXPECT_EQ(cache.stats().builtin_hits, 2u);
  EXPECT_EQ(cache.stats().compiles, 0u);
}

}  // namespace
}  // namespace cupp::detail
