// Kernel cache tests without a GPU (issue 4): SHA-256 vectors, entry encoding, hit after miss
// (NVRTC is not run again), damaged files recovered, an unwritable directory with one warning,
// key changes, in-memory mode, saved sources, the size cap's LRU order, compile errors and the
// cost of a hit. Loading is replaced by a stub; each test has its own cache directory.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "compiler/compiler.hpp"
#include "compiler/disk_cache.hpp"
#include "compiler/embedded_headers.hpp"
#include "compiler/hash.hpp"
#include "compiler/kernel_cache.hpp"
#include "cupp/config.hpp"
#include "cupp/errors.hpp"
#include "compiler/nvrtc_program.hpp"

namespace cupp::detail {
namespace {

namespace fs = std::filesystem;

std::string hex_of(std::string_view text) { return to_hex(sha256().update(text).finish()); }

TEST(KernelCacheHash, Sha256KnownVectors) {
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  sha256 million;
  const std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i) million.update(std::string_view(chunk).substr(0, 1 + i % 7)).update(
      std::string_view(chunk).substr(0, 1000 - 1 - i % 7));
  EXPECT_EQ(to_hex(million.finish()), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

// The build computes the headers' digest (cmake/CuppEmbed.cmake) so that a process does not hash
// them before its first lookup; it must be the digest of exactly the headers embedded.
TEST(EmbeddedHeaders, DigestMatchesTheHeaders) {
  std::string input;
  for (const embedded_header& h : embedded_headers()) {
    input += std::to_string(h.name.size()) + ":" + std::string(h.name);
    input += std::to_string(h.contents.size()) + ":" + std::string(h.contents);
  }
  ASSERT_GT(embedded_headers().size(), 10u);
  EXPECT_EQ(embedded_headers_digest(), hex_of(input));
}

TEST(KernelCacheHash, ChecksumSeesEveryByte) {
  std::string data(1000, 'x');
  const std::uint64_t base = checksum64(data);
  for (std::size_t i : {0u, 31u, 32u, 500u, 991u, 999u}) {
    std::string changed = data;
    changed[i] ^= 1;
    EXPECT_NE(checksum64(changed), base) << i;
  }
  EXPECT_NE(checksum64(data.substr(0, 999)), base);
}

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "cupp-kc-test-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

program_source tiny_program(int n) {
  return {"cupp_test_tiny_" + std::to_string(n),
          "extern \"C\" __global__ void tiny(float* x) { x[threadIdx.x] += " + std::to_string(n) + ".0f; }\n",
          {"tiny"}};
}

// A cache whose "loading" only checks the binary and counts.
struct stub_cache {
  std::atomic<int> loads{0};
  std::vector<std::string> warnings;
  std::unique_ptr<kernel_cache> cache;

  // Warnings are collected in `warnings`, or go to stderr (the default) with warn_to_stderr.
  explicit stub_cache(const fs::path& dir, kernel_cache::settings s = {}, bool warn_to_stderr = false) {
    s.dir = dir;
    s.arch_of = [](int) { return 90; };
    s.load = [this](const compiled_program& p, int) {
      EXPECT_FALSE(p.binary.empty());
      EXPECT_EQ(p.lowered_names.size(), 1u);
      ++loads;
      return std::make_unique<kernel_module>(library{}, std::vector<cudaKernel_t>(p.lowered_names.size()));
    };
    if (!warn_to_stderr) s.warn = [this](std::string_view m) { warnings.emplace_back(m); };
    cache = std::make_unique<kernel_cache>(std::move(s));
  }
  const kernel_module& get(int n) {
    return cache->get(0, {"tiny", static_cast<std::uint64_t>(n)}, [n] { return tiny_program(n); });
  }
};

compile_flags flags90() {
  compile_flags f;
  f.arch = 90;
  return f;
}

TEST(KernelCache, HitAfterMissDoesNotRunNvrtc) {
  TempDir dir;
  stub_cache a(dir.path());
  const auto before = nvrtc_compile_count();
  const kernel_module& first = a.get(1);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  int sources_built = 0;
  const kernel_module& second = a.cache->get(0, {"tiny", 1}, [&] {
    ++sources_built;
    return tiny_program(1);
  });
  EXPECT_EQ(&first, &second);
  EXPECT_EQ(sources_built, 0);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(a.loads, 1);
  // Another device is another slot, served by the disk cache.
  a.cache->get(1, {"tiny", 1}, [] { return tiny_program(1); });
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(a.loads, 2);

  // A new process (a new cache) finds it on disk.
  stub_cache b(dir.path());
  b.get(1);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(b.cache->stats().disk_hits, 1u);
  EXPECT_EQ(b.cache->stats().compiles, 0u);
  EXPECT_EQ(disk_cache({dir.path()}).scan().entries, 1u);
}

TEST(KernelCache, LogCompilesNamesEachCompileAndDiskRead) {
  TempDir dir;
  kernel_cache::settings s;
  s.log_compiles = true;
  {
    stub_cache a(dir.path(), s);
    a.get(7);
    a.get(7);  // a memory hit: no line
    ASSERT_EQ(a.warnings.size(), 1u);
    const std::string& line = a.warnings[0];
    EXPECT_EQ(line.rfind("cupp: compile cupp_test_tiny_7: ", 0), 0u) << line;
    EXPECT_NE(line.find(" ms (nvrtc), " + std::to_string(tiny_program(7).source.size()) + " B source, 1 kernel, sm_90"),
              std::string::npos)
        << line;
  }
  stub_cache b(dir.path(), s);  // a new process: the disk cache serves it
  b.get(7);
  ASSERT_EQ(b.warnings.size(), 1u);
  EXPECT_NE(b.warnings[0].find(" ms (disk cache), "), std::string::npos) << b.warnings[0];
  stub_cache quiet(dir.path());  // off by default
  quiet.get(8);
  EXPECT_TRUE(quiet.warnings.empty());
}

// LTO-IR (an fft callback's) goes through the same disk cache: a second process reads it back
// byte for byte without NVRTC; another source or architecture is another entry; a damaged entry
// is a miss that is compiled and rewritten; in-memory mode never touches the disk.
TEST(KernelCache, LtoIrIsReadBackFromDisk) {
  TempDir dir;
  const lto_piece piece{"cupp_test_lto", "__device__ float twice(float x) { return 2.0f * x; }\n", {}};
  const auto before = nvrtc_compile_count();
  std::string first;
  {
    stub_cache a(dir.path());
    first = a.cache->ltoir(piece, 90);
    EXPECT_FALSE(first.empty());
    EXPECT_EQ(a.cache->stats().compiles, 1u);
  }
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  stub_cache b(dir.path());
  EXPECT_EQ(b.cache->ltoir(piece, 90), first);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  EXPECT_EQ(b.cache->stats().disk_hits, 1u);
  EXPECT_EQ(b.cache->ltoir(piece, 80).empty(), false);  // another architecture: compiled
  lto_piece other = piece;
  other.source += "// another source\n";
  EXPECT_NE(ltoir_key(other, 90), ltoir_key(piece, 90));
  EXPECT_NE(ltoir_key(piece, 80), ltoir_key(piece, 90));
  EXPECT_EQ(nvrtc_compile_count(), before + 2);
  EXPECT_EQ(disk_cache({dir.path()}).scan().entries, 2u);
  // damage the entry: a miss, compiled and rewritten
  const fs::path entry = disk_cache({dir.path()}).entry_path(ltoir_key(piece, 90));
  ASSERT_TRUE(fs::exists(entry));
  fs::resize_file(entry, fs::file_size(entry) / 2);
  stub_cache c(dir.path());
  EXPECT_EQ(c.cache->ltoir(piece, 90), first);
  EXPECT_EQ(c.cache->stats().compiles, 1u);
  EXPECT_EQ(nvrtc_compile_count(), before + 3);
  stub_cache d(dir.path());
  EXPECT_EQ(d.cache->ltoir(piece, 90), first);
  EXPECT_EQ(d.cache->stats().disk_hits, 1u);
  // in memory only: compiled, nothing written
  TempDir empty;
  kernel_cache::settings mem;
  mem.use_disk = false;
  stub_cache e(empty.path(), mem);
  EXPECT_EQ(e.cache->ltoir(piece, 90), first);
  EXPECT_EQ(disk_cache({empty.path()}).scan().entries, 0u);
}

TEST(KernelCache, ThreadsMissingTogetherCompileOnce) {
  TempDir dir;
  stub_cache c(dir.path());
  const auto before = nvrtc_compile_count();
  std::vector<std::thread> threads;
  std::atomic<const kernel_module*> seen[8] = {};
  for (int t = 0; t < 8; ++t) threads.emplace_back([&, t] { seen[t] = &c.get(2); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
  for (int t = 1; t < 8; ++t) EXPECT_EQ(seen[t].load(), seen[0].load());
}

enum class damage { flip_payload_byte, flip_header_byte, truncate, empty, foreign, other_key };

class KernelCacheDamage : public ::testing::TestWithParam<damage> {};

TEST_P(KernelCacheDamage, IsAMissThatIsRewritten) {
  TempDir dir;
  const program_source program = tiny_program(3);
  const digest256 key = program_key(program, flags90());
  const disk_cache disk({dir.path()});
  compile_program(program, flags90(), &disk);
  const fs::path file = disk.entry_path(key);
  ASSERT_TRUE(fs::exists(file));
  std::string bytes;
  {
    std::ifstream in(file, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  switch (GetParam()) {
    case damage::flip_payload_byte: bytes[bytes.size() / 2] ^= 0x40; break;
    case damage::flip_header_byte: bytes[20] ^= 0x01; break;
    case damage::truncate: bytes.resize(bytes.size() / 2); break;
    case damage::empty: bytes.clear(); break;
    case damage::foreign: bytes = "\x7f" "ELF not a cupp cache entry at all, but long enough to have a header........"; break;
    case damage::other_key: {
      const program_source other = tiny_program(4);
      bytes = disk_cache::encode(program_key(other, flags90()), serialize(compile_program(other, flags90(), nullptr).program));
      break;
    }
  }
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  EXPECT_FALSE(disk.load(key).has_value());

  const auto before = nvrtc_compile_count();
  stub_cache c(dir.path());
  c.get(3);
  EXPECT_EQ(nvrtc_compile_count(), before + 1) << "a damaged entry must be a miss";
  const std::optional<std::string> payload = disk.load(key);
  ASSERT_TRUE(payload.has_value()) << "the entry must be rewritten";
  EXPECT_TRUE(deserialize(*payload, 1).has_value());
  EXPECT_EQ(disk.scan().temporaries, 0u);

  stub_cache again(dir.path());
  again.get(3);
  EXPECT_EQ(nvrtc_compile_count(), before + 1);
}

INSTANTIATE_TEST_SUITE_P(All, KernelCacheDamage,
                         ::testing::Values(damage::flip_payload_byte, damage::flip_header_byte, damage::truncate,
                                           damage::empty, damage::foreign, damage::other_key));

TEST(KernelCache, UnwritableDirectoryFallsBackWithOneWarning) {
  TempDir dir;
  // A directory below a regular file cannot be created, not even by root.
  std::ofstream(dir.path() / "file") << "x";
  const fs::path unwritable = dir.path() / "file" / "cache";
  testing::internal::CaptureStderr();
  std::string err;
  {
    stub_cache c(unwritable, {}, /*warn_to_stderr=*/true);
    const auto before = nvrtc_compile_count();
    for (int n = 10; n < 13; ++n) c.get(n);
    c.get(10);
    EXPECT_EQ(nvrtc_compile_count(), before + 3);
    EXPECT_FALSE(c.cache->disk_writable());
    EXPECT_EQ(c.cache->stats().disk_write_failures, 1u) << "after the first failure the disk is not tried again";
  }
  err = testing::internal::GetCapturedStderr();
  std::size_t warnings = 0;
  for (std::size_t at = err.find("warning"); at != std::string::npos; at = err.find("warning", at + 1)) ++warnings;
  EXPECT_EQ(warnings, 1u) << err;
  EXPECT_NE(err.find(unwritable.string()), std::string::npos) << err;
}

TEST(KernelCache, KeyChangesWithOptionsArchAndSource) {
  const program_source p = tiny_program(5);
  const digest256 base = program_key(p, flags90());
  EXPECT_EQ(program_key(p, flags90()), base);
  compile_flags f = flags90();
  f.arch = 80;
  EXPECT_NE(program_key(p, f), base);
  f = flags90();
  f.ptx = true;
  EXPECT_NE(program_key(p, f), base);
  f = flags90();
  f.debug = true;
  EXPECT_NE(program_key(p, f), base);
  f = flags90();
  f.extra_options = {"-DX=1"};
  EXPECT_NE(program_key(p, f), base);
  f = flags90();
  f.dump_source_on_error = true;  // changes nothing in the binary
  EXPECT_EQ(program_key(p, f), base);
  program_source q = p;
  q.source += " ";
  EXPECT_NE(program_key(q, flags90()), base);
  q = p;
  q.name_expressions = {"other"};
  EXPECT_NE(program_key(q, flags90()), base);
}

TEST(KernelCache, OptionsFollowTheFlags) {
  nvrtc_request r;
  r.arch = 90;
  auto has = [](const std::vector<std::string>& v, std::string_view o) {
    return std::find(v.begin(), v.end(), o) != v.end();
  };
  auto opts = nvrtc_options(r);
  EXPECT_TRUE(has(opts, "--gpu-architecture=sm_90"));
  EXPECT_FALSE(has(opts, "--device-debug"));
  for (const auto& o : opts) EXPECT_EQ(o.find("ftz"), std::string::npos) << o;
  r.ptx = true;
  r.debug = true;
  opts = nvrtc_options(r);
  EXPECT_TRUE(has(opts, "--gpu-architecture=compute_90"));
  EXPECT_TRUE(has(opts, "--device-debug"));
  EXPECT_TRUE(has(opts, "--generate-line-info"));
  EXPECT_TRUE(has(opts, "-I" + config::cuda_include_dir()) || opts[2].starts_with("-I"));
  EXPECT_EQ(nvrtc_arch_for(90), 90);
  EXPECT_EQ(nvrtc_arch_for(91), 90);
}

TEST(KernelCache, PtxIsCachedAsText) {
  TempDir dir;
  kernel_cache::settings s;
  s.ptx = true;
  stub_cache c(dir.path(), std::move(s));
  const compile_result r = c.cache->compile(tiny_program(6), 90);
  ASSERT_TRUE(r.program.ptx);
  EXPECT_EQ(r.program.binary.back(), '\0');
  EXPECT_NE(r.program.binary.find(".target sm_90"), std::string::npos);
  EXPECT_TRUE(c.cache->compile(tiny_program(6), 90).from_disk);
}

TEST(KernelCache, InMemoryModeWritesNothing) {
  TempDir dir;
  const fs::path cache_dir = dir.path() / "cache";
  const auto cfg = config::from_environment([&](std::string_view name) -> std::optional<std::string> {
    if (name == "CUPP_CACHE_IN_MEMORY") return "1";
    if (name == "CUPP_CACHE_DIR") return cache_dir.string();
    return std::nullopt;
  });
  kernel_cache::settings s = kernel_cache::settings::from_config(cfg);
  EXPECT_FALSE(s.use_disk);
  EXPECT_EQ(s.dir, cache_dir);
  const auto before = nvrtc_compile_count();
  {
    stub_cache c(cache_dir, s);
    c.get(7);
    c.get(7);
  }
  stub_cache again(cache_dir, s);
  again.get(7);
  EXPECT_EQ(nvrtc_compile_count(), before + 2);
  EXPECT_FALSE(fs::exists(cache_dir));
}

TEST(KernelCache, SavesSourceBesideTheBinary) {
  TempDir dir;
  kernel_cache::settings s;
  s.save_source = true;
  stub_cache c(dir.path(), std::move(s));
  c.get(8);
  const disk_cache disk({dir.path()});
  const fs::path source = disk.source_path(program_key(tiny_program(8), flags90()));
  ASSERT_TRUE(fs::exists(source));
  std::ifstream in(source);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, tiny_program(8).source);
  const auto summary = disk.scan();
  EXPECT_EQ(summary.entries, 1u);
  EXPECT_EQ(summary.sources, 1u);
}

digest256 key_of(int n) { return sha256().field("lru").field(std::to_string(n)).finish(); }

TEST(KernelCache, SizeCapEvictsLeastRecentlyUsed) {
  TempDir dir;
  const std::string payload(1000, 'p');
  const std::uint64_t entry_size = disk_cache::encode(key_of(0), payload).size();
  const disk_cache disk({dir.path(), false, 2 * entry_size + 10});
  ASSERT_FALSE(disk.store(key_of(1), payload, ""));
  ASSERT_FALSE(disk.store(key_of(2), payload, ""));
  // 1 is older than 2, but a hit on 1 makes 2 the least recently used.
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(disk.entry_path(key_of(1)), now - std::chrono::seconds(100));
  fs::last_write_time(disk.entry_path(key_of(2)), now - std::chrono::seconds(50));
  ASSERT_TRUE(disk.load(key_of(1)).has_value());
  ASSERT_FALSE(disk.store(key_of(3), payload, ""));
  EXPECT_TRUE(fs::exists(disk.entry_path(key_of(1))));
  EXPECT_FALSE(fs::exists(disk.entry_path(key_of(2))));
  EXPECT_TRUE(fs::exists(disk.entry_path(key_of(3))));
  EXPECT_EQ(disk.scan().entries, 2u);
  // An entry bigger than the cap is kept (it was just written); the others go.
  const disk_cache tiny({dir.path(), false, 10});
  ASSERT_FALSE(tiny.store(key_of(4), payload, ""));
  EXPECT_EQ(tiny.scan().entries, 1u);
  EXPECT_TRUE(fs::exists(tiny.entry_path(key_of(4))));
  EXPECT_EQ(tiny.clear(), 1u);
  EXPECT_EQ(tiny.scan().entries, 0u);
}

TEST(KernelCache, CompileErrorCarriesLogOptionsAndSource) {
  TempDir dir;
  kernel_cache::settings s;
  s.dump_source_on_error = true;
  stub_cache c(dir.path(), std::move(s));
  const program_source broken{"cupp_test_broken", "extern \"C\" __global__ void k() {\n  this is not cuda;\n}\n", {"k"}};
  for (int attempt = 0; attempt < 2; ++attempt) {  // a failure is not cached
    testing::internal::CaptureStderr();
    const auto before = nvrtc_compile_count();
    try {
      c.cache->get(0, {"broken"}, [&] { return broken; });
      ADD_FAILURE() << "no CompileError";
    } catch (const CompileError& e) {
      EXPECT_NE(std::string(e.what()).find("--gpu-architecture=sm_90"), std::string::npos) << e.what();
      EXPECT_FALSE(e.log().empty());
      EXPECT_NE(e.source().find("2\t  this is not cuda;"), std::string::npos) << e.source();
    }
    EXPECT_EQ(nvrtc_compile_count(), before + 1);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("2\t  this is not cuda;"), std::string::npos) << err;
  }
  EXPECT_EQ(disk_cache({dir.path()}).scan().entries, 0u);
}

TEST(KernelCache, HitCostsWellUnderAMicrosecond) {
  TempDir dir;
  stub_cache c(dir.path());
  for (int n = 20; n < 24; ++n) c.get(n);
  const kernel_cache::source_fn never = []() -> program_source { throw std::logic_error("miss"); };
  constexpr int rounds = 200000;
  const auto start = std::chrono::steady_clock::now();
  const kernel_module* last = nullptr;
  for (int i = 0; i < rounds; ++i) last = &c.cache->get(0, {"tiny", static_cast<std::uint64_t>(20 + i % 4)}, never);
  const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / rounds;
  EXPECT_NE(last, nullptr);
  EXPECT_LT(ns, 1000.0);
  std::printf("[ kernel cache ] in-memory hit: %.0f ns\n", ns);
}

}  // namespace
}  // namespace cupp::detail
