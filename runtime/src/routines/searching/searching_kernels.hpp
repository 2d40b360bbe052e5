// Internal: the searching family's NVRTC program (one per element dtype, key ("searching", type
// id)) and its launch helpers, shared by searching.cpp (searchsorted, digitize, bincount,
// histogram) and sets.cpp (unique, isin and the set routines). The program (its kernels in the
// embedded header <cupp/dev/routines/searching.cuh>) holds NumPy's sort order (NaN last, complex
// lexicographic) and equality for its dtype, binary searches, neighbour flags, counting kernels,
// and dtype-free int64 helpers (launched from the int64 program).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "cupp/dtype.hpp"
#include "cupp/ndarray.hpp"

namespace cupp::detail {
class kernel_module;
}

namespace cupp::search_detail {

enum kernel_id {
  k_searchsorted,   // (const T* a, ll n, const ll* sorter, const T* v, ll nv, ll* out, int right)
  k_unique_flags,   // (const T* aux, ll n, u8* flag, int equal_nan)
  k_isin,           // (const T* x, ll n, const T* sorted_t, ll nt, u8* out, int invert)
  k_xor_flags,      // (const T* aux, ll n, u8* flag): differs from both neighbours
  k_adjacent_equal, // (const T* aux, ll n, u8* flag): flag[i] = aux[i] == aux[i+1], i < n-1
  k_histogram,      // (const T* x, ll n, const T* edges, ll ne, const double* w, int wkind, ull* counts, double* sums)
  k_minmax,         // (const ll* x, ll n, ll* mm): mm[0] = min, mm[1] = max (mm preset)
  k_bincount,       // (const ll* x, ll n, const double* w, ull* counts, double* sums)
  k_scatter,        // (const ll* idx, const ll* val, ll n, ll* out): out[idx[i]] = val[i]
  k_run_counts,     // (const ll* pos, ll m, ll n, ll* out): out[k] = next pos (or n) - pos[k]
  k_row_flags,      // (const T* aux, ll n, ll m, u8* flag): rows of m; flag preset 0: [0] and rows != the one before
};

// The program for `type` on `device`, compiled or found in the cache.
const detail::kernel_module& program_for(dtype type, int device);
// Launches kernel `k` over `n` items (grid-stride, detail::launch_1d) on the device's current stream.
void launch(const detail::kernel_module& m, kernel_id k, std::int64_t n, void** args, int device);

// `a` flattened, C-contiguous, of dtype `type` (a view when it already is).
ndarray flat_as(const ndarray& a, dtype type);
// One int64 array of n elements downloaded (blocking).
std::vector<std::int64_t> download_i64(const ndarray& a);

}  // namespace cupp::search_detail
