#!/usr/bin/env bash
# The distributed module's GPU checks (issue 31) in one device call: the NCCL tests of
# cupp_gpu_tests (NcclGpu*: one rank per device on a one-GPU machine; the multi-device test runs
# where two or more GPUs exist) and the host tests' NCCL part, then memcheck of the one-rank
# collectives. NVLink multicast stays off: this script sets NCCL_NVLS_ENABLE=0 and the tests
# refuse to run without it.
# Stage (from /work/main, after building cupp_gpu_tests and cupp_unit_tests through the build lock):
#   mkdir -p .gpu-distributed && strip -o .gpu-distributed/cupp_gpu_tests build/tests/cupp_gpu_tests
#   strip -o .gpu-distributed/cupp_unit_tests build/tests/cupp_unit_tests      (optional)
#   cp distributed/bench/gpu-run.sh .gpu-distributed/run.sh
# then run(command="bash .gpu-distributed/run.sh", carry=[".gpu-distributed"], timeout_s=150).
# The binaries may also sit one folder above this script (the lead's combined staging).
# DIST_BUDGET (default 140 s) caps the whole call; DIST_SKIP_MEMCHECK=1 leaves out the memcheck.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/distributed-out}; mkdir -p "$OUT"
budget=${DIST_BUDGET:-140}
find_bin() { for f in "$here/$1" "$here/../$1"; do [ -x "$f" ] && { echo "$f"; return; }; done; echo "$here/$1"; }
tests_bin=$(find_bin cupp_gpu_tests); unit_bin=$(find_bin cupp_unit_tests)
start=$SECONDS
step() { echo "== $1 ($((SECONDS - start)) s)"; }
left() { local l=$((budget - (SECONDS - start) - ${1:-0})); [ "$l" -lt 5 ] && l=5; echo "$l"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ls -la /usr/local/cuda/lib64/libnccl* 2>&1 | head -3
step gpu-tests
timeout "$(left 40)" "$tests_bin" --gtest_filter='NcclGpu*' > "$OUT/nccl-gpu.log" 2>&1; echo "NcclGpu rc $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|Expected|Which is|  Actual|Value of|refusing|libnccl" "$OUT/nccl-gpu.log" | head -60
tail -3 "$OUT/nccl-gpu.log"
if [ -x "$unit_bin" ]; then
  step host-tests
  timeout 30 "$unit_bin" --gtest_filter='NcclHost*' --gtest_brief=1 > "$OUT/nccl-host.log" 2>&1; echo "NcclHost rc $?"
  tail -4 "$OUT/nccl-host.log"
fi
if [ "${DIST_SKIP_MEMCHECK:-0}" != 1 ]; then
  step memcheck
  timeout "$(left 5)" compute-sanitizer --tool memcheck --leak-check no "$tests_bin" \
    --gtest_filter='NcclGpu.AllReduceEveryDtypeAndOp:NcclGpu.ReduceScatterEveryDtypeAndOp:NcclGpu.SendRecvToSelfInAGroup:NcclGpu.ArgumentErrors' \
    > "$OUT/memcheck.log" 2>&1; echo "memcheck rc $?"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -5
fi
step done
