"""What the Python sides of the benchmark share (side_cupy.py, side_torch.py): reading the table
of cases (generated/bench/cases.json), the command line, binding a case's NumPy expression once
over a library's names (bind), the one runner of every case (run_case), the JSON-lines output,
timing loops over a library's CUDA events, checking a sample of an element-wise result against a
NumPy reference computed in float64 / complex128 (as bench.cpp does for cupp), the input fill
kernel (the same text as bench.cpp's, so cupp's and CuPy's inputs are equal) and the sample of a
result that compare.py checks across sides."""
import argparse
import ast
import json
import math
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

ITEMSIZE = {"bool": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "uint8": 1, "uint16": 2,
            "uint32": 4, "uint64": 8, "float16": 2, "bfloat16": 2, "float32": 4, "float64": 8,
            "complex64": 8, "complex128": 16}
EPSILON = {"float16": 2.0 ** -10, "bfloat16": 2.0 ** -7, "float32": 2.0 ** -23, "float64": 2.0 ** -52,
           "complex64": 2.0 ** -23, "complex128": 2.0 ** -52}


def default_table():
    """The merged table: generated/bench/cases.json in the source tree, cases.json beside the
    scripts where they are staged (tools/dev/stage-gpu.sh copies the merged one)."""
    merged = os.path.join(HERE, "..", "generated", "bench", "cases.json")
    return merged if os.path.exists(merged) else os.path.join(HERE, "cases.json")


def parse_args(description):
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--cases", default=default_table())
    p.add_argument("--samples", default="", help="write each result's sampled values to DIR/<case>.npy")
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


def kind(case):
    return case.get("kind", "elementwise")


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


# The input fill (bench.cpp's fill_source, the same text: bench/test_compare_logic.py checks).
# fill(p, n, kind, size, seed) over n elements; FILL_KIND gives kind and size per dtype (complex:
# 2n elements of its component).
FILL_SOURCE = r"""
typedef unsigned long long u64;
__device__ __forceinline__ unsigned hash32(u64 i, unsigned seed) {
  unsigned x = (unsigned)i * 0x9E3779B1u ^ (unsigned)(i >> 32) * 0x85EBCA77u ^ seed;
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}
// n elements of one kind: 0 signed integer, 1 unsigned integer, 2 bool, 3 float16, 4 bfloat16,
// 5 float32, 6 float64 (complex arrays are filled as 2n elements of their component).
extern "C" __global__ void fill(char* p, u64 n, int kind, int size, unsigned seed) {
  const u64 step = (u64)gridDim.x * blockDim.x;
  for (u64 i = (u64)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += step) {
    const unsigned h = hash32(i, seed);
    const float f = -4.0f + 8.0f * ((h >> 8) * (1.0f / 16777216.0f));
    if (kind <= 1) {
      const long long range = size == 1 ? 200 : size == 2 ? 20000 : (1LL << 21);
      const long long v = (long long)(h % range) - (kind == 0 ? range / 2 : 0);
      if (size == 1) ((signed char*)p)[i] = (signed char)v;
      else if (size == 2) ((short*)p)[i] = (short)v;
      else if (size == 4) ((int*)p)[i] = (int)v;
      else ((long long*)p)[i] = v;
    } else if (kind == 2) {
      p[i] = (char)(h & 1);
    } else if (kind == 3) {
      unsigned short b;
      asm("cvt.rn.f16.f32 %0, %1;" : "=h"(b) : "f"(f));
      ((unsigned short*)p)[i] = b;
    } else if (kind == 4) {
      unsigned short b;
      asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f));
      ((unsigned short*)p)[i] = b;
    } else if (kind == 5) {
      ((float*)p)[i] = f;
    } else {
      ((double*)p)[i] = -4.0 + 8.0 * (h * (1.0 / 4294967296.0));
    }
  }
}
"""
FILL_KIND = {"bool": (2, 1), "float16": (3, 2), "bfloat16": (4, 2), "float32": (5, 4), "float64": (6, 8),
             "complex64": (5, 4), "complex128": (6, 8)}


def fill_args(dtype, n):
    """(n elements, kind, size) of the fill kernel for n elements of dtype."""
    if dtype in FILL_KIND:
        k, size = FILL_KIND[dtype]
        return (2 * n if dtype.startswith("complex") else n), k, size
    return n, (1 if dtype.startswith("uint") else 0), ITEMSIZE[dtype]


def sample_positions(size, n):
    """Flat C-order positions of the sample (bench.cpp's sample_positions): every element when
    there are at most n, else i * (size - 1) // (n - 1) for i < n (first and last included)."""
    if size <= n:
        return np.arange(size, dtype=np.int64)
    if n == 1:
        return np.zeros(1, dtype=np.int64)
    i = np.arange(n, dtype=np.int64)
    return i * (size - 1) // (n - 1)


def write_sample(directory, name, values):
    """values (host, already at the sample positions) as float64 / complex128 in DIR/name.npy."""
    if not directory:
        return None
    values = np.asarray(values)
    wide = np.complex128 if values.dtype.kind == "c" else np.float64
    path = os.path.join(directory, name + ".npy")
    np.save(path, values.astype(wide))
    return path


class Missing(Exception):
    """The library has no name the expression uses."""


def bind(expr, names, arrays):
    """expr (NumPy's spelling) as a callable of no arguments, bound once: every name it uses is a
    closure variable holding the library's function (from names) or the case's array (from
    arrays), so a call is what a hand-written lambda would do, nothing parsed or looked up by
    name. Raises Missing for a name neither has."""
    tree = ast.parse(expr, mode="eval")
    used = sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})
    values = []
    for n in used:
        if n in arrays:
            values.append(arrays[n])
        elif n in names:
            values.append(names[n])
        else:
            raise Missing(n)
    params = ", ".join(used)
    scope = {}
    exec(f"def make({params}):\n    return lambda: {expr}\n", {}, scope)  # noqa: S102 - the table's text
    return scope["make"](*values)


def run_case(case, settings, samples_dir, side, lib):
    """One case on a Python side, from its expression. lib supplies: names (the library's
    functions under NumPy's names; a dotted name as an object with attributes); make_input(spec,
    seed); empty(shape, dtype_name); synchronize(); time_device(call) -> (median_ms, min_ms);
    time_host(call) -> us; poison(array) (NaN bytes over it); scratch_poison(result) (a block of
    the result's size in NaN bytes handed back to the allocator); host_values(result, positions);
    shape_of, dtype_name, same_array(a, b); widen(x) (a float64 copy, for reference: float64);
    optionally check_elementwise(case, inputs, result) -> 'ok' or what is wrong.
    Emits the case's line; the sample goes to samples_dir (compare.py checks cupp's against it)."""
    line = dict(side=side, case=case["name"], metric=case["metric"])
    inputs = [lib.make_input(spec, 1234 + i) for i, spec in enumerate(case["inputs"])]
    arrays = {f"x{i}": x for i, x in enumerate(inputs)}
    out = None
    if case.get("out", {}).get("given"):
        out = arrays["out"] = lib.empty(out_shape(case), case["out"]["dtype"])
    try:
        for step in case.get("setup", []):
            target, _, rhs = step.partition("=")
            arrays[target.strip()] = bind(rhs.strip(), lib.names, arrays)()
        call = bind(case["expr"], lib.names, arrays)
    except Missing as e:
        line["missing"] = f"{side} has no {e.args[0]} ({case['expr']})"
        emit(**line)
        return
    result = call()  # compiles and allocates out of the timing
    lib.synchronize()
    into_out = out is not None and lib.same_array(result, out)

    def poison():
        if into_out:
            lib.poison(out)
        else:
            lib.scratch_poison(result)

    if case["metric"] == "host":
        line["us_per_call"] = lib.time_host(call)
    else:
        poison()
        ms, min_ms = lib.time_device(call)
        line.update(ms=ms, min_ms=min_ms)
    lib.synchronize()
    if case.get("check", True):
        poison()
        del result
        if case.get("reference") == "float64":  # a more exact computation than the timed one
            wide = dict(arrays, **{f"x{i}": lib.widen(x) for i, x in enumerate(inputs)})
            result = bind(case["expr"], lib.names, wide)()
            line["reference"] = "float64"
        else:
            result = call()
        lib.synchronize()
        if kind(case) == "elementwise" and hasattr(lib, "check_elementwise"):
            line["check"] = lib.check_elementwise(case, inputs, result)
        positions = sample_positions(int(np.prod(lib.shape_of(result))), settings.get("check_samples", 4096))
        path = write_sample(samples_dir, case["name"], lib.host_values(result, positions))
        if path:
            line["sample"] = path
        line["out_size"] = int(np.prod(lib.shape_of(result)))
        line["out_dtype"] = lib.dtype_name(result)
    notes = ([case["note"]] if case.get("note") else []) + (lib.notes(case, inputs) if hasattr(lib, "notes") else [])
    if notes:
        line["note"] = "; ".join(notes)
    emit(**line)


def run_cases(side, cases, settings, samples_dir, lib, between=lambda: None):
    """Every case but the jit ones (compare.py runs those); an exception is reported as the
    case's error and the next case runs. Returns the number of failures."""
    failures = 0
    for case in cases:
        print(f"{side}: {case['name']}", file=sys.stderr, flush=True)
        try:
            if kind(case) != "jit":
                run_case(case, settings, samples_dir, side, lib)
        except Exception as e:  # noqa: BLE001 - report and go on with the next case
            failures += 1
            emit(side=side, case=case["name"], metric=case["metric"], error=f"{type(e).__name__}: {e}")
        between()
    return failures
