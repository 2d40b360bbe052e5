#!/usr/bin/env bash
# The harness test, on the GPU machine: a cupp result broken on purpose (CUPP_BENCH_BREAK
# overwrites the last element of add_float32's and sum_float32's results after cupp's own
# check) must be caught by compare.py's check against CuPy: both rows say mismatch and compare.py
# exits non-zero. The same cases unbroken must pass the check (exit 0).
#   usage: bench/test_compare.sh CUPP_BENCH      (CuPy must be importable)
set -uo pipefail
exe=${1:?usage: test_compare.sh CUPP_BENCH}
here=$(cd "$(dirname "$0")" && pwd)
py=$(command -v python3)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cases=add_float32,sum_float32
fail=0

CUPP_BENCH_BREAK=$cases "$py" "$here/compare.py" --cupp "$exe" --only "$cases" --reps 3 --out "$work/broken" \
  > "$work/broken.txt" 2> "$work/broken.err"
rc=$?
cat "$work/broken.txt"
if [ "$rc" -eq 0 ]; then
  echo "test_compare: FAIL: compare.py exited 0 on a broken cupp result"; fail=1
fi
for c in ${cases//,/ }; do
  if ! "$py" -c 'import json, sys; rows = {r["case"]: r for r in json.load(open(sys.argv[1]))["rows"]}
sys.exit(0 if rows[sys.argv[2]]["check"] == "mismatch" else 1)' "$work/broken/bench-results.json" "$c"; then
    echo "test_compare: FAIL: $c broken, but compare.py did not report a mismatch"; fail=1
  fi
done
grep -q "MISMATCH vs CuPy" "$work/broken.txt" || { echo "test_compare: FAIL: no MISMATCH line"; fail=1; }

"$py" "$here/compare.py" --cupp "$exe" --only "$cases" --reps 3 --out "$work/clean" > "$work/clean.txt" 2> "$work/clean.err"
rc=$?
if [ "$rc" -ne 0 ]; then
  cat "$work/clean.txt"; tail -20 "$work/clean.err"
  echo "test_compare: FAIL: compare.py exited $rc on cupp's unbroken results"; fail=1
fi
[ "$fail" -eq 0 ] && echo "test_compare: ok (the broken results were caught; the unbroken ones pass)"
exit "$fail"
