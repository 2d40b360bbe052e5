"""The random module's peer figures for the issue's cases (run on the GPU machine next to
cupp_gpu_tests' RandomBench.DISABLED_IssueCases, in the same run): CUDA-event medians of CuPy's
Generator (XORWOW) and legacy RandomState, and PyTorch, plus a write-only floor (cupy's fill of
the same bytes). Prints 'PEER_BENCH name ms' lines."""
import sys

N28, N27, N24, N20 = 1 << 28, 1 << 27, 1 << 24, 1 << 20


def median_ms(fn, event, elapsed, reps=20):
    for _ in range(3):
        fn()
    times = []
    for _ in range(reps):
        s, e = event(), event()
        s.record()
        fn()
        e.record()
        e.synchronize()
        times.append(elapsed(s, e))
    times.sort()
    return times[len(times) // 2]


def cupy_cases():
    import cupy as cp
    ev = cp.cuda.Event
    t = cp.cuda.get_elapsed_time
    rng = cp.random.default_rng(0)
    out = cp.empty(N28, dtype=cp.float32)
    yield "cupy.write_floor_float32_2^28", median_ms(lambda: out.fill(1.0), ev, t)
    yield "cupy.Generator.random_float32_2^28", median_ms(lambda: rng.random(N28, dtype=cp.float32, out=out), ev, t)
    yield "cupy.Generator.standard_normal_float32_2^28", median_ms(
        lambda: rng.standard_normal(N28, dtype=cp.float32, out=out), ev, t)
    yield "cupy.Generator.integers_int64_2^27", median_ms(lambda: rng.integers(0, 1000000, N27, dtype=cp.int64), ev, t)
    yield "cupy.random.standard_normal_float32_2^28", median_ms(
        lambda: cp.random.standard_normal(N28, dtype=cp.float32), ev, t)
    yield "cupy.random.choice_2^24_2^20_noreplace", median_ms(lambda: cp.random.choice(N24, N20, replace=False), ev, t, 10)


def torch_cases():
    import torch
    ev = lambda: torch.cuda.Event(enable_timing=True)
    t = lambda s, e: s.elapsed_time(e)
    out = torch.empty(N28, dtype=torch.float32, device="cuda")
    yield "torch.rand_float32_2^28", median_ms(lambda: torch.rand(N28, out=out), ev, t)
    yield "torch.randn_float32_2^28", median_ms(lambda: torch.randn(N28, out=out), ev, t)
    yield "torch.randint_int64_2^27", median_ms(
        lambda: torch.randint(0, 1000000, (N27,), dtype=torch.int64, device="cuda"), ev, t)
    yield "torch.randperm(2^24)[:2^20]", median_ms(lambda: torch.randperm(N24, device="cuda")[:N20], ev, t, 10)


if __name__ == "__main__":
    for cases in (cupy_cases, torch_cases):
        try:
            for name, ms in cases():
                print(f"PEER_BENCH {name} {ms:.4f}", flush=True)
        except Exception as e:  # a missing peer is reported, not fatal
            print(f"PEER_BENCH {cases.__name__} failed: {e!r}", file=sys.stderr)
