#!/usr/bin/env python3
"""NumPy 2.5.2's reference cases through `cupp eval --batch`, one process for all of them.

  make  REF_DIR EXTRA_DIR SPECS_DIR OUT_DIR   (standard library only)
        writes OUT_DIR/batch.txt (one `cupp eval` line per reference case of every op that has a
        spec in SPECS_DIR) and OUT_DIR/expect.json (what each line must give)
  check OUT_DIR RESULTS_FILE                  (needs NumPy)
        RESULTS_FILE is `cupp eval --batch OUT_DIR/batch.txt`'s standard output; compares cupp's
        outputs with NumPy's by the rules of tests/gpu/test_ufunc_conformance_gpu.cpp, prints a
        table per category and exits 1 when a category is below its threshold (issue 7).

tests/conformance/README.md describes the harness; tools/dev/stage-gpu.sh runs it on the GPU
machine (`bash run.sh eval-conformance`).
"""

import json
import os
import re
import shutil
import struct
import sys

# ---------------------------------------------------------------------------------------------
# Shared knowledge (mirrors tests/support/conformance.hpp and the GPU conformance test)

# The Python literal of a manifest pyscalar_<dtype>_<kind> case.
PY_LITERAL = {"bool": "True", "int": "2", "int300": "300", "intneg": "-1", "float": "2.5", "complex": "2j"}

COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}

# Thresholds of issue 7's Done-when, in percent of the cases checked (skips excluded).
THRESHOLDS = {"value": 99.5, "dtype": 100.0, "error": 100.0, "bfloat16": 100.0, "reduction": 100.0}
CATEGORY_TITLES = {
    "value": "(a) value cases (sig_*, mix_*)",
    "dtype": "(b) dtype-only cases (pyscalar_*)",
    "error": "(c) NumPy-error cases",
    "bfloat16": "(d) bfloat16 cases (ml_dtypes)",
    "reduction": "(e) reductions (reductions.yaml)",
}
# The reductions cupp has so far (issue 8); the reference set's others are reported as not run.
REDUCTIONS = ("sum", "prod", "max", "min", "mean", "all", "any", "argmax", "argmin", "count_nonzero", "var", "std",
              "nansum", "nanmax", "nanmean", "cumsum", "cumprod")


def cupp_error_class(numpy_class):
    """cupp's class for an exception NumPy raised (docs/architecture.md: these are TypeErrors in cupp)."""
    if numpy_class in ("UFuncTypeError", "_UFuncNoLoopError", "DTypePromotionError", "UFuncNoLoopError"):
        return "TypeError"
    return numpy_class


# ---------------------------------------------------------------------------------------------
# make: the specs (a few top-level keys, read without a YAML library)

def _scalar(text):
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def _flow_items(text):
    """The items of a one-line YAML flow sequence or mapping body (no nesting needed here)."""
    return [t.strip() for t in text.split(",") if t.strip()]


def read_spec(path):
    """name, aliases, nin, nout, ulp ({dtype: ulps}) and raises (the error class or "") of a spec."""
    spec = {"name": None, "aliases": [], "nin": None, "nout": None, "ulp": {}, "raises": ""}
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        m = re.match(r"^([A-Za-z_]\w*):\s*(.*?)\s*(#.*)?$", line)
        if not m:
            continue
        key, value = m.group(1), m.group(2)
        if key not in spec:
            continue
        block = []
        if value == "":  # block style: the indented lines that follow
            while i < len(lines) and (lines[i].startswith((" ", "\t")) or not lines[i].strip()):
                if lines[i].strip() and not lines[i].strip().startswith("#"):
                    block.append(lines[i].strip())
                i += 1
        if key in ("name", "nin", "nout"):
            spec[key] = _scalar(value)
        elif key == "aliases":
            items = _flow_items(value.strip("[]")) if value else [b.lstrip("- ") for b in block]
            spec[key] = [_scalar(x) for x in items]
        elif key == "ulp":
            items = _flow_items(value.strip("{}")) if value else block
            for item in items:
                k, _, v = item.partition(":")
                spec["ulp"][k.strip()] = int(v)
        elif key == "raises":
            items = _flow_items(value.strip("{}")) if value else block
            for item in items:
                k, _, v = item.partition(":")
                if k.strip() == "type":
                    spec["raises"] = v.strip()
            if value and not value.startswith("{"):  # "Class: message"
                spec["raises"] = value.split(":")[0].strip()
    for key in ("name", "nin", "nout"):
        if spec[key] is None:
            raise SystemExit(f"eval_conformance: {path}: no top-level '{key}'")
    return spec


def read_specs(specs_dir):
    """{name or alias: spec} for every specs_dir/*.yaml."""
    ops = {}
    for file in sorted(os.listdir(specs_dir)):
        if file.endswith(".yaml"):
            spec = read_spec(os.path.join(specs_dir, file))
            for name in [spec["name"]] + spec["aliases"]:
                ops[name] = spec
    return ops


def ulp_bounds(spec, dtypes):
    """The bound per output dtype: the dtype's own, else its part dtype's (complex), else 1."""
    parts = {"complex64": "float32", "complex128": "float64"}
    bounds = {}
    for t in dtypes:
        if t in spec["ulp"]:
            bounds[t] = spec["ulp"][t]
        elif parts.get(t) in spec["ulp"]:
            bounds[t] = spec["ulp"][parts[t]]
        else:
            bounds[t] = 1
    return bounds


# ---------------------------------------------------------------------------------------------
# make: tiny .npy inputs (zeros, or -1 cast as astype casts it), written without NumPy

NPY_DESCR = {
    "bool": ("|b1", "?"), "int8": ("|i1", "b"), "uint8": ("|u1", "B"), "int16": ("<i2", "h"),
    "uint16": ("<u2", "H"), "int32": ("<i4", "i"), "uint32": ("<u4", "I"), "int64": ("<i8", "q"),
    "uint64": ("<u8", "Q"), "float16": ("<f2", "e"), "float32": ("<f4", "f"), "float64": ("<f8", "d"),
    "complex64": ("<c8", "ff"), "complex128": ("<c16", "dd"),
    "bfloat16": ("<u2", "H"),  # bit patterns, viewed as bfloat16 in the expression
}


def minus_one(dtype):
    """-1 as numpy.astype makes it in `dtype` (struct values)."""
    if dtype == "bool":
        return (True,)
    if dtype == "bfloat16":
        return (0xBF80,)
    if dtype.startswith("uint"):
        return ((1 << int(dtype[4:])) - 1,)
    if dtype.startswith("complex"):
        return (-1.0, 0.0)
    if dtype.startswith("float"):
        return (-1.0,)
    return (-1,)


def write_npy(path, dtype, values, count=4):
    descr, fmt = NPY_DESCR[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (descr, count)
    pad = 64 - (10 + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    body = struct.pack("<" + fmt * count, *(list(values) * count))
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1") + body)


def input_file(out_dir, dtype, kind):
    """OUT_DIR/inputs/<kind>_<dtype>.npy (kind: zeros or minus1), written once."""
    path = os.path.join(out_dir, "inputs", f"{kind}_{dtype}.npy")
    if not os.path.exists(path):
        zero = (0.0, 0.0) if dtype.startswith("complex") else ((False,) if dtype == "bool" else (0,))
        write_npy(path, dtype, zero if kind == "zeros" else minus_one(dtype))
    return path


# ---------------------------------------------------------------------------------------------
# make

def shell_quote(s):
    """s as one word for cupp eval's --batch splitter (a POSIX shell's quoting)."""
    if re.fullmatch(r"[\w@%+=:,./-]+", s):
        return s
    if not re.search(r'["\\$`]', s):
        return '"' + s + '"'
    return "'" + s.replace("'", "'\\''") + "'"


def make_case(case, root, source, ops, out_dir):
    """(batch line words, expectation) of one manifest case, or (None, skip reason)."""
    name, tag, ins = case["ufunc"], case["case"], case["in"]
    spec = ops.get(name)
    if spec is None:
        return None, "no spec in specs/ufuncs"
    if spec["name"] != name:
        return None, "an alias (the same cases run under the op's own name)"
    pyscalar = tag.startswith("pyscalar_")
    case_dir = os.path.join(root, "ufunc", name, tag)
    numpy_error = case.get("numpy_error")
    # As the C++ test: error cases have no data; zeros, or -1 where NumPy's error is the op's own
    # data-dependent one (power: a negative integer exponent), so that the data raises it.
    data_error = bool(numpy_error) and not pyscalar and spec["raises"] == cupp_error_class(numpy_error)
    args, bindings, inputs = [], [], []
    for k, dtype in enumerate(ins):
        if pyscalar and k == 1:
            args.append(PY_LITERAL[dtype])
            continue
        var = "ab"[k] if k < 2 else f"x{k}"
        if data_error:
            path = input_file(out_dir, dtype, "minus1")
        elif pyscalar or not os.path.isdir(case_dir):
            path = input_file(out_dir, dtype, "zeros")
        else:
            path = os.path.join(case_dir, f"in{k}.npy")
        inputs.append(path)
        bindings.append(f"{var}={path}")
        args.append(f"view({var}, 'bfloat16')" if dtype == "bfloat16" else var)
    expression = f"{name}({', '.join(args)})"
    nout = len(case["out"]) if "out" in case else spec["nout"]
    result_dir = os.path.join(out_dir, "results", source, name, tag)
    outputs = [os.path.join(result_dir, f"out{k}.npy") for k in range(nout)]
    words = [expression] + bindings
    for o in outputs:
        words += ["-o", o]
    expect = {"op": name, "case": tag, "source": source, "in": ins, "inputs": inputs, "outputs": outputs}
    if source == "bfloat16":
        expect["category"] = "bfloat16"
    elif numpy_error:
        expect["category"] = "error"
    elif pyscalar:
        expect["category"] = "dtype"
    else:
        expect["category"] = "value"
    if numpy_error:
        expect["kind"] = "error"
        expect["numpy_error"] = numpy_error
        expect["error_class"] = cupp_error_class(numpy_error)
        return words, expect
    expect["dtypes"] = case["out"]
    # Documented deviations (docs/deviations.md), skipped exactly as the C++ test skips them:
    if name in COMPARISONS and pyscalar and ("_int300" in tag or "_intneg" in tag):
        expect["deviation_if_error"] = "OverflowError"  # comparisons with an out-of-range Python int
    if pyscalar:
        expect["kind"] = "dtype"
        return words, expect
    expect["kind"] = "value"
    expect["references"] = [os.path.join(case_dir, f"out{k}.npy") for k in range(nout)]
    expect["ulp"] = ulp_bounds(spec, case["out"])
    if name in ("nextafter", "spacing") and ins[0] == "bfloat16":
        expect["values_deviation"] = "bfloat16 nextafter/spacing step in bfloat16's own bits"
    return words, expect


def make(ref_dir, extra_dir, specs_dir, out_dir):
    ref_dir, extra_dir, out_dir = (os.path.abspath(p) for p in (ref_dir, extra_dir, out_dir))
    ops = read_specs(specs_dir)
    with open(os.path.join(ref_dir, "manifest.yaml"), encoding="utf-8") as f:
        manifest = json.load(f)["cases"]  # JSON, which is valid YAML
    with open(os.path.join(extra_dir, "extra.yaml"), encoding="utf-8") as f:
        bf16 = json.load(f)["bfloat16_cases"]
    for sub in ("results", "inputs"):
        shutil.rmtree(os.path.join(out_dir, sub), ignore_errors=True)
    os.makedirs(os.path.join(out_dir, "inputs"), exist_ok=True)
    lines = ["# cupp eval --batch lines made by tests/conformance/eval_conformance.py make; "
             "expect.json says what each line must give"]
    expects, skipped = [], {}
    for source, root, cases in (("numpy", ref_dir, manifest), ("bfloat16", extra_dir, bf16)):
        for case in cases:
            words, expect = make_case(case, root, source, ops, out_dir)
            if words is None:
                key = f"{source}: {expect}"
                skipped[key] = skipped.get(key, 0) + 1
                continue
            for o in expect["outputs"]:
                os.makedirs(os.path.dirname(o), exist_ok=True)
            lines.append(" ".join(shell_quote(w) for w in words))
            expect["line"] = len(lines)
            expects.append(expect)
    reductions = []
    if os.path.exists(os.path.join(ref_dir, "reductions.yaml")):
        with open(os.path.join(ref_dir, "reductions.yaml"), encoding="utf-8") as f:
            reductions = json.load(f)  # JSON, which is valid YAML
    for case in reductions:
        fn, tag = case["fn"], case["case"]
        if fn not in REDUCTIONS:
            key = "reductions: not in cupp yet (issue 8)"
            skipped[key] = skipped.get(key, 0) + 1
            continue
        axis = case["axis"]
        axis_text = "None" if axis is None else str(axis) if isinstance(axis, int) else "(" + ", ".join(map(str, axis)) + ",)"
        path = os.path.join(ref_dir, "reductions", tag, "in0.npy")
        out = os.path.join(out_dir, "results", "reductions", tag, "out0.npy")
        os.makedirs(os.path.dirname(out), exist_ok=True)
        lines.append(" ".join(shell_quote(w) for w in [f"{fn}(a, axis={axis_text})", f"a={path}", "-o", out]))
        expects.append({"op": fn, "case": tag, "source": "reductions", "category": "reduction", "kind": "reduction",
                        "in": [case["in"]], "inputs": [path], "outputs": [out], "dtypes": [case["out"]],
                        "axis": axis, "references": [os.path.join(ref_dir, "reductions", tag, "out0.npy")],
                        "line": len(lines)})
    with open(os.path.join(out_dir, "batch.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out_dir, "expect.json"), "w", encoding="utf-8") as f:
        json.dump({"cases": expects, "skipped_in_make": skipped}, f, indent=0)
    counts = {}
    for e in expects:
        counts[e["category"]] = counts.get(e["category"], 0) + 1
    print(f"eval_conformance make: {len(expects)} lines in {os.path.join(out_dir, 'batch.txt')}")
    for cat in CATEGORY_TITLES:
        print(f"  {CATEGORY_TITLES[cat]:<40} {counts.get(cat, 0):>6}")
    for reason, n in sorted(skipped.items()):
        print(f"  not made ({reason}): {n}")
    return 0


# ---------------------------------------------------------------------------------------------
# check (NumPy)

MANTISSA = {"float16": 10, "bfloat16": 7, "float32": 23, "complex64": 23}
MIN_EXPONENT = {"float16": -14, "bfloat16": -126, "float32": -126, "complex64": -126}


def ulps(np, got, want, dtype):
    """Elementwise distance in units in the last place of `dtype`, as the C++ test's ulps():
    0 for equal values, ±0 and NaN pairs; 1e300 for NaN against a number or different infinities."""
    mant, min_exp = MANTISSA.get(dtype, 52), MIN_EXPONENT.get(dtype, -1022)
    with np.errstate(all="ignore"):
        g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
        ref = np.where(w == 0, g, w)
        _, e = np.frexp(np.where(np.isfinite(ref) & (ref != 0), ref, 1.0))
        e = np.maximum(e - 1, min_exp)  # ilogb
        d = np.abs(g - w) / np.ldexp(1.0, (e - mant).astype(np.int32))
        d = np.where(g == w, 0.0, d)
        inf = np.isinf(g) | np.isinf(w)
        d = np.where(inf, np.where(g == w, 0.0, 1e300), d)
        nan_g, nan_w = np.isnan(g), np.isnan(w)
        d = np.where(nan_g | nan_w, np.where(nan_g & nan_w, 0.0, 1e300), d)
    return d


def bf16_to_float(np, bits):
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32)


def load_result(np, path):
    """(dtype name, values as NumPy can hold them): cupp writes bfloat16 as '<V2'."""
    a = np.load(path)
    if a.dtype.kind == "V" and a.dtype.itemsize == 2:
        return "bfloat16", bf16_to_float(np, a.view(np.uint16))
    return a.dtype.name, a


def load_reference(np, path, dtype):
    a = np.load(path)
    if dtype == "bfloat16":  # stored as uint16 bit patterns
        return bf16_to_float(np, a.view(np.uint16))
    return a


def compare(np, got, want, dtype, bound):
    """"" when `got` agrees with `want`, else the first differing element."""
    if got.shape != want.shape:
        return f"shape {got.shape} vs NumPy's {want.shape}"
    g, w = got.reshape(-1), want.reshape(-1)
    if dtype in ("float16", "bfloat16", "float32", "float64"):
        d = ulps(np, g, w, dtype)
        bad = d > bound
    elif dtype in ("complex64", "complex128"):
        d = np.maximum(ulps(np, g.real, w.real, dtype), ulps(np, g.imag, w.imag, dtype))
        bad = d > bound
    else:
        d = None
        bad = g != w
    if not bad.any():
        return ""
    i = int(np.flatnonzero(bad)[0])
    extra = f" ({d[i]:.3g} ULP > {bound})" if d is not None else ""
    return f"{int(bad.sum())} of {g.size} elements differ; first at {i}: cupp {g[i]!r}, NumPy {w[i]!r}{extra}"


def judge(np, e, outcome):
    """("pass" | "fail" | "skip", detail) for one expectation and its result line."""
    if outcome is None:
        return "fail", "no result line (cupp eval stopped early?)"
    if e["kind"] == "error":
        got = outcome.split(":", 1)[0] if outcome != "OK" else "nothing"
        if got == e["error_class"]:
            return "pass", ""
        return "fail", f"NumPy raises {e['numpy_error']}, cupp {outcome if outcome != 'OK' else 'raises nothing'}"
    if outcome != "OK":
        if e.get("deviation_if_error") and outcome.split(":", 1)[0] == e["deviation_if_error"]:
            return "skip", "documented deviation: comparison with an out-of-range Python int"
        return "fail", f"cupp raises {outcome}"
    if e["kind"] == "reduction":
        return judge_reduction(np, e)
    for k, (path, want_dtype) in enumerate(zip(e["outputs"], e["dtypes"])):
        try:
            got_dtype, got = load_result(np, path)
        except (OSError, ValueError) as err:
            return "fail", f"out{k}: cannot read cupp's output: {err}"
        if got_dtype != want_dtype:
            return "fail", f"out{k}: result dtype {got_dtype}, NumPy {want_dtype}"
        if e["kind"] == "value" and not e.get("values_deviation"):
            want = load_reference(np, e["references"][k], want_dtype)
            diff = compare(np, got, want, want_dtype, e["ulp"][want_dtype])
            if diff:
                return "fail", f"out{k}: {diff}"
    if e.get("values_deviation"):
        return "skip", "dtype agrees; values are a documented deviation: " + e["values_deviation"]
    return "pass", ""


EPSILON = {"float16": 2.0 ** -10, "float32": 2.0 ** -23, "complex64": 2.0 ** -23, "float64": 2.0 ** -52,
           "complex128": 2.0 ** -52}


def judge_reduction(np, e):
    """A reduction against NumPy's, by the rules of tests/gpu/test_reductions_gpu.cpp: dtype and
    shape equal; integers and bools exactly; max and min exactly; sums within 2 * n * eps * sum|x|
    over the reduced elements (another summation order; means: divided by n), products within
    (2n + 1) * eps * |result|, sums and means plus an ULP of the result; real and imaginary parts
    each by their own bound, so a NaN in one part does not make the other exact."""
    want_dtype = e["dtypes"][0]
    try:
        got_dtype, got = load_result(np, e["outputs"][0])
    except (OSError, ValueError) as err:
        return "fail", f"cannot read cupp's output: {err}"
    if got_dtype != want_dtype:
        return "fail", f"result dtype {got_dtype}, NumPy {want_dtype}"
    want = np.load(e["references"][0])
    if got.shape != want.shape:
        return "fail", f"shape {got.shape} vs NumPy's {want.shape}"
    if want_dtype not in EPSILON:
        diff = np.flatnonzero(got.reshape(-1) != want.reshape(-1))
        return ("pass", "") if diff.size == 0 else ("fail", f"{diff.size} elements differ; first at {int(diff[0])}")
    x = np.load(e["inputs"][0]).astype(np.complex128)
    if e["op"].startswith("nan"):
        x_nan = np.isnan(x)
        x = np.where(x_nan, 0, x)  # NaN (in either part) is the identity / ignored
    axis = e["axis"]
    axes = tuple(range(x.ndim)) if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
    n = int(np.prod([x.shape[a] for a in axes]))
    g = got.astype(np.complex128).reshape(-1)
    eps = EPSILON[want_dtype]

    def first_bad(w):
        """(count, index) of the results of `g` outside their bounds around `w`; (0, None)."""
        with np.errstate(over="ignore", invalid="ignore"):
            w_finite = np.abs(np.where(np.isfinite(w.real), w.real, 0) + 1j * np.where(np.isfinite(w.imag), w.imag, 0))
        all_bad = np.zeros(g.shape, dtype=bool)
        for part in (np.real, np.imag):
            gp, wp = part(g), part(w)
            if e["op"] in ("cumsum", "cumprod"):
                # Scans (docs/scans.md): the running sum of |x| along the axis (flattened for
                # None); cumprod within (2n + 1) * eps * |result|.
                xs = part(x).reshape(-1) if axis is None else part(x)
                run = np.cumsum(np.abs(xs).astype(np.longdouble), axis=0 if axis is None else axis).reshape(-1)
                base = run if e["op"] == "cumsum" else w_finite
                bound = ((2.0 * n + 1) * eps * base).astype(np.float64)
            elif e["op"] in ("sum", "mean", "nansum", "nanmean"):
                # Per part: the sum of |x| over the elements each result reduces, in long double
                # (terms near the float64 maximum must not overflow it into "no bound").
                magnitude = np.sum(np.abs(part(x)).astype(np.longdouble), axis=axes).reshape(-1)
                if e["op"] == "mean":
                    magnitude = magnitude / max(n, 1)
                if e["op"] == "nanmean":
                    magnitude = magnitude / np.maximum(np.sum(~x_nan, axis=axes).reshape(-1), 1)
                bound = (2.0 * n * eps * magnitude + eps * np.abs(wp)).astype(np.float64)
            elif e["op"] in ("var", "std"):
                # Two passes in another order: within 4n * eps * (var + the mean of |x|^2) (the
                # squares in long double: no overflow); std within the square root of var's bound.
                squares = np.mean((np.abs(x) ** 2).astype(np.longdouble), axis=axes).reshape(-1) if part is np.real \
                    else np.zeros(g.shape, dtype=np.longdouble)
                var_w = np.abs(wp) ** 2 if e["op"] == "std" else np.abs(wp)
                bound = (4.0 * n * eps * (var_w + squares)).astype(np.float64)
                if e["op"] == "std":
                    bound = np.sqrt(bound)
            elif e["op"] == "prod":
                bound = (2.0 * n + 1) * eps * w_finite
            else:
                bound = np.zeros(w.shape)
            bound = np.nan_to_num(bound, nan=0.0, posinf=0.0)  # NaN or inf results are matched exactly below
            same_nan = np.isnan(gp) == np.isnan(wp)
            inf_equal = np.where(np.isinf(gp) | np.isinf(wp), gp == wp, True)
            with np.errstate(invalid="ignore"):
                close = np.where(np.isnan(wp) | np.isinf(wp) | np.isinf(gp), True, np.abs(gp - wp) <= bound)
            all_bad |= ~(same_nan & inf_equal & close)
        return (int(all_bad.sum()), int(np.flatnonzero(all_bad)[0])) if all_bad.any() else (0, None)

    w = want.astype(np.complex128).reshape(-1)
    count, i = first_bad(w)
    if count == 0:
        return "pass", ""
    if e["op"] in ("var", "std") and want_dtype == "float16":
        # docs/deviations.md: cupp computes float16 var/std in float32 and rounds once; NumPy in
        # float16 (squares overflow to inf, or lose digits).
        with np.errstate(all="ignore"):
            f = getattr(np, e["op"])(np.load(e["inputs"][0]).astype(np.float32), axis=axes)
            once = np.asarray(f).astype(np.float16).astype(np.complex128).reshape(-1)
        if first_bad(once)[0] == 0:
            return "skip", "documented deviation: float16 var/std compute in float32 and round once"
    if e["op"] == "prod" and want_dtype == "float16":
        # docs/deviations.md: cupp multiplies float16 in float32 and rounds once; NumPy rounds to
        # float16 between its inner loops (overflowing to inf, or losing digits to subnormals).
        with np.errstate(all="ignore"):
            once = np.prod(x.real.astype(np.float32), axis=axes).astype(np.float16).astype(np.complex128).reshape(-1)
        if first_bad(once)[0] == 0:
            return "skip", "documented deviation: float16 prod multiplies in float32 and rounds once"
    return "fail", f"{count} of {g.size} elements differ; first at {i}: cupp {g[i]!r}, NumPy {w[i]!r}"


def read_results(path):
    """{line number: outcome} from `cupp eval --batch` output ("N: OK", "N: Class: message")."""
    results = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^(\d+): (.*)$", line.rstrip("\n"))
            if m:
                results[int(m.group(1))] = m.group(2)
    return results


def check(out_dir, results_file):
    import numpy as np

    with open(os.path.join(out_dir, "expect.json"), encoding="utf-8") as f:
        data = json.load(f)
    results = read_results(results_file)
    tally = {cat: {"pass": 0, "fail": 0, "skip": 0} for cat in CATEGORY_TITLES}
    failures, skips = [], {}
    for e in data["cases"]:
        if any(not os.path.exists(r) for r in e.get("references", [])):
            # A staged copy may leave a reference set out (the GPU stage drops numpy-ref/ufunc to
            # stay under the carry limit): such cases are counted as skipped, not failed.
            verdict, detail = "skip", "reference file not present"
        else:
            verdict, detail = judge(np, e, results.get(e["line"]))
        tally[e["category"]][verdict] += 1
        if verdict == "fail":
            failures.append(f"line {e['line']}: {e['op']} {e['case']} ({e['source']}): {detail}")
        elif verdict == "skip":
            key = f"{CATEGORY_TITLES[e['category']]}: {detail}"
            skips[key] = skips.get(key, 0) + 1
    print(f"cupp eval --batch against NumPy 2.5.2: {len(data['cases'])} cases, {len(results)} result lines")
    print(f"{'category':<40} {'checked':>8} {'agree':>7} {'differ':>7} {'skipped':>8} {'agree %':>8} {'needed':>7}")
    below = []
    for cat, title in CATEGORY_TITLES.items():
        t = tally[cat]
        checked = t["pass"] + t["fail"]
        pct = 100.0 * t["pass"] / checked if checked else 0.0
        ok = (checked > 0 and pct >= THRESHOLDS[cat]) or (cat == "reduction" and checked == 0)
        if not ok:
            below.append(cat)
        pct_text = f"{pct:.2f}" if pct < 100 else "100"
        print(f"{title:<40} {checked:>8} {t['pass']:>7} {t['fail']:>7} {t['skip']:>8} {pct_text:>8} "
              f"{'>= ' + format(THRESHOLDS[cat], 'g'):>7}{'' if ok else '  BELOW'}")
    for reason, n in sorted(data.get("skipped_in_make", {}).items()):
        print(f"not run ({reason}): {n}")
    for reason, n in sorted(skips.items()):
        print(f"skipped, not counted ({reason}): {n}")
    if failures:
        print(f"\n{len(failures)} case(s) differ" + (" (the first 30):" if len(failures) > 30 else ":"))
        for line in failures[:30]:
            print("  " + line)
        by_op = {}
        for line in failures:
            op = line.split(": ", 1)[1].split(" ", 1)[0]
            by_op[op] = by_op.get(op, 0) + 1
        print("differing cases by op: " + ", ".join(f"{op} {n}" for op, n in sorted(by_op.items(), key=lambda x: -x[1])))
    print("\nresult: " + ("every category meets its threshold" if not below
                          else "below threshold: " + ", ".join(below)))
    return 1 if below else 0


def main(argv):
    if len(argv) == 6 and argv[1] == "make":
        return make(*argv[2:])
    if len(argv) == 4 and argv[1] == "check":
        return check(*argv[2:])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
