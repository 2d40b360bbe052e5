"""Tests of tools/dev/ref_case_ids.py (the reference-case id listing of issue 23) on the real tree
and on a small made-up one. Standard library only; needs neither NumPy nor a build:

    cd tests/scripts && python3 -m unittest test_ref_case_ids
"""
import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "tools", "dev", "ref_case_ids.py")
sys.path.insert(0, os.path.dirname(SCRIPT))

import ref_case_ids  # noqa: E402

# Measured on the tree of issue 23 before the C++ twins go (tools/dev/ref_case_ids.py --summary):
# ids per family (a floor: ids may be added, not lost) and ids with a C++ twin (a ceiling: the
# twins only go).
MIN_IDS = {"creation": 538, "indexing": 524, "manipulation": 1377, "reduction_where": 302, "reductions": 2077,
           "scans": 854, "searching": 796, "sorting": 352, "statistics": 736, "ufunc_at": 131}
MAX_TWINS = {"creation": 65, "indexing": 110, "manipulation": 624, "reduction_where": 302, "reductions": 0,
             "scans": 0, "searching": 160, "sorting": 72, "statistics": 166, "ufunc_at": 131}


class RealTree(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.families, cls.warnings = ref_case_ids.collect(ROOT)
        cls.lines = ref_case_ids.listing(cls.families)

    def test_reader_understood_everything(self):
        self.assertEqual(self.warnings, [])

    def test_every_known_family_has_its_ids(self):
        for family, floor in MIN_IDS.items():
            with self.subTest(family=family):
                self.assertIn(family, self.families)
                self.assertGreaterEqual(ref_case_ids.counts(self.families[family])["total"], floor)

    def test_twins_only_go(self):
        for family, ceiling in MAX_TWINS.items():
            with self.subTest(family=family):
                c = ref_case_ids.counts(self.families[family])
                self.assertLessEqual(c["both"], ceiling)
                self.assertEqual(c["cpp"], 0, "a C++ case whose id the generator does not declare")

    def test_cpp_cases_are_the_classic_cases(self):
        # check_reference_set requires it: every C++ id in the classic manifest and as many of each
        for name, fam in self.families.items():
            if fam.cpp:
                with self.subTest(family=name):
                    self.assertEqual(set(fam.cpp), set(fam.cases))
                    self.assertEqual([k for k, v in fam.cpp.items() if len(v) > 1], [])

    def test_ids_from_loops_and_conditions(self):
        have = set(self.lines)
        for line in ["manipulation round_m1_float32 numpy",  # Python: f-string ids in dtype loops
                     "manipulation round_2_complex64 numpy",
                     "manipulation pad_median_stat_length_uint16 numpy",
                     "manipulation delete_slice numpy",         # a slice() in an Eval case now
                     "indexing put_noncontig both",             # a C++ twin that stays
                     "ufunc_at bitwise_xor_uint64 numpy",     # Python: a function's loops, E(...) per dtype
                     "ufunc_at add_scalar_int64 numpy",
                     "ufunc_at add_int16_2d numpy",
                     "ufunc_at add_uint8_view_odd both",
                     "reduction_where reduceat_min_c16 numpy",
                     "reduction_where sum_where_strided numpy",  # a strided view, now an Eval case
                     "statistics nanquantile_median_unbiased numpy",
                     "scans cumulative_prod_c8_nan_1d numpy",  # Python: a conditional expression key
                     "reductions argmax_b1_ax0_kd numpy",
                     "reductions subtract_reduce_u8 numpy",
                     "creation indices_u8 numpy"]:
            self.assertIn(line, have)
        ids = {tuple(line.split()[:2]) for line in self.lines}
        for absent in [("ufunc_at", "add_scalar_uint64"),     # left out on both sides
                       ("ufunc_at", "bitwise_and_float32"),   # C++: `if (...) return;` in the lambda
                       ("reductions", "ptp_b1_axm1"),         # dtypes_of() drops bool for ptp
                       ("reductions", "subtract_reduce_u8_axt"),
                       ("creation", "indices_c8"),
                       ("scans", "cumsum_f4_nan_1d")]:
            self.assertNotIn(absent, ids)

    def test_listing_shape(self):
        keys = [tuple(line.split()[:2]) for line in self.lines]
        self.assertEqual(len(keys), len(set(keys)))
        self.assertEqual(self.lines, sorted(self.lines, key=lambda s: tuple(s.split()[:2])))
        for line in self.lines:
            parts = line.split()
            self.assertEqual(len(parts), 3, line)
            self.assertIn(parts[2], ("numpy", "cpp", "both"))

    def test_runs_without_numpy(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "numpy.py"), "w") as f:
                f.write("raise ImportError('ref_case_ids.py must not import numpy')\n")
            env = dict(os.environ, PYTHONPATH=tmp)
            r = subprocess.run([sys.executable, SCRIPT], capture_output=True, text=True, env=env, check=False)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.splitlines(), self.lines)


class Diff(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, lines):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w") as f:
            f.write("\n".join(lines) + "\n")
        return path

    def run_diff(self, before, after):
        r = subprocess.run([sys.executable, SCRIPT, "--diff", before, after], capture_output=True, text=True,
                           check=False)
        return r.returncode, r.stdout

    def test_a_removed_id_is_lost(self):
        families, _ = ref_case_ids.collect(ROOT)
        lines = ref_case_ids.listing(families)
        gone = next(line for line in lines if line.startswith("creation fromfunction "))
        before = self.write("before.txt", lines)
        after = self.write("after.txt", [line for line in lines if line != gone])
        rc, out = self.run_diff(before, after)
        self.assertEqual(rc, 1)
        self.assertIn("lost: creation fromfunction (was both)", out)
        self.assertEqual(self.run_diff(before, before)[0], 0)

    def test_moving_a_twin_to_eval_cases_is_no_loss(self):
        before = self.write("before.txt", ["fam a both CASES,test_fam_gpu.cpp:10", "fam b numpy EVAL_CASES"])
        after = self.write("after.txt", ["# the C++ twin went", "fam a numpy EVAL_CASES", "fam b numpy EVAL_CASES",
                                         "fam c numpy EVAL_CASES"])
        rc, out = self.run_diff(before, after)
        self.assertEqual(rc, 0, out)
        self.assertIn("0 lost, 1 new", out)

    def test_an_id_of_two_tables_losing_one_is_caught(self):
        before = self.write("before.txt", ["fam a both CASES,EVAL_CASES,test_fam_gpu.cpp:10"])
        after = self.write("after.txt", ["fam a numpy EVAL_CASES"])
        rc, out = self.run_diff(before, after)
        self.assertEqual(rc, 1)
        self.assertIn("fewer cases: fam had 2", out)
        # without the sources column only ids are compared
        self.assertEqual(self.run_diff(self.write("b.txt", ["fam a both"]), self.write("a.txt", ["fam a numpy"]))[0], 0)


class MadeUpTree(unittest.TestCase):
    """A family whose two sides disagree: the listing says which side has which id."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        root = self.tmp.name
        os.makedirs(os.path.join(root, "tests", "conformance"))
        os.makedirs(os.path.join(root, "tests", "gpu"))
        files = {
            "tests/conformance/routine_ref.py": """
                import numpy as np
                DTYPES = ["int8", "float32"]
                SHORT = {"int8": "i1", "float32": "f4"}
                def add_cases(table, new):
                    clash = sorted(set(table) & set(new))
                    assert not clash, clash
                    table.update(new)
                    return table
                class Eval:
                    pass
                def main(cases, numpy2_only, doc, eval_cases=None, eval_numpy2_only=()):
                    return 0
                """,
            "tests/conformance/make_toy_ref.py": """
                import sys
                import numpy as np
                import routine_ref
                from routine_ref import DTYPES, SHORT, Eval, add_cases
                CASES = {"plain": lambda: np.zeros(3)}
                for _dt in DTYPES:
                    CASES[f"ones_{SHORT[_dt]}"] = (lambda d=_dt: np.ones(2, d))
                CASES["ones_i1"] = lambda: np.ones(1)  # replaces the loop's case
                EVAL_CASES = {}
                add_cases(EVAL_CASES, {f"zeros_{s}": Eval() for s in SHORT.values()})
                add_cases(EVAL_CASES, {"plain": Eval()})
                add_cases(EVAL_CASES, {"zeros_f4": Eval()})  # add_cases' assert fails
                if hasattr(np, "newer"):
                    add_cases(EVAL_CASES, {"newer": Eval()})
                NUMPY2_ONLY = {"ones_f4", "no_such_case"}
                if __name__ == "__main__":
                    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES))
                """,
            "tests/gpu/test_toy_gpu.cpp": """
                const dtype some[] = {int8, float32};
                const std::map<std::string, std::function<results()>>& cases() {
                  static const std::map<std::string, std::function<results()>> table = [] {
                    std::map<std::string, std::function<results()>> t = {
                        {"plain", [] { return results{zeros({3})}; }},
                        {"only_cpp",
                         [] { return results{zeros({1})}; }},
                        {"made", make_case(1)},
                    };
                    for (const dtype& d : some) {
                      const std::string n = d.name();
                      if (d.is_integer()) t["ones_i" + std::to_string(d.itemsize())] = [d] { return results{}; };
                      t[std::string("twice_") + n] = [d] { return results{}; };
                    }
                    t[std::string("twice_") + "int8"] = [] { return results{}; };
                    return t;
                  }();
                  return table;
                }
                TEST(ToyGpu, MatchesNumPyReference) { test::check_reference_set("toy", cases(), tol); }
                """,
        }
        for rel, text in files.items():
            with open(os.path.join(root, rel), "w") as f:
                f.write(textwrap.dedent(text).lstrip())
        self.families, self.warnings = ref_case_ids.collect(root)
        self.fam = self.families["toy"]

    def test_sides(self):
        got = {tuple(line.split()[1:]) for line in ref_case_ids.listing(self.families)}
        self.assertEqual(got, {("plain", "both"), ("only_cpp", "cpp"), ("ones_i1", "numpy"), ("ones_f4", "numpy"),
                               ("zeros_i1", "numpy"), ("zeros_f4", "numpy"), ("newer", "numpy"),
                               ("twice_int8", "cpp"), ("twice_float32", "cpp")})
        c = ref_case_ids.counts(self.fam)
        self.assertEqual((c["numpy"], c["cpp"], c["both"], c["total"]), (5, 3, 1, 9))

    def test_what_looks_inconsistent(self):
        notes = "\n".join(ref_case_ids.inconsistencies(self.families))
        self.assertIn("1 ids in both CASES and EVAL_CASES", notes)          # plain
        self.assertIn("CASES sets ones_i1 twice", notes)
        self.assertIn("the C++ table has twice_int8 2 times", notes)
        self.assertIn("3 C++ cases the generator does not declare: only_cpp twice_float32 twice_int8", notes)
        self.assertIn("NUMPY2_ONLY names 1 ids that are no classic case: no_such_case", notes)
        self.assertIn("ids exist only with some NumPy versions", notes)    # newer
        self.assertIn("EVAL_CASES but no check_eval_reference_set", notes)
        self.assertIn("ones_f4 ones_i1", notes)                             # CASES ids without a C++ case
        self.assertIn("EVAL_CASES sets zeros_f4 twice", notes)
        self.assertTrue(any(w.startswith(os.path.join("tests", "conformance", "routine_ref.py")) and "assert fails"
                            in w and "zeros_f4" in w for w in self.warnings), self.warnings)
        # d.itemsize() is no method the reader knows: reported, never guessed
        self.assertTrue(any("cannot be evaluated" in w and "itemsize" in w for w in self.warnings), self.warnings)
        self.assertTrue(any('{"made", ...} whose case is no lambda' in w for w in self.warnings), self.warnings)
        self.assertIn("EVAL_CASES?", ref_case_ids.sources(self.fam, "newer"))


class EvalRunners(unittest.TestCase):
    """The parameterised EvalRefGpu test: which families its list holds (the spec families, and
    with a walk of the conformance folder every family with an EVAL_CASES table)."""

    RUNNER = """
        std::vector<std::string> families() {
          for (const detail::routine_spec& s : detail::routine_specs()) names.push_back(s.family);
          %s
          return names;
        }
        TEST_P(Families, AgreeWithNumPy) { check_eval_reference_set(GetParam()); }
        """

    def tree(self, runner):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        root = tmp.name
        for d in ("tests/conformance", "tests/gpu", "specs/routines"):
            os.makedirs(os.path.join(root, d))
        files = {
            "tests/conformance/routine_ref.py": """
                class Eval:
                    pass
                def main(cases, numpy2_only, doc, eval_cases=None, eval_numpy2_only=()):
                    return 0
                """,
            # a family of no spec, with EVAL_CASES
            "tests/conformance/make_extra_ref.py": """
                import routine_ref
                from routine_ref import Eval
                EVAL_CASES = {"e1": Eval()}
                if __name__ == "__main__":
                    routine_ref.main({}, set(), __doc__, EVAL_CASES, set())
                """,
            # a spec family whose generator gives main() no EVAL_CASES
            "tests/conformance/make_plain_ref.py": """
                import routine_ref
                CASES = {"p1": lambda: 0}
                if __name__ == "__main__":
                    routine_ref.main(CASES, set(), __doc__)
                """,
            "tests/gpu/test_plain_gpu.cpp": """
                const std::map<std::string, std::function<results()>>& cases() {
                  static const std::map<std::string, std::function<results()>> table = {
                      {"p1", [] { return results{}; }},
                  };
                  return table;
                }
                TEST(PlainGpu, MatchesNumPyReference) { test::check_reference_set("plain", cases(), tol); }
                """,
            "specs/routines/plain.yaml": "# a family\nfamily: plain\n",
            "specs/routines/lonely.yaml": "family: lonely   # no generator\n",
        }
        if runner:
            files["tests/gpu/test_eval_ref_gpu.cpp"] = runner
        for rel, text in files.items():
            with open(os.path.join(root, rel), "w") as f:
                f.write(textwrap.dedent(text).lstrip())
        families, warnings = ref_case_ids.collect(root)
        self.assertEqual(warnings, [])
        return families, "\n".join(ref_case_ids.inconsistencies(families))

    def test_the_data_driven_list_runs_every_eval_table(self):
        families, notes = self.tree(self.RUNNER % "for (fs::directory_iterator it(dir); it != end; ++it) {}")
        self.assertTrue(families["plain"].spec and not families["extra"].spec)
        self.assertEqual(families["extra"].eval_runners, [os.path.join("tests", "gpu", "test_eval_ref_gpu.cpp")])
        self.assertNotIn("EVAL_CASES but no check_eval_reference_set", notes)
        self.assertIn("plain: a routine family of the specs whose", notes)     # its EvalRefGpu test fails
        self.assertIn("gives main() no EVAL_CASES", notes)
        self.assertIn("lonely: a routine family of the specs without", notes)  # skips: no data

    def test_a_spec_only_list_misses_other_families(self):
        _, notes = self.tree(self.RUNNER % "")
        self.assertIn("extra: 1 EVAL_CASES but no check_eval_reference_set", notes)
        self.assertIn("plain: a routine family of the specs whose", notes)

    def test_no_runner(self):
        _, notes = self.tree(None)
        self.assertIn("extra: 1 EVAL_CASES but no check_eval_reference_set", notes)
        self.assertNotIn("routine family of the specs", notes)  # no parameterised test: nothing fails


if __name__ == "__main__":
    unittest.main()
