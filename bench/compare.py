#!/usr/bin/env python3
"""cupp next to CuPy and PyTorch: one table of cases, one run, one table.

usage: compare.py --cupp EXE [--out DIR] [--only NAMES] [--reps N] [--markdown FILE]
       compare.py --from DIR [--markdown FILE]      (merge the output of an earlier run only)

Runs the three sides over the table (generated/bench/cases.json: bench/cases.json and every
module's <module>/bench/cases.json, merged by codegen; cases.json beside this script where it is
staged; each case's NumPy expression is bound once by every side), one after the other on the same GPU: cupp's executable
(cupp_bench, bench.cpp), side_cupy.py and side_torch.py (a side that cannot run says so and is
left out), and for the 'jit' cases fresh processes of cupp_bench_compile and compile_cupy.py.
Each side writes JSON lines (DIR/<side>.jsonl) and, for each result, its values at the sample
positions (DIR/samples-<side>/<case>.npy). Then:
  - cupp's sample is checked against CuPy's for every case both have (same inputs: both fill
    them with the same kernel), with a tolerance by op and dtype (check_case);
  - each side's effective bandwidth is taken as a fraction of the best copy floor of the run
    (cudaMemcpy device-to-device and a float4 copy kernel, every side's measurement); a figure
    above 105 % of the floor is flagged as a measurement error;
  - host times are a multiple of an empty kernel launch through cupp's RawKernel path;
  - a case a side lacks is listed as missing.
Prints one table (op, size, dtype, cupp / CuPy / PyTorch times, cupp's time over the best
peer's, each side's fraction of the floor or multiple of the launch floor, target, result) and
writes DIR/bench-results.json (and --markdown FILE: the table in Markdown for docs/performance.md).
Exit status: 0, or 1 when a cupp result mismatches CuPy's, fails its own check, or errs (a slow
cupp case is reported, and a figure above 105 % of the floor is flagged, not failed).

JSON lines (one object per line; every side): side, case, metric ("info" | "floor" | "launch" |
the case's metric); ms, min_ms (CUDA-event median and minimum per call); us_per_call (host
time); sample (path of the .npy), out_size; check ("ok" or what is wrong); missing (the side
lacks the op); error (the case could not run); note; skipped (info: the side cannot run)."""
import argparse
import datetime
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SIDES = ("cupp", "cupy", "torch")
PEERS = ("cupy", "torch")
ITEMSIZE = {"bool": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint8": 1, "uint16": 2,
            "uint32": 4, "uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8,
            "complex64": 8, "complex128": 16}
EPSILON = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23, "float64": 2.0 ** -52,
           "complex64": 2.0 ** -23, "complex128": 2.0 ** -52}
MEASUREMENT_LIMIT = 1.05


# ---- the table of cases

def kind(case):
    return case.get("kind", "elementwise")


def default_table():
    """generated/bench/cases.json in the source tree; cases.json beside the script when staged."""
    merged = os.path.join(HERE, "..", "generated", "bench", "cases.json")
    return merged if os.path.exists(merged) else os.path.join(HERE, "cases.json")


def load_table(path):
    with open(path) as f:
        table = json.load(f)
    return table.get("settings", {}), table["cases"]


def view_shape(spec):
    s = tuple(spec["shape"])
    return s[::-1] if spec.get("view") == "T" else s


def broadcast_shape(shapes):
    nd = max((len(s) for s in shapes), default=0)
    out = [1] * nd
    for s in shapes:
        for i, d in enumerate(s):
            j = nd - len(s) + i
            if out[j] == 1:
                out[j] = d
            elif d != 1 and d != out[j]:
                raise ValueError(f"shapes {shapes} do not broadcast")
    return tuple(out)


def out_size(case):
    """Elements of the result as the table defines it (None: data-dependent or not an array)."""
    k, ins = kind(case), case.get("inputs", [])
    if k == "elementwise":
        return math.prod(broadcast_shape([view_shape(i) for i in ins]))
    if k == "reduction":
        shape = view_shape(ins[0])
        return 1 if case.get("axis") is None else math.prod(shape) // shape[case["axis"]]
    if k in ("scan", "sort") or (k == "indexing" and case["op"] == "take"):
        return math.prod(view_shape(ins[0]))
    if k == "concat":
        return sum(math.prod(view_shape(i)) for i in ins)
    return None


def bytes_moved(case):
    """Bytes a bandwidth case must move: every input at its own size (a broadcast row once), the
    output once. None for other metrics."""
    if case.get("metric") != "bandwidth":
        return None
    n = sum(math.prod(i["shape"]) * ITEMSIZE[i["dtype"]] for i in case["inputs"])
    return n + out_size(case) * ITEMSIZE[case["out"]["dtype"]]


def pow2(n):
    return f"2^{n.bit_length() - 1}" if n > 1 and n & (n - 1) == 0 else str(n)


def size_label(case):
    ins = case.get("inputs", [])
    if not ins:
        shape = case.get("out", {}).get("shape")
        return pow2(math.prod(shape)) if shape else "-"
    if kind(case) == "concat":
        return f"{len(ins)}x{pow2(math.prod(ins[0]['shape']))}"
    shape = view_shape(ins[0])
    label = pow2(shape[0]) if len(shape) == 1 else "x".join(str(d) for d in shape)
    if case.get("axis") is not None:
        label += f" axis {case['axis']}"
    if kind(case) == "elementwise" and len(ins) > 1 and ins[1].get("view") == "T":
        label += " +T"
    elif kind(case) == "elementwise" and len(ins) > 1 and len(ins[1]["shape"]) < len(ins[0]["shape"]):
        label += " +row"
    return label


def dtype_label(case):
    ins = case.get("inputs", [])
    dts = []
    for i in ins:
        if i["dtype"] not in dts:
            dts.append(i["dtype"])
    label = "+".join(dts) if dts else case.get("out", {}).get("dtype", "-")
    if case["op"] == "astype" or (kind(case) == "elementwise" and case["out"]["dtype"] not in dts):
        label += "->" + case["out"]["dtype"]
    return label


# ---- the result check (cupp's sample against CuPy's)

def tolerance(case, ref):
    """Allowed |cupp - CuPy| per sampled element, or None when the values are not comparable."""
    import numpy as np
    k, op = kind(case), case["op"]
    out_dt = case.get("out", {}).get("dtype", "float64")
    eps = EPSILON.get(out_dt, 0.0)
    mag = np.maximum(np.abs(ref), 1.0)
    if case.get("rtol") is not None:  # the table's own tolerance for the case
        return case["rtol"] * mag
    if k == "elementwise":
        in_eps = [EPSILON[i["dtype"]] for i in case["inputs"] if i["dtype"] in EPSILON]
        if out_dt not in EPSILON and not in_eps:
            return np.full(ref.shape, 0.5)  # integers: exact
        return 4 * max([eps] + in_eps) * mag if eps else np.full(ref.shape, 0.5)
    if k == "reduction" and op in ("sum", "mean", "prod", "std", "var"):
        # Summation order differs between libraries: a bound that grows with the reduced length
        # (the inputs lie in [-4, 4]); a wrong kernel is off by far more.
        shape = view_shape(case["inputs"][0])
        n = math.prod(shape) if case.get("axis") is None else shape[case["axis"]]
        if op in ("std", "var"):
            return 1e-4 * mag
        scale = 4.0 / n if op == "mean" else 4.0
        return 64 * eps * math.sqrt(n) * scale + 4 * eps * np.abs(ref)
    if k == "scan":
        n = math.prod(case["inputs"][0]["shape"])
        return 64 * eps * math.sqrt(n) * 4.0 + 4 * eps * np.abs(ref)
    if k == "sort" and op == "argsort":
        return None  # equal keys: the order of their indices is not unique
    return np.zeros(ref.shape)  # max, argmax, sort, indexing, concatenate: exact


def check_case(case, cupp, cupy):
    """(status, text): status 'ok', 'mismatch', or 'unchecked'."""
    import numpy as np
    if not cupp.get("sample"):
        return "unchecked", "cupp wrote no sample"
    if not cupy.get("sample"):
        return "unchecked", "no CuPy sample" + (f" ({cupy['missing']})" if cupy.get("missing") else "")
    if cupp.get("out_size") is not None and cupy.get("out_size") is not None and cupp["out_size"] != cupy["out_size"]:
        return "mismatch", f"result size {cupp['out_size']}, CuPy's {cupy['out_size']}"
    try:
        got, ref = np.load(cupp["sample"]), np.load(cupy["sample"])
    except (OSError, ValueError) as e:
        return "unchecked", f"sample unreadable: {e}"
    if got.shape != ref.shape:
        return "mismatch", f"sample of {got.shape[0]} values, CuPy's of {ref.shape[0]}"
    tol = tolerance(case, ref)
    if tol is None:
        return "unchecked", "order of equal keys not unique"
    with np.errstate(invalid="ignore"):
        same_nan = np.isnan(got) & np.isnan(ref)
        bad = ~((np.abs(got - ref) <= tol) | same_nan)
    if not bad.any():
        return "ok", f"{got.size} values"
    i = int(np.argmax(bad))
    return "mismatch", (f"{int(bad.sum())} of {bad.size} sampled values differ from CuPy's; first: "
                        f"sample {i}: cupp {got[i]!r}, CuPy {ref[i]!r}")


# ---- merging the sides' lines into rows

def read_lines(path):
    records = []
    if not os.path.exists(path):
        return records
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError:
                    print(f"compare: not JSON in {path}: {line[:120]}", file=sys.stderr)
    return records


def index(records):
    return {(r.get("side"), r.get("case")): r for r in records}


def floors(by):
    best, best_from = 0.0, "-"
    for side in SIDES:
        for name in ("floor_memcpy_d2d", "floor_copy_kernel"):
            g = by.get((side, name), {}).get("gbps") or 0.0
            if g > best:
                best, best_from = g, f"{side} {name}"
    launch = by.get(("cupp", "launch_empty"), {}).get("us_per_call")
    return best, best_from, launch


def make_row(case, by, floor_gbps, launch_us):
    name, metric = case["name"], case["metric"]
    b = bytes_moved(case)
    row = dict(case=name, op=case["op"], kind=kind(case), size=size_label(case), dtype=dtype_label(case),
               metric=metric, target=case.get("target"), note=case.get("note", ""), sides={})
    for side in SIDES:
        r = by.get((side, name))
        cell = dict(status="not run")
        if r is None:
            pass
        elif r.get("missing"):
            cell = dict(status="missing", why=r["missing"])
        elif r.get("error"):
            cell = dict(status="error", why=r["error"])
        elif metric in ("host",) and r.get("us_per_call") is not None:
            # cupp's host cases carry the launch floor measured in alternation with them (the
            # same moment of the machine); the peers' are taken against the run's floor.
            floor_us = r.get("launch_us") or launch_us
            cell = dict(status="ok", us=r["us_per_call"],
                        launch_multiple=r["us_per_call"] / floor_us if floor_us else None)
        elif metric in ("bandwidth", "time", "latency") and r.get("ms") is not None:
            cell = dict(status="ok", ms=r["ms"])
            if b is not None and floor_gbps:
                cell["gbps"] = b / (r["ms"] * 1e6)
                cell["fraction"] = cell["gbps"] / floor_gbps
        else:
            cell = dict(status="no figure")
        if r is not None and r.get("check") not in (None, "ok"):
            cell["own_check"] = r["check"]
        if r is not None and r.get("note") and r.get("note") != case.get("note"):
            cell["note"] = r["note"]
        if cell.get("fraction") is not None and cell["fraction"] > MEASUREMENT_LIMIT:
            cell["measurement_error"] = True
        row["sides"][side] = cell
    t = {s: c.get("ms", c.get("us")) for s, c in row["sides"].items() if c["status"] == "ok"}
    peers = [t[s] for s in PEERS if s in t]
    row["vs_best"] = t["cupp"] / min(peers) if "cupp" in t and peers else None
    return row


def judge(row, case, by):
    """The result check and verdict of a row (in place); returns the problems that fail the run."""
    cupp = by.get(("cupp", case["name"]), {})
    cupy = by.get(("cupy", case["name"]), {})
    c = row["sides"]["cupp"]
    problems, remarks = [], []
    if c["status"] == "missing":
        row["check"], row["check_text"] = "missing", c["why"]
        row["result"] = "missing"
        return problems
    if kind(case) == "jit" or case.get("check") is False:  # no result / undefined values (empty)
        row["check"], row["check_text"] = "n/a", ""
    elif c["status"] == "ok":
        row["check"], row["check_text"] = check_case(case, cupp, cupy)
    else:
        row["check"], row["check_text"] = "unchecked", c["status"]
    if c["status"] == "error":
        problems.append("error: " + c["why"])
    elif c["status"] != "ok":
        problems.append(c["status"])
    if row["check"] == "mismatch":
        problems.append("MISMATCH vs CuPy: " + row["check_text"])
    if c.get("own_check"):
        problems.append("own check: " + c["own_check"])
    if c.get("measurement_error"):
        # Flagged, not failed: a reduction reads its input and writes almost nothing, and a
        # read-only stream can beat the copy floor (read + write); CuPy's sums show the same.
        remarks.append(f"MEASUREMENT ERROR: {100 * c['fraction']:.0f}% of the copy floor")
    target = case.get("target")
    if target is not None and c["status"] == "ok":
        if row["metric"] == "bandwidth" and c.get("fraction") is not None and c["fraction"] < target:
            remarks.append("slow")
        if row["metric"] == "host" and c.get("launch_multiple") is not None and c["launch_multiple"] > target:
            remarks.append("slow")
    for side in PEERS:
        if row["sides"][side].get("measurement_error"):
            remarks.append(f"{side} above 105% of the floor (measurement error)")
    row["problems"], row["remarks"] = problems, remarks
    flagged = bool(c.get("measurement_error"))
    row["result"] = "FAIL" if problems else ("flagged" if flagged else "slow" if "slow" in remarks else "pass")
    return problems


def merge(cases, records):
    """Rows and run-level facts from the sides' records; (rows, meta, failures)."""
    by = index(records)
    floor_gbps, floor_from, launch_us = floors(by)
    rows, failures = [], []
    for case in cases:
        if not any((s, case["name"]) in by for s in SIDES):
            continue  # not selected (--only)
        row = make_row(case, by, floor_gbps, launch_us)
        failures += [f"{case['name']}: {p}" for p in judge(row, case, by)]
        rows.append(row)
    meta = dict(floor_gbps=floor_gbps, floor_from=floor_from, launch_us=launch_us,
                floors={f"{s} {n}": by[(s, n)].get("gbps") for s in SIDES
                        for n in ("floor_memcpy_d2d", "floor_copy_kernel") if (s, n) in by},
                info={s: by.get((s, "device"), {}) for s in SIDES},
                process_floor_ms=by.get(("floor", "context_ready"), {}).get("ms"))
    return rows, meta, failures


# ---- printing

def fmt_time(cell, metric):
    st = cell["status"]
    if st != "ok":
        return {"not run": "-", "no figure": "?"}.get(st, st)
    if metric == "host":
        return f"{cell['us']:.2f}us"
    if metric == "latency":
        return f"{cell['ms']:.1f}ms"
    return f"{cell['ms']:.3f}ms"


def fmt_rel(cell, metric):
    if cell["status"] != "ok":
        return "-"
    if metric == "host" and cell.get("launch_multiple") is not None:
        return f"{cell['launch_multiple']:.2f}x"
    if cell.get("fraction") is not None:
        return f"{100 * cell['fraction']:.0f}%" + ("!" if cell.get("measurement_error") else "")
    return "-"


def fmt_target(row):
    t = row["target"]
    if t is None:
        return "-"
    return f"<={t:g}x" if row["metric"] == "host" else f">={100 * t:.0f}%"


COLUMNS = ("op", "size", "dtype", "cupp", "CuPy", "PyTorch", "cupp/best", "cupp fl", "CuPy fl", "torch fl",
           "target", "check", "result")


def row_cells(row):
    s, m = row["sides"], row["metric"]
    return (row["op"], row["size"], row["dtype"], fmt_time(s["cupp"], m), fmt_time(s["cupy"], m),
            fmt_time(s["torch"], m), f"{row['vs_best']:.2f}x" if row.get("vs_best") else "-",
            fmt_rel(s["cupp"], m), fmt_rel(s["cupy"], m), fmt_rel(s["torch"], m), fmt_target(row),
            row.get("check", "-"), row.get("result", "-"))


def header_lines(meta):
    out = []
    for side in SIDES:
        info = meta["info"].get(side) or {}
        if info.get("skipped"):
            out.append(f"{side}: skipped ({info['skipped']})")
        elif info:
            bits = [info.get("name", "?")]
            for key in ("version", "numpy", "cuda_runtime", "cuda_driver"):
                if info.get(key):
                    bits.append(f"{key} {info[key]}")
            out.append(f"{side}: " + ", ".join(str(b) for b in bits) + f"; {info.get('reps', '?')} reps")
        else:
            out.append(f"{side}: no output")
    for k, g in meta["floors"].items():
        if g:
            out.append(f"floor {k}: {g:.1f} GB/s")
    out.append(f"best copy floor: {meta['floor_gbps']:.1f} GB/s ({meta['floor_from']}); "
               f"launch floor (empty kernel, cupp RawKernel): "
               + (f"{meta['launch_us']:.2f} us" if meta.get("launch_us") else "-"))
    if meta.get("process_floor_ms"):
        out.append(f"process start to a CUDA context (no cupp, no Python): {meta['process_floor_ms']:.1f} ms")
    return out


def print_table(rows, meta, failures, file=None):
    file = file or sys.stdout
    for line in header_lines(meta):
        print(line, file=file)
    print("times: medians per call (CUDA events; host: us per call; jit: ms, fresh processes). "
          "fl: effective bandwidth as % of the best copy floor, or host time as a multiple of the "
          "launch floor; '!' = above 105 %: a measurement error. cupp/best: cupp's time over the "
          "best peer's (below 1: cupp is faster). check: cupp's sampled result against CuPy's (var, std: CuPy's float64 result).", file=file)
    cells = [COLUMNS] + [row_cells(r) for r in rows]
    widths = [max(len(str(c[i])) for c in cells) for i in range(len(COLUMNS))]
    for j, c in enumerate(cells):
        print("  ".join(str(v).ljust(w) if i < 3 or i >= 11 else str(v).rjust(w)
                        for i, (v, w) in enumerate(zip(c, widths))), file=file)
        if j == 0:
            print("-" * (sum(widths) + 2 * (len(widths) - 1)), file=file)
    counts = {}
    for r in rows:
        counts[r["result"]] = counts.get(r["result"], 0) + 1
    print(", ".join(f"{n} {k}" for k, n in sorted(counts.items())) + f" (of {len(rows)} cases)", file=file)
    notes = []
    for r in rows:
        for p in r.get("problems", []):
            notes.append(f"{r['case']}: {p}")
        for p in r.get("remarks", []):
            if p != "slow":
                notes.append(f"{r['case']}: {p}")
        for side in SIDES:
            c = r["sides"][side]
            if side != "cupp" and c["status"] == "error":
                notes.append(f"{r['case']}: {side} error: {c['why']}")
            if side != "cupp" and c.get("own_check"):
                notes.append(f"{r['case']}: {side} check: {c['own_check']}")
            if c.get("note"):
                notes.append(f"{r['case']}: {side}: {c['note']}")
        if r.get("note"):
            notes.append(f"{r['case']}: {r['note']}")
    if notes:
        print("notes:", file=file)
        for n in notes:
            print("  " + n, file=file)
    if failures:
        print(f"FAILED: {len(failures)} cupp case(s):", file=file)
        for f in failures:
            print("  " + f, file=file)


def markdown(rows, meta):
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    for r in rows:
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in row_cells(r)) + " |")
    return "\n".join(["```"] + header_lines(meta) + ["```", ""] + lines) + "\n"


# ---- running the sides

def run_side(name, cmd, out_dir, timeout, env=None):
    path = os.path.join(out_dir, f"{name}.jsonl")
    start = time.monotonic()
    print(f"compare: {name}: {' '.join(cmd)}", file=sys.stderr, flush=True)
    try:
        with open(path, "w") as f:
            rc = subprocess.run(cmd, stdout=f, cwd=HERE, timeout=timeout, env=env).returncode
    except subprocess.TimeoutExpired:
        rc = "timeout"
        with open(path, "a") as f:
            f.write(json.dumps(dict(side=name, case="device", metric="info", skipped=f"timed out after {timeout} s")) + "\n")
    except OSError as e:
        rc = str(e)
    print(f"compare: {name} exit {rc} after {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)
    return path


def key_values(text):
    out = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                out[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return out


def run_jit(cases, settings, exe_dir, out_dir):
    """The jit cases: fresh processes with an empty, then the filled kernel cache; medians."""
    jit = [c for c in cases if kind(c) == "jit"]
    records = []
    if not jit:
        return records
    reps = settings.get("jit_reps", 3)
    compile_exe = os.path.join(exe_dir, "cupp_bench_compile")
    sides = {"cupp": ([compile_exe, "first"], "CUPP_CACHE_DIR"),
             "cupy": ([sys.executable, os.path.join(HERE, "compile_cupy.py")], "CUPY_CACHE_DIR")}
    work = tempfile.mkdtemp(prefix="cupp-jit-")
    for side, (cmd, cache_var) in sides.items():
        if side == "cupp" and not os.path.exists(compile_exe):
            records += [dict(side=side, case=c["name"], metric=c["metric"], error="cupp_bench_compile not found")
                        for c in jit]
            continue
        figures = {"cold": [], "warm": []}
        error = None
        cache = os.path.join(work, side)
        for mode in ("cold", "warm"):
            for _ in range(reps):
                if mode == "cold":
                    subprocess.run(["rm", "-rf", cache])
                os.makedirs(cache, exist_ok=True)
                env = dict(os.environ, **{cache_var: cache})
                try:
                    p = subprocess.run(cmd + [str(time.time_ns())], capture_output=True, text=True, env=env,
                                       timeout=120)
                except (OSError, subprocess.TimeoutExpired) as e:
                    error = str(e)
                    break
                kv = key_values(p.stdout)
                if p.returncode != 0 or kv.get("correct") != 1:
                    tail = " | ".join((p.stdout + p.stderr).strip().splitlines()[-3:])
                    error = f"exit {p.returncode}, wrong or no result: {tail[-300:]}"
                    break
                figures[mode].append(kv)
        for c in jit:
            r = dict(side=side, case=c["name"], metric=c["metric"])
            if error:
                r["error"] = error
            else:
                mode, key = {"cold": ("cold", "first_call_ms"), "warm": ("warm", "first_call_ms"),
                             "process_start": ("warm", "process_start_to_result_ms")}[c["op"]]
                r["ms"] = statistics.median(kv[key] for kv in figures[mode])
                r["check"] = "ok"
            records.append(r)
    for c in jit:
        records.append(dict(side="torch", case=c["name"], metric=c["metric"],
                            missing="torch has no run-time compiled element-wise kernel"))
    context_exe = os.path.join(exe_dir, "cupp_bench_context")
    if os.path.exists(context_exe):
        ms = []
        for _ in range(reps):
            p = subprocess.run([context_exe, str(time.time_ns())], capture_output=True, text=True, timeout=60)
            v = key_values(p.stdout).get("context_ready_ms")
            if v is not None:
                ms.append(v)
        if ms:
            records.append(dict(side="floor", case="context_ready", metric="latency", ms=statistics.median(ms)))
    subprocess.run(["rm", "-rf", work])
    with open(os.path.join(out_dir, "jit.jsonl"), "w") as f:
        for r in records:
            f.write(json.dumps(r) + "\n")
    return records


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cupp", help="cupp's benchmark executable (cupp_bench)")
    p.add_argument("--cases", default=default_table())
    p.add_argument("--out", default=os.environ.get("OUT") or "", help="output folder (default $OUT, else a temp folder)")
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--reps", type=int, default=None)
    p.add_argument("--from", dest="from_dir", default="", help="merge the .jsonl files of an earlier run")
    p.add_argument("--markdown", default="", help="also write the table in Markdown here")
    p.add_argument("--side-timeout", type=int, default=240)
    args = p.parse_args(argv)
    settings, cases = load_table(args.cases)
    only = {n for n in args.only.split(",") if n}
    if only:
        unknown = only - {c["name"] for c in cases}
        if unknown:
            print(f"compare: unknown case(s): {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c["name"] in only]
    if args.from_dir:
        out_dir = args.from_dir
    else:
        if not args.cupp:
            p.error("--cupp EXE is needed (or --from DIR)")
        out_dir = args.out or tempfile.mkdtemp(prefix="cupp-bench-")
        os.makedirs(out_dir, exist_ok=True)
        common = ["--cases", os.path.abspath(args.cases)]
        if args.only:
            common += ["--only", args.only]
        if args.reps:
            common += ["--reps", str(args.reps)]
        started = time.monotonic()
        for side, cmd in (("cupp", [os.path.abspath(args.cupp)]),
                          ("cupy", [sys.executable, os.path.join(HERE, "side_cupy.py")]),
                          ("torch", [sys.executable, os.path.join(HERE, "side_torch.py")])):
            samples = os.path.join(out_dir, f"samples-{side}")
            os.makedirs(samples, exist_ok=True)
            run_side(side, cmd + common + ["--samples", samples], out_dir, args.side_timeout)
        run_jit(cases, settings, os.path.dirname(os.path.abspath(args.cupp)), out_dir)
        print(f"compare: all sides ran in {time.monotonic() - started:.0f} s", file=sys.stderr)
    records = []
    for name in ("cupp", "cupy", "torch", "jit"):
        records += read_lines(os.path.join(out_dir, f"{name}.jsonl"))
    rows, meta, failures = merge(cases, records)
    print_table(rows, meta, failures)
    meta["date"] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    result_path = os.path.join(out_dir, "bench-results.json")
    with open(result_path, "w") as f:
        json.dump(dict(meta=meta, rows=rows, failures=failures), f, indent=1, default=str)
    print(f"compare: wrote {result_path}", file=sys.stderr)
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(rows, meta))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
