// cupp::load / save / savez / savez_compressed / load_npz on device arrays (skipped without a
// GPU): round trips through files, Fortran-ordered saves, bfloat16 loading, .npz maps, and the
// errors that need no device (a .npz given to load, a missing file).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "gpu_support.hpp"

namespace {

struct temp_dir {
  std::filesystem::path path = std::filesystem::temp_directory_path() / ("cupp_io_gpu_" + std::to_string(::getpid()));
  temp_dir() { std::filesystem::create_directories(path); }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

cupp::host_array counting(const cupp::dtype& type, cupp::shape_t shape) {
  cupp::host_array h(type, std::move(shape));
  for (std::size_t i = 0; i < h.nbytes(); ++i) h.data()[i] = std::byte(i % 251);
  return h;
}

void expect_same(const cupp::host_array& a, const cupp::host_array& b) {
  EXPECT_EQ(a.dtype(), b.dtype());
  EXPECT_EQ(a.shape(), b.shape());
  ASSERT_EQ(a.nbytes(), b.nbytes());
  if (a.nbytes() != 0) EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.nbytes()));
}

TEST(NpyDevice, ErrorsWithoutDevice) {
  temp_dir dir;
  std::vector<cupp::io::named_host_array> arrays;
  arrays.emplace_back("a", counting(cupp::int8, {3}));
  cupp::io::save_npz(dir.path / "x.npz", arrays);
  EXPECT_THROW(cupp::load(dir.path / "x.npz"), cupp::ValueError);
  EXPECT_THROW(cupp::load(dir.path / "missing.npy"), cupp::Error);
}

TEST(NpyDevice, SaveLoadRoundTrips) {
  CUPP_REQUIRE_GPU();
  temp_dir dir;
  const auto h = counting(cupp::float32, {4, 6});
  const cupp::ndarray a = cupp::asarray(h);
  cupp::save(dir.path / "a", a);  // ".npy" appended, as numpy.save does
  expect_same(cupp::load(dir.path / "a.npy").get(), h);
  // Fortran order: the transpose of a C array is F-contiguous; with the option it is written so.
  const cupp::ndarray t = a.T();
  cupp::save(dir.path / "t.npy", t, {.fortran_order = true});
  const auto t_file = cupp::io::load_npy(dir.path / "t.npy");
  expect_same(cupp::load(dir.path / "t.npy").get(), t.get());
  expect_same(t_file, t.get());
  // bfloat16 is written as '<V2' and loaded as bfloat16 on request.
  const auto bf = counting(cupp::bfloat16, {5});
  cupp::save(dir.path / "bf.npy", cupp::asarray(bf));
  EXPECT_EQ(cupp::load(dir.path / "bf.npy").dtype(), cupp::dtype::void_(2));
  expect_same(cupp::load(dir.path / "bf.npy", {.dtype = cupp::bfloat16}).get(), bf);
}

TEST(NpyDevice, SavezAndLoadNpz) {
  CUPP_REQUIRE_GPU();
  temp_dir dir;
  const auto x = counting(cupp::int64, {3, 2});
  const auto y = counting(cupp::complex128, {});
  cupp::savez(dir.path / "s", {{"x", cupp::asarray(x)}, {"y", cupp::asarray(y)}});
  cupp::savez_compressed(dir.path / "c.npz", {{"x", cupp::asarray(x)}, {"y", cupp::asarray(y)}});
  for (const char* name : {"s.npz", "c.npz"}) {
    const cupp::npz_file f = cupp::load_npz(dir.path / name);
    ASSERT_EQ(f.size(), 2u);
    expect_same(f.at("x").get(), x);
    expect_same(f.at("y").get(), y);
  }
  // A single .npy through load_npz: one array under the file's stem.
  cupp::io::save_npy(dir.path / "one.npy", x);
  expect_same(cupp::load_npz(dir.path / "one.npy").at("one").get(), x);
}

}  // namespace
