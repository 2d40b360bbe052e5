// Internal: helpers the element-wise engine shares between the ufunc call (ufunc.cpp), copies
// and casts (copy.cpp) and the ndarray's own copy/assign/fill (array/transfer.cpp).
#pragma once

#include <span>

#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::engine {

// A new array on `device` with the given byte strides (a dense permutation of C order).
ndarray empty_with_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                           cupp::dtype type, int device);
// A new array laid out in the memory order of `like` (NumPy's order='K').
ndarray empty_in_order_of(std::span<const std::int64_t> shape, std::span<const ndarray> like, cupp::dtype type,
                          int device);
// Whether two arrays' byte ranges on one device intersect.
bool overlaps(const ndarray& a, const ndarray& b);
// Whether `input` (broadcast to the output's shape) reads exactly the elements `output` writes,
// one to one (then an in-place element-wise op is safe).
bool same_elements(const ndarray& input, const ndarray& output);

// Writes `source` (broadcast to dst's shape; any built-in dtype, cast in the kernel) into dst
// where `where` (a bool array broadcast to dst's shape, or null) is true. Crosses devices
// through a peer copy; copies the source first when it overlaps dst. No casting check here.
void copy_into(const ndarray& dst, const ndarray& source, const ndarray& where = {});
// The internal copy op behind copy_into and fill_with ("_copy": loop i copies dtype i; the output's
// storage dtype makes it a cast).
const op_spec& copy_op_spec() noexcept;
// Runs loop `loop` of `op` on `inputs` with NumPy's call semantics (broadcasting, out=, where=,
// casting of out=, order K, overlap copies). The loop is resolved and the inputs' casting checked
// by the caller. Built-in ufuncs and ElementwiseKernel share it.
std::vector<ndarray> execute(const op_spec& op, std::size_t loop, std::span<const operand> inputs,
                             const ufunc_options& options);

// A weak scalar as the bytes of the loop's input dtype (OverflowError for an integer that does not
// fit), or of its truth value for ops whose spec says weak_scalars_by_truth.
std::vector<std::byte> scalar_value(const op_spec& op, const weak_scalar& value, cupp::dtype type);

// Sets dst's elements to one value already in dst's dtype (its bytes); with `where` (a bool array
// of dst's shape), only the elements where it is true.
void fill_with(const ndarray& dst, std::span<const std::byte> value, const ndarray& where = {});

}  // namespace cupp::engine
