#!/usr/bin/env bash
# linalg part 2's GPU checks (issue 25) from a staged folder .gpu-linalg2/ (ignored).
# Restage (on the build machine, from /work/main, once cupp_gpu_tests links again):
#   flock /tmp/cupp-build.lock env CCACHE_BASEDIR=/work cmake --build build --target cupp_gpu_tests -- -k 0
#   cp build/tests/cupp_gpu_tests .gpu-linalg2/ && strip .gpu-linalg2/cupp_gpu_tests
#   cmake --build build --target cupp_example_linalg_solvers (under the same lock); cp build/tests/cupp_example_linalg_solvers .gpu-linalg2/ && strip it
#   cp tests/conformance/routine_ref.py tests/conformance/make_linalg_solvers_ref.py .gpu-linalg2/
#   du -sh .gpu-linalg2   (must stay well under 64 MiB with the rest of the tree)
# Run (device tool): command "bash .gpu-linalg2/run.sh", carry [".gpu-linalg2"], timeout_s 240.
# It remakes the linalg_solvers reference set there (NumPy 2.5; SciPy if present, else the SciPy
# cases are left out and the script says so), runs LinalgSolversGpu.* and
# EvalRefGpu/Families.AgreeWithNumPy/linalg_solvers, then a 50 s memcheck of three solver tests.
# Logs: $OUT/linalg2_tests.log, $OUT/linalg2_memcheck.log.
#   cp linalg/bench/gpu-run-solvers.sh .gpu-linalg2/run.sh
# linalg part 2 (issue 25) GPU checks: the solver property tests (LinalgSolversGpu.*), the
# linalg_solvers NumPy/SciPy reference set through cupp eval's engine (made here with NumPy 2.5 by
# make_linalg_solvers_ref.py), then a short memcheck. Run from the repository root on the GPU
# machine with carry [".gpu-linalg2"]; logs under $OUT.
export LD_LIBRARY_PATH=/usr/local/cuda/lib64
out=${OUT:-/tmp}
cd .gpu-linalg2
mkdir -p conformance
python3 -c "import numpy, sys; print('numpy', numpy.__version__)"; python3 -c "import scipy; print('scipy', scipy.__version__)" 2>&1 | tail -1
python3 make_linalg_solvers_ref.py conformance/linalg_solvers-ref 2>&1 | tail -3
export CUPP_TEST_CONFORMANCE_DIR=$PWD/conformance
timeout 150 ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='LinalgSolversGpu.*:EvalRefGpu/Families.AgreeWithNumPy/linalg_solvers' > "$out/linalg2_tests.log" 2>&1
echo "tests exit: $?"
grep -E "^\[ linalg_solvers \]|FAILED|PASSED|tests ran" "$out/linalg2_tests.log" | tail -20
# the failed reference cases, by routine
grep -oE "linalg_solvers/[a-z_]+[a-z]_(f4|f8|c8|c16|i4|i8|u1|b1|f2|[a-z0-9]+)" "$out/linalg2_tests.log" | \
  sed -E 's/_(f4|f8|c8|c16|i4|i8|u1|b1|f2)$//' | sort | uniq -c | sort -rn | head -40
grep -E "linalg_solvers/" "$out/linalg2_tests.log" | cut -c1-300 | head -60
grep -B2 -A12 "LinalgSolversGpu.*FAILED\|Failure" "$out/linalg2_tests.log" | grep -v "linalg_solvers/" | cut -c1-300 | head -60
./cupp_example_linalg_solvers 2>&1 | tail -3 | tee "$out/linalg2_example.log"
timeout 50 compute-sanitizer --tool memcheck ./cupp_gpu_tests --gtest_brief=1 \
  --gtest_filter='LinalgSolversGpu.SolveAndInvAllPaths:LinalgSolversGpu.Cholesky:LinalgSolversGpu.Svd' > "$out/linalg2_memcheck.log" 2>&1
echo "memcheck exit: $?"; tail -5 "$out/linalg2_memcheck.log"
