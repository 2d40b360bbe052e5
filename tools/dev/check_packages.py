#!/usr/bin/env python3
"""Checks that a fresh machine gets everything cupp's build and tests import (CTest entry
fresh_machine_packages). A module installed by hand on a developer's or CI's machine would let
the suite pass there and fail on a user's; this check fails on every machine instead.

  1. README.md's package list (between the `packages:begin`/`packages:end` markers) is the list
     in tools/dev/packages.txt, which tools/dev/setup.sh installs.
  2. Every import in every Python file of the repository is of the standard library
     (sys.stdlib_module_names), of a module the repository holds (a `<name>.py` in it), or of a
     module in PACKAGE_OF, whose Debian package must be in the list. Files that run only on the
     GPU machine (NumPy 2, CuPy, PyTorch, ml_dtypes) are named in GPU_MACHINE_ONLY and left out;
     a new file is checked unless it is added there.

usage: check_packages.py [--root DIR] [--without PACKAGE]...
  --without PACKAGE checks as if PACKAGE were not in the list (the CTest entry
  fresh_machine_packages_catches uses it to show that a missing package is named).
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import os
import re
import sys

# Module -> the Debian package that provides it for /usr/bin/python3.
PACKAGE_OF = {
    "jinja2": "python3-jinja2",
    "yaml": "python3-yaml",
    "numpy": "python3-numpy",
    "markdown": "python3-markdown",
}

# Scripts that run only on the GPU machine (paths relative to the root, fnmatch patterns), with why.
GPU_MACHINE_ONLY = {
    "bench/side_cupy.py": "the bench's CuPy side",
    "bench/side_torch.py": "the bench's PyTorch side",
    "bench/compile_cupy.py": "CuPy's compile latency",
    "bench/reductions_peers.py": "the reduction bench's CuPy and PyTorch side",
    "tests/conformance/npy_exchange.py": ".npy exchange with NumPy 2 and ml_dtypes",
    "tests/conformance/make_array_cases.py": "makes reference data with NumPy 2",
    "tests/dlpack_interop/check_interop.py": "DLPack exchange with CuPy and PyTorch",
    "tests/conformance/make_sparse_ref.py": "makes the SciPy reference set (elsewhere it says SciPy is absent and exits 0)",
    "random/bench/peers.py": "the random bench's CuPy and PyTorch side",
    "bench/cold_start/cold_start_cupy.py": "CuPy's side of the cold-start script",
    "sparse/bench/peers.py": "the sparse bench's SciPy, CuPy and PyTorch side",
    "tests/conformance/make_sparse_linalg_ref.py": "makes the scipy.sparse.linalg reference set (elsewhere it says SciPy is absent and exits 0)",
    "sparse/bench/linalg_peers.py": "the sparse.linalg bench's CuPy side",
    "distributed/bench/torch_allreduce.py": "the distributed bench's torch.distributed side",
    "tests/conformance/make_linalg_solvers_ref.py": "imports SciPy only for its NumPy-2-only cases (the GPU machine's SciPy); elsewhere it uses NumPy alone",
    "fft/bench/callbacks_cupy.py": "CuPy's side of the fft callback bench",
    "linalg/bench/same_inputs.py": "CuPy and PyTorch on each other's inputs (the gpu bundle's same-inputs phase)",
}

SKIP_DIRS = {".git", "__pycache__", "node_modules"}
PACKAGES_FILE = "tools/dev/packages.txt"


def read_package_list(root: str) -> list[str]:
    names = []
    with open(os.path.join(root, PACKAGES_FILE), encoding="utf-8") as f:
        for line in f:
            name = line.split("#", 1)[0].strip()
            if name:
                names.append(name)
    return names


def readme_package_list(root: str) -> list[str] | None:
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- packages:begin[^>]*-->(.*?)<!-- packages:end -->", text, re.S)
    if not m:
        return None
    return re.findall(r"`([^`\s]+)`", m.group(1))


def python_files(root: str) -> list[str]:
    found = []
    for d, subdirs, files in os.walk(root):
        rel_dir = os.path.relpath(d, root)
        # Build trees, staged GPU folders and other hidden or generated folders are not sources.
        subdirs[:] = sorted(s for s in subdirs if s not in SKIP_DIRS and not s.startswith(".")
                            and not (rel_dir == "." and s.startswith("build")))
        found += [os.path.normpath(os.path.join(rel_dir, f)) for f in sorted(files) if f.endswith(".py")]
    return found


def imported_modules(path: str) -> list[tuple[int, str]]:
    """Top-level names of every absolute import in the file, wherever it stands (functions too)."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), filename=path)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name.split(".")[0]) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append((node.lineno, node.module.split(".")[0]))
    return out


def check(root: str, without: set[str]) -> list[str]:
    problems = []
    listed = read_package_list(root)
    readme = readme_package_list(root)
    if readme is None:
        problems.append("README.md: no <!-- packages:begin --> ... <!-- packages:end --> package list")
    elif readme != listed:
        problems.append(f"README.md's package list {readme} is not {PACKAGES_FILE}'s {listed} "
                        "(same names, same order)")
    available = set(listed) - without
    files = python_files(root)
    local = {os.path.splitext(os.path.basename(f))[0] for f in files}
    for rel in files:
        if any(fnmatch.fnmatch(rel, pattern) for pattern in GPU_MACHINE_ONLY):
            continue
        for line, module in imported_modules(os.path.join(root, rel)):
            if module in sys.stdlib_module_names or module in local:
                continue
            package = PACKAGE_OF.get(module)
            if package is None:
                problems.append(f"{rel}:{line}: imports {module}, which is neither the standard library, "
                                "a module of this repository, nor in check_packages.py's PACKAGE_OF map "
                                "(add the Debian package that provides it there and to " + PACKAGES_FILE +
                                ", or name the file in GPU_MACHINE_ONLY)")
            elif package not in available:
                problems.append(f"{rel}:{line}: imports {module}, which Debian's {package} provides, "
                                f"and {package} is not in {PACKAGES_FILE}: a fresh machine would not have it")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--without", action="append", default=[], metavar="PACKAGE")
    args = ap.parse_args()
    root = os.path.normpath(args.root)
    problems = check(root, set(args.without))
    for p in problems:
        print("check_packages: " + p)
    if problems:
        print(f"check_packages: FAIL ({len(problems)} problem(s))")
        return 1
    print(f"check_packages: ok ({len(read_package_list(root))} packages; every Python import is provided)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
