#!/usr/bin/env bash
# The random module's GPU run, from a staging folder (ignored /.gpu-random/) holding a stripped
# cupp_gpu_tests and cupp_example_random (build/tests/), the kernels' microbenchmark
# (random/bench/build-variants.sh builds it there), this script and peers.py:
#   mkdir -p .gpu-random && cp build/tests/cupp_gpu_tests build/tests/cupp_example_random \
#     random/bench/gpu-run.sh random/bench/peers.py .gpu-random/ && strip .gpu-random/cupp_* &&
#     random/bench/build-variants.sh .gpu-random
#   run (carry [".gpu-random"]): bash .gpu-random/gpu-run.sh
# Runs the Random* GPU tests (statistics, reproducibility, invariants, errors), the example, the
# bench next to the write floor, CuPy's and PyTorch's figures, and memcheck of RandomGpu.*.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
export CUPP_CACHE_DIR=/tmp/cc-random
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
[ -x ./random_kernel_variants ] && timeout 30 ./random_kernel_variants > "$OUT/variants.log" 2>&1; echo "variants exit $?"
grep VARIANT "$OUT/variants.log"
timeout 40 ./cupp_gpu_tests --gtest_also_run_disabled_tests --gtest_filter='RandomBench*' 2>&1 | grep -E "RANDOM_BENCH|FAIL|rror"
timeout 40 python3 peers.py 2>&1 | tail -12
start=$SECONDS
timeout 100 ./cupp_gpu_tests --gtest_filter='Random*:-RandomBench*' > "$OUT/tests.log" 2>&1; echo "tests exit $? after $((SECONDS-start)) s"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |Failure|Expected|Which is|KS D|z = | mean| variance|child process" "$OUT/tests.log" | head -60
./cupp_example_random | tail -3; echo "example exit $?"
if [ "${RANDOM_MEMCHECK:-1}" = 1 ]; then  # RANDOM_MEMCHECK=0 skips it
  start=$SECONDS
  timeout 50 compute-sanitizer --tool memcheck ./cupp_gpu_tests --gtest_brief=1 \
    --gtest_filter='RandomGpu.*:-RandomGpu.SameBitsForEveryLaunchShape:RandomGpu.SameBitsInAnotherProcess' > "$OUT/memcheck.log" 2>&1
  echo "memcheck exit $? after $((SECONDS-start)) s"; tail -6 "$OUT/memcheck.log"
fi
