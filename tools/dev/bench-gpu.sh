#!/usr/bin/env bash
# The whole benchmark comparison as one device call: builds cupp's benchmark programs here,
# stages only what the comparison needs into .bench-gpu/ (ignored by git; stripped programs, the
# table of cases and the Python sides, checked to stay under the 64 MiB a call can carry) and
# prints the device call. On the GPU machine .bench-gpu/run.sh runs bench/compare.py (cupp, CuPy
# and PyTorch over the merged table, generated/bench/cases.json; cupp's results checked against
# CuPy's) and writes the table and bench-results.json to $OUT; `run.sh test` runs bench/test_compare.sh (a broken cupp result
# must be caught). Extra arguments of run.sh (--only NAMES, --reps N) go to compare.py.
#   usage: tools/dev/bench-gpu.sh [BUILD_DIR]        (default: build/)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$root/build}
stage=$root/.bench-gpu
targets=(cupp_bench cupp_bench_compile cupp_bench_context)
"$root/tools/dev/build.sh" "$build" "${targets[@]}"
rm -rf "$stage"
mkdir -p "$stage"
for t in "${targets[@]}"; do
  cp "$build/bench/$t" "$stage/"
  strip "$stage/$t"
done
cp "$root/generated/bench/cases.json" "$stage/cases.json"  # the merged table (codegen)
for f in compare.py side_common.py side_cupy.py side_torch.py compile_cupy.py test_compare.sh; do
  cp "$root/bench/$f" "$stage/"
done
cat > "$stage/run.sh" <<'RUN'
#!/usr/bin/env bash
# On the GPU machine: cupp next to CuPy and PyTorch over cases.json, one table (bench/compare.py).
#   bash .bench-gpu/run.sh [--only NAMES] [--reps N]     the comparison; table + JSON to $OUT
#   bash .bench-gpu/run.sh test                           the harness test (bench/test_compare.sh)
set -uo pipefail
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
cd "$(dirname "$0")"
OUT=${OUT:-/tmp/bench-out}; mkdir -p "$OUT"
start=$SECONDS
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1
if [ "${1:-}" = test ]; then
  bash ./test_compare.sh ./cupp_bench; rc=$?
else
  python3 compare.py --cupp ./cupp_bench --out "$OUT" --markdown "$OUT/performance-table.md" "$@" \
    2> >(tee "$OUT/compare-stderr.log" | grep -E '^compare:' >&2); rc=$?
  rm -rf "$OUT"/samples-*  # read by the check above; not worth carrying back
fi
echo "run.sh: exit $rc after $((SECONDS - start)) s"
exit "$rc"
RUN
chmod +x "$stage/run.sh" "$stage/test_compare.sh"
bytes=$(du -sb "$stage" | cut -f1)
limit=$((64 * 1024 * 1024))
if [ "$bytes" -ge "$limit" ]; then
  echo "bench-gpu: $stage is $bytes bytes, over the 64 MiB a device call carries" >&2
  exit 1
fi
echo "bench-gpu: staged $stage ($((bytes / 1024)) KiB of 64 MiB): $(cd "$stage" && ls | tr '\n' ' ')"
echo "the whole comparison, one device call (table on stdout; table.md, bench-results.json under \$OUT):"
echo '  run(command="bash .bench-gpu/run.sh", carry=[".bench-gpu"], kind="nvidia-h200")'
echo "the harness test (a broken cupp result must be caught):"
echo '  run(command="bash .bench-gpu/run.sh test", carry=[".bench-gpu"], kind="nvidia-h200")'
