// choose and select (cupp/indexing.hpp): choose is one gather from the stacked choices; select
// is copyto under each condition, the last first.
#include <algorithm>

#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/indexing/indexing_internal.hpp"

namespace cupp {

using namespace indexing_internal;

// ---------------------------------------------------------------------------------------------
// choose, select

ndarray choose(const ndarray& a, std::span<const ndarray> choices, const ndarray& out, clip_mode mode) {
  if (choices.empty()) throw ValueError("0-length sequence.");
  detail::require_index_dtype(a.dtype(), "choose");
  std::vector<dtype> types;
  std::vector<shape_t> shapes{shape_t(a.shape().begin(), a.shape().end())};
  for (const ndarray& c : choices) {
    require_kernel_dtype(c.dtype(), "choose");
    types.push_back(c.dtype());
    shapes.emplace_back(c.shape().begin(), c.shape().end());
  }
  const dtype type = result_type(std::span<const dtype>(types));
  const shape_t shape = broadcast_shapes(std::span<const shape_t>(shapes));
  if (!out.is_null()) {
    const auto os = out.shape();
    if (!std::equal(os.begin(), os.end(), shape.begin(), shape.end()))
      throw ValueError("choose: invalid shape for output array.");
    require_writeable(out, "choose");
  }
  // The choices broadcast and stacked: (n, *shape), C-contiguous.
  std::vector<ndarray> views;
  for (const ndarray& c : choices) views.push_back(broadcast_to(c, shape));
  const ndarray stacked = stack(std::span<const ndarray>(views), {.axis = 0, .dtype = type});
  const ndarray idx = broadcast_to(as_intp(a, "choose"), shape);
  ndarray result = empty(shape, type);
  geom g;
  fill_geom(g, shape);
  for (int d = 0; d < g.ndim; ++d) {
    g.s0[d] = stacked.stride(d + 1);
    g.s1[d] = idx.stride(d);
  }
  const std::int64_t n = static_cast<std::int64_t>(choices.size());
  if (gather(result, stacked, idx, g, n, stacked.stride(0), mode == clip_mode::raise ? 3 : mode_int(mode))) {
    throw ValueError("invalid entry in choice array");
  }
  if (!out.is_null()) {
    copyto(out, result, casting::same_kind);
    return out;
  }
  return result;
}

ndarray choose(const ndarray& a, std::initializer_list<ndarray> choices, const ndarray& out, clip_mode mode) {
  return choose(a, std::span<const ndarray>(choices.begin(), choices.size()), out, mode);
}

ndarray select(std::span<const ndarray> condlist, std::span<const ndarray> choicelist, const weak_scalar& default_value) {
  if (condlist.size() != choicelist.size())
    throw ValueError("list of cases must be same length as list of conditions");
  if (condlist.empty()) throw ValueError("select with an empty condition list is not possible");
  std::vector<dtype> types;
  std::vector<shape_t> shapes;
  for (const ndarray& c : choicelist) {
    types.push_back(c.dtype());
    shapes.emplace_back(c.shape().begin(), c.shape().end());
  }
  const weak_scalar dv[] = {default_value};
  const dtype type = result_type(std::span<const dtype>(types), std::span<const weak_scalar>(dv));
  for (std::size_t i = 0; i < condlist.size(); ++i) {
    if (!condlist[i].dtype().is_bool())
      throw TypeError("invalid entry " + std::to_string(i) + " in condlist: should be boolean ndarray");
    shapes.emplace_back(condlist[i].shape().begin(), condlist[i].shape().end());
  }
  const shape_t shape = broadcast_shapes(std::span<const shape_t>(shapes));
  ndarray result = full(shape, default_value, type);
  for (std::size_t i = condlist.size(); i-- > 0;)
    copyto(result, choicelist[i], casting::unsafe, broadcast_to(condlist[i], shape));
  return result;
}

}  // namespace cupp
