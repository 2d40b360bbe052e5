// cupp's error hierarchy. Each class is named after the NumPy exception it stands for, so code
// ported from NumPy catches the same things: UFuncTypeError and DTypePromotionError become
// TypeError; AxisError derives from ValueError. Messages name the op, the dtypes and the shapes.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace cupp {

// Base of every error cupp throws.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // The class's name as NumPy/Python would print it ("ValueError"), e.g. for `cupp eval`.
  virtual const char* class_name() const noexcept { return "Error"; }
};

// No loop for the dtypes, a forbidden cast, dtypes without a common dtype.
class TypeError : public Error {
 public:
  using Error::Error;
  const char* class_name() const noexcept override { return "TypeError"; }
};

// Bad shape, broadcast mismatch, unsupported dtype, empty reduction without identity, bad option.
class ValueError : public Error {
 public:
  using Error::Error;
  const char* class_name() const noexcept override { return "ValueError"; }
};

// An op spec (YAML) that cannot be accepted, from cupp::load_ops: what() is "FILE:LINE: message",
// as codegen/ prints spec errors; line() is 1-based, 0 when the problem has no line (an
// unreadable file: what() is then "FILE: message").
class SpecError : public ValueError {
 public:
  const char* class_name() const noexcept override { return "SpecError"; }
  SpecError(std::string file, int line, std::string message)
      : ValueError(line > 0 ? file + ":" + std::to_string(line) + ": " + message : file + ": " + message),
        file_(std::move(file)), line_(line), message_(std::move(message)) {}
  const std::string& file() const noexcept { return file_; }
  int line() const noexcept { return line_; }
  const std::string& message() const noexcept { return message_; }

 private:
  std::string file_;
  int line_;
  std::string message_;
};

// An index out of range.
class IndexError : public Error {
 public:
  using Error::Error;
  const char* class_name() const noexcept override { return "IndexError"; }
};

// An axis out of range (NumPy's AxisError is a ValueError and an IndexError; here a ValueError).
class AxisError : public ValueError {
 public:
  using ValueError::ValueError;
  const char* class_name() const noexcept override { return "AxisError"; }
};

// A value that does not fit its dtype, e.g. a weak integer scalar 300 with a uint8 array.
class OverflowError : public Error {
 public:
  using Error::Error;
  const char* class_name() const noexcept override { return "OverflowError"; }
};

// A linear-algebra failure (singular matrix, no convergence).
class LinAlgError : public Error {
 public:
  using Error::Error;
  const char* class_name() const noexcept override { return "LinAlgError"; }
};

// Device or pinned memory exhausted; the message gives requested, in-use and limit bytes.
class OutOfMemoryError : public Error {
 public:
  const char* class_name() const noexcept override { return "OutOfMemoryError"; }
  OutOfMemoryError(std::size_t requested, std::size_t in_use, std::size_t limit);
  std::size_t requested() const noexcept { return requested_; }
  std::size_t in_use() const noexcept { return in_use_; }
  std::size_t limit() const noexcept { return limit_; }

 private:
  std::size_t requested_, in_use_, limit_;
};

// A failed run-time compilation; the message holds the compiler's log and options.
class CompileError : public Error {
 public:
  const char* class_name() const noexcept override { return "CompileError"; }
  CompileError(const std::string& message, std::string log, std::string source)
      : Error(message), log_(std::move(log)), source_(std::move(source)) {}
  const std::string& log() const noexcept { return log_; }
  const std::string& source() const noexcept { return source_; }

 private:
  std::string log_, source_;
};

// A CUDA runtime, driver or library call that failed; the message names the call and the error.
class CudaError : public Error {
 public:
  const char* class_name() const noexcept override { return "CudaError"; }
  CudaError(const std::string& message, int code) : Error(message), code_(code) {}
  int code() const noexcept { return code_; }

 private:
  int code_;
};

}  // namespace cupp
