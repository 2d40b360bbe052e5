"""Codegen validation of the routine families (specs/routines/*.yaml): every bad family spec of
bad_routine_specs/ is rejected with its file and line (the expected message after '# expect:', the
line marked '# <-- error'), a family may not take another page's name, the generator exits with
status 2 on such a spec, and the real specs agree with the public headers they name (each routine's
C++ function and each family's table function is declared there)."""
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
from model import RESULT_RULES, SpecError, load_specs  # noqa: E402

BAD = os.path.join(HERE, "bad_routine_specs")


def expectation(fname):
    text = open(os.path.join(BAD, fname)).read()
    return re.search(r"# expect: (.*)", text).group(1).strip(), 1 + text.split("# <-- error")[0].count("\n")


class BadRoutineSpecs(unittest.TestCase):
    def test_every_bad_family_is_rejected_with_file_and_line(self):
        files = sorted(f for f in os.listdir(BAD) if f.endswith(".yaml"))
        self.assertGreaterEqual(len(files), 15)
        for fname in files:
            with self.subTest(spec=fname), SpecTree() as tree:
                expected, line = expectation(fname)
                shutil.copy(os.path.join(BAD, fname), tree.path(f"specs/routines/{fname}"))
                with self.assertRaises(SpecError) as caught:
                    load_specs(tree.root)
                err = caught.exception
                self.assertEqual(err.path, f"specs/routines/{fname}", str(err))
                self.assertIn(expected, err.message, str(err))
                self.assertEqual(err.line, line, str(err))

    def test_a_family_may_not_take_another_pages_name(self):
        with SpecTree() as tree:
            text = open(os.path.join(BAD, "bad_routine_family_name.yaml")).read()
            open(tree.path("specs/routines/dtypes.yaml"), "w").write(text.replace("family: other", "family: dtypes"))
            with self.assertRaises(SpecError) as caught:
                load_specs(tree.root)
            self.assertIn("would overwrite docs/api/dtypes.md", caught.exception.message)

    def test_a_name_used_by_two_families_is_refused(self):
        with SpecTree() as tree:
            text = open(tree.path("specs/routines/scans.yaml")).read()
            text = text.replace("family: scans", "family: zzscans").replace("table: scan_routines", "table: zz_routines")
            open(tree.path("specs/routines/zzscans.yaml"), "w").write(text)
            with self.assertRaises(SpecError) as caught:
                load_specs(tree.root)
            self.assertIn("the name 'cumsum' is already used by a routine of specs/routines/scans.yaml",
                          caught.exception.message)
            self.assertEqual(caught.exception.path, "specs/routines/zzscans.yaml")

    def test_generator_reports_errors_with_status_2(self):
        with SpecTree() as tree:
            shutil.copy(os.path.join(BAD, "bad_routine_unknown_ufunc.yaml"),
                        tree.path("specs/routines/bad_routine_unknown_ufunc.yaml"))
            shutil.copytree(os.path.join(ROOT, "codegen"), tree.path("codegen"))
            proc = subprocess.run([sys.executable, tree.path("codegen/generate.py"), "--root", tree.root],
                                  capture_output=True, text=True)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            _, line = expectation("bad_routine_unknown_ufunc.yaml")
            self.assertIn(f"specs/routines/bad_routine_unknown_ufunc.yaml:{line}: ", proc.stderr)


class RealRoutineSpecs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.specs = load_specs(ROOT)
        cls.families = {f.name: f for f in cls.specs.families}

    def test_the_families_load(self):
        self.assertLessEqual({"reductions", "scans", "sorting"}, set(self.families))
        sums = {r.name: r for r in self.families["reductions"].routines}
        self.assertEqual(sums["sum"].folds, "add")
        self.assertEqual(sums["sum"].keywords, ["axis", "dtype", "out", "keepdims", "initial", "where"])
        self.assertEqual(sums["argmax"].result, "index")
        self.assertEqual(sums["max"].aliases, ["amax"])
        for family in self.families.values():
            for r in family.routines:
                if r.has_facts:
                    self.assertIn(r.result, RESULT_RULES)

    def test_a_typed_signature_gives_the_shown_one_and_a_binding(self):
        sort = {r.name: r for r in self.families["sorting"].routines}["sort"]
        self.assertEqual(sort.signature, "sort(a, axis=-1, kind=None, order=None, *, stable=None)")
        self.assertEqual(sort.binding, "generated")
        self.assertEqual([p.name for p in sort.params if p.keyword_only], ["stable"])
        self.assertEqual(sort.keywords, ["axis", "kind", "order", "stable"])

    def test_a_generated_binding_reads_each_parameter_by_its_type(self):
        from eval_bindings import binding_body
        routines = {r.name: r for r in self.families["sorting"].routines}
        body = binding_body(routines["sort"])
        self.assertIn('arguments a("sort", {"a", "axis", "kind", "order", "stable"}, 1, 4, args, kw);', body)
        self.assertIn("a.axis_or_none(1, -1)", body)
        self.assertIn("a.optional_boolean(4)", body)
        self.assertIn('if (a.has(3)) throw cupp::ValueError("sort: order=', body)
        # A parameter of two types is one branch per type, the last the fallback.
        lex = binding_body(routines["lexsort"])
        self.assertIn("if (a.has(0) && a.get(0).is_tuple()) {", lex)
        self.assertIn("cupp::lexsort(a.arrays(0), a.int32(1, -1))", lex)
        self.assertIn("return to_value(cupp::lexsort(a.array(0), a.int32(1, -1)));", lex)

    def test_every_routine_is_declared_in_its_header(self):
        for family in self.specs.families:
            # core's headers are runtime/include's; a module's, <module>/include's
            include = os.path.join(ROOT, "runtime" if family.module == "core" else family.module, "include")
            text = open(os.path.join(include, family.header)).read()
            # ... or in a cupp header it includes (creation.hpp's empty and zeros are ndarray.hpp's;
            # the folding routines are generated/include's <family>_folds.hpp)
            for inc in re.findall(r'#include "(cupp/[\w/]+\.hpp)"', text):
                for folder in (include, os.path.join(ROOT, "generated", "include"),
                               os.path.join(ROOT, "generated", "modules", family.module, "include")):
                    if os.path.exists(os.path.join(folder, inc)):
                        text += open(os.path.join(folder, inc)).read()
            self.assertRegex(text, rf"std::span<const routine_info> {family.table}\(\) noexcept;", family.header)
            for r in family.routines:
                with self.subTest(routine=r.name):
                    # a declaration: the return type (ndarray, std::vector<ndarray>, a result struct), the name
                    self.assertRegex(text, rf"(?m)^[\w:<>, ]*[\w>] {re.escape(r.cpp.split('.')[-1])}\(",
                                     f"cupp::{r.cpp} in {family.header}")

    def test_folding_routines_are_generated_with_their_rules(self):
        families = {f.name: f for f in self.specs.families}
        folding = {f.name: [r.name for r in f.folding_routines()] for f in self.specs.families}
        self.assertEqual(folding["reductions"], ["sum", "prod", "max", "min", "all", "any", "count_nonzero", "nansum",
                                                 "nanprod", "nanmax", "nanmin"])
        self.assertEqual(folding["scans"], ["cumsum", "cumprod", "nancumsum", "nancumprod", "cumulative_sum",
                                            "cumulative_prod"])
        self.assertEqual([f for f, names in folding.items() if names], ["reductions", "scans"])
        by_name = {r.name: r for f in families.values() for r in f.routines}
        self.assertEqual(by_name["count_nonzero"].fold_rules("count_nonzero"),
                         ['.name = "count_nonzero"', ".result = type_id::int64", ".nonzero = true",
                          ".takes_initial = false", ".takes_where = false"])
        self.assertEqual(by_name["all"].fold_rules("all"), ['.name = "all"', ".result = type_id::bool_",
                                                            ".takes_initial = false"])
        self.assertEqual(by_name["nansum"].fold_rules("nansum"), ['.name = "nansum"', ".nan_as_identity = true"])
        self.assertEqual(by_name["cumulative_sum"].fold_options, "cumulative_options")
        self.assertEqual(by_name["nancumsum"].fold_rules("nancumsum"), ['.name = "nancumsum"', ".nan_as_identity = true"])
        self.assertEqual(by_name["mean"].fold_options, "")  # folds none: hand-written C++
        source = open(os.path.join(ROOT, "generated", "src", "folding_routines.cpp")).read()
        self.assertIn("ndarray amax(const ndarray& a, const reduce_options& options) {\n"
                      "  return engine::fold(maximum, a, options, {.name = \"amax\"});", source)

    def test_declarations_are_derived_from_the_call(self):
        trace = next(r for f in self.specs.families for r in f.routines if r.name == "linalg.trace")
        d = trace.declared
        self.assertEqual((d.namespace, d.function, d.struct), ("cupp::linalg", "trace", "trace_options"))
        self.assertEqual(d.fields, [("std::int64_t", "offset", " = 0"), ("std::optional<cupp::dtype>", "dtype", "{}")])
        self.assertEqual(d.signature(), "ndarray trace(const cupp::ndarray& x, const trace_options& options = {})")
        from declarations import declaration
        from routine_params import parse_signature
        params = parse_signature("f(n: int, d: float = 1.0)", "f", "x.yaml", 1)
        self.assertEqual(declaration("cupp::fft::f({n}, {d})", params, "x.yaml", 1, "f").signature(),
                         "ndarray f(std::int64_t n, double d = 1.0)")
        families = {f.name: f for f in self.specs.families}
        self.assertEqual(families["linalg"].declarations_path(),
                         "generated/modules/linalg/include/cupp/generated/linalg_declarations.hpp")

    def test_widening_routines_fold_the_widening_ufuncs(self):
        widening = {op.name for op in self.specs.ops if op.reduce_widens_ints}
        self.assertEqual(widening, {"add", "multiply"})
        for family in self.specs.families:
            for r in family.routines:
                if r.result == "widen_ints":
                    self.assertIn(r.folds, widening, r.name)


if __name__ == "__main__":
    unittest.main()
