"""Whether the peers' float64 gaps (issue 24's matmul 8192^3, issue 25's solve 4096) come from the
inputs or from the libraries: CuPy (which makes the same cuBLAS/cuSOLVER calls as cupp on the same
hash-filled inputs, bench.cpp's fill) and PyTorch each timed on both input sets, the bench's hash
fill and torch.rand * 8 - 4 (PyTorch's side of compare.py), shared through DLPack. The four runs
of each op alternate, so the GPU's clock and temperature treat them alike. GPU machine only; run
by tools/dev/stage-gpu-modules.sh's same-inputs phase."""
import statistics
import sys

try:
    import cupy
    import torch
except ImportError as e:  # the check needs both peers
    print(f"same_inputs: skipped ({e})")
    sys.exit(0)

sys.path.insert(0, ".")
import side_common as common  # noqa: E402

FILL = cupy.RawKernel(common.FILL_SOURCE, "fill")


def hash_filled(shape, seed):
    """bench.cpp's float64 input (the values cupp and CuPy bench on)."""
    a = cupy.empty(shape, dtype=cupy.float64)
    n, kind, size = common.fill_args("float64", a.size)
    FILL((max(1, min((n + 255) // 256, 1 << 20)),), (256,), (a, cupy.uint64(n), cupy.int32(kind), cupy.int32(size),
                                                            cupy.uint32(seed)))
    return a


def torch_filled(shape, seed):
    """side_torch.py's float64 input."""
    g = torch.Generator(device="cuda")
    g.manual_seed(seed)
    return (torch.rand(shape, generator=g, device="cuda", dtype=torch.float64) * 8 - 4)


def time_ms(fn, reps):
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        out.append(start.elapsed_time(stop))
    return out


def compare(name, shapes, cupy_op, torch_op, rounds, reps):
    inputs = {
        "hash": [hash_filled(s, 1234 + i) for i, s in enumerate(shapes)],
        "torch": [cupy.from_dlpack(torch_filled(s, 1234 + i)) for i, s in enumerate(shapes)],
    }
    runs = {}
    for data, xs in inputs.items():
        ts = [torch.from_dlpack(x) for x in xs]
        runs[("cupy", data)] = lambda xs=xs: cupy_op(*xs)
        runs[("torch", data)] = lambda ts=ts: torch_op(*ts)
    times = {k: [] for k in runs}
    for _ in range(rounds):  # alternate, so no run always comes first or last
        for k, fn in runs.items():
            times[k] += time_ms(fn, reps)
    for (side, data), t in times.items():
        print(f"same_inputs {name} {side} on {data} inputs: median {statistics.median(t):.3f} ms "
              f"(min {min(t):.3f}, {len(t)} runs)")


compare("matmul_float64_8192", [(8192, 8192), (8192, 8192)], lambda a, b: a @ b, lambda a, b: a @ b, rounds=3, reps=5)
compare("solve_float64_4096", [(4096, 4096), (4096, 1)], cupy.linalg.solve, torch.linalg.solve, rounds=3, reps=5)


def kernels(name, fn):
    """The CUDA kernels one call runs, by total device time (torch.profiler's CUPTI sees CuPy's
    kernels as well as PyTorch's: they share the process)."""
    from torch.profiler import profile, ProfilerActivity
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        fn()
        torch.cuda.synchronize()
    rows = sorted(p.key_averages(), key=lambda e: -e.device_time_total)
    total = sum(e.device_time_total for e in rows) / 1e3
    print(f"same_inputs kernels {name}: {total:.3f} ms of kernels in all")
    for e in rows[:8]:
        print(f"same_inputs kernels {name}: {e.device_time_total / 1e3:.3f} ms x{e.count} {e.key[:100]}")


a, b = hash_filled((4096, 4096), 1234), hash_filled((4096, 1), 1235)
ta, tb = torch.from_dlpack(a), torch.from_dlpack(b)
kernels("cupy solve 4096 (hash inputs)", lambda: cupy.linalg.solve(a, b))
kernels("torch solve 4096 (hash inputs)", lambda: torch.linalg.solve(ta, tb))
