#!/usr/bin/env python3
"""NumPy reference data for the reductions' initial= and where= and for ufunc.reduceat.

    python3 make_reduction_where_ref.py OUT_DIR

writes OUT_DIR/eval/ (routine_ref.py's write_eval_set): EVAL_CASES, one expression each in NumPy's
names (sum(a, axis=1, where=m, initial=3), add.reduce(a, where=m, initial=10),
add.reduceat(a, i, axis=0), ...), which tests/gpu/test_eval_ref_gpu.cpp evaluates with cupp eval's
engine and compares with NumPy's result (EvalRefGpu/Families.AgreeWithNumPy/reduction_where); views
are written in the expression (a[::2, 1::3]). CASES (OUT_DIR/manifest.json) is empty: every case is
an EVAL_CASES expression.
Inputs (saved with each Eval case): X(shape, dtype) = ((arange(n) * 37) % 101 / 7 - 5) for signed,
float and complex dtypes and (arange(n) * 37) % 101 % 13 for unsigned ones and bool (scrambled
values with repeats and zeros), reshaped and cast; M(shape) = (arange(n) * 7) % 3 != 0 (a mask
selecting two elements of three), Z(shape) = a mask selecting nothing; N(a, positions) = a copy
with NaN at the flat positions. The C++ test builds the same for its cases. Views are written in
the expression: rot90(flip(a, 1)) is a.T (the transposed view; cupp eval has no transpose),
flip(i, 0) is i[::-1].
Tolerances: cupp eval's per dtype, except float32 and complex64 results that accumulate (sums,
products, means, variances), which keep the C++ test's 1e-5.
Runs with any NumPy >= 1.24 (the GPU machine has NumPy 2.5); cases whose result differs under
NumPy 1 (NEP 50) are marked NUMPY2_ONLY / EVAL_NUMPY2_ONLY.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import Eval, add_cases

DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]
NAMES = {"?": "b1", "i1": "i1", "i2": "i2", "i4": "i4", "i8": "i8", "u1": "u1", "u2": "u2", "u4": "u4", "u8": "u8",
         "f2": "f2", "f4": "f4", "f8": "f8", "c8": "c8", "c16": "c16"}
F4 = 1e-5  # the C++ test's float32 / complex64 tolerance, for results that accumulate


def X(shape, dt="f8"):
    n = int(np.prod(shape, dtype=np.int64))
    k = np.dtype(dt).kind
    if k in "ub":
        v = (np.arange(n) * 37) % 101 % 13
    else:
        v = (np.arange(n) * 37) % 101 / 7.0 - 5
    return v.reshape(shape).astype(dt)


def M(shape):
    n = int(np.prod(shape, dtype=np.int64))
    return ((np.arange(n) * 7) % 3 != 0).reshape(shape)


def Z(shape):
    return np.zeros(shape, dtype=bool)


def N(a, positions):
    a = a.copy()
    a.flat[positions] = np.nan
    return a


INDICES = np.array([0, 4, 1, 5, 5, 7])  # increasing, decreasing, repeated, last to the end

EVAL_CASES = {}
for _dt in DTYPES:
    _n = NAMES[_dt]
    _tol = F4 if _dt in ("f4", "c8") else None
    add_cases(EVAL_CASES, {
        # sum / prod: where broadcast from (4, 1) over axis 1 of (3, 4, 5); initial; both; axis tuples.
        "sum_where_" + _n: Eval("sum(a, axis=1, where=m)", rtol=_tol, a=X((3, 4, 5), _dt), m=M((4, 1))),
        "sum_initial_" + _n: Eval("sum(a, axis=0, initial=3)", rtol=_tol, a=X((3, 4), _dt)),
        "sum_both_none_" + _n: Eval("sum(a, where=m, initial=2)", rtol=_tol, a=X((3, 4), _dt), m=M((3, 4))),
        "prod_where_" + _n: Eval("prod(a, axis=(0, 2), where=m)", rtol=_tol, a=X((3, 4, 2), _dt), m=M((3, 1, 2))),
        "prod_initial_" + _n: Eval("prod(a, axis=1, initial=2, keepdims=True)", rtol=_tol, a=X((2, 3), _dt)),
        # max / min: where needs initial; axis tuples; a mask broadcast from a row.
        "max_where_" + _n: Eval("max(a, axis=(0, 2), where=m, initial=1)", a=X((3, 4, 5), _dt), m=M((3, 1, 5))),
        "min_where_" + _n: Eval("min(a, axis=-1, where=m, initial=7)", a=X((3, 5), _dt), m=M((5,))),
        "max_initial_" + _n: Eval("max(a, axis=0, initial=4)", a=X((4, 3), _dt)),
        "max_none_" + _n: Eval("max(a, axis=0, initial=2)", a=X((0, 3), _dt)),
        "min_allmasked_" + _n: Eval("min(a, axis=1, where=m, initial=5)", a=X((2, 3), _dt), m=Z((2, 3))),
        # all / any with where; mean with where (a result with nothing selected is NaN).
        "all_where_" + _n: Eval("all(a, axis=0, where=m)", a=X((3, 4), _dt), m=M((3, 4))),
        "any_where_" + _n: Eval("any(a, axis=1, where=m)", a=X((3, 4), _dt), m=M((1, 4))),
        "mean_where_" + _n: Eval("mean(a, axis=1, where=m)", rtol=_tol, a=X((3, 4), _dt),
                                 m=np.array([[True], [False], [True]])),
        # reduceat: along axis 0 of (8, 3), along the last axis, 1-d multiply with int32 indices.
        "reduceat_add_" + _n: Eval("add.reduceat(a, i, axis=0)", rtol=_tol, a=X((8, 3), _dt), i=INDICES),
        "reduceat_max_" + _n: Eval("maximum.reduceat(a, i, axis=-1)", a=X((3, 8), _dt), i=INDICES),
        "reduceat_mul_" + _n: Eval("multiply.reduceat(a, i)", rtol=_tol, a=X((8,), _dt),
                                   i=np.array([1, 3, 0, 7], dtype="i4")),
        "reduceat_min_" + _n: Eval("minimum.reduceat(a, i, axis=1)", a=X((2, 8, 2), _dt), i=np.array([6, 2])),
    })

add_cases(EVAL_CASES, {
    # ---- where: broadcasting and layouts
    "sum_where_0d": Eval("sum(a, where=m)", a=X((2, 3)), m=np.array(False)),
    "sum_where_keepdims": Eval("sum(a, axis=(0, 2), where=m, keepdims=True)", a=X((2, 3, 4)), m=M((3, 1))),
    "sum_where_transposed": Eval("sum(rot90(flip(a, 1)), axis=1, where=m)", a=X((4, 6)), m=M((6, 4))),
    "sum_where_long_rows": Eval("sum(a, axis=1, where=m, initial=1)", a=X((3, 5000)), m=M((5000,))),
    "sum_where_long_all": Eval("sum(a, where=m)", rtol=F4, a=X((200000,), "f4"), m=M((200000,))),
    "sum_where_long_i8": Eval("sum(a, where=m, initial=-7)", a=X((300000,), "i8"), m=M((300000,))),
    "max_where_long_columns": Eval("max(a, axis=0, where=m, initial=-100)", a=X((5000, 40)), m=M((5000, 40))),
    "max_where_long_rows": Eval("max(a, axis=1, where=m, initial=-100)", a=X((7, 30000), "f4"), m=M((7, 30000))),
    "min_where_sparse": Eval("min(a, where=m, initial=100)", a=X((100000,)), m=np.arange(100000) % 9973 == 5),
    "prod_where_shifted_f8": Eval("prod(a / 4 + 1, axis=0, where=m)", a=X((5, 6)), m=M((5, 6))),
    "sum_where_c16_cols": Eval("sum(a * (1 - 2j), axis=0, where=m)", a=X((40, 64), "c16"), m=M((40, 1))),
    # ---- initial and empty inputs
    "sum_empty_initial": Eval("sum(a, axis=1, initial=4)", a=X((2, 0))),
    "sum_empty_where": Eval("sum(a, axis=0, where=m)", a=X((0, 3)), m=M((0, 3))),
    "prod_empty_initial": Eval("prod(a, axis=0, initial=3)", a=X((0, 2), "i4")),
    "max_empty_initial_1d": Eval("max(a, initial=2.5)", a=X((0,))),
    "max_empty_out": Eval("max(a, axis=1, initial=2)", a=X((0, 3))),
    "min_empty_axis1": Eval("min(a, axis=1, initial=-1)", a=X((3, 0), "i2")),
    "sum_initial_fraction_f2": Eval("sum(a, axis=0, initial=0.1)", a=X((4, 3), "f2")),
    "sum_initial_dtype": Eval("sum(a, axis=1, dtype='int8', initial=100)", a=X((3, 4), "i1")),
    "max_initial_nan": Eval("max(a, axis=1, initial=0)", a=N(X((2, 3)), [1])),
    "logical_and_initial": Eval("logical_and.reduce(a, axis=1, initial=False)", a=X((2, 3), "?")),
    "subtract_where_initial": Eval("subtract.reduce(a, where=m, initial=10)", a=X((5,)), m=M((5,))),
    "maximum_reduce_where": Eval("maximum.reduce(a, axis=None, where=m, initial=-50)", a=X((4, 5), "i8"),
                                 m=M((4, 5))),
    "bitwise_and_where": Eval("bitwise_and.reduce(a, axis=0, where=m)", a=X((3, 4), "u1"), m=M((3, 4))),
    # ---- the nan-functions
    "nansum_where": Eval("nansum(a, axis=1, where=m)", a=N(X((3, 4)), [0, 5, 6]), m=M((3, 4))),
    "nansum_initial": Eval("nansum(a, axis=0, initial=1)", rtol=F4, a=N(X((3, 4), "f4"), [0, 5])),
    "nanprod_where": Eval("nanprod(a, axis=1, where=m, initial=2)", a=N(X((3, 4)), [2, 7]), m=M((4,))),
    "nanmax_where": Eval("nanmax(a, axis=1, where=m, initial=-1)", a=N(X((3, 4)), [0, 1, 2, 3]), m=M((3, 4))),
    "nanmin_initial": Eval("nanmin(a, axis=1, initial=9)", a=N(X((2, 4)), [0, 1, 2, 3])),
    "nanmean_where": Eval("nanmean(a, axis=1, where=m)", a=N(X((3, 4)), [1, 5]), m=M((3, 4))),
    "nanmean_where_none": Eval("nanmean(a, where=m)", rtol=F4, a=N(X((3, 4), "f4"), [1, 5]), m=M((3, 4))),
    "nansum_int_where": Eval("nansum(a, axis=0, where=m, initial=5)", a=X((3, 4), "i2"), m=M((3, 4))),
    # ---- mean, var, std with where
    "mean_where_none": Eval("mean(a, where=m)", a=X((3, 4)), m=M((3, 4))),
    "mean_where_cols_f2": Eval("mean(a, axis=0, where=m)", a=X((4, 3), "f2"), m=M((4, 3))),
    "mean_where_allmasked": Eval("mean(a, axis=0, where=m)", a=X((2, 3), "i4"), m=Z((3,))),
    "mean_where_keepdims": Eval("mean(a, axis=(0, 2), where=m, keepdims=True)", rtol=F4, a=X((2, 3, 4), "f4"),
                                m=M((3, 4))),
    "var_where": Eval("var(a, axis=1, where=m)", a=X((3, 5)), m=M((3, 5))),
    "var_where_ddof": Eval("var(a, axis=0, where=m, ddof=1)", a=X((4, 6)), m=M((4, 6))),
    "var_where_none_i4": Eval("var(a, where=m)", a=X((3, 4), "i4"), m=M((3, 4))),
    "var_where_f4": Eval("var(a, axis=0, where=m)", rtol=F4, a=X((5, 4), "f4"), m=M((5, 1))),
    "var_where_c16": Eval("var(a * (1 + 1j) + 2j, axis=1, where=m)", a=X((3, 4), "c16"), m=M((3, 4))),
    "var_where_few": Eval("var(a, axis=1, where=m)", a=X((2, 3)),
                          m=np.array([[True, False, False], [False, False, False]])),
    "std_where": Eval("std(a, axis=0, where=m, keepdims=True)", a=X((3, 5)), m=M((3, 5))),
    "nanvar_where": Eval("nanvar(a, axis=1, where=m)", a=N(X((3, 5)), [0, 7]), m=M((3, 5))),
    "nanstd_where_ddof": Eval("nanstd(a, axis=0, where=m, ddof=1)", a=N(X((4, 5)), [0, 7, 8]), m=M((4, 5))),
    # ---- reduceat
    "reduceat_1d": Eval("add.reduceat(a, i)", a=X((8,), "i8"), i=np.array([0, 4, 1, 5])),
    "reduceat_bool_add": Eval("add.reduceat(a, i)", a=X((6,), "?"), i=np.array([0, 2, 3])),
    "reduceat_f2_add": Eval("add.reduceat(a, i)", a=X((9,), "f2"), i=np.array([0, 3, 8])),
    "reduceat_dtype": Eval("add.reduceat(a, i, dtype='float64')", a=X((8,), "i4"), i=np.array([0, 4, 1])),
    "reduceat_dtype_i1": Eval("add.reduceat(a * 30, i, dtype='int8')", a=X((8,), "i4"), i=np.array([0, 6])),
    "reduceat_last_equal": Eval("add.reduceat(a, i, axis=0)", a=X((5, 2)), i=np.array([4, 4, 0])),
    "reduceat_all_same": Eval("add.reduceat(a, i)", a=X((5,)), i=np.array([2, 2, 2])),
    "reduceat_empty_indices": Eval("add.reduceat(a, i, axis=0)", a=X((5, 2)), i=np.array([], dtype="i8")),
    "reduceat_empty_other": Eval("add.reduceat(a, i, axis=0)", a=X((2, 0)), i=np.array([0, 1])),
    "reduceat_3d_axis1": Eval("add.reduceat(a, i, axis=1)", rtol=F4, a=X((3, 7, 4), "f4"), i=np.array([0, 3, 2, 6])),
    "reduceat_transposed": Eval("add.reduceat(rot90(flip(a, 1)), i, axis=0)", a=X((4, 9)), i=np.array([0, 5, 3])),
    "reduceat_c16_mul": Eval("multiply.reduceat(a * (1 + 1j), i)", a=X((6,), "c16"), i=np.array([0, 2, 5, 1])),
    "reduceat_logical_or": Eval("logical_or.reduceat(a, i)", a=X((6, 2), "?"), i=np.array([0, 3, 3, 1])),
    "reduceat_bitwise_xor": Eval("bitwise_xor.reduceat(a, i)", a=X((7,), "u2"), i=np.array([0, 3, 6])),
    "reduceat_long": Eval("add.reduceat(a, i)", a=X((20000,), "i8"), i=np.arange(0, 20000, 37)),
    "reduceat_long_f8": Eval("add.reduceat(a, flip(i, 0), axis=0)", a=X((5000, 3)), i=np.arange(0, 5000, 250)),
    "reduceat_bool_idx": Eval("add.reduceat(a, i)", a=X((4,)), i=np.array([True, False, True])),
    # strided slice views of the input (eval's subscripts give the view, as NumPy's do)
    "sum_where_strided": Eval("sum(a[::2, 1::3], axis=0, where=m)", a=X((6, 8)), m=M((3, 1))),
    "reduceat_strided": Eval("multiply.reduceat(a[::2, ::-1], i, axis=1)", a=X((10, 6)), i=np.array([1, 0, 3])),
})

CASES = {}

# Cases whose NumPy 1 result differs (none so far; NumPy 2's NEP 50 packs initial= as cupp does).
NUMPY2_ONLY = set()
EVAL_NUMPY2_ONLY = set()


if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
