// scipy.sparse.save_npz / load_npz: SciPy's layout of a sparse object in a .npz archive (members
// indices, indptr or row, col; format as a |S3 bytes scalar; shape; data; _is_array), written and
// read through cupp's .npy/.npz code (runtime/src/io). The format member is the one .npy cupp's
// dtypes cannot hold (bytes): it is written and read here.
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "cupp/sparse.hpp"
#include "io/file_io.hpp"
#include "io/zip.hpp"
#include "npz_format.hpp"

namespace cupp::sparse {

namespace detail {

// The .npy bytes of numpy.array(b'<fmt>') (dtype |S3, shape ()).
std::vector<std::byte> format_member(std::string_view fmt) {
  host_array h(cupp::dtype::void_(fmt.size()), shape_t{});
  std::memcpy(h.data(), fmt.data(), fmt.size());
  std::vector<std::byte> bytes = io::write_npy(h);
  const std::string from = "'|V" + std::to_string(fmt.size()) + "'", to = "'|S" + std::to_string(fmt.size()) + "'";
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  const std::size_t at = text.find(from);
  if (at == std::string_view::npos) throw ValueError("save_npz: unexpected .npy header for the format member");
  std::memcpy(bytes.data() + at, to.data(), to.size());
  return bytes;
}

// The text of a bytes or str scalar .npy (SciPy's format member: |S3, or <U3 from old files).
std::string read_format_member(std::span<const std::byte> data) {
  const auto bad = [] { return ValueError("load_npz: the format member is not a bytes or str scalar"); };
  if (data.size() < 10 || std::memcmp(data.data(), "\x93NUMPY", 6) != 0) throw bad();
  const auto byte = [&](std::size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(data[i])); };
  const int major = static_cast<int>(byte(6));
  std::size_t header_len = 0, start = 0;
  if (major == 1) {
    header_len = byte(8) | (byte(9) << 8), start = 10;
  } else {
    if (data.size() < 12) throw bad();
    header_len = byte(8) | (byte(9) << 8) | (byte(10) << 16) | (byte(11) << 24), start = 12;
  }
  if (start + header_len > data.size()) throw bad();
  const std::string_view header(reinterpret_cast<const char*>(data.data()) + start, header_len);
  const std::size_t key = header.find("'descr':");
  if (key == std::string_view::npos) throw bad();
  const std::size_t q1 = header.find('\'', key + 8);
  const std::size_t q2 = q1 == std::string_view::npos ? q1 : header.find('\'', q1 + 1);
  if (q2 == std::string_view::npos) throw bad();
  std::string_view descr = header.substr(q1 + 1, q2 - q1 - 1);
  if (!descr.empty() && (descr[0] == '|' || descr[0] == '<' || descr[0] == '>' || descr[0] == '=')) descr.remove_prefix(1);
  if (descr.size() < 2 || (descr[0] != 'S' && descr[0] != 'U')) throw bad();
  const std::size_t n = std::stoul(std::string(descr.substr(1)));
  const std::size_t width = descr[0] == 'U' ? 4 : 1;
  const std::size_t offset = start + header_len;
  if (offset + n * width > data.size()) throw bad();
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = static_cast<char>(data[offset + i * width]);
    if (c == '\0') break;
    out.push_back(c);
  }
  return out;
}

}  // namespace detail

namespace {

host_array shape_host(shape2 s) {
  const std::vector<std::int64_t> v{s[0], s[1]};
  return host_array::from(std::span<const std::int64_t>(v));
}

host_array true_scalar() {
  host_array h(bool_, shape_t{});
  const bool t = true;
  std::memcpy(h.data(), &t, 1);
  return h;
}

void write(const std::filesystem::path& path_in, const std::vector<std::pair<std::string, host_array>>& before,
           std::string_view fmt, shape2 shape, const ndarray& data, bool is_array, bool compressed) {
  std::filesystem::path path = path_in;
  if (path.extension() != ".npz") path += ".npz";  // numpy.savez appends it
  const io::compression method = compressed ? io::compression::deflated : io::compression::stored;
  io::detail::file_sink sink(path);
  io::detail::zip_writer zip(sink);
  for (const auto& [name, h] : before) zip.add(name + ".npy", io::write_npy(h), method);
  zip.add("format.npy", detail::format_member(fmt), method);
  zip.add("shape.npy", io::write_npy(shape_host(shape)), method);
  zip.add("data.npy", io::write_npy(data.get()), method);
  if (is_array) zip.add("_is_array.npy", io::write_npy(true_scalar()), method);
  zip.finish();
  sink.close();
}

std::int64_t shape_value(const host_array& h, std::size_t i) {
  if (h.dtype() == int64) return h.to_vector<std::int64_t>().at(i);
  if (h.dtype() == int32) return h.to_vector<std::int32_t>().at(i);
  throw ValueError("load_npz: the shape member must be int32 or int64");
}

}  // namespace

void save_npz(const std::filesystem::path& path, const csr& a, bool compressed) {
  write(path, {{"indices", a.indices().get()}, {"indptr", a.indptr().get()}}, "csr", a.shape(), a.data(), a.is_array(),
        compressed);
}

void save_npz(const std::filesystem::path& path, const csc& a, bool compressed) {
  write(path, {{"indices", a.indices().get()}, {"indptr", a.indptr().get()}}, "csc", a.shape(), a.data(), a.is_array(),
        compressed);
}

void save_npz(const std::filesystem::path& path, const coo& a, bool compressed) {
  write(path, {{"row", a.row().get()}, {"col", a.col().get()}}, "coo", a.shape(), a.data(), a.is_array(), compressed);
}

void save_npz(const std::filesystem::path& path, const dia& a, bool compressed) {
  write(path, {{"offsets", a.offsets().get()}}, "dia", a.shape(), a.data(), a.is_array(), compressed);
}

loaded_npz load_npz(const std::filesystem::path& path) {
  io::detail::file_source file(path);
  const std::vector<std::byte> bytes = file.read_all();
  std::optional<std::string> fmt;
  std::vector<std::pair<std::string, host_array>> members;
  io::detail::read_zip(
      bytes, {}, [](std::string_view name) { return name.size() > 4 && name.substr(name.size() - 4) == ".npy"; },
      [&](std::string_view member, std::span<const std::byte> data) {
        const std::string name(member.substr(0, member.size() - 4));
        if (name == "format") fmt = detail::read_format_member(data);
        else members.emplace_back(name, io::read_npy(data));
      });
  if (!fmt) throw ValueError("The file " + path.string() + " does not contain a sparse array or matrix.");
  const auto get = [&](const char* name) -> const host_array* {
    for (const auto& [n, h] : members)
      if (n == name) return &h;
    return nullptr;
  };
  const auto need = [&](const char* name) -> ndarray {
    const host_array* h = get(name);
    if (!h) throw ValueError("load_npz: the file has no '" + std::string(name) + "' member");
    return asarray(*h);
  };
  const host_array* is_array_h = get("_is_array");
  const bool is_array = is_array_h && is_array_h->size() == 1 && is_array_h->item<bool>();
  const sparse::kind k = is_array ? kind::array : kind::matrix;
  const host_array* shape_h = get("shape");
  if (!shape_h || shape_h->size() != 2) throw ValueError("load_npz: the shape member must hold 2 values");
  const shape2 shape{shape_value(*shape_h, 0), shape_value(*shape_h, 1)};
  loaded_npz out;
  if (*fmt == "csr" || *fmt == "csc") {
    const ndarray data = need("data"), indices = need("indices"), indptr = need("indptr");
    if (*fmt == "csr") {
      out.fmt = format::csr;
      out.csr_value = csr(data, indices, indptr, options{.shape = shape}).with_kind(k);
    } else {
      out.fmt = format::csc;
      out.csc_value = csc(data, indices, indptr, options{.shape = shape}).with_kind(k);
    }
  } else if (*fmt == "coo") {
    const ndarray data = need("data");
    ndarray row, col;
    if (get("row")) {
      row = need("row"), col = need("col");
    } else {
      const ndarray both = need("coords");
      if (both.ndim() != 2 || both.shape(0) != 2) throw ValueError("load_npz: only 2-D coo files are supported");
      row = both(0).copy(), col = both(1).copy();
    }
    out.fmt = format::coo;
    out.coo_value = coo(data, coords{row, col}, options{.shape = shape}).with_kind(k);
  } else if (*fmt == "dia") {
    out.fmt = format::dia;
    out.dia_value = dia(need("data"), need("offsets"), shape).with_kind(k);
  } else {
    throw ValueError("load_npz: format '" + *fmt + "' is not supported by cupp yet (csr, csc, coo and dia are)");
  }
  return out;
}

csr loaded_npz::tocsr() const {
  if (csr_value) return *csr_value;
  if (csc_value) return csc_value->tocsr();
  if (coo_value) return coo_value->tocsr();
  if (dia_value) return dia_value->tocsr();
  throw ValueError("loaded_npz: empty");
}

}  // namespace cupp::sparse
