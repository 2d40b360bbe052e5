#!/bin/bash
# One GPU call for sparse.linalg (issue 29). Stage next to this script (e.g. in .gpu-sparse-linalg/):
# cupp_gpu_tests (stripped), tests/conformance/make_sparse_linalg_ref.py and sparse/bench/linalg_peers.py.
# Steps: SciPy reference set, the GPU tests (SparseLinalgGpu.*, SparseLinalgRefGpu.*), memcheck of the
# small tests, bench figures next to CuPy. Logs under $OUT.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPP_CACHE_DIR=/tmp/cc-sparse-linalg CUPP_SPARSE_LINALG_REF=/tmp/sparse-linalg-ref
LIMIT=${LIMIT:-190}
cap() { local left=$((LIMIT - SECONDS)); [ "$1" -lt "$left" ] && echo "$1" || echo $((left > 1 ? left : 1)); }
step() { echo "=== $1 (t=${SECONDS}s)"; }
step refgen
timeout "$(cap 25)" python3 make_sparse_linalg_ref.py "$CUPP_SPARSE_LINALG_REF" 2>&1 | tail -3
step tests
timeout "$(cap 85)" ./cupp_gpu_tests --gtest_brief=1 --gtest_filter='SparseLinalgGpu.*:SparseLinalgRefGpu.*' \
  > "$OUT/sparse_linalg_tests.log" 2>&1; echo "rc=$?"; grep -vE "^\[ +(RUN|OK) " "$OUT/sparse_linalg_tests.log" | head -c 7000
step bench
CUPP_SPARSE_LINALG_BENCH=1 timeout "$(cap 35)" ./cupp_gpu_tests --gtest_filter=SparseLinalgGpu.BenchFigures \
  > "$OUT/sparse_linalg_bench.log" 2>&1; echo "rc=$?"; grep -E "SPARSE_LINALG_BENCH|Failure" "$OUT/sparse_linalg_bench.log"
step peers
timeout "$(cap 30)" python3 linalg_peers.py 2>&1 | tail -4
step memcheck
timeout "$(cap 40)" compute-sanitizer --tool memcheck --error-exitcode 9 ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='SparseLinalgGpu.LinearOperatorFormsAgree:SparseLinalgGpu.SpsolveNormOnenormest:SparseLinalgGpu.SpsolveTriangularBothTriangles' \
  > "$OUT/sparse_linalg_memcheck.log" 2>&1; echo "rc=$?"; tail -4 "$OUT/sparse_linalg_memcheck.log"
step done
