// Example for docs/load-ops.md, built and run by the tests (CTest `example_load_ops`, label gpu):
// an op spec written to a YAML file, loaded with cupp::load_ops, found by name, and called like a
// built-in ufunc. Loading needs no GPU; the calls are skipped without one. Exits 1 on a wrong value.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/errors.hpp>
#include <cupp/load_ops.hpp>
#include <cupp/ufunc.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

constexpr const char* kSpec = R"(# scaled_add: x + alpha*y with alpha = 2 for floats, a shift for integers.
name: scaled_add
doc: x plus twice y, element-wise.
nin: 2
nout: 1
body: out0 = in0 + 2 * in1;
loops:
  - sig: T, T -> T
    each: {T: [int32, int64]}
    body: out0 = in0 + (in1 << 1);
  - sig: T, T -> T
    each: {T: [float32, float64]}
)";

int main() {
  const fs::path file = fs::temp_directory_path() / "scaled_add.yaml";  // a single op: <name>.yaml
  std::ofstream(file) << kSpec;
  std::vector<cupp::ufunc> loaded;
  try {
    loaded = cupp::load_ops(file);
  } catch (const cupp::SpecError& e) {  // "FILE:LINE: message"
    std::printf("%s\n", e.what());
    return 1;
  }
  fs::remove(file);
  const cupp::ufunc& scaled_add = cupp::ufunc::get("scaled_add");  // the same op as loaded[0]
  std::printf("loaded %s with %zu loops:", std::string(scaled_add.name()).c_str(), scaled_add.spec().loops.size());
  for (const cupp::loop_spec& loop : scaled_add.spec().loops) std::printf(" %s", cupp::loop_signature(loop).c_str());
  std::printf("\n");
  bool ok = loaded.size() == 1 && loaded[0] == scaled_add && scaled_add.spec().loops.size() == 4;
  // Loading the same file again is a no-op that returns the same op.
  std::ofstream(file) << kSpec;
  ok = ok && cupp::load_ops(file).at(0) == scaled_add;
  fs::remove(file);

  if (!cupp::cuda::is_available()) {
    std::puts(ok ? "SKIPPED: no CUDA device" : "WRONG");
    return ok ? 0 : 1;
  }
  const cupp::ndarray x = cupp::asarray(std::vector<float>{1, 2, 3});
  const cupp::ndarray y = cupp::asarray(std::vector<float>{10, 20, 30});
  const cupp::ndarray a = scaled_add(x, y);                    // float32 loop
  const cupp::ndarray b = scaled_add(cupp::asarray(std::vector<std::int32_t>{1, 2}), 3);  // int32, weak 3
  cupp::ndarray c = cupp::zeros({3}, cupp::float64);
  scaled_add(x, 0.5, {.out = c, .where = x > 1});              // out= and where=, as for cupp::add
  std::printf("a = %s\nb = %s\nc = %s\n", a.repr().c_str(), b.repr().c_str(), c.repr().c_str());
  ok = ok && a.to_vector<float>() == std::vector<float>{21, 42, 63} &&
       b.to_vector<std::int32_t>() == std::vector<std::int32_t>{7, 8} &&
       c.to_vector<double>() == std::vector<double>{0, 3, 4};
  std::puts(ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
