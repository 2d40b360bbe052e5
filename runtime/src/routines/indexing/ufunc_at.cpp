// ufunc.at (cupp/ufunc.hpp, cupp/indexing.hpp): with atomics for the ops and dtypes that have a
// form (one NVRTC program per (op, dtype), <cupp/dev/routines/ufunc_at.cuh>), otherwise in rounds
// that hold each index once, so repeated indices accumulate in order as NumPy's unbuffered loop.
#include <functional>
#include <string>
#include <unordered_map>

#include "array/layout.hpp"
#include "cupp/errors.hpp"
#include "cupp/manipulation.hpp"
#include "routines/indexing/indexing_internal.hpp"
#include "routines/routine_programs.hpp"

namespace cupp {

using namespace indexing_internal;

namespace {

// ---- ufunc.at with atomics: one NVRTC program per (op, dtype).
//
// Every op below on every dtype it has a form for updates each element with one atomic read-modify-
// write, so repeated indices accumulate as NumPy's unbuffered loop does. Native atomics where the
// hardware has them (atomicAdd on int32/uint32/int64/uint64/float32/float64 and on the parts of a
// complex number; atomicMin/atomicMax and atomicAnd/Or/Xor on 32- and 64-bit integers); otherwise
// a compare-and-swap loop that computes the op as NumPy's loop does: on the element's own word (4
// or 8 bytes), or for 1- and 2-byte dtypes on the aligned 32-bit word that holds the element,
// replacing only its bytes. Integer results are NumPy's whatever the order (wrapping arithmetic,
// min, max and the bitwise ops are associative and commutative). float16 and bfloat16 compute in
// float32 and round once per update (NumPy's loops); float additions happen in an unspecified order.

struct at_op {
  const char* name;
  const char* expr;      // of the current value a and the operand b (integers: in W, unsigned)
  const char* float_expr;
  bool ints_only;
};
constexpr at_op at_ops[] = {
    {"add", "(W)a + (W)b", "a + b", false},
    {"subtract", "(W)a - (W)b", "a - b", false},
    {"multiply", "(W)a * (W)b", "a * b", false},
    {"minimum", "(a < b ? a : b)", "(a != a ? a : (b != b ? b : (a < b ? a : b)))", false},
    {"maximum", "(a > b ? a : b)", "(a != a ? a : (b != b ? b : (a > b ? a : b)))", false},
    {"fmin", "(a < b ? a : b)", "(b != b ? a : (a != a ? b : (a < b ? a : b)))", false},
    {"fmax", "(a > b ? a : b)", "(b != b ? a : (a != a ? b : (a > b ? a : b)))", false},
    {"bitwise_and", "(a & b)", "", true},
    {"bitwise_or", "(a | b)", "", true},
    {"bitwise_xor", "(a ^ b)", "", true},
};

const at_op* find_at_op(std::string_view name) {
  for (const at_op& o : at_ops)
    if (name == o.name) return &o;
  return nullptr;
}

// The element type the program names for a dtype; null for none (bool, structured).
const char* at_type(const dtype& t) {
  switch (t.id()) {
    case type_id::int8: return "signed char";
    case type_id::uint8: return "unsigned char";
    case type_id::int16: return "short";
    case type_id::uint16: return "unsigned short";
    case type_id::int32: return "int";
    case type_id::uint32: return "unsigned int";
    case type_id::int64: return "long long";
    case type_id::uint64: return "unsigned long long";
    case type_id::float16: return "__half";
    case type_id::bfloat16: return "__nv_bfloat16";
    case type_id::float32: return "float";
    case type_id::float64: return "double";
    case type_id::complex64: return "cupp::dev::complex<float>";
    case type_id::complex128: return "cupp::dev::complex<double>";
    default: return nullptr;
  }
}

// Whether (op, dtype) has an atomic form: every op on the integers, every op but the bitwise ones
// on the real floats, add and subtract on complex (a native atomicAdd per part), and multiply on
// complex64 (a 64-bit compare-and-swap; complex128 needs 16 bytes: rounds).
bool at_supported(const at_op& o, const dtype& t) {
  if (at_type(t) == nullptr) return false;
  if (o.ints_only && !t.is_integer()) return false;
  if (t.is_complex()) {
    const std::string_view n = o.name;
    return n == "add" || n == "subtract" || (n == "multiply" && t.id() == type_id::complex64);
  }
  return true;
}

}  // namespace

namespace detail {

routine_program ufunc_at_program(std::string_view op, const dtype& type) {
  const at_op* found = find_at_op(op);
  if (found == nullptr || !at_supported(*found, type))
    throw ValueError("ufunc_at_program: no atomic form for " + std::string(op) + " on " + type.name());
  const std::string_view name = found->name;
  const bool is_int = type.is_integer();
  const bool is_half = type.id() == type_id::float16 || type.id() == type_id::bfloat16;
  const bool is_complex = type.is_complex();
  const std::size_t size = type.itemsize();
  const bool add_like = name == "add" || name == "subtract";
  const bool min_max = name == "minimum" || name == "maximum" || name == "fmin" || name == "fmax";
  std::string src;
  if (is_half || is_complex) src += "#include <cupp/dev/prelude.cuh>\n";
  src += "using T = " + std::string(at_type(type)) + ";\n";
  // W: the integers' arithmetic type (unsigned, so overflow wraps as NumPy's does, with no UB).
  src += std::string("using W = ") + (size == 8 ? "unsigned long long" : "unsigned int") + ";\n";
  // The op on values (what one update computes).
  std::string expr;
  if (is_half) {
    src += "#define CUPP_AT_HALF 1\n";
    expr = found->float_expr;
  } else if (is_complex) {
    src += "#define CUPP_AT_COMPLEX 1\n";
    expr = name == "add" ? "a + b" : name == "subtract" ? "a - b" : "a * b";
  } else {
    expr = is_int ? found->expr : found->float_expr;
  }
  src += "#define CUPP_AT_EXPR " + expr + "\n";
  // The form of the update.
  const bool native_int = is_int && size >= 4;
  const bool int64_bits = type.id() == type_id::int64;  // its native atomics take unsigned long long
  if (is_complex && add_like) {
    src += "#define CUPP_AT_COMPLEX_PARTS 1\n";
    if (name == "subtract") src += "#define CUPP_AT_SUBTRACT 1\n";
  } else if (add_like && (native_int || type.id() == type_id::float32 || type.id() == type_id::float64)) {
    src += "#define CUPP_AT_NATIVE_ADD 1\n";
    if (name == "subtract") src += "#define CUPP_AT_SUBTRACT 1\n";
    if (is_int) src += "#define CUPP_AT_INTEGER 1\n";
    if (int64_bits) src += "#define CUPP_AT_INT64 1\n";
  } else if (native_int && min_max) {
    const bool is_min = name == "minimum" || name == "fmin";
    src += std::string("#define CUPP_AT_NATIVE_MINMAX 1\n#define CUPP_AT_ATOMIC ") +
           (is_min ? "atomicMin" : "atomicMax") + "\n";
  } else if (native_int && found->ints_only) {
    const char* f = name == "bitwise_and" ? "atomicAnd" : name == "bitwise_or" ? "atomicOr" : "atomicXor";
    src += std::string("#define CUPP_AT_NATIVE_BITWISE 1\n#define CUPP_AT_ATOMIC ") + f + "\n";
    if (int64_bits) src += "#define CUPP_AT_INT64 1\n";
  } else if (size >= 4) {
    src += "#define CUPP_AT_CAS_WORD 1\n#define CUPP_AT_WORD " + std::to_string(size) + "\n";
  } else {
    src += "#define CUPP_AT_CAS_SUBWORD 1\n#define CUPP_AT_SIZE " + std::to_string(size) + "\n";
  }
  src += "#include <cupp/dev/routines/ufunc_at.cuh>\n";
  return {"cupp_ufunc_at", std::move(src), {"cupp_ufunc_at"}};
}

}  // namespace detail

namespace {

bool has_atomic_form(const ufunc& f, const ndarray& a, const operand& b) {
  const at_op* found = find_at_op(f.name());
  if (found == nullptr || !at_supported(*found, a.dtype())) return false;
  const operand ins[] = {operand(a), operand::borrow(b)};
  const resolved_loop loop = resolve_loop(f, ins);
  return loop.in.size() == 2 && loop.in[0] == a.dtype() && loop.in[1] == a.dtype() && loop.out.size() == 1 &&
         loop.out[0] == a.dtype();
}

void ufunc_at_atomic(const ufunc& f, write_target& t, const operand& b) {
  const ndarray& dst = t.work;
  const shape_t& r = t.plan.result_shape;
  ndarray vals;
  std::int64_t nv = 0;
  if (!b.is_array()) {
    vals = scalar(b.scalar(), dst.dtype()).reshape({1});
    nv = 1;
  } else {
    const ndarray src = strip_leading_ones(b.array(), r.size());
    vals = empty(r, dst.dtype());
    copyto(vals, src, casting::unsafe);
  }
  geom g;
  map_result_dims(t.plan, t.view, t.off, g);
  if (nv == 0)
    for (int d = 0; d < g.ndim; ++d) g.s2[d] = vals.stride(d);
  const int device = dst.device();
  const std::uint64_t key = (static_cast<std::uint64_t>(std::hash<std::string_view>{}(f.name())) << 8) ^
                            static_cast<std::uint64_t>(dst.dtype().id());
  const detail::kernel_module& m = detail::routine_module(
      device, {"indexing:ufunc_at", key}, [&] { return detail::ufunc_at_program(f.name(), dst.dtype()); });
  void* d = dst.data();
  const void* o = t.off.data();
  const void* v = vals.data();
  long long total = layout::checked_size(r), nvv = nv;
  void* args[] = {&d, &o, &v, &g, &total, &nvv};
  detail::launch_1d(m.function(0), total, args, device);
}

// Any ufunc: the positions are applied in rounds, each round holding at most one occurrence of
// every position (the k-th occurrences in round k), so repeated indices accumulate in order.
void ufunc_at_rounds(const ufunc& f, const ndarray& a, std::span<const array_index_item> items, write_target& t,
                     const operand* b) {
  const ndarray& dst = t.work;
  const ndarray flat = dst.reshape({-1});
  const ndarray positions = getitem(arange(dst.size()).reshape(dst.shape()), items);
  const std::vector<std::int64_t> pos = flat_c(positions).to_vector<std::int64_t>();
  ndarray bflat;
  if (b && b->is_array()) {
    const ndarray src = strip_leading_ones(b->array(), t.plan.result_shape.size());
    bflat = flat_c(broadcast_to(src, t.plan.result_shape));
  }
  std::unordered_map<std::int64_t, std::size_t> seen;
  std::vector<std::vector<std::int64_t>> rounds;  // element numbers k of the result
  for (std::size_t k = 0; k < pos.size(); ++k) {
    const std::size_t r = seen[pos[k]]++;
    if (r == rounds.size()) rounds.emplace_back();
    rounds[r].push_back(static_cast<std::int64_t>(k));
  }
  for (const std::vector<std::int64_t>& ks : rounds) {
    std::vector<std::int64_t> p(ks.size());
    for (std::size_t i = 0; i < ks.size(); ++i) p[i] = pos[static_cast<std::size_t>(ks[i])];
    const ndarray pr = asarray(p);
    const ndarray cur = take(flat, pr);
    if (b == nullptr) {
      const operand ins[] = {operand(cur)};
      f.call(ins, {.out = cur});
    } else if (!b->is_array()) {
      const operand ins[] = {operand(cur), operand(b->scalar())};
      f.call(ins, {.out = cur});
    } else {
      const ndarray br = take(bflat, asarray(ks));
      const operand ins[] = {operand(cur), operand(br)};
      f.call(ins, {.out = cur});
    }
    put(flat, pr, cur, clip_mode::wrap);
  }
  (void)a;
}

void ufunc_at_impl(const ufunc& f, const ndarray& a, std::span<const array_index_item> items, const operand* b) {
  if (a.is_null()) throw ValueError("ufunc.at: the ndarray is a null handle (default-constructed)");
  if (f.nout() != 1) throw ValueError("ufunc.at does not support ufuncs with more than one output");
  if (f.nin() > 2) throw ValueError("Only unary and binary ufuncs supported at this time");
  if (f.nin() == 2 && b == nullptr) throw ValueError("second operand needed for ufunc");
  if (f.nin() == 1 && b != nullptr) throw ValueError("second operand provided when ufunc is unary");
  if (!a.writeable()) throw ValueError("ufunc.at: assignment destination is read-only");
  write_target t = prepare_write(a, items, "ufunc.at");
  if (!t.plan.advanced) {
    // Basic items: a view, each element once: the ufunc in place.
    const ndarray v = a.index(t.plan.basic);
    if (b == nullptr) {
      const operand ins[] = {operand(v)};
      f.call(ins, {.out = v});
    } else {
      const operand ins[] = {operand(v), operand::borrow(*b)};
      f.call(ins, {.out = v});
    }
    return;
  }
  if (layout::checked_size(t.plan.result_shape) == 0) return;
  if (b != nullptr && has_atomic_form(f, a, *b)) {
    ufunc_at_atomic(f, t, *b);
  } else {
    ufunc_at_rounds(f, a, items, t, b);
  }
  if (!a.is_c_contiguous()) a.assign(t.work);
}

}  // namespace

void ufunc::at(const ndarray& a, std::span<const array_index_item> indices) const {
  ufunc_at_impl(*this, a, indices, nullptr);
}

void ufunc::at(const ndarray& a, std::span<const array_index_item> indices, const operand& b) const {
  ufunc_at_impl(*this, a, indices, &b);
}

void ufunc::at(const ndarray& a, const ndarray& indices) const {
  const array_index_item items[] = {indices};
  ufunc_at_impl(*this, a, items, nullptr);
}

void ufunc::at(const ndarray& a, const ndarray& indices, const operand& b) const {
  const array_index_item items[] = {indices};
  ufunc_at_impl(*this, a, items, &b);
}

}  // namespace cupp
