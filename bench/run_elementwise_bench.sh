#!/usr/bin/env bash
# Element-wise benchmark, cupp next to CuPy and PyTorch in the same run (GPU machine): runs each
# side over the one table of cases (elementwise_cases.json beside this script), then merges their
# JSON lines into one comparison table. A side that cannot run (no CuPy, no torch) says so and
# is left out of the table; extra arguments (--only NAME,..., --reps N) go to every side.
#   usage: run_elementwise_bench.sh CUPP_BENCH_ELEMENTWISE [--only NAMES] [--reps N]
# Writes the JSON lines to $OUT (or a temporary folder) as elementwise-<side>.jsonl.
set -uo pipefail
exe=${1:?usage: run_elementwise_bench.sh CUPP_BENCH_ELEMENTWISE [--only NAMES] [--reps N]}
shift
here=$(cd "$(dirname "$0")" && pwd)
cases=$here/elementwise_cases.json
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
py=$(command -v python3)

"$exe" --cases "$cases" "$@" > "$out/elementwise-cupp.jsonl"
echo "cupp side exit: $?" >&2
(cd "$here" && "$py" elementwise_cupy.py --cases "$cases" "$@") > "$out/elementwise-cupy.jsonl"
echo "cupy side exit: $?" >&2
(cd "$here" && "$py" elementwise_torch.py --cases "$cases" "$@") > "$out/elementwise-torch.jsonl"
echo "torch side exit: $?" >&2
"$py" "$here/merge_elementwise.py" "$cases" "$out"/elementwise-{cupp,cupy,torch}.jsonl | tee "$out/elementwise-table.txt"
exit "${PIPESTATUS[0]}"
