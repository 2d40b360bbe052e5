// NumPy's matrix-product gufuncs: matmul (n?,k),(k,m?)->(n?,m?), matvec (m,n),(n)->(m), vecmat
// (n),(n,m)->(m) and vecdot (n),(n)->(). Each maps its core dimensions onto one batched matrix
// product (vectors become 1-row or 1-column matrices, removed from the result again) and shares
// the gufunc machinery here: the loop dtype (dtype= or NEP 50 promotion), casting= on the inputs
// and on out=, batch broadcasting (out= may broadcast the inputs further, as NumPy's iterator
// lets it), NumPy's error messages, and the result written straight into out= when its dtype is
// the loop's and it shares no memory with an input.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/ufunc.hpp"
#include "gemm.hpp"

namespace cupp {

namespace {

using i64 = std::int64_t;

constexpr std::string_view matmul_signature = "(n?,k),(k,m?)->(n?,m?)";
constexpr std::string_view matvec_signature = "(m,n),(n)->(m)";
constexpr std::string_view vecmat_signature = "(n),(n,m)->(m)";
constexpr std::string_view vecdot_signature = "(n),(n)->()";

std::string dtype_repr(const dtype& t) { return "dtype('" + t.name() + "')"; }

std::string shape_text(std::span<const i64> s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

// NumPy's "<f>: Input operand <i> does not have enough dimensions (has <n>, gufunc core with
// signature <sig> requires <need>)".
void require_dims(const ndarray& x, int operand, int need, std::string_view name, std::string_view signature,
                  const char* role = "Input") {
  if (x.is_null()) throw ValueError(std::string(name) + ": operand " + std::to_string(operand) + " is a null array");
  if (x.ndim() < need)
    throw ValueError(std::string(name) + ": " + role + " operand " + std::to_string(operand) +
                     " does not have enough dimensions (has " + std::to_string(x.ndim()) +
                     ", gufunc core with signature " + std::string(signature) + " requires " + std::to_string(need) +
                     ")");
}

// NumPy's "<f>: Input operand <i> has a mismatch in its core dimension <d>, with gufunc signature
// <sig> (size <got> is different from <want>)".
void require_core(i64 got, i64 want, int operand, int dim, std::string_view name, std::string_view signature,
                  const char* role = "Input") {
  if (got != want)
    throw ValueError(std::string(name) + ": " + role + " operand " + std::to_string(operand) +
                     " has a mismatch in its core dimension " + std::to_string(dim) + ", with gufunc signature " +
                     std::string(signature) + " (size " + std::to_string(got) + " is different from " +
                     std::to_string(want) + ")");
}

ndarray with_leading_ones(ndarray x, int ndim) {
  while (x.ndim() < ndim) x = x.expand_dims(0);
  return x;
}

bool shares_base(const ndarray& x, const ndarray& y) { return x.base() && x.base() == y.base(); }

struct gufunc_names {
  std::string_view name, signature;
};

// The batched product of a (..., n, k) and b (..., k, m) (k already checked) as the gufunc `g`,
// whose result drops n and/or m (a vector operand's length-1 axis).
ndarray product(const ndarray& a0, const ndarray& b0, bool drop_n, bool drop_m, const matmul_options& o,
                gufunc_names g) {
  for (const ndarray* x : {&a0, &b0}) detail::require_not_structured(x->dtype(), g.name);
  const dtype loop = o.dtype ? *o.dtype : result_type(a0.dtype(), b0.dtype());
  detail::require_not_structured(loop, g.name);
  for (int i = 0; i < 2; ++i) {
    const dtype from = (i == 0 ? a0 : b0).dtype();
    if (!can_cast(from, loop, o.casting))
      throw TypeError("Cannot cast ufunc '" + std::string(g.name) + "' input " + std::to_string(i) + " from " +
                      dtype_repr(from) + " to " + dtype_repr(loop) + " with casting rule '" +
                      std::string(to_string(o.casting)) + "'");
  }
  const i64 n = a0.shape(-2), m = b0.shape(-1);
  const std::vector<i64> a_batch(a0.shape().begin(), a0.shape().end() - 2);
  const std::vector<i64> b_batch(b0.shape().begin(), b0.shape().end() - 2);
  shape_t batch;
  try {
    if (!a_batch.empty() || !b_batch.empty()) batch = broadcast_shapes({a_batch, b_batch});  // (2-D: none)
  } catch (const ValueError&) {
    throw ValueError("operands could not be broadcast together with remapped shapes [original->remapped]: " +
                     shape_text(a0.shape()) + "->" + shape_text(a_batch) + " " + shape_text(b0.shape()) + "->" +
                     shape_text(b_batch) + " (" + std::string(g.name) + " batch dimensions)");
  }
  std::vector<i64> core;
  if (!drop_n) core.push_back(n);
  if (!drop_m) core.push_back(m);
  const ndarray& out = o.out;
  if (!out.is_null()) {
    require_dims(out, 0, static_cast<int>(core.size()), g.name, g.signature, "Output");
    for (std::size_t d = 0; d < core.size(); ++d)
      require_core(out.shape()[out.ndim() - core.size() + d], core[d], 0, static_cast<int>(d), g.name, g.signature,
                   "Output");
    const shape_t out_batch(out.shape().begin(), out.shape().end() - static_cast<std::ptrdiff_t>(core.size()));
    shape_t joined;
    try {
      joined = broadcast_shapes({batch, out_batch});
    } catch (const ValueError&) {
      joined = shape_t();
    }
    if (joined.size() != out_batch.size() || !std::equal(joined.begin(), joined.end(), out_batch.begin()))
      throw ValueError("non-broadcastable output operand with shape " + shape_text(out.shape()) +
                       " doesn't match the broadcast shape " + shape_text(batch) + " (" + std::string(g.name) + ")");
    batch = out_batch;
    if (!can_cast(loop, out.dtype(), o.casting))
      throw TypeError("Cannot cast ufunc '" + std::string(g.name) + "' output from " + dtype_repr(loop) + " to " +
                      dtype_repr(out.dtype()) + " with casting rule '" + std::string(to_string(o.casting)) + "'");
    if (!out.writeable()) throw ValueError("output array is read-only");
  }
  const int nd = static_cast<int>(batch.size()) + 2;
  const ndarray a = with_leading_ones(astype(a0, loop, casting::unsafe, false), nd);
  const ndarray b = with_leading_ones(astype(b0, loop, casting::unsafe, false), nd);
  std::vector<i64> full(batch.begin(), batch.end());
  full.push_back(n);
  full.push_back(m);
  std::vector<i64> result(batch.begin(), batch.end());
  result.insert(result.end(), core.begin(), core.end());
  if (!out.is_null() && out.dtype() == loop && !shares_base(out, a0) && !shares_base(out, b0)) {
    ndarray c = out;
    if (drop_n) c = c.expand_dims(c.ndim() - (drop_m ? 0 : 1));
    if (drop_m) c = c.expand_dims(c.ndim());
    linalg::detail::gemm_into(a, b, c);
    return out;
  }
  const ndarray c = empty(full, loop);
  linalg::detail::gemm_into(a, b, c);
  const ndarray r = c.reshape(result);
  if (out.is_null()) return r;
  out.assign(can_cast(loop, out.dtype(), casting::same_kind) ? r : astype(r, out.dtype(), casting::unsafe));
  return out;
}

// x1 conjugated when complex (vecdot's and vecmat's first operand).
ndarray conjugated(const ndarray& x) { return x.dtype().kind() == 'c' ? conjugate(x) : x; }

}  // namespace

namespace {

bool is_float_loop(const dtype& t) {
  const type_id id = t.id();
  return id == type_id::float16 || id == type_id::bfloat16 || id == type_id::float32 || id == type_id::float64 ||
         id == type_id::complex64 || id == type_id::complex128;
}

}  // namespace

ndarray matmul(const ndarray& x1, const ndarray& x2, const matmul_options& options) {
  // The warm path of a plain 2-D product (one float dtype, no out=, no dtype=): nothing to
  // promote, cast or broadcast, so straight to the allocation and the library call (issue 24's
  // host-time target; product() below does the same with the general bookkeeping).
  if (!x1.is_null() && !x2.is_null() && x1.ndim() == 2 && x2.ndim() == 2 && !options.dtype &&
      x1.dtype() == x2.dtype() && is_float_loop(x1.dtype()) && x1.shape()[1] == x2.shape()[0]) {
    const std::int64_t shape[2] = {x1.shape()[0], x2.shape()[1]};
    const ndarray& out = options.out;
    if (out.is_null()) {
      const ndarray c = empty(std::span<const std::int64_t>(shape, 2), x1.dtype());
      linalg::detail::gemm_into(x1, x2, c);
      return c;
    }
    // out= of the loop's dtype and shape, writeable, sharing no memory with an input: written in place.
    if (out.ndim() == 2 && out.dtype() == x1.dtype() && out.shape()[0] == shape[0] && out.shape()[1] == shape[1] &&
        out.writeable() && !shares_base(out, x1) && !shares_base(out, x2)) {
      linalg::detail::gemm_into(x1, x2, out);
      return out;
    }
  }
  const gufunc_names g{"matmul", matmul_signature};
  require_dims(x1, 0, 1, g.name, g.signature);
  require_dims(x2, 1, 1, g.name, g.signature);
  const ndarray a = x1.ndim() == 1 ? x1.expand_dims(0) : x1;
  const ndarray b = x2.ndim() == 1 ? x2.expand_dims(1) : x2;
  require_core(b.shape(-2), a.shape(-1), 1, 0, g.name, g.signature);
  return product(a, b, x1.ndim() == 1, x2.ndim() == 1, options, g);
}

ndarray matvec(const ndarray& x1, const ndarray& x2, const matmul_options& options) {
  const gufunc_names g{"matvec", matvec_signature};
  require_dims(x1, 0, 2, g.name, g.signature);
  require_dims(x2, 1, 1, g.name, g.signature);
  require_core(x2.shape(-1), x1.shape(-1), 1, 0, g.name, g.signature);
  return product(x1, x2.expand_dims(x2.ndim()), false, true, options, g);
}

ndarray vecmat(const ndarray& x1, const ndarray& x2, const matmul_options& options) {
  const gufunc_names g{"vecmat", vecmat_signature};
  require_dims(x1, 0, 1, g.name, g.signature);
  require_dims(x2, 1, 2, g.name, g.signature);
  require_core(x2.shape(-2), x1.shape(-1), 1, 0, g.name, g.signature);
  return product(conjugated(x1).expand_dims(x1.ndim() - 1), x2, true, false, options, g);
}

ndarray vecdot(const ndarray& x1, const ndarray& x2, const vecdot_options& options) {
  const gufunc_names g{"vecdot", vecdot_signature};
  require_dims(x1, 0, 1, g.name, g.signature);
  require_dims(x2, 1, 1, g.name, g.signature);
  const ndarray a = x1.moveaxis(options.axis, -1), b = x2.moveaxis(options.axis, -1);
  require_core(b.shape(-1), a.shape(-1), 1, 0, g.name, g.signature);
  const matmul_options o{.out = options.out, .casting = options.casting, .dtype = options.dtype};
  return product(conjugated(a).expand_dims(a.ndim() - 1), b.expand_dims(b.ndim()), true, true, o, g);
}

}  // namespace cupp
