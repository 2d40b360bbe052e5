#!/usr/bin/env python3
"""Self-test of eval_conformance.py without a GPU: `make` on a small made-up reference set, then
a fake `cupp eval --batch` (results and .npy outputs written here) through `check`, with cases
that agree, differ by more than the ULP bound, differ in dtype or error class, hit a documented
deviation, or have no result line. Needs NumPy (skipped without it):
  python3 tests/conformance/test_eval_conformance.py
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval_conformance as ec  # noqa: E402

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

SPECS = {
    "add.yaml": "name: add\nnin: 2\nnout: 1\n",
    "sin.yaml": "# sine\nname: sin\naliases: [sine_alias]\nnin: 1\nnout: 1\nulp: {float32: 4, float64: 2}\n",
    "less.yaml": "name: less\nnin: 2\nnout: 1\n",
    "power.yaml": "name: power\nnin: 2\nnout: 1\nraises: {type: ValueError, message: no.}\n",
    "nextafter.yaml": "name: nextafter\nnin: 2\nnout: 1\n",
}


def bf16_bits(x):
    return (np.asarray(x, np.float32).view(np.uint32) >> 16).astype(np.uint16)


@unittest.skipIf(np is None, "needs NumPy")
class EvalConformance(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        d = self.tmp.name
        self.ref, self.extra, self.specs, self.out = (os.path.join(d, x) for x in ("ref", "extra", "specs", "out"))
        os.makedirs(self.specs)
        for name, text in SPECS.items():
            with open(os.path.join(self.specs, name), "w") as f:
                f.write(text)
        cases = []

        def case(ufunc, tag, ins, outs, arrays, root=self.ref):
            c = {"ufunc": ufunc, "case": tag, "in": ins}
            if isinstance(outs, str):
                c["numpy_error"] = outs
            else:
                c["out"] = outs
            if arrays:
                dd = os.path.join(root, "ufunc", ufunc, tag)
                os.makedirs(dd)
                for k, a in enumerate(arrays["in"]):
                    np.save(os.path.join(dd, f"in{k}.npy"), a)
                for k, a in enumerate(arrays["out"]):
                    np.save(os.path.join(dd, f"out{k}.npy"), a)
            return c

        np.seterr(all="ignore")
        x32 = np.array([0.5, 1.0, np.nan, -np.inf], np.float32)
        cases += [
            case("add", "sig_ll", ["int64", "int64"], ["int64"],
                 {"in": [np.arange(4), np.arange(4)], "out": [2 * np.arange(4)]}),
            case("sin", "sig_f", ["float32"], ["float32"], {"in": [x32], "out": [np.sin(x32)]}),
            case("sin", "sig_d", ["float64"], ["float64"],
                 {"in": [x32.astype(np.float64)], "out": [np.sin(x32.astype(np.float64))]}),
            case("sine_alias", "sig_f", ["float32"], ["float32"], None),
            case("cos", "sig_f", ["float32"], ["float32"], None),
            case("add", "pyscalar_uint8_int", ["uint8", "int"], ["uint8"], None),
            case("add", "pyscalar_uint8_float", ["uint8", "float"], ["float64"], None),
            case("less", "pyscalar_uint8_int300", ["uint8", "int300"], ["bool"], None),
            case("add", "pyscalar_uint8_int300", ["uint8", "int300"], "OverflowError", None),
            case("add", "mix_bool_x", ["bool", "complex128"], "UFuncTypeError", None),
            case("power", "sig_bb", ["int8", "int8"], "ValueError", None),
            case("add", "sig_dd", ["float64", "float64"], ["float64"],
                 {"in": [np.ones(2), np.ones(2)], "out": [np.array([2.0, 3.0])]}),
        ]
        os.makedirs(self.ref, exist_ok=True)
        with open(os.path.join(self.ref, "manifest.yaml"), "w") as f:
            json.dump({"cases": cases}, f)
        b = np.array([1.0, 2.0, 3.0], np.float32)
        bf = [
            case("add", "sig_bfloat16", ["bfloat16", "bfloat16"], ["bfloat16"],
                 {"in": [bf16_bits(b), bf16_bits(b)], "out": [bf16_bits(2 * b)]}, root=self.extra),
            case("nextafter", "sig_bfloat16", ["bfloat16", "bfloat16"], ["bfloat16"],
                 {"in": [bf16_bits(b), bf16_bits(b)], "out": [bf16_bits(b)]}, root=self.extra),
        ]
        os.makedirs(self.extra, exist_ok=True)
        with open(os.path.join(self.extra, "extra.yaml"), "w") as f:
            json.dump({"bfloat16_cases": bf}, f)

    def tearDown(self):
        self.tmp.cleanup()

    def quiet(self, f, *args):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = f(*args)
        return rc, buf.getvalue()

    def test_make_then_check(self):
        rc, text = self.quiet(ec.make, self.ref, self.extra, self.specs, self.out)
        self.assertEqual(rc, 0)
        self.assertIn("an alias", text)
        self.assertIn("no spec in specs/ufuncs", text)
        with open(os.path.join(self.out, "expect.json")) as f:
            expects = {(e["op"], e["case"], e["source"]): e for e in json.load(f)["cases"]}
        with open(os.path.join(self.out, "batch.txt")) as f:
            batch = f.read().splitlines()
        e = expects[("sin", "sig_f", "numpy")]
        self.assertEqual(e["ulp"], {"float32": 4})
        self.assertTrue(batch[e["line"] - 1].startswith('"sin(a)" a='))
        self.assertIn("add(a, 300)", batch[expects[("add", "pyscalar_uint8_int300", "numpy")]["line"] - 1])
        self.assertIn("minus1_int8.npy", batch[expects[("power", "sig_bb", "numpy")]["line"] - 1])
        self.assertIn("view(a, 'bfloat16')", batch[expects[("add", "sig_bfloat16", "bfloat16")]["line"] - 1])
        self.assertEqual(np.load(os.path.join(self.out, "inputs", "minus1_int8.npy")).tolist(), [-1] * 4)
        self.assertEqual(np.load(os.path.join(self.out, "inputs", "zeros_uint8.npy")).dtype, np.uint8)

        # The fake cupp: agree everywhere except where noted.
        results = []

        def ok(key, *arrays):
            for path, a in zip(expects[key]["outputs"], arrays):
                np.save(path, a)
            results.append(f"{expects[key]['line']}: OK")

        def err(key, message):
            results.append(f"{expects[key]['line']}: {message}")

        s = np.sin(np.array([0.5, 1.0, np.nan, -np.inf], np.float32))
        ok(("add", "sig_ll", "numpy"), 2 * np.arange(4))
        ok(("sin", "sig_f", "numpy"), np.nextafter(s, np.float32(10)))  # 1 ULP: within 4
        d = np.sin(np.array([0.5, 1.0, np.nan, -np.inf]))
        d3 = d.copy()
        d3[1] = d3[1] + 3 * np.spacing(d3[1])  # 3 ULP > 2: differs
        ok(("sin", "sig_d", "numpy"), d3)
        ok(("add", "pyscalar_uint8_int", "numpy"), np.zeros(4, np.uint8))
        ok(("add", "pyscalar_uint8_float", "numpy"), np.zeros(4, np.float32))  # wrong dtype
        err(("less", "pyscalar_uint8_int300", "numpy"), "OverflowError: out of bounds")  # deviation: skip
        err(("add", "pyscalar_uint8_int300", "numpy"), "OverflowError: Python integer 300 out of bounds for uint8")
        err(("add", "mix_bool_x", "numpy"), "TypeError: no loop")
        err(("power", "sig_bb", "numpy"), "OverflowError: wrong class")
        # add sig_dd: no result line at all.
        bits = bf16_bits(np.array([2.0, 4.0, 6.0], np.float32))
        bits[2] += 1  # 1 bfloat16 ULP: within the default bound of 1
        ok(("add", "sig_bfloat16", "bfloat16"), bits.view("V2"))
        ok(("nextafter", "sig_bfloat16", "bfloat16"), bf16_bits(np.array([9.0, 9, 9], np.float32)).view("V2"))
        results_file = os.path.join(self.out, "results.txt")
        with open(results_file, "w") as f:
            f.write("\n".join(results) + "\n")

        rc, table = self.quiet(ec.check, self.out, results_file)
        if os.environ.get("SHOW_TABLE"):
            print(table)
        self.assertEqual(rc, 1, table)
        # checked, agree, differ, skipped per category
        rows = {line[:40].strip(): line[40:].split()[:4] for line in table.splitlines() if line.startswith("(")}
        # add sig_ll and sin sig_f agree; sin sig_d (3 ULP) and add sig_dd (no line) differ.
        self.assertEqual(rows[ec.CATEGORY_TITLES["value"]], ["4", "2", "2", "0"], table)
        self.assertEqual(rows[ec.CATEGORY_TITLES["dtype"]], ["2", "1", "1", "1"], table)
        self.assertEqual(rows[ec.CATEGORY_TITLES["error"]], ["3", "2", "1", "0"], table)
        # add within 1 bfloat16 ULP; nextafter's values are a documented deviation (dtype only).
        self.assertEqual(rows[ec.CATEGORY_TITLES["bfloat16"]], ["1", "1", "0", "1"], table)
        self.assertIn("sin sig_d (numpy): out0: 1 of 4 elements differ; first at 1", table)
        self.assertIn("3 ULP > 2", table)
        self.assertIn("result dtype float32, NumPy float64", table)
        self.assertIn("NumPy raises ValueError, cupp OverflowError: wrong class", table)
        self.assertIn("no result line", table)
        self.assertIn("documented deviation: comparison with an out-of-range Python int", table)
        self.assertIn("BELOW", table)

    def test_ulps_matches_the_cpp_definition(self):
        f = np.array([1.0, 0.0, np.nan, np.inf, 1.0, -0.0, 2.0**-149])
        g = np.array([1.0 + 2**-23, 2.0**-149, np.nan, np.inf, np.nan, 0.0, 0.0])
        self.assertEqual(ec.ulps(np, g, f, "float32").tolist(), [1.0, 1.0, 0.0, 0.0, 1e300, 0.0, 1.0])
        self.assertEqual(ec.ulps(np, [1.0078125], [1.0], "bfloat16").tolist(), [1.0])
        self.assertEqual(ec.ulps(np, [np.inf], [-np.inf], "float64").tolist(), [1e300])


if __name__ == "__main__":
    unittest.main()
