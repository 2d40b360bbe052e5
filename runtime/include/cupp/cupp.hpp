// The umbrella header of cupp::core: every public header of the runtime, so that
//   #include <cupp/cupp.hpp>
// gives the ndarray, dtypes and promotion, every ufunc and routine family, devices, streams and
// memory, run-time compilation (RawKernel, ElementwiseKernel, ReductionKernel), I/O and DLPack.
// Each header can also be included alone. The modules are reached by their own headers, one per
// module, each with its namespace and library target (cupp::cupp links them all):
//   #include <cupp/linalg.hpp>   // cupp::linalg, target cupp::linalg
//   #include <cupp/fft.hpp>      // cupp::fft,    target cupp::fft
//   #include <cupp/random.hpp>   // cupp::random, target cupp::random
//   #include <cupp/sparse.hpp>   // cupp::sparse, target cupp::sparse
// This header includes none of them (core does not depend on a module); cupp/modules.hpp lists
// the modules linked (cupp::modules(), defined in cupp::cupp). The CTest unit test
// Umbrella.IncludesEveryPublicHeader keeps this list complete.
#pragma once

#include "cupp/accelerators.hpp"
#include "cupp/config.hpp"
#include "cupp/creation.hpp"
#include "cupp/cuda/memory.hpp"
#include "cupp/cuda/raw_kernel.hpp"
#include "cupp/cuda/runtime_info.hpp"
#include "cupp/cuda/stream.hpp"
#include "cupp/dims.hpp"
#include "cupp/dlpack.hpp"
#include "cupp/dtype.hpp"
#include "cupp/elementwise_kernel.hpp"
#include "cupp/errors.hpp"
#include "cupp/float16.hpp"
#include "cupp/host_array.hpp"
#include "cupp/indexing.hpp"
#include "cupp/io.hpp"
#include "cupp/load_ops.hpp"
#include "cupp/manipulation.hpp"
#include "cupp/modules.hpp"
#include "cupp/ndarray.hpp"
#include "cupp/ops.hpp"
#include "cupp/profiler.hpp"
#include "cupp/promotion.hpp"
#include "cupp/reduction_kernel.hpp"
#include "cupp/reductions.hpp"
#include "cupp/routines.hpp"
#include "cupp/scans.hpp"
#include "cupp/scan_options.hpp"
#include "cupp/searching.hpp"
#include "cupp/sorting.hpp"
#include "cupp/statistics.hpp"
#include "cupp/ufunc.hpp"
