// .npy on host arrays (no GPU): byte-exact agreement with files written by NumPy 2.5.2 (the
// conformance data), round trips of every dtype and shape, structured dtypes (packed, aligned
// with padding, nested), Fortran order, big-endian input, header versions 1.0/2.0/3.0,
// bfloat16 as '<V2', and files on disk. Hand-made files follow numpy.lib.format byte for byte.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "conformance.hpp"
#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "npy_bytes.hpp"

namespace {

using cupp::test::bytes_of;
using cupp::test::read_file;
using cupp::test::npy_file;

using cupp::dtype;
using cupp::host_array;
using cupp::shape_t;
namespace io = cupp::io;

std::string header_of(const std::vector<std::byte>& file) {
  const std::size_t length_field = std::to_integer<int>(file[6]) == 1 ? 2 : 4;
  std::size_t length = 0;
  for (std::size_t i = 0; i < length_field; ++i) length |= std::to_integer<std::size_t>(file[8 + i]) << (8 * i);
  return std::string(reinterpret_cast<const char*>(file.data()) + 8 + length_field, length);
}

host_array patterned(const dtype& type, shape_t shape, unsigned seed = 1) {
  host_array a(type, std::move(shape));
  std::mt19937 rng(seed);
  for (std::size_t i = 0; i < a.nbytes(); ++i) a.data()[i] = std::byte(rng() & 0xFF);
  if (type == cupp::bool_)
    for (std::size_t i = 0; i < a.nbytes(); ++i) a.data()[i] = std::byte(rng() & 1);
  return a;
}

void expect_same(const host_array& a, const host_array& b) {
  EXPECT_EQ(a.dtype(), b.dtype()) << a.dtype().name() << " vs " << b.dtype().name();
  EXPECT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.nbytes(), b.nbytes());
  if (a.nbytes() != 0) EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.nbytes()));
}

const std::vector<dtype>& builtin_dtypes() {
  static const std::vector<dtype> all = {cupp::bool_,   cupp::int8,    cupp::int16,   cupp::int32,    cupp::int64,
                                         cupp::uint8,   cupp::uint16,  cupp::uint32,  cupp::uint64,   cupp::float16,
                                         cupp::bfloat16, cupp::float32, cupp::float64, cupp::complex64, cupp::complex128};
  return all;
}

// ---- files written by NumPy -------------------------------------------------------------------

// Every case of the ufunc reference data: the inputs have the manifest's dtypes and shapes, and
// writing them back gives NumPy's bytes exactly.
TEST(NpyNumPyFiles, ManifestDtypesShapesAndByteExactRewrite) {
  const YAML::Node manifest = cupp::test::load_yaml(cupp::test::conformance_path("numpy-ref/manifest.yaml"));
  int checked = 0;
  for (const YAML::Node& c : manifest["cases"]) {
    const std::string dir = cupp::test::conformance_path("numpy-ref/ufunc/" + c["ufunc"].as<std::string>() + "/" +
                                                         c["case"].as<std::string>());
    for (std::size_t i = 0; i < c["in"].size(); ++i) {
      const std::string path = dir + "/in" + std::to_string(i) + ".npy";
      if (!std::filesystem::exists(path)) continue;
      const std::vector<std::byte> file = read_file(path);
      const host_array a = io::read_npy(file);
      ASSERT_EQ(a.dtype(), cupp::test::dtype_named(c["in"][i].as<std::string>())) << path;
      EXPECT_EQ(a.shape(), c["in_shapes"][i].as<shape_t>()) << path;
      EXPECT_EQ(io::write_npy(a), file) << path;
      ++checked;
    }
  }
  EXPECT_GT(checked, 2000);
}

// Values: int64 add is exact (wrapping), so out0 == in0 + in1 checks the data, not only the header.
TEST(NpyNumPyFiles, Int64AddValues) {
  const std::string dir = cupp::test::conformance_path("numpy-ref/ufunc/add/sig_qq");
  if (!std::filesystem::exists(dir + "/in0.npy")) GTEST_SKIP() << "no add/sig_qq case";
  const auto a = io::load_npy(dir + "/in0.npy").to_vector<std::int64_t>();
  const auto b = io::load_npy(dir + "/in1.npy").to_vector<std::int64_t>();
  const auto c = io::load_npy(dir + "/out0.npy").to_vector<std::int64_t>();
  ASSERT_EQ(a.size(), c.size());
  ASSERT_FALSE(a.empty());
  for (std::size_t i = 0; i < a.size(); ++i)
    EXPECT_EQ(static_cast<std::int64_t>(static_cast<std::uint64_t>(a[i]) + static_cast<std::uint64_t>(b[i])), c[i]);
}

// The bfloat16 reference files hold uint16 bit patterns ('<u2'); fabs clears the sign bit.
TEST(NpyNumPyFiles, Bfloat16BitPatterns) {
  const std::string dir = cupp::test::conformance_path("numpy-ref-extra/ufunc/fabs/sig_bfloat16");
  const host_array in = io::load_npy(dir + "/in0.npy");
  const host_array out = io::load_npy(dir + "/out0.npy");
  EXPECT_EQ(in.dtype(), cupp::uint16);
  EXPECT_EQ(in.shape(), shape_t{40});
  const auto x = in.to_vector<std::uint16_t>();
  const auto y = out.to_vector<std::uint16_t>();
  ASSERT_EQ(x.size(), y.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const bool nan = (x[i] & 0x7F80) == 0x7F80 && (x[i] & 0x7F) != 0;
    if (!nan) EXPECT_EQ(y[i], x[i] & 0x7FFF) << i;
  }
  // Stored as bfloat16 the same bits become '<V2' and load back as bfloat16 on request.
  host_array bf(cupp::bfloat16, in.shape());
  std::memcpy(bf.data(), in.data(), in.nbytes());
  const std::vector<std::byte> file = io::write_npy(bf);
  EXPECT_NE(header_of(file).find("'descr': '<V2'"), std::string::npos);
  EXPECT_EQ(io::read_npy(file).dtype(), dtype::void_(2));
  expect_same(io::read_npy(file, {.dtype = cupp::bfloat16}), bf);
  EXPECT_EQ(io::read_npy(file, {.dtype = cupp::bfloat16}).to_vector<cupp::bfloat16_t>()[3].bits(), x[3]);
}

// 0-d arrays from NumPy (shape ()) read as 0-d.
TEST(NpyNumPyFiles, ZeroDimensional) {
  const std::vector<std::byte> file = npy_file("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string("\0\0\0\0\0\0\xf8\x3f", 8));
  const host_array a = io::read_npy(file);
  EXPECT_EQ(a.ndim(), 0);
  EXPECT_EQ(a.item<double>(), 1.5);
  EXPECT_EQ(io::write_npy(a), file);
}

// ---- round trips --------------------------------------------------------------------------------

TEST(NpyRoundTrip, EveryDtypeAndShape) {
  const std::vector<shape_t> shapes = {{}, {0}, {7}, {3, 0, 2}, {2, 3, 4}, {1, 1, 1, 1, 5}};
  for (const dtype& type : builtin_dtypes()) {
    for (const shape_t& shape : shapes) {
      const host_array a = patterned(type, shape);
      for (const bool fortran : {false, true}) {
        const std::vector<std::byte> file = io::write_npy(a, {.fortran_order = fortran});
        EXPECT_EQ(file.size() % 64, a.nbytes() % 64);  // the header is 64-byte aligned
        const host_array b = io::read_npy(file, {.dtype = type});
        expect_same(a, b);
        const std::string header = header_of(file);
        EXPECT_NE(header.find(fortran && shape.size() >= 2 ? "'fortran_order': True" : "'fortran_order': False"),
                  std::string::npos)
            << header;
      }
    }
  }
}

TEST(NpyRoundTrip, HeaderTextIsNumPys) {
  const host_array a(cupp::float32, {3, 4});
  const std::string header = header_of(io::write_npy(a));
  // The dict, 21 - len("3") spaces for the growing axis, then spaces and a newline up to 128 bytes.
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }";
  EXPECT_EQ(header, dict + std::string(128 - 10 - dict.size() - 1, ' ') + "\n");
  EXPECT_EQ(header.find_first_not_of(' ', dict.size()), header.size() - 1);
  const std::vector<std::byte> one_d = io::write_npy(host_array(cupp::complex128, {5}));
  EXPECT_EQ(header_of(one_d).substr(0, 58 + 20), "{'descr': '<c16', 'fortran_order': False, 'shape': (5,), }" + std::string(20, ' '));
  EXPECT_EQ(one_d.size(), 128u + 80u);
}

TEST(NpyStructured, PackedAlignedNestedRoundTrip) {
  const std::pair<std::string, dtype> fields[] = {{"a", cupp::uint8}, {"b", cupp::float64}, {"c", cupp::int16}};
  const dtype packed = dtype::structured(fields, false);
  const dtype aligned = dtype::structured(fields, true);
  ASSERT_EQ(aligned.itemsize(), 24u);
  const std::pair<std::string, dtype> outer_fields[] = {{"id", cupp::int32}, {"inner", aligned}, {"z", cupp::complex64}};
  const dtype nested = dtype::structured(outer_fields, true);
  for (const dtype& type : {packed, aligned, nested}) {
    const host_array a = patterned(type, {2, 3});
    const std::vector<std::byte> file = io::write_npy(a);
    expect_same(io::read_npy(file), a);
    expect_same(io::read_npy(io::write_npy(a, {.fortran_order = true})), a);
  }
  EXPECT_NE(header_of(io::write_npy(host_array(aligned, {1})))
                .find("'descr': [('a', '|u1'), ('', '|V7'), ('b', '<f8'), ('c', '<i2'), ('', '|V6')], "),
            std::string::npos);
  EXPECT_NE(header_of(io::write_npy(host_array(packed, {1}))).find("'descr': [('a', '|u1'), ('b', '<f8'), ('c', '<i2')], "),
            std::string::npos);
}

// As numpy.save writes np.zeros(2, dtype=[('x', '<f4'), ('y', '<i8')]) with align=True.
TEST(NpyStructured, HandMadeAlignedFile) {
  std::string data(32, '\0');
  const float x0 = 1.5f;
  const std::int64_t y1 = -7;
  std::memcpy(data.data(), &x0, 4);
  std::memcpy(data.data() + 16 + 8, &y1, 8);
  const auto file = npy_file("{'descr': [('x', '<f4'), ('', '|V4'), ('y', '<i8')], 'fortran_order': False, 'shape': (2,), }" +
                                 std::string(20, ' '),
                             data);
  const host_array a = io::read_npy(file);
  ASSERT_TRUE(a.dtype().is_structured());
  ASSERT_EQ(a.dtype().fields().size(), 2u);
  EXPECT_EQ(a.dtype().fields()[1].name, "y");
  EXPECT_EQ(a.dtype().fields()[1].offset, 8u);
  EXPECT_EQ(a.dtype().itemsize(), 16u);
  EXPECT_EQ(std::memcmp(a.data(), data.data(), 32), 0);
  EXPECT_EQ(io::write_npy(a), file);
}

TEST(NpyFortran, HandMadeFortranFiles) {
  // np.asfortranarray(np.arange(6, dtype='<i4').reshape(2, 3)): data in column order.
  std::string data;
  for (const std::int32_t v : {0, 3, 1, 4, 2, 5}) data.append(reinterpret_cast<const char*>(&v), 4);
  const auto file = npy_file("{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }" + std::string(20, ' '), data);
  const host_array a = io::read_npy(file);
  EXPECT_EQ(a.shape(), (shape_t{2, 3}));
  EXPECT_EQ(a.to_vector<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(io::write_npy(a, {.fortran_order = true}), file);
  // Three dimensions: element (i, j, k) of shape (2, 3, 4) at i + 2j + 6k.
  std::string data3;
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 2; ++i) {
        const std::int16_t v = static_cast<std::int16_t>(100 * i + 10 * j + k);
        data3.append(reinterpret_cast<const char*>(&v), 2);
      }
  const host_array b = io::read_npy(npy_file("{'descr': '<i2', 'fortran_order': True, 'shape': (2, 3, 4), }", data3));
  const auto v = b.to_vector<std::int16_t>();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(v[(i * 3 + j) * 4 + k], 100 * i + 10 * j + k);
  // A 1-d Fortran file is the same as C order.
  EXPECT_EQ(io::read_npy(npy_file("{'descr': '<i2', 'fortran_order': True, 'shape': (3,), }", data3.substr(0, 6)))
                .to_vector<std::int16_t>(),
            (std::vector<std::int16_t>{0, 100, 10}));
}

TEST(NpyBigEndian, ScalarsComplexAndStructured) {
  // '>i8' [1, -2, 258]
  const auto i8 = io::read_npy(npy_file("{'descr': '>i8', 'fortran_order': False, 'shape': (3,), }",
                                        std::string("\0\0\0\0\0\0\0\x01\xff\xff\xff\xff\xff\xff\xff\xfe\0\0\0\0\0\0\x01\x02", 24)));
  EXPECT_EQ(i8.dtype(), cupp::int64);
  EXPECT_EQ(i8.to_vector<std::int64_t>(), (std::vector<std::int64_t>{1, -2, 258}));
  // '>f4' [1.0, -2.5]; '>u2' [0x0102]; '>f2' [1.0]
  EXPECT_EQ(io::read_npy(npy_file("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", std::string("\x3f\x80\0\0\xc0\x20\0\0", 8)))
                .to_vector<float>(),
            (std::vector<float>{1.0f, -2.5f}));
  EXPECT_EQ(io::read_npy(npy_file("{'descr': '>u2', 'fortran_order': False, 'shape': (1,), }", "\x01\x02")).item<std::uint16_t>(), 0x0102);
  EXPECT_EQ(io::read_npy(npy_file("{'descr': '>f2', 'fortran_order': False, 'shape': (), }", std::string("\x3c\x00", 2))).item<double>(), 1.0);
  // '>c8' (1+2j): each component is swapped on its own.
  const auto c8 = io::read_npy(npy_file("{'descr': '>c8', 'fortran_order': False, 'shape': (), }", std::string("\x3f\x80\0\0\x40\0\0\0", 8)));
  EXPECT_EQ(c8.to_vector<std::complex<float>>()[0], std::complex<float>(1.0f, 2.0f));
  // Structured, per field; '|u1' and '|V2' fields untouched.
  const auto s = io::read_npy(npy_file("{'descr': [('x', '>i4'), ('f', '|u1'), ('v', '|V2'), ('y', '>f8')], 'fortran_order': False, 'shape': (1,), }",
                                       std::string("\0\0\x01\x00\x07\xaa\xbb\x40\x04\0\0\0\0\0\0", 15)));
  ASSERT_EQ(s.dtype().itemsize(), 15u);
  std::int32_t x;
  double y;
  std::memcpy(&x, s.data(), 4);
  std::memcpy(&y, s.data() + 7, 8);
  EXPECT_EQ(x, 256);
  EXPECT_EQ(std::to_integer<int>(s.data()[4]), 7);
  EXPECT_EQ(std::to_integer<int>(s.data()[5]), 0xaa);
  EXPECT_EQ(y, 2.5);
  // Big-endian Fortran order.
  const auto bf = io::read_npy(npy_file("{'descr': '>i2', 'fortran_order': True, 'shape': (2, 2), }", std::string("\0\x01\0\x03\0\x02\0\x04", 8)));
  EXPECT_EQ(bf.to_vector<std::int16_t>(), (std::vector<std::int16_t>{1, 2, 3, 4}));
  // Written back little-endian.
  EXPECT_NE(header_of(io::write_npy(i8)).find("'<i8'"), std::string::npos);
}

TEST(NpyVersions, TwoAndThree) {
  // Format 2.0: a 4-byte header length; format 3.0: a UTF-8 header.
  const auto v2 = io::read_npy(npy_file("{'descr': '<u1', 'fortran_order': False, 'shape': (2,), }", "\x05\x06", 2));
  EXPECT_EQ(v2.to_vector<std::uint8_t>(), (std::vector<std::uint8_t>{5, 6}));
  const auto v3 = io::read_npy(npy_file("{'descr': [('\xe6\x95\xb0', '<i2')], 'fortran_order': False, 'shape': (), }", std::string("\x01\x00", 2), 3));
  EXPECT_EQ(v3.dtype().fields()[0].name, "\xe6\x95\xb0");
  // The writer picks 3.0 for a name outside latin-1 and 1.0 (latin-1 bytes) for 'é'.
  const auto w3 = io::write_npy(v3);
  EXPECT_EQ(std::to_integer<int>(w3[6]), 3);
  EXPECT_EQ(w3, npy_file("{'descr': [('\xe6\x95\xb0', '<i2')], 'fortran_order': False, 'shape': (), }", std::string("\x01\x00", 2), 3));
  const std::pair<std::string, dtype> latin[] = {{"caf\xc3\xa9", cupp::int8}};
  const auto w1 = io::write_npy(host_array(dtype::structured(latin), {}));
  EXPECT_EQ(std::to_integer<int>(w1[6]), 1);
  EXPECT_NE(header_of(w1).find("'caf\xe9'"), std::string::npos);
  EXPECT_EQ(io::read_npy(w1).dtype().fields()[0].name, "caf\xc3\xa9");
  // A header over 64 KiB needs 2.0 (and a raised max_header_size to read back, as in NumPy).
  std::vector<std::pair<std::string, dtype>> many;
  for (int i = 0; i < 3500; ++i) many.push_back({"field_number_" + std::to_string(i), cupp::uint8});
  const host_array wide = patterned(dtype::structured(many), {2});
  const auto w2 = io::write_npy(wide);
  EXPECT_EQ(std::to_integer<int>(w2[6]), 2);
  EXPECT_EQ((w2.size() - wide.nbytes()) % 64, 0u);
  EXPECT_THROW(io::read_npy(w2), cupp::ValueError);
  expect_same(io::read_npy(w2, {.max_header_size = 1 << 20}), wide);
}

TEST(NpyHeader, AcceptedSpellings) {
  const std::string data("\x01\0\x02\0", 4);
  for (const char* dict : {"{'shape': (2,), 'fortran_order': False, 'descr': '<i2'}",
                           "{\"descr\": \"<i2\", \"fortran_order\": False, \"shape\": (2L,)}",
                           "{ 'descr' : '<i2' ,\n'fortran_order':False,'shape':(2,),}",
                           "{'descr': 'int16', 'fortran_order': False, 'shape': (2,)}",
                           "{'descr': [('', '<i2')], 'fortran_order': False, 'shape': (2,)}"}) {
    const host_array a = io::read_npy(npy_file(dict, data));
    EXPECT_EQ(a.size(), 2) << dict;
    EXPECT_EQ(a.dtype().itemsize(), 2u) << dict;
  }
  // Trailing bytes after the data are ignored, as numpy.load ignores them.
  EXPECT_EQ(io::read_npy(npy_file("{'descr': '<i2', 'fortran_order': False, 'shape': (1,)}", data)).to_vector<std::int16_t>(),
            std::vector<std::int16_t>{1});
}

TEST(NpyBfloat16, ReinterpretationRules) {
  host_array a(cupp::bfloat16, {3});
  auto* p = reinterpret_cast<std::uint16_t*>(a.data());
  p[0] = 0x3F80, p[1] = 0xC000, p[2] = 0x7F80;
  const auto file = io::write_npy(a);
  const host_array b = io::read_npy(file, {.dtype = cupp::bfloat16});
  EXPECT_EQ(b.to_vector<cupp::bfloat16_t>()[1].bits(), 0xC000);
  EXPECT_THROW(io::read_npy(file, {.dtype = cupp::float32}), cupp::ValueError);  // other size
  // A typed file is not reinterpreted: '<u2' stays uint16 unless asked for uint16.
  host_array u(cupp::uint16, {3});
  EXPECT_THROW(io::read_npy(io::write_npy(u), {.dtype = cupp::bfloat16}), cupp::ValueError);
  EXPECT_NO_THROW(io::read_npy(io::write_npy(u), {.dtype = cupp::uint16}));
  // Structured with a bfloat16 field: written as '<V2', read back with the typed dtype.
  const std::pair<std::string, dtype> fields[] = {{"w", cupp::bfloat16}, {"n", cupp::int32}};
  const dtype typed = dtype::structured(fields);
  const host_array s = patterned(typed, {4});
  const auto sfile = io::write_npy(s);
  EXPECT_NE(header_of(sfile).find("[('w', '<V2'), ('n', '<i4')]"), std::string::npos);
  expect_same(io::read_npy(sfile, {.dtype = typed}), s);
}

TEST(NpyFiles, SaveLoadAndIoErrors) {
  const auto dir = std::filesystem::temp_directory_path() / ("cupp_npy_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const host_array a = patterned(cupp::complex64, {4, 5});
  io::save_npy(dir / "a.npy", a);
  expect_same(io::load_npy(dir / "a.npy"), a);
  io::save_npy(dir / "f.npy", a, {.fortran_order = true});
  expect_same(io::load_npy(dir / "f.npy"), a);
  // Big-endian from disk.
  {
    const auto file = npy_file("{'descr': '>u4', 'fortran_order': False, 'shape': (1,), }", std::string("\x01\x02\x03\x04", 4));
    std::ofstream(dir / "be.npy", std::ios::binary).write(reinterpret_cast<const char*>(file.data()), file.size());
  }
  EXPECT_EQ(io::load_npy(dir / "be.npy").item<std::uint32_t>(), 0x01020304u);
  EXPECT_THROW(io::load_npy(dir / "missing.npy"), cupp::Error);
  EXPECT_THROW(io::load_npy(dir), cupp::Error);
  EXPECT_THROW(io::save_npy(dir / "no" / "such" / "dir.npy", a), cupp::Error);
  std::filesystem::remove_all(dir);
}

}  // namespace
