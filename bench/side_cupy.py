"""CuPy's side of the benchmark (bench/compare.py runs it): every case of the table with CuPy,
each case's NumPy expression bound once over cupy's names (side_common.bind), timed as bench.cpp
times cupp's (CUDA events, warm-up, medians; host time per call in batches), outputs
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


def _take(a, indices, axis=None, out=None, mode=None):
    """cupy.take has no mode=: CuPy makes its usual call (the case's note says so)."""
    return a.take(indices, axis, out)


def names():
    """NumPy's names for the expressions: cupy's own, and shims where CuPy's spelling differs."""
    ns = {n: getattr(cupy, n) for n in dir(cupy) if not n.startswith("_")}
    if "astype" not in ns:
        ns["astype"] = lambda x, dtype, copy=True: x.astype(dtype, copy=copy)
    ns["take"] = _take
    return ns


def to_host_wide(x, index):
    """Elements of x (broadcast to the result) at the sample positions, as float64/complex128."""
    s = x[tuple(cupy.asarray(i) for i in index)].get()
    return s.astype(np.complex128 if s.dtype.kind == "c" else np.float64)


class Lib:
    """What side_common.run_case needs, for CuPy."""

    def __init__(self, stream, settings):
        self.stream, self.settings, self.names = stream, settings, names()

    @staticmethod
    def make_input(spec, seed):
        return make_input(spec, seed)

    @staticmethod
    def empty(shape, dtype):
        return cupy.empty(shape, dtype=np_dtype(dtype))

    def time_device(self, call):
        s = self.stream
        return common.time_device(call, self.settings.get("warmup", 5), self.settings.get("reps", 30),
                                  cupy.cuda.Event, lambda e: e.record(s), cupy.cuda.get_elapsed_time,
                                  s.synchronize)

    def time_host(self, call):
        return common.time_host_us(call, self.settings, self.stream.synchronize)

    def synchronize(self):
        self.stream.synchronize()

    def poison(self, a):
        if a.nbytes:
            a.data.memset_async(0xFF, a.nbytes, self.stream)

    def scratch_poison(self, result):
        scratch = cupy.empty(result.shape, dtype=result.dtype)
        self.poison(scratch)
        del scratch

    @staticmethod
    def same_array(a, b):
        return isinstance(a, cupy.ndarray) and a.data.ptr == b.data.ptr

    @staticmethod
    def widen(x):
        return x.astype(cupy.complex128 if x.dtype.kind == "c" else cupy.float64)

    @staticmethod
    def shape_of(result):
        return result.shape

    @staticmethod
    def dtype_name(result):
        return str(result.dtype)

    host_values = staticmethod(host_values)

    def check_elementwise(self, case, inputs, result):
        """The result against NumPy in float64 / complex128 at sampled positions."""
        out_dt = np_dtype(case["out"]["dtype"])
        if result.dtype != out_dt:
            return f"result dtype {result.dtype}, expected {out_dt}"
        shape = common.out_shape(case)
        index = common.sample_indices(shape, self.settings.get("check_samples", 4096))
        xs = [to_host_wide(cupy.broadcast_to(x, shape), index) for x in inputs]
        got = to_host_wide(result, index)
        compute = np.result_type(*(np_dtype(s["dtype"]) for s in case["inputs"]))
        return common.compare(case["op"], xs, got, [str(compute), case["out"]["dtype"]])


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
    with stream:
        common.emit(side=SIDE, case="device", metric="info",
                    name=cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                    version=cupy.__version__, reps=settings.get("reps"),
                    cuda_runtime=cupy.cuda.runtime.runtimeGetVersion(),
                    cuda_driver=cupy.cuda.runtime.driverGetVersion(), numpy=np.__version__)
        floors(settings, stream)
        failures = common.run_cases(SIDE, cases, settings, args.samples, Lib(stream, settings),
                                    between=lambda: cupy.get_default_memory_pool().free_all_blocks())
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
