#!/bin/bash
# One GPU call for the sparse module (stage: copy build/tests/cupp_gpu_tests and cupp_example_sparse, stripped,
# tests/conformance/make_sparse_ref.py and sparse/bench/peers.py next to this script in .gpu-sparse/): SciPy reference set, GPU tests, .npz exchange with SciPy,
# benchmark figures next to CuPy and PyTorch, memcheck. Each step is capped by what is left of
# the call's time; every log is also written under $OUT.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPP_CACHE_DIR=/tmp/cc-sparse CUPP_SPARSE_REF=/tmp/sparse-ref CUPP_SPARSE_OUT=/tmp/sparse-out
LIMIT=${LIMIT:-172}
cap() { local left=$((LIMIT - SECONDS)); [ "$1" -lt "$left" ] && echo "$1" || echo $((left > 1 ? left : 1)); }
step() { echo "=== $1 (t=${SECONDS}s)"; }
step versions
python3 -c "import scipy, numpy; print('scipy', scipy.__version__, 'numpy', numpy.__version__)" 2>&1 | tail -1
step refgen
timeout "$(cap 30)" python3 make_sparse_ref.py "$CUPP_SPARSE_REF" 2>&1 | tail -3
step small-tests
timeout "$(cap 60)" ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='SparseGpu.*:SparseRefGpu.*:SparseMoreGpu.*:SparseIndexPathsGpu*-SparseRefGpu.FormatsAndConversionsMatchSciPy:SparseGpu.BenchFigures' \
  > "$OUT/small.log" 2>&1; echo "rc=$?"
grep -v '^\[sparse case\]' "$OUT/small.log" | head -c 3500
step example
timeout "$(cap 20)" ./cupp_example_sparse 2>&1 | tail -3; echo "rc=${PIPESTATUS[0]}"
step npz-check
timeout "$(cap 15)" python3 make_sparse_ref.py --check "$CUPP_SPARSE_OUT" 2>&1 | tail -12
step bench
CUPP_SPARSE_BENCH=1 timeout "$(cap 35)" ./cupp_gpu_tests --gtest_filter=SparseGpu.BenchFigures > "$OUT/bench.log" 2>&1
echo "rc=$?"; grep -E "SPARSE_BENCH|Failure|error|FAILED|Expected|Which" "$OUT/bench.log" | head -12
step peers
timeout "$(cap 40)" python3 peers.py 2>&1 | tail -6
step formats
timeout "$(cap 75)" ./cupp_gpu_tests --gtest_brief=1 --gtest_filter=SparseRefGpu.FormatsAndConversionsMatchSciPy \
  > "$OUT/formats.log" 2>&1; echo "rc=$?"
grep -c '^\[sparse case\]' "$OUT/formats.log"; grep '^\[sparse case\]' "$OUT/formats.log" | tail -1
grep -v '^\[sparse case\]' "$OUT/formats.log" | head -c 4500
step memcheck
timeout "$(cap 60)" compute-sanitizer --tool memcheck --error-exitcode 9 ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='SparseGpu.ProductsMatch*:SparseGpu.ShapeInference*:SparseGpu.ProductCache*:SparseGpu.StarAndSum*:SparseRefGpu.ConstructorsMatchSciPy:SparseRefGpu.LoadsSciPysNpzFiles:SparseMoreGpu.*' \
  > "$OUT/memcheck.log" 2>&1; echo "rc=$?"; tail -6 "$OUT/memcheck.log"
step done
