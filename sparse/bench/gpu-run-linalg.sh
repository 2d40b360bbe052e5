#!/bin/bash
# One GPU call for sparse.linalg (issue 29). Stage next to this script (e.g. in .gpu-sparse-linalg/):
# cupp_gpu_tests (stripped), tests/conformance/make_sparse_linalg_ref.py and sparse/bench/linalg_peers.py
# (tools/dev/stage-gpu-modules.sh's sparse-linalg phase does). Steps, each capped so the whole call
# stays under LIMIT seconds (210): the SciPy reference set, the GPU tests (SparseLinalgGpu.*,
# SparseLinalgRefGpu.*), the bench rows for cupp (SparseLinalgGpu.BenchFigures) and CuPy
# (linalg_peers.py) set side by side with one verdict line, then memcheck of three small tests.
# Logs under $OUT. Lines to read: "wrote N cases" (and any "skipped"), the tests' summary,
# SPARSE_LINALG_ROW ... verdict=..., SPARSE_LINALG_VERDICT.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPP_CACHE_DIR=/tmp/cc-sparse-linalg CUPP_SPARSE_LINALG_REF=/tmp/sparse-linalg-ref
LIMIT=${LIMIT:-210}
cap() { local left=$((LIMIT - SECONDS)); [ "$1" -lt "$left" ] && echo "$1" || echo $((left > 1 ? left : 1)); }
step() { echo "=== $1 (t=${SECONDS}s)"; }
step refgen
rm -rf "$CUPP_SPARSE_LINALG_REF"
timeout "$(cap 25)" python3 make_sparse_linalg_ref.py "$CUPP_SPARSE_LINALG_REF" > "$OUT/sparse_linalg_refgen.log" 2>&1
echo "rc=$?"; grep -E "^wrote|skipped|Error|error" "$OUT/sparse_linalg_refgen.log" | head -20
step tests
timeout "$(cap 60)" ./cupp_gpu_tests --gtest_brief=1 --gtest_filter='SparseLinalgGpu.*:SparseLinalgRefGpu.*' \
  > "$OUT/sparse_linalg_tests.log" 2>&1; echo "rc=$?"; grep -vE "^\[ +(RUN|OK) " "$OUT/sparse_linalg_tests.log" | head -c 7000
step bench-cupp
CUPP_SPARSE_LINALG_BENCH=1 timeout "$(cap 45)" ./cupp_gpu_tests --gtest_filter=SparseLinalgGpu.BenchFigures \
  > "$OUT/sparse_linalg_bench.log" 2>&1; echo "rc=$?"; grep -E "SPARSE_LINALG_BENCH|Failure" "$OUT/sparse_linalg_bench.log"
step bench-cupy
timeout "$(cap 75)" python3 linalg_peers.py --cupp "$OUT/sparse_linalg_bench.log" > "$OUT/sparse_linalg_peers.log" 2>&1
echo "rc=$?"; grep -vE "^SPARSE_LINALG_BENCH cupp" "$OUT/sparse_linalg_peers.log" | tail -16
# a run cut short by its cap still gets the side-by-side of whatever rows it printed
grep -q SPARSE_LINALG_VERDICT "$OUT/sparse_linalg_peers.log" || {
  echo "(CuPy's run did not finish: the rows it printed, against cupp's)"
  python3 - "$OUT/sparse_linalg_bench.log" "$OUT/sparse_linalg_peers.log" <<'PY'
import sys
import linalg_peers as lp
cupp = lp.parse(open(sys.argv[1], errors="replace").read().splitlines(), "cupp")
cupy = lp.parse(open(sys.argv[2], errors="replace").read().splitlines(), "cupy")
ok = lp.compare(cupp, cupy)
print(f"SPARSE_LINALG_VERDICT {'MET' if ok else 'NOT MET'} (partial CuPy run)")
PY
}
step memcheck
timeout "$(cap 25)" compute-sanitizer --tool memcheck --error-exitcode 9 ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='SparseLinalgGpu.LinearOperatorFormsAgree:SparseLinalgGpu.SpsolveNormOnenormest:SparseLinalgGpu.SpsolveTriangularBothTriangles' \
  > "$OUT/sparse_linalg_memcheck.log" 2>&1; echo "rc=$?"; tail -4 "$OUT/sparse_linalg_memcheck.log"
step done
