#!/usr/bin/env bash
# linalg part 1's GPU checks (issue 24) from a staged folder .gpu-linalg/ (ignored).
# linalg part 1 (issue 24) GPU checks. Restage from /work/main after building
# (cupp_gpu_tests, cupp_bench, cupp_bench_linalg_host_path):
#   rm -rf .gpu-linalg/cupp_* && cp build/tests/cupp_gpu_tests build/bench/cupp_bench build/cupp_bench_linalg_host_path .gpu-linalg/ \
#     && strip .gpu-linalg/cupp_gpu_tests .gpu-linalg/cupp_bench .gpu-linalg/cupp_bench_linalg_host_path \
#     && cp generated/bench/cases.json bench/compare.py bench/side_common.py bench/side_cupy.py bench/side_torch.py \
#           tests/conformance/routine_ref.py tests/conformance/make_products_ref.py tests/conformance/make_linalg_ref.py .gpu-linalg/
# Run (device tool): command "bash .gpu-linalg/run.sh" (or "run.sh tests" / "run.sh bench"), carry [".gpu-linalg"].
# All of it takes about 3-4 minutes; logs in $OUT (gpu_tests.log, host_path.log, bench.log, bench/).
# (LINALG_PHASE=tests or bench does the same where the script is started without arguments;
# LINALG_BENCH=name,name narrows the compare.py cases.)
# If one call of 240 s is too short, split it: "bash .gpu-linalg/run.sh tests" (reference sets made with
# NumPy 2, LinalgGpu.*, EvalRefGpu products + linalg; ~1-2 min) and "bash .gpu-linalg/run.sh bench"
# (host_path breakdown incl. CUPP_TF32=1, PyTorch TF32 8192^3, the 16 linalg bench cases; ~2 min).
# Staged binaries: built 10:28 UTC from b41f7bd's sources (cuBLASLt plans, einsum fix d2c5715);
# make_products_ref.py from ace411a (1012 cases).
#   cp linalg/bench/gpu-run.sh .gpu-linalg/run.sh
# linalg part 1 (issue 24) on the GPU machine, one call: the NumPy reference sets (made here with
# NumPy 2), the LinalgGpu tests and the products/linalg EvalRefGpu families, the host/device
# breakdown (cupp_bench_linalg_host_path, also with CUPP_TF32=1), PyTorch's TF32 float32 8192^3,
# and the linalg bench cases next to CuPy and PyTorch. Logs under $OUT.
set -uo pipefail
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
mkdir -p conformance
export CUPP_TEST_CONFORMANCE_DIR=$PWD/conformance CUPP_TEST_SOURCE_DIR=$(cd .. && pwd)
export CUPP_CACHE_DIR=$PWD/kcache
phase=${1:-${LINALG_PHASE:-all}}  # tools/dev/stage-gpu-modules.sh's driver passes no argument: LINALG_PHASE=bench
if [ "$phase" = all ] || [ "$phase" = tests ]; then
  for fam in products linalg; do
    python3 "make_${fam}_ref.py" "conformance/$fam-ref" >"$OUT/make_$fam.log" 2>&1 || echo "make_${fam}_ref.py failed"
  done
  timeout 150 ./cupp_gpu_tests --gtest_filter='LinalgGpu.*:*EvalRef*products*:*EvalRef*linalg*' 2>&1 |
    tee "$OUT/gpu_tests.log" | grep -E "^\[  (FAILED|PASSED) |Failure|disagree|of .* agree|\[ (products|linalg) \]|OK \] Linalg" | head -80
  echo "gpu tests exit: ${PIPESTATUS[0]}"
fi
if [ "$phase" = all ] || [ "$phase" = bench ]; then
  timeout 60 ./cupp_bench_linalg_host_path 2>&1 | tee "$OUT/host_path.log"
  CUPP_TF32=1 timeout 30 ./cupp_bench_linalg_host_path 2>&1 | grep -E "float32_8192" | sed 's/^/TF32 /' | tee -a "$OUT/host_path.log"
  timeout 40 python3 - <<'PY' 2>&1 | tee -a "$OUT/host_path.log"
import torch
torch.backends.cuda.matmul.allow_tf32 = True
a = torch.ones(8192, 8192, device="cuda"); b = torch.ones(8192, 8192, device="cuda")
for _ in range(3): a @ b
ts = []
for _ in range(10):
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True)
    s.record(); a @ b; e.record(); e.synchronize(); ts.append(s.elapsed_time(e))
ts.sort(); ms = ts[len(ts) // 2]
print("torch tf32 float32_8192_ms %.4f (%.1f TFLOP/s)" % (ms, 2 * 8192**3 / ms * 1e-9))
PY
  cases=$(python3 -c "import json; print(','.join(c['name'] for c in json.load(open('cases.json'))['cases'] if c.get('kind') == 'linalg' or c['name'].startswith(('matmul_', 'einsum_'))))")
  cases=${LINALG_BENCH:-$cases}  # a comma-separated subset, e.g. LINALG_BENCH=matmul_float64_8192
  mkdir -p "$OUT/bench"
  timeout 200 python3 compare.py --cupp ./cupp_bench --cases cases.json --out "$OUT/bench" --only "$cases" 2>&1 | tee "$OUT/bench.log" | tail -30
  rm -rf "$OUT"/bench/samples-*
fi
