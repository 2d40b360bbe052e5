#!/usr/bin/env bash
# The distributed module's GPU checks (issue 31) in one device call: the NCCL and block-array tests
# of cupp_gpu_tests (NcclGpu*, BlockArrayGpu*: one rank per device, three blocks on one GPU on a
# one-GPU machine; the multi-device cases run where two or more GPUs exist), the host tests'
# NCCL part, the example (one process per GPU from a unique id in a file; optional), the bench
# (cupp_bench_distributed: all_reduce of 1 GiB float32 over every device, the peer copy of a strided
# view with two or more; torch_allreduce.py: torch.distributed's all_reduce of the same bytes),
# then memcheck of the one-rank collectives. NVLink multicast stays off: this script sets NCCL_NVLS_ENABLE=0 and the tests
# refuse to run without it.
# Stage (from /work/main, after building cupp_gpu_tests and cupp_unit_tests through the build lock):
#   mkdir -p .gpu-distributed && strip -o .gpu-distributed/cupp_gpu_tests build/tests/cupp_gpu_tests
#   strip -o .gpu-distributed/cupp_unit_tests build/tests/cupp_unit_tests      (optional)
#   strip -o .gpu-distributed/cupp_example_distributed build/tests/cupp_example_distributed   (optional)
#   strip -o .gpu-distributed/cupp_bench_distributed build/cupp_bench_distributed             (optional)
# (torch_allreduce.py is found beside this script or in distributed/bench/ of the tree.) To stay
# under the carry limit the binaries can travel as .gpu-distributed/pack.tar.xz
# (XZ_OPT=-9 tar -C .gpu-distributed -cJf .gpu-distributed/pack.tar.xz cupp_example_distributed cupp_bench_distributed: 10 MB),
# which this script unpacks beside itself.
#   cp distributed/bench/gpu-run.sh .gpu-distributed/run.sh
# then run(command="bash .gpu-distributed/run.sh", carry=[".gpu-distributed"], timeout_s=150).
# The binaries may also sit one folder above this script (the lead's combined staging).
# DIST_BUDGET (default 140 s) caps the whole call; DIST_SKIP_MEMCHECK=1 leaves out the memcheck.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0
here=$(cd "$(dirname "$0")" && pwd)
# The optional binaries may travel packed: pack.tar.xz beside this script is unpacked here first.
[ -f "$here/pack.tar.xz" ] && tar -C "$here" -xJf "$here/pack.tar.xz"
OUT=${OUT:-/tmp/distributed-out}; mkdir -p "$OUT"
budget=${DIST_BUDGET:-140}
find_bin() { for f in "$here/$1" "$here/../$1"; do [ -x "$f" ] && { echo "$f"; return; }; done; echo "$here/$1"; }
tests_bin=$(find_bin cupp_gpu_tests); unit_bin=$(find_bin cupp_unit_tests); example_bin=$(find_bin cupp_example_distributed)
bench_bin=$(find_bin cupp_bench_distributed)
torch_py=$here/torch_allreduce.py; [ -f "$torch_py" ] || torch_py=$PWD/distributed/bench/torch_allreduce.py
start=$SECONDS
step() { echo "== $1 ($((SECONDS - start)) s)"; }
left() { local l=$((budget - (SECONDS - start) - ${1:-0})); [ "$l" -lt 5 ] && l=5; echo "$l"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ls -la /usr/local/cuda/lib64/libnccl* 2>&1 | head -3
step gpu-tests
timeout "$(left 40)" "$tests_bin" --gtest_filter='NcclGpu*:BlockArrayGpu*' > "$OUT/nccl-gpu.log" 2>&1; echo "NcclGpu rc $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |Failure|Expected|Which is|  Actual|Value of|refusing|libnccl" "$OUT/nccl-gpu.log" | head -60
tail -3 "$OUT/nccl-gpu.log"
if [ -x "$unit_bin" ]; then
  step host-tests
  timeout 30 "$unit_bin" --gtest_filter='NcclHost*:BlockArrayHost*' --gtest_brief=1 > "$OUT/nccl-host.log" 2>&1; echo "NcclHost rc $?"
  tail -4 "$OUT/nccl-host.log"
fi
if [ -x "$example_bin" ]; then
  step example
  timeout 60 "$example_bin" > "$OUT/example.log" 2>&1; echo "example rc $?"; tail -6 "$OUT/example.log"
fi
if [ -x "$bench_bin" ]; then
  step bench
  timeout 60 "$bench_bin" --mib "${DIST_MIB:-1024}" --iters 10 > "$OUT/bench.log" 2>&1; echo "bench rc $?"; cat "$OUT/bench.log"
  [ -f "$torch_py" ] && { timeout 90 python3 "$torch_py" --mib "${DIST_MIB:-1024}" --iters 10 > "$OUT/torch.log" 2>&1;
                          echo "torch rc $?"; tail -3 "$OUT/torch.log"; }
fi
if [ "${DIST_SKIP_MEMCHECK:-0}" != 1 ]; then
  step memcheck
  timeout "$(left 5)" compute-sanitizer --tool memcheck --leak-check no "$tests_bin" \
    --gtest_filter='NcclGpu.AllReduceEveryDtypeAndOp:NcclGpu.ReduceScatterEveryDtypeAndOp:NcclGpu.SendRecvToSelfInAGroup:NcclGpu.ArgumentErrors' \
    > "$OUT/memcheck.log" 2>&1; echo "memcheck rc $?"
  grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | tail -5
fi
step done
