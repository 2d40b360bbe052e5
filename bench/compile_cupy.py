"""CuPy's side of bench/bench_compile.cpp: the first call of a new ElementwiseKernel computing
z = x * y + 1 on 2^20 float32, timed from the first CuPy call after the CUDA context exists, and
from process start (argv[1]: the launcher's CLOCK_REALTIME in ns). CUPY_CACHE_DIR decides cold
or warm. Prints "key value" lines like the cupp program."""
import sys
import time

start_ns = int(sys.argv[1])
import cupy  # noqa: E402

cupy.cuda.runtime.free(0)  # the CUDA context exists from here on
context_ms = (time.time_ns() - start_ns) / 1e6
n = 1 << 20
x = cupy.full(n, 2.0, dtype=cupy.float32)
y = cupy.full(n, 3.0, dtype=cupy.float32)
cupy.cuda.Device().synchronize()
t0 = time.perf_counter()
kernel = cupy.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = x * y + 1.0f", "bench_fma")
z = kernel(x, y)
last = float(z[-1])
first_ms = (time.perf_counter() - t0) * 1e3
print(f"first_call_ms {first_ms:.3f}")
print(f"process_start_to_result_ms {(time.time_ns() - start_ns) / 1e6:.3f}")
print(f"context_ready_ms {context_ms:.3f}")
print(f"correct {int(last == 7.0)}")
