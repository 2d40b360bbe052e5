// Internal: the pieces of the .npy format that the .npy and .npz readers and writers share —
// header parsing and validation, header writing, and turning a file's data (Fortran order,
// big-endian) into a C-order little-endian host_array. No CUDA, so the fuzzer can build it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/host_array.hpp"
#include "cupp/io.hpp"

namespace cupp::io::detail {

inline constexpr std::size_t npy_magic_size = 6;  // "\x93NUMPY"

// What a .npy header says, checked against the file's size.
struct npy_header {
  int major_version = 1;
  cupp::dtype type;          // as stored (the file's dtype, little-endian form)
  bool big_endian = false;   // the file's multi-byte elements are big-endian
  bool fortran_order = false;
  shape_t shape;
  std::uint64_t element_count = 0;
  std::uint64_t data_offset = 0;  // where the data starts in the file
  std::uint64_t data_bytes = 0;   // element_count * itemsize
};

// Bytes needed before the header length is known: magic, version and the length field.
// Returns 0 when `prefix` (the file's first bytes) is too short to tell; throws ValueError for
// a bad magic string or version.
std::size_t npy_preamble_size(std::span<const std::byte> prefix);
// Reads the header from `prefix` (the file's first bytes, at least the whole header) of a file
// of `file_size` bytes. ValueError for anything malformed, or data that the file cannot hold.
npy_header parse_npy_header(std::span<const std::byte> prefix, std::uint64_t file_size, const load_options& options);

// The dtype the loaded array gets: options.dtype when it may reinterpret the file's dtype
// (ValueError otherwise), else the file's.
cupp::dtype result_dtype(const npy_header& header, const load_options& options);
// Copies `data` (header.data_bytes bytes, in the file's order) into `out` (allocated with the
// header's shape and result dtype), transposing Fortran order and swapping big-endian bytes.
void fill_host_array(const npy_header& header, std::span<const std::byte> data, host_array& out);
// In place: big-endian elements of `type` to little-endian (per field for structured dtypes).
void swap_to_little_endian(const cupp::dtype& type, std::span<std::byte> data);

// A whole header (magic, version, length, dict, padding, newline) exactly as numpy.save writes it.
std::vector<std::byte> npy_header_bytes(const cupp::dtype& type, std::span<const std::int64_t> shape, bool fortran_order);

// Gathers elements of `itemsize` bytes into C order over `shape`, reading the element at
// index (i0, ..., in) from src + sum(ik * src_strides[k]) (strides in elements).
void gather_elements(std::span<const std::byte> src, std::span<std::byte> dst, std::span<const std::int64_t> shape,
                     std::span<const std::int64_t> src_strides, std::size_t itemsize);

// Whether text is well-formed UTF-8.
bool valid_utf8(std::string_view text);

// Text for error messages: at most `limit` bytes, non-printable bytes escaped.
std::string printable(std::string_view text, std::size_t limit = 200);

}  // namespace cupp::io::detail
