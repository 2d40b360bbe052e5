"""The benchmark's table of cases, merged and translated: bench/cases.json and every module's
<module>/bench/cases.json become one table (generated/bench/cases.json, which every side reads),
and each case's NumPy expression becomes a C++ lambda for cupp_bench
(generated/bench/bench_calls.cpp, codegen/templates/bench_calls.cpp.j2).

An expression is NumPy's spelling over the case's arrays (x0, x1, ... its inputs; out when
out.given; the names its `setup` lines define), e.g. `add(x0, x1, out=out)`, `sum(x0, axis=0)`,
`take(x0, idx, mode='clip')`, `nonzero(x0)[0]`, `x0[m]`, `fft.fftfreq(1024, d=0.5)`. A name is a
ufunc (specs/ufuncs/) or a routine with a generated call (specs/routines/); its arguments are bound
as the spec's typed signature reads them, and the spec's `call:` text is the C++, with each
parameter replaced by a value of the C++ type the eval binder's reader gives (routine_params.TYPES),
so the same overload is chosen as `cupp eval` chooses. Literal arguments and the option values
are computed once, when the case is bound, before anything is timed; only the calls themselves run
in the timed lambda. What cannot be translated is a SpecError naming the case."""
from __future__ import annotations

import ast
import glob
import json
import os
import re
from dataclasses import dataclass, field

from model import Call, Routine, Specs
from routine_params import NO_VALUE, Param
from spec_loader import SpecError

ROOT_TABLE = "bench/cases.json"
ABSENT = object()  # a parameter the expression does not give


@dataclass
class BenchCase:
    name: str
    expr: str
    setup: list[str]
    source: str                 # the table it comes from
    setup_cpp: list[tuple[str, str]] = field(default_factory=list)  # (name, C++ lambda body)
    bind_cpp: str = ""          # the C++ statements that bind the timed call
    headers: set[str] = field(default_factory=set)
    index: int = 0              # its binder's number (cases of the same C++ share the first one's)
    shared: bool = False        # its binder is an earlier case's


def load_tables(root: str) -> tuple[dict, list[tuple[str, dict]]]:
    """The merged table (root's settings and _doc, every case) and (source, case) pairs."""
    path = os.path.join(root, ROOT_TABLE)
    with open(path, encoding="utf-8") as f:
        table = json.load(f)
    sources = [(ROOT_TABLE, c) for c in table["cases"]]
    # A module is a folder with a module.cmake (cmake/CuppModule.cmake); its table is bench/cases.json there.
    for module_cmake in sorted(glob.glob(os.path.join(root, "*", "module.cmake"))):
        extra = os.path.join(os.path.dirname(module_cmake), "bench", "cases.json")
        if not os.path.exists(extra):
            continue
        rel = os.path.relpath(extra, root)
        with open(extra, encoding="utf-8") as f:
            try:
                module_table = json.load(f)
            except json.JSONDecodeError as e:
                raise SpecError(rel, e.lineno, f"not JSON: {e.msg}") from None
        if set(module_table) - {"_doc", "cases"}:
            raise SpecError(rel, None, "a module's table holds only 'cases' (and '_doc'); settings are bench/cases.json's")
        sources += [(rel, c) for c in module_table.get("cases", [])]
    seen: dict[str, str] = {}
    for src, c in sources:
        if c["name"] in seen:
            raise SpecError(src, None, f"bench case '{c['name']}' is also in {seen[c['name']]}")
        seen[c["name"]] = src
    merged = dict(table)
    merged["_doc"] = table.get("_doc", []) + [
        "Merged by codegen/generate.py from bench/cases.json and every <module>/bench/cases.json: edit those."]
    merged["cases"] = [c for _, c in sources]
    return merged, sources


def format_table(table: dict) -> str:
    """The merged table as JSON, one case per line."""
    head = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in table.items() if k != "cases")
    cases = ",\n".join("  " + json.dumps(c) for c in table["cases"])
    return "{\n" + head + ',\n "cases": [\n' + cases + "\n ]\n}\n"


def _array_names(case: dict) -> list[str]:
    names = [f"x{i}" for i in range(len(case.get("inputs", [])))]
    if case.get("out", {}).get("given"):
        names.append("out")
    return names


class Translator:
    """NumPy expressions into C++ over cupp's public API (one per case)."""

    def __init__(self, specs: Specs):
        self.ufuncs = {}
        for op in specs.ops:
            for n in [op.name] + op.aliases:
                self.ufuncs[n] = op
        self.routines: dict[str, tuple[Routine, str]] = {}
        for fam in specs.families:
            for r in fam.routines:
                for n in [r.name] + r.aliases:
                    self.routines[n] = (r, fam.header)

    # ---- one case

    def case(self, src: str, c: dict) -> BenchCase:
        expr = c.get("expr")
        if not isinstance(expr, str):
            raise SpecError(src, None, f"bench case '{c['name']}' has no 'expr' (its NumPy expression)")
        bc = BenchCase(c["name"], expr, list(c.get("setup", [])), src)
        names = set(_array_names(c))
        self._src, self._where = src, f"bench case '{c['name']}'"
        for line in bc.setup:
            target, _, rhs = line.partition("=")
            target = target.strip()
            if not target.isidentifier() or not rhs.strip():
                raise self._fail(f"setup line '{line}' is not 'name = expression'")
            body = self._bind(rhs.strip(), names, bc)
            bc.setup_cpp.append((target, body))
            names.add(target)
        bc.bind_cpp = self._bind(expr, names, bc)
        return bc

    def _bind(self, text: str, names: set[str], bc: BenchCase) -> str:
        """C++ statements that bind `text` and return the timed lambda (std::function<ndarray()>)."""
        try:
            tree = ast.parse(text, mode="eval").body
        except SyntaxError as e:
            raise self._fail(f"'{text}' is not a Python expression: {e.msg}") from None
        self._hoisted: list[tuple[str, str]] = []  # (name, declaration) of values made once
        self._captures: list[str] = []
        self._names = names
        self._headers = bc.headers
        body = self._array(tree)
        lines = [f"const cupp::ndarray {n} = f.get(\"{n}\");" for n in self._captures]
        lines += [decl for _, decl in self._hoisted]
        used = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", body))
        capture = ", ".join(n for n in self._captures + [n for n, _ in self._hoisted] if n in used)
        lines.append(f"return [{capture}]() -> cupp::ndarray {{ return {body}; }};")
        return "\n".join(lines)

    def _fail(self, what: str) -> SpecError:
        return SpecError(self._src, None, f"{self._where}: {what}")

    def _hoist(self, cpp_type: str, value: str) -> str:
        name = f"v{len(self._hoisted)}"
        self._hoisted.append((name, f"const {cpp_type} {name} = {value};"))
        return name

    def _name(self, node: ast.expr) -> str:
        if node.id not in self._names:
            raise self._fail(f"'{node.id}' is not one of the case's arrays ({', '.join(sorted(self._names))})")
        if node.id not in self._captures:
            self._captures.append(node.id)
        return node.id

    # ---- array-valued expressions (evaluated in the timed lambda)

    def _array(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript):
            index = node.slice
            if isinstance(node.value, ast.Call) and isinstance(index, ast.Constant) and isinstance(index.value, int):
                self._pick = index.value  # a routine whose spec names its results (svd(x)[1]) takes it
                text = self._call(node.value)
                if self._pick is None:
                    return text
                self._pick = None
                return f"{text}.at({index.value})"  # a tuple result (nonzero)
            if isinstance(node.value, ast.Name) and isinstance(index, ast.Name):
                return f"cupp::ndarray({self._name(node.value)}({self._name(index)}))"  # x[mask], x[idx]
            raise self._fail(f"subscript '{ast.unparse(node)}': only tuple_result[int] and array[array] translate")
        raise self._fail(f"'{ast.unparse(node)}' is not an array expression (a name, a call, a subscript)")

    def _callee(self, node: ast.expr) -> str:
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return f"{node.value.id}.{node.attr}"  # a module's routine: fft.fftfreq
        raise self._fail(f"'{ast.unparse(node)}' is not a function name")

    def _call(self, node: ast.Call) -> str:
        name = self._callee(node.func)
        if name in self.ufuncs:
            return self._ufunc(name, node)
        if name in self.routines:
            return self._routine(*self.routines[name], name, node)
        raise self._fail(f"'{name}' is neither a ufunc (specs/ufuncs/) nor a routine (specs/routines/)")

    def _ufunc(self, name: str, node: ast.Call) -> str:
        op = self.ufuncs[name]
        if len(node.args) != op.nin:
            raise self._fail(f"{name} takes {op.nin} input(s), the expression gives {len(node.args)}")
        args = [self._operand(a) for a in node.args]
        fields = []
        for kw in node.keywords:
            if kw.arg == "out":
                fields.append(f".out = {self._array(kw.value)}")
            elif kw.arg == "dtype":
                fields.append(f".dtype = cupp::dtype::parse(\"{self._literal(kw.value)}\")")
            elif kw.arg == "casting":
                fields.append(f".casting = cupp::casting::{self._literal(kw.value)}")
            else:
                raise self._fail(f"{name}: keyword '{kw.arg}' does not translate (out=, dtype=, casting= do)")
        if fields:
            args.append(self._hoist("cupp::ufunc_options", "cupp::ufunc_options{" + ", ".join(fields) + "}"))
        return f"cupp::{op.cpp}({', '.join(args)})"

    def _operand(self, node: ast.expr) -> str:
        """A ufunc input: an array expression, or a Python number (a weak scalar, hoisted)."""
        if isinstance(node, (ast.Constant, ast.UnaryOp)):
            return self._hoist("cupp::operand", f"cupp::operand({_weak_scalar(self._literal(node), self)})")
        return self._array(node)

    def _literal(self, node: ast.expr):
        try:
            return ast.literal_eval(node)
        except ValueError:
            raise self._fail(f"'{ast.unparse(node)}' is neither an array expression nor a Python literal") from None

    # ---- routines

    def _routine(self, r: Routine, header: str, name: str, node: ast.Call) -> str:
        pick, self._pick = getattr(self, "_pick", None), None  # [i] of this call's result, if subscripted
        if not r.calls:
            raise self._fail(f"{name} has no generated call in its spec (binding: {r.binding})")
        self._headers.add(header)
        bound = [p for p in r.params if not p.varargs]
        star = next((p for p in r.params if p.varargs), None)  # *operands: the positionals after the lead ones
        given: dict[str, ast.expr] = {}
        positional = [p for p in bound if not p.keyword_only]
        if star is not None:
            lead = r.params.index(star)
            if len(node.args) < lead:
                raise self._fail(f"{name} needs {lead} positional arguments before *{star.name}")
            positional = positional[:lead]
            given[star.name] = ast.Tuple(elts=list(node.args[lead:]), ctx=ast.Load())
        elif len(node.args) > len(positional):
            raise self._fail(f"{name} takes at most {len(positional)} positional arguments")
        for p, a in zip(positional, node.args):
            given[p.name] = a
        by_name = {p.name: p for p in bound}
        for kw in node.keywords:
            if kw.arg not in by_name or kw.arg in given:
                raise self._fail(f"{name}: unexpected or repeated keyword '{kw.arg}'")
            given[kw.arg] = kw.value
        for p in bound:
            if p.default is None and p.name not in given:
                raise self._fail(f"{name}: missing required argument '{p.name}'")
            if p.kind in ("refuse", "ignore") and p.name in given:
                raise self._fail(f"{name}: {p.name}= does not translate (the binder refuses or ignores it)")
        call = self._pick_call(r, given, by_name)
        text = call.call
        for p in bound + ([star] if star is not None else []):  # only the parameters this call names
            if "{" + p.name + "}" in text:
                cpp = self._argument(name, p, given.get(p.name, ABSENT))
                text = text.replace("{" + p.name + "}", cpp if cpp is not None else "")
            elif p.name in given and not (isinstance(given[p.name], ast.Constant) and given[p.name].value is None):
                raise self._fail(f"{name}: {p.name}= is not used by the call its spec makes here")
        if call.returns:
            if pick is None or not 0 <= pick < len(call.returns):
                raise self._fail(f"{name} returns several results ({', '.join(call.returns)}): not a bench array "
                                 f"(take one: {name}(...)[i])")
            self._pick = None
            return f"{text}.{call.returns[pick]}"  # the whole call is timed, one result is compared
        if pick is not None:
            self._pick = pick  # not consumed: the caller indexes a vector result
        return text

    def _pick_call(self, r: Routine, given: dict[str, ast.expr], params: dict[str, Param]) -> Call:
        for c in r.calls:
            if c.when is None:
                return c
            node = given.get(c.when)
            if node is None:
                if params[c.when].types == ["bool"] and params[c.when].default == "True":
                    return c  # a flag left at its default True (svd's compute_uv)
                continue
            if params[c.when].types == ["bool"]:
                if self._literal(node) is True:
                    return c
            elif not (isinstance(node, ast.Constant) and node.value is None):
                return c
        raise self._fail(f"{r.name}: no call of its spec applies")

    def _argument(self, routine: str, p: Param, node) -> str | None:
        """The C++ of parameter p: an array expression inline, a literal hoisted (its reader's type)."""
        if p.kind in ("refuse", "ignore"):  # never named by a call (given ones are refused before)
            return None
        default = p.default
        if node is ABSENT:
            if default in ("None", NO_VALUE):
                value = None if p.types[0] != "axes" else ABSENT
            else:
                value = ast.literal_eval(default) if default not in DEFAULT_DTYPES else DEFAULT_DTYPES[default]
        elif isinstance(node, (ast.Name, ast.Call, ast.Subscript, ast.Attribute)):
            if not any(t in ARRAY_TYPES for t in p.types):
                raise self._fail(f"{routine}: {p.name}= takes {p.type_text}, not an array")
            return self._array(node)
        elif isinstance(node, ast.Tuple) and "arrays" in p.types:
            parts = [self._array(e) for e in node.elts]
            if all(isinstance(e, ast.Name) for e in node.elts):  # fixed arrays: the vector once
                return self._hoist("std::vector<cupp::ndarray>", "{" + ", ".join(parts) + "}")
            return "std::vector<cupp::ndarray>{" + ", ".join(parts) + "}"
        else:
            value = self._literal(node)
        ptype = _pick_type(p, value)
        optional = default in ("None", NO_VALUE)
        cpp_type, cpp = literal_cpp(ptype, value, optional, self)
        return self._hoist(cpp_type, cpp)


ARRAY_TYPES = {"array", "array_like", "index_array", "operand", "arrays", "where"}
DEFAULT_DTYPES = {"float": "float64", "int": "int64", "bool": "bool", "complex": "complex128"}


def _pick_type(p: Param, value) -> str:
    """Of a union parameter's types (int|ints), the one the literal is."""
    if len(p.types) == 1:
        return p.types[0]
    for t in p.types:
        if isinstance(value, tuple) and t in ("ints", "shape", "axes", "int_list", "range"):
            return t
        if isinstance(value, bool) and t == "bool":
            return t
        if isinstance(value, int) and not isinstance(value, bool) and t in ("int", "int32", "number", "axis", "axes"):
            return t
        if isinstance(value, float) and t in ("float", "number"):
            return t
        if isinstance(value, str) and t in ("str", "dtype"):
            return t
    return p.types[-1]


def _cpp_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _weak_scalar(v, tr: Translator) -> str:
    if isinstance(v, bool):
        return f"cupp::weak_scalar({'true' if v else 'false'})"
    if isinstance(v, int):
        return f"cupp::weak_scalar(std::int64_t{{{v}}})"
    if isinstance(v, float):
        return f"cupp::weak_scalar({v!r})"
    raise tr._fail(f"{v!r} is not a Python number")


def _ints(v) -> list[int]:
    return list(v) if isinstance(v, (tuple, list)) else [v]


def literal_cpp(ptype: str, v, optional: bool, tr: Translator) -> tuple[str, str]:
    """(C++ type, C++ value) of a Python literal for a parameter of type ptype, as its reader
    gives it (optional: the parameter's default is None, so the reader's optional form)."""
    def opt(cpp_type: str, text: str | None) -> tuple[str, str]:
        if not optional:
            if text is None:
                raise tr._fail(f"None is not a value of type {ptype} here")
            return cpp_type, text
        return f"std::optional<{cpp_type}>", "std::nullopt" if text is None else f"std::optional<{cpp_type}>({text})"

    if ptype == "int" or ptype == "ddof":
        return opt("std::int64_t", None if v is None else f"std::int64_t{{{int(v)}}}")
    if ptype == "int32":
        return opt("int", None if v is None else f"int{{{int(v)}}}")
    if ptype == "float":
        return opt("double", None if v is None else repr(float(v)))
    if ptype == "number":
        return opt("cupp::weak_scalar", None if v is None else _weak_scalar(v, tr))
    if ptype == "operand":
        return opt("cupp::operand", None if v is None else f"cupp::operand({_weak_scalar(v, tr)})")
    if ptype == "bool":
        return opt("bool", None if v is None else ("true" if v else "false"))
    if ptype == "str":
        return opt("std::string", None if v is None else f"std::string({_cpp_str(v)})")
    if ptype == "dtype":
        return opt("cupp::dtype", None if v is None else f"cupp::dtype::parse({_cpp_str(v)})")
    if ptype == "shape":
        return opt("cupp::shape_t", None if v is None else "cupp::shape_t{" + ", ".join(map(str, _ints(v))) + "}")
    if ptype == "axis":  # the reader's type is std::optional<int> with or without a default
        return "std::optional<int>", "std::nullopt" if v is None else f"std::optional<int>({int(v)})"
    if ptype == "axes":  # absent: not given; None: every axis, given
        if v is ABSENT:
            return "cupp::axes", "cupp::axes()"
        if v is None:
            return "cupp::axes", "cupp::axes::none()"
        return "cupp::axes", "cupp::axes(std::vector<std::int64_t>{" + ", ".join(map(str, _ints(v))) + "})"
    if ptype == "ints":
        return opt("std::vector<std::int64_t>",
                   None if v is None else "std::vector<std::int64_t>{" + ", ".join(map(str, _ints(v))) + "}")
    if ptype == "int_list":
        return "std::vector<int>", "std::vector<int>{" + ", ".join(map(str, _ints(v or ()))) + "}"
    if ptype == "where":
        if v is not True:
            raise tr._fail("where= other than True does not translate (give a mask array instead)")
        return "cupp::ndarray", "cupp::ndarray()"
    if ptype in ("array", "array_like") and v is None:
        return "cupp::ndarray", "cupp::ndarray()"
    if ptype == "casting":
        return "cupp::casting", f"cupp::casting::{v}"
    if ptype == "clip_modes":
        modes = [v] if isinstance(v, str) else list(v)
        return "std::vector<cupp::clip_mode>", ("std::vector<cupp::clip_mode>{" +
                                                 ", ".join(f"cupp::parse_clip_mode({_cpp_str(m)})" for m in modes) + "}")
    raise tr._fail(f"a literal of parameter type '{ptype}' has no C++ form in codegen/bench_calls.py yet")


def translate(root: str, specs: Specs) -> tuple[dict, list[BenchCase]]:
    """The merged table and the translated cases (those with a NumPy expression; the jit cases
    have none: compare.py runs them as fresh processes)."""
    merged, sources = load_tables(root)
    tr = Translator(specs)
    cases = []
    for src, c in sources:
        if c.get("kind") == "jit":
            continue
        cases.append(tr.case(src, c))
    return merged, cases
