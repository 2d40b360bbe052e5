// Entry point of the `cupp` program: parses the subcommand and dispatches to info, ops, eval,
// cache or demo.
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include "commands.hpp"

namespace {

constexpr std::string_view kUsage =
    "usage: cupp <command> [args]\n"
    "\n"
    "cupp is NumPy for NVIDIA GPUs, in C++. Commands:\n"
    "  info         versions, build options, devices, configuration, kernel cache\n"
    "  ops [--ops SPEC.yaml] [NAME [--source]]  the built-in ops and their loops (one op when\n"
    "               NAME is given; --source prints its generated kernel source; --ops loads\n"
    "               op specs from a YAML file first and lists them too; `cupp ops --check\n"
    "               SPEC.yaml...` loads spec files and reports each: OK or its first error)\n"
    "  eval [--ops SPEC.yaml] EXPR [NAME=FILE.npy ...] -o OUT.npy  evaluate a Python expression\n"
    "               over .npy files on the GPU (`cupp eval --batch FILE`: one command per line;\n"
    "               --ops loads op specs from a YAML file first)\n"
    "  cache [info|clear|warm [OP...]]  the on-disk kernel cache: show it, empty it, or\n"
    "               compile every op's kernels into it for the present GPU\n"
    "  demo         a short tour of what works today\n"
    "\n"
    "options:\n"
    "  -h, --help     this message\n"
    "  -V, --version  cupp's version\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::fputs(kUsage.data(), stderr);
    return 2;
  }
  const std::string_view cmd = args.front();
  const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
  try {
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
      std::fputs(kUsage.data(), stdout);
      return 0;
    }
    if (cmd == "-V" || cmd == "--version") {
      std::printf("cupp %s\n", CUPP_TOOL_VERSION);
      return 0;
    }
    if (cmd == "info") return cupp::tool::info(rest);
    if (cmd == "ops") return cupp::tool::ops(rest);
    if (cmd == "eval") return cupp::tool::eval(rest);
    if (cmd == "demo") return cupp::tool::demo(rest);
    if (cmd == "cache") return cupp::tool::cache(rest);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cupp %.*s: error: %s\n", static_cast<int>(cmd.size()), cmd.data(), e.what());
    return 1;
  }
  std::fprintf(stderr, "cupp: unknown command '%.*s'\n\n%s", static_cast<int>(cmd.size()), cmd.data(),
               kUsage.data());
  return 2;
}
