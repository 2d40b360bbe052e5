// The consumer project's second program: links cupp::linalg alone (the module and cupp::core),
// prints the module's info rows (the cuBLAS and cuSOLVER versions) and a promotion result.
#include <cupp/linalg.hpp>
#include <cupp/promotion.hpp>

#include <iostream>

int main() {
  for (const cupp::module_info_row& row : cupp::linalg::info()) std::cout << "linalg " << row.key << " " << row.value << '\n';
  std::cout << "result_type(int8, uint8) = " << cupp::result_type(cupp::int8, cupp::uint8) << '\n';
  return 0;
}
