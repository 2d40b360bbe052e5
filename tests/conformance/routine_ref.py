"""What the routine families' reference generators (make_creation_ref.py, make_manipulation_ref.py,
make_indexing_ref.py) share: running each case with NumPy and writing its outputs as .npy files
(<dir>/<case>/out<k>.npy) plus manifest.json ({"numpy", "numpy2", "cases": {case: {"outputs":
[{"file", "dtype", "shape"}], "numpy2_only"}}}), which the GPU tests read.

A script may also give cases that run through `cupp eval`'s engine (Eval below): an expression in
NumPy's names over named input arrays. write_eval_set runs each with NumPy and writes
<dir>/eval/<case>/<name>.npy (the inputs), <dir>/eval/<case>/out<k>.npy and <dir>/eval/manifest.json
({"numpy", "numpy2", "cases": {case: {"expr", "inputs": {name: file}, "outputs": [...], "error":
null or the class NumPy raised (AxisError, IndexError, TypeError, ValueError, OverflowError),
"numpy2_only", "rtol": null or a relative tolerance for this case}}}), which
tests/gpu/test_eval_ref_gpu.cpp evaluates with cupp (no C++ per case)."""
import ast
import json
import os
import sys
import warnings

import numpy as np

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def write_reference_set(out_dir, cases, numpy2_only=()):
    """Runs every case (a callable, or a tuple whose first item is one) and writes the set."""
    os.makedirs(out_dir, exist_ok=True)
    manifest = {"numpy": np.__version__, "numpy2": NUMPY2, "cases": {}}
    with np.errstate(all="ignore"):
        for case, make in cases.items():
            if isinstance(make, tuple):
                make = make[0]
            result = make()
            outputs = list(result) if isinstance(result, (tuple, list)) else [result]
            os.makedirs(os.path.join(out_dir, case), exist_ok=True)
            entries = []
            for k, r in enumerate(outputs):
                r = np.asarray(r)
                name = f"{case}/out{k}.npy"
                # (np.ascontiguousarray makes a 0-d array 1-d: save those as they are.)
                np.save(os.path.join(out_dir, name), r if r.ndim == 0 else np.ascontiguousarray(r))
                entries.append({"file": name, "dtype": r.dtype.name, "shape": list(r.shape)})
            manifest["cases"][case] = {"outputs": entries, "numpy2_only": case in numpy2_only}
    tmp = os.path.join(out_dir, "manifest.json.tmp")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(out_dir, "manifest.json"))


def add_cases(table, new):
    """Adds new cases to a table, asserting that no id replaces another (a hand-written id must
    not collide with a generated per-dtype one)."""
    clash = sorted(set(table) & set(new))
    assert not clash, "case ids given twice: %s" % clash
    table.update(new)
    return table


class Eval:
    """A case for cupp eval's engine: `expr` is a Python expression in NumPy's function names (the
    subset `cupp eval` parses: calls with keywords, tuples, numbers, strings, operators,
    subscripts a[...] that read (no list literals; no attributes but u.reduce/u.accumulate/
    u.reduceat/u.outer), over the named input arrays. NumPy evaluates it with the names looked up
    in the inputs, then in numpy. A tuple or list result gives one output per item. rtol
    (optional) overrides the test's tolerance."""

    def __init__(self, expr, rtol=None, **inputs):
        ast.parse(expr, mode="eval")  # a syntax error shows here, not on the GPU machine
        self.expr = expr
        self.rtol = rtol
        self.inputs = {k: np.asarray(v) for k, v in inputs.items()}

    def __repr__(self):
        return "Eval(%r)" % self.expr


# ---- inputs for Eval cases (saved with the case, so the C++ side builds nothing)
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
SHORT = {"bool": "b1", "int8": "i1", "int16": "i2", "int32": "i4", "int64": "i8", "uint8": "u1", "uint16": "u2",
         "uint32": "u4", "uint64": "u8", "float16": "f2", "float32": "f4", "float64": "f8", "complex64": "c8",
         "complex128": "c16"}
INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]


def V(shape, dt="float64"):
    """Scrambled small values with repeats, exact in every dtype, whose sums are exact in any order:
    bool k % 3 != 0; unsigned k % 9; signed k % 9 - 4; float (k % 17 - 8) / 4; complex that plus
    1j * ((i * 53) % 101 % 9 - 4) / 2, with k = (i * 37) % 101."""
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    k = (i * 37) % 101
    kind = np.dtype(dt).kind
    if kind == "b":
        v = k % 3 != 0
    elif kind == "u":
        v = k % 9
    elif kind == "i":
        v = k % 9 - 4
    elif kind == "f":
        v = (k % 17 - 8) / 4.0
    else:
        v = (k % 17 - 8) / 4.0 + 1j * (((i * 53) % 101) % 9 - 4) / 2.0
    return np.asarray(v).reshape(shape).astype(dt)


def P(shape, dt="float64"):
    """Factors whose products are exact (powers of two times a sign or a unit), so that any order
    of multiplication gives the same bits: 1, -1, 2, -2 (unsigned 1, 2; bool mostly True; complex
    1, -1, 1j, -1j, 2, -2j)."""
    n = int(np.prod(shape, dtype=np.int64))
    k = (np.arange(n, dtype=np.int64) * 37) % 101
    kind = np.dtype(dt).kind
    if kind == "b":
        v = k % 4 != 0
    elif kind == "u":
        v = 1 + k % 2
    elif kind == "c":
        v = np.array([1, -1, 1j, -1j, 2, -2j])[k % 6]
    else:
        v = np.array([1, -1, 2, -2])[k % 4]
    return np.asarray(v).reshape(shape).astype(dt)


def with_nan(a, positions, imag=False):
    """A copy with NaN at the flat positions (in the imaginary part when imag)."""
    a = np.array(a, copy=True)
    for p in positions:
        if imag:
            a.flat[p] = complex(a.flat[p].real, np.nan)
        else:
            a.flat[p] = np.nan
    return a


def _copy_then(f):
    def g(a, *args, **kwargs):
        a = np.array(a, copy=True)
        f(a, *args, **kwargs)
        return a
    g.__name__ = f.__name__ + "_copy"
    return g


def ufunc_at_copy(a, op, indices, b=None):
    """NumPy's ufunc.at on a copy of a, giving the copy: the ufunc named op (a string such as
    'add'), ufunc_at_copy(a, 'add', i, b) is np.add.at(a, i, b); without b (or b=None) a unary op
    (np.negative.at(a, i)). A name that is no ufunc is a ValueError, as cupp's ufunc::get says."""
    at = getattr(getattr(np, op, None), "at", None) if isinstance(op, str) else None
    if not callable(at):  # (its .at, not isinstance np.ufunc: tools/dev/ref_coverage.py wraps the ufuncs)
        raise ValueError("no ufunc named %r" % (op,))
    a = np.array(a, copy=True)
    if b is None:
        at(a, indices)
    else:
        at(a, indices, b)
    return a


def setitem_copy(a, index, v):
    """NumPy's a[index] = v on a copy of a (the same memory layout), giving the copy: index is
    what a[...] takes (an int, a slice(...), None, an integer or bool array, or a tuple of them)."""
    a = np.array(a, copy=True)
    a[index] = v
    return a


# NumPy's in-place routines as functions of a copy that give it (the C++ test registers the same
# names): put_copy(a, ind, v, mode='raise') is np.put on a copy of a, then that copy;
# ufunc_at_copy(a, op, indices, b=None) is getattr(np, op).at(a, indices, b) on a copy, then that
# copy; setitem_copy(a, index, v) is a[index] = v on a copy. slice is Python's (an index item as
# an argument: delete(a, slice(None, None, 2)); cupp eval has the same builtin).
HELPERS = {"put_copy": _copy_then(np.put), "put_along_axis_copy": _copy_then(np.put_along_axis),
           "putmask_copy": _copy_then(np.putmask), "place_copy": _copy_then(np.place),
           "fill_diagonal_copy": _copy_then(np.fill_diagonal), "ufunc_at_copy": ufunc_at_copy,
           "setitem_copy": setitem_copy, "slice": slice}


class _Names(dict):
    """eval()'s locals: the inputs, the *_copy helpers, then numpy's attributes (so sum is
    numpy.sum, not Python's)."""

    def __missing__(self, key):
        if key in HELPERS:
            return HELPERS[key]
        try:
            return getattr(np, key)
        except AttributeError:
            raise NameError("name %r is neither an input nor a numpy attribute" % key) from None


def run_eval(case):
    """The NumPy result of an Eval case (raises what NumPy raises)."""
    return eval(case.expr, {}, _Names(case.inputs))  # (names resolve in _Names before builtins)


_AXIS_ERROR = getattr(getattr(np, "exceptions", np), "AxisError")


def error_class(e):
    """The class of a NumPy exception as cupp names it (AxisError before its bases; NumPy's
    UFuncTypeError and DTypePromotionError are TypeErrors); None for one cupp has no class for."""
    # (LinAlgError is a ValueError in NumPy; cupp's LinAlgError is a class of its own.)
    for cls, name in ((np.linalg.LinAlgError, "LinAlgError"), (_AXIS_ERROR, "AxisError"), (IndexError, "IndexError"),
                      (OverflowError, "OverflowError"),
                      (TypeError, "TypeError"), (ValueError, "ValueError")):
        if isinstance(e, cls):
            return name
    return None


def outputs_of(result):
    """A result as a list of arrays (a tuple, list or namedtuple gives one per item)."""
    if isinstance(result, (tuple, list)):
        return [np.asarray(r) for r in result]
    return [np.asarray(result)]


def write_eval_set(out_dir, cases, numpy2_only=()):
    """Runs every Eval case with NumPy and writes <out_dir>/eval (see the module's docstring).
    A numpy2_only case is written without running it under NumPy 1 (the test skips it)."""
    root = os.path.join(out_dir, "eval")
    os.makedirs(root, exist_ok=True)
    manifest = {"numpy": np.__version__, "numpy2": NUMPY2, "cases": {}}
    unknown = sorted(set(numpy2_only) - set(cases))
    assert not unknown, "numpy2_only names cases that do not exist: %s" % unknown
    for case, e in cases.items():
        assert isinstance(e, Eval), case
        os.makedirs(os.path.join(root, case), exist_ok=True)
        entry = {"expr": e.expr, "inputs": {}, "outputs": [], "error": None, "numpy2_only": case in numpy2_only,
                 "rtol": e.rtol}
        for name, a in e.inputs.items():
            entry["inputs"][name] = f"{case}/{name}.npy"
            np.save(os.path.join(root, case, name + ".npy"), a if a.ndim == 0 else np.ascontiguousarray(a))
        if entry["numpy2_only"] and not NUMPY2:
            manifest["cases"][case] = entry
            continue
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                outputs = outputs_of(run_eval(e))
        except Exception as ex:  # NumPy's error is the reference
            entry["error"] = error_class(ex)
            if entry["error"] is None:
                raise RuntimeError(f"{case}: {e.expr} raised {type(ex).__name__}, which cupp has no class for") from ex
            manifest["cases"][case] = entry
            continue
        for k, r in enumerate(outputs):
            name = f"{case}/out{k}.npy"
            np.save(os.path.join(root, name), r if r.ndim == 0 else np.ascontiguousarray(r))
            entry["outputs"].append({"file": name, "dtype": r.dtype.name, "shape": list(r.shape)})
        manifest["cases"][case] = entry
    tmp = os.path.join(root, "manifest.json.tmp")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(root, "manifest.json"))


def main(cases, numpy2_only, doc, eval_cases=None, eval_numpy2_only=()):
    """The generators' command line: one argument, the output folder. eval_cases (Eval cases)
    go to <folder>/eval."""
    if len(sys.argv) != 2:
        print(doc, file=sys.stderr)
        return 2
    write_reference_set(sys.argv[1], cases, numpy2_only)
    if eval_cases is not None:
        write_eval_set(sys.argv[1], eval_cases, eval_numpy2_only)
    return 0
