#!/usr/bin/env python3
"""The NumPy reference tests' coverage of issue 8's and issue 9's routines, as a matrix.

    python3 tools/dev/ref_coverage.py [--issue 8|9] [--routine NAME...] [--missing]

Runs every case of tests/conformance/make_*_ref.py (their CASES and EVAL_CASES tables) with the
NumPy at hand, recording each top-level call of a NumPy routine a case makes (numpy's functions
are wrapped while the cases run, ufuncs' reduce/accumulate/reduceat/at/outer through proxies), and
adds the shared NumPy 2.5.2 reduction set (numpy-2.5.2-ref.tgz: reductions.yaml and its inputs).
A NumPy-2-only case that this NumPy cannot run is counted from its expression (Eval cases: the
outermost call, keyword axis=, the inputs) or left out (a classic case: a lambda), and said so.

Columns, per routine: n (calls recorded), dtypes (the data arrays' dtypes: the arrays among the
positional arguments in the order
? b h i l B H I L e f d F D, '.' for one not seen; creation routines without an array input count
the result's dtype), empty (a data array of size 0), 0-d (one with ndim 0), -axis (a negative
axis=/axes= value), axis() (an axis tuple of two or more), -step (a data array with a negative
stride), NaN (f/m/l: a float or complex data array holding NaN at the first, a middle, the last flat
position; only for issue 8's routines), errors (the classes of the exceptions the calls raised:
A AxisError, I IndexError, V ValueError, T TypeError, O OverflowError). 'n/a' where the routine
takes no axis, or (axis()) no axis tuple (AXIS_TUPLE). --missing lists per routine what no case
has: dtypes it accepts (ACCEPTS, else all 14), empty, 0-d, a negative axis, an axis tuple, NaN at
each place (issue 8), an error case. An axis given positionally is read through the routine's Python signature where
NumPy has one; C functions without one (concatenate, lexsort, ...) count only axis= keywords.
Honest, not clever: NaN positions are flat positions, not per reduced line. Calls made from the
scripts' input builders (R, F, ar, ...) and creation routines called by another family's case
(np.arange(n) % 7 == 0 as a mask) are inputs, not counted.
"""
import argparse
import ast
import glob
import importlib
import inspect
import io
import json
import os
import sys
import tarfile
import warnings

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CONF = os.path.join(ROOT, "tests", "conformance")

ISSUE8 = ["sum", "prod", "max", "amax", "min", "amin", "argmax", "argmin", "mean", "var", "std", "ptp", "all",
          "any", "count_nonzero", "average", "nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin",
          "nanmean", "nanvar", "nanstd", "ufunc.reduce", "ufunc.accumulate", "ufunc.reduceat", "cumsum", "cumprod",
          "nancumsum", "nancumprod", "cumulative_sum", "cumulative_prod", "diff", "ediff1d", "sort", "argsort",
          "lexsort", "partition", "argpartition", "searchsorted", "unique", "unique_values", "unique_counts",
          "unique_inverse", "unique_all", "nonzero", "argwhere", "flatnonzero", "where", "bincount", "histogram",
          "digitize", "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile", "corrcoef",
          "cov", "isclose", "allclose", "array_equal", "array_equiv"]
ISSUE9 = [
    # creation
    "empty", "zeros", "ones", "full", "empty_like", "zeros_like", "ones_like", "full_like", "arange", "linspace",
    "logspace", "geomspace", "eye", "identity", "tri", "tril", "triu", "diag", "diagflat", "meshgrid", "indices",
    "fromfunction",
    # manipulation
    "concatenate", "concat", "stack", "hstack", "vstack", "dstack", "column_stack", "append", "split",
    "array_split", "hsplit", "vsplit", "dsplit", "flip", "fliplr", "flipud", "rot90", "roll", "tile", "repeat",
    "resize", "atleast_1d", "atleast_2d", "atleast_3d", "insert", "delete", "pad", "clip", "where", "round",
    "around", "nan_to_num", "angle", "trim_zeros", "interp", "convolve", "correlate",
    # indexing
    "take", "take_along_axis", "put", "put_along_axis", "compress", "extract", "flatnonzero", "nonzero", "argwhere",
    "choose", "select", "putmask", "place", "fill_diagonal", "unravel_index", "ravel_multi_index", "ix_",
    # sets (searching)
    "isin", "in1d", "intersect1d", "union1d", "setdiff1d", "setxor1d"]
UFUNC_METHODS = ["reduce", "accumulate", "reduceat", "at", "outer"]
# Routines that take an axis although this NumPy gives no signature to read it from (C functions).
AXIS_C = {"concatenate": 1, "concat": 1, "lexsort": 1}
DTYPE_ORDER = "?bhilBHILefdFD"
# Routines that take an axis tuple (for the others the column is n/a unless a case passes one,
# which is then an error case).
AXIS_TUPLE = {"sum", "prod", "max", "amax", "min", "amin", "mean", "var", "std", "ptp", "all", "any",
              "count_nonzero", "average", "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd",
              "ufunc.reduce", "median", "percentile", "quantile", "nanmedian", "nanpercentile", "nanquantile",
              "flip", "roll"}
# The dtypes a routine accepts where that is not all of them (--missing counts only these).
_INTS = "?bhilBHIL"
ACCEPTS = {"bincount": "?bhilBHI", "histogram": "?bhilBHILefd", "digitize": "?bhilBHILefd",
           "percentile": "bhilBHILefd", "quantile": "bhilBHILefd", "nanpercentile": "bhilBHILefd",
           "nanquantile": "bhilBHILefd", "nanmedian": "?bhilBHILefd", "ptp": "bhilBHILefdFD",
           "ediff1d": "bhilBHILefdFD", "unravel_index": "bhilBHI", "ravel_multi_index": "bhilBHI",
           "ix_": "?bhilBHI", "logspace": "efdFD", "geomspace": "efdFD", "indices": "bhilBHILefd",
           "linspace": "bhilBHILefdFD", "interp": "?bhilBHILefd", "round": "bhilBHILefdFD",
           "around": "bhilBHILefdFD", "angle": "bhilBHILefdFD", "fromfunction": "?bhilBHILefdFD"}
ERR_LETTER = {"AxisError": "A", "IndexError": "I", "ValueError": "V", "TypeError": "T", "OverflowError": "O"}

_axis_error = getattr(getattr(np, "exceptions", np), "AxisError")


def error_name(e):
    for cls, name in ((_axis_error, "AxisError"), (IndexError, "IndexError"), (OverflowError, "OverflowError"),
                      (TypeError, "TypeError"), (ValueError, "ValueError")):
        if isinstance(e, cls):
            return name
    return type(e).__name__


class Record:
    def __init__(self):
        self.n = 0
        self.dtypes = set()
        self.empty = self.zero_d = self.neg_axis = self.axis_tuple = self.neg_step = False
        self.nan = set()
        self.errors = set()
        self.takes_axis = False
        self.sources = set()

    def arrays(self, arrays, source):
        self.sources.add(source)
        for a in arrays:
            self.dtypes.add(a.dtype.char if a.dtype.char != "q" else "l")
            if a.size == 0:
                self.empty = True
            if a.ndim == 0:
                self.zero_d = True
            if any(s < 0 for s in a.strides):
                self.neg_step = True
            if a.dtype.kind in "fc" and a.size:
                flat = _isnan(a).ravel()
                for pos in flat.nonzero()[0]:
                    self.nan.add("f" if pos == 0 else "l" if pos == a.size - 1 else "m")

    def axis(self, value):
        self.takes_axis = True
        values = value if isinstance(value, (tuple, list)) else [value]
        if isinstance(value, (tuple, list)) and len(value) >= 2:
            self.axis_tuple = True
        for v in values:
            if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v < 0:
                self.neg_axis = True


RECORDS = {}
_depth = [0]
_source = ["?"]
_on = [False]  # recording only while a case runs (not while the scripts build their inputs at import)
# Functions of the scripts that build input arrays: NumPy calls made from them are not the routine
# under test (R(shape) calls np.prod and np.arange).
BUILDERS = {"R", "F", "N", "X", "M", "Z", "ar", "I", "C", "sc", "vals", "cond23", "trim_2d", "signed_or_not",
            "rounding_values", "nan_values", "pad_values", "QS", "CX"}
# (caller, routine) pairs that build or read back a result rather than test the routine.
HELPER_CALLS = {("kth_of", "take")}
# Creation routines called by another family's case build its inputs (np.arange(n) % 7 == 0).
CREATION = set(ISSUE9[:ISSUE9.index("concatenate")])
_isnan = np.isnan


def record(name):
    return RECORDS.setdefault(name, Record())


def array_inputs(args, kwargs):
    """The data: the ndarrays among the positional arguments, one level into tuples and lists (not
    where=, weights=, ... masks and weights), else among the keyword arguments."""
    def arrays(values):
        out = []
        for v in values:
            if isinstance(v, np.ndarray):
                out.append(v)
            elif isinstance(v, (tuple, list)):
                out.extend(x for x in v if isinstance(x, np.ndarray))
        return out
    return arrays(args) or arrays(kwargs.values())


def axis_values(name, func, args, kwargs):
    """(takes an axis, [values given]) from axis=/axes= keywords or the bound signature."""
    found = [kwargs[k] for k in ("axis", "axes") if k in kwargs and kwargs[k] is not None]
    takes = bool(found) or name in AXIS_C
    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        sig = None
    if sig is not None:
        takes = takes or "axis" in sig.parameters or "axes" in sig.parameters
        try:
            bound = sig.bind_partial(*args, **kwargs).arguments
        except TypeError:
            bound = {}
        for k in ("axis", "axes"):
            if k in bound and k not in kwargs and bound[k] is not None:
                found.append(bound[k])
    elif name in AXIS_C and len(args) > AXIS_C[name] and "axis" not in kwargs and args[AXIS_C[name]] is not None:
        found.append(args[AXIS_C[name]])
    return takes, found


def traced(name, func):
    def wrapper(*args, **kwargs):
        caller = sys._getframe(1).f_code.co_name
        if (_depth[0] or not _on[0] or caller in BUILDERS or (caller, name) in HELPER_CALLS
                or (name in CREATION and not _source[0].startswith("creation"))):
            _depth[0] += 1
            try:
                return func(*args, **kwargs)
            finally:
                _depth[0] -= 1
        rec = record(name)
        rec.n += 1
        arrays = array_inputs(args, kwargs)
        takes, axes = axis_values(name.split(".")[-1], func, args, kwargs)
        rec.takes_axis = rec.takes_axis or takes
        for v in axes:
            rec.axis(v)
        _depth[0] += 1
        try:
            result = func(*args, **kwargs)
        except Exception as e:
            rec.errors.add(error_name(e))
            rec.arrays(arrays, _source[0])
            raise
        finally:
            _depth[0] -= 1
        if not arrays:  # creation: the result's dtype and shape
            outs = result if isinstance(result, (tuple, list)) else [result]
            arrays = [np.asarray(r) for r in outs if isinstance(r, np.ndarray)]
        rec.arrays(arrays, _source[0])
        return result

    wrapper.__wrapped__ = func
    return wrapper


class UfuncProxy:
    """Stands for a ufunc in numpy's namespace: calls pass through, methods are recorded."""

    def __init__(self, u):
        object.__setattr__(self, "_u", u)

    def __call__(self, *args, **kwargs):
        return self._u(*args, **kwargs)

    def __getattr__(self, attr):
        v = getattr(self._u, attr)
        if attr in UFUNC_METHODS:
            return traced("ufunc." + attr, v)
        return v


def install():
    names = set(ISSUE8) | set(ISSUE9)
    for name in sorted(names):
        if "." in name or not hasattr(np, name):
            continue
        f = getattr(np, name)
        if isinstance(f, np.ufunc):
            continue
        setattr(np, name, traced(name, f))
    for name in dir(np):
        u = getattr(np, name)
        if isinstance(u, np.ufunc):
            setattr(np, name, UfuncProxy(u))


def static_eval_record(expr, inputs, source):
    """An Eval case this NumPy cannot run: its outermost call, axis= keyword and inputs."""
    tree = ast.parse(expr, mode="eval").body
    if not isinstance(tree, ast.Call):
        return
    f = tree.func
    name = f.id if isinstance(f, ast.Name) else ("ufunc." + f.attr if isinstance(f, ast.Attribute) else None)
    if name is None:
        return
    rec = record(name)
    rec.n += 1
    for k in tree.keywords:
        if k.arg in ("axis", "axes"):
            rec.takes_axis = True
            try:
                rec.axis(ast.literal_eval(k.value))
            except ValueError:
                pass
    rec.arrays([np.asarray(v) for v in inputs.values()], source)
    rec.sources.add(source + " (static)")


def run_scripts():
    sys.path.insert(0, CONF)
    import routine_ref  # noqa: E402  (after the path; NumPy already wrapped)
    notes = []
    for path in sorted(glob.glob(os.path.join(CONF, "make_*_ref.py"))):
        mod_name = os.path.basename(path)[:-3]
        family = mod_name[len("make_"):-len("_ref")]
        mod = importlib.import_module(mod_name)
        numpy2_only = set(getattr(mod, "NUMPY2_ONLY", ()))
        eval_numpy2_only = set(getattr(mod, "EVAL_NUMPY2_ONLY", ()))
        skipped = 0
        for case, make in getattr(mod, "CASES", {}).items():
            if case in numpy2_only and not routine_ref.NUMPY2:
                skipped += 1
                continue
            if isinstance(make, tuple):
                make = make[0]
            _source[0] = family
            _on[0] = True
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    make()
            except Exception:
                pass
            finally:
                _on[0] = False
        for case, e in getattr(mod, "EVAL_CASES", {}).items():
            if case in eval_numpy2_only and not routine_ref.NUMPY2:
                static_eval_record(e.expr, e.inputs, family + "/eval")
                continue
            _source[0] = family + "/eval"
            _on[0] = True
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    routine_ref.run_eval(e)
            except Exception:
                pass
            finally:
                _on[0] = False
        if skipped:
            notes.append(f"{family}: {skipped} NumPy-2-only classic cases not run under NumPy {np.__version__}")
    return notes


def shared_reductions():
    """numpy-2.5.2-ref.tgz's reductions.yaml: fn over a 3x4x5 array of every dtype."""
    path = os.path.join(CONF, "numpy-2.5.2-ref.tgz")
    if not os.path.exists(path):
        return ["numpy-2.5.2-ref.tgz missing: the shared reduction set is not counted"]
    with tarfile.open(path) as t:
        members = {m.name: m for m in t.getmembers()}
        key = next(n for n in members if n.endswith("reductions.yaml"))
        cases = json.loads(t.extractfile(members[key]).read())
        prefix = key[: -len("reductions.yaml")]
        for c in cases:
            name = c["fn"]
            rec = record(name)
            rec.n += 1
            rec.takes_axis = True
            if c.get("axis") is not None:
                rec.axis(c["axis"])
            m = members.get(f"{prefix}reductions/{c['case']}/in0.npy")
            if m is not None:
                rec.arrays([np.load(io.BytesIO(t.extractfile(m).read()))], "shared-2.5.2")
            if "numpy_error" in c:
                rec.errors.add(c["numpy_error"])
    return []


def cell(flag, applicable=True):
    return "n/a" if not applicable else ("y" if flag else "-")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--issue", choices=["8", "9"], help="only this issue's routines")
    ap.add_argument("--routine", nargs="*", help="only these routines")
    ap.add_argument("--missing", action="store_true",
                    help="list each routine's gaps after the table (dtypes it accepts that no case has, ...)")
    ap.add_argument("--json", help="also write the matrix to this file")
    args = ap.parse_args()
    install()
    notes = run_scripts() + shared_reductions()
    rows = []
    for issue, names in (("8", ISSUE8), ("9", ISSUE9)):
        if args.issue and args.issue != issue:
            continue
        for name in names:
            if args.routine and name not in args.routine:
                continue
            rows.append((issue, name, RECORDS.get(name, Record())))
    header = f"{'issue':5} {'routine':17} {'n':>5} {'dtypes':14} {'empty':5} {'0-d':3} {'-axis':5} {'axis()':6} " \
             f"{'-step':5} {'NaN':3} errors  sources"
    print(header)
    print("-" * len(header))
    table = []
    for issue, name, r in rows:
        dts = "".join(c if c in r.dtypes else "." for c in DTYPE_ORDER)
        nan = "n/a" if issue == "9" else "".join(c if c in r.nan else "-" for c in "fml")
        errs = "".join(sorted(ERR_LETTER.get(e, "?") for e in r.errors)) or "-"
        axis_ok = r.takes_axis
        tuple_ok = axis_ok and (name in AXIS_TUPLE or r.axis_tuple)
        print(f"{issue:5} {name:17} {r.n:5} {dts:14} {cell(r.empty):5} {cell(r.zero_d):3} "
              f"{cell(r.neg_axis, axis_ok):5} {cell(r.axis_tuple, tuple_ok):6} {cell(r.neg_step):5} {nan:3} "
              f"{errs:7} {','.join(sorted(r.sources))}")
        table.append({"issue": issue, "routine": name, "n": r.n, "dtypes": dts, "empty": r.empty, "zero_d": r.zero_d,
                      "neg_axis": r.neg_axis if axis_ok else None, "axis_tuple": r.axis_tuple if tuple_ok else None,
                      "neg_step": r.neg_step, "nan": nan, "errors": sorted(r.errors), "sources": sorted(r.sources)})
    for n in notes:
        print("note:", n)
    if args.missing:
        print()
        for t in table:
            gaps = []
            if t["n"] == 0:
                gaps.append("no case")
            else:
                accepted = ACCEPTS.get(t["routine"], DTYPE_ORDER)
                missing = [c for c in accepted if c not in t["dtypes"]]
                if missing:
                    gaps.append("dtypes " + "".join(missing))
                for key, label in (("empty", "empty"), ("zero_d", "0-d"), ("neg_axis", "negative axis"),
                                   ("axis_tuple", "axis tuple")):
                    if t[key] is False:
                        gaps.append(label)
                if t["issue"] == "8" and t["nan"] != "fml" and set(t["dtypes"]) & set("efdFD"):
                    gaps.append("NaN " + t["nan"])
                if not t["errors"]:
                    gaps.append("no error case")
            if gaps:
                print(f"{t['routine']}: {', '.join(gaps)}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(table, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
