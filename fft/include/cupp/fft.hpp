// cupp::fft, NumPy 2's numpy.fft over cuFFT (the fft module, target cupp::fft; cupp::cupp links
// it): the transforms, their helper routines, and the plan cache's settings (cupp::fft::config).
//
//   auto F = cupp::fft::fft(x);                                  // last axis, complex result
//   auto G = cupp::fft::fft(x, {.n = 1024, .axis = 0, .norm = "ortho"});
//   auto R = cupp::fft::rfft2(image);                            // real input, last two axes
//   auto y = cupp::fft::irfftn(R, {.s = {{512, 512}}, .axes = {{0, 1}}});
//   cupp::fft::fft(x, {.out = preallocated});                    // NumPy 2's out=
//   auto f = cupp::fft::fftfreq(8, 0.1);                         // [0, 1.25, ..., -1.25] (float64)
//   auto c = cupp::fft::fftshift(spectrum);                      // zero frequency to the centre
//
// dtypes as NumPy 2: float32 (and float16, bfloat16) input gives complex64, float64, integers and
// bool give complex128, complex stays; irfft/hfft give the real counterpart (float16 input:
// float16, as NumPy's). Transforms run on the current stream without synchronising; plans are
// cached per device and shared by every stream and thread (config below). docs/fft.md is the
// guide, docs/api/fft.md lists each routine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/routines.hpp"

namespace cupp::fft {

// Keywords of the 1-D transforms (fft, ifft, rfft, irfft, hfft, ihfft): NumPy's n=, axis=, norm=
// ("backward", the default, "ortho" or "forward"; nullopt is "backward") and out= (the result is
// written there and returned; it must have the result's shape, and its dtype must take the result
// under same_kind casting).
struct fft_options {
  std::optional<std::int64_t> n{};
  int axis = -1;
  std::optional<std::string> norm{};
  ndarray out{};
};

// Keywords of the n-D transforms: s= (lengths of the transformed axes; -1 keeps an axis' length),
// axes= (any axes in any order; a repeated axis is transformed again; nullopt: every axis, or the
// last len(s) when s is given), norm=, out=.
struct fftn_options {
  std::optional<std::vector<std::int64_t>> s{};
  std::optional<std::vector<std::int64_t>> axes{};
  std::optional<std::string> norm{};
  ndarray out{};
};

// The same for fft2, ifft2, rfft2, irfft2, whose axes default to (-2, -1) (nullopt).
struct fft2_options {
  std::optional<std::vector<std::int64_t>> s{};
  std::optional<std::vector<std::int64_t>> axes{};
  std::optional<std::string> norm{};
  ndarray out{};
};

// numpy.fft.fft / ifft: the complex DFT (and its inverse) along one axis, zero-padded or cropped
// to n points.
ndarray fft(const ndarray& a, const fft_options& options = {});
ndarray ifft(const ndarray& a, const fft_options& options = {});
// numpy.fft.rfft: the n//2 + 1 non-negative frequencies of a real input (complex input is
// TypeError, as NumPy's rfft ufunc has no complex loop); irfft: its inverse, n (default
// 2 * (m - 1)) real points; the imaginary parts of the zero (and, for even n, the Nyquist)
// frequency are ignored, as NumPy ignores them.
ndarray rfft(const ndarray& a, const fft_options& options = {});
ndarray irfft(const ndarray& a, const fft_options& options = {});
// numpy.fft.hfft (a Hermitian input's real spectrum, irfft of conj(a) with the norm swapped) and
// ihfft (its inverse).
ndarray hfft(const ndarray& a, const fft_options& options = {});
ndarray ihfft(const ndarray& a, const fft_options& options = {});

// numpy.fft.fftn / ifftn / rfftn / irfftn and the 2-D forms.
ndarray fftn(const ndarray& a, const fftn_options& options = {});
ndarray ifftn(const ndarray& a, const fftn_options& options = {});
ndarray rfftn(const ndarray& a, const fftn_options& options = {});
ndarray irfftn(const ndarray& a, const fftn_options& options = {});
ndarray fft2(const ndarray& a, const fft2_options& options = {});
ndarray ifft2(const ndarray& a, const fft2_options& options = {});
ndarray rfft2(const ndarray& a, const fft2_options& options = {});
ndarray irfft2(const ndarray& a, const fft2_options& options = {});

// scipy.fft.next_fast_len(target, real=False): the smallest n >= target whose prime factors are
// 2, 3, 5, 7 and 11 (real: 2, 3 and 5), SciPy's answer; target 0 gives 0, a negative target is
// ValueError("Target cannot be negative"). A host computation.
std::int64_t next_fast_len(std::int64_t target, bool real = false);

// numpy.fft.fftfreq(n, d=1.0): [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (n*d), float64 of
// length n. n*d == 0 is ValueError("float division by zero") (NumPy's ZeroDivisionError); a
// negative n ValueError("negative dimensions are not allowed").
ndarray fftfreq(std::int64_t n, double d = 1.0);
// numpy.fft.rfftfreq(n, d=1.0): [0, 1, ..., n//2] / (n*d), float64 of length n//2 + 1 (the
// frequencies of rfft's output). n*d == 0 is ValueError as for fftfreq; a negative n gives an
// empty array, as NumPy's arange(0, n//2 + 1) does.
ndarray rfftfreq(std::int64_t n, double d = 1.0);

// numpy.fft.fftshift(x, axes=None): x rolled by shape[axis] // 2 along each axis (every axis by
// default), so the zero frequency moves to the centre. A new array (one segment copy launch). An
// axis out of range is IndexError("tuple index out of range"), as NumPy's x.shape[axis].
ndarray fftshift(const ndarray& x);
ndarray fftshift(const ndarray& x, std::span<const int> axes);
ndarray fftshift(const ndarray& x, std::initializer_list<int> axes);
// numpy.fft.ifftshift(x, axes=None): the inverse, rolled by -(shape[axis] // 2).
ndarray ifftshift(const ndarray& x);
ndarray ifftshift(const ndarray& x, std::span<const int> axes);
ndarray ifftshift(const ndarray& x, std::initializer_list<int> axes);

// cuFFT LTO callbacks (CuPy's set_cufft_callbacks with cb_ver='jit'), as a scoped guard for the
// calling thread: transforms made while it lives run `load` on every input element cuFFT reads
// and `store` on every output element it writes. Each is CUDA source defining a __device__
// function (C++ linkage, as NVIDIA's cuFFT LTO samples write it) named load_name / store_name with
// cuFFT's JIT signature exactly, e.g.
//   __device__ cufftComplex cupp_fft_load(void* in, unsigned long long offset, void* info, void* shared);
//   __device__ void cupp_fft_store(void* out, unsigned long long offset, cufftComplex value, void* info,
//                                  void* shared);
// (cufftReal / cufftDoubleReal / cufftDoubleComplex for the other transforms; the names are
// declared for the source). The source is compiled by NVRTC to LTO-IR for the device and attached
// with cufftXtSetJITCallback before planning; load_data / store_data are the callbacks' caller_info.
// The plan cache keys on the whole set. A transform that does not run as one cuFFT execution
// (several plans, a loop of executions, a 1-point transform) is ValueError; the norm scaling pass
// (and ihfft's conjugate) run after the store callback.
struct cufft_callbacks {
  std::string load{};
  std::string store{};
  void* load_data = nullptr;
  void* store_data = nullptr;
  std::string load_name = "cupp_fft_load";
  std::string store_name = "cupp_fft_store";
};
class set_cufft_callbacks {
 public:
  explicit set_cufft_callbacks(const cufft_callbacks& callbacks);
  ~set_cufft_callbacks();  // the previous set (or none) is current again
  set_cufft_callbacks(const set_cufft_callbacks&) = delete;
  set_cufft_callbacks& operator=(const set_cufft_callbacks&) = delete;

 private:
  const void* previous_;
};

// The plan cache (CuPy's cupy.fft.config and its PlanCache). One LRU cache per device, keyed by
// the whole problem (sizes, 64-bit strides and distances, batch, types, direction); a plan is
// shared by every stream and thread, each execution taking its work area from cupp's pool on
// the calling stream. The limits are per device and shared by all threads (device -1: the
// current device); the other settings are thread-local, as CuPy 14's config is context-local.
namespace config {

struct plan_cache_info {
  int device = 0;
  std::size_t plans = 0;             // plans cached now
  std::size_t size_limit = 16;       // most plans kept (0: caching off)
  std::size_t work_bytes = 0;        // sum of the cached plans' work-area sizes
  std::int64_t memsize_limit = -1;   // most work-area bytes kept (-1: no limit)
  std::uint64_t hits = 0, misses = 0, evictions = 0;
};

// CuPy's PlanCache.set_size / get_size (default 16; 0 turns caching off and empties the cache).
void set_plan_cache_size(std::size_t plans, int device = -1);
std::size_t get_plan_cache_size(int device = -1);
// CuPy's set_memsize / get_memsize: a limit on the cached plans' work-area bytes (-1: none). A
// plan whose work area alone exceeds it is used once and not kept.
void set_plan_cache_max_memsize(std::int64_t bytes, int device = -1);
std::int64_t get_plan_cache_max_memsize(int device = -1);
// Drops every cached plan of the device (plans in use stay alive until their call returns).
void clear_plan_cache(int device = -1);
plan_cache_info get_plan_cache_info(int device = -1);
// The caches' statistics as text (every device whose cache was used), and printed to stdout
// (CuPy's show_plan_cache_info).
std::string plan_cache_info_text();
void show_plan_cache_info();

// Thread-local: whether n-D transforms (fft2, fftn, ...) plan several axes together (default
// true, CuPy's enable_nd_planning); false runs one 1-D transform per axis.
void set_enable_nd_planning(bool enable) noexcept;
bool get_enable_nd_planning() noexcept;

}  // namespace config

// What `cupp info` prints for the module: the cuFFT version and the plan caches' statistics.
std::vector<module_info_row> info();

}  // namespace cupp::fft

namespace cupp {
// For tools: the fft routines by name with their NumPy signatures (generated from
// specs/routines/fft.yaml; cupp ops lists them).
std::span<const routine_info> fft_routines() noexcept;
}  // namespace cupp
