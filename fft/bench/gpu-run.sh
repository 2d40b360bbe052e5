#!/usr/bin/env bash
# The fft module's GPU checks (issue 26) in one device call, from a staged folder .gpu-fft/ (ignored).
# Stage it from the repository root after building cupp_gpu_tests and cupp_bench:
#   Restage (from /work/main, after building cupp_gpu_tests and cupp_bench through the build lock):
#     /usr/local/cuda/bin/nvcc -O2 -std=c++17 -arch=sm_90 fft/bench/layouts.cu -o .gpu-fft/layouts -lcufft -lnvrtc
#     strip -o .gpu-fft/cupp_gpu_tests build/tests/cupp_gpu_tests
#     mkdir -p .gpu-fft/bench && strip -o .gpu-fft/bench/cupp_bench build/bench/cupp_bench
#     cp generated/bench/cases.json bench/compare.py bench/side_common.py bench/side_cupy.py bench/side_torch.py bench/compile_cupy.py .gpu-fft/bench/
#     du -sh .gpu-fft   (tree + carry < 64 MiB)
#   cp fft/bench/gpu-run.sh .gpu-fft/run.sh
# then run(command="bash .gpu-fft/run.sh", carry=[".gpu-fft"], timeout_s=240). To stay under the
# carry limit, the binaries and bench/ can travel as .gpu-fft/pack.tar.xz (tar cJf, ~23 MB) and
# the command start with "cd .gpu-fft && tar xJf pack.tar.xz && ". The binaries may also sit one
# folder above this script (cupp_gpu_tests, layouts, bench/cupp_bench + the bench files).
# A shorter call: FFT_BUDGET=188 FFT_LAYOUTS_S=45 FFT_TESTS_S=80 FFT_BENCH_CASES=a,b,... bash run.sh
# (LAYOUTS_AXIS0_ONLY=1: the study's candidates only; FFT_TEST_FILTER: another gtest filter;
# FFT_SKIP_PATHS=1: no second bench of cupp's other paths.)
# On the GPU machine (from the repository root): the fft module's checks in one call.
# Budget: FFT_BUDGET seconds in all (default 235); FFT_LAYOUTS_S (60) and FFT_TESTS_S (100) cap
# steps 1 and 3; FFT_SKIP_MEMCHECK=1 / FFT_SKIP_RACECHECK=1 leave out steps 5 / 6.
# 1. layouts: the raw cuFFT study (fft/bench/layouts.cu): first the axis-0 candidates (cupp's column
#    kernel fft/device/cupp/fft/columns.cuh for several W, the rank-2 premix-callback plans), then
#    (unless LAYOUTS_AXIS0_ONLY=1) the other axis-0 variants (strided, tiles, transposes, transposing callbacks), the norm's callback variants against a pass, and which
#    problems cuFFT plans callbacks for.
# 2. the NumPy reference cases, made here by tests/conformance/make_fft_ref.py (NumPy 2.5.2).
# 3. cupp_gpu_tests: FftGpu*, FftCallbacksGpu*, FftNormGpu*, the fft family's reference cases
#    (default engine, then norm callback + column tiles forced, then the column kernel wherever it
#    can go). CUPP_FFT_COLUMN_KERNEL=0 turns cupp's column kernel off (cuFFT's strided plan),
#    CUPP_FFT_ROW_KERNEL=0 its row kernel for scaled rows (cuFFT's literal store callback).
# 4. the fft bench cases next to CuPy and PyTorch (bench/compare.py --only ...; FFT_BENCH_CASES),
#    and the issue's ratios from them ("ratio ..." lines); then cupp alone on the axis-0 and row
#    cases with its other paths ("paths ..." lines: column kernel everywhere + row kernel, then
#    cuFFT everywhere).
# 5. memcheck of FftNormGpu's callback and column tests (what time is left, 40 s at most).
# 6. racecheck of two streams and eight threads on one cached plan and of the column kernel's
#    shared-memory passes (what time is left, 60 s at most).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$here; while [ "$root" != / ] && [ ! -f "$root/tests/conformance/make_fft_ref.py" ]; do root=$(dirname "$root"); done
OUT=${OUT:-/tmp/fft-out}; mkdir -p "$OUT"
budget=${FFT_BUDGET:-235}
# The binaries: beside this script, or one folder up (the lead's combined staging); layouts is optional.
find_bin() { for f in "$here/$1" "$here/../$1"; do [ -x "$f" ] && { echo "$f"; return; }; done; echo "$here/$1"; }
tests_bin=$(find_bin cupp_gpu_tests); layouts_bin=$(find_bin layouts)
bench_dir=$here/bench; [ -x "$bench_dir/cupp_bench" ] || bench_dir=$here/../bench
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
step() { echo "== $1 ($((SECONDS - start)) s)"; }
left() { local l=$((budget - (SECONDS - start) - ${1:-0})); [ "$l" -lt 5 ] && l=5; echo "$l"; }
step layouts
timeout "${FFT_LAYOUTS_S:-60}" "$layouts_bin" > "$OUT/layouts.log" 2>&1; echo "layouts rc $?"; cat "$OUT/layouts.log"
step reference-data
conf=/tmp/fft-conformance; rm -rf "$conf"; mkdir -p "$conf"
timeout 60 python3 "$root/tests/conformance/make_fft_ref.py" "$conf/fft-ref" > "$OUT/make_ref.log" 2>&1; echo "make_fft_ref rc $?"
export CUPP_TEST_CONFORMANCE_DIR=$conf CUPP_TEST_SOURCE_DIR=$root
step tests
filter=${FFT_TEST_FILTER:-'FftGpu*:FftCallbacksGpu*:FftNormGpu*:EvalRefGpu/Families.AgreeWithNumPy/fft:EvalRefGpu.FftNormInStoreCallbackAndColumnTiles:EvalRefGpu.FftColumnKernelWherePossible'}
timeout "${FFT_TESTS_S:-100}" "$tests_bin" --gtest_filter="$filter" > "$OUT/tests.log" 2>&1; echo "tests rc $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |^\[ fft \]|Failure|fft/|What|Expected|Which is|  Actual" "$OUT/tests.log" | head -80
step bench
bench_s=$(left 15); [ "$bench_s" -gt 120 ] && bench_s=120
(cd "$bench_dir" && timeout "$bench_s" python3 compare.py --cupp ./cupp_bench --out "$OUT" \
  --only "${FFT_BENCH_CASES:-fft_complex64_2p24,fft2_complex64_4096sq,rfft_float32_2p24,fft_complex64_4096sq_rows,fft_complex64_4096sq_axis0,fft_complex64_4096sq_axis0_ortho,fft_complex64_4096sq_rows_ortho,ifft_complex64_4096sq_rows,fft_complex64_2p24_ortho}" \
  --markdown "$OUT/fft-table.md" > "$OUT/bench.log" 2>&1); echo "bench rc $?"; tail -30 "$OUT/bench.log"
# The issue's ratios from this run's cupp medians ("ratio ..." lines; targets in brackets).
python3 - "$OUT" <<'PY' || true
import json, os, sys
ms = {}
for side in ("cupp", "cupy", "torch"):
    path = os.path.join(sys.argv[1], side + ".jsonl")
    for line in open(path) if os.path.exists(path) else []:
        try: r = json.loads(line)
        except ValueError: continue
        if r.get("ms") is not None: ms[(side, r.get("case"))] = r["ms"]
pairs = [("fft_complex64_4096sq_axis0", "fft_complex64_4096sq_rows", 1.2),
         ("fft_complex64_4096sq_axis0_ortho", "fft_complex64_4096sq_rows", 1.2),
         ("fft_complex64_4096sq_rows_ortho", "fft_complex64_4096sq_rows", 1.15),
         ("ifft_complex64_4096sq_rows", "fft_complex64_4096sq_rows", 1.15),
         ("fft_complex64_2p24_ortho", "fft_complex64_2p24", 1.25)]
for side in ("cupp", "cupy", "torch"):
    for a, b, target in pairs:
        if (side, a) in ms and (side, b) in ms:
            print(f"ratio {side} {a} / {b}: {ms[(side, a)]:.4f} / {ms[(side, b)]:.4f} ms = {ms[(side, a)] / ms[(side, b)]:.2f}x [<= {target}x]")
PY
# cupp alone with its other paths on the cases they change (CUPP_FFT_COLUMN_KERNEL=2: the column
# kernel for complex64 without a factor too; CUPP_FFT_ROW_KERNEL=1: scaled rows in the row kernel;
# CUPP_FFT_COLUMN_KERNEL=3: its pair form, a cluster of two blocks per 8 columns):
# "paths ..." lines, ratios to this call's rows time. FFT_SKIP_PATHS=1 leaves them out.
if [ "${FFT_SKIP_PATHS:-0}" != 1 ] && [ -x "$bench_dir/cupp_bench" ]; then
  step paths
  paths_cases=fft_complex64_4096sq_rows,fft_complex64_4096sq_axis0,fft_complex64_4096sq_axis0_ortho,fft_complex64_4096sq_rows_ortho,ifft_complex64_4096sq_rows
  for env in "CUPP_FFT_COLUMN_KERNEL=2 CUPP_FFT_ROW_KERNEL=1" "CUPP_FFT_COLUMN_KERNEL=3" "CUPP_FFT_COLUMN_KERNEL=0 CUPP_FFT_ROW_KERNEL=0"; do
    (cd "$bench_dir" && timeout 40 env $env ./cupp_bench --cases cases.json --only "$paths_cases" > "$OUT/paths.jsonl" 2>/dev/null)
    python3 - "$OUT/paths.jsonl" "$env" <<'PY' || true
import json, sys
ms = {}
for line in open(sys.argv[1]):
    try: r = json.loads(line)
    except ValueError: continue
    if r.get("ms") is not None: ms[r["case"]] = r["ms"]
rows = ms.get("fft_complex64_4096sq_rows")
for case, v in ms.items():
    print(f"paths {sys.argv[2]}: {case} {v:.4f} ms" + (f" = {v / rows:.2f}x rows" if rows else ""))
PY
  done
fi
step memcheck
mem_s=$(left 20); [ "$mem_s" -gt 40 ] && mem_s=40
[ "${FFT_SKIP_MEMCHECK:-0}" = 1 ] || timeout "$mem_s" compute-sanitizer --tool memcheck --leak-check no "$tests_bin" \
  --gtest_filter='FftNormGpu.StoreCallback*:FftNormGpu.Literal*:FftNormGpu.Column*:FftNormGpu.Transforms*' \
  > "$OUT/memcheck.log" 2>&1; echo "memcheck rc $? (124: out of time)"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -5
step racecheck
race_s=$(left); [ "$race_s" -gt 60 ] && race_s=60
[ "${FFT_SKIP_RACECHECK:-0}" = 1 ] || timeout "$race_s" compute-sanitizer --tool racecheck "$tests_bin" \
  --gtest_filter='FftGpu.OneCachedPlanServesStreamsAndThreads:FftNormGpu.ColumnKernel*' > "$OUT/racecheck.log" 2>&1; echo "racecheck rc $? (124: out of time)"
grep -E "RACECHECK SUMMARY|ERROR SUMMARY|hazard|PASSED|FAILED|OK \]" "$OUT/racecheck.log" | head -8
rm -rf "$OUT"/samples-*
step done
