#!/usr/bin/env python3
"""NumPy reference data for the reductions' initial= and where= and for ufunc.reduceat
(tests/gpu/test_reduction_where_gpu.cpp).

    python3 make_reduction_where_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json (routine_ref.py's format). Each case
is the NumPy call written next to its id below; the C++ test makes the same call with cupp under
the same id. Inputs: X(shape, dtype) = ((arange(n) * 37) % 101 / 7 - 5) for signed, float and
complex dtypes and (arange(n) * 37) % 101 % 13 for unsigned ones and bool (scrambled values with
repeats and zeros), reshaped and cast; M(shape) = (arange(n) * 7) % 3 != 0 (a mask selecting two
elements of three), Z(shape) = a mask selecting nothing; N(a, positions) = a copy with NaN at the
flat positions. The test builds them the same way.
Runs with any NumPy >= 1.24 (the GPU machine has NumPy 2.5); cases whose result differs under
NumPy 1 (NEP 50) are marked NUMPY2_ONLY.
"""
import sys

import numpy as np

import routine_ref

DTYPES = ["?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16"]
NAMES = {"?": "b1", "i1": "i1", "i2": "i2", "i4": "i4", "i8": "i8", "u1": "u1", "u2": "u2", "u4": "u4", "u8": "u8",
         "f2": "f2", "f4": "f4", "f8": "f8", "c8": "c8", "c16": "c16"}


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

CASES = {}
for _dt in DTYPES:
    _n = NAMES[_dt]
    # sum / prod: where broadcast from (4, 1) over axis 1 of (3, 4, 5); initial; both; axis tuples.
    CASES["sum_where_" + _n] = (lambda d: lambda: np.sum(X((3, 4, 5), d), axis=1, where=M((4, 1))))(_dt)
    CASES["sum_initial_" + _n] = (lambda d: lambda: np.sum(X((3, 4), d), axis=0, initial=3))(_dt)
    CASES["sum_both_none_" + _n] = (lambda d: lambda: np.sum(X((3, 4), d), where=M((3, 4)), initial=2))(_dt)
    CASES["prod_where_" + _n] = (lambda d: lambda: np.prod(X((3, 4, 2), d), axis=(0, 2), where=M((3, 1, 2))))(_dt)
    CASES["prod_initial_" + _n] = (lambda d: lambda: np.prod(X((2, 3), d), axis=1, initial=2, keepdims=True))(_dt)
    # max / min: where needs initial; axis tuples; a mask broadcast from a row.
    CASES["max_where_" + _n] = (lambda d: lambda: np.max(X((3, 4, 5), d), axis=(0, 2), where=M((3, 1, 5)),
                                                         initial=1))(_dt)
    CASES["min_where_" + _n] = (lambda d: lambda: np.min(X((3, 5), d), axis=-1, where=M((5,)), initial=7))(_dt)
    CASES["max_initial_" + _n] = (lambda d: lambda: np.max(X((4, 3), d), axis=0, initial=4))(_dt)
    CASES["max_none_" + _n] = (lambda d: lambda: np.max(X((0, 3), d), axis=0, initial=2))(_dt)
    CASES["min_allmasked_" + _n] = (lambda d: lambda: np.min(X((2, 3), d), axis=1, where=Z((2, 3)), initial=5))(_dt)
    # all / any with where; mean with where (a result with nothing selected is NaN).
    CASES["all_where_" + _n] = (lambda d: lambda: np.all(X((3, 4), d), axis=0, where=M((3, 4))))(_dt)
    CASES["any_where_" + _n] = (lambda d: lambda: np.any(X((3, 4), d), axis=1, where=M((1, 4))))(_dt)
    CASES["mean_where_" + _n] = (lambda d: lambda: np.mean(X((3, 4), d), axis=1,
                                                           where=np.array([[True], [False], [True]])))(_dt)
    # reduceat: along axis 0 of (8, 3), along the last axis, 1-d multiply, with dtype=.
    CASES["reduceat_add_" + _n] = (lambda d: lambda: np.add.reduceat(X((8, 3), d), INDICES, axis=0))(_dt)
    CASES["reduceat_max_" + _n] = (lambda d: lambda: np.maximum.reduceat(X((3, 8), d), INDICES, axis=-1))(_dt)
    CASES["reduceat_mul_" + _n] = (lambda d: lambda: np.multiply.reduceat(X((8,), d), np.array([1, 3, 0, 7],
                                                                                                  dtype="i4")))(_dt)
    CASES["reduceat_min_" + _n] = (lambda d: lambda: np.minimum.reduceat(X((2, 8, 2), d), np.array([6, 2]),
                                                                         axis=1))(_dt)

SPECIAL = {
    # ---- where: broadcasting and layouts
    "sum_where_0d": lambda: np.sum(X((2, 3)), where=np.array(False)),
    "sum_where_keepdims": lambda: np.sum(X((2, 3, 4)), axis=(0, 2), where=M((3, 1)), keepdims=True),
    "sum_where_transposed": lambda: np.sum(X((4, 6)).T, axis=1, where=M((6, 4))),
    "sum_where_strided": lambda: np.sum(X((6, 8))[::2, 1::3], axis=0, where=M((3, 1))),
    "sum_where_long_rows": lambda: np.sum(X((3, 5000)), axis=1, where=M((5000,)), initial=1),
    "sum_where_long_all": lambda: np.sum(X((200000,), "f4"), where=M((200000,))),
    "sum_where_long_i8": lambda: np.sum(X((300000,), "i8"), where=M((300000,)), initial=-7),
    "max_where_long_columns": lambda: np.max(X((5000, 40)), axis=0, where=M((5000, 40)), initial=-100),
    "max_where_long_rows": lambda: np.max(X((7, 30000), "f4"), axis=1, where=M((7, 30000)), initial=-100),
    "min_where_sparse": lambda: np.min(X((100000,)), where=(np.arange(100000) % 9973 == 5), initial=100),
    "prod_where_shifted_f8": lambda: np.prod(X((5, 6)) / 4 + 1, axis=0, where=M((5, 6))),
    "sum_where_c16_cols": lambda: np.sum(X((40, 64), "c16") * (1 - 2j), axis=0, where=M((40, 1))),
    # ---- initial and empty inputs
    "sum_empty_initial": lambda: np.sum(X((2, 0)), axis=1, initial=4),
    "sum_empty_where": lambda: np.sum(X((0, 3)), axis=0, where=M((0, 3))),
    "prod_empty_initial": lambda: np.prod(X((0, 2), "i4"), axis=0, initial=3),
    "max_empty_initial_1d": lambda: np.max(X((0,)), initial=2.5),
    "max_empty_out": lambda: np.max(X((0, 3)), axis=1, initial=2),
    "min_empty_axis1": lambda: np.min(X((3, 0), "i2"), axis=1, initial=-1),
    "sum_initial_fraction_f2": lambda: np.sum(X((4, 3), "f2"), axis=0, initial=0.1),
    "sum_initial_dtype": lambda: np.sum(X((3, 4), "i1"), axis=1, dtype="i1", initial=100),
    "max_initial_nan": lambda: np.max(N(X((2, 3)), [1]), axis=1, initial=0),
    "logical_and_initial": lambda: np.logical_and.reduce(X((2, 3), "?"), axis=1, initial=False),
    "subtract_where_initial": lambda: np.subtract.reduce(X((5,)), where=M((5,)), initial=10),
    "maximum_reduce_where": lambda: np.maximum.reduce(X((4, 5), "i8"), axis=None, where=M((4, 5)), initial=-50),
    "bitwise_and_where": lambda: np.bitwise_and.reduce(X((3, 4), "u1"), axis=0, where=M((3, 4))),
    # ---- the nan-functions
    "nansum_where": lambda: np.nansum(N(X((3, 4)), [0, 5, 6]), axis=1, where=M((3, 4))),
    "nansum_initial": lambda: np.nansum(N(X((3, 4), "f4"), [0, 5]), axis=0, initial=1),
    "nanprod_where": lambda: np.nanprod(N(X((3, 4)), [2, 7]), axis=1, where=M((4,)), initial=2),
    "nanmax_where": lambda: np.nanmax(N(X((3, 4)), [0, 1, 2, 3]), axis=1, where=M((3, 4)), initial=-1),
    "nanmin_initial": lambda: np.nanmin(N(X((2, 4)), [0, 1, 2, 3]), axis=1, initial=9),
    "nanmean_where": lambda: np.nanmean(N(X((3, 4)), [1, 5]), axis=1, where=M((3, 4))),
    "nanmean_where_none": lambda: np.nanmean(N(X((3, 4), "f4"), [1, 5]), where=M((3, 4))),
    "nansum_int_where": lambda: np.nansum(X((3, 4), "i2"), axis=0, where=M((3, 4)), initial=5),
    # ---- mean, var, std with where
    "mean_where_none": lambda: np.mean(X((3, 4)), where=M((3, 4))),
    "mean_where_cols_f2": lambda: np.mean(X((4, 3), "f2"), axis=0, where=M((4, 3))),
    "mean_where_allmasked": lambda: np.mean(X((2, 3), "i4"), axis=0, where=Z((3,))),
    "mean_where_keepdims": lambda: np.mean(X((2, 3, 4), "f4"), axis=(0, 2), where=M((3, 4)), keepdims=True),
    "var_where": lambda: np.var(X((3, 5)), axis=1, where=M((3, 5))),
    "var_where_ddof": lambda: np.var(X((4, 6)), axis=0, where=M((4, 6)), ddof=1),
    "var_where_none_i4": lambda: np.var(X((3, 4), "i4"), where=M((3, 4))),
    "var_where_f4": lambda: np.var(X((5, 4), "f4"), axis=0, where=M((5, 1))),
    "var_where_c16": lambda: np.var(X((3, 4), "c16") * (1 + 1j) + 2j, axis=1, where=M((3, 4))),
    "var_where_few": lambda: np.var(X((2, 3)), axis=1, where=np.array([[True, False, False], [False, False, False]])),
    "std_where": lambda: np.std(X((3, 5)), axis=0, where=M((3, 5)), keepdims=True),
    "nanvar_where": lambda: np.nanvar(N(X((3, 5)), [0, 7]), axis=1, where=M((3, 5))),
    "nanstd_where_ddof": lambda: np.nanstd(N(X((4, 5)), [0, 7, 8]), axis=0, where=M((4, 5)), ddof=1),
    # ---- reduceat
    "reduceat_1d": lambda: np.add.reduceat(X((8,), "i8"), np.array([0, 4, 1, 5])),
    "reduceat_bool_add": lambda: np.add.reduceat(X((6,), "?"), np.array([0, 2, 3])),
    "reduceat_f2_add": lambda: np.add.reduceat(X((9,), "f2"), np.array([0, 3, 8])),
    "reduceat_dtype": lambda: np.add.reduceat(X((8,), "i4"), np.array([0, 4, 1]), dtype="f8"),
    "reduceat_dtype_i1": lambda: np.add.reduceat(X((8,), "i4") * 30, np.array([0, 6]), dtype="i1"),
    "reduceat_last_equal": lambda: np.add.reduceat(X((5, 2)), np.array([4, 4, 0]), axis=0),
    "reduceat_all_same": lambda: np.add.reduceat(X((5,)), np.array([2, 2, 2])),
    "reduceat_empty_indices": lambda: np.add.reduceat(X((5, 2)), np.array([], dtype="i8"), axis=0),
    "reduceat_empty_other": lambda: np.add.reduceat(X((2, 0)), np.array([0, 1]), axis=0),
    "reduceat_3d_axis1": lambda: np.add.reduceat(X((3, 7, 4), "f4"), np.array([0, 3, 2, 6]), axis=1),
    "reduceat_transposed": lambda: np.add.reduceat(X((4, 9)).T, np.array([0, 5, 3]), axis=0),
    "reduceat_strided": lambda: np.multiply.reduceat(X((10, 6))[::2, ::-1], np.array([1, 0, 3]), axis=1),
    "reduceat_c16_mul": lambda: np.multiply.reduceat(X((6,), "c16") * (1 + 1j), np.array([0, 2, 5, 1])),
    "reduceat_logical_or": lambda: np.logical_or.reduceat(X((6, 2), "?"), np.array([0, 3, 3, 1])),
    "reduceat_bitwise_xor": lambda: np.bitwise_xor.reduceat(X((7,), "u2"), np.array([0, 3, 6])),
    "reduceat_long": lambda: np.add.reduceat(X((20000,), "i8"), np.arange(0, 20000, 37)),
    "reduceat_long_f8": lambda: np.add.reduceat(X((5000, 3)), np.arange(0, 5000, 250)[::-1], axis=0),
    "reduceat_bool_idx": lambda: np.add.reduceat(X((4,)), np.array([True, False, True])),
}
assert not set(SPECIAL) & set(CASES), set(SPECIAL) & set(CASES)  # an id must not replace another
CASES.update(SPECIAL)

# Cases whose NumPy 1 result differs (none so far; NumPy 2's NEP 50 packs initial= as cupp does).
NUMPY2_ONLY = set()


if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__))
