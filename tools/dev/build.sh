#!/usr/bin/env bash
# Developer build: configures BUILD_DIR once (Ninja, ccache) and builds the given targets (all
# by default). Builds are serialised through a lock, since the machine has 2 cores and several
# sessions may share it.
#   usage: tools/dev/build.sh [BUILD_DIR] [TARGET...] [-- cmake --build options]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${1:-$root/build}
shift || true
args=()
for a in "$@"; do
  case $a in
    -*) args+=("$a") ;;
    *) args+=(--target "$a") ;;
  esac
done
py=$(command -v /usr/bin/python3 || command -v python3)
exec flock /tmp/cupp-build.lock bash -c '
  set -euo pipefail
  d=$1 root=$2 py=$3
  shift 3
  if [ ! -f "$d/CMakeCache.txt" ]; then
    cmake -S "$root" -B "$d" -G Ninja -DPython3_EXECUTABLE="$py" >/dev/null
  fi
  cmake --build "$d" "$@"
' _ "$dir" "$root" "$py" "${args[@]}"
