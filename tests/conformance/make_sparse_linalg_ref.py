#!/usr/bin/env python3
"""SciPy reference cases for cupp::sparse::linalg (issue 29), made on the GPU machine (SciPy 1.18).

Usage: make_sparse_linalg_ref.py OUTDIR

Writes OUTDIR/<case>.npz for each case (A as data/indices/indptr/shape of a CSR matrix, b, SciPy's
x and info, or eigenvalues / singular values / norms) and OUTDIR/manifest.json listing them by
kind. Matrices are built from NumPy's default_rng with fixed seeds: SPD (2-D Poisson, shifted
random), nonsymmetric (convection-diffusion), symmetric indefinite and ill-conditioned ones, in
float32/float64/complex128, with and without a Jacobi preconditioner; maxiter-limited runs give
SciPy's non-convergence info. tests/gpu/sparse/test_sparse_linalg_gpu.cpp reads them (from
$CUPP_SPARSE_LINALG_REF, else <conformance>/sparse_linalg-ref, the directory the build and
tools/dev/stage-gpu-modules.sh's suite phase give this script).

Each case is made on its own: one SciPy refuses (an API it changed, a solver that raises) is
reported on stderr, listed in the manifest's "skipped" with the error, and the others are still
written; the exit status is 1 only when no case could be made. The manifest is rewritten after
every case, so a run stopped by a time limit leaves the cases it finished usable. SciPy 1.14 replaced the solvers'
`tol` with `rtol` and 1.15 sparse.random's `random_state` with `rng`: both spellings are handled,
so an older SciPy (Debian's 1.10) can smoke-test the script, but the set is meant for 1.18.
"""
import inspect
import json
import os
import sys
import traceback

try:
    import numpy as np
    import scipy
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
except ImportError as e:  # pragma: no cover
    print(f"make_sparse_linalg_ref.py: SciPy is not available ({e}); no reference set written")
    sys.exit(0)


SKIPPED = []  # {"case": name, "error": text} for each case SciPy refused
PARTIAL = {}  # "out" and "manifest" once main() has them: the manifest is rewritten after every case


def write_manifest(final=False):
    """OUTDIR/manifest.json as it stands (atomically), so a run cut off by a time limit still leaves
    every case it finished listed; the last write has "complete": true."""
    if not PARTIAL:
        return
    m = dict(PARTIAL["manifest"], skipped=SKIPPED, complete=final)
    tmp = os.path.join(PARTIAL["out"], "manifest.json.tmp")
    with open(tmp, "w") as f:
        json.dump(m, f, indent=1)
    os.replace(tmp, os.path.join(PARTIAL["out"], "manifest.json"))


def attempt(label, fn):
    """fn() for one case (or one group of cases made together); a failure is reported and skipped."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 (every failure of one case is that case's)
        SKIPPED.append({"case": label, "error": f"{type(e).__name__}: {e}"})
        print(f"make_sparse_linalg_ref.py: skipped {label}: {type(e).__name__}: {e}", file=sys.stderr)
        traceback.print_exc(limit=2, file=sys.stderr)
    write_manifest()


def srandom(m, n, density, seed, fmt="coo"):
    """scipy.sparse.random with a Generator: `rng=` since SciPy 1.15, `random_state=` before."""
    try:
        return sp.random(m, n, density=density, format=fmt, rng=np.random.default_rng(seed) if not
                         isinstance(seed, np.random.Generator) else seed)
    except TypeError:
        return sp.random(m, n, density=density, format=fmt, random_state=np.random.default_rng(seed) if not
                         isinstance(seed, np.random.Generator) else seed)


def tol_kw(fn, rtol):
    """{"rtol": rtol} for SciPy >= 1.14's solvers, {"tol": rtol} for older ones; atol=0 (1.18's
    default, cupp's) where the solver takes one."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return {"rtol": rtol}
    kw = {"rtol": rtol} if "rtol" in params or "tol" not in params else {"tol": rtol}
    if "atol" in params:
        kw["atol"] = 0.0
    return kw


def spread(fn, a, b, kw, x):
    """How far SciPy's own iterate moves when its products are perturbed at rounding level: the
    same run three times with A's products multiplied by 1 + eps * N(0, 1) per element (different
    seeds). After a few iterations on an ill-conditioned system the iterate is that sensitive (GMRES
    on the cond-1e6 system moves by 7e-4 of |x| = 0.04), so no other implementation can be asked to
    land closer; the residual norm is the well-determined quantity. Returns x_spread = max |x' - x|
    and res_spread = max | |b - A x'| - |b - A x| | / |b|."""
    real = np.finfo(a.dtype).dtype
    eps = np.finfo(real).eps
    bn = np.linalg.norm(b)
    r0 = np.linalg.norm(b - a @ x)
    xs, rs = 0.0, 0.0
    for seed in (1, 2, 3):
        rng = np.random.default_rng(seed)
        ah = a.conj().T.tocsr()

        def jitter(y):
            return (y * (1 + eps * rng.standard_normal(y.shape[0])).astype(real)).astype(a.dtype)

        op = spla.LinearOperator(a.shape, matvec=lambda v: jitter(a @ v), rmatvec=lambda v: jitter(ah @ v),
                                 dtype=a.dtype)
        xp, _ = fn(op, b, **kw)
        xp = np.asarray(xp)
        xs = max(xs, float(np.linalg.norm(xp - x)))
        rs = max(rs, abs(float(np.linalg.norm(b - a @ xp)) - float(r0)) / bn if bn > 0 else 0.0)
    return {"x_spread": np.array(xs), "res_spread": np.array(rs)}


def default_maxiter(solver, n):
    """SciPy 1.18's maxiter when none is given (gmres: restart cycles; lgmres, gcrotmk: outer
    iterations)."""
    return {"minres": 5 * n, "tfqmr": min(10000, 10 * n), "lgmres": 1000, "gcrotmk": 1000}.get(solver, 10 * n)


def info_spread(case, fn, a, b, kw, x, info, iters, maxiter, rtol, sensitive=False):
    """A full run at the edge of its limit (converged after at least half of maxiter's iterations,
    or stopped by maxiter within 3x the tolerance): whether SciPy itself converges is decided by
    rounding there (gmres_indef_float32_noM_full: GMRES(20) gains ~0.3% a restart and crosses
    rtol = 1e-4 near restart 1200: SciPy 1.18's code stops there at 1.35e-4 on the CPU machine, six
    reruns with A's products perturbed at eps at 1.4e-4 .. 2.5e-4, and the H200's SciPy converged;
    bicg_ill_float64_noM_full converges at 655 of 800, its reruns do not). Such a case gets the
    infos of two perturbed reruns
    ("info_alt") and their relative residuals ("res_alt"); other cases get nothing (a
    well-determined info). A sensitive case (a solver run outside its convergence theory: cg on an
    indefinite system, cgs / qmr / bicg on indefinite or ill-conditioned ones, where whether it
    converges at all is decided by rounding) is rerun three times whatever its info, and marked
    "sensitive". Returns {"iters": ...} always."""
    out = {"iters": np.array(iters)}
    bn = float(np.linalg.norm(b))
    if bn == 0:
        return out
    res = float(np.linalg.norm(b - a @ x)) / bn
    edge = (info == 0 and iters >= maxiter // 2) or (info > 0 and res <= 3 * rtol)
    if not edge and not sensitive:
        return out
    real = np.finfo(a.dtype).dtype
    eps = np.finfo(real).eps
    infos, ress = [], []
    for seed in ((1, 2, 3) if sensitive else (1, 2)):
        rng = np.random.default_rng(seed)
        ah = a.conj().T.tocsr()

        def jitter(y, rng=rng):
            return (y * (1 + eps * rng.standard_normal(y.shape[0])).astype(real)).astype(a.dtype)

        op = spla.LinearOperator(a.shape, matvec=lambda v: jitter(a @ v), rmatvec=lambda v: jitter(ah @ v),
                                 dtype=a.dtype)
        xp, ip = fn(op, b, **kw)
        infos.append(int(ip))
        ress.append(float(np.linalg.norm(b - a @ np.asarray(xp))) / bn)
    print(f"make_sparse_linalg_ref.py: {case} {'(sensitive)' if sensitive else 'at its limit'} ({iters} of {maxiter} iterations, info {info}, "
          f"residual {res:.3g}): perturbed reruns give info {infos}, residuals {[f'{r:.3g}' for r in ress]}")
    out.update(info_alt=np.array(infos), res_alt=np.array(ress))
    if sensitive:
        out["sensitive"] = np.array(True)
    return out


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
    r = srandom(n, n, 0.05, rng, "csr")
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
    r = srandom(n, n, 0.05, rng, "csr")
    r = r + 1j * srandom(n, n, 0.05, rng, "csr")
    h = r + r.conj().T
    return (h + sp.diags(np.full(n, 6.0))).tocsr().astype(np.complex128)


def save(out, name, a, **arrays):
    a = sp.csr_matrix(a)
    a.sort_indices()
    np.savez(os.path.join(out, name + ".npz"), data=a.data, indices=a.indices.astype(np.int32),
             indptr=a.indptr.astype(np.int32), shape=np.array(a.shape, dtype=np.int64), **arrays)


def main():
    if len(sys.argv) > 2:
        print("usage: make_sparse_linalg_ref.py [OUTDIR]", file=sys.stderr)
        return 2
    out = sys.argv[1] if len(sys.argv) > 1 else "sparse_linalg-ref"
    os.makedirs(out, exist_ok=True)
    manifest = {"scipy": scipy.__version__, "numpy": np.__version__, "solve": [], "eigsh": [], "svds": [],
                "norm": [], "spsolve": [], "onenormest": [], "lsq": [], "triangular": [], "expm": [], "lobpcg": []}
    PARTIAL.update(out=out, manifest=manifest)
    rng = np.random.default_rng(29)
    systems = {}
    for name, make in [("spd", lambda: poisson2d(12)), ("nonsym", lambda: convection(10)),
                       ("indef", lambda: indefinite(120, 3)), ("ill", lambda: ill(80)),
                       ("herm", lambda: complex_hpd(90, 5))]:
        attempt(f"system {name}", lambda name=name, make=make: systems.__setitem__(name, make()))
    solvers = {"cg": ["spd", "ill", "herm"], "cgs": ["spd", "nonsym"], "bicg": ["spd", "nonsym", "herm"],
               "bicgstab": ["spd", "nonsym", "herm"], "gmres": ["spd", "nonsym", "indef", "ill", "herm"],
               "minres": ["spd", "indef", "ill"], "qmr": ["spd", "nonsym", "herm"], "tfqmr": ["spd", "nonsym", "herm"],
               "lgmres": ["spd", "nonsym", "indef", "herm"], "gcrotmk": ["spd", "nonsym", "indef", "herm"]}

    def solve_cases(solvers, rng, sensitive=False):
        """The (x, info) cases of each solver on each named system: float32 and float64 (complex128
        for "herm"), without and with a Jacobi preconditioner, full and limited to 3 iterations; b
        from rng in this order. sensitive: the full runs' infos are decided by rounding (info_spread)."""
        for solver, names in solvers.items():
            fn = getattr(spla, solver, None)
            for name in names:
                for dtype in ([np.float32, np.float64] if name != "herm" else [np.complex128]):
                    # b is drawn whether or not the case can be made, so later cases keep their inputs
                    n = systems[name].shape[0] if name in systems else 0
                    b = rng.standard_normal(n).astype(dtype)
                    if np.iscomplexobj(b):
                        b = b + 1j * rng.standard_normal(n)
                    for prec in (False, True):
                        if prec and solver in ("minres", "cg") and name == "indef":
                            continue  # minres and cg need an SPD preconditioner
                        for limited in (False, True):
                            case = f"{solver}_{name}_{np.dtype(dtype).name}_{'M' if prec else 'noM'}_{'lim' if limited else 'full'}"

                            def one(solver=solver, fn=fn, name=name, dtype=dtype, b=b, prec=prec, limited=limited, case=case):
                                if fn is None:
                                    raise AttributeError(f"scipy.sparse.linalg has no {solver}")
                                a = systems[name].astype(dtype)
                                n = a.shape[0]
                                m = sp.diags(1.0 / a.diagonal()).tocsr().astype(dtype) if prec else None
                                rtol = 1e-6 if dtype != np.float32 else 1e-4
                                kw = tol_kw(fn, rtol)
                                if limited:
                                    kw["maxiter"] = 3
                                if m is not None:
                                    if solver == "qmr":  # SciPy's qmr needs both or neither
                                        kw["M1"] = spla.aslinearoperator(m)  # qmr calls M1.matvec / rmatvec
                                        kw["M2"] = spla.aslinearoperator(sp.identity(n, dtype=dtype, format="csr"))
                                    else:
                                        kw["M"] = m
                                calls = [0]

                                def count(_xk):
                                    calls[0] += 1

                                ckw = dict(kw, callback=count)
                                if solver == "gmres":
                                    ckw["callback_type"] = "x"  # one call a restart; no legacy counting
                                x, info = fn(a, b, **ckw)
                                extra = {}
                                if not limited:
                                    try:
                                        extra = info_spread(case, fn, a, b, kw, np.asarray(x), int(info), calls[0],
                                                            default_maxiter(solver, n), rtol, sensitive)
                                    except Exception as e:  # noqa: BLE001
                                        print(f"make_sparse_linalg_ref.py: {case}: no info spread ({type(e).__name__}: {e})",
                                              file=sys.stderr)
                                if limited:
                                    try:  # the spread is an extra: a case keeps its x without it
                                        extra = spread(fn, a, b, kw, np.asarray(x))
                                    except Exception as e:  # noqa: BLE001
                                        print(f"make_sparse_linalg_ref.py: {case}: no spread ({type(e).__name__}: {e})",
                                              file=sys.stderr)
                                save(out, case, a, b=b, x=np.asarray(x), info=np.array(int(info)),
                                     rtol=np.array(rtol), maxiter=np.array(kw.get("maxiter", -1)),
                                     M=(m.diagonal() if m is not None else np.zeros(0, dtype)), **extra)
                                manifest["solve"].append({"case": case, "solver": solver})

                            attempt(case, one)
    solve_cases(solvers, rng)
    # the remaining pairs (each solver on SPD, nonsymmetric, indefinite and ill-conditioned
    # systems; cg and minres, symmetric methods, are not run on the nonsymmetric one), with their
    # own b stream so the cases above keep their inputs
    solve_cases({"cg": ["indef"], "cgs": ["indef", "ill"], "bicg": ["indef", "ill"], "bicgstab": ["indef", "ill"],
                 "qmr": ["indef", "ill"], "tfqmr": ["indef", "ill"], "lgmres": ["ill"], "gcrotmk": ["ill"]},
                np.random.default_rng(2929), sensitive=True)
    # breakdown: bicg / cgs / bicgstab on a matrix whose rtilde . r vanishes (SciPy 1.18: -11), qmr
    # and tfqmr on the same one (-14: qmr's delta or epsilon; tfqmr's -1: <r*, v> = 0)
    for solver in ("bicgstab", "cgs", "bicg", "qmr", "tfqmr"):
        def brk(solver=solver):
            a = sp.csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0]]))
            b = np.array([1.0, 0.0])
            x, info = getattr(spla, solver)(a, b)
            case = f"{solver}_breakdown"
            save(out, case, a, b=b, x=np.asarray(x), info=np.array(int(info)), rtol=np.array(1e-5),
                 maxiter=np.array(-1), M=np.zeros(0))
            manifest["solve"].append({"case": case, "solver": solver})

        attempt(f"{solver}_breakdown", brk)
    # eigsh
    for name, make, k, which in [("poisson_LA", lambda: poisson2d(15), 6, "LA"),
                                 ("poisson_SA", lambda: poisson2d(10), 4, "SA"),
                                 ("poisson_LM", lambda: poisson2d(15), 5, "LM"),
                                 ("indef_LM", lambda: indefinite(150, 8), 6, "LM"),
                                 ("indef_BE", lambda: indefinite(150, 8), 6, "BE"),
                                 ("herm_LA", lambda: complex_hpd(100, 9), 4, "LA")]:
        def eig(name=name, make=make, k=k, which=which):
            a = make()
            w = spla.eigsh(a, k=k, which=which, return_eigenvectors=False)
            save(out, "eigsh_" + name, a, w=np.sort(np.real(w)), k=np.array(k))
            manifest["eigsh"].append({"case": "eigsh_" + name, "which": which})

        attempt("eigsh_" + name, eig)
    # svds
    for name, shape, seed, k in [("rect_tall", (120, 60), 4, 5), ("rect_wide", (50, 110), 6, 4)]:
        def svd(name=name, shape=shape, seed=seed, k=k):
            a = srandom(shape[0], shape[1], 0.1, seed).tocsr()
            s = spla.svds(a, k=k, return_singular_vectors=False)
            save(out, "svds_" + name, a, s=np.sort(s), k=np.array(k))
            manifest["svds"].append("svds_" + name)

        attempt("svds_" + name, svd)

    # norms: values in [-1, 2) on a random pattern (a sparse matrix minus a nonzero scalar is an
    # error in SciPy, so the shift goes on the stored values)
    def norms():
        a = srandom(40, 30, 0.2, 12).tocsr()
        a.data = a.data * 3 - 1
        a = sp.csr_matrix(a)
        vals = {"fro": spla.norm(a), "one": spla.norm(a, 1), "inf": spla.norm(a, np.inf),
                "mone": spla.norm(a, -1), "minf": spla.norm(a, -np.inf)}
        save(out, "norm_rand", a, axis0=np.asarray(spla.norm(a, axis=0)), axis1=np.asarray(spla.norm(a, axis=1)),
             axis0_1=np.asarray(spla.norm(a, 1, axis=0)), axis1_inf=np.asarray(spla.norm(a, np.inf, axis=1)),
             **{k: np.array(v) for k, v in vals.items()})
        manifest["norm"].append("norm_rand")

    attempt("norm_rand", norms)

    def onenorm():
        sq = indefinite(60, 21)
        save(out, "onenormest_indef", sq, est=np.array(spla.onenormest(sq)), exact=np.array(spla.norm(sq, 1)))
        manifest["onenormest"].append("onenormest_indef")

    attempt("onenormest_indef", onenorm)
    # lsqr / lsmr: tall, wide and square systems, with and without damping
    for name, make in [("tall", lambda: srandom(200, 80, 0.08, 31) + sp.eye(200, 80)),
                       ("wide", lambda: srandom(60, 150, 0.08, 32) + sp.eye(60, 150)),
                       ("square", lambda: convection(9))]:
        mats = []
        attempt(f"lsq_{name} matrix", lambda make=make: mats.append(sp.csr_matrix(make())))
        nrow = mats[0].shape[0] if mats else {"tall": 200, "wide": 60, "square": 81}[name]
        b = rng.standard_normal(nrow)
        for damp in (0.0, 0.3):
            for solver in ("lsqr", "lsmr"):
                case = f"{solver}_{name}_{damp}"

                def lsq(solver=solver, damp=damp, case=case, b=b):
                    a = mats[0]
                    r = getattr(spla, solver)(a, b, damp=damp)
                    save(out, case, a, b=b, x=r[0], istop=np.array(int(r[1])), itn=np.array(int(r[2])),
                         damp=np.array(damp))
                    manifest["lsq"].append({"case": case, "solver": solver})

                attempt(case, lsq)
    # spsolve_triangular: lower, upper, unit diagonal, 1-D and 2-D b
    for lower in (True, False):
        for unit in (False, True):
            b = rng.standard_normal((64, 2)) if unit else rng.standard_normal(64)
            case = f"triangular_{'L' if lower else 'U'}_{'unit' if unit else 'diag'}"

            def tri(lower=lower, unit=unit, b=b, case=case):
                base = convection(8) + sp.diags(np.full(64, 3.0))
                t = sp.csr_matrix(sp.tril(base) if lower else sp.triu(base))
                x = spla.spsolve_triangular(t, b, lower=lower, unit_diagonal=unit)
                save(out, case, t, b=b, x=x)
                manifest["triangular"].append({"case": case, "lower": lower, "unit": unit})

            attempt(case, tri)
    # lobpcg: a spread spectrum, largest and smallest, a fixed start block
    for largest in (True, False):
        x0 = rng.standard_normal((200, 3))
        case = f"lobpcg_{'largest' if largest else 'smallest'}"

        def lob(largest=largest, x0=x0, case=case):
            a = indefinite(200, 17)
            w, _ = spla.lobpcg(a, x0.copy(), largest=largest, maxiter=400)
            save(out, case, a, X=x0, w=np.asarray(w), maxiter=np.array(400), largest=np.array(largest))
            manifest["lobpcg"].append(case)

        attempt(case, lob)
    # expm_multiply: a nonsymmetric and a shifted (large trace) matrix
    for name, make, nrow in [("nonsym", lambda: convection(7) * -0.3, 49),
                             ("shifted", lambda: indefinite(60, 14) * 0.5 + sp.identity(60) * 3, 60)]:
        b = rng.standard_normal(nrow)

        def expm(name=name, make=make, b=b):
            a = sp.csr_matrix(make())
            save(out, "expm_" + name, a, b=b, x=spla.expm_multiply(a, b))
            manifest["expm"].append("expm_" + name)

        attempt("expm_" + name, expm)
    # spsolve
    for name, make, nrow, cplx in [("banded", lambda: convection(12), 144, False),
                                   ("indef", lambda: indefinite(100, 2), 100, False),
                                   ("complex", lambda: complex_hpd(60, 3), 60, True)]:
        b = rng.standard_normal((nrow, 2)).astype(np.complex128 if cplx else np.float64)

        def solve(name=name, make=make, b=b):
            a = make()
            save(out, "spsolve_" + name, a, b=b, x=spla.spsolve(a.tocsc(), b.copy()))
            manifest["spsolve"].append("spsolve_" + name)

        attempt("spsolve_" + name, solve)
    write_manifest(final=True)
    made = sum(len(v) for k, v in manifest.items() if isinstance(v, list) and k != "skipped")
    print(f"wrote {made} cases to {out} (SciPy {scipy.__version__}, NumPy {np.__version__}); "
          f"{len(SKIPPED)} skipped" + "".join(f"\n  skipped {s['case']}: {s['error']}" for s in SKIPPED))
    return 0 if made > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
