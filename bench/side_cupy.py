"""CuPy's side of the element-wise benchmark (bench/run_elementwise_bench.sh): the cases of
bench/elementwise_cases.json with CuPy's ufuncs and astype, timed as bench_elementwise.cpp times
cupp's (CUDA events, warm-up, medians; host time per call in batches), outputs poisoned with NaN
bytes first and a sample checked against NumPy. Also CuPy's own copy floor and empty-RawKernel
launch, for reference. Prints the same JSON lines as the C++ side, with side "cupy"."""
import sys

import numpy as np

import elementwise_common as common

SIDE = "cupy"

try:
    import cupy
except Exception as e:  # noqa: BLE001 - any import failure means: no CuPy here
    common.emit(side=SIDE, case="device", metric="info", skipped=f"cupy not importable: {e}")
    print(f"elementwise_cupy: cupy not importable ({e}); skipped", file=sys.stderr)
    sys.exit(0)


def np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def make_input(spec, seed):
    shape, dt = common.data_shape(spec), np_dtype(spec["dtype"])
    rng = cupy.random.default_rng(seed)
    if dt.kind in "iu":
        lo, hi = (0, 200) if dt.kind == "u" else (-(2 ** 20), 2 ** 20)
        a = cupy.floor(rng.random(shape, dtype=cupy.float32) * (hi - lo)).astype(cupy.int64) + lo
        a = a.astype(dt)
    elif dt.kind == "b":
        a = rng.random(shape, dtype=cupy.float32) < 0.5
    elif dt.kind == "c":
        re = rng.random(shape, dtype=cupy.float32) * 8 - 4
        im = rng.random(shape, dtype=cupy.float32) * 8 - 4
        a = (re + 1j * im).astype(dt)
        del re, im
    else:
        a = (rng.random(shape, dtype=cupy.float32) * 8 - 4).astype(dt)
    return a.T if spec.get("view") == "T" else a


def to_host_wide(x, index):
    """Elements of x (broadcast to the result) at the sample positions, as float64/complex128."""
    s = x[tuple(cupy.asarray(i) for i in index)].get()
    return s.astype(np.complex128 if s.dtype.kind == "c" else np.float64)


def run_case(case, settings, stream):
    inputs = [make_input(spec, 1234 + i) for i, spec in enumerate(case["inputs"])]
    shape = common.out_shape(case)
    out_dt = np_dtype(case["out"]["dtype"])
    op, given = case["op"], case["out"]["given"]
    out = cupy.empty(shape, dtype=out_dt) if given else None
    cupy.cuda.Device().synchronize()
    if op == "astype":
        def call():
            return inputs[0].astype(out_dt)
    else:
        f = getattr(cupy, op)
        call = common.make_call(f, inputs, out, given)

    def poison():
        if given:
            out.data.memset_async(0xFF, out.nbytes, stream)
        else:  # a block of the result's size, back to the pool for the next allocation
            scratch = cupy.empty(shape, dtype=out_dt)
            scratch.data.memset_async(0xFF, scratch.nbytes, stream)
            del scratch

    line = dict(side=SIDE, case=case["name"], metric=case["metric"])
    if case["metric"] == "host":
        line["us_per_call"] = common.time_host_us(call, settings, stream.synchronize)
    else:
        poison()
        ms, min_ms = common.time_device(
            call, settings.get("warmup", 5), settings.get("reps", 30), cupy.cuda.Event,
            lambda e: e.record(stream), cupy.cuda.get_elapsed_time, stream.synchronize)
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
        xs = [to_host_wide(cupy.broadcast_to(x, shape), index) for x in inputs]
        got = to_host_wide(result, index)
        compute = np.result_type(*(np_dtype(s["dtype"]) for s in case["inputs"]))
        line["check"] = common.compare(op, xs, got, [str(compute), case["out"]["dtype"]])
    if case.get("note"):
        line["note"] = case["note"]
    common.emit(**line)


def floors(settings, stream):
    n = settings.get("copy_floor_bytes", 1 << 30)
    src = cupy.empty(n, dtype=cupy.uint8)
    dst = cupy.empty(n, dtype=cupy.uint8)
    src.data.memset_async(0x3C, n, stream)

    def copy():
        cupy.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, n,
                                      cupy.cuda.runtime.memcpyDeviceToDevice, stream.ptr)
    ms, min_ms = common.time_device(copy, 3, settings.get("floor_reps", 30), cupy.cuda.Event,
                                    lambda e: e.record(stream), cupy.cuda.get_elapsed_time,
                                    stream.synchronize)
    common.emit(side=SIDE, case="floor_memcpy_d2d", metric="floor", ms=ms, min_ms=min_ms,
                bytes=2 * n, gbps=2 * n / (ms * 1e6))
    del src, dst
    empty = cupy.RawKernel('extern "C" __global__ void empty() {}', "empty")
    us = common.time_host_us(lambda: empty((1,), (1,), ()), settings, stream.synchronize)
    common.emit(side=SIDE, case="launch_empty", metric="launch", us_per_call=us,
                note="empty kernel through cupy.RawKernel")


def main():
    args = common.parse_args(__doc__)
    settings, cases = common.load_cases(args)
    stream = cupy.cuda.Stream(non_blocking=False)
    failures = 0
    with stream:
        common.emit(side=SIDE, case="device", metric="info",
                    name=cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                    version=cupy.__version__, reps=settings.get("reps"))
        floors(settings, stream)
        for case in cases:
            print(f"{SIDE}: {case['name']}", file=sys.stderr, flush=True)
            try:
                run_case(case, settings, stream)
            except Exception as e:  # noqa: BLE001 - report and go on with the next case
                failures += 1
                common.emit(side=SIDE, case=case["name"], metric=case["metric"],
                            error=f"{type(e).__name__}: {e}")
            cupy.get_default_memory_pool().free_all_blocks()
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
