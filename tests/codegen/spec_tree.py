"""A temporary copy of specs/ that codegen tests break on purpose (shared by test_validation.py and
test_routine_specs.py)."""
from __future__ import annotations

import os
import shutil
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class SpecTree:
    """with SpecTree() as tree: a copy of specs/ (and of each module folder's module.cmake, which
    makes a folder a module a spec may name) under tree.root, removed on exit."""

    def __enter__(self):
        self.root = tempfile.mkdtemp(prefix="cupp-specs-")
        shutil.copytree(os.path.join(ROOT, "specs"), os.path.join(self.root, "specs"))
        for name in os.listdir(ROOT):
            if os.path.isfile(os.path.join(ROOT, name, "module.cmake")):
                os.makedirs(os.path.join(self.root, name))
                shutil.copy(os.path.join(ROOT, name, "module.cmake"), os.path.join(self.root, name))
        return self

    def __exit__(self, *exc):
        shutil.rmtree(self.root)

    def path(self, rel):
        return os.path.join(self.root, rel)

    def edit(self, rel, old, new):
        text = open(self.path(rel)).read()
        assert old in text, f"{old!r} not in {rel}"
        open(self.path(rel), "w").write(text.replace(old, new, 1))
        return 1 + text[: text.index(old)].count("\n")  # line of the edit
