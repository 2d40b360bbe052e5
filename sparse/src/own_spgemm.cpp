// The module's own SpGEMM for float and complex operands (device/cupp/sparse/spgemm.cuh): the
// product bound per row, one read of its largest (a row past the block cap leaves the product to
// cuSPARSE), the distinct columns per row, C's indptr by a scan and one read of its total, then the
// sorted, summed rows written in place. Two host reads, as cuSPARSE's SpGEMM has (its sizes).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "cuda/device_scope.hpp"
#include "cupp/creation.hpp"
#include "cupp/errors.hpp"
#include "cupp/indexing.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/ufunc.hpp"
#include "own_kernels.hpp"
#include "primitives.hpp"
#include "sparse_device_headers.hpp"

namespace cupp::sparse::detail {

namespace {

const char* spgemm_element(const cupp::dtype& t) {
  switch (t.id()) {
    case type_id::float32: return "float";
    case type_id::float64: return "double";
    case type_id::complex64: return "float2";
    case type_id::complex128: return "double2";
    default: break;
  }
  throw TypeError("sparse own SpGEMM: float32, float64, complex64 or complex128, not " + t.name());
}

// Kernel indices in spgemm_program's list.
enum spgemm_kernel_index { k_bound, k_count_warp, k_count_block, k_fill_warp, k_fill_block };
constexpr unsigned warp_kernel_threads = 128, block_kernel_threads = 256;  // spgemm.cuh's
constexpr std::int64_t max_blocks = std::int64_t{1} << 16;

}  // namespace

std::int64_t own_spgemm_block_cap(const cupp::dtype& t) noexcept { return t.itemsize() > 8 ? 1024 : 2048; }

spgemm_method parse_spgemm_method(std::string_view value, std::string_view variable) {
  if (value.empty() || value == "auto") return spgemm_method::auto_;
  if (value == "cupp") return spgemm_method::cupp;
  if (value == "cusparse") return spgemm_method::cusparse;
  throw ValueError(std::string(variable) + " must be cupp, cusparse or auto, not '" + std::string(value) + "'");
}

spgemm_method spgemm_method_from_env() {
  const char* v = std::getenv("CUPP_SPARSE_SPGEMM");
  return parse_spgemm_method(v ? v : "", "CUPP_SPARSE_SPGEMM");
}

cupp::detail::routine_program spgemm_program(const cupp::dtype& type) {
  return {.name = "cupp_sparse_spgemm_" + type.name(),
          .source = std::string("#define CUPP_SPARSE_T ") + spgemm_element(type) +
                    "\n#define CUPP_SPGEMM_WARP_CAP " + std::to_string(own_spgemm_warp_cap) +
                    "\n#define CUPP_SPGEMM_BLOCK_CAP " + std::to_string(own_spgemm_block_cap(type)) +
                    "\n#include <cupp/sparse/spgemm.cuh>\n",
          .kernels = {"cupp_sparse_spgemm_bound", "cupp_sparse_spgemm_count_warp", "cupp_sparse_spgemm_count_block",
                      "cupp_sparse_spgemm_fill_warp", "cupp_sparse_spgemm_fill_block"},
          .headers = embedded_headers(),
          .headers_digest = embedded_headers_digest()};
}

std::optional<csr> own_spgemm(const csr& a, const csr& b, const cupp::dtype& t, sparse::kind kind) {
  const auto [m, n] = a.shape();
  const std::int64_t k = b.shape()[1];
  // (canonical operands are the caller's to give: checking here would cost a pass over each)
  if (a.index_dtype() != int32 || b.index_dtype() != int32 || a.dtype() != t || b.dtype() != t || b.shape()[0] != n)
    throw ValueError("internal: own_spgemm takes int32-indexed operands of dtype " + t.name());
  const int device = a.data().device();
  cupp::detail::device_scope scope(device);
  const cupp::detail::kernel_module& module = cupp::detail::routine_module(
      device, {"sparse:spgemm", static_cast<std::uint64_t>(t.id())}, [&] { return spgemm_program(t); });
  const void* ap = a.indptr().data();
  const void* ai = a.indices().data();
  const void* ad = a.data().data();
  const void* bp = b.indptr().data();
  const void* bi = b.indices().data();
  const void* bd = b.data().data();
  long long rows = m;
  const std::int64_t warp_blocks = std::min<std::int64_t>((m + 3) / 4, max_blocks);
  // the products per row, and the largest (read 1)
  const ndarray ub = cupp::empty({m}, int64);
  {
    void* u = ub.data();
    void* args[] = {&ap, &ai, &bp, &rows, &u};
    cupp::detail::launch_1d(module.function(k_bound), m * 32, args, device,
                            std::min<std::int64_t>((m + 7) / 8, max_blocks), 256);
  }
  const std::int64_t largest = cupp::max(ub).item<std::int64_t>();
  if (largest > own_spgemm_block_cap(t)) return std::nullopt;
  const void* u = ub.data();
  ndarray long_rows;
  long long nlong = 0;
  if (largest > own_spgemm_warp_cap) {
    long_rows = cupp::flatnonzero(ub > own_spgemm_warp_cap);
    nlong = long_rows.size();
  }
  const void* lr = long_rows.is_null() ? nullptr : long_rows.data();
  // the distinct columns per row, C's indptr and its total (read 2)
  const ndarray counts = cupp::empty({m}, int32);
  {
    void* c = counts.data();
    void* args[] = {&ap, &ai, &bp, &bi, &u, &rows, &c};
    cupp::detail::launch_1d(module.function(k_count_warp), m, args, device, warp_blocks, warp_kernel_threads);
    if (nlong > 0) {
      void* args_long[] = {&ap, &ai, &bp, &bi, &u, &lr, &nlong, &c};
      cupp::detail::launch_1d(module.function(k_count_block), nlong, args_long, device,
                              std::min<std::int64_t>(nlong, max_blocks), block_kernel_threads);
    }
  }
  const ndarray c_ptr = cupp::cumulative_sum(counts, {.dtype = int64, .include_initial = true});
  const std::int64_t nnz = c_ptr(m).item<std::int64_t>();
  ndarray c_ind = cupp::empty({nnz}, int32), c_dat = cupp::empty({nnz}, t);
  if (nnz > 0) {
    const void* cp = c_ptr.data();
    void* ci = c_ind.data();
    void* cd = c_dat.data();
    int narrow = k < (std::int64_t{1} << 24);  // 32-bit sort keys (spgemm.cuh's narrow_key)
    void* args[] = {&ap, &ai, &ad, &bp, &bi, &bd, &u, &rows, &cp, &ci, &cd, &narrow};
    cupp::detail::launch_1d(module.function(k_fill_warp), m, args, device, warp_blocks, warp_kernel_threads);
    if (nlong > 0) {
      void* args_long[] = {&ap, &ai, &ad, &bp, &bi, &bd, &u, &lr, &nlong, &cp, &ci, &cd};
      cupp::detail::launch_1d(module.function(k_fill_block), nlong, args_long, device,
                              std::min<std::int64_t>(nlong, max_blocks), block_kernel_threads);
    }
  }
  const cupp::dtype idx = index_dtype_for(std::max({m, k, nnz}));
  return csr::from_parts(c_dat, as_index(c_ind, idx), as_index(c_ptr, idx), {m, k}, kind, true, true);
}

}  // namespace cupp::sparse::detail
