// The implementation of cupp/statistics.hpp's average, cov and corrcoef (NumPy's
// numpy/lib/_function_base_impl.py, statement for statement, on cupp's ufuncs and reductions),
// cov's matrix product (one small NVRTC program per dtype, cached under "statistics:cov_dot", its
// kernel in the embedded header <cupp/dev/routines/statistics.cuh>: one block per result element,
// a fixed-order tree sum, so results are the same run to run), and the routine table for
// `cupp ops`. The logic routines are in logic.cpp, median and the quantiles in quantile.cpp.
#include "cupp/statistics.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <complex>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "compiler/launch.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/reductions.hpp"
#include "routines/routine_programs.hpp"
#include "routines/statistics/statistics_internal.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace detail::stats {

std::vector<int> normalize_axes(std::span<const std::int64_t> axes, int ndim, std::string_view routine) {
  std::vector<int> out;
  for (std::int64_t ax : axes) {
    if (ax < -ndim || ax >= ndim)
      throw AxisError("axis " + std::to_string(ax) + " is out of bounds for array of dimension " + std::to_string(ndim));
    const int a = static_cast<int>(ax < 0 ? ax + ndim : ax);
    if (std::find(out.begin(), out.end(), a) != out.end()) throw ValueError("repeated axis");
    out.push_back(a);
  }
  (void)routine;
  return out;
}

void require_array(const ndarray& a, std::string_view routine) {
  if (a.is_null()) throw ValueError(std::string(routine) + ": the array is null");
}

}  // namespace detail::stats

namespace {

using detail::stats::normalize_axes;
using detail::stats::require_array;


// ---- cov's matrix product

// cov's matrix product for one dtype: the kernel is in the embedded header
// <cupp/dev/routines/statistics.cuh>; CUPP_COV_CATEGORY picks its accumulator and conjugate.
detail::routine_program make_cov_program(type_id t) {
  const detail::builtin_dtype_info& in = detail::info(t);
  int category = 0;
  switch (t) {
    case type_id::float16:
    case type_id::bfloat16: category = 0; break;
    case type_id::float32:
    case type_id::float64: category = 1; break;
    case type_id::complex64:
    case type_id::complex128: category = 2; break;
    default:
      throw TypeError("cov: no matrix product for dtype " + std::string(in.name));
  }
  std::string src = "#include <cupp/dev/prelude.cuh>\n\n";
  src += "using T = " + std::string(in.device_type) + ";\n";
  src += "#define CUPP_COV_CATEGORY " + std::to_string(category) + "\n";
  src += "#include <cupp/dev/routines/statistics.cuh>\n";
  return {"cupp_statistics_cov_dot", std::move(src), {"cupp_cov_dot"}};
}

const detail::kernel_module& cov_program_for(type_id t, int device) {
  return detail::routine_module(device, {"statistics:cov_dot", static_cast<std::uint64_t>(t)},
                                [&] { return make_cov_program(t); });
}

// dot(a, b.conj().T) for 2-d a (n x k) and b (m x k) of one dtype: an n x m C-contiguous array.
ndarray dot_conj_t(const ndarray& a, const ndarray& b) {
  const dtype t = a.dtype();
  const std::int64_t n = a.shape(0), m = b.shape(0), kdim = a.shape(1);
  const std::int64_t shape[2] = {n, m};
  ndarray c = empty(std::span<const std::int64_t>(shape, 2), t);
  if (c.size() == 0) return c;
  const int device = a.device();
  const detail::kernel_module& mod = cov_program_for(t.id(), device);
  const auto item = static_cast<std::int64_t>(t.itemsize());
  void* cp = c.data();
  const void* ap = a.data();
  const void* bp = b.data();
  long long nn = n, mm = m, kk = kdim;
  long long sa0 = a.stride(0) / item, sa1 = a.stride(1) / item, sb0 = b.stride(0) / item, sb1 = b.stride(1) / item;
  void* args[] = {&cp, &ap, &bp, &nn, &mm, &kk, &sa0, &sa1, &sb0, &sb1};
  // One block per result element (at most 2^20; the kernel loops over the rest).
  const std::int64_t blocks = std::clamp<std::int64_t>(n * m, 1, 1 << 20);
  detail::launch_1d(mod.function(0), n * m, args, device, blocks);
  return c;
}

// np.array(x, ndmin=2, dtype=t): a new array (cast unsafe), with leading axes of length 1.
ndarray as_2d_copy(const ndarray& x, const dtype& t) {
  ndarray c = astype(x, t, casting::unsafe, true);
  while (c.ndim() < 2) c = c.expand_dims(0);
  return c;
}

// cov's fweights / aweights checks (NumPy's order), returning the weights as float64.
ndarray checked_weights(const ndarray& w0, std::int64_t observations, bool frequency) {
  const std::string name = frequency ? "fweights" : "aweights";
  ndarray w = astype(w0, float64, casting::unsafe, true);
  if (frequency && !all(equal(w, rint(w))).item<bool>()) throw TypeError("fweights must be integer");
  if (w.ndim() > 1) throw ValueError("cannot handle multidimensional " + name);
  if (w.ndim() == 0) throw IndexError("tuple index out of range");
  if (w.shape(0) != observations) throw ValueError("incompatible numbers of samples and " + name);
  if (any(less(w, 0)).item<bool>()) throw ValueError(name + " cannot be negative");
  return w;
}

}  // namespace

// ---- average

std::pair<ndarray, ndarray> average_returned(const ndarray& a, const average_options& options) {
  require_array(a, "average");
  std::vector<int> axis;
  if (!options.axis.all()) axis = normalize_axes(options.axis.list(), a.ndim(), "average");
  if (options.weights.is_null()) {
    const ndarray avg = mean(a, {.axis = options.axis, .keepdims = options.keepdims});
    // scl = avg.dtype.type(a.size / avg.size), broadcast to the average's shape.
    if (avg.size() == 0) throw ValueError("average: division by zero (the average is empty)");
    const double scale = static_cast<double>(a.size()) / static_cast<double>(avg.size());
    return {avg, full(avg.shape(), weak_scalar(scale), avg.dtype())};
  }
  ndarray w = options.weights;
  const dtype t = a.dtype().is_integer() || a.dtype().is_bool() ? result_type({a.dtype(), w.dtype(), dtype(float64)})
                                                                 : result_type(a.dtype(), w.dtype());
  if (!std::ranges::equal(a.shape(), w.shape())) {
    if (options.axis.all()) throw TypeError("Axis must be specified when shapes of a and weights differ.");
    shape_t along;
    for (int ax : axis) along.push_back(a.shape(ax));
    if (!std::ranges::equal(along, w.shape()))
      throw ValueError("Shape of weights must be consistent with shape of a along specified axis.");
    // w.transpose(argsort(axis)).reshape(a's shape with 1 off the axes)
    std::vector<int> order(axis.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int x, int y) { return axis[x] < axis[y]; });
    w = w.transpose(std::span<const int>(order));
    shape_t shape;
    for (int d = 0; d < a.ndim(); ++d)
      shape.push_back(std::find(axis.begin(), axis.end(), d) != axis.end() ? a.shape(d) : 1);
    w = w.reshape(std::span<const std::int64_t>(shape));
  }
  ndarray scl = sum(w, {.axis = options.axis, .keepdims = options.keepdims, .dtype = t});
  if (any(equal(scl, 0.0)).item<bool>()) throw ValueError("Weights sum to zero, can't be normalized");
  const ndarray prod = multiply(a, w, {.dtype = t});
  ndarray avg = divide(sum(prod, {.axis = options.axis, .keepdims = options.keepdims}), scl);
  if (!std::ranges::equal(scl.shape(), avg.shape())) scl = broadcast_to(scl, avg.shape()).copy();
  return {avg, scl};
}

ndarray average(const ndarray& a, const average_options& options) {
  require_array(a, "average");
  if (options.weights.is_null()) {
    if (!options.axis.all()) (void)normalize_axes(options.axis.list(), a.ndim(), "average");
    return mean(a, {.axis = options.axis, .keepdims = options.keepdims});
  }
  return average_returned(a, options).first;
}

// ---- cov, corrcoef

ndarray cov(const ndarray& m, const cov_options& options) {
  require_array(m, "cov");
  if (m.ndim() > 2) throw ValueError("m has more than 2 dimensions");
  const bool has_y = !options.y.is_null();
  if (has_y && options.y.ndim() > 2) throw ValueError("y has more than 2 dimensions");
  const dtype t = options.dtype ? *options.dtype
                  : has_y       ? result_type({m.dtype(), options.y.dtype(), dtype(float64)})
                                : result_type(m.dtype(), dtype(float64));
  ndarray x = as_2d_copy(m, t);
  if (!options.rowvar && m.ndim() != 1) x = x.transpose();
  if (x.shape(0) == 0) return empty({0, 0}, float64);
  if (has_y) {
    ndarray y = as_2d_copy(options.y, t);
    if (!options.rowvar && y.shape(0) != 1) y = y.transpose();
    x = concatenate({x, y}, {.axis = 0});
  }
  const std::int64_t ddof = options.ddof ? *options.ddof : (options.bias ? 0 : 1);
  const std::int64_t observations = x.shape(1);

  ndarray w, aw;
  if (!options.fweights.is_null()) w = checked_weights(options.fweights, observations, true);
  if (!options.aweights.is_null()) {
    aw = checked_weights(options.aweights, observations, false);
    w = w.is_null() ? aw : multiply(w, aw);
  }

  double fact;
  ndarray avg;
  if (w.is_null()) {
    avg = mean(x, {.axis = 1});
    fact = static_cast<double>(observations - ddof);
  } else {
    auto [average_, w_sum] = average_returned(x, {.axis = 1, .weights = w});
    avg = average_;
    const double w_sum0 = w_sum.size() ? astype(w_sum.reshape({-1})(0).real(), float64).item<double>() : 0.0;
    if (ddof == 0) {
      fact = w_sum0;
    } else if (aw.is_null()) {
      fact = w_sum0 - static_cast<double>(ddof);
    } else {
      fact = w_sum0 - static_cast<double>(ddof) * sum(multiply(w, aw)).item<double>() / w_sum0;
    }
  }
  if (fact <= 0) fact = 0.0;  // NumPy warns "Degrees of freedom <= 0 for slice"

  subtract(x, avg(slice(), newaxis), {.out = x});
  const ndarray xt = w.is_null() ? x : multiply(x, w);
  const dtype pt = result_type(x.dtype(), xt.dtype());
  ndarray c = dot_conj_t(x.dtype() == pt ? x : astype(x, pt), xt.dtype() == pt ? xt : astype(xt, pt));
  multiply(c, scalar(weak_scalar(1.0 / fact), float64), {.out = c});
  return c.squeeze();
}

ndarray corrcoef(const ndarray& x, const corrcoef_options& options) {
  ndarray c = cov(x, {.y = options.y, .rowvar = options.rowvar, .dtype = options.dtype});
  if (c.ndim() != 1 && c.ndim() != 2) return divide(c, c);  // scalar covariance: nan or 1
  const ndarray d = diag(c);
  const ndarray stddev = sqrt(d.real());
  divide(c, stddev(slice(), newaxis), {.out = c});
  divide(c, stddev(newaxis, slice()), {.out = c});
  const ndarray re = c.real();
  maximum(re, -1, {.out = re});
  minimum(re, 1, {.out = re});
  if (c.dtype().is_complex()) {
    const ndarray im = c.imag();
    maximum(im, -1, {.out = im});
    minimum(im, 1, {.out = im});
  }
  return c;
}

// ---- for tools and tests

namespace detail {

routine_program cov_kernel_program(dtype type) {
  if (!type.is_builtin()) throw TypeError("cov_kernel_program: dtype " + type.name() + " is not supported");
  return make_cov_program(type.id());
}

}  // namespace detail

// statistics_routines(), the table `cupp ops` lists: generated from specs/routines/statistics.yaml
// (generated/src/routine_tables.cpp).

}  // namespace cupp
