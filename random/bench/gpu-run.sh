#!/usr/bin/env bash
# The random module's GPU run, from a staging folder (ignored /.gpu-random/) holding a stripped
# cupp_gpu_tests and cupp_example_random (build/tests/), the kernels' microbenchmark
# (random/bench/build-variants.sh builds it there), this script and peers.py:
#   mkdir -p .gpu-random && cp build/tests/cupp_gpu_tests build/tests/cupp_example_random \
#     random/bench/gpu-run.sh random/bench/peers.py .gpu-random/ && strip .gpu-random/cupp_* &&
#     random/bench/build-variants.sh .gpu-random
#   (over the carry limit with the tree: (cd .gpu-random && tar cJf pack.tar.xz cupp_gpu_tests
#     cupp_example_random random_kernel_variants && rm cupp_gpu_tests cupp_example_random random_kernel_variants))
#   run (carry [".gpu-random"]): bash .gpu-random/gpu-run.sh
# From a combined staging folder, ../cupp_gpu_tests and ../cupp_example_random are used when
# there are none beside it.
# Runs the kernels' microbenchmark, the bench next to the write floors, CuPy's and PyTorch's
# figures, the Random* GPU tests (statistics, reproducibility, invariants, errors), the example,
# then (unless RANDOM_NCU=0) the microbenchmark's key kernels once under ncu and (unless
# RANDOM_MEMCHECK=0) memcheck of RandomGpu.* (RANDOM_MEMCHECK_FILTER narrows it). Logs in $OUT.
# A pack.tar.xz beside it (the binaries, xz-compressed to fit the carry limit) is unpacked first.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:/usr/local/cuda/lib:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
export CUPP_CACHE_DIR=/tmp/cc-random
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
[ -f pack.tar.xz ] && tar xJf pack.tar.xz
for b in cupp_gpu_tests cupp_example_random; do [ -x "./$b" ] || { [ -x "../$b" ] && ln -sf "../$b" "./$b"; }; done
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader
[ -x ./random_kernel_variants ] && timeout 60 ./random_kernel_variants > "$OUT/variants.log" 2>&1; echo "variants exit $?"
grep VARIANT "$OUT/variants.log"
timeout 40 ./cupp_gpu_tests --gtest_also_run_disabled_tests --gtest_filter='RandomBench*' 2>&1 | grep -E "RANDOM_BENCH|FAIL|rror"
timeout 40 python3 peers.py 2>&1 | tail -12
start=$SECONDS
timeout 100 ./cupp_gpu_tests --gtest_filter='Random*:-RandomBench*' > "$OUT/tests.log" 2>&1; echo "tests exit $? after $((SECONDS-start)) s"
grep -E "^\[  (FAILED|PASSED|SKIPPED) |Failure|Expected|Which is|KS D|z = | mean| variance|child process" "$OUT/tests.log" | head -60
./cupp_example_random | tail -3; echo "example exit $?"
if [ "${RANDOM_NCU:-1}" = 1 ] && command -v ncu > /dev/null && [ -x ./random_kernel_variants ]; then  # RANDOM_NCU=0 skips it
  # each key kernel once (uniform, integers32 both stores, the store floors, Philox alone) under ncu
  timeout 60 ncu --clock-control none --section SpeedOfLight --section Occupancy --section WarpStateStats \
    --metrics sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,lts__t_sectors_op_write.sum,dram__bytes_write.sum \
    ./random_kernel_variants once > "$OUT/ncu.txt" 2>&1; echo "ncu exit $?"
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Compute \(SM\) Throughput|Achieved Occupancy|Registers Per|sm__|lts__|dram__" \
    "$OUT/ncu.txt" | head -90
fi
if [ "${RANDOM_MEMCHECK:-1}" = 1 ]; then  # RANDOM_MEMCHECK=0 skips it
  start=$SECONDS
  # RANDOM_MEMCHECK_FILTER narrows it (a short call)
  timeout 50 compute-sanitizer --tool memcheck ./cupp_gpu_tests --gtest_brief=1 \
    --gtest_filter="${RANDOM_MEMCHECK_FILTER:-RandomGpu.*:-RandomGpu.SameBitsForEveryLaunchShape:RandomGpu.SameBitsInAnotherProcess}" \
    > "$OUT/memcheck.log" 2>&1
  echo "memcheck exit $? after $((SECONDS-start)) s"; tail -6 "$OUT/memcheck.log"
fi
