// Internal: the constant tables generated from specs/ (dtype properties, promotion, safe casts,
// weak scalars, kernel templates). Defined in generated/src/*.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "cupp/generated/type_id.hpp"

namespace cupp::detail {

struct builtin_dtype_info {
  std::string_view name;
  char char_code;
  char kind;
  std::uint8_t itemsize;
  std::uint8_t alignment;
  int type_num;  // NumPy's type number: ranks dtypes in n-ary promotion
  std::string_view descr;
  std::string_view host_type;
  std::string_view device_type;
};

extern const builtin_dtype_info builtin_dtypes[n_builtin_types];
extern const std::string_view kind_order;  // NumPy's kind order for same_kind casting
extern const std::string_view unsupported_dtype_names[];
extern const std::size_t n_unsupported_dtype_names;

// A named set of dtypes from specs/dtypes.yaml's `groups` (float, integer, number, ...).
struct dtype_group {
  std::string_view name;
  std::span<const type_id> members;
};
extern const dtype_group dtype_groups[];
extern const std::size_t n_dtype_groups;

extern const type_id promotion_table[n_builtin_types][n_builtin_types];
extern const bool safe_cast_table[n_builtin_types][n_builtin_types];
extern const type_id weak_scalar_table[4][n_builtin_types + 1];

inline const builtin_dtype_info& info(type_id id) { return builtin_dtypes[static_cast<int>(id)]; }

// The element-wise kernel template for an arity (empty when no op has that arity).
std::string_view elementwise_kernel_template(int nin, int nout) noexcept;

}  // namespace cupp::detail
