// Internal to the linalg module: einsum's host-side logic, apart from the device work so that it
// can be tested without a GPU (tests/unit/linalg/). einsum.cpp runs it over arrays:
//   einsum_parse      the subscripts as label lists (NumPy's C einsum parsing and errors);
//   einsum_order      the contraction path (NumPy's einsum_path: greedy / optimal / given / one step);
//   einsum_pair_plan  what one pairwise contraction does with its labels;
//   einsum_run        a path applied to a list of terms: each step's operands contracted left to right,
//                     every contraction keeping the output's labels and those of every term not yet
//                     contracted (the step's later operands included);
//   einsum_contractions  the contractions einsum would run, as subscripts strings (for tests).
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/linalg.hpp"

namespace cupp::linalg::detail {

// A letter's code, or -k for the k-th broadcast ('...') dimension counted from the right.
using einsum_labels = std::vector<int>;

struct einsum_parsed {
  std::vector<einsum_labels> inputs;
  einsum_labels output;
  std::map<int, std::int64_t> sizes;  // each label's broadcast length
};

// NumPy's parsing: ValueError with NumPy's messages for bad subscripts, counts and lengths.
einsum_parsed einsum_parse(std::string_view subscripts, std::span<const ndarray> operands);

// The path einsum follows (einsum_path's; optimize=False, two operands or nothing to sum: one
// step of every operand).
std::vector<std::vector<int>> einsum_order(const einsum_parsed& p, const einsum_optimize& optimize);

// One term's labels after its diagonals (a repeated label once, first place) and the sums over
// labels not in `keep`.
einsum_labels einsum_reduce_labels(const einsum_labels& l, const std::set<int>& keep);

// The contraction of terms labelled x and y where `keep` (the output's labels and those of every
// term contracted later) must survive. Each side first reduces to x_kept / y_kept (keeping what
// `keep` or the other side has); then labels on both sides are batch (kept) or con (summed by the
// product), the others free (fx: x only, fy: y only); the result is batch, fx, fy in that order.
struct einsum_pair {
  einsum_labels x_kept, y_kept, batch, con, fx, fy, result;
};
einsum_pair einsum_pair_plan(const einsum_labels& x, const einsum_labels& y, const std::set<int>& keep);

// Applies `path` to `terms` (each with a member `l`, its labels): each step takes its operands out
// (the result goes last, as NumPy's einsum_path numbers them) and contracts them left to right
// with contract(x, y, keep); `keep` is the output's labels and those of every term outside the
// pair: the terms left and the step's operands not yet contracted. Returns the one term left.
template <class Term, class Contract>
Term einsum_run(std::vector<Term> terms, const std::vector<std::vector<int>>& path, const einsum_labels& output,
                Contract&& contract) {
  for (const std::vector<int>& step : path) {
    std::vector<int> desc(step);
    std::sort(desc.rbegin(), desc.rend());
    std::vector<Term> picked;
    for (int i : desc) {
      picked.insert(picked.begin(), std::move(terms[static_cast<std::size_t>(i)]));
      terms.erase(terms.begin() + i);
    }
    std::set<int> outside(output.begin(), output.end());
    for (const Term& t : terms) outside.insert(t.l.begin(), t.l.end());
    Term acc = std::move(picked.front());
    for (std::size_t i = 1; i < picked.size(); ++i) {
      std::set<int> keep = outside;
      for (std::size_t j = i + 1; j < picked.size(); ++j) keep.insert(picked[j].l.begin(), picked[j].l.end());
      acc = contract(std::move(acc), std::move(picked[i]), keep);
    }
    terms.push_back(std::move(acc));
  }
  return std::move(terms.front());
}

// Labels as subscripts: letters as themselves, the broadcast dimension -k as the digit k.
std::string einsum_label_string(const einsum_labels& l);

// The pairwise contractions einsum runs for these operands, in order, each as
// "<x_kept>,<y_kept>-><result>" (host only: nothing touches the operands' memory).
std::vector<std::string> einsum_contractions(std::string_view subscripts, std::span<const ndarray> operands,
                                             const einsum_optimize& optimize = {});

}  // namespace cupp::linalg::detail
