// Example for docs/arrays.md, built and run by the tests (CTest example_arrays, label gpu): views
// that write into their base, handles that share or rebind, assignment into slices, uploads and
// downloads (pageable, pinned, non-blocking), wrapped device memory, a structured dtype and a
// DLPack round trip. Every result is compared with NumPy's.
#include <cupp/cuda/memory.hpp>
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/dlpack.hpp>
#include <cupp/errors.hpp>
#include <cupp/ndarray.hpp>

#include <cuda_runtime.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {
int failures = 0;
template <class T>
void expect(const std::vector<T>& got, const std::vector<T>& want, const char* what) {
  if (got != want) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
}  // namespace

int main() {
  if (!cupp::cuda::is_available()) {
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  using i64 = std::vector<std::int64_t>;
  {
    // [snippet views]
    auto a = cupp::array({{1, 2, 3}, {4, 5, 6}});   // int64, shape (2, 3)
    auto b = a(cupp::slice(), cupp::slice(std::nullopt, std::nullopt, -1));  // a[:, ::-1], a view
    std::cout << b << "\n";                          // array([[3, 2, 1],
                                                     //        [6, 5, 4]])
    b(0) = 0;                                        // a[0, ::-1] = 0: writes into a's memory
    std::vector<std::int64_t> v = a.to_vector<std::int64_t>();  // {0, 0, 0, 4, 5, 6}
    // [end snippet]
    expect(v, i64{0, 0, 0, 4, 5, 6}, "b(0) = 0 writes into a");
    expect(b.to_vector<std::int64_t>(), i64{0, 0, 0, 6, 5, 4}, "b is a[:, ::-1]");
    expect(cupp::array({{3, 2, 1}, {6, 5, 4}})(cupp::slice(), cupp::slice(std::nullopt, std::nullopt, -1)).repr() ==
               "array([[1, 2, 3],\n       [4, 5, 6]])",
           "repr of a reversed 2x3 view");
  }
  {
    // [snippet handles]
    cupp::ndarray x = cupp::zeros({3});
    cupp::ndarray y = x;          // same memory
    y(1) = 5.0;                   // x is now [0, 5, 0]
    y = cupp::zeros({3});         // rebinds y; x is untouched
    x(cupp::slice()) = y;         // writes y's values into x (broadcast, same_kind cast)
    // [end snippet]
    expect(x.to_vector<double>(), std::vector<double>{0, 0, 0}, "x(slice()) = y writes y's zeros into x");
    cupp::ndarray z = x;
    z(1) = 5.0;
    expect(x.to_vector<double>(), std::vector<double>{0, 5, 0}, "a copied handle shares the memory");
    expect(y.to_vector<double>(), std::vector<double>{0, 0, 0}, "a rebound handle is a new array");
  }
  {
    const cupp::host_array host = cupp::host_array::from(std::span<const double>(std::vector<double>{1, 2, 3}));
    const cupp::ndarray other_device_array = cupp::asarray(std::vector<double>{8, 9});
    // [snippet assign]
    auto a = cupp::zeros({10});
    a(cupp::slice(2, 5)).assign(host);           // host_array of shape (3,) (or broadcastable)
    a(cupp::slice(2, 5)) = host;                 // the same
    a(cupp::slice(std::nullopt, std::nullopt, 3)) = 7;   // fill a strided view
    a(cupp::slice(8, std::nullopt)) = other_device_array; // device to device
    // [end snippet]
    expect(a.to_vector<double>(), std::vector<double>{7, 0, 1, 7, 3, 0, 7, 0, 8, 9}, "assign, fill and copy into slices");
  }
  {
    const std::vector<cupp::float16_t> halves = {cupp::float16_t(0.5f), cupp::float16_t(1.5f)};
    const void* ptr = halves.data();
    const std::int64_t shape[] = {2};
    const cupp::host_array host_array = cupp::host_array::from(std::span<const float>(std::vector<float>{4, 5}));
    // [snippet host_data]
    auto a = cupp::asarray(std::vector<float>{1, 2, 3});    // float32: C++ types keep their width
    auto b = cupp::array({1.5, 2.0});                        // float64 (Python-style literals)
    auto c = cupp::array({{1, 2}, {3, 4}});                  // int64
    auto d = cupp::array({true, false});                     // bool
    auto e = cupp::asarray(ptr, cupp::float16, shape);       // raw host memory, C order
    auto f = cupp::asarray(host_array);                      // from a host_array

    cupp::host_array h = a.get();               // blocks until the data is on the host
    std::vector<float> v = a.to_vector<float>();// T must be the dtype's own type (TypeError otherwise)
    double x = a(0).item<double>();             // 0-d or one element, converted like static_cast
    // [end snippet]
    expect(a.dtype() == cupp::float32 && b.dtype() == cupp::float64 && c.dtype() == cupp::int64 &&
               d.dtype() == cupp::bool_ && e.dtype() == cupp::float16 && f.dtype() == cupp::float32,
           "the dtypes of asarray and array");
    expect(c.ndim() == 2 && c.shape(0) == 2 && c.shape(1) == 2, "array({{1, 2}, {3, 4}}) is 2x2");
    expect(h.size() == 3 && h.dtype() == cupp::float32, "get() gives a host_array of 3 float32");
    expect(v, std::vector<float>{1, 2, 3}, "to_vector<float>");
    expect(x == 1.0, "item<double>");
    expect(b.to_vector<double>(), std::vector<double>{1.5, 2.0}, "array({1.5, 2.0})");
    expect(d.repr() == "array([ True, False])", "repr of a bool array");
    expect(e(0).item<double>() == 0.5 && e(1).item<double>() == 1.5, "float16 from raw host memory");
    expect(f.to_vector<float>(), std::vector<float>{4, 5}, "asarray(host_array)");
    bool wrong_type = false;
    try {
      (void)a.to_vector<double>();
    } catch (const cupp::TypeError&) {
      wrong_type = true;
    }
    expect(wrong_type, "to_vector<double> of float32 is a TypeError");
  }
  {
    const std::int64_t shape[] = {4};
    cupp::cuda::PinnedMemory pinned = cupp::cuda::alloc_pinned_memory(4 * sizeof(float));
    const float values[] = {1, 2, 3, 4};
    std::memcpy(pinned.ptr(), values, sizeof values);
    const void* pinned_ptr = pinned.ptr();
    // [snippet pinned]
    auto a = cupp::asarray(pinned_ptr, cupp::float32, shape, {.blocking = true});
    // [end snippet]
    std::memset(pinned.ptr(), 0, sizeof values);  // allowed: the blocking upload has finished
    expect(a.to_vector<float>(), std::vector<float>{1, 2, 3, 4}, "a blocking upload from pinned memory");
  }
  {
    auto a = cupp::asarray(std::vector<float>{1, 2, 3});
    int host_work = 0;
    auto do_other_host_work = [&] { ++host_work; };
    // [snippet nonblocking]
    cupp::pending_host_array p = a.get_nonblocking();
    do_other_host_work();
    cupp::host_array h = p.wait();
    // [end snippet]
    expect(h.to_vector<float>(), std::vector<float>{1, 2, 3}, "get_nonblocking().wait()");
    expect(!p.valid() && host_work == 1, "a pending download is used up by wait()");
  }
  {
    std::weak_ptr<void> watch;
    {
      // [snippet wrap]
      float* ptr = nullptr;
      cudaMalloc(&ptr, 6 * sizeof(float));      // or from another library, ...
      std::shared_ptr<void> owner(ptr, [](void* p) { cudaFree(p); });
      const std::int64_t shape[] = {3, 2}, strides[] = {4, 12};   // Fortran order, in bytes
      cupp::ndarray a = cupp::from_device_pointer(ptr, cupp::float32, shape, strides, owner);
      // [end snippet]
      const float values[] = {0, 1, 2, 3, 4, 5};
      expect(ptr != nullptr && cudaMemcpy(ptr, values, sizeof values, cudaMemcpyHostToDevice) == cudaSuccess,
             "cudaMalloc and cudaMemcpy");
      watch = owner;
      owner.reset();  // a keeps the memory alive
      expect(a.is_f_contiguous() && !a.is_c_contiguous() && a.data() == ptr, "a Fortran-ordered view of the pointer");
      expect(a.to_vector<float>(), std::vector<float>{0, 3, 1, 4, 2, 5}, "the wrapped memory in C order");
      expect(!watch.expired(), "the owner lives while an array views the memory");
    }
    expect(watch.expired(), "the owner is released with the last array");
  }
  {
    // [snippet structured]
    const std::pair<std::string, cupp::dtype> fields[] = {{"id", cupp::int32}, {"x", cupp::float64}};
    auto t = cupp::dtype::structured(fields, /*align=*/true);   // id at 0, x at 8, itemsize 16
    auto s = cupp::zeros({4}, t);
    s["x"] = cupp::asarray(std::vector<double>{1, 2, 3, 4});
    s["id"](cupp::slice(1, 3)) = 7;
    std::cout << s << "\n";
    // array([(0, 1.), (7, 2.), (7, 3.), (0, 4.)],
    //       dtype=...)   (the dtype as cupp::dtype::name() spells it)
    // [end snippet]
    expect(t.itemsize() == 16, "the aligned structured dtype has itemsize 16");
    expect(s["id"].to_vector<std::int32_t>(), std::vector<std::int32_t>{0, 7, 7, 0}, "the id field");
    expect(s["x"].to_vector<double>(), std::vector<double>{1, 2, 3, 4}, "the x field");
    expect(s.repr().rfind("array([(0, 1.), (7, 2.), (7, 3.), (0, 4.)],", 0) == 0, "repr of the structured array");
  }
  {
    auto a = cupp::asarray(std::vector<float>{1, 2, 3});
    // [snippet dlpack]
    DLManagedTensorVersioned* t = cupp::to_dlpack_versioned(a);   // DLPack 1.x consumers
    DLManagedTensor* legacy = cupp::to_dlpack(a);                 // older consumers
    cupp::ndarray b = cupp::from_dlpack(t);                       // either form
    // [end snippet]
    expect(b.data() == a.data() && b.to_vector<float>() == std::vector<float>{1, 2, 3}, "from_dlpack views the same memory");
    expect(legacy->dl_tensor.data != nullptr && legacy->dl_tensor.ndim == 1 && legacy->dl_tensor.shape[0] == 3,
           "the legacy tensor describes the array");
    legacy->deleter(legacy);  // the consumer's duty, once
  }
  if (failures != 0) return 1;
  std::puts("arrays: all checks passed");
  return 0;
}
