// `cupp demo`: a short tour. Without a GPU: the dtypes, NumPy 2 (NEP 50) promotion with strong
// dtypes and weak C++ scalars, casting rules, the overflow error for a weak integer that does not
// fit. With a GPU, also ufunc calls on device arrays (broadcasting, out=, where=, a transpose,
// casts, a user ElementwiseKernel) with their results.
#include <complex>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/dtype.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/promotion.hpp"
#include "cupp/ufunc.hpp"

namespace cupp::tool {

namespace {

template <class Fn>
void show(const std::string& expr, Fn fn) {
  std::cout << "  " << expr << " -> ";
  try {
    std::cout << fn() << '\n';
  } catch (const OverflowError& e) {
    std::cout << "raises cupp::OverflowError: " << e.what() << '\n';
  } catch (const TypeError& e) {
    std::cout << "raises cupp::TypeError: " << e.what() << '\n';
  } catch (const Error& e) {
    std::cout << "raises cupp::Error: " << e.what() << '\n';
  }
}

}  // namespace

int demo(std::span<const std::string_view> args) {
  if (!args.empty()) {
    std::cerr << "cupp demo: takes no arguments\n";
    return 2;
  }
  std::cout << "cupp demo: dtypes and NumPy 2 promotion (no GPU needed)\n\n";

  std::cout << "dtypes (name, type char, itemsize, kind):\n";
  for (const dtype& d : {bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, bfloat16,
                         float32, float64, complex64, complex128}) {
    std::cout << "  " << d.name() << " '" << d.char_code() << "' " << d.itemsize() << " bytes, kind '" << d.kind()
              << "'\n";
  }

  std::cout << "\nresult_type / promote_types (NEP 50):\n";
  show("result_type(int8, uint8)", [] { return result_type(int8, uint8).name(); });
  show("result_type(int64, uint64)", [] { return result_type(int64, uint64).name(); });
  show("result_type(float16, int16)", [] { return result_type(float16, int16).name(); });
  show("result_type(bfloat16, float16)", [] { return result_type(bfloat16, float16).name(); });
  show("result_type(int8, uint8, float16)", [] { return result_type({int8, uint8, float16}).name(); });
  show("promote_types(complex64, float64)", [] { return promote_types(complex64, float64).name(); });

  std::cout << "\nweak C++ scalars take the array's dtype:\n";
  show("result_type(uint8 array, 3)", [] { return result_type(uint8, weak_scalar(3)).name(); });
  show("result_type(float32 array, 2.5)", [] { return result_type(float32, weak_scalar(2.5)).name(); });
  show("result_type(int16 array, 1.0)", [] { return result_type(int16, weak_scalar(1.0)).name(); });
  show("result_type(bfloat16 array, 2.5)", [] { return result_type(bfloat16, weak_scalar(2.5)).name(); });
  show("result_type(float32 array, 1+2j)",
       [] { return result_type(float32, weak_scalar(std::complex<double>(1, 2))).name(); });
  show("result_type(uint8 array, 300)", [] { return result_type(uint8, weak_scalar(300)).name(); });
  show("result_type(uint8 array, -1)", [] { return result_type(uint8, weak_scalar(-1)).name(); });

  std::cout << "\ncan_cast:\n";
  auto yes_no = [](bool b) { return std::string(b ? "true" : "false"); };
  show("can_cast(int32, float64, safe)", [&] { return yes_no(can_cast(int32, float64, casting::safe)); });
  show("can_cast(int64, float32, safe)", [&] { return yes_no(can_cast(int64, float32, casting::safe)); });
  show("can_cast(int64, float32, same_kind)", [&] { return yes_no(can_cast(int64, float32, casting::same_kind)); });
  show("can_cast(float64, int32, same_kind)", [&] { return yes_no(can_cast(float64, int32, casting::same_kind)); });

  std::cout << '\n';
  if (!cuda::is_available()) {
    std::cout << "No usable CUDA device here: the GPU part of the demo (ufuncs on device arrays) is skipped.\n";
    return 0;
  }
  std::cout << "On the GPU (" << cuda::device_count() << " device(s)):\n";
  const ndarray a = array({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  const ndarray row = asarray(std::vector<float>{10, 20, 30});
  std::cout << "  a = " << a << "\n";
  std::cout << "  a + row (float32 row broadcast) = " << (a + row) << "\n";
  std::cout << "  a * 2 - a.T().T() = " << (a * 2 - a.T().T()) << "\n";
  std::cout << "  sin(a.T()) (order K keeps the transposed layout) = " << sin(a.T()) << "\n";
  const ndarray u = asarray(std::vector<std::uint8_t>{250, 5});
  std::cout << "  uint8 [250, 5] + 10 = " << (u + 10) << "  (wraps, stays uint8)\n";
  show("uint8 array + 300", [&] { return (u + 300).repr(); });
  ndarray out = zeros({2, 3}, float32);
  add(a, 0.5, {.out = out, .where = a > 2.5, .casting = casting::same_kind});
  std::cout << "  add(a, 0.5, out=float32 zeros, where=a > 2.5) = " << out << "\n";
  std::cout << "  astype(a, float16) = " << astype(a, float16) << "\n";
  const ElementwiseKernel axpy("T x, T y, float64 k", "T z", "z = k * x + y;", "demo_axpy");
  std::cout << "  ElementwiseKernel axpy(a, a, 3) = " << axpy(a, a, 3.0) << "\n";
  return 0;
}

}  // namespace cupp::tool
