// The .npy format's header: a strict parser of the Python-literal dict NumPy writes
// ({'descr': ..., 'fortran_order': ..., 'shape': (...), }), validation of what it says against
// the file's size, the header writer (byte for byte as numpy.save), and the data fix-ups on
// read (Fortran order to C order, big-endian to little-endian, dtype reinterpretation).
#include "io/npy_format.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "cupp/errors.hpp"
#include "core/python_literal.hpp"

namespace cupp::io::detail {

namespace {

using literal = cupp::detail::python_literal;
using cupp::detail::append_utf8;

constexpr unsigned char npy_magic[npy_magic_size] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
constexpr std::size_t array_align = 64;        // numpy.lib.format.ARRAY_ALIGN
constexpr std::size_t growth_axis_digits = 21;  // numpy.lib.format.GROWTH_AXIS_MAX_DIGITS
constexpr int max_dims = 64;

[[noreturn]] void fail(const std::string& what) { throw ValueError("cannot read .npy data: " + what); }

std::uint64_t read_le(std::span<const std::byte> bytes, std::size_t offset, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < width; ++i) v |= std::uint64_t(std::to_integer<unsigned>(bytes[offset + i])) << (8 * i);
  return v;
}

// ---- text encodings -------------------------------------------------------------------------

// Decodes UTF-8 into code points; nullopt for invalid UTF-8 (overlong forms, surrogates,
// truncated sequences, values past U+10FFFF).
std::optional<std::vector<std::uint32_t>> decode_utf8(std::string_view text) {
  std::vector<std::uint32_t> out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    int extra;
    std::uint32_t cp;
    if (b0 < 0x80) {
      extra = 0, cp = b0;
    } else if (b0 >= 0xC2 && b0 <= 0xDF) {
      extra = 1, cp = b0 & 0x1F;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      extra = 2, cp = b0 & 0x0F;
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      extra = 3, cp = b0 & 0x07;
    } else {
      return std::nullopt;
    }
    if (text.size() - i - 1 < static_cast<std::size_t>(extra)) return std::nullopt;
    for (int k = 1; k <= extra; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return std::nullopt;
      cp = (cp << 6) | (b & 0x3F);
    }
    if ((extra == 2 && cp < 0x800) || (extra == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
      return std::nullopt;
    out.push_back(cp);
    i += 1 + extra;
  }
  return out;
}

// The header's text as UTF-8: versions 1 and 2 are latin-1, version 3 is UTF-8.
std::string header_text(std::span<const std::byte> raw, int major) {
  std::string text;
  text.reserve(raw.size());
  if (major == 3) {
    text.assign(reinterpret_cast<const char*>(raw.data()), raw.size());
    if (!decode_utf8(text)) fail("the format 3.0 header is not valid UTF-8");
  } else {
    for (const std::byte b : raw) append_utf8(text, std::to_integer<std::uint32_t>(b));
  }
  return text;
}

std::string shape_repr(std::span<const std::int64_t> shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i != 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

// How the bytes of one element are swapped: `count` units of `unit` bytes from `offset`.
struct swap_run {
  std::size_t offset, unit, count;
};

void collect_swaps(const cupp::dtype& type, std::size_t base, std::vector<swap_run>& runs) {
  if (type.is_structured()) {
    for (const field& f : type.fields()) collect_swaps(f.type, base + f.offset, runs);
    return;
  }
  if (!type.is_builtin() || type.itemsize() <= 1) return;  // void: raw bytes
  if (type.is_complex())
    runs.push_back({base, type.itemsize() / 2, 2});
  else
    runs.push_back({base, type.itemsize(), 1});
}

// Whether data of dtype `stored` may be read as `wanted` (same bytes, no conversion).
bool reinterpretable(const cupp::dtype& stored, const cupp::dtype& wanted) {
  if (stored == wanted) return true;
  if (stored.itemsize() != wanted.itemsize()) return false;
  if (stored.id() == type_id::void_) return true;
  if (!stored.is_structured() || !wanted.is_structured()) return false;
  const auto a = stored.fields();
  const auto b = wanted.fields();
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].name != b[i].name || a[i].offset != b[i].offset || !reinterpretable(a[i].type, b[i].type)) return false;
  return true;
}

}  // namespace

bool valid_utf8(std::string_view text) { return decode_utf8(text).has_value(); }

std::string printable(std::string_view text, std::size_t limit) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != 0x7F) {
      out += static_cast<char>(c);
    } else {
      static constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

std::size_t npy_preamble_size(std::span<const std::byte> prefix) {
  const std::size_t magic_checked = std::min(prefix.size(), npy_magic_size);
  for (std::size_t i = 0; i < magic_checked; ++i)
    if (std::to_integer<unsigned char>(prefix[i]) != npy_magic[i])
      fail("not a .npy file (the file does not start with \"\\x93NUMPY\")");
  if (prefix.size() < npy_magic_size + 2) return 0;
  const int major = std::to_integer<int>(prefix[6]);
  const int minor = std::to_integer<int>(prefix[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0)
    fail("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
         " (cupp reads 1.0, 2.0 and 3.0)");
  return npy_magic_size + 2 + (major == 1 ? 2 : 4);
}

npy_header parse_npy_header(std::span<const std::byte> prefix, std::uint64_t file_size, const load_options& options) {
  if (prefix.size() > file_size) prefix = prefix.first(static_cast<std::size_t>(file_size));
  const std::size_t preamble = npy_preamble_size(prefix);
  if (preamble == 0 || prefix.size() < preamble)
    fail("the file is truncated (" + std::to_string(file_size) + " bytes): no complete .npy preamble");
  npy_header header;
  header.major_version = std::to_integer<int>(prefix[6]);
  const std::uint64_t header_length = read_le(prefix, 8, preamble - 8);
  if (header_length > options.max_header_size)
    fail("the header is " + std::to_string(header_length) + " bytes, more than max_header_size (" +
         std::to_string(options.max_header_size) + ")");
  if (header_length > file_size - preamble || header_length > prefix.size() - preamble)
    fail("the file is truncated: the header says it is " + std::to_string(header_length) + " bytes, but the file has " +
         std::to_string(file_size - preamble) + " after the preamble");
  const std::string text = header_text(prefix.subspan(preamble, static_cast<std::size_t>(header_length)), header.major_version);

  literal dict;
  try {
    dict = cupp::detail::parse_python_literal(text);
  } catch (const cupp::detail::python_literal_error& e) {
    fail(std::string("malformed header (") + e.what() + " at offset " + std::to_string(e.position()) + "): " +
         printable(text));
  }
  if (dict.what != literal::kind::dict) fail("the header is not a dict: " + printable(text));
  const literal* descr = nullptr;
  const literal* fortran = nullptr;
  const literal* shape = nullptr;
  for (std::size_t i = 0; i < dict.items.size(); i += 2) {
    const literal& key = dict.items[i];
    const literal** slot = nullptr;
    if (key.what == literal::kind::string) {
      if (key.text == "descr") slot = &descr;
      else if (key.text == "fortran_order") slot = &fortran;
      else if (key.text == "shape") slot = &shape;
    }
    if (slot == nullptr) fail("the header has the unexpected key " + printable(key.source, 60) + ": " + printable(text));
    if (*slot != nullptr) fail("the header repeats the key '" + key.text + "': " + printable(text));
    *slot = &dict.items[i + 1];
  }
  if (descr == nullptr || fortran == nullptr || shape == nullptr)
    fail("the header does not have the keys 'descr', 'fortran_order' and 'shape': " + printable(text));

  // descr: a type string, or a list of fields (interpreted by cupp's descriptor parser).
  parsed_descr parsed;
  if (descr->what == literal::kind::string)
    parsed = parse_descr(descr->text);
  else if (descr->what == literal::kind::list)
    parsed = parse_descr(descr->source);
  else if (descr->what == literal::kind::tuple)
    throw ValueError("Unsupported dtype " + printable(descr->source, 100) + " in .npy header (subarray dtypes are not supported)");
  else
    fail("'descr' is neither a string nor a list of fields: " + printable(descr->source, 100));
  header.type = parsed.type;
  header.big_endian = parsed.big_endian;

  if (fortran->what != literal::kind::boolean) fail("'fortran_order' is not True or False: " + printable(fortran->source, 60));
  header.fortran_order = fortran->integer != 0;

  if (shape->what != literal::kind::tuple) fail("'shape' is not a tuple of integers: " + printable(shape->source, 100));
  if (shape->items.size() > static_cast<std::size_t>(max_dims))
    fail("'shape' has " + std::to_string(shape->items.size()) + " dimensions; at most " + std::to_string(max_dims) +
         " are supported");
  // Element count, with overflow checks over the non-zero dimensions (as NumPy does).
  const std::uint64_t itemsize = header.type.itemsize();
  const std::uint64_t max_bytes = std::uint64_t(std::numeric_limits<std::int64_t>::max());
  std::uint64_t nonzero_product = 1;
  bool has_zero = false;
  for (const literal& dim : shape->items) {
    if (dim.what != literal::kind::integer) fail("'shape' holds something other than integers: " + printable(shape->source, 100));
    if (dim.negative && dim.integer != 0) fail("'shape' has a negative dimension: " + printable(shape->source, 100));
    header.shape.push_back(dim.integer);
    const auto d = static_cast<std::uint64_t>(dim.integer);
    if (d == 0) {
      has_zero = true;
      continue;
    }
    if (nonzero_product > max_bytes / d || nonzero_product * d > max_bytes / itemsize)
      fail("the shape " + printable(shape->source, 100) + " of " + header.type.name() + " is too large");
    nonzero_product *= d;
  }
  header.element_count = has_zero ? 0 : nonzero_product;
  header.data_offset = preamble + header_length;
  header.data_bytes = header.element_count * itemsize;
  if (header.data_bytes > file_size - header.data_offset)
    fail("the file is truncated: shape " + shape_repr(header.shape) + " of " + header.type.name() + " needs " +
         std::to_string(header.data_bytes) + " bytes of data, the file has " +
         std::to_string(file_size - header.data_offset));
  return header;
}

cupp::dtype result_dtype(const npy_header& header, const load_options& options) {
  if (!options.dtype || *options.dtype == header.type) return header.type;
  if (!reinterpretable(header.type, *options.dtype))
    throw ValueError("cannot load .npy data of dtype " + header.type.name() + " as " + options.dtype->name() +
                     ": load reinterprets only raw bytes (void data, such as '<V2' as bfloat16) of the same size");
  return *options.dtype;
}

void gather_elements(std::span<const std::byte> src, std::span<std::byte> dst, std::span<const std::int64_t> shape,
                     std::span<const std::int64_t> src_strides, std::size_t itemsize) {
  const std::size_t ndim = shape.size();
  std::size_t count = 1;
  for (const std::int64_t d : shape) count *= static_cast<std::size_t>(d);
  if (count == 0) return;
  std::vector<std::int64_t> index(ndim, 0);
  std::int64_t offset = 0;  // in elements
  for (std::size_t n = 0; n < count; ++n) {
    std::memcpy(dst.data() + n * itemsize, src.data() + static_cast<std::size_t>(offset) * itemsize, itemsize);
    for (std::size_t k = ndim; k-- > 0;) {
      offset += src_strides[k];
      if (++index[k] < shape[k]) break;
      offset -= src_strides[k] * shape[k];
      index[k] = 0;
    }
  }
}

void swap_to_little_endian(const cupp::dtype& type, std::span<std::byte> data) {
  std::vector<swap_run> runs;
  collect_swaps(type, 0, runs);
  const std::size_t itemsize = type.itemsize();
  if (runs.empty() || itemsize == 0) return;
  for (std::size_t at = 0; at + itemsize <= data.size(); at += itemsize)
    for (const swap_run& run : runs)
      for (std::size_t u = 0; u < run.count; ++u) {
        std::byte* p = data.data() + at + run.offset + u * run.unit;
        std::reverse(p, p + run.unit);
      }
}

void fill_host_array(const npy_header& header, std::span<const std::byte> data, host_array& out) {
  std::span<std::byte> dst(out.data(), out.nbytes());
  if (data.size() < header.data_bytes || dst.size() != header.data_bytes)
    throw ValueError("cannot read .npy data: internal size mismatch");
  if (header.fortran_order && header.shape.size() >= 2) {
    // Element (i0, ..., in) of Fortran-ordered data is at sum(ik * prod(d0..dk-1)).
    std::vector<std::int64_t> strides(header.shape.size());
    std::int64_t stride = 1;
    for (std::size_t k = 0; k < header.shape.size(); ++k) {
      strides[k] = stride;
      stride *= header.shape[k];
    }
    gather_elements(data, dst, header.shape, strides, header.type.itemsize());
  } else if (!dst.empty()) {
    std::memcpy(dst.data(), data.data(), dst.size());
  }
  if (header.big_endian) swap_to_little_endian(header.type, dst);
}

std::vector<std::byte> npy_header_bytes(const cupp::dtype& type, std::span<const std::int64_t> shape, bool fortran_order) {
  const std::string descr = type.is_structured() ? type.descr() : "'" + type.descr() + "'";
  std::string dict = "{'descr': " + descr + ", 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + shape_repr(shape) + ", }";
  // Room for the growing axis' length to gain digits in place (numpy.lib.format does this).
  if (!shape.empty()) {
    const std::size_t digits = std::to_string(shape[fortran_order ? shape.size() - 1 : 0]).size();
    if (digits < growth_axis_digits) dict.append(growth_axis_digits - digits, ' ');
  }
  // latin-1 when every character fits (formats 1.0 and 2.0), else UTF-8 (format 3.0).
  const auto code_points = decode_utf8(dict);
  if (!code_points) throw ValueError("cannot write .npy: a field name is not valid UTF-8");
  const bool latin1 = std::all_of(code_points->begin(), code_points->end(), [](std::uint32_t cp) { return cp < 256; });
  std::string encoded;
  if (latin1) {
    for (const std::uint32_t cp : *code_points) encoded += static_cast<char>(cp);
  } else {
    encoded = dict;
  }
  const std::size_t text_length = encoded.size() + 1;  // with the final newline
  auto padding = [&](std::size_t length_field) {
    return array_align - (npy_magic_size + 2 + length_field + text_length) % array_align;
  };
  int major = latin1 ? 1 : 3;
  if (major == 1 && text_length + padding(2) > 0xFFFF) major = 2;
  const std::size_t length_field = major == 1 ? 2 : 4;
  const std::size_t pad = padding(length_field);
  const std::uint64_t header_length = text_length + pad;
  if (header_length > 0xFFFFFFFFull) throw ValueError("cannot write .npy: the header is too large");

  std::vector<std::byte> out;
  out.reserve(npy_magic_size + 2 + length_field + header_length);
  for (const unsigned char c : npy_magic) out.push_back(std::byte{c});
  out.push_back(std::byte(major));
  out.push_back(std::byte{0});
  for (std::size_t i = 0; i < length_field; ++i) out.push_back(std::byte((header_length >> (8 * i)) & 0xFF));
  for (const char c : encoded) out.push_back(static_cast<std::byte>(c));
  out.insert(out.end(), pad, std::byte{' '});
  out.push_back(std::byte{'\n'});
  return out;
}

}  // namespace cupp::io::detail
