// The reduction engine's layout-class rule and dimension check (engine/reduce_plan.hpp), which
// every reduction path (ufunc.reduce, where=, argmax, var) takes from one place: columns when
// neighbouring results are neighbours in memory and the reduced elements are not, or when at most
// 16 elements are reduced; rows otherwise; more than 8 collapsed dimensions is a ValueError.
#include <gtest/gtest.h>

#include "cupp/errors.hpp"
#include "engine/reduce_plan.hpp"

namespace cupp {
namespace {

using engine::reduction::dims;
using engine::reduction::layout_class;

TEST(ReduceLayout, ColumnsRowsAndShortReductions) {
  // float32 (4 bytes): a 1000 x 64 C array reduced over axis 0 (results neighbours, reduced rows apart).
  EXPECT_EQ(layout_class(dims{{64}, {4}}, dims{{1000}, {256}}, 4), detail::reduce_class::columns);
  // ... over axis 1 (the reduced elements are neighbours): rows.
  EXPECT_EQ(layout_class(dims{{1000}, {256}}, dims{{64}, {4}}, 4), detail::reduce_class::rows);
  // Fewer than 32 results never take columns for their layout alone ...
  EXPECT_EQ(layout_class(dims{{31}, {4}}, dims{{1000}, {124}}, 4), detail::reduce_class::rows);
  EXPECT_EQ(layout_class(dims{{32}, {4}}, dims{{1000}, {128}}, 4), detail::reduce_class::columns);
  // ... but a short reduction (at most 16 elements) always does, whatever the strides.
  EXPECT_EQ(layout_class(dims{{1000}, {64}}, dims{{16}, {4}}, 4), detail::reduce_class::columns);
  EXPECT_EQ(layout_class(dims{{1000}, {68}}, dims{{17}, {4}}, 4), detail::reduce_class::rows);
  // A whole-array reduction to one result: rows.
  EXPECT_EQ(layout_class(dims{{1}, {0}}, dims{{1 << 20}, {8}}, 8), detail::reduce_class::rows);
}

TEST(ReduceLayout, MoreThanEightDimensionsIsAValueError) {
  dims eight, nine;
  for (int k = 0; k < 9; ++k) {
    if (k < 8) eight.extent.push_back(2), eight.stride.push_back(4 << k);
    nine.extent.push_back(2), nine.stride.push_back(4 << k);
  }
  EXPECT_NO_THROW(engine::reduction::require_kernel_dims(eight, eight));
  EXPECT_THROW(engine::reduction::require_kernel_dims(nine, eight), ValueError);
  EXPECT_THROW(engine::reduction::require_kernel_dims(eight, nine), ValueError);
}

}  // namespace
}  // namespace cupp
