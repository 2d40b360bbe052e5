// unravel_index, ravel_multi_index and ix_ (cupp/indexing.hpp): flat indices to coordinates and
// back, each one kernel of the move program that reports a bad entry.
#include <algorithm>
#include <limits>
#include <string>

#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/indexing/indexing_internal.hpp"

namespace cupp {

using namespace indexing_internal;

// ---------------------------------------------------------------------------------------------
// unravel_index, ravel_multi_index, ix_

std::vector<ndarray> unravel_index(const ndarray& indices, std::span<const std::int64_t> shape, order memory_order) {
  if (!indices.dtype().is_integer() && !indices.dtype().is_bool())
    throw TypeError("only int indices permitted");
  if (memory_order != order::C && memory_order != order::F) throw ValueError("only 'C' or 'F' order is permitted");
  for (auto d : shape)
    if (d < 0) throw ValueError("dimensions must be non-negative");
  const std::int64_t size = layout::checked_size(shape);
  const ndarray idx = flat_c(as_intp(indices, "unravel_index", true));
  const std::int64_t n = idx.size(), nd = static_cast<std::int64_t>(shape.size());
  ndarray out = empty({nd, n}, int64);
  if (n > 0 && nd > 0) {
    geom g;
    fill_geom(g, shape);
    const detail::kernel_module& m = program_for(8, idx.device());
    const void* ip = idx.data();
    long long nn = n, sz = size;
    int ord = memory_order == order::C ? 0 : 1;
    void* op = out.data();
    raising_call end = begin_raising(m, idx.device());
    void* args[] = {&ip, &nn, &sz, &g, &ord, &op, end.counter_arg(), end.word_arg()};
    detail::launch_1d(m.function(k_unravel), n, args, idx.device());
    if (const auto bad = read_state(m, idx.device(), end))
      throw ValueError("index " + std::to_string(bad->first) + " is out of bounds for array with size " +
                       std::to_string(size));
  } else if (n > 0) {
    // shape (): every index but 0 is out of bounds... NumPy: size 1, index 0 -> empty tuple.
  }
  std::vector<ndarray> result;
  for (std::int64_t d = 0; d < nd; ++d) result.push_back(out(d).reshape(indices.shape()));
  return result;
}

std::vector<ndarray> unravel_index(const ndarray& indices, std::initializer_list<std::int64_t> shape,
                                   order memory_order) {
  return unravel_index(indices, std::span<const std::int64_t>(shape.begin(), shape.size()), memory_order);
}

ndarray ravel_multi_index(std::span<const ndarray> multi_index, std::span<const std::int64_t> dims,
                          std::span<const clip_mode> modes, order memory_order) {
  const std::size_t nd = dims.size();
  if (multi_index.size() != nd)
    throw ValueError("parameter multi_index must be a sequence of length " + std::to_string(nd));
  if (!modes.empty() && modes.size() != 1 && modes.size() != nd)
    throw ValueError("mode must be a single mode or a sequence of length " + std::to_string(nd));
  if (memory_order != order::C && memory_order != order::F) throw ValueError("only 'C' or 'F' order is permitted");
  if (nd > geom_dims) throw ValueError("ravel_multi_index: more than 64 dimensions");
  geom g;
  fill_geom(g, dims);
  // Multipliers.
  __extension__ typedef __int128 int128;
  int128 s = 1;
  for (std::size_t j = 0; j < nd; ++j) {
    const std::size_t d = memory_order == order::C ? nd - 1 - j : j;
    if (dims[d] < 0) throw ValueError("dimensions must be non-negative");
    g.s0[d] = static_cast<long long>(s);
    s *= dims[d];
    if (s > static_cast<int128>(std::numeric_limits<std::int64_t>::max()))
      throw ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.");
  }
  for (std::size_t d = 0; d < nd; ++d) {
    const clip_mode m = modes.empty() ? clip_mode::raise : modes[modes.size() == 1 ? 0 : d];
    g.s1[d] = m == clip_mode::raise ? 3 : mode_int(m);
    if (m != clip_mode::raise && dims[d] == 0)
      throw ValueError("cannot unravel if shape has zero entries (is empty).");
  }
  std::vector<shape_t> shapes;
  for (const ndarray& c : multi_index) {
    if (!c.dtype().is_integer() && !c.dtype().is_bool())
      throw TypeError("Cannot cast array data from dtype('" + c.dtype().name() +
                      "') to dtype('int64') according to the rule 'safe'");
    shapes.emplace_back(c.shape().begin(), c.shape().end());
  }
  if (nd == 0) throw ValueError("parameter multi_index must be a sequence of length 0");
  const shape_t shape = broadcast_shapes(std::span<const shape_t>(shapes));
  std::vector<ndarray> views;
  for (const ndarray& c : multi_index) views.push_back(broadcast_to(as_intp(c, "ravel_multi_index", true), shape));
  const ndarray coords = stack(std::span<const ndarray>(views), {.axis = 0, .dtype = int64});
  ndarray out = empty(shape, int64);
  const std::int64_t n = out.size();
  if (n == 0) return out;
  const detail::kernel_module& m = program_for(8, out.device());
  const void* cp = coords.data();
  long long nn = n;
  void* op = out.data();
  const bool any_raise = std::any_of(&g.s1[0], &g.s1[nd], [](long long v) { return v == 3; });
  raising_call end = any_raise ? begin_raising(m, out.device()) : raising_call();
  void* args[] = {&cp, &nn, &g, &op, end.counter_arg(), end.word_arg()};
  detail::launch_1d(m.function(k_ravel), n, args, out.device());
  if (any_raise && read_state(m, out.device(), end)) throw ValueError("invalid entry in coordinates array");
  return out;
}

std::vector<ndarray> ix_(std::span<const ndarray> args) {
  std::vector<ndarray> out;
  const std::int64_t nd = static_cast<std::int64_t>(args.size());
  for (std::int64_t k = 0; k < nd; ++k) {
    ndarray a = args[k];
    if (a.ndim() != 1) throw ValueError("Cross index must be 1 dimensional");
    if (!a.dtype().is_integer() && !a.dtype().is_bool())
      throw ValueError("arrays used as indices must be of integer (or boolean) type");
    if (a.dtype().is_bool()) a = flatnonzero(a);
    shape_t shape(static_cast<std::size_t>(nd), 1);
    shape[k] = a.size();
    out.push_back(a.reshape(shape));
  }
  return out;
}

}  // namespace cupp
