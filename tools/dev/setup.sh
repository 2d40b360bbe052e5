# Shared setup of tools/run-demo.sh and tools/run-tests.sh (sourced, not run): installs the
# Debian packages cupp needs when one is missing (apt-get, as root or through sudo), checks for
# the CUDA toolkit, configures a build directory (Ninja, ccache when present, Debian's python3
# for codegen) and builds. Every step is idempotent: a second run installs nothing and rebuilds
# only what changed.

CUPP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# The Debian packages to install: tools/dev/packages.txt, one a line (the one list; README.md's
# copy is checked against it by the CTest entry fresh_machine_packages).
mapfile -t CUPP_PACKAGES < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$CUPP_ROOT/tools/dev/packages.txt")
# Debian's python3-jinja2 and python3-yaml install into the system interpreter.
CUPP_PYTHON=/usr/bin/python3

cupp_log() { printf '==> %s\n' "$*" >&2; }
cupp_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Installs the packages of CUPP_PACKAGES that are missing; nothing when all are there.
cupp_install_packages() {
  local missing=() p
  command -v dpkg-query >/dev/null || cupp_die "dpkg-query not found: these scripts expect Debian (or a derivative)"
  for p in "${CUPP_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    cupp_log "Debian packages: all present"
    return 0
  fi
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || cupp_die "missing packages ${missing[*]}: run as root or install sudo"
    sudo=(sudo)
  fi
  cupp_log "installing missing Debian packages: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# True when $1 is a CUDA toolkit (headers and the static runtime).
cupp_is_toolkit() {
  [ -e "$1/include/cuda_runtime.h" ] && ls "$1"/lib*/libcudart_static.a >/dev/null 2>&1
}

# The CUDA toolkit (13.x) cannot come from Debian: find it and say where. CUDA_PATH wins; else
# the toolkit holding nvcc on PATH (symlinks followed; a wrapper script such as
# /usr/local/bin/nvcc has no toolkit beside it and is passed over); else /usr/local/cuda.
cupp_check_cuda() {
  local root=${CUDA_PATH:-} candidates=() nvcc c
  if [ -z "$root" ]; then
    if nvcc=$(command -v nvcc); then
      candidates+=("$(dirname "$(dirname "$nvcc")")" "$(dirname "$(dirname "$(readlink -f "$nvcc")")")")
    fi
    candidates+=(/usr/local/cuda)
    for c in "${candidates[@]}"; do
      if cupp_is_toolkit "$c"; then root=$c; break; fi
    done
  fi
  if [ -z "$root" ] || ! cupp_is_toolkit "$root"; then
    cupp_die "CUDA toolkit 13 not found (looked at ${root:-${candidates[*]}}; set CUDA_PATH, or install it under /usr/local/cuda)"
  fi
  cupp_log "CUDA toolkit: $root"
  export CUDAToolkit_ROOT=$root
}

# Runs "$@" under the lock that serialises builds on a shared machine (when flock exists).
cupp_locked() {
  if command -v flock >/dev/null; then flock /tmp/cupp-build.lock "$@"; else "$@"; fi
}

# cupp_configure BUILD_DIR: configures once; later runs reuse the cache (CMake re-runs itself
# when a CMakeLists.txt changes).
cupp_configure() {
  local dir=$1
  if [ -f "$dir/CMakeCache.txt" ] && [ -f "$dir/build.ninja" ]; then
    cupp_log "build directory $dir already configured"
    return 0
  fi
  cupp_log "configuring $dir"
  cupp_locked cmake -S "$CUPP_ROOT" -B "$dir" -G Ninja -DPython3_EXECUTABLE="$CUPP_PYTHON"
}

# cupp_build BUILD_DIR [TARGET...]
cupp_build() {
  local dir=$1
  shift
  local targets=()
  [ $# -gt 0 ] && targets=(--target "$@")
  cupp_log "building ${*:-everything} in $dir"
  cupp_locked cmake --build "$dir" "${targets[@]}"
}

# Parses the scripts' common arguments: [BUILD_DIR] (default: build/ in the source tree, or
# $CUPP_BUILD_DIR). Sets CUPP_BUILD.
cupp_parse_args() {
  case "${1:-}" in
    -h|--help) sed -n '2,/^set -/p' "$0" | sed -n 's/^# \{0,1\}//p'; exit 0 ;;
  esac
  CUPP_BUILD=${1:-${CUPP_BUILD_DIR:-$CUPP_ROOT/build}}
  case "$CUPP_BUILD" in /*) ;; *) CUPP_BUILD=$PWD/$CUPP_BUILD ;; esac
}
