#!/usr/bin/env python3
"""Every routine `cupp ops` lists has the `cupp eval` binding its spec says (`cupp ops NAME`'s
"cupp eval:" line): a generated or hand one must answer `cupp eval 'NAME()'` from the binder
(missing argument), one marked none (no_eval) must fall through to the ufunc lookup, which finds
none ("cupp eval has no function 'NAME'"; "cupp has no ufunc" before cupp eval said so). Needs no
GPU: binding errors come before any array is made.

usage: check_eval_bindings.py CUPP"""
import concurrent.futures
import os
import re
import subprocess
import sys

FAMILY_LINE = re.compile(r"^(\d+) (\w+) routines$")


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    cupp = argv[0]
    listing = subprocess.run([cupp, "ops"], capture_output=True, text=True, check=True).stdout
    names, left = [], 0
    for line in listing.splitlines():
        m = FAMILY_LINE.match(line)
        if m:
            left = int(m.group(1))
        elif left:
            names.append(line.split()[0])
            left -= 1
    if len(names) < 100:
        print(f"check_eval_bindings: only {len(names)} routines listed by `cupp ops`", file=sys.stderr)
        return 1

    def check(name):
        """What is wrong with `name`'s binding, or None (two processes: independent of the others)."""
        p = subprocess.run([cupp, "eval", f"{name}()", "-o", "/dev/null"], capture_output=True, text=True)
        falls_through = "cupp eval has no function" in p.stderr or "has no ufunc" in p.stderr
        entry = subprocess.run([cupp, "ops", name], capture_output=True, text=True, check=True).stdout
        said = re.search(r"^  cupp eval: (\w+)", entry, re.M)
        if said is None:
            return f"{name}: `cupp ops {name}` has no 'cupp eval:' line"
        if falls_through != (said.group(1) == "none"):
            return f"{name}: {p.stderr.strip()[:160]}"
        return None

    # Hundreds of short processes: run a few at once (their start-up is most of the time).
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, min(8, os.cpu_count() or 2))) as pool:
        unbound = [u for u in pool.map(check, names) if u]
    for u in unbound:
        print("check_eval_bindings:", u, file=sys.stderr)
    print(f"check_eval_bindings: {len(names) - len(unbound)} of {len(names)} routines bound as expected")
    return 1 if unbound else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
