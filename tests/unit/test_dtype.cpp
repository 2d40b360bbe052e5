// Tests of cupp::dtype against NumPy 2's behaviour: built-in properties, every accepted
// spelling, array-protocol strings and byte order, void and structured layouts (packed,
// aligned, nested, padding in descriptors), equality, the Unsupported and "not understood"
// errors, and finfo / iinfo against NumPy's published constants.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/errors.hpp"

namespace {

using cupp::dtype;
using cupp::type_id;

// Expects parse(text) to throw ValueError whose message starts with `prefix` and contains `part`.
void expect_value_error(std::string_view text, std::string_view prefix, std::string_view part = {}) {
  try {
    const dtype d = dtype::parse(text);
    ADD_FAILURE() << "parse('" << text << "') gave " << d.name() << " instead of throwing";
  } catch (const cupp::ValueError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(prefix, 0), 0u) << "parse('" << text << "'): " << message;
    if (!part.empty()) EXPECT_NE(message.find(part), std::string::npos) << "parse('" << text << "'): " << message;
  }
}

struct builtin_case {
  dtype type;
  const char* name;
  char char_code;
  char kind;
  std::size_t itemsize;
  std::size_t alignment;
  const char* descr;
};

// NumPy 2 on 64-bit Linux (bfloat16: ml_dtypes; int64/uint64 use the 'q'/'Q' spelling, which
// NumPy also accepts and which does not depend on the platform's long).
const builtin_case builtin_cases[] = {
    {cupp::bool_, "bool", '?', 'b', 1, 1, "|b1"},
    {cupp::int8, "int8", 'b', 'i', 1, 1, "|i1"},
    {cupp::int16, "int16", 'h', 'i', 2, 2, "<i2"},
    {cupp::int32, "int32", 'i', 'i', 4, 4, "<i4"},
    {cupp::int64, "int64", 'q', 'i', 8, 8, "<i8"},
    {cupp::uint8, "uint8", 'B', 'u', 1, 1, "|u1"},
    {cupp::uint16, "uint16", 'H', 'u', 2, 2, "<u2"},
    {cupp::uint32, "uint32", 'I', 'u', 4, 4, "<u4"},
    {cupp::uint64, "uint64", 'Q', 'u', 8, 8, "<u8"},
    {cupp::float16, "float16", 'e', 'f', 2, 2, "<f2"},
    {cupp::bfloat16, "bfloat16", 'E', 'f', 2, 2, "<V2"},
    {cupp::float32, "float32", 'f', 'f', 4, 4, "<f4"},
    {cupp::float64, "float64", 'd', 'f', 8, 8, "<f8"},
    {cupp::complex64, "complex64", 'F', 'c', 8, 4, "<c8"},
    {cupp::complex128, "complex128", 'D', 'c', 16, 8, "<c16"},
};

}  // namespace

// ---- built-in dtypes ----------------------------------------------------------------------

TEST(DTypeBuiltin, Properties) {
  for (const auto& c : builtin_cases) {
    SCOPED_TRACE(c.name);
    EXPECT_TRUE(c.type.is_builtin());
    EXPECT_FALSE(c.type.is_structured());
    EXPECT_EQ(c.type.name(), c.name);
    EXPECT_EQ(c.type.char_code(), c.char_code);
    EXPECT_EQ(c.type.kind(), c.kind);
    EXPECT_EQ(c.type.itemsize(), c.itemsize);
    EXPECT_EQ(c.type.alignment(), c.alignment);
    EXPECT_EQ(c.type.descr(), c.descr);
    EXPECT_TRUE(c.type.fields().empty());
    std::ostringstream os;
    os << c.type;
    EXPECT_EQ(os.str(), c.name);
  }
}

TEST(DTypeBuiltin, Predicates) {
  EXPECT_TRUE(cupp::bool_.is_bool());
  EXPECT_FALSE(cupp::bool_.is_integer());
  EXPECT_TRUE(cupp::int8.is_integer());
  EXPECT_TRUE(cupp::uint64.is_integer());
  EXPECT_TRUE(cupp::bfloat16.is_floating());
  EXPECT_TRUE(cupp::bfloat16.is_inexact());
  EXPECT_TRUE(cupp::complex64.is_complex());
  EXPECT_TRUE(cupp::complex64.is_inexact());
  EXPECT_FALSE(cupp::complex64.is_floating());
  EXPECT_FALSE(cupp::int32.is_inexact());
  EXPECT_EQ(dtype(), cupp::float64);  // NumPy's default dtype
}

TEST(DTypeBuiltin, TypeIdConstructorRejectsComposite) {
  EXPECT_THROW(dtype{type_id::void_}, cupp::ValueError);
  EXPECT_THROW(dtype{type_id::structured}, cupp::ValueError);
}

// ---- parsing --------------------------------------------------------------------------------

TEST(DTypeParse, Names) {
  const std::pair<const char*, dtype> cases[] = {
      {"bool", cupp::bool_},        {"int8", cupp::int8},         {"int16", cupp::int16},
      {"int32", cupp::int32},       {"int64", cupp::int64},       {"uint8", cupp::uint8},
      {"uint16", cupp::uint16},     {"uint32", cupp::uint32},     {"uint64", cupp::uint64},
      {"float16", cupp::float16},   {"bfloat16", cupp::bfloat16}, {"float32", cupp::float32},
      {"float64", cupp::float64},   {"complex64", cupp::complex64}, {"complex128", cupp::complex128},
      // Python and C aliases, as numpy.dtype() resolves them on 64-bit Linux.
      {"float", cupp::float64},     {"int", cupp::int64},         {"complex", cupp::complex128},
      {"double", cupp::float64},    {"single", cupp::float32},    {"half", cupp::float16},
      {"uint", cupp::uint64},       {"bool_", cupp::bool_},       {"byte", cupp::int8},
      {"ubyte", cupp::uint8},       {"short", cupp::int16},       {"ushort", cupp::uint16},
      {"intc", cupp::int32},        {"uintc", cupp::uint32},      {"int_", cupp::int64},
      {"intp", cupp::int64},        {"uintp", cupp::uint64},      {"long", cupp::int64},
      {"ulong", cupp::uint64},      {"longlong", cupp::int64},    {"ulonglong", cupp::uint64},
      {"csingle", cupp::complex64}, {"cdouble", cupp::complex128},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(dtype::parse(text), expected) << text;
    EXPECT_FALSE(cupp::parse_descr(text).big_endian) << text;
  }
  // Every dtype's own name parses back to it.
  for (const auto& c : builtin_cases) EXPECT_EQ(dtype::parse(c.type.name()), c.type) << c.name;
}

TEST(DTypeParse, TypeCharacters) {
  const std::pair<const char*, dtype> cases[] = {
      {"?", cupp::bool_},   {"b", cupp::int8},       {"B", cupp::uint8},       {"h", cupp::int16},
      {"H", cupp::uint16},  {"i", cupp::int32},      {"I", cupp::uint32},      {"l", cupp::int64},
      {"L", cupp::uint64},  {"q", cupp::int64},      {"Q", cupp::uint64},      {"p", cupp::int64},
      {"P", cupp::uint64},  {"e", cupp::float16},    {"E", cupp::bfloat16},    {"f", cupp::float32},
      {"d", cupp::float64}, {"F", cupp::complex64},  {"D", cupp::complex128},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(dtype::parse(text), expected) << text;
    // A byte-order prefix is allowed on type characters too ('<f', '>d').
    for (const char order : {'<', '>', '=', '|'})
      EXPECT_EQ(dtype::parse(std::string(1, order) + text), expected) << order << text;
  }
  for (const auto& c : builtin_cases) EXPECT_EQ(dtype::parse(std::string(1, c.char_code)), c.type) << c.name;
}

TEST(DTypeParse, ArrayProtocolStrings) {
  const std::pair<const char*, dtype> cases[] = {
      {"b1", cupp::bool_},   {"i1", cupp::int8},      {"i2", cupp::int16},      {"i4", cupp::int32},
      {"i8", cupp::int64},   {"u1", cupp::uint8},     {"u2", cupp::uint16},     {"u4", cupp::uint32},
      {"u8", cupp::uint64},  {"f2", cupp::float16},   {"f4", cupp::float32},    {"f8", cupp::float64},
      {"c8", cupp::complex64}, {"c16", cupp::complex128},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_EQ(dtype::parse(text), expected) << text;
    for (const char order : {'<', '>', '=', '|'}) {
      const std::string spelled = std::string(1, order) + text;
      EXPECT_EQ(dtype::parse(spelled), expected) << spelled;
      const cupp::parsed_descr p = cupp::parse_descr(spelled);
      EXPECT_EQ(p.type, expected) << spelled;
      // Only multi-byte numbers have a byte order.
      EXPECT_EQ(p.big_endian, order == '>' && expected.itemsize() > 1) << spelled;
    }
  }
}

TEST(DTypeParse, DescrRoundTrip) {
  for (const auto& c : builtin_cases) {
    if (c.type == cupp::bfloat16) continue;  // '<V2': see BFloat16DescrIsVoid
    const cupp::parsed_descr p = cupp::parse_descr(c.type.descr());
    EXPECT_EQ(p.type, c.type) << c.name;
    EXPECT_FALSE(p.big_endian) << c.name;
  }
}

TEST(DTypeParse, BigEndian) {
  auto p = cupp::parse_descr(">i8");
  EXPECT_EQ(p.type, cupp::int64);
  EXPECT_TRUE(p.big_endian);
  p = cupp::parse_descr(">c16");
  EXPECT_EQ(p.type, cupp::complex128);
  EXPECT_TRUE(p.big_endian);
  p = cupp::parse_descr(">f2");
  EXPECT_EQ(p.type, cupp::float16);
  EXPECT_TRUE(p.big_endian);
  EXPECT_FALSE(cupp::parse_descr("<i8").big_endian);
  EXPECT_FALSE(cupp::parse_descr("=i8").big_endian);
  EXPECT_FALSE(cupp::parse_descr("|b1").big_endian);
  EXPECT_FALSE(cupp::parse_descr(">i1").big_endian);  // one byte: no order
  EXPECT_FALSE(cupp::parse_descr(">V8").big_endian);  // raw bytes: no order
  // parse() names the same dtype whatever the order.
  EXPECT_EQ(dtype::parse(">f8"), cupp::float64);
  // Structured descriptors: all big-endian, or mixed (rejected).
  p = cupp::parse_descr("[('x', '>f4'), ('y', '>i8'), ('flag', '|b1')]");
  EXPECT_TRUE(p.big_endian);
  EXPECT_EQ(p.type.itemsize(), 13u);
  EXPECT_FALSE(cupp::parse_descr("[('x', '<f4'), ('y', '|i1')]").big_endian);
  EXPECT_THROW(cupp::parse_descr("[('x', '>f4'), ('y', '<i8')]"), cupp::ValueError);
}

TEST(DTypeParse, CommaSeparatedFormats) {
  const dtype d = dtype::parse("f4, i8");
  ASSERT_TRUE(d.is_structured());
  ASSERT_EQ(d.fields().size(), 2u);
  EXPECT_EQ(d.fields()[0].name, "f0");
  EXPECT_EQ(d.fields()[1].name, "f1");
  EXPECT_EQ(d.fields()[1].offset, 4u);
  EXPECT_EQ(d.itemsize(), 12u);
  EXPECT_EQ(d, dtype::parse("<f4,<i8"));
}

// ---- void -----------------------------------------------------------------------------------

TEST(DTypeVoid, Properties) {
  const dtype v = dtype::void_(8);
  EXPECT_EQ(v.id(), type_id::void_);
  EXPECT_FALSE(v.is_builtin());
  EXPECT_FALSE(v.is_structured());
  EXPECT_EQ(v.kind(), 'V');
  EXPECT_EQ(v.char_code(), 'V');
  EXPECT_EQ(v.itemsize(), 8u);
  EXPECT_EQ(v.alignment(), 1u);
  EXPECT_EQ(v.name(), "V8");
  EXPECT_EQ(v.descr(), "|V8");
  EXPECT_TRUE(v.fields().empty());
  EXPECT_FALSE(v.is_integer() || v.is_inexact() || v.is_bool());
  EXPECT_THROW(dtype::void_(0), cupp::ValueError);
}

TEST(DTypeVoid, Parse) {
  for (const char* text : {"V8", "|V8", "<V8", ">V8", "=V8"}) EXPECT_EQ(dtype::parse(text), dtype::void_(8)) << text;
  EXPECT_EQ(dtype::parse("V1").itemsize(), 1u);
  EXPECT_EQ(dtype::parse("V4096").itemsize(), 4096u);
  EXPECT_THROW(dtype::parse("V0"), cupp::ValueError);
  EXPECT_THROW(dtype::parse("V"), cupp::ValueError);
  EXPECT_THROW(dtype::parse("void"), cupp::ValueError);
}

TEST(DTypeVoid, BFloat16DescrIsVoid) {
  // NumPy writes bfloat16 into .npy as '<V2'; read back it is plain 2-byte void.
  EXPECT_EQ(cupp::bfloat16.descr(), "<V2");
  const dtype back = dtype::parse(cupp::bfloat16.descr());
  EXPECT_EQ(back, dtype::void_(2));
  EXPECT_NE(back, cupp::bfloat16);
}

TEST(DTypeVoid, Equality) {
  EXPECT_EQ(dtype::void_(4), dtype::void_(4));
  EXPECT_NE(dtype::void_(4), dtype::void_(8));
  EXPECT_NE(dtype::void_(4), cupp::int32);
  EXPECT_NE(dtype::void_(2), cupp::bfloat16);
}

// ---- structured -----------------------------------------------------------------------------

TEST(DTypeStructured, PackedFromPairs) {
  const std::pair<std::string, dtype> spec[] = {{"x", cupp::float32}, {"y", cupp::int64}, {"ok", cupp::bool_}};
  const dtype d = dtype::structured(spec);
  ASSERT_TRUE(d.is_structured());
  EXPECT_EQ(d.kind(), 'V');
  EXPECT_EQ(d.char_code(), 'V');
  EXPECT_EQ(d.itemsize(), 13u);
  EXPECT_EQ(d.alignment(), 1u);  // NumPy: packed structs have alignment 1
  ASSERT_EQ(d.fields().size(), 3u);
  EXPECT_EQ(d.fields()[0].name, "x");
  EXPECT_EQ(d.fields()[0].offset, 0u);
  EXPECT_EQ(d.fields()[1].offset, 4u);
  EXPECT_EQ(d.fields()[2].offset, 12u);
  EXPECT_EQ(d.fields()[1].type, cupp::int64);
  EXPECT_EQ(d.descr(), "[('x', '<f4'), ('y', '<i8'), ('ok', '|b1')]");
  EXPECT_EQ(d.name(), d.descr());
  EXPECT_EQ(dtype::parse(d.descr()), d);
  std::ostringstream os;
  os << d;
  EXPECT_EQ(os.str(), d.descr());
}

TEST(DTypeStructured, AlignedLikeNumPy) {
  // np.dtype([('a', 'i1'), ('b', 'i4'), ('c', 'i2')], align=True): offsets 0, 4, 8; itemsize 12.
  const std::pair<std::string, dtype> spec[] = {{"a", cupp::int8}, {"b", cupp::int32}, {"c", cupp::int16}};
  const dtype d = dtype::structured(spec, /*align=*/true);
  ASSERT_EQ(d.fields().size(), 3u);
  EXPECT_EQ(d.fields()[0].offset, 0u);
  EXPECT_EQ(d.fields()[1].offset, 4u);
  EXPECT_EQ(d.fields()[2].offset, 8u);
  EXPECT_EQ(d.itemsize(), 12u);
  EXPECT_EQ(d.alignment(), 4u);
  // Its .npy descriptor, as NumPy writes it: gaps become unnamed void fields.
  EXPECT_EQ(d.descr(), "[('a', '|i1'), ('', '|V3'), ('b', '<i4'), ('c', '<i2'), ('', '|V2')]");
  const dtype back = dtype::parse(d.descr());
  EXPECT_EQ(back, d);
  EXPECT_EQ(back.itemsize(), 12u);
  ASSERT_EQ(back.fields().size(), 3u);  // padding entries are not fields
  EXPECT_EQ(back.fields()[1].offset, 4u);

  // np.dtype([('x', 'f4'), ('y', 'i8')], align=True): y at 8, itemsize 16.
  const std::pair<std::string, dtype> xy[] = {{"x", cupp::float32}, {"y", cupp::int64}};
  const dtype aligned = dtype::structured(xy, true);
  EXPECT_EQ(aligned.fields()[1].offset, 8u);
  EXPECT_EQ(aligned.itemsize(), 16u);
  EXPECT_EQ(aligned.alignment(), 8u);
  EXPECT_EQ(aligned.descr(), "[('x', '<f4'), ('', '|V4'), ('y', '<i8')]");
  EXPECT_NE(aligned, dtype::structured(xy, false));
  // complex64 aligns to 4, complex128 to 8.
  const std::pair<std::string, dtype> cz[] = {{"a", cupp::bool_}, {"z", cupp::complex64}, {"w", cupp::complex128}};
  const dtype c = dtype::structured(cz, true);
  EXPECT_EQ(c.fields()[1].offset, 4u);
  EXPECT_EQ(c.fields()[2].offset, 16u);
  EXPECT_EQ(c.itemsize(), 32u);
}

TEST(DTypeStructured, Nested) {
  const std::pair<std::string, dtype> point[] = {{"x", cupp::float32}, {"y", cupp::float32}};
  const dtype p = dtype::structured(point);
  const std::pair<std::string, dtype> spec[] = {{"p", p}, {"id", cupp::int64}};
  const dtype d = dtype::structured(spec);
  EXPECT_EQ(d.itemsize(), 16u);
  EXPECT_EQ(d.fields()[1].offset, 8u);
  EXPECT_TRUE(d.fields()[0].type.is_structured());
  EXPECT_EQ(d.descr(), "[('p', [('x', '<f4'), ('y', '<f4')]), ('id', '<i8')]");
  EXPECT_EQ(dtype::parse(d.descr()), d);
  EXPECT_EQ(dtype::parse("[('p', [('x', '<f4'), ('y', '<f4')]), ('id', '<i8')]").fields()[0].type, p);

  // Aligned nesting: np.dtype([('a', 'i1'), ('s', [('x', 'i1'), ('y', 'i8')])], align=True) puts
  // s at 8 (its alignment), with itemsize 16 for s and 24 in all.
  const std::pair<std::string, dtype> inner_spec[] = {{"x", cupp::int8}, {"y", cupp::int64}};
  const dtype inner = dtype::structured(inner_spec, true);
  EXPECT_EQ(inner.itemsize(), 16u);
  const std::pair<std::string, dtype> outer_spec[] = {{"a", cupp::int8}, {"s", inner}};
  const dtype outer = dtype::structured(outer_spec, true);
  EXPECT_EQ(outer.fields()[1].offset, 8u);
  EXPECT_EQ(outer.itemsize(), 24u);
  EXPECT_EQ(outer.descr(), "[('a', '|i1'), ('', '|V7'), ('s', [('x', '|i1'), ('', '|V7'), ('y', '<i8')])]");
  EXPECT_EQ(dtype::parse(outer.descr()), outer);
}

TEST(DTypeStructured, ExplicitOffsetsAndItemsize) {
  using cupp::field;
  const dtype d = dtype::structured({field{"a", cupp::int32, 0}, field{"b", cupp::float64, 8}}, 24);
  EXPECT_EQ(d.itemsize(), 24u);
  EXPECT_EQ(d.descr(), "[('a', '<i4'), ('', '|V4'), ('b', '<f8'), ('', '|V8')]");
  const dtype back = dtype::parse(d.descr());
  EXPECT_EQ(back, d);
  EXPECT_EQ(back.itemsize(), 24u);
  // Default itemsize: the end of the last field (rounded to the alignment when aligned).
  EXPECT_EQ(dtype::structured({field{"a", cupp::int64, 0}, field{"b", cupp::int8, 8}}).itemsize(), 9u);
  EXPECT_EQ(dtype::structured({field{"a", cupp::int64, 0}, field{"b", cupp::int8, 8}}, 0, true).itemsize(), 16u);
  // Trailing padding only.
  EXPECT_EQ(dtype::parse("[('a', '<i2'), ('', '|V6')]").itemsize(), 8u);
}

TEST(DTypeStructured, OutOfOrderFields) {
  using cupp::field;
  const dtype d = dtype::structured({field{"x", cupp::int32, 4}, field{"y", cupp::int32, 0}});
  EXPECT_EQ(d.itemsize(), 8u);
  // NumPy: "dtype.descr is not defined for types with overlapping or out-of-order fields".
  EXPECT_THROW((void)d.descr(), cupp::ValueError);
  // name() falls back to NumPy's dict form, which parse() reads back.
  EXPECT_EQ(d.name(), "{'names': ['x', 'y'], 'formats': ['<i4', '<i4'], 'offsets': [4, 0], 'itemsize': 8}");
  EXPECT_EQ(dtype::parse(d.name()), d);
}

TEST(DTypeStructured, DictForm) {
  const dtype d = dtype::parse("{'names': ['a', 'b'], 'formats': ['<i4', '<f8'], 'offsets': [0, 8], 'itemsize': 16}");
  EXPECT_EQ(d.itemsize(), 16u);
  EXPECT_EQ(d.fields()[1].offset, 8u);
  const dtype aligned = dtype::parse("{'names': ['a', 'b'], 'formats': ['i1', 'i4'], 'aligned': True}");
  EXPECT_EQ(aligned.fields()[1].offset, 4u);
  EXPECT_EQ(aligned.itemsize(), 8u);
  const dtype packed = dtype::parse("{'names': ['a', 'b'], 'formats': ['i1', 'i4']}");
  EXPECT_EQ(packed.itemsize(), 5u);
}

TEST(DTypeStructured, FieldNames) {
  // Empty names become f<i>, as numpy.dtype([('', 'f4')]) names them.
  using cupp::field;
  const dtype d = dtype::structured({field{"", cupp::float32, 0}, field{"", cupp::float32, 4}});
  EXPECT_EQ(d.fields()[0].name, "f0");
  EXPECT_EQ(d.fields()[1].name, "f1");
  // Names needing quotes print as Python's repr would.
  const dtype q = dtype::structured({field{"it's", cupp::int8, 0}, field{"a\"b", cupp::int8, 1}});
  EXPECT_EQ(q.descr(), "[(\"it's\", '|i1'), ('a\"b', '|i1')]");
  EXPECT_EQ(dtype::parse(q.descr()), q);
  // Double-quoted strings and extra whitespace are accepted.
  EXPECT_EQ(dtype::parse(" [ ( \"x\" , \"<f4\" ) , ('y','<i8',) , ] "), dtype::parse("[('x', '<f4'), ('y', '<i8')]"));
  // A scalar shape () is an ordinary field.
  EXPECT_EQ(dtype::parse("[('x', '<f4', ())]"), dtype::parse("[('x', '<f4')]"));
}

TEST(DTypeStructured, Errors) {
  using cupp::field;
  EXPECT_THROW(dtype::structured({field{"a", cupp::int32, 0}, field{"a", cupp::int32, 4}}), cupp::ValueError);
  EXPECT_THROW(dtype::structured({field{"a", cupp::int32, 0}, field{"b", cupp::int32, 2}}), cupp::ValueError);
  EXPECT_THROW(dtype::structured({field{"a", cupp::int32, 2}}, 0, true), cupp::ValueError);   // misaligned
  EXPECT_THROW(dtype::structured({field{"a", cupp::int32, 0}}, 2), cupp::ValueError);         // too small
  EXPECT_THROW(dtype::structured({field{"a", cupp::int32, 0}}, 6, true), cupp::ValueError);   // not a multiple
  EXPECT_THROW(dtype::structured(std::vector<field>{}), cupp::ValueError);                    // no bytes
  expect_value_error("[('x', '<f4'), ('x', '<i8')]", "structured dtype", "'x'");
  expect_value_error("[('x', '<f4', (3,))]", "Unsupported dtype", "shape");
  expect_value_error("[(('title', 'x'), '<f4')]", "Unsupported dtype", "title");
}

TEST(DTypeStructured, Equality) {
  using cupp::field;
  const dtype a = dtype::parse("[('x', '<f4'), ('y', '<i8')]");
  EXPECT_EQ(a, dtype::parse("[('x', '<f4'), ('y', '<i8')]"));
  EXPECT_EQ(a, dtype::structured({field{"x", cupp::float32, 0}, field{"y", cupp::int64, 4}}));
  EXPECT_NE(a, dtype::parse("[('x', '<f4'), ('z', '<i8')]"));              // name
  EXPECT_NE(a, dtype::parse("[('x', '<f4'), ('y', '<i4')]"));              // type
  EXPECT_NE(a, dtype::parse("[('x', '<f4'), ('', '|V4'), ('y', '<i8')]"));  // offset
  EXPECT_NE(a, dtype::parse("[('x', '<f4'), ('y', '<i8'), ('', '|V4')]"));  // itemsize
  EXPECT_NE(a, dtype::parse("[('y', '<i8'), ('x', '<f4')]"));              // order
  EXPECT_NE(a, dtype::void_(12));
  EXPECT_NE(a, cupp::float32);
  const dtype copy = a;
  EXPECT_EQ(copy, a);
}

// ---- errors -----------------------------------------------------------------------------------

TEST(DTypeErrors, Unsupported) {
  const char* cases[] = {
      // datetime64
      "datetime64", "datetime64[ns]", "M", "M8", "M8[ns]", "<M8[ns]", ">M8[us]",
      // timedelta64
      "timedelta64", "timedelta64[s]", "m", "m8", "<m8[ms]",
      // object
      "object", "O", "|O", "O8",
      // str
      "str", "U", "U10", "<U10", "str_",
      // bytes
      "bytes", "S", "S5", "|S5", "a5", "bytes_",
      // longdouble, clongdouble
      "longdouble", "clongdouble", "g", "G", "f16", "<f16", "c32", "float128", "complex256",
  };
  for (const char* text : cases) expect_value_error(text, "Unsupported dtype", text);
  // Inside a structured descriptor too.
  expect_value_error("[('t', '<M8[ns]'), ('v', '<f8')]", "Unsupported dtype", "M8[ns]");
  expect_value_error("[('name', '<U16')]", "Unsupported dtype", "U16");
  expect_value_error("[('o', '|O')]", "Unsupported dtype");
}

TEST(DTypeErrors, NotUnderstood) {
  const char* cases[] = {"xyz", "float33", "f3", "i16", "u3", "b2", "Float32", "FLOAT64", ">>f4",
                         "<", "<float32", "i-4", "f 4", "int 8", "x4", "k", "1f4"};
  for (const char* text : cases) expect_value_error(text, "data type '", "not understood");
  for (const char* text : cases) expect_value_error(text, "data type '" + std::string(text) + "' not understood");
  expect_value_error("", "data type '' not understood");
  // Malformed lists say where.
  const char* lists[] = {"[('x', '<f4')", "[('x',)]", "[1, 2]", "[('x', '<f4') ('y', '<f4')]", "[('x', 5)]",
                         "[('x', '<f4'), ]]", "{'names': ['a']}", "{'names': ['a'], 'formats': ['i4'], 'bad': 1}",
                         "[('x', 'xyz')]", "['f4']", "[(1, 'f4')]"};
  for (const char* text : lists) expect_value_error(text, "data type '", "not understood");
  // Hostile nesting is an error, not a crash.
  expect_value_error(std::string(100000, '['), "data type '", "nested too deeply");
}

// ---- finfo / iinfo ---------------------------------------------------------------------------

TEST(Finfo, Float16) {
  const cupp::finfo_t f = cupp::finfo(cupp::float16);
  EXPECT_EQ(f.type, cupp::float16);
  EXPECT_EQ(f.bits, 16);
  EXPECT_EQ(f.eps, 0.0009765625);
  EXPECT_EQ(f.epsneg, 0.00048828125);
  EXPECT_EQ(f.max, 65504.0);
  EXPECT_EQ(f.min, -65504.0);
  EXPECT_EQ(f.smallest_normal, 6.103515625e-05);
  EXPECT_EQ(f.smallest_subnormal, 5.960464477539063e-08);
  EXPECT_EQ(f.resolution, 0.0010004043579101562);  // float(np.finfo(np.float16).resolution)
  EXPECT_EQ(f.precision, 3);
  EXPECT_EQ(f.nmant, 10);
  EXPECT_EQ(f.nexp, 5);
  EXPECT_EQ(f.minexp, -14);
  EXPECT_EQ(f.maxexp, 16);
}

TEST(Finfo, BFloat16) {
  const cupp::finfo_t f = cupp::finfo(cupp::bfloat16);
  EXPECT_EQ(f.type, cupp::bfloat16);
  EXPECT_EQ(f.bits, 16);
  EXPECT_EQ(f.eps, 0.0078125);
  EXPECT_EQ(f.epsneg, 0.00390625);
  EXPECT_EQ(f.max, 3.3895313892515355e+38);
  EXPECT_EQ(f.min, -3.3895313892515355e+38);
  EXPECT_EQ(f.smallest_normal, 1.1754943508222875e-38);
  EXPECT_EQ(f.smallest_subnormal, 9.183549615799121e-41);
  EXPECT_EQ(f.resolution, 0.010009765625);  // bfloat16(0.01)
  EXPECT_EQ(f.precision, 2);
  EXPECT_EQ(f.nmant, 7);
  EXPECT_EQ(f.nexp, 8);
  EXPECT_EQ(f.minexp, -126);
  EXPECT_EQ(f.maxexp, 128);
}

TEST(Finfo, Float32) {
  const cupp::finfo_t f = cupp::finfo(cupp::float32);
  EXPECT_EQ(f.type, cupp::float32);
  EXPECT_EQ(f.bits, 32);
  EXPECT_EQ(f.eps, 1.1920928955078125e-07);
  EXPECT_EQ(f.epsneg, 5.960464477539063e-08);
  EXPECT_EQ(f.max, 3.4028234663852886e+38);
  EXPECT_EQ(f.min, -3.4028234663852886e+38);
  EXPECT_EQ(f.smallest_normal, 1.1754943508222875e-38);
  EXPECT_EQ(f.smallest_subnormal, 1.401298464324817e-45);
  EXPECT_EQ(f.resolution, 9.999999974752427e-07);  // float(np.float32(1e-6))
  EXPECT_EQ(f.precision, 6);
  EXPECT_EQ(f.nmant, 23);
  EXPECT_EQ(f.nexp, 8);
  EXPECT_EQ(f.minexp, -126);
  EXPECT_EQ(f.maxexp, 128);
}

TEST(Finfo, Float64) {
  const cupp::finfo_t f = cupp::finfo(cupp::float64);
  EXPECT_EQ(f.type, cupp::float64);
  EXPECT_EQ(f.bits, 64);
  EXPECT_EQ(f.eps, 2.220446049250313e-16);
  EXPECT_EQ(f.epsneg, 1.1102230246251565e-16);
  EXPECT_EQ(f.max, 1.7976931348623157e+308);
  EXPECT_EQ(f.min, -1.7976931348623157e+308);
  EXPECT_EQ(f.smallest_normal, 2.2250738585072014e-308);
  EXPECT_EQ(f.smallest_subnormal, 4.9406564584124654e-324);
  EXPECT_EQ(f.resolution, 1e-15);
  EXPECT_EQ(f.precision, 15);
  EXPECT_EQ(f.nmant, 52);
  EXPECT_EQ(f.nexp, 11);
  EXPECT_EQ(f.minexp, -1022);
  EXPECT_EQ(f.maxexp, 1024);
}

TEST(Finfo, ComplexGivesComponent) {
  EXPECT_EQ(cupp::finfo(cupp::complex64).type, cupp::float32);
  EXPECT_EQ(cupp::finfo(cupp::complex64).eps, cupp::finfo(cupp::float32).eps);
  EXPECT_EQ(cupp::finfo(cupp::complex128).type, cupp::float64);
  EXPECT_EQ(cupp::finfo(cupp::complex128).max, cupp::finfo(cupp::float64).max);
}

TEST(Finfo, RejectsNonInexact) {
  for (const dtype d : {cupp::bool_, cupp::int8, cupp::uint64, cupp::int32, dtype::void_(4)})
    EXPECT_THROW(cupp::finfo(d), cupp::ValueError) << d;
}

TEST(Iinfo, Values) {
  struct expected {
    dtype type;
    int bits;
    std::int64_t min;
    std::uint64_t max;
  };
  const expected cases[] = {
      {cupp::int8, 8, -128, 127},
      {cupp::int16, 16, -32768, 32767},
      {cupp::int32, 32, -2147483648LL, 2147483647ULL},
      {cupp::int64, 64, -9223372036854775807LL - 1, 9223372036854775807ULL},
      {cupp::uint8, 8, 0, 255},
      {cupp::uint16, 16, 0, 65535},
      {cupp::uint32, 32, 0, 4294967295ULL},
      {cupp::uint64, 64, 0, 18446744073709551615ULL},
  };
  for (const auto& c : cases) {
    const cupp::iinfo_t i = cupp::iinfo(c.type);
    EXPECT_EQ(i.type, c.type);
    EXPECT_EQ(i.bits, c.bits) << c.type;
    EXPECT_EQ(i.min, c.min) << c.type;
    EXPECT_EQ(i.max, c.max) << c.type;
  }
}

TEST(Iinfo, RejectsNonInteger) {
  for (const dtype d : {cupp::bool_, cupp::float16, cupp::bfloat16, cupp::float64, cupp::complex64, dtype::void_(8)})
    EXPECT_THROW(cupp::iinfo(d), cupp::ValueError) << d;
}

// ---- NumPy's own .npy headers ------------------------------------------------------------

#ifdef CUPP_CONFORMANCE_DIR
// Every descriptor NumPy 2.5.2 wrote into the conformance .npy files parses, and prints back
// exactly as NumPy wrote it ('<V2', bfloat16's, reads back as 2-byte void).
TEST(DTypeConformance, NpyHeaderDescriptors) {
  const std::filesystem::path root(CUPP_CONFORMANCE_DIR);
  if (!std::filesystem::exists(root)) GTEST_SKIP() << "no conformance data at " << root;
  std::map<std::string, int> seen;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (entry.path().extension() != ".npy") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    char prefix[12] = {};
    in.read(prefix, sizeof prefix);
    ASSERT_EQ(std::string(prefix + 1, 5), "NUMPY") << entry.path();
    const int major = prefix[6];
    std::size_t length;
    std::size_t start;
    if (major == 1) {
      length = static_cast<unsigned char>(prefix[8]) | static_cast<std::size_t>(static_cast<unsigned char>(prefix[9])) << 8;
      start = 10;
    } else {
      length = 0;
      for (int i = 0; i < 4; ++i) length |= static_cast<std::size_t>(static_cast<unsigned char>(prefix[8 + i])) << (8 * i);
      start = 12;
    }
    std::string header(length, '\0');
    in.seekg(static_cast<std::streamoff>(start));
    in.read(header.data(), static_cast<std::streamsize>(length));
    const std::string key = "'descr': ";
    const std::size_t at = header.find(key);
    ASSERT_NE(at, std::string::npos) << entry.path();
    std::string descr;
    if (header[at + key.size()] == '\'') {
      const std::size_t end = header.find('\'', at + key.size() + 1);
      descr = header.substr(at + key.size() + 1, end - at - key.size() - 1);
    } else {
      const std::size_t end = header.find(", 'fortran_order'", at);
      descr = header.substr(at + key.size(), end - at - key.size());
    }
    if (seen[descr]++ != 0) continue;
    const cupp::parsed_descr p = cupp::parse_descr(descr);
    const bool big_endian = descr.find('>') != std::string::npos;  // NumPy-written big-endian files
    EXPECT_EQ(p.big_endian, big_endian) << descr;
    std::string little = descr;
    std::replace(little.begin(), little.end(), '>', '<');
    if (descr == "<V2") {
      EXPECT_EQ(p.type, dtype::void_(2));
    } else {
      EXPECT_EQ(p.type.descr(), little) << entry.path();
    }
  }
  EXPECT_GE(seen.size(), 14u);  // every built-in descriptor but bfloat16's, and '<V2'
}
#endif
