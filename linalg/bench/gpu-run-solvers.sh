#!/usr/bin/env bash
# linalg part 2's GPU checks (issue 25) from a staged folder .gpu-linalg2/ (ignored).
# Stage (on the build machine, from /work/main, once the targets link):
#   flock /tmp/cupp-build.lock env CCACHE_BASEDIR=/work cmake --build build \
#       --target cupp_gpu_tests cupp_example_linalg_solvers cupp_bench -- -k 0
#   mkdir -p .gpu-linalg2 && rm -f .gpu-linalg2/*
#   for b in tests/cupp_gpu_tests tests/cupp_example_linalg_solvers bench/cupp_bench; do cp build/$b /tmp/; strip /tmp/${b##*/}; done
#   tar cJf .gpu-linalg2/bins.tar.xz -C /tmp cupp_gpu_tests cupp_example_linalg_solvers cupp_bench
#   cp tests/conformance/routine_ref.py tests/conformance/make_linalg_solvers_ref.py .gpu-linalg2/
#   cp linalg/bench/gpu-run-solvers.sh .gpu-linalg2/run.sh
#   du -sh .gpu-linalg2   (~25 MiB; with the rest of the tree it must stay under 64 MiB)
# The script also reads, from the working tree (the folder it is started from, the repository root,
# else the script's parent): bench/*.py and generated/bench/cases.json, and tests/conformance/'s
# two reference scripts when they are not beside it. The binaries may also lie in the script's
# parent folder (a combined staging: ../cupp_gpu_tests, ../cupp_bench, ../cupp_example_linalg_solvers).
# Run (device tool): command "bash .gpu-linalg2/run.sh", carry [".gpu-linalg2"], timeout_s 600
# (all of it takes ~6-8 minutes, most of it CuPy's and PyTorch's SVDs). Knobs:
#   LINALG2_PHASES="tests ref memcheck paths bench" (the default: all five; paths is
#     cupp_bench_linalg_host_path's solvers section: each LU / SVD path and the cholesky and solve
#     candidates and pieces timed side by side in one process, ~1-2 minutes; each line names the
#     CUPP_LINALG_* values that select it (linalg/README.md); LINALG2_PATHS picks its sections:
#     chol solve lu svd; LINALG2_STREAMS="4 32" reruns the LU stacks with those side-stream counts)
#   LINALG2_BENCH=comma-separated case names (default: every linalg part 2 case of
#     linalg/bench/cases.json); LINALG2_REPS (default 3; warmup is 1 call: CuPy's batched svd
#     takes seconds a call); LINALG2_BENCH_ENV="CUPP_LINALG_LU=blocked ..." sets cupp's path
#     variables (linalg/README.md) for the bench phase only.
# Logs under $OUT: linalg2_tests.log (LinalgSolversGpu.* and the reference set), linalg2_example.log,
# linalg2_memcheck.log, linalg2_paths.log (the paths' timings), linalg2_bench.log (compare.py's
# table: cupp, CuPy, PyTorch) and bench/.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
out=${OUT:-/tmp}
mkdir -p "$out"
phases=${LINALG2_PHASES:-tests ref memcheck paths bench}
here=$(cd "$(dirname "$0")" && pwd)
if [ -f "$PWD/bench/compare.py" ]; then root=$PWD; else root=$(cd "$here/.." && pwd); fi
cd "$here"
if [ -f bins.tar.xz ]; then tar xJf bins.tar.xz; fi
bin() { for d in "$here" "$here/.."; do if [ -x "$d/$1" ]; then echo "$d/$1"; return; fi; done; echo "$here/$1"; }
tests_bin=$(bin cupp_gpu_tests); example_bin=$(bin cupp_example_linalg_solvers); bench_bin=$(bin cupp_bench)
paths_bin=$(bin cupp_bench_linalg_host_path)
ref_dir=$here; [ -f "$ref_dir/make_linalg_solvers_ref.py" ] || ref_dir=$root/tests/conformance
has() { case " $phases " in *" $1 "*) return 0;; esac; return 1; }
filter='LinalgSolversGpu.*'
if has ref; then
  python3 -c "import numpy, sys; print('numpy', numpy.__version__)"; python3 -c "import scipy; print('scipy', scipy.__version__)" 2>&1 | tail -1
  mkdir -p conformance
  python3 "$ref_dir/make_linalg_solvers_ref.py" conformance/linalg_solvers-ref 2>&1 | tail -3
  export CUPP_TEST_CONFORMANCE_DIR=$PWD/conformance
  filter="$filter:EvalRefGpu/Families.AgreeWithNumPy/linalg_solvers"
fi
if has tests || has ref; then
  has tests || filter='EvalRefGpu/Families.AgreeWithNumPy/linalg_solvers'
  # cupp's own blocked LU (tests named *Blocked*) in a process of its own: a fault there cannot
  # cost the other tests their CUDA context
  timeout 240 "$tests_bin" --gtest_brief=1 --gtest_filter="$filter:-*Blocked*" > "$out/linalg2_tests.log" 2>&1
  echo "tests exit: $?"
  if has tests; then
    timeout 120 "$tests_bin" --gtest_brief=1 --gtest_filter='LinalgSolversGpu.*Blocked*' >> "$out/linalg2_tests.log" 2>&1
    echo "blocked LU tests exit: $?"
  fi
  grep -E "^\[ linalg_solvers \]|FAILED|PASSED|tests ran" "$out/linalg2_tests.log" | tail -20
  # the failed reference cases, by routine
  grep -oE "^linalg_solvers/[a-z_]+[a-z]_(f4|f8|c8|c16|i4|i8|u1|b1|f2|[a-z0-9]+)" "$out/linalg2_tests.log" | \
    sed -E 's/_(f4|f8|c8|c16|i4|i8|u1|b1|f2)$//' | sort | uniq -c | sort -rn | head -40
  grep -E "^linalg_solvers/" "$out/linalg2_tests.log" | cut -c1-300 | head -60
  grep -B2 -A12 "LinalgSolversGpu.*FAILED\|Failure" "$out/linalg2_tests.log" | grep -v "^linalg_solvers/" | cut -c1-300 | head -60
  grep -F "[ note ]" "$out/linalg2_tests.log" | head -5  # e.g. SvdLoopMethods' gesvdj -> Xgesvd fallbacks
  "$example_bin" 2>&1 | tail -3 | tee "$out/linalg2_example.log"
fi
if has memcheck; then
  # the Jacobi SVD kernel's forms, the NaN / singular paths, getriBatched, the LU paths, the
  # one-kernel work copies and the blocked LU's panel kernel
  timeout 180 compute-sanitizer --tool memcheck "$tests_bin" --gtest_brief=1 \
    --gtest_filter='LinalgSolversGpu.SvdJacobiForms:LinalgSolversGpu.EmptyAndErrors:LinalgSolversGpu.SolveAndInvAllPaths:LinalgSolversGpu.WorkCopies:LinalgSolversGpu.BlockedLuMatchesXgetrf' \
    > "$out/linalg2_memcheck.log" 2>&1
  echo "memcheck exit: $?"; tail -5 "$out/linalg2_memcheck.log"
fi
if has paths; then
  # shellcheck disable=SC2086
  timeout 240 "$paths_bin" solvers ${LINALG2_PATHS:-} > "$out/linalg2_paths.log" 2>&1
  echo "paths exit: $?"; cat "$out/linalg2_paths.log"
  # The LU stacks again with other side-stream counts (LINALG2_STREAMS="4 32", default none).
  for lanes in ${LINALG2_STREAMS:-}; do
    CUPP_LINALG_STREAMS=$lanes timeout 120 "$paths_bin" solvers lu 2>&1 | grep -E "_(streams|streams_alg1|auto)_ms" | sed "s/^/streams=$lanes /" |
      tee -a "$out/linalg2_paths.log"
  done
fi
if has bench; then
  # The linalg part 2 cases of the merged table, with warmup 1 and LINALG2_REPS repetitions.
  python3 - "$root/generated/bench/cases.json" "$out/linalg2_cases.json" "${LINALG2_BENCH:-}" "${LINALG2_REPS:-3}" <<'EOF'
import json, sys
src, dst, only, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
table = json.load(open(src))
ops = ("svd", "eigh", "solve", "inv", "cholesky")
cases = [c for c in table["cases"] if c.get("kind") == "linalg" and c.get("op") in ops and "_float64_" in c["name"]]
if only:
    names = set(only.split(","))
    cases = [c for c in cases if c["name"] in names]
table["cases"] = cases
table["settings"].update(warmup=1, reps=reps)
json.dump(table, open(dst, "w"), indent=1)
print("bench cases:", ",".join(c["name"] for c in cases))
EOF
  names=$(python3 -c "import json,sys; print(','.join(c['name'] for c in json.load(open(sys.argv[1]))['cases']))" "$out/linalg2_cases.json")
  mkdir -p "$out/bench"
  # LINALG2_BENCH_ENV (e.g. "CUPP_LINALG_LU=blocked"): path variables for cupp's side of this phase only
  echo "bench env: ${LINALG2_BENCH_ENV:-(none)}"
  # shellcheck disable=SC2086
  env ${LINALG2_BENCH_ENV:-} timeout 480 python3 "$root/bench/compare.py" --cupp "$bench_bin" --cases "$out/linalg2_cases.json" \
    --only "$names" --out "$out/bench" --side-timeout 300 > "$out/linalg2_bench.log" 2>&1
  echo "bench exit: $?"
  cat "$out/linalg2_bench.log" | tail -40
fi
if [ -f bins.tar.xz ]; then rm -f cupp_gpu_tests cupp_example_linalg_solvers cupp_bench; fi
