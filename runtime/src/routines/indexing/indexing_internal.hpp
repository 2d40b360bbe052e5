// Internal: what the indexing routines' files share (runtime/src/routines/indexing/):
//   indexing.cpp          the move program (<cupp/dev/routines/indexing.cuh>), its error state,
//                         gather and scatter, the index checks, the routine table
//   take_put.cpp          take, take_along_axis, put, put_along_axis, fill_diagonal
//   compaction.cpp        flatnonzero, nonzero, argwhere, compress, extract, a[mask], putmask, place
//   choose_select.cpp     choose, select
//   ravel.cpp             unravel_index, ravel_multi_index, ix_
//   advanced_indexing.cpp getitem, setitem (the write target ufunc.at shares)
//   ufunc_at.cpp          ufunc.at (<cupp/dev/routines/ufunc_at.cuh>)
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "array/advanced_index.hpp"
#include "compiler/launch.hpp"
#include "compiler/report_word.hpp"
#include "cupp/indexing.hpp"

namespace cupp::indexing_internal {

constexpr int geom_dims = 64;

// Mirrors cupp_geom in the program: a shape and three byte-stride sets over it.
struct geom {
  int ndim = 0;
  int pad = 0;
  long long shape[geom_dims] = {};
  long long s0[geom_dims] = {};
  long long s1[geom_dims] = {};
  long long s2[geom_dims] = {};
};

// The move program's kernels, in the order of its name expressions.
enum kernel_id {
  k_gather, k_check, k_win, k_write, k_putmask, k_count, k_scan, k_mask_write, k_unravel, k_ravel, k_offsets,
  k_gather_flat
};

// ---- the move program (indexing.cpp)

// The program for word size w on `device`. Its report word is installed by the first
// call that may report (reporting_call); until then cupp_report finds the pointer null and
// skips the host word, so a launch that cannot report needs no install.
const detail::kernel_module& program_for(int w, int device);

// A call that may raise (compiler/report_word.hpp): its turn on the program's report channel and
// the end signal of its last launch; a default one (no check) passes nulls.
using raising_call = detail::reporting_call;
raising_call begin_raising(const detail::kernel_module& m, int device);

// Waits for the raising kernels, the last launched with `call`'s signal; when one reported a bad
// index (the report word is set), reads and clears the error state and returns {value, first pos}.
std::optional<std::pair<std::int64_t, std::int64_t>> read_state(const detail::kernel_module& m, int device,
                                                                 raising_call& call);

[[noreturn]] void throw_out_of_bounds(std::int64_t value, int axis, std::int64_t size);

int mode_int(clip_mode m);

// The word size that divides the element, every address and every stride.
int word_bytes(std::size_t itemsize, std::initializer_list<std::int64_t> values);
std::int64_t addr(const ndarray& a);

void require_kernel_dtype(const dtype& type, std::string_view routine);
void require_writeable(const ndarray& a, std::string_view routine);

// indices as int64 (a view when they already are). uint64_ok: NumPy 2 converts the indices with
// same_kind casting (take, take_along_axis, unravel_index, ravel_multi_index), so uint64 is
// accepted (values past int64's range wrap negative and fail the bounds check); put and choose
// keep the safe rule.
ndarray as_intp(const ndarray& idx, std::string_view routine, bool uint64_ok = false);

ndarray contiguous(const ndarray& a);
ndarray flat_c(const ndarray& a);
// The values of put/place/putmask: a flat contiguous array of `type` (unsafe cast).
ndarray flat_values(const operand& v, const dtype& type);

void fill_geom(geom& g, std::span<const std::int64_t> shape);

// The gather: out (C-contiguous, g's shape) from src. Checks the state in mode raise; returns
// the bad {value, position} when one was found.
std::optional<std::pair<std::int64_t, std::int64_t>> gather(const ndarray& out, const ndarray& src, const ndarray& idx,
                                                            geom& g, std::int64_t axis_len, std::int64_t axis_stride,
                                                            int md, std::optional<std::int64_t> offset_bits = std::nullopt);

// The scatter into a C-contiguous dst: check (mode raise), winners (unless unique), write.
std::optional<std::pair<std::int64_t, std::int64_t>> scatter(const ndarray& dst, const ndarray& idx, const ndarray& vals,
                                                             geom& g, std::int64_t total, std::int64_t axis_len,
                                                             std::int64_t axis_stride, clip_mode mode,
                                                             std::int64_t nv, bool unique,
                                                             std::optional<std::int64_t> offset_bits = std::nullopt);

// ---- take (take_put.cpp)

// message_axis: the axis an IndexError names (advanced indexing: the indexed array's axis, and
// an empty axis raises as any out of bounds index does).
ndarray take_impl(const ndarray& a0, const ndarray& indices, const take_options& options, const char* routine,
                  std::optional<int> message_axis = std::nullopt);

// ---- stream compaction (compaction.cpp)

enum class position_layout { flat, rows, columns };

// flatnonzero (flat: (count,)), nonzero (rows: (ndim, count)), argwhere (columns: (count, ndim)).
ndarray mask_positions(const ndarray& mask, position_layout layout_kind);

// a[mask] for a mask of a's shape: the elements where it is true, in C order (a 1-d copy).
ndarray mask_select(const ndarray& a0, const ndarray& mask);

// ---- advanced indexing (advanced_indexing.cpp), shared with ufunc.at

using detail::index_term;

// The items described for the planner, with the device arrays they index with.
struct prepared_items {
  std::vector<index_term> terms;
  std::vector<ndarray> arrays;  // per item: the int64 index array, or a mask's nonzero rows (k, count)
};

// The shared part of setitem and ufunc.at: the working array (a, or a C-order copy written back at
// the end), the basic view, and the checked offsets.
struct write_target {
  ndarray work, view, off;
  detail::index_plan plan;
  prepared_items items;
  std::int64_t bits = 0;
};

write_target prepare_write(const ndarray& a, std::span<const array_index_item> items, const char* routine);

// The result's dims: s0 = the basic view's strides on the dims it keeps, s1 = the offsets'
// strides on the broadcast dims.
void map_result_dims(const detail::index_plan& plan, const ndarray& v, const ndarray& off, geom& g);

// values broadcast to `shape` as NumPy's setitem does (extra leading length-1 dims dropped).
ndarray strip_leading_ones(ndarray v, std::size_t ndim);

}  // namespace cupp::indexing_internal
