#!/usr/bin/env python3
"""What `cupp ops` says about every routine, in one text file, for comparing a change's before
and after (issue 23: the routine tables and bindings move into specs/routines/ and must say the
same). The file holds `cupp ops` (the op list and every routine family's table), then, for each
routine name the tables list, `cupp ops NAME`.

usage: ops_snapshot.py CUPP OUT.txt           write the snapshot of the cupp tool CUPP
       ops_snapshot.py --diff BEFORE AFTER    print what changed, routine by routine (exit 1 if any)

--diff takes the listing as a set of lines (the order of families may change) and, for each
routine, prints the lines BEFORE has that AFTER lacks or words differently, and counts the lines
only AFTER has (additions: a new "C++:" or "cupp eval:" line is not a change of meaning)."""
import re
import subprocess
import sys

FAMILY_LINE = re.compile(r"^(\d+) (\w+) routines$")


def run(cupp, *args):
    p = subprocess.run([cupp, "ops", *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"ops_snapshot: `cupp ops {' '.join(args)}` exited {p.returncode}: {p.stderr.strip()[-300:]}")
    return p.stdout


def routine_names(listing):
    """The routine names of the family tables of `cupp ops` (the first word of each table row)."""
    names, left = [], 0
    for line in listing.splitlines():
        m = FAMILY_LINE.match(line)
        if m:
            left = int(m.group(1))
            continue
        if left > 0:
            names.append(line.split()[0])
            left -= 1
    return names


def sections(text):
    """routine name -> its `cupp ops NAME` text; "(listing)" -> the whole listing."""
    out, name, lines = {}, "(listing)", []
    for line in text.splitlines():
        if line.startswith("==== cupp ops "):
            out[name] = lines
            name, lines = line[len("==== cupp ops "):], []
        else:
            lines.append(line)
    out[name] = lines
    return out


def main(argv):
    if len(argv) == 3 and argv[0] == "--diff":
        before, after = (sections(open(p).read()) for p in argv[1:])
        changed = added = 0
        for name in list(before) + [n for n in after if n not in before]:
            a, b = before.get(name), after.get(name)
            if a is None or b is None:
                print(f"{name}: {'added' if a is None else 'gone'}")
                changed += 1
                continue
            if name == "(listing)":
                a, b = sorted(a), sorted(b)
            lost = [line for line in a if line not in b]
            new = [line for line in b if line not in a]
            added += len(new)
            if lost:
                changed += 1
                print(f"{name}:")
                for line in lost:
                    print(f"  - {line}")
                for line in new:
                    print(f"  + {line}")
        print(f"ops_snapshot: {changed} of {len(set(before) | set(after))} sections lost or reworded a line; "
              f"{added} lines added in all")
        return 1 if changed else 0
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    cupp, out = argv
    listing = run(cupp)
    names = routine_names(listing)
    with open(out, "w") as f:
        f.write(listing)
        for name in names:
            f.write(f"==== cupp ops {name}\n")
            f.write(run(cupp, name))
    print(f"ops_snapshot: {len(names)} routines -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
