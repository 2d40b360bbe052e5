// cupp::ReductionKernel: CuPy's ReductionKernel in C++. A user reduction from a map expression
// (what each element contributes), a reduce expression (how two accumulators `a` and `b`
// combine), a post-map expression (what is written for the final accumulator `a`) and an
// identity; it runs on the reduction engine of cupp::sum (collapsed dimensions, rows and columns
// classes, a deterministic two-pass split for long reductions; no atomics):
//
//   cupp::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
//   cupp::ndarray n = l2norm(x);                             // over every axis
//   cupp::ndarray rows = l2norm(x, {.axis = 1, .keepdims = true});
//
// Parameters use ElementwiseKernel's syntax ("T x", placeholders bound by the arrays' dtypes).
// Supported: one input array parameter (elements are cast to its dtype, same_kind checked) and
// one output parameter; `raw` parameters and scalar arguments are not (ValueError). reduce_type
// (a dtype name or a placeholder) is the accumulator's dtype, by default the output's. The
// expressions are C++: map_expr and identity are expressions of the accumulator type,
// reduce_expr an expression of `a` and `b`, post_map_expr a statement assigning the output
// parameter from `a` (empty: the output is `a` cast). Placeholders and `_type_reduce` (the
// accumulator type) are type aliases in all of them. Each dtype combination compiles on its
// first call (cupp::CompileError with NVRTC's log for a bad expression) and is cached.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "cupp/elementwise_kernel.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

// A ReductionKernel call's options, as CuPy's keyword arguments.
struct reduction_kernel_options {
  cupp::axes axis{};      // default: every axis; an int or a tuple {0, 2}
  bool keepdims = false;  // keep reduced axes with length 1
  ndarray out{};          // write the result here (its shape must match; same_kind cast)
};

class ReductionKernel;

namespace detail {
struct user_reduction;
// The composed functors of `kernel` for an input of dtype `in` (the parameter's dtype after
// binding), output dtype `out` and accumulator `acc`: what a call compiles, for tests.
user_reduction reduction_kernel_functors(const ReductionKernel& kernel, dtype in, dtype out, dtype acc);
}  // namespace detail

class ReductionKernel {
 public:
  ReductionKernel(std::string in_params, std::string out_params, std::string map_expr, std::string reduce_expr,
                  std::string post_map_expr, std::string identity, std::string name = "reduce_kernel",
                  std::string reduce_type = "");

  // Reduces `x` (AxisError for an axis out of range, ValueError for a repeated one; an empty
  // reduction without identity is a ValueError). Returns the result (or options.out).
  ndarray operator()(const ndarray& x, const reduction_kernel_options& options = {}) const;

  const std::string& name() const noexcept;

 private:
  struct definition;
  friend detail::user_reduction detail::reduction_kernel_functors(const ReductionKernel&, dtype, dtype, dtype);
  // The dtypes of the input parameter, the output and the accumulator for a call.
  void types_of(const ndarray& x, const ndarray& out, dtype& in, dtype& result, dtype& acc) const;
  std::shared_ptr<const definition> def_;
};

}  // namespace cupp
