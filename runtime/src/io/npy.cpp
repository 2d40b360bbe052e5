// .npy on host arrays: read_npy/write_npy on byte buffers, load_npy/save_npy on files (data
// read straight into the host_array after the header has been checked against the file size).
#include <algorithm>
#include <string>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "io/file_io.hpp"
#include "io/npy_format.hpp"

namespace cupp::io {

namespace {

// The array's data in Fortran order: C order over the reversed shape, reading with the
// reversed C strides.
std::vector<std::byte> fortran_ordered(const host_array& a) {
  const std::size_t n = a.shape().size();
  std::vector<std::int64_t> shape(n), strides(n);
  std::int64_t stride = 1;
  for (std::size_t k = n; k-- > 0;) {
    shape[n - 1 - k] = a.shape()[k];
    strides[n - 1 - k] = stride;
    stride *= a.shape()[k];
  }
  std::vector<std::byte> out(a.nbytes());
  detail::gather_elements(a.bytes(), out, shape, strides, a.dtype().itemsize());
  return out;
}

bool write_fortran(const host_array& a, const npy_write_options& options) { return options.fortran_order && a.ndim() >= 2; }

}  // namespace

host_array read_npy(std::span<const std::byte> file, const load_options& options) {
  const detail::npy_header header = detail::parse_npy_header(file, file.size(), options);
  host_array out(detail::result_dtype(header, options), header.shape);
  detail::fill_host_array(header, file.subspan(static_cast<std::size_t>(header.data_offset)), out);
  return out;
}

std::vector<std::byte> write_npy(const host_array& array, const npy_write_options& options) {
  const bool fortran = write_fortran(array, options);
  std::vector<std::byte> out = detail::npy_header_bytes(array.dtype(), array.shape(), fortran);
  if (fortran) {
    const std::vector<std::byte> data = fortran_ordered(array);
    out.insert(out.end(), data.begin(), data.end());
  } else {
    out.insert(out.end(), array.bytes().begin(), array.bytes().end());
  }
  return out;
}

host_array load_npy(const std::filesystem::path& path, const load_options& options) {
  detail::file_source file(path);
  // The preamble, then as much of the header as the limit allows (parse_npy_header says why a
  // longer one is refused).
  std::vector<std::byte> prefix(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), 12)));
  file.read_at(0, prefix);
  const std::size_t preamble = detail::npy_preamble_size(prefix);
  if (preamble != 0 && prefix.size() >= preamble) {
    std::uint64_t header_length = 0;
    for (std::size_t i = 8; i < preamble; ++i) header_length |= std::uint64_t(std::to_integer<unsigned>(prefix[i])) << (8 * (i - 8));
    const std::uint64_t wanted = preamble + std::min<std::uint64_t>(header_length, options.max_header_size + 1);
    prefix.resize(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), wanted)));
    file.read_at(0, prefix);
  }
  const detail::npy_header header = detail::parse_npy_header(prefix, file.size(), options);
  host_array out(detail::result_dtype(header, options), header.shape);
  if (header.fortran_order && header.shape.size() >= 2) {
    std::vector<std::byte> data(static_cast<std::size_t>(header.data_bytes));
    file.read_at(header.data_offset, data);
    detail::fill_host_array(header, data, out);
  } else {
    std::span<std::byte> data(out.data(), out.nbytes());
    file.read_at(header.data_offset, data);
    if (header.big_endian) detail::swap_to_little_endian(header.type, data);
  }
  return out;
}

void save_npy(const std::filesystem::path& path, const host_array& array, const npy_write_options& options) {
  const bool fortran = write_fortran(array, options);
  detail::file_sink file(path);
  file.write(detail::npy_header_bytes(array.dtype(), array.shape(), fortran));
  if (fortran)
    file.write(fortran_ordered(array));
  else
    file.write(array.bytes());
  file.close();
}

}  // namespace cupp::io
