#!/usr/bin/env python3
"""NumPy reference data for the sorting routines (tests/gpu/test_sorting_gpu.cpp).

    python3 make_sorting_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json (routine_ref.py's format). Each case
is the NumPy call written next to its id below; the C++ test makes the same call with cupp under
the same id. Inputs: sc(shape, dtype) = ((arange(size) * 7919) % 97 - 40).reshape(shape).astype(
dtype) (scrambled, with duplicates, negative for signed dtypes; 0..96 for unsigned and bool), complex
C(shape, dtype) = ((i * 7919) % 97) % 5 + 1j * ((i * 31) % 7 - 3), or explicit values F([...], dtype).
argsort, lexsort and argpartition are compared with NumPy's stable sort (cupp's always is); for
partition and argpartition only the kth element along the axis is compared, since NumPy's
introselect leaves the rest in an unspecified order. Runs with any NumPy >= 1.24.
"""
import sys

import numpy as np

import routine_ref

NUMPY2 = routine_ref.NUMPY2
nan, inf = float("nan"), float("inf")


def sc(shape, dt="int64"):
    n = int(np.prod(shape, dtype=np.int64))
    v = (np.arange(n, dtype=np.int64) * 7919) % 97 - 40
    if np.dtype(dt).kind in "ub":
        v = (np.arange(n, dtype=np.int64) * 7919) % 97
    return v.reshape(shape).astype(dt)


def C(shape, dt="complex128"):
    n = int(np.prod(shape, dtype=np.int64))
    i = np.arange(n, dtype=np.int64)
    return (((i * 7919) % 97) % 5 + 1j * ((i * 31) % 7 - 3)).reshape(shape).astype(dt)


def F(x, dt="float64"):
    return np.array(x, dtype=dt)


FNAN = [3.0, nan, -1.0, -0.0, 0.0, inf, nan, -inf, 2.5, -1.0, 0.0, nan]
CNAN = [complex(1, 1), complex(nan, 0), complex(1, nan), complex(nan, nan), 0j, complex(nan, -1),
        complex(-5, nan), complex(1, 0), complex(1, -2), complex(-5, 3), complex(0, nan), complex(nan, 2)]


def st(f):
    return lambda a, *args, **kw: f(a, *args, kind="stable", **kw)


sort_s, argsort_s = np.sort, st(np.argsort)


def kth_of(f, a, k, axis=-1):
    return np.take(f(a, k, axis=axis), k, axis=axis)


CASES = {
    # sort: every dtype, 1-d
    "sort_b": lambda: np.sort(sc((50,), "?")),
    "sort_i1": lambda: np.sort(sc((101,), "i1")),
    "sort_i2": lambda: np.sort(sc((101,), "i2")),
    "sort_i4": lambda: np.sort(sc((101,), "i4")),
    "sort_i8": lambda: np.sort(sc((101,), "i8")),
    "sort_u1": lambda: np.sort(sc((101,), "u1")),
    "sort_u2": lambda: np.sort(sc((101,), "u2")),
    "sort_u4": lambda: np.sort(sc((101,), "u4")),
    "sort_u8": lambda: np.sort(sc((101,), "u8")),
    "sort_f2": lambda: np.sort(sc((101,), "f2")),
    "sort_f4": lambda: np.sort(sc((101,), "f4") / 4),
    "sort_f8": lambda: np.sort(sc((101,), "f8") / 3),
    "sort_c8": lambda: np.sort(C((101,), "c8")),
    "sort_c16": lambda: np.sort(C((101,), "c16")),
    # NaN, infinities, signed zeros
    "sort_nan_f8": lambda: np.sort(F(FNAN)),
    "sort_nan_f4": lambda: np.sort(F(FNAN, "f4")),
    "sort_nan_f2": lambda: np.sort(F(FNAN, "f2")),
    "sort_nan_first": lambda: np.sort(F([nan, 2.0, 1.0])),
    "sort_all_nan": lambda: np.sort(F([nan, nan, nan], "f4")),
    "sort_nan_c16": lambda: np.sort(F(CNAN, "c16")),
    "sort_nan_c8": lambda: np.sort(F(CNAN, "c8")),
    "sort_int_extremes": lambda: np.sort(F([2**63 - 1, -2**63, 0, -1, 1], "i8")),
    "sort_u8_extremes": lambda: np.sort(F([2**64 - 1, 0, 2**63, 1], "u8")),
    # axes
    "sort_2d": lambda: np.sort(sc((7, 9), "f4")),
    "sort_axis0": lambda: np.sort(sc((7, 9), "i4"), axis=0),
    "sort_3d_mid": lambda: np.sort(sc((3, 5, 4), "f8"), axis=1),
    "sort_3d_neg": lambda: np.sort(sc((3, 5, 4), "u2"), axis=-3),
    "sort_none": lambda: np.sort(sc((4, 6), "i2"), axis=None),
    "sort_0d_none": lambda: np.sort(np.array(3.5), axis=None),
    "sort_empty": lambda: np.sort(np.zeros((0, 3), "f4")),
    "sort_empty_axis0": lambda: np.sort(np.zeros((3, 0), "i8"), axis=0),
    "sort_len1": lambda: np.sort(sc((5, 1), "f8")),
    "sort_noncontig": lambda: np.sort(sc((6, 8), "i8")[::2, ::-1]),
    "sort_2d_c8": lambda: np.sort(C((4, 5), "c8"), axis=0),
    "sort_2d_nan": lambda: np.sort(F(FNAN, "f4").reshape(3, 4), axis=0),
    "sort_2d_f2": lambda: np.sort(sc((5, 6), "f2"), axis=1),
    "sort_2d_u8": lambda: np.sort(sc((5, 6), "u8"), axis=1),
    "sort_2d_bf": lambda: np.sort(sc((5, 6), "f8"), axis=1),  # the test sorts a bfloat16 copy
    "sort_big": lambda: np.sort(sc((5000,), "f4") * 1.5),
    "sort_stable_kind": lambda: np.sort(sc((31,), "i4"), kind="stable"),
    # argsort (stable)
    "argsort_i4": lambda: argsort_s(sc((101,), "i4")),
    "argsort_b": lambda: argsort_s(sc((40,), "?")),
    "argsort_u1": lambda: argsort_s(sc((101,), "u1")),
    "argsort_f2": lambda: argsort_s(sc((101,), "f2")),
    "argsort_f8_nan": lambda: argsort_s(F(FNAN)),
    "argsort_f4_nan": lambda: argsort_s(F(FNAN, "f4")),
    "argsort_c16_nan": lambda: argsort_s(F(CNAN, "c16")),
    "argsort_c8": lambda: argsort_s(C((64,), "c8")),
    "argsort_2d": lambda: argsort_s(sc((7, 9), "f4")),
    "argsort_axis0": lambda: argsort_s(sc((7, 9), "i8"), axis=0),
    "argsort_3d_mid": lambda: argsort_s(sc((3, 5, 4), "u4"), axis=1),
    "argsort_none": lambda: argsort_s(sc((4, 6), "i2"), axis=None),
    "argsort_0d": lambda: argsort_s(np.array(2.0)),
    "argsort_empty": lambda: argsort_s(np.zeros((2, 0), "f8")),
    "argsort_zeros": lambda: argsort_s(F([0.0, -0.0, 0.0, -0.0, 1.0, -0.0])),
    "argsort_big": lambda: argsort_s(sc((5000,), "f8")),
    # lexsort
    "lexsort_two": lambda: np.lexsort((sc((20,), "i4"), sc((20,), "u1") % 3)),
    "lexsort_three": lambda: np.lexsort((sc((30,), "f8"), sc((30,), "i8") % 2, sc((30,), "i2") % 3)),
    "lexsort_nan": lambda: np.lexsort((F([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), F([nan, 1.0, nan, 1.0, -0.0, 0.0]))),
    "lexsort_2d": lambda: np.lexsort((sc((4, 5), "f4"), sc((4, 5), "i8") % 2)),
    "lexsort_axis0": lambda: np.lexsort((sc((4, 5), "f4"), sc((4, 5), "i8") % 2), axis=0),
    "lexsort_c16": lambda: np.lexsort((sc((12,), "i8"), C((12,), "c16"))),
    "lexsort_one": lambda: np.lexsort((sc((9,), "u2"),)),
    # partition / argpartition: the kth element along the axis
    "partition_1d": lambda: kth_of(np.partition, sc((101,), "f4"), 17),
    "partition_neg": lambda: kth_of(np.partition, sc((101,), "i8"), -3),
    "partition_2d": lambda: kth_of(np.partition, sc((6, 9), "i2"), 4, axis=1),
    "partition_axis0": lambda: kth_of(np.partition, sc((6, 9), "f8"), 2, axis=0),
    "partition_nan": lambda: kth_of(np.partition, F(FNAN), 10),
    "partition_seq": lambda: np.partition(sc((50,), "i4"), [3, 40])[[3, 40]],
    "partition_none": lambda: np.partition(sc((4, 5), "u4"), 7, axis=None)[7],
    "argpartition_1d": lambda: sc((101,), "f8")[np.argpartition(sc((101,), "f8"), 50)[50]],
    "argpartition_0d": lambda: np.argpartition(np.array(3), 0),
}

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = set()


if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__))
