// cupp::sparse's index paths step by step against host loops, for int32 and int64 indices: the
// indptr expansion (the module's kernel, device/cupp/sparse/expand.cuh) on row patterns that take
// each of its branches (long rows spanning chunks, runs of empty rows longer than its shared-memory
// stage, a chunk boundary inside a row), and on an unsorted CSR with duplicates, explicit zeros and
// empty rows and columns (the shape of make_sparse_ref.py's cases): toarray, tocsc, tocoo,
// sum_duplicates and has_canonical_format, each checked on its own so a failure names its step.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "cupp/creation.hpp"
#include "cupp/sparse.hpp"
#include "cupp/testing/gtest.hpp"
#include "gpu_support.hpp"
#include "primitives.hpp"

namespace cupp {
namespace {

using i64 = std::int64_t;

// indptr of the given row lengths.
std::vector<i64> indptr_of(const std::vector<i64>& lengths) {
  std::vector<i64> ptr(lengths.size() + 1, 0);
  std::partial_sum(lengths.begin(), lengths.end(), ptr.begin() + 1);
  return ptr;
}

std::vector<i64> expanded(const std::vector<i64>& ptr) {
  std::vector<i64> rows;
  for (std::size_t r = 0; r + 1 < ptr.size(); ++r)
    for (i64 p = ptr[r]; p < ptr[r + 1]; ++p) rows.push_back(static_cast<i64>(r));
  return rows;
}

ndarray index_array(const std::vector<i64>& v, const dtype& idx) { return astype(asarray(v), idx); }

class SparseIndexPathsGpu : public ::testing::TestWithParam<const char*> {
 protected:
  dtype idx() const { return std::string(GetParam()) == "int32" ? int32 : int64; }
};

TEST_P(SparseIndexPathsGpu, ExpandPtrMatchesAHostLoop) {
  CUPP_REQUIRE_GPU();
  struct pattern {
    const char* name;
    std::vector<i64> lengths;
  };
  std::vector<pattern> patterns;
  patterns.push_back({"one entry", {1}});
  patterns.push_back({"short rows", std::vector<i64>(3000, 3)});
  patterns.push_back({"rows of 0..9", {}});
  for (int r = 0; r < 5000; ++r) patterns.back().lengths.push_back(r % 10);
  patterns.push_back({"a row longer than three chunks", {2, 7000, 0, 5}});
  std::vector<i64> gaps(20000, 0);  // runs of empty rows longer than the stage (2049 values)
  gaps[0] = 1, gaps[9000] = 4, gaps[9001] = 2100, gaps[19999] = 3;
  patterns.push_back({"long runs of empty rows", gaps});
  std::vector<i64> trailing(6000, 0);
  trailing[0] = 2500;  // a chunk boundary inside the row, then only empty rows
  patterns.push_back({"trailing empty rows", trailing});
  for (const pattern& p : patterns) {
    SCOPED_TRACE(p.name);
    const std::vector<i64> ptr = indptr_of(p.lengths);
    const ndarray out = sparse::detail::expand_ptr(index_array(ptr, idx()), ptr.back());
    EXPECT_EQ(out.dtype(), idx());
    CUPP_EXPECT_ARRAY_EQUAL(astype(out, int64), expanded(ptr));
  }
}

// A 6x6 unsorted CSR with duplicates (rows 0 and 3), an explicit zero, an empty row (5) and an
// empty column (1): every conversion against the host's answer.
TEST_P(SparseIndexPathsGpu, ConversionsMatchHostLoops) {
  CUPP_REQUIRE_GPU();
  const std::vector<i64> ptr{0, 4, 5, 7, 11, 13, 13};
  const std::vector<i64> cols{4, 0, 4, 2, 3, 5, 0, 2, 0, 2, 3, 5, 4};
  const std::vector<std::uint16_t> vals{1, 2, 3, 0, 4, 5, 6, 7, 1, 2, 3, 4, 2};
  const std::int64_t n = 6;
  const std::vector<i64> rows = expanded(ptr);
  std::vector<std::uint16_t> dense(n * n, 0);
  for (std::size_t p = 0; p < cols.size(); ++p) dense[rows[p] * n + cols[p]] += vals[p];
  for (const dtype& vt : {uint16, float32}) {
    SCOPED_TRACE(vt.name());
    const ndarray data = astype(asarray(vals), vt);
    const sparse::csr a = sparse::csr::from_parts(data, index_array(cols, idx()), index_array(ptr, idx()), {n, n},
                                                  sparse::kind::matrix, std::nullopt, std::nullopt);
    const ndarray want = astype(asarray(dense).reshape({n, n}), vt);
    {
      SCOPED_TRACE("expand_ptr");
      CUPP_EXPECT_ARRAY_EQUAL(astype(sparse::detail::expand_ptr(a.indptr(), a.nnz()), int64), rows);
    }
    {
      SCOPED_TRACE("has_canonical_format");
      EXPECT_FALSE(a.has_sorted_indices());
      EXPECT_FALSE(a.has_canonical_format());
    }
    {
      SCOPED_TRACE("toarray");
      CUPP_EXPECT_ARRAY_EQUAL(a.toarray(), want, {.strict = true});
    }
    {
      SCOPED_TRACE("tocsc");
      // stable by column: entries of a column in their CSR order
      std::vector<std::size_t> order(cols.size());
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return cols[x] < cols[y]; });
      std::vector<i64> c_rows, c_ptr(n + 1, 0);
      std::vector<std::uint16_t> c_vals;
      for (std::size_t q : order) c_rows.push_back(rows[q]), c_vals.push_back(vals[q]), ++c_ptr[cols[q] + 1];
      std::partial_sum(c_ptr.begin(), c_ptr.end(), c_ptr.begin());
      const sparse::csc c = a.tocsc();
      EXPECT_EQ(c.index_dtype(), idx());
      CUPP_EXPECT_ARRAY_EQUAL(astype(c.indices(), int64), c_rows);
      CUPP_EXPECT_ARRAY_EQUAL(astype(c.indptr(), int64), c_ptr);
      CUPP_EXPECT_ARRAY_EQUAL(c.data(), astype(asarray(c_vals), vt), {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(c.toarray(), want, {.strict = true});
      CUPP_EXPECT_ARRAY_EQUAL(c.tocsr().toarray(), want, {.strict = true});
    }
    {
      SCOPED_TRACE("tocoo");
      const sparse::coo o = a.tocoo();
      EXPECT_EQ(o.index_dtype(), idx());
      CUPP_EXPECT_ARRAY_EQUAL(astype(o.row(), int64), rows);
      CUPP_EXPECT_ARRAY_EQUAL(astype(o.col(), int64), cols);
      CUPP_EXPECT_ARRAY_EQUAL(o.toarray(), want, {.strict = true});
    }
    {
      SCOPED_TRACE("sum_duplicates");
      std::vector<i64> s_cols, s_ptr{0};
      std::vector<std::uint16_t> s_vals;
      for (i64 r = 0; r < n; ++r) {
        for (i64 col = 0; col < n; ++col) {
          bool any = false;
          std::uint16_t sum = 0;
          for (i64 p = ptr[r]; p < ptr[r + 1]; ++p)
            if (cols[p] == col) any = true, sum = static_cast<std::uint16_t>(sum + vals[p]);
          if (any) s_cols.push_back(col), s_vals.push_back(sum);  // explicit zeros stay
        }
        s_ptr.push_back(static_cast<i64>(s_cols.size()));
      }
      sparse::csr s = a.copy();
      s.sum_duplicates();
      EXPECT_EQ(s.index_dtype(), idx());
      CUPP_EXPECT_ARRAY_EQUAL(astype(s.indices(), int64), s_cols);
      CUPP_EXPECT_ARRAY_EQUAL(astype(s.indptr(), int64), s_ptr);
      CUPP_EXPECT_ARRAY_EQUAL(s.data(), astype(asarray(s_vals), vt), {.strict = true});
      EXPECT_TRUE(s.has_canonical_format());
    }
  }
}

INSTANTIATE_TEST_SUITE_P(IndexWidths, SparseIndexPathsGpu, ::testing::Values("int32", "int64"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace cupp
