#!/usr/bin/env bash
# The fft module's GPU checks (issue 26) in one device call, from a staged folder .gpu-fft/ (ignored).
# Usually staged by tools/dev/stage-gpu-modules.sh (phase "fft"). By hand, from /work/main after
# building cupp_gpu_tests and cupp_bench through the build lock:
#     mkdir -p .gpu-fft/bench
#     /usr/local/cuda/bin/nvcc -O2 -std=c++17 -arch=sm_90 fft/bench/layouts.cu -o .gpu-fft/layouts -lcufft -lnvrtc
#     strip -o .gpu-fft/cupp_gpu_tests build/tests/cupp_gpu_tests
#     strip -o .gpu-fft/bench/cupp_bench build/bench/cupp_bench
#     cp generated/bench/cases.json bench/compare.py bench/side_common.py bench/side_cupy.py bench/side_torch.py bench/compile_cupy.py .gpu-fft/bench/
#     cp fft/bench/gpu-run.sh .gpu-fft/run.sh; du -sh .gpu-fft   (tree + carry < 64 MiB)
# then run(command="bash .gpu-fft/run.sh", carry=[".gpu-fft"], timeout_s=FFT_BUDGET + 20). The
# binaries and bench/ can travel as .gpu-fft/pack.tar.xz (tar cJf, ~23 MB), the command starting
# "cd .gpu-fft && tar xJf pack.tar.xz && "; they may also sit one folder above this script.
#
# What comes back: everything this prints (also $OUT/summary.txt) and every full log in
# $OUT/fft-logs.tar.xz (layouts.log, make_ref.log, tests.log, bench.log, the bench's jsonl and
# fft-table.md, paths-*.jsonl, memcheck.log, racecheck.log): two files, so that the device tool's
# 8 returned files hold them with room for the driver's run.txt and other phases.
#
# Steps (FFT_STEPS, a comma list, picks them; default all, in this order):
#   layouts    the raw cuFFT study (fft/bench/layouts.cu): the axis-0 candidates (cupp's column
#              kernel for several W, the rank-2 premix plans), then (unless LAYOUTS_AXIS0_ONLY=1)
#              the other axis-0 layouts, the norm's callback variants against a pass, cupp's row
#              kernel, which problems cuFFT plans callbacks for. Cap FFT_LAYOUTS_S (60).
#   reference  the NumPy reference cases, made here by tests/conformance/make_fft_ref.py (cap 60).
#   tests      cupp_gpu_tests: FftGpu*, FftCallbacksGpu*, FftNormGpu*, the fft family's reference
#              cases (default engine; norm callback + column tiles forced; the column kernel wherever
#              it can go). FFT_TEST_FILTER replaces the filter. Cap FFT_TESTS_S (100).
#   bench      the fft bench cases next to CuPy and PyTorch (bench/compare.py; FFT_BENCH_CASES) and
#              the issue's ratios from them ("ratio ..." lines). Cap 120.
#   callbacks  a store callback's first use in a fresh process (cold and warm disk cache) and
#              scale-by-2 rows against the plain fft, cupp and CuPy ("callbacks ..." lines). Cap 90.
#   paths      cupp alone on the axis-0 and row cases with its other paths ("paths ..." lines):
#              column kernel everywhere + row kernel, the pair form + the pipelined row kernel
#              (CUPP_FFT_ROW_KERNEL=2), cuFFT everywhere. Cap 40 each.
#   memcheck   compute-sanitizer memcheck of FftCallbacksGpu.* (user load/store LTO callbacks) and
#              FftNormGpu.OwnKernelsOnSmallProblems (the column kernel, its cluster pair form =
#              CUPP_FFT_COLUMN_KERNEL=3, the row kernel = CUPP_FFT_ROW_KERNEL=1,
#              the pipelined row kernel = CUPP_FFT_ROW_KERNEL=2, the literal-factor store callback,
#              on small problems). Cap FFT_MEMCHECK_S (60).
#   ncu        (only when named) Nsight Compute of the 4096^2 row kernels: cuFFT plain and with
#              the literal store callback, cupp's row kernel and its pipelined form. Cap 120.
#   racecheck  compute-sanitizer racecheck of FftGpu.OneCachedPlanServesStreamsAndThreadsSmall (two
#              streams and eight threads on one cached plan, 16 x 4099) and the same kernels test.
#              Cap FFT_RACECHECK_S (60).
# Time: FFT_BUDGET seconds in all (default 300). Each step runs for at most its cap and what the
# budget leaves after the time reserved for the sanitizer steps still to come (their caps), and is
# skipped when under 10 s would be left: the sanitizers always get their time. The old switches
# still work: FFT_SKIP_MEMCHECK=1, FFT_SKIP_RACECHECK=1, FFT_SKIP_PATHS=1 drop those steps.
# Shorter calls: FFT_STEPS=memcheck,racecheck FFT_BUDGET=130 (the sanitizers alone); FFT_STEPS=
# tests,bench,paths FFT_BUDGET=200 FFT_BENCH_CASES=a,b,... (no study).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$here; while [ "$root" != / ] && [ ! -f "$root/tests/conformance/make_fft_ref.py" ]; do root=$(dirname "$root"); done
OUT=${OUT:-/tmp/fft-out}; mkdir -p "$OUT"
logs=$(mktemp -d /tmp/fft-logs.XXXXXX)
exec > >(tee "$OUT/summary.txt") 2>&1
budget=${FFT_BUDGET:-300}
steps=",${FFT_STEPS:-layouts,reference,tests,bench,callbacks,paths,memcheck,racecheck},"
[ "${FFT_SKIP_MEMCHECK:-0}" = 1 ] && steps=${steps//,memcheck,/,}
[ "${FFT_SKIP_RACECHECK:-0}" = 1 ] && steps=${steps//,racecheck,/,}
[ "${FFT_SKIP_PATHS:-0}" = 1 ] && steps=${steps//,paths,/,}
mem_cap=${FFT_MEMCHECK_S:-60}; race_cap=${FFT_RACECHECK_S:-60}
case $steps in *,memcheck,*) ;; *) mem_cap=0 ;; esac
case $steps in *,racecheck,*) ;; *) race_cap=0 ;; esac
# A budget smaller than the sanitizers' caps shares itself between them in proportion.
if [ $((mem_cap + race_cap)) -gt "$budget" ]; then
  sum=$((mem_cap + race_cap)); mem_cap=$((budget * mem_cap / sum)); race_cap=$((budget * race_cap / sum))
fi
# The binaries: beside this script, or one folder up (the lead's combined staging); layouts is optional.
find_bin() { for f in "$here/$1" "$here/../$1"; do [ -x "$f" ] && { echo "$f"; return; }; done; echo "$here/$1"; }
tests_bin=$(find_bin cupp_gpu_tests); layouts_bin=$(find_bin layouts)
bench_dir=$here/bench; [ -x "$bench_dir/cupp_bench" ] || bench_dir=$here/../bench
start=$SECONDS
wanted() { case $steps in *",$1,"*) return 0 ;; esac; return 1; }
# The sanitizer time still to come after step $1 (their caps), which earlier steps leave free.
reserved_after() {
  local r=0
  case $1 in memcheck) ;; racecheck) ;; *) wanted memcheck && r=$((r + mem_cap)) ;; esac
  [ "$1" != racecheck ] && wanted racecheck && r=$((r + race_cap))
  echo "$r"
}
# limit STEP CAP: the seconds STEP may run (0: skip it), said in its "==" line.
limit() {
  local l=$((budget - (SECONDS - start) - $(reserved_after "$1")))
  [ "$l" -gt "$2" ] && l=$2
  [ "$l" -lt 10 ] && l=0
  echo "$l"
}
pack() { tar -C "$logs" --exclude='samples-*' -cJf "$OUT/fft-logs.tar.xz" . 2>/dev/null; }
# begin STEP CAP: prints the step's line and sets $lim; false when the step is not run.
begin() {
  wanted "$1" || return 1
  lim=$(limit "$1" "$2")
  if [ "$lim" -eq 0 ]; then echo "== $1 skipped ($((SECONDS - start)) s: under 10 s of FFT_BUDGET=$budget left)"; return 1; fi
  echo "== $1 ($((SECONDS - start)) s, at most $lim s)"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
echo "steps ${steps:1:-1}; FFT_BUDGET $budget s; logs in $OUT/fft-logs.tar.xz"

if begin layouts "${FFT_LAYOUTS_S:-60}"; then
  timeout "$lim" "$layouts_bin" > "$logs/layouts.log" 2>&1; echo "layouts rc $? (124: out of time)"; cat "$logs/layouts.log"
  pack
fi

conf=/tmp/fft-conformance
if begin reference 60; then
  rm -rf "$conf"; mkdir -p "$conf"
  timeout "$lim" python3 "$root/tests/conformance/make_fft_ref.py" "$conf/fft-ref" > "$logs/make_ref.log" 2>&1
  echo "make_fft_ref rc $?"; tail -3 "$logs/make_ref.log"
fi
export CUPP_TEST_CONFORMANCE_DIR=$conf CUPP_TEST_SOURCE_DIR=$root

if begin tests "${FFT_TESTS_S:-100}"; then
  filter=${FFT_TEST_FILTER:-'FftGpu*:FftCallbacksGpu*:FftNormGpu*:EvalRefGpu/Families.AgreeWithNumPy/fft:EvalRefGpu.FftNormInStoreCallbackAndColumnTiles:EvalRefGpu.FftColumnKernelWherePossible'}
  timeout "$lim" "$tests_bin" --gtest_filter="$filter" > "$logs/tests.log" 2>&1; echo "tests rc $? (124: out of time)"
  grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |^\[ fft \]|Failure|fft/|What|Expected|Which is|  Actual" "$logs/tests.log" | head -80
  pack
fi

if begin bench 120; then
  (cd "$bench_dir" && timeout "$lim" python3 compare.py --cupp ./cupp_bench --out "$logs" \
    --only "${FFT_BENCH_CASES:-fft_complex64_2p24,fft2_complex64_4096sq,rfft_float32_2p24,fft_complex64_4096sq_rows,fft_complex64_4096sq_axis0,fft_complex64_4096sq_axis0_ortho,fft_complex64_4096sq_rows_ortho,ifft_complex64_4096sq_rows,fft_complex64_2p24_ortho}" \
    --markdown "$logs/fft-table.md" > "$logs/bench.log" 2>&1); echo "bench rc $? (124: out of time)"; tail -30 "$logs/bench.log"
  # The issue's ratios from this run's medians ("ratio ..." lines; targets in brackets).
  python3 - "$logs" <<'PY' || true
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
  [ -f "$logs/fft-table.md" ] && cat "$logs/fft-table.md"
  pack
fi

# cupp alone with its other paths on the cases they change (CUPP_FFT_COLUMN_KERNEL=2: the column
# kernel for complex64 without a factor too; CUPP_FFT_ROW_KERNEL=1: scaled rows in the row kernel;
# CUPP_FFT_COLUMN_KERNEL=3: its pair form, a cluster of two blocks per 8 columns; CUPP_FFT_ROW_KERNEL=2:
# the pipelined row kernel):
# "paths ..." lines, ratios to this call's rows time.
# The store callback's bench rows (fft/bench/callbacks.cpp, callbacks_cupy.py): its first use in a
# fresh process with a cold and a warm disk cache, and scale-by-2 rows against the plain fft.
if begin callbacks 90; then
  cb_bin=$(find_bin cupp_bench_fft_callbacks); cb_cache=$(mktemp -d /tmp/fft-cb-cache.XXXXXX)
  for run in cold warm; do
    CUPP_CACHE_DIR=$cb_cache timeout 30 "$cb_bin" first 2>&1 | tail -1 | sed "s/^/callbacks cupp $run disk cache: /"
  done
  timeout 30 "$cb_bin" time 2>&1 | tail -1 | sed 's/^/callbacks cupp: /'
  for m in first time; do
    (cd "$here" && timeout 60 python3 callbacks_cupy.py $m 2>&1 | tail -1 | sed 's/^/callbacks /')
  done
  rm -rf "$cb_cache"
fi

if [ -x "$bench_dir/cupp_bench" ] && begin paths 120; then
  paths_cases=fft_complex64_4096sq_rows,fft_complex64_4096sq_axis0,fft_complex64_4096sq_axis0_ortho,fft_complex64_4096sq_rows_ortho,ifft_complex64_4096sq_rows
  i=0
  long_cases=fft_complex64_2p24,fft_complex64_2p24_ortho
  for env in "CUPP_FFT_LONG_KERNEL=2" "CUPP_FFT_LONG_KERNEL=0" "CUPP_FFT_COLUMN_KERNEL=4" "CUPP_FFT_COLUMN_KERNEL=4 CUPP_FFT_AXIS_SLAB_KIB=4096" "CUPP_FFT_COLUMN_KERNEL=4 CUPP_FFT_AXIS_SLAB_KIB=16384" "CUPP_FFT_COLUMN_KERNEL=4 CUPP_FFT_AXIS_BLOCKS_PER_SM=8" "CUPP_FFT_COLUMN_KERNEL=2 CUPP_FFT_ROW_KERNEL=1" "CUPP_FFT_COLUMN_KERNEL=3 CUPP_FFT_ROW_KERNEL=2" "CUPP_FFT_COLUMN_KERNEL=0 CUPP_FFT_ROW_KERNEL=0"; do
    i=$((i + 1))
    # the four-step long transform against cuFFT (+ the pass) on one 2^24 transform; the rest on 4096^2
    case $env in CUPP_FFT_LONG_KERNEL=*) cases=$long_cases ;; *) cases=$paths_cases ;; esac
    l=$(limit paths 40); [ "$l" -eq 0 ] && { echo "paths $env: skipped (budget)"; continue; }
    (cd "$bench_dir" && timeout "$l" env $env ./cupp_bench --cases cases.json --only "$cases" > "$logs/paths-$i.jsonl" 2>/dev/null)
    python3 - "$logs/paths-$i.jsonl" "$env" <<'PY' || true
import json, sys
ms = {}
for line in open(sys.argv[1]):
    try: r = json.loads(line)
    except ValueError: continue
    if r.get("ms") is not None: ms[r["case"]] = r["ms"]
rows = ms.get("fft_complex64_4096sq_rows")
plain = ms.get("fft_complex64_2p24")
for case, v in ms.items():
    base = plain if case.startswith("fft_complex64_2p24") else rows
    print(f"paths {sys.argv[2]}: {case} {v:.4f} ms" + (f" = {v / base:.2f}x " + ("the plain 2^24" if base is plain else "rows") if base else ""))
PY
  done
  pack
fi

# Nsight Compute on the 4096^2 row cases (only when FFT_STEPS names ncu): cuFFT's plain kernel, its
# literal-factor store callback kernel, cupp's row kernel and its pipelined form, two kernels each
# ("ncu ..." lines: duration, throughputs, occupancy, registers, the top warp stalls).
if [ -x "$bench_dir/cupp_bench" ] && begin ncu 120; then
  for run in "0 fft_complex64_4096sq_rows" "0 fft_complex64_4096sq_rows_ortho" "1 fft_complex64_4096sq_rows_ortho" \
             "2 fft_complex64_4096sq_rows_ortho"; do
    set -- $run
    l=$(limit ncu 30); [ "$l" -eq 0 ] && { echo "ncu $run: skipped (budget)"; continue; }
    (cd "$bench_dir" && CUPP_FFT_ROW_KERNEL=$1 timeout -k 5 "$l" ncu -k regex:fft -c 2 --section SpeedOfLight --section Occupancy \
       --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis ./cupp_bench --cases cases.json \
       --only "$2" > "$logs/ncu-$1-$2.txt" 2>&1)
    echo "ncu CUPP_FFT_ROW_KERNEL=$1 $2 (rc $?):"
    grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Memory Throughput|L1/TEX Hit|L2 Hit|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit (Reg|Shared)|Stall|cycles being stalled" \
      "$logs/ncu-$1-$2.txt" | sed 's/^/ncu   /' | head -40
  done
  pack
fi

# sanitize TOOL LOG FILTER [ARGS...]: one compute-sanitizer run within $lim seconds; prints its
# summary lines, or which test it was in when time ran out.
sanitize() {
  local tool=$1 log=$2 filter=$3; shift 3
  timeout -k 5 "$lim" compute-sanitizer --tool "$tool" "$@" "$tests_bin" --gtest_filter="$filter" > "$logs/$log" 2>&1
  local rc=$?
  echo "$tool rc $rc after $((SECONDS - sanitize_start)) s (124: out of time) on $filter"
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY|^\[ +(OK|FAILED|PASSED|SKIPPED) " "$logs/$log" | head -12
  grep -qE "ERROR SUMMARY|RACECHECK SUMMARY" "$logs/$log" ||
    echo "$tool: no SUMMARY line (last test begun: $(grep -E '^\[ RUN' "$logs/$log" | tail -1))"
  grep -E "^========= (Invalid|Race|Error|Warning|Program hit|  +at )" "$logs/$log" | head -20
  pack
}
if begin memcheck "$mem_cap"; then
  sanitize_start=$SECONDS
  compute-sanitizer --version 2>/dev/null | tail -1
  sanitize memcheck memcheck.log 'FftCallbacksGpu.*:FftNormGpu.OwnKernelsOnSmallProblems' --leak-check no
fi
if begin racecheck "$race_cap"; then
  sanitize_start=$SECONDS
  sanitize racecheck racecheck.log 'FftGpu.OneCachedPlanServesStreamsAndThreadsSmall:FftNormGpu.OwnKernelsOnSmallProblems'
fi
pack
rm -rf "$logs"
echo "== done ($((SECONDS - start)) s of FFT_BUDGET=$budget)"
