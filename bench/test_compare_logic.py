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
    _, cases = compare.load_table(os.path.join(HERE, "cases.json"))
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
                                            "alloc", "jit"), c["name"])


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
