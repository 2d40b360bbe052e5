// Internal to the random module: the fill routines the Generator methods share (generator.cpp):
// out= checks, one launch per family of kernels, and distribution(), which checks, broadcasts and
// launches a distribution with up to three parameters.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "sampling.hpp"

namespace cupp::random::detail {

std::string dtype_repr(cupp::dtype t);  // NumPy's repr: dtype('int32')
// The array to write: a new one of size's shape, or out checked as NumPy's check_output.
ndarray output_for(const size_arg& size, cupp::dtype dtype, const ndarray& out);

void fill_transform(const Philox& bits, const ndarray& out, int dist, const param& a, const param& b,
                    const param& c);
void fill_normal(const Philox& bits, const ndarray& out, const param& loc, const param& scale, bool lognormal);
void fill_stream(const Philox& bits, const ndarray& out, int dist, const param& a, const param& b, const param& c);

enum class family { transform, normal, stream };
struct checked {
  const operand* value;
  const char* name;
  cons constraint;
};
// Checks each parameter (in order, as NumPy), then draws `dist` of `fam` into a new array of
// `type` and the result shape. family::normal: dist 1 is lognormal.
ndarray distribution(const Philox& bits, family fam, int dist, const size_arg& size, cupp::dtype type,
                     std::initializer_list<checked> params);

// multivariate_normal's factor A (row-major d x d, A A^T = cov): NumPy's methods and checks.
std::vector<double> normal_factor(const std::vector<double>& cov, std::size_t d, const std::string& method,
                                  const std::string& check_valid, double tol);

}  // namespace cupp::random::detail
