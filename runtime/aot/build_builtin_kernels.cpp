// Build-time tool: compiles the programs built into cupp ahead of time (aot_programs(): core's
// routines/builtin_programs.hpp, or a module's list, cmake/CuppAotKernels.cmake) for the given
// architectures with NVRTC, and writes the blob that libcupp_core.a (or libcupp_<module>_kernels.a)
// embeds (compiler/builtin_kernels.hpp) plus the C++ file that embeds it. With --module NAME the
// file defines cupp::NAME::detail::register_builtin_kernels(), which registers the module's table. Compiles go through a disk
// cache in the build tree, so a rebuild after a runtime change recompiles only the programs whose
// source changed; the outputs are rewritten only when their contents change.
//   cupp_build_builtin_kernels --arch 90 [--arch N ...] [--module NAME] --cache DIR --blob OUT.bin --source OUT.cpp
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "compiler/builtin_kernels.hpp"
#include "compiler/hash.hpp"
#include "compiler/kernel_cache.hpp"

// The programs to build: defined next to the builder's main (runtime/aot/core_programs.cpp, or the
// module's generated list source).
std::vector<cupp::detail::program_source> aot_programs();

namespace {

using namespace cupp::detail;

struct arguments {
  std::vector<int> archs;
  std::filesystem::path cache, blob, source;
  std::string module;  // empty: core's table
};

arguments parse(int argc, char** argv) {
  arguments a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::runtime_error("missing value after " + flag);
    const std::string value = argv[++i];
    if (flag == "--arch") a.archs.push_back(std::stoi(value));
    else if (flag == "--cache") a.cache = value;
    else if (flag == "--blob") a.blob = value;
    else if (flag == "--source") a.source = value;
    else if (flag == "--module") a.module = value;
    else throw std::runtime_error("unknown option " + flag);
  }
  if (a.archs.empty() || a.cache.empty() || a.blob.empty() || a.source.empty())
    throw std::runtime_error("usage: cupp_build_builtin_kernels --arch N [--arch N ...] --cache DIR --blob OUT.bin --source OUT.cpp");
  return a;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return in ? std::string(std::istreambuf_iterator<char>(in), {}) : std::string();
}

// Writes `contents` to `path` unless it holds them already (so the build does not redo what
// depends on it).
void write_if_changed(const std::filesystem::path& path, const std::string& contents) {
  if (std::filesystem::exists(path) && read_file(path) == contents) return;
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

std::string embedding_source(const std::filesystem::path& blob, const std::string& digest, std::size_t programs,
                             const std::vector<int>& archs, const std::string& module) {
  std::string arch_list;
  for (const int a : archs) arch_list += (arch_list.empty() ? "sm_" : ", sm_") + std::to_string(a);
  std::string path = std::filesystem::absolute(blob).string();
  std::string escaped;
  for (const char c : path) {
    if (c == '\\' || c == '"') escaped += '\\';
    escaped += c;
  }
  const std::string sym = module.empty() ? "cupp_builtin_kernels" : "cupp_" + module + "_builtin_kernels";
  std::string out = "// Generated at build time by runtime/aot/build_builtin_kernels.cpp: do not edit. The kernels built\n"
                    "// into cupp" + (module.empty() ? std::string() : "'s " + module + " module") + ": " + std::to_string(programs) +
                    " programs for " + arch_list + ".\n"
                    "// Blob SHA-256 " + digest + " (so that a compiler cache sees a new blob).\n"
                    "#include \"compiler/builtin_kernels.hpp\"\n" +
                    (module.empty() ? std::string()
                                    : "\nnamespace cupp::" + module + "::detail {\nvoid register_builtin_kernels() noexcept;\n}\n") +
                    "\n"
                    "asm(\".pushsection .rodata." + sym + ", \\\"a\\\", @progbits\\n\"\n"
                    "    \".balign 16\\n\"\n"
                    "    \".globl " + sym + "_begin\\n\"\n"
                    "    \".hidden " + sym + "_begin\\n\"\n"
                    "    \"" + sym + "_begin:\\n\"\n"
                    "    \".incbin \\\"" + escaped + "\\\"\\n\"\n"
                    "    \".globl " + sym + "_end\\n\"\n"
                    "    \".hidden " + sym + "_end\\n\"\n"
                    "    \"" + sym + "_end:\\n\"\n"
                    "    \".popsection\\n\");\n\n"
                    "extern \"C\" const std::byte " + sym + "_begin[];\n"
                    "extern \"C\" const std::byte " + sym + "_end[];\n\n";
  if (module.empty())
    return out + "std::span<const std::byte> cupp::detail::builtin_kernel_blob() noexcept {\n"
                 "  return {cupp_builtin_kernels_begin, cupp_builtin_kernels_end};\n"
                 "}\n";
  return out + "// Called by the module's embedded_headers() (cmake/CuppEmbed.cmake), i.e. before its first program.\n"
               "void cupp::" + module + "::detail::register_builtin_kernels() noexcept {\n"
               "  static const bool registered = [] {\n"
               "    static const cupp::detail::builtin_table table({" + sym + "_begin, " + sym + "_end});\n"
               "    cupp::detail::register_builtin_table(table);\n"
               "    return true;\n"
               "  }();\n"
               "  (void)registered;\n"
               "}\n";
}

}  // namespace

int main(int argc, char** argv) try {
  const arguments args = parse(argc, argv);
  kernel_cache::settings settings;
  settings.dir = args.cache;
  settings.use_builtin = false;
  kernel_cache cache(settings);

  const std::vector<program_source> programs = aot_programs();
  struct job {
    const program_source* program;
    int arch;
  };
  std::vector<job> jobs;
  for (const int arch : args.archs)
    for (const program_source& p : programs) jobs.push_back({&p, arch});
  std::vector<builtin_entry> entries(jobs.size());

  const auto start = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0}, compiled{0};
  std::mutex failure_mutex;
  std::string failure;
  const unsigned threads = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), static_cast<unsigned>(jobs.size())));
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < jobs.size(); i = next++) {
        try {
          const compile_result r = cache.compile(*jobs[i].program, jobs[i].arch);
          if (!r.from_disk) ++compiled;
          entries[i] = builtin_entry{builtin_key(*jobs[i].program, jobs[i].arch), jobs[i].arch, r.program};
        } catch (const std::exception& e) {
          const std::lock_guard lock(failure_mutex);
          if (failure.empty()) failure = jobs[i].program->name + ": " + e.what();
        }
      }
    });
  }
  for (std::thread& t : pool) t.join();
  if (!failure.empty()) throw std::runtime_error(failure);

  const std::string blob = write_builtin_blob(entries);
  sha256 h;
  h.update(blob);
  const digest256 d = h.finish();
  write_if_changed(args.blob, blob);
  write_if_changed(args.source, embedding_source(args.blob, to_hex(d), programs.size(), args.archs, args.module));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("built-in kernels%s%s: %zu programs x %zu architecture(s), %zu compiled, %zu from the build's cache, "
              "%.1f s; blob %zu bytes\n",
              args.module.empty() ? "" : " of ", args.module.c_str(), programs.size(), args.archs.size(), compiled.load(), jobs.size() - compiled.load(), seconds, blob.size());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "cupp_build_builtin_kernels: %s\n", e.what());
  return 1;
}
