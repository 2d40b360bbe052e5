// The element-wise launcher (see elementwise.hpp).
#include "engine/elementwise.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

#include "compiler/kernel_cache.hpp"
#include "cuda/check.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/errors.hpp"
#include "engine/layout_plan.hpp"
#include "kernel_composer.hpp"
#include "tables.hpp"

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
  alignas(16) std::array<std::byte, 16384> buffer_{};
  std::array<void*, 16> pointers_{};
  std::size_t used_ = 0, count_ = 0;
};

// One operand of the launch: where its first element is and how the plan reaches it.
struct launch_operand {
  std::byte* pointer = nullptr;     // element 0 (after the plan's byte shift)
  const operand_plan* plan = nullptr;
  const std::vector<std::byte>* value = nullptr;
  type_id storage = type_id::float64;
};

template <class Off>
void add_strided(param_pack& params, std::byte* p, const shape_t& strides) {
  struct {
    alignas(8) std::byte bytes[8 + 8 * 128];
  } s{};
  std::memcpy(s.bytes, &p, sizeof p);
  for (std::size_t d = 0; d < strides.size(); ++d) {
    const Off v = static_cast<Off>(strides[d]);
    std::memcpy(s.bytes + 8 + d * sizeof(Off), &v, sizeof v);
  }
  const std::size_t size = (8 + strides.size() * sizeof(Off) + 7) / 8 * 8;
  params.add(s.bytes, size, 8);
}

template <class Index, class Off>
void pack(param_pack& params, const kernel_desc& desc, std::int64_t n, const shape_t& extents,
          std::span<const launch_operand> ops, const launch_operand* where) {
  params.add(static_cast<Index>(n));
  if (!desc.contiguous) {
    std::array<Off, 128> e{};
    for (std::size_t d = 0; d < extents.size(); ++d) e[d] = static_cast<Off>(extents[d]);
    params.add(e.data(), extents.size() * sizeof(Off), sizeof(Off));
  }
  auto add_operand = [&](const launch_operand& o, operand_access access) {
    if (access == operand_access::value) {
      const std::size_t size = o.value->size();
      params.add(o.value->data(), size, size);  // builtin dtypes: alignment == itemsize
    } else if (access == operand_access::strided) {
      add_strided<Off>(params, o.pointer, o.plan->strides);
    } else {
      params.add(o.pointer);
    }
  };
  std::size_t k = 0;
  for (const kernel_operand& op : desc.inputs) add_operand(ops[k++], op.access);
  for (const kernel_operand& op : desc.outputs) add_operand(ops[k++], op.access);
  if (!desc.contiguous) {
    if (desc.has_where) {
      add_operand(*where, desc.where.access);
    } else {
      const char everywhere = 0;
      params.add(everywhere);
    }
  }
}

operand_access access_of(access a) {
  switch (a) {
    case access::dense: return operand_access::dense;
    case access::broadcast: return operand_access::broadcast;
    default: return operand_access::strided;
  }
}

bool same_desc(const kernel_desc& a, const kernel_desc& b) {
  auto same_ops = [](const std::vector<kernel_operand>& x, const std::vector<kernel_operand>& y) {
    return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](const kernel_operand& p, const kernel_operand& q) {
      return p.access == q.access && p.storage == q.storage;
    });
  };
  return a.loop == b.loop && a.contiguous == b.contiguous && a.vec == b.vec && a.width == b.width &&
         a.has_where == b.has_where && same_ops(a.inputs, b.inputs) && same_ops(a.outputs, b.outputs);
}

}  // namespace

void run_elementwise(const op_spec& op, std::size_t loop_index, std::span<const ew_input> inputs,
                     std::span<const ndarray> outputs, const ndarray& where) {
  const loop_spec& loop = op.loops[loop_index];
  const ndarray& first = outputs.front();
  const std::span<const std::int64_t> shape = first.shape();

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
  const launch_plan plan = plan_launch(shape, plan_inputs);
  if (plan.size == 0) return;

  // Operands in kernel order.
  std::vector<launch_operand> ops;
  ops.reserve(inputs.size() + outputs.size() + 1);
  std::size_t next_array = 0;
  auto array_operand = [&](const ndarray& a) {
    const operand_plan& p = plan.operands[next_array++];
    return launch_operand{static_cast<std::byte*>(a.data()) + p.byte_shift, &p, nullptr, a.dtype().id()};
  };
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k].array.is_null()) ops.push_back({nullptr, nullptr, &inputs[k].value, loop.in[k]});
    else ops.push_back(array_operand(inputs[k].array));
  }
  for (const ndarray& out : outputs) ops.push_back(array_operand(out));
  launch_operand where_op;
  if (has_where) where_op = array_operand(where);

  kernel_desc desc;
  desc.loop = loop_index;
  desc.width = plan.size <= std::numeric_limits<std::int32_t>::max() &&
                       plan.max_byte_offset <= std::numeric_limits<std::int32_t>::max()
                   ? index_width::i32
                   : index_width::i64;
  desc.contiguous = plan.contiguous && !has_where;
  shape_t extents = plan.extents;
  if (!desc.contiguous && extents.empty()) extents.push_back(1);
  desc.ndim = static_cast<int>(extents.size());
  auto describe = [&](const launch_operand& o) {
    if (o.value) return kernel_operand{operand_access::value, o.storage};
    return kernel_operand{access_of(o.plan->kind), o.storage};
  };
  std::size_t k = 0;
  for (; k < inputs.size(); ++k) desc.inputs.push_back(describe(ops[k]));
  for (; k < ops.size(); ++k) desc.outputs.push_back(describe(ops[k]));
  if (has_where) {
    desc.has_where = true;
    desc.where = describe(where_op);
  }
  if (desc.contiguous) {
    // 16-byte accesses where every dense operand's pointer allows.
    std::size_t widest = 1;
    for (const launch_operand& o : ops)
      if (!o.value) widest = std::max<std::size_t>(widest, detail::info(o.storage).itemsize);
    int vec = static_cast<int>(std::max<std::size_t>(1, 16 / widest));
    for (const launch_operand& o : ops) {
      if (o.value || o.plan->kind != access::dense) continue;
      const auto address = reinterpret_cast<std::uintptr_t>(o.pointer);
      while (vec > 1 && address % (static_cast<std::uintptr_t>(vec) * detail::info(o.storage).itemsize) != 0) vec /= 2;
    }
    desc.vec = vec;
  }

  // The kernel: from the op's all-loops program when this is its common case, else its own.
  const bool common = desc.contiguous && same_desc(desc, detail::all_loops_desc(op, loop_index, desc.width));
  const int device = first.device();
  cuda::DeviceGuard guard(device);
  auto& cache = detail::kernel_cache::global();
  const detail::kernel_module& module =
      common ? cache.get(device, {op.name, detail::all_loops_variant(desc.width)},
                         [&] {
                           const auto p = detail::compose_elementwise(op, desc.width);
                           return detail::program_source{p.name, p.source, p.kernels, {}};
                         })
             : cache.get(device, {op.name, detail::variant_code(desc)}, [&] {
                 const auto p = detail::compose_elementwise(op, desc);
                 return detail::program_source{p.name, p.source, p.kernels, {}};
               });
  const void* kernel = module.function(common ? loop_index : 0);

  param_pack params;
  if (desc.width == index_width::i32) pack<unsigned int, int>(params, desc, plan.size, extents, ops, &where_op);
  else pack<unsigned long long, long long>(params, desc, plan.size, extents, ops, &where_op);

  constexpr unsigned block = 256;
  const std::int64_t per_block = static_cast<std::int64_t>(block) * (desc.contiguous ? desc.vec : 1);
  const std::int64_t blocks = std::min<std::int64_t>((plan.size + per_block - 1) / per_block, 0x7fffffff);
  cuda::detail::check(cudaLaunchKernel(kernel, dim3(static_cast<unsigned>(blocks)), dim3(block), params.pointers(), 0,
                                       static_cast<cudaStream_t>(cuda::current_stream().handle())),
                      "cudaLaunchKernel");
}

}  // namespace cupp::engine
