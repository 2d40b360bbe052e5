#!/usr/bin/env python3
"""Self-test of tools/site/build_site.py on a made-up repository: a clean one builds with no
problem; a broken link, a missing anchor, a plain C++ block, a stale snippet copy and a snippet
of a file outside the compiled sources are each reported (and fail the build)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

BUILDER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "site", "build_site.py")


def write(root: str, path: str, text: str) -> None:
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text))


def build(root: str, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, BUILDER, "--root", root, *extra], capture_output=True, text=True)


class BuildSiteTest(unittest.TestCase):
    def make_repo(self, root: str, guide: str) -> None:
        write(root, "docs/examples/demo.cpp", """\
            int main() {
              // [snippet add]
              int x = 1 + 2;
              // [end snippet]
              return x - 3;
            }
            """)
        write(root, "docs/api/core.md", "# Core\n\n### `sum`\nsums.\n")
        write(root, "specs/routines/core.yaml", "family: core\nroutines:\n  - name: sum\n")
        write(root, "docs/guide.md", guide)

    GOOD = """\
        # Guide

        See [sum](api/core.md#sum) and [the example](examples/demo.cpp).

        ```cpp snippet=examples/demo.cpp#add
        int x = 1 + 2;
        ```
        """

    def test_clean_repository_builds(self):
        with tempfile.TemporaryDirectory() as root:
            self.make_repo(root, self.GOOD)
            done = build(root, "--out", os.path.join(root, "site"))
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("0 problems", done.stdout)
            with open(os.path.join(root, "site", "guide.html"), encoding="utf-8") as fh:
                page = fh.read()
            self.assertIn('href="api/core.html#sum"', page)
            self.assertIn('href="source/docs/examples/demo.cpp.html"', page)
            self.assertIn("int x = 1 + 2;", page)
            self.assertTrue(os.path.exists(os.path.join(root, "site", "source", "docs", "examples", "demo.cpp.html")))
            with open(os.path.join(root, "site", "search-index.js"), encoding="utf-8") as fh:
                self.assertIn('"url": "api/core.html#sum"', fh.read())

    def test_each_problem_fails_the_build(self):
        cases = {
            "broken link": (self.GOOD.replace("api/core.md#sum", "api/missing.md"), "broken link api/missing.md"),
            "missing anchor": (self.GOOD.replace("#sum", "#prod"), "no such anchor"),
            "plain block": (self.GOOD + "\n```cpp\nint y = 0;\n```\n", "not included from a compiled source"),
            "stale copy": (self.GOOD.replace("int x = 1 + 2;", "int x = 3;"), "differs from its source"),
            "outside sources": (self.GOOD.replace("snippet=examples/demo.cpp#add", "snippet=api/core.md#add"),
                                "not a compiled source"),
            "unknown snippet": (self.GOOD.replace("#add", "#mul"), "no '// [snippet mul]'"),
        }
        for name, (guide, message) in cases.items():
            with self.subTest(name), tempfile.TemporaryDirectory() as root:
                self.make_repo(root, guide)
                done = build(root, "--out", os.path.join(root, "site"))
                self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
                self.assertIn(message, done.stderr)

    def test_sync_rewrites_a_stale_copy(self):
        with tempfile.TemporaryDirectory() as root:
            self.make_repo(root, self.GOOD.replace("int x = 1 + 2;", "int x = 3;"))
            self.assertEqual(build(root, "--sync").returncode, 0)
            self.assertEqual(build(root, "--out", os.path.join(root, "site")).returncode, 0)


if __name__ == "__main__":
    unittest.main()
