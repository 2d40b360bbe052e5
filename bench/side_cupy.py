"""CuPy's side of the benchmark (bench/compare.py runs it): the cases of bench/cases.json with
CuPy (ufuncs and astype; reductions, cumsum, sort, indexing, concatenate, allocation), timed as
bench.cpp times cupp's (CUDA events, warm-up, medians; host time per call in batches), outputs
poisoned with NaN bytes first, element-wise results checked on a sample against NumPy. Inputs
come from the fill kernel bench.cpp uses (side_common.FILL_SOURCE), so with --samples DIR each
result's sampled values (DIR/<case>.npy) are the reference compare.py checks cupp's against.
Also CuPy's own copy floors and empty-RawKernel launch, for reference. Prints the same JSON lines
as the C++ side, with side "cupy"."""
import sys

import numpy as np

import side_common as common

SIDE = "cupy"

try:
    import cupy
except Exception as e:  # noqa: BLE001 - any import failure means: no CuPy here
    common.emit(side=SIDE, case="device", metric="info", skipped=f"cupy not importable: {e}")
    print(f"side_cupy: cupy not importable ({e}); skipped", file=sys.stderr)
    sys.exit(0)


def np_dtype(name):
    if name == "bfloat16":
        import ml_dtypes
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


_FILL = None


def make_input(spec, seed):
    """The input's own data filled by bench.cpp's fill kernel (the same values as cupp's), then
    its view."""
    global _FILL
    if _FILL is None:
        _FILL = cupy.RawKernel(common.FILL_SOURCE, "fill")
    shape = common.data_shape(spec)
    a = cupy.empty(shape, dtype=np_dtype(spec["dtype"]))
    n, k, size = common.fill_args(spec["dtype"], a.size)
    blocks = max(1, min((n + 255) // 256, 1 << 20))
    _FILL((blocks,), (256,), (a, np.uint64(n), np.int32(k), np.int32(size), np.uint32(seed)))
    return a.T if spec.get("view") == "T" else a


def host_values(result, positions):
    return result.ravel()[cupy.asarray(positions)].get()


class Lib:
    """What side_common.run_other needs, for CuPy."""

    def __init__(self, stream, settings):
        self.stream, self.settings = stream, settings

    def make_inputs(self, case):
        inputs = [make_input(spec, 1234 + i) for i, spec in enumerate(case["inputs"])]
        if case["op"] == "mask":
            inputs.append(inputs[0] > 0)
        elif case["op"] == "take":
            n = inputs[0].size
            inputs.append(cupy.arange(n, dtype=cupy.int64) * 2654435761 % n)  # as bench.cpp
        cupy.cuda.Device().synchronize()
        return inputs

    def make_call(self, case, inputs):
        op, k, x = case["op"], common.kind(case), inputs[0] if inputs else None
        axis = case.get("axis")
        if k == "reduction" and op in ("sum", "prod", "max", "min", "mean", "argmax", "argmin", "std", "var"):
            f = getattr(x, op)
            return lambda: f(axis=axis)
        if k == "scan" and op == "cumsum":
            return lambda: cupy.cumsum(x)
        if k == "sort" and op in ("sort", "argsort"):
            f = getattr(cupy, op)
            return lambda: f(x)
        if k == "indexing" and op == "nonzero":
            return lambda: cupy.nonzero(x)[0]
        if k == "indexing" and op == "mask":
            m = inputs[1]
            return lambda: x[m]
        if k == "indexing" and op == "take":
            idx = inputs[1]
            return lambda: x.take(idx)
        if k == "concat":
            return lambda: cupy.concatenate(inputs)
        if k == "alloc":
            shape, dt = tuple(case["out"]["shape"]), np_dtype(case["out"]["dtype"])

            def alloc():
                cupy.empty(shape, dtype=dt)
            return alloc
        return None

    def reference_call(self, case, inputs):
        """var and std sampled from a float64 computation: CuPy's float32 one accumulates in
        float32 and is off by about 1e-4 on 2^28 elements, more than the check allows."""
        if common.kind(case) == "reduction" and case["op"] in ("var", "std"):
            x, axis = inputs[0], case.get("axis")
            return lambda: getattr(x.astype(cupy.float64), case["op"])(axis=axis)
        return None

    def time_device(self, call):
        s = self.stream
        return common.time_device(call, self.settings.get("warmup", 5), self.settings.get("reps", 30),
                                  cupy.cuda.Event, lambda e: e.record(s), cupy.cuda.get_elapsed_time,
                                  s.synchronize)

    def time_host(self, call):
        return common.time_host_us(call, self.settings, self.stream.synchronize)

    def synchronize(self):
        self.stream.synchronize()

    def poison(self, result):
        scratch = cupy.empty(result.shape, dtype=result.dtype)
        scratch.data.memset_async(0xFF, scratch.nbytes, self.stream) if scratch.nbytes else None
        del scratch

    @staticmethod
    def shape_of(result):
        return result.shape

    @staticmethod
    def dtype_name(result):
        return str(result.dtype)

    host_values = staticmethod(host_values)


def to_host_wide(x, index):
    """Elements of x (broadcast to the result) at the sample positions, as float64/complex128."""
    s = x[tuple(cupy.asarray(i) for i in index)].get()
    return s.astype(np.complex128 if s.dtype.kind == "c" else np.float64)


def run_case(case, settings, stream, samples_dir):
    if common.kind(case) != "elementwise":
        return common.run_other(case, settings, samples_dir, SIDE, Lib(stream, settings))
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
        positions = common.sample_positions(result.size, settings.get("check_samples", 4096))
        path = common.write_sample(samples_dir, case["name"], host_values(result, positions))
        if path:
            line["sample"] = path
        line["out_size"] = int(result.size)
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
    copy4 = cupy.RawKernel(r'''extern "C" __global__ void copy_float4(const float4* __restrict__ in,
        float4* __restrict__ out, unsigned long long n) {
      const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = in[i];
    }''', "copy_float4")
    n4 = n // 16
    ms, min_ms = common.time_device(lambda: copy4(((n4 + 255) // 256,), (256,), (src, dst, np.uint64(n4))), 3,
                                    settings.get("floor_reps", 30), cupy.cuda.Event,
                                    lambda e: e.record(stream), cupy.cuda.get_elapsed_time, stream.synchronize)
    common.emit(side=SIDE, case="floor_copy_kernel", metric="floor", ms=ms, min_ms=min_ms,
                bytes=2 * n4 * 16, gbps=2 * n4 * 16 / (ms * 1e6))
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
                    version=cupy.__version__, reps=settings.get("reps"),
                    cuda_runtime=cupy.cuda.runtime.runtimeGetVersion(),
                    cuda_driver=cupy.cuda.runtime.driverGetVersion(), numpy=np.__version__)
        floors(settings, stream)
        for case in cases:
            print(f"{SIDE}: {case['name']}", file=sys.stderr, flush=True)
            try:
                if common.kind(case) != "jit":  # compare.py runs those
                    run_case(case, settings, stream, args.samples)
            except Exception as e:  # noqa: BLE001 - report and go on with the next case
                failures += 1
                common.emit(side=SIDE, case=case["name"], metric=case["metric"],
                            error=f"{type(e).__name__}: {e}")
            cupy.get_default_memory_pool().free_all_blocks()
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
