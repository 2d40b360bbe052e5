// numpy.linalg.trace: a view of the offset diagonals of the last two axes, summed along the
// diagonal (NumPy's PyArray_Trace: diagonal, then sum over its last axis with dtype=).
#include "cupp/errors.hpp"
#include "cupp/linalg.hpp"
#include "cupp/reductions.hpp"

namespace cupp::linalg {

ndarray trace(const ndarray& x, const trace_options& options) {
  if (x.ndim() < 2) throw ValueError("diag requires an array of at least two dimensions");
  return sum(x.diagonal(options.offset, -2, -1), {.axis = -1, .dtype = options.dtype});
}

}  // namespace cupp::linalg
