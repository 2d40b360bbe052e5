#!/usr/bin/env python3
"""CuPy's and PyTorch's side of bench/bench_reductions.cpp: the same cases, CUDA events, medians
after warm-up, as a fraction of the copy floor measured here (device-to-device copy)."""
import statistics
import time


def median_ms(run, sync, event, elapsed, reps=20):
    for _ in range(3):
        run()
    sync()
    times = []
    for _ in range(reps):
        start, stop = event(), event()
        start.record()
        run()
        stop.record()
        stop.synchronize()
        times.append(elapsed(start, stop))
    return statistics.median(times)


def host_us(call, sync):
    for _ in range(2000):
        call()
    sync()
    per = []
    for _ in range(30):
        t0 = time.perf_counter()
        for _ in range(300):
            call()
        per.append((time.perf_counter() - t0) / 300 * 1e6)
        sync()
    return statistics.median(per)


def run(name, xp_ones, copy, total, amax, empty_launch, sync, event, elapsed):
    n, side = 1 << 28, 16384
    x = xp_ones(n)
    y = xp_ones(n)
    copy_ms = median_ms(lambda: copy(y, x), sync, event, elapsed)
    floor = 2 * 4 * n / (copy_ms * 1e6)
    print(f"{name}: floor {floor:.1f} GB/s")
    for label, f in (("sum float32 2^28", lambda: total(x, None)), ("max float32 2^28", lambda: amax(x)),
                     ("sum axis 0 of 16384^2", lambda: total(x.reshape(side, side), 0)),
                     ("sum axis 1 of 16384^2", lambda: total(x.reshape(side, side), 1))):
        ms = median_ms(f, sync, event, elapsed)
        print(f"{name:6} {label:<28} {ms:8.3f} ms  {100 * 4 * n / (ms * 1e6) / floor:5.1f} %")
    small = xp_ones(1024)
    t_empty = host_us(empty_launch, sync)
    t_sum = host_us(lambda: total(small, None), sync)
    print(f"{name:6} host: empty launch {t_empty:.2f} us, sum of 1024 float32 {t_sum:.2f} us ({t_sum / t_empty:.2f}x)")


def main():
    try:
        import cupy as cp
        k = cp.RawKernel('extern "C" __global__ void empty() {}', "empty")
        run("cupy", lambda n: cp.ones(n, dtype=cp.float32), lambda y, x: y.__setitem__(Ellipsis, x),
            lambda a, axis: a.sum(axis=axis), lambda a: a.max(), lambda: k((1,), (1,), ()),
            cp.cuda.Device().synchronize, cp.cuda.Event, cp.cuda.get_elapsed_time)
    except Exception as e:  # noqa: BLE001 - report and go on to the next library
        print(f"cupy: not measured ({e})")
    try:
        import torch
        empty = torch.empty(1, device="cuda")
        run("torch", lambda n: torch.ones(n, dtype=torch.float32, device="cuda"), lambda y, x: y.copy_(x),
            lambda a, axis: a.sum() if axis is None else a.sum(dim=axis), lambda a: a.max(),
            lambda: empty.zero_(), torch.cuda.synchronize, lambda: torch.cuda.Event(enable_timing=True),
            lambda a, b: a.elapsed_time(b))
    except Exception as e:  # noqa: BLE001
        print(f"torch: not measured ({e})")


if __name__ == "__main__":
    main()
