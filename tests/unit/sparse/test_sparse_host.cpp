// The sparse module without a GPU: the index dtype rule (SciPy's get_index_dtype by maxval), the
// value dtypes SciPy allows (its error message for the others), cuSPARSE status codes turned into
// CudaError naming the call, and the `format` member of SciPy's .npz files (numpy.array(b'csr'),
// |S3) written byte for byte as numpy.save writes it and read back, also in the <U3 form of old
// SciPy files, with malformed members refused; the module's own device code compiles with NVRTC
// (the indptr expansion, tocsc's pack/unpack, the products program of every value dtype), and
// the CUPP_SPARSE_TOCSC / CUPP_SPARSE_SPMM / CUPP_SPARSE_SPMV switches parse as documented.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cupp/errors.hpp"
#include "compiler/nvrtc_program.hpp"
#include "cusparse_wrap.hpp"
#include "device_program.hpp"
#include "error_of.hpp"
#include "npz_format.hpp"
#include "own_kernels.hpp"
#include "primitives.hpp"
#include "sparse_device_headers.hpp"

namespace cupp {
namespace {

using test::error_of;

TEST(SparseHost, IndexDtypeIsInt32UntilAValueNeedsInt64) {
  EXPECT_EQ(sparse::detail::index_dtype_for(0), int32);
  EXPECT_EQ(sparse::detail::index_dtype_for(2147483647), int32);
  EXPECT_EQ(sparse::detail::index_dtype_for(2147483648LL), int64);
}

// sparse::select's slices against Python's slice.indices(n) (the table printed by Python 3:
// start, step and len(range(...)) for each (n, slice)).
TEST(SparseHost, SlicesPickWhatPythonsSliceIndicesDoes) {
  struct row {
    std::int64_t n;
    cupp::slice s;
    std::int64_t start, step, count;
  };
  const std::vector<row> table{
      {5, {std::nullopt, std::nullopt, std::nullopt}, 0, 1, 5},
      {5, {1, std::nullopt, 2}, 1, 2, 2},
      {5, {std::nullopt, std::nullopt, -1}, 4, -1, 5},
      {5, {-1, std::nullopt, -2}, 4, -2, 3},
      {5, {std::nullopt, -7, -1}, 4, -1, 5},
      {5, {-7, std::nullopt, std::nullopt}, 0, 1, 5},
      {5, {9, std::nullopt, -1}, 4, -1, 5},
      {5, {2, 9, 3}, 2, 3, 1},
      {5, {3, 1, std::nullopt}, 0, 1, 0},
      {5, {3, 1, -1}, 3, -1, 2},
      {5, {-2, -1, std::nullopt}, 3, 1, 1},
      {5, {0, 0, std::nullopt}, 0, 1, 0},
      {0, {std::nullopt, std::nullopt, -1}, 0, -1, 0},
      {0, {1, 3, std::nullopt}, 0, 1, 0},
      {1, {std::nullopt, std::nullopt, -3}, 0, -3, 1},
      {1, {-1, std::nullopt, std::nullopt}, 0, 1, 1},
      {5, {std::nullopt, 2, -2}, 4, -2, 1},
      {5, {4, -9, -3}, 4, -3, 2},
  };
  for (const row& r : table) {
    const sparse::detail::slice_range got = sparse::detail::range_of(r.s, r.n);
    EXPECT_EQ(got.count, r.count) << "n " << r.n << " start " << r.s.start.value_or(-99) << " stop "
                                  << r.s.stop.value_or(-99) << " step " << r.s.step.value_or(-99);
    if (r.count > 0) {
      EXPECT_EQ(got.start, r.start);
      EXPECT_EQ(got.step, r.step);
    }
  }
  EXPECT_EQ(error_of<ValueError>([] { (void)sparse::detail::range_of(cupp::slice(0, 3, 0), 5); }),
            "slice step cannot be zero");
}

TEST(SparseHost, ValueDtypesAreSciPys) {
  for (const dtype& t : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64, complex64,
                         complex128})
    EXPECT_NO_THROW(sparse::detail::require_value_dtype(t)) << t.name();
  const std::string m = error_of<ValueError>([] { sparse::detail::require_value_dtype(float16); });
  EXPECT_EQ(m.rfind("scipy.sparse does not support dtype float16. The only supported types are: bool, int8,", 0), 0u)
      << m;
  EXPECT_NE(error_of<ValueError>([] { sparse::detail::require_value_dtype(bfloat16); }), "<no error>");
}

TEST(SparseHost, CuSparseStatusIsACudaErrorNamingTheCall) {
  EXPECT_NO_THROW(sparse::detail::check(CUSPARSE_STATUS_SUCCESS, "cusparseSpMV"));
  try {
    sparse::detail::check(CUSPARSE_STATUS_INVALID_VALUE, "cusparseSpMV");
    FAIL() << "no throw";
  } catch (const CudaError& e) {
    EXPECT_EQ(std::string(e.what()), "cusparseSpMV failed: CUSPARSE_STATUS_INVALID_VALUE (3)");
    EXPECT_EQ(e.code(), 3);
  }
  EXPECT_EQ(error_of<TypeError>([] { sparse::detail::value_type(int64, "spmv"); }),
            "spmv: cuSPARSE computes in float32, float64, complex64 and complex128, not int64 (docs/deviations.md)");
  EXPECT_EQ(sparse::detail::value_type(complex64, "spmv"), CUDA_C_32F);
  EXPECT_EQ(sparse::detail::index_type(int64), CUSPARSE_INDEX_64I);
}

std::string text_of(const std::vector<std::byte>& b) { return std::string(reinterpret_cast<const char*>(b.data()), b.size()); }

TEST(SparseHost, FormatMemberIsNumpySaveOfABytesScalar) {
  const std::vector<std::byte> b = sparse::detail::format_member("csr");
  const std::string t = text_of(b);
  ASSERT_GE(t.size(), 13u);
  EXPECT_EQ(t.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  // numpy.save(f, numpy.array(b'csr')): the header dict, padded with spaces to a multiple of 64
  EXPECT_NE(t.find("{'descr': '|S3', 'fortran_order': False, 'shape': (), }"), std::string::npos) << t;
  EXPECT_EQ((t.size() - 3) % 64, 0u);
  EXPECT_EQ(t.substr(t.size() - 4), "\ncsr");
  EXPECT_EQ(sparse::detail::read_format_member(b), "csr");
}

TEST(SparseHost, FormatMemberReadsOldUnicodeFormAndRefusesOthers) {
  std::string header = "{'descr': '<U3', 'fortran_order': False, 'shape': (), }";
  header.append(128 - 10 - header.size() - 1, ' ');
  header.push_back('\n');
  std::string file = std::string("\x93NUMPY\x01\x00", 8);
  file.push_back(static_cast<char>(header.size()));
  file.push_back('\0');
  file += header;
  for (char c : std::string("coo")) file += std::string(1, c) + std::string(3, '\0');
  std::vector<std::byte> bytes(file.size());
  std::memcpy(bytes.data(), file.data(), file.size());
  EXPECT_EQ(sparse::detail::read_format_member(bytes), "coo");
  const std::vector<std::byte> garbage(20, std::byte{0x41});
  EXPECT_NE(error_of<ValueError>([&] { sparse::detail::read_format_member(garbage); }), "<no error>");
  bytes.resize(bytes.size() - 8);  // truncated data
  EXPECT_NE(error_of<ValueError>([&] { sparse::detail::read_format_member(bytes); }), "<no error>");
}

// The module's device code is embedded under its include name and compiles for sm_90 with NVRTC
// (no GPU needed), and not without the module's headers.
TEST(SparseHost, ModuleDeviceCodeIsEmbeddedAndCompiles) {
  bool found = false;
  for (const cupp::detail::embedded_header& h : sparse::detail::embedded_headers())
    found |= h.name == "cupp/sparse/expand.cuh" &&
             h.contents.find("cupp_sparse_expand_ptr_i64") != std::string_view::npos;
  EXPECT_TRUE(found);
  const cupp::detail::routine_program p = sparse::detail::expand_program();
  const cupp::detail::nvrtc_output out = cupp::detail::nvrtc_compile(
      {.program_name = p.name, .source = p.source, .name_expressions = p.kernels, .arch = 90,
       .extra_headers = p.headers});
  EXPECT_EQ(out.lowered_names.size(), 2u);
  EXPECT_FALSE(out.binary.empty());
  EXPECT_THROW(cupp::detail::nvrtc_compile({.program_name = p.name, .source = p.source,
                                            .name_expressions = p.kernels, .arch = 90}),
               std::exception);
}

// tocsc's pack/unpack kernels and the products program of every value dtype SciPy takes compile for
// sm_90 (one program per dtype, four kernels each, six for float and double, and spmm_vec's program
// of float and double, the own SpGEMM's of the float and complex dtypes); dtypes SciPy's products
// refuse have none.
TEST(SparseHost, OwnKernelProgramsCompileForEveryValueDtype) {
  const auto compile = [](const cupp::detail::routine_program& p) {
    return cupp::detail::nvrtc_compile({.program_name = p.name, .source = p.source, .name_expressions = p.kernels,
                                        .arch = 90, .extra_headers = p.headers});
  };
  const cupp::detail::routine_program t = sparse::detail::transpose_program();
  const cupp::detail::nvrtc_output tout = compile(t);
  EXPECT_EQ(tout.lowered_names.size(), 12u);
  EXPECT_FALSE(tout.binary.empty());
  for (const cupp::dtype type : {bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float32, float64,
                                 complex64, complex128}) {
    SCOPED_TRACE(type.name());
    const cupp::detail::routine_program p = sparse::detail::products_program(type);
    const cupp::detail::nvrtc_output out = compile(p);
    EXPECT_EQ(out.lowered_names.size(), type == float32 || type == float64 ? 6u : 4u);  // + spmv_groups
    EXPECT_FALSE(out.binary.empty());
  }
  for (const cupp::dtype type : {float32, float64}) {  // spmm_vec's two forms, i32 and i64 each
    SCOPED_TRACE(type.name());
    const cupp::detail::nvrtc_output out = compile(sparse::detail::spmm_vec_program(type));
    EXPECT_EQ(out.lowered_names.size(), 4u);
    EXPECT_FALSE(out.binary.empty());
  }
  for (const cupp::dtype type : {float32, float64, complex64, complex128}) {  // own SpGEMM: five kernels
    SCOPED_TRACE(type.name());
    const cupp::detail::nvrtc_output out = compile(sparse::detail::spgemm_program(type));
    EXPECT_EQ(out.lowered_names.size(), 5u);
    EXPECT_FALSE(out.binary.empty());
  }
  EXPECT_EQ(error_of<TypeError>([] { sparse::detail::spgemm_program(int32); }),
            "sparse own SpGEMM: float32, float64, complex64 or complex128, not int32");
  EXPECT_EQ(error_of<TypeError>([] { sparse::detail::spmm_vec_program(int32); }),
            "sparse spmm_vec: float32 and float64 only, not int32");
  EXPECT_EQ(error_of<TypeError>([] { sparse::detail::products_program(float16); }),
            "sparse products: no supported conversion for dtype float16");
}

TEST(SparseHost, KernelSwitchesParseTheirValues) {
  using sparse::detail::parse_spmm_method;
  using sparse::detail::parse_tocsc_method;
  using sparse::detail::spmm_method;
  using sparse::detail::tocsc_method;
  EXPECT_EQ(parse_tocsc_method("", "CUPP_SPARSE_TOCSC"), tocsc_method::auto_);
  EXPECT_EQ(parse_tocsc_method("auto", "CUPP_SPARSE_TOCSC"), tocsc_method::auto_);
  EXPECT_EQ(parse_tocsc_method("sort", "CUPP_SPARSE_TOCSC"), tocsc_method::sort);
  EXPECT_EQ(parse_tocsc_method("cusparse", "CUPP_SPARSE_TOCSC"), tocsc_method::cusparse);
  EXPECT_EQ(error_of<ValueError>([] { parse_tocsc_method("radix", "CUPP_SPARSE_TOCSC"); }),
            "CUPP_SPARSE_TOCSC must be sort, cusparse or auto, not 'radix'");
  EXPECT_EQ(parse_spmm_method("", "CUPP_SPARSE_SPMM"), spmm_method::auto_);
  EXPECT_EQ(parse_spmm_method("cupp", "CUPP_SPARSE_SPMM"), spmm_method::cupp);
  EXPECT_EQ(parse_spmm_method("cusparse", "CUPP_SPARSE_SPMM"), spmm_method::cusparse);
  EXPECT_EQ(error_of<ValueError>([] { parse_spmm_method("alg3", "CUPP_SPARSE_SPMM"); }),
            "CUPP_SPARSE_SPMM must be cupp, cusparse or auto, not 'alg3'");
  using sparse::detail::parse_spmv_method;
  using sparse::detail::spmv_method;
  EXPECT_EQ(parse_spmv_method("cupp", "CUPP_SPARSE_SPMV"), spmv_method::cupp);
  EXPECT_EQ(parse_spmv_method("", "CUPP_SPARSE_SPMV"), spmv_method::auto_);
  EXPECT_EQ(error_of<ValueError>([] { parse_spmv_method("alg2", "CUPP_SPARSE_SPMV"); }),
            "CUPP_SPARSE_SPMV must be cupp, cusparse or auto, not 'alg2'");
  using sparse::detail::parse_spgemm_method;
  using sparse::detail::spgemm_method;
  EXPECT_EQ(parse_spgemm_method("", "CUPP_SPARSE_SPGEMM"), spgemm_method::auto_);
  EXPECT_EQ(parse_spgemm_method("cupp", "CUPP_SPARSE_SPGEMM"), spgemm_method::cupp);
  EXPECT_EQ(parse_spgemm_method("cusparse", "CUPP_SPARSE_SPGEMM"), spgemm_method::cusparse);
  EXPECT_EQ(error_of<ValueError>([] { parse_spgemm_method("alg3", "CUPP_SPARSE_SPGEMM"); }),
            "CUPP_SPARSE_SPGEMM must be cupp, cusparse or auto, not 'alg3'");
  // the own SpGEMM's block cap keeps its static shared memory under 48 KiB (8-byte keys + values)
  EXPECT_EQ(sparse::detail::own_spgemm_block_cap(float32), 2048);
  EXPECT_EQ(sparse::detail::own_spgemm_block_cap(complex64), 2048);
  EXPECT_EQ(sparse::detail::own_spgemm_block_cap(complex128), 1024);
  // spmv_groups' lanes per row: the largest power of two up to half the mean row length, 2 to 32
  EXPECT_EQ(sparse::detail::spmv_group_for(10000000, 1000000), 4);
  EXPECT_EQ(sparse::detail::spmv_group_for(3, 10), 2);
  EXPECT_EQ(sparse::detail::spmv_group_for(16, 1), 8);
  // spmm_vec's lanes a row: 16 bytes a lane, the smallest power of two covering k, at most 32
  EXPECT_EQ(sparse::detail::spmm_vec_group(float32, 64), 16);
  EXPECT_EQ(sparse::detail::spmm_vec_group(float64, 64), 32);
  EXPECT_EQ(sparse::detail::spmm_vec_group(float32, 60), 16);
  EXPECT_EQ(sparse::detail::spmm_vec_group(float32, 4), 1);
  EXPECT_EQ(sparse::detail::spmm_vec_group(float32, 8), 2);
  EXPECT_EQ(sparse::detail::spmm_vec_group(float32, 1000), 32);
  EXPECT_STREQ(sparse::detail::spmm_kernel_name(sparse::detail::spmm_kernel::shuffled_cs), "shuffled_cs");
  EXPECT_EQ(sparse::detail::spmv_group_for(32, 1), 16);
  EXPECT_EQ(sparse::detail::spmv_group_for(1000, 1), 32);
  EXPECT_EQ(sparse::detail::spmv_group_for(5, 0), 2);
  // the sort path takes values of 1, 2 or 4 bytes only (8 and 16 do not fit the packed word)
  EXPECT_FALSE(sparse::detail::sort_swap_applies(float64, 10));
  EXPECT_FALSE(sparse::detail::sort_swap_applies(complex64, 10));
  EXPECT_FALSE(sparse::detail::sort_swap_applies(float32, (std::int64_t{1} << 32) + 1));
  // the module's SpMM by default: real floats with 32 columns or more
  EXPECT_TRUE(sparse::detail::own_spmm_by_default(float32, 64));
  EXPECT_TRUE(sparse::detail::own_spmm_by_default(float64, 32));
  EXPECT_FALSE(sparse::detail::own_spmm_by_default(float32, 31));
  EXPECT_FALSE(sparse::detail::own_spmm_by_default(complex64, 64));
}

}  // namespace
}  // namespace cupp
