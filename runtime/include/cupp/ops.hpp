// The registry of built-in ops generated from specs/ufuncs/*.yaml: for each op its name, doc,
// arity, aliases, identity and loops (input/output dtypes and the C++ statement computing one
// element), in NumPy's resolution order. The ufunc objects and the kernel composer read it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cupp/dtype.hpp"

namespace cupp {

// One loop of an op: the dtypes it takes and gives, and its body (a C++ statement over
// in0.., out0..).
struct loop_spec {
  std::span<const type_id> in;
  std::span<const type_id> out;
  std::string_view body;
  // Whether the body may set the device error flag: it names cupp::dev::raise_error (codegen and
  // the run-time spec reader decide it by that one rule). The engine reads the flag (a copy to
  // the host and a stream synchronisation) after kernels of such loops only.
  bool raises = false;
};

// What a comparison gives where x1 < x2 and where x1 > x2 (specs' python_int_out_of_range).
struct comparison_outcome {
  bool when_less;
  bool when_greater;
};

// An accuracy bound of an op's floating results in one dtype (units in the last place).
struct ulp_bound {
  type_id type;
  int ulps;
};

// One op as its spec declares it.
struct op_spec {
  std::string_view name;
  std::string_view doc;
  int nin;
  int nout;
  std::span<const std::string_view> aliases;
  std::string_view identity;  // empty when the op has none
  bool commutative;
  std::span<const loop_spec> loops;
  // A promoter: when every input is bool or an integer, the loop search sees this dtype for
  // them instead (true division of integers computes in float64). void_ when the op has none.
  type_id int_inputs_as = type_id::void_;
  // NumPy's TypeError message when every input is bool (boolean subtract and negative); empty
  // when bool inputs resolve like any other.
  std::string_view bool_inputs_error = {};
  // "ValueError: message" when a body may call cupp::dev::raise_error() (the device error flag):
  // the op then checks the flag after kernels of its raising loops (loop_spec::raises) and throws
  // this. Empty: the op never raises.
  std::string_view raises = {};
  // Weak scalars count by their truth value only (logical ops): `uint8_array && 300` is fine.
  bool weak_scalars_by_truth = false;
  // The spec's accuracy bounds (docs/architecture.md); a dtype not listed is held to 1 ULP.
  std::span<const ulp_bound> ulp = {};
  // The name the kernel cache knows this op's programs by; empty: `name`. Ops loaded at run time
  // (cupp::load_ops) set "loaded:<name>:<hash of the definition>", so a key always stands for
  // one set of bodies and never meets a built-in op's or an ElementwiseKernel's key.
  std::string_view kernel_name = {};
  // NumPy 2's comparison promoter: when a weak Python int does not fit the integer dtype of the
  // chosen loop (`uint8_array < -1`, `int8_array == 300`), every element compares one way, so the
  // call fills the output with this outcome's value instead of raising OverflowError. Empty: the
  // op raises OverflowError like arithmetic.
  std::optional<comparison_outcome> python_int_out_of_range = {};
  // The spec's reduce_widens_ints (add, multiply): the default result dtype of op.reduce and
  // op.accumulate (sum, prod, cumsum, ...) is int64 for bool and signed integers narrower than
  // 64 bits and uint64 for narrower unsigned ones; false: the input's dtype.
  bool reduce_widens_ints = false;
};

// Every built-in op, sorted by name.
std::span<const op_spec> builtin_ops() noexcept;
// An op by its name or an alias, built in or loaded at run time (cupp::load_ops); nullptr when
// there is none.
const op_spec* find_op(std::string_view name) noexcept;
// "ii->i"-style signature of a loop, with NumPy's type characters.
std::string loop_signature(const loop_spec& loop);
// The CUDA source the kernel composer builds for an op's element-wise kernels (every loop in one
// NVRTC program; contiguous layout, 64-bit indexing), for inspection.
std::string elementwise_kernel_source(const op_spec& op);

}  // namespace cupp
