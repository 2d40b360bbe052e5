"""What the Python sides of the element-wise benchmark share (elementwise_cupy.py,
elementwise_torch.py): reading bench/elementwise_cases.json, the command line, the JSON-lines
output, timing loops over a library's CUDA events, and checking a sample of a result against a
NumPy reference computed in float64 / complex128 (as bench_elementwise.cpp does for cupp)."""
import argparse
import json
import math
import os
import statistics
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

ITEMSIZE = {"bool": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint8": 1, "uint16": 2,
            "uint32": 4, "uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8,
            "complex64": 8, "complex128": 16}
EPSILON = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23, "float64": 2.0 ** -52,
           "complex64": 2.0 ** -23, "complex128": 2.0 ** -52}


def parse_args(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--cases", default=os.path.join(HERE, "elementwise_cases.json"))
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--reps", type=int, default=None)
    return p.parse_args()


def load_cases(args):
    with open(args.cases) as f:
        table = json.load(f)
    settings = table.get("settings", {})
    if args.reps:
        settings["reps"] = args.reps
    only = {n for n in args.only.split(",") if n}
    cases = [c for c in table["cases"] if not only or c["name"] in only]
    return settings, cases


def emit(**fields):
    print(json.dumps(fields), flush=True)


def data_shape(spec):
    """The shape of an input's own data (the table gives it; view 'T' transposes it afterwards)."""
    return tuple(spec["shape"])


def view_shape(spec):
    s = data_shape(spec)
    return s[::-1] if spec.get("view") == "T" else s


def out_shape(case):
    return tuple(np.broadcast_shapes(*(view_shape(i) for i in case["inputs"])))


def bytes_moved(case):
    """Every input at its own size (a broadcast row counts once), the output once."""
    n = sum(math.prod(data_shape(i)) * ITEMSIZE[i["dtype"]] for i in case["inputs"])
    return n + math.prod(out_shape(case)) * ITEMSIZE[case["out"]["dtype"]]


def time_device(call, warmup, reps, new_event, record, elapsed_ms, synchronize):
    """Medians of CUDA-event times, calls back to back with an event between each two (one call
    in flight before the first event keeps the GPU busy). Returns (median_ms, min_ms)."""
    for _ in range(warmup):
        call()
    synchronize()
    call()
    events = [new_event() for _ in range(reps + 1)]
    record(events[0])
    for i in range(reps):
        call()
        record(events[i + 1])
    synchronize()
    ms = [elapsed_ms(events[i], events[i + 1]) for i in range(reps)]
    return statistics.median(ms), min(ms)


def time_host_us(call, settings, synchronize):
    """Median host microseconds per call over batches (the stream drained between batches)."""
    for _ in range(settings.get("host_warmup", 3000)):
        call()
    synchronize()
    batch = settings.get("host_batch", 500)
    per_call = []
    for _ in range(settings.get("host_batches", 60)):
        t0 = time.perf_counter()
        for _ in range(batch):
            call()
        per_call.append((time.perf_counter() - t0) / batch * 1e6)
        synchronize()
    return statistics.median(per_call)


def sample_indices(shape, n, seed=12345):
    """Multi-indices (a tuple of int64 arrays) of n positions: the first, the last, the rest random."""
    size = math.prod(shape)
    rng = np.random.default_rng(seed)
    flat = np.concatenate([[0, size - 1], rng.integers(0, size, max(n - 2, 0))]).astype(np.int64)
    return np.unravel_index(flat, shape)


def reference(op, xs):
    """op on float64/complex128 NumPy arrays."""
    if op == "astype":
        return xs[0]
    return getattr(np, op)(*xs)


def compare(op, xs, got, compute_dtypes):
    """'ok' or what is wrong: |got - ref| <= 4 eps max(|ref|, 1), eps of the least precise of
    compute_dtypes (integers: exact within 0.5). NaN (the poison) always fails."""
    want = reference(op, xs)
    eps = max([EPSILON.get(d, 0.0) for d in compute_dtypes] + [2.0 ** -52])
    integer = all(d not in EPSILON for d in compute_dtypes)
    tol = np.full(want.shape, 0.5) if integer else 4 * eps * np.maximum(np.abs(want), 1.0)
    with np.errstate(invalid="ignore"):
        bad = ~(np.abs(got - want) <= tol)
    if not bad.any():
        return "ok"
    i = int(np.argmax(bad))
    return (f"{int(bad.sum())} of {bad.size} sampled elements wrong; first: element {i}: "
            f"got {got[i]!r}, expected {want[i]!r}")


def make_call(f, inputs, out, given):
    """The timed call of a ufunc-like f on the inputs, with out= when given; two-input calls are
    spelled out so that no argument unpacking is timed."""
    a = inputs
    if given:
        if len(a) == 2:
            return lambda: f(a[0], a[1], out=out)
        return lambda: f(*a, out=out)
    if len(a) == 2:
        return lambda: f(a[0], a[1])
    return lambda: f(*a)
