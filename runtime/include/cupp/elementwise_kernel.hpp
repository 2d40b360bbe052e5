// cupp::ElementwiseKernel: CuPy's ElementwiseKernel in C++. A user element-wise kernel from a
// parameter list and a C++ body; it runs on the element-wise engine (same composer, layout
// classes, kernel cache and call semantics as the built-in ufuncs):
//
//   cupp::ElementwiseKernel axpy("T x, T y, float32 a", "T z", "z = a * x + y", "axpy");
//   cupp::ndarray z = axpy(x, y, 2.0f);          // broadcasting; z allocated, dtype T of x and y
//   axpy.call({x, y, 2.0f, z});                  // or into given outputs (inputs, then outputs)
//
// Parameters are "TYPE NAME" separated by commas. TYPE is a dtype name (float32, int64, bool,
// complex64, ...) or a placeholder (any other identifier, such as T) that takes the dtype of the
// arrays bound to it: every argument of one placeholder must have the same dtype (TypeError
// otherwise), a C++ scalar takes the default dtype of its kind (int64, float64, complex128, bool)
// when no array binds the placeholder, and output placeholders may also be bound by given
// output arrays. The body sees each parameter by name and each placeholder as a type alias.
// Arguments of a concrete TYPE are cast to it in registers (same_kind casting is checked).
// `raw` parameters and the index variable `i` of CuPy are not supported yet (ValueError).
// Compilation happens on the first call of each dtype combination and is cached like every kernel.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/ufunc.hpp"

namespace cupp {

// One parsed parameter of an ElementwiseKernel.
struct kernel_param {
  std::string type;      // the dtype name or the placeholder's name, as written
  std::string name;
  bool placeholder = false;
};

// Parses "T x, float32 y": ValueError naming the text for anything else (an empty item, a
// missing name, a name that is not an identifier, `raw`, repeated names).
std::vector<kernel_param> parse_kernel_params(std::string_view params);

class ElementwiseKernel;

namespace detail {
// The op an ElementwiseKernel runs for these parameter dtypes (inputs, then outputs), interned
// for the life of the process: what a call compiles, exposed so tests compile it without a GPU.
const op_spec& elementwise_kernel_op(const ElementwiseKernel& kernel, std::span<const dtype> types);
}  // namespace detail

class ElementwiseKernel {
 public:
  ElementwiseKernel(std::string in_params, std::string out_params, std::string operation,
                    std::string name = "kernel");

  // Inputs (arrays or C++ scalars), then optionally one array per output. Returns the outputs.
  std::vector<ndarray> call(std::span<const operand> args) const;
  std::vector<ndarray> call(std::initializer_list<operand> args) const {
    return call(std::span<const operand>(args.begin(), args.size()));
  }
  // For kernels with one output: that output (TypeError for a kernel with more).
  template <class... Args>
  ndarray operator()(const Args&... args) const {
    const operand list[] = {operand(args)...};
    return call_single(std::span<const operand>(list, sizeof...(Args)));
  }

  ndarray call_single(std::span<const operand> args) const;

  const std::string& name() const noexcept;
  std::span<const kernel_param> in_params() const noexcept;
  std::span<const kernel_param> out_params() const noexcept;

 private:
  friend const op_spec& detail::elementwise_kernel_op(const ElementwiseKernel&, std::span<const dtype>);
  struct definition;
  std::shared_ptr<const definition> def_;
};

}  // namespace cupp
