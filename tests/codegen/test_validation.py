"""Codegen validation: every bad spec is rejected with its file and line, and the real specs pass.

Each file in bad_specs/ states the expected message after '# expect:' and marks the offending line
with '# <-- error'. Promotion and dtype mistakes are made by editing a copy of specs/. The run-time
loader (cupp::load_ops) is held to the same markers by tests/unit/test_load_ops.cpp, and to codegen's
exact messages by test_load_ops_parity.py."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "codegen"))

from spec_tree import SpecTree  # noqa: E402
from model import SpecError, load_specs  # noqa: E402


class BadOpSpecs(unittest.TestCase):
    def test_every_bad_spec_is_rejected_with_file_and_line(self):
        files = sorted(f for f in os.listdir(os.path.join(HERE, "bad_specs")) if f.endswith(".yaml"))
        self.assertGreaterEqual(len(files), 10)
        for fname in files:
            with self.subTest(spec=fname), SpecTree() as tree:
                # errors="replace": bad_not_utf8.yaml is not UTF-8 on purpose (markers are ASCII)
                text = open(os.path.join(HERE, "bad_specs", fname), encoding="utf-8", errors="replace").read()
                expected = re.search(r"# expect: (.*)", text).group(1).strip()
                line = 1 + text.split("# <-- error")[0].count("\n")
                shutil.copy(os.path.join(HERE, "bad_specs", fname), tree.path(f"specs/ufuncs/{fname}"))
                with self.assertRaises(SpecError) as caught:
                    load_specs(tree.root)
                err = caught.exception
                self.assertEqual(err.path, f"specs/ufuncs/{fname}", str(err))
                self.assertIn(expected, err.message, str(err))
                self.assertEqual(err.line, line, str(err))


class BadPromotion(unittest.TestCase):
    def check(self, old, new, expected, rel="specs/promotion.yaml", line=None):
        with SpecTree() as tree:
            edit_line = tree.edit(rel, old, new)
            with self.assertRaises(SpecError) as caught:
                load_specs(tree.root)
            self.assertEqual(caught.exception.path, rel)
            self.assertIn(expected, caught.exception.message, str(caught.exception))
            self.assertEqual(caught.exception.line, line or edit_line, str(caught.exception))

    def test_asymmetric_table(self):
        # int8 row, uint8 column: int16 -> int32 while the uint8 row keeps int16.
        self.check("int8:       [int8      , int8      , int16     , int32     , int64     , int16",
                   "int8:       [int8      , int8      , int16     , int32     , int64     , int32",
                   "not symmetric")

    def test_cell_disagreeing_with_safe_casts(self):
        # The diagonal stays symmetric; float16 casts safely to itself, so float16,float16 must be float16.
        self.check("float16:    [float16   , float16   , float32   , float64   , float64   , float16   , float32   , float64   , float64   , float16 ",
                   "float16:    [float16   , float16   , float32   , float64   , float64   , float16   , float32   , float64   , float64   , float32 ",
                   "disagrees with safe_casts")

    def test_unsafe_cell(self):
        # int8,int8 -> uint8: int8 does not cast safely to uint8.
        self.check("  int8:       [int8      , int8      ,", "  int8:       [int8      , uint8     ,",
                   "does not cast safely")

    def test_weak_scalar_may_not_demote(self):
        with SpecTree() as tree:
            text = open(tree.path("specs/promotion.yaml")).read()
            start = text.index("  float:\n")
            idx = text.index("    float32:    float32", start)
            line = 1 + text[:idx].count("\n")
            open(tree.path("specs/promotion.yaml"), "w").write(text[:idx] + "    float32:    float16" +
                                                               text[idx + len("    float32:    float32"):])
            with self.assertRaises(SpecError) as caught:
                load_specs(tree.root)
            self.assertIn("may not demote", caught.exception.message)
            self.assertEqual(caught.exception.line, line)

    def test_undefined_dtype_in_safe_casts(self):
        self.check("  int64:      [float64, complex128]", "  int64:      [float64, complex256]", "undefined dtype 'complex256'")


class BadDtypes(unittest.TestCase):
    def test_group_with_undefined_dtype(self):
        with SpecTree() as tree:
            line = tree.edit("specs/dtypes.yaml", "complex: [complex64, complex128]", "complex: [complex64, complex256]")
            with self.assertRaises(SpecError) as caught:
                load_specs(tree.root)
            self.assertIn("undefined dtype 'complex256'", caught.exception.message)
            self.assertEqual(caught.exception.line, line)


class GoodSpecs(unittest.TestCase):
    def test_project_specs_load(self):
        specs = load_specs(ROOT)
        self.assertGreaterEqual(len(specs.ops), 5)
        self.assertEqual(len(specs.dtypes.dtypes), 15)

    def test_generator_reports_errors_with_status_2(self):
        with SpecTree() as tree:
            shutil.copy(os.path.join(HERE, "bad_specs", "bad_undefined_dtype.yaml"),
                        tree.path("specs/ufuncs/bad_undefined_dtype.yaml"))
            shutil.copytree(os.path.join(ROOT, "codegen"), tree.path("codegen"))
            proc = subprocess.run([sys.executable, tree.path("codegen/generate.py"), "--root", tree.root],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertIn("specs/ufuncs/bad_undefined_dtype.yaml:9:", proc.stderr)


if __name__ == "__main__":
    unittest.main()
