// NumPy's array creation routines (cupp/creation.hpp). Two small NVRTC programs per dtype do the
// work that needs an index: "linear" (arange, linspace of scalars) and "tri" (eye, tri, tril,
// triu); they are found in the kernel cache by a cheap key ("creation:<family>", the dtype id) and
// launched on the current stream. Everything else composes existing machinery: fill and copyto
// kernels (ones, full, the *_like forms), ufuncs over views (linspace/logspace/geomspace of
// arrays, indices), and the ndarray's views (diag, meshgrid).
#include "cupp/creation.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "array/convert.hpp"
#include "array/layout.hpp"
#include "compiler/launch.hpp"
#include "routines/routine_programs.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "cupp/reductions.hpp"
#include "engine/internal.hpp"
#include "core/tables.hpp"

namespace cupp {

namespace {

__extension__ typedef __int128 int128;

// ---------------------------------------------------------------------------------------------
// The NVRTC programs

enum class family { linear, tri };

// What a value of the output dtype is computed as in a kernel.
enum class category { boolean, integer, half, real, complex };

category category_of(type_id t) {
  switch (t) {
    case type_id::bool_: return category::boolean;
    case type_id::float16:
    case type_id::bfloat16: return category::half;
    case type_id::float32:
    case type_id::float64: return category::real;
    case type_id::complex64:
    case type_id::complex128: return category::complex;
    default: return category::integer;
  }
}

// A value passed by bytes: the element's bytes in the output dtype (the kernels' cupp_value16).
struct alignas(16) value16 {
  unsigned char b[16] = {};
};

// The program of one family for one output dtype: its kernels are in the embedded header
// <cupp/dev/routines/creation.cuh>, selected and specialised by the defines below.
detail::routine_program make_program(family fam, type_id t) {
  std::string src = "#include <cupp/dev/prelude.cuh>\n\n";
  src += "using T = " + std::string(detail::info(t).device_type) + ";\n";
  src += "#define CUPP_CREATION_CATEGORY " + std::to_string(static_cast<int>(category_of(t))) + "\n";
  if (t == type_id::uint64) src += "#define CUPP_CREATION_UNSIGNED64 1\n";
  if (t == type_id::float16) src += "#define CUPP_CREATION_FLOAT16 1\n";
  if (t == type_id::complex64) src += "#define CUPP_CREATION_COMPLEX64 1\n";
  src += fam == family::linear ? "#define CUPP_CREATION_LINEAR 1\n" : "#define CUPP_CREATION_TRI 1\n";
  src += "#include <cupp/dev/routines/creation.cuh>\n";
  if (fam == family::linear) return {"cupp_creation_linear", std::move(src), {"cupp_arange", "cupp_linspace"}};
  return {"cupp_creation_tri", std::move(src), {"cupp_tri_fill", "cupp_tri_zero"}};
}

const detail::kernel_module& program_for(family fam, type_id t, int device) {
  const char* name = fam == family::linear ? "creation:linear" : "creation:tri";
  return detail::routine_module(device, {name, static_cast<std::uint64_t>(t)}, [&] { return make_program(fam, t); });
}

void launch(const void* kernel, std::int64_t n, void** args, int device) { detail::launch_1d(kernel, n, args, device); }

// A dtype every kernel can write (no void or structured dtypes).
void require_kernel_dtype(const dtype& type, std::string_view routine) {
  detail::require_not_structured(type, routine);
  if (!type.is_builtin())
    throw TypeError(std::string(routine) + ": dtype " + type.name() + " is not supported (a numeric or bool dtype is needed)");
}

// ---------------------------------------------------------------------------------------------
// Python scalars on the host

struct py_number {
  enum class kind { int_, float_, complex_ } k = kind::int_;
  int128 i = 0;
  double re = 0.0, im = 0.0;
  double as_double() const { return k == kind::int_ ? static_cast<double>(i) : re; }
  std::complex<double> as_complex() const { return {as_double(), k == kind::complex_ ? im : 0.0}; }
};

py_number to_py(const weak_scalar& s) {
  py_number p;
  switch (s.scalar_kind()) {
    case weak_scalar::kind::bool_:
    case weak_scalar::kind::int_:
      p.k = py_number::kind::int_;
      p.i = s.is_negative() ? -static_cast<int128>(s.magnitude()) : static_cast<int128>(s.magnitude());
      break;
    case weak_scalar::kind::float_:
      p.k = py_number::kind::float_;
      p.re = s.real();
      break;
    case weak_scalar::kind::complex_:
      p.k = py_number::kind::complex_;
      p.re = s.real();
      p.im = s.imag();
      break;
  }
  return p;
}

py_number::kind widest(std::initializer_list<py_number> xs) {
  py_number::kind k = py_number::kind::int_;
  for (const py_number& x : xs) k = std::max(k, x.k);
  return k;
}

bool fits_int64(int128 v) {
  return v >= static_cast<int128>(std::numeric_limits<std::int64_t>::min()) &&
         v <= static_cast<int128>(std::numeric_limits<std::int64_t>::max());
}

// A Python int back to a weak scalar; OverflowError beyond uint64 / int64 (no dtype holds it).
weak_scalar to_weak(const py_number& p) {
  switch (p.k) {
    case py_number::kind::int_:
      if (fits_int64(p.i)) return weak_scalar(static_cast<std::int64_t>(p.i));
      if (p.i > 0 && p.i <= static_cast<int128>(std::numeric_limits<std::uint64_t>::max()))
        return weak_scalar(static_cast<std::uint64_t>(p.i));
      throw OverflowError("Python int too large to convert to C long");
    case py_number::kind::float_: return weak_scalar(p.re);
    case py_number::kind::complex_: return weak_scalar(std::complex<double>(p.re, p.im));
  }
  return weak_scalar(0);
}

// Python's complex division (Objects/complexobject.c, _Py_c_quot).
std::complex<double> py_complex_divide(std::complex<double> a, std::complex<double> b, const char* routine) {
  const double abs_re = std::fabs(b.real()), abs_im = std::fabs(b.imag());
  if (abs_re >= abs_im) {
    if (abs_re == 0.0) throw ValueError(std::string(routine) + ": step must not be zero (complex division by zero)");
    const double ratio = b.imag() / b.real(), denom = b.real() + b.imag() * ratio;
    return {(a.real() + a.imag() * ratio) / denom, (a.imag() - a.real() * ratio) / denom};
  }
  if (abs_im >= abs_re) {
    const double ratio = b.real() / b.imag(), denom = b.real() * ratio + b.imag();
    return {(a.real() * ratio + a.imag()) / denom, (a.imag() * ratio - a.real()) / denom};
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return {nan, nan};
}

// NumPy's _arange_safe_ceil_to_intp.
std::int64_t safe_ceil(double value) {
  const double c = std::ceil(value);
  if (std::isnan(c)) throw ValueError("arange: cannot compute length");
  // NumPy turns the OverflowError of an out-of-range length into this ValueError.
  if (!(c >= -9.223372036854775808e18 && c < 9.223372036854775808e18))
    throw ValueError("Maximum allowed size exceeded");
  return static_cast<std::int64_t>(c);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// detail: host-only pieces (tests call them without a GPU)

namespace detail {

std::int64_t arange_length(const weak_scalar& start_w, const weak_scalar& stop_w, const weak_scalar& step_w,
                           bool complex_dtype) {
  const py_number start = to_py(start_w), stop = to_py(stop_w), step = to_py(step_w);
  const py_number::kind k = widest({start, stop, step});
  std::int64_t len = 0;
  if (k == py_number::kind::int_) {
    if (step.i == 0) throw ValueError("arange: step must not be zero (division by zero)");
    const int128 diff = stop.i - start.i;
    if (diff == 0) return 0;
    // Python's int / int is correctly rounded; both fit a double exactly up to 2^53.
    const int128 limit = int128(1) << 53;
    const bool exact = diff > -limit && diff < limit && step.i > -limit && step.i < limit;
    const double value = exact ? static_cast<double>(diff) / static_cast<double>(step.i)
                               : static_cast<double>(static_cast<long double>(diff) / static_cast<long double>(step.i));
    len = safe_ceil(value);
  } else if (k == py_number::kind::float_) {
    const double diff = stop.as_double() - start.as_double(), s = step.as_double();
    if (s == 0.0) throw ValueError("arange: step must not be zero (float division by zero)");
    if (diff == 0.0) return 0;
    len = safe_ceil(diff / s);
  } else {
    const std::complex<double> diff = stop.as_complex() - start.as_complex();
    const std::complex<double> s = step.as_complex();
    if (s == std::complex<double>(0.0, 0.0))
      throw ValueError("arange: step must not be zero (complex division by zero)");
    // NumPy reads the quotient as a float unless the dtype is complex.
    if (!complex_dtype) throw TypeError("must be real number, not complex");
    if (diff == std::complex<double>(0.0, 0.0)) return 0;
    const std::complex<double> value = py_complex_divide(diff, s, "arange");
    len = std::min(safe_ceil(value.real()), safe_ceil(value.imag()));
  }
  return std::max<std::int64_t>(len, 0);
}

dtype arange_default_dtype(const weak_scalar& start, const weak_scalar& stop, const weak_scalar& step) {
  // NumPy: PyArray_DescrFromObject of each argument with intp as the minimum type.
  bool any_float = false, any_complex = false, any_uint64 = false;
  for (const weak_scalar* s : {&start, &stop, &step}) {
    switch (s->scalar_kind()) {
      case weak_scalar::kind::complex_: any_complex = true; break;
      case weak_scalar::kind::float_: any_float = true; break;
      case weak_scalar::kind::int_:
        if (!s->is_negative() && s->magnitude() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
          any_uint64 = true;  // discovered as uint64: promote_types(int64, uint64) is float64
        break;
      default: break;
    }
  }
  if (any_complex) return complex128;
  if (any_float || any_uint64) return float64;
  return int64;
}

dtype full_default_dtype(const weak_scalar& value) {
  switch (value.scalar_kind()) {
    case weak_scalar::kind::bool_: return bool_;
    case weak_scalar::kind::float_: return float64;
    case weak_scalar::kind::complex_: return complex128;
    case weak_scalar::kind::int_:
      if (!value.is_negative() && value.magnitude() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
        return uint64;
      return int64;
  }
  return float64;
}

routine_program creation_kernel_program(std::string_view family_name, dtype type) {
  require_kernel_dtype(type, "creation_kernel_program");
  if (family_name == "linear") return make_program(family::linear, type.id());
  if (family_name == "tri") return make_program(family::tri, type.id());
  throw ValueError("creation_kernel_program: no family '" + std::string(family_name) + "' (linear, tri)");
}

}  // namespace detail

namespace {

// An empty C-ordered array of `type` on the current device.
ndarray new_array(std::span<const std::int64_t> shape, dtype type) { return empty(shape, type); }

ndarray strong(const weak_scalar& s) {
  // np.array(python_scalar): bool, int64 (uint64 beyond), float64, complex128.
  return scalar(s, detail::full_default_dtype(s));
}

ndarray as_array(const operand& x) { return x.is_array() ? x.array() : strong(x.scalar()); }

void check_num(std::int64_t num) {
  if (num < 0) throw ValueError("Number of samples, " + std::to_string(num) + ", must be non-negative.");
}

// Sets a (possibly multi-dimensional) result's last sample along axis 0 to `stop`.
void set_sample(const ndarray& y, std::int64_t index, const operand& value) {
  const ndarray row = y(index);
  if (value.is_array()) row.assign(value.array());
  else row.fill(value.scalar());
}

std::pair<ndarray, ndarray> linspace_impl(const operand& start, const operand& stop, std::int64_t num,
                                          const linspace_options& options) {
  check_num(num);
  if (options.dtype) require_kernel_dtype(*options.dtype, "linspace");
  const std::int64_t div = options.endpoint ? num - 1 : num;
  const double nan = std::numeric_limits<double>::quiet_NaN();

  if (!start.is_array() && !stop.is_array()) {
    // Scalars: one kernel, computing in float64 / complex128.
    const py_number a = to_py(start.scalar()), b = to_py(stop.scalar());
    const bool cplx = widest({a, b}) == py_number::kind::complex_;
    const dtype dt = cplx ? complex128 : float64;
    const dtype out_type = options.dtype ? *options.dtype : dt;
    const bool integer = out_type.is_integer();
    if (integer && cplx)
      throw TypeError("ufunc 'floor' not supported for the input types, and the inputs could not be safely coerced to "
                      "any supported types according to the casting rule ''safe''");
    layout::normalize_axis(options.axis, 1);
    const std::complex<double> s = a.as_complex(), e = b.as_complex();
    const std::complex<double> delta(e.real() - s.real(), e.imag() - s.imag());
    std::complex<double> step(nan, cplx ? nan : 0.0);
    int mode = 2;
    if (div > 0) {
      if (cplx) {
        // NumPy's complex division by (div + 0j): rat = 0, scl = 1 / div.
        const double scl = 1.0 / static_cast<double>(div);
        step = {(delta.real() + delta.imag() * 0.0) * scl, (delta.imag() - delta.real() * 0.0) * scl};
      } else {
        step = {delta.real() / static_cast<double>(div), 0.0};
      }
      mode = step == std::complex<double>(0.0, 0.0) ? 1 : 0;
    }
    ndarray y = new_array(std::span<const std::int64_t>(&num, 1), out_type);
    if (num > 0) {
      const detail::kernel_module& m = program_for(family::linear, out_type.id(), y.device());
      void* out = y.data();
      long long n = num;
      int is_complex = cplx, set_last = options.endpoint && num > 1, do_floor = integer;
      double sr = s.real(), si = s.imag(), str = step.real(), sti = step.imag(), dr = delta.real(), di = delta.imag(),
             dv = static_cast<double>(div), er = e.real(), ei = e.imag();
      void* args[] = {&out, &n, &is_complex, &mode, &set_last, &do_floor, &sr, &si, &str, &sti, &dr, &di, &dv, &er, &ei};
      launch(m.function(1), num, args, y.device());
    }
    ndarray step_array = div > 0 ? scalar(cplx ? weak_scalar(step) : weak_scalar(step.real()), dt)
                                 : scalar(weak_scalar(nan), float64);
    return {y, step_array};
  }

  // Arrays: NumPy's algorithm over ufuncs.
  std::vector<dtype> array_types;
  std::vector<weak_scalar> weak;
  for (const operand* x : {&start, &stop}) {
    if (x->is_array()) array_types.push_back(x->array().dtype());
    else weak.push_back(x->scalar());
  }
  weak.push_back(weak_scalar(0.0));  // ensure_inexact
  const dtype dt = result_type(array_types, weak);
  const dtype out_type = options.dtype ? *options.dtype : dt;
  const ndarray delta = subtract(stop, start, {.dtype = dt});
  shape_t y_shape{num};
  for (std::int64_t d : delta.shape()) {
    (void)d;
    y_shape.push_back(1);
  }
  ndarray y = arange(0, num, 1, dt).reshape(y_shape);
  ndarray step;
  if (div > 0) {
    step = divide(delta, div);
    const bool any_zero = delta.size() > 0 && cupp::any(equal(step, 0)).item<bool>();
    y = any_zero ? multiply(divide(y, div), delta) : multiply(y, step);
  } else {
    step = scalar(weak_scalar(nan), float64);
    y = multiply(y, delta);
  }
  y += start;
  if (options.endpoint && num > 1) set_sample(y, -1, stop);
  const int axis = layout::normalize_axis(options.axis, y.ndim());
  if (axis != 0) y = y.moveaxis(0, axis);
  if (out_type.is_integer()) y = floor(y, {.out = y});
  return {astype(y, out_type, casting::unsafe, false), step};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// ones, full, *_like

ndarray ones(std::span<const std::int64_t> shape, dtype type) {
  ndarray a = empty(shape, type);
  a.fill(weak_scalar(1));
  return a;
}
ndarray ones(std::initializer_list<std::int64_t> shape, dtype type) {
  return ones(std::span<const std::int64_t>(shape.begin(), shape.size()), type);
}

namespace {
// copyto(a, value, casting='unsafe') for a weak scalar: a complex value into a real dtype keeps its
// real part (NumPy warns with ComplexWarning; C++ has no warning channel).
void fill_unsafe(const ndarray& a, const weak_scalar& value) {
  if (value.scalar_kind() == weak_scalar::kind::complex_ && a.dtype().kind() != 'c' && a.dtype().kind() != 'V') {
    if (a.dtype().is_bool()) a.fill(weak_scalar(value.real() != 0.0 || value.imag() != 0.0));
    else a.fill(weak_scalar(value.real()));
    return;
  }
  a.fill(value);
}
}  // namespace

ndarray full(std::span<const std::int64_t> shape, const weak_scalar& fill_value, std::optional<dtype> type) {
  ndarray a = empty(shape, type ? *type : detail::full_default_dtype(fill_value));
  fill_unsafe(a, fill_value);
  return a;
}
ndarray full(std::initializer_list<std::int64_t> shape, const weak_scalar& fill_value, std::optional<dtype> type) {
  return full(std::span<const std::int64_t>(shape.begin(), shape.size()), fill_value, type);
}
ndarray full(std::span<const std::int64_t> shape, const ndarray& fill_value, std::optional<dtype> type) {
  if (fill_value.is_null()) throw ValueError("full: the fill value is a null array");
  ndarray a = empty(shape, type ? *type : fill_value.dtype());
  copyto(a, fill_value, casting::unsafe);
  return a;
}

ndarray full(std::initializer_list<std::int64_t> shape, const ndarray& fill_value, std::optional<dtype> type) {
  return full(std::span<const std::int64_t>(shape.begin(), shape.size()), fill_value, type);
}

ndarray empty_like(const ndarray& prototype, const like_options& options) {
  if (prototype.is_null()) throw ValueError("empty_like: the prototype is a null array");
  const dtype type = options.dtype ? *options.dtype : prototype.dtype();
  const shape_t shape = options.shape ? *options.shape : shape_t(prototype.shape().begin(), prototype.shape().end());
  layout::checked_size(shape);
  const int device = prototype.device();
  const bool same_shape = std::equal(shape.begin(), shape.end(), prototype.shape().begin(), prototype.shape().end());
  if (same_shape && !prototype.dtype().is_structured() && type.is_builtin() && prototype.dtype().is_builtin())
    return engine::empty_in_order_of(shape, std::span<const ndarray>(&prototype, 1), type, device);
  return engine::empty_with_strides(shape, layout::c_strides(shape, static_cast<std::int64_t>(type.itemsize())), type,
                                    device);
}
ndarray zeros_like(const ndarray& prototype, const like_options& options) {
  // empty_like's result is dense with positive strides: one memset over its bytes (any dtype,
  // structured and void included), as zeros() does.
  ndarray a = empty_like(prototype, options);
  if (a.size() == 0) return a;
  detail::device_scope scope(a.device());
  cuda::detail::check(cudaMemsetAsync(a.data(), 0, a.nbytes(), cuda::detail::current_stream_handle(a.device())),
                      "cudaMemsetAsync");
  return a;
}
ndarray ones_like(const ndarray& prototype, const like_options& options) {
  ndarray a = empty_like(prototype, options);
  a.fill(weak_scalar(1));
  return a;
}
ndarray full_like(const ndarray& prototype, const weak_scalar& fill_value, const like_options& options) {
  ndarray a = empty_like(prototype, options);
  fill_unsafe(a, fill_value);
  return a;
}
ndarray full_like(const ndarray& prototype, const ndarray& fill_value, const like_options& options) {
  if (fill_value.is_null()) throw ValueError("full_like: the fill value is a null array");
  ndarray a = empty_like(prototype, options);
  copyto(a, fill_value, casting::unsafe);
  return a;
}

// ---------------------------------------------------------------------------------------------
// arange, linspace, logspace, geomspace

ndarray arange(const weak_scalar& stop, std::optional<dtype> type) { return arange(0, stop, 1, type); }

ndarray arange(const weak_scalar& start, const weak_scalar& stop, const weak_scalar& step, std::optional<dtype> type) {
  const dtype t = type ? *type : detail::arange_default_dtype(start, stop, step);
  require_kernel_dtype(t, "arange");
  const std::int64_t length = detail::arange_length(start, stop, step, t.is_complex());
  if (t.is_bool() && length > 2)
    throw TypeError("arange() is only supported for booleans when the result has at most length 2.");
  ndarray out = new_array(std::span<const std::int64_t>(&length, 1), t);
  if (length == 0) return out;
  value16 first, second;
  const std::vector<std::byte> f = detail::scalar_bytes(start, t);
  std::memcpy(first.b, f.data(), f.size());
  if (length >= 2) {
    // start + step as Python computes it, then set into the dtype.
    const py_number a = to_py(start), s = to_py(step);
    py_number next;
    next.k = widest({a, s});
    if (next.k == py_number::kind::int_) {
      next.i = a.i + s.i;
    } else {
      const std::complex<double> v = a.as_complex() + s.as_complex();
      next.re = v.real();
      next.im = v.imag();
    }
    const std::vector<std::byte> n = detail::scalar_bytes(to_weak(next), t);
    std::memcpy(second.b, n.data(), n.size());
  }
  const detail::kernel_module& m = program_for(family::linear, t.id(), out.device());
  void* p = out.data();
  long long n = length;
  void* args[] = {&p, &n, &first, &second};
  launch(m.function(0), length, args, out.device());
  return out;
}

ndarray linspace(const operand& start, const operand& stop, std::int64_t num, const linspace_options& options) {
  return linspace_impl(start, stop, num, options).first;
}

std::pair<ndarray, ndarray> linspace_with_step(const operand& start, const operand& stop, std::int64_t num,
                                               const linspace_options& options) {
  return linspace_impl(start, stop, num, options);
}

ndarray logspace(const operand& start, const operand& stop, std::int64_t num, const logspace_options& options) {
  check_num(num);
  if (options.dtype) require_kernel_dtype(*options.dtype, "logspace");
  // NumPy makes start, stop and base arrays (strong dtypes); for two scalars linspace computes
  // in float64 / complex128 either way, so the scalar kernel serves.
  const bool scalars = !start.is_array() && !stop.is_array();
  const operand a = scalars ? start : operand(as_array(start));
  const operand b = scalars ? stop : operand(as_array(stop));
  ndarray y = linspace(a, b, num, {.endpoint = options.endpoint, .axis = options.axis});
  // base as np.array(base, ndmin=ndmax), then np.expand_dims(base, axis).
  ndarray base = as_array(options.base);
  const int ndmax = std::max({base.ndim(), start.is_array() ? start.array().ndim() : 0,
                              stop.is_array() ? stop.array().ndim() : 0});
  if (base.ndim() < ndmax) {
    shape_t padded(static_cast<std::size_t>(ndmax - base.ndim()), 1);
    padded.insert(padded.end(), base.shape().begin(), base.shape().end());
    base = base.reshape(padded);
  }
  base = base.expand_dims(layout::normalize_axis(options.axis, base.ndim() + 1));
  ndarray r = power(base, y);
  return options.dtype ? astype(r, *options.dtype, casting::unsafe, false) : r;
}

ndarray geomspace(const operand& start_in, const operand& stop_in, std::int64_t num, const geomspace_options& options) {
  check_num(num);
  if (options.dtype) require_kernel_dtype(*options.dtype, "geomspace");
  ndarray start = multiply(as_array(start_in), 1.0);
  ndarray stop = multiply(as_array(stop_in), 1.0);
  if (cupp::any(equal(start, 0)).item<bool>() || cupp::any(equal(stop, 0)).item<bool>())
    throw ValueError("Geometric sequence cannot include zero");
  const dtype types[] = {start.dtype(), stop.dtype(), options.dtype ? *options.dtype : float64};
  const weak_scalar weak[] = {weak_scalar(static_cast<double>(num))};
  const dtype dt = result_type(types, weak);
  start = astype(start, dt);
  stop = astype(stop, dt);
  const ndarray out_sign = sign(start);
  start = divide(start, out_sign, {.out = start});
  stop = divide(stop, out_sign);
  ndarray result = logspace(log10(start), log10(stop), num, {.endpoint = options.endpoint, .base = 10.0, .dtype = dt});
  if (num > 0) {
    set_sample(result, 0, start);
    if (num > 1 && options.endpoint) set_sample(result, -1, stop);
  }
  result *= out_sign;
  const int axis = layout::normalize_axis(options.axis, result.ndim());
  if (axis != 0) result = result.moveaxis(0, axis);
  return options.dtype ? astype(result, *options.dtype, casting::unsafe, false) : result;
}

// ---------------------------------------------------------------------------------------------
// eye, identity, tri, tril, triu, diag, diagflat

namespace {

ndarray tri_fill(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, dtype type, int mode,
                 std::string_view routine) {
  require_kernel_dtype(type, routine);
  const std::int64_t cols = m ? *m : n;
  const std::int64_t shape[] = {n, cols};
  ndarray out = new_array(shape, type);  // ValueError for negative dimensions
  if (out.size() == 0) return out;
  const detail::kernel_module& mod = program_for(family::tri, type.id(), out.device());
  void* p = out.data();
  long long r = n, c = cols, kk = k;
  void* args[] = {&p, &r, &c, &kk, &mode};
  launch(mod.function(0), out.size(), args, out.device());
  return out;
}

ndarray tri_zero(const ndarray& m, std::int64_t k, int mode, std::string_view routine) {
  if (m.is_null()) throw ValueError(std::string(routine) + ": the array is null");
  require_kernel_dtype(m.dtype(), routine);
  if (m.ndim() == 0)
    throw TypeError(std::string(routine) + ": the array must have at least one dimension (NumPy: tri() missing 1 "
                    "required positional argument: 'N')");
  ndarray out;
  if (m.ndim() == 1) {
    const std::int64_t shape[] = {m.shape(0), m.shape(0)};
    out = broadcast_to(m, shape).copy();
  } else {
    out = m.copy();
  }
  if (out.size() == 0) return out;
  const detail::kernel_module& mod = program_for(family::tri, out.dtype().id(), out.device());
  void* p = out.data();
  long long n = out.size(), rows = out.shape(-2), cols = out.shape(-1), kk = k;
  void* args[] = {&p, &n, &rows, &cols, &kk, &mode};
  launch(mod.function(1), out.size(), args, out.device());
  return out;
}

}  // namespace

ndarray eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, dtype type) {
  return tri_fill(n, m, k, type, 0, "eye");
}
ndarray identity(std::int64_t n, dtype type) { return tri_fill(n, std::nullopt, 0, type, 0, "identity"); }
ndarray tri(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, dtype type) {
  // NumPy builds tri from aranges, so a negative N or M gives an empty side, not an error.
  const std::int64_t rows = std::max<std::int64_t>(n, 0);
  return tri_fill(rows, m ? std::optional<std::int64_t>(std::max<std::int64_t>(*m, 0)) : std::optional<std::int64_t>(rows),
                  k, type, 1, "tri");
}
ndarray tril(const ndarray& m, std::int64_t k) { return tri_zero(m, k, 0, "tril"); }
ndarray triu(const ndarray& m, std::int64_t k) { return tri_zero(m, k, 1, "triu"); }

ndarray diag(const ndarray& v, std::int64_t k) {
  if (v.is_null()) throw ValueError("diag: the array is null");
  if (v.ndim() == 2) return v.diagonal(k, 0, 1);
  if (v.ndim() != 1) throw ValueError("Input must be 1- or 2-d.");
  const std::int64_t s = v.shape(0);
  const std::int64_t n = s + (k < 0 ? -k : k);
  const std::int64_t shape[] = {n, n};
  ndarray res = zeros(shape, v.dtype());
  if (s == 0) return res;
  const std::int64_t first = k >= 0 ? k : -k * n;
  const std::int64_t flat_shape[] = {n * n};
  res.reshape(flat_shape)(slice(first, first + s * (n + 1), n + 1)).assign(v);
  return res;
}

ndarray diagflat(const ndarray& v, std::int64_t k) {
  if (v.is_null()) throw ValueError("diagflat: the array is null");
  return diag(v.ravel(), k);
}

// ---------------------------------------------------------------------------------------------
// meshgrid, indices, fromfunction

std::vector<ndarray> meshgrid(std::span<const ndarray> xs, const meshgrid_options& options) {
  if (options.indexing != "xy" && options.indexing != "ij")
    throw ValueError("Valid values for `indexing` are 'xy' and 'ij'.");
  const std::size_t ndim = xs.size();
  layout::check_ndim(ndim);
  std::vector<ndarray> out;
  out.reserve(ndim);
  for (std::size_t i = 0; i < ndim; ++i) {
    if (xs[i].is_null()) throw ValueError("meshgrid: input " + std::to_string(i) + " is a null array");
    shape_t shape(ndim, 1);
    shape[i] = -1;
    out.push_back(xs[i].reshape({-1}).reshape(shape));
  }
  if (options.indexing == "xy" && ndim > 1) {
    shape_t s0(ndim, 1), s1(ndim, 1);
    s0[1] = -1;
    s1[0] = -1;
    out[0] = out[0].reshape(s0);
    out[1] = out[1].reshape(s1);
  }
  if (!options.sparse) out = broadcast_arrays(out);
  if (options.copy) {
    for (ndarray& a : out) a = a.copy();
  }
  return out;
}
std::vector<ndarray> meshgrid(std::initializer_list<ndarray> xs, const meshgrid_options& options) {
  return meshgrid(std::span<const ndarray>(xs.begin(), xs.size()), options);
}

namespace {
ndarray index_vector(std::span<const std::int64_t> dimensions, std::size_t i, dtype type) {
  shape_t shape(dimensions.size(), 1);
  shape[i] = dimensions[i];
  return arange(0, dimensions[i], 1, type).reshape(shape);
}
void check_dimensions(std::span<const std::int64_t> dimensions, dtype type, std::string_view routine) {
  require_kernel_dtype(type, routine);
  layout::check_ndim(dimensions.size() + 1);
  layout::checked_size(dimensions);  // ValueError for a negative dimension
}
}  // namespace

ndarray indices(std::span<const std::int64_t> dimensions, dtype type) {
  check_dimensions(dimensions, type, "indices");
  shape_t shape{static_cast<std::int64_t>(dimensions.size())};
  shape.insert(shape.end(), dimensions.begin(), dimensions.end());
  ndarray res = empty(shape, type);
  if (res.size() == 0) return res;
  for (std::size_t i = 0; i < dimensions.size(); ++i) res(static_cast<std::int64_t>(i)).assign(index_vector(dimensions, i, type));
  return res;
}
ndarray indices(std::initializer_list<std::int64_t> dimensions, dtype type) {
  return indices(std::span<const std::int64_t>(dimensions.begin(), dimensions.size()), type);
}
std::vector<ndarray> indices_sparse(std::span<const std::int64_t> dimensions, dtype type) {
  check_dimensions(dimensions, type, "indices");
  std::vector<ndarray> res;
  for (std::size_t i = 0; i < dimensions.size(); ++i) res.push_back(index_vector(dimensions, i, type));
  return res;
}

ndarray fromfunction(const std::function<ndarray(std::span<const ndarray>)>& function,
                     std::span<const std::int64_t> shape, const fromfunction_options& options) {
  if (!function) throw ValueError("fromfunction: the function is empty");
  std::vector<ndarray> args;
  if (options.sparse) {
    args = indices_sparse(shape, options.dtype);
  } else {
    const ndarray all = indices(shape, options.dtype);
    for (std::size_t i = 0; i < shape.size(); ++i) args.push_back(all(static_cast<std::int64_t>(i)));
  }
  return function(args);
}
ndarray fromfunction(const std::function<ndarray(std::span<const ndarray>)>& function,
                     std::initializer_list<std::int64_t> shape, const fromfunction_options& options) {
  return fromfunction(function, std::span<const std::int64_t>(shape.begin(), shape.size()), options);
}

// ---------------------------------------------------------------------------------------------

// creation_routines(), the table `cupp ops` lists: generated from specs/routines/creation.yaml
// (generated/src/routine_tables.cpp).

}  // namespace cupp
