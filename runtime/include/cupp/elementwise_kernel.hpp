// cupp::ElementwiseKernel: CuPy's ElementwiseKernel in C++. A user element-wise kernel from a
// parameter list and a C++ body; it runs on the element-wise engine (same composer, layout
// classes, kernel cache and call semantics as the built-in ufuncs):
//
//   cupp::ElementwiseKernel axpy("T x, T y, float32 a", "T z", "z = a * x + y", "axpy");
//   cupp::ndarray z = axpy(x, y, 2.0f);          // broadcasting; z allocated, dtype T of x and y
//   axpy.call({x, y, 2.0f, z});                  // or into given outputs (inputs, then outputs)
//
// Parameters are "TYPE NAME" or "raw TYPE NAME" separated by commas. TYPE is a dtype name
// (float32, int64, bool, complex64, ...) or a placeholder (any other identifier, such as T) that
// takes the dtype of the arrays bound to it: every argument of one placeholder must have the same
// dtype (TypeError otherwise), a C++ scalar takes the default dtype of its kind (int64, float64,
// complex128, bool) when no array binds the placeholder, and output placeholders may also be
// bound by given output arrays. The body sees each parameter by name and each placeholder as a
// type alias. Arguments of a concrete TYPE are cast to it in registers (same_kind is checked).
// CuPy's index: a body that names `i` sees the element's index in the C order of the (broadcast)
// output, and `_ind.size()` the number of elements. A `raw` parameter is not broadcast: the body
// indexes its flattened C-order elements, `y[k]`, and `y.size()` is their count (a
// non-contiguous raw input is copied contiguous first, and one of another dtype is cast to the
// parameter's). Raw outputs must be given (C-contiguous, of the parameter's dtype). Such
// kernels (and kernels of more than 3 inputs or 2 outputs) run one plain strided kernel over the
// output's C-order shape; the others run on the element-wise engine's layout classes.
// Compilation happens on the first call of each dtype combination and is cached like every kernel.
#pragma once

#include <cstddef>
#include <cstdint>
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
  bool raw = false;      // "raw TYPE NAME"
};

// Parses "T x, raw float32 y": ValueError naming the text for anything else (an empty item, a
// missing name, a name that is not an identifier, repeated names).
std::vector<kernel_param> parse_kernel_params(std::string_view params);

class ElementwiseKernel;

namespace detail {
struct user_elementwise_desc;
// The kernel description of the general path (a body naming `i`, raw parameters) for these
// parameter dtypes (inputs, then outputs), the dtypes the arrays are stored in, which inputs are
// scalars, and `ndim` collapsed dimensions: what a call composes, exposed for tests.
user_elementwise_desc elementwise_kernel_desc(const ElementwiseKernel& kernel, std::span<const dtype> types,
                                              std::span<const dtype> storage, std::span<const bool> scalar, int ndim);
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
  // CuPy's size=: the number of elements of a kernel whose arguments are all raw arrays or
  // scalars (outputs are then 1-d of that size). ValueError with a non-raw array argument.
  std::vector<ndarray> call(std::span<const operand> args, std::int64_t size) const;
  std::vector<ndarray> call(std::initializer_list<operand> args, std::int64_t size) const {
    return call(std::span<const operand>(args.begin(), args.size()), size);
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
  // Whether calls run the general path: the body names `i` (or `_ind`), a parameter is raw, or
  // there are more than 3 inputs or 2 outputs.
  bool indexed() const noexcept;

 private:
  friend const op_spec& detail::elementwise_kernel_op(const ElementwiseKernel&, std::span<const dtype>);
  friend detail::user_elementwise_desc detail::elementwise_kernel_desc(const ElementwiseKernel&, std::span<const dtype>,
                                                                       std::span<const dtype>, std::span<const bool>, int);
  std::vector<ndarray> call_indexed(std::span<const operand> args, std::int64_t size) const;
  struct definition;
  std::shared_ptr<const definition> def_;
};

}  // namespace cupp
