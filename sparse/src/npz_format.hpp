// Internal to the sparse module: the one member of SciPy's sparse .npz files that cupp's .npy
// code cannot express, `format` (numpy.array(b'csr'), dtype |S3): its bytes, and its text read
// back (|S<n>, or <U<n> as old SciPy wrote it). No GPU needed (the unit tests drive both).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cupp::sparse::detail {

std::vector<std::byte> format_member(std::string_view fmt);
std::string read_format_member(std::span<const std::byte> npy);

}  // namespace cupp::sparse::detail
