// The segment copy (segment_copy.hpp): planning, the kernel's source, its launch and the batch.
//
// The kernel cuts every segment of its table into tiles of tile_words words (the segment's own
// word size) and runs a block per tile (the launch bounds ask for 4 blocks of 256 threads a
// multiprocessor, at most 64 registers); past 2^30 tiles the blocks loop,
// tile = blockIdx.x + k * gridDim.x. A block finds its tile's segment in the table's prefix of
// tile counts (its tiles only grow, so the search only moves forward), and each thread loads its
// words_per_thread words (block_threads apart) before storing them, so several loads are in
// flight per thread. A tile never spans two segments, so every word of every segment is copied
// exactly once, and nothing outside a segment's rows is read or written. Rows of a segment
// (rows > 1) map word j to row j / words_per_row: one division per thread and tile (32-bit while
// j fits), then steps of block_threads words without dividing. No cache hints: streaming
// (evict-first) stores would push out of L2 an output that the next kernel is about to read
// when the copy fits there, and for copies larger than L2 nothing shows they gain.
#include "routines/manipulation/segment_copy.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <string>

#include "compiler/launch.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/cuda/stream.hpp"
#include "engine/internal.hpp"

namespace cupp::detail::segment_copy {

namespace {

using std::int64_t;


const kernel_module& module_for(int device) {
  return routine_module(device, {"manipulation:segment_copy", 0}, [] { return kernel_program(); });
}

}  // namespace

segment normalized(const segment& s) {
  segment n = s;
  if (n.rows > 1 && n.src_pitch == n.row_bytes && n.dst_pitch == n.row_bytes) {
    n.row_bytes *= n.rows;
    n.rows = 1;
  }
  if (n.rows == 1) n.src_pitch = n.dst_pitch = n.row_bytes;
  return n;
}

int word_shift(const segment& s) {
  auto bits = reinterpret_cast<std::uintptr_t>(s.src) | reinterpret_cast<std::uintptr_t>(s.dst) |
              static_cast<std::uintptr_t>(s.row_bytes);
  if (s.rows > 1) bits |= static_cast<std::uintptr_t>(s.src_pitch) | static_cast<std::uintptr_t>(s.dst_pitch);
  return bits == 0 ? 4 : std::min(4, std::countr_zero(bits));
}

int64_t word_count(const segment& s) {
  const segment n = normalized(s);
  if (n.rows <= 0 || n.row_bytes <= 0) return 0;
  return n.rows * (n.row_bytes >> word_shift(n));
}

int64_t tile_count(const segment& s) { return (word_count(s) + tile_words - 1) / tile_words; }

std::vector<table> plan(std::span<const segment> segments) {
  std::vector<table> out;
  for (const segment& raw : segments) {
    const segment s = normalized(raw);
    const int64_t tiles = tile_count(s);
    if (tiles == 0) continue;
    if (out.empty() || out.back().count == capacity) out.emplace_back();
    table& t = out.back();
    const auto i = static_cast<std::size_t>(t.count);
    t.seg[i] = {s.src, s.dst, s.rows, s.row_bytes, s.src_pitch, s.dst_pitch, word_shift(s)};
    t.first_tile[i + 1] = t.first_tile[i] + tiles;
    ++t.count;
  }
  return out;
}

std::optional<segment> byte_segment(const ndarray& dst, const ndarray& src) {
  if (dst.size() == 0 || src.dtype() != dst.dtype() || src.device() != dst.device() || !src.dtype().is_builtin() ||
      !src.is_c_contiguous() || engine::overlaps(src, dst))
    return std::nullopt;
  const auto bytes = static_cast<int64_t>(src.nbytes());
  if (dst.is_c_contiguous()) return segment{src.data(), dst.data(), 1, bytes, bytes, bytes};
  // Rows: dst's leading axes (before the first one it does not span fully) collapse to one
  // pitch, the rest is contiguous.
  const int nd = dst.ndim();
  const auto item = static_cast<int64_t>(dst.itemsize());
  int split = nd;  // axes [split, nd) are contiguous in dst
  int64_t expect = item;
  while (split > 0 && (dst.shape(split - 1) == 1 || dst.stride(split - 1) == expect)) {
    expect *= dst.shape(split - 1);
    --split;
  }
  if (split == 0) return std::nullopt;
  int64_t height = 1;
  for (int d = 0; d < split; ++d) height *= dst.shape(d);
  const int64_t width = bytes / height;
  int64_t pitch = 0, inner = 1;  // inner: rows per step of axis d
  for (int d = split - 1; d >= 0; --d) {
    if (dst.shape(d) != 1) {
      if (pitch == 0) pitch = dst.stride(d);
      else if (dst.stride(d) != pitch * inner) return std::nullopt;
    }
    inner *= dst.shape(d);
  }
  if (pitch < width) return std::nullopt;  // also refuses negative strides
  return segment{src.data(), dst.data(), height, width, width, pitch};
}

routine_program kernel_program() {
  std::string source = "#define CUPP_SEG_CAP " + std::to_string(capacity) + "\n#define CUPP_SEG_THREADS " +
                       std::to_string(block_threads) + "\n#define CUPP_SEG_UNROLL " +
                       std::to_string(words_per_thread) + "\n#define CUPP_SEG_TILE " + std::to_string(tile_words) +
                       "LL\n#include <cupp/dev/routines/segment_copy.cuh>\n";
  return {"cupp_segment_copy", std::move(source), {"cupp_copy_segments"}};
}

void launch(const table& t, int device) {
  if (t.count <= 0) return;
  const device_scope scope(device);
  const kernel_module& m = module_for(device);
  const void* fn = m.function(0);
  const int64_t tiles = t.first_tile[t.count];
  // A block per tile (as a plain copy kernel runs): on the H200, a one-wave grid walking the tiles
  // copied 8 x 128 MiB at 89 % of the copy floor, below cudaMemcpyAsync's 95 %.
  const auto grid = static_cast<unsigned>(std::clamp<int64_t>(tiles, 1, int64_t(1) << 30));
  table param = t;
  void* args[] = {&param};
  const cupp::detail::launch_range range([&] { return "copy segments=" + std::to_string(t.count); });
  cuda::detail::check(cudaLaunchKernel(fn, dim3(grid), dim3(block_threads), args, 0,
                                       cuda::detail::current_stream_handle(device)),
                      "cudaLaunchKernel");
}

void batch::copy(const ndarray& dst, const ndarray& src) {
  if (dst.size() == 0) return;
  const std::optional<segment> s = byte_segment(dst, src);
  if (!s) {
    engine::copy_into(dst, src);
    return;
  }
  if (!pending_.empty() && dst.device() != device_) flush();
  device_ = dst.device();
  pending_.push_back(*s);
  held_.push_back(dst);
  held_.push_back(src);
}

void batch::flush() {
  if (!pending_.empty()) {
    for (const table& t : plan(pending_)) launch(t, device_);
  }
  pending_.clear();
  held_.clear();
}

}  // namespace cupp::detail::segment_copy
