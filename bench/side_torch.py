"""PyTorch's side of the benchmark (bench/compare.py runs it): the cases of bench/cases.json
where torch has the op (torch.add / multiply / sin / Tensor.to; sum, amax, argmax, std, var with
correction=0, cumsum, sort, argsort, nonzero, boolean mask, take, cat, empty), timed as bench.cpp
times cupp's (CUDA events, warm-up, medians; host time per call in batches), outputs poisoned
with NaN bytes first and element-wise results checked on a sample against NumPy. PyTorch
computes mixed int32 + float32 in float32 (torch.result_type) and casts into a float64 out; the
check follows torch's semantics there and the line says so. Inputs are torch's own random data
(its results are not compared with cupp's). Also torch's own copy floor. Prints the same JSON
lines as the C++ side, with side "torch"; without torch it says so and exits 0."""
import sys

import numpy as np

import side_common as common

SIDE = "torch"

try:
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("torch.cuda.is_available() is False")
except Exception as e:  # noqa: BLE001 - any import failure means: no usable PyTorch here
    common.emit(side=SIDE, case="device", metric="info", skipped=f"torch not usable: {e}")
    print(f"side_torch: torch not usable ({e}); skipped", file=sys.stderr)
    sys.exit(0)

DTYPES = {"bool": torch.bool, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32,
          "int64": torch.int64, "uint8": torch.uint8, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
          "complex64": torch.complex64, "complex128": torch.complex128}
NAMES = {v: k for k, v in DTYPES.items()}


def make_input(spec, seed, device):
    shape, dt = common.data_shape(spec), DTYPES[spec["dtype"]]
    g = torch.Generator(device=device)
    g.manual_seed(seed)
    if dt == torch.bool:
        a = torch.rand(shape, generator=g, device=device) < 0.5
    elif not dt.is_floating_point and not dt.is_complex:
        lo, hi = (0, 200) if dt == torch.uint8 else (-(2 ** 20), 2 ** 20)
        a = torch.randint(lo, hi, shape, generator=g, device=device, dtype=torch.int64).to(dt)
    elif dt.is_complex:
        re = torch.rand(shape, generator=g, device=device) * 8 - 4
        im = torch.rand(shape, generator=g, device=device) * 8 - 4
        a = torch.complex(re, im).to(dt)
        del re, im
    else:
        a = (torch.rand(shape, generator=g, device=device) * 8 - 4).to(dt)
    return a.t() if spec.get("view") == "T" else a


def fill_poison(t):
    """NaN bytes (0xFF) over the tensor; NaN or -1 where a byte view is refused."""
    try:
        t.view(torch.uint8).fill_(0xFF)
    except RuntimeError:
        t.fill_(float("nan") if t.is_floating_point() or t.is_complex() else -1)


def to_host_wide(x, index):
    """Elements of x (broadcast to the result) at the sample positions, as float64/complex128."""
    s = x[tuple(torch.as_tensor(i, device=x.device) for i in index)]
    return s.to(torch.complex128 if s.is_complex() else torch.float64).cpu().numpy()


class Lib:
    """What side_common.run_other needs, for PyTorch."""

    def __init__(self, stream, settings, device):
        self.stream, self.settings, self.device = stream, settings, device

    def make_inputs(self, case):
        inputs = [make_input(spec, 1234 + i, self.device) for i, spec in enumerate(case["inputs"])]
        if case["op"] == "mask":
            inputs.append(inputs[0] > 0)
        elif case["op"] == "take":
            n = inputs[0].numel()
            inputs.append(torch.arange(n, dtype=torch.int64, device=self.device) * 2654435761 % n)  # as bench.cpp
        torch.cuda.synchronize()
        return inputs

    def make_call(self, case, inputs):
        op, k, x = case["op"], common.kind(case), inputs[0] if inputs else None
        axis = case.get("axis")
        if k == "reduction":
            if op in ("std", "var"):
                f = getattr(torch, op)
                return (lambda: f(x, correction=0)) if axis is None else (lambda: f(x, dim=axis, correction=0))
            name = {"max": "amax", "min": "amin"}.get(op, op)
            if name in ("sum", "prod", "amax", "amin", "mean", "argmax", "argmin"):
                f = getattr(torch, name)
                if axis is None:
                    return (lambda: f(x)) if name not in ("amax", "amin") else (lambda: f(x, dim=tuple(range(x.dim()))))
                return lambda: f(x, dim=axis)
            return None
        if k == "scan" and op == "cumsum":
            return lambda: torch.cumsum(x, 0)
        if k == "sort" and op == "sort":
            return lambda: torch.sort(x).values
        if k == "sort" and op == "argsort":
            return lambda: torch.argsort(x)
        if k == "indexing" and op == "nonzero":
            return lambda: torch.nonzero(x)
        if k == "indexing" and op == "mask":
            m = inputs[1]
            return lambda: x[m]
        if k == "indexing" and op == "take":
            idx = inputs[1]
            return lambda: torch.take(x, idx)
        if k == "concat":
            return lambda: torch.cat(inputs)
        if k == "alloc":
            shape, dt, dev = tuple(case["out"]["shape"]), DTYPES[case["out"]["dtype"]], self.device

            def alloc():
                torch.empty(shape, dtype=dt, device=dev)
            return alloc
        return None

    def time_device(self, call):
        s = self.stream
        return common.time_device(call, self.settings.get("warmup", 5), self.settings.get("reps", 30),
                                  lambda: torch.cuda.Event(enable_timing=True), lambda e: e.record(s),
                                  lambda a, b: a.elapsed_time(b), s.synchronize)

    def time_host(self, call):
        return common.time_host_us(call, self.settings, self.stream.synchronize)

    def synchronize(self):
        self.stream.synchronize()

    def poison(self, result):
        scratch = torch.empty(result.shape, dtype=result.dtype, device=self.device)
        if scratch.numel():
            fill_poison(scratch)
        del scratch

    @staticmethod
    def shape_of(result):
        return tuple(result.shape)

    @staticmethod
    def dtype_name(result):
        return NAMES.get(result.dtype, str(result.dtype))

    @staticmethod
    def host_values(result, positions):
        flat = result.reshape(-1)
        s = flat[torch.as_tensor(positions, device=flat.device)]
        return s.to(torch.complex128 if s.is_complex() else torch.float64).cpu().numpy()


def run_case(case, settings, stream, device, samples_dir=""):
    if common.kind(case) != "elementwise":
        return common.run_other(case, settings, samples_dir, SIDE, Lib(stream, settings, device))
    inputs = [make_input(spec, 1234 + i, device) for i, spec in enumerate(case["inputs"])]
    shape = common.out_shape(case)
    out_dt = DTYPES[case["out"]["dtype"]]
    op, given = case["op"], case["out"]["given"]
    out = torch.empty(shape, dtype=out_dt, device=device) if given else None
    torch.cuda.synchronize()
    if op == "astype":
        def call():
            return inputs[0].to(out_dt)
        compute = out_dt
    else:
        f = getattr(torch, op)
        compute = torch.result_type(*inputs) if len(inputs) == 2 else inputs[0].dtype
        call = common.make_call(f, inputs, out, given)

    def poison():
        if given:
            fill_poison(out)
        else:  # a block of the result's size, back to the caching allocator for the next one
            scratch = torch.empty(shape, dtype=out_dt, device=device)
            fill_poison(scratch)
            del scratch

    line = dict(side=SIDE, case=case["name"], metric=case["metric"])
    if case["metric"] == "host":
        line["us_per_call"] = common.time_host_us(call, settings, stream.synchronize)
    else:
        poison()
        ms, min_ms = common.time_device(
            call, settings.get("warmup", 5), settings.get("reps", 30),
            lambda: torch.cuda.Event(enable_timing=True), lambda e: e.record(stream),
            lambda a, b: a.elapsed_time(b), stream.synchronize)
        b = common.bytes_moved(case)
        line.update(ms=ms, min_ms=min_ms, bytes=b, gbps=b / (ms * 1e6))
    stream.synchronize()
    poison()
    result = call()
    stream.synchronize()
    if result.dtype != out_dt:
        line["check"] = f"result dtype {result.dtype}, expected {out_dt}"
    else:
        index = common.sample_indices(shape, settings.get("check_samples", 4096))
        xs = [to_host_wide(x.expand(shape), index) for x in inputs]
        got = to_host_wide(result, index)
        line["check"] = common.compare(op, xs, got, [NAMES[compute], case["out"]["dtype"]])
    notes = [case["note"]] if case.get("note") else []
    if op != "astype" and compute != out_dt:
        notes.append(f"torch computes in {NAMES[compute]}, casts into {case['out']['dtype']}")
    if notes:
        line["note"] = "; ".join(notes)
    common.emit(**line)


def floors(settings, stream, device):
    n = settings.get("copy_floor_bytes", 1 << 30)
    src = torch.full((n,), 0x3C, dtype=torch.uint8, device=device)
    dst = torch.empty(n, dtype=torch.uint8, device=device)
    ms, min_ms = common.time_device(
        lambda: dst.copy_(src), 3, settings.get("floor_reps", 30),
        lambda: torch.cuda.Event(enable_timing=True), lambda e: e.record(stream),
        lambda a, b: a.elapsed_time(b), stream.synchronize)
    common.emit(side=SIDE, case="floor_memcpy_d2d", metric="floor", ms=ms, min_ms=min_ms,
                bytes=2 * n, gbps=2 * n / (ms * 1e6), note="Tensor.copy_")


def main():
    args = common.parse_args(__doc__)
    settings, cases = common.load_cases(args)
    device = torch.device("cuda")
    stream = torch.cuda.current_stream(device)
    common.emit(side=SIDE, case="device", metric="info", name=torch.cuda.get_device_name(device),
                version=torch.__version__, reps=settings.get("reps"))
    floors(settings, stream, device)
    failures = 0
    for case in cases:
        print(f"{SIDE}: {case['name']}", file=sys.stderr, flush=True)
        try:
            with torch.no_grad():
                if common.kind(case) != "jit":  # compare.py runs those
                    run_case(case, settings, stream, device, args.samples)
        except Exception as e:  # noqa: BLE001 - report and go on with the next case
            failures += 1
            common.emit(side=SIDE, case=case["name"], metric=case["metric"],
                        error=f"{type(e).__name__}: {e}")
        torch.cuda.empty_cache()
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
