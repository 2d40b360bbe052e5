"""The PyTorch side of the distributed bench (issue 31): torch.distributed's NCCL all_reduce of
float32 over every GPU of this host, one process per GPU (torch.multiprocessing, a file://
rendezvous), medians of timed iterations after warm-up, as algbw and busbw (nccl-tests'
2 (n - 1) / n). NVLink multicast stays off: NCCL_NVLS_ENABLE=0 is set before NCCL starts.
usage: python3 torch_allreduce.py [--mib 1024] [--iters 10]"""
import argparse
import os
import statistics
import tempfile
import time

os.environ["NCCL_NVLS_ENABLE"] = "0"

import torch  # noqa: E402
import torch.distributed as dist  # noqa: E402
import torch.multiprocessing as mp  # noqa: E402


def rank_main(rank, world, init_file, mib, iters, results):
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="file://" + init_file, rank=rank, world_size=world)
    x = torch.full((mib * (1 << 20) // 4,), float(rank + 1), dtype=torch.float32, device="cuda")
    times = []
    for i in range(iters + 3):
        torch.cuda.synchronize()
        dist.barrier()
        t0 = time.perf_counter()
        dist.all_reduce(x)
        torch.cuda.synchronize()
        if i >= 3:
            times.append((time.perf_counter() - t0) * 1e3)
        x.fill_(float(rank + 1))
    dist.destroy_process_group()
    if rank == 0:
        results.put(statistics.median(times))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--mib", type=int, default=1024)
    p.add_argument("--iters", type=int, default=10)
    a = p.parse_args()
    world = torch.cuda.device_count()
    ctx = mp.get_context("spawn")
    results = ctx.Queue()
    fd, init_file = tempfile.mkstemp(prefix="torch-dist-")
    os.close(fd)
    os.remove(init_file)
    mp.spawn(rank_main, args=(world, init_file, a.mib, a.iters, results), nprocs=world, join=True)
    ms = results.get()
    algbw = a.mib * (1 << 20) / (ms * 1e-3) / 1e9
    print(f"torch.distributed all_reduce float32 {a.mib} MiB x {world} ranks: {ms:.3f} ms, algbw {algbw:.1f} GB/s, "
          f"busbw {algbw * 2 * (world - 1) / world:.1f} GB/s")


if __name__ == "__main__":
    main()
