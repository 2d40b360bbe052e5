// NumPy's file formats: .npy (one array) and .npz (a ZIP archive of .npy files, stored or
// deflated). cupp::load / save / savez / savez_compressed work on device arrays; the
// cupp::io functions underneath work on host_array and byte buffers, need no GPU, and are what
// the tests and the fuzzer drive. Every reader is memory-safe on any input: a truncated,
// corrupt or hostile file throws cupp::ValueError saying why. docs/io.md is the user guide.
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/host_array.hpp"
#include "cupp/ndarray.hpp"

namespace cupp {

struct load_options {
  // Reinterpret the data as this dtype. Allowed when it is the file's dtype, or when the file
  // holds raw bytes of the same size: a void dtype ('<V2' -> bfloat16, as NumPy writes
  // bfloat16), or a structured dtype whose void fields become typed fields of the same size.
  // Anything else is a ValueError (load does not cast).
  std::optional<cupp::dtype> dtype;
  // NumPy's max_header_size: a larger .npy header is refused (a guard against hostile files
  // whose dtype description would take long to parse). Raise it for trusted files with very
  // many structured fields.
  std::size_t max_header_size = 10000;
};

struct save_options {
  // Write an array that is Fortran-contiguous (and not C-contiguous) with fortran_order=True,
  // as numpy.save does. Default: always C order.
  bool fortran_order = false;
};

// An archive's arrays by name (the member name without ".npy").
using npz_file = std::map<std::string, ndarray>;

// ---- device arrays
// A .npy file as a device array. A .npz file is a ValueError here (use load_npz).
ndarray load(const std::filesystem::path& path, const load_options& options = {});
// A .npz archive (or a single .npy, under its file stem) as arrays on the device.
npz_file load_npz(const std::filesystem::path& path, const load_options& options = {});
void save(const std::filesystem::path& path, const ndarray& array, const save_options& options = {});
// Member names get ".npy" appended, as numpy.savez does; order is kept.
void savez(const std::filesystem::path& path, const std::vector<std::pair<std::string, ndarray>>& arrays);
void savez_compressed(const std::filesystem::path& path, const std::vector<std::pair<std::string, ndarray>>& arrays);

// ---- host arrays and bytes (no GPU)
namespace io {

using named_host_array = std::pair<std::string, host_array>;

struct npy_write_options {
  // Write the data in Fortran order with fortran_order=True (the host_array is C order; it is
  // transposed on the way). Arrays of fewer than 2 dimensions are written as C order.
  bool fortran_order = false;
};

enum class compression { stored, deflated };

// The bytes of a .npy file -> host_array (C order, little-endian). Trailing bytes after the
// data are ignored, as numpy.load ignores them.
host_array read_npy(std::span<const std::byte> file, const load_options& options = {});
// host_array -> the bytes of a .npy file exactly as numpy.save writes them (format 1.0, or 2.0
// for headers over 64 KiB, 3.0 for field names outside latin-1).
std::vector<std::byte> write_npy(const host_array& array, const npy_write_options& options = {});

// The members of a .npz archive, in archive order, names without ".npy". Members whose name
// does not end in ".npy" (and directories) are skipped.
std::vector<named_host_array> read_npz(std::span<const std::byte> file, const load_options& options = {});
// A .npz archive of the arrays (".npy" appended to each name), as numpy.savez /
// savez_compressed write it.
std::vector<std::byte> write_npz(std::span<const named_host_array> arrays, compression method = compression::stored);

// Files. Reading checks sizes against the file before allocating. I/O failures (missing
// file, unwritable path) throw cupp::Error naming the path and the reason.
host_array load_npy(const std::filesystem::path& path, const load_options& options = {});
std::vector<named_host_array> load_npz(const std::filesystem::path& path, const load_options& options = {});
void save_npy(const std::filesystem::path& path, const host_array& array, const npy_write_options& options = {});
void save_npz(const std::filesystem::path& path, std::span<const named_host_array> arrays,
              compression method = compression::stored);

}  // namespace io
}  // namespace cupp
