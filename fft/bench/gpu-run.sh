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
# then run(command="bash .gpu-fft/run.sh", carry=[".gpu-fft"], timeout_s=240).
# On the GPU machine (from the repository root): the fft module's checks in one call.
# (FFT_SKIP_MEMCHECK=1 bash .gpu-fft/run.sh leaves out step 3's memcheck, 40 s at most.)
# 1. layouts: the raw cuFFT study (fft/bench/layouts.cu): axis-0 variants, norm callback vs pass.
# 2. the NumPy reference cases, made here by tests/conformance/make_fft_ref.py (NumPy 2.5.2).
# 3. cupp_gpu_tests: FftGpu*, FftCallbacksGpu*, FftNormGpu*, the fft family's reference cases
#    (default engine, then norm callback + column tiles forced), memcheck of FftNormGpu.
# 4. the fft bench cases next to CuPy and PyTorch (bench/compare.py --only ...).
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
OUT=${OUT:-/tmp/fft-out}; mkdir -p "$OUT"
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
step() { echo "== $1 ($((SECONDS - start)) s)"; }
step layouts
timeout 60 "$here/layouts" > "$OUT/layouts.log" 2>&1; echo "layouts rc $?"; cat "$OUT/layouts.log"
step reference-data
conf=/tmp/fft-conformance; rm -rf "$conf"; mkdir -p "$conf"
timeout 60 python3 "$root/tests/conformance/make_fft_ref.py" "$conf/fft-ref" > "$OUT/make_ref.log" 2>&1; echo "make_fft_ref rc $?"
export CUPP_TEST_CONFORMANCE_DIR=$conf CUPP_TEST_SOURCE_DIR=$root
step tests
filter='FftGpu*:FftCallbacksGpu*:FftNormGpu*:EvalRefGpu/Families.AgreeWithNumPy/fft:EvalRefGpu.FftNormInStoreCallbackAndColumnTiles'
timeout 100 "$here/cupp_gpu_tests" --gtest_filter="$filter" > "$OUT/tests.log" 2>&1; echo "tests rc $?"
grep -E "^\[ +(OK|FAILED|PASSED|SKIPPED) |^\[ fft \]|Failure|fft/" "$OUT/tests.log" | head -60
step memcheck
[ "${FFT_SKIP_MEMCHECK:-0}" = 1 ] || timeout 40 compute-sanitizer --tool memcheck --leak-check no "$here/cupp_gpu_tests" --gtest_filter='FftNormGpu.StoreCallback*:FftNormGpu.Column*' \
  > "$OUT/memcheck.log" 2>&1; echo "memcheck rc $?"; grep -E "ERROR SUMMARY|PASSED|FAILED" "$OUT/memcheck.log" | head -5
step bench
left=$((235 - (SECONDS - start))); [ "$left" -lt 30 ] && left=30
cd "$here/bench" && timeout "$left" python3 compare.py --cupp ./cupp_bench --out "$OUT" \
  --only fft_complex64_2p24,fft2_complex64_4096sq,rfft_float32_2p24,fft_complex64_4096sq_rows,fft_complex64_4096sq_axis0,fft_complex64_4096sq_axis0_ortho,fft_complex64_4096sq_rows_ortho,ifft_complex64_4096sq_rows,fft_complex64_2p24_ortho \
  --markdown "$OUT/fft-table.md" > "$OUT/bench.log" 2>&1; echo "bench rc $?"; cat "$OUT/bench.log" | tail -30
rm -rf "$OUT"/samples-*
step done
