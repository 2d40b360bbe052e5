#!/bin/bash
# One GPU call for sparse.linalg (issue 29). Stage next to this script (e.g. in .gpu-sparse-linalg/):
# cupp_gpu_tests (stripped), tests/conformance/make_sparse_linalg_ref.py and sparse/bench/linalg_peers.py
# (tools/dev/stage-gpu-modules.sh's sparse-linalg phase does). Steps, each capped so the whole call
# stays under LIMIT seconds (300): the SciPy reference set, the GPU tests (SparseLinalgGpu.*,
# SparseLinalgRefGpu.*), the bench rows for cupp (SparseLinalgGpu.BenchFigures) and CuPy
# (linalg_peers.py) set side by side with one verdict line; memcheck of four small tests runs
# before the bench (the bench's CuPy eigsh rows take their full time limits).
# Logs under $OUT. Lines to read: "wrote N cases" and "manifest at" (and any "skipped"; "at its
# limit": a full run near maxiter, rerun with perturbed products, whose infos the test accepts), the
# tests' summary, SPARSE_LINALG_EIGSH (eigsh's steps, cycles and us per step), SPARSE_LINALG_ROW
# ... verdict=..., SPARSE_LINALG_VERDICT. The reference set is written where the tests read it
# ($CUPP_SPARSE_LINALG_REF); its manifest is rewritten after every case, so a generator stopped by
# its cap still leaves the cases it made.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPP_CACHE_DIR=/tmp/cc-sparse-linalg CUPP_SPARSE_LINALG_REF=/tmp/sparse-linalg-ref
LIMIT=${LIMIT:-300}
cap() { local left=$((LIMIT - SECONDS)); [ "$1" -lt "$left" ] && echo "$1" || echo $((left > 1 ? left : 1)); }
step() { echo "=== $1 (t=${SECONDS}s)"; }
step refgen
rm -rf "$CUPP_SPARSE_LINALG_REF"
# small systems: one BLAS thread each (a 16-core pool only adds start-up and contention)
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 timeout "$(cap 55)" \
  python3 make_sparse_linalg_ref.py "$CUPP_SPARSE_LINALG_REF" > "$OUT/sparse_linalg_refgen.log" 2>&1
echo "rc=$? (t=${SECONDS}s)"; grep -E "^wrote|skipped|Error|error|at its limit" "$OUT/sparse_linalg_refgen.log" | head -20
if [ -f "$CUPP_SPARSE_LINALG_REF/manifest.json" ]; then
  echo "manifest at $CUPP_SPARSE_LINALG_REF: $(ls "$CUPP_SPARSE_LINALG_REF" | grep -c '\.npz$') npz files," \
    "complete=$(grep -o '"complete": [a-z]*' "$CUPP_SPARSE_LINALG_REF/manifest.json" | cut -d' ' -f2)"
else
  echo "NO manifest at $CUPP_SPARSE_LINALG_REF; the generator's log ends:"; tail -8 "$OUT/sparse_linalg_refgen.log"
  python3 -c 'import scipy, numpy; print("python3", __import__("sys").version.split()[0], "SciPy", scipy.__version__, "NumPy", numpy.__version__)' 2>&1 | tail -1
fi
step tests
timeout "$(cap 110)" ./cupp_gpu_tests --gtest_brief=1 --gtest_filter='SparseLinalgGpu.*:SparseLinalgRefGpu.*' \
  > "$OUT/sparse_linalg_tests.log" 2>&1; echo "rc=$?"; grep -vE "^\[ +(RUN|OK) " "$OUT/sparse_linalg_tests.log" | head -c 7000
step memcheck
# (EigshAndSvdsOnKnownSpectra: eigsh's fused step kernels, every launch checked)
timeout "$(cap 40)" compute-sanitizer --tool memcheck --error-exitcode 9 ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='SparseLinalgGpu.LinearOperatorFormsAgree:SparseLinalgGpu.SpsolveNormOnenormest:SparseLinalgGpu.SpsolveTriangularBothTriangles:SparseLinalgGpu.EigshAndSvdsOnKnownSpectra' \
  > "$OUT/sparse_linalg_memcheck.log" 2>&1; echo "rc=$?"; tail -4 "$OUT/sparse_linalg_memcheck.log"
grep -m1 -A4 -E "^========= (Invalid|Error|Program hit)" "$OUT/sparse_linalg_memcheck.log"  # the first report, if any
step bench-cupp
CUPP_SPARSE_LINALG_BENCH=1 CUPP_SPARSE_EIGSH_TRACE=1 timeout "$(cap 60)" ./cupp_gpu_tests \
  --gtest_filter=SparseLinalgGpu.BenchFigures > "$OUT/sparse_linalg_bench.log" 2>&1
echo "rc=$?"; grep -E "SPARSE_LINALG_BENCH|SPARSE_LINALG_EIGSH|Failure" "$OUT/sparse_linalg_bench.log"
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
step done
