// Test support: the message of the exception of type E that f throws, or "<no error>" (so that a
// test can compare whole error messages with NumPy's).
#pragma once

#include <string>

namespace cupp::test {

template <class E, class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace cupp::test
