// Internal: the shape/stride/offset arithmetic behind ndarray views, as pure host functions (no
// CUDA, no memory): basic indexing, slices, contiguity flags, C strides, reshape without copy
// (NumPy's attempt-nocopy rule), broadcasting, axis permutations, dtype views, diagonals, and the
// shape spellings NumPy's messages use. Unit tests cover them without a GPU.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::layout {

// Where an array's elements are: shape, byte strides, byte offset from the memory's start.
struct strided {
  shape_t shape;
  shape_t strides;
  std::int64_t offset = 0;
};

// "(2, 3)", "(2,)", "()": Python's tuple repr (broadcast_shapes, reshape errors).
std::string tuple_string(std::span<const std::int64_t> shape);
// "(2,3)", "(2,)", "()": NumPy's C-level spelling ("operands could not be broadcast ...").
std::string compact_string(std::span<const std::int64_t> shape);

// Product of the dimensions; ValueError for a negative one, too many dimensions, or overflow.
std::int64_t checked_size(std::span<const std::int64_t> shape);
// ValueError when ndim > max_ndim.
void check_ndim(std::size_t ndim);

// NumPy's fill strides for C order: dimensions of length 0 do not scale the later strides.
shape_t c_strides(std::span<const std::int64_t> shape, std::int64_t itemsize);
bool is_c_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize);
bool is_f_contiguous(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize);

// Lowest and one-past-highest byte (relative to the offset) that the array touches; {0, 0} when
// empty.
struct byte_extent {
  std::int64_t low = 0, high = 0;
};
byte_extent extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, std::int64_t itemsize);

// The axis `axis` of an ndim-dimensional array, negative counting from the end; AxisError
// "axis 3 is out of bounds for array of dimension 2".
int normalize_axis(std::int64_t axis, int ndim);

// A slice resolved against an axis of `length`: Python's slice.indices() plus the count.
struct slice_range {
  std::int64_t start = 0, step = 1, count = 0;
};
slice_range resolve_slice(const slice& s, std::int64_t length);  // ValueError for step 0

// Basic indexing: integers, slices, newaxis, one ellipsis.
strided index(const strided& a, std::int64_t itemsize, std::span<const index_item> items);

// newshape with one -1 inferred; ValueError for a size mismatch or a bad dimension.
shape_t infer_shape(std::span<const std::int64_t> newshape, std::int64_t size, std::span<const std::int64_t> oldshape);
// Strides for viewing (shape, strides) as newshape in C order without a copy, or nullopt when a
// copy is needed (NumPy's _attempt_nocopy_reshape; C-contiguous inputs always succeed).
std::optional<shape_t> reshape_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                       std::span<const std::int64_t> newshape, std::int64_t itemsize);

// Broadcasting.
shape_t broadcast_shapes(std::span<const shape_t> shapes);  // "shape mismatch: ..." message
// As above, with a ufunc's message: "operands could not be broadcast together with shapes (2,3) (4,) ".
shape_t broadcast_operand_shapes(std::span<const shape_t> shapes);
// Strides of (shape, strides) broadcast to `target` (0 on new and stretched axes); ValueError
// with NumPy's broadcast_to message when it does not fit.
shape_t broadcast_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                          std::span<const std::int64_t> target);

// Axis permutations: the permutation itself (validated).
std::vector<int> transpose_axes(std::span<const int> axes, int ndim);  // ValueError/AxisError
std::vector<int> moveaxis_order(int source, int destination, int ndim);
strided permute(const strided& a, std::span<const int> order);
strided squeeze(const strided& a, std::span<const int> axes);  // none when empty (NumPy's axis=())
strided squeeze_all(const strided& a);
strided expand_dims(const strided& a, std::int64_t itemsize, int axis);
strided diagonal(const strided& a, std::int64_t offset, int axis1, int axis2);

// view(dtype): the layout with items of `new_itemsize` (NumPy's last-axis rules).
strided view_as(const strided& a, std::int64_t old_itemsize, std::int64_t new_itemsize);

// Calls f(byte_offset) for every element in C order (offsets relative to the array's offset).
template <class F>
void for_each_offset(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides, F&& f) {
  const std::size_t nd = shape.size();
  for (std::int64_t d : shape)
    if (d == 0) return;
  std::vector<std::int64_t> index(nd, 0);
  std::int64_t off = 0;
  for (;;) {
    f(off);
    std::size_t k = nd;
    for (;;) {
      if (k == 0) return;
      --k;
      if (++index[k] < shape[k]) {
        off += strides[k];
        break;
      }
      off -= strides[k] * (shape[k] - 1);
      index[k] = 0;
    }
  }
}

}  // namespace cupp::layout
