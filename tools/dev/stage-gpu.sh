#!/usr/bin/env bash
# Stages what a GPU run needs into .gpu/ (ignored by git): the stripped test executables, the
# cupp tool, the NumPy reference data the unit tests read, and a script that runs them all and
# writes logs to $OUT. Then call the device tool with carry [".gpu"] and the command
#   bash .gpu/run.sh                      (everything: more than one 10-minute call; run the phases)
#   bash .gpu/run.sh tests                (the tool, the GPU tests but the reference suites, the checks)
#   bash .gpu/run.sh evalref              (the NumPy reference suites: EvalRefGpu, UfuncConformanceGpu)
#   bash .gpu/run.sh cold-start           (the cold-start script, cupp and CuPy, cold and warm; ~1 min)
#   bash .gpu/run.sh suite [GTEST ARGS]   (every GPU test in 4 gtest shards at once, ~4 min; failures rerun alone)
#   bash .gpu/run.sh bench-elementwise    (only the benchmark next to CuPy and PyTorch, bench/compare.py;
#                                          --only NAMES and --reps N pass through)
#   bash .gpu/run.sh eval-conformance     (only the NumPy reference set through `cupp eval --batch`)
#   bash .gpu/run.sh bench-reductions     (only the reduction benchmark, cupp then CuPy and PyTorch)
#   bash .gpu/gpu-focus.sh FILTER [MEMCHECK_FILTER] [BENCH_CASES] [FAMILIES]   (a focused check)
# usage: tools/dev/stage-gpu.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
stage=$root/.gpu
rm -rf "$stage"
mkdir -p "$stage/conformance"
# CUPP_STAGE_DATA_ONLY=1 (tools/dev/stage-gpu-modules.sh): only the reference data and scripts,
# no executables (that bundle packs its own), so nothing here needs building first.
data_only=${CUPP_STAGE_DATA_ONLY:-}
stage_exe() {  # stage_exe BUILD_RELATIVE_PATH: copied and stripped, unless data only
  [ -n "$data_only" ] && return 0
  cp "$build/$1" "$stage/"
  strip "$stage/$(basename "$1")"
}
for exe in tests/cupp_gpu_tests tests/cupp_unit_tests tests/cupp_sticky_error_test tools/cupp bench/cupp_bench_memory bench/cupp_bench_compile bench/cupp_bench_context tests/cupp_example_raw_kernel tests/cupp_example_ufuncs tests/cupp_example_load_ops; do
  stage_exe "$exe"
done
cp -r "$build/tests/conformance/numpy-ref-extra" "$build/tests/conformance/numpy-written-npy" "$stage/conformance/"
cp "$root/tools/dev/gpu-focus.sh" "$stage/"  # one focused device call (see its header)
cp "$root/bench/run_compile_bench.sh" "$root/bench/compile_cupy.py" "$root/tests/conformance/npy_exchange.py" \
   "$root/tests/scripts/check_cupp_eval.sh" "$root/tests/conformance/eval_conformance.py" "$stage/"
# The op specs (eval_conformance.py make reads their names, aliases, ULP bounds and raises).
mkdir -p "$stage/specs/ufuncs"
cp "$root"/specs/ufuncs/*.yaml "$stage/specs/ufuncs/"
# The benchmark next to CuPy and PyTorch (bench/compare.py; tools/dev/bench-gpu.sh stages it alone).
if [ -f "$build/bench/cupp_bench" ]; then
  stage_exe bench/cupp_bench
else
  echo "stage-gpu: $build/bench/cupp_bench is missing (not built); bench-elementwise will say so" >&2
fi
if [ -f "$build/bench/cupp_bench_reductions" ]; then
  cp "$build/bench/cupp_bench_reductions" "$root/bench/reductions_peers.py" "$stage/"
  strip "$stage/cupp_bench_reductions"
fi
if [ -f "$build/bench/cupp_bench_host_overhead" ]; then
  cp "$build/bench/cupp_bench_host_overhead" "$stage/"
  strip "$stage/cupp_bench_host_overhead"
fi
cp "$root/generated/bench/cases.json" "$stage/cases.json"  # the merged table (codegen)
cp "$root/bench/compare.py" "$root/bench/side_common.py" "$root/bench/side_cupy.py" \
   "$root/bench/side_torch.py" "$root/bench/test_compare.sh" "$stage/"
mkdir -p "$stage/conformance/numpy-ref"
cp "$build/tests/conformance/numpy-ref/promotion.yaml" "$build/tests/conformance/numpy-ref/manifest.yaml" \
   "$stage/conformance/numpy-ref/"
# The reduction reference set (tests/gpu/test_reductions_gpu.cpp and the eval conformance).
cp -r "$build/tests/conformance/numpy-ref/reductions.yaml" "$build/tests/conformance/numpy-ref/reductions" \
  "$stage/conformance/numpy-ref/"
# The routine families' NumPy reference generators (tests/gpu/test_<family>_gpu.cpp read their
# sets; run.sh makes them on the GPU machine with its NumPy 2).
cp "$root/tests/conformance/routine_ref.py" "$stage/"
for script in "$root"/tests/conformance/make_*_ref.py; do
  cp "$script" "$stage/"  # run.sh remakes the set there with NumPy 2 (the build's data is not carried)
done
# NumPy's results for the ops cupp registers (the GPU conformance test reads them).
mkdir -p "$stage/conformance/numpy-ref/ufunc"
for spec in "$root"/specs/ufuncs/*.yaml; do
  op=$(basename "$spec" .yaml)
  [ -d "$build/tests/conformance/numpy-ref/ufunc/$op" ] && cp -r "$build/tests/conformance/numpy-ref/ufunc/$op" "$stage/conformance/numpy-ref/ufunc/"
done
cat > "$stage/run.sh" <<'RUN'
#!/usr/bin/env bash
# Runs on the GPU machine: tool, GPU tests, unit tests, GPU tests under compute-sanitizer,
# the NumPy reference set through `cupp eval --batch`, benchmarks. `run.sh bench-elementwise
# [--only NAMES] [--reps N]` runs only that benchmark; `run.sh eval-conformance` only the
# reference set.
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0  # NVLink multicast off on shared machines (the NCCL tests refuse to run without it)
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
export CUPP_TEST_CONFORMANCE_DIR=$PWD/conformance CUPP_TEST_SOURCE_DIR=$(cd .. && pwd)
bench_elementwise() {  # cupp, CuPy and PyTorch from one table of cases (bench/compare.py); the table
  if [ -x ./cupp_bench ]; then
    mkdir -p "$OUT/bench"
    python3 compare.py --cupp ./cupp_bench --out "$OUT/bench" "$@" 2>&1 | tee "$OUT/bench_elementwise.log"
    echo "bench-elementwise exit: ${PIPESTATUS[0]}"
    rm -rf "$OUT"/bench/samples-*
  else
    echo "bench-elementwise: cupp_bench was not staged (it did not build)"
  fi
}
eval_conformance() {  # every reference case as one `cupp eval --batch --jobs 16` process, checked with NumPy
  local dir=/tmp/eval-conformance log=$OUT/eval_conformance.log start=$SECONDS
  rm -rf "$dir"
  python3 eval_conformance.py make conformance/numpy-ref conformance/numpy-ref-extra specs/ufuncs "$dir" 2>&1 | tee "$log"
  timeout 300 ./cupp eval --batch "$dir/batch.txt" --jobs 16 > "$dir/results.txt" 2> "$dir/stderr.txt"
  echo "cupp eval --batch --jobs 16 exit: $? after $((SECONDS - start)) s ($(wc -l < "$dir/results.txt") result lines)" | tee -a "$log"
  head -5 "$dir/stderr.txt" | tee -a "$log"
  python3 eval_conformance.py check "$dir" "$dir/results.txt" 2>&1 | tee -a "$log"
  echo "eval-conformance exit: ${PIPESTATUS[0]}"
  cp "$dir/results.txt" "$OUT/eval_conformance_results.txt"
}
bench_reductions() {  # cupp's reductions, then CuPy's and PyTorch's on the same cases
  if [ -x ./cupp_bench_reductions ]; then
    { ./cupp_bench_reductions; python3 reductions_peers.py; } 2>&1 | tee "$OUT/bench_reductions.log"
  else
    echo "bench-reductions: cupp_bench_reductions was not staged"
  fi
}
remake_references() {  # the routine families' references, with this machine's NumPy 2 (the build's may be NumPy 1)
  for script in make_*_ref.py; do
    family=${script#make_}; family=${family%_ref.py}
    rm -rf conformance/$family-ref && python3 $script conformance/$family-ref > /dev/null ||
      echo "$script failed: the $family reference cases will skip"
  done
}
# The NumPy reference suites (thousands of cases, about 2 min): `run.sh evalref` runs them, `run.sh
# tests` the rest, so that each fits one device call.
reference_suites='EvalRefGpu*:UfuncConformanceGpu*'
evalref() {  # every routine family's EVAL_CASES through cupp eval's engine, and the ufunc conformance set
  timeout 400 ./cupp_gpu_tests --gtest_brief=1 --gtest_filter="$reference_suites" 2>&1 | tee "$OUT/evalref.log" |
    grep -E "agree|checked|tests ran|PASSED|FAILED|Failure"
  echo "reference suites exit: ${PIPESTATUS[0]}"
}
tests() {  # the tool, the GPU tests but the reference suites, unit tests, .npy exchange, examples, `cupp eval` checks (about 6 min)
  ./cupp info 2>&1 | tee "$OUT/info.log"
  ./cupp demo 2>&1 | tee "$OUT/demo.log" | tail -15; echo "demo exit: ${PIPESTATUS[0]}"
  timeout 330 ./cupp_gpu_tests --gtest_brief=0 --gtest_filter="-$reference_suites" "$@" 2>&1 | tee "$OUT/gpu_tests.log" |
    grep -E "FAILED|PASSED|SKIPPED|Failure|error"
  echo "gpu tests exit: ${PIPESTATUS[0]}"
  CUPP_CUDA_PER_THREAD_DEFAULT_STREAM=1 ./cupp_gpu_tests --gtest_filter=StreamGpu.DefaultCurrentStreamFollowsConfiguration 2>&1 | tail -2
  ./cupp_sticky_error_test 2>&1 | tee "$OUT/sticky.log"; echo "sticky exit: ${PIPESTATUS[0]}"
  nvtx
  timeout 120 ./cupp_unit_tests --gtest_brief=1 2>&1 | tee "$OUT/unit_tests.log" | tail -5
  # .npy both ways with real NumPy: NumPy writes, cupp reads; cupp writes, NumPy reads.
  rm -rf /tmp/npyx && mkdir -p /tmp/npyx/numpy /tmp/npyx/cupp
  python3 npy_exchange.py write /tmp/npyx/numpy &&
    CUPP_TEST_NUMPY_WRITTEN_DIR=/tmp/npyx/numpy CUPP_TEST_CUPP_WRITE_DIR=/tmp/npyx/cupp \
      ./cupp_unit_tests --gtest_filter='NpyExchange*' 2>&1 | tail -3 &&
    python3 npy_exchange.py check /tmp/npyx/cupp 2>&1 | tee "$OUT/npy_exchange.log"
  ./cupp_example_raw_kernel
  ./cupp_example_ufuncs
  ./cupp_example_load_ops
  timeout 120 bash ./check_cupp_eval.sh "$PWD/cupp" /tmp/cupp-eval 2>&1 | tee "$OUT/cupp_eval.log" | tail -3
  if [ -f check_interop.py ]; then  # DLPack interop with PyTorch and CuPy (tests/dlpack_interop)
    timeout 60 python3 check_interop.py ./libcupp_dlpack_interop.so 2>&1 | tee "$OUT/dlpack.log" | tail -15
    echo "dlpack interop exit: ${PIPESTATUS[0]}"
  fi
}
nvtx() {  # cupp::profiler's ranges and CUPP_NVTX_OPS's launch names, recorded by the injection library
  [ -x ./cupp_nvtx_tests ] || { echo "nvtx: cupp_nvtx_tests was not staged"; return; }
  NVTX_INJECTION64_PATH=$PWD/libcupp_nvtx_recorder.so CUPP_NVTX_OPS=1 ./cupp_nvtx_tests --gtest_brief=1 2>&1 |
    tee "$OUT/nvtx.log" | grep -E "tests ran|PASSED|FAILED|Failure|Skipped"
  [ -x ./cupp_example_profiler ] && ./cupp_example_profiler 2>&1 | tee "$OUT/example_profiler.log"
}
suite() {  # the whole GPU suite (reference suites too) in 4 gtest shards at once, about 4 min
  # Each shard has its own kernel cache; a test that fails is run again alone, so a failure that
  # only shows in the shard (test order, shared state) is told apart from a broken kernel.
  local shards=${SUITE_SHARDS:-4} i
  for ((i = 0; i < shards; ++i)); do
    (rm -rf /tmp/cupp-cache-$i; CUPP_CACHE_DIR=/tmp/cupp-cache-$i GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i \
       timeout 450 ./cupp_gpu_tests --gtest_brief=1 "$@" > "$OUT/suite-$i.log" 2>&1; echo "shard $i exit: $?" >> "$OUT/suite-$i.log") &
  done
  wait
  for ((i = 0; i < shards; ++i)); do grep -E "tests ran|PASSED|FAILED  |SKIPPED|exit:" "$OUT/suite-$i.log" | sed "s/^/[$i] /"; done
  local failed
  failed=$(grep -h "^\[  FAILED  \] [A-Za-z0-9_/]*\.[A-Za-z0-9_/]*" "$OUT"/suite-*.log | awk '{sub(/,$/, "", $4); print $4}' | sort -u | paste -sd: -)
  if [ -n "$failed" ]; then
    echo "rerunning alone: $failed"
    CUPP_CACHE_DIR=/tmp/cupp-cache-rerun timeout 300 ./cupp_gpu_tests --gtest_brief=1 --gtest_filter="$failed" 2>&1 |
      tee "$OUT/suite-rerun.log" | grep -E "tests ran|PASSED|FAILED|Failure" | head -40
  fi
}
memcheck() {  # the GPU tests under compute-sanitizer memcheck; gtest filter as $1 (about 5 min)
  # Left out by default: the NumPy conformance suite and the eval reference sets (thousands of
  # compiles; they run in tests, on kernels the engine tests also run here) and the 6 GiB
  # beyond-2^31 test (hours under memcheck).
  local filter=${1:--UfuncConformanceGpu.*:ElementwiseGpu.BeyondTwoToThe31Elements:ReductionsGpu.EveryReferenceCase:EvalRefGpu*}
  timeout 420 compute-sanitizer --tool memcheck --report-api-errors no --error-exitcode 9 ./cupp_gpu_tests --gtest_brief=1 \
    --gtest_filter="$filter" 2>&1 | tee "$OUT/memcheck.log" | tail -6
  echo "memcheck exit: ${PIPESTATUS[0]}"
}
benches() {  # every benchmark (about 5 min)
  nvidia-smi --query-gpu=name --format=csv,noheader | head -4
  timeout 60 ./cupp_bench_memory 2>&1 | tee "$OUT/bench_memory.log"
  timeout 120 bash ./run_compile_bench.sh ./cupp_bench_compile 5 2>&1 | tee "$OUT/bench_compile.log"
  [ -x ./cupp_bench_host_overhead ] && timeout 60 ./cupp_bench_host_overhead 2>&1 | tee "$OUT/bench_host_overhead.log"
  bench_reductions
  bench_elementwise
}
case ${1:-all} in
  all) ;;
  tests) shift; remake_references; tests "$@"; exit ;;
  evalref) remake_references; evalref; exit ;;
  suite) shift; remake_references; suite "$@"; nvtx; exit ;;
  memcheck) shift; remake_references; memcheck "$@"; exit ;;
  benches) benches; exit ;;
  cold-start) bash ./cold_start.sh ./cupp_bench_cold_start ./cold_start_cupy.py 2>&1 | tee "$OUT/cold_start.log"; exit ;;
  bench-elementwise) shift; bench_elementwise "$@"; exit ;;
  bench-reductions) bench_reductions; exit ;;
  eval-conformance) eval_conformance; exit ;;
  *) echo "usage: run.sh [tests [GTEST ARGS] | evalref | suite [GTEST ARGS] | memcheck [FILTER] | benches | bench-elementwise [--only NAMES] [--reps N] | bench-reductions | eval-conformance]" >&2; exit 2 ;;
esac
# all: more than one 10-minute device call; run the phases one per call instead.
remake_references
tests
evalref
timeout 400 bash -c "$(declare -f eval_conformance); OUT=$OUT; eval_conformance" | tail -12
memcheck
benches
RUN
chmod +x "$stage/run.sh"
# The cold-start comparison (bench/cold_start: cupp's script and CuPy's, cold and warm).
if [ -f "$build/bench/cupp_bench_cold_start" ]; then
  cp "$build/bench/cupp_bench_cold_start" "$root/bench/cold_start/cold_start_cupy.py" "$stage/"
  cp "$root/bench/cold_start/run.sh" "$stage/cold_start.sh"
  strip "$stage/cupp_bench_cold_start"
fi
# The NVTX range test with its recording injection library (tests/nvtx.cmake), and the profiler example.
if [ -f "$build/tests/cupp_nvtx_tests" ]; then
  cp "$build/tests/cupp_nvtx_tests" "$build/tests/libcupp_nvtx_recorder.so" "$stage/"
  strip "$stage/cupp_nvtx_tests"; strip --strip-unneeded "$stage/libcupp_nvtx_recorder.so"
fi
[ -f "$build/tests/cupp_example_profiler" ] && cp "$build/tests/cupp_example_profiler" "$stage/" && strip "$stage/cupp_example_profiler"
# DLPack interop with PyTorch and CuPy (tests/dlpack_interop): the ctypes library and its script.
if [ -f "$build/tests/libcupp_dlpack_interop.so" ]; then
  cp "$build/tests/libcupp_dlpack_interop.so" "$root/tests/dlpack_interop/check_interop.py" "$stage/"
  strip --strip-unneeded "$stage/libcupp_dlpack_interop.so"
fi
du -sh --apparent-size "$stage"
# The device tool carries at most 64 MiB: say so here rather than in a refused call.
size_kib=$(du -s --apparent-size "$stage" | cut -f1)
if [ -z "$data_only" ] && [ "$size_kib" -gt $((62 * 1024)) ]; then  # data only: the caller packs what it takes
  echo "stage-gpu: .gpu is $((size_kib / 1024)) MiB (apparent size), over the 64 MiB carry limit; remove what" \
       "this run does not need: cupp_unit_tests, cupp_bench_{reductions,memory,compile,context}, cupp_example_*" \
       "and libcupp_dlpack_interop.so leave about 48 MiB with conformance/numpy-ref/ufunc kept" >&2
fi
