// Internal: the routines' NVRTC programs for compile tests, which run without a GPU. Each
// family's factory gives its program for one instantiation (throwing ValueError or TypeError
// for one that does not exist, as the routines would); every_routine_program() lists every
// instantiation the routines can ask for, so one test compiles them all for sm_90.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/launch.hpp"
#include "cupp/dtype.hpp"

namespace cupp::detail {

// creation: family "linear" (arange, linspace) or "tri" (eye, tri, tril, triu), per dtype.
routine_program creation_kernel_program(std::string_view family, cupp::dtype type);
// sorting: the one program of every dtype (key transforms, cupp's own radix sort, helpers).
routine_program sorting_kernel_program();
// searching: one program per element dtype (searchsorted, unique, isin, histogram, bincount, the
// set routines); TypeError for a dtype that is not built in.
routine_program searching_kernel_program(cupp::dtype type);
// statistics: cov's matrix product (c[i, j] = sum_k a[i, k] * conj(b[j, k])) for a float or
// complex dtype; TypeError for any other.
routine_program cov_kernel_program(cupp::dtype type);
// indexing: the move program (gather, scatter, compaction, ...) of a word size 1, 2, 4, 8 or 16
// (ValueError for any other), and ufunc.at's atomic program of an op ("add", "minimum", ...) and
// dtype (ValueError when there is none: ufunc.at then works in rounds).
routine_program indexing_kernel_program(int word_bytes);
routine_program ufunc_at_program(std::string_view op, const cupp::dtype& type);

struct routine_program_instance {
  std::string label;  // e.g. "creation linear float32"
  routine_program program;
};
std::vector<routine_program_instance> every_routine_program();

}  // namespace cupp::detail
