#!/usr/bin/env python3
"""NumPy reference data for the matrix products in namespace cupp (specs/routines/products.yaml,
the linalg module): matmul (and `@`), dot, vdot, inner, outer, tensordot, kron, vecdot, matvec,
vecmat and cross, run by tests/gpu/test_eval_ref_gpu.cpp through cupp eval's engine.

    python3 make_products_ref.py OUT_DIR

writes OUT_DIR/eval/<case>/... and the manifests (routine_ref.py's format). Cases: every dtype,
mixed dtype pairs (NEP 50 results), batched and broadcast shapes, 1-D promotion, transposed,
strided and reversed views, empty dimensions, dtype=/casting=, integer wrapping, and NumPy's
errors. Integer and bool results are exact; the V() values make float sums exact in any order,
and the `_k<K>` cases (values that round) state their tolerance per dtype and K: float16 2e-3
(the default: NumPy and cuBLAS both accumulate half products in float32), float32 and complex64
4 K 2^-24, float64 and complex128 4 K 2^-53, over positive terms (no cancellation).
Cases of NumPy 2's names (matrix_transpose, vecdot, matvec, vecmat) are written without a result
under NumPy 1.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, SHORT, Eval, V

NUMERIC = [d for d in DTYPES if d != "bool"]


def W(shape, dt):
    """Values that make integer products wrap: the dtype's whole range, scrambled."""
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    info = np.iinfo(dt)
    span = min(int(info.max) - int(info.min) + 1, 1 << 62)
    v = (i * 2654435761 + 12345) % span + max(int(info.min), -(1 << 61))
    return v.astype(dt).reshape(shape)


EVAL_CASES = {}
for _dt in DTYPES:
    _s = SHORT[_dt]
    EVAL_CASES.update({
        f"matmul_{_s}": Eval("matmul(a, b)", a=V((3, 4), _dt), b=V((4, 5), _dt)),
        f"matmul_{_s}_at": Eval("a @ b", a=V((6, 7), _dt), b=V((7, 3), _dt)),
        f"matmul_{_s}_batch": Eval("matmul(a, b)", a=V((2, 3, 4), _dt), b=V((2, 4, 5), _dt)),
        f"matmul_{_s}_bcast": Eval("matmul(a, b)", a=V((2, 1, 3, 4), _dt), b=V((3, 4, 2), _dt)),
        f"matmul_{_s}_stack_one": Eval("matmul(a, b)", a=V((5, 3, 4), _dt), b=V((4, 6), _dt)),
        f"matmul_{_s}_1d_left": Eval("matmul(a, b)", a=V((4,), _dt), b=V((2, 4, 3), _dt)),
        f"matmul_{_s}_1d_right": Eval("matmul(a, b)", a=V((2, 3, 4), _dt), b=V((4,), _dt)),
        f"matmul_{_s}_1d_both": Eval("matmul(a, b)", a=V((7,), _dt), b=V((7,), _dt)),
        f"matmul_{_s}_T": Eval("matrix_transpose(a) @ b", a=V((4, 3), _dt), b=V((4, 5), _dt)),
        f"matmul_{_s}_TT": Eval("matrix_transpose(a) @ matrix_transpose(b)", a=V((2, 4, 3), _dt), b=V((2, 5, 4), _dt)),
        f"matmul_{_s}_neg": Eval("matmul(a[::-1], b[:, ::-1])", a=V((3, 4), _dt), b=V((4, 5), _dt)),
        f"matmul_{_s}_strided": Eval("matmul(a[::2, ::3], b[1::2])", a=V((6, 12), _dt), b=V((8, 3), _dt)),
        f"matmul_{_s}_batch_strided": Eval("matmul(a[::2], b)", a=V((6, 3, 4), _dt), b=V((3, 4, 2), _dt)),
        f"matmul_{_s}_empty_k": Eval("matmul(a, b)", a=V((3, 0), _dt), b=V((0, 4), _dt)),
        f"matmul_{_s}_empty_n": Eval("matmul(a, b)", a=V((2, 0, 3), _dt), b=V((3, 4), _dt)),
        f"dot_{_s}": Eval("dot(a, b)", a=V((3, 4), _dt), b=V((4, 2), _dt)),
        f"dot_{_s}_nd": Eval("dot(a, b)", a=V((2, 3, 4), _dt), b=V((3, 4, 2), _dt)),
        f"dot_{_s}_vec": Eval("dot(a, b)", a=V((2, 3, 4), _dt), b=V((4,), _dt)),
        f"dot_{_s}_scalar": Eval("dot(a, b)", a=V((), _dt), b=V((3, 2), _dt)),
        f"vdot_{_s}": Eval("vdot(a, b)", a=V((3, 4), _dt), b=V((12,), _dt)),
        f"inner_{_s}": Eval("inner(a, b)", a=V((2, 3, 4), _dt), b=V((5, 4), _dt)),
        f"outer_{_s}": Eval("outer(a, b)", a=V((2, 3), _dt), b=V((4,), _dt)),
        f"tensordot_{_s}": Eval("tensordot(a, b)", a=V((2, 3, 4), _dt), b=V((3, 4, 5), _dt)),
        f"tensordot_{_s}_1": Eval("tensordot(a, b, 1)", a=V((2, 3, 4), _dt), b=V((4, 5), _dt)),
        f"tensordot_{_s}_0": Eval("tensordot(a, b, axes=0)", a=V((2, 3), _dt), b=V((4,), _dt)),
        f"kron_{_s}": Eval("kron(a, b)", a=V((2, 3), _dt), b=V((3, 2), _dt)),
        f"kron_{_s}_nd": Eval("kron(a, b)", a=V((2,), _dt), b=V((2, 2, 3), _dt)),
        f"vecdot_{_s}": Eval("vecdot(a, b)", a=V((2, 3, 4), _dt), b=V((3, 4), _dt)),
        f"vecdot_{_s}_axis": Eval("vecdot(a, b, axis=0)", a=V((4, 3), _dt), b=V((4, 1), _dt)),
        f"matvec_{_s}": Eval("matvec(a, b)", a=V((2, 3, 4), _dt), b=V((4,), _dt)),
        f"vecmat_{_s}": Eval("vecmat(a, b)", a=V((2, 3), _dt), b=V((2, 3, 4), _dt)),
        f"cross_{_s}": Eval("cross(a, b)", a=V((4, 3), _dt), b=V((4, 3), _dt)),
        f"cross_{_s}_axis": Eval("cross(a, b, axisa=0, axisb=1, axisc=0)", a=V((3, 5), _dt), b=V((5, 3), _dt)),
        f"cross_{_s}_bcast": Eval("cross(a, b)", a=V((4, 1, 3), _dt), b=V((5, 3), _dt)),
    })

# Integers wrap as NumPy's matmul does (int8 through cuBLAS's int32 path; the rest a kernel).
for _dt in ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]:
    _s = SHORT[_dt]
    EVAL_CASES.update({
        f"matmul_{_s}_wraps": Eval("matmul(a, b)", a=W((16, 64), _dt), b=W((64, 8), _dt)[::-1]),
        f"matmul_{_s}_wraps_k4096": Eval("matmul(a, b)", a=W((4, 4096), _dt), b=W((4096, 4), _dt)),
        f"matmul_{_s}_wraps_batch_T": Eval("matrix_transpose(a) @ b", a=W((3, 37, 5), _dt), b=W((3, 37, 6), _dt)),
        f"dot_{_s}_wraps": Eval("dot(a, b)", a=W((40,), _dt), b=W((40,), _dt)),
    })

# Floats that round: the tolerance per dtype and K (the docstring's rule).
_EPS = {"float16": None, "float32": 2.0 ** -24, "float64": 2.0 ** -53, "complex64": 2.0 ** -24,
        "complex128": 2.0 ** -53}
for _dt, _eps in _EPS.items():
    _s = SHORT[_dt]
    for _k in (64, 1024):
        _rtol = None if _eps is None else max(2e-6 if _eps > 1e-10 else 1e-12, 4 * _k * _eps)
        if _dt.startswith("complex"):
            _x = "(abs(real(a)) / 3 + 1 + 1j * (abs(imag(a)) / 50))"
            _y = "(abs(real(b)) / 7 + 1 + 1j * (abs(imag(b)) / 50))"
        else:
            _x, _y = "(abs(a) / 3 + 1)", "(abs(b) / 7 + 1)"
        EVAL_CASES[f"matmul_{_s}_k{_k}"] = Eval(f"matmul({_x}, {_y})", rtol=_rtol, a=V((9, _k), _dt), b=V((_k, 5), _dt))
        EVAL_CASES[f"matmul_{_s}_k{_k}_T"] = Eval(f"matrix_transpose({_x}) @ {_y}", rtol=_rtol, a=V((_k, 9), _dt),
                                                  b=V((_k, 5), _dt))

# Every pair of distinct dtypes through matmul (NEP 50's result_type, then one product).
for _i, _x in enumerate(DTYPES):
    for _y in DTYPES[_i + 1:]:
        EVAL_CASES[f"matmul_pair_{SHORT[_x]}_{SHORT[_y]}"] = Eval("matmul(a, b)", a=V((2, 3), _x), b=V((3, 2), _y))

# Mixed dtypes: NEP 50 promotion first.
for _x, _y in [("int8", "uint8"), ("int32", "float32"), ("float16", "float32"), ("int64", "uint64"),
               ("bool", "int8"), ("float32", "complex64"), ("float64", "complex64"), ("uint8", "float16"),
               ("int16", "float16"), ("int8", "int64"), ("bool", "float64"), ("uint16", "int32")]:
    EVAL_CASES[f"matmul_{SHORT[_x]}_{SHORT[_y]}"] = Eval("matmul(a, b)", a=V((3, 4), _x), b=V((2, 4, 5), _y))
    EVAL_CASES[f"dot_{SHORT[_x]}_{SHORT[_y]}"] = Eval("dot(a, b)", a=V((3, 4), _x), b=V((4,), _y))

EVAL_CASES.update({
    # keywords
    "matmul_dtype_f4": Eval("matmul(a, b, dtype='float32')", a=V((3, 4), "int16"), b=V((4, 2), "int8")),
    "matmul_dtype_c16": Eval("matmul(a, b, dtype='complex128')", a=V((3, 4), "float32"), b=V((4, 2), "float32")),
    "matmul_dtype_i4_same_kind": Eval("matmul(a, b, dtype='int32')", a=V((3, 4), "float64"), b=V((4, 2), "float64")),
    "matmul_dtype_i4_unsafe": Eval("matmul(a, b, dtype='int32', casting='unsafe')", a=V((3, 4), "float64"),
                                   b=V((4, 2), "float64")),
    "matmul_casting_no": Eval("matmul(a, b, casting='no')", a=V((3, 4), "int8"), b=V((4, 2), "int16")),
    "matmul_casting_no_ok": Eval("matmul(a, b, casting='no')", a=V((3, 4), "int16"), b=V((4, 2), "int16")),
    "matvec_batch": Eval("matvec(a, b)", a=V((2, 1, 3, 4), "float64"), b=V((5, 4), "float64")),
    "vecmat_c16_conj": Eval("vecmat(a, b)", a=V((3,), "complex128"), b=V((3, 4), "complex128")),
    "vecdot_c8_conj": Eval("vecdot(a, b)", a=V((5, 3), "complex64"), b=V((3,), "complex64")),
    "vdot_c16_conj": Eval("vdot(a, b)", a=V((2, 3), "complex128"), b=V((3, 2), "complex128")),
    "cross_i1_wraps": Eval("cross(a, b)", a=W((5, 3), "int8"), b=W((5, 3), "int8")[::-1]),
    "cross_2_2": Eval("cross(a, b)", a=V((3, 2), "float64"), b=V((3, 2), "float64")),  # ValueError in NumPy 2.5
    "cross_2_3": Eval("cross(a, b)", a=V((4, 2), "float64"), b=V((1, 3), "float64")),  # ValueError in NumPy 2.5
    "cross_axis": Eval("cross(a, b, axis=0)", a=V((3, 4), "float32"), b=V((3, 4), "float32")),
    "kron_0d": Eval("kron(a, b)", a=V((), "float64"), b=V((2, 3), "int32")),
    "inner_0d": Eval("inner(a, b)", a=V((), "int16"), b=V((2, 3), "int16")),
    "outer_empty": Eval("outer(a, b)", a=V((0,), "float64"), b=V((3,), "float64")),
    "tensordot_empty": Eval("tensordot(a, b, 1)", a=V((2, 0), "float32"), b=V((0, 3), "float32")),
    # errors
    "matmul_0d": Eval("matmul(a, b)", a=V((), "float64"), b=V((3,), "float64")),  # ValueError
    "matmul_mismatch": Eval("matmul(a, b)", a=V((2, 3), "float64"), b=V((4, 2), "float64")),  # ValueError
    "matmul_mismatch_1d": Eval("a @ b", a=V((2, 3), "float64"), b=V((4,), "float64")),  # ValueError
    "matmul_batch_mismatch": Eval("matmul(a, b)", a=V((2, 2, 3), "float64"), b=V((3, 3, 2), "float64")),
    "matvec_mismatch": Eval("matvec(a, b)", a=V((2, 3), "float64"), b=V((4,), "float64")),
    "vecmat_1d_matrix": Eval("vecmat(a, b)", a=V((3,), "float64"), b=V((3,), "float64")),
    "vecdot_mismatch": Eval("vecdot(a, b)", a=V((2, 3), "float64"), b=V((2, 4), "float64")),
    "dot_not_aligned": Eval("dot(a, b)", a=V((2, 3), "float64"), b=V((2, 3), "float64")),
    "vdot_lengths": Eval("vdot(a, b)", a=V((2, 3), "float64"), b=V((5,), "float64")),
    "inner_not_aligned": Eval("inner(a, b)", a=V((2, 3), "float64"), b=V((3, 2), "float64")),
    "tensordot_mismatch": Eval("tensordot(a, b, 1)", a=V((2, 3), "float64"), b=V((2, 3), "float64")),
    "cross_bad_dim": Eval("cross(a, b)", a=V((4,), "float64"), b=V((3,), "float64")),
    "cross_bool": Eval("cross(a, b)", a=V((3,), "bool"), b=V((3,), "bool")),  # TypeError (boolean subtract)
    "cross_bad_axisc": Eval("cross(a, b, axisc=2)", a=V((2, 3), "float64"), b=V((2, 3), "float64")),  # AxisError
})
# einsum: every kind of subscript in every dtype, the optimize= orders, dtype=/casting=, errors.
EINSUM = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ij,jk", [(3, 4), (4, 5)]), ("ii->i", [(4, 4)]), ("ii", [(4, 4)]),
          ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij->j", [(3, 4)]), ("i,j->ij", [(3,), (4,)]),
          ("i,i->", [(5,), (5,)]), ("i,i->i", [(5,), (5,)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
          ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]), ("...ii->...i", [(2, 3, 3)]),
          ("ijkl,jlm->ikm", [(2, 3, 4, 5), (3, 5, 6)]), ("iij->j", [(3, 3, 4)]), ("ij,kj->ik", [(3, 4), (5, 4)]),
          ("ii,i->i", [(3, 3), (3,)]), ("Ab,bC->AC", [(2, 3), (3, 4)]), ("ij,j->i", [(3, 1), (4,)]),
          ("ijj,jk->ik", [(2, 3, 3), (3, 4)]), ("i...->...", [(3, 2, 2)]), ("ij,jk->ik", [(2, 0), (0, 3)])]
for _dt in DTYPES:
    _s = SHORT[_dt]
    for _k, (_sub, _shapes) in enumerate(EINSUM):
        _names = "abcd"[:len(_shapes)]
        EVAL_CASES[f"einsum_{_s}_{_k}"] = Eval(f"einsum('{_sub}', {', '.join(_names)})",
                                               **{n: V(sh, _dt) for n, sh in zip(_names, _shapes)})
    EVAL_CASES[f"einsum_{_s}_wraps"] = (Eval("einsum('ij,jk->ik', a, b)", a=W((4, 64), _dt), b=W((64, 3), _dt))
                                        if _dt[0] in "iu" else Eval("einsum('ij,jk->ik', a, b)", a=V((4, 6), _dt),
                                                                    b=V((6, 3), _dt)))
EVAL_CASES.update({
    "einsum_chain_greedy": Eval("einsum('ij,jk,kl->il', a, b, c, optimize=True)", a=V((10, 30)), b=V((30, 5)),
                                c=V((5, 20))),
    "einsum_chain_left": Eval("einsum('ij,jk,kl->il', a, b, c)", a=V((10, 30), "int16"), b=V((30, 5), "int16"),
                              c=V((5, 20), "int16")),
    "einsum_five_greedy": Eval("einsum('ea,fb,abcd,gc,hd->efgh', a, b, c, d, e, optimize=True)", a=V((2, 3)),
                               b=V((2, 4)), c=V((3, 4, 2, 3)), d=V((2, 2)), e=V((2, 3))),
    "einsum_dtype_f8": Eval("einsum('ij,jk', a, b, dtype='float64')", a=V((3, 4), "int8"), b=V((4, 2), "int8")),
    "einsum_mixed": Eval("einsum('ij,jk', a, b)", a=V((3, 4), "int8"), b=V((4, 2), "float32")),
    "einsum_casting_safe": Eval("einsum('ij,jk', a, b, dtype='float32')", a=V((3, 4)), b=V((4, 2))),  # TypeError
    "einsum_casting_unsafe": Eval("einsum('ij,jk', a, b, dtype='float32', casting='unsafe')", a=V((3, 4)),
                                  b=V((4, 2))),
    "einsum_bad_char": Eval("einsum('i$j', a)", a=V((2, 3))),  # ValueError
    "einsum_too_many": Eval("einsum('ijk', a)", a=V((2, 3))),  # ValueError
    "einsum_no_ellipsis": Eval("einsum('i', a)", a=V((2, 3))),  # ValueError
    "einsum_output_unknown": Eval("einsum('ij->k', a)", a=V((2, 3))),  # ValueError
    "einsum_output_twice": Eval("einsum('ij->ii', a)", a=V((2, 3))),  # ValueError
    "einsum_collapse_mismatch": Eval("einsum('ii->i', a)", a=V((2, 3))),  # ValueError
    "einsum_size_mismatch": Eval("einsum('ij,jk', a, b)", a=V((2, 3)), b=V((4, 5))),  # ValueError
    "einsum_operand_count": Eval("einsum('ij,jk', a)", a=V((2, 3))),  # ValueError
})

# NumPy 2's names (matrix_transpose 2.0, vecdot 2.0, matvec and vecmat 2.2): without a result under NumPy 1.
NUMPY2_ONLY = {c for c, e in EVAL_CASES.items() if any(f in e.expr for f in ("matrix_transpose", "vecdot", "matvec",
                                                                          "vecmat"))}

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES, NUMPY2_ONLY))
