// The subcommands of the `cupp` program. Each takes its arguments (after the subcommand name)
// and returns the process exit code: 0 success, 1 failure, 2 bad usage.
#pragma once

#include <span>
#include <string_view>

namespace cupp::tool {

int info(std::span<const std::string_view> args);
int ops(std::span<const std::string_view> args);
int demo(std::span<const std::string_view> args);
int cache(std::span<const std::string_view> args);
// `cupp eval`: exits 0 on success, 2 for a cupp error, a malformed expression or bad usage.
int eval(std::span<const std::string_view> args);

}  // namespace cupp::tool
