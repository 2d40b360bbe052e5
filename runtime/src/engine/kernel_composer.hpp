// Internal: the one composer of element-wise kernel source. From an op's spec (loops with dtypes
// and bodies), the generated kernel template of its arity and a kernel description (loop, layout
// class, index width, each operand's accessor and storage dtype) it builds an NVRTC program and
// the name expression of each kernel. Built-in ops and ops loaded at run time go through here
// alike. Two kinds of program:
//   - all loops of an op in one program, contiguous class, operands stored in the loop's dtypes
//     (the common case: one compile serves every dtype of an op);
//   - one kernel for any other description (casts in registers, scalars as parameters,
//     broadcast and strided operands, where= masks).
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cupp/ops.hpp"

namespace cupp::detail {

enum class index_width { i32, i64 };

// How a kernel reaches one operand (cupp/dev/elementwise.cuh's accessors).
enum class operand_access : std::uint8_t { dense, broadcast, value, strided, rows, tiled };

struct kernel_operand {
  operand_access access = operand_access::dense;
  type_id storage = type_id::float64;  // the dtype in memory (a value: the loop's dtype)
};

// A kernel's inputs or outputs, held inline: a description is built on every call, and the
// kernel templates have at most 3 inputs and 2 outputs.
class operand_list {
 public:
  static constexpr std::size_t capacity = 3;
  operand_list() = default;
  operand_list(std::initializer_list<kernel_operand> items) {
    for (const kernel_operand& o : items) push_back(o);
  }
  void push_back(kernel_operand o) {
    if (count_ == capacity) throw_full();
    items_[count_++] = o;
  }
  std::size_t size() const noexcept { return count_; }
  bool empty() const noexcept { return count_ == 0; }
  const kernel_operand& operator[](std::size_t k) const noexcept { return items_[k]; }
  kernel_operand& operator[](std::size_t k) noexcept { return items_[k]; }
  const kernel_operand* begin() const noexcept { return items_.data(); }
  const kernel_operand* end() const noexcept { return items_.data() + count_; }
  kernel_operand* begin() noexcept { return items_.data(); }
  kernel_operand* end() noexcept { return items_.data() + count_; }
  kernel_operand& back() noexcept { return items_[count_ - 1]; }

 private:
  [[noreturn]] static void throw_full();
  std::array<kernel_operand, capacity> items_{};
  std::size_t count_ = 0;
};

struct kernel_desc {
  std::size_t loop = 0;
  bool contiguous = true;   // contiguous class (else strided with `ndim` dimensions, or tiled)
  bool tiled = false;       // tiled 2-D class (ndim 2, no where=): transposed inputs via shared memory
  int vec = 1;              // elements per vector access (1, 2, 4, 8, 16); strided: along the innermost
                            // dimension, which it divides (1 with where=)
  int ndim = 1;             // strided: collapsed dimensions (1 .. 64)
  index_width width = index_width::i64;
  operand_list inputs, outputs;
  bool has_where = false;   // strided only
  kernel_operand where{operand_access::dense, type_id::bool_};
};

struct composed_program {
  std::string name;                     // program name, e.g. "cupp_add"
  std::string source;
  std::vector<std::string> kernels;     // name expressions
};

// Elements per 16-byte access for a loop whose operands are stored in its own dtypes.
// Vectors per thread in the contiguous class. Ops with a ULP bound (the transcendentals) are
// bound by their math, not by memory: more independent vectors per thread hide its latency.
// Measured on the H200 (sin, 2^28 elements, % of the copy floor): float16 82 -> 96 with 3,
// bfloat16 81 -> 95 with 3, complex64 91 -> 99 with 2, float64 98 -> 99 with 2 (3 is worse
// there). `vec` is the kernel's vector width: 8 or more means 2-byte (or narrower) operands.
int contiguous_unroll(const op_spec& op, int vec);

int default_vec(const loop_spec& loop);
// The description of loop `loop` run by the all-loops program (contiguous, dense, default vec).
kernel_desc all_loops_desc(const op_spec& op, std::size_t loop, index_width width);
// A 64-bit code that identifies a description among an op's programs (the kernel cache's
// variant); the all-loops program of a width has its own code.
std::uint64_t variant_code(const kernel_desc& desc);
// Whether `desc` is the kernel all_loops_desc gives for its loop (so the op's all-loops program
// holds it); compares without building that description.
bool in_all_loops_program(const op_spec& op, const kernel_desc& desc);
std::uint64_t all_loops_variant(index_width width);

// The scalar program of an op with two or more inputs: every loop, once for each way of passing
// some (not all) of its inputs as values (kernel parameters), and once for each way of reading
// them as one broadcast element (0-d arrays), the other inputs and the outputs contiguous in the
// loop's dtypes: what `a * 2.0`, `where(m, a, 0.0)`, `clip(a, lo, hi)` and `a - a.mean()` launch.
// It is built into the library ahead of time (routines/builtin_programs.hpp), and the launcher
// takes a kernel from it only where it is built in: a run-time compile keeps one kernel per
// description. Kernel `(2 * loop + b) * (2^nin - 2) + (mask - 1)` passes the inputs of `mask`'s
// set bits as values (b = 0) or broadcast elements (b = 1).
std::vector<kernel_desc> scalar_descs(const op_spec& op, index_width width);
// The index of `desc`'s kernel in the scalar program, or nullopt when it holds none like it.
std::optional<std::size_t> scalar_program_index(const op_spec& op, const kernel_desc& desc);
std::uint64_t scalar_variant(index_width width);
composed_program compose_scalar_program(const op_spec& op, index_width width);

// The cast program of the copy op (one input, one output, loop i copies dtype i): for each loop
// S and each builtin dtype T, kernel S * n + T copies contiguous S elements into contiguous T
// elements (astype, copyto between dtypes) and, where T is S, fills with a value (full, zeros,
// fill). Built in and used only where built in, as the scalar program is.
std::vector<kernel_desc> cast_descs(const op_spec& copy_op, index_width width);
std::optional<std::size_t> cast_program_index(const op_spec& copy_op, const kernel_desc& desc);
std::uint64_t cast_variant(index_width width);
composed_program compose_cast_program(const op_spec& copy_op, index_width width);

// The 2-D broadcast program of the arithmetic ops (add, subtract, multiply, divide, maximum,
// minimum): each float32 and float64 loop over a C-ordered matrix and a row broadcast against it
// (`x - x.mean(axis=0)`: the strided class, vectors along rows) or a column broadcast against it
// (`e / e.sum(axis=1, keepdims=True)`: the tiled class), either side. Kernel 4 * j + f: the j-th
// such loop in form f = row on the right, row on the left, column on the right, column on the
// left. Built in and used only where built in, as the scalar program is.
bool has_broadcast2d_program(const op_spec& op);
std::vector<kernel_desc> broadcast2d_descs(const op_spec& op, index_width width);
std::optional<std::size_t> broadcast2d_program_index(const op_spec& op, const kernel_desc& desc);
std::uint64_t broadcast2d_variant(index_width width);
composed_program compose_broadcast2d_program(const op_spec& op, index_width width);

// The device functor of loop `i` of `op`: struct loop_<i> { using in0_t = ...; __device__ static
// void apply(in0_t in0, ..., out0_t& out0) { body } } (every composed program wraps loops so).
std::string loop_functor(const op_spec& op, std::size_t i);

// A reduction's kernels (cupp/dev/reduction.cuh): loop `loop` of a binary op combines
// accumulators (its dtypes are acc, acc -> acc); elements are read as `in`, results written as
// `out`; `kept` and `reduced` count the collapsed dimensions (1 .. 8 each).
enum class reduce_class : std::uint8_t { rows, columns };
// What an element contributes (cupp/dev/reduction.cuh's maps): itself (cast to the accumulator),
// whether it is nonzero (count_nonzero), NaN replaced by 0 or 1 (nansum, nanprod), whether it is
// not NaN (the nan-functions' counts), |x - mean|^2 with the mean (of dtype map_type) read per
// result from the launch's aux pointer (var/std; the _nan form skips NaN for nanvar/nanstd).
enum class reduce_map : std::uint8_t {
  cast, nonzero, nan_to_zero, nan_to_one, not_nan, squared_deviation, squared_deviation_nan
};
struct reduce_desc {
  std::size_t loop = 0;
  type_id acc = type_id::float64, in = type_id::float64, out = type_id::float64;
  reduce_class layout = reduce_class::rows;
  bool packed = false;  // columns: a thread reduces the outputs of one 16-byte load
  int kept = 1, reduced = 1;
  reduce_map map = reduce_map::cast;
  type_id map_type = type_id::float64;  // squared deviations: the mean's dtype
  // where= / initial= (cupp/dev/reduction_where.cuh): kernels 0 and 1 take a start value (initial=
  // or the identity) and, when `mask`, a boolean mask beside each element; never packed.
  bool selective = false;
  bool mask = false;
};
// The program of a reduction: kernel 0 writes results, kernel 1 writes partial accumulators
// (one per chunk of reduced elements), kernel 2 combines partials into results (columns: kernel 3
// combines their chunk-major partials).
composed_program compose_reduction(const op_spec& op, const reduce_desc& desc);
// The kernel cache's variant for a reduction program (under the name "reduce:<op>").
std::uint64_t reduce_variant(const reduce_desc& desc);

// ufunc.reduceat (cupp/dev/reduction_where.cuh's cupp_reduceat): loop `loop` of a binary op
// combines accumulators `acc` over segments of elements `in` along one axis, results written as
// `out`; `kept` counts the collapsed other dimensions (1 .. 8). One kernel.
struct reduceat_desc {
  std::size_t loop = 0;
  type_id acc = type_id::float64, in = type_id::float64, out = type_id::float64;
  int kept = 1;
};
composed_program compose_reduceat(const op_spec& op, const reduceat_desc& desc);
std::uint64_t reduceat_variant(const reduceat_desc& desc);

// argmax / argmin (max = false) and their nan-forms (skip_nan) on elements of dtype `in`:
// kernel 0 writes int64 indices, kernel 1 partial (value, index) pairs of 32 bytes per chunk,
// kernel 2 combines the partials into indices.
struct arg_reduce_desc {
  type_id in = type_id::float64;
  bool max = true, skip_nan = false;
  reduce_class layout = reduce_class::rows;
  int kept = 1, reduced = 1;
};
composed_program compose_arg_reduction(const arg_reduce_desc& desc);
std::uint64_t arg_reduce_variant(const arg_reduce_desc& desc);

// var/std (root) and nanvar/nanstd (skip_nan) of a real dtype `in` in one read
// (cupp/dev/moments.cuh): kernel 0 writes a (count, mean, M2) triple per output and chunk in the
// given layout; kernels 1 (a thread per output) and 2 (a block per output, for many chunks) merge
// each output's triples and write the result as `out`.
struct moments_desc {
  type_id in = type_id::float64, out = type_id::float64;
  bool skip_nan = false, root = false;
  reduce_class layout = reduce_class::rows;
  int kept = 1, reduced = 1;
};
composed_program compose_moments(const moments_desc& desc);
std::uint64_t moments_variant(const moments_desc& desc);

// ReductionKernel: a user's map, reduce and post-map expressions composed on the reduction
// kernels above. `aliases` declares the placeholders (`using T = float;`); elements (of the
// description's `in` dtype) are cast to the input parameter's dtype and named `in_name` in
// map_expr; reduce_expr combines accumulators `a` and `b`; post_map_expr assigns the output
// parameter `out_name` from the final accumulator `a` (empty: `out_name = a`); identity (may be
// empty) is the value of an empty reduction. Kernels: 0 final, 1 partial, 2 the combination of
// partials of the description's class, 3 (when there is an identity) cupp_reduce_identity.
struct user_reduction {
  std::string name;  // an identifier unique to the kernel and its dtypes
  std::string aliases;
  std::string in_name, out_name;
  type_id in_param = type_id::float64;
  std::string map_expr, reduce_expr, post_map_expr, identity;
};
composed_program compose_user_reduction(const user_reduction& r, const reduce_desc& desc);

// ElementwiseKernel's general path (a body that uses CuPy's index `i`, raw parameters, or more
// operands than the templates take): one plain kernel looping over the output's elements in C
// order, i being that index, with `ndim` dimensions (64-bit offsets). Array operands are read and
// written with byte strides (broadcast ones have 0 strides) and cast between their stored dtype
// and the parameter's; scalars are kernel parameters of the parameter's dtype; raw operands are
// C-contiguous arrays of the parameter's dtype, indexed by the body.
enum class user_operand : std::uint8_t { array, value, raw };
struct user_elementwise_param {
  std::string name;
  type_id param = type_id::float64;    // the parameter's dtype (placeholders bound)
  type_id storage = type_id::float64;  // the array's dtype (value, raw: the parameter's)
  user_operand kind = user_operand::array;
  bool output = false;
};
struct user_elementwise_desc {
  std::string kernel_name;  // an identifier unique to the kernel, dtypes and layout
  std::string aliases;
  std::string operation;
  std::vector<user_elementwise_param> params;  // inputs, then outputs
  int ndim = 1;
};
composed_program compose_user_elementwise(const user_elementwise_desc& desc);

// Every loop of `op`, contiguous class, one kernel per loop in loop order.
composed_program compose_elementwise(const op_spec& op, index_width width);
// One kernel as `desc` describes.
composed_program compose_elementwise(const op_spec& op, const kernel_desc& desc);
// One program with a kernel per description, in order (CI compiles every layout class so).
composed_program compose_elementwise(const op_spec& op, std::span<const kernel_desc> descs);

}  // namespace cupp::detail
