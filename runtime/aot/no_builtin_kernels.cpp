// The empty built-in kernel table: linked where no kernels are built in ahead of time (the
// bootstrap library that the builder of the table links, and -DCUPP_AOT_KERNELS=OFF builds).
// Every program then compiles at run time.
#include "compiler/builtin_kernels.hpp"

std::span<const std::byte> cupp::detail::builtin_kernel_blob() noexcept { return {}; }
