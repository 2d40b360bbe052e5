#!/bin/bash
# One GPU call for the sparse module (issue 28): SciPy reference set, GPU tests, .npz exchange with
# SciPy, benchmark figures next to CuPy and PyTorch, memcheck (SPARSE_PROFILE=1 adds ncu's
# durations of the SpGEMM kernels). Each step is capped by what is left of
# the call's time (LIMIT seconds, default 200); every log is also written under $OUT.
# Needs, beside this script or one folder above it: cupp_gpu_tests and cupp_example_sparse (stripped
# build/tests/ binaries); make_sparse_ref.py (tests/conformance/) and peers.py (sparse/bench/) beside
# it, one folder above, or at their repository paths. Staging used this session:
#   mkdir -p .gpu-sparse/stage && cp build/tests/cupp_gpu_tests build/tests/cupp_example_sparse .gpu-sparse/stage/
#   strip .gpu-sparse/stage/cupp_*; cp sparse/bench/gpu-run.sh sparse/bench/peers.py sparse/bench/table.py tests/conformance/make_sparse_ref.py .gpu-sparse/stage/
#   (cd .gpu-sparse/stage && tar cJf ../bins.tar.xz cupp_gpu_tests cupp_example_sparse && rm cupp_gpu_tests cupp_example_sparse)
#   run: cd .gpu-sparse/stage && tar xJf ../bins.tar.xz && LIMIT=180 bash gpu-run.sh   (carry [".gpu-sparse"], timeout 200)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
start_dir=$PWD
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
pick() { for f in "$@"; do [ -e "$f" ] && { echo "$f"; return 0; }; done; echo "$1"; }
TESTS=$(pick "$here/cupp_gpu_tests" "$here/../cupp_gpu_tests" "$start_dir/build/tests/cupp_gpu_tests")
EXAMPLE=$(pick "$here/cupp_example_sparse" "$here/../cupp_example_sparse" "$start_dir/build/tests/cupp_example_sparse")
REFGEN=$(pick "$here/make_sparse_ref.py" "$here/../make_sparse_ref.py" "$here/../../tests/conformance/make_sparse_ref.py" \
  "$start_dir/tests/conformance/make_sparse_ref.py")
PEERS=$(pick "$here/peers.py" "$here/../peers.py" "$start_dir/sparse/bench/peers.py")
TABLE=$(pick "$here/table.py" "$here/../table.py" "$start_dir/sparse/bench/table.py")
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPP_CACHE_DIR=/tmp/cc-sparse CUPP_SPARSE_REF=/tmp/sparse-ref CUPP_SPARSE_OUT=/tmp/sparse-out
LIMIT=${LIMIT:-200}
cap() { local left=$((LIMIT - SECONDS)); [ "$1" -lt "$left" ] && echo "$1" || echo $((left > 1 ? left : 1)); }
step() { echo "=== $1 (t=${SECONDS}s)"; }
echo "tests: $TESTS; example: $EXAMPLE; refgen: $REFGEN; peers: $PEERS"
step versions
python3 -c "import scipy, numpy; print('scipy', scipy.__version__, 'numpy', numpy.__version__)" 2>&1 | tail -1
step refgen
timeout "$(cap 30)" python3 "$REFGEN" "$CUPP_SPARSE_REF" 2>&1 | tail -3
step small-tests
timeout "$(cap 90)" "$TESTS" --gtest_brief=1 \
  --gtest_filter='SparseGpu.*:SparseRefGpu.*:SparseMoreGpu.*:SparseIndexPathsGpu*:SparseOwnGpu.*-SparseRefGpu.FormatsAndConversionsMatchSciPy:SparseGpu.BenchFigures' \
  > "$OUT/small.log" 2>&1; echo "rc=$?"
grep -v '^\[sparse case\]' "$OUT/small.log" | head -c 3500
step example
timeout "$(cap 20)" "$EXAMPLE" 2>&1 | tail -3; echo "rc=${PIPESTATUS[0]}"
step npz-check
timeout "$(cap 15)" python3 "$REFGEN" --check "$CUPP_SPARSE_OUT" 2>&1 | tail -12
step bench
CUPP_SPARSE_BENCH=1 timeout "$(cap 35)" "$TESTS" --gtest_filter=SparseGpu.BenchFigures > "$OUT/bench.log" 2>&1
echo "rc=$?"; grep -E "SPARSE_BENCH|Failure|error|FAILED|Expected|Which" "$OUT/bench.log" | head -45
if [ "${SPARSE_PROFILE:-0}" = 1 ]; then
  # Where SpGEMM's time goes (off by default): ncu's per-kernel durations for the SpGEMM kernels of
  # the bench process, cupp's own (cupp_sparse_spgemm_*) and cuSPARSE's, the first 40 of them
  step profile
  CUPP_SPARSE_BENCH=1 timeout "$(cap 90)" ncu --clock-control none --csv --metrics gpu__time_duration.sum \
    -k 'regex:[Ss]p[Gg][Ee][Mm][Mm]|gemm' -c 40 "$TESTS" --gtest_filter=SparseGpu.BenchFigures > "$OUT/profile.csv" 2>&1
  echo "rc=$?"; grep -E '^"[0-9]+"' "$OUT/profile.csv" | awk -F'","' '{print "PROFILE", $5, $NF}' | head -40
fi
step peers
timeout "$(cap 40)" python3 "$PEERS" > "$OUT/peers.log" 2>&1; tail -6 "$OUT/peers.log"
step table
python3 "$TABLE" "$OUT/bench.log" "$OUT/peers.log" 2>&1 | grep '^TABLE' | head -16
step formats
timeout "$(cap 75)" "$TESTS" --gtest_brief=1 --gtest_filter=SparseRefGpu.FormatsAndConversionsMatchSciPy \
  > "$OUT/formats.log" 2>&1; echo "rc=$?"
grep -c '^\[sparse case\]' "$OUT/formats.log"; grep '^\[sparse case\]' "$OUT/formats.log" | tail -1
# the failing test lines and the cases each fails in (the whole log is in $OUT/formats.log)
awk '/^\[sparse case\]/{c=$3} /test_sparse_ref_gpu.cpp:[0-9]+: Failure/{split($1,a,":"); print a[2]" "c}' "$OUT/formats.log" |
  sort | uniq | awk '{m[$1]=m[$1]" "$2} END{for(k in m) print "line "k":"m[k]}' | sort -n -k2 | head -40 | cut -c1-300
grep -v '^\[sparse case\]' "$OUT/formats.log" | head -c 3000
step memcheck
timeout "$(cap 60)" compute-sanitizer --tool memcheck --error-exitcode 9 "$TESTS" --gtest_brief=1 \
  --gtest_filter='SparseGpu.ProductsMatch*:SparseGpu.ShapeInference*:SparseGpu.ProductCache*:SparseGpu.StarAndSum*:SparseGpu.SpmmKernelForms*:SparseGpu.SpgemmReuse*:SparseRefGpu.ConstructorsMatchSciPy:SparseRefGpu.LoadsSciPysNpzFiles:SparseMoreGpu.*:SparseOwnGpu.Tocsc*:SparseOwnGpu.Complex*:SparseOwnGpu.OwnSpgemm*' \
  > "$OUT/memcheck.log" 2>&1; echo "rc=$?"; tail -6 "$OUT/memcheck.log"
step done
