// cupp eval --batch: the line loop, host-only. Reads the batch lines (skipping blank lines and
// `#` comments), runs each through a caller-given function in one thread or in N worker
// threads, and prints `NUMBER: OK` or `NUMBER: ClassName: first line of the message` per line,
// always in input order. A line's failure is caught and printed for that line only.
#pragma once

#include <functional>
#include <iosfwd>
#include <string>

namespace cupp::eval {

// Runs one batch line (its raw text); throws on failure (cupp::Error subclasses print their
// class_name(), std::bad_alloc prints MemoryError, any other exception RuntimeError).
using batch_runner = std::function<void(const std::string& line)>;

// "OK" when run(line) returns, else "ClassName: message" (the message's first line).
// Never throws.
std::string batch_outcome(const batch_runner& run, const std::string& line) noexcept;

struct batch_options {
  int jobs = 1;                              // worker threads; 1 runs the lines in the calling thread
  std::function<void()> thread_init = {};    // called once at the start of each worker thread
};

// Runs every line of `in` and writes one result line per batch line to `out` (flushed after each,
// in input order). With jobs > 1 the whole input is read first, then the lines run in `jobs`
// threads while the calling thread prints the results as soon as they are next in order.
// Returns false when reading `in` failed (in.bad()).
bool run_batch_lines(std::istream& in, std::ostream& out, const batch_runner& run, const batch_options& options = {});

}  // namespace cupp::eval
