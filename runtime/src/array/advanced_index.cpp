// NumPy's advanced-indexing rules (array/advanced_index.hpp): the plan of a[items] computed on
// the host from the array's shape and a description of each item. No device work here.
#include "array/advanced_index.hpp"

#include <algorithm>
#include <string>

#include "array/layout.hpp"
#include "cupp/errors.hpp"

namespace cupp::detail {

namespace {

[[noreturn]] void too_many(int ndim, int consumed) {
  throw IndexError("too many indices for array: array is " + std::to_string(ndim) + "-dimensional, but " +
                   std::to_string(consumed) + " were indexed");
}

}  // namespace

index_plan plan_index(std::span<const std::int64_t> shape, std::span<const index_term> terms, bool check_only) {
  const int ndim = static_cast<int>(shape.size());
  index_plan plan;
  int consumed = 0, ellipses = 0;
  for (const index_term& t : terms) {
    switch (t.kind) {
      case index_term::integer:
      case index_term::range:
      case index_term::int_array: ++consumed; break;
      case index_term::bool_array: consumed += static_cast<int>(t.shape.size()); break;
      case index_term::dots: ++ellipses; break;
      default: plan.advanced = plan.advanced || t.kind == index_term::bool_scalar; break;
    }
    if (t.kind == index_term::int_array || t.kind == index_term::bool_array) plan.advanced = true;
  }
  if (ellipses > 1) throw IndexError("an index can only have a single ellipsis ('...')");
  if (consumed > ndim) too_many(ndim, consumed);

  // Walk the items as layout::index does: array axis `ax`, basic-view axis `vx`, the number of
  // view dims that stay in the result before the current item (`kept`), and whether the advanced
  // items form one run (NumPy: separated by a slice, newaxis or a non-empty ellipsis -> first).
  int ax = 0, vx = 0, kept = 0;
  enum { none_yet, in_run, run_ended } run = none_yet;
  auto advanced_item = [&] {
    if (run == none_yet) {
      plan.insert_at = kept;
      run = in_run;
    } else if (run == run_ended) {
      plan.first = true;
    }
  };
  auto separator = [&] {
    if (run == in_run) run = run_ended;
  };
  for (int i = 0; i < static_cast<int>(terms.size()); ++i) {
    const index_term& t = terms[i];
    switch (t.kind) {
      case index_term::integer: {
        const std::int64_t n = shape[ax];
        if (t.value < -n || t.value >= n)
          throw IndexError("index " + std::to_string(t.value) + " is out of bounds for axis " + std::to_string(ax) +
                           " with size " + std::to_string(n));
        if (!plan.advanced) {
          plan.basic.emplace_back(t.value);
          ++ax;
          break;
        }
        advanced_item();
        plan.basic.emplace_back(slice());
        plan.axes.push_back({i, 0, vx, ax, {}});
        ++ax;
        ++vx;
        break;
      }
      case index_term::range:
        plan.basic.emplace_back(t.range_value);
        separator();
        ++ax;
        ++vx;
        ++kept;
        break;
      case index_term::new_axis:
        plan.basic.emplace_back(newaxis);
        separator();
        ++vx;
        ++kept;
        break;
      case index_term::dots: {
        const int k = ndim - consumed;
        plan.basic.emplace_back(ellipsis);
        if (k > 0) separator();
        ax += k;
        vx += k;
        kept += k;
        break;
      }
      case index_term::int_array:
        advanced_item();
        plan.basic.emplace_back(slice());
        plan.axes.push_back({i, 0, vx, ax, t.shape});
        ++ax;
        ++vx;
        break;
      case index_term::bool_array: {
        advanced_item();
        for (int j = 0; j < static_cast<int>(t.shape.size()); ++j) {
          if (t.shape[j] != shape[ax])
            throw IndexError("boolean index did not match indexed array along axis " + std::to_string(ax) +
                             "; size of axis is " + std::to_string(shape[ax]) +
                             " but size of corresponding boolean axis is " + std::to_string(t.shape[j]));
          plan.basic.emplace_back(slice());
          plan.axes.push_back({i, j, vx, ax, {t.count}});
          ++ax;
          ++vx;
        }
        break;
      }
      case index_term::bool_scalar:
        advanced_item();
        plan.axes.push_back({i, 0, -1, -1, {t.value ? 1 : 0}});
        break;
    }
  }

  // The basic view's shape (strides do not matter here).
  {
    const layout::strided w = layout::index({shape_t(shape.begin(), shape.end()), shape_t(shape.size(), 1), 0}, 1,
                                            plan.basic);
    plan.view_shape = w.shape;
  }
  if (!plan.advanced) {
    plan.result_shape = plan.view_shape;
    return plan;
  }
  if (check_only) return plan;

  // Broadcast the advanced indices (integers are 0-d and not named in the message).
  std::vector<shape_t> shapes;
  std::string named;
  for (const advanced_axis& a : plan.axes) {
    if (terms[a.term].kind == index_term::integer) continue;
    shapes.push_back(a.shape);
    named += layout::tuple_string(a.shape) + " ";
  }
  plan.broadcast.clear();
  std::size_t nd = 0;
  for (const shape_t& s : shapes) nd = std::max(nd, s.size());
  plan.broadcast.assign(nd, 1);
  for (const shape_t& s : shapes) {
    for (std::size_t k = 0; k < s.size(); ++k) {
      std::int64_t& b = plan.broadcast[nd - s.size() + k];
      const std::int64_t d = s[k];
      if (d == b || d == 1) continue;
      if (b == 1) {
        b = d;
        continue;
      }
      throw IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes " + named);
    }
  }
  layout::check_ndim(nd);

  // The result: the view's dims that are not indexed by an advanced index, with the broadcast
  // dims inserted first or where the advanced run was.
  shape_t rest;
  for (int d = 0; d < static_cast<int>(plan.view_shape.size()); ++d) {
    const bool indexed = std::any_of(plan.axes.begin(), plan.axes.end(),
                                     [&](const advanced_axis& a) { return a.view_axis == d; });
    if (!indexed) rest.push_back(plan.view_shape[d]);
  }
  if (plan.first) plan.insert_at = 0;
  plan.result_shape.assign(rest.begin(), rest.begin() + plan.insert_at);
  plan.result_shape.insert(plan.result_shape.end(), plan.broadcast.begin(), plan.broadcast.end());
  plan.result_shape.insert(plan.result_shape.end(), rest.begin() + plan.insert_at, rest.end());
  layout::check_ndim(plan.result_shape.size());
  return plan;
}

}  // namespace cupp::detail
