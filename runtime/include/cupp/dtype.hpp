// cupp::dtype: the runtime data type of an array, NumPy's model. Built-in dtypes (bool, the
// integers, float16, bfloat16, float32, float64, complex64, complex128) are constants such as
// cupp::float32; void (V<n>, raw bytes) and structured dtypes (named fields at offsets) carry a
// shared layout. Parsing and printing of NumPy descriptors, finfo and iinfo live here too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/generated/type_id.hpp"

namespace cupp {

struct field;

namespace detail {
struct composite_layout;  // itemsize, alignment and fields of a void or structured dtype
}

class dtype {
 public:
  // float64, NumPy's default dtype.
  constexpr dtype() noexcept : id_(type_id::float64) {}
  // A built-in dtype; throws ValueError for type_id::void_ / structured (use the factories).
  constexpr dtype(type_id id) : id_(id) {  // NOLINT: implicit, so type_ids read as dtypes
    if (static_cast<int>(id) >= n_builtin_types) throw_not_builtin();
  }

  // Raw bytes of the given size: NumPy's 'V<n>' (n >= 1).
  static dtype void_(std::size_t itemsize);
  // Named fields at given offsets, kept in the given order. itemsize 0 means the end of the
  // last field, rounded up to the alignment when align is true (NumPy's align=True: offsets
  // must then be multiples of each field's alignment, and the itemsize of the largest).
  // Empty names become "f<i>" as in NumPy. Overlapping or duplicate fields, or a dtype of
  // 0 bytes, throw ValueError.
  static dtype structured(std::vector<field> fields, std::size_t itemsize = 0, bool align = false);
  // Structured dtype from (name, dtype) pairs, offsets assigned in order: packed, or with
  // align=true padded like a C struct (NumPy's align=True).
  static dtype structured(std::span<const std::pair<std::string, dtype>> fields, bool align = false);

  // Parses what numpy.dtype() accepts for cupp's dtypes: names ("float32", "bfloat16",
  // "float", "int", "complex", "bool"), type characters ("f", "?"), array-protocol strings
  // ("<f4", "|b1", "V8"), comma-separated formats ("f4, i8": fields f0, f1), structured
  // descriptor lists ("[('x', '<f4'), ('y', '<i8')]", read as numpy.lib.format reads .npy
  // headers: unnamed void entries like ('', '|V4') are padding) and NumPy's dict form
  // ("{'names': [...], 'formats': [...], 'offsets': [...], 'itemsize': n}").
  // Big-endian descriptors ('>i8') name the same dtype; see parse_descr for the byte order.
  // Unsupported dtypes (datetime64, timedelta64, object, str, bytes, longdouble, subarray
  // fields, ...) throw ValueError("Unsupported dtype ..."); anything else unknown throws
  // ValueError("data type '...' not understood").
  static dtype parse(std::string_view text);

  type_id id() const noexcept { return id_; }
  bool is_builtin() const noexcept { return static_cast<int>(id_) < n_builtin_types; }
  bool is_structured() const noexcept { return id_ == type_id::structured; }
  // NumPy's kind: 'b', 'i', 'u', 'f', 'c', or 'V' for void and structured dtypes.
  char kind() const noexcept {
    return is_builtin() ? detail::builtin_kind[static_cast<int>(id_)] : 'V';
  }
  std::size_t itemsize() const noexcept {
    return is_builtin() ? detail::builtin_itemsize[static_cast<int>(id_)] : composite_itemsize();
  }
  // Built-ins: their C alignment (complex: the component's). Void and packed structured: 1;
  // structured made with align=true: its largest field alignment (as NumPy).
  std::size_t alignment() const noexcept;
  // NumPy's type character ('f', '?', 'E' for bfloat16, 'V' for void and structured).
  char char_code() const noexcept;
  // NumPy's name: "float32", "bool", "V8"; a structured dtype prints its descriptor list (the
  // dict form when its fields are out of offset order). parse(name()) gives the dtype back.
  std::string name() const;
  // The .npy descriptor (little-endian): "<f4", "|b1", "|V8", "<V2" for bfloat16 (as NumPy
  // writes it), or the list form "[('x', '<f4'), ('', '|V4'), ('y', '<i8')]" for structured,
  // with unnamed void entries for gaps. In a .npy header a plain descriptor goes in quotes and
  // a list as it is. Throws ValueError for fields out of offset order (as NumPy's dtype.descr).
  std::string descr() const;
  // The fields of a structured dtype (empty otherwise).
  std::span<const field> fields() const noexcept;

  bool is_bool() const noexcept { return id_ == type_id::bool_; }
  bool is_integer() const noexcept { return kind() == 'i' || kind() == 'u'; }
  bool is_floating() const noexcept { return kind() == 'f'; }
  bool is_complex() const noexcept { return kind() == 'c'; }
  bool is_inexact() const noexcept { return is_floating() || is_complex(); }

  friend bool operator==(const dtype& a, const dtype& b) noexcept;

 private:
  [[noreturn]] static void throw_not_builtin();
  std::size_t composite_itemsize() const noexcept;

  type_id id_;
  std::shared_ptr<const detail::composite_layout> layout_;  // void_ and structured only
};

// One field of a structured dtype.
struct field {
  std::string name;
  dtype type;
  std::size_t offset = 0;
};

// Result of parsing a descriptor with an explicit byte order: the dtype (always stored
// little-endian on the GPU) and whether the host data it describes is big-endian.
struct parsed_descr {
  dtype type;
  bool big_endian = false;
};
// Accepts what dtype::parse accepts; big_endian is true when a multi-byte element is given
// as '>' (a structured descriptor mixing '>' with '<' or '=' throws ValueError).
parsed_descr parse_descr(std::string_view descr);

std::ostream& operator<<(std::ostream& os, const dtype& d);  // prints name()

// numpy.finfo for float16, bfloat16, float32, float64 (and complex: their component type).
// The values are NumPy's (ml_dtypes' for bfloat16) as doubles; resolution is 10^-precision
// rounded to the type, as NumPy stores it (float32: 9.999999974752427e-07).
struct finfo_t {
  dtype type;
  int bits;
  int precision;  // decimal digits
  int nmant;      // explicit mantissa bits
  int nexp;       // exponent bits
  int minexp, maxexp;
  double eps, epsneg, max, min, smallest_normal, smallest_subnormal, resolution;
};
finfo_t finfo(dtype d);  // ValueError when d is not inexact

// numpy.iinfo for bool-free integer dtypes.
struct iinfo_t {
  dtype type;
  int bits;
  std::int64_t min;
  std::uint64_t max;
};
iinfo_t iinfo(dtype d);  // ValueError when d is not an integer dtype

}  // namespace cupp

#include "cupp/generated/dtype_constants.hpp"
