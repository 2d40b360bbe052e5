// Example for docs/getting-started.md, built and run by the tests (CTest example_getting_started,
// label gpu): the guide's first program, as it is (its own main), with or without a GPU. What it
// prints is checked: a recorder (before the snippet) captures std::cout and, when the program
// ends, compares the lines with NumPy 2's answers (int16, float32, an OverflowError) and exits
// with status 1 after printing "FAILED: ..." on a mismatch.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <streambuf>
#include <string>

namespace {
// Copies everything written to std::cout into a string (and on to the terminal).
class output_recorder : public std::streambuf {
 public:
  output_recorder() : terminal_(std::cout.rdbuf(this)) {}
  output_recorder(const output_recorder&) = delete;
  output_recorder& operator=(const output_recorder&) = delete;
  ~output_recorder() override {
    std::cout.rdbuf(terminal_);
    const std::string expected = "int16\nfloat32\nOverflowError: ";
    if (text_.compare(0, expected.size(), expected) != 0 ||
        (text_.find("\nno GPU here\n") == std::string::npos && text_.find(" (sm_") == std::string::npos)) {
      std::printf("FAILED: the first program printed:\n%s\n", text_.c_str());
      std::fflush(stdout);
      std::_Exit(1);
    }
  }

 protected:
  int_type overflow(int_type c) override {
    if (c != traits_type::eof()) {
      text_.push_back(static_cast<char>(c));
      terminal_->sputc(static_cast<char>(c));
    }
    return c;
  }

 private:
  std::streambuf* terminal_;
  std::string text_;
};
const std::ios_base::Init init_iostreams;  // std::cout exists before the recorder is made
output_recorder recorder;
}  // namespace

// [snippet first_program]
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/promotion.hpp>

#include <iostream>

int main() {
  // NumPy 2 promotion: int8 with uint8 gives int16; a weak C++ scalar takes the array's dtype.
  std::cout << cupp::result_type(cupp::int8, cupp::uint8) << '\n';                  // int16
  std::cout << cupp::result_type(cupp::float32, cupp::weak_scalar(2.5)) << '\n';     // float32
  try {
    cupp::result_type(cupp::uint8, cupp::weak_scalar(300));   // like uint8_array + 300
  } catch (const cupp::OverflowError& e) {
    std::cout << "OverflowError: " << e.what() << '\n';
  }
  if (cupp::cuda::is_available()) {   // never throws
    auto p = cupp::cuda::get_device_properties(0);
    std::cout << p.name << " (" << p.arch() << ")\n";
  } else {
    std::cout << "no GPU here\n";
  }
}
// [end snippet]
