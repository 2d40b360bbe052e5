// Example for docs/load-ops.md, built and run by the tests (CTest `example_load_ops`, label gpu):
// an op spec written to a YAML file, loaded with cupp::load_ops, found by name, and called like a
// built-in ufunc. Loading needs no GPU and is checked everywhere (the op's name and four loops,
// reloading as a no-op); the calls (the float32 loop, the int32 loop with a weak scalar, out= and
// where=) are checked where there is a GPU. Prints "FAILED: ..." and exits 1 on a wrong value.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/errors.hpp>
#include <cupp/load_ops.hpp>
#include <cupp/ufunc.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>
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

namespace {
int failures = 0;
void expect(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}
// A fresh directory under the system's temporary directory, removed at the end.
struct temp_dir {
  fs::path path;
  temp_dir() {
    for (int k = 0;; ++k) {
      path = fs::temp_directory_path() / ("cupp_example_load_ops_" + std::to_string(k));
      if (fs::create_directory(path)) break;
    }
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};
}  // namespace

int main() {
  const temp_dir dir;
  fs::current_path(dir.path);
  std::ofstream("scaled_add.yaml") << kSpec;  // a single op: the file is named <name>.yaml

  // Loading (no GPU needed).
  std::vector<cupp::ufunc> loaded;
  try {
    loaded = cupp::load_ops(dir.path / "scaled_add.yaml");
  } catch (const cupp::SpecError& e) {  // "FILE:LINE: message"
    std::printf("FAILED: %s\n", e.what());
    return 1;
  }
  {
    const cupp::ufunc& op = cupp::ufunc::get("scaled_add");  // the same op as loaded[0]
    std::printf("loaded %s with %zu loops:", std::string(op.name()).c_str(), op.spec().loops.size());
    for (const cupp::loop_spec& loop : op.spec().loops) std::printf(" %s", cupp::loop_signature(loop).c_str());
    std::printf("\n");
    expect(loaded.size() == 1 && loaded[0] == op && op.spec().loops.size() == 4, "load_ops gives the op and its 4 loops");
    // Loading the same file again is a no-op that returns the same op.
    expect(cupp::load_ops(dir.path / "scaled_add.yaml").at(0) == op, "loading the same definition again is a no-op");
  }

  if (!cupp::cuda::is_available()) {
    if (failures != 0) return 1;
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const cupp::ndarray x = cupp::asarray(std::vector<float>{1, 2, 3});
  const cupp::ndarray y = cupp::asarray(std::vector<float>{10, 20, 30});
  const cupp::ndarray int32_array = cupp::asarray(std::vector<std::int32_t>{1, 2});
  const cupp::ndarray c = cupp::zeros({3}, cupp::float64);
  // [snippet load_and_call]
  std::vector<cupp::ufunc> mine = cupp::load_ops("scaled_add.yaml");  // throws cupp::SpecError
  const cupp::ufunc& scaled_add = cupp::ufunc::get("scaled_add");      // == mine[0]
  cupp::ndarray a = scaled_add(x, y);                                   // float32 loop for float32 x, y
  cupp::ndarray b = scaled_add(int32_array, 3);                         // weak 3: the int32 loop
  scaled_add(x, 0.5, {.out = c, .where = x > 1});                       // as for cupp::add
  // [end snippet]
  std::printf("a = %s\nb = %s\nc = %s\n", a.repr().c_str(), b.repr().c_str(), c.repr().c_str());
  expect(mine.size() == 1 && mine[0] == scaled_add, "load_ops of the relative path gives the loaded op");
  expect(a.dtype() == cupp::float32 && a.to_vector<float>() == std::vector<float>{21, 42, 63}, "the float32 loop");
  expect(b.dtype() == cupp::int32 && b.to_vector<std::int32_t>() == std::vector<std::int32_t>{7, 8},
         "the int32 loop with a weak 3");
  expect(c.to_vector<double>() == std::vector<double>{0, 3, 4}, "out= and where=");
  if (failures != 0) return 1;
  std::puts("load_ops: all checks passed");
  return 0;
}
