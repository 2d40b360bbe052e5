#!/usr/bin/env bash
# Starts every executable the project builds, to prove each one starts on a machine without
# an NVIDIA driver: none may depend on libcuda.so (directly or through another library), and
# each must run its smoke command. Reads a list file: one "path|args|strict" per line;
# strict=1 requires exit 0, strict=0 only requires that it started (the loader found every
# library: no exit 127, no crash by signal).   usage: start_executables.sh LIST_FILE
set -uo pipefail
list=$1
fail=0
count=0
while IFS='|' read -r exe args strict; do
  [ -z "$exe" ] && continue
  count=$((count + 1))
  name=$(basename "$exe")
  if [ ! -x "$exe" ]; then
    echo "FAIL $name: $exe not built"; fail=1; continue
  fi
  if ldd "$exe" | grep -q 'libcuda\.so'; then
    echo "FAIL $name: depends on libcuda.so:"; ldd "$exe" | grep 'libcuda\.so'; fail=1; continue
  fi
  # shellcheck disable=SC2086  # args are split on purpose
  out=$("$exe" $args 2>&1 </dev/null)
  rc=$?
  if [ "$rc" -eq 127 ] || [ "$rc" -ge 128 ] || { [ "$strict" = 1 ] && [ "$rc" -ne 0 ]; }; then
    echo "FAIL $name $args: exit $rc"; echo "$out" | tail -20; fail=1; continue
  fi
  echo "ok   $name $args (exit $rc)"
done < "$list"
if [ "$count" -eq 0 ]; then echo "no executables listed"; exit 1; fi
exit $fail
