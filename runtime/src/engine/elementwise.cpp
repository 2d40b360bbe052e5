// The element-wise launcher (see elementwise.hpp).
#include "engine/elementwise.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "compiler/kernel_cache.hpp"
#include "compiler/report_word.hpp"
#include "cuda/check.hpp"
#include "cuda/current_stream.hpp"
#include "cuda/device_scope.hpp"
#include "cuda/nvtx.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "engine/internal.hpp"
#include "engine/layout_plan.hpp"
#include "loader/loaded_ops.hpp"
#include "engine/kernel_composer.hpp"
#include "core/tables.hpp"

namespace cupp::engine {

namespace {

using detail::index_width;
using detail::kernel_desc;
using detail::kernel_operand;
using detail::operand_access;

// Kernel parameters packed as the kernel's accessors lay them out.
class param_pack {
 public:
  void add(const void* bytes, std::size_t n, std::size_t align) {
    used_ = (used_ + align - 1) / align * align;
    if (used_ + n > buffer_.size() || count_ == pointers_.size())
      throw ValueError("internal: element-wise kernel parameters exceed the parameter buffer");
    std::memcpy(buffer_.data() + used_, bytes, n);
    pointers_[count_++] = buffer_.data() + used_;
    used_ += n;
  }
  template <class T>
  void add(const T& v) {
    add(&v, sizeof v, alignof(T));
  }
  void** pointers() noexcept { return pointers_.data(); }

 private:
  alignas(16) std::array<std::byte, 16384> buffer_;  // not zeroed: only the used prefix is read
  std::array<void*, 16> pointers_{};
  std::size_t used_ = 0, count_ = 0;
};

operand_access access_of(access a) {
  switch (a) {
    case access::dense: return operand_access::dense;
    case access::broadcast: return operand_access::broadcast;
    default: return operand_access::strided;
  }
}

template <class Off>
void add_strided(param_pack& params, std::byte* p, std::span<const std::int64_t> strides) {
  struct {
    alignas(8) std::byte bytes[8 + 8 * 128];
  } s;
  std::memcpy(s.bytes, &p, sizeof p);
  for (std::size_t d = 0; d < strides.size(); ++d) {
    const Off v = static_cast<Off>(strides[d]);
    std::memcpy(s.bytes + 8 + d * sizeof(Off), &v, sizeof v);
  }
  const std::size_t size = (8 + strides.size() * sizeof(Off) + 7) / 8 * 8;
  params.add(s.bytes, size, 8);
}

template <class Index, class Off>
void pack(param_pack& params, const kernel_desc& desc, std::int64_t n, std::span<const std::int64_t> extents,
          std::span<const launch_operand> ops, const launch_operand* where) {
  if (desc.tiled) {
    params.add(static_cast<Off>(extents[0]));
    params.add(static_cast<Off>(extents[1]));
  } else {
    params.add(static_cast<Index>(n));
  }
  if (!desc.contiguous && !desc.tiled) {
    std::array<Off, 128> e;
    for (std::size_t d = 0; d < extents.size(); ++d) e[d] = static_cast<Off>(extents[d]);
    params.add(e.data(), extents.size() * sizeof(Off), sizeof(Off));
  }
  auto add_operand = [&](const launch_operand& o) {
    switch (o.kind) {
      case operand_access::value: params.add(o.value.data(), o.value.size(), o.value.size()); break;
      case operand_access::strided:
      case operand_access::rows:
      case operand_access::tiled: add_strided<Off>(params, o.pointer, o.strides); break;
      default: params.add(o.pointer);
    }
  };
  for (const launch_operand& o : ops) add_operand(o);
  if (!desc.contiguous && !desc.tiled) {
    if (where) {
      add_operand(*where);
    } else {
      const char everywhere = 0;
      params.add(everywhere);
    }
  }
}

// The kernel for `desc` on `device`. A per-thread direct-mapped table in front of the kernel
// cache makes a warm call a few compares (loaded kernels live as long as the process).
struct found_kernel {
  const void* kernel = nullptr;
  unsigned int* error_flag = nullptr;      // the program's device error flag, for loops that raise
  detail::report_channel* error_word = nullptr;  // and its report word (compiler/report_word.hpp)
};

std::string launch_label(const op_spec& op, const kernel_desc& desc);

// The programs of many kernels that are used only where built into the library (a run-time
// compile keeps one kernel per description instead): which kernel holds a description, the
// program's cache variant, its source.
struct builtin_only_program {
  std::optional<std::size_t> (*index)(const op_spec&, const detail::kernel_desc&);
  std::uint64_t (*variant)(detail::index_width);
  detail::composed_program (*compose)(const op_spec&, detail::index_width);
};
constexpr builtin_only_program builtin_only_programs[] = {
    // scalar operands (values or 0-d arrays) against contiguous arrays
    {detail::scalar_program_index, detail::scalar_variant, detail::compose_scalar_program},
    // a matrix with a row or a column broadcast against it
    {detail::broadcast2d_program_index, detail::broadcast2d_variant, detail::compose_broadcast2d_program},
    // casts and fills: the copy op's cast program
    {[](const op_spec& op, const detail::kernel_desc& d) {
       return &op == &copy_op_spec() ? detail::cast_program_index(op, d) : std::nullopt;
     },
     detail::cast_variant, detail::compose_cast_program},
};

found_kernel find_kernel(const op_spec& op, const kernel_desc& desc, int device) {
  const bool common = detail::in_all_loops_program(op, desc);
  const std::uint64_t variant = common ? detail::all_loops_variant(desc.width) : detail::variant_code(desc);
  const std::size_t index = common ? desc.loop : 0;
  struct entry {
    const op_spec* op = nullptr;
    int device = -1;
    std::uint64_t variant = 0;
    std::size_t index = 0;
    found_kernel found;
  };
  thread_local std::array<entry, 256> recent{};
  const std::size_t slot =
      (std::hash<const void*>{}(&op) ^ (variant * 0x9e3779b97f4a7c15ull) ^ (index << 8) ^ static_cast<std::size_t>(device)) %
      recent.size();
  entry& e = recent[slot];
  if (e.op == &op && e.device == device && e.variant == variant && e.index == index) return e.found;
  auto& cache = detail::kernel_cache::global();
  // A description outside the all-loops program takes its kernel from the first built-in-only
  // program that holds one like it, where that is built into the library; otherwise a one-kernel
  // program.
  const detail::kernel_module* scalars = nullptr;
  std::size_t kernel_index = index;
  for (const builtin_only_program& b : builtin_only_programs) {
    if (common) break;
    const std::optional<std::size_t> at = b.index(op, desc);
    if (!at) continue;
    scalars = cache.get_if_builtin(device, {detail::cache_name(op), b.variant(desc.width)}, [&] {
      const auto p = b.compose(op, desc.width);
      return detail::program_source{p.name, p.source, p.kernels, {}};
    });
    if (scalars) kernel_index = *at;
    break;
  }
  const detail::kernel_module& module =
      scalars ? *scalars
      : common ? cache.get(device, {detail::cache_name(op), variant},
                           [&] {
                             const auto p = detail::compose_elementwise(op, desc.width);
                             return detail::program_source{p.name, p.source, p.kernels, {}};
                           })
               : cache.get(device, {detail::cache_name(op), variant}, [&] {
                   const auto p = detail::compose_elementwise(op, desc);
                   detail::program_source source{p.name, p.source, p.kernels, {}};
                   source.label = launch_label(op, desc);  // the layout class CUPP_LOG_COMPILES names
                   return source;
                 });
  found_kernel found{module.function(kernel_index), nullptr};
  // Only a loop whose body names raise_error can set the flag (loop_spec::raises); the others
  // (power's float and complex loops) never pay the round trip.
  if (op.loops[desc.loop].raises) {
    found.error_flag = static_cast<unsigned int*>(module.global("cupp_error_flag"));
    found.error_word = &detail::report_word(module, device, "cupp_error_word");
  }
  e = {&op, device, variant, index, found};
  return found;
}

[[noreturn]] void throw_raised(std::string_view raises) {
  const std::size_t colon = raises.find(": ");
  const std::string type(raises.substr(0, colon));
  const std::string message(colon == std::string_view::npos ? raises : raises.substr(colon + 2));
  if (type == "OverflowError") throw OverflowError(message);
  if (type == "IndexError") throw IndexError(message);
  if (type == "TypeError") throw TypeError(message);
  throw ValueError(message);
}

// Waits for the kernel and tests the program's report word (one round trip, only for loops that
// raise); when it is set, resets the device flag and throws the op's error.
void check_error_flag(const op_spec& op, const found_kernel& kernel, cudaStream_t stream) {
  if (!detail::wait_for_report(*kernel.error_word, stream)) return;
  cuda::detail::check(cudaMemsetAsync(kernel.error_flag, 0, sizeof(unsigned int), stream), "cudaMemsetAsync");
  cuda::detail::check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  throw_raised(op.raises);
}

bool aligned(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

// CUPP_NVTX_OPS's name of a launch: the op, its operands' dtypes in memory, the layout class and
// vector width ("add float32,float32->float32 contiguous vec4").
std::string launch_label(const op_spec& op, const kernel_desc& desc) {
  std::string label(op.name);
  const char* sep = " ";
  for (const kernel_operand& o : desc.inputs) label += std::exchange(sep, ",") + dtype(o.storage).name();
  sep = "->";
  for (const kernel_operand& o : desc.outputs) label += std::exchange(sep, ",") + dtype(o.storage).name();
  label += desc.tiled ? " tiled" : desc.contiguous ? " contiguous" : " strided" + std::to_string(desc.ndim) + "d";
  if (desc.has_where) label += " where";
  return label + " vec" + std::to_string(desc.vec);
}

}  // namespace

kernel_desc describe_launch(const op_spec& op, std::size_t loop, std::int64_t n, std::span<const std::int64_t> extents,
                            std::int64_t max_byte_offset, std::span<launch_operand> ops, launch_operand* where) {
  kernel_desc desc;
  desc.loop = loop;
  const bool contiguous = extents.size() <= 1 && !where &&
                          std::none_of(ops.begin(), ops.end(), [](const launch_operand& o) {
                            return o.kind == operand_access::strided || o.kind == operand_access::rows;
                          });
  // 32-bit indices when they reach every element. The contiguous class indexes elements (the
  // pointer arithmetic widens them), so only n counts there; strided classes add byte offsets.
  // (64-bit indices cost sin float64 8 % of the copy floor on 2^28 elements.)
  constexpr std::int64_t i32_max = std::numeric_limits<std::int32_t>::max();
  desc.width = n <= i32_max && (contiguous || max_byte_offset <= i32_max) ? index_width::i32 : index_width::i64;
  desc.contiguous = contiguous;
  const std::int64_t one = 1;
  if (!contiguous && extents.empty()) extents = std::span<const std::int64_t>(&one, 1);
  desc.ndim = contiguous ? 1 : static_cast<int>(extents.size());
  // The tiled class: two dimensions and an input whose neighbours lie along the outer one.
  constexpr std::int64_t max_tile_rows = std::int64_t(65535) * 32;
  if (!contiguous && !where && extents.size() == 2 && extents[0] <= max_tile_rows) {
    for (std::size_t k = 0; k < static_cast<std::size_t>(op.nin); ++k) {
      launch_operand& o = ops[k];
      if (o.kind == operand_access::strided &&
          o.strides[0] == static_cast<std::int64_t>(detail::info(o.storage).itemsize) && o.strides[1] != o.strides[0]) {
        o.kind = operand_access::tiled;
        desc.tiled = true;
      }
    }
  }

  // Vector width: 16 bytes of the widest array operand, narrowed until every dense and rows
  // operand is aligned for it (and, strided, until it divides the innermost extent).
  std::size_t widest = 1;
  for (const launch_operand& o : ops)
    if (o.kind != operand_access::value) widest = std::max<std::size_t>(widest, detail::info(o.storage).itemsize);
  int vec = where || desc.tiled ? 1 : static_cast<int>(std::max<std::size_t>(1, 16 / widest));
  auto fits = [&](int v) {
    if (!contiguous && extents.back() % v != 0) return false;
    for (const launch_operand& o : ops) {
      const std::size_t bytes = static_cast<std::size_t>(v) * detail::info(o.storage).itemsize;
      if (o.kind == operand_access::dense && !aligned(o.pointer, bytes)) return false;
    }
    return true;
  };
  while (vec > 1 && !fits(vec)) vec /= 2;
  desc.vec = vec;
  if (!contiguous && vec > 1) {
    // Strided operands with unit inner strides and aligned rows move as vectors.
    for (launch_operand& o : ops) {
      if (o.kind != operand_access::strided) continue;
      const auto item = static_cast<std::int64_t>(detail::info(o.storage).itemsize);
      const std::size_t bytes = static_cast<std::size_t>(vec) * static_cast<std::size_t>(item);
      bool row = o.strides.back() == item && aligned(o.pointer, bytes);
      for (std::size_t d = 0; row && d + 1 < o.strides.size(); ++d) row = o.strides[d] % static_cast<std::int64_t>(bytes) == 0;
      if (row) o.kind = operand_access::rows;
    }
  }
  const std::size_t nin = static_cast<std::size_t>(op.nin);
  for (std::size_t k = 0; k < ops.size(); ++k)
    (k < nin ? desc.inputs : desc.outputs).push_back({ops[k].kind, ops[k].storage});
  if (where) {
    desc.has_where = true;
    desc.where = {where->kind == operand_access::rows ? operand_access::strided : where->kind, where->storage};
  }
  return desc;
}

namespace {

// Describes, finds and launches the kernel for prepared operands (inputs then outputs).
void launch(const op_spec& op, std::size_t loop, std::int64_t n, std::span<const std::int64_t> extents,
            std::int64_t max_byte_offset, std::span<launch_operand> ops, launch_operand* where, int device) {
  const kernel_desc desc = describe_launch(op, loop, n, extents, max_byte_offset, ops, where);
  const std::int64_t one = 1;
  if (!desc.contiguous && extents.empty()) extents = std::span<const std::int64_t>(&one, 1);
  detail::device_scope scope(device);
  const found_kernel kernel = find_kernel(op, desc, device);
  param_pack params;
  if (desc.width == index_width::i32) pack<unsigned int, int>(params, desc, n, extents, ops, where);
  else pack<unsigned long long, long long>(params, desc, n, extents, ops, where);

  dim3 grid, block;
  if (desc.tiled) {
    grid = dim3(static_cast<unsigned>((extents[1] + 31) / 32), static_cast<unsigned>((extents[0] + 31) / 32));
    block = dim3(32, 8);
  } else {
    const int unroll = desc.contiguous ? detail::contiguous_unroll(op, desc.vec) : 1;
    const unsigned threads = unroll > 1 ? 128 : 256;  // measured best for each
    const std::int64_t per_block = static_cast<std::int64_t>(threads) * desc.vec * unroll;
    grid = dim3(static_cast<unsigned>(std::min<std::int64_t>((n + per_block - 1) / per_block, 0x7fffffff)));
    block = dim3(threads);
  }
  const cudaStream_t stream = cuda::detail::current_stream_handle(device);
  const cupp::detail::launch_range range([&] { return launch_label(op, desc); });
  if (!kernel.error_flag) {
    cuda::detail::check(cudaLaunchKernel(kernel.kernel, grid, block, params.pointers(), 0, stream), "cudaLaunchKernel");
    return;
  }
  // A program has one error flag: launches of its loops that raise take turns with the read and
  // reset of the flag, so that threads on other streams never see each other's errors.
  const std::lock_guard turn(kernel.error_word->calls);
  cuda::detail::check(cudaLaunchKernel(kernel.kernel, grid, block, params.pointers(), 0, stream), "cudaLaunchKernel");
  check_error_flag(op, kernel, stream);
}

}  // namespace

void run_elementwise(const op_spec& op, std::size_t loop_index, std::span<const ew_input> inputs,
                     std::span<const ndarray> outputs, const ndarray& where) {
  const loop_spec& loop = op.loops[loop_index];
  const ndarray& first = outputs.front();

  // Plan over the array operands: inputs, outputs, where (in that order).
  std::vector<const ndarray*> arrays;
  for (const ew_input& in : inputs)
    if (!in.array.is_null()) arrays.push_back(&in.array);
  for (const ndarray& out : outputs) arrays.push_back(&out);
  const bool has_where = !where.is_null();
  if (has_where) arrays.push_back(&where);
  std::vector<plan_input> plan_inputs;
  plan_inputs.reserve(arrays.size());
  for (const ndarray* a : arrays) plan_inputs.push_back({a->strides(), static_cast<std::int64_t>(a->itemsize())});
  const launch_plan plan = plan_launch(first.shape(), plan_inputs);
  if (plan.size == 0) return;

  std::vector<launch_operand> ops;
  ops.reserve(inputs.size() + outputs.size());
  std::size_t next = 0;
  auto array_operand = [&](const ndarray& a) {
    const operand_plan& p = plan.operands[next++];
    return launch_operand{static_cast<std::byte*>(a.data()) + p.byte_shift, access_of(p.kind), a.dtype().id(),
                          p.strides, {}};
  };
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].array.is_null()) ops.push_back({nullptr, operand_access::value, loop.in[k], {}, inputs[k].value});
    else ops.push_back(array_operand(inputs[k].array));
  }
  for (const ndarray& out : outputs) ops.push_back(array_operand(out));
  launch_operand where_op;
  if (has_where) where_op = array_operand(where);
  launch(op, loop_index, plan.size, plan.extents, plan.max_byte_offset, ops, has_where ? &where_op : nullptr,
         first.device());
}

void run_contiguous(const op_spec& op, std::size_t loop, std::int64_t n, std::span<launch_operand> operands,
                    int device) {
  if (n == 0) return;
  std::int64_t reach = 0;
  for (const launch_operand& o : operands)
    if (o.kind != operand_access::value) reach = std::max<std::int64_t>(reach, n * static_cast<std::int64_t>(detail::info(o.storage).itemsize));
  const std::int64_t extent = n;
  launch(op, loop, n, std::span<const std::int64_t>(&extent, 1), reach, operands, nullptr, device);
}

}  // namespace cupp::engine
