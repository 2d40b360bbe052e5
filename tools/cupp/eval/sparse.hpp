// cupp eval: the sparse module's host-side rules that need no GPU, for sparse.cpp and its unit
// tests: SciPy's messages for a matmul whose shapes do not fit, and the format names eval takes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cupp::eval {

// What SciPy 1.18 raises (ValueError) for S @ D (dense_on_left false) or D @ S (true), S of
// shape `sparse_shape` and D a dense array of shape `dense_shape`; nullopt when they fit.
//   "Scalar operands are not allowed, use '*' instead"                 (a 0-d D)
//   "matmul: dimension mismatch with signature (n,k=5),(k=4,1?)->(n,1?)" (a vector, (K,) or (K, 1))
//   "matmul: dimension mismatch with signature (n,k=5),(k=4,m)->(n,m)"   (a 2-D D, or S @ sparse)
//   "could not interpret dimensions"                                   (D with more than 2 axes)
// D @ S is SciPy's (S.T @ D.T).T, so its message names S.T's columns and D.T's rows.
std::optional<std::string> sparse_matmul_error(std::array<std::int64_t, 2> sparse_shape,
                                               std::span<const std::int64_t> dense_shape, bool dense_on_left);

// SciPy's format= for the formats cupp eval's sparse values take: "csr", "csc", "coo"; ValueError
// for another (SciPy's "dia", "lil", "dok", "bsr" are not cupp eval values; anything else is
// SciPy's "unrecognized format"). `fallback` stands for None.
std::string sparse_format_name(std::optional<std::string_view> format, std::string_view fallback,
                               std::string_view routine);

}  // namespace cupp::eval
