#!/usr/bin/env python3
"""SciPy's answers for cupp::sparse (tests/gpu/sparse/test_sparse_ref_gpu.cpp reads them).

make_sparse_ref.py OUT      writes OUT/manifest.json, OUT/cases/<case>.npz (plain NumPy arrays:
                            a case's inputs and scipy.sparse's results) and OUT/scipy_written/
                            <name>.npz (scipy.sparse.save_npz files, for cupp's load_npz).
make_sparse_ref.py --check DIR
                            reads every DIR/<name>.npz that cupp's save_npz wrote (next to
                            <name>.dense.npy, cupp's toarray()) with scipy.sparse.load_npz and
                            checks format, matrix/array kind, dtype and values; exit 1 on a
                            mismatch.

Each case is a COO triplet set made to hold what the formats must get right: duplicates,
explicit zeros, unsorted order, empty rows and columns, 0xN shapes. Exits 0 with a message when
SciPy is absent (the GPU tests then skip).
"""
import json
import os
import sys
import warnings

try:
    import numpy as np
    import scipy
    import scipy.sparse as sp
except ImportError as e:  # pragma: no cover
    print(f"make_sparse_ref.py: SciPy is not available ({e}); no sparse reference set written")
    sys.exit(0)

PROBLEMS = []  # what SciPy refused while the set was made (kept in the manifest; the rest is still written)


def attempt(label, fn):
    """fn(); a failure is recorded and the set goes on (a key it would have written is missing,
    and the C++ test reports the missing key for that case only)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001
        PROBLEMS.append(f"{label}: {type(e).__name__}: {e}")
        print(f"make_sparse_ref.py: WARNING {label}: {type(e).__name__}: {e}")


DTYPES = ["float32", "float64", "complex64", "complex128", "bool", "int8", "int32", "int64", "uint16"]
PRODUCT_DTYPES = set(DTYPES)  # bool and integer products too (cupp's own kernels; SciPy's loops wrap alike)
SHAPES = {"7x5": (7, 5), "30x40": (30, 40), "0x4": (0, 4), "4x0": (4, 0), "1x1": (1, 1), "6x6": (6, 6)}


def values(rng, dtype, n):
    if dtype == "bool":
        return rng.integers(0, 2, n).astype(bool)
    if dtype.startswith("complex"):
        v = rng.integers(-3, 4, n) + 1j * rng.integers(-3, 4, n)
        return v.astype(dtype)
    if dtype.startswith("float"):
        return (rng.integers(-4, 5, n) * 0.5).astype(dtype)
    if dtype.startswith("uint"):
        return rng.integers(0, 5, n).astype(dtype)
    return rng.integers(-4, 5, n).astype(dtype)


def triplets(rng, shape, dtype):
    m, n = shape
    if m == 0 or n == 0:
        return (np.zeros(0, dtype), np.zeros(0, np.int32), np.zeros(0, np.int32))
    nnz = max(1, (m * n) // 3)
    # rows avoid the last row and column 1 stays empty where there is room (empty rows/columns)
    rows = rng.integers(0, max(1, m - 1), nnz)
    cols = rng.integers(0, n, nnz)
    if n > 2:
        cols[cols == 1] = 0
    # duplicates: repeat a few entries; explicit zeros: zero a few values
    rows = np.concatenate([rows, rows[:3]])
    cols = np.concatenate([cols, cols[:3]])
    data = values(rng, dtype, rows.size)
    data[rng.integers(0, data.size, 2)] = 0
    order = rng.permutation(rows.size)  # any order
    return data[order], rows[order].astype(np.int32), cols[order].astype(np.int32)


def case_arrays(rng, shape, dtype):
    data, row, col = triplets(rng, shape, dtype)
    m, n = shape
    out = {"shape": np.array(shape, np.int64), "data": data, "row": row, "col": col}
    A = sp.coo_array((data, (row, col)), shape=shape)
    out["dense"] = A.toarray()
    # an unsorted CSR with duplicates and explicit zeros: rows in order, columns within rows not
    order = np.argsort(row, kind="stable")
    out["u_data"], out["u_indices"] = data[order], col[order]
    out["u_indptr"] = np.concatenate([[0], np.cumsum(np.bincount(row, minlength=m))]).astype(np.int32)
    # SciPy's constructor keeps the arrays it is given (copy=False) and several of its methods
    # rewrite them in place (count_nonzero sums duplicates since 1.18): U gets copies, so the arrays
    # written to the case stay the unsorted ones its flags describe
    U = sp.csr_array((out["u_data"].copy(), out["u_indices"].copy(), out["u_indptr"].copy()), shape=shape)
    out["u_canonical"] = np.array(U.has_canonical_format)
    out["u_sorted"] = np.array(U.has_sorted_indices)
    C = A.tocsr()
    out["csr_data"], out["csr_indices"], out["csr_indptr"] = C.data.copy(), C.indices.copy(), C.indptr.copy()
    K = A.tocsc()
    out["csc_data"], out["csc_indices"], out["csc_indptr"] = K.data.copy(), K.indices.copy(), K.indptr.copy()
    S = U.copy()
    S.sum_duplicates()
    out["sum_data"], out["sum_indices"], out["sum_indptr"] = S.data, S.indices, S.indptr
    E = U.copy()
    E.eliminate_zeros()
    out["elim_nnz"] = np.array(E.nnz, np.int64)
    out["elim_dense"] = E.toarray()
    # each method on its own copy of the unsorted input: SciPy's count_nonzero, astype and others
    # sum duplicates in place, and for bool values the order matters (duplicates OR-ed as bool,
    # or added after a cast)
    out["count_nonzero"] = np.array(U.copy().count_nonzero(), np.int64)
    for k in (-1, 0, 2):
        out[f"diag_{'m' if k < 0 else ''}{abs(k)}"] = U.copy().diagonal(k)
    out["transpose"] = U.copy().T.toarray()
    out["conj"] = U.copy().conj().toarray()
    out["astype_c128"] = U.copy().astype(np.complex128).toarray()
    out["dense_csr_nnz"] = np.array(sp.csr_array(out["dense"]).nnz, np.int64)
    # arithmetic, comparisons and reductions on the canonical U (SciPy itself treats duplicates of
    # bool values differently from one operation to the next: sum dedups as bool first, sum along
    # an axis multiplies by ones and counts each; the C++ test sums duplicates first too)
    U.sum_duplicates()
    # arithmetic: a second matrix V of the shape and dtype (canonical CSR arrays), sums and means
    def arithmetic():
        vd, vr, vc = triplets(rng, shape, dtype)
        V = sp.csr_array(sp.coo_array((vd, (vr, vc)), shape=shape))
        out["v_data"], out["v_indices"], out["v_indptr"] = V.data.copy(), V.indices.copy(), V.indptr.copy()
        out["sum_all"] = np.asarray(U.sum())
        for axis in (0, 1):
            out[f"sum_{axis}"] = np.asarray(U.sum(axis=axis))
            if m > 0 and n > 0:
                out[f"mean_{axis}"] = np.asarray(U.mean(axis=axis))
        if m > 0 and n > 0:
            out["mean_all"] = np.asarray(U.mean())
        P = U + V
        out["plus"], out["plus_nnz"] = P.toarray(), np.array(P.nnz, np.int64)
        E = U.multiply(V)
        out["emul"], out["emul_nnz"] = E.toarray(), np.array(E.nnz, np.int64)
        if dtype != "bool":
            out["minus"] = (U - V).toarray()
            out["neg"] = (-U).toarray()
            out["scaled"] = (U * 3).toarray()
            out["abs"] = abs(U).toarray()
            out["power2"] = U.power(2).toarray()
        if dtype.startswith("float") or dtype.startswith("complex"):
            out["sin"] = U.sin().toarray()

    attempt(f"{dtype} {shape} arithmetic", arithmetic)

    def compare_and_extremes():
        # comparisons with a second matrix and with scalars, maximum/minimum, max/min/argmax/argmin
        if "v_data" not in out:
            return
        V = sp.csr_array((out["v_data"].copy(), out["v_indices"].copy(), out["v_indptr"].copy()), shape=shape)
        ops = {"eq": "__eq__", "ne": "__ne__", "lt": "__lt__", "le": "__le__", "gt": "__gt__", "ge": "__ge__"}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SparseEfficiencyWarning of the dense-sized results
            for tag, meth in ops.items():
                out[f"cmp_{tag}"] = getattr(U, meth)(V).toarray()
                for sv in (0, 1):
                    out[f"cmp_{tag}_s{sv}"] = getattr(U, meth)(sv).toarray()
            out["maximum"] = U.maximum(V).toarray()
            out["minimum"] = U.minimum(V).toarray()
            scalars = (1,) if dtype in ("bool", "uint16") else (1, -1)
            for sv in scalars:
                tag = f"{'m' if sv < 0 else ''}{abs(sv)}"
                out[f"maximum_s{tag}"] = U.maximum(sv).toarray()
                out[f"minimum_s{tag}"] = U.minimum(sv).toarray()
        if m > 0 and n > 0:
            for name in ("max", "min", "argmax", "argmin"):
                out[f"{name}_all"] = np.asarray(getattr(U, name)())
                for axis in (0, 1):
                    r = getattr(U, name)(axis=axis)
                    out[f"{name}_{axis}"] = r.toarray() if sp.issparse(r) else np.asarray(r)

    attempt(f"{dtype} {shape} comparisons", compare_and_extremes)

    def setdiag_and_select():
        def fresh():  # the unsorted input again (U itself was made canonical by count_nonzero)
            return sp.csr_array((out["u_data"].copy(), out["u_indices"].copy(), out["u_indptr"].copy()), shape=shape)
        if m > 0 and n > 0:
            L = min(m, n)
            S = fresh()
            diag = values(rng, dtype, L)
            S.setdiag(diag)
            out["setdiag_values"], out["setdiag_0"] = diag, S.toarray()
            if n > 1:
                S = fresh()
                S.setdiag(True if dtype == "bool" else 2, k=1)
                out["setdiag_s1"] = S.toarray()
            if m > 1:
                S = fresh()
                S.setdiag(diag[:1], k=-1)
                out["setdiag_m1"] = S.toarray()
        if m > 0:
            out["sel_rows_idx"] = np.array([m - 1, 0, 0, -1], np.int64)
            out["sel_rows"] = fresh()[out["sel_rows_idx"]].toarray()
            out["sel_rows_slice"] = fresh()[1::2].toarray()
            out["sel_row_neg"] = fresh()[[-1]].toarray()
        if n > 0:
            out["sel_cols_idx"] = np.array([n - 1, 0, 0], np.int64)
            out["sel_cols"] = fresh()[:, out["sel_cols_idx"]].toarray()
            out["sel_cols_slice"] = fresh()[:, ::-1].toarray()
        if m > 0 and n > 0:
            out["sel_both"] = fresh()[1::2, out["sel_cols_idx"]].toarray()
            # point-wise pairs A[rows, cols] (negatives wrap; duplicates summed): a 1-D ndarray
            out["pts_r"] = np.array([m - 1, 0, -1, 0, m // 2], np.int64)
            out["pts_c"] = np.array([0, n - 1, 0, -n, n // 2], np.int64)
            out["sel_points"] = np.asarray(fresh()[out["pts_r"], out["pts_c"]])

    attempt(f"{dtype} {shape} setdiag and selection", setdiag_and_select)

    def dia():
        D = sp.csr_array((out["u_data"].copy(), out["u_indices"].copy(), out["u_indptr"].copy()), shape=shape).todia()
        out["dia_data"], out["dia_offsets"] = D.data.copy(), D.offsets.astype(np.int64)
        out["dia_nnz"] = np.array(D.nnz, np.int64)

    attempt(f"{dtype} {shape} dia", dia)

    def products():
        if dtype in PRODUCT_DTYPES:
            x = values(rng, dtype, n)
            B = values(rng, dtype, n * 3).reshape(n, 3)
            out["x"], out["Ax"] = x, U @ x
            out["B"], out["AB"] = B, U @ B
            out["AAt"] = (U @ U.T).toarray()
            out["AAt_nnz_max"] = np.array((U @ U.T).nnz, np.int64)
            # dense @ sparse
            y = values(rng, dtype, m)
            C = values(rng, dtype, 3 * m).reshape(3, m)
            out["y"], out["yA"] = y, y @ U
            out["C"], out["CA"] = C, C @ U

    attempt(f"{dtype} {shape} products", products)
    return out


def constructor_cases():
    cases = {}
    for m, n, k in [(4, 4, 0), (3, 5, 1), (5, 3, -2), (4, 4, 4), (3, 5, -3), (0, 3, 0)]:
        e = sp.eye_array(m, n, k=k, format="csr") if hasattr(sp, "eye_array") else sp.eye(m, n, k, format="csr")
        cases[f"eye_{m}_{n}_{k}"] = {"dense": e.toarray(), "m": np.array(m),
                                    "n": np.array(n), "k": np.array(k)}
    d = {"d0": np.array([1.0, 2.0, 0.0, 4.0]), "d1": np.array([5.0, 6.0, 7.0]), "dm": np.array([3.0])}
    diags = getattr(sp, "diags_array", None) or sp.diags
    D = diags([d["d0"], d["d1"], d["dm"]], offsets=[0, 1, -1]).tocsr()
    D.eliminate_zeros()  # SciPy's dia -> csr drops zeros already; stated for older versions
    cases["diags_main_up_down"] = dict(d, dense=D.toarray(), nnz=np.array(D.nnz, np.int64))
    return cases


def stack_cases(rng):
    """vstack, hstack, block_diag, kron, tril and triu of CSR operands (with duplicates summed)."""
    def csr(shape, dtype, prefix, out):
        data, row, col = triplets(rng, shape, dtype)
        m = sp.csr_array(sp.coo_array((data, (row, col)), shape=shape))
        out[prefix + "data"], out[prefix + "indices"], out[prefix + "indptr"] = m.data.copy(), m.indices.copy(), m.indptr.copy()
        out[prefix + "shape"] = np.array(shape, np.int64)
        return m
    out = {}
    a = csr((4, 3), "float64", "a_", out)
    b = csr((2, 3), "float32", "b_", out)
    c = csr((4, 2), "complex64", "c_", out)
    z = csr((0, 3), "float64", "z_", out)
    out["vstack"] = sp.vstack([a, z, b]).toarray()
    out["hstack"] = sp.hstack([a, c]).toarray()
    out["block_diag"] = sp.block_diag([a, b, c]).toarray()
    out["kron"] = sp.kron(a, c).toarray()
    for k in (-1, 0, 1):
        name = f"{'m' if k < 0 else ''}{abs(k)}"
        out["tril_" + name] = sp.tril(a, k).toarray()
        out["triu_" + name] = sp.triu(a, k).toarray()
    return {"stack_1": out}


def write(out_dir):
    rng = np.random.default_rng(20261203)
    os.makedirs(os.path.join(out_dir, "cases"), exist_ok=True)
    os.makedirs(os.path.join(out_dir, "scipy_written"), exist_ok=True)
    names = []
    for dtype in DTYPES:
        for sname, shape in SHAPES.items():
            name = f"{dtype}_{sname}"
            def one(name=name, shape=shape, dtype=dtype):
                np.savez(os.path.join(out_dir, "cases", name + ".npz"), **case_arrays(rng, shape, dtype))
                names.append(name)
            attempt(name, one)
    ctor = []
    ctor_sets = []
    attempt("constructors", lambda: ctor_sets.append(constructor_cases()))
    attempt("stacks", lambda: ctor_sets.append(stack_cases(rng)))
    for cases in ctor_sets:
        for name, arrays in cases.items():
            np.savez(os.path.join(out_dir, "cases", name + ".npz"), **arrays)
            ctor.append(name)
    written = []
    for fmt in ("csr", "csc", "coo", "dia"):
        for cls in ("matrix", "array"):
            for dtype in ("float32", "complex128", "int64", "bool"):
                data, row, col = triplets(rng, (6, 5), dtype)
                A = getattr(sp, f"coo_{cls}")((data, (row, col)), shape=(6, 5)).asformat(fmt)
                name = f"{fmt}_{cls}_{dtype}"

                def save(name=name, A=A, dtype=dtype):
                    sp.save_npz(os.path.join(out_dir, "scipy_written", name + ".npz"), A, compressed=(dtype != "bool"))
                    np.save(os.path.join(out_dir, "scipy_written", name + ".dense.npy"), A.toarray())
                    written.append(name)
                attempt(name, save)
    manifest = {"scipy": scipy.__version__, "numpy": np.__version__, "cases": names, "constructors": ctor,
                "scipy_written": written, "problems": PROBLEMS}
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"make_sparse_ref.py: {len(names)} cases, {len(ctor)} constructor cases, {len(written)} SciPy files "
          f"(SciPy {scipy.__version__}) in {out_dir}; {len(PROBLEMS)} problem(s)")


def check(dir_):
    bad = 0
    files = sorted(f for f in os.listdir(dir_) if f.endswith(".npz"))
    for f in files:
        name = f[:-4]
        fmt, cls, dtype = name.split("_", 2)
        try:
            A = sp.load_npz(os.path.join(dir_, f))
            dense = np.load(os.path.join(dir_, name + ".dense.npy"))
            problems = []
            if A.format != fmt:
                problems.append(f"format {A.format}")
            if isinstance(A, sp.sparray) != (cls == "array"):
                problems.append(f"kind {type(A).__name__}")
            if A.dtype != np.dtype(dtype):
                problems.append(f"dtype {A.dtype}")
            if not np.array_equal(A.toarray(), dense):
                problems.append("values differ")
        except Exception as e:  # noqa: BLE001 (report every failure)
            problems = [f"{type(e).__name__}: {e}"]
        if problems:
            bad += 1
            print(f"FAIL {f}: {', '.join(problems)}")
    print(f"make_sparse_ref.py --check: {len(files) - bad}/{len(files)} cupp-written files read back by SciPy "
          f"{scipy.__version__}")
    return 1 if bad or not files else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(check(sys.argv[2]))
    if len(sys.argv) != 2:
        print(__doc__)
        sys.exit(2)
    write(sys.argv[1])
