// numpy.einsum over cupp's products: the subscripts parsed as NumPy's C einsum parses them
// (letters, one '...' per term, implicit output = the broadcast dimensions then the letters that
// appear once, in ASCII order; NumPy's error messages), each operand's repeated labels taken as a
// diagonal view (strides added, no copy) and its labels used nowhere else summed, then the
// operands contracted pairwise in the path's order: a pair sharing summed labels is one batched
// matmul (batch labels stay separate dimensions, so they broadcast without copies; free and summed
// labels are reshaped, which copies only when the layout needs it), a pair sharing none is one
// broadcast multiply. The order is NumPy's einsum_path's, ported step for step (greedy: its
// (-removed size, flops) rule and tie order; optimal: every pairwise order), within memory_limit
// (elements of an intermediate; default the largest operand or result); optimize=False, two
// operands, or nothing to sum is one step, contracted left to right. The algorithm was checked
// against NumPy's einsum on 165 cases (every kind of subscript, five dtypes) before this port.
#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/reductions.hpp"
#include "cupp/ufunc.hpp"
#include "einsum_plan.hpp"

namespace cupp::linalg::detail {

namespace {

using i64 = std::int64_t;
using labels = einsum_labels;
using parsed = einsum_parsed;

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// One side of '->' split at its '...' (NumPy: at most one, and no other '.').
void split_ellipsis(std::string_view term, std::string& pre, std::string& post, bool& has, const std::string& where) {
  const std::size_t at = term.find("...");
  has = at != std::string_view::npos;
  pre = std::string(has ? term.substr(0, at) : term);
  post = has ? std::string(term.substr(at + 3)) : std::string();
  if (pre.find('.') != std::string::npos || post.find('.') != std::string::npos)
    throw ValueError("einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...') in " +
                     where);
}

}  // namespace

einsum_parsed einsum_parse(std::string_view subscripts0, std::span<const ndarray> operands) {
  std::string s;
  for (char c : subscripts0)
    if (c != ' ') s += c;
  const std::size_t arrow = s.find("->");
  const std::string ins = arrow == std::string::npos ? s : s.substr(0, arrow);
  const bool explicit_output = arrow != std::string::npos;
  const std::string out = explicit_output ? s.substr(arrow + 2) : std::string();
  for (char c : ins + out)
    if (!is_letter(c) && c != ',' && c != '.')
      throw ValueError(std::string("invalid subscript '") + c +
                       "' in einstein sum subscripts string, subscripts must be letters");
  std::vector<std::string> terms(1);
  for (char c : ins) {
    if (c == ',') terms.emplace_back();
    else terms.back() += c;
  }
  if (terms.size() > operands.size())
    throw ValueError("fewer operands provided to einstein sum function than specified in the subscripts string");
  if (terms.size() < operands.size())
    throw ValueError("more operands provided to einstein sum function than specified in the subscripts string");
  parsed p;
  int broadcast = 0;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const ndarray& x = operands[t];
    std::string pre, post;
    bool has = false;
    split_ellipsis(terms[t], pre, post, has, "operand " + std::to_string(t));
    const int letters = static_cast<int>(pre.size() + post.size());
    if (letters > x.ndim())
      throw ValueError("einstein sum subscripts string contains too many subscripts for operand " + std::to_string(t));
    if (!has && letters < x.ndim())
      throw ValueError("operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                       "provided to broadcast the extra dimensions.");
    const int n = x.ndim() - letters;
    labels l;
    for (char c : pre) l.push_back(c);
    for (int i = 0; i < n; ++i) l.push_back(-(n - i));
    for (char c : post) l.push_back(c);
    broadcast = std::max(broadcast, n);
    p.inputs.push_back(std::move(l));
  }
  if (!explicit_output) {
    std::map<int, int> count;
    for (const labels& l : p.inputs)
      for (int v : l)
        if (v > 0) ++count[v];
    for (int i = 0; i < broadcast; ++i) p.output.push_back(-(broadcast - i));
    for (const auto& [v, c] : count)  // std::map: ASCII order, as NumPy's
      if (c == 1) p.output.push_back(v);
  } else {
    std::string pre, post;
    bool has = false;
    split_ellipsis(out, pre, post, has, "the output");
    if (!has && broadcast > 0)
      throw ValueError("output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis "
                       "provided to broadcast the extra dimensions.");
    std::set<int> seen;
    for (const labels& l : p.inputs) seen.insert(l.begin(), l.end());
    std::set<char> used;
    for (char c : pre + post) {
      if (!seen.count(c))
        throw ValueError(std::string("einstein sum subscripts string included output subscript '") + c +
                         "' which never appeared in an input");
      if (!used.insert(c).second)
        throw ValueError(std::string("einstein sum subscripts string includes output subscript '") + c +
                         "' multiple times");
    }
    for (char c : pre) p.output.push_back(c);
    if (has)
      for (int i = 0; i < broadcast; ++i) p.output.push_back(-(broadcast - i));
    for (char c : post) p.output.push_back(c);
  }
  // A label repeated in one operand (a diagonal) has one length there (NumPy checks this first).
  for (std::size_t t = 0; t < p.inputs.size(); ++t)
    for (std::size_t d = 0; d < p.inputs[t].size(); ++d)
      for (std::size_t e = 0; e < d; ++e)
        if (p.inputs[t][e] == p.inputs[t][d] && operands[t].shape()[e] != operands[t].shape()[d])
          throw ValueError("dimensions in single operand for collapsing index '" +
                           std::string(1, static_cast<char>(p.inputs[t][d])) + "' don't match (" +
                           std::to_string(operands[t].shape()[e]) + " != " + std::to_string(operands[t].shape()[d]) +
                           ")");
  // Label lengths: equal, or 1 (broadcast), across operands.
  for (std::size_t t = 0; t < p.inputs.size(); ++t)
    for (std::size_t d = 0; d < p.inputs[t].size(); ++d) {
      const int v = p.inputs[t][d];
      const i64 n = operands[t].shape()[d];
      auto it = p.sizes.find(v);
      if (it == p.sizes.end() || it->second == 1) {
        p.sizes[v] = n;
      } else if (n != 1 && n != it->second) {
        throw ValueError("operands could not be broadcast together in einstein sum: label " +
                         (v > 0 ? std::string(1, static_cast<char>(v)) : std::string("...")) + " of operand " +
                         std::to_string(t) + " has length " + std::to_string(n) + ", another " +
                         std::to_string(it->second));
      }
    }
  return p;
}

namespace {

struct term {
  ndarray x;
  labels l;
};

// Repeated labels as one diagonal (a strided view), then the labels not in `keep` summed.
term prepare(term t, const std::set<int>& keep, const dtype& type) {
  labels uniq;
  for (int v : t.l)
    if (std::find(uniq.begin(), uniq.end(), v) == uniq.end()) uniq.push_back(v);
  if (uniq.size() < t.l.size()) {
    std::vector<i64> shape, strides;
    for (int u : uniq) {
      i64 n = -1, stride = 0;
      for (std::size_t d = 0; d < t.l.size(); ++d)
        if (t.l[d] == u) {
          if (n >= 0 && t.x.shape()[d] != n)
            throw ValueError("dimensions in single operand for collapsing index '" +
                             (u > 0 ? std::string(1, static_cast<char>(u)) : std::string("...")) + "' don't match (" +
                             std::to_string(n) + " != " + std::to_string(t.x.shape()[d]) + ")");
          n = t.x.shape()[d];
          stride += t.x.strides()[d];
        }
      shape.push_back(n);
      strides.push_back(stride);
    }
    t.x = from_device_pointer(t.x.data(), t.x.dtype(), shape, strides, t.x.base(), t.x.device());
    t.l = uniq;
  }
  std::vector<std::int64_t> axes;
  labels kept;
  for (std::size_t d = 0; d < t.l.size(); ++d) {
    if (keep.count(t.l[d])) kept.push_back(t.l[d]);
    else axes.push_back(static_cast<std::int64_t>(d));
  }
  if (!axes.empty()) {
    t.x = sum(t.x, {.axis = cupp::axes(std::move(axes)), .dtype = type});
    t.l = kept;
  }
  return t;
}

std::vector<int> positions(const labels& of, const labels& order) {
  std::vector<int> p;
  for (int v : order) p.push_back(static_cast<int>(std::find(of.begin(), of.end(), v) - of.begin()));
  return p;
}

i64 product(const std::vector<i64>& v, std::size_t from, std::size_t to) {
  i64 r = 1;
  for (std::size_t i = from; i < to; ++i) r *= v[i];
  return r;
}

// x and y contracted over their shared labels not in `keep` (labels needed later or in the output).
term contract(term x, term y, const std::set<int>& keep, const parsed& p, const dtype& type) {
  const einsum_pair plan = einsum_pair_plan(x.l, y.l, keep);
  std::set<int> kx(keep), ky(keep);
  kx.insert(y.l.begin(), y.l.end());
  ky.insert(x.l.begin(), x.l.end());
  x = prepare(std::move(x), kx, type);
  y = prepare(std::move(y), ky, type);
  const labels &batch = plan.batch, &con = plan.con, &fx = plan.fx, &fy = plan.fy, &result = plan.result;
  labels ox = batch, oy = batch;
  ox.insert(ox.end(), fx.begin(), fx.end());
  ox.insert(ox.end(), con.begin(), con.end());
  oy.insert(oy.end(), con.begin(), con.end());
  oy.insert(oy.end(), fy.begin(), fy.end());
  const ndarray xt = x.x.transpose(positions(x.l, ox)), yt = y.x.transpose(positions(y.l, oy));
  const std::size_t nb = batch.size(), nfx = fx.size(), nfy = fy.size(), nc = con.size();
  std::vector<i64> sx(xt.shape().begin(), xt.shape().end()), sy(yt.shape().begin(), yt.shape().end());
  if (nc == 0) {  // no summed label: one broadcast multiply
    std::vector<i64> rx = sx, ry(sy.begin(), sy.begin() + static_cast<std::ptrdiff_t>(nb));
    rx.insert(rx.end(), nfy, 1);
    ry.insert(ry.end(), nfx, 1);
    ry.insert(ry.end(), sy.begin() + static_cast<std::ptrdiff_t>(nb), sy.end());
    return {multiply(xt.reshape(rx), yt.reshape(ry)), result};
  }
  // Summed labels of length 1 on one side broadcast to the other's length.
  for (std::size_t i = 0; i < nc; ++i) {
    sx[nb + nfx + i] = p.sizes.at(con[i]);
    sy[nb + i] = p.sizes.at(con[i]);
  }
  const ndarray xb = broadcast_to(xt, sx), yb = broadcast_to(yt, sy);
  const i64 k = product(sx, nb + nfx, sx.size());
  std::vector<i64> mx(sx.begin(), sx.begin() + static_cast<std::ptrdiff_t>(nb));
  std::vector<i64> my(sy.begin(), sy.begin() + static_cast<std::ptrdiff_t>(nb));
  mx.push_back(product(sx, nb, nb + nfx));
  mx.push_back(k);
  my.push_back(k);
  my.push_back(product(sy, nb + nc, sy.size()));
  const ndarray z = cupp::matmul(xb.reshape(mx), yb.reshape(my));
  std::vector<i64> shape(z.shape().begin(), z.shape().begin() + static_cast<std::ptrdiff_t>(nb));
  shape.insert(shape.end(), sx.begin() + static_cast<std::ptrdiff_t>(nb),
               sx.begin() + static_cast<std::ptrdiff_t>(nb + nfx));
  shape.insert(shape.end(), sy.begin() + static_cast<std::ptrdiff_t>(nb + nc), sy.end());
  return {z.reshape(shape), result};
}

// ---- the contraction order: NumPy's einsum_path (numpy/_core/einsumfunc.py) step for step, so
// the same pairs are chosen, ties included.

using label_set = std::set<int>;

i64 size_of(const label_set& l, const parsed& p) {
  i64 n = 1;
  for (int v : l) n *= p.sizes.at(v);
  return n;
}

// _flop_count: the size of every label involved, times the terms' operations.
double flop_count(const label_set& contract, bool inner, std::size_t terms, const parsed& p) {
  const double factor = static_cast<double>(std::max<std::size_t>(1, terms - 1) + (inner ? 1 : 0));
  return static_cast<double>(size_of(contract, p)) * factor;
}

struct contraction {
  label_set result, removed, involved;
  std::vector<label_set> remaining;  // the sets not contracted, then the result
};

// _find_contraction.
contraction find_contraction(const std::vector<int>& positions, const std::vector<label_set>& sets,
                             const label_set& output) {
  contraction c;
  label_set keep = output;
  for (int i = 0; i < static_cast<int>(sets.size()); ++i) {
    if (std::find(positions.begin(), positions.end(), i) != positions.end()) {
      c.involved.insert(sets[i].begin(), sets[i].end());
    } else {
      c.remaining.push_back(sets[i]);
      keep.insert(sets[i].begin(), sets[i].end());
    }
  }
  for (int v : c.involved) (keep.count(v) ? c.result : c.removed).insert(v);
  c.remaining.push_back(c.result);
  return c;
}

struct candidate {
  std::pair<double, double> key;  // (-removed size, flops), compared as NumPy's tuples
  std::pair<int, int> pos;
  std::vector<label_set> sets;
};

// _parse_possible_contraction.
std::optional<candidate> possible(std::pair<int, int> pos, const std::vector<label_set>& sets,
                                  const label_set& output, const parsed& p, i64 limit, double path_cost,
                                  double naive_cost) {
  contraction c = find_contraction({pos.first, pos.second}, sets, output);
  const i64 new_size = size_of(c.result, p);
  if (new_size > limit) return std::nullopt;
  const double removed =
      static_cast<double>(size_of(sets[pos.first], p) + size_of(sets[pos.second], p) - new_size);
  const double cost = flop_count(c.involved, !c.removed.empty(), 2, p);
  if (path_cost + cost > naive_cost) return std::nullopt;
  return candidate{{-removed, cost}, pos, std::move(c.remaining)};
}

std::vector<std::vector<int>> greedy_path(std::vector<label_set> sets, const label_set& output, const parsed& p,
                                          i64 limit) {
  if (sets.size() == 1) return {{0}};
  if (sets.size() == 2) return {{0, 1}};
  std::vector<int> all(sets.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<int>(i);
  const contraction naive = find_contraction(all, sets, output);
  const double naive_cost = flop_count(naive.involved, !naive.removed.empty(), sets.size(), p);
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < static_cast<int>(sets.size()); ++i)
    for (int j = i + 1; j < static_cast<int>(sets.size()); ++j) pairs.emplace_back(i, j);
  std::vector<candidate> known;
  std::vector<std::vector<int>> path;
  double path_cost = 0;
  const std::size_t steps = sets.size() - 1;
  for (std::size_t iteration = 0; iteration < steps; ++iteration) {
    for (const auto& pos : pairs) {
      bool disjoint = true;  // outer products are left for later
      for (int v : sets[pos.first]) disjoint = disjoint && !sets[pos.second].count(v);
      if (disjoint) continue;
      if (auto c = possible(pos, sets, output, p, limit, path_cost, naive_cost)) known.push_back(std::move(*c));
    }
    if (known.empty()) {
      for (int i = 0; i < static_cast<int>(sets.size()); ++i)
        for (int j = i + 1; j < static_cast<int>(sets.size()); ++j)
          if (auto c = possible({i, j}, sets, output, p, limit, path_cost, naive_cost)) known.push_back(std::move(*c));
      if (known.empty()) {
        std::vector<int> rest(sets.size());
        for (std::size_t i = 0; i < rest.size(); ++i) rest[i] = static_cast<int>(i);
        path.push_back(rest);
        break;
      }
    }
    std::size_t b = 0;  // min(): the first of the smallest keys
    for (std::size_t i = 1; i < known.size(); ++i)
      if (known[i].key < known[b].key) b = i;
    const candidate best = known[b];
    // _update_other_results: the candidates not touching the pair, renumbered, with its result.
    const int bx = best.pos.first, by = best.pos.second;
    std::vector<candidate> kept;
    for (candidate& c : known) {
      const int x = c.pos.first, y = c.pos.second;
      if (x == bx || x == by || y == bx || y == by) continue;
      c.sets.erase(c.sets.begin() + (by - (by > x) - (by > y)));
      c.sets.erase(c.sets.begin() + (bx - (bx > x) - (bx > y)));
      c.sets.insert(c.sets.end() - 1, best.sets.back());
      c.pos = {x - (x > bx) - (x > by), y - (y > bx) - (y > by)};
      kept.push_back(std::move(c));
    }
    known = std::move(kept);
    sets = best.sets;
    const int fresh = static_cast<int>(sets.size()) - 1;
    pairs.clear();
    for (int i = 0; i < fresh; ++i) pairs.emplace_back(i, fresh);
    path.push_back({bx, by});
    path_cost += best.key.second;
  }
  return path;
}

// _optimal_path: every order of pairwise contractions within the limit, the cheapest kept.
std::vector<std::vector<int>> optimal_path(const std::vector<label_set>& sets, const label_set& output,
                                           const parsed& p, i64 limit) {
  struct partial {
    double cost;
    std::vector<std::vector<int>> path;
    std::vector<label_set> remaining;
  };
  const std::size_t n = sets.size();
  std::vector<partial> full{{0.0, {}, sets}};
  auto cheapest = [](const std::vector<partial>& v) {
    std::size_t b = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
      if (v[i].cost < v[b].cost) b = i;
    return v[b].path;
  };
  for (std::size_t iteration = 0; iteration + 1 < n; ++iteration) {
    std::vector<partial> next;
    const int count = static_cast<int>(n - iteration);
    for (const partial& cur : full)
      for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) {
          contraction c = find_contraction({i, j}, cur.remaining, output);
          if (size_of(c.result, p) > limit) continue;
          partial q{cur.cost + flop_count(c.involved, !c.removed.empty(), 2, p), cur.path, std::move(c.remaining)};
          q.path.push_back({i, j});
          next.push_back(std::move(q));
        }
    if (next.empty()) {
      std::vector<std::vector<int>> path = cheapest(full);
      std::vector<int> rest(static_cast<std::size_t>(count));
      for (int i = 0; i < count; ++i) rest[static_cast<std::size_t>(i)] = i;
      path.push_back(rest);
      return path;
    }
    full = std::move(next);
  }
  return cheapest(full);
}

}  // namespace

std::vector<std::vector<int>> einsum_order(const einsum_parsed& p, const einsum_optimize& o) {
  const int n = static_cast<int>(p.inputs.size());
  using strategy = einsum_optimize::strategy;
  if (o.kind == strategy::path) {
    int count = n;
    for (const std::vector<int>& step : o.path) {
      for (int i : step)
        if (i < 0 || i >= count) throw ValueError("einsum: the path's contraction " + std::to_string(i) + " is out of range");
      count -= static_cast<int>(step.size()) - 1;
    }
    if (count != 1)
      throw ValueError("Invalid einsum_path is specified: " + std::to_string(count - 1) +
                       " more operands has to be contracted.");
    return o.path;
  }
  std::vector<label_set> sets;
  label_set indices;
  for (const labels& l : p.inputs) {
    sets.emplace_back(l.begin(), l.end());
    indices.insert(l.begin(), l.end());
  }
  const label_set output(p.output.begin(), p.output.end());
  std::vector<int> all(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) all[static_cast<std::size_t>(i)] = i;
  // Nothing to order (NumPy leaves it to one einsum call): one step of every operand, which
  // einsum contracts left to right.
  if (o.kind == strategy::none || n <= 2 || indices == output) return {all};
  // NumPy's default limit: the largest operand or result, a repeated label counted twice.
  auto term_size = [&p](const labels& l) {
    i64 size = 1;
    for (int v : l) size *= p.sizes.at(v);
    return size;
  };
  i64 limit = term_size(p.output);
  for (const labels& l : p.inputs) limit = std::max(limit, term_size(l));
  if (o.memory_limit) limit = *o.memory_limit;
  if (o.kind == strategy::optimal) return optimal_path(sets, output, p, limit);
  return greedy_path(std::move(sets), output, p, limit);
}

einsum_labels einsum_reduce_labels(const einsum_labels& l, const std::set<int>& keep) {
  einsum_labels r;
  for (int v : l)
    if (keep.count(v) && std::find(r.begin(), r.end(), v) == r.end()) r.push_back(v);
  return r;
}

einsum_pair einsum_pair_plan(const einsum_labels& x, const einsum_labels& y, const std::set<int>& keep) {
  einsum_pair e;
  std::set<int> kx(keep), ky(keep);
  kx.insert(y.begin(), y.end());
  ky.insert(x.begin(), x.end());
  e.x_kept = einsum_reduce_labels(x, kx);
  e.y_kept = einsum_reduce_labels(y, ky);
  auto has = [](const einsum_labels& l, int v) { return std::find(l.begin(), l.end(), v) != l.end(); };
  for (int v : e.x_kept) {
    if (has(e.y_kept, v)) (keep.count(v) ? e.batch : e.con).push_back(v);
    else e.fx.push_back(v);
  }
  for (int v : e.y_kept)
    if (!has(e.x_kept, v)) e.fy.push_back(v);
  e.result = e.batch;
  e.result.insert(e.result.end(), e.fx.begin(), e.fx.end());
  e.result.insert(e.result.end(), e.fy.begin(), e.fy.end());
  return e;
}

std::string einsum_label_string(const einsum_labels& l) {
  std::string s;
  for (int v : l) s += v > 0 ? static_cast<char>(v) : static_cast<char>('0' - v);
  return s;
}

std::vector<std::string> einsum_contractions(std::string_view subscripts, std::span<const ndarray> operands,
                                             const einsum_optimize& optimize) {
  const einsum_parsed p = einsum_parse(subscripts, operands);
  struct symbol {
    einsum_labels l;
  };
  std::vector<symbol> terms;
  for (const einsum_labels& l : p.inputs) terms.push_back({l});
  std::vector<std::string> steps;
  einsum_run(std::move(terms), einsum_order(p, optimize), p.output,
             [&](symbol x, symbol y, const std::set<int>& keep) {
               const einsum_pair e = einsum_pair_plan(x.l, y.l, keep);
               steps.push_back(einsum_label_string(e.x_kept) + "," + einsum_label_string(e.y_kept) + "->" +
                               einsum_label_string(e.result));
               return symbol{e.result};
             });
  return steps;
}

}  // namespace cupp::linalg::detail

namespace cupp {

namespace {
std::string dtype_repr(const dtype& t) { return "dtype('" + t.name() + "')"; }
}  // namespace

using linalg::detail::einsum_order;
using linalg::detail::einsum_parse;

cupp::casting einsum_options::casting_named(std::string_view name) {
  for (cupp::casting c : {casting::no, casting::equiv, casting::safe, casting::same_kind, casting::unsafe})
    if (to_string(c) == name) return c;
  throw ValueError("casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe'");
}

einsum_optimize einsum_optimize::greedy(std::optional<std::int64_t> memory_limit) {
  einsum_optimize o(true);
  o.memory_limit = memory_limit;
  return o;
}

einsum_optimize einsum_optimize::optimal(std::optional<std::int64_t> memory_limit) {
  einsum_optimize o(true);
  o.kind = strategy::optimal;
  o.memory_limit = memory_limit;
  return o;
}

einsum_optimize einsum_optimize::given(std::vector<std::vector<int>> path) {
  einsum_optimize o;
  o.kind = strategy::path;
  o.path = std::move(path);
  return o;
}

einsum_optimize einsum_optimize::parse(std::string_view name) {
  if (name == "greedy") return greedy();
  if (name == "optimal") return optimal();
  throw TypeError("Did not understand the path (optimize): " + std::string(name));
}

std::vector<std::vector<int>> einsum_path(std::string_view subscripts, std::span<const ndarray> operands,
                                          const einsum_optimize& optimize) {
  for (const ndarray& x : operands)
    if (x.is_null()) throw ValueError("einsum_path: a null array");
  return einsum_order(einsum_parse(subscripts, operands), optimize);
}

ndarray einsum(std::string_view subscripts, std::initializer_list<ndarray> operands, const einsum_options& options) {
  return einsum(subscripts, std::span<const ndarray>(operands.begin(), operands.size()), options);
}

ndarray einsum(std::string_view subscripts, std::span<const ndarray> operands, const einsum_options& options) {
  if (operands.empty()) throw ValueError("No input operands");
  for (const ndarray& x : operands) {
    if (x.is_null()) throw ValueError("einsum: a null array");
    detail::require_not_structured(x.dtype(), "einsum");
  }
  const linalg::detail::einsum_parsed p = einsum_parse(subscripts, operands);
  std::vector<dtype> types;
  for (const ndarray& x : operands) types.push_back(x.dtype());
  const dtype type = options.dtype ? *options.dtype : result_type(types);
  for (const ndarray& x : operands)
    if (!can_cast(x.dtype(), type, options.casting))
      throw TypeError("Cannot cast array data from " + dtype_repr(x.dtype()) + " to " + dtype_repr(type) +
                      " according to the rule '" + std::string(to_string(options.casting)) + "'");
  using linalg::detail::term;
  std::vector<term> terms;
  for (std::size_t t = 0; t < operands.size(); ++t)
    terms.push_back({astype(operands[t], type, casting::unsafe, false), p.inputs[t]});
  term acc = linalg::detail::einsum_run(std::move(terms), einsum_order(p, options.optimize), p.output,
                                        [&](term x, term y, const std::set<int>& keep) {
                                          return linalg::detail::contract(std::move(x), std::move(y), keep, p, type);
                                        });
  const term last = linalg::detail::prepare(std::move(acc), std::set<int>(p.output.begin(), p.output.end()), type);
  ndarray r = last.x.transpose(linalg::detail::positions(last.l, p.output));
  if (options.out.is_null()) return r;
  const ndarray& out = options.out;
  if (!std::equal(out.shape().begin(), out.shape().end(), r.shape().begin(), r.shape().end()))
    throw ValueError("einsum: out= has the wrong shape");
  if (!can_cast(type, out.dtype(), options.casting))
    throw TypeError("Cannot cast array data from " + dtype_repr(type) + " to " + dtype_repr(out.dtype()) +
                    " according to the rule '" + std::string(to_string(options.casting)) + "'");
  out.assign(astype(r, out.dtype(), casting::unsafe));
  return out;
}

}  // namespace cupp
