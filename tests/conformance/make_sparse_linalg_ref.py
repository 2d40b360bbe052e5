#!/usr/bin/env python3
"""SciPy reference cases for cupp::sparse::linalg (issue 29), made on the GPU machine (SciPy 1.18).

Usage: make_sparse_linalg_ref.py OUTDIR

Writes OUTDIR/<case>.npz for each case (A as data/indices/indptr/shape of a CSR matrix, b, SciPy's
x and info, or eigenvalues / singular values / norms) and OUTDIR/manifest.json listing them by
kind. Matrices are built from NumPy's default_rng with fixed seeds: SPD (2-D Poisson, shifted
random), nonsymmetric (convection-diffusion), symmetric indefinite and ill-conditioned ones, in
float32/float64/complex128, with and without a Jacobi preconditioner; maxiter-limited runs give
SciPy's non-convergence info. tests/gpu/sparse/test_sparse_linalg_gpu.cpp reads them.
"""
import json
import os
import sys

try:
    import numpy as np
    import scipy
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
except ImportError as e:  # pragma: no cover
    print(f"make_sparse_linalg_ref.py: SciPy is not available ({e}); no reference set written")
    sys.exit(0)


def poisson2d(m, dtype=np.float64):
    t = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(m, m))
    i = sp.identity(m)
    return (sp.kron(i, t) + sp.kron(t, i)).tocsr().astype(dtype)


def convection(m, c=0.3, dtype=np.float64):
    t = sp.diags([-1 - c, 2.5, -1 + c], [-1, 0, 1], shape=(m, m))
    i = sp.identity(m)
    return (sp.kron(i, t) + sp.kron(t, i)).tocsr().astype(dtype)


def indefinite(n, seed, dtype=np.float64):
    rng = np.random.default_rng(seed)
    r = sp.random(n, n, density=0.05, random_state=rng, format="csr")
    s = r + r.T
    d = rng.uniform(-4, 4, n)
    d[np.abs(d) < 0.5] += 2.0
    return (s + sp.diags(d)).tocsr().astype(dtype)


def ill(n, dtype=np.float64):
    d = np.logspace(0, 6, n)
    t = sp.diags([np.full(n - 1, 0.1), d, np.full(n - 1, 0.1)], [-1, 0, 1])
    return t.tocsr().astype(dtype)


def complex_hpd(n, seed):
    rng = np.random.default_rng(seed)
    r = sp.random(n, n, density=0.05, random_state=rng, format="csr")
    r = r + 1j * sp.random(n, n, density=0.05, random_state=rng, format="csr")
    h = r + r.conj().T
    return (h + sp.diags(np.full(n, 6.0))).tocsr().astype(np.complex128)


def save(out, name, a, **arrays):
    a = sp.csr_matrix(a)
    a.sort_indices()
    np.savez(os.path.join(out, name + ".npz"), data=a.data, indices=a.indices.astype(np.int32),
             indptr=a.indptr.astype(np.int32), shape=np.array(a.shape, dtype=np.int64), **arrays)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "sparse-linalg-ref"
    os.makedirs(out, exist_ok=True)
    manifest = {"scipy": scipy.__version__, "numpy": np.__version__, "solve": [], "eigsh": [], "svds": [],
                "norm": [], "spsolve": [], "onenormest": [], "lsq": [], "triangular": [], "expm": [], "lobpcg": []}
    rng = np.random.default_rng(29)
    systems = {
        "spd": poisson2d(12),
        "nonsym": convection(10),
        "indef": indefinite(120, 3),
        "ill": ill(80),
        "herm": complex_hpd(90, 5),
    }
    solvers = {"cg": ["spd", "ill", "herm"], "cgs": ["spd", "nonsym"], "bicg": ["spd", "nonsym", "herm"],
               "bicgstab": ["spd", "nonsym", "herm"], "gmres": ["spd", "nonsym", "indef", "ill", "herm"],
               "minres": ["spd", "indef", "ill"], "qmr": ["spd", "nonsym", "herm"], "tfqmr": ["spd", "nonsym", "herm"],
               "lgmres": ["spd", "nonsym", "indef", "herm"], "gcrotmk": ["spd", "nonsym", "indef", "herm"]}
    for solver, names in solvers.items():
        fn = getattr(spla, solver)
        for name in names:
            for dtype in ([np.float32, np.float64] if name != "herm" else [np.complex128]):
                a = systems[name].astype(dtype)
                n = a.shape[0]
                b = rng.standard_normal(n).astype(dtype)
                if np.iscomplexobj(b):
                    b = b + 1j * rng.standard_normal(n)
                for prec in (False, True):
                    if prec and solver == "minres" and name == "indef":
                        continue  # minres needs an SPD preconditioner
                    m = sp.diags(1.0 / a.diagonal()).tocsr().astype(dtype) if prec else None
                    if prec and solver in ("minres", "cg") and name == "indef":
                        continue
                    for limited in (False, True):
                        kw = {"rtol": 1e-6 if dtype != np.float32 else 1e-4}
                        if limited:
                            kw["maxiter"] = 3
                        if m is not None:
                            if solver == "qmr":  # SciPy's qmr needs both or neither
                                kw["M1"] = spla.aslinearoperator(m)  # qmr calls M1.matvec / rmatvec
                                kw["M2"] = spla.aslinearoperator(sp.identity(n, dtype=dtype, format="csr"))
                            else:
                                kw["M"] = m
                        x, info = fn(a, b, **kw)
                        case = f"{solver}_{name}_{np.dtype(dtype).name}_{'M' if prec else 'noM'}_{'lim' if limited else 'full'}"
                        save(out, case, a, b=b, x=np.asarray(x), info=np.array(info),
                             rtol=np.array(kw["rtol"]), maxiter=np.array(kw.get("maxiter", -1)),
                             M=(m.diagonal() if m is not None else np.zeros(0, dtype)))
                        manifest["solve"].append({"case": case, "solver": solver})
    # breakdown: bicg / cgs / bicgstab on a matrix whose rtilde . r vanishes
    a = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
    b = np.array([1.0, 0.0])
    for solver in ("bicgstab", "cgs", "bicg"):
        x, info = getattr(spla, solver)(a, b)
        case = f"{solver}_breakdown"
        save(out, case, a, b=b, x=np.asarray(x), info=np.array(info), rtol=np.array(1e-5), maxiter=np.array(-1),
             M=np.zeros(0))
        manifest["solve"].append({"case": case, "solver": solver})
    # eigsh
    for name, a, k, which in [("poisson_LA", poisson2d(15), 6, "LA"), ("poisson_SA", poisson2d(10), 4, "SA"),
                              ("poisson_LM", poisson2d(15), 5, "LM"), ("indef_LM", indefinite(150, 8), 6, "LM"),
                              ("indef_BE", indefinite(150, 8), 6, "BE"), ("herm_LA", complex_hpd(100, 9), 4, "LA")]:
        w = spla.eigsh(a, k=k, which=which, return_eigenvectors=False)
        save(out, "eigsh_" + name, a, w=np.sort(w), k=np.array(k))
        manifest["eigsh"].append({"case": "eigsh_" + name, "which": which})
    # svds
    for name, a, k in [("rect_tall", sp.random(120, 60, density=0.1, random_state=np.random.default_rng(4)), 5),
                       ("rect_wide", sp.random(50, 110, density=0.1, random_state=np.random.default_rng(6)), 4)]:
        s = spla.svds(a.tocsr(), k=k, return_singular_vectors=False)
        save(out, "svds_" + name, a, s=np.sort(s), k=np.array(k))
        manifest["svds"].append("svds_" + name)
    # norms and onenormest
    a = sp.random(40, 30, density=0.2, random_state=np.random.default_rng(12)).tocsr() * 3 - 1
    a = sp.csr_matrix(a)
    norms = {"fro": spla.norm(a), "one": spla.norm(a, 1), "inf": spla.norm(a, np.inf),
             "mone": spla.norm(a, -1), "minf": spla.norm(a, -np.inf)}
    save(out, "norm_rand", a, axis0=spla.norm(a, axis=0), axis1=spla.norm(a, axis=1),
         axis0_1=spla.norm(a, 1, axis=0), axis1_inf=spla.norm(a, np.inf, axis=1),
         **{k: np.array(v) for k, v in norms.items()})
    manifest["norm"].append("norm_rand")
    sq = indefinite(60, 21)
    save(out, "onenormest_indef", sq, est=np.array(spla.onenormest(sq)), exact=np.array(spla.norm(sq, 1)))
    manifest["onenormest"].append("onenormest_indef")
    # lsqr / lsmr: tall, wide and square systems, with and without damping
    for name, a in [("tall", sp.random(200, 80, density=0.08, random_state=np.random.default_rng(31)) + sp.eye(200, 80)),
                    ("wide", sp.random(60, 150, density=0.08, random_state=np.random.default_rng(32)) + sp.eye(60, 150)),
                    ("square", convection(9))]:
        a = sp.csr_matrix(a)
        b = rng.standard_normal(a.shape[0])
        for damp in (0.0, 0.3):
            r = spla.lsqr(a, b, damp=damp)
            case = f"lsqr_{name}_{damp}"
            save(out, case, a, b=b, x=r[0], istop=np.array(r[1]), itn=np.array(r[2]), damp=np.array(damp))
            manifest["lsq"].append({"case": case, "solver": "lsqr"})
            r = spla.lsmr(a, b, damp=damp)
            case = f"lsmr_{name}_{damp}"
            save(out, case, a, b=b, x=r[0], istop=np.array(r[1]), itn=np.array(r[2]), damp=np.array(damp))
            manifest["lsq"].append({"case": case, "solver": "lsmr"})
    # spsolve_triangular: lower, upper, unit diagonal, 1-D and 2-D b
    base = convection(8) + sp.diags(np.full(64, 3.0))
    for lower in (True, False):
        for unit in (False, True):
            t = sp.tril(base) if lower else sp.triu(base)
            t = sp.csr_matrix(t)
            b = rng.standard_normal((64, 2)) if unit else rng.standard_normal(64)
            x = spla.spsolve_triangular(t, b, lower=lower, unit_diagonal=unit)
            case = f"triangular_{'L' if lower else 'U'}_{'unit' if unit else 'diag'}"
            save(out, case, t, b=b, x=x)
            manifest["triangular"].append({"case": case, "lower": lower, "unit": unit})
    # lobpcg: a spread spectrum, largest and smallest, a fixed start block
    a = indefinite(200, 17)
    for largest in (True, False):
        x0 = rng.standard_normal((200, 3))
        w, _ = spla.lobpcg(a, x0, largest=largest, maxiter=400)
        case = f"lobpcg_{'largest' if largest else 'smallest'}"
        save(out, case, a, X=x0, w=np.asarray(w), maxiter=np.array(400), largest=np.array(largest))
        manifest["lobpcg"].append(case)
    # expm_multiply: a nonsymmetric and a shifted (large trace) matrix
    for name, a in [("nonsym", convection(7) * -0.3), ("shifted", indefinite(60, 14) * 0.5 + sp.identity(60) * 3)]:
        a = sp.csr_matrix(a)
        b = rng.standard_normal(a.shape[0])
        save(out, "expm_" + name, a, b=b, x=spla.expm_multiply(a, b))
        manifest["expm"].append("expm_" + name)
    # spsolve
    for name, a in [("banded", convection(12)), ("indef", indefinite(100, 2)),
                    ("complex", complex_hpd(60, 3))]:
        n = a.shape[0]
        b = rng.standard_normal((n, 2)).astype(a.dtype)
        save(out, "spsolve_" + name, a, b=b, x=spla.spsolve(a.tocsc(), b))
        manifest["spsolve"].append("spsolve_" + name)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {sum(len(v) for v in manifest.values() if isinstance(v, list))} cases to {out}")


if __name__ == "__main__":
    main()
