// The sparse module's own kernels and the switches between them and cuSPARSE (own_kernels.hpp):
// the tocsc/tocsr swap (CUB's stable radix sort of packed entries, csr2cscEx2, or cupp's argsort),
// SpMV/SpMM for every value dtype, the row-major SpMM kernels (spmm_rows and spmm_vec's forms), and
// SpGEMM by expand-sort-sum.
#include "own_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "accel/accelerators.hpp"
#include "accel/cub_sort.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/promotion.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/sorting.hpp"
#include "cupp/ufunc.hpp"
#include "cusparse_wrap.hpp"
#include "device_program.hpp"
#include "primitives.hpp"
#include "sparse_device_headers.hpp"

#ifndef CUPP_SPARSE_HAVE_CUB
#define CUPP_SPARSE_HAVE_CUB 0
#endif

namespace cupp::sparse::detail {

// ---- switches

tocsc_method parse_tocsc_method(std::string_view value, std::string_view variable) {
  if (value.empty() || value == "auto") return tocsc_method::auto_;
  if (value == "sort") return tocsc_method::sort;
  if (value == "cusparse") return tocsc_method::cusparse;
  throw ValueError(std::string(variable) + " must be sort, cusparse or auto, not '" + std::string(value) + "'");
}

spmm_method parse_spmm_method(std::string_view value, std::string_view variable) {
  if (value.empty() || value == "auto") return spmm_method::auto_;
  if (value == "cupp") return spmm_method::cupp;
  if (value == "cusparse") return spmm_method::cusparse;
  throw ValueError(std::string(variable) + " must be cupp, cusparse or auto, not '" + std::string(value) + "'");
}

tocsc_method tocsc_method_from_env() {
  const char* v = std::getenv("CUPP_SPARSE_TOCSC");
  return parse_tocsc_method(v ? v : "", "CUPP_SPARSE_TOCSC");
}

spmv_method spmv_method_from_env() {
  const char* v = std::getenv("CUPP_SPARSE_SPMV");
  return parse_spmv_method(v ? v : "", "CUPP_SPARSE_SPMV");
}

spmv_method parse_spmv_method(std::string_view value, std::string_view variable) {
  if (value.empty() || value == "auto") return spmv_method::auto_;
  if (value == "cupp") return spmv_method::cupp;
  if (value == "cusparse") return spmv_method::cusparse;
  throw ValueError(std::string(variable) + " must be cupp, cusparse or auto, not '" + std::string(value) + "'");
}

int spmv_group_for(std::int64_t nnz, std::int64_t rows) noexcept {
  const std::int64_t mean = rows > 0 ? nnz / rows : 0;
  // the largest power of two up to half the mean row length (H200, 10^6 rows of 10 entries on
  // average: 4 lanes 0.0840 ms, 8 lanes 0.0865, 16 lanes 0.1203)
  int g = 2;
  while (g < 32 && 4 * g <= mean) g *= 2;
  return g;
}

bool own_spmv_by_default(const cupp::dtype& t, std::int64_t nnz) noexcept {
  // real floats of 2^20 entries and more (small products keep cuSPARSE's cached plans). H200, the
  // issue's 10^6 x 10^6 float32 with 10^7 entries: 4-lane groups 0.0840 ms, bitwise repeatable,
  // against cusparseSpMV CSR_ALG2 (the deterministic one) 0.0875-0.0926 ms and torch 0.0858 ms
  constexpr bool groups_by_default = true;
  return groups_by_default && (t == float32 || t == float64) && nnz >= (std::int64_t{1} << 20);
}

spmm_method spmm_method_from_env() {
  const char* v = std::getenv("CUPP_SPARSE_SPMM");
  return parse_spmm_method(v ? v : "", "CUPP_SPARSE_SPMM");
}

bool sort_swap_applies(const cupp::dtype& value, std::int64_t n_major) noexcept {
  if (!CUPP_SPARSE_HAVE_CUB || !cupp::detail::accel::cub_enabled()) return false;
  const std::size_t w = value.itemsize();
  return (w == 1 || w == 2 || w == 4) && !value.is_structured() && n_major <= (std::int64_t{1} << 32);
}

bool own_spmm_by_default(const cupp::dtype& t, std::int64_t k) noexcept {
  return (t == float32 || t == float64) && k >= 32;
}

// ---- programs

cupp::detail::routine_program transpose_program() {
  return {.name = "cupp_sparse_transpose",
          .source = "#include <cupp/sparse/transpose.cuh>\n",
          .kernels = {"cupp_sparse_pack_i32_w1", "cupp_sparse_pack_i32_w2", "cupp_sparse_pack_i32_w4",
                      "cupp_sparse_pack_i64_w1", "cupp_sparse_pack_i64_w2", "cupp_sparse_pack_i64_w4",
                      "cupp_sparse_unpack_i32_w1", "cupp_sparse_unpack_i32_w2", "cupp_sparse_unpack_i32_w4",
                      "cupp_sparse_unpack_i64_w1", "cupp_sparse_unpack_i64_w2", "cupp_sparse_unpack_i64_w4"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

namespace {

// The device element type and multiply-add of a value dtype (products.cuh).
std::pair<const char*, const char*> device_type_of(const cupp::dtype& t) {
  switch (t.id()) {
    case type_id::bool_: return {"bool", "bool_ops"};
    case type_id::int8: return {"signed char", "wrap_ops<signed char, unsigned int>"};
    case type_id::uint8: return {"unsigned char", "wrap_ops<unsigned char, unsigned int>"};
    case type_id::int16: return {"short", "wrap_ops<short, unsigned int>"};
    case type_id::uint16: return {"unsigned short", "wrap_ops<unsigned short, unsigned int>"};
    case type_id::int32: return {"int", "wrap_ops<int, unsigned int>"};
    case type_id::uint32: return {"unsigned int", "wrap_ops<unsigned int, unsigned int>"};
    case type_id::int64: return {"long long", "wrap_ops<long long, unsigned long long>"};
    case type_id::uint64: return {"unsigned long long", "wrap_ops<unsigned long long, unsigned long long>"};
    case type_id::float32: return {"float", "real_ops<float>"};
    case type_id::float64: return {"double", "real_ops<double>"};
    case type_id::complex64: return {"float2", "complex_ops<float2>"};
    case type_id::complex128: return {"double2", "complex_ops<double2>"};
    default: break;
  }
  throw TypeError("sparse products: no supported conversion for dtype " + t.name());
}

}  // namespace

cupp::detail::routine_program products_program(const cupp::dtype& type) {
  const auto [element, ops] = device_type_of(type);
  const bool groups = type == float32 || type == float64;  // spmv_groups shuffles real floats
  std::vector<std::string> kernels{"cupp_sparse_spmm_i32", "cupp_sparse_spmm_i64", "cupp_sparse_spmv_i32",
                                   "cupp_sparse_spmv_i64"};
  if (groups) kernels.insert(kernels.end(), {"cupp_sparse_spmv_groups_i32", "cupp_sparse_spmv_groups_i64"});
  return {.name = "cupp_sparse_products_" + type.name(),
          .source = std::string("#define CUPP_SPARSE_T ") + element + "\n#define CUPP_SPARSE_OPS " + ops + "\n" +
                    (groups ? "#define CUPP_SPARSE_GROUPS\n" : "") + "#include <cupp/sparse/products.cuh>\n",
          .kernels = std::move(kernels),
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

cupp::detail::routine_program spmm_vec_program(const cupp::dtype& type) {
  if (type != float32 && type != float64)
    throw TypeError("sparse spmm_vec: float32 and float64 only, not " + type.name());
  // kernels 0..3: spmm_vec's forms in spmm_kernel's order (after warp), i32 then i64 each
  std::vector<std::string> kernels;
  for (const spmm_kernel k : spmm_kernels)
    if (k != spmm_kernel::warp)
      for (const char* width : {"_i32", "_i64"}) kernels.push_back(std::string("cupp_sparse_spmm_") + spmm_kernel_name(k) + width);
  return {.name = "cupp_sparse_spmm_vec_" + type.name(),
          .source = std::string("#define CUPP_SPARSE_T ") + (type == float32 ? "float" : "double") +
                    "\n#define CUPP_SPARSE_VEC\n#include <cupp/sparse/products.cuh>\n",
          .kernels = std::move(kernels),
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

// ---- tocsc / tocsr

swapped sort_swap(const ndarray& data_in, const ndarray& indices_in, const ndarray& indptr_in, std::int64_t n_major,
                  std::int64_t n_minor) {
#if CUPP_SPARSE_HAVE_CUB
  const std::int64_t nnz = data_in.size();
  const cupp::dtype idx = indices_in.dtype();
  if (idx != int32 && idx != int64) throw TypeError("sparse index arrays are int32 or int64, not " + idx.name());
  if (!sort_swap_applies(data_in.dtype(), n_major))
    throw ValueError("internal: the sort path of tocsc does not apply to these arrays");
  if (nnz == 0) return {cupp::empty({0}, data_in.dtype()), cupp::empty({0}, idx), cupp::zeros({n_minor + 1}, idx)};
  const ndarray data = cupp::ascontiguousarray(data_in), indices = cupp::ascontiguousarray(indices_in);
  const ndarray indptr = cupp::ascontiguousarray(as_index(indptr_in, idx));
  const int device = data.device();
  cupp::detail::device_scope scope(device);
  const int width = static_cast<int>(data.itemsize());
  const int wk = width == 1 ? 0 : width == 2 ? 1 : 2;
  const int ik = idx == int32 ? 0 : 1;
  const cupp::detail::kernel_module& module =
      cupp::detail::routine_module(device, {"sparse:transpose", 1}, [] { return transpose_program(); });
  ndarray keys[2] = {cupp::empty({nnz}, idx), cupp::empty({nnz}, idx)};
  ndarray words[2] = {cupp::empty({nnz}, int64), cupp::empty({nnz}, int64)};
  {
    const void* p = indptr.data();
    const void* ind = indices.data();
    const void* d = data.data();
    void* k0 = keys[0].data();
    void* w0 = words[0].data();
    long long majors = n_major, count = nnz;
    void* args[] = {&p, &majors, &count, &ind, &d, &k0, &w0};
    const std::int64_t chunks = (nnz + expand_chunk - 1) / expand_chunk;
    cupp::detail::launch_1d(module.function(ik * 3 + wk), nnz, args, device,
                            std::min<std::int64_t>(chunks, std::int64_t{1} << 20), expand_threads);
  }
  const cuda::stream_handle stream = cuda::detail::current_stream_handle(device);
  cuda::Memory temp;
  const cupp::detail::accel::temp_alloc alloc = [&](std::size_t bytes) {
    temp = cuda::alloc(bytes, device, stream);
    return temp.ptr();
  };
  void* const kb[2] = {keys[0].data(), keys[1].data()};
  std::int64_t* const vb[2] = {static_cast<std::int64_t*>(words[0].data()),
                               static_cast<std::int64_t*>(words[1].data())};
  // the key bits the minor indices use (20 for 10^6 columns: 3 of CUB's 8-bit passes, not 4)
  const auto top = static_cast<std::uint64_t>(std::max<std::int64_t>(n_minor - 1, 1));
  const int end_bit = static_cast<int>(std::bit_width(top));
  const int sel =
      cupp::detail::accel::cub_sort_pairs(static_cast<int>(idx.itemsize()), kb, vb, nnz, 0, end_bit, stream, alloc);
  ndarray out_indices = cupp::empty({nnz}, idx), out_data = cupp::empty({nnz}, data.dtype());
  {
    const void* w = words[sel].data();
    void* mi = out_indices.data();
    void* d = out_data.data();
    long long count = nnz;
    void* args[] = {&w, &count, &mi, &d};
    cupp::detail::launch_1d(module.function(6 + ik * 3 + wk), nnz, args, device);
  }
  return {out_data, out_indices, compress_ptr(keys[sel], n_minor, idx)};
#else
  (void)data_in, (void)indices_in, (void)indptr_in, (void)n_major, (void)n_minor;
  throw ValueError("internal: cupp was built without the CUB accelerators (the sort path of tocsc)");
#endif
}

namespace {

swapped cusparse_swap(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t n_major,
                      std::int64_t n_minor) {
  const std::int64_t nnz = data.size();
  ndarray out_data = cupp::empty({nnz}, data.dtype());
  ndarray out_indices = cupp::empty({nnz}, int32);
  ndarray out_indptr = cupp::empty({n_minor + 1}, int32);
  const int device = data.device();
  cupp::detail::device_scope scope(device);
  cusparseHandle_t h = handle(device);
  const cudaDataType vt = value_type(data.dtype(), "tocsc");
  std::size_t bytes = 0;
  check(cusparseCsr2cscEx2_bufferSize(h, static_cast<int>(n_major), static_cast<int>(n_minor), static_cast<int>(nnz),
                                      data.data(), static_cast<const int*>(indptr.data()),
                                      static_cast<const int*>(indices.data()), out_data.data(),
                                      static_cast<int*>(out_indptr.data()), static_cast<int*>(out_indices.data()), vt,
                                      CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &bytes),
        "cusparseCsr2cscEx2_bufferSize");
  cuda::Memory work = cuda::alloc(bytes);
  check(cusparseCsr2cscEx2(h, static_cast<int>(n_major), static_cast<int>(n_minor), static_cast<int>(nnz), data.data(),
                           static_cast<const int*>(indptr.data()), static_cast<const int*>(indices.data()),
                           out_data.data(), static_cast<int*>(out_indptr.data()), static_cast<int*>(out_indices.data()),
                           vt, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, work.ptr()),
        "cusparseCsr2cscEx2");
  return {out_data, out_indices, out_indptr};
}

}  // namespace

swapped swap_major(const ndarray& data, const ndarray& indices, const ndarray& indptr, std::int64_t n_major,
                   std::int64_t n_minor, tocsc_method method) {
  const std::int64_t nnz = data.size();
  const cupp::dtype idx = indices.dtype();
  if (nnz == 0) return {cupp::empty({0}, data.dtype()), cupp::empty({0}, idx), cupp::zeros({n_minor + 1}, idx)};
  const bool sort_ok = sort_swap_applies(data.dtype(), n_major);
  const bool cusparse_ok = idx == int32 && has_value_type(data.dtype());
  if (method == tocsc_method::sort && sort_ok) return sort_swap(data, indices, indptr, n_major, n_minor);
  if (method == tocsc_method::cusparse && cusparse_ok) return cusparse_swap(data, indices, indptr, n_major, n_minor);
  if (method == tocsc_method::auto_ && sort_ok) return sort_swap(data, indices, indptr, n_major, n_minor);
  if (cusparse_ok) return cusparse_swap(data, indices, indptr, n_major, n_minor);
  if (sort_ok) return sort_swap(data, indices, indptr, n_major, n_minor);
  // 8- and 16-byte values with int64 indices (or no CUB): cupp's stable argsort of the minor indices
  const ndarray major = expand_ptr(indptr, nnz);
  const ndarray order = cupp::argsort(indices, cupp::sort_options{.axis = -1, .kind = "stable"});
  return {cupp::take(data, order), cupp::take(major, order), compress_ptr(cupp::take(indices, order), n_minor, idx)};
}

// ---- products

cupp::dtype product_upcast(const cupp::dtype& a, const cupp::dtype& b) {
  const cupp::dtype t = cupp::promote_types(a, b);
  const char k = t.kind();
  if (k == 'b' || k == 'i' || k == 'u' || t == float32 || t == float64 || t == complex64 || t == complex128) return t;
  if (t == float16 || t == bfloat16) return float32;  // the first of SciPy's dtypes they cast to safely
  throw TypeError("no supported conversion for types: (dtype('" + a.name() + "'), dtype('" + b.name() + "'))");
}

namespace {

// What every product kernel takes: A with values cast to t, its arrays contiguous (and their
// pointers, as kernel arguments), the dense operand contiguous in t.
struct product_operands {
  csr a;
  ndarray dense;
  cupp::dtype t;
  ndarray ptr, ind, values;
  const void* pp = nullptr;
  const void* pi = nullptr;
  const void* pd = nullptr;
};

product_operands operands(const csr& a, const ndarray& dense) {
  const cupp::dtype t = product_upcast(a.dtype(), dense.dtype());
  const csr at = a.dtype() == t ? a : a.astype(t, false);
  product_operands p{at,
                     cupp::ascontiguousarray(dense.dtype() == t ? dense : cupp::astype(dense, t)),
                     t,
                     cupp::ascontiguousarray(at.indptr()),
                     cupp::ascontiguousarray(at.indices()),
                     cupp::ascontiguousarray(at.data())};
  p.pp = p.ptr.data();
  p.pi = p.ind.data();
  p.pd = p.values.data();
  return p;
}

// The products program of t on `device` (kernels by index: spmm 0/1, spmv 2/3, spmv groups 4/5,
// int32/int64 indices).
const cupp::detail::kernel_module& products_module(const cupp::dtype& t, int device) {
  return cupp::detail::routine_module(device, {"sparse:products", static_cast<std::uint64_t>(t.id())},
                                      [&] { return products_program(t); });
}

// The spmm_vec program of float32/float64 on `device` (compiled on the first product that asks for
// a vec form).
const cupp::detail::kernel_module& spmm_vec_module(const cupp::dtype& t, int device) {
  return cupp::detail::routine_module(device, {"sparse:spmm_vec", static_cast<std::uint64_t>(t.id())},
                                      [&] { return spmm_vec_program(t); });
}

}  // namespace

ndarray own_spmv(const csr& a, const ndarray& x) {
  if (x.is_null()) throw ValueError("spmv: a null array");
  const auto [m, n] = a.shape();
  if (x.ndim() != 1 || x.shape(0) != n) throw ValueError("dimension mismatch");
  product_operands p = operands(a, x);
  if (a.nnz() == 0 || m == 0) return cupp::zeros({m}, p.t);
  ndarray y = cupp::empty({m}, p.t);
  const int device = y.device();
  const cupp::detail::kernel_module& module = products_module(p.t, device);
  const void* px = p.dense.data();
  void* py = y.data();
  long long rows = m;
  void* args[] = {&p.pp, &p.pi, &p.pd, &px, &py, &rows};
  cupp::detail::launch_1d(module.function(p.a.index_dtype() == int32 ? 2 : 3), m, args, device);
  return y;
}

ndarray own_spmv_groups(const csr& a, const ndarray& x, int group) {
  if (x.is_null()) throw ValueError("spmv: a null array");
  const auto [m, n] = a.shape();
  if (x.ndim() != 1 || x.shape(0) != n) throw ValueError("dimension mismatch");
  if (group < 2 || group > 32 || (group & (group - 1)) != 0)
    throw ValueError("spmv: a lane group is a power of two from 2 to 32, not " + std::to_string(group));
  product_operands p = operands(a, x);
  if (p.t != float32 && p.t != float64)
    throw TypeError("spmv by lane groups: float32 and float64 only, not " + p.t.name());
  if (a.nnz() == 0 || m == 0) return cupp::zeros({m}, p.t);
  ndarray y = cupp::empty({m}, p.t);
  const int device = y.device();
  const cupp::detail::kernel_module& module = products_module(p.t, device);
  const void* px = p.dense.data();
  void* py = y.data();
  long long rows = m;
  int g = group;
  void* args[] = {&p.pp, &p.pi, &p.pd, &px, &py, &rows, &g};
  const std::int64_t blocks = std::min<std::int64_t>((m * group + 255) / 256, std::int64_t{1} << 20);
  cupp::detail::launch_1d(module.function(p.a.index_dtype() == int32 ? 4 : 5), m * group, args, device, blocks, 256);
  return y;
}

const char* spmm_kernel_name(spmm_kernel kernel) noexcept {
  switch (kernel) {
    case spmm_kernel::warp: return "warp";
    case spmm_kernel::vec: return "vec";
    case spmm_kernel::shuffled_cs: return "shuffled_cs";
  }
  return "warp";
}

spmm_kernel spmm_kernel_default() noexcept {
  // shuffled_cs: the fastest form in SparseGpu.BenchFigures' SPARSE_BENCH_SPMM64 lines on the H100
  // (the matrix, 64 columns; two runs: 0.9652 and 0.9978 ms against the warp kernel's 1.124
  // and 1.159, cusparseSpMM CSR_ALG3's 1.096 and 1.131, PyTorch's 1.462; the same bits as warp).
  // The L2 eviction-policy forms measured no faster (0.970).
  return spmm_kernel::shuffled_cs;
}

int spmm_vec_group(const cupp::dtype& t, std::int64_t k) noexcept {
  const std::int64_t width = 16 / static_cast<std::int64_t>(t.itemsize() > 0 ? t.itemsize() : 16);
  const std::int64_t lanes = width > 0 ? (k + width - 1) / width : 32;
  int g = 1;
  while (g < 32 && g < lanes) g *= 2;
  return g;
}

ndarray own_spmm_with(const csr& a, const ndarray& b, spmm_kernel kernel, spmm_kernel* ran) {
  if (b.is_null()) throw ValueError("spmm: a null array");
  const auto [m, n] = a.shape();
  if (b.ndim() != 2 || b.shape(0) != n) throw ValueError("dimension mismatch");
  const std::int64_t k = b.shape(1);
  product_operands p = operands(a, b);
  if (ran) *ran = spmm_kernel::warp;
  if (a.nnz() == 0 || m == 0 || k == 0) return cupp::zeros({m, k}, p.t);
  ndarray c = cupp::empty({m, k}, p.t);
  const int device = c.device();
  const void* pb = p.dense.data();
  void* pc = c.data();
  long long rows = m, cols = k;
  const int ik = p.a.index_dtype() == int32 ? 0 : 1;
  constexpr unsigned threads = 256;  // products.cuh's spmm_threads (8 warps a block)
  const auto aligned = [](const void* q) { return reinterpret_cast<std::uintptr_t>(q) % 16 == 0; };
  const bool vec_ok = (p.t == float32 || p.t == float64) && k % static_cast<std::int64_t>(16 / p.t.itemsize()) == 0 &&
                      aligned(pb) && aligned(pc);
  if (kernel != spmm_kernel::warp && vec_ok) {
    // a group of `group` lanes per (row, group * 16 bytes of columns)
    int group = spmm_vec_group(p.t, k);
    const std::int64_t span = static_cast<std::int64_t>(group) * static_cast<std::int64_t>(16 / p.t.itemsize());
    const std::int64_t items = m * ((k + span - 1) / span);
    const std::int64_t blocks = std::min<std::int64_t>((items * group + threads - 1) / threads, std::int64_t{1} << 20);
    void* args[] = {&p.pp, &p.pi, &p.pd, &pb, &pc, &rows, &cols, &group};
    const int index = 2 * (static_cast<int>(kernel) - 1) + ik;
    cupp::detail::launch_1d(spmm_vec_module(p.t, device).function(index), items * group, args, device, blocks, threads);
    if (ran) *ran = kernel;
    return c;
  }
  void* args[] = {&p.pp, &p.pi, &p.pd, &pb, &pc, &rows, &cols};
  // a warp per (row, 128 columns: spmm_tile x 32 lanes)
  const std::int64_t items = m * ((k + 127) / 128);
  const std::int64_t blocks = std::min<std::int64_t>((items + 7) / 8, std::int64_t{1} << 20);
  cupp::detail::launch_1d(products_module(p.t, device).function(ik), items * 32, args, device, blocks, threads);
  return c;
}

ndarray own_spmm(const csr& a, const ndarray& b) { return own_spmm_with(a, b, spmm_kernel_default()); }

// ---- SpGEMM by expand, sort, sum

csr esc_spgemm(const csr& a_in, const csr& b_in) {
  const auto [m, n] = a_in.shape();
  const auto [n2, k] = b_in.shape();
  if (n != n2) throw ValueError("dimension mismatch");
  const cupp::dtype t = product_upcast(a_in.dtype(), b_in.dtype());
  const sparse::kind kind = a_in.kind();
  if (a_in.nnz() == 0 || b_in.nnz() == 0 || m == 0 || k == 0)
    return csr(shape2{m, k}, options{.dtype = t}).with_kind(kind);
  const ndarray a_data = a_in.dtype() == t ? a_in.data() : cupp::astype(a_in.data(), t);
  const ndarray b_data = b_in.dtype() == t ? b_in.data() : cupp::astype(b_in.data(), t);
  const ndarray a_rows = cupp::astype(expand_ptr(a_in.indptr(), a_in.nnz()), int64);
  const ndarray a_cols = cupp::astype(a_in.indices(), int64);
  const ndarray b_ptr = cupp::astype(b_in.indptr(), int64);
  // per entry a_ij: the length of B's row j, i.e. how many products it makes
  const ndarray counts = cupp::take(cupp::diff(b_ptr), a_cols);
  const ndarray ends = cupp::cumsum(counts, {.dtype = int64});
  const std::int64_t products = ends(a_in.nnz() - 1).item<std::int64_t>();
  if (products == 0) return csr(shape2{m, k}, options{.dtype = t}).with_kind(kind);
  const ndarray owner = cupp::repeat(cupp::arange(a_in.nnz(), int64), counts);  // each product's A entry
  const ndarray first = cupp::take(cupp::subtract(ends, counts), owner);
  const ndarray b_pos =
      cupp::add(cupp::take(b_ptr, cupp::take(a_cols, owner)), cupp::subtract(cupp::arange(products, int64), first));
  entries e{cupp::multiply(cupp::take(a_data, owner), cupp::take(b_data, b_pos)), cupp::take(a_rows, owner),
            cupp::astype(cupp::take(b_in.indices(), b_pos), int64)};
  e = drop_zeros(sort_entries(e, true));
  const std::int64_t nnz = e.data.size();
  const cupp::dtype idx = index_dtype_for(std::max({m, k, nnz}));
  return csr::from_parts(e.data, as_index(e.minor, idx), compress_ptr(as_index(e.major, idx), m, idx), {m, k}, kind,
                         true, true);
}

}  // namespace cupp::sparse::detail
