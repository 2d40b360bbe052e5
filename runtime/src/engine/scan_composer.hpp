// Internal: the source of a scan program (cupp/dev/scan.cuh): loop `loop` of a binary op combines
// accumulators (its dtypes are acc, acc -> acc; the result's dtype is acc), elements are read as
// `in`, and a map says what each contributes. Built on kernel_composer.hpp's composed_program.
#pragma once

#include <cstdint>

#include "engine/kernel_composer.hpp"

namespace cupp::detail {

enum class scan_class : std::uint8_t { lines, rows };
enum class scan_map : std::uint8_t { cast, nan_to_zero, nan_to_one };

struct scan_desc {
  std::size_t loop = 0;
  type_id acc = type_id::float64, in = type_id::float64;
  scan_class layout = scan_class::lines;
  int kept = 1;  // collapsed kept dimensions (1 .. 8)
  scan_map map = scan_map::cast;
};

// lines: one kernel (cupp_scan_lines). rows: two kernels, cupp_scan_rows (the scan of each
// chunk) and cupp_scan_totals (the totals of the chunks before the last of each line).
composed_program compose_scan(const op_spec& op, const scan_desc& desc);
// The kernel cache's variant of a scan program (under the name "scan:<op>").
std::uint64_t scan_variant(const scan_desc& desc);

}  // namespace cupp::detail
