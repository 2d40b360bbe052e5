// cupp::linalg, NumPy's numpy.linalg, and NumPy's matrix products in namespace cupp, over cuBLAS,
// cuBLASLt and cuSOLVER (the linalg module, target cupp::linalg; cupp::cupp links it). C++ has no
// `@`: cupp::matmul(a, b) is the call (`cupp eval` reads `a @ b` as it).
//
//   auto c = cupp::matmul(a, b);                                  // NumPy's gufunc (n,k),(k,m)->(n,m)
//   cupp::matmul(a, b, {.out = c, .dtype = cupp::float32});       // out=, dtype=, casting=
//   auto d = cupp::dot(a, v);  auto t = cupp::tensordot(x, y, 1);  auto k = cupp::kron(a, b);
//   auto p = cupp::linalg::multi_dot({a, b, c});                  // the cheapest parenthesisation
//   auto t = cupp::linalg::trace(stack_of_matrices);               // one sum per matrix
//
// Products follow NumPy 2.5: batch broadcasting, 1-D promotion (a 1-D left operand is a row, a
// 1-D right one a column, each removed from the result), NEP 50 result dtypes (the runtime's
// promotion; matmul(bfloat16, bfloat16) is bfloat16), every dtype (float16, bfloat16, float32,
// float64, complex64, complex128 through cuBLAS, half types accumulating in float32; bool and
// integers with NumPy's wrapping results), and NumPy's errors (ValueError naming the gufunc
// signature for mismatched core dimensions or a 0-d operand, TypeError for a cast casting= forbids).
// CUPP_TF32=1 lets float32 products use TF32 tensor cores (off by default). docs/linalg.md has the
// layout rules (no copies that cuBLAS's transpose flags and strides can avoid).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/promotion.hpp"
#include "cupp/routines.hpp"

// The routines whose spec entry says `declare: generated` (specs/routines/linalg.yaml), with their
// option structs: trace(x, {.offset, .dtype}), numpy.linalg.trace (NumPy 2, the Array API's): the
// sums of the offset diagonals (0 main, > 0 above, < 0 below) of the matrices in the last two axes,
// of shape x.shape[:-2], in sum's default dtype unless dtype is given. docs/api/linalg.md has each.
#include "cupp/generated/linalg_declarations.hpp"

namespace cupp {

// NumPy's gufunc keywords of matmul, matvec and vecmat.
struct matmul_options {
  ndarray out{};                               // write here: its shape must be the result's
  cupp::casting casting = casting::same_kind;  // for the inputs' cast to the loop and the result's to out
  std::optional<cupp::dtype> dtype{};          // the loop's dtype (the inputs are cast to it)
};

// numpy.matmul (x1 @ x2): the gufunc (n,k),(k,m)->(n,m) over broadcast batch dimensions.
ndarray matmul(const ndarray& x1, const ndarray& x2, const matmul_options& options = {});
// numpy.matvec (NumPy 2.2): the gufunc (m,n),(n)->(m).
ndarray matvec(const ndarray& x1, const ndarray& x2, const matmul_options& options = {});
// numpy.vecmat (NumPy 2.2): the gufunc (n),(n,m)->(m), x1 conjugated.
ndarray vecmat(const ndarray& x1, const ndarray& x2, const matmul_options& options = {});

struct vecdot_options {
  ndarray out{};
  cupp::casting casting = casting::same_kind;
  std::optional<cupp::dtype> dtype{};
  int axis = -1;  // the vector axis of both inputs
};
// numpy.vecdot: the gufunc (n),(n)->() along `axis`, sum(conj(x1) * x2).
ndarray vecdot(const ndarray& x1, const ndarray& x2, const vecdot_options& options = {});

// numpy.dot: a 0-d operand multiplies; 1-D . 1-D is the inner product; N-D . 1-D sums over the
// last axes; N-D . M-D (M >= 2) sums a's last axis with b's second-to-last. out= must have the
// result's shape and dtype and be C-contiguous (NumPy's "output array is not acceptable").
ndarray dot(const ndarray& a, const ndarray& b, const ndarray& out = {});
// numpy.vdot: the flattened inner product, a conjugated (complex).
ndarray vdot(const ndarray& a, const ndarray& b);
// numpy.inner: sums over the last axes (a 0-d operand multiplies).
ndarray inner(const ndarray& a, const ndarray& b);
// numpy.outer: a.ravel()[:, None] * b.ravel()[None, :].
ndarray outer(const ndarray& a, const ndarray& b, const ndarray& out = {});
// numpy.tensordot(a, b, axes=N): sums a's last N axes with b's first N.
ndarray tensordot(const ndarray& a, const ndarray& b, std::int64_t axes = 2);
// numpy.tensordot(a, b, axes=(axes_a, axes_b)): sums the paired axes.
ndarray tensordot(const ndarray& a, const ndarray& b, std::span<const int> axes_a, std::span<const int> axes_b);
// numpy.kron: the Kronecker product (the lower-dimensional operand gets leading 1s).
ndarray kron(const ndarray& a, const ndarray& b);

struct cross_options {
  int axisa = -1, axisb = -1, axisc = -1;  // the vector axes of a, b and the result
  std::optional<int> axis{};               // overrides all three
};
// numpy.cross: cross products of 3-vectors (NumPy 2.5: other lengths are a ValueError).
ndarray cross(const ndarray& a, const ndarray& b, const cross_options& options = {});

// numpy.einsum's optimize=: False (none: one step, left to right), True or 'greedy', 'optimal'
// (NumPy's einsum_path algorithms, the same pairs), each within memory_limit elements per
// intermediate (default: the largest operand or result), or a path as einsum_path gives it
// ({{0, 1}, {0, 1}}: NumPy's list without its leading 'einsum_path').
struct einsum_optimize {
  enum class strategy { none, greedy, optimal, path };
  strategy kind = strategy::none;
  std::optional<std::int64_t> memory_limit{};
  std::vector<std::vector<int>> path{};

  einsum_optimize() = default;
  einsum_optimize(bool on) : kind(on ? strategy::greedy : strategy::none) {}  // NOLINT: {.optimize = true}
  static einsum_optimize greedy(std::optional<std::int64_t> memory_limit = {});
  static einsum_optimize optimal(std::optional<std::int64_t> memory_limit = {});
  static einsum_optimize given(std::vector<std::vector<int>> path);
  static einsum_optimize parse(std::string_view name);  // "greedy" or "optimal"
};

struct einsum_options {
  ndarray out{};                          // write here (the result's shape); cast with `casting`
  std::optional<cupp::dtype> dtype{};     // the computation's dtype (default: NEP 50's promotion)
  cupp::casting casting = casting::safe;  // NumPy's einsum default
  einsum_optimize optimize{};
  // NumPy's casting names ('no', 'equiv', 'safe', 'same_kind', 'unsafe'); ValueError otherwise.
  static cupp::casting casting_named(std::string_view name);
};

// numpy.einsum(subscripts, *operands): any subscripts ("ij,jk->ik", implicit "ij,jk", repeated
// labels "ii->i", ellipsis "...ij,...jk", labels summed away "ij->"), NumPy's error messages; each
// pairwise contraction one batched matmul (docs/linalg.md).
ndarray einsum(std::string_view subscripts, std::span<const ndarray> operands, const einsum_options& options = {});
ndarray einsum(std::string_view subscripts, std::initializer_list<ndarray> operands,
               const einsum_options& options = {});
// numpy.einsum_path's path: the pairs einsum contracts, in order (the report string is not made).
std::vector<std::vector<int>> einsum_path(std::string_view subscripts, std::span<const ndarray> operands,
                                          const einsum_optimize& optimize = einsum_optimize(true));

// For tools: the product routines in namespace cupp (specs/routines/products.yaml; cupp ops).
std::span<const routine_info> product_routines() noexcept;

}  // namespace cupp

namespace cupp::linalg {

// What `cupp info` prints for the module: the version of each CUDA library it wraps, and CUPP_TF32.
std::vector<module_info_row> info();

// numpy.linalg.matmul (the Array API's): cupp::matmul without keywords.
ndarray matmul(const ndarray& x1, const ndarray& x2);
// numpy.linalg.multi_dot: the product of two or more arrays in the cheapest order (the first
// and last may be 1-D, the others must be 2-D: LinAlgError otherwise).
ndarray multi_dot(std::span<const ndarray> arrays, const ndarray& out = {});
ndarray multi_dot(std::initializer_list<ndarray> arrays, const ndarray& out = {});
// numpy.linalg.tensordot, vecdot, outer (1-D operands only), cross (3-vectors only).
ndarray tensordot(const ndarray& x1, const ndarray& x2, std::int64_t axes = 2);
ndarray tensordot(const ndarray& x1, const ndarray& x2, std::span<const int> axes1, std::span<const int> axes2);
ndarray vecdot(const ndarray& x1, const ndarray& x2, int axis = -1);
ndarray outer(const ndarray& x1, const ndarray& x2);
ndarray cross(const ndarray& x1, const ndarray& x2, int axis = -1);
// numpy.linalg.matrix_power: a (stacked square matrices) to the integer power n >= 0 by repeated
// squaring, NumPy's order of products (n < 0 needs linalg.inv: not yet, a ValueError).
ndarray matrix_power(const ndarray& a, std::int64_t n);
// numpy.linalg.diagonal: the offset diagonals of the last two axes (a read-only view).
ndarray diagonal(const ndarray& x, std::int64_t offset = 0);
// numpy.linalg.matrix_transpose: the last two axes swapped (a view).
ndarray matrix_transpose(const ndarray& x);

}  // namespace cupp::linalg

namespace cupp {
// For tools: the linalg routines by name with their NumPy signatures (generated from
// specs/routines/linalg.yaml; cupp ops lists them).
std::span<const routine_info> linalg_routines() noexcept;
}  // namespace cupp

// Part 2: the decompositions and solvers (solve, inv, svd, eigh, qr, cholesky, lstsq, norms, and
// SciPy's lu / cho_factor / solve_triangular): their own header, included here so that
// <cupp/linalg.hpp> gives all of numpy.linalg.
#include "cupp/linalg_solvers.hpp"
