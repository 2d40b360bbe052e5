#!/usr/bin/env python3
"""NumPy (and SciPy) reference data for linalg part 2 (specs/routines/linalg_solvers.yaml):
numpy.linalg's solve, inv, det, slogdet, tensorsolve, tensorinv, cholesky, qr, svd, svdvals, eig,
eigvals, eigh, eigvalsh, lstsq, pinv, matrix_rank, norm, matrix_norm, vector_norm, cond and
scipy.linalg's lu, lu_factor, lu_solve, cho_factor, cho_solve, solve_triangular, run by
tests/gpu/test_eval_ref_gpu.cpp through cupp eval's engine (EvalRefGpu/Families.AgreeWithNumPy/
linalg_solvers).

    python3 make_linalg_solvers_ref.py OUT_DIR

writes OUT_DIR/eval/<case>/... and the manifests (routine_ref.py's format). NumPy evaluates
`linalg.<name>` as numpy.linalg's; the SciPy names (linalg.lu, linalg.cho_factor, ...) are
scipy.linalg's, applied matrix by matrix over the leading axes. The SciPy cases and those that need
NumPy 2 (svdvals, matrix_norm, vector_norm, cholesky(upper=), rtol=, eig's complex results) are
numpy2_only: NumPy 1 (Debian's) writes them without results and the test skips them; the GPU
machine (NumPy 2.5.2, SciPy 1.18) remakes the set.

How results are compared. The test compares element-wise with a relative tolerance and atol 0,
so an expected element near zero would have to be matched to the last bit. The inputs are built so
that every compared value is unique and well away from zero:
  * "dominant" matrices D(n): diagonal 3 + u, off-diagonal +-(1 + u)/n (u uniform in [0, 1)),
    so every entry is at least 1/n in magnitude and the condition number is below about 5;
  * solve's b = a @ x for an x of such entries (the solution is x), inv's a = inv(D) (the
    inverse is D), cholesky's a = L L^H for a dominant L with a positive diagonal (the factor is
    L), lu's a = Pi L U for a unit-lower L with |l_ij| < 1 and distinct (partial pivoting then
    picks Pi, L and U: the factorisation is unique), lstsq's b = a x + r with r orthogonal to a's
    columns (x, the residuals |r|^2, the rank and the singular values are all unique);
  * eigh's a = Q diag(w) Q^H, eig's a = S diag(w) S^-1 and svd's a = U diag(s) V^H with chosen
    distinct w / s away from zero (eigenvalues and singular values are unique).
What is unique is compared by value: x, inverses, determinants, slogdet, the Cholesky, LU and
packed LU factors and pivots, singular values, sorted eigenvalues (eig: sorted real parts and
moduli, so the order of a conjugate pair does not matter), |diag(R)| and tau of qr, ranks, norms,
condition numbers. What is unique only up to a unit factor per vector (Q and R of qr, U and Vh of
svd, eigenvectors) is compared through its defining properties, written as expressions both sides
evaluate: the reconstruction residual ||Q R - a|| / ||a||, ||U diag(S) Vh - a|| / ||a||, the
eigen-residual ||a v - v diag(w)|| / ||a|| and the orthonormality ||X^H X - I|| are each compared
with a stated bound (1e-4 for float32 / complex64, 1e-10 for float64 / complex128) as a bool
result (exact), and the column norms of Q, U, V and eigenvectors (all 1) by value.
Tolerances (rtol, atol 0): float32 / complex64 results 2e-3 * max(1, n / 16) (n the matrix order;
the algorithms differ from LAPACK's, so the two single-precision results differ by a few
hundred ulps of a condition-5 problem), float64 / complex128 1e-9 * max(1, n / 16); ints and bools
exactly. Integer and bool inputs are computed in float64 as NumPy does; float16 is NumPy's
TypeError. Each error NumPy raises (singular, not positive definite, non-square, 1-D, NaN input to
svd / eig / eigh, bad mode / UPLO / ord) is a case whose class is compared; NaN input to solve,
inv and cholesky gives NaN without an error (compared as any(isnan(...))).
"""
import sys

import numpy as np

import routine_ref
from routine_ref import Eval

EVAL_CASES = {}
NUMPY2_ONLY = set()
RNG = np.random.default_rng(20261203)

FLOATS = ["float32", "float64", "complex64", "complex128"]
SHORT = {"float32": "f4", "float64": "f8", "complex64": "c8", "complex128": "c16", "int32": "i4", "int64": "i8",
         "bool": "b1", "uint8": "u1", "float16": "f2", "int16": "i2"}
BATCHES = [(), (3,), (2, 2)]
SIZES = [1, 3, 8, 33]  # odd, even, past the 32x32 batched limits


def is_complex(dt):
    return np.dtype(dt).kind == "c"


def single(dt):
    return np.dtype(dt) in (np.dtype("float32"), np.dtype("complex64"))


def rtol(dt, n=1):
    return (2e-3 if single(dt) else 1e-9) * max(1.0, n / 16.0)


def bound(dt):
    """The bound of the residual / orthonormality checks (a bool result)."""
    return 1e-4 if single(dt) else 1e-10


def sid(shape):
    return "x".join(str(s) for s in shape) if shape else "s"


def add(name, e, numpy2=False):
    assert name not in EVAL_CASES, name
    EVAL_CASES[name] = e
    if numpy2:
        NUMPY2_ONLY.add(name)


# ---- inputs (made in float64 / complex128, then cast: both sides read the same rounded values)
def uniform(shape):
    return RNG.random(shape)


def signs(shape):
    return np.where(RNG.random(shape) < 0.5, -1.0, 1.0)


def away(shape, complex_=False):
    """Entries of modulus in [1, 2): real +-(1 + u), complex (1 + u) e^(i theta)."""
    m = 1.0 + uniform(shape)
    if complex_:
        return m * np.exp(1j * RNG.uniform(-np.pi, np.pi, shape))
    return m * signs(shape)


def dominant(batch, n, complex_=False, positive_diagonal=True):
    """Diagonal 3 + u (real), off-diagonal entries of modulus (1 + u) / n: cond below ~5."""
    a = away(batch + (n, n), complex_) / n
    d = 3.0 + uniform(batch + (n,))
    if not positive_diagonal:
        d = d * signs(batch + (n,))
    idx = np.arange(n)
    a[..., idx, idx] = d
    return a


def orthogonal(batch, n, complex_=False):
    g = RNG.standard_normal(batch + (n, n))
    if complex_:
        g = g + 1j * RNG.standard_normal(batch + (n, n))
    q, r = np.linalg.qr(g)
    return q


def ct(a):
    return np.conj(np.swapaxes(a, -1, -2))


def cast(a, dt):
    return np.asarray(a).astype(dt)


def spectrum(batch, n):
    """Distinct values away from zero, of both signs: +-(1 + k + u/2)."""
    w = (1.0 + np.arange(n) + 0.5 * uniform(batch + (n,))) * signs(batch + (n,))
    return w


def hermitian_with(batch, n, complex_):
    q = orthogonal(batch, n, complex_)
    w = spectrum(batch, n)
    return (q * w[..., None, :]) @ ct(q)


def eig_input(batch, n, complex_):
    """S diag(w) S^-1 with S dominant: eigenvalues w (complex ones for complex dtypes, with real
    parts of modulus >= ~0.5 and distinct moduli)."""
    s = dominant(batch, n, complex_)
    w = spectrum(batch, n)
    if complex_:
        w = w * np.exp(1j * RNG.uniform(-1.0, 1.0, batch + (n,)))
    return (s * w[..., None, :]) @ np.linalg.inv(s)


def svd_input(batch, m, n, complex_):
    k = min(m, n)
    u = orthogonal(batch, m, complex_)[..., :, :k]
    v = orthogonal(batch, n, complex_)[..., :, :k]
    s = 1.0 + np.arange(k)[::-1] + 0.5 * uniform(batch + (k,))
    return (u * s[..., None, :]) @ ct(v)


def dominant_lower(batch, n, complex_, unit=False):
    a = np.tril(dominant(batch, n, complex_))
    if unit:
        a[..., np.arange(n), np.arange(n)] = 1.0
    return a


def lu_input(batch, n, complex_):
    """Pi L U: L unit lower with distinct |l_ij| < 1, U dominant upper; Pi a fixed permutation."""
    l = np.tril(away(batch + (n, n), complex_) / 2.5, -1)  # moduli in [0.4, 0.8)
    l = l + np.eye(n)
    u = np.triu(dominant(batch, n, complex_, positive_diagonal=False))
    perm = RNG.permutation(n)
    return (l @ u)[..., perm, :]


def with_nan(a, dt):
    a = cast(a, dt).copy()
    a.reshape(-1)[a.size // 2] = np.nan
    return a


def zero_row(a, dt, row=0):
    a = cast(a, dt).copy()
    a[..., row, :] = 0
    return a


# ---- SciPy's routines for the NumPy side, matrix by matrix over the leading axes
def _scipy():
    import scipy.linalg  # the GPU machine's SciPy 1.18; only the numpy2_only cases call this
    return scipy.linalg


def _over_batch(f, a, *rest, nout=1):
    a = np.asarray(a)
    if a.ndim <= 2:
        return f(a, *rest)
    lead = a.shape[:-2]
    outs = [f(a[i], *(r[i] for r in rest)) for i in np.ndindex(*lead)]
    if nout == 1:
        return np.stack(outs).reshape(lead + outs[0].shape)
    return tuple(np.stack([o[k] for o in outs]).reshape(lead + np.asarray(outs[0][k]).shape) for k in range(nout))


class _SciPyNames:
    """`linalg` for the NumPy side: numpy.linalg, plus scipy.linalg's LU / Cholesky routines."""

    def __getattr__(self, name):
        return getattr(np.linalg, name)

    @staticmethod
    def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
        sl = _scipy()
        nout = 2 if permute_l else 3
        return _over_batch(lambda m: sl.lu(m, permute_l=permute_l, p_indices=p_indices), a, nout=nout)

    @staticmethod
    def lu_factor(a, overwrite_a=False, check_finite=True):
        sl = _scipy()
        return _over_batch(lambda m: sl.lu_factor(m), a, nout=2)

    @staticmethod
    def lu_solve(lu_and_piv, b, trans=0, overwrite_b=False, check_finite=True):
        sl = _scipy()
        lu, piv = lu_and_piv
        lu, piv, b = np.asarray(lu), np.asarray(piv), np.asarray(b)
        if lu.ndim <= 2:
            return sl.lu_solve((lu, piv), b, trans=trans)
        lead = lu.shape[:-2]
        outs = [sl.lu_solve((lu[i], piv[i]), b[i], trans=trans) for i in np.ndindex(*lead)]
        return np.stack(outs).reshape(lead + outs[0].shape)

    @staticmethod
    def cho_factor(a, lower=False, overwrite_a=False, check_finite=True):
        sl = _scipy()
        c = _over_batch(lambda m: sl.cho_factor(m, lower=lower)[0], a)
        return c, lower

    @staticmethod
    def cho_solve(c_and_lower, b, overwrite_b=False, check_finite=True):
        sl = _scipy()
        c, lower = c_and_lower
        return _over_batch(lambda m, bb: sl.cho_solve((m, lower), bb), np.asarray(c), np.asarray(b))

    @staticmethod
    def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
        sl = _scipy()
        return _over_batch(lambda m, bb: sl.solve_triangular(m, bb, trans=trans, lower=lower,
                                                             unit_diagonal=unit_diagonal), np.asarray(a), np.asarray(b))


routine_ref.HELPERS["linalg"] = _SciPyNames()

# Residual checks as expressions (bool results: True on both sides within the bound).
NORM2 = "axis=(-2, -1)"


def small(expr, ref, b):
    return f"less(linalg.norm({expr}, {NORM2}), {b!r} * linalg.norm({ref}, {NORM2}) + {b!r})"


def orthonormal(x, b):
    # ||X^H X - I|| < b, with I the input e (float64 identity of X's column count)
    return f"less(linalg.norm(matmul(conj(swapaxes({x}, -1, -2)), {x}) - e, {NORM2}), {b!r})"


# ================================================================== solve, inv, det, slogdet
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    for batch in BATCHES:
        for n in SIZES:
            tag = f"{s}_{sid(batch)}_{n}"
            a = dominant(batch, n, c)
            x = away(batch + (n, 2), c)
            add(f"solve_{tag}", Eval("linalg.solve(a, b)", rtol=rtol(dt, n), a=cast(a, dt), b=cast(a @ x, dt)))
            d = dominant(batch, n, c)
            add(f"inv_{tag}", Eval("linalg.inv(a)", rtol=rtol(dt, n), a=cast(np.linalg.inv(d), dt)))
            add(f"det_{tag}", Eval("linalg.det(a)", rtol=rtol(dt, n), a=cast(a, dt)))
            add(f"slogdet_{tag}", Eval("linalg.slogdet(a)", rtol=rtol(dt, n), a=cast(a, dt)))
    n = 5
    a = dominant((), n, c)
    x = away((n,), c)
    add(f"solve_{s}_vector", Eval("linalg.solve(a, b)", rtol=rtol(dt), a=cast(a, dt), b=cast(a @ x, dt)))
    a = dominant((2, 1), n, c)
    x = away((3, n, 4), c)
    add(f"solve_{s}_broadcast", Eval("linalg.solve(a, b)", rtol=rtol(dt), a=cast(a, dt), b=cast(a @ x, dt)))
    add(f"solve_{s}_0x0", Eval("linalg.solve(a, b)", a=np.zeros((0, 0), dt), b=np.zeros((0, 2), dt)))
    add(f"inv_{s}_0x0", Eval("linalg.inv(a)", a=np.zeros((2, 0, 0), dt)))
    add(f"det_{s}_0x0", Eval("linalg.det(a)", a=np.zeros((0, 0), dt)))
    add(f"slogdet_{s}_0x0", Eval("linalg.slogdet(a)", a=np.zeros((3, 0, 0), dt)))
    add(f"solve_{s}_singular", Eval("linalg.solve(a, b)", a=zero_row(dominant((2,), 4, c), dt, 2),
                                    b=cast(away((2, 4, 1), c), dt)))
    add(f"inv_{s}_singular", Eval("linalg.inv(a)", a=zero_row(dominant((), 4, c), dt, 1)))
    add(f"det_{s}_singular", Eval("linalg.det(a)", a=zero_row(dominant((2,), 4, c), dt, 3)))
    add(f"slogdet_{s}_singular", Eval("linalg.slogdet(a)", a=zero_row(dominant((), 4, c), dt, 0)))
    add(f"solve_{s}_nan", Eval("any(isnan(linalg.solve(a, b)))", a=with_nan(dominant((), 4, c), dt),
                               b=cast(away((4, 2), c), dt)))
    add(f"inv_{s}_nan", Eval("any(isnan(linalg.inv(a)))", a=with_nan(dominant((), 4, c), dt)))
    add(f"inv_{s}_identity", Eval("add(matmul(a, linalg.inv(a)), 1)", rtol=rtol(dt, 40),
                                  a=cast(dominant((2,), 40, c), dt)))
# integer and bool inputs (float64), float16 (TypeError)
for dt in ["int32", "int64", "uint8", "bool"]:
    n = 4
    if dt == "bool":
        a = np.eye(n, dtype=bool) | np.tri(n, n, -2, dtype=bool)
        b = np.ones((n, 2), bool)
    else:
        a = (np.round(dominant((), n) * n) * (1 if dt != "uint8" else 0) + np.eye(n) * 9).astype(dt)
        b = (np.arange(2 * n).reshape(n, 2) % 5 + 1).astype(dt)
    s = SHORT[dt]
    add(f"solve_{s}", Eval("linalg.solve(a, b)", rtol=1e-9, a=a, b=b))
    add(f"inv_{s}", Eval("linalg.inv(a)", rtol=1e-9, a=a))
    add(f"det_{s}", Eval("linalg.det(a)", rtol=1e-9, a=a))
    add(f"slogdet_{s}", Eval("linalg.slogdet(a)", rtol=1e-9, a=a))
for r in ["solve", "inv", "det", "slogdet", "cholesky", "eigh", "svd", "qr", "eig"]:
    args = "a, b" if r == "solve" else "a"
    add(f"{r}_f2", Eval(f"linalg.{r}({args})", a=np.eye(3, dtype="float16"), b=np.ones((3,), "float16")))
    add(f"{r}_1d", Eval(f"linalg.{r}({args})", a=np.ones((3,)), b=np.ones((3,))))
    if r not in ("svd", "qr"):
        add(f"{r}_rect", Eval(f"linalg.{r}({args})", a=np.ones((2, 3, 4)), b=np.ones((2, 3, 1))))
add("solve_mismatch", Eval("linalg.solve(a, b)", a=dominant((), 3), b=np.ones((4, 2))))

# ================================================================== tensorsolve, tensorinv
for dt in ["float64", "complex64"]:
    s, c = SHORT[dt], is_complex(dt)
    m = dominant((), 6, c)
    x = away((6,), c)
    add(f"tensorsolve_{s}", Eval("linalg.tensorsolve(a, b)", rtol=rtol(dt), a=cast(m.reshape(2, 3, 6), dt),
                                 b=cast((m @ x).reshape(2, 3), dt)))
    # axes: a's axis 0 moved to the end first
    add(f"tensorsolve_{s}_axes", Eval("linalg.tensorsolve(a, b, axes=(0,))", rtol=rtol(dt),
                                      a=cast(np.moveaxis(m.reshape(2, 3, 6), 2, 0), dt),
                                      b=cast((m @ x).reshape(2, 3), dt)))
    m = dominant((), 24, c)
    add(f"tensorinv_{s}", Eval("linalg.tensorinv(a)", rtol=rtol(dt, 24), a=cast(np.linalg.inv(m).reshape(4, 6, 8, 3), dt)))
    add(f"tensorinv_{s}_ind1", Eval("linalg.tensorinv(a, ind=1)", rtol=rtol(dt, 24),
                                    a=cast(np.linalg.inv(m).reshape(24, 8, 3), dt)))
add("tensorsolve_not_square", Eval("linalg.tensorsolve(a, b)", a=np.ones((2, 3, 4)), b=np.ones((2, 3))))
add("tensorinv_ind0", Eval("linalg.tensorinv(a, ind=0)", a=np.ones((2, 2))))

# ================================================================== cholesky (and cho_factor / cho_solve)
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    for batch in BATCHES:
        for n in SIZES:
            tag = f"{s}_{sid(batch)}_{n}"
            l = dominant_lower(batch, n, c)
            a = l @ ct(l)
            add(f"cholesky_{tag}", Eval("linalg.cholesky(a)", rtol=rtol(dt, n), a=cast(a, dt)))
            if n in (3, 33):
                add(f"cholesky_{tag}_upper", Eval("linalg.cholesky(a, upper=True)", rtol=rtol(dt, n), a=cast(a, dt)),
                    numpy2=True)
                x = away(batch + (n, 3), c)
                add(f"cho_solve_{tag}", Eval("linalg.cho_solve(linalg.cho_factor(a), b)", rtol=rtol(dt, n),
                                             a=cast(a, dt), b=cast(a @ x, dt)), numpy2=True)
                add(f"cho_factor_{tag}_lower", Eval("tril(linalg.cho_factor(a, lower=True)[0])", rtol=rtol(dt, n),
                                                    a=cast(a, dt)), numpy2=True)
                add(f"cho_factor_{tag}_upper", Eval("triu(linalg.cho_factor(a)[0])", rtol=rtol(dt, n),
                                                    a=cast(a, dt)), numpy2=True)
    # only the lower triangle is read: garbage above
    l = dominant_lower((), 5, c)
    a = l @ ct(l)
    junk = a + np.triu(away((5, 5), c), 1)
    add(f"cholesky_{s}_reads_lower", Eval("linalg.cholesky(a)", rtol=rtol(dt), a=cast(junk, dt)))
    add(f"cholesky_{s}_not_pd", Eval("linalg.cholesky(a)", a=cast(-a, dt)))
    add(f"cholesky_{s}_not_pd_batch", Eval("linalg.cholesky(a)", a=cast(np.stack([a, a - 100 * np.eye(5)]), dt)))
    # NaN on the diagonal: NumPy 2.5 does not raise (OpenBLAS's potrf lets a NaN pivot through);
    # NaN from there on, and cupp's factor is all NaN: compared as any(isnan(...))
    add(f"cholesky_{s}_nan", Eval("any(isnan(linalg.cholesky(a)))", a=with_nan(a, dt)))
    add(f"cholesky_{s}_0x0", Eval("linalg.cholesky(a)", a=np.zeros((2, 0, 0), dt)))
    add(f"cho_factor_{s}_not_pd", Eval("linalg.cho_factor(a)", a=cast(-a, dt)), numpy2=True)
add("cholesky_i4", Eval("linalg.cholesky(a)", rtol=1e-9, a=np.array([[4, 2], [2, 3]], "int32")))

# ================================================================== eigh, eigvalsh
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    b = bound(dt)
    for batch in BATCHES:
        for n in SIZES:
            tag = f"{s}_{sid(batch)}_{n}"
            a = cast(hermitian_with(batch, n, c), dt)
            e = np.eye(n)
            add(f"eigvalsh_{tag}", Eval("linalg.eigvalsh(a)", rtol=rtol(dt, n), a=a))
            add(f"eigh_{tag}_w", Eval("linalg.eigh(a)[0]", rtol=rtol(dt, n), a=a))
            add(f"eigh_{tag}_residual", Eval(small("matmul(a, linalg.eigh(a)[1]) - linalg.eigh(a)[1] * "
                                                   "expand_dims(linalg.eigh(a)[0], -2)", "a", b), a=a))
            add(f"eigh_{tag}_orthonormal", Eval(orthonormal("linalg.eigh(a)[1]", b), a=a, e=e))
    a = hermitian_with((), 6, c)
    low = np.tril(a) + np.triu(away((6, 6), c), 1)   # garbage in the upper triangle
    up = np.triu(a) + np.tril(away((6, 6), c), -1)
    add(f"eigvalsh_{s}_L", Eval("linalg.eigvalsh(a)", rtol=rtol(dt), a=cast(low, dt)))
    add(f"eigvalsh_{s}_U", Eval("linalg.eigvalsh(a, UPLO='U')", rtol=rtol(dt), a=cast(up, dt)))
    add(f"eigh_{s}_U", Eval("linalg.eigh(a, 'U')[0]", rtol=rtol(dt), a=cast(up, dt)))
    add(f"eigh_{s}_nan", Eval("linalg.eigh(a)", a=with_nan(a, dt)))
    add(f"eigvalsh_{s}_nan", Eval("linalg.eigvalsh(a)", a=with_nan(a, dt)))
    add(f"eigh_{s}_0x0", Eval("linalg.eigh(a)", a=np.zeros((2, 0, 0), dt)))
add("eigh_bad_uplo", Eval("linalg.eigh(a, UPLO='X')", a=np.eye(3)))
add("eigvalsh_i8", Eval("linalg.eigvalsh(a)", rtol=1e-9, a=np.array([[2, 1], [1, 5]], "int64")))

# ================================================================== eig, eigvals (NumPy 2.5: complex results)
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    b = bound(dt)
    for batch in BATCHES:
        for n in SIZES:
            if n == 33 and batch == (2, 2):
                continue
            tag = f"{s}_{sid(batch)}_{n}"
            a = cast(eig_input(batch, n, c), dt)
            r = rtol(dt, n) * 5  # a non-normal spectrum: a few times eps * cond(S)^2
            add(f"eigvals_{tag}_real", Eval("sort(real(linalg.eigvals(a)), axis=-1)", rtol=r, a=a), numpy2=True)
            add(f"eigvals_{tag}_abs", Eval("sort(abs(linalg.eigvals(a)), axis=-1)", rtol=r, a=a), numpy2=True)
            add(f"eig_{tag}_residual", Eval(small("matmul(a, linalg.eig(a)[1]) - linalg.eig(a)[1] * "
                                                  "expand_dims(linalg.eig(a)[0], -2)", "a", b * 10), a=a), numpy2=True)
            add(f"eig_{tag}_unit", Eval("linalg.vector_norm(linalg.eig(a)[1], axis=-2)", rtol=rtol(dt, n), a=a),
                numpy2=True)
    # a real matrix with a complex spectrum: rotation blocks
    th = 0.7
    blk = np.array([[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]]) * 2
    a = np.zeros((4, 4))
    a[:2, :2] = blk
    a[2:, 2:] = 3 * blk
    sm = dominant((), 4)
    a = sm @ a @ np.linalg.inv(sm)
    if not c:
        add(f"eigvals_{s}_complex_pairs", Eval("sort(abs(linalg.eigvals(a)))", rtol=rtol(dt) * 5, a=cast(a, dt)),
            numpy2=True)
        add(f"eigvals_{s}_dtype", Eval("linalg.eigvals(a)[:0]", a=cast(np.diag([1.0, 2.0]), dt)), numpy2=True)
    add(f"eig_{s}_nan", Eval("linalg.eig(a)", a=with_nan(a, dt)), numpy2=True)
    add(f"eigvals_{s}_nan", Eval("linalg.eigvals(a)", a=with_nan(a, dt)), numpy2=True)
    add(f"eig_{s}_0x0", Eval("linalg.eig(a)", a=np.zeros((0, 0), dt)), numpy2=True)
add("eigvals_i4", Eval("sort(real(linalg.eigvals(a)))", rtol=1e-9, a=np.array([[2, 1], [0, 5]], "int32")), numpy2=True)

# ================================================================== svd, svdvals
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    b = bound(dt)
    for batch in BATCHES:
        for (m, n) in [(1, 1), (3, 3), (8, 5), (5, 8), (33, 33), (40, 7)]:
            if batch == (2, 2) and m == 33:
                continue
            tag = f"{s}_{sid(batch)}_{m}x{n}"
            a = cast(svd_input(batch, m, n, c), dt)
            k = min(m, n)
            add(f"svdvals_{tag}", Eval("linalg.svdvals(a)", rtol=rtol(dt, max(m, n)), a=a), numpy2=True)
            add(f"svd_{tag}_s", Eval("linalg.svd(a, compute_uv=False)", rtol=rtol(dt, max(m, n)), a=a))
            add(f"svd_{tag}_S", Eval("linalg.svd(a)[1]", rtol=rtol(dt, max(m, n)), a=a))
            add(f"svd_{tag}_reconstruct", Eval(small("matmul(linalg.svd(a, full_matrices=False)[0] * expand_dims("
                                                     "linalg.svd(a, full_matrices=False)[1], -2), "
                                                     "linalg.svd(a, full_matrices=False)[2]) - a", "a", b), a=a))
            add(f"svd_{tag}_U", Eval(orthonormal("linalg.svd(a)[0]", b), a=a, e=np.eye(m)))
            add(f"svd_{tag}_Vh", Eval(orthonormal("conj(swapaxes(linalg.svd(a)[2], -1, -2))", b), a=a, e=np.eye(n)))
            # shapes of the reduced factors (column norms, all 1)
            add(f"svd_{tag}_reduced_norms", Eval("linalg.vector_norm(linalg.svd(a, full_matrices=False)[0], axis=-2)",
                                                 rtol=rtol(dt, max(m, n)), a=a), numpy2=True)
    a = hermitian_with((2,), 5, c)
    add(f"svd_{s}_hermitian", Eval("linalg.svd(a, hermitian=True)[1]", rtol=rtol(dt), a=cast(a, dt)))
    add(f"svd_{s}_hermitian_s", Eval("linalg.svd(a, compute_uv=False, hermitian=True)", rtol=rtol(dt), a=cast(a, dt)))
    add(f"svd_{s}_hermitian_reconstruct", Eval(small("matmul(linalg.svd(a, hermitian=True)[0] * expand_dims("
                                                     "linalg.svd(a, hermitian=True)[1], -2), "
                                                     "linalg.svd(a, hermitian=True)[2]) - a", "a", b), a=cast(a, dt)))
    add(f"svd_{s}_nan", Eval("linalg.svd(a)", a=with_nan(np.ones((4, 3)), dt)))
    add(f"svdvals_{s}_nan", Eval("linalg.svdvals(a)", a=with_nan(np.ones((4, 3)), dt)), numpy2=True)
    add(f"svd_{s}_0x0", Eval("linalg.svd(a)", a=np.zeros((0, 0), dt)))
    add(f"svd_{s}_0x3", Eval("linalg.svd(a, compute_uv=False)", a=np.zeros((2, 0, 3), dt)))
    # rank-deficient: trailing singular values ~0 are not compared; the leading ones are
    r2 = away((6, 2), c) @ away((2, 5), c)
    add(f"svdvals_{s}_rank2", Eval("linalg.svdvals(a)[:2]", rtol=rtol(dt) * 10, a=cast(r2, dt)), numpy2=True)
add("svd_i4", Eval("linalg.svd(a, compute_uv=False)", rtol=1e-9, a=np.array([[3, 0], [4, 5]], "int32")))
add("svd_b1", Eval("linalg.svd(a, compute_uv=False)", rtol=1e-9, a=np.array([[True, False], [True, True]])))

# ================================================================== qr
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    b = bound(dt)
    for batch in BATCHES:
        for (m, n) in [(1, 1), (3, 3), (8, 5), (5, 8), (33, 33)]:
            if batch == (2, 2) and m == 33:
                continue
            tag = f"{s}_{sid(batch)}_{m}x{n}"
            a = cast(svd_input(batch, m, n, c), dt)
            k = min(m, n)
            r = rtol(dt, max(m, n))
            add(f"qr_{tag}_reconstruct", Eval(small("matmul(linalg.qr(a)[0], linalg.qr(a)[1]) - a", "a", b), a=a))
            add(f"qr_{tag}_orthonormal", Eval(orthonormal("linalg.qr(a)[0]", b), a=a, e=np.eye(k)))
            add(f"qr_{tag}_absdiagR", Eval("abs(diagonal(linalg.qr(a)[1], 0, -2, -1))", rtol=r, a=a))
            add(f"qr_{tag}_upper", Eval("equal(linalg.qr(a)[1], triu(linalg.qr(a)[1]))", a=a))
            add(f"qr_{tag}_complete", Eval(small("matmul(linalg.qr(a, mode='complete')[0], "
                                                 "linalg.qr(a, mode='complete')[1]) - a", "a", b), a=a))
            add(f"qr_{tag}_complete_Q", Eval(orthonormal("linalg.qr(a, mode='complete')[0]", b), a=a, e=np.eye(m)))
            add(f"qr_{tag}_r", Eval("abs(diagonal(linalg.qr(a, mode='r'), 0, -2, -1))", rtol=r, a=a))
            if batch != (2, 2):
                add(f"qr_{tag}_raw_tau", Eval("linalg.qr(a, mode='raw')[1]", rtol=r, a=a))
                add(f"qr_{tag}_raw_h", Eval("abs(diagonal(linalg.qr(a, mode='raw')[0], 0, -2, -1))", rtol=r, a=a))
    add(f"qr_{s}_0x0", Eval("linalg.qr(a)", a=np.zeros((0, 0), dt)))
    add(f"qr_{s}_0x3", Eval("linalg.qr(a)", a=np.zeros((0, 3), dt)))
add("qr_bad_mode", Eval("linalg.qr(a, mode='x')", a=np.eye(3)))
add("qr_i4", Eval("abs(linalg.qr(a, mode='r'))", rtol=1e-9, a=np.array([[3, 1], [4, 2]], "int32")))

# ================================================================== lstsq, pinv, matrix_rank
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    for (m, n) in [(1, 1), (5, 5), (9, 4), (40, 33)]:
        tag = f"{s}_{m}x{n}"
        a = svd_input((), m, n, c)
        x = away((n, 2), c)
        q, _ = np.linalg.qr(a, mode="complete")
        z = away((m, 2), c)
        resid = q[:, n:] @ (ct(q[:, n:]) @ z) if m > n else np.zeros((m, 2))
        bb = a @ x + resid
        r = rtol(dt, m) * 10
        for k, what in enumerate(["x", "residuals", "rank", "s"]):
            if what == "residuals" and m == n:
                what_expr = f"linalg.lstsq(a, b)[{k}]"  # empty
            else:
                what_expr = f"linalg.lstsq(a, b)[{k}]"
            add(f"lstsq_{tag}_{what}", Eval(what_expr, rtol=r, a=cast(a, dt), b=cast(bb, dt)))
        add(f"lstsq_{tag}_vector", Eval("linalg.lstsq(a, b)[0]", rtol=r, a=cast(a, dt), b=cast(bb[:, 0], dt)))
        # pinv of a = pinv(M) is M (M of dominant-like entries); the pseudo-inverse of M (n, m) with m >= n
        mm = dominant((), max(m, n), c)[:n, :m] if n <= m else dominant((), max(m, n), c)[:n, :m]
        add(f"pinv_{tag}", Eval("linalg.pinv(a)", rtol=r, a=cast(np.linalg.pinv(mm), dt)))
        add(f"matrix_rank_{tag}", Eval("linalg.matrix_rank(a)", a=cast(a, dt)))
    # rank-deficient
    r2 = away((3, 7, 2), c) @ away((3, 2, 5), c)
    add(f"matrix_rank_{s}_rank2", Eval("linalg.matrix_rank(a)", a=cast(r2, dt)))
    add(f"matrix_rank_{s}_hermitian", Eval("linalg.matrix_rank(a, hermitian=True)",
                                           a=cast(hermitian_with((2,), 5, c), dt)))
    add(f"matrix_rank_{s}_tol", Eval("linalg.matrix_rank(a, tol=2.5)",
                                     a=cast(svd_input((), 6, 6, c), dt)))  # s = 1..6 + u/2: 3 or 4 above 2.5
    add(f"matrix_rank_{s}_rtol", Eval("linalg.matrix_rank(a, rtol=0.4)", a=cast(svd_input((2,), 6, 4, c), dt)),
        numpy2=True)
    add(f"matrix_rank_{s}_zeros", Eval("linalg.matrix_rank(a)", a=np.zeros((2, 3, 3), dt)))
    add(f"matrix_rank_{s}_1d", Eval("linalg.matrix_rank(a)", a=cast(away((4,), c), dt)))
    b_rank, b_residuals = away((7, 1), c), away((7, 1), c)  # drawn for every dtype: later inputs stay put
    if not single(dt):
        # the rank of a rank-2 product: its three other singular values are rounding noise, which
        # float32 / complex64 (rcond = eps * 7 = 8e-7) may put on either side of the cutoff
        # (NumPy 2.5.2 finds rank 5 there): only the double dtypes have a defined answer
        add(f"lstsq_{s}_rank2", Eval("linalg.lstsq(a, b)[2]", a=cast(r2[0], dt), b=cast(b_rank, dt)))
        add(f"lstsq_{s}_rank2_residuals", Eval("linalg.lstsq(a, b)[1]", a=cast(r2[0], dt), b=cast(b_residuals, dt)))
    add(f"lstsq_{s}_rcond", Eval("linalg.lstsq(a, b, rcond=0.4)[2]", a=cast(svd_input((), 6, 4, c), dt),
                                 b=cast(away((6, 1), c), dt)))
    add(f"pinv_{s}_stack", Eval("linalg.pinv(a)", rtol=rtol(dt) * 10,
                                a=cast(np.linalg.inv(dominant((2, 3), 4, c)), dt)))
    add(f"pinv_{s}_hermitian", Eval("linalg.pinv(a, hermitian=True)", rtol=rtol(dt) * 10,
                                    a=cast(np.linalg.inv(dominant_lower((), 4, c) @ ct(dominant_lower((), 4, c))), dt)))
    add(f"pinv_{s}_rtol", Eval("linalg.pinv(a, rtol=1e-3)", rtol=rtol(dt) * 10,
                               a=cast(np.linalg.inv(dominant((), 5, c)), dt)), numpy2=True)
    add(f"pinv_{s}_0x0", Eval("linalg.pinv(a)", a=np.zeros((0, 0), dt)))
add("lstsq_3d", Eval("linalg.lstsq(a, b)", a=np.ones((2, 3, 3)), b=np.ones((3,))))
add("lstsq_mismatch", Eval("linalg.lstsq(a, b)", a=np.ones((4, 3)), b=np.ones((3,))))
add("pinv_both", Eval("linalg.pinv(a, rcond=0.1, rtol=0.1)", a=np.eye(3)), numpy2=True)
add("lstsq_i4", Eval("linalg.lstsq(a, b)[0]", rtol=1e-9, a=np.array([[1, 1], [1, 2], [1, 3]], "int32"),
                     b=np.array([1, 2, 2], "int32")))

# ================================================================== norms, cond
VEC_ORDS = ["None", "1e999", "-1e999", "0", "1", "-1", "2", "-2", "3", "0.5"]
MAT_ORDS = ["None", "'fro'", "'nuc'", "1e999", "-1e999", "1", "-1", "2", "-2"]
for dt in ["float16", "float32", "float64", "complex64", "complex128", "int32", "bool"]:
    s, c = SHORT[dt], is_complex(dt)
    r = 2e-3 if dt == "float16" else rtol(dt, 8) if np.dtype(dt).kind in "fc" else 1e-9
    x = away((3, 4, 5), c)
    if dt == "bool":
        x = x > 0
    elif dt == "int32":
        x = np.round(x * 3)
    xv = cast(x, dt)
    for o in VEC_ORDS:
        oid = o.replace("'", "").replace("-", "m").replace(".", "p")
        add(f"norm_{s}_vec_{oid}", Eval(f"linalg.norm(a, ord={o}, axis=1)" if o != "None" else "linalg.norm(a, axis=-1)",
                                        rtol=r, a=xv))
        if o != "None":
            add(f"vector_norm_{s}_{oid}", Eval(f"linalg.vector_norm(a, ord={o})", rtol=r, a=xv), numpy2=True)
    if dt != "float16":
        for o in MAT_ORDS:
            oid = o.replace("'", "").replace("-", "m").replace(".", "p")
            if o == "None":
                add(f"norm_{s}_mat_default", Eval("linalg.norm(a, axis=(1, 2))", rtol=r, a=xv))
                continue
            add(f"norm_{s}_mat_{oid}", Eval(f"linalg.norm(a, ord={o}, axis=(-1, 0))", rtol=r, a=xv))
            add(f"matrix_norm_{s}_{oid}", Eval(f"linalg.matrix_norm(a, ord={o})", rtol=r, a=xv), numpy2=True)
    add(f"norm_{s}_flat", Eval("linalg.norm(a)", rtol=r, a=xv))
    add(f"norm_{s}_2d_default", Eval("linalg.norm(a)", rtol=r, a=xv[0]))
    add(f"norm_{s}_keepdims", Eval("linalg.norm(a, axis=(0, 2), keepdims=True)", rtol=r, a=xv))
    add(f"vector_norm_{s}_axes", Eval("linalg.vector_norm(a, axis=(0, 2), keepdims=True)", rtol=r, a=xv), numpy2=True)
    add(f"vector_norm_{s}_default", Eval("linalg.vector_norm(a)", rtol=r, a=xv), numpy2=True)
add("norm_empty", Eval("linalg.norm(a)", a=np.zeros((0, 3))))
add("norm_bad_matrix_ord", Eval("linalg.norm(a, ord=3, axis=(0, 1))", a=np.ones((3, 3))))
add("norm_fro_vector", Eval("linalg.norm(a, ord='fro', axis=0)", a=np.ones((3, 3))))
add("norm_three_axes", Eval("linalg.norm(a, axis=(0, 1, 2))", a=np.ones((2, 3, 3))))
add("norm_duplicate_axes", Eval("linalg.norm(a, axis=(1, -1))", a=np.ones((2, 3))))
add("norm_axis_range", Eval("linalg.norm(a, axis=2)", a=np.ones((2, 3))))
add("norm_nan", Eval("linalg.norm(a)", a=with_nan(np.ones((3, 3)), "float64")))
add("matrix_norm_1d", Eval("linalg.matrix_norm(a)", a=np.ones((3,))), numpy2=True)
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    a = cast(dominant((2,), 6, c), dt)
    for p in ["None", "2", "-2", "1", "-1", "1e999", "-1e999", "'fro'", "'nuc'"]:
        pid = p.replace("'", "").replace("-", "m")
        add(f"cond_{s}_{pid}", Eval(f"linalg.cond(a, {p})", rtol=rtol(dt) * 10, a=a))
    add(f"cond_{s}_singular", Eval("linalg.cond(a, 1)", a=zero_row(dominant((), 4, c), dt, 2)))
    add(f"cond_{s}_nan", Eval("linalg.cond(a, 'fro')", a=with_nan(dominant((), 4, c), dt)))
add("cond_empty", Eval("linalg.cond(a)", a=np.zeros((0, 0))))
add("cond_i4", Eval("linalg.cond(a)", rtol=1e-9, a=np.array([[3, 1], [1, 2]], "int32")))

# ================================================================== scipy.linalg: lu, lu_factor, lu_solve, solve_triangular
for dt in FLOATS:
    s, c = SHORT[dt], is_complex(dt)
    for batch in BATCHES:
        for n in SIZES:
            tag = f"{s}_{sid(batch)}_{n}"
            a = cast(lu_input(batch, n, c), dt)
            r = rtol(dt, n) * 5
            add(f"lu_{tag}", Eval("linalg.lu(a)", rtol=r, a=a), numpy2=True)
            add(f"lu_factor_{tag}", Eval("linalg.lu_factor(a)", rtol=r, a=a), numpy2=True)
            x = away(batch + (n, 2), c)
            bb = cast(lu_input(batch, n, c), dt)  # (another matrix: b = bb @ x)
            b_ = cast(bb.astype(np.complex128 if c else np.float64) @ x, dt)
            add(f"lu_solve_{tag}", Eval("linalg.lu_solve(linalg.lu_factor(a), b)", rtol=r, a=bb, b=b_), numpy2=True)
            if n in (3, 33):
                bt = cast(np.swapaxes(bb.astype(np.complex128 if c else np.float64), -1, -2) @ x, dt)
                add(f"lu_solve_{tag}_T", Eval("linalg.lu_solve(linalg.lu_factor(a), b, trans=1)", rtol=r, a=bb, b=bt),
                    numpy2=True)
                bh = cast(ct(bb.astype(np.complex128 if c else np.float64)) @ x, dt)
                add(f"lu_solve_{tag}_H", Eval("linalg.lu_solve(linalg.lu_factor(a), b, trans=2)", rtol=r, a=bb, b=bh),
                    numpy2=True)
    a = cast(lu_input((), 5, c), dt)
    add(f"lu_{s}_permute_l", Eval("linalg.lu(a, permute_l=True)", rtol=rtol(dt) * 5, a=a), numpy2=True)
    add(f"lu_{s}_p_indices", Eval("linalg.lu(a, p_indices=True)", rtol=rtol(dt) * 5, a=a), numpy2=True)
    # rectangular: tall (Pi L U)[:, :4]; wide Pi L U with U upper trapezoidal (4, 6)
    add(f"lu_{s}_6x4", Eval("linalg.lu(a)", rtol=rtol(dt) * 5, a=cast(lu_input((), 6, c)[:, :4], dt)), numpy2=True)
    l4 = np.tril(away((4, 4), c) / 2.5, -1) + np.eye(4)
    u46 = np.triu(dominant((), 6, c, positive_diagonal=False)[:4, :])
    add(f"lu_{s}_4x6", Eval("linalg.lu(a)", rtol=rtol(dt) * 5, a=cast((l4 @ u46)[RNG.permutation(4)], dt)),
        numpy2=True)
    # solve_triangular: the other triangle holds garbage
    for lower in (False, True):
        for trans in (0, 1, 2):
            for unit in (False, True):
                n = 7
                t = dominant_lower((2,), n, c, unit=unit)
                t = t if lower else ct(t)
                full = t + (np.triu(away((2, n, n), c), 1) if lower else np.tril(away((2, n, n), c), -1))
                if unit:
                    full[..., np.arange(n), np.arange(n)] = 5.0  # ignored
                op = t if trans == 0 else np.swapaxes(t, -1, -2) if trans == 1 else ct(t)
                x = away((2, n, 3), c)
                add(f"solve_triangular_{s}_{'L' if lower else 'U'}{trans}{'u' if unit else ''}",
                    Eval(f"linalg.solve_triangular(a, b, trans={trans}, lower={lower}, unit_diagonal={unit})",
                         rtol=rtol(dt) * 5, a=cast(full, dt), b=cast(op @ x, dt)), numpy2=True)
    add(f"solve_triangular_{s}_vector", Eval("linalg.solve_triangular(a, b, lower=True)", rtol=rtol(dt) * 5,
                                             a=cast(dominant_lower((), 4, c), dt),
                                             b=cast(dominant_lower((), 4, c) @ away((4,), c), dt)), numpy2=True)
    add(f"lu_{s}_0x0", Eval("linalg.lu(a)", a=np.zeros((0, 0), dt)), numpy2=True)
add("solve_triangular_singular", Eval("linalg.solve_triangular(a, b)", a=np.triu(np.ones((3, 3))) - np.diag([0, 1, 0]),
                                      b=np.ones((3,))), numpy2=True)
add("lu_factor_rect", Eval("linalg.lu_factor(a)", a=np.ones((3, 4))), numpy2=True)
add("lu_i4", Eval("linalg.lu(a)", rtol=1e-9, a=np.array([[1, 2], [3, 4]], "int32")), numpy2=True)

# Without SciPy (a NumPy 2 machine that lacks it) the SciPy cases are left out, and said so.
SCIPY_ROUTINES = ("lu", "lu_factor", "lu_solve", "cho_factor", "cho_solve", "solve_triangular")
if routine_ref.NUMPY2:
    try:
        _scipy()
    except ImportError as _e:
        _gone = [k for k, v in EVAL_CASES.items() if any(f"linalg.{r}(" in v.expr for r in SCIPY_ROUTINES)]
        for _k in _gone:
            del EVAL_CASES[_k]
            NUMPY2_ONLY.discard(_k)
        print(f"make_linalg_solvers_ref.py: SciPy is not available ({_e}); {len(_gone)} scipy.linalg cases left out",
              file=sys.stderr)

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES, NUMPY2_ONLY))
