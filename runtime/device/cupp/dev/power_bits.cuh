// Device math for power, float_power and the bit-level float ops (nextafter, spacing) and
// bitwise_count, with NumPy's results for every dtype. Embedded and handed to NVRTC with the
// prelude; included from math.cuh.
#pragma once

#include <cupp/dev/prelude.cuh>
