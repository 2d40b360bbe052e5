// Internal: NumPy's advanced-indexing rules as a pure host function (no device, no array data):
// which axes the index items consume, the basic view they leave, how the advanced indices
// broadcast, where their dimensions go in the result (in place when they are adjacent, else
// first) and NumPy's IndexError messages. routines/indexing.cpp runs the plan on the device;
// tests/unit/test_advanced_index_host.cpp checks the rules against NumPy's results.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cupp/ndarray.hpp"

namespace cupp::detail {

// What the planner needs to know of one index item.
struct index_term {
  enum kind_t { integer, range, new_axis, dots, int_array, bool_array, bool_scalar } kind = range;
  std::int64_t value = 0;  // integer: the index; bool_scalar: 0 or 1
  slice range_value{};     // range
  shape_t shape{};         // int_array / bool_array: the array's shape
  std::int64_t count = 0;  // bool_array: its number of true elements
};

// One advanced index as the device sees it: an index array broadcast to `broadcast`, read
// along view axis `view_axis` of the basic view (none for a bool scalar).
struct advanced_axis {
  int term = 0;         // the item it comes from
  int dim = 0;          // bool_array: which of the mask's dimensions (its nonzero row); else 0
  int view_axis = -1;   // axis of the basic view it indexes; -1 for a bool scalar
  int array_axis = -1;  // the axis of the indexed array (for messages)
  shape_t shape{};      // its own shape before broadcasting ((count,) for a mask row)
};

struct index_plan {
  bool advanced = false;          // false: `basic` alone gives the result (a view)
  std::vector<index_item> basic;  // the items of the basic view (advanced ones become slice())
  std::vector<advanced_axis> axes;
  shape_t broadcast;              // the advanced indices' broadcast shape
  bool first = false;             // the broadcast dims go first (advanced items not adjacent)
  int insert_at = 0;              // else: after this many of the view's remaining dims
  shape_t view_shape;             // the basic view's shape
  shape_t result_shape;
};

// Throws IndexError as NumPy: too many indices, a second ellipsis, an integer out of bounds, a
// mask whose shape does not match, index arrays that do not broadcast. check_only: stop before the
// broadcast (the masks' counts are not known yet): the checks that need no device work.
index_plan plan_index(std::span<const std::int64_t> shape, std::span<const index_term> terms, bool check_only = false);

}  // namespace cupp::detail
