// The ufunc call: NEP 50 loop resolution, broadcasting, out=/where=/dtype=/casting= checks,
// output allocation in the inputs' memory order (order='K'), copies of inputs that overlap an
// output, and the launch through the element-wise engine. Also the registry lookup, outer, and
// strong scalars.
#include "cupp/ufunc.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>

#include "array/access.hpp"
#include "array/convert.hpp"
#include "array/layout.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "engine/elementwise.hpp"
#include "engine/internal.hpp"
#include "engine/layout_plan.hpp"
#include "loader/loaded_ops.hpp"
#include "engine/loop_resolution.hpp"

namespace cupp {

namespace engine {

std::vector<std::byte> scalar_value(const op_spec& op, const weak_scalar& value, cupp::dtype type) {
  if (!op.weak_scalars_by_truth) return detail::scalar_bytes(value, type);
  const bool truth = value.scalar_kind() == weak_scalar::kind::int_ || value.scalar_kind() == weak_scalar::kind::bool_
                         ? value.magnitude() != 0
                         : value.real() != 0.0 || value.imag() != 0.0 || value.real() != value.real();
  return detail::scalar_bytes(weak_scalar(truth), type);
}

ndarray empty_with_strides(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                           cupp::dtype type, int device) {
  const std::int64_t n = layout::checked_size(shape);
  cuda::DeviceGuard guard(device);
  std::shared_ptr<cuda::Memory> memory = cuda::alloc_shared(static_cast<std::size_t>(n) * type.itemsize());
  void* base = memory->ptr();
  layout::strided where{shape_t(shape.begin(), shape.end()), shape_t(strides.begin(), strides.end()), 0};
  return ndarray_access::make(std::move(memory), base, device, type, std::move(where), true);
}

ndarray empty_in_order_of(std::span<const std::int64_t> shape, std::span<const ndarray> like, cupp::dtype type,
                          int device) {
  std::vector<shape_t> broadcast;
  std::vector<plan_input> inputs;
  broadcast.reserve(like.size());
  for (const ndarray& a : like) {
    broadcast.push_back(layout::broadcast_strides(a.shape(), a.strides(), shape));
    inputs.push_back({broadcast.back(), static_cast<std::int64_t>(a.itemsize())});
  }
  const std::vector<int> order = k_order(shape, inputs);
  const shape_t strides = strides_in_order(shape, order, static_cast<std::int64_t>(type.itemsize()));
  return empty_with_strides(shape, strides, type, device);
}

bool overlaps(const ndarray& a, const ndarray& b) {
  if (a.size() == 0 || b.size() == 0 || a.device() != b.device()) return false;
  const auto ea = layout::extent(a.shape(), a.strides(), static_cast<std::int64_t>(a.itemsize()));
  const auto eb = layout::extent(b.shape(), b.strides(), static_cast<std::int64_t>(b.itemsize()));
  const auto pa = reinterpret_cast<std::intptr_t>(a.data()), pb = reinterpret_cast<std::intptr_t>(b.data());
  return pa + ea.low < pb + eb.high && pb + eb.low < pa + ea.high;
}

bool same_elements(const ndarray& input, const ndarray& output) {
  return input.data() == output.data() && input.itemsize() == output.itemsize() &&
         std::equal(input.strides().begin(), input.strides().end(), output.strides().begin(), output.strides().end());
}

}  // namespace engine

namespace {

std::vector<ufunc> make_registry() {
  std::vector<ufunc> all;
  for (std::size_t i = 0; i < builtin_ops().size(); ++i) all.emplace_back(i);
  return all;
}

const std::vector<ufunc>& registry() {
  static const std::vector<ufunc> all = make_registry();
  return all;
}

std::string count_text(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

// ---- registry

const ufunc& ufunc::get(std::string_view name) {
  if (const op_spec* op = detail::find_builtin_op(name))
    return registry()[static_cast<std::size_t>(op - builtin_ops().data())];
  if (const ufunc* loaded = detail::find_loaded_ufunc(name)) return *loaded;
  throw ValueError("cupp has no ufunc '" + std::string(name) + "'");
}

std::vector<ufunc> ufunc::all() {
  std::vector<ufunc> every = registry();
  const std::vector<ufunc> loaded = detail::loaded_ufuncs();
  every.insert(every.end(), loaded.begin(), loaded.end());
  std::stable_sort(every.begin(), every.end(), [](const ufunc& a, const ufunc& b) { return a.name() < b.name(); });
  return every;
}

const op_spec& ufunc::spec() const noexcept { return loaded_ ? *loaded_ : builtin_ops()[index_]; }

ufunc detail::loaded_ufunc(const op_spec& op) noexcept {
  ufunc f(~std::size_t{0});
  f.loaded_ = &op;
  return f;
}

// ---- calls

ndarray ufunc::operator()(const operand& x, const ufunc_options& options) const {
  if (nin() != 1 || nout() != 1)
    throw TypeError("ufunc '" + std::string(name()) + "' takes " + count_text(static_cast<std::size_t>(nin()), "input") +
                    " and gives " + count_text(static_cast<std::size_t>(nout()), "output") + "; call it with call()");
  std::vector<ndarray> r = call(std::span<const operand>(&x, 1), options);
  return std::move(r.front());
}

ndarray ufunc::operator()(const operand& x, const operand& y, const ufunc_options& options) const {
  if (nin() != 2 || nout() != 1)
    throw TypeError("ufunc '" + std::string(name()) + "' takes " + count_text(static_cast<std::size_t>(nin()), "input") +
                    " and gives " + count_text(static_cast<std::size_t>(nout()), "output") + "; call it with call()");
  const operand both[] = {operand::borrow(x), operand::borrow(y)};
  std::vector<ndarray> r = call(both, options);
  return std::move(r.front());
}

namespace engine {

// The loop a call runs, memoised per thread by what decides it (op, each input's dtype or weak
// kind, dtype=, casting=), so a warm call resolves in a few compares.
std::size_t resolve_index(const op_spec& op, std::span<const operand> inputs, const ufunc_options& options) {
  if (inputs.size() != static_cast<std::size_t>(op.nin))
    throw TypeError(std::string(op.name) + "() takes " + count_text(static_cast<std::size_t>(op.nin), "input") + ", " +
                    std::to_string(inputs.size()) + " given");
  struct memo {
    const op_spec* op = nullptr;
    std::uint64_t key = 0;
    std::size_t index = 0;
  };
  std::uint64_t key = static_cast<std::uint64_t>(options.casting) |
                      (options.dtype ? std::uint64_t(static_cast<unsigned>(options.dtype->id()) + 1) : 0) << 4;
  bool memoisable = !options.dtype || options.dtype->is_builtin();
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    std::uint64_t code;
    if (inputs[k].is_array()) {
      const ndarray& a = inputs[k].array();
      detail::require_array(a, op.name);
      memoisable &= a.dtype().is_builtin();
      code = static_cast<unsigned>(a.dtype().id());
    } else {
      code = 32 + static_cast<unsigned>(inputs[k].scalar().scalar_kind());
    }
    key |= code << (12 + 8 * k);
  }
  thread_local std::array<memo, 64> recent{};
  memo& m = recent[(std::hash<const void*>{}(&op) ^ (key * 0x9e3779b97f4a7c15ull)) % recent.size()];
  if (memoisable && m.op == &op && m.key == key) return m.index;

  std::vector<input_type> types;
  for (const operand& in : inputs) {
    if (in.is_array()) {
      detail::require_not_structured(in.array().dtype(), op.name);
      types.push_back({in.array().dtype(), nullptr});
    } else {
      types.push_back({dtype(type_id::bool_), &in.scalar()});
    }
  }
  const loop_choice choice = choose_loop(op, types, options.dtype, options.casting);
  const loop_spec& loop = op.loops[choice.index];
  for (std::size_t k = 0; k < inputs.size(); ++k)
    if (inputs[k].is_array()) check_input_casting(op, k, inputs[k].array().dtype(), loop.in[k], options.casting);
  if (memoisable) m = {&op, key, choice.index};
  return choice.index;
}

}  // namespace engine

resolved_loop resolve_loop(const ufunc& f, std::span<const operand> inputs, const ufunc_options& options) {
  const op_spec& op = f.spec();
  const std::size_t index = engine::resolve_index(op, inputs, options);
  resolved_loop r{index, {}, {}};
  for (type_id t : op.loops[index].in) r.in.emplace_back(t);
  for (type_id t : op.loops[index].out) r.out.emplace_back(t);
  return r;
}

namespace {

// The fast path's test: no where=, every array C-contiguous with one shape on one device, and any
// out= array either apart from every input or the very same elements.
bool all_contiguous_alike(std::span<const operand> inputs, std::span<const ndarray> given, const ndarray& where) {
  if (!where.is_null()) return false;
  const ndarray* first = nullptr;
  auto alike = [&](const ndarray& a) {
    if (a.is_null() || !a.is_c_contiguous()) return false;
    if (!first) {
      first = &a;
      return true;
    }
    return a.device() == first->device() &&
           std::equal(a.shape().begin(), a.shape().end(), first->shape().begin(), first->shape().end());
  };
  for (const operand& in : inputs)
    if (in.is_array() && !alike(in.array())) return false;
  for (const ndarray& out : given) {
    if (!alike(out) || !out.writeable()) return false;
    for (const operand& in : inputs)
      if (in.is_array() && engine::overlaps(in.array(), out) &&
          !(in.array().data() == out.data() && in.array().itemsize() == out.itemsize()))
        return false;
  }
  return first != nullptr;
}

}  // namespace

std::vector<ndarray> ufunc::call(std::span<const operand> inputs, const ufunc_options& options) const {
  const op_spec& op = spec();
  return engine::execute(op, engine::resolve_index(op, inputs, options), inputs, options);
}

std::vector<ndarray> engine::execute(const op_spec& op, std::size_t loop_index, std::span<const operand> inputs,
                                     const ufunc_options& options) {
  const loop_spec& loop = op.loops[loop_index];
  const std::span<const ndarray> given = options.out.arrays();
  if (!given.empty() && given.size() != static_cast<std::size_t>(op.nout))
    throw ValueError("The 'out' tuple must have exactly " + std::to_string(op.nout) + " entries: one per ufunc output");
  // NumPy 2's comparison promoter: a Python int outside the loop's integer dtype makes every
  // element's result known; the output (out=, where= and all) is then filled, with no kernel of
  // the op and no OverflowError.
  std::optional<bool> known;
  if (op.python_int_out_of_range && inputs.size() == 2 && !(inputs[0].is_array() && inputs[1].is_array())) {
    auto as_input = [](const operand& in) {
      return in.is_array() ? engine::input_type{in.array().dtype(), nullptr}
                           : engine::input_type{dtype(type_id::bool_), &in.scalar()};
    };
    known = engine::out_of_range_comparison(op, loop, as_input(inputs[0]), as_input(inputs[1]));
  }
  auto fill_known = [&](const ndarray& out, const ndarray& mask) {
    engine::fill_with(out, detail::scalar_bytes(weak_scalar(*known), out.dtype()), mask);
  };

  if (all_contiguous_alike(inputs, given, options.where)) {
    // Fast path: dense operands over one shape; no broadcasting, planning or views.
    std::vector<ndarray> outputs;
    outputs.reserve(static_cast<std::size_t>(op.nout));
    const ndarray* shape_of = nullptr;
    for (const operand& in : inputs)
      if (in.is_array()) shape_of = shape_of ? shape_of : &in.array();
    if (!shape_of) shape_of = &given.front();
    const int device = shape_of->device();
    for (std::size_t j = 0; j < static_cast<std::size_t>(op.nout); ++j) {
      if (!given.empty()) {
        engine::check_output_casting(op, loop.out[j], given[j].dtype(), options.casting);
        outputs.push_back(given[j]);
      } else {
        outputs.push_back(engine::empty_with_strides(
            shape_of->shape(), layout::c_strides(shape_of->shape(), static_cast<std::int64_t>(dtype(loop.out[j]).itemsize())),
            loop.out[j], device));
      }
    }
    if (known) {
      fill_known(outputs.front(), ndarray());
      return outputs;
    }
    std::array<engine::launch_operand, 5> ops;
    std::array<std::vector<std::byte>, 3> values;
    std::size_t k = 0;
    for (; k < inputs.size(); ++k) {
      if (inputs[k].is_array()) {
        const ndarray& a = inputs[k].array();
        ops[k] = {static_cast<std::byte*>(a.data()), detail::operand_access::dense, a.dtype().id(), {}, {}};
      } else {
        values[k] = engine::scalar_value(op, inputs[k].scalar(), loop.in[k]);
        ops[k] = {nullptr, detail::operand_access::value, loop.in[k], {}, values[k]};
      }
    }
    for (const ndarray& out : outputs)
      ops[k++] = {static_cast<std::byte*>(out.data()), detail::operand_access::dense, out.dtype().id(), {}, {}};
    engine::run_contiguous(op, loop_index, shape_of->size(), std::span(ops.data(), k), device);
    return outputs;
  }

  // Shapes: the inputs broadcast together with the out= arrays (which may not be stretched).
  std::vector<shape_t> shapes;
  std::vector<ndarray> arrays;  // the array inputs
  for (const operand& in : inputs)
    if (in.is_array()) {
      shapes.emplace_back(in.array().shape().begin(), in.array().shape().end());
      arrays.push_back(in.array());
    }
  for (const ndarray& out : given) {
    detail::require_array(out, op.name);
    shapes.emplace_back(out.shape().begin(), out.shape().end());
  }
  const shape_t shape = shapes.empty() ? shape_t{} : layout::broadcast_operand_shapes(shapes);
  for (const ndarray& out : given)
    if (!std::equal(out.shape().begin(), out.shape().end(), shape.begin(), shape.end()))
      throw ValueError("non-broadcastable output operand with shape " + layout::compact_string(out.shape()) +
                       " doesn't match the broadcast shape " + layout::compact_string(shape));

  // One device for every array.
  const int device = !arrays.empty() ? arrays.front().device() : !given.empty() ? given.front().device()
                                                                                 : cuda::current_device();
  auto same_device = [&](const ndarray& a) {
    if (a.device() != device)
      throw ValueError("ufunc '" + std::string(op.name) + "': operands are on different devices (" +
                       std::to_string(device) + " and " + std::to_string(a.device()) + ")");
  };
  for (const ndarray& a : arrays) same_device(a);
  for (const ndarray& a : given) same_device(a);

  ndarray where;
  if (!options.where.is_null()) {
    same_device(options.where);
    if (options.where.dtype() != dtype(type_id::bool_))
      throw TypeError("Cannot cast array data from " + engine::dtype_repr(options.where.dtype()) +
                      " to dtype('bool') according to the rule 'safe'");
    const shape_t ws(options.where.shape().begin(), options.where.shape().end());
    const shape_t both = layout::broadcast_operand_shapes(std::vector<shape_t>{shape, ws});
    if (both != shape)
      throw ValueError("non-broadcastable where operand with shape " + layout::compact_string(ws) +
                       " doesn't match the broadcast shape " + layout::compact_string(shape));
    where = broadcast_to(options.where, shape);
  }

  // Outputs: the given arrays (casting checked), or new arrays in the inputs' memory order.
  std::vector<ndarray> outputs;
  for (std::size_t j = 0; j < static_cast<std::size_t>(op.nout); ++j) {
    if (!given.empty()) {
      detail::require_writeable(given[j]);
      engine::check_output_casting(op, loop.out[j], given[j].dtype(), options.casting);
      outputs.push_back(given[j]);
    } else {
      outputs.push_back(engine::empty_in_order_of(shape, arrays, loop.out[j], device));
    }
  }

  if (known) {
    if (layout::checked_size(shape) != 0) fill_known(outputs.front(), where);
    return outputs;
  }

  // Inputs: broadcast views (copied first when they overlap an output), or values.
  std::vector<engine::ew_input> ew(inputs.size());
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (!inputs[k].is_array()) {
      ew[k].value = engine::scalar_value(op, inputs[k].scalar(), loop.in[k]);
      continue;
    }
    ndarray a = inputs[k].array();
    ndarray view = broadcast_to(a, shape);
    for (const ndarray& out : given) {
      if (engine::overlaps(a, out) && !engine::same_elements(view, out)) {
        view = broadcast_to(copy(a, order::K), shape);
        break;
      }
    }
    ew[k].array = std::move(view);
  }
  if (layout::checked_size(shape) != 0) engine::run_elementwise(op, loop_index, ew, outputs, where);
  return outputs;
}

ndarray ufunc::outer(const operand& x, const operand& y, const ufunc_options& options) const {
  if (nin() != 2 || nout() != 1)
    throw ValueError("outer product only supported for binary functions");
  if (!x.is_array() || !y.is_array()) return (*this)(x, y, options);  // a scalar: no new axes
  const ndarray& a = x.array();
  shape_t expanded(a.shape().begin(), a.shape().end());
  expanded.insert(expanded.end(), static_cast<std::size_t>(y.array().ndim()), 1);
  return (*this)(a.reshape(expanded), y, options);
}

// ---- strong scalars

ndarray scalar(const weak_scalar& value, cupp::dtype type) {
  ndarray a = empty({}, type);
  a.fill(value);
  return a;
}

// ---- operators

#define CUPP_BINARY_OPERATOR(OP, UFUNC)                                                                  \
  ndarray operator OP(const ndarray& a, const ndarray& b) { return UFUNC(a, b); }                        \
  ndarray operator OP(const ndarray& a, const operand& b) { return UFUNC(a, b); }                        \
  ndarray operator OP(const operand& a, const ndarray& b) { return UFUNC(a, b); }
CUPP_BINARY_OPERATOR(+, add)
CUPP_BINARY_OPERATOR(-, subtract)
CUPP_BINARY_OPERATOR(*, multiply)
CUPP_BINARY_OPERATOR(/, divide)
CUPP_BINARY_OPERATOR(%, remainder)
CUPP_BINARY_OPERATOR(<<, left_shift)
CUPP_BINARY_OPERATOR(>>, right_shift)
CUPP_BINARY_OPERATOR(&, bitwise_and)
CUPP_BINARY_OPERATOR(|, bitwise_or)
CUPP_BINARY_OPERATOR(^, bitwise_xor)
CUPP_BINARY_OPERATOR(==, equal)
CUPP_BINARY_OPERATOR(!=, not_equal)
CUPP_BINARY_OPERATOR(<, less)
CUPP_BINARY_OPERATOR(<=, less_equal)
CUPP_BINARY_OPERATOR(>, greater)
CUPP_BINARY_OPERATOR(>=, greater_equal)
#undef CUPP_BINARY_OPERATOR

ndarray operator-(const ndarray& a) { return negative(a); }
ndarray operator+(const ndarray& a) { return positive(a); }
ndarray operator~(const ndarray& a) { return invert(a); }

#define CUPP_COMPOUND_OPERATOR(OP, UFUNC)           \
  ndarray& operator OP(ndarray& a, const operand& b) { \
    UFUNC(a, b, {.out = a});                        \
    return a;                                       \
  }
CUPP_COMPOUND_OPERATOR(+=, add)
CUPP_COMPOUND_OPERATOR(-=, subtract)
CUPP_COMPOUND_OPERATOR(*=, multiply)
CUPP_COMPOUND_OPERATOR(/=, divide)
CUPP_COMPOUND_OPERATOR(&=, bitwise_and)
CUPP_COMPOUND_OPERATOR(|=, bitwise_or)
CUPP_COMPOUND_OPERATOR(^=, bitwise_xor)
CUPP_COMPOUND_OPERATOR(%=, remainder)
CUPP_COMPOUND_OPERATOR(<<=, left_shift)
CUPP_COMPOUND_OPERATOR(>>=, right_shift)
#undef CUPP_COMPOUND_OPERATOR

}  // namespace cupp
