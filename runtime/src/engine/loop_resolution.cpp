// Loop resolution for ufunc calls (see loop_resolution.hpp).
#include "engine/loop_resolution.hpp"

#include "cupp/errors.hpp"

namespace cupp::engine {

namespace {

// A weak scalar of the same kind with value zero: only the kind takes part in promotion.
weak_scalar kind_only(const weak_scalar& s) {
  switch (s.scalar_kind()) {
    case weak_scalar::kind::bool_: return weak_scalar(false);
    case weak_scalar::kind::int_: return weak_scalar(0);
    case weak_scalar::kind::float_: return weak_scalar(0.0);
    default: return weak_scalar(std::complex<double>(0.0, 0.0));
  }
}

bool is_integer_or_bool(const cupp::dtype& d) {
  const char k = d.kind();
  return k == 'b' || k == 'i' || k == 'u';
}

std::string types_text(std::span<const cupp::dtype> types) {
  std::string s = "(";
  for (std::size_t k = 0; k < types.size(); ++k) s += (k ? ", " : "") + dtype_repr(types[k]);
  return s + (types.size() == 1 ? ",)" : ")");
}

}  // namespace

std::string dtype_repr(const cupp::dtype& type) { return "dtype('" + type.name() + "')"; }

loop_choice choose_loop(const op_spec& op, std::span<const input_type> inputs, std::optional<cupp::dtype> dtype,
                        cupp::casting rule) {
  loop_choice choice{0, {}};
  std::vector<cupp::dtype> strong;
  for (const input_type& in : inputs)
    if (!in.weak) strong.push_back(in.type);
  for (const input_type& in : inputs) {
    if (!in.weak) {
      choice.operand_types.push_back(in.type);
    } else {
      const weak_scalar w = kind_only(*in.weak);
      choice.operand_types.push_back(result_type(strong, std::span<const weak_scalar>(&w, 1)));
    }
  }
  if (!op.bool_inputs_error.empty()) {
    bool all_bool = true;
    for (const cupp::dtype& d : choice.operand_types) all_bool &= d.kind() == 'b';
    if (all_bool) throw TypeError(std::string(op.bool_inputs_error));
  }
  std::vector<cupp::dtype> search = choice.operand_types;
  if (op.int_inputs_as != type_id::void_) {
    bool all_int = true;
    for (const cupp::dtype& d : search) all_int &= is_integer_or_bool(d);
    if (all_int)
      for (cupp::dtype& d : search) d = op.int_inputs_as;
  }

  for (std::size_t i = 0; i < op.loops.size(); ++i) {
    const loop_spec& loop = op.loops[i];
    bool fits = true;
    if (dtype) {
      for (type_id out : loop.out) fits &= cupp::dtype(out) == *dtype;
      for (std::size_t k = 0; fits && k < search.size(); ++k) fits = can_cast(search[k], loop.in[k], rule);
    } else {
      for (std::size_t k = 0; fits && k < search.size(); ++k) fits = can_cast(search[k], loop.in[k], casting::safe);
    }
    if (fits) {
      choice.index = i;
      return choice;
    }
  }
  if (!dtype) {
    // No loop takes the common dtype (an op with mixed loops, like ldexp(float32_array, 2)):
    // NumPy's legacy search, where a weak scalar fits any loop dtype of a kind it casts to.
    for (std::size_t i = 0; i < op.loops.size(); ++i) {
      const loop_spec& loop = op.loops[i];
      bool fits = true;
      for (std::size_t k = 0; fits && k < inputs.size(); ++k) {
        const cupp::dtype to(loop.in[k]);
        if (!inputs[k].weak) {
          fits = can_cast(search[k], to, casting::safe);
          continue;
        }
        const char kind = to.kind();
        switch (inputs[k].weak->scalar_kind()) {
          case weak_scalar::kind::bool_: break;
          case weak_scalar::kind::int_: fits = kind == 'i' || kind == 'u' || kind == 'f' || kind == 'c'; break;
          case weak_scalar::kind::float_: fits = kind == 'f' || kind == 'c'; break;
          default: fits = kind == 'c';
        }
      }
      if (fits) {
        choice.index = i;
        for (std::size_t k = 0; k < inputs.size(); ++k)
          if (inputs[k].weak) choice.operand_types[k] = loop.in[k];
        return choice;
      }
    }
  }
  if (dtype) {
    // NumPy fills the signature with dtype= when the op has such a homogeneous loop; the input
    // casting check then reports the cast the rule forbids.
    for (std::size_t i = 0; i < op.loops.size(); ++i) {
      bool homogeneous = true;
      for (type_id t : op.loops[i].in) homogeneous &= cupp::dtype(t) == *dtype;
      for (type_id t : op.loops[i].out) homogeneous &= cupp::dtype(t) == *dtype;
      if (homogeneous) {
        choice.index = i;
        return choice;
      }
    }
  }
  std::string message = "ufunc '" + std::string(op.name) + "' did not contain a loop with signature matching types " +
                        types_text(choice.operand_types) + " -> ";
  message += dtype ? dtype_repr(*dtype) : std::string("None");
  throw TypeError(message);
}

std::optional<bool> out_of_range_comparison(const op_spec& op, const loop_spec& loop, const weak_scalar* x1,
                                            const weak_scalar* x2) {
  if (!op.python_int_out_of_range || loop.in.size() != 2 || loop.in[0] != loop.in[1]) return std::nullopt;
  const cupp::dtype type(loop.in[0]);
  if (type.kind() != 'i' && type.kind() != 'u') return std::nullopt;
  auto outside = [&](const weak_scalar* w) {
    return w && w->scalar_kind() == weak_scalar::kind::int_ && !w->fits(type);
  };
  const bool out1 = outside(x1), out2 = outside(x2);
  if (!out1 && !out2) return std::nullopt;
  // -1: x1 < x2 everywhere, +1: x1 > x2. A value outside the dtype is below its minimum when
  // negative, above its maximum otherwise; every array element (and any in-range value) lies
  // between.
  int order;
  if (out1 && out2) {
    // Two Python ints (no array): compare them exactly, by sign and magnitude.
    const auto signed_order = [](const weak_scalar& a, const weak_scalar& b) {
      if (a.is_negative() != b.is_negative()) return a.is_negative() ? -1 : 1;
      if (a.magnitude() == b.magnitude()) return 0;
      const bool smaller_magnitude = a.magnitude() < b.magnitude();
      return (smaller_magnitude != a.is_negative()) ? -1 : 1;
    };
    order = signed_order(*x1, *x2);
    if (order == 0) return std::nullopt;
  } else if (out1) {
    order = x1->is_negative() ? -1 : 1;
  } else {
    order = x2->is_negative() ? 1 : -1;
  }
  return order < 0 ? op.python_int_out_of_range->when_less : op.python_int_out_of_range->when_greater;
}

std::optional<bool> out_of_range_comparison(const op_spec& op, const loop_spec& loop, const input_type& x1,
                                            const input_type& x2) {
  if (!op.python_int_out_of_range || (!x1.weak && !x2.weak) || loop.in.size() != 2) return std::nullopt;
  if ((!x1.weak && !can_cast(x1.type, loop.in[0], casting::safe)) ||
      (!x2.weak && !can_cast(x2.type, loop.in[1], casting::safe)))
    return std::nullopt;
  return out_of_range_comparison(op, loop, x1.weak, x2.weak);
}

void check_input_casting(const op_spec& op, std::size_t input, cupp::dtype from, cupp::dtype to, cupp::casting rule) {
  if (can_cast(from, to, rule)) return;
  throw TypeError("Cannot cast ufunc '" + std::string(op.name) + "' input " + std::to_string(input) + " from " +
                  dtype_repr(from) + " to " + dtype_repr(to) + " with casting rule '" + std::string(to_string(rule)) +
                  "'");
}

void check_output_casting(const op_spec& op, cupp::dtype from, cupp::dtype to, cupp::casting rule) {
  if (can_cast(from, to, rule)) return;
  throw TypeError("Cannot cast ufunc '" + std::string(op.name) + "' output from " + dtype_repr(from) + " to " +
                  dtype_repr(to) + " with casting rule '" + std::string(to_string(rule)) + "'");
}

}  // namespace cupp::engine
