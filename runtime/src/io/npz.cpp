// .npz on host arrays: the members of a ZIP archive read as .npy files (names without ".npy"),
// and archives written member by member like numpy.savez / savez_compressed.
#include <set>
#include <string>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "io/file_io.hpp"
#include "io/npy_format.hpp"
#include "io/zip.hpp"

namespace cupp::io {

namespace {

constexpr std::string_view npy_suffix = ".npy";

bool is_npy_member(std::string_view name) {
  return name.size() > npy_suffix.size() && name.substr(name.size() - npy_suffix.size()) == npy_suffix;
}

void write_members(detail::byte_sink& sink, std::span<const named_host_array> arrays, compression method) {
  detail::zip_writer zip(sink);
  for (const auto& [name, array] : arrays) zip.add(name + std::string(npy_suffix), write_npy(array), method);
  zip.finish();
}

}  // namespace

std::vector<named_host_array> read_npz(std::span<const std::byte> file, const load_options& options) {
  std::vector<named_host_array> out;
  std::set<std::string, std::less<>> seen;
  detail::read_zip(
      file, {}, [](std::string_view name) { return is_npy_member(name); },
      [&](std::string_view member, std::span<const std::byte> data) {
        std::string name(member.substr(0, member.size() - npy_suffix.size()));
        if (!seen.insert(name).second)
          throw ValueError("cannot read .npz archive: the member '" + detail::printable(member, 100) + "' appears twice");
        try {
          out.emplace_back(std::move(name), read_npy(data, options));
        } catch (const ValueError& e) {
          throw ValueError("member '" + detail::printable(member, 100) + "' of the .npz archive: " + e.what());
        }
      });
  return out;
}

std::vector<std::byte> write_npz(std::span<const named_host_array> arrays, compression method) {
  detail::buffer_sink sink;
  write_members(sink, arrays, method);
  return sink.take();
}

std::vector<named_host_array> load_npz(const std::filesystem::path& path, const load_options& options) {
  detail::file_source file(path);
  return read_npz(file.read_all(), options);
}

void save_npz(const std::filesystem::path& path, std::span<const named_host_array> arrays, compression method) {
  detail::file_sink sink(path);
  write_members(sink, arrays, method);
  sink.close();
}

}  // namespace cupp::io
