#!/usr/bin/env python3
"""Every reference-case id the repository holds, and which side has it (issue 23: the C++ twins of
the NumPy reference cases become EVAL_CASES; this listing, saved before and compared after, shows
that no id went missing on the way).

    python3 tools/dev/ref_case_ids.py [--root DIR] [--sources]      # the listing
    python3 tools/dev/ref_case_ids.py [--root DIR] --summary         # counts per family
    python3 tools/dev/ref_case_ids.py --diff BEFORE AFTER            # exit 1 when an id was lost

The listing has one line per id, `<family> <id> <where>`, sorted; <where> is `numpy` (the family's
tests/conformance/make_<family>_ref.py declares it: its classic CASES table or its EVAL_CASES
table), `cpp` (tests/gpu/test_*_gpu.cpp has a C++ case with that id: the table of cupp calls that
check_reference_set("<family>", ...) runs) or `both`. --sources adds a fourth column saying where
each came from (CASES, EVAL_CASES, file:line of the C++ case; `?` after one that NumPy's version
decides, such as an `if hasattr(np, ...)` block).

Nothing runs: the ids are read from the source text, so this needs neither NumPy nor a build.
  * Python: each generator (and routine_ref.py, which it imports) is walked with the ast module by
    a small evaluator that computes what the ids depend on (string literals, f-strings, the DTYPES
    / SHORT lists, loops, comprehensions, ifs on those, dict literals, update / add_cases, calls of
    the script's own functions such as make_cases() and dtypes_of()) and treats everything NumPy
    gives as opaque. The tables are the arguments of the script's routine_ref.main(...) call.
  * C++: the case table is the function named in check_reference_set("<family>", NAME(), ...),
    plus the file's functions it calls (add_more_cases(t)). Its `{"id", [...] {...}}` entries are
    found by a regex; its `t[EXPR] = [...] {...};` entries by a small interpreter of the range-for
    loops, ifs, local strings, the file's `const dtype xs[] = {...}` arrays and lambdas called in
    those loops (ufunc.at's `each(dt)`), so that "pad_" + m + "_" + n expands to its ids.

--summary prints per family: numpy-only, cpp-only, both, total, and then what looks inconsistent:
ids in both a family's CASES and its EVAL_CASES, ids a table sets twice (the later one replaces the
earlier), NUMPY2_ONLY names that are no case, ids only one side has, EVAL_CASES no test runs (no
check_eval_reference_set("<family>") call, and no parameterised EvalRefGpu test lists the family:
tests/gpu/test_eval_ref_gpu.cpp's lists the routine families of the specs, specs/routines/*.yaml,
and every family whose generator gives main() an EVAL_CASES table, found as its built
<family>-ref/eval/manifest.json), a spec family that test fails on (its generator has no
EVAL_CASES) or skips (it has no generator), and anything the reader could not work out (an id
expression it cannot evaluate is reported, never guessed).

--diff reads two saved listings (the first two columns; lines starting with # are skipped) and
exits 1, printing them, when an id of BEFORE is missing from AFTER; when both were written with
--sources it also exits 1 when a family's count of cases (CASES and EVAL_CASES entries, and
C++-only ids) fell, which catches an id declared in both tables that lost one of them.
Standard library only (Python 3.8+).
"""
import argparse
import ast
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CONFORMANCE = os.path.join("tests", "conformance")
GPU_TESTS = os.path.join("tests", "gpu")


# =====================================================================================================
# The Python side: a small evaluator of the generator scripts' module code.

class _Opaque:
    """A value the evaluator does not compute (anything NumPy gives, lambdas, Eval(...))."""
    __slots__ = ()

    def __repr__(self):
        return "<opaque>"


OPAQUE = _Opaque()


class PyEvalError(Exception):
    pass


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    def __init__(self, value):
        super().__init__()
        self.value = value


# How many unknown conditions (an `if` on something NumPy decides) the evaluator is inside.
_UNKNOWN_DEPTH = [0]


class TrackDict(dict):
    """A dict the evaluator made: it remembers keys set twice (the later value replaced a case) and
    keys set while inside an unknown condition."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.replaced = []  # (key, line or None)
        self.conditional = set()
        if _UNKNOWN_DEPTH[0]:
            self.conditional.update(self.keys())

    def set(self, key, value, line=None):
        if key in self:
            self.replaced.append((key, line))
        if _UNKNOWN_DEPTH[0]:
            self.conditional.add(key)
        dict.__setitem__(self, key, value)

    def __setitem__(self, key, value):
        self.set(key, value)

    def update(self, *args, **kwargs):
        other = dict(*args, **kwargs)
        for k, v in other.items():
            self.set(k, v)
        for src in args:
            if isinstance(src, TrackDict):
                self.replaced.extend(src.replaced)
                self.conditional.update(src.conditional)


class PyModule:
    def __init__(self, name, namespace):
        self.name = name
        self.namespace = namespace


class UserFunction:
    def __init__(self, node, globals_, closure, path):
        self.node = node
        self.globals = globals_
        self.closure = closure  # the enclosing function's locals, or None
        self.path = path        # the file that defines it (for warnings)

    def __repr__(self):
        return "<function %s>" % self.node.name


class UserClass:
    def __init__(self, name):
        self.name = name


_BUILTINS = {
    "set": set, "list": list, "tuple": tuple, "dict": TrackDict, "sorted": sorted, "len": len, "range": range,
    "str": str, "int": int, "float": float, "bool": bool, "complex": complex, "zip": zip, "enumerate": enumerate,
    "reversed": reversed, "min": min, "max": max, "any": any, "all": all, "abs": abs, "sum": sum,
    "frozenset": frozenset, "slice": slice,
    "isinstance": isinstance, "hasattr": hasattr, "getattr": getattr, "repr": repr, "round": round,
    "True": True, "False": False, "None": None,
}
_NOOP_BUILTINS = {"print"}
_CONTAINER_TYPES = (str, bytes, list, tuple, dict, set, frozenset, range, int, float, complex, bool, type(None))
# Methods of real values that the evaluator may call.
_METHODS = {
    str: {"replace", "startswith", "endswith", "format", "join", "split", "upper", "lower", "strip", "rstrip",
          "lstrip", "capitalize", "title", "zfill", "removeprefix", "removesuffix", "rsplit", "partition"},
    list: {"append", "extend", "insert", "index", "count", "copy", "pop", "remove", "sort", "reverse"},
    tuple: {"index", "count"},
    dict: {"items", "keys", "values", "get", "update", "copy", "setdefault", "pop"},
    set: {"add", "update", "union", "intersection", "difference", "symmetric_difference", "copy", "discard",
          "remove", "issubset", "issuperset", "intersection_update", "difference_update"},
    frozenset: {"union", "intersection", "difference", "symmetric_difference", "copy", "issubset", "issuperset"},
}


def _method_table(obj):
    for t, names in _METHODS.items():
        if isinstance(obj, t):
            return names
    return set()


def _has_opaque(values):
    return any(v is OPAQUE for v in values)


class PyEvaluator:
    """Evaluates a generator script's module code as far as its ids need (see the module's doc).
    `warnings` collects what it could not evaluate (path:line: what)."""

    def __init__(self, root):
        self.root = root
        self.dir = os.path.join(root, CONFORMANCE)
        self.modules = {}
        self.warnings = []
        self.failed_asserts = []
        self.path = None
        self._depth_bases = [0]       # the unknown-condition depth where each function call began
        self._loop_depth_bases = [0]  # ... where each for loop began

    # ---- modules
    def load(self, name):
        if name in self.modules:
            return self.modules[name]
        path = os.path.join(self.dir, name + ".py")
        if not os.path.exists(path):
            return OPAQUE
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=path)
        ns = {"__name__": "__ref_case_ids__", "__file__": path, "__doc__": ast.get_docstring(tree)}
        module = PyModule(name, ns)
        self.modules[name] = module
        saved, self.path = self.path, path
        try:
            self.exec_body(tree.body, ns, None)
        finally:
            self.path = saved
        module.tree = tree
        module.path = path
        return module

    def warn(self, node, what):
        line = getattr(node, "lineno", "?")
        self.warnings.append("%s:%s: %s" % (os.path.relpath(self.path, self.root), line, what))

    # ---- statements
    def exec_body(self, stmts, g, l):
        for s in stmts:
            self.exec_stmt(s, g, l)

    def exec_stmt(self, s, g, l):
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return
            self.eval(s.value, g, l)
        elif isinstance(s, ast.Assign):
            value = self.eval(s.value, g, l)
            for t in s.targets:
                self.assign(t, value, g, l)
        elif isinstance(s, ast.AnnAssign):
            if s.value is not None:
                self.assign(s.target, self.eval(s.value, g, l), g, l)
        elif isinstance(s, ast.AugAssign):
            self.aug_assign(s, g, l)
        elif isinstance(s, ast.For):
            self.exec_for(s, g, l)
        elif isinstance(s, ast.If):
            self.exec_if(s, g, l)
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            self.exec_import(s, g, l)
        elif isinstance(s, ast.FunctionDef):
            self.store(s.name, UserFunction(s, g, l, self.path), g, l)
        elif isinstance(s, ast.ClassDef):
            self.store(s.name, UserClass(s.name), g, l)
        elif isinstance(s, ast.Return):
            value = self.eval(s.value, g, l) if s.value is not None else None
            raise _Return(OPAQUE if _UNKNOWN_DEPTH[0] > self._call_depth_base() else value)
        elif isinstance(s, ast.Assert):
            test = self.eval(s.test, g, l)
            if test is not OPAQUE and not test and not _UNKNOWN_DEPTH[0]:
                msg = self.eval(s.msg, g, l) if s.msg is not None else None
                self.failed_asserts.append("%s:%d: assert fails: %s" % (os.path.relpath(self.path, self.root), s.lineno,
                                                                        msg))
        elif isinstance(s, ast.Try):
            self.exec_body(s.body, g, l)
            self.exec_body(s.orelse, g, l)
            self.exec_body(s.finalbody, g, l)
        elif isinstance(s, ast.With):
            self.exec_body(s.body, g, l)
        elif isinstance(s, (ast.Break, ast.Continue)):
            if _UNKNOWN_DEPTH[0] > self._loop_depth_bases[-1]:
                self.warn(s, "%s under a condition NumPy decides: not taken" % type(s).__name__.lower())
                return
            raise _Break() if isinstance(s, ast.Break) else _Continue()
        elif isinstance(s, (ast.Pass, ast.Global, ast.Nonlocal, ast.Delete, ast.Raise)):
            return
        elif isinstance(s, ast.While):
            self.warn(s, "while loop not evaluated")
        else:
            self.warn(s, "statement %s not evaluated" % type(s).__name__)


    def _call_depth_base(self):
        return self._depth_bases[-1]

    def exec_for(self, s, g, l):
        it = self.eval(s.iter, g, l)
        if it is OPAQUE:
            self.warn(s, "for loop over a value NumPy gives: its body is not evaluated")
            return
        self._loop_depth_bases.append(_UNKNOWN_DEPTH[0])
        try:
            for item in list(it):
                self.assign(s.target, item, g, l)
                try:
                    self.exec_body(s.body, g, l)
                except _Continue:
                    continue
                except _Break:
                    break
            else:
                self.exec_body(s.orelse, g, l)
        finally:
            self._loop_depth_bases.pop()

    def exec_if(self, s, g, l):
        if self.is_main_guard(s.test):
            return
        test = self.eval(s.test, g, l)
        if test is OPAQUE:
            _UNKNOWN_DEPTH[0] += 1
            try:
                self.exec_body(s.body, g, l)
                self.exec_body(s.orelse, g, l)
            finally:
                _UNKNOWN_DEPTH[0] -= 1
        elif test:
            self.exec_body(s.body, g, l)
        else:
            self.exec_body(s.orelse, g, l)

    @staticmethod
    def is_main_guard(test):
        return (isinstance(test, ast.Compare) and isinstance(test.left, ast.Name) and test.left.id == "__name__"
                and len(test.comparators) == 1 and isinstance(test.comparators[0], ast.Constant)
                and test.comparators[0].value == "__main__")

    def exec_import(self, s, g, l):
        if isinstance(s, ast.Import):
            for alias in s.names:
                top = alias.name.split(".")[0]
                self.store(alias.asname or top, self.load(top) if top == alias.name else OPAQUE, g, l)
        else:
            module = self.load(s.module) if s.module and not s.level else OPAQUE
            for alias in s.names:
                if isinstance(module, PyModule):
                    value = module.namespace.get(alias.name, OPAQUE)
                else:
                    value = OPAQUE
                self.store(alias.asname or alias.name, value, g, l)

    def store(self, name, value, g, l):
        (l if l is not None else g)[name] = value

    def assign(self, target, value, g, l):
        if isinstance(target, ast.Name):
            self.store(target.id, value, g, l)
        elif isinstance(target, (ast.Tuple, ast.List)):
            if value is OPAQUE:
                for t in target.elts:
                    self.assign(t, OPAQUE, g, l)
                return
            values = list(value)
            if len(values) != len(target.elts):
                raise PyEvalError("cannot unpack %d values into %d names" % (len(values), len(target.elts)))
            for t, v in zip(target.elts, values):
                self.assign(t, v, g, l)
        elif isinstance(target, ast.Subscript):
            container = self.eval(target.value, g, l)
            if container is OPAQUE or not isinstance(container, (dict, list)):
                return
            key = self.eval_slice(target.slice, g, l)
            if key is OPAQUE:
                if isinstance(container, dict):
                    self.warn(target, "a key that cannot be evaluated is set in a table")
                return
            if isinstance(container, TrackDict):
                container.set(key, value, target.lineno)
            else:
                container[key] = value
        elif isinstance(target, ast.Attribute):
            return  # g.__name__ = ...
        elif isinstance(target, ast.Starred):
            raise PyEvalError("starred assignment")
        else:
            raise PyEvalError("assignment to %s" % type(target).__name__)

    def aug_assign(self, s, g, l):
        current = self.eval(s.target, g, l) if not isinstance(s.target, ast.Subscript) else OPAQUE
        value = self.eval(s.value, g, l)
        if current is OPAQUE or value is OPAQUE:
            result = OPAQUE
        else:
            result = self.binop(s.op, current, value, s)
            if isinstance(current, (set, list, dict)) and isinstance(s.target, ast.Name):
                # in place, as Python does for |= and += on mutable values
                if isinstance(current, set):
                    current |= result
                elif isinstance(current, list):
                    current[:] = result
                result = current
        self.assign(s.target, result, g, l)

    # ---- expressions
    def lookup(self, name, g, l, node):
        scope = l
        while scope is not None:  # the function's locals, then the enclosing functions'
            if name in scope:
                return scope[name]
            scope = getattr(scope, "outer", None)
        if name in g:
            return g[name]
        if name in _BUILTINS:
            return _BUILTINS[name]
        if name in _NOOP_BUILTINS:
            return OPAQUE
        raise PyEvalError("name %r is not defined" % name)

    def eval(self, node, g, l):
        if node is None:
            return None
        m = getattr(self, "eval_" + type(node).__name__, None)
        if m is None:
            raise PyEvalError("expression %s not evaluated" % type(node).__name__)
        return m(node, g, l)

    def eval_Constant(self, n, g, l):
        return n.value

    def eval_Name(self, n, g, l):
        return self.lookup(n.id, g, l, n)

    def eval_JoinedStr(self, n, g, l):
        parts = []
        for v in n.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
                continue
            x = self.eval(v.value, g, l)
            if x is OPAQUE:
                return OPAQUE
            if v.conversion == ord("r"):
                x = repr(x)
            elif v.conversion == ord("s"):
                x = str(x)
            elif v.conversion == ord("a"):
                x = ascii(x)
            spec = self.eval(v.format_spec, g, l) if v.format_spec is not None else ""
            if spec is OPAQUE:
                return OPAQUE
            parts.append(format(x, spec))
        return "".join(parts)

    def eval_FormattedValue(self, n, g, l):  # only inside a format spec
        x = self.eval(n.value, g, l)
        return OPAQUE if x is OPAQUE else format(x)

    def eval_List(self, n, g, l):
        return self.elements(n.elts, g, l, list)

    def eval_Tuple(self, n, g, l):
        return self.elements(n.elts, g, l, tuple)

    def eval_Set(self, n, g, l):
        return self.elements(n.elts, g, l, set)

    def elements(self, elts, g, l, kind):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                v = self.eval(e.value, g, l)
                if v is OPAQUE:
                    return OPAQUE
                out.extend(v)
            else:
                out.append(self.eval(e, g, l))
        if kind is set and _has_opaque(out):
            out = [x for x in out if x is not OPAQUE]
        return kind(out)

    def eval_Dict(self, n, g, l):
        d = TrackDict()
        for k, v in zip(n.keys, n.values):
            if k is None:  # {**other}
                other = self.eval(v, g, l)
                if other is OPAQUE:
                    return OPAQUE
                d.update(other)
                continue
            key = self.eval(k, g, l)
            if key is OPAQUE:
                self.warn(k, "a dict key that cannot be evaluated")
                continue
            d.set(key, self.eval(v, g, l), k.lineno)
        return d

    def eval_Lambda(self, n, g, l):
        return OPAQUE

    def eval_Starred(self, n, g, l):
        raise PyEvalError("starred expression")

    def eval_Attribute(self, n, g, l):
        obj = self.eval(n.value, g, l)
        if obj is OPAQUE:
            return OPAQUE
        if isinstance(obj, PyModule):
            return obj.namespace.get(n.attr, OPAQUE)
        if isinstance(obj, (UserFunction, UserClass)):
            return OPAQUE
        if n.attr in _method_table(obj):
            if isinstance(obj, TrackDict) and n.attr == "update":
                return obj.update
            return getattr(obj, n.attr)
        if isinstance(obj, _CONTAINER_TYPES):
            raise PyEvalError("attribute %s of %s" % (n.attr, type(obj).__name__))
        return OPAQUE

    def eval_slice(self, s, g, l):
        if isinstance(s, ast.Slice):
            parts = [self.eval(x, g, l) if x is not None else None for x in (s.lower, s.upper, s.step)]
            return OPAQUE if _has_opaque(parts) else slice(*parts)
        if sys.version_info < (3, 9) and isinstance(s, ast.Index):  # pragma: no cover
            return self.eval(s.value, g, l)
        return self.eval(s, g, l)

    def eval_Subscript(self, n, g, l):
        obj = self.eval(n.value, g, l)
        key = self.eval_slice(n.slice, g, l)
        if obj is OPAQUE or key is OPAQUE or not isinstance(obj, (str, list, tuple, dict, range)):
            return OPAQUE
        return obj[key]

    def eval_Slice(self, n, g, l):
        return self.eval_slice(n, g, l)

    def eval_Index(self, n, g, l):  # pragma: no cover (Python 3.8)
        return self.eval(n.value, g, l)

    def eval_UnaryOp(self, n, g, l):
        v = self.eval(n.operand, g, l)
        if v is OPAQUE:
            return OPAQUE
        if isinstance(n.op, ast.Not):
            return not v
        if isinstance(n.op, ast.USub):
            return -v
        if isinstance(n.op, ast.UAdd):
            return +v
        if isinstance(n.op, ast.Invert):
            return ~v
        raise PyEvalError("unary operator")

    def binop(self, op, a, b, node):
        ops = {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b, ast.Div: lambda: a / b,
               ast.FloorDiv: lambda: a // b, ast.Mod: lambda: a % b, ast.Pow: lambda: a ** b,
               ast.BitOr: lambda: a | b, ast.BitAnd: lambda: a & b, ast.BitXor: lambda: a ^ b,
               ast.LShift: lambda: a << b, ast.RShift: lambda: a >> b}
        f = ops.get(type(op))
        if f is None:
            raise PyEvalError("binary operator %s" % type(op).__name__)
        try:
            return f()
        except TypeError as e:
            raise PyEvalError(str(e))

    def eval_BinOp(self, n, g, l):
        a = self.eval(n.left, g, l)
        b = self.eval(n.right, g, l)
        if a is OPAQUE or b is OPAQUE or not isinstance(a, _CONTAINER_TYPES) or not isinstance(b, _CONTAINER_TYPES):
            return OPAQUE
        if isinstance(n.op, ast.Mod) and isinstance(a, str):
            return a % b
        return self.binop(n.op, a, b, n)

    def eval_BoolOp(self, n, g, l):
        is_and = isinstance(n.op, ast.And)
        result = None
        for v in n.values:
            result = self.eval(v, g, l)
            if result is OPAQUE:
                return OPAQUE
            if is_and and not result:
                return result
            if not is_and and result:
                return result
        return result

    def eval_Compare(self, n, g, l):
        left = self.eval(n.left, g, l)
        for op, c in zip(n.ops, n.comparators):
            right = self.eval(c, g, l)
            if left is OPAQUE or right is OPAQUE:
                return OPAQUE
            if isinstance(op, (ast.In, ast.NotIn)) and not isinstance(right, (str, list, tuple, dict, set,
                                                                                frozenset, range)):
                return OPAQUE
            r = {ast.Eq: lambda: left == right, ast.NotEq: lambda: left != right, ast.Lt: lambda: left < right,
                 ast.LtE: lambda: left <= right, ast.Gt: lambda: left > right, ast.GtE: lambda: left >= right,
                 ast.In: lambda: left in right, ast.NotIn: lambda: left not in right,
                 ast.Is: lambda: left is right, ast.IsNot: lambda: left is not right}[type(op)]()
            if not r:
                return False
            left = right
        return True

    def eval_IfExp(self, n, g, l):
        test = self.eval(n.test, g, l)
        if test is OPAQUE:
            return OPAQUE
        return self.eval(n.body if test else n.orelse, g, l)

    def comprehension(self, generators, g, l, emit):
        scope = _Scope(l)

        def loop(k):
            if k == len(generators):
                emit(scope)
                return
            gen = generators[k]
            it = self.eval(gen.iter, g, scope)
            if it is OPAQUE:
                raise _OpaqueComprehension()
            for item in list(it):
                self.assign(gen.target, item, g, scope)
                unknown = 0
                keep = True
                for cond in gen.ifs:
                    t = self.eval(cond, g, scope)
                    if t is OPAQUE:
                        unknown += 1
                    elif not t:
                        keep = False
                        break
                if not keep:
                    continue
                _UNKNOWN_DEPTH[0] += unknown
                try:
                    loop(k + 1)
                finally:
                    _UNKNOWN_DEPTH[0] -= unknown

        loop(0)

    def eval_ListComp(self, n, g, l):
        out = []
        try:
            self.comprehension(n.generators, g, l, lambda s: out.append(self.eval(n.elt, g, s)))
        except _OpaqueComprehension:
            return OPAQUE
        return out

    def eval_GeneratorExp(self, n, g, l):
        return self.eval_ListComp(n, g, l)

    def eval_SetComp(self, n, g, l):
        out = self.eval_ListComp(n, g, l)
        return OPAQUE if out is OPAQUE else set(x for x in out if x is not OPAQUE)

    def eval_DictComp(self, n, g, l):
        d = TrackDict()

        def emit(s):
            k = self.eval(n.key, g, s)
            if k is OPAQUE:
                self.warn(n, "a dict comprehension key that cannot be evaluated")
                return
            d.set(k, self.eval(n.value, g, s), n.lineno)

        try:
            self.comprehension(n.generators, g, l, emit)
        except _OpaqueComprehension:
            return OPAQUE
        return d

    def eval_Call(self, n, g, l):
        func = self.eval(n.func, g, l)
        if func is OPAQUE or isinstance(func, UserClass):
            return OPAQUE
        args = []
        for a in n.args:
            if isinstance(a, ast.Starred):
                v = self.eval(a.value, g, l)
                if v is OPAQUE:
                    return OPAQUE
                args.extend(v)
            else:
                args.append(self.eval(a, g, l))
        kwargs = {}
        for kw in n.keywords:
            v = self.eval(kw.value, g, l)
            if kw.arg is None:
                if v is OPAQUE:
                    return OPAQUE
                kwargs.update(v)
            else:
                kwargs[kw.arg] = v
        if isinstance(func, UserFunction):
            return self.call_user(func, args, kwargs, n)
        if func in (hasattr, getattr, isinstance) and _has_opaque(args):
            return OPAQUE
        if _has_opaque(args) or _has_opaque(kwargs.values()):
            if func in (set, frozenset):
                pass  # a set of some values NumPy gives: keep the real ones
            elif func is TrackDict or getattr(func, "__self__", None) is not None:
                pass  # dict(...) and methods keep opaque values as values
            else:
                return OPAQUE
        if func is hasattr or func is getattr:
            return OPAQUE  # of a real value: not needed
        try:
            return func(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the script's own error, reported
            raise PyEvalError("%s(...) raised %s: %s" % (getattr(func, "__name__", func), type(e).__name__, e))

    def call_user(self, func, args, kwargs, node):
        fn = func.node
        local = _Scope(func.closure)
        params = fn.args
        positional = list(getattr(params, "posonlyargs", [])) + list(params.args)
        defaults = list(params.defaults)
        first_default = len(positional) - len(defaults)
        for i, p in enumerate(positional):
            if i < len(args):
                local[p.arg] = args[i]
            elif p.arg in kwargs:
                local[p.arg] = kwargs.pop(p.arg)
            elif i >= first_default:
                local[p.arg] = self.eval(defaults[i - first_default], func.globals, func.closure)
            else:
                raise PyEvalError("%s() misses argument %s" % (fn.name, p.arg))
        if params.vararg is not None:
            local[params.vararg.arg] = tuple(args[len(positional):])
        for p, d in zip(params.kwonlyargs, params.kw_defaults):
            if p.arg in kwargs:
                local[p.arg] = kwargs.pop(p.arg)
            else:
                local[p.arg] = self.eval(d, func.globals, func.closure) if d is not None else OPAQUE
        if params.kwarg is not None:
            local[params.kwarg.arg] = TrackDict(kwargs)
        self._depth_bases.append(_UNKNOWN_DEPTH[0])
        saved, self.path = self.path, func.path
        try:
            self.exec_body(fn.body, func.globals, local)
        except _Return as r:
            return r.value
        except PyEvalError as e:
            self.warn(node, "%s() not evaluated (%s): its result is taken as opaque" % (fn.name, e))
            return OPAQUE
        finally:
            self._depth_bases.pop()
            self.path = saved
        return None


class _OpaqueComprehension(Exception):
    """A comprehension over a value NumPy gives: the whole comprehension is opaque."""


class _Scope(dict):
    """A function's or comprehension's locals; `outer` is the enclosing function's."""

    def __init__(self, outer=None):
        super().__init__()
        self.outer = outer


def _main_call(tree):
    """The routine_ref.main(...) call of a generator's __main__ block."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Attribute) and f.attr == "main" and isinstance(f.value, ast.Name)
                    and f.value.id == "routine_ref") or (isinstance(f, ast.Name) and f.id == "main"):
                return node
    return None


class Family:
    """What one family's generator declares."""

    def __init__(self, name):
        self.name = name
        self.script = None
        self.cases = {}          # classic CASES: id -> line-less marker
        self.eval_cases = {}     # EVAL_CASES
        self.conditional = set()  # ids declared under a condition NumPy decides
        self.replaced = []       # (table, id, line): set twice in one table
        self.numpy2_only = set()
        self.eval_numpy2_only = set()
        self.cpp = {}            # id -> [(file, line, conditional)]
        self.cpp_files = []
        self.eval_tests = []     # the C++ files with check_eval_reference_set("<family>")
        self.eval_table = False  # the generator gives main() an EVAL_CASES table (the build writes
        #                          <family>-ref/eval/manifest.json from it, an empty one too)
        self.spec = False        # a routine family of the specs (specs/routines/*.yaml's family:)
        self.eval_runners = []   # the parameterised EvalRefGpu tests whose list has this family
        self.spec_runners = []   # those that list it as a family of the specs
        self.notes = []


def read_generators(root, families):
    ev = PyEvaluator(root)
    conf = ev.dir
    names = sorted(f[len("make_"):-len("_ref.py")] for f in os.listdir(conf)
                   if f.startswith("make_") and f.endswith("_ref.py"))
    for name in names:
        fam = families.setdefault(name, Family(name))
        fam.script = os.path.join(CONFORMANCE, "make_%s_ref.py" % name)
        module = ev.load("make_%s_ref" % name)
        call = _main_call(module.tree)
        if call is None:
            fam.notes.append("%s has no routine_ref.main(...) call: CASES and EVAL_CASES read by name" % fam.script)
            exprs = {"cases": "CASES", "numpy2_only": "NUMPY2_ONLY", "eval_cases": "EVAL_CASES",
                     "eval_numpy2_only": "EVAL_NUMPY2_ONLY"}
            values = {k: module.namespace.get(v) for k, v in exprs.items()}
            fam.eval_table = values["eval_cases"] is not None
        else:
            slots = ["cases", "numpy2_only", "doc", "eval_cases", "eval_numpy2_only"]
            nodes = dict(zip(slots, call.args))
            nodes.update({kw.arg: kw.value for kw in call.keywords})
            fam.eval_table = "eval_cases" in nodes and not (isinstance(nodes["eval_cases"], ast.Constant)
                                                            and nodes["eval_cases"].value is None)
            ev.path = module.path
            values = {}
            for k in ("cases", "numpy2_only", "eval_cases", "eval_numpy2_only"):
                try:
                    values[k] = ev.eval(nodes[k], module.namespace, None) if k in nodes else None
                except PyEvalError as e:
                    fam.notes.append("%s: the %s argument of main() not evaluated: %s" % (fam.script, k, e))
                    values[k] = None
        for key, table in (("cases", "CASES"), ("eval_cases", "EVAL_CASES")):
            d = values.get(key)
            if d is None:
                continue
            if not isinstance(d, dict):
                fam.notes.append("%s: %s is not a dict the reader can follow" % (fam.script, table))
                continue
            target = fam.cases if key == "cases" else fam.eval_cases
            for k in d:
                target[k] = True
            if isinstance(d, TrackDict):
                fam.replaced.extend((table, k, line) for k, line in d.replaced)
                fam.conditional.update(d.conditional)
        for key, attr in (("numpy2_only", "numpy2_only"), ("eval_numpy2_only", "eval_numpy2_only")):
            v = values.get(key)
            if isinstance(v, (set, frozenset, list, tuple, dict)):
                setattr(fam, attr, set(x for x in v if isinstance(x, str)))
    return ev


# =====================================================================================================
# The C++ side: the case tables of tests/gpu/test_*_gpu.cpp.

_CPP_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<pp>^[ \t]*\#[^\n]*(?:\\\n[^\n]*)*)
  | (?P<str>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>'(?:[^'\\\n]|\\.)*')
  | (?P<num>(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)[uUlLfF]*)
  | (?P<ident>[A-Za-z_]\w*)
  | (?P<punct>::|->|==|!=|<=|>=|&&|\|\||\+\+|--|\+=|-=|\*=|/=|<<|>>|[{}()\[\];,.:?<>=+\-*/%!&|^~#])
""", re.VERBOSE | re.DOTALL | re.MULTILINE)


class Tok:
    __slots__ = ("kind", "text", "line")

    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line

    def __repr__(self):
        return self.text


def cpp_tokens(text):
    toks = []
    line = 1
    pos = 0
    while pos < len(text):
        m = _CPP_TOKEN.match(text, pos)
        if m is None:
            raise ValueError("cannot read C++ at line %d: %r" % (line, text[pos:pos + 20]))
        kind = m.lastgroup
        s = m.group()
        if kind == "str":
            toks.append(Tok("str", _cpp_unescape(s[s.index('"') + 1:-1]), line))
        elif kind not in ("ws", "comment", "pp"):
            toks.append(Tok(kind, s, line))
        line += s.count("\n")
        pos = m.end()
    return toks


def _cpp_unescape(s):
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m.group(1), m.group(1)), s)


class CppDtype:
    KINDS = {"bool": "b", "int8": "i", "int16": "i", "int32": "i", "int64": "i", "uint8": "u", "uint16": "u",
             "uint32": "u", "uint64": "u", "float16": "f", "bfloat16": "f", "float32": "f", "float64": "f",
             "complex64": "c", "complex128": "c"}

    def __init__(self, name):
        self.name_ = name
        self.kind_ = self.KINDS[name]

    def __eq__(self, other):
        return isinstance(other, CppDtype) and other.name_ == self.name_

    def __hash__(self):
        return hash(self.name_)

    def __repr__(self):
        return "dtype(%s)" % self.name_


_CPP_DTYPES = {("bool_" if n == "bool" else n): CppDtype(n) for n in CppDtype.KINDS}


def _dtype_method(d, name, args):
    table = {"name": lambda: d.name_, "kind": lambda: d.kind_, "is_bool": lambda: d.kind_ == "b",
             "is_integer": lambda: d.kind_ in "iu", "is_floating": lambda: d.kind_ == "f",
             "is_complex": lambda: d.kind_ == "c", "is_inexact": lambda: d.kind_ in "fc",
             "is_signed": lambda: d.kind_ == "i"}
    if name not in table or args:
        raise CppEvalError("dtype::%s" % name)
    return table[name]()


def _string_method(s, name, args):
    if name == "rfind":
        sub, pos = args[0], (args[1] if len(args) > 1 else len(s))
        return s.rfind(sub, 0, pos + len(sub))  # C++: the last occurrence starting at or before pos
    if name == "find":
        return s.find(args[0], args[1] if len(args) > 1 else 0)
    if name in ("size", "length"):
        return len(s)
    if name == "empty":
        return not s
    if name == "starts_with":
        return s.startswith(args[0])
    if name == "ends_with":
        return s.endswith(args[0])
    if name == "c_str":
        return s
    raise CppEvalError("string::%s" % name)


class CppEvalError(Exception):
    pass


class _CppReturn(Exception):
    pass


class _CppLambda:
    def __init__(self, params, body, env):
        self.params, self.body, self.env = params, body, env


class CppEnv(dict):
    def __init__(self, outer=None):
        super().__init__()
        self.outer = outer

    def find(self, name):
        e = self
        while e is not None:
            if name in e:
                return e[name]
            e = e.outer
        raise KeyError(name)


_UNKNOWN = object()


class CppTable:
    """Reads one test file's case table (see the module's doc)."""

    def __init__(self, path, rel):
        self.path, self.rel = path, rel
        with open(path, encoding="utf-8") as f:
            self.text = f.read()
        self.toks = cpp_tokens(self.text)
        self.match = self._brackets()
        self.functions = self._functions()
        self.globals = CppEnv()
        self.globals.update(_CPP_DTYPES)
        self._namespace_arrays()
        self.ids = []  # (id, line, conditional)
        self.warnings = []
        self.visited = set()

    # ---- structure
    def _brackets(self):
        match, stack = {}, []
        for i, t in enumerate(self.toks):
            if t.kind != "punct":
                continue
            if t.text in "([{":
                stack.append(i)
            elif t.text in ")]}":
                if not stack:
                    raise ValueError("%s:%d: unbalanced %s" % (self.rel, t.line, t.text))
                j = stack.pop()
                match[j], match[i] = i, j
        if stack:
            raise ValueError("%s: unbalanced brackets" % self.rel)
        return match

    def _functions(self):
        """name -> (index of the body's '{'): definitions `NAME(...) [const|noexcept] {`."""
        out = {}
        for i, t in enumerate(self.toks):
            if t.kind != "ident" or i + 1 >= len(self.toks) or self.toks[i + 1].text != "(":
                continue
            if i > 0 and self.toks[i - 1].text in (".", "->", "::", "(", ",", "=", "return", "{", "}", ";", "!",
                                                    "&&", "||", "+", "-", "<", "["):
                continue
            close = self.match[i + 1]
            k = close + 1
            while k < len(self.toks) and self.toks[k].text in ("const", "noexcept", "override"):
                k += 1
            if k < len(self.toks) and self.toks[k].text == "{":
                out.setdefault(t.text, k)
        return out

    def _namespace_arrays(self):
        """`... NAME[] = {...};` anywhere outside function bodies (at namespace level)."""
        depth_fn = self._function_depths()
        for i, t in enumerate(self.toks):
            if (t.kind == "ident" and i + 4 < len(self.toks) and self.toks[i + 1].text == "["
                    and self.toks[i + 2].text == "]" and self.toks[i + 3].text == "="
                    and self.toks[i + 4].text == "{" and not depth_fn[i]):
                end = self.match[i + 4]
                try:
                    self.globals[t.text] = self.eval_expr(i + 4, end + 1, self.globals)
                except CppEvalError:
                    self.globals[t.text] = _UNKNOWN

    def _function_depths(self):
        """For each token: whether it is inside a function body."""
        inside = [False] * len(self.toks)
        for start in self.functions.values():
            end = self.match[start]
            for k in range(start, end + 1):
                inside[k] = True
        return inside

    # ---- the table
    def read(self, function):
        if function not in self.functions:
            self.warnings.append("%s: no definition of %s()" % (self.rel, function))
            return
        self.run_function(function)
        return self.ids

    def run_function(self, name):
        if name in self.visited:
            return
        self.visited.add(name)
        start = self.functions[name]
        end = self.match[start]
        # {"id", [..] ...} entries: the map literals of this body
        k = start
        while k < end:
            t = self.toks[k]
            if (t.text == "{" and t.kind == "punct" and self.toks[k + 1].kind == "str"
                    and self.toks[k + 2].text == "," and self.toks[k + 3].text == "["):
                self.ids.append((self.toks[k + 1].text, self.toks[k + 1].line, False))
            elif (t.text == "{" and t.kind == "punct" and self.toks[k + 1].kind == "str"
                  and self.toks[k + 2].text == "," and self.toks[k + 3].kind != "str"
                  and self.toks[k - 1].text in ("{", ",", "=")):
                self.warnings.append("%s:%d: an entry {\"%s\", ...} whose case is no lambda: not counted"
                                     % (self.rel, t.line, self.toks[k + 1].text))
            k += 1
        try:
            self.exec_block(start + 1, end, CppEnv(self.globals), 0)
        except _CppReturn:
            pass

    # statements in toks[i:j]
    def exec_block(self, i, j, env, unknown):
        while i < j:
            i = self.exec_stmt(i, j, env, unknown, True)

    def stmt_end(self, i, j):
        """The index after the simple statement starting at i (its ';')."""
        k = i
        while k < j:
            t = self.toks[k]
            if t.kind == "punct" and t.text in "([{":
                k = self.match[k] + 1
                continue
            if t.text == ";":
                return k + 1
            k += 1
        return j

    def exec_stmt(self, i, j, env, unknown, run):
        t = self.toks[i]
        if t.text == ";":
            return i + 1
        if t.text == "{":
            end = self.match[i]
            if run:
                self.exec_block(i + 1, end, CppEnv(env), unknown)
            return end + 1
        if t.kind == "ident" and t.text == "for":
            return self.exec_for(i, j, env, unknown, run)
        if t.kind == "ident" and t.text == "if":
            return self.exec_if(i, j, env, unknown, run)
        if t.kind == "ident" and t.text in ("while", "switch"):
            close = self.match[i + 1]
            end = self.exec_stmt(close + 1, j, env, unknown, False)
            if run and self._has_entry(i, end):
                self.warnings.append("%s:%d: a case inside a %s loop is not followed" % (self.rel, t.line, t.text))
            return end
        if t.kind == "ident" and t.text == "else":
            return self.exec_stmt(i + 1, j, env, unknown, run)
        if t.kind == "ident" and t.text == "return":
            end = self.stmt_end(i, j)
            if run:
                raise _CppReturn()
            return end
        end = self.stmt_end(i, j)
        if run:
            self.simple(i, end - 1 if self.toks[end - 1].text == ";" else end, env, unknown)
        return end

    def _has_entry(self, i, j):
        for k in range(i, j - 1):
            if self.toks[k].text == "[" and self.toks[k - 1].kind == "ident" and self._subscript_assign(k - 1, j):
                return True
        return False

    def exec_for(self, i, j, env, unknown, run):
        open_ = i + 1
        close = self.match[open_]
        body_end = self.exec_stmt(close + 1, j, env, unknown, False)
        if not run:
            return body_end
        colon = None
        k = open_ + 1
        while k < close:
            tk = self.toks[k]
            if tk.kind == "punct" and tk.text in "([{":
                k = self.match[k] + 1
                continue
            if tk.text == ";":
                break
            if tk.text == ":":
                colon = k
                break
            k += 1
        if colon is None:  # a counting loop: case entries in it are not followed
            if self._has_entry(close + 1, body_end):
                self.warnings.append("%s:%d: a case inside a counting for loop is not followed"
                                     % (self.rel, self.toks[i].line))
            return body_end
        names = self.binding_names(open_ + 1, colon)
        try:
            domain = self.eval_expr(colon + 1, close, env)
            if domain is _UNKNOWN or not isinstance(domain, (list, tuple)):
                raise CppEvalError("the loop's range")
        except CppEvalError as e:
            if self._has_entry(close + 1, body_end):
                self.warnings.append("%s:%d: the range of a loop with cases cannot be read (%s)"
                                     % (self.rel, self.toks[i].line, e))
            return body_end
        for item in domain:
            inner = CppEnv(env)
            if len(names) == 1:
                inner[names[0]] = item
            else:
                if not isinstance(item, (list, tuple)) or len(item) != len(names):
                    raise ValueError("%s:%d: structured binding" % (self.rel, self.toks[i].line))
                for n, v in zip(names, item):
                    inner[n] = v
            self.exec_stmt(close + 1, j, inner, unknown, True)
        return body_end

    def binding_names(self, i, j):
        toks = self.toks[i:j]
        if any(t.text == "[" for t in toks):
            a = next(k for k, t in enumerate(toks) if t.text == "[")
            b = next(k for k, t in enumerate(toks) if t.text == "]")
            return [t.text for t in toks[a + 1:b] if t.kind == "ident"]
        idents = [t.text for t in toks if t.kind == "ident"]
        return idents[-1:]

    def exec_if(self, i, j, env, unknown, run):
        k = i + 1
        if self.toks[k].text == "constexpr":
            k += 1
        close = self.match[k]
        then_end = self.exec_stmt(close + 1, j, env, unknown, False)
        end = then_end
        has_else = then_end < j and self.toks[then_end].text == "else"
        if has_else:
            end = self.exec_stmt(then_end + 1, j, env, unknown, False)
        if not run:
            return end
        try:
            cond = self.eval_expr(k + 1, close, env)
            if cond is _UNKNOWN:
                raise CppEvalError("unknown")
            branches = [(close + 1, bool(cond))]
            if has_else:
                branches.append((then_end + 1, not cond))
            extra = 0
        except CppEvalError:
            branches = [(close + 1, True)] + ([(then_end + 1, True)] if has_else else [])
            extra = 1
            if self._has_entry(close + 1, end):
                self.warnings.append("%s:%d: the condition of an if with cases cannot be evaluated: both branches "
                                     "are counted" % (self.rel, self.toks[i].line))
        for start, take in branches:
            if take:
                self.exec_stmt(start, j, env, unknown + extra, True)
        return end

    def _subscript_assign(self, i, end):
        """For `NAME [ ... ] = ...` starting at i: the index of the ']' or None."""
        if self.toks[i].kind != "ident" or i + 1 >= end or self.toks[i + 1].text != "[":
            return None
        close = self.match[i + 1]
        if close + 1 < end and self.toks[close + 1].text == "=":
            return close
        return None

    def simple(self, i, end, env, unknown):
        """A statement without its ';' in toks[i:end]."""
        if i >= end:
            return
        close = self._subscript_assign(i, end)
        if close is not None:
            line = self.toks[i].line
            try:
                key = self.eval_expr(i + 2, close, env)
                if not isinstance(key, str):
                    raise CppEvalError("not a string")
                self.ids.append((key, line, bool(unknown)))
            except CppEvalError as e:
                self.warnings.append("%s:%d: a case id that cannot be evaluated: %s (%s)"
                                     % (self.rel, line, " ".join(str(t) for t in self.toks[i + 2:close]), e))
            return
        first = self.toks[i]
        # a call: NAME(args) of a stored lambda, or of a function of this file (add_more_cases(t))
        if first.kind == "ident" and i + 1 < end and self.toks[i + 1].text == "(" and self.match[i + 1] == end - 1:
            try:
                f = env.find(first.text)
            except KeyError:
                f = None
            if isinstance(f, _CppLambda):
                args = self.split_args(i + 2, end - 1)
                values = [self.eval_expr(a, b, env) for a, b in args]
                inner = CppEnv(f.env)
                for name, v in zip(f.params, values):
                    inner[name] = v
                try:
                    self.exec_block(f.body[0], f.body[1], inner, unknown)
                except _CppReturn:
                    pass
                return
            if first.text in self.functions:
                self.run_function(first.text)
                return
        self.declaration(i, end, env, unknown)

    def split_args(self, i, j):
        out, start, k = [], i, i
        while k < j:
            t = self.toks[k]
            if t.kind == "punct" and t.text in "([{":
                k = self.match[k] + 1
                continue
            if t.text == ",":
                out.append((start, k))
                start = k + 1
            k += 1
        if start < j:
            out.append((start, j))
        return out

    def declaration(self, i, end, env, unknown):
        """TYPE NAME = INIT, TYPE NAME(INIT), TYPE NAME{INIT}, TYPE NAME[] = {...}: stores NAME (an
        immediately called lambda's body runs: `table = [] { ... }();`)."""
        k = i
        eq = None
        while k < end:
            t = self.toks[k]
            if t.kind == "punct" and t.text in "([{":
                if t.text in "({" and eq is None and k > i + 1 and self.toks[k - 1].kind == "ident" and \
                        self.toks[k - 2].kind in ("ident", "punct") and self.toks[k - 2].text not in (".", "->", "::"):
                    # TYPE NAME(INIT) or TYPE NAME{INIT}
                    name = self.toks[k - 1].text
                    if self.toks[k - 2].kind == "ident" or self.toks[k - 2].text in (">", "&", "*"):
                        self.bind(name, k + 1, self.match[k], env, unknown, brace=t.text == "{")
                        return
                k = self.match[k] + 1
                continue
            if t.text == "=":
                eq = k
                break
            k += 1
        if eq is None or eq == i:
            return
        name_at = eq - 1
        if self.toks[name_at].text == "]" and self.toks[name_at - 1].text == "[":
            name_at -= 2
        if self.toks[name_at].kind != "ident" or name_at == i:
            return
        self.bind(self.toks[name_at].text, eq + 1, end, env, unknown)

    def bind(self, name, a, b, env, unknown, brace=False):
        if a < b and self.toks[a].text == "[":
            lam = self.lambda_at(a, b)
            if lam is not None:
                params, body, after = lam
                if after < b and self.toks[after].text == "(" and self.match[after] == b - 1:
                    # called at once: run its body
                    try:
                        self.exec_block(body[0], body[1], CppEnv(env), unknown)
                    except _CppReturn:
                        pass
                    env[name] = _UNKNOWN
                    return
                env[name] = _CppLambda(params, body, env)
                return
        try:
            env[name] = self.eval_expr(a - 1, b + 1, env) if brace else self.eval_expr(a, b, env)
        except CppEvalError:
            env[name] = _UNKNOWN

    def lambda_at(self, a, b):
        """A lambda starting at toks[a] == '[': (params, (body start, body end), index after '}')."""
        k = self.match[a] + 1
        params = []
        if k < b and self.toks[k].text == "(":
            close = self.match[k]
            for s, e in self.split_args(k + 1, close):
                idents = [t.text for t in self.toks[s:e] if t.kind == "ident"]
                if idents:
                    params.append(idents[-1])
            k = close + 1
        while k < b and self.toks[k].text != "{":  # mutable, noexcept, -> TYPE
            k += 1
        if k >= b or self.toks[k].text != "{":
            return None
        close = self.match[k]
        return params, (k + 1, close), close + 1

    # ---- expressions (a Pratt parser over toks[i:j])
    def eval_expr(self, i, j, env):
        p = _CppExpr(self, i, j, env)
        v = p.expr(0)
        if p.k != j:
            raise CppEvalError("cannot read %r" % " ".join(str(t) for t in self.toks[p.k:j]))
        return v


class _CppExpr:
    BINARY = {"||": 1, "&&": 2, "==": 4, "!=": 4, "<": 5, ">": 5, "<=": 5, ">=": 5, "+": 6, "-": 6, "*": 7, "/": 7,
              "%": 7}

    def __init__(self, table, i, j, env):
        self.t, self.k, self.j, self.env = table, i, j, env
        self.toks = table.toks

    def peek(self):
        return self.toks[self.k] if self.k < self.j else None

    def take(self, text=None):
        tok = self.peek()
        if tok is None or (text is not None and tok.text != text):
            raise CppEvalError("expected %s" % text)
        self.k += 1
        return tok

    def expr(self, min_prec):
        left = self.unary()
        while True:
            tok = self.peek()
            if tok is None:
                return left
            if tok.text == "?" and min_prec <= 0:
                self.take()
                a = self.expr(0)
                self.take(":")
                b = self.expr(0)
                if left is _UNKNOWN:
                    raise CppEvalError("unknown condition")
                left = a if left else b
                continue
            prec = self.BINARY.get(tok.text) if tok.kind == "punct" else None
            if prec is None or prec < min_prec or (min_prec == 0 and prec < 1):
                return left
            self.take()
            right = self.expr(prec + 1)
            left = self.binary(tok.text, left, right)

    def binary(self, op, a, b):
        if a is _UNKNOWN or b is _UNKNOWN:
            raise CppEvalError("unknown operand")
        try:
            if op == "+":
                if isinstance(a, str) != isinstance(b, str):
                    raise CppEvalError("string + number")
                return a + b
            return {"-": lambda: a - b, "*": lambda: a * b, "/": lambda: a // b if isinstance(a, int) else a / b,
                    "%": lambda: a % b, "==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b,
                    ">": lambda: a > b, "<=": lambda: a <= b, ">=": lambda: a >= b,
                    "&&": lambda: bool(a) and bool(b), "||": lambda: bool(a) or bool(b)}[op]()
        except TypeError as e:
            raise CppEvalError(str(e))

    def unary(self):
        tok = self.peek()
        if tok is None:
            raise CppEvalError("empty expression")
        if tok.text in ("-", "!", "+") and tok.kind == "punct":
            self.take()
            v = self.unary()
            if v is _UNKNOWN:
                raise CppEvalError("unknown operand")
            return -v if tok.text == "-" else (not v if tok.text == "!" else v)
        return self.postfix(self.primary())

    def primary(self):
        tok = self.take()
        if tok.kind == "str":
            s = tok.text
            while self.peek() is not None and self.peek().kind == "str":
                s += self.take().text
            return s
        if tok.kind == "num":
            text = tok.text.rstrip("uUlLfF")
            return float(text) if any(c in text for c in ".eE") else int(text)
        if tok.text == "(":
            close = self.t.match[self.k - 1]
            v = self.t.eval_expr(self.k, close, self.env)
            self.k = close + 1
            return v
        if tok.text == "{":
            close = self.t.match[self.k - 1]
            items = [self.t.eval_expr(a, b, self.env) for a, b in self.t.split_args(self.k, close)]
            self.k = close + 1
            return items
        if tok.kind == "ident":
            if tok.text in ("true", "false"):
                return tok.text == "true"
            name = tok.text
            while self.peek() is not None and self.peek().text == "::":
                self.take()
                name += "::" + self.take().text
            if self.peek() is not None and self.peek().text == "<" and name in ("std::string_view", "static_cast"):
                raise CppEvalError(name)
            if self.peek() is not None and self.peek().text == "(":
                args = self.call_args()
                return self.call(name, args)
            try:
                return self.env.find(name)
            except KeyError:
                raise CppEvalError("unknown name %s" % name) from None
        raise CppEvalError("unexpected %s" % tok.text)

    def call_args(self):
        open_ = self.k
        close = self.t.match[open_]
        args = [self.t.eval_expr(a, b, self.env) for a, b in self.t.split_args(open_ + 1, close)]
        self.k = close + 1
        return args

    def call(self, name, args):
        if any(a is _UNKNOWN for a in args):
            raise CppEvalError("unknown argument")
        if name in ("std::string", "std::string_view", "std::string_view::basic_string_view") and len(args) == 1 \
                and isinstance(args[0], str):
            return args[0]
        if name == "std::to_string" and len(args) == 1 and isinstance(args[0], (int, float)):
            return str(args[0]) if isinstance(args[0], int) else "%f" % args[0]
        raise CppEvalError("call of %s" % name)

    def postfix(self, v):
        while True:
            tok = self.peek()
            if tok is None:
                return v
            if tok.text == "." or tok.text == "->":
                self.take()
                member = self.take().text
                if self.peek() is None or self.peek().text != "(":
                    raise CppEvalError("member %s" % member)
                args = self.call_args()
                if isinstance(v, CppDtype):
                    v = _dtype_method(v, member, args)
                elif isinstance(v, str):
                    v = _string_method(v, member, args)
                else:
                    raise CppEvalError("method %s" % member)
            elif tok.text == "[":
                close = self.t.match[self.k]
                idx = self.t.eval_expr(self.k + 1, close, self.env)
                self.k = close + 1
                if not isinstance(v, (list, tuple, str)) or not isinstance(idx, int):
                    raise CppEvalError("subscript")
                v = v[idx]
            else:
                return v


_FAMILY_CALL = re.compile(r'check_reference_set\(\s*"(\w+)"\s*,\s*(\w+)\s*\(\s*\)')
_EVAL_FAMILY_CALL = re.compile(r'check_eval_reference_set\(\s*"(\w+)"\s*\)')
# The parameterised runner (tests/gpu/test_eval_ref_gpu.cpp's EvalRefGpu/Families): a TEST_P
# calling check_eval_reference_set(GetParam()). Its parameter list is read from what the file
# uses: detail::routine_specs() gives the routine families of the specs; a walk of the
# conformance folder (std::filesystem::directory_iterator) every reference set with an
# eval/manifest.json, i.e. every family whose generator gives main() an EVAL_CASES table (the
# build runs every make_<family>_ref.py: tests/routine_refs.cmake).
_EVAL_PARAM_CALL = re.compile(r'check_eval_reference_set\(\s*GetParam\(\s*\)\s*\)')
_EVAL_SPEC_LIST = re.compile(r'\broutine_specs\s*\(')
_EVAL_DATA_LIST = re.compile(r'\bdirectory_iterator\b')
_SPEC_FAMILY = re.compile(r'^family:\s*([A-Za-z_]\w*)', re.MULTILINE)


class EvalRunner:
    """A parameterised EvalRefGpu test: its file and which families its list holds."""

    def __init__(self, rel, specs, data):
        self.rel = rel
        self.specs = specs  # the spec families
        self.data = data    # every family with an EVAL_CASES table

    def covers(self, fam):
        return (self.specs and fam.spec) or (self.data and fam.eval_table)


def read_specs(root, families):
    """Marks the routine families of the specs (specs/routines/*.yaml, their `family:` key)."""
    specs = os.path.join(root, "specs", "routines")
    if not os.path.isdir(specs):
        return
    for name in sorted(os.listdir(specs)):
        if name.endswith(".yaml"):
            with open(os.path.join(specs, name), encoding="utf-8") as f:
                m = _SPEC_FAMILY.search(f.read())
            if m:
                families.setdefault(m.group(1), Family(m.group(1))).spec = True


def read_cpp(root, families, runners=None):
    """The C++ case tables; the parameterised EvalRefGpu tests go to `runners` (EvalRunner)."""
    warnings = []
    gpu = os.path.join(root, GPU_TESTS)
    for name in sorted(os.listdir(gpu)):
        if not name.endswith(".cpp"):
            continue
        path = os.path.join(gpu, name)
        rel = os.path.join(GPU_TESTS, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for family in _EVAL_FAMILY_CALL.findall(text):
            families.setdefault(family, Family(family)).eval_tests.append(rel)
        if runners is not None and _EVAL_PARAM_CALL.search(text):
            runners.append(EvalRunner(rel, bool(_EVAL_SPEC_LIST.search(text)), bool(_EVAL_DATA_LIST.search(text))))
        calls = sorted(set(_FAMILY_CALL.findall(text)))
        if not calls:
            continue
        table = CppTable(path, rel)
        for family, function in calls:
            fam = families.setdefault(family, Family(family))
            if rel not in fam.cpp_files:
                fam.cpp_files.append(rel)
            table.ids = []
            table.visited = set()
            table.read(function)
            for case_id, line, conditional in table.ids:
                fam.cpp.setdefault(case_id, []).append((rel, line, conditional))
        warnings.extend(table.warnings)
    return warnings


# =====================================================================================================
# The listing

def collect(root=ROOT):
    """Every family's ids: (families by name, warnings)."""
    families = {}
    ev = read_generators(root, families)
    warnings = list(ev.warnings) + list(ev.failed_asserts)
    runners = []
    warnings.extend(read_cpp(root, families, runners))
    read_specs(root, families)
    for fam in families.values():
        fam.eval_runners = [r.rel for r in runners if r.covers(fam)]
        fam.spec_runners = [r.rel for r in runners if r.specs and fam.spec]
    return families, warnings


def where(fam, case_id):
    numpy = case_id in fam.cases or case_id in fam.eval_cases
    cpp = case_id in fam.cpp
    return "both" if numpy and cpp else "numpy" if numpy else "cpp"


def sources(fam, case_id):
    out = []
    for table, d in (("CASES", fam.cases), ("EVAL_CASES", fam.eval_cases)):
        if case_id in d:
            out.append(table + ("?" if case_id in fam.conditional else ""))
    for rel, line, conditional in fam.cpp.get(case_id, []):
        out.append("%s:%d%s" % (os.path.basename(rel), line, "?" if conditional else ""))
    return ",".join(out)


def all_ids(fam):
    return sorted(set(fam.cases) | set(fam.eval_cases) | set(fam.cpp))


def listing(families, with_sources=False):
    lines = []
    for name in sorted(families):
        fam = families[name]
        for case_id in all_ids(fam):
            line = "%s %s %s" % (name, case_id, where(fam, case_id))
            if with_sources:
                line += " " + sources(fam, case_id)
            lines.append(line)
    return lines


def counts(fam):
    c = {"numpy": 0, "cpp": 0, "both": 0}
    for case_id in all_ids(fam):
        c[where(fam, case_id)] += 1
    c["total"] = sum(c.values())
    return c


def summary(families, warnings):
    out = ["%-16s %11s %9s %6s %6s   %s" % ("family", "numpy-only", "cpp-only", "both", "total",
                                             "(CASES, EVAL_CASES, C++ entries)")]
    totals = {"numpy": 0, "cpp": 0, "both": 0, "total": 0}
    for name in sorted(families):
        fam = families[name]
        c = counts(fam)
        for k in totals:
            totals[k] += c[k]
        entries = sum(len(v) for v in fam.cpp.values())
        out.append("%-16s %11d %9d %6d %6d   (%d, %d, %d)" % (name, c["numpy"], c["cpp"], c["both"], c["total"],
                                                            len(fam.cases), len(fam.eval_cases), entries))
    out.append("%-16s %11d %9d %6d %6d" % ("all", totals["numpy"], totals["cpp"], totals["both"], totals["total"]))
    notes = inconsistencies(families)
    if notes or warnings:
        out.append("")
        out.append("What looks inconsistent:")
        out.extend("  " + n for n in notes)
        out.extend("  reader: " + w for w in warnings)
    else:
        out.append("")
        out.append("Nothing looks inconsistent.")
    return out


def _ids(ids, limit=12):
    ids = sorted(ids)
    text = " ".join(ids[:limit])
    return text + (" ... (%d more)" % (len(ids) - limit) if len(ids) > limit else "")


def inconsistencies(families):
    notes = []
    for name in sorted(families):
        fam = families[name]
        notes.extend("%s: %s" % (name, n) for n in fam.notes)
        if fam.cpp and not fam.script:
            notes.append("%s: C++ cases (%s) but no tests/conformance/make_%s_ref.py"
                         % (name, ", ".join(fam.cpp_files), name))
        twins = set(fam.cases) & set(fam.eval_cases)
        if twins:
            notes.append("%s: %d ids in both CASES and EVAL_CASES (two different cases under one id; the "
                         "classic one needs a new id when it becomes an Eval case): %s"
                         % (name, len(twins), _ids(twins)))
        for table, case_id, line in fam.replaced:
            notes.append("%s: %s sets %s twice%s (the later one replaces the earlier)"
                         % (name, table, case_id, " (line %s)" % line if line else ""))
        dup = {k: v for k, v in fam.cpp.items() if len(v) > 1}
        for case_id, places in sorted(dup.items()):
            notes.append("%s: the C++ table has %s %d times: %s" % (name, case_id, len(places),
                                                                   ", ".join("%s:%d" % (os.path.basename(r), ln)
                                                                             for r, ln, _ in places)))
        cpp_only = sorted(k for k in fam.cpp if k not in fam.cases and k not in fam.eval_cases)
        if cpp_only:
            notes.append("%s: %d C++ cases the generator does not declare: %s" % (name, len(cpp_only), _ids(cpp_only)))
        eval_in_cpp = sorted(k for k in fam.cpp if k in fam.eval_cases and k not in fam.cases)
        if eval_in_cpp:
            notes.append("%s: %d C++ cases whose id only EVAL_CASES declares (the C++ test looks them up in the "
                         "classic manifest): %s" % (name, len(eval_in_cpp), _ids(eval_in_cpp)))
        if fam.cpp_files:
            no_cpp = sorted(k for k in fam.cases if k not in fam.cpp)
            if no_cpp:
                notes.append("%s: %d CASES ids without a C++ case (check_reference_set fails on them): %s"
                             % (name, len(no_cpp), _ids(no_cpp)))
        elif fam.cases:
            notes.append("%s: %d classic CASES but no C++ test runs them" % (name, len(fam.cases)))
        stray = sorted(fam.numpy2_only - set(fam.cases))
        if stray:
            notes.append("%s: NUMPY2_ONLY names %d ids that are no classic case: %s" % (name, len(stray), _ids(stray)))
        stray = sorted(fam.eval_numpy2_only - set(fam.eval_cases))
        if stray:
            notes.append("%s: EVAL_NUMPY2_ONLY names %d ids that are no Eval case: %s"
                         % (name, len(stray), _ids(stray)))
        if fam.eval_cases and not fam.eval_tests and not fam.eval_runners:
            notes.append("%s: %d EVAL_CASES but no check_eval_reference_set(\"%s\") in tests/gpu (no test runs them: "
                         "no call names the family and no parameterised EvalRefGpu test lists it)"
                         % (name, len(fam.eval_cases), name))
        spec_runners = fam.spec_runners
        if spec_runners and not fam.script:
            notes.append("%s: a routine family of the specs without %s: %s's EvalRefGpu test of it skips (no "
                         "reference data)" % (name, os.path.join(CONFORMANCE, "make_%s_ref.py" % name),
                                              ", ".join(spec_runners)))
        elif spec_runners and not fam.eval_table:
            notes.append("%s: a routine family of the specs whose %s gives main() no EVAL_CASES: %s's EvalRefGpu "
                         "test of it fails (no eval/manifest.json)" % (name, fam.script, ", ".join(spec_runners)))
        if fam.eval_tests and not fam.eval_cases:
            notes.append("%s: %s runs its EVAL_CASES, but the generator has none" % (name, ", ".join(fam.eval_tests)))
        cond = sorted(fam.conditional)
        if cond:
            notes.append("%s: %d ids exist only with some NumPy versions (declared under a condition on NumPy): %s"
                         % (name, len(cond), _ids(cond)))
        cond_cpp = sorted(k for k, v in fam.cpp.items() if any(c for _, _, c in v))
        if cond_cpp:
            notes.append("%s: %d C++ ids under a condition the reader could not evaluate: %s"
                         % (name, len(cond_cpp), _ids(cond_cpp)))
    return notes


# =====================================================================================================
# --diff

def read_listing(path):
    """{(family, id): (where, sources or None)} of a saved listing."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split()
            if len(parts) < 3:
                raise ValueError("%s:%d: not '<family> <id> <where>': %r" % (path, n, line))
            out[(parts[0], parts[1])] = (parts[2], parts[3] if len(parts) > 3 else None)
    return out


def case_count(entries):
    """Per family: CASES and EVAL_CASES entries, plus C++-only ids (needs the sources column)."""
    c = {}
    for (family, _), (where_, src) in entries.items():
        tables = [s for s in src.split(",") if s.rstrip("?") in ("CASES", "EVAL_CASES")]
        c[family] = c.get(family, 0) + (len(tables) if tables else 1)
    return c


def diff(before_path, after_path, out=sys.stdout):
    before = read_listing(before_path)
    after = read_listing(after_path)
    lost = sorted(k for k in before if k not in after)
    new = sorted(k for k in after if k not in before)
    for family, case_id in lost:
        print("lost: %s %s (was %s)" % (family, case_id, before[(family, case_id)][0]), file=out)
    status = 1 if lost else 0
    fell = []
    if before and after and all(v[1] for v in before.values()) and all(v[1] for v in after.values()):
        cb, ca = case_count(before), case_count(after)
        for family in sorted(cb):
            if ca.get(family, 0) < cb[family]:
                fell.append(family)
                print("fewer cases: %s had %d (CASES and EVAL_CASES entries, C++-only ids), has %d"
                      % (family, cb[family], ca.get(family, 0)), file=out)
        if fell:
            status = 1
    print("%d ids before, %d after: %d lost, %d new%s" % (len(before), len(after), len(lost), len(new),
                                                         ", %d families with fewer cases" % len(fell) if fell else ""),
          file=out)
    return status


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", default=ROOT, help="the repository (default: this script's)")
    ap.add_argument("--summary", action="store_true", help="counts per family and what looks inconsistent")
    ap.add_argument("--sources", action="store_true", help="a fourth column: the tables and C++ lines of each id")
    ap.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"), help="exit 1 when an id of BEFORE is missing")
    args = ap.parse_args(argv)
    if args.diff:
        return diff(*args.diff)
    families, warnings = collect(args.root)
    if args.summary:
        print("\n".join(summary(families, warnings)))
        return 0
    for line in listing(families, args.sources):
        print(line)
    for w in warnings:
        print("ref_case_ids: " + w, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
