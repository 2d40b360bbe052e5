#!/usr/bin/env python3
"""NumPy reference data for the sorting routines (tests/gpu/test_eval_ref_gpu.cpp's
EvalRefGpu/Families.AgreeWithNumPy/sorting, and tests/gpu/test_sorting_gpu.cpp for CASES).

    python3 make_sorting_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json (routine_ref.py's format) for CASES,
whose C++ test makes the same call with cupp under the same id, and OUT_DIR/eval for EVAL_CASES,
each the expression written next to its id, evaluated by NumPy here and by cupp eval's engine in
the test. Inputs: sc(shape, dtype) = ((arange(size) * 7919) % 97 - 40).reshape(shape).astype(
dtype) (scrambled, with duplicates, negative for signed dtypes; 0..96 for unsigned and bool), complex
C(shape, dtype) = ((i * 7919) % 97) % 5 + 1j * ((i * 31) % 7 - 3), or explicit values F([...], dtype).
argsort, lexsort and argpartition are compared with NumPy's stable sort (cupp's always is); for
partition and argpartition only the kth element along the axis is compared, since NumPy's
introselect leaves the rest in an unspecified order. Runs with any NumPy >= 1.24.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, INEXACT, SHORT, Eval, P, V, add_cases, with_nan

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


# id -> callable: only what cupp eval cannot write (tests/gpu/test_sorting_gpu.cpp makes the same
# call with cupp under the same id, with and without CUB): a bfloat16 sort (NumPy has no bfloat16).
CASES = {
    "sort_2d_bf": lambda: np.sort(sc((5, 6), "f8"), axis=1),  # the test sorts a bfloat16 copy
}

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = set()


# ---- cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp,
# EvalRefGpu/Families.AgreeWithNumPy/sorting). First the calls that were the C++ test's table (same
# ids; floats compared exactly, rtol=EXACT, as that test did): sort on every dtype, NaN, infinities
# and signed zeros, integer extremes, axes, 0-d and empty inputs; stable argsort; lexsort; partition
# and argpartition at the kth position.
EXACT = 0.0
EVAL_CASES = add_cases({}, {
    # a view with a row step and reversed columns
    "sort_noncontig": Eval("sort(a[::2, ::-1])", a=sc((6, 8), "i8")),
    # sort: every dtype, 1-d
    "sort_b": Eval("sort(a)", a=sc((50,), "?")),
    "sort_i1": Eval("sort(a)", a=sc((101,), "i1")),
    "sort_i2": Eval("sort(a)", a=sc((101,), "i2")),
    "sort_i4": Eval("sort(a)", a=sc((101,), "i4")),
    "sort_i8": Eval("sort(a)", a=sc((101,), "i8")),
    "sort_u1": Eval("sort(a)", a=sc((101,), "u1")),
    "sort_u2": Eval("sort(a)", a=sc((101,), "u2")),
    "sort_u4": Eval("sort(a)", a=sc((101,), "u4")),
    "sort_u8": Eval("sort(a)", a=sc((101,), "u8")),
    "sort_f2": Eval("sort(a)", rtol=EXACT, a=sc((101,), "f2")),
    "sort_f4": Eval("sort(a)", rtol=EXACT, a=sc((101,), "f4") / 4),
    "sort_f8": Eval("sort(a)", rtol=EXACT, a=sc((101,), "f8") / 3),
    "sort_c8": Eval("sort(a)", rtol=EXACT, a=C((101,), "c8")),
    "sort_c16": Eval("sort(a)", rtol=EXACT, a=C((101,), "c16")),
    # NaN, infinities, signed zeros
    "sort_nan_f8": Eval("sort(a)", rtol=EXACT, a=F(FNAN)),
    "sort_nan_f4": Eval("sort(a)", rtol=EXACT, a=F(FNAN, "f4")),
    "sort_nan_f2": Eval("sort(a)", rtol=EXACT, a=F(FNAN, "f2")),
    "sort_nan_first": Eval("sort(a)", rtol=EXACT, a=F([nan, 2.0, 1.0])),
    "sort_all_nan": Eval("sort(a)", rtol=EXACT, a=F([nan, nan, nan], "f4")),
    "sort_nan_c16": Eval("sort(a)", rtol=EXACT, a=F(CNAN, "c16")),
    "sort_nan_c8": Eval("sort(a)", rtol=EXACT, a=F(CNAN, "c8")),
    "sort_int_extremes": Eval("sort(a)", a=F([2**63 - 1, -2**63, 0, -1, 1], "i8")),
    "sort_u8_extremes": Eval("sort(a)", a=F([2**64 - 1, 0, 2**63, 1], "u8")),
    # axes
    "sort_2d": Eval("sort(a)", rtol=EXACT, a=sc((7, 9), "f4")),
    "sort_axis0": Eval("sort(a, axis=0)", a=sc((7, 9), "i4")),
    "sort_3d_mid": Eval("sort(a, axis=1)", rtol=EXACT, a=sc((3, 5, 4), "f8")),
    "sort_3d_neg": Eval("sort(a, axis=-3)", a=sc((3, 5, 4), "u2")),
    "sort_none": Eval("sort(a, axis=None)", a=sc((4, 6), "i2")),
    "sort_0d_none": Eval("sort(a, axis=None)", rtol=EXACT, a=np.array(3.5)),
    "sort_empty": Eval("sort(a)", rtol=EXACT, a=np.zeros((0, 3), "f4")),
    "sort_empty_axis0": Eval("sort(a, axis=0)", a=np.zeros((3, 0), "i8")),
    "sort_len1": Eval("sort(a)", rtol=EXACT, a=sc((5, 1), "f8")),
    "sort_2d_c8": Eval("sort(a, axis=0)", rtol=EXACT, a=C((4, 5), "c8")),
    "sort_2d_nan": Eval("sort(a, axis=0)", rtol=EXACT, a=F(FNAN, "f4").reshape(3, 4)),
    "sort_2d_f2": Eval("sort(a, axis=1)", rtol=EXACT, a=sc((5, 6), "f2")),
    "sort_2d_u8": Eval("sort(a, axis=1)", a=sc((5, 6), "u8")),
    "sort_big": Eval("sort(a)", rtol=EXACT, a=sc((5000,), "f4") * 1.5),
    "sort_stable_kind": Eval("sort(a, kind='stable')", a=sc((31,), "i4")),
    # argsort (stable)
    "argsort_i4": Eval("argsort(a, kind='stable')", a=sc((101,), "i4")),
    "argsort_b": Eval("argsort(a, kind='stable')", a=sc((40,), "?")),
    "argsort_u1": Eval("argsort(a, kind='stable')", a=sc((101,), "u1")),
    "argsort_f2": Eval("argsort(a, kind='stable')", a=sc((101,), "f2")),
    "argsort_nan_f8": Eval("argsort(a, kind='stable')", a=F(FNAN)),
    "argsort_nan_f4": Eval("argsort(a, kind='stable')", a=F(FNAN, "f4")),
    "argsort_nan_c16": Eval("argsort(a, kind='stable')", a=F(CNAN, "c16")),
    "argsort_c8": Eval("argsort(a, kind='stable')", a=C((64,), "c8")),
    "argsort_2d": Eval("argsort(a, kind='stable')", a=sc((7, 9), "f4")),
    "argsort_axis0": Eval("argsort(a, axis=0, kind='stable')", a=sc((7, 9), "i8")),
    "argsort_3d_mid": Eval("argsort(a, axis=1, kind='stable')", a=sc((3, 5, 4), "u4")),
    "argsort_none": Eval("argsort(a, axis=None, kind='stable')", a=sc((4, 6), "i2")),
    "argsort_0d": Eval("argsort(a, kind='stable')", a=np.array(2.0)),
    "argsort_empty": Eval("argsort(a, kind='stable')", a=np.zeros((2, 0), "f8")),
    "argsort_zeros": Eval("argsort(a, kind='stable')", a=F([0.0, -0.0, 0.0, -0.0, 1.0, -0.0])),
    "argsort_big": Eval("argsort(a, kind='stable')", a=sc((5000,), "f8")),
    # lexsort
    "lexsort_two": Eval("lexsort((a, b))", a=sc((20,), "i4"), b=sc((20,), "u1") % 3),
    "lexsort_three": Eval("lexsort((a, b, c))", a=sc((30,), "f8"), b=sc((30,), "i8") % 2, c=sc((30,), "i2") % 3),
    "lexsort_nan": Eval("lexsort((a, b))", a=F([1.0, 2.0, 3.0, 4.0, 5.0, 6.0]), b=F([nan, 1.0, nan, 1.0, -0.0, 0.0])),
    "lexsort_2d": Eval("lexsort((a, b))", a=sc((4, 5), "f4"), b=sc((4, 5), "i8") % 2),
    "lexsort_axis0": Eval("lexsort((a, b), axis=0)", a=sc((4, 5), "f4"), b=sc((4, 5), "i8") % 2),
    "lexsort_complex_primary": Eval("lexsort((a, b))", a=sc((12,), "i8"), b=C((12,), "c16")),
    "lexsort_one": Eval("lexsort((a,))", a=sc((9,), "u2")),
    # partition / argpartition: the kth element along the axis
    "partition_1d": Eval("take(partition(a, 17, axis=-1), 17, axis=-1)", rtol=EXACT, a=sc((101,), "f4")),
    "partition_neg": Eval("take(partition(a, -3, axis=-1), -3, axis=-1)", a=sc((101,), "i8")),
    "partition_2d": Eval("take(partition(a, 4, axis=1), 4, axis=1)", a=sc((6, 9), "i2")),
    "partition_axis0": Eval("take(partition(a, 2, axis=0), 2, axis=0)", rtol=EXACT, a=sc((6, 9), "f8")),
    "partition_nan": Eval("take(partition(a, 10, axis=-1), 10, axis=-1)", rtol=EXACT, a=F(FNAN)),
    "partition_seq": Eval("take(partition(a, (3, 40)), k)", a=sc((50,), "i4"), k=np.array([3, 40])),
    "partition_none": Eval("take(partition(a, 7, axis=None), 7)", a=sc((4, 5), "u4")),
    "argpartition_1d": Eval("take(a, take(argpartition(a, 50), 50))", rtol=EXACT, a=sc((101,), "f8")),
    "argpartition_0d": Eval("argpartition(a, 0)", a=np.array(3)),
})

# Then every dtype along negative axes (an odd 3-d shape), flattened, empty and 0-d inputs, NaN
# first / in the middle / last along the sorted lines, errors (AxisError, ValueError for kth, keys
# of different shapes, kind, TypeError for no keys), views with negative strides. argsort is asked
# for kind='stable' (cupp's sort always is); partition and argpartition are compared at the kth
# position (take of the result), where NumPy's introselect and cupp's full sort agree.
for _dt in DTYPES:
    _s = SHORT[_dt]
    _cases = {
        f"sort_{_s}_axm2": Eval("sort(a, axis=-2)", a=V((3, 5, 7), _dt)),
        f"sort_{_s}_none": Eval("sort(a, axis=None)", a=V((5, 3), _dt)),
        f"sort_{_s}_empty": Eval("sort(a, axis=0)", a=V((0, 3), _dt)),
        f"sort_{_s}_0d_none": Eval("sort(a, axis=None)", a=V((), _dt)),
        f"argsort_{_s}_axm1": Eval("argsort(a, axis=-1, kind='stable')", a=V((3, 5, 7), _dt)),
        f"argsort_{_s}_axm3": Eval("argsort(a, axis=-3, kind='stable')", a=V((3, 5, 7), _dt)),
        f"argsort_{_s}_none": Eval("argsort(a, axis=None, kind='stable')", a=V((4, 5), _dt)),
        f"argsort_{_s}_empty": Eval("argsort(a, axis=-1, kind='stable')", a=V((3, 0), _dt)),
        f"lexsort_{_s}": Eval("lexsort((b, a))", a=V((11,), _dt), b=P((11,), _dt)),
        f"lexsort_{_s}_axm2": Eval("lexsort((b, a), axis=-2)", a=V((5, 4), _dt), b=P((5, 4), _dt)),
        f"lexsort_{_s}_empty": Eval("lexsort((a, a))", a=V((0,), _dt)),
        f"partition_{_s}": Eval("take(partition(a, 3, axis=-1), 3, axis=-1)", a=V((4, 9), _dt)),
        f"partition_{_s}_axm2": Eval("take(partition(a, -2, axis=-2), -2, axis=-2)", a=V((7, 3, 2), _dt)),
        f"partition_{_s}_none": Eval("take(partition(a, 7, axis=None), 7)", a=V((4, 5), _dt)),
        f"argpartition_{_s}": Eval("take(take_along_axis(a, argpartition(a, 5, axis=-1), axis=-1), 5, axis=-1)",
                                   a=V((4, 9), _dt)),
        f"argpartition_{_s}_none": Eval("take(a, take(argpartition(a, 0, axis=None), 0))", a=V((3, 5), _dt)),
    }
    if _dt in INEXACT:
        # NaN first in row 0, in the middle of row 1, last in row 2 (NaN sorts last).
        _nan = with_nan(V((3, 7), _dt), [0, 10, 20])
        _cases.update({
            f"sort_{_s}_nan": Eval("sort(a, axis=-1)", a=_nan),
            f"argsort_{_s}_nan": Eval("argsort(a, axis=-1, kind='stable')", a=_nan),
            f"lexsort_{_s}_nan": Eval("lexsort((b, a))", a=with_nan(V((9,), _dt), [0, 4, 8]), b=P((9,), _dt)),
            f"partition_{_s}_nan_last": Eval("take(partition(a, 6, axis=-1), 6, axis=-1)", a=_nan),
            f"partition_{_s}_nan_mid": Eval("take(partition(a, 3, axis=-1), 3, axis=-1)", a=_nan),
            f"argpartition_{_s}_nan": Eval("take(argpartition(a, 6, axis=-1), 6, axis=-1)", a=_nan),
        })
    if _dt in ("complex64", "complex128"):
        _cases[f"sort_{_s}_nanimag"] = Eval("sort(a, axis=-1)",
                                            a=with_nan(V((3, 7), _dt), [0, 10, 20], imag=True))
    add_cases(EVAL_CASES, _cases)

add_cases(EVAL_CASES, {
    # ---- errors
    "sort_axis_oob": Eval("sort(a, axis=2)", a=V((3, 4))),
    "sort_axis_neg_oob": Eval("sort(a, axis=-3)", a=V((3, 4), "int32")),
    "sort_0d_default_axis": Eval("sort(a)", a=V(())),
    "sort_kind_bad": Eval("sort(a, kind='bogus')", a=V((5,))),
    "argsort_axis_oob": Eval("argsort(a, axis=-3, kind='stable')", a=V((3, 4))),
    "lexsort_shapes_differ": Eval("lexsort((a, b))", a=V((5,)), b=V((6,))),
    "lexsort_axis_oob": Eval("lexsort((a, b), axis=1)", a=V((5,)), b=V((5,))),
    "lexsort_0d_keys": Eval("lexsort(a)", a=V(())),
    "partition_kth_oob": Eval("partition(a, 9)", a=V((9,))),
    "partition_kth_neg_oob": Eval("partition(a, -10)", a=V((9,), "int16")),
    "partition_axis_oob": Eval("partition(a, 1, axis=2)", a=V((3, 4))),
    "argpartition_kth_oob": Eval("argpartition(a, 4, axis=0)", a=V((4, 3))),
    "partition_0d": Eval("partition(a, 0)", a=V(())),
    "partition_empty": Eval("take(partition(a, 1, axis=0), 1, axis=0)", a=V((3, 0), "int16")),
    "argpartition_empty": Eval("argpartition(a, 0, axis=-1)", a=V((0, 4), "float32")),
    # ---- more forms
    "sort_stable_true": Eval("sort(a, stable=True)", a=V((4, 6), "int16")),
    "argsort_stable_true": Eval("argsort(a, stable=True)", a=V((4, 6), "float32")),
    "argsort_0d_none": Eval("argsort(a, axis=None)", a=V((), "int8")),
    "lexsort_2d_keys_array": Eval("lexsort(a)", a=V((3, 8), "int32")),
    "lexsort_mixed_dtypes": Eval("lexsort((a, b, c))", a=V((12,), "float32"), b=V((12,), "uint8"),
                                 c=V((12,), "bool")),
    "partition_kth_tuple": Eval("take(partition(a, (2, 6), axis=-1), k, axis=-1)", a=V((3, 9)),
                                k=np.array([2, 6])),
    "argpartition_kth_tuple": Eval("take(take_along_axis(a, argpartition(a, (1, 4)), axis=-1), k, axis=-1)",
                                   a=V((2, 7), "int32"), k=np.array([1, 4])),
    "sort_flipped": Eval("sort(flip(a, 0), axis=0)", a=V((5, 4), "float32")),
    "argsort_flipped": Eval("argsort(flip(a, -1), axis=-1, kind='stable')", a=V((4, 6), "int64")),
    "sort_long_nan_f4": Eval("sort(a)", a=with_nan(V((5001,), "float32"), [0, 2500, 5000])),
    "argsort_long_ties_i8": Eval("argsort(a, kind='stable')", a=V((6007,), "int64")),
    "sort_long_axis0_f2": Eval("sort(a, axis=0)", a=V((3001, 3), "float16")),
    "sort_inf_zeros": Eval("sort(a)", a=np.array([0.0, -0.0, np.inf, -np.inf, 1.0, -0.0, np.nan, -np.inf])),
})
EVAL_NUMPY2_ONLY = {"sort_stable_true", "argsort_stable_true"}  # stable= is NumPy 2's

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
