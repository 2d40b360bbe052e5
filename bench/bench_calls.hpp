// What cupp_bench's generated calls (generated/bench/bench_calls.cpp, from each case's NumPy
// expression in the table of cases) give bench.cpp: per case, a binder that takes the case's
// arrays (its frame: x0, x1, ..., out, and what the setup steps made) and returns the call to
// time, with every literal argument and option value already made.
#pragma once

#include <functional>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cupp/ndarray.hpp"

namespace cupp::bench {

// The named arrays of one case.
class frame {
 public:
  void put(const std::string& name, cupp::ndarray a) { arrays_[name] = std::move(a); }
  const cupp::ndarray& get(std::string_view name) const {
    const auto it = arrays_.find(name);
    if (it == arrays_.end()) throw std::runtime_error("the case has no array named " + std::string(name));
    return it->second;
  }

 private:
  std::map<std::string, cupp::ndarray, std::less<>> arrays_;
};

using timed_call = std::function<cupp::ndarray()>;
using binder = timed_call (*)(const frame&);

// One setup line `name = expression`: the binder of its expression (called once, untimed).
struct setup_step {
  std::string_view name;
  binder make;
};

struct case_binding {
  std::string_view name;
  std::string_view expr;   // the expression it was generated from
  std::string_view setup;  // its setup lines, joined by newlines
  std::span<const setup_step> steps;
  binder bind;
};

// Every case of the table that has an expression, in the table's order.
std::span<const case_binding> case_bindings();

}  // namespace cupp::bench
