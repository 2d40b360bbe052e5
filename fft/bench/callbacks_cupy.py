"""CuPy's side of fft/bench/callbacks.cpp (issue 26's callback rows), on the GPU machine: the
first fft with a JIT (LTO) store callback in this process (after a plain one), and 4096 x 4096
complex64 rows with the store callback that scales by 2 against the plain fft. Prints lines in
callbacks.cpp's form with "cupy" in them; without CuPy it says so and exits 0."""
import statistics
import sys
import time

try:
    import cupy
except ImportError:
    print("callbacks_cupy: CuPy is absent")
    sys.exit(0)

STORE = r"""
__device__ void cupy_bench_scale2(void* out, unsigned long long offset, cufftComplex v, void* info, void* shared) {
  v.x *= 2.0f;
  v.y *= 2.0f;
  static_cast<cufftComplex*>(out)[offset] = v;
}
"""


def callbacks():
    return cupy.fft.config.set_cufft_callbacks(cb_store=STORE, cb_store_name="cupy_bench_scale2", cb_ver="jit")


def median_ms(fn, reps=20):
    start, stop = cupy.cuda.Event(), cupy.cuda.Event()
    fn()
    cupy.cuda.Device().synchronize()
    t = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        t.append(cupy.cuda.get_elapsed_time(start, stop))
    return statistics.median(t)


x = (cupy.sin(cupy.arange(4096 * 4096, dtype=cupy.float32) * 0.37)).astype(cupy.complex64).reshape(4096, 4096)
plain = cupy.fft.fft(x)
cupy.cuda.Device().synchronize()
mode = sys.argv[1] if len(sys.argv) > 1 else "time"
try:
    if mode == "first":
        t0 = time.perf_counter()
        with callbacks():
            cupy.fft.fft(x)
            cupy.cuda.Device().synchronize()
        print(f"cupy fft_callback_first_use_ms {1e3 * (time.perf_counter() - t0):.1f}")
    else:
        plain_ms = median_ms(lambda: cupy.fft.fft(x))
        with callbacks():
            callback_ms = median_ms(lambda: cupy.fft.fft(x))
            y = cupy.fft.fft(x)
        off = float(cupy.abs(y - 2 * plain).max())
        print(f"cupy fft_callback_scale2_rows_ms {callback_ms:.4f} plain_ms {plain_ms:.4f} "
              f"ratio {callback_ms / plain_ms:.3f} (max |callback - 2 plain| {off:.2e})")
except Exception as e:  # CuPy's JIT callbacks need its cuFFT LTO support
    print(f"cupy fft_callback {mode}: failed ({type(e).__name__}: {str(e)[:200]})")
