#!/usr/bin/env python3
"""The issue-28 sparse figures of the peers, in the same run as cupp's (SparseGpu.BenchFigures).

usage: peers.py [NPZ]   (default /tmp/cupp-sparse-bench.npz, written by cupp's save_npz in
                         SparseGpu.BenchFigures: the same 10^6 x 10^6 float32 CSR, 10^7 nonzeros)

Times, with CUDA events (mean over repetitions after one warm-up call), CuPy's
cupyx.scipy.sparse and PyTorch's sparse CSR tensors on that matrix: SpMV (A @ x), SpMM with 64
dense columns (A @ B), SpGEMM (A @ A), tocsc and tocoo. Prints one PEER line per side; a side or
an op that cannot run says why. Reading the file with scipy.sparse.load_npz also checks that
SciPy reads cupp's .npz output at this size.
"""
import sys


def timed(sync, event, f, reps):
    f()
    sync()
    start, stop = event(), event()
    start.record()
    for _ in range(reps):
        f()
    stop.record()
    stop.synchronize()
    return start, stop


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/tmp/cupp-sparse-bench.npz"
    import numpy as np
    import scipy.sparse as sp
    host = sp.load_npz(path)
    print(f"PEER scipy read {path}: {host.format} {host.shape} nnz={host.nnz} dtype={host.dtype}")
    reps = {"spmv": 50, "spmm64": 10, "spgemm": 3, "tocsc": 20, "tocoo": 20}
    try:
        import cupy as cp
        import cupyx.scipy.sparse as csp
        a = csp.csr_matrix(host)
        x = cp.ones(host.shape[1], cp.float32)
        b = cp.ones((host.shape[1], 64), cp.float32)
        ops = {"spmv": lambda: a @ x, "spmm64": lambda: a @ b, "spgemm": lambda: a @ a,
               "tocsc": lambda: a.tocsc(), "tocoo": lambda: a.tocoo()}
        out = []
        for name, f in ops.items():
            try:
                s, e = timed(cp.cuda.Device().synchronize, cp.cuda.Event, f, reps[name])
                out.append(f"{name}_ms={cp.cuda.get_elapsed_time(s, e) / reps[name]:.4f}")
            except Exception as err:  # noqa: BLE001
                out.append(f"{name}=error({type(err).__name__}: {err})")
        print("PEER cupy " + cp.__version__ + " " + " ".join(out))
    except ImportError as err:
        print(f"PEER cupy missing ({err})")
    try:
        import torch
        dev = torch.device("cuda")
        a = torch.sparse_csr_tensor(torch.from_numpy(host.indptr.astype(np.int32)),
                                    torch.from_numpy(host.indices.astype(np.int32)),
                                    torch.from_numpy(host.data), size=host.shape).to(dev)
        x = torch.ones(host.shape[1], dtype=torch.float32, device=dev)
        b = torch.ones((host.shape[1], 64), dtype=torch.float32, device=dev)
        ops = {"spmv": lambda: a @ x, "spmm64": lambda: a @ b, "spgemm": lambda: a @ a,
               "tocsc": lambda: a.to_sparse_csc(), "tocoo": lambda: a.to_sparse_coo()}
        out = []
        for name, f in ops.items():
            try:
                s, e = timed(torch.cuda.synchronize, lambda: torch.cuda.Event(enable_timing=True), f, reps[name])
                out.append(f"{name}_ms={s.elapsed_time(e) / reps[name]:.4f}")
            except Exception as err:  # noqa: BLE001
                out.append(f"{name}=error({type(err).__name__}: {str(err)[:80]})")
        print("PEER torch " + torch.__version__ + " " + " ".join(out))
    except ImportError as err:
        print(f"PEER torch missing ({err})")


if __name__ == "__main__":
    main()
