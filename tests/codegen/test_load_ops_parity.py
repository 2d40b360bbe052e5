"""codegen and cupp::load_ops judge specs alike: every file of bad_specs/ and a set of variants of
one good spec (each validation rule broken once, plus variants both must accept) is given to
codegen's load_op and to the run-time loader (`cupp ops --ops FILE`, which calls cupp::load_ops),
and both must accept it, or reject it with the same 'file:line: message' (for invalid YAML, the
same line; the two YAML parsers word their complaints differently).

The run-time loader is the `cupp` program named by CUPP_TOOL (CTest sets it); without it, these
tests are skipped. tests/unit/test_load_ops.cpp also checks load_ops against the markers of
bad_specs/ (test_validation.py checks codegen against them)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "codegen"))

from model import SpecError, load_dtypes, load_op, load_promotion  # noqa: E402

TOOL = os.environ.get("CUPP_TOOL", "")

BASE = """\
# A good op: every rule is broken once by the variants below.
name: {name}
doc: Base op for the parity test.
nin: 2
nout: 1
identity: 0
commutative: true
aliases: [{name}_alias]
ulp: {{float32: 4}}
body: out0 = in0 + in1;
loops:
  - sig: bool, bool -> bool
    body: out0 = in0 || in1;
  - sig: T, T -> T
    each: {{T: number}}
"""

# (what, old, new): BASE with `old` replaced by `new` (once).
VARIANTS = [
    ("nin zero", "nin: 2", "nin: 0"),
    ("nin quoted", "nin: 2", "nin: '2'"),
    ("nin float", "nin: 2", "nin: 2.0"),
    ("nin yes", "nin: 2", "nin: yes"),
    ("nin hex", "nin: 2", "nin: 0x2"),
    ("nout three", "nout: 1", "nout: 3"),
    ("nout null", "nout: 1", "nout:"),
    ("name digit", "name: {name}\n", "name: 1abc\n"),
    ("name upper", "name: {name}\n", "name: Abc\n"),
    ("name bool", "name: {name}\n", "name: no\n"),
    ("aliases scalar", "aliases: [{name}_alias]", "aliases: x"),
    ("aliases upper", "aliases: [{name}_alias]", "aliases: [Bad]"),
    ("aliases int", "aliases: [{name}_alias]", "aliases: [1]"),
    ("aliases map", "aliases: [{name}_alias]", "aliases: {{a: 1}}"),
    ("ulp dtype", "ulp: {{float32: 4}}", "ulp: {{float33: 4}}"),
    ("ulp negative", "ulp: {{float32: 4}}", "ulp: {{float32: -1}}"),
    ("ulp text", "ulp: {{float32: 4}}", "ulp: {{float32: x}}"),
    ("ulp scalar", "ulp: {{float32: 4}}", "ulp: 4"),
    ("identity list", "identity: 0", "identity: [1]"),
    ("identity float", "identity: 0", "identity: 1.5e+20"),
    ("int_inputs_as bad", "identity: 0", "identity: 0\nint_inputs_as: float33"),
    ("int_inputs_as good", "identity: 0", "identity: 0\nint_inputs_as: float64"),
    ("bool_inputs_error empty", "identity: 0", "identity: 0\nbool_inputs_error: ''"),
    ("bool_inputs_error int", "identity: 0", "identity: 0\nbool_inputs_error: 5"),
    ("bool_inputs_error good", "identity: 0", "identity: 0\nbool_inputs_error: no bools"),
    ("weak int", "identity: 0", "identity: 0\nweak_scalars_by_truth: 1"),
    ("weak yes", "identity: 0", "identity: 0\nweak_scalars_by_truth: yes"),
    ("widens good", "identity: 0", "identity: 0\nreduce_widens_ints: true"),
    ("widens off", "identity: 0", "identity: 0\nreduce_widens_ints: off"),
    ("widens int", "identity: 0", "identity: 0\nreduce_widens_ints: 1"),
    ("widens text", "identity: 0", "identity: 0\nreduce_widens_ints: 'true'"),
    ("widens unary", "nin: 2", "nin: 1\nreduce_widens_ints: true"),
    ("raises no message", "identity: 0", "identity: 0\nraises: {{type: ValueError}}"),
    ("raises extra", "identity: 0", "identity: 0\nraises: {{type: ValueError, message: m, extra: 1}}"),
    ("raises scalar", "identity: 0", "identity: 0\nraises: x"),
    ("raises bad type", "identity: 0", "identity: 0\nraises: {{type: KeyError, message: m}}"),
    ("raises unused", "identity: 0", "identity: 0\nraises: {{type: OverflowError, message: too big}}"),
    # Which loops raise: one rule (body_raises), seen here through the two rules that use it.
    ("raises good", "body: out0 = in0 + in1;", "raises: {{type: OverflowError, message: too big}}\n"
                    "body: if (in0 < 0) cupp::dev::raise_error(); out0 = in0 + in1;"),
    ("raises by a comment", "body: out0 = in0 + in1;", "raises: {{type: ValueError, message: m}}\n"
                            "body: out0 = in0 + in1; // raise_error"),
    ("raises unqualified", "body: out0 = in0 + in1;", "raises: {{type: ValueError, message: m}}\n"
                           "body: if (in1 == 0) raise_error(); out0 = in0 + in1;"),
    ("raises only in bool loop", "body: out0 = in0 + in1;\nloops:\n  - sig: bool, bool -> bool\n    body: out0 = in0 || in1;",
     "raises: {{type: ValueError, message: m}}\nbody: out0 = in0 + in1;\nloops:\n  - sig: bool, bool -> bool\n"
     "    body: if (in0) cupp::dev::raise_error(); out0 = in1;"),
    ("raises longer word", "body: out0 = in0 + in1;", "raises: {{type: ValueError, message: m}}\n"
                           "body: out0 = my_raise_errors(in0) + in1;"),
    ("raises prefixed word", "body: out0 = in0 + in1;", "raises: {{type: ValueError, message: m}}\n"
                             "body: out0 = xraise_error(in0) + in1;"),
    ("raise_error undeclared", "body: out0 = in0 || in1;", "body: if (in0) cupp::dev::raise_error(); out0 = in1;"),
    ("raise_error undeclared default body", "body: out0 = in0 + in1;",
     "body: if (in1 < 0) cupp::dev::raise_error(); out0 = in0 + in1;"),
    ("out of range good", "identity: 0", "identity: 0\npython_int_out_of_range: {{when_less: true, when_greater: false}}"),
    ("out of range yes", "identity: 0", "identity: 0\npython_int_out_of_range: {{when_less: yes, when_greater: off}}"),
    ("out of range int", "identity: 0", "identity: 0\npython_int_out_of_range: {{when_less: 1, when_greater: false}}"),
    ("out of range text", "identity: 0", "identity: 0\npython_int_out_of_range: {{when_less: true, when_greater: 'false'}}"),
    ("out of range missing", "identity: 0", "identity: 0\npython_int_out_of_range: {{when_less: true}}"),
    ("out of range extra", "identity: 0",
     "identity: 0\npython_int_out_of_range: {{when_less: true, when_greater: true, when_equal: true}}"),
    ("out of range scalar", "identity: 0", "identity: 0\npython_int_out_of_range: compare_exactly"),
    ("out of range unary", "nin: 2", "nin: 1\npython_int_out_of_range: {{when_less: true, when_greater: true}}"),
    ("out of range two outputs", "nout: 1", "nout: 2\npython_int_out_of_range: {{when_less: true, when_greater: true}}"),
    ("unknown key", "identity: 0", "identity: 0\nbogus: 1"),
    ("missing doc", "doc: Base op for the parity test.\n", ""),
    ("doc list", "doc: Base op for the parity test.", "doc: [a, 'b']"),
    ("body without out0", "body: out0 = in0 + in1;", "body: out1 = 0;"),
    ("no default body", "body: out0 = in0 + in1;\n", ""),
    ("body int", "body: out0 = in0 + in1;", "body: 5"),
    ("loops empty", "loops:\n  - sig: bool, bool -> bool\n    body: out0 = in0 || in1;\n  - sig: T, T -> T\n"
                    "    each: {{T: number}}\n", "loops: []\n"),
    ("loops scalar", "loops:\n  - sig: bool, bool -> bool\n    body: out0 = in0 || in1;\n  - sig: T, T -> T\n"
                     "    each: {{T: number}}\n", "loops: x\n"),
    ("loop scalar", "  - sig: bool, bool -> bool\n    body: out0 = in0 || in1;\n", "  - 5\n"),
    ("loop without sig", "  - sig: bool, bool -> bool\n", "  - each: {{}}\n"),
    ("sig no arrow", "sig: T, T -> T", "sig: T, T"),
    ("sig empty type", "sig: T, T -> T", "sig: T,, T -> T"),
    ("sig unary", "sig: T, T -> T", "sig: T -> T"),
    ("sig two outputs", "sig: T, T -> T", "sig: T, T -> T, T"),
    ("sig undefined", "sig: T, T -> T", "sig: T, U -> T"),
    ("sig int", "sig: T, T -> T", "sig: 5"),
    ("each group", "each: {{T: number}}", "each: {{T: numbers}}"),
    ("each empty list", "each: {{T: number}}", "each: {{T: []}}"),
    ("each undefined", "each: {{T: number}}", "each: {{T: [float33]}}"),
    ("each int", "each: {{T: number}}", "each: {{T: 5}}"),
    ("each null", "each: {{T: number}}", "each: {{T: }}"),
    ("each dtype name", "each: {{T: number}}", "each: {{float32: number}}"),
    ("each lengths", "each: {{T: number}}", "each: {{T: number, U: float}}"),
    ("each unused", "each: {{T: number}}", "each: {{T: float, U: float}}"),
    ("each list", "each: {{T: number}}", "each: [T]"),
    ("each misordered", "each: {{T: number}}", "each: {{T: [float64, float32]}}"),
    ("each duplicate", "each: {{T: number}}", "each: {{T: [float32, float32]}}"),
    ("each single dtype", "each: {{T: number}}", "each: {{T: float64}}"),
    ("duplicate after group", "    each: {{T: number}}\n", "    each: {{T: number}}\n  - sig: int8, int8 -> int8\n"),
    ("unreachable bool", "  - sig: bool, bool -> bool\n    body: out0 = in0 || in1;\n  - sig: T, T -> T\n"
                         "    each: {{T: number}}\n", "  - sig: T, T -> T\n    each: {{T: number}}\n"
                         "  - sig: bool, bool -> bool\n    body: out0 = in0 || in1;\n"),
    ("duplicate key", "nout: 1", "nout: 1\nnout: 1"),
    ("duplicate nested key", "ulp: {{float32: 4}}", "ulp: {{float32: 4, float32: 2}}"),
    ("block body", "body: out0 = in0 + in1;", "body: |\n  out0 = in0\n       + in1;"),
    ("folded body", "body: out0 = in0 + in1;", "body: >-\n  out0 = in0 +\n  in1;"),
    ("top level scalar", None, "just text\n"),
    ("empty file", None, "# only a comment\n"),
]


@unittest.skipUnless(TOOL and os.access(TOOL, os.X_OK), "CUPP_TOOL does not name the cupp program")
class LoadOpsParity(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dt = load_dtypes(os.path.join(ROOT, "specs", "dtypes.yaml"), "specs/dtypes.yaml")
        cls.promo = load_promotion(os.path.join(ROOT, "specs", "promotion.yaml"), "specs/promotion.yaml", cls.dt)
        cls.tmp = tempfile.mkdtemp(prefix="cupp-parity-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def codegen(self, path):
        try:
            load_op(path, path, self.dt, self.promo)
        except SpecError as err:
            return err
        return None

    def runtime(self, paths):
        """load_ops' verdict on each file ('OK' or 'file:line: message'), all in one process."""
        proc = subprocess.run([TOOL, "ops", "--check", *paths], capture_output=True, text=True)
        self.assertIn(proc.returncode, (0, 1), proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(len(lines), len(paths), proc.stdout + proc.stderr)
        verdicts = {}
        for path, line in zip(paths, lines):
            if line.startswith(f"{path}: OK ("):
                verdicts[path] = None
            else:
                self.assertTrue(line.startswith("SpecError: "), line)
                verdicts[path] = line[len("SpecError: "):]
        return verdicts

    def check_all(self, labelled):
        """labelled: (label, path) pairs; each file is judged by codegen and by load_ops."""
        verdicts = self.runtime([path for _, path in labelled])
        for label, path in labelled:
            with self.subTest(spec=label):
                self.check(path, verdicts[path])

    def check(self, path, got):
        expected = self.codegen(path)
        if expected is None:
            self.assertIsNone(got, "codegen accepts the spec, load_ops does not")
            return
        self.assertIsNotNone(got, f"codegen rejects the spec ({expected}), load_ops accepts it")
        if expected.message.startswith("invalid YAML"):
            self.assertTrue(got.startswith(f"{path}:{expected.line}: invalid YAML"), f"{got} vs {expected}")
        else:
            self.assertEqual(got, str(expected))

    def test_bad_specs(self):
        files = sorted(f for f in os.listdir(os.path.join(HERE, "bad_specs")) if f.endswith(".yaml"))
        self.assertGreaterEqual(len(files), 10)
        labelled = []
        for fname in files:
            path = os.path.join(self.tmp, fname)
            shutil.copy(os.path.join(HERE, "bad_specs", fname), path)
            labelled.append((fname, path))
        self.check_all(labelled)

    def test_variants(self):
        labelled = []
        for n, (what, old, new) in enumerate(VARIANTS):
            name = f"parity_op_{n}"  # a name of its own: the files are loaded into one process
            base = BASE.format(name=name)
            if old is None:
                text = new
            else:
                old = old.format(name=name)
                self.assertIn(old, base, what)
                text = base.replace(old, new.format(name=name), 1)
            path = os.path.join(self.tmp, f"{name}.yaml")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            labelled.append((what, path))
        path = os.path.join(self.tmp, "some_file.yaml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(BASE.format(name="parity_other_name"))
        labelled.append(("name differs from the file's", path))
        self.check_all(labelled)


if __name__ == "__main__":
    unittest.main()
