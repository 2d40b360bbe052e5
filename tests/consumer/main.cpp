// The consumer project's program: uses cupp's public headers and static library the way an
// application does, prints a promotion result and whether CUDA is usable, and exits 0.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/modules.hpp>
#include <cupp/dtype.hpp>
#include <cupp/errors.hpp>
#include <cupp/promotion.hpp>

#include <iostream>

int main() {
  std::cout << "result_type(int8, uint8) = " << cupp::result_type(cupp::int8, cupp::uint8) << '\n';
  try {
    (void)cupp::result_type(cupp::uint8, cupp::weak_scalar(300));
    std::cout << "uint8 with 300: no error (unexpected)\n";
    return 1;
  } catch (const cupp::OverflowError& e) {
    std::cout << "uint8 with 300: OverflowError: " << e.what() << '\n';
  }
  std::cout << "cupp::cuda::is_available() = " << (cupp::cuda::is_available() ? "true" : "false") << '\n';
  std::cout << "CUDA devices: " << cupp::cuda::device_count() << '\n';
  for (const cupp::module_entry& m : cupp::modules()) std::cout << "module " << m.name << '\n';
  return 0;
}
