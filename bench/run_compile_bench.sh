#!/usr/bin/env bash
# Compile-latency comparison, cupp vs CuPy in the same run (GPU machine). For each side: REPS
# fresh processes with an empty kernel cache (cold), then REPS fresh processes with the cache
# that the cold runs filled (warm); medians of each figure. Then cupp's in-memory hit.
#   usage: run_compile_bench.sh CUPP_BENCH_COMPILE [REPS]
set -euo pipefail
exe=$1
reps=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

run_side() {  # side cache_mode
  local side=$1 mode=$2 i out
  for i in $(seq "$reps"); do
    if [ "$mode" = cold ]; then rm -rf "$work/$side"; fi
    mkdir -p "$work/$side"
    if [ "$side" = cupp ]; then
      out=$(CUPP_CACHE_DIR=$work/cupp "$exe" first "$(date +%s%N)")
    else
      out=$(CUPY_CACHE_DIR=$work/cupy python3 "$here/compile_cupy.py" "$(date +%s%N)")
    fi
    echo "$out" | grep -q '^correct 1' || { echo "$side $mode: wrong result: $out" >&2; exit 1; }
    echo "$out" >> "$work/$side-$mode.txt"
  done
  for key in first_call_ms process_start_to_result_ms context_ready_ms; do
    printf '%-6s %-5s %-28s %10.3f\n' "$side" "$mode" "$key" "$(grep "^$key " "$work/$side-$mode.txt" | awk '{print $2}' | median)"
  done
}

echo "median of $reps fresh processes each (ms)"
for side in cupp cupy; do
  run_side "$side" cold
  run_side "$side" warm
done
"$exe" hit
# The floor: a program without cupp that only creates the CUDA context.
floor=$(dirname "$exe")/cupp_bench_context
if [ -x "$floor" ]; then
  for i in $(seq "$reps"); do "$floor" "$(date +%s%N)"; done > "$work/floor.txt"
  for key in main_entered_ms context_ready_ms; do
    printf '%-6s %-5s %-28s %10.3f\n' floor - "$key" "$(grep "^$key " "$work/floor.txt" | awk '{print $2}' | median)"
  done
fi
