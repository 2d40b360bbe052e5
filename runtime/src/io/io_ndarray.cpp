// cupp::load / load_npz / save / savez / savez_compressed: the .npy/.npz functions for device
// arrays, on top of the host-array readers and writers (downloads and uploads through
// ndarray::get and cupp::asarray). Paths get ".npy"/".npz" appended when missing, as NumPy does.
#include <array>
#include <cstring>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/ndarray.hpp"
#include "io/file_io.hpp"
#include "io/npy_format.hpp"
#include "io/zip.hpp"

namespace cupp {

namespace {

enum class file_kind { npy, zip, other };

file_kind kind_of(const std::filesystem::path& path) {
  io::detail::file_source file(path);
  std::array<std::byte, 6> magic{};
  if (file.size() < magic.size()) return file_kind::other;
  file.read_at(0, magic);
  if (std::memcmp(magic.data(), "\x93NUMPY", 6) == 0) return file_kind::npy;
  if (std::memcmp(magic.data(), "PK\x03\x04", 4) == 0 || std::memcmp(magic.data(), "PK\x05\x06", 4) == 0)
    return file_kind::zip;
  return file_kind::other;
}

std::filesystem::path with_suffix(const std::filesystem::path& path, const char* suffix) {
  if (path.extension() == suffix) return path;
  std::filesystem::path out = path;
  out += suffix;
  return out;
}

void write_archive(const std::filesystem::path& path, const std::vector<std::pair<std::string, ndarray>>& arrays,
                   io::compression method) {
  io::detail::file_sink sink(with_suffix(path, ".npz"));
  io::detail::zip_writer zip(sink);
  for (const auto& [name, array] : arrays) zip.add(name + ".npy", io::write_npy(array.get()), method);
  zip.finish();
  sink.close();
}

}  // namespace

ndarray load(const std::filesystem::path& path, const load_options& options) {
  if (kind_of(path) == file_kind::zip)
    throw ValueError("cupp::load: '" + path.string() + "' is a .npz archive; use cupp::load_npz");
  return asarray(io::load_npy(path, options));
}

npz_file load_npz(const std::filesystem::path& path, const load_options& options) {
  npz_file out;
  if (kind_of(path) == file_kind::npy) {
    out.emplace(path.stem().string(), asarray(io::load_npy(path, options)));
    return out;
  }
  for (auto& [name, host] : io::load_npz(path, options)) out.emplace(name, asarray(host));
  return out;
}

void save(const std::filesystem::path& path, const ndarray& array, const save_options& options) {
  const std::filesystem::path target = with_suffix(path, ".npy");
  if (options.fortran_order && array.ndim() >= 2 && array.is_f_contiguous() && !array.is_c_contiguous()) {
    // The transpose of a Fortran-ordered array is C-ordered: its download is the file's data.
    const host_array data = array.T().get();
    io::detail::file_sink file(target);
    file.write(io::detail::npy_header_bytes(array.dtype(), array.shape(), true));
    file.write(data.bytes());
    file.close();
    return;
  }
  io::save_npy(target, array.get());
}

void savez(const std::filesystem::path& path, const std::vector<std::pair<std::string, ndarray>>& arrays) {
  write_archive(path, arrays, io::compression::stored);
}

void savez_compressed(const std::filesystem::path& path, const std::vector<std::pair<std::string, ndarray>>& arrays) {
  write_archive(path, arrays, io::compression::deflated);
}

}  // namespace cupp
