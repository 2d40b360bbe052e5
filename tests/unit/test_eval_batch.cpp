// `cupp eval --batch`'s line loop without a GPU: one result line per command line in input order
// whatever the number of worker threads, blank lines and comments skipped but counted, and a line
// that fails (a syntax error, any exception) reported for that line only while the others run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "batch.hpp"
#include "cupp/errors.hpp"
#include "parser.hpp"
#include "shell_split.hpp"

namespace cupp::eval {
namespace {

// Splits and parses a line like cupp eval (no GPU work); a line whose expression is "sleep N"
// waits N ms first (later lines finish before it), "boom" throws a non-cupp exception.
void fake_run(const std::string& line) {
  const std::vector<std::string> args = shell_split(line);
  if (args.at(0).starts_with("sleep ")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(std::stoi(args[0].substr(6))));
    return;
  }
  if (args[0] == "boom") throw std::runtime_error("boom\nsecond line");
  if (args[0] == "oom") throw std::bad_alloc();
  (void)parse(args[0]);
}

std::string run_all(const std::string& input, int jobs, const batch_runner& run = fake_run,
                    std::function<void()> init = {}) {
  std::istringstream in(input);
  std::ostringstream out;
  EXPECT_TRUE(run_batch_lines(in, out, run, {.jobs = jobs, .thread_init = std::move(init)}));
  return out.str();
}

const std::string kInput =
    "'sleep 60' -o a.npy\n"
    "# a comment\n"
    "'a + * b' a=x.npy -o out.npy\n"
    "\n"
    "'a + 2*b' a=x.npy b=y.npy -o out.npy\n"
    "   \t\n"
    "'sleep 20' -o a.npy\n"
    "'boom' -o a.npy\n"
    "'sin(a' a=x.npy -o o.npy\n"
    "'unterminated -o a.npy\n"
    "'oom' -o a.npy\n"
    "'add(a, b, dtype=\"float32\")' -o o.npy\n";

const std::string kExpected =
    "1: OK\n"
    "3: SyntaxError: invalid syntax: unexpected '*' (column 5)\n"
    "5: OK\n"
    "7: OK\n"
    "8: RuntimeError: boom\n"
    "9: SyntaxError: '(' was never closed (column 4)\n"
    "10: SyntaxError: unterminated single quote (column 1)\n"
    "11: MemoryError: out of host memory\n"
    "12: OK\n";

TEST(EvalBatch, SequentialPrintsOneLinePerCommand) {
  const std::string got = run_all(kInput, 1);
  EXPECT_EQ(got, kExpected);
}

TEST(EvalBatch, ParallelKeepsInputOrderAndIsolatesFailures) {
  for (int jobs : {2, 3, 8, 64}) EXPECT_EQ(run_all(kInput, jobs), kExpected) << jobs << " jobs";
}

TEST(EvalBatch, ManyLinesInManyThreadsEachExactlyOnce) {
  std::string input;
  std::string expected;
  for (int i = 1; i <= 500; ++i) {
    input += i % 7 == 0 ? "'a +' -o o.npy\n" : "'a + " + std::to_string(i) + "' a=x.npy -o o.npy\n";
    expected += std::to_string(i) + (i % 7 == 0 ? ": SyntaxError: unexpected end of expression (column 4)\n" : ": OK\n");
  }
  std::mutex m;
  std::multiset<std::string> seen;
  std::atomic<int> inits{0};
  const auto run = [&](const std::string& line) {
    {
      const std::lock_guard<std::mutex> lock(m);
      seen.insert(line);
    }
    fake_run(line);
  };
  EXPECT_EQ(run_all(input, 16, run, [&] { ++inits; }), expected);
  EXPECT_EQ(seen.size(), 500u);
  EXPECT_EQ(inits.load(), 16);
  std::istringstream lines(input);
  for (std::string line; std::getline(lines, line);) EXPECT_EQ(seen.count(line), line.find("a +'") != std::string::npos ? 71u : 1u) << line;
}

TEST(EvalBatch, ThreadInitFailureDoesNotStopTheLines) {
  EXPECT_EQ(run_all("'a' -o o.npy\n'b' -o o.npy\n", 4, fake_run, [] { throw cupp::CudaError("no CUDA device", 100); }),
            "1: OK\n2: OK\n");
}

TEST(EvalBatch, EmptyInputAndOnlyComments) {
  EXPECT_EQ(run_all("", 4), "");
  EXPECT_EQ(run_all("# nothing\n\n", 4), "");
}

TEST(EvalBatch, OutcomeOfCuppErrorsNamesTheirClass) {
  EXPECT_EQ(batch_outcome([](const std::string&) { throw cupp::OverflowError("Python integer 300 out of bounds for uint8\nmore"); }, ""),
            "OverflowError: Python integer 300 out of bounds for uint8");
  EXPECT_EQ(batch_outcome([](const std::string&) { throw 42; }, ""), "RuntimeError: unknown exception");
  EXPECT_EQ(batch_outcome([](const std::string&) {}, ""), "OK");
}

}  // namespace
}  // namespace cupp::eval
