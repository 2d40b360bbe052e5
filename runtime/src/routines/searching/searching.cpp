// The implementation of cupp/searching.hpp, part one: the searching family's NVRTC program (one
// per dtype, cached under ("searching", type id); its kernels are in the embedded header
// <cupp/dev/routines/searching.cuh>), searchsorted, digitize, bincount, histogram and the routine
// table. The program's error state (a __device__ pair: [0] set, [1] one bad value, and a report
// word in mapped host memory, read at the end of a call that can raise) reports a sorter index out
// of range. unique, isin and the set routines are in sets.cpp.
#include "cupp/searching.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "compiler/launch.hpp"
#include "compiler/report_word.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "cupp/scans.hpp"
#include "cupp/ufunc.hpp"
#include "routines/routine_programs.hpp"
#include "routines/searching/searching_kernels.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

void require_numeric(const dtype& type, std::string_view routine) {
  if (!type.is_builtin())
    throw TypeError(std::string(routine) + ": dtype " + type.name() + " is not supported (a numeric or bool dtype is needed)");
}

// NumPy's PyArray_CheckFromAny(op, ..., 1, 1) errors.
void require_1d(const ndarray& a) {
  if (a.ndim() < 1) throw ValueError("object of too small depth for desired array");
  if (a.ndim() > 1) throw ValueError("object too deep for desired array");
}

[[noreturn]] void throw_cast(const dtype& from, const dtype& to) {
  throw TypeError("Cannot cast array data from dtype('" + from.name() + "') to dtype('" + to.name() +
                  "') according to the rule 'safe'");
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// the program

namespace detail {

// The program of one element dtype: its kernels are in the embedded header
// <cupp/dev/routines/searching.cuh>, after T and the end signal's device half.
routine_program searching_kernel_program(cupp::dtype type) {
  if (!type.is_builtin()) throw TypeError("searching_kernel_program: dtype " + type.name() + " has no kernels");
  routine_program p;
  p.name = "cupp_searching_" + type.name();
  p.source = "#include <cupp/dev/prelude.cuh>\nusing T = " + std::string(info(type.id()).device_type) + ";\n" +
             detail::kEndSignalDeviceSource + "#include <cupp/dev/routines/searching.cuh>\n";
  p.kernels = {"cupp_searchsorted", "cupp_unique_flags", "cupp_isin",    "cupp_xor_flags", "cupp_adjacent_equal",
               "cupp_histogram",    "cupp_minmax",       "cupp_bincount", "cupp_scatter",  "cupp_run_counts",
               "cupp_row_flags"};
  return p;
}

int bins_monotonicity(std::span<const double> a) {
  const std::size_t n = a.size();
  if (n == 0) return 1;
  double last = a[0];
  std::size_t i = 1;
  while (i < n && a[i] == last) ++i;
  if (i == n) return 1;
  double next = a[i];
  if (last < next) {
    for (++i; i < n; ++i) {
      last = next;
      next = a[i];
      if (last > next) return 0;
    }
    return 1;
  }
  for (++i; i < n; ++i) {
    last = next;
    next = a[i];
    if (last < next) return 0;
  }
  return -1;
}

cupp::dtype histogram_bin_dtype(cupp::dtype a) { return a.is_floating() ? a : cupp::dtype(float64); }

}  // namespace detail

namespace search_detail {

// The program for `type` on `device`. Its report word is installed by the first
// call that may report (reporting_call); until then the sorter check finds the pointer null and
// skips the host word, so a launch that cannot report needs no install.
const detail::kernel_module& program_for(dtype type, int device) {
  return detail::routine_module(device, {"searching", static_cast<std::uint64_t>(type.id())},
                                [&] { return detail::searching_kernel_program(type); });
}

void launch(const detail::kernel_module& m, kernel_id k, std::int64_t n, void** args, int device) {
  detail::launch_1d(m.function(k), n, args, device);
}

detail::reporting_call begin_checked_call(const detail::kernel_module& m, int device) {
  detail::device_scope scope(device);
  return detail::reporting_call(m, device, "cupp_search_flag");
}

// Waits for the call's kernel through its end signal (compiler/report_word.hpp); when it reported a
// bad sorter index, reads and clears the state and returns the bad value.
std::optional<std::int64_t> read_state(const detail::kernel_module& m, int device, detail::reporting_call& call) {
  unsigned long long host[2] = {};
  if (!detail::read_reported_state(m, device, call, "cupp_search_state", host)) return std::nullopt;
  return static_cast<std::int64_t>(host[1]);
}

ndarray flat_as(const ndarray& a, dtype type) {
  ndarray r = a.dtype() == type ? a : astype(a, type, casting::unsafe);
  if (!r.is_c_contiguous()) r = ascontiguousarray(r);
  const std::int64_t n = r.size();
  return r.reshape(std::span<const std::int64_t>(&n, 1));
}

std::vector<std::int64_t> download_i64(const ndarray& a) { return flat_as(a, int64).to_vector<std::int64_t>(); }

}  // namespace search_detail

using namespace search_detail;

// ---------------------------------------------------------------------------------------------
// searchsorted, digitize

search_side parse_search_side(std::string_view name) {
  if (name == "left") return search_side::left;
  if (name == "right") return search_side::right;
  throw ValueError("search side must be 'left' or 'right' (got '" + std::string(name) + "')");
}

ndarray searchsorted(const ndarray& a, const ndarray& v, const searchsorted_options& options) {
  require_1d(a);
  require_numeric(a.dtype(), "searchsorted");
  require_numeric(v.dtype(), "searchsorted");
  ndarray sorter;
  if (!options.sorter.is_null()) {
    const dtype st = options.sorter.dtype();
    if (!can_cast(st, int64, casting::safe)) throw_cast(st, int64);
    require_1d(options.sorter);
    if (options.sorter.size() != a.size()) throw ValueError("sorter.size must equal a.size");
    sorter = flat_as(options.sorter, int64);
  }
  const dtype type = promote_types(a.dtype(), v.dtype());
  ndarray out = empty(v.shape(), int64);
  if (v.size() == 0) return out;
  const ndarray keys = flat_as(v, type), sorted = flat_as(a, type);
  const int device = v.device();
  const detail::kernel_module& m = program_for(type, device);
  const void* ap = sorted.data();
  long long n = sorted.size(), nv = keys.size();
  const void* sp = sorter.is_null() ? nullptr : sorter.data();
  const void* vp = keys.data();
  void* op = out.data();
  int right = options.side == search_side::right ? 1 : 0;
  // Only a sorter can hold a bad index: then the call takes its turn on the program's report
  // channel, and the kernel's end signal ends its one wait (compiler/report_word.hpp).
  const bool checked = !sorter.is_null();
  detail::reporting_call call = checked ? begin_checked_call(m, device) : detail::reporting_call();
  void* args[] = {&ap, &n, &sp, &vp, &nv, &op, &right, call.counter_arg(), call.word_arg()};
  launch(m, k_searchsorted, nv, args, device);
  if (checked && read_state(m, device, call)) throw ValueError("Sorter index out of range.");
  return out;
}

ndarray searchsorted(const ndarray& a, const weak_scalar& v, const searchsorted_options& options) {
  dtype type = float64;
  switch (v.scalar_kind()) {
    case weak_scalar::kind::bool_: type = bool_; break;
    case weak_scalar::kind::int_: type = v.is_negative() || v.fits(int64) ? dtype(int64) : dtype(uint64); break;
    case weak_scalar::kind::float_: type = float64; break;
    default: type = complex128; break;
  }
  return searchsorted(a, scalar(v, type), options);
}

ndarray digitize(const ndarray& x, const ndarray& bins, bool right) {
  if (x.dtype().is_complex()) throw TypeError("x may not be complex");
  require_numeric(x.dtype(), "digitize");
  require_numeric(bins.dtype(), "digitize");
  if (!can_cast(bins.dtype(), float64, casting::safe)) throw_cast(bins.dtype(), float64);
  require_1d(bins);
  const std::vector<double> b = flat_as(bins, float64).to_vector<double>();
  const int mono = detail::bins_monotonicity(b);
  if (mono == 0) throw ValueError("bins must be monotonically increasing or decreasing");
  // side is the opposite of right (NumPy's digitize).
  const searchsorted_options o{.side = right ? search_side::left : search_side::right};
  if (mono == -1) {
    const ndarray rev = flip(bins);
    const ndarray idx = searchsorted(rev, x, o);
    return subtract(scalar(static_cast<std::int64_t>(bins.size()), int64), idx);
  }
  return searchsorted(bins, x, o);
}

// ---------------------------------------------------------------------------------------------
// bincount

ndarray bincount(const ndarray& x0, const bincount_options& options) {
  require_1d(x0);
  if (options.minlength < 0) throw ValueError("'minlength' must not be negative");
  const bool empty_ok = x0.size() == 0;  // an empty list of any dtype (np.bincount([]))
  // NumPy 2 converts x with same_kind casting: uint64 is accepted (a value past int64's range
  // wraps negative and is refused as negative).
  if (!empty_ok && x0.dtype() != uint64 && !can_cast(x0.dtype(), int64, casting::safe)) throw_cast(x0.dtype(), int64);
  ndarray w;
  if (!options.weights.is_null()) {
    if (!can_cast(options.weights.dtype(), float64, casting::safe)) throw_cast(options.weights.dtype(), float64);
    require_1d(options.weights);
    if (options.weights.size() != x0.size()) throw ValueError("The weights and list don't have the same length.");
    w = flat_as(options.weights, float64);
  }
  const dtype result = w.is_null() ? dtype(int64) : dtype(float64);
  // NumPy returns intp zeros for an empty x before it looks at the weights.
  if (x0.size() == 0) return zeros(std::span<const std::int64_t>(&options.minlength, 1), int64);
  const ndarray x = flat_as(x0, int64);
  const int device = x.device();
  const detail::kernel_module& m = program_for(int64, device);
  long long n = x.size();
  const void* xp = x.data();
  // min and max in one download.
  const std::vector<std::int64_t> init = {std::numeric_limits<std::int64_t>::max(),
                                          std::numeric_limits<std::int64_t>::min()};
  const ndarray mm = asarray(init, {.blocking = true});
  {
    void* mp = mm.data();
    void* args[] = {&xp, &n, &mp};
    launch(m, k_minmax, n, args, device);
  }
  const std::vector<std::int64_t> range = mm.to_vector<std::int64_t>();
  if (range[0] < 0) throw ValueError("'list' argument must have no negative elements");
  const std::int64_t len = std::max(range[1] + 1, options.minlength);
  ndarray out = zeros(std::span<const std::int64_t>(&len, 1), w.is_null() ? dtype(uint64) : dtype(float64));
  const void* wp = w.is_null() ? nullptr : w.data();
  void* cp = w.is_null() ? out.data() : nullptr;
  void* sp = w.is_null() ? nullptr : out.data();
  void* args[] = {&xp, &n, &wp, &cp, &sp};
  launch(m, k_bincount, n, args, device);
  return w.is_null() ? out.view(int64) : out;
}

// ---------------------------------------------------------------------------------------------
// histogram

namespace {

// Python's repr of a float (shortest round trip; "1.0", "nan", "inf").
std::string repr_edge(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

// Counts (or sums the weights of) `a` (flattened, already the edges' comparison dtype) into the
// bins between `edges`; the result of dtype `ntype`.
ndarray count_into_bins(const ndarray& a, const ndarray& edges, const ndarray& weights, dtype ntype) {
  const std::int64_t ne = edges.size(), nb = std::max<std::int64_t>(ne - 1, 0);
  const bool complex_w = !weights.is_null() && weights.dtype().is_complex();
  if (nb == 0 || a.size() == 0) return zeros(std::span<const std::int64_t>(&nb, 1), ntype);
  const int device = a.device();
  const dtype type = a.dtype();
  const detail::kernel_module& m = program_for(type, device);
  ndarray w;
  int wkind = 0;
  if (!weights.is_null()) {
    wkind = complex_w ? 2 : 1;
    w = flat_as(weights, complex_w ? dtype(complex128) : dtype(float64));
  }
  const std::int64_t acc_len = complex_w ? 2 * nb : nb;
  ndarray acc = zeros(std::span<const std::int64_t>(&acc_len, 1), weights.is_null() ? dtype(uint64) : dtype(float64));
  const void* xp = a.data();
  const void* ep = edges.data();
  const void* wp = w.is_null() ? nullptr : w.data();
  long long n = a.size(), nel = ne;
  void* cp = weights.is_null() ? acc.data() : nullptr;
  void* sp = weights.is_null() ? nullptr : acc.data();
  void* args[] = {&xp, &n, &ep, &nel, &wp, &wkind, &cp, &sp};
  launch(m, k_histogram, n, args, device);
  ndarray hist = weights.is_null() ? acc.view(int64) : complex_w ? acc.view(complex128) : acc;
  return hist.dtype() == ntype ? hist : astype(hist, ntype, casting::unsafe);
}

struct prepared {
  ndarray a, weights;
  dtype ntype = int64;
};

prepared prepare_histogram(const ndarray& a0, const histogram_options& options) {
  require_numeric(a0.dtype(), "histogram");
  if (a0.dtype().is_complex()) throw TypeError("histogram: complex data is not supported");
  prepared p;
  p.a = a0.dtype().is_bool() ? astype(a0, uint8) : a0;
  if (!options.weights.is_null()) {
    const auto ws = options.weights.shape(), as = a0.shape();
    if (!std::equal(ws.begin(), ws.end(), as.begin(), as.end()))
      throw ValueError("weights should have the same shape as a.");
    require_numeric(options.weights.dtype(), "histogram");
    p.weights = options.weights;
    p.ntype = options.weights.dtype();
  }
  return p;
}

histogram_result finish(const ndarray& a, const ndarray& edges, const prepared& p, bool density) {
  const dtype cmp = promote_types(a.dtype(), edges.dtype());
  ndarray hist = count_into_bins(flat_as(a, cmp), flat_as(edges, cmp), p.weights, p.ntype);
  if (density) {
    const ndarray db = astype(diff(edges), float64);
    hist = divide(divide(hist, db), sum(hist));
  }
  return {hist, edges};
}

}  // namespace

histogram_result histogram(const ndarray& a0, std::int64_t bins, const histogram_options& options) {
  const prepared p = prepare_histogram(a0, options);
  if (bins < 1) throw ValueError("`bins` must be positive, when an integer");
  const dtype at = p.a.dtype();
  const dtype bin_type = detail::histogram_bin_dtype(at);
  operand first = 0.0, last = 1.0;
  if (options.range) {
    const auto [lo, hi] = *options.range;
    if (lo > hi) throw ValueError("max must be larger than min in range parameter.");
    if (!std::isfinite(lo) || !std::isfinite(hi))
      throw ValueError("supplied range of [" + repr_edge(lo) + ", " + repr_edge(hi) + "] is not finite");
    if (lo == hi) {
      first = lo - 0.5;
      last = hi + 0.5;
    } else {
      first = lo;
      last = hi;
    }
  } else if (p.a.size() == 0) {
    first = 0;
    last = 1;
  } else {
    // a.min(), a.max() as strong scalars of a's dtype; equal ones widened by 0.5 (in a's float
    // dtype, float64 for integers).
    ndarray lo = min(p.a), hi = max(p.a);
    const double l = astype(lo, float64).item<double>(), h = astype(hi, float64).item<double>();
    if (!std::isfinite(l) || !std::isfinite(h))
      throw ValueError("autodetected range of [" + repr_edge(l) + ", " + repr_edge(h) + "] is not finite");
    if (l == h) {
      if (!at.is_floating()) {
        lo = astype(lo, float64);
        hi = astype(hi, float64);
      }
      lo = subtract(lo, 0.5);
      hi = add(hi, 0.5);
    }
    first = std::move(lo);
    last = std::move(hi);
  }
  const ndarray edges = linspace(first, last, bins + 1, {.dtype = bin_type});
  return finish(p.a, edges, p, options.density);
}

histogram_result histogram(const ndarray& a0, const ndarray& bins, const histogram_options& options) {
  const prepared p = prepare_histogram(a0, options);
  require_numeric(bins.dtype(), "histogram");
  if (bins.ndim() != 1) throw ValueError("`bins` must be 1d, when an array");
  if (bins.dtype().is_complex()) throw TypeError("histogram: complex bins are not supported");
  if (bins.size() > 1) {
    const std::int64_t n = bins.size();
    const ndarray lo = bins(slice(0, n - 1)), hi = bins(slice(1, n));
    if (any(greater(lo, hi)).item<bool>()) throw ValueError("`bins` must increase monotonically, when an array");
  }
  return finish(p.a, bins, p, options.density);
}

// searching_routines(), the table `cupp ops` lists: generated from specs/routines/searching.yaml
// (generated/src/routine_tables.cpp).

}  // namespace cupp
