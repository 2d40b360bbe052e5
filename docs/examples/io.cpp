// Example for docs/io.md, built and run by the tests (CTest example_io, label gpu): .npy and .npz
// files in a fresh temporary directory. Without a GPU it checks the host side (write_npy /
// read_npy of a host_array, and a bfloat16 array written as NumPy with ml_dtypes writes it,
// '<V2'); with one, the guide's load, save, savez, savez_compressed and load_npz of device arrays,
// each read back and compared.
#include <cupp/cuda/runtime_info.hpp>
#include <cupp/io.hpp>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

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
  std::filesystem::path path;
  temp_dir() {
    for (int k = 0;; ++k) {
      path = std::filesystem::temp_directory_path() / ("cupp_example_io_" + std::to_string(k));
      if (std::filesystem::create_directory(path)) break;
    }
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};
}  // namespace

int main() {
  const temp_dir dir;
  std::filesystem::current_path(dir.path);  // the guide's relative file names land here

  // Host side (no GPU): the files the device part loads.
  const std::vector<float> weights = {0.5f, -1.25f, 3.0f, 8.0f};
  const std::vector<cupp::bfloat16_t> activations = {cupp::bfloat16_t(1.5f), cupp::bfloat16_t(-2.0f)};
  {
    cupp::io::save_npy("weights.npy", cupp::host_array::from(std::span<const float>(weights)));
    cupp::io::save_npy("activations.npy", cupp::host_array::from(std::span<const cupp::bfloat16_t>(activations)));
    const cupp::host_array back = cupp::io::load_npy("weights.npy");
    expect(back.dtype() == cupp::float32 && back.to_vector<float>() == weights, "save_npy / load_npy of float32");
    const cupp::host_array raw = cupp::io::load_npy("activations.npy");
    expect(raw.dtype() == cupp::dtype::void_(2), "bfloat16 is stored as '<V2'");
    const std::vector<std::byte> bytes = cupp::io::write_npy(back);
    expect(cupp::io::read_npy(bytes).to_vector<float>() == weights, "write_npy / read_npy in memory");
  }

  if (!cupp::cuda::is_available()) {
    if (failures != 0) return 1;
    std::puts("SKIPPED: no CUDA device");
    return 0;
  }
  const cupp::ndarray w = cupp::asarray(std::vector<float>{1, 2, 3, 4}).reshape({2, 2});
  const cupp::ndarray b = cupp::asarray(std::vector<std::int32_t>{7, 8});
  // [snippet files]
  cupp::ndarray a = cupp::load("weights.npy");             // a device array
  cupp::save("out.npy", a);                                // ".npy" is appended when missing
  cupp::savez("bundle.npz", {{"w", w}, {"b", b}});         // stored members "w.npy", "b.npy"
  cupp::savez_compressed("bundle.npz", {{"w", w}, {"b", b}});   // deflated (zlib)
  cupp::npz_file f = cupp::load_npz("bundle.npz");         // std::map<std::string, ndarray>
  cupp::ndarray w2 = f.at("w");

  // bfloat16: NumPy (with ml_dtypes) stores it as raw 2-byte records '<V2'; ask for bfloat16:
  cupp::ndarray h = cupp::load("activations.npy", {.dtype = cupp::bfloat16});
  // [end snippet]
  expect(a.dtype() == cupp::float32 && a.to_vector<float>() == weights, "load of weights.npy");
  expect(cupp::io::load_npy("out.npy").to_vector<float>() == weights, "save of out.npy");
  expect(f.size() == 2 && f.count("b") == 1, "load_npz gives the members w and b");
  expect(w2.dtype() == cupp::float32 && w2.ndim() == 2 && w2.to_vector<float>() == std::vector<float>{1, 2, 3, 4},
         "the member w of the compressed archive");
  expect(f.at("b").to_vector<std::int32_t>() == std::vector<std::int32_t>{7, 8}, "the member b");
  expect(h.dtype() == cupp::bfloat16 && h.to_vector<cupp::bfloat16_t>().size() == 2 &&
             static_cast<float>(h.to_vector<cupp::bfloat16_t>()[1]) == -2.0f,
         "load with dtype bfloat16 reinterprets '<V2'");
  cupp::save("no_suffix", a);
  expect(std::filesystem::exists("no_suffix.npy"), "save appends .npy");
  if (failures != 0) return 1;
  std::puts("io: all checks passed");
  return 0;
}
