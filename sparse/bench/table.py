#!/usr/bin/env python3
"""The issue-28 Done-when rows from one GPU call: cupp's figures (SparseGpu.BenchFigures' SPARSE_BENCH
lines) next to the peers' (peers.py's PEER lines), with each target's verdict.

usage: table.py BENCH_LOG PEERS_LOG

Targets (issue 28, on the 10^6 x 10^6 float32 CSR with 10^7 nonzeros): SpMV <= the best peer;
SpMM with 64 columns <= 10x cupp's SpMV; SpGEMM (a loop, and one product of a fresh matrix), tocsc
and tocoo <= CuPy. The candidates (SPARSE_BENCH_TOCSC, SPARSE_BENCH_SPMM64 with the SpMM kernel
forms, SPARSE_BENCH_SPMV, SPARSE_BENCH_SPGEMM) are listed under the table, with the fastest SpMM.
"""
import re
import sys


def fields(line):
    return {k: float(v) for k, v in re.findall(r"(\w+)_ms=([0-9.]+)", line)}


def main():
    bench = open(sys.argv[1], encoding="utf-8", errors="replace").read().splitlines()
    peers = open(sys.argv[2], encoding="utf-8", errors="replace").read().splitlines()
    cupp = next((fields(l) for l in bench if l.startswith("SPARSE_BENCH nnz=")), None)
    if cupp is None:
        print("TABLE no SPARSE_BENCH line (BenchFigures did not run)")
        return
    side = {}
    for l in peers:
        m = re.match(r"PEER (cupy|torch) (\S+) (.*)", l)
        if m:
            side[m.group(1)] = fields(m.group(3))
    # spgemm: a loop of A @ A (past the repeats that build A's SpGEMMreuse state); spgemm_once: one
    # product of a fresh matrix (the plain path), the figure CuPy's loop is to be read against
    ops = [("spmv", "SpMV A @ x"), ("spmm64", "SpMM 64 columns"), ("spgemm", "SpGEMM A @ A, a loop"),
           ("spgemm_once", "SpGEMM A @ A, one product"), ("tocsc", "tocsc"), ("tocoo", "tocoo")]
    print("TABLE | op | cupp ms | CuPy ms | PyTorch ms | target | met |")
    for key, name in ops:
        c = cupp.get(key)
        peer_key = "spgemm" if key == "spgemm_once" else key
        cp, pt = side.get("cupy", {}).get(peer_key), side.get("torch", {}).get(peer_key)
        if key == "spmv":
            peers_ms = [v for v in (cp, pt) if v is not None]
            target = min(peers_ms) if peers_ms else None
            label = "<= best peer"
        elif key == "spmm64":
            target = 10 * cupp["spmv"]
            label = "<= 10x SpMV"
        else:
            target, label = cp, "<= CuPy"
        met = "?" if c is None or target is None else ("yes" if c <= target else "NO")
        fmt = lambda v: "-" if v is None else f"{v:.4f}"
        extra = f" ({c / cupp['spmv']:.1f}x SpMV)" if key == "spmm64" and c else ""
        print(f"TABLE | {name} | {fmt(c)}{extra} | {fmt(cp)} | {fmt(pt)} | {label} ({fmt(target)}) | {met} |")
    # the SpMV candidate (off by default) against the same target
    groups = [float(m.group(1)) for l in bench
              for m in [re.search(r"SPARSE_BENCH_SPMV cupp_groups group=\d+ ms=([0-9.]+)", l)] if m]
    peers_ms = [v for v in (side.get("cupy", {}).get("spmv"), side.get("torch", {}).get("spmv")) if v is not None]
    if groups and peers_ms:
        best = min(groups)
        print(f"TABLE | SpMV, lane-group candidate (best group) | {best:.4f} | - | - | <= best peer ({min(peers_ms):.4f}) | "
              f"{'yes' if best <= min(peers_ms) else 'NO'} |")
    # the fastest SpMM candidate (cuSPARSE's algorithms and the module's kernel forms) against 10x SpMV
    spmm = [(float(m.group(2)), m.group(1)) for l in bench
            for m in [re.search(r"SPARSE_BENCH_SPMM64 (\S+(?: preprocess=\d)?) ms=([0-9.]+)", l)] if m]
    if spmm:
        best_ms, best = min(spmm)
        target = 10 * cupp["spmv"]
        print(f"TABLE | SpMM 64 columns, fastest candidate ({best}) | {best_ms:.4f} ({best_ms / cupp['spmv']:.2f}x SpMV) "
              f"| - | - | <= 10x SpMV ({target:.4f}) | {'yes' if best_ms <= target else 'NO'} |")
    # the module's own SpGEMM kernels (CUPP_SPARSE_SPGEMM=cupp) against CuPy's product
    own = [float(m.group(1)) for l in bench for m in [re.search(r"SPARSE_BENCH_SPGEMM_OWN own_ms=([0-9.]+)", l)] if m]
    cupy_spgemm = side.get("cupy", {}).get("spgemm")
    if own and cupy_spgemm is not None:
        print(f"TABLE | SpGEMM A @ A, own kernels (candidate) | {own[0]:.4f} | {cupy_spgemm:.4f} | - | <= CuPy "
              f"({cupy_spgemm:.4f}) | {'yes' if own[0] <= cupy_spgemm else 'NO'} |")
    for l in bench:
        if l.startswith(("SPARSE_BENCH_TOCSC", "SPARSE_BENCH_SPMM64", "SPARSE_BENCH_SPMV", "SPARSE_BENCH_SPGEMM")):
            print("CANDIDATE " + l)


if __name__ == "__main__":
    main()
