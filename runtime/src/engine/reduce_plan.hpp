// Internal: how a reduction is planned and run, shared by the files of the reduction engine
// (reduce_plan.cpp: collapsing the axes, choosing the layout class and the chunk split, the
// where=/initial= path; reduction.cpp: ufunc.reduce and the folds; reduce_arg.cpp; reduce_moments.cpp;
// reduction_kernel.cpp). The kernels are cupp/dev/reduction.cuh's and reduction_where.cuh's.
#pragma once

#include <cuda_runtime.h>

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

#include "cupp/ndarray.hpp"
#include "cupp/ops.hpp"
#include "cupp/reductions.hpp"
#include "engine/kernel_composer.hpp"

namespace cupp::engine::reduction {

using detail::reduce_class;
using detail::reduce_desc;

constexpr int max_dims = 8;           // collapsed kept or reduced dimensions a kernel takes
constexpr unsigned block_threads = 256;  // both classes' block size (cupp_reduce_rows's shared arrays)

// Collapsed dimensions: extents and byte strides, C order; at least one (extent 1).
struct dims {
  std::vector<std::int64_t> extent, stride;
  std::int64_t size() const {
    std::int64_t n = 1;
    for (std::int64_t e : extent) n *= e;
    return n;
  }
};

// The kernel parameter cupp::dev::reduce_dims<N>: N extents, then N strides.
struct dims_param {
  std::array<long long, 2 * max_dims> v{};
  explicit dims_param(const dims& d) {
    const std::size_t n = d.extent.size();
    for (std::size_t k = 0; k < n; ++k) {
      v[k] = d.extent[k];
      v[n + k] = d.stride[k];
    }
  }
};

struct kernels {
  const void* final_pass = nullptr;
  const void* partial_pass = nullptr;
  const void* combine_partials = nullptr;
};

// What each element contributes (reduce_map) and the per-result data some maps read.
struct mapping {
  detail::reduce_map map = detail::reduce_map::cast;
  type_id type = type_id::float64;  // squared deviations: the mean's dtype
  const void* aux = nullptr;        // squared deviations: the means, C order over the kept axes
};

struct split_plan {
  std::int64_t splits, chunk;
};

// What run() reduces with: the program of a description (a built-in op's loop and map, or a
// ReductionKernel's composed functors) and what an empty reduction writes.
class reducer {
 public:
  virtual kernels find(const reduce_desc& desc, int device) const = 0;
  virtual void fill_empty(const ndarray& out) const = 0;
  // What CUPP_NVTX_OPS names its launches: the op or kernel name.
  virtual std::string label() const = 0;

 protected:
  ~reducer() = default;
};

// Splits `a`'s axes into kept ones (one per result element; their extents are the result's
// shape) and reduced ones, with their byte strides.
void split_axes(const ndarray& a, const std::vector<bool>& reduced_axis, dims& kept, dims& reduced, shape_t& out_shape);
// Drops length-1 dimensions and merges neighbours that step through memory as one.
dims collapse(dims d);
// Which axes a reduction takes: sorted, each once; AxisError / ValueError as NumPy. zero_d_axis:
// a 0-d array takes axis 0 or -1 as no axis (ufunc.reduce, argmax).
std::vector<bool> reduced_axes(const axes& axis, std::int64_t ndim, bool zero_d_axis = false);
// The layout class of a reduction over the collapsed `kept` and `reduced` dimensions of elements of
// `in_item` bytes: columns when neighbouring results are neighbours in memory and the reduced
// elements are not, and for short reductions (a thread walks its few elements in order, as NumPy's
// loop does, so ill-conditioned sums and products of a few elements give NumPy's values).
reduce_class layout_class(const dims& kept, const dims& reduced, std::int64_t in_item);
// ValueError when the collapsed dimensions are more than a kernel takes (max_dims).
void require_kernel_dims(const dims& kept, const dims& reduced);
bool is_half(type_id t);
bool is_add_or_multiply(const op_spec& op);
bool is_inexact(const dtype& t);
// Launches a pass of cupp/dev/reduction.cuh's kernels (the kernel parameters' layout).
void launch(const void* kernel, dim3 grid, dim3 block, const char* in, void* out, std::int64_t out_size,
            std::int64_t red_size, std::int64_t chunk, const dims& kept, const dims& reduced, cudaStream_t stream,
            const void* aux = nullptr);
// The chunk split that gives whole waves of blocks (see reduce_plan.cpp).
split_plan plan_splits(bool columns, std::int64_t blocks_x, std::int64_t red_size, int device,
                       const void* kernel = nullptr);
// Reduces `a` over `reduced_axis` into a new C-contiguous array of `result` dtype with the kept
// axes' shape, accumulating in `acc` with the kernels `with` gives.
ndarray run(const reducer& with, const ndarray& a, const std::vector<bool>& reduced_axis, type_id acc, type_id result,
            const mapping& m = {});
// Keepdims' shape: the reduced axes kept with length 1.
shape_t kept_shape(const ndarray& a, const std::vector<bool>& reduced_axis);
// Writes `r` into out= (shape checked, same_kind cast) when one is given; returns the result.
ndarray to_out(const ndarray& r, const ndarray& out, std::string_view function);
// op.reduce with each element mapped by `m` first (count_nonzero, the nan-functions, var).
ndarray reduce_mapped(const op_spec& op, const ndarray& a, const reduce_options& options, const mapping& m);
// The number of elements each result reduces.
std::int64_t reduced_count(const ndarray& a, const axes& axis);
// NumPy's TypeError for a keyword the function does not take (all() has no initial=, ...).
void refuse(std::string_view function, std::string_view keyword);
void refuse_initial(std::string_view function, const reduce_options& o);
void refuse_where_initial(std::string_view function, const reduce_options& o);
// How many elements each result of a where= reduction selects (int64, keepdims as asked).
ndarray selected_count(const ndarray& a, const ndarray& where, const axes& axis, bool keepdims);
// The real dtype of the same precision (complex64 -> float32); others unchanged.
dtype real_of(const dtype& t);

}  // namespace cupp::engine::reduction
