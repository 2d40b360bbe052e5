#!/bin/sh
# `cupp cache` end to end without a GPU: warm two ops into an empty directory, warm again (all
# cached), warm one with the built-in kernels turned off, warm every op (so that, with the
# 32-bit-index programs compiled into the library by the build, CI compiles every loop of every
# built-in op in both index widths for sm_90 once, and fails on any error), info, clear, info.
# Built with -DCUPP_AOT_KERNELS=OFF, nothing is built in and warm compiles both widths.
# usage: check_cupp_cache.sh CUPP_PROGRAM CACHE_DIR
set -eu
cupp=$1
export CUPP_CACHE_DIR=$2
unset CUPP_CACHE_IN_MEMORY CUPP_CACHE_MAX_BYTES 2>/dev/null || true
rm -rf "$CUPP_CACHE_DIR"
expect() {  # expect PATTERN COMMAND...: runs the command, which must succeed and print PATTERN
  pattern=$1
  shift
  out=$("$@") || { echo "FAIL: $* exited with $?"; echo "$out"; exit 1; }
  echo "$out"
  echo "$out" | grep -Eq "$pattern" || { echo "FAIL: '$*' did not print /$pattern/"; exit 1; }
}
expect '(4 compiled, 0 already cached, 0|2 compiled, 0 already cached, 2) built into the library, 0 failed' \
  "$cupp" cache warm add multiply
expect '0 compiled, (4 already cached, 0|2 already cached, 2) built into the library, 0 failed' "$cupp" cache warm multiply add
expect 'entries: +(4|2) ' "$cupp" cache info
expect 'built-in kernels +([0-9]+ programs for sm_[0-9]+|none \(built with -DCUPP_AOT_KERNELS=OFF\))' "$cupp" info
expect '(0 compiled, 2|1 compiled, 1) already cached, 0 built into the library, 0 failed' \
  env CUPP_BUILTIN_KERNELS=0 "$cupp" cache warm add
expect ' (4|2) already cached, (0|[0-9]+) built into the library, 0 failed' "$cupp" cache warm
expect 'removed [0-9]+ files' "$cupp" cache clear
expect 'entries: +0 ' "$cupp" cache
if "$cupp" cache warm no_such_op >/dev/null 2>&1; then echo "FAIL: unknown op accepted"; exit 1; fi
rm -rf "$CUPP_CACHE_DIR"
echo PASS
