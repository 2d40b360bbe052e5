#!/usr/bin/env bash
# Developer build: configures BUILD_DIR once (Ninja, ccache) and builds the given targets (all
# by default). Builds are serialised through a lock, since the machine has 2 cores and several
# sessions may share it.   usage: tools/dev/build.sh [BUILD_DIR] [cmake --build args...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
dir=${1:-$root/build}
shift || true
py=$(command -v /usr/bin/python3 || command -v python3)
exec flock /tmp/cupp-build.lock bash -c '
  set -euo pipefail
  d=$1
  if [ ! -f "$d/CMakeCache.txt" ]; then
    cmake -S "$2" -B "$1" -G Ninja -DPython3_EXECUTABLE="$3" >/dev/null
  fi
  shift 3
  cmake --build "$d" "$@"
' _ "$dir" "$root" "$py" "$@"
