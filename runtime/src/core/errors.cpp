// Out-of-line parts of the error hierarchy (messages that need formatting).
#include "cupp/errors.hpp"

#include <string>

namespace cupp {

namespace {
std::string oom_message(std::size_t requested, std::size_t in_use, std::size_t limit) {
  std::string msg = "Out of memory allocating " + std::to_string(requested) + " bytes (" +
                    std::to_string(in_use) + " bytes in use";
  if (limit != 0) msg += ", limit " + std::to_string(limit) + " bytes";
  return msg + ")";
}
}  // namespace

OutOfMemoryError::OutOfMemoryError(std::size_t requested, std::size_t in_use, std::size_t limit)
    : Error(oom_message(requested, in_use, limit)), requested_(requested), in_use_(in_use), limit_(limit) {}

}  // namespace cupp
