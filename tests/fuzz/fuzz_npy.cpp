// libFuzzer target for cupp's .npy and .npz readers on host arrays (no GPU, no CUDA). The first
// byte picks the reader and options; the rest is the file. Any exception other than
// cupp::ValueError, any sanitizer report, leak or hang is a finding. A successfully read array
// is written back and read again, and must come back identical.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <span>

#include "cupp/errors.hpp"
#include "cupp/io.hpp"
#include "io/zip.hpp"

namespace {

void check_round_trip(const cupp::host_array& a) {
  if (a.nbytes() != static_cast<std::size_t>(a.size()) * a.dtype().itemsize()) std::abort();
  const auto again = cupp::io::read_npy(cupp::io::write_npy(a), {.dtype = a.dtype(), .max_header_size = 1 << 20});
  if (!(again.dtype() == a.dtype()) || again.shape() != a.shape() ||
      std::memcmp(again.data(), a.data(), a.nbytes()) != 0)
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const unsigned mode = data[0];
  const std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data + 1), size - 1);
  cupp::load_options options;
  if (mode & 2) options.dtype = cupp::bfloat16;
  try {
    switch (mode % 4 < 2 ? 0 : (mode & 4) ? 2 : 1) {
      case 0: check_round_trip(cupp::io::read_npy(file, options)); break;
      case 1:
        for (const auto& [name, array] : cupp::io::read_npz(file, options)) check_round_trip(array);
        break;
      default:  // the archive layer without CRC checks, so mutations reach the members
        cupp::io::detail::read_zip(
            file, {.verify_crc = false}, [](std::string_view) { return true; },
            [&](std::string_view, std::span<const std::byte> member) {
              try {
                check_round_trip(cupp::io::read_npy(member, options));
              } catch (const cupp::ValueError&) {
              }
            });
        break;
    }
  } catch (const cupp::ValueError&) {
  }
  return 0;
}
