// The element-wise engine's layout planning (see layout_plan.hpp).
#include "engine/layout_plan.hpp"

#include <algorithm>
#include <cstdlib>

namespace cupp::engine {

namespace {

// Whether axis `a` belongs outside axis `b` (a more outer, i.e. larger strides) by the first
// operand with nonzero strides on both; nullopt-like 0 when no operand decides.
int compare_axes(int a, int b, std::span<const plan_input> operands) {
  for (const plan_input& op : operands) {
    const std::int64_t sa = std::llabs(op.strides[static_cast<std::size_t>(a)]);
    const std::int64_t sb = std::llabs(op.strides[static_cast<std::size_t>(b)]);
    if (sa == 0 || sb == 0) continue;
    if (sa > sb) return 1;   // a is outer
    if (sa < sb) return -1;  // a is inner
  }
  return 0;
}

}  // namespace

std::vector<int> k_order(std::span<const std::int64_t> shape, std::span<const plan_input> operands) {
  const int nd = static_cast<int>(shape.size());
  std::vector<int> order;
  order.reserve(shape.size());
  // Stable insertion sort from C order: an axis moves outward past axes the operands put
  // inside it.
  for (int ax = 0; ax < nd; ++ax) {
    std::size_t j = order.size();
    while (j > 0 && compare_axes(ax, order[j - 1], operands) > 0) --j;
    order.insert(order.begin() + static_cast<std::ptrdiff_t>(j), ax);
  }
  return order;
}

shape_t strides_in_order(std::span<const std::int64_t> shape, std::span<const int> order, std::int64_t itemsize) {
  shape_t strides(shape.size(), 0);
  std::int64_t step = itemsize;
  for (std::size_t k = order.size(); k-- > 0;) {
    const auto ax = static_cast<std::size_t>(order[k]);
    strides[ax] = step;
    step *= std::max<std::int64_t>(shape[ax], 1);
  }
  return strides;
}

launch_plan plan_launch(std::span<const std::int64_t> shape, std::span<const plan_input> operands) {
  launch_plan plan;
  const std::size_t nops = operands.size();
  plan.operands.resize(nops);
  std::int64_t size = 1;
  for (std::int64_t d : shape) size *= d;
  plan.size = size;
  if (size == 0) return plan;

  // Axes of length > 1, with each operand's strides; flip axes every operand walks backwards.
  std::vector<int> axes;
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] != 1) axes.push_back(static_cast<int>(d));
  std::vector<shape_t> strides(nops, shape_t(shape.size()));
  for (std::size_t k = 0; k < nops; ++k)
    std::copy(operands[k].strides.begin(), operands[k].strides.end(), strides[k].begin());
  for (int ax : axes) {
    const auto a = static_cast<std::size_t>(ax);
    bool any_negative = false, all_nonpositive = true;
    for (std::size_t k = 0; k < nops; ++k) {
      any_negative |= strides[k][a] < 0;
      all_nonpositive &= strides[k][a] <= 0;
    }
    if (!any_negative || !all_nonpositive) continue;
    for (std::size_t k = 0; k < nops; ++k) {
      plan.operands[k].byte_shift += strides[k][a] * (shape[a] - 1);
      strides[k][a] = -strides[k][a];
    }
  }

  // Innermost last (order K over the remaining axes), then collapse neighbours.
  std::vector<plan_input> views(nops);
  for (std::size_t k = 0; k < nops; ++k) views[k] = {strides[k], operands[k].itemsize};
  std::vector<int> order = k_order(shape, views);
  std::erase_if(order, [&](int ax) { return shape[static_cast<std::size_t>(ax)] == 1; });

  std::vector<std::int64_t> extents;
  std::vector<shape_t> planned(nops);
  for (int ax : order) {
    const auto a = static_cast<std::size_t>(ax);
    bool merge = !extents.empty();
    for (std::size_t k = 0; merge && k < nops; ++k)
      merge = planned[k].back() == strides[k][a] * shape[a];
    if (merge) {
      // The previous (outer) dimension and this one become one dimension with this stride.
      extents.back() *= shape[a];
      for (std::size_t k = 0; k < nops; ++k) planned[k].back() = strides[k][a];
    } else {
      extents.push_back(shape[a]);
      for (std::size_t k = 0; k < nops; ++k) planned[k].push_back(strides[k][a]);
    }
  }
  plan.extents = extents;

  // Classify each operand: broadcast (all strides 0), dense (C order over the plan), strided.
  const std::size_t nd = extents.size();
  for (std::size_t k = 0; k < nops; ++k) {
    operand_plan& op = plan.operands[k];
    op.strides = planned[k];
    const bool all_zero = std::all_of(op.strides.begin(), op.strides.end(), [](std::int64_t s) { return s == 0; });
    bool dense = true;
    std::int64_t step = operands[k].itemsize;
    for (std::size_t d = nd; d-- > 0;) {
      dense &= op.strides[d] == step;
      step *= extents[d];
    }
    op.kind = nd == 0 ? access::dense : all_zero ? access::broadcast : dense ? access::dense : access::strided;
    std::int64_t reach = 0;
    for (std::size_t d = 0; d < nd; ++d) reach += std::llabs(op.strides[d]) * (extents[d] - 1);
    plan.max_byte_offset = std::max(plan.max_byte_offset, reach + operands[k].itemsize);
  }
  plan.contiguous = nd <= 1 && std::none_of(plan.operands.begin(), plan.operands.end(),
                                            [](const operand_plan& op) { return op.kind == access::strided; });
  return plan;
}

}  // namespace cupp::engine
