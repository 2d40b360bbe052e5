#!/usr/bin/env python3
"""CuPy's side of the sparse.linalg bench (issue 29), run on the GPU machine beside cupp's
SparseLinalgGpu.BenchFigures: cg on 2-D Poisson with 10^6 unknowns (rtol 1e-5, b = ones), eigsh
(k=10, ncv=42: CuPy's default, passed to both) on 2-D Poisson of 9*10^4 unknowns, spsolve of a 10^5 pentadiagonal system. Prints
SPARSE_LINALG_PEER lines (median of 3 after a warm-up, milliseconds)."""
import time

try:
    import cupy as cp
    import cupyx.scipy.sparse as csp
    import cupyx.scipy.sparse.linalg as cspla
except ImportError as e:  # pragma: no cover
    print(f"linalg_peers.py: CuPy is not available ({e})")
    raise SystemExit(0)


def poisson(m):
    t = csp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(m, m), format="csr")
    i = csp.identity(m, format="csr")
    return (csp.kron(i, t) + csp.kron(t, i)).tocsr()


def timed(f, reps=3):
    f()
    cp.cuda.Device().synchronize()
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        cp.cuda.Device().synchronize()
        out.append((time.perf_counter() - t0) * 1e3)
    return sorted(out)[len(out) // 2]


a = poisson(1000)
b = cp.ones(a.shape[0])


def run_cg():
    try:
        return cspla.cg(a, b, rtol=1e-5, maxiter=20000)
    except TypeError:  # older CuPy: tol=
        return cspla.cg(a, b, tol=1e-5, maxiter=20000)


x, info = run_cg()
res = float(cp.linalg.norm(b - a @ x) / cp.linalg.norm(b))
ms = timed(run_cg, reps=1)
print(f"SPARSE_LINALG_PEER cupy cg_poisson_1e6 ms={ms:.3f} info={info} relres={res:.3e}")
a2 = poisson(300)
w10 = cspla.eigsh(a2, k=10, ncv=42, return_eigenvectors=False)
ms = timed(lambda: cspla.eigsh(a2, k=10, ncv=42, return_eigenvectors=False), reps=1)
print(f"SPARSE_LINALG_PEER cupy eigsh_k10_poisson_9e4 ms={ms:.3f} top={float(w10.max()):.12f}")
n = 100000
bd = csp.diags([-0.5, -1.0, 4.0, -1.0, -0.5], [-2, -1, 0, 1, 2], shape=(n, n), format="csr")
bb = cp.ones(n)
print(f"SPARSE_LINALG_PEER cupy spsolve_banded_1e5 ms={timed(lambda: cspla.spsolve(bd, bb)):.3f}")
