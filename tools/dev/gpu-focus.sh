#!/usr/bin/env bash
# A focused GPU check for one device call (staged into .gpu/ by stage-gpu.sh): a gtest filter of
# cupp_gpu_tests, compute-sanitizer memcheck over a second filter, chosen cases of the benchmark
# next to CuPy and PyTorch, after remaking the named routine families' NumPy references.
#   usage: bash .gpu/gpu-focus.sh FILTER [MEMCHECK_FILTER] [BENCH_CASES] [FAMILIES]
#   e.g.   bash .gpu/gpu-focus.sh 'Scans*' 'Scans*' cumsum_float32,sort_float32 'sorting searching'
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0  # NVLink multicast off on shared machines (the NCCL tests refuse to run without it)
export CUPP_TEST_CONFORMANCE_DIR=$PWD/conformance CUPP_TEST_SOURCE_DIR=$(cd .. && pwd)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
filter=${1:-*} mfilter=${2:-} cases=${3:-} families=${4:-}
for fam in $families; do
  python3 "make_${fam}_ref.py" "conformance/$fam-ref" >/dev/null 2>&1 || echo "make_${fam}_ref.py failed"
done
timeout 300 ./cupp_gpu_tests --gtest_filter="$filter" 2>&1 | tee "$OUT/gpu_tests.log" |
  grep -E "FAILED|PASSED|Failure|SKIPPED|disagree" | head -60
echo "gpu tests exit: ${PIPESTATUS[0]}"
if [ -n "$mfilter" ]; then
  timeout 200 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 ./cupp_gpu_tests \
    --gtest_brief=1 --gtest_filter="$mfilter" 2>&1 | tee "$OUT/memcheck.log" | tail -4
fi
if [ -n "$cases" ]; then
  mkdir -p "$OUT/bench"
  timeout 400 python3 compare.py --cupp ./cupp_bench --out "$OUT/bench" --only "$cases" 2>&1 | tee "$OUT/bench.log" | tail -30
  rm -rf "$OUT"/bench/samples-*
fi
