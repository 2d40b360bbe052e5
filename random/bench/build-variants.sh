#!/usr/bin/env bash
# Builds random/bench/kernel_variants.cu (the kernels' microbenchmark, outside the CMake build) into
# $1 (default .gpu-random/): nvcc for sm_90, the CUDA runtime linked statically.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:-$root/.gpu-random}
mkdir -p "$dest"
/usr/local/cuda/bin/nvcc -O3 -std=c++17 -arch=sm_90 -cudart static -I"$root/random/device" -I"$root/runtime/device" \
  -Xptxas -v "$root/random/bench/kernel_variants.cu" -o "$dest/random_kernel_variants" 2> "$dest/ptxas.txt"
strip "$dest/random_kernel_variants"
grep -E "Compiling|registers" "$dest/ptxas.txt" | sed 's/ptxas info    : //' | paste - - | sed -E 's/Compiling entry function .(_Z[0-9]*)?([A-Za-z_0-9]+).*Used ([0-9]+) registers.*/\2 \3 regs/' | sort -u
