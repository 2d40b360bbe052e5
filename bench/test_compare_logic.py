#!/usr/bin/env python3
"""compare.py's merge and result check on synthetic sides' output (no GPU; CTest bench_compare_logic):
a sample equal to CuPy's within the tolerance passes, a corrupted one is a mismatch that fails
the run, a case cupp lacks is listed as missing (and the peers' figures stay), a figure above
105 % of the copy floor is a measurement error, host figures are multiples of the launch floor.
Also: the fill kernel of the Python sides is bench.cpp's text, and both sample the same positions."""
import contextlib
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare  # noqa: E402
import side_common  # noqa: E402

N = 1 << 28
FLOOR = 4000.0  # GB/s
TEMP_DIRS = []


def case_by_name():
    _, cases = compare.load_table(compare.default_table())
    return {c["name"]: c for c in cases}


def ms_at(fraction, case):
    """The median time that puts a bandwidth case at `fraction` of FLOOR."""
    return compare.bytes_moved(case) / (fraction * FLOOR * 1e6)


class Run:
    """A folder with the .jsonl files and samples of a synthetic run."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="compare-test-")
        TEMP_DIRS.append(self.dir)
        self.lines = {"cupp": [], "cupy": [], "torch": [], "jit": []}
        for side in ("cupp", "cupy", "torch"):
            self.add(side, case="device", metric="info", name="Fake GPU", version="0")
        self.add("cupp", case="floor_memcpy_d2d", metric="floor", ms=0.5, gbps=FLOOR * 0.99)
        self.add("cupp", case="floor_copy_kernel", metric="floor", ms=0.5, gbps=FLOOR)
        self.add("cupy", case="floor_memcpy_d2d", metric="floor", ms=0.5, gbps=FLOOR * 0.98)
        self.add("cupp", case="launch_empty", metric="launch", us_per_call=4.0)

    def add(self, side, **fields):
        self.lines["jit" if side == "jit" else side].append(dict(side=side, **fields))

    def sample(self, side, name, values):
        d = os.path.join(self.dir, f"samples-{side}")
        os.makedirs(d, exist_ok=True)
        return side_common.write_sample(d, name, np.asarray(values))

    def result(self, side, case, ms=None, us=None, values=None, **extra):
        fields = dict(case=case["name"], metric=case["metric"], check="ok", **extra)
        if ms is not None:
            fields["ms"] = ms
        if us is not None:
            fields["us_per_call"] = us
        if values is not None:
            fields["sample"] = self.sample(side, case["name"], values)
            fields.setdefault("out_size", compare.out_size(case) or len(values))
        self.add(side, **fields)

    def compare(self, names):
        for side, lines in self.lines.items():
            with open(os.path.join(self.dir, f"{side}.jsonl"), "w") as f:
                for r in lines:
                    f.write(json.dumps(r) + "\n")
        out = io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
            rc = compare.main(["--from", self.dir, "--only", ",".join(names),
                               "--markdown", os.path.join(self.dir, "table.md")])
        with open(os.path.join(self.dir, "bench-results.json")) as f:
            results = json.load(f)
        return rc, out.getvalue(), {r["case"]: r for r in results["rows"]}


class CompareLogic(unittest.TestCase):
    def setUp(self):
        self.cases = case_by_name()

    def test_clean_run_passes(self):
        run = Run()
        add, s = self.cases["add_float32"], self.cases["sum_float32"]
        x = np.linspace(-4, 4, 4096)
        run.result("cupp", add, ms=ms_at(0.97, add), values=x)
        run.result("cupy", add, ms=ms_at(0.60, add), values=x * (1 + 2.0 ** -24))  # an ulp apart
        run.result("torch", add, ms=ms_at(1.00, add), values=x)
        run.result("cupp", s, ms=ms_at(0.96, s), values=[37000.125])
        run.result("cupy", s, ms=ms_at(0.95, s), values=[37000.0])  # another summation order
        rc, text, rows = run.compare(["add_float32", "sum_float32"])
        self.assertEqual(rc, 0, text)
        self.assertEqual(rows["add_float32"]["check"], "ok")
        self.assertEqual(rows["sum_float32"]["check"], "ok")
        self.assertEqual(rows["add_float32"]["result"], "pass")
        self.assertAlmostEqual(rows["add_float32"]["sides"]["cupp"]["fraction"], 0.97, places=6)
        self.assertAlmostEqual(rows["add_float32"]["vs_best"], 0.97 ** -1 / 1.00 ** -1, places=6)
        with open(os.path.join(run.dir, "table.md")) as f:
            self.assertIn("| add | 2^28 | float32 |", f.read())

    def test_broken_result_is_a_mismatch(self):
        run = Run()
        add = self.cases["add_float32"]
        x = np.linspace(-4, 4, 4096)
        bad = x.copy()
        bad[-1] = 3.00390625  # CUPP_BENCH_BREAK overwrites the last element with 0x40 bytes
        run.result("cupp", add, ms=ms_at(0.97, add), values=bad)
        run.result("cupy", add, ms=ms_at(0.60, add), values=x)
        rc, text, rows = run.compare(["add_float32"])
        self.assertEqual(rc, 1)
        self.assertEqual(rows["add_float32"]["check"], "mismatch")
        self.assertEqual(rows["add_float32"]["result"], "FAIL")
        self.assertIn("MISMATCH vs CuPy", text)
        self.assertIn("sample 4095", text)

    def test_reduction_far_off_is_a_mismatch(self):
        run = Run()
        s = self.cases["sum_axis0_float32"]
        ref = np.linspace(-300, 300, 4096)
        run.result("cupp", s, ms=0.3, values=ref + 1.0)
        run.result("cupy", s, ms=0.4, values=ref)
        rc, _, rows = run.compare(["sum_axis0_float32"])
        self.assertEqual((rc, rows["sum_axis0_float32"]["check"]), (1, "mismatch"))

    def test_size_difference_is_a_mismatch(self):
        run = Run()
        add = self.cases["add_float32"]
        run.result("cupp", add, ms=1.0, values=[1.0], out_size=5)
        run.result("cupy", add, ms=1.0, values=[1.0], out_size=6)
        rc, _, rows = run.compare(["add_float32"])
        self.assertEqual((rc, rows["add_float32"]["check"]), (1, "mismatch"))

    def test_missing_case_is_listed_and_peers_kept(self):
        run = Run()
        srt = self.cases["sort_float32"]
        run.add("cupp", case="sort_float32", metric="time", missing="cupp has no sort (sort) yet")
        run.result("cupy", srt, ms=1.8, values=np.arange(4096.0))
        run.result("torch", srt, ms=2.97)
        rc, text, rows = run.compare(["sort_float32"])
        self.assertEqual(rc, 0, text)
        row = rows["sort_float32"]
        self.assertEqual(row["result"], "missing")
        self.assertEqual(row["sides"]["cupp"]["status"], "missing")
        self.assertEqual(row["sides"]["cupy"]["ms"], 1.8)
        self.assertIn("missing", text)
        self.assertIn("1.800ms", text)

    def test_above_the_floor_is_a_measurement_error(self):
        run = Run()
        add = self.cases["add_float32"]
        x = np.zeros(4096)
        run.result("cupp", add, ms=ms_at(1.10, add), values=x)
        run.result("cupy", add, ms=ms_at(1.07, add), values=x)
        rc, text, rows = run.compare(["add_float32"])
        self.assertEqual(rc, 0)  # flagged, not failed
        self.assertEqual(rows["add_float32"]["result"], "flagged")
        self.assertTrue(rows["add_float32"]["sides"]["cupp"]["measurement_error"])
        self.assertTrue(rows["add_float32"]["sides"]["cupy"]["measurement_error"])
        self.assertIn("MEASUREMENT ERROR", text)
        self.assertIn("110%!", text)

    def test_host_is_a_multiple_of_the_launch_floor(self):
        run = Run()
        h = self.cases["host_sum_float32_1024"]
        run.result("cupp", h, us=10.0, values=[1.0])
        run.result("cupy", h, us=21.9, values=[1.0])
        run.result("torch", h, us=14.6)
        rc, text, rows = run.compare(["host_sum_float32_1024"])
        row = rows["host_sum_float32_1024"]
        self.assertEqual(rc, 0, text)
        self.assertAlmostEqual(row["sides"]["cupp"]["launch_multiple"], 2.5)
        self.assertAlmostEqual(row["vs_best"], 10.0 / 14.6)
        self.assertEqual(row["result"], "pass")

    def test_own_check_failure_fails(self):
        run = Run()
        add = self.cases["add_float32"]
        run.result("cupp", add, ms=1.0, values=[1.0])
        run.lines["cupp"][-1]["check"] = "3 of 4096 sampled elements wrong"
        run.result("cupy", add, ms=1.0, values=[1.0])
        rc, _, rows = run.compare(["add_float32"])
        self.assertEqual((rc, rows["add_float32"]["result"]), (1, "FAIL"))

    def test_every_case_has_a_size_and_sample_rule(self):
        for c in self.cases.values():
            compare.size_label(c)
            compare.dtype_label(c)
            if c["metric"] == "bandwidth":
                self.assertGreater(compare.bytes_moved(c), 0, c["name"])
            self.assertIn(compare.kind(c), ("elementwise", "reduction", "scan", "sort", "indexing", "concat",
                                            "alloc", "jit", "fft", "linalg", "random"), c["name"])


class Expressions(unittest.TestCase):
    """Each case's expression, bound as the Python sides bind it, over NumPy's names."""

    def test_every_expression_binds_and_gives_the_tables_dtype(self):
        names = {n: getattr(np, n) for n in dir(np) if not n.startswith("_")}
        names.setdefault("astype", lambda x, dtype, copy=True: x.astype(dtype, copy=copy))  # NumPy < 2
        rng = np.random.default_rng(1)
        called = 0
        for c in case_by_name().values():
            if compare.kind(c) == "jit" or any(i["dtype"] == "bfloat16" for i in c["inputs"]):
                continue
            with self.subTest(case=c["name"]):
                small = [dict(i, shape=[min(d, 8) for d in i["shape"]]) for i in c["inputs"]]
                arrays = {}
                for n, spec in enumerate(small):
                    x = (rng.standard_normal(spec["shape"]) * 4).astype(spec["dtype"])
                    arrays[f"x{n}"] = x.T if spec.get("view") == "T" else x
                if c["out"].get("given"):
                    shape = np.broadcast_shapes(*(a.shape for a in arrays.values()))
                    arrays["out"] = np.empty(shape, dtype=c["out"]["dtype"])
                if c.get("setup") or not c["inputs"] and c.get("check", True):
                    # the setup's sizes are the case's own (2^26 elements): bound, not called
                    side_common.bind(c["expr"], names, dict(arrays, **{s.split("=")[0].strip(): None
                                                                       for s in c.get("setup", [])}))
                    continue
                result = side_common.bind(c["expr"], names, arrays)()
                if compare.kind(c) == "fft" and int(np.__version__.split(".")[0]) < 2:
                    continue  # NumPy 1's pocketfft computes in double (complex64 -> complex128); NumPy 2 keeps it
                self.assertEqual(str(result.dtype), c["out"]["dtype"])
                if "out" in arrays:
                    self.assertIs(result, arrays["out"])
                called += 1
        self.assertGreater(called, 25)

    def test_a_name_the_library_lacks_is_missing(self):
        with self.assertRaises(side_common.Missing) as caught:
            side_common.bind("frobnicate(x0)", {}, {"x0": np.zeros(1)})
        self.assertEqual(caught.exception.args, ("frobnicate",))

    def test_the_bound_call_holds_its_names(self):
        x = np.arange(4.0)
        call = side_common.bind("add(x0, x0)", {"add": np.add}, {"x0": x})
        x[0] = 10.0  # the array is held, not copied: the call sees it
        self.assertEqual(list(call()), [20.0, 2.0, 4.0, 6.0])

    def test_rtol_of_the_table(self):
        sort = case_by_name()["sort_float32"]
        ref = np.array([1000.0, 0.5])
        self.assertTrue(np.allclose(compare.tolerance(dict(sort, rtol=1e-3), ref), [1.0, 1e-3]))  # rtol * max(|ref|, 1)
        self.assertTrue(np.all(compare.tolerance(sort, ref) == 0))  # sort without rtol: exact


class SharedWithCpp(unittest.TestCase):
    def test_fill_source_is_bench_cpp_text(self):
        with open(os.path.join(HERE, "bench.cpp")) as f:
            cpp = f.read()
        m = re.search(r'constexpr const char\* fill_source = R"\((.*?)\)";', cpp, re.S)
        self.assertIsNotNone(m)
        self.assertEqual(m.group(1), side_common.FILL_SOURCE)

    def test_sample_positions(self):
        p = side_common.sample_positions(N, 4096)
        self.assertEqual((len(p), p[0], p[-1]), (4096, 0, N - 1))
        self.assertTrue(np.all(np.diff(p) > 0))
        self.assertEqual(list(side_common.sample_positions(3, 4096)), [0, 1, 2])
        # bench.cpp: i * (size - 1) / (n - 1) in int64
        self.assertEqual(p[1], (N - 1) // 4095)


def tearDownModule():
    for d in TEMP_DIRS:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    unittest.main(verbosity=2)
