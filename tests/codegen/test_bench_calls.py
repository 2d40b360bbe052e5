"""The benchmark's table and its translation (codegen/bench_calls.py): every case of the real table
(bench/cases.json and the modules' tables) translates; expressions become the C++ calls the
specs give, with literals made once outside the timed lambda and the parameter forms the eval
binder's readers give (axis absent, None, an int); what does not translate is an error naming the
case; a module's table is merged, and may neither hold settings nor repeat a case's name."""
from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "codegen"))

from bench_calls import Translator, format_table, load_tables, translate  # noqa: E402
from model import SpecError, load_specs  # noqa: E402

SPECS = load_specs(ROOT)


def case(expr, setup=(), inputs=1, given=False, name="c"):
    c = {"name": name, "expr": expr, "op": "x", "metric": "time",
         "inputs": [{"dtype": "float32", "shape": [8]}] * inputs, "out": {"dtype": "float32", "given": given}}
    if setup:
        c["setup"] = list(setup)
    return c


def bind(expr, **kw):
    return Translator(SPECS).case("t.json", case(expr, **kw))


class RealTable(unittest.TestCase):
    def test_every_case_translates(self):
        table, cases = translate(ROOT, SPECS)
        with_expr = [c for c in table["cases"] if c.get("kind") != "jit"]
        self.assertEqual([c.name for c in cases], [c["name"] for c in with_expr])
        self.assertGreater(len(cases), 30)
        for c in cases:
            self.assertIn("return [", c.bind_cpp, c.name)
        self.assertIn("fftfreq_float64", [c.name for c in cases])  # fft/bench/cases.json is merged
        self.assertEqual(json.loads(format_table(table)), table)

    def test_generated_files_are_current(self):
        """generated/bench/ holds what the tables make (codegen_fresh checks the rest)."""
        table, _ = translate(ROOT, SPECS)
        with open(os.path.join(ROOT, "generated", "bench", "cases.json")) as f:
            self.assertEqual(f.read(), format_table(table))


class Translation(unittest.TestCase):
    def test_ufunc_with_out_makes_its_options_once(self):
        cpp = bind("add(x0, x1, out=out)", inputs=2, given=True).bind_cpp
        self.assertIn("const cupp::ufunc_options v0 = cupp::ufunc_options{.out = out};", cpp)
        self.assertIn("return cupp::add(x0, x1, v0);", cpp)

    def test_python_number_is_a_weak_scalar_operand(self):
        cpp = bind("greater(x0, 0)").bind_cpp
        self.assertIn("cupp::operand(cupp::weak_scalar(std::int64_t{0}))", cpp)

    def test_axes_absent_none_and_int_are_three_forms(self):
        self.assertIn("cupp::axes()", bind("sum(x0)").bind_cpp)
        self.assertIn("cupp::axes::none()", bind("sum(x0, axis=None)").bind_cpp)
        self.assertIn("cupp::axes(std::vector<std::int64_t>{0})", bind("sum(x0, axis=0)").bind_cpp)
        self.assertIn("cupp::axes(std::vector<std::int64_t>{0, 1})", bind("sum(x0, axis=(0, 1))").bind_cpp)

    def test_keyword_and_default_values(self):
        cpp = bind("take(x0, x1, mode='clip')", inputs=2).bind_cpp
        self.assertIn('std::string("clip")', cpp)
        self.assertIn("const std::optional<int> v0 = std::nullopt;", cpp)  # axis=None
        self.assertIn('std::string("raise")', bind("take(x0, x1)", inputs=2).bind_cpp)
        self.assertIn('cupp::dtype::parse("float16")', bind("astype(x0, 'float16')").bind_cpp)

    def test_the_call_its_spec_picks(self):
        self.assertIn("cupp::arange(v0, v1)", bind("arange(10)").bind_cpp)  # stop alone
        self.assertIn("*v1", bind("arange(2, 10)").bind_cpp)             # start, stop
        self.assertIn("cupp::weak_scalar(0)", bind("arange(10, step=2)").bind_cpp)

    def test_subscripts_and_nesting(self):
        self.assertIn("cupp::nonzero(x0).at(0)", bind("nonzero(x0)[0]").bind_cpp)
        c = bind("x0[m]", setup=["m = greater(x0, 0)"])
        self.assertIn("cupp::ndarray(x0(m))", c.bind_cpp)
        self.assertEqual([n for n, _ in c.setup_cpp], ["m"])
        cpp = bind("sum(multiply(x0, x0))").bind_cpp
        self.assertIn("cupp::sum(cupp::multiply(x0, x0)", cpp)  # the inner call is timed too

    def test_tuple_of_fixed_arrays_is_made_once(self):
        cpp = bind("concatenate((x0, x1))", inputs=2).bind_cpp
        self.assertIn("const std::vector<cupp::ndarray> v0 = {x0, x1};", cpp)

    def test_a_module_routine_by_its_qualified_name(self):
        c = bind("fft.fftfreq(16, d=0.5)", inputs=0)
        self.assertIn("cupp::fft::fftfreq(v0, v1)", c.bind_cpp)
        self.assertIn("cupp/fft.hpp", c.headers)

    def test_only_what_the_lambda_uses_is_captured(self):
        cpp = bind("add(x0, x1, out=out)", inputs=2, given=True).bind_cpp
        self.assertIn("return [x0, x1, v0]()", cpp)


class Refused(unittest.TestCase):
    def refused(self, expr, message, **kw):
        with self.assertRaises(SpecError) as caught:
            bind(expr, **kw)
        self.assertIn("bench case 'c'", str(caught.exception))
        self.assertIn(message, str(caught.exception))

    def test_what_does_not_translate(self):
        self.refused("frobnicate(x0)", "neither a ufunc")
        self.refused("add(x0, y)", "'y' is not one of the case's arrays")
        self.refused("add(x0)", "add takes 2 input(s)")
        self.refused("sum(x0, axis=x0)", "takes axes, not an array")
        self.refused("sum(x0, color=1)", "unexpected or repeated keyword 'color'")
        self.refused("take(x0)", "missing required argument 'indices'")
        self.refused("sum(x0, out=x0)", "out= does not translate")
        self.refused("x0[1:2]", "only tuple_result[int] and array[array] translate")
        self.refused("add(x0, x0", "is not a Python expression")
        self.refused("sum(x0)", "is not 'name = expression'", setup=["greater(x0, 0)"])

    def test_a_case_without_an_expression(self):
        c = case("x")
        del c["expr"]
        with self.assertRaises(SpecError) as caught:
            Translator(SPECS).case("t.json", c)
        self.assertIn("has no 'expr'", str(caught.exception))


class ModuleTables(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="cupp-bench-")
        os.makedirs(os.path.join(self.root, "bench"))
        os.makedirs(os.path.join(self.root, "mymod", "bench"))
        open(os.path.join(self.root, "mymod", "module.cmake"), "w").close()
        self.write("bench/cases.json", {"settings": {"reps": 3}, "cases": [case("sum(x0)", name="a")]})

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, rel, table):
        with open(os.path.join(self.root, rel), "w") as f:
            json.dump(table, f)

    def test_a_module_table_is_merged(self):
        self.write("mymod/bench/cases.json", {"cases": [case("max(x0)", name="b")]})
        table, sources = load_tables(self.root)
        self.assertEqual([c["name"] for c in table["cases"]], ["a", "b"])
        self.assertEqual(table["settings"], {"reps": 3})
        self.assertEqual(sources[1][0], "mymod/bench/cases.json")

    def test_a_folder_without_module_cmake_is_not_a_module(self):
        os.makedirs(os.path.join(self.root, "other", "bench"))
        self.write("other/bench/cases.json", {"cases": [case("max(x0)", name="b")]})
        table, _ = load_tables(self.root)
        self.assertEqual([c["name"] for c in table["cases"]], ["a"])

    def test_settings_or_a_repeated_name_are_refused(self):
        self.write("mymod/bench/cases.json", {"settings": {"reps": 1}, "cases": []})
        with self.assertRaises(SpecError) as caught:
            load_tables(self.root)
        self.assertIn("holds only 'cases'", str(caught.exception))
        self.write("mymod/bench/cases.json", {"cases": [case("max(x0)", name="a")]})
        with self.assertRaises(SpecError) as caught:
            load_tables(self.root)
        self.assertIn("bench case 'a' is also in bench/cases.json", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
