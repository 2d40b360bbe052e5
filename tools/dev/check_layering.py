#!/usr/bin/env python3
"""Checks the runtime's layout rules (CTest entry runtime_layering); prints every breach.

  1. The folders of runtime/src include each other without a cycle (core, cuda, compiler,
     array, loader, io, accel, engine, routines: each uses only folders before it in that data
     flow); a folder's files may include each other freely.
  2. Device code lives in device files: no `__global__` in a host file under runtime/ except the
     kernel composer's template line (runtime/src/engine/kernel_composer.cpp), which writes the
     signature of every composed kernel.
  3. No file under runtime/src passes MAX_LINES lines: a file that does has more than one job.
  4. Nothing outside runtime/ names runtime/src as an include directory: modules, tools, benches
     and tests link cupp::core_internal (the sanitizer builds, which compile runtime sources
     themselves, use its folder through CUPP_CORE_INTERNAL_DIR).

PENDING lists the breaches of rules 2 and 3 that are known and being removed (issue 22); a
listed file that no longer breaches is reported too, so the list only shrinks.

usage: check_layering.py [--root DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

MAX_LINES = 900
COMPOSER = "runtime/src/engine/kernel_composer.cpp"

# Known breaches being removed, by rule: file -> what remains to do.
PENDING = {
    "global": {
    },
    "lines": {
    },
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
HOST_SUFFIXES = (".cpp", ".hpp", ".h", ".cc")


def tracked(root: str, *paths: str) -> list[str]:
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard", *paths],
                             capture_output=True, text=True, check=True).stdout.split()
        return sorted(f for f in out if os.path.exists(os.path.join(root, f)))
    except (OSError, subprocess.CalledProcessError):
        found = []
        for p in paths:
            for d, _, files in os.walk(os.path.join(root, p)):
                found += [os.path.relpath(os.path.join(d, f), root) for f in files]
        return sorted(found)


def folder_of(path: str) -> str:
    parts = path.split("/")  # runtime/src/<folder>/...
    return parts[2] if len(parts) > 3 else "."


def folder_graph(root: str, files: list[str]) -> dict[tuple[str, str], str]:
    edges: dict[tuple[str, str], str] = {}
    for f in files:
        if not f.endswith(HOST_SUFFIXES + (".cu", ".cuh")):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            candidates = [os.path.normpath(os.path.join(os.path.dirname(f), inc)),
                          os.path.normpath(os.path.join("runtime/src", inc))]
            target = next((c for c in candidates if os.path.exists(os.path.join(root, c))), None)
            if target is None or not target.startswith("runtime/src/"):
                continue
            a, b = folder_of(f), folder_of(target)
            if a != b:
                edges.setdefault((a, b), f"{f} includes \"{inc}\"")
    return edges


def find_cycle(edges: dict[tuple[str, str], str]) -> list[str] | None:
    graph: dict[str, list[str]] = {}
    for a, b in edges:
        graph.setdefault(a, []).append(b)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, [])):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if state.get(m) is None:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if state.get(n) is None:
            found = visit(n)
            if found:
                return found
    return None


def check(root: str) -> list[str]:
    problems = []
    src = tracked(root, "runtime/src")
    edges = folder_graph(root, src)
    cycle = find_cycle(edges)
    if cycle:
        steps = [f"{a} -> {b} ({edges[(a, b)]})" for a, b in zip(cycle, cycle[1:])]
        problems.append("runtime/src folders include each other in a cycle: " + "; ".join(steps))

    for f in tracked(root, "runtime"):
        if not f.endswith(HOST_SUFFIXES):
            continue
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            lines = fh.read().splitlines()
        globals_ = [i + 1 for i, line in enumerate(lines) if "__global__" in line.split("//", 1)[0]]
        if f == COMPOSER:
            globals_ = globals_[1:]  # the template line of every composed kernel
        pending = PENDING["global"].get(f)
        if globals_ and not pending:
            problems.append(f"{f}:{globals_[0]}: __global__ in a host file ({len(globals_)} lines): device code "
                            "belongs in runtime/device/cupp/dev/ (embedded for NVRTC)")
        elif pending and not globals_:
            problems.append(f"{f}: no __global__ left: remove it from PENDING['global'] in check_layering.py")
        if f.startswith("runtime/src/"):
            pending = PENDING["lines"].get(f)
            if len(lines) > MAX_LINES and not pending:
                problems.append(f"{f}: {len(lines)} lines (more than {MAX_LINES}): split it by job")
            elif pending and len(lines) <= MAX_LINES:
                problems.append(f"{f}: {len(lines)} lines now: remove it from PENDING['lines'] in check_layering.py")

    outside = [f for f in tracked(root, ".") if not f.startswith("runtime/")
               and (f.endswith("CMakeLists.txt") or f.endswith(".cmake"))]
    for f in outside:
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                code = line.split("#", 1)[0]
                if re.search(r"include_directories\([^)]*runtime/src", code) or \
                        re.search(r"\$\{[A-Za-z_]*(ROOT|DIR)\}/runtime/src\s*($|\))", code):
                    problems.append(f"{f}:{n}: names runtime/src as an include directory: link cupp::core_internal "
                                    "(or use CUPP_CORE_INTERNAL_DIR in a sanitizer build)")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    root = os.path.normpath(ap.parse_args().root)
    problems = check(root)
    for p in problems:
        print("check_layering: " + p)
    pending = sum(len(v) for v in PENDING.values())
    if problems:
        print(f"check_layering: FAIL ({len(problems)} problem(s))")
        return 1
    print(f"check_layering: ok (no folder cycle; {pending} known breach(es) pending in PENDING)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
