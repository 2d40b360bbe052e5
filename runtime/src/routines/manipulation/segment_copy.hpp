// Internal: the segment copy, one NVRTC kernel that copies a table of byte segments in one launch
// (a segment is a flat block, or `rows` rows of equal width at a source and a destination pitch).
// concatenate, roll, delete_ and insert (manipulation.cpp) hand it every same-dtype, byte-copyable
// piece of a call through a `batch`, where they used to issue one cudaMemcpyAsync or
// cudaMemcpy2DAsync per piece. Each segment is copied in the widest word (16, 8, 4, 2 or 1 bytes)
// its addresses, row width and pitches allow. The planning is host-only (unit-tested without a
// GPU), and so is the kernel's source (compiled by the unit tests with NVRTC for sm_90).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::detail::segment_copy {

// Row r (0 <= r < rows) of `row_bytes` bytes goes from src + r * src_pitch to dst + r * dst_pitch.
struct segment {
  const void* src = nullptr;
  void* dst = nullptr;
  std::int64_t rows = 1;
  std::int64_t row_bytes = 0;
  std::int64_t src_pitch = 0;
  std::int64_t dst_pitch = 0;
};

inline constexpr int capacity = 32;                // segments per launch (the parameter table)
inline constexpr int block_threads = 256;          // threads per block
inline constexpr int words_per_thread = 4;         // words a thread moves per tile (loads first)
inline constexpr std::int64_t tile_words = std::int64_t(block_threads) * words_per_thread;

// The kernel's parameter, field for field the device's cupp_seg_table (8-byte fields only, so
// host and device agree on the layout): the segments and the prefix of their tile counts.
struct table_entry {
  const void* src;
  void* dst;
  long long rows, row_bytes, src_pitch, dst_pitch;
  long long shift;  // log2 of the word size
};
struct table {
  long long count = 0;                      // segments in use
  long long first_tile[capacity + 1] = {};  // segment i owns tiles [first_tile[i], first_tile[i + 1])
  table_entry seg[capacity] = {};
};
static_assert(sizeof(table_entry) == 56 && offsetof(table_entry, shift) == 48);
static_assert(sizeof(table) == 8 + 8 * (capacity + 1) + 56 * capacity);
static_assert(sizeof(table) <= 2560, "kernel parameters stay well under the 4 KB classic limit");

// The segment as one row when it has one row, or when its rows are adjacent on both sides.
segment normalized(const segment& s);
// log2 of the widest word (16, 8, 4, 2 or 1 bytes) dividing both addresses, the row width and,
// for more than one row, both pitches.
int word_shift(const segment& s);
// The words of `s` (normalized) in its widest word, and the tiles that cover them.
std::int64_t word_count(const segment& s);
std::int64_t tile_count(const segment& s);
// The launches for `segments`, in order: tables of at most `capacity` segments each, normalized,
// empty segments left out.
std::vector<table> plan(std::span<const segment> segments);

// dst <- src (same shape) as a segment, when it is a byte copy: one dtype (a built-in one), one
// device, src C-contiguous, no overlap, and dst contiguous or rows of one pitch. nullopt else
// (also for an empty pair).
std::optional<segment> byte_segment(const ndarray& dst, const ndarray& src);

// The NVRTC program (<cupp/dev/routines/segment_copy.cuh>): one extern "C" kernel,
// cupp_copy_segments(const cupp_seg_table).
routine_program kernel_program();

// Launches the copy of `t` on the current stream of `device` (made current for the call).
void launch(const table& t, int device);

// The pieces of one call: copy() queues byte copies and runs the others at once through the
// engine's copy kernel; flush() launches the queue (one launch per `capacity` segments). Pieces
// must not overlap one another's destinations, and sources must not be written by the call, since
// the queue runs after the pieces copied at once. Without flush() the queue is dropped (after an
// exception). The arrays are held until the flush.
class batch {
 public:
  void copy(const ndarray& dst, const ndarray& src);
  void flush();

 private:
  int device_ = -1;
  std::vector<segment> pending_;
  std::vector<ndarray> held_;
};

}  // namespace cupp::detail::segment_copy
