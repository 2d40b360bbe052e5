// Internal to the random module: the device's Philox4x32-10 (random/device/cupp/random/philox.cuh)
// compiled for the host, for the known-answer tests and the host models the GPU tests compare
// the kernels with.
#pragma once

#include "../device/cupp/random/philox.cuh"
