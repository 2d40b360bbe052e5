#!/usr/bin/env bash
# Stages one bundle for combined GPU calls into .gpu-all/ (ignored by git): the executables the
# module checks and the cold-start bench need, stripped and packed as one bins.tar.xz (about 13 MB;
# the carried tree must stay under 64 MiB), and a driver that runs any of the modules' committed GPU
# scripts (fft/bench/gpu-run.sh, linalg/bench/gpu-run*.sh, random/bench/gpu-run.sh,
# sparse/bench/gpu-run*.sh) and the cold-start comparison in one device call. Then call the
# device tool with carry [".gpu-all"] and a command such as
#   bash .gpu-all/run.sh cold-start ab linalg2 sparse
# Phases: cold-start (bench/cold_start/run.sh, cupp and CuPy), ab (the cold-start script with the
# built-in kernels on and off), suite (every GPU test in 4 gtest shards, the routine families'
# references remade there with NumPy 2, failures rerun alone; SUITE_FILTER narrows it), and one
# per module script: fft linalg linalg2 random sparse sparse-linalg; dgemm and blas-versions (issue 24's
# float64 product: cupp_bench_linalg_host_path dgemm, and which cuBLAS and kernel each side runs);
# solver-versions (issue 25's single solve 4096 with the system's and PyTorch's cuSOLVER, and
# PyTorch's kernels for it); same-inputs (linalg/bench/same_inputs.py: whether those float64 gaps
# follow the inputs). Each module's script runs from its own folder .gpu-<module>/ (made on the device
# machine, at the root of its copy of the tree, where the scripts expect it), holding
# links to the shared executables and the files it names, with OUT=$OUT/<phase>.
# usage: tools/dev/stage-gpu-modules.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
stage=$root/.gpu-all
rm -rf "$stage"
mkdir -p "$stage/bin"
for exe in tests/cupp_gpu_tests bench/cupp_bench bench/cupp_bench_cold_start cupp_bench_linalg_host_path cupp_bench_fft_callbacks \
           tests/cupp_example_sparse tests/cupp_example_random tests/cupp_example_linalg_solvers; do
  if [ -f "$build/$exe" ]; then
    strip -o "$stage/bin/$(basename "$exe")" "$build/$exe"
  else
    echo "stage-gpu-modules: $build/$exe is not built; phases that need it will fail" >&2
  fi
done
/usr/local/cuda/bin/nvcc -O2 -std=c++17 -arch=sm_90 "$root/fft/bench/layouts.cu" -o "$stage/bin/layouts" -lcufft -lnvrtc
strip "$stage/bin/layouts"
"$root/random/bench/build-variants.sh" "$stage/bin" > /dev/null
rm -f "$stage/bin/ptxas.txt"
# The executables share most of their bytes (libcupp_core and its built-in kernels): one xz stream
# with a dictionary larger than all of them together packs them in about 13 MB instead of 63.
tar -C "$stage/bin" -cf - . | xz -9 --lzma2=preset=9,dict=192MiB -T1 > "$stage/bins.tar.xz"
rm -rf "$stage/bin"
# The Python side of the checks: the benchmark comparison and the reference generators.
cp "$root/generated/bench/cases.json" "$root"/bench/{compare.py,side_common.py,side_cupy.py,side_torch.py,compile_cupy.py} \
   "$root/tests/conformance/routine_ref.py" "$root"/tests/conformance/make_*_ref.py "$stage/"
cp "$root/bench/cold_start/run.sh" "$stage/cold_start.sh"
cp "$root/bench/cold_start/cold_start_cupy.py" "$stage/"
cp "$root/random/bench/peers.py" "$stage/random_peers.py"
cp "$root/sparse/bench/peers.py" "$stage/sparse_peers.py"
[ -f "$root/sparse/bench/linalg_peers.py" ] && cp "$root/sparse/bench/linalg_peers.py" "$stage/sparse_linalg_peers.py"
cp "$root/linalg/bench/same_inputs.py" "$root/fft/bench/callbacks_cupy.py" "$stage/"
# The suite's reference data: what tools/dev/stage-gpu.sh stages for it (the ufunc conformance
# set, the reduction set, the families' generators; data only, no executables), packed.
CUPP_STAGE_DATA_ONLY=1 "$root/tools/dev/stage-gpu.sh" "$build" > /dev/null
tar -C "$root/.gpu" -cf - conformance specs $(cd "$root/.gpu" && ls make_*_ref.py routine_ref.py) |
  xz -6 -T2 > "$stage/conformance.tar.xz"
rm -rf "$root/.gpu"
cat > "$stage/run.sh" <<'DRIVER'
#!/usr/bin/env bash
# Written by tools/dev/stage-gpu-modules.sh: runs the named phases in order (see that script).
set -uo pipefail
all=$(cd "$(dirname "$0")" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export NCCL_NVLS_ENABLE=0  # NVLink multicast off on shared machines (the NCCL tests refuse to run without it)
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
[ -d "$all/bin" ] || { mkdir -p "$all/bin" && tar -C "$all/bin" -xJf "$all/bins.tar.xz"; }
repo=$(cd "$all/.." && pwd)
# module_dir NAME SCRIPT [PEERS]: the folder a module script expects, with links to everything.
module_dir() {
  local d=$repo/.gpu-$1
  rm -rf "$d"; mkdir -p "$d/bench"
  ln -sf "$all"/bin/* "$d/"; ln -sf "$all"/bin/* "$d/bench/"
  for f in "$all"/*.py "$all"/cases.json; do ln -sf "$f" "$d/"; ln -sf "$f" "$d/bench/"; done
  [ -n "${3:-}" ] && ln -sf "$all/$3" "$d/peers.py"
  cp "$repo/$2" "$d/run.sh"
}
for phase in "$@"; do
  start=$SECONDS
  echo "##### $phase"
  case $phase in
    cold-start) OUT=$OUT/cold-start bash "$all/cold_start.sh" "$all/bin/cupp_bench_cold_start" "$all/cold_start_cupy.py" ;;
    ab)
      for mode in 1 0; do
        c=$(mktemp -d)
        for i in 1 2; do rm -rf "$c"/*; CUPP_BUILTIN_KERNELS=$mode CUPP_CACHE_DIR=$c "$all/bin/cupp_bench_cold_start" | sed "s/^/builtin=$mode cold: /"; done
        for i in 1 2 3 4; do CUPP_BUILTIN_KERNELS=$mode CUPP_CACHE_DIR=$c "$all/bin/cupp_bench_cold_start" | sed "s/^/builtin=$mode warm: /"; done
        rm -rf "$c"
      done ;;
    dgemm)  # float64 8192^3 on filled operands: Dgemm, GemmEx, Lt's heuristic answers and its search
      timeout 90 "$all/bin/cupp_bench_linalg_host_path" dgemm ;;
    blas-versions)  # which cuBLAS each side loads, and the kernel PyTorch's float64 8192^3 product runs
      ls -la /usr/local/cuda/lib64/libcublas.so* 2>&1 | head -4
      timeout 60 python3 - <<'PY' 2>&1 | tail -6
import glob, torch
print("torch's cuBLAS:", sorted(glob.glob("/opt/torch/.venv/lib/python3*/site-packages/nvidia/**/libcublas*.so*", recursive=True)))
a = torch.randn(8192, 8192, dtype=torch.float64, device="cuda"); b = torch.randn_like(a)
a @ b; torch.cuda.synchronize()
from torch.profiler import profile, ProfilerActivity
with profile(activities=[ProfilerActivity.CUDA]) as p:
    a @ b; torch.cuda.synchronize()
print("torch float64 8192 kernels:", sorted({e.name for e in p.events() if e.device_type.name == "CUDA"}))
PY
      # cupp's own dgemm kernels by name and duration (ncu's CSV: "ID","Kernel Name",...,value)
      timeout 120 ncu --clock-control none -c 3 -k regex:gemm --csv --metrics gpu__time_duration.sum \
        "$all/bin/cupp_bench_linalg_host_path" dgemm 2>&1 | grep -E '^"[0-9]+"' | awk -F'","' '{print "cupp kernel:", $5, $NF}' | head -6
      # the same dgemm paths with PyTorch's own cuBLAS first on the library path (same soname)
      tlib=$(dirname "$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/*/lib/libcublas.so.* 2>/dev/null | head -1)")
      [ -d "$tlib" ] && LD_LIBRARY_PATH=$tlib:$LD_LIBRARY_PATH timeout 90 "$all/bin/cupp_bench_linalg_host_path" dgemm 2>&1 |
        grep -E "cupp_matmul|gemmex|search tried" | sed "s#^#with $tlib: #" ;;
    solver-versions)  # issue 25's single solve 4096: cupp with the system's and PyTorch's cuSOLVER, PyTorch's kernels
      ls -la /usr/local/cuda/lib64/libcusolver.so* 2>&1 | head -3
      tlib=$(dirname "$(ls /opt/torch/.venv/lib/python3*/site-packages/nvidia/*/lib/libcusolver.so.* 2>/dev/null | head -1)")
      echo "torch's cuSOLVER: $(ls "$tlib"/libcusolver.so* 2>/dev/null | tr '\n' ' ')"
      for lib in "" "$tlib"; do
        LD_LIBRARY_PATH=${lib:+$lib:}$LD_LIBRARY_PATH timeout 90 "$all/bin/cupp_bench" --cases "$all/cases.json" \
          --only solve_float64_4096 --reps 5 2>&1 | tail -1 | sed "s#^#cupp solve 4096 (${lib:-system}): #"
      done
      # cupp's solve candidates and the raw Xgetrf/Xgetrs and legacy Dgetrf/Dgetrs calls
      LINALG_PATH_REPS=5 timeout 120 "$all/bin/cupp_bench_linalg_host_path" solvers solve 2>&1 | grep -E "solve_4096|getrs"
      timeout 90 python3 - <<'PY' 2>&1 | tail -12
import torch
from torch.profiler import profile, ProfilerActivity
a = torch.randn(4096, 4096, dtype=torch.float64, device="cuda"); b = torch.randn(4096, 1, dtype=torch.float64, device="cuda")
torch.linalg.solve(a, b); torch.cuda.synchronize()
with profile(activities=[ProfilerActivity.CUDA]) as p:
    torch.linalg.solve(a, b); torch.cuda.synchronize()
for e in sorted(p.key_averages(), key=lambda e: -e.device_time_total)[:10]:
    print("torch solve 4096 kernel: %.3f ms x%d %s" % (e.device_time_total / 1e3, e.count, e.key[:110]))
PY
      ;;
    same-inputs)  # issues 24/25: CuPy and PyTorch each on the bench's hash fill and on torch.rand's inputs
      (cd "$all" && timeout 200 python3 same_inputs.py) ;;
    fft) module_dir fft fft/bench/gpu-run.sh ;;
    linalg) module_dir linalg linalg/bench/gpu-run.sh ;;
    linalg2) module_dir linalg2 linalg/bench/gpu-run-solvers.sh ;;
    random) module_dir random random/bench/gpu-run.sh random_peers.py ;;
    sparse) module_dir sparse sparse/bench/gpu-run.sh sparse_peers.py ;;
    sparse-linalg) module_dir sparse-linalg sparse/bench/gpu-run-linalg.sh sparse_linalg_peers.py
      ln -sf "$all/sparse_linalg_peers.py" "$repo/.gpu-sparse-linalg/linalg_peers.py" ;;
    suite)
      core=$all/core; rm -rf "$core"; mkdir -p "$core" "$OUT/suite"
      tar -C "$core" -xJf "$all/conformance.tar.xz"; ln -sf "$all/bin/cupp_gpu_tests" "$core/"
      (cd "$core" && for script in make_*_ref.py; do
         family=${script#make_}; family=${family%_ref.py}
         python3 "$script" "conformance/$family-ref" > /dev/null 2>&1 || echo "$script failed: its cases will skip"
       done)
      for i in 0 1 2 3; do
        (cd "$core" && CUPP_TEST_CONFORMANCE_DIR=$core/conformance CUPP_TEST_SOURCE_DIR=$repo CUPP_CACHE_DIR=/tmp/cupp-suite-$i \
           GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 420 ./cupp_gpu_tests --gtest_brief=1 \
           --gtest_filter="${SUITE_FILTER:-*}" > "$OUT/suite/shard-$i.log" 2>&1; echo "shard $i exit: $?" >> "$OUT/suite/shard-$i.log") &
      done
      wait
      grep -hE "tests ran|PASSED|FAILED  |exit:" "$OUT"/suite/shard-*.log | head -60
      failed=$(grep -h "^\[  FAILED  \] [A-Za-z0-9_/]*\.[A-Za-z0-9_/]*" "$OUT"/suite/shard-*.log | awk '{sub(/,$/, "", $4); print $4}' | sort -u | paste -sd: -)
      if [ -n "$failed" ]; then
        echo "rerunning alone: $failed"
        (cd "$core" && CUPP_TEST_CONFORMANCE_DIR=$core/conformance CUPP_TEST_SOURCE_DIR=$repo CUPP_CACHE_DIR=/tmp/cupp-suite-rerun \
           timeout 200 ./cupp_gpu_tests --gtest_brief=1 --gtest_filter="$failed") > "$OUT/suite/rerun.log" 2>&1
        grep -E "tests ran|PASSED|FAILED|Failure" "$OUT/suite/rerun.log" | head -40
      fi ;;
    *) echo "unknown phase $phase"; continue ;;
  esac
  case $phase in
    cold-start|ab|suite|dgemm|blas-versions|solver-versions) ;;
    *) mkdir -p "$OUT/$phase"; (cd "$repo" && OUT=$OUT/$phase bash ".gpu-$phase/run.sh") 2>&1 | tee "$OUT/$phase/run.txt" | tail -60 ;;
  esac
  echo "##### $phase took $((SECONDS - start)) s"
done
DRIVER
chmod +x "$stage/run.sh"
du -sh "$stage"
