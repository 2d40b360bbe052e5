// Runs nvcc as a child process (posix_spawn, no shell) in a temporary folder that is removed
// afterwards, and reads back the CUBIN and nvcc's output.
#include "compiler/nvcc_backend.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cupp/config.hpp"
#include "cupp/errors.hpp"

extern char** environ;

namespace cupp::detail {

namespace {

namespace fs = std::filesystem;

// A fresh private folder, removed (with its contents) on destruction.
class temp_folder {
 public:
  temp_folder() {
    std::string pattern = (fs::temp_directory_path() / "cupp-nvcc-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      throw CompileError(std::string("cannot create a temporary folder for nvcc: ") + std::strerror(errno), "", "");
    path_ = pattern;
  }
  ~temp_folder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs argv with stdout and stderr into `log_path`; returns the exit status (-1: not started).
int run(const std::vector<std::string>& argv, const fs::path& log_path, std::string& spawn_error) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    spawn_error = std::strerror(rc);
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool on_path(const std::string& command) {
  if (command.find('/') != std::string::npos) return fs::exists(command);
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');)
    if (!dir.empty() && fs::exists(fs::path(dir) / command)) return true;
  return false;
}

}  // namespace

const std::string& nvcc_command() {
  static const std::string command = [] {
    const std::string configured = config::get().nvcc;
    if (on_path(configured)) return configured;
    const std::string fallback = config::cuda_root(config::get(), config::process_environment()) + "/bin/nvcc";
    return fs::exists(fallback) ? fallback : configured;
  }();
  return command;
}

const std::string& nvcc_version_text() {
  static const std::string text = [] {
    temp_folder dir;
    std::string spawn_error;
    const int status = run({nvcc_command(), "--version"}, dir.path() / "version.txt", spawn_error);
    return status == 0 ? read_file(dir.path() / "version.txt") : std::string("unavailable");
  }();
  return text;
}

std::string nvcc_compile(std::string_view program_name, std::string_view source, int arch,
                         std::span<const std::string> options, bool debug) {
  temp_folder dir;
  const fs::path input = dir.path() / "kernel.cu", output = dir.path() / "kernel.cubin", log = dir.path() / "log.txt";
  {
    std::ofstream out(input, std::ios::binary);
    out.write(source.data(), static_cast<std::streamsize>(source.size()));
    if (!out) throw CompileError("cannot write the source for nvcc to " + input.string(), "", std::string(source));
  }
  std::vector<std::string> argv = {nvcc_command(), "-cubin", "-arch=sm_" + std::to_string(arch), "-std=c++17"};
  if (debug) {
    argv.emplace_back("-G");
    argv.emplace_back("-lineinfo");
  }
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"-o", output.string(), input.string()});
  std::string spawn_error;
  const int status = run(argv, log, spawn_error);
  const std::string text = fs::exists(log) ? read_file(log) : std::string();
  if (status != 0) {
    std::string command;
    for (const std::string& a : argv) command += " " + a;
    throw CompileError("nvcc failed to compile " + std::string(program_name) +
                           (status < 0 ? " (could not run '" + nvcc_command() + "': " + spawn_error + ")"
                                       : " (exit status " + std::to_string(status) + ")") +
                           "\ncommand:" + command + (text.empty() ? "" : "\noutput:\n" + text),
                       text, std::string(source));
  }
  std::string cubin = read_file(output);
  if (cubin.empty()) throw CompileError("nvcc produced no CUBIN for " + std::string(program_name), text, std::string(source));
  return cubin;
}

}  // namespace cupp::detail
