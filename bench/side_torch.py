"""PyTorch's side of the benchmark (bench/compare.py runs it): every case of the table with torch,
each case's NumPy expression bound once over NumPy's names as torch spells them (names(): torch.add
/ multiply / sin / Tensor.to; sum, amax, argmax, std, var with correction=0, cumsum, sort, argsort,
nonzero, boolean mask, take, cat, empty, fft.fftfreq), timed as bench.cpp times cupp's (CUDA events, warm-up, medians; host time per call in batches), outputs poisoned
with NaN bytes first and element-wise results checked on a sample against NumPy. PyTorch
computes mixed int32 + float32 in float32 (torch.result_type) and casts into a float64 out; the
check follows torch's semantics there and the line says so. Inputs are torch's own random data
(its results are not compared with cupp's). Also torch's own copy floor. Prints the same JSON
lines as the C++ side, with side "torch"; without torch it says so and exits 0."""
import sys
import types

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


def _over(f, **fixed):
    """NumPy's f(x, axis=None) as torch's f(x) / f(x, dim=axis)."""
    def call(x, axis=None):
        return f(x, **fixed) if axis is None else f(x, dim=axis, **fixed)
    return call


def names(device):
    """NumPy's names for the expressions, as torch spells them: torch's own where the name and
    meaning agree (add, multiply, sin, greater, remainder, ...), and shims that make the calls
    this side made before the table had expressions (so its timings compare across versions)."""
    ns = {n: getattr(torch, n) for n in dir(torch) if not n.startswith("_")}

    def amax(x, axis=None):  # every axis: dim over all of them (torch.max(x) is another kernel)
        return torch.amax(x, dim=tuple(range(x.dim())) if axis is None else axis)

    def amin(x, axis=None):
        return torch.amin(x, dim=tuple(range(x.dim())) if axis is None else axis)

    def cumsum(x, axis=None):
        return torch.cumsum(x.reshape(-1), 0) if axis is None else torch.cumsum(x, axis)

    fft = types.SimpleNamespace(
        fftfreq=lambda n, d=1.0: torch.fft.fftfreq(n, d, dtype=torch.float64, device=device),
        rfftfreq=lambda n, d=1.0: torch.fft.rfftfreq(n, d, dtype=torch.float64, device=device),
        fft=lambda a, n=None, axis=-1, norm=None: torch.fft.fft(a, n, axis, norm),
        ifft=lambda a, n=None, axis=-1, norm=None: torch.fft.ifft(a, n, axis, norm),
        fft2=lambda a, s=None, axes=(-2, -1), norm=None: torch.fft.fft2(a, s, axes, norm),
        rfft=lambda a, n=None, axis=-1, norm=None: torch.fft.rfft(a, n, axis, norm))
    ns.update(
        astype=lambda x, dtype, copy=True: x.to(DTYPES[dtype]),
        sum=_over(torch.sum), prod=_over(torch.prod), mean=_over(torch.mean),
        max=amax, amax=amax, min=amin, amin=amin,
        argmax=_over(torch.argmax), argmin=_over(torch.argmin),
        std=_over(torch.std, correction=0), var=_over(torch.var, correction=0),
        cumsum=cumsum,
        sort=lambda x: torch.sort(x).values,
        argsort=lambda x: torch.argsort(x),
        nonzero=lambda x: (torch.nonzero(x),),  # one (n, 1) array: torch's usual call
        take=lambda a, indices, axis=None, mode=None: torch.take(a, indices),
        concatenate=lambda arrays, axis=0: torch.cat(arrays, axis),
        empty=lambda shape, dtype="float64": torch.empty(shape, dtype=DTYPES[dtype], device=device),
        arange=lambda stop: torch.arange(stop, dtype=torch.int64, device=device),
        fft=fft)
    return ns


class Lib:
    """What side_common.run_case needs, for PyTorch."""

    def __init__(self, stream, settings, device):
        self.stream, self.settings, self.device = stream, settings, device
        self.names = names(device)

    def make_input(self, spec, seed):
        return make_input(spec, seed, self.device)

    def empty(self, shape, dtype):
        return torch.empty(shape, dtype=DTYPES[dtype], device=self.device)

    def time_device(self, call):
        s = self.stream
        return common.time_device(call, self.settings.get("warmup", 5), self.settings.get("reps", 30),
                                  lambda: torch.cuda.Event(enable_timing=True), lambda e: e.record(s),
                                  lambda a, b: a.elapsed_time(b), s.synchronize)

    def time_host(self, call):
        return common.time_host_us(call, self.settings, self.stream.synchronize)

    def synchronize(self):
        self.stream.synchronize()

    @staticmethod
    def poison(a):
        if a.numel():
            fill_poison(a)

    def scratch_poison(self, result):
        scratch = torch.empty(result.shape, dtype=result.dtype, device=self.device)
        self.poison(scratch)
        del scratch

    @staticmethod
    def same_array(a, b):
        return isinstance(a, torch.Tensor) and a.data_ptr() == b.data_ptr()

    @staticmethod
    def widen(x):
        return x.to(torch.complex128 if x.is_complex() else torch.float64)

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

    @staticmethod
    def compute_dtype(case, inputs):
        if case["op"] == "astype":
            return DTYPES[case["out"]["dtype"]]
        return torch.result_type(*inputs) if len(inputs) == 2 else inputs[0].dtype

    def check_elementwise(self, case, inputs, result):
        """The result against NumPy in float64 / complex128 at sampled positions, with torch's
        compute dtype (mixed int32 + float32 computes in float32, then casts into the out)."""
        out_dt = DTYPES[case["out"]["dtype"]]
        if result.dtype != out_dt:
            return f"result dtype {result.dtype}, expected {out_dt}"
        shape = common.out_shape(case)
        index = common.sample_indices(shape, self.settings.get("check_samples", 4096))
        xs = [to_host_wide(x.expand(shape), index) for x in inputs]
        got = to_host_wide(result, index)
        return common.compare(case["op"], xs, got, [NAMES[self.compute_dtype(case, inputs)], case["out"]["dtype"]])

    def notes(self, case, inputs):
        if common.kind(case) != "elementwise":
            return []
        compute = self.compute_dtype(case, inputs)
        if NAMES[compute] != case["out"]["dtype"]:
            return [f"torch computes in {NAMES[compute]}, casts into {case['out']['dtype']}"]
        return []


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
    with torch.no_grad():
        failures = common.run_cases(SIDE, cases, settings, args.samples, Lib(stream, settings, device),
                                    between=torch.cuda.empty_cache)
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
