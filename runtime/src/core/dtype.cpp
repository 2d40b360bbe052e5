// cupp::dtype: built-in dtype properties (from the generated table), void and structured
// layouts, parsing of what numpy.dtype() accepts for cupp's dtypes (names, type characters,
// array-protocol strings, .npy descriptor lists), printing as NumPy writes .npy headers, and
// finfo / iinfo.
#include "cupp/dtype.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <variant>

#include "cupp/errors.hpp"
#include "core/dtype_layout.hpp"
#include "core/python_literal.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

std::size_t round_up(std::size_t n, std::size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

// ---- Python literal printing ----------------------------------------------------------

// A Python str literal, as repr() writes it: single quotes unless the text holds a single
// quote and no double quote.
std::string python_repr(std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  for (const char c : text) {
    if (c == quote || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      static constexpr char digits[] = "0123456789abcdef";
      out += "\\x";
      out += digits[(static_cast<unsigned char>(c) >> 4) & 0xf];
      out += digits[static_cast<unsigned char>(c) & 0xf];
    } else {
      out += c;
    }
  }
  out += quote;
  return out;
}

// A field's descriptor inside a list: a quoted string, or a nested list for structured fields.
std::string field_descr(const dtype& type) {
  return type.is_structured() ? type.descr() : python_repr(type.descr());
}

// Whether the fields are in increasing, non-overlapping offset order (the list form can say so).
bool fields_in_offset_order(std::span<const field> fields) {
  std::size_t end = 0;
  for (const field& f : fields) {
    if (f.offset < end) return false;
    end = f.offset + f.type.itemsize();
  }
  return true;
}

using detail::parse_python_literal;
using detail::python_literal_error;
using literal = detail::python_literal;

// ---- Descriptor interpretation ------------------------------------------------------------

// What parsing learnt about byte order: whether any multi-byte element was given as
// big-endian ('>') or as little-endian/native ('<', '=', or none).
struct byte_order_seen {
  bool big = false;
  bool little = false;
};

struct name_entry {
  std::string_view name;
  type_id id;
};

// Every name numpy.dtype() accepts for cupp's built-in dtypes (NumPy 2, LP64 Linux).
constexpr name_entry builtin_names[] = {
    {"bool", type_id::bool_},        {"bool_", type_id::bool_},
    {"int8", type_id::int8},         {"byte", type_id::int8},
    {"uint8", type_id::uint8},       {"ubyte", type_id::uint8},
    {"int16", type_id::int16},       {"short", type_id::int16},
    {"uint16", type_id::uint16},     {"ushort", type_id::uint16},
    {"int32", type_id::int32},       {"intc", type_id::int32},
    {"uint32", type_id::uint32},     {"uintc", type_id::uint32},
    {"int64", type_id::int64},       {"int", type_id::int64},
    {"int_", type_id::int64},        {"intp", type_id::int64},
    {"long", type_id::int64},        {"longlong", type_id::int64},
    {"uint64", type_id::uint64},     {"uint", type_id::uint64},
    {"uintp", type_id::uint64},      {"ulong", type_id::uint64},
    {"ulonglong", type_id::uint64},  {"float16", type_id::float16},
    {"half", type_id::float16},      {"bfloat16", type_id::bfloat16},
    {"float32", type_id::float32},   {"single", type_id::float32},
    {"float64", type_id::float64},   {"double", type_id::float64},
    {"float", type_id::float64},     {"complex64", type_id::complex64},
    {"csingle", type_id::complex64}, {"complex128", type_id::complex128},
    {"cdouble", type_id::complex128}, {"complex", type_id::complex128},
};

// NumPy's type characters beyond each dtype's canonical one (from the generated table).
constexpr name_entry extra_type_chars[] = {
    {"l", type_id::int64}, {"p", type_id::int64}, {"L", type_id::uint64}, {"P", type_id::uint64}};

// Spellings of NumPy dtypes that cupp does not support, mapped to what they are.
struct unsupported_entry {
  std::string_view spelling;
  std::string_view what;
};
constexpr unsupported_entry unsupported_spellings[] = {
    {"M", "datetime64"},       {"m", "timedelta64"},     {"O", "object"},
    {"U", "str"},              {"S", "bytes"},           {"a", "bytes"},
    {"c", "bytes"},            {"g", "longdouble"},      {"G", "clongdouble"},
    {"T", "StringDType"},      {"object_", "object"},    {"str_", "str"},
    {"unicode", "str"},        {"unicode_", "str"},      {"bytes_", "bytes"},
    {"string_", "bytes"},      {"longfloat", "longdouble"}, {"clongfloat", "clongdouble"},
    {"float128", "longdouble"}, {"float96", "longdouble"}, {"complex256", "clongdouble"},
    {"complex192", "clongdouble"}, {"datetime64", "datetime64"}, {"timedelta64", "timedelta64"},
    {"StringDType", "StringDType"},
};

[[noreturn]] void throw_unsupported(std::string_view text, std::string_view what) {
  throw ValueError("Unsupported dtype '" + std::string(text) + "' (" + std::string(what) +
                   "): cupp supports bool, int8-int64, uint8-uint64, float16, bfloat16, float32, float64, "
                   "complex64, complex128, structured and void dtypes");
}

[[noreturn]] void throw_not_understood(std::string_view text) {
  throw ValueError("data type '" + std::string(text) + "' not understood");
}

// Throws the Unsupported error when text names a NumPy dtype cupp rejects; returns otherwise.
void check_unsupported(std::string_view text) {
  std::string_view body = text;
  if (body.size() > 1 && std::string_view("<>=|").find(body[0]) != std::string_view::npos) body.remove_prefix(1);
  // Units and sizes: 'datetime64[ns]', 'M8[s]', '<U10', 'S5', 'm8'.
  std::string_view stem = body.substr(0, body.find('['));
  for (std::size_t i = 0; i < detail::n_unsupported_dtype_names; ++i)
    if (stem == detail::unsupported_dtype_names[i]) throw_unsupported(text, stem);
  for (const auto& entry : unsupported_spellings)
    if (stem == entry.spelling) throw_unsupported(text, entry.what);
  if (!stem.empty() && std::all_of(stem.begin() + 1, stem.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
    const std::string_view size = stem.substr(1);
    switch (stem[0]) {
      case 'M': throw_unsupported(text, "datetime64");
      case 'm': throw_unsupported(text, "timedelta64");
      case 'O': throw_unsupported(text, "object");
      case 'U': throw_unsupported(text, "str");
      case 'S':
      case 'a': throw_unsupported(text, "bytes");
      case 'f':
        if (size == "12" || size == "16") throw_unsupported(text, "longdouble");
        break;
      case 'c':
        if (size == "24" || size == "32") throw_unsupported(text, "clongdouble");
        break;
      default: break;
    }
  }
}

void note_byte_order(char order, const dtype& type, byte_order_seen& seen) {
  if (type.itemsize() <= 1 || type.id() == type_id::void_) return;
  if (order == '>')
    seen.big = true;
  else if (order != '|')
    seen.little = true;
}

dtype parse_any(std::string_view text, byte_order_seen& seen);

// A single (non-list) type string: name, type character or array-protocol string, with an
// optional byte-order prefix for the latter two; or a comma-separated list of those.
dtype parse_type_string(std::string_view text, byte_order_seen& seen) {
  for (const auto& entry : builtin_names)
    if (text == entry.name) return note_byte_order('=', dtype(entry.id), seen), dtype(entry.id);

  check_unsupported(text);

  // Comma-separated formats: 'f4, i8' -> fields f0, f1, packed.
  if (text.find(',') != std::string_view::npos) {
    std::vector<field> fields;
    std::size_t offset = 0;
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t comma = text.find(',', start);
      if (comma == std::string_view::npos) comma = text.size();
      std::string_view part = text.substr(start, comma - start);
      while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
      while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
      if (part.empty()) {
        if (comma == text.size() && !fields.empty()) break;  // a trailing comma
        throw_not_understood(text);
      }
      const dtype type = parse_type_string(part, seen);
      fields.push_back({"f" + std::to_string(fields.size()), type, offset});
      offset += type.itemsize();
      start = comma + 1;
    }
    return dtype::structured(std::move(fields));
  }

  char order = '=';
  std::string_view body = text;
  if (body.size() > 1 && std::string_view("<>=|").find(body[0]) != std::string_view::npos) {
    order = body[0];
    body.remove_prefix(1);
  }

  if (body == "V" || body == "void")
    throw ValueError("data type '" + std::string(text) + "': void dtypes need a size ('V8')");

  // A type character.
  if (body.size() == 1) {
    for (int i = 0; i < n_builtin_types; ++i) {
      if (body[0] == detail::builtin_dtypes[i].char_code) {
        const dtype type(static_cast<type_id>(i));
        note_byte_order(order, type, seen);
        return type;
      }
    }
    for (const auto& entry : extra_type_chars) {
      if (body == entry.name) {
        note_byte_order(order, dtype(entry.id), seen);
        return dtype(entry.id);
      }
    }
    throw_not_understood(text);
  }

  // An array-protocol string: kind and itemsize.
  const char kind = body[0];
  const std::string_view digits = body.substr(1);
  if (digits.empty() || digits.size() > 9 ||
      !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    throw_not_understood(text);
  const std::size_t size = std::stoul(std::string(digits));
  if (kind == 'V') {
    if (size == 0) throw ValueError("data type '" + std::string(text) + "': void dtypes need an itemsize of at least 1");
    return dtype::void_(size);
  }
  if (std::string_view("biufc").find(kind) == std::string_view::npos) throw_not_understood(text);
  for (int i = 0; i < n_builtin_types; ++i) {
    const auto& info = detail::builtin_dtypes[i];
    // The generated kind for bool is 'b'; 'b1' means bool, as in NumPy.
    if (info.kind == kind && info.itemsize == size && static_cast<type_id>(i) != type_id::bfloat16) {
      const dtype type(static_cast<type_id>(i));
      note_byte_order(order, type, seen);
      return type;
    }
  }
  throw_not_understood(text);
}

std::string describe_literal(const literal& value) {
  switch (value.what) {
    case literal::kind::string: return python_repr(value.text);
    case literal::kind::integer: return std::to_string(value.value());
    case literal::kind::boolean: return value.integer != 0 ? "True" : "False";
    case literal::kind::none: return "None";
    case literal::kind::list:
    case literal::kind::tuple: {
      std::string out = value.what == literal::kind::list ? "[" : "(";
      for (std::size_t i = 0; i < value.items.size(); ++i) {
        if (i != 0) out += ", ";
        out += describe_literal(value.items[i]);
      }
      if (value.what == literal::kind::tuple && value.items.size() == 1) out += ",";
      return out + (value.what == literal::kind::list ? "]" : ")");
    }
    case literal::kind::dict: return "{...}";
  }
  return "?";
}

dtype interpret(const literal& value, std::string_view whole, byte_order_seen& seen);

// A descriptor list, as numpy.lib.format.descr_to_dtype reads it: fields packed in order,
// unnamed void entries ('', '|V4') are padding.
dtype interpret_list(const literal& list, std::string_view whole, byte_order_seen& seen) {
  std::vector<field> fields;
  std::size_t offset = 0;
  for (const literal& entry : list.items) {
    if (entry.what != literal::kind::tuple || entry.items.size() < 2 || entry.items.size() > 3)
      throw ValueError("data type '" + std::string(whole) + "' not understood: a field must be (name, type) or (name, type, shape), not " +
                       describe_literal(entry));
    const literal& name = entry.items[0];
    if (name.what == literal::kind::tuple)
      throw ValueError("Unsupported dtype '" + std::string(whole) + "': field titles " + describe_literal(name) +
                       " are not supported");
    if (name.what != literal::kind::string)
      throw ValueError("data type '" + std::string(whole) + "' not understood: field name " + describe_literal(name) +
                       " is not a string");
    const dtype type = interpret(entry.items[1], whole, seen);
    if (entry.items.size() == 3) {
      const literal& shape = entry.items[2];
      const bool scalar_shape = shape.what == literal::kind::tuple && shape.items.empty();
      if (!scalar_shape)
        throw ValueError("Unsupported dtype '" + std::string(whole) + "': field '" + name.text + "' has shape " +
                         describe_literal(shape) + "; cupp's structured dtypes have scalar fields only");
    }
    const bool is_padding = name.text.empty() && type.id() == type_id::void_;
    if (!is_padding) fields.push_back({name.text, type, offset});
    offset += type.itemsize();
  }
  if (offset == 0) throw ValueError("data type '" + std::string(whole) + "': a structured dtype needs at least one byte");
  return dtype::structured(std::move(fields), offset);
}

const literal* dict_get(const literal& dict, std::string_view key) {
  for (std::size_t i = 0; i + 1 < dict.items.size(); i += 2)
    if (dict.items[i].what == literal::kind::string && dict.items[i].text == key) return &dict.items[i + 1];
  return nullptr;
}

// The dict form numpy.dtype() accepts (and dtype::name() prints for out-of-order fields):
// {'names': [...], 'formats': [...], 'offsets': [...], 'itemsize': n, 'aligned': bool}.
dtype interpret_dict(const literal& dict, std::string_view whole, byte_order_seen& seen) {
  auto bad = [&](const std::string& why) -> ValueError {
    return ValueError("data type '" + std::string(whole) + "' not understood: " + why);
  };
  for (std::size_t i = 0; i < dict.items.size(); i += 2) {
    const literal& key = dict.items[i];
    static constexpr std::string_view known[] = {"names", "formats", "offsets", "itemsize", "aligned", "titles"};
    if (key.what != literal::kind::string || std::find(std::begin(known), std::end(known), key.text) == std::end(known))
      throw bad("unknown key " + describe_literal(key));
  }
  const literal* names = dict_get(dict, "names");
  const literal* formats = dict_get(dict, "formats");
  if (names == nullptr || formats == nullptr) throw bad("'names' and 'formats' are required");
  if (names->what != literal::kind::list || formats->what != literal::kind::list ||
      names->items.size() != formats->items.size())
    throw bad("'names' and 'formats' must be lists of the same length");
  if (const literal* titles = dict_get(dict, "titles")) {
    for (const literal& title : titles->items)
      if (title.what != literal::kind::none)
        throw ValueError("Unsupported dtype '" + std::string(whole) + "': field titles are not supported");
  }
  bool align = false;
  if (const literal* aligned = dict_get(dict, "aligned")) {
    if (aligned->what != literal::kind::boolean) throw bad("'aligned' must be True or False");
    align = aligned->integer != 0;
  }
  const literal* offsets = dict_get(dict, "offsets");
  if (offsets != nullptr && (offsets->what != literal::kind::list || offsets->items.size() != names->items.size()))
    throw bad("'offsets' must be a list with one offset per name");
  std::size_t itemsize = 0;
  if (const literal* size = dict_get(dict, "itemsize")) {
    if (size->what != literal::kind::integer || size->negative) throw bad("'itemsize' must be a non-negative integer");
    itemsize = static_cast<std::size_t>(size->integer);
  }

  std::vector<field> fields;
  std::size_t next_offset = 0;
  for (std::size_t i = 0; i < names->items.size(); ++i) {
    if (names->items[i].what != literal::kind::string) throw bad("field names must be strings");
    const dtype type = interpret(formats->items[i], whole, seen);
    std::size_t offset;
    if (offsets != nullptr) {
      const literal& o = offsets->items[i];
      if (o.what != literal::kind::integer || o.negative) throw bad("offsets must be non-negative integers");
      offset = static_cast<std::size_t>(o.integer);
    } else {
      offset = align ? round_up(next_offset, type.alignment()) : next_offset;
    }
    next_offset = offset + type.itemsize();
    fields.push_back({names->items[i].text, type, offset});
  }
  return dtype::structured(std::move(fields), itemsize, align);
}

dtype interpret(const literal& value, std::string_view whole, byte_order_seen& seen) {
  switch (value.what) {
    case literal::kind::string: return parse_any(value.text, seen);
    case literal::kind::list: return interpret_list(value, whole, seen);
    case literal::kind::dict: return interpret_dict(value, whole, seen);
    case literal::kind::tuple:
      throw ValueError("Unsupported dtype '" + std::string(whole) + "': " + describe_literal(value) +
                       " (subarray dtypes are not supported)");
    default: throw_not_understood(whole);
  }
}

std::string_view trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

dtype parse_any(std::string_view text, byte_order_seen& seen) {
  const std::string_view trimmed = trim(text);
  if (!trimmed.empty() && (trimmed.front() == '[' || trimmed.front() == '{' || trimmed.front() == '\'' ||
                           trimmed.front() == '"')) {
    literal parsed;
    try {
      parsed = parse_python_literal(trimmed, 64);
    } catch (const python_literal_error& e) {
      throw ValueError("data type '" + std::string(text) + "' not understood: " + e.what() + " at position " +
                       std::to_string(e.position()));
    }
    return interpret(parsed, text, seen);
  }
  if (text.empty()) throw_not_understood(text);
  return parse_type_string(text, seen);
}

}  // namespace

// ---- dtype --------------------------------------------------------------------------------

void dtype::throw_not_builtin() {
  throw ValueError("cupp::dtype(type_id): void and structured dtypes are made with dtype::void_ and dtype::structured");
}

std::size_t dtype::composite_itemsize() const noexcept { return layout_ ? layout_->itemsize : 0; }

std::size_t dtype::alignment() const noexcept {
  if (is_builtin()) return detail::info(id_).alignment;
  return layout_ ? layout_->alignment : 1;
}

char dtype::char_code() const noexcept { return is_builtin() ? detail::info(id_).char_code : 'V'; }

std::string dtype::name() const {
  if (is_builtin()) return std::string(detail::info(id_).name);
  if (id_ == type_id::void_) return "V" + std::to_string(itemsize());
  const auto fs = fields();
  if (fields_in_offset_order(fs)) return descr();
  // NumPy's dict form for fields that the list form cannot express.
  std::string names = "[", formats = "[", offsets = "[";
  for (std::size_t i = 0; i < fs.size(); ++i) {
    const char* sep = i == 0 ? "" : ", ";
    names += sep + python_repr(fs[i].name);
    formats += sep + (fs[i].type.is_structured() ? fs[i].type.name() : python_repr(fs[i].type.descr()));
    offsets += sep + std::to_string(fs[i].offset);
  }
  std::string out = "{'names': " + names + "], 'formats': " + formats + "], 'offsets': " + offsets +
                    "], 'itemsize': " + std::to_string(itemsize());
  if (layout_->aligned) out += ", 'aligned': True";
  return out + "}";
}

std::string dtype::descr() const {
  if (is_builtin()) return std::string(detail::info(id_).descr);
  if (id_ == type_id::void_) return "|V" + std::to_string(itemsize());
  std::string out = "[";
  std::size_t end = 0;
  bool first = true;
  auto append = [&](std::string_view name, const std::string& type_descr) {
    if (!first) out += ", ";
    first = false;
    out += "(" + python_repr(name) + ", " + type_descr + ")";
  };
  for (const field& f : fields()) {
    if (f.offset < end)
      throw ValueError("dtype.descr is not defined for types with overlapping or out-of-order fields: " + name());
    if (f.offset > end) append("", "'|V" + std::to_string(f.offset - end) + "'");
    append(f.name, field_descr(f.type));
    end = f.offset + f.type.itemsize();
  }
  if (itemsize() > end) append("", "'|V" + std::to_string(itemsize() - end) + "'");
  return out + "]";
}

std::span<const field> dtype::fields() const noexcept {
  if (!layout_) return {};
  return layout_->fields;
}

dtype dtype::void_(std::size_t itemsize) {
  if (itemsize == 0) throw ValueError("void dtype: itemsize must be at least 1");
  dtype d;
  d.id_ = type_id::void_;
  auto layout = std::make_shared<detail::composite_layout>();
  layout->itemsize = itemsize;
  layout->alignment = 1;
  d.layout_ = std::move(layout);
  return d;
}

dtype dtype::structured(std::vector<field> fields, std::size_t itemsize, bool align) {
  std::size_t alignment = 1;
  std::size_t end = 0;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    field& f = fields[i];
    if (f.name.empty()) f.name = "f" + std::to_string(i);  // as numpy.dtype([('', 'f4')]) names it
    for (std::size_t j = 0; j < i; ++j)
      if (fields[j].name == f.name) throw ValueError("structured dtype: field name '" + f.name + "' appears twice");
    if (align) {
      if (f.offset % f.type.alignment() != 0)
        throw ValueError("structured dtype: offset " + std::to_string(f.offset) + " of field '" + f.name +
                         "' is not a multiple of its alignment " + std::to_string(f.type.alignment()) +
                         " (align=true)");
      alignment = std::max(alignment, f.type.alignment());
    }
    end = std::max(end, f.offset + f.type.itemsize());
  }
  // Overlaps, checked in offset order.
  std::vector<const field*> by_offset;
  for (const field& f : fields) by_offset.push_back(&f);
  std::stable_sort(by_offset.begin(), by_offset.end(),
                   [](const field* a, const field* b) { return a->offset < b->offset; });
  for (std::size_t i = 1; i < by_offset.size(); ++i) {
    const field& prev = *by_offset[i - 1];
    const field& cur = *by_offset[i];
    if (prev.offset + prev.type.itemsize() > cur.offset && cur.type.itemsize() != 0)
      throw ValueError("structured dtype: fields '" + prev.name + "' (offset " + std::to_string(prev.offset) +
                       ", " + std::to_string(prev.type.itemsize()) + " bytes) and '" + cur.name + "' (offset " +
                       std::to_string(cur.offset) + ") overlap");
  }
  if (itemsize == 0) {
    itemsize = round_up(end, alignment);
  } else {
    if (itemsize < end)
      throw ValueError("structured dtype: itemsize " + std::to_string(itemsize) + " is smaller than the " +
                       std::to_string(end) + " bytes its fields span");
    if (itemsize % alignment != 0)
      throw ValueError("structured dtype: itemsize " + std::to_string(itemsize) +
                       " is not a multiple of the alignment " + std::to_string(alignment) + " (align=true)");
  }
  if (itemsize == 0) throw ValueError("structured dtype: needs at least one byte");

  dtype d;
  d.id_ = type_id::structured;
  auto layout = std::make_shared<detail::composite_layout>();
  layout->itemsize = itemsize;
  layout->alignment = alignment;
  layout->aligned = align;
  layout->fields = std::move(fields);
  d.layout_ = std::move(layout);
  return d;
}

dtype dtype::structured(std::span<const std::pair<std::string, dtype>> fields, bool align) {
  std::vector<field> placed;
  placed.reserve(fields.size());
  std::size_t offset = 0;
  for (const auto& [name, type] : fields) {
    if (align) offset = round_up(offset, type.alignment());
    placed.push_back({name, type, offset});
    offset += type.itemsize();
  }
  return structured(std::move(placed), 0, align);
}

dtype dtype::parse(std::string_view text) {
  byte_order_seen seen;
  return parse_any(text, seen);
}

bool operator==(const dtype& a, const dtype& b) noexcept {
  if (a.id_ != b.id_) return false;
  if (a.is_builtin() || a.layout_ == b.layout_) return true;
  if (!a.layout_ || !b.layout_) return false;
  const auto& la = *a.layout_;
  const auto& lb = *b.layout_;
  if (la.itemsize != lb.itemsize || la.fields.size() != lb.fields.size()) return false;
  for (std::size_t i = 0; i < la.fields.size(); ++i) {
    const field& fa = la.fields[i];
    const field& fb = lb.fields[i];
    if (fa.name != fb.name || fa.offset != fb.offset || !(fa.type == fb.type)) return false;
  }
  return true;
}

parsed_descr parse_descr(std::string_view descr) {
  byte_order_seen seen;
  dtype type = parse_any(descr, seen);
  if (seen.big && seen.little)
    throw ValueError("Unsupported dtype '" + std::string(descr) +
                     "': fields of mixed byte order (both '>' and '<' or '=')");
  return {std::move(type), seen.big};
}

std::ostream& operator<<(std::ostream& os, const dtype& d) { return os << d.name(); }

// ---- finfo, iinfo ---------------------------------------------------------------------------

finfo_t finfo(dtype d) {
  if (!d.is_inexact())
    throw ValueError("finfo: data type " + d.name() + " not inexact (float16, bfloat16, float32, float64 or complex)");
  finfo_t f{};
  switch (d.id()) {
    case type_id::float16:
      f = {float16, 16, 3, 10, 5, -14, 16,
           0x1p-10, 0x1p-11, 65504.0, -65504.0, 0x1p-14, 0x1p-24,
           0x1.064p-10};  // float16(1e-3) = 0.0010004043579101562
      break;
    case type_id::bfloat16:
      f = {bfloat16, 16, 2, 7, 8, -126, 128,
           0x1p-7, 0x1p-8, 0x1.fep127, -0x1.fep127, 0x1p-126, 0x1p-133,
           0x1.48p-7};  // bfloat16(1e-2) = 0.010009765625
      break;
    case type_id::float32:
    case type_id::complex64:
      f = {float32, 32, 6, 23, 8, -126, 128,
           0x1p-23, 0x1p-24, 0x1.fffffep127, -0x1.fffffep127, 0x1p-126, 0x1p-149,
           static_cast<double>(1e-6f)};  // float32(1e-6) = 9.999999974752427e-07
      break;
    case type_id::float64:
    case type_id::complex128:
      f = {float64, 64, 15, 52, 11, -1022, 1024,
           0x1p-52, 0x1p-53, std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(),
           0x1p-1022, std::numeric_limits<double>::denorm_min(), 1e-15};
      break;
    default: break;
  }
  return f;
}

iinfo_t iinfo(dtype d) {
  switch (d.id()) {
    case type_id::int8: return {d, 8, std::numeric_limits<std::int8_t>::min(), std::numeric_limits<std::int8_t>::max()};
    case type_id::int16: return {d, 16, std::numeric_limits<std::int16_t>::min(), std::numeric_limits<std::int16_t>::max()};
    case type_id::int32: return {d, 32, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()};
    case type_id::int64: return {d, 64, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};
    case type_id::uint8: return {d, 8, 0, std::numeric_limits<std::uint8_t>::max()};
    case type_id::uint16: return {d, 16, 0, std::numeric_limits<std::uint16_t>::max()};
    case type_id::uint32: return {d, 32, 0, std::numeric_limits<std::uint32_t>::max()};
    case type_id::uint64: return {d, 64, 0, std::numeric_limits<std::uint64_t>::max()};
    default: throw ValueError("iinfo: invalid integer data type " + d.name());
  }
}

}  // namespace cupp
