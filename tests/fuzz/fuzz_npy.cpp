// libFuzzer target for cupp's .npy and .npz readers on host arrays (no GPU, no CUDA). Each input
// goes through the .npy reader (plain and as bfloat16), the .npz reader, and the ZIP layer
// without CRC checks (so mutations reach the members). Any exception other than
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
      (a.nbytes() != 0 && std::memcmp(again.data(), a.data(), a.nbytes()) != 0))
    std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> file(reinterpret_cast<const std::byte*>(data), size);
  for (const bool as_bfloat16 : {false, true}) {
    cupp::load_options options;
    if (as_bfloat16) options.dtype = cupp::bfloat16;
    try {
      check_round_trip(cupp::io::read_npy(file, options));
    } catch (const cupp::ValueError&) {
    }
    try {
      for (const auto& [name, array] : cupp::io::read_npz(file, options)) check_round_trip(array);
    } catch (const cupp::ValueError&) {
    }
  }
  // The archive layer without CRC checks, so that mutations reach the members' contents.
  try {
    cupp::io::detail::read_zip(
        file, {.verify_crc = false}, [](std::string_view) { return true; },
        [](std::string_view, std::span<const std::byte> member) {
          try {
            check_round_trip(cupp::io::read_npy(member));
          } catch (const cupp::ValueError&) {
          }
        });
  } catch (const cupp::ValueError&) {
  }
  return 0;
}
