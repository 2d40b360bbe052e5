// The collectives' argument checks (nccl_checks.hpp).
#include "nccl_checks.hpp"

#include "cupp/errors.hpp"

namespace cupp::cuda::nccl::detail {

std::string where(const char* routine) { return std::string("nccl ") + routine; }

void require_buffer(const ndarray& a, const char* routine, const char* name, int device, bool written) {
  if (a.is_null()) throw ValueError(where(routine) + ": " + name + " is a null ndarray");
  if (a.device() != device)
    throw ValueError(where(routine) + ": " + name + " is on device " + std::to_string(a.device()) +
                     ", the communicator on device " + std::to_string(device));
  if (!a.is_c_contiguous())
    throw ValueError(where(routine) + ": " + name +
                     " must be C-contiguous (NCCL takes one contiguous buffer; copy it with cupp::ascontiguousarray)");
  if (written && !a.writeable()) throw ValueError(where(routine) + ": " + name + " is read-only");
}

void require_same_dtype(const ndarray& send, const ndarray& recv, const char* routine) {
  if (send.dtype() != recv.dtype())
    throw TypeError(where(routine) + ": send has dtype " + send.dtype().name() + " and recv " + recv.dtype().name() +
                    "; they must be the same");
}

void require_elements(const ndarray& a, std::int64_t expected, const char* routine, const char* name,
                      const std::string& why) {
  if (a.size() != expected)
    throw ValueError(where(routine) + ": " + name + " has " + std::to_string(a.size()) + " elements, expected " +
                     std::to_string(expected) + " (" + why + ")");
}

void require_rank(int r, int size, const char* routine, const char* what) {
  if (r < 0 || r >= size)
    throw ValueError(where(routine) + ": " + what + " " + std::to_string(r) + " is out of range for " +
                     std::to_string(size) + " rank" + (size == 1 ? "" : "s"));
}

}  // namespace cupp::cuda::nccl::detail
