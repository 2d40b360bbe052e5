// Internal to the fft module: the transform engine under the numpy.fft routines. It plans each
// transform over the arrays' own strides (cuFFT's advanced layout, 64-bit): the transformed axes
// become the plan's dimensions (up to 3 nested ones per plan), the largest other dimension its
// batch, and any further dimensions a loop of executions over shifted pointers, so a transform
// along axis 0 or over a strided view copies nothing. Copies are made only to convert the dtype,
// to zero-pad, for a layout cuFFT cannot take (non-positive strides, misaligned data), and for a
// complex-to-real input (cuFFT overwrites it).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"
#include "plan_cache.hpp"

namespace cupp::fft::detail {

// The dtypes of a transform of `input` as NumPy 2 picks them: the complex dtype it computes in
// (result_type(input, 1j)), its real counterpart, and NumPy's real_dtype
// (result_type(input.real, 1.0)), in which the norm factor is rounded and irfft's result is given.
struct transform_dtypes {
  dtype complex_type;
  dtype real_type;
  dtype factor_type;
};
transform_dtypes dtypes_of(dtype input);

enum class norm_kind { backward, ortho, forward };

// NumPy's norm factor of an n-point transform as a forward transform sees it (backward: 1,
// ortho: 1/sqrt(n), forward: 1/n), rounded as NumPy rounds it in `factor_type`.
double norm_factor(norm_kind kind, std::int64_t n, dtype factor_type);

// Whether cuFFT can read or write `x` in place: positive strides that are whole elements on every
// axis longer than 1, data aligned to `alignment` bytes.
bool usable_layout(const ndarray& x, std::size_t alignment);

// The groups (outer to inner, each at most 3 axes) in which a complex transform over `axes` runs
// for the layouts of `in` and `out` (nd: several axes per plan; false: one axis per group).
std::vector<std::vector<int>> plan_groups(const ndarray& in, const ndarray& out, std::vector<int> axes, bool nd);

// How the engine folds the norm factor and tiles strided columns (process-wide; for tests and the
// layout study): norm_callback -1 decides by the layout (cupp's store callback for batched
// unit-stride plans of at least norm_callback_min_elements points, where a scaling pass costs
// about a second transform; the pass for one long transform and for strided ones (axis 0), which
// cuFFT's callback kernels make about 3x slower, and for small ones, whose pass is a launch and
// whose callback plan would cost an nvJitLink link of 0.3 to 1 s at planning), 1 always uses the
// callback where it can (no user callbacks), 0 never; column_tile_bytes: a transform along a strided axis whose
// batch is adjacent columns (idist 1) runs as executions over tiles of about this many bytes (0,
// the default: one execution; 8 MiB tiles measured 0.248 ms on axis 0 of 4096^2 complex64 on the
// H200 against 0.140 ms for the one strided execution), so cuFFT's passes over a tile stay in
// L2; column_tile_min: the fewest columns a tile has (32: 256-byte row segments in complex64;
// tests set 1 to tile small arrays).
struct engine_options {
  int norm_callback = -1;
  std::int64_t norm_callback_min_elements = 1 << 20;
  std::int64_t column_tile_bytes = 0;
  std::int64_t column_tile_min = 32;
  // plan_key::scale_form: 0 store callback, factor in memory; 1 (default) store callback, factor a
  // literal; 2 load callback, literal. On 4096 x 4096 complex64 rows (H200, fft/bench/layouts.cu):
  // 1.42x, 1.26x and 2.89x the plain transform; a store callback that only stores costs 1.28x.
  int norm_callback_form = 1;
  // cupp's column kernel (fft/device/cupp/fft/columns.cuh: one pass over memory where cuFFT's
  // strided plan makes two) for complex transforms of power-of-two n in [column_kernel_min_n, 4096]
  // along a strided axis whose batch is adjacent columns (idist = odist = 1, istride and ostride
  // > 1), no user callbacks, at least column_kernel_min_blocks blocks of W columns in all; the norm
  // factor is applied in its stores. column_kernel: 1 (the default) where it measured faster on the
  // H200 (session 19): complex128 (4096^2: 0.266 against cuFFT's 0.315 ms), and complex64 with a
  // norm factor (4096^2: 0.144 ms, where cuFFT's strided plan took 0.143 ms and the pass adds
  // about 0.07); complex64 without one stays with cuFFT (a tie at 4096^2, 1.08x to 1.16x slower at
  // 1024 and 2048 points); 2 wherever it applies; 3 its pair form wherever it applies (n from 64:
  // a cluster of two blocks per pair_width columns, twice as wide row segments; not measured in
  // cupp yet); 4 the axis four-step transform below wherever it applies; 0 never
  // (CUPP_FFT_COLUMN_KERNEL=0 to 4 in the environment sets the start).
  // column_kernel_width: W (columns a block; 0: column_width's or pair_width's choice). Column
  // tiles, when set, come first.
  int column_kernel = 1;
  std::int64_t column_kernel_min_n = 1024;
  std::int64_t column_kernel_min_blocks = 128;
  int column_kernel_width = 0;
  // The norm factor of batched contiguous complex rows (the callback's conditions above) of
  // power-of-two n from 256 to 4096 in cupp's row kernel (columns.cuh with Rows: one pass, the
  // factor in its stores) instead of cuFFT's store callback: 1 under norm_callback -1, 0 never
  // (the default; CUPP_FFT_ROW_KERNEL=1 starts with 1). On the H200 (session 19, before the
  // per-pass twiddle tables) it took 1.71x the plain transform on 4096 x 4096 complex64, the
  // literal-factor callback 1.28x. 2: its pipelined form (plan_key::engine 4,
  // cupp_fft_rows_pipelined: a grid of the blocks that fit at once, each looping over groups of rows
  // with the next group's loads in flight by cp.async while it transforms the current one; not
  // measured yet; CUPP_FFT_ROW_KERNEL=2).
  int norm_row_kernel = 0;
  // The four-step long transform (plan_key::engine 5, four_step.cuh: two passes over memory, the
  // norm factor in the second's stores) for contiguous complex rows of power-of-two n from
  // long_kernel_min_n to 2^24, no user callbacks: 1 where a norm factor would otherwise cost a
  // scaling pass after cuFFT's plan (one long transform: on the H100 2^24 complex64 with "ortho"
  // took 1.31x the plain transform that way), 2 wherever it applies, 0 never (the default until
  // the GPU has measured it; CUPP_FFT_LONG_KERNEL=0 to 2 in the environment sets the start).
  int long_kernel = 0;
  std::int64_t long_kernel_min_n = std::int64_t{1} << 20;
  // column_kernel 4: the axis four-step transform (plan_key::engine 6, four_step.cuh) for
  // power-of-two n from 1024 to 4096 along a strided axis of adjacent columns: two passes through
  // a scratch, slab by slab, so that the second reads it back from L2. axis_slab_bytes: a slab's
  // scratch (CUPP_FFT_AXIS_SLAB_KIB sets it at the start, default 8 MiB: two or three slabs in
  // flight fit the H100's 50 MiB L2); axis_blocks_per_sm: the grid's blocks an SM (0: as many as
  // fit; CUPP_FFT_AXIS_BLOCKS_PER_SM). Not measured yet.
  std::int64_t axis_slab_bytes = std::int64_t{8} << 20;
  int axis_blocks_per_sm = 0;
};
engine_options get_engine_options() noexcept;
void set_engine_options(const engine_options& options) noexcept;

// The columns per tile describe() takes for a strided transform of n points whose batch is
// `batch` adjacent columns of `itemsize` bytes (0: no tiling): the largest power of two times
// `min_columns` whose tile fits in `tile_bytes` and divides the batch into at least two tiles
// (0 also when the whole batch fits in one tile).
std::int64_t column_tile(std::int64_t n, std::int64_t batch, std::int64_t itemsize, std::int64_t tile_bytes,
                         std::int64_t min_columns) noexcept;

// The columns a block of the column kernel holds for n points (itemsize 8 or 16), `forced` when it
// is a power of two the kernel can take (at least 2 columns, 1024 threads and 128 KiB of shared
// memory), else the default: whole 32-byte sectors a row at least, up to 128 bytes while the tile
// stays within 64 KiB (complex64: 4 columns for 4096 and 2048 points, 8 for 1024, 16 below;
// complex128: 2, 2, 4, 8). 0 when n is no power of two in [32, 4096].
int column_width(std::int64_t n, std::int64_t itemsize, int forced = 0) noexcept;

// The columns a cluster of the column kernel's pair form holds for n points (plan_key::engine 3):
// the widest power of two up to 128 bytes a row whose half-tile (n/2 rows) fits 128 KiB and 1024
// threads (complex64: 8 for 4096 points, 16 for 2048 and 1024; complex128: 4, 8, 8); `forced`
// when it fits; 0 when n is no power of two in [64, 4096].
int pair_width(std::int64_t n, std::int64_t itemsize, int forced = 0) noexcept;

// Whether the four-step long transform (engine 5) can run `key` (under opt.long_kernel's
// conditions, whatever that option says): rank 1 complex-to-complex, unit strides, contiguous
// batch rows, n a power of two in [opt.long_kernel_min_n, 2^24], no callback.
bool four_step_applies(const plan_key& key, const engine_options& opt) noexcept;

// The rows a block of the row kernel holds for n points: 4096 / n for power-of-two n in
// [256, 4096] (256 threads a block), else 0.
int row_width(std::int64_t n) noexcept;

// How a transform maps onto cuFFT (no device work, so host tests can check it): the plan's key and
// every execution's pointers (one per index of the loop dimensions), and whether the real side of
// an r2c/c2r has each pointer aligned to its complex type.
struct execution {
  plan_key key;
  std::vector<exec_pointers> runs;
  bool aligned = true;
};
execution describe(transform_kind kind, int direction, const ndarray& in, const ndarray& out, std::span<const int> axes);

// The key execute() plans for `e` with the factor `scale` (not 1: the caller's norm) under
// `opt`: with the factor in cupp's column kernel (engine 1), in the row kernel (engine 2), in
// cupp's store callback, or not at all (the caller's pass: key.scale stays 1). No device work.
plan_key scaled_key(const execution& e, double scale, const engine_options& opt, bool user_callbacks);

// One cuFFT execution set: `in` to `out` (the same array for in place) over `axes` (one group:
// outer to inner, nested strides; for r2c/c2r the last axis is the halved one). The plan comes
// from the cache; it runs on the current stream of out's device. False (nothing run) when a
// pointer of the real side of r2c/c2r would not be aligned to its complex type, as cuFFT needs.
// `scale` (not 1): the factor the caller applies to the result; when the layout takes it into
// cupp's store callback (engine_options), the transform applies it and *scaled is set true.
bool execute(transform_kind kind, int direction, const ndarray& in, const ndarray& out, std::span<const int> axes,
             double scale = 1.0, bool* scaled = nullptr);

// A new array of `type` shaped as `a` but with `sizes` along `axes`: a's leading part copied
// (cast; conjugated when `conjugate`), zeros beyond it.
ndarray resized_copy(const ndarray& a, std::span<const int> axes, std::span<const std::int64_t> sizes, dtype type,
                     bool conjugate = false);

// The complex transform over `axes` (normalized; repeats run again) with `sizes`, `direction`
// (-1 forward, +1 inverse), scaled by `scale` (1: no pass), into `out` when given. `owned`: `a` is
// a temporary of the caller's, which may be transformed in place.
ndarray c2c(const ndarray& a, std::vector<int> axes, std::vector<std::int64_t> sizes, int direction, double scale,
            const ndarray& out, bool owned);
// The real-to-complex transform of n points along `axis` (a real input; complex is TypeError).
ndarray r2c(const ndarray& a, int axis, std::int64_t n, double scale, const ndarray& out);
// The complex-to-real transform giving n points along `axis` (NumPy's irfft; conjugate: of
// conj(a), hfft's), in `result_type` (NumPy's real_dtype).
ndarray c2r(const ndarray& a, int axis, std::int64_t n, double scale, const ndarray& out, bool conjugate, bool owned);

// The output checks of NumPy's _raw_fft: out's shape must be the result's ("output array has
// wrong shape.").
void check_out_shape(const ndarray& out, std::span<const std::int64_t> shape);

}  // namespace cupp::fft::detail
