// Device math for the exponential, logarithmic, trigonometric and hyperbolic op specs (exp, log,
// sqrt, cos, tan, arcsin ... arctanh), real and complex, with NumPy's (the C library's) special
// values. Embedded and handed to NVRTC with the prelude; included from math.cuh.
#pragma once

#include <cupp/dev/prelude.cuh>
