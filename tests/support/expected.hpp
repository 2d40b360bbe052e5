// Expected values built from a formula of the index, for tests that compare a whole result with
// cupp::testing (CUPP_ASSERT_ARRAY_EQUAL(got, test::tabulate(6, 8, [](int i, int j) { ... }))),
// in C order, with the element type the formula returns.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

namespace cupp::test {

// {f(0), f(1), ..., f(n - 1)}.
template <class F>
auto tabulate(std::int64_t n, F f) {
  std::vector<std::decay_t<decltype(f(std::int64_t{}))>> values;
  values.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) values.push_back(f(i));
  return values;
}

// f(i, j) over a rows x cols matrix, row after row.
template <class F>
auto tabulate(std::int64_t rows, std::int64_t cols, F f) {
  std::vector<std::decay_t<decltype(f(std::int64_t{}, std::int64_t{}))>> values;
  values.reserve(static_cast<std::size_t>(rows * cols));
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) values.push_back(f(i, j));
  return values;
}

}  // namespace cupp::test
