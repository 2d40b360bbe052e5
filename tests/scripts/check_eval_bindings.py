#!/usr/bin/env python3
"""Every routine `cupp ops` lists has the `cupp eval` binding its spec says (`cupp ops NAME`'s
"cupp eval:" line): a generated or hand one must answer `cupp eval 'NAME()'` from the binder
(missing argument), one marked none (no_eval) must fall through to the ufunc lookup, which finds
none ("cupp eval has no function 'NAME'"; "cupp has no ufunc" before cupp eval said so). Needs no
GPU: binding errors come before any array is made.

usage: check_eval_bindings.py CUPP"""
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
    unbound = []
    for name in names:
        p = subprocess.run([cupp, "eval", f"{name}()", "-o", "/dev/null"], capture_output=True, text=True)
        falls_through = "cupp eval has no function" in p.stderr or "has no ufunc" in p.stderr
        entry = subprocess.run([cupp, "ops", name], capture_output=True, text=True, check=True).stdout
        said = re.search(r"^  cupp eval: (\w+)", entry, re.M)
        if said is None:
            unbound.append(f"{name}: `cupp ops {name}` has no 'cupp eval:' line")
            continue
        if falls_through != (said.group(1) == "none"):
            unbound.append(f"{name}: {p.stderr.strip()[:160]}")
    for u in unbound:
        print("check_eval_bindings:", u, file=sys.stderr)
    print(f"check_eval_bindings: {len(names) - len(unbound)} of {len(names)} routines bound as expected")
    return 1 if unbound else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
