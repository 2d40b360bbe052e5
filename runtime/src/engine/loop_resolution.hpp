// Internal: which loop of an op a call runs, as NumPy 2 decides (pure; no CUDA). A weak scalar
// (NEP 50) takes the dtype its kind gets beside the call's arrays (int8 array + 2.5 -> float64,
// uint8 array + 3 -> uint8); an op's promoter (int_inputs_as) may replace all-integer inputs;
// then the first loop in the op's order whose inputs every operand casts to safely wins (when
// none does, a weak scalar may take any loop dtype of a kind it casts to, as NumPy's legacy
// search allows: ldexp(float32_array, 2) runs the float32, int32 loop), or with dtype= the first loop whose outputs have that dtype and whose inputs the operands cast to
// under the casting rule. Inputs and out= arrays are checked against the casting rule as NumPy
// checks them, with NumPy's messages.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/ops.hpp"
#include "cupp/promotion.hpp"

namespace cupp::engine {

// One input as the resolver sees it: an array's dtype, or a weak scalar.
struct input_type {
  cupp::dtype type;                       // strong dtype (ignored for a weak scalar)
  const weak_scalar* weak = nullptr;      // non-null for a weak scalar
};

struct loop_choice {
  std::size_t index;                      // into op.loops
  std::vector<cupp::dtype> operand_types; // what each input is treated as (weak scalars resolved)
};

// TypeError when no loop fits ("ufunc 'add' did not contain a loop with signature matching
// types (dtype('bool'), dtype('complex64')) -> None").
loop_choice choose_loop(const op_spec& op, std::span<const input_type> inputs, std::optional<cupp::dtype> dtype,
                        cupp::casting rule);

// TypeError "Cannot cast ufunc 'add' input 0 from dtype('int64') to dtype('int8') with casting
// rule 'same_kind'" when an array input may not be cast to its loop dtype under `rule`.
void check_input_casting(const op_spec& op, std::size_t input, cupp::dtype from, cupp::dtype to, cupp::casting rule);
// The same for an out= array: "Cannot cast ufunc 'add' output from dtype('float64') to
// dtype('int32') with casting rule 'same_kind'".
void check_output_casting(const op_spec& op, cupp::dtype from, cupp::dtype to, cupp::casting rule);

// NumPy 2's comparison promoter (op_spec::python_int_out_of_range): when a weak Python int input
// (x1 or x2; null when that input is an array) does not fit the integer dtype of the chosen loop,
// it lies below or above every value of that dtype, so each element compares the same way and the
// result is that outcome's value (`uint8_array < -1`: false everywhere). nullopt when the call
// compares normally: the op has no such outcome, the loop is not an integer T, T loop, the value
// fits, or two out-of-range Python ints are equal (the value check then raises OverflowError).
std::optional<bool> out_of_range_comparison(const op_spec& op, const loop_spec& loop, const weak_scalar* x1,
                                            const weak_scalar* x2);
// The same for a call's inputs, which also needs every array input to cast safely to its loop
// dtype (its values then lie in that dtype's range): not so when dtype= picked a narrower loop
// under same_kind casting, and then the call keeps the OverflowError.
std::optional<bool> out_of_range_comparison(const op_spec& op, const loop_spec& loop, const input_type& x1,
                                            const input_type& x2);

// "dtype('int8')"
std::string dtype_repr(const cupp::dtype& type);

}  // namespace cupp::engine
