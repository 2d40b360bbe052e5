#!/usr/bin/env bash
# The cold-start comparison (issue 30), on the GPU machine: cupp's script (cupp_bench_cold_start)
# and CuPy's (cold_start_cupy.py), each in fresh processes, three times with an empty kernel cache
# (cold) and three times with the cache the first run left (warm). With CUPP_LOG_COMPILES=1 the
# first cold run's compile lines go to $OUT/cold_start_compiles.log (where the seconds go).
# usage: run.sh CUPP_BENCH_COLD_START [COLD_START_CUPY_PY]
set -uo pipefail
exe=$1 py=${2:-$(dirname "$0")/cold_start_cupy.py}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
cache=$(mktemp -d) cupy_cache=$(mktemp -d)
for i in 1 2 3; do
  rm -rf "$cache"/*
  if [ $i = 1 ]; then
    CUPP_LOG_COMPILES=1 CUPP_CACHE_DIR=$cache "$exe" 2> "$OUT/cold_start_compiles.log" | sed 's/^/cupp cold: /'
  else
    CUPP_CACHE_DIR=$cache "$exe" | sed 's/^/cupp cold: /'
  fi
done
for i in 1 2 3; do CUPP_CACHE_DIR=$cache "$exe" | sed 's/^/cupp warm: /'; done
if python3 -c "import cupy" 2>/dev/null; then
  for i in 1 2 3; do rm -rf "$cupy_cache"/*; CUPY_CACHE_DIR=$cupy_cache python3 "$py" | sed 's/^/cupy cold: /'; done
  for i in 1 2 3; do CUPY_CACHE_DIR=$cupy_cache python3 "$py" | sed 's/^/cupy warm: /'; done
fi
# The slowest programs of the first cold run.
sed -n 's/^cupp: compile \([^:]*\): \([0-9.]*\) ms.*/\2 ms \1/p' "$OUT/cold_start_compiles.log" | sort -g -r | head -12 |
  sed 's/^/slowest compile: /'
awk '/^cupp: compile/ {n++; s += $4} END {printf "compiles logged: %d, %.0f ms in all\n", n, s}' "$OUT/cold_start_compiles.log"
rm -rf "$cache" "$cupy_cache"
