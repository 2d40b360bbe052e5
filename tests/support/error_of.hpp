// Test support: the message of the exception of type E that f throws, or "<no error>" (so that a
// test can compare whole error messages with NumPy's); error_text also names another class's.
#pragma once

#include <exception>
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

// The message of the E that f throws; "wrong class: " and the message of any other exception;
// "no error" when it returns.
template <class E, class F>
std::string error_text(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  } catch (const std::exception& e) {
    return std::string("wrong class: ") + e.what();
  }
  return "no error";
}

}  // namespace cupp::test
