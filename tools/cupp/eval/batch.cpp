// cupp eval --batch: the line loop (sequential or in worker threads, results in input order).
#include "batch.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <istream>
#include <mutex>
#include <new>
#include <ostream>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cupp/errors.hpp"

namespace cupp::eval {

namespace {

std::string first_line(std::string_view s) { return std::string(s.substr(0, s.find('\n'))); }

// Blank lines and comments are skipped (their numbers still count).
bool is_command(const std::string& line) {
  const auto start = line.find_first_not_of(" \t\r");
  return start != std::string::npos && line[start] != '#';
}

}  // namespace

std::string batch_outcome(const batch_runner& run, const std::string& line) noexcept {
  try {
    try {
      run(line);
      return "OK";
    } catch (const cupp::Error& e) {
      return std::string(e.class_name()) + ": " + first_line(e.what());
    } catch (const std::bad_alloc&) {
      return "MemoryError: out of host memory";
    } catch (const std::exception& e) {
      return "RuntimeError: " + first_line(e.what());
    } catch (...) {
      return "RuntimeError: unknown exception";
    }
  } catch (...) {  // building the message itself failed (out of memory)
    return "MemoryError: out of host memory";
  }
}

bool run_batch_lines(std::istream& in, std::ostream& out, const batch_runner& run, const batch_options& options) {
  std::string line;
  if (options.jobs <= 1) {
    for (long number = 1; std::getline(in, line); ++number) {
      if (!is_command(line)) continue;
      out << number << ": " << batch_outcome(run, line) << '\n' << std::flush;
    }
    return !in.bad();
  }

  struct item {
    long number;
    std::string text;
    std::string outcome;
    bool done = false;
  };
  std::vector<item> items;
  for (long number = 1; std::getline(in, line); ++number) {
    if (is_command(line)) items.push_back({number, line, {}});
  }
  const bool read_ok = !in.bad();

  std::mutex mutex;
  std::condition_variable finished;
  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    if (options.thread_init) {
      try {
        options.thread_init();
      } catch (...) {
        // The lines report their own errors (e.g. no device) when they run.
      }
    }
    for (std::size_t i; (i = next.fetch_add(1)) < items.size();) {
      std::string outcome = batch_outcome(run, items[i].text);
      {
        const std::lock_guard<std::mutex> lock(mutex);
        items[i].outcome = std::move(outcome);
        items[i].done = true;
      }
      finished.notify_all();
    }
  };
  const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(options.jobs), std::max<std::size_t>(items.size(), 1));
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (std::size_t t = 0; t < n; ++t) threads.emplace_back(worker);
  for (item& it : items) {
    std::unique_lock<std::mutex> lock(mutex);
    finished.wait(lock, [&] { return it.done; });
    const std::string outcome = std::move(it.outcome);
    lock.unlock();
    out << it.number << ": " << outcome << '\n' << std::flush;
  }
  for (std::thread& t : threads) t.join();
  return read_ok;
}

}  // namespace cupp::eval
