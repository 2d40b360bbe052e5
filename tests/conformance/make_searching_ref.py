#!/usr/bin/env python3
"""NumPy reference data for the searching, counting and set routines, run through `cupp eval`'s
engine by tests/gpu/test_eval_ref_gpu.cpp (EvalRefGpu/Families.AgreeWithNumPy/searching).

    python3 make_searching_ref.py OUT_DIR

writes OUT_DIR/manifest.json (no classic cases) and OUT_DIR/eval (routine_ref.py's write_eval_set:
each case is the expression below over its inputs, evaluated by NumPy here and by cupp in the
test). Every dtype each routine accepts (routine_ref.V inputs), then cases of explicit values:
inputs ar(shape, dtype) = arange(size).reshape(shape).astype(dtype), I(values, dtype) and
F(values, dtype) (a list made into an array of that dtype), C(values, dtype) (complex values).
Routines that return several arrays give one output each, in NumPy's order. unique_values is
sorted (NumPy >= 2.3 leaves its order unspecified; cupp sorts). Runs with any NumPy >= 1.24 (the
GPU machine has 2.5); the cases of NumPy 2's forms (unique_values, unique_counts, unique_inverse,
unique_all; unique's inverse of the input's shape) are marked numpy2_only, and in1d's only exist
where NumPy still has in1d.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, INEXACT, SHORT, Eval, V, add_cases, with_nan

nan = np.nan
inf = np.inf


def ar(shape, dt="int64"):
    return np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape).astype(dt)


def I(x, dt="int64"):
    return np.array(x, dtype=dt)


def F(x, dt="float64"):
    return np.array(x, dtype="float64").astype(dt)


def C(x, dt="complex128"):
    return np.array(x, dtype="complex128").astype(dt)


C_SORTED = np.sort(C([1 + 2j, 1 + 1j, complex(nan, 0), complex(1, nan), -1 + 5j, 2 + 0j, complex(nan, nan)]))

CASES = {}  # no classic cases: everything runs through cupp eval's engine


# ---- every dtype each routine accepts, empty and 0-d inputs, NaN first / in the middle / last,
# negative axes (unique), errors (ValueError, TypeError, AxisError as NumPy raises them).
# Python-scalar search values (searchsorted(a, 3): a documented deviation) are left out.
REAL = [d for d in DTYPES if d not in ("complex64", "complex128")]
INTEGER = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"]


def nonneg(shape, dt):
    """Non-negative values 0..8 with repeats (bincount)."""
    return V(shape, "uint8").astype(dt)


EVAL_CASES = {}
EVAL_NUMPY2_ONLY = set()
for _dt in DTYPES:
    _s = SHORT[_dt]
    _sorted = np.sort(V((20,), _dt))
    _cases = {
        f"ss_{_s}": Eval("searchsorted(a, v)", a=_sorted, v=V((3, 7), _dt)),
        f"ss_{_s}_right": Eval("searchsorted(a, v, side='right')", a=_sorted, v=V((7,), _dt)),
        f"ss_{_s}_sorter": Eval("searchsorted(a, v, sorter=argsort(a, kind='stable'))", a=V((20,), _dt),
                                v=V((6,), _dt)),
        f"ss_{_s}_empty_v": Eval("searchsorted(a, v)", a=_sorted, v=V((0,), _dt)),
        f"ss_{_s}_0d_v": Eval("searchsorted(a, v, side='right')", a=_sorted, v=V((), _dt)),
        f"ss_{_s}_empty_a": Eval("searchsorted(a, v)", a=V((0,), _dt), v=V((4,), _dt)),
        f"uq_{_s}": Eval("unique(a, return_index=True, return_inverse=True, return_counts=True)",
                         a=V((4, 7), _dt)),
        f"uq_{_s}_axm1": Eval("unique(a, axis=-1, return_counts=True)", a=V((2, 3, 9), _dt)),
        f"uq_{_s}_empty": Eval("unique(a, return_counts=True)", a=V((0, 3), _dt)),
        f"uq_{_s}_0d": Eval("unique(a, return_index=True)", a=V((), _dt)),
        f"uq_values_{_s}": Eval("sort(unique_values(a))", a=V((4, 7), _dt)),
        f"uq_counts_{_s}": Eval("unique_counts(a)", a=V((3, 5), _dt)),
        f"uq_inverse_{_s}": Eval("unique_inverse(a)", a=V((3, 5), _dt)),
        f"uq_all_{_s}": Eval("unique_all(a)", a=V((17,), _dt)),
        f"isin_{_s}": Eval("isin(a, b)", a=V((3, 5), _dt), b=V((4,), _dt)),
        f"isin_{_s}_invert": Eval("isin(a, b, invert=True)", a=V((3, 5), _dt), b=V((2, 2), _dt)),
        f"isin_{_s}_empty": Eval("isin(a, b)", a=V((0, 2), _dt), b=V((3,), _dt)),
        f"intersect1d_{_s}": Eval("intersect1d(a, b, return_indices=True)", a=V((9,), _dt), b=V((2, 5), _dt)),
        f"union1d_{_s}": Eval("union1d(a, b)", a=V((9,), _dt), b=V((5,), _dt)),
        f"setdiff1d_{_s}": Eval("setdiff1d(a, b)", a=V((13,), _dt), b=V((4,), _dt)),
        f"setxor1d_{_s}": Eval("setxor1d(a, b)", a=V((13,), _dt), b=V((6,), _dt)),
        f"sets_{_s}_empty": Eval("union1d(a, b), intersect1d(a, b), setdiff1d(a, b), setxor1d(a, b)",
                                 a=V((0,), _dt), b=V((3,), _dt)),
        f"sets_{_s}_0d": Eval("union1d(a, b), intersect1d(a, b), setdiff1d(a, b), setxor1d(a, b)",
                              a=V((), _dt), b=V((3,), _dt)),
        f"nonzero_{_s}": Eval("nonzero(a)", a=V((3, 5), _dt)),
        f"where1_{_s}": Eval("where(a)", a=V((2, 3, 4), _dt)),
        f"argwhere_{_s}": Eval("argwhere(a)", a=V((3, 5), _dt)),
        f"argwhere_{_s}_0d": Eval("argwhere(a)", a=V((), _dt)),
        f"flatnonzero_{_s}": Eval("flatnonzero(a)", a=V((3, 5), _dt)),
        f"flatnonzero_{_s}_0d": Eval("flatnonzero(a)", a=V((), _dt)),
        f"nonzero_{_s}_empty": Eval("nonzero(a)", a=V((0, 4), _dt)),
    }
    EVAL_NUMPY2_ONLY |= {f"uq_values_{_s}", f"uq_counts_{_s}", f"uq_inverse_{_s}", f"uq_all_{_s}",
                         f"uq_{_s}_0d", f"uq_{_s}", f"uq_{_s}_empty"}
    if _dt in REAL:
        _bins = np.sort(V((6,), _dt))
        _cases.update({
            f"dig_{_s}": Eval("digitize(x, bins)", x=V((3, 5), _dt), bins=np.unique(_bins)),
            f"dig_{_s}_right_dec": Eval("digitize(x, bins, right=True)", x=V((7,), _dt), bins=np.unique(_bins)[::-1]),
            f"dig_{_s}_empty": Eval("digitize(x, bins)", x=V((0,), _dt), bins=np.unique(_bins)),
            f"dig_{_s}_0d": Eval("digitize(x, bins)", x=V((), _dt), bins=np.unique(_bins)),
            f"hist_{_s}": Eval("histogram(a, bins=4)", a=V((5, 7), _dt)),
            f"hist_{_s}_range_weights": Eval("histogram(a, bins=3, range=(-1, 2), weights=w)", a=V((9,), _dt),
                                             w=V((9,), "float64")),
            f"hist_{_s}_edges_density": Eval("histogram(a, bins=e, density=True)", a=V((11,), _dt),
                                             e=np.array([-4, -1, 0, 0.5, 3, 8])),
            f"hist_{_s}_empty": Eval("histogram(a, bins=3)", a=V((0,), _dt)),
            f"hist_{_s}_0d": Eval("histogram(a, bins=2)", a=V((), _dt)),
        })
    if _dt in INTEGER:
        _cases.update({
            f"bc_{_s}": Eval("bincount(x)", x=nonneg((15,), _dt)),
            f"bc_{_s}_weights_minlength": Eval("bincount(x, weights=w, minlength=12)", x=nonneg((15,), _dt),
                                               w=V((15,), "float32")),
            f"bc_{_s}_empty": Eval("bincount(x, minlength=3)", x=nonneg((0,), _dt)),
        })
    if _dt in INEXACT:
        _nan_sorted = np.sort(with_nan(V((20,), _dt), [0, 10, 19]))
        _cases.update({
            f"ss_{_s}_nan": Eval("searchsorted(a, v)", a=_nan_sorted, v=with_nan(V((7,), _dt), [0, 3, 6])),
            f"ss_{_s}_nan_right": Eval("searchsorted(a, v, side='right')", a=_nan_sorted,
                                       v=with_nan(V((7,), _dt), [0, 3, 6])),
            f"uq_{_s}_nan": Eval("unique(a, return_index=True, return_inverse=True, return_counts=True)",
                                 a=with_nan(V((9,), _dt), [0, 4, 8])),
            f"uq_{_s}_nan_noeq": Eval("unique(a, return_counts=True, equal_nan=False)",
                                      a=with_nan(V((9,), _dt), [0, 4, 8])),
            f"isin_{_s}_nan": Eval("isin(a, b)", a=with_nan(V((9,), _dt), [0, 4, 8]), b=with_nan(V((3,), _dt), [1])),
            f"sets_{_s}_nan": Eval("union1d(a, b), intersect1d(a, b), setdiff1d(a, b), setxor1d(a, b)",
                                   a=with_nan(V((9,), _dt), [0, 4, 8]), b=with_nan(V((4,), _dt), [3])),
            f"nonzero_{_s}_nan": Eval("nonzero(a)", a=with_nan(V((3, 3), _dt), [0, 4, 8])),
        })
        EVAL_NUMPY2_ONLY |= {f"uq_{_s}_nan"}
    if _dt in ("float16", "float32", "float64"):
        _cases.update({
            f"dig_{_s}_nan": Eval("digitize(x, bins)", x=with_nan(V((7,), _dt), [0, 3, 6]), bins=np.unique(_bins)),
            f"hist_{_s}_nan_range": Eval("histogram(a, bins=4, range=(-2, 2))", a=with_nan(V((9,), _dt), [0, 4, 8])),
        })
    add_cases(EVAL_CASES, _cases)

add_cases(EVAL_CASES, {
    # ---- errors
    "ss_a_2d": Eval("searchsorted(a, v)", a=V((2, 3)), v=V((2,))),
    "ss_a_0d": Eval("searchsorted(a, v)", a=V(()), v=V((2,))),
    "ss_side_bad": Eval("searchsorted(a, v, side='middle')", a=V((3,)), v=V((2,))),
    "ss_sorter_size": Eval("searchsorted(a, v, sorter=s)", a=V((4,)), v=V((2,)), s=np.array([0, 1, 2])),
    "ss_sorter_oob": Eval("searchsorted(a, v, sorter=s)", a=V((3,)), v=V((2,)), s=np.array([0, 5, 1])),
    "dig_complex": Eval("digitize(x, bins)", x=V((3,), "complex128"), bins=np.array([0.0, 1.0])),
    "dig_bins_not_monotonic": Eval("digitize(x, bins)", x=V((3,)), bins=np.array([0.0, 2.0, 1.0])),
    "dig_bins_2d": Eval("digitize(x, bins)", x=V((3,)), bins=np.array([[0.0, 1.0], [2.0, 3.0]])),
    "bc_negative": Eval("bincount(x)", x=np.array([1, -1, 2])),
    "bc_float": Eval("bincount(x)", x=np.array([1.0, 2.0])),
    "bc_u8": Eval("bincount(x)", x=np.array([1, 2], "uint64")),
    "bc_2d": Eval("bincount(x)", x=np.array([[1, 2], [0, 1]])),
    "bc_0d": Eval("bincount(x)", x=np.array(3)),
    "bc_weights_length": Eval("bincount(x, weights=w)", x=np.array([0, 1, 1]), w=np.array([1.0, 2.0])),
    "bc_weights_complex": Eval("bincount(x, weights=w)", x=np.array([0, 1]), w=np.array([1j, 2.0])),
    "bc_minlength_negative": Eval("bincount(x, minlength=-1)", x=np.array([0, 1])),
    "hist_range_reversed": Eval("histogram(a, bins=3, range=(2, 1))", a=V((5,))),
    "hist_bins_zero": Eval("histogram(a, bins=0)", a=V((5,))),
    "hist_bins_negative": Eval("histogram(a, bins=-2)", a=V((5,))),
    "hist_edges_decreasing": Eval("histogram(a, bins=e)", a=V((5,)), e=np.array([0.0, 2.0, 1.0])),
    "hist_edges_2d": Eval("histogram(a, bins=e)", a=V((5,)), e=np.array([[0.0, 1.0], [2.0, 3.0]])),
    "hist_nan_autorange": Eval("histogram(a)", a=with_nan(V((5,)), [2])),
    "hist_weights_shape": Eval("histogram(a, weights=w)", a=V((5,)), w=V((4,))),
    "uq_axis_oob": Eval("unique(a, axis=2)", a=V((3, 4))),
    "uq_axis_neg_oob": Eval("unique(a, axis=-3)", a=V((3, 4), "int32")),
    "uq_0d_axis0": Eval("unique(a, axis=0)", a=V(())),
    "nonzero_0d": Eval("nonzero(a)", a=V((), "int32")),
    "where1_0d": Eval("where(a)", a=V(())),
    # ---- the NumPy 2 unique_* of empty, 0-d and NaN inputs; empty inputs of the index finders
    "uq_all_empty": Eval("unique_all(a)", a=V((0,), "int32")),
    "uq_counts_0d": Eval("unique_counts(a)", a=V((), "float32")),
    "uq_inverse_empty_2d": Eval("unique_inverse(a)", a=V((0, 3))),
    "uq_all_nan_f8": Eval("unique_all(a)", a=with_nan(V((9,)), [0, 4, 8])),
    "uq_counts_nan_c8": Eval("unique_counts(a)", a=with_nan(V((9,), "complex64"), [0, 4, 8])),
    "uq_inverse_nan_f2": Eval("unique_inverse(a)", a=with_nan(V((3, 3), "float16"), [0, 4, 8])),
    "uq_values_nan_f4": Eval("sort(unique_values(a))", a=with_nan(V((9,), "float32"), [0, 4, 8])),
    "uq_values_empty": Eval("unique_values(a)", a=V((0,), "uint8")),
    "argwhere_empty": Eval("argwhere(a)", a=V((2, 0, 3), "float32")),
    "flatnonzero_empty": Eval("flatnonzero(a)", a=V((0, 3), "int8")),
    "argwhere_nan": Eval("argwhere(a)", a=with_nan(V((3, 3)), [0, 4, 8])),
    "flatnonzero_nan": Eval("flatnonzero(a)", a=with_nan(V((9,), "float16"), [0, 4, 8])),
    "where1_empty": Eval("where(a)", a=V((0, 2), "bool")),
    # ---- more forms
    "ss_mixed_dtypes": Eval("searchsorted(a, v)", a=np.sort(V((9,), "int16")), v=V((5,), "float32")),
    "ss_flipped_v": Eval("searchsorted(a, flip(v, 0))", a=np.sort(V((9,))), v=V((5,))),
    "ss_long": Eval("searchsorted(a, v, side='right')", a=np.sort(V((100003,), "float32")), v=V((1001,), "float32")),
    "dig_u1_bins_i8": Eval("digitize(x, bins)", x=V((9,), "uint8"), bins=np.array([-3, 2, 5, 7])),
    "bc_long": Eval("bincount(x, minlength=5)", x=nonneg((200003,), "int32")),
    "hist_long_f4": Eval("histogram(a, bins=13)", a=V((100003,), "float32")),
    "uq_long_f4": Eval("unique(a, return_inverse=True, return_counts=True)", a=V((70001,), "float32")),
    "isin_long_i2": Eval("isin(a, b)", a=V((50001,), "int16"), b=V((301,), "int16")),
    "uq_axis0_f4_nan": Eval("unique(a, axis=0, return_inverse=True)", a=with_nan(V((6, 2), "float32"), [0, 4])),
})
EVAL_NUMPY2_ONLY |= {"nonzero_0d", "where1_0d", "uq_long_f4", "uq_all_empty", "uq_counts_0d", "uq_inverse_empty_2d",
                     "uq_all_nan_f8", "uq_counts_nan_c8", "uq_inverse_nan_f2", "uq_values_nan_f4", "uq_values_empty"}

# ---- explicit values (the cases the C++ test used to make itself): limits of each dtype,
# duplicates, NaN and infinities in known places, mixed dtypes, empty and 0-d inputs, sorters,
# strided and transposed views (written in the expression), long inputs. Outputs in float16 or
# float32 compare within 1e-3 / 1e-6 (rtol), as those cases always did.
add_cases(EVAL_CASES, {
    # searchsorted
    "ss_left": Eval("searchsorted(a, v)", a=ar((10,)) * 2, v=I([-1, 0, 3, 18, 19, 40])),
    "ss_right_dups": Eval("searchsorted(a, v, side='right')", a=I([1, 2, 2, 2, 3]), v=I([2, 0, 5, 1])),
    "ss_left_dups": Eval("searchsorted(a, v, side='left')", a=I([1, 2, 2, 2, 3]), v=I([2, 0, 5, 1])),
    "ss_f4_nan_inf": Eval("searchsorted(a, v)", a=F([-inf, 1, 2, inf, nan, nan], "f4"),
                          v=F([nan, 1.5, -inf, inf, 2], "f4")),
    "ss_f4_nan_inf_right": Eval("searchsorted(a, v, side='right')", a=F([-inf, 1, 2, inf, nan, nan], "f4"),
                                v=F([nan, 1.5, -inf, inf, 2], "f4")),
    "ss_f2_dups_outside": Eval("searchsorted(a, v)", a=F([0.5, 1, 1, 2.25, 1000], "f2"),
                               v=F([1, 0, 3, 2000, 2.25], "f2")),
    "ss_f8_negzero": Eval("searchsorted(a, v, side='right')", a=F([-1, -0.0, 0.0, 1]), v=F([0.0, -0.0])),
    "ss_c16_nan_parts": Eval("searchsorted(a, v)", a=C_SORTED,
                             v=C([1 + 1.5j, complex(nan, 1), complex(1, nan), 0j, 3 + 0j])),
    "ss_c8_nan_parts_right": Eval("searchsorted(a, v, side='right')", a=C_SORTED.astype("c8"),
                                  v=C([1 + 1j, 2 + 0j, complex(nan, nan)], "c8")),
    "ss_bool": Eval("searchsorted(a, v)", a=I([False, False, True, True], "?"), v=I([True, False], "?")),
    "ss_u1_i2": Eval("searchsorted(a, v)", a=I([1, 5, 200, 250], "u1"), v=I([-5, 5, 300], "i2")),
    "ss_i8_f8": Eval("searchsorted(a, v)", a=I([1, 5, 9]), v=F([4.5, 5.0, 9.5])),
    "ss_u8_beyond_int64": Eval("searchsorted(a, v)", a=I([0, 2**63, 2**64 - 2], "u8"),
                               v=I([2**63 + 1, 1, 2**64 - 1], "u8")),
    "ss_i1_limits_right": Eval("searchsorted(a, v, side='right')", a=I([-128, -1, 0, 127], "i1"),
                               v=I([-1, 100, -128], "i1")),
    "ss_sorter": Eval("searchsorted(a, v, sorter=s)", a=I([30, 10, 20]), v=I([20, 0, 35]), s=I([1, 2, 0])),
    "ss_sorter_right_i4": Eval("searchsorted(a, v, side='right', sorter=s)", a=I([30, 10, 20]), v=I([20, 10]),
                               s=I([1, 2, 0], "i4")),
    "ss_0d_v": Eval("searchsorted(a, v)", a=ar((5,)), v=I(3)),
    "ss_empty_a": Eval("searchsorted(a, v)", a=I([]), v=I([1, 2])),
    "ss_empty_v": Eval("searchsorted(a, v)", a=ar((5,)), v=I([])),
    "ss_2d_v": Eval("searchsorted(a, v, side='right')", a=ar((5,)), v=I([[1, 2], [3, 9]])),
    # (views: diag(m) strided by 5 elements, flip(v, 0) by -1)
    "ss_strided": Eval("searchsorted(diag(m), flip(v, 0))", m=np.diag(ar((12,), "f8")[::3]), v=ar((6,), "f8")),
    # digitize
    "dig_inc": Eval("digitize(x, bins)", x=F([0.2, 6.4, 3.0, 1.6, -1, 10]), bins=F([0, 1, 2.5, 4, 10])),
    "dig_inc_right": Eval("digitize(x, bins, right=True)", x=F([0.2, 6.4, 3.0, 1.6, -1, 10, 0]),
                          bins=F([0, 1, 2.5, 4, 10])),
    "dig_dec": Eval("digitize(x, bins)", x=F([0.2, 6.4, 3.0, 1.6, -1, 10]), bins=F([10, 4, 2.5, 1, 0])),
    "dig_dec_right": Eval("digitize(x, bins, right=True)", x=F([0.2, 6.4, 3.0, 1.6, -1, 10, 0]),
                          bins=F([10, 4, 2.5, 1, 0])),
    "dig_int": Eval("digitize(x, bins)", x=ar((10,), "i4"), bins=I([2, 4, 4, 7], "i2")),
    "dig_nan": Eval("digitize(x, bins)", x=F([nan, 1, 3], "f4"), bins=F([0, 2, 4], "f4")),
    "dig_empty_bins": Eval("digitize(x, bins)", x=F([1, 2]), bins=F([])),
    "dig_2d_x": Eval("digitize(x, bins)", x=ar((2, 3), "f8"), bins=F([1, 3])),
    "dig_const_bins": Eval("digitize(x, bins)", x=I([1, 2, 3]), bins=I([2, 2, 2])),
    # bincount
    "bc_basic": Eval("bincount(x)", x=I([0, 1, 1, 3, 2, 1, 7])),
    "bc_minlength": Eval("bincount(x, minlength=10)", x=I([0, 1, 1, 3])),
    "bc_minlength_short": Eval("bincount(x, minlength=3)", x=I([0, 9, 1])),
    "bc_weights": Eval("bincount(x, weights=w)", x=I([0, 1, 1, 2, 2, 2]), w=F([0.3, 0.5, 0.2, 0.7, 1.0, -0.6])),
    "bc_weights_i4": Eval("bincount(x, weights=w)", x=I([2, 0, 2]), w=I([5, 6, 7], "i4")),
    "bc_weights_f4": Eval("bincount(x, weights=w)", x=I([1, 1]), w=F([0.25, 0.5], "f4")),
    "bc_bool": Eval("bincount(x)", x=I([True, False, True], "?")),
    "bc_u1_max": Eval("bincount(x)", x=I([255, 0, 255], "u1")),
    "bc_i1_repeats": Eval("bincount(x)", x=I([3, 3, 0], "i1")),
    "bc_u4_gaps": Eval("bincount(x)", x=I([4, 1], "u4")),
    "bc_empty": Eval("bincount(x)", x=I([])),
    "bc_empty_minlength": Eval("bincount(x, minlength=4)", x=I([])),
    "bc_empty_weights": Eval("bincount(x, weights=w)", x=I([]), w=F([])),
    "bc_big": Eval("bincount(x)", x=ar((100000,)) % 1000),
    # histogram
    "hist_default": Eval("histogram(a)", a=F([1, 2, 1, 4, 3.5, 0, 10, 2.5])),
    "hist_bins5_range": Eval("histogram(a, bins=5, range=(0, 5))", a=F([1, 2, 1, 4, 3.5, 0, 10, 2.5])),
    "hist_int": Eval("histogram(a, bins=4)", a=ar((20,), "i4")),
    "hist_i8_3": Eval("histogram(a, bins=3)", a=ar((10,))),
    "hist_u1_const": Eval("histogram(a)", a=I([5, 5, 5], "u1")),
    "hist_f4_bins7": Eval("histogram(a, bins=7)", a=F([0.1, 0.7, 0.3, 0.9, 0.5, 0.2, 0.6], "f4"), rtol=1e-6),
    "hist_f4_const": Eval("histogram(a, bins=2)", a=F([2.5, 2.5], "f4"), rtol=1e-6),
    "hist_f2_bins3": Eval("histogram(a, bins=3)", a=F([0.1, 0.7, 0.3, 0.9, 0.5], "f2"), rtol=1e-3),
    "hist_f2_range": Eval("histogram(a, bins=4, range=(0.0, 1.0))", a=F([0.1, 0.7, 0.3, 0.9, 0.5], "f2"), rtol=1e-3),
    "hist_edges": Eval("histogram(a, bins=e)", a=F([0, 1, 1.5, 2, 3, 3, 4, 5, -1]), e=F([0, 1, 2, 3])),
    "hist_edges_int": Eval("histogram(a, bins=e)", a=I([0, 1, 2, 2, 5, 9]), e=I([0, 2, 2, 5, 9])),
    "hist_edges_f4_data_f8_edges": Eval("histogram(a, bins=e)", a=F([0.5, 1.5, 2.5], "f4"), e=F([0, 1, 2, 3])),
    "hist_weights": Eval("histogram(a, bins=3, weights=w)", a=F([1, 2, 2, 3]), w=F([0.5, 1, 2, 4])),
    "hist_weights_i8": Eval("histogram(a, bins=3, weights=w)", a=F([1, 2, 2, 3]), w=I([1, 2, 3, 4])),
    # (float32 counts, float64 edges: 1e-12 for both, the counts being exact)
    "hist_weights_f4": Eval("histogram(a, bins=2, weights=w)", a=F([1, 2, 2, 3]), w=F([0.5, 1, 2, 4], "f4"),
                            rtol=1e-12),
    "hist_weights_c16": Eval("histogram(a, bins=2, weights=w)", a=F([1, 2, 2, 3]), w=C([1 + 1j, 2, 3j, 4])),
    "hist_weights_edges": Eval("histogram(a, bins=e, weights=w)", a=F([1, 2, 2, 3]), e=F([1, 2.5, 3]),
                               w=F([0.5, 1, 2, 4])),
    "hist_density": Eval("histogram(a, bins=4, density=True)", a=F([1, 2, 2, 3, 7])),
    "hist_density_edges": Eval("histogram(a, bins=e, density=True)", a=F([1, 2, 2, 3, 7]), e=F([0, 1, 5, 10])),
    "hist_nan_range": Eval("histogram(a, bins=2, range=(0, 4))", a=F([nan, 1, 2, nan, 3])),
    "hist_outside": Eval("histogram(a, bins=3, range=(2.5, 6))", a=ar((10,), "f8")),
    "hist_range_equal": Eval("histogram(a, bins=2, range=(2, 2))", a=F([1, 2, 3])),
    "hist_empty": Eval("histogram(a, bins=3)", a=F([])),
    "hist_empty_int": Eval("histogram(a, bins=2)", a=I([])),
    "hist_bool": Eval("histogram(a, bins=2)", a=I([True, False, True], "?")),
    "hist_2d": Eval("histogram(a, bins=3)", a=ar((3, 4), "f8")),
    "hist_big": Eval("histogram(sin(x), bins=37)", x=ar((100000,), "f8")),
    # unique
    "uq_basic": Eval("unique(a)", a=I([3, 1, 2, 3, 1])),
    "uq_i4_all_flags": Eval("unique(a, return_index=True, return_inverse=True, return_counts=True)",
                            a=I([3, 1, 2, 3, 1, 3], "i4")),
    "uq_index": Eval("unique(a, return_index=True)", a=I([5, 5, 4, 4, 5, 1])),
    "uq_u2_return_counts": Eval("unique(a, return_counts=True)", a=I([7, 7, 0, 65535, 7], "u2")),
    "uq_nan": Eval("unique(a)", a=F([nan, 1, nan, 2, 1])),
    "uq_nan_noeq": Eval("unique(a, equal_nan=False)", a=F([nan, 1, nan, 2, 1])),
    "uq_nan_flags": Eval("unique(a, return_index=True, return_inverse=True, return_counts=True)",
                         a=F([nan, 1, nan, 2, 1, nan], "f4"), rtol=1e-6),
    "uq_nan_flags_noeq": Eval("unique(a, return_index=True, return_counts=True, equal_nan=False)",
                              a=F([nan, 1, nan, 2, 1], "f4"), rtol=1e-6),
    "uq_nan_first": Eval("unique(a, return_counts=True)", a=F([nan, nan, nan])),
    "uq_c8_nan_parts_counts": Eval("unique(a, return_counts=True)",
                                   a=C([1 + 1j, complex(nan, 1), 1 + 1j, complex(1, nan), 0j, 1 + 0j], "c8"), rtol=1e-6),
    "uq_c16_noeq": Eval("unique(a, equal_nan=False)", a=C([complex(nan, 1), 2j, complex(1, nan), 2j])),
    "uq_bool": Eval("unique(a, return_counts=True)", a=I([True, False, True, True], "?")),
    "uq_f2_index_max": Eval("unique(a, return_index=True)", a=F([1.5, -2, 1.5, 65504, -2], "f2"), rtol=1e-3),
    "uq_u1_plain": Eval("unique(a)", a=I([200, 3, 200, 0], "u1")),
    "uq_i1_counts": Eval("unique(a, return_counts=True)", a=I([-5, 3, -5, 0], "i1")),
    "uq_u8_max_index": Eval("unique(a, return_index=True)", a=I([2**64 - 1, 3, 2**64 - 1, 0], "u8")),
    "uq_negzero": Eval("unique(a, return_index=True)", a=F([0.0, -0.0, 1.0, 0.0])),
    "uq_2d": Eval("unique(a, return_inverse=True)", a=ar((3, 4)) % 5),
    "uq_0d": Eval("unique(a, return_inverse=True)", a=I(5)),
    "uq_empty": Eval("unique(a, return_index=True, return_inverse=True, return_counts=True)", a=I([])),
    "uq_big": Eval("unique(a, return_index=True, return_inverse=True, return_counts=True)",
                   a=(ar((100000,)) * 7919) % 1009),
    # unique along an axis (sub-arrays as structured rows: lexicographic order, NaN rows never equal)
    "uqa_rows": Eval("unique(a, axis=0)", a=I([[1, 0, 0], [1, 0, 0], [2, 3, 4]])),
    "uqa_all_i4": Eval("unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True)",
                       a=I([[3, 1], [1, 2], [3, 1], [0, 5], [1, 2]], "i4")),
    "uqa_cols": Eval("unique(a, axis=1, return_counts=True)", a=I([[1, 0, 1, 2], [3, 4, 3, 5]])),
    "uqa_3d_axis1": Eval("unique(a, axis=1, return_index=True, return_inverse=True)", a=(ar((2, 5, 3)) * 7) % 4 // 2),
    "uqa_3d_neg": Eval("unique(a, axis=-1, return_counts=True)", a=(ar((3, 2, 4)) // 3) % 2),
    "uqa_3d_axis0": Eval("unique(a, axis=0, return_inverse=True)",
                         a=I([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 4]).reshape(3, 2, 2)),
    "uqa_1d": Eval("unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True)",
                   a=I([3, 1, 3, 2])),
    "uqa_f8_nan": Eval("unique(a, axis=0, return_index=True, return_counts=True)",
                       a=F([nan, 1, nan, 1, 1, 2, 0, nan, 1, 2]).reshape(5, 2)),
    "uqa_f8_nan_noeq": Eval("unique(a, axis=0, equal_nan=False)", a=F([nan, 1, nan, 1, 1, 2]).reshape(3, 2)),
    "uqa_f8_inf": Eval("unique(a, axis=0, return_inverse=True)",
                       a=F([inf, -inf, 1, -inf, inf, -inf, -inf, 0]).reshape(4, 2)),
    "uqa_negzero": Eval("unique(a, axis=0, return_index=True, return_counts=True)",
                        a=F([0.0, 1, -0.0, 1, -0.0, 0, 0.0, 0]).reshape(4, 2)),
    "uqa_f4": Eval("unique(a, axis=0, return_inverse=True, return_counts=True)",
                   a=F([2.5, -1, 2.5, -1, 0.5, 7, -3, 0.25], "f4").reshape(4, 2), rtol=1e-6),
    "uqa_f4_axis1": Eval("unique(a, axis=1, return_counts=True)",
                         a=F([2.5, 2.5, -1, nan, nan, 3, 3, 1, 1, 1], "f4").reshape(2, 5), rtol=1e-6),
    "uqa_f2": Eval("unique(a, axis=0, return_index=True)",
                   a=F([1.5, -2, 65504, 1.5, -2, 65504, 0.5, 0.5, 0.5], "f2").reshape(3, 3), rtol=1e-3),
    "uqa_c16": Eval("unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True)",
                    a=C([1 + 1j, 2, complex(1, nan), 0, 1 + 1j, 2, complex(nan, 0), 1, 1 + 1j, 1]).reshape(5, 2)),
    "uqa_c8_axis1": Eval("unique(a, axis=1, return_counts=True)", a=C([1j, 2, 1j, 2, 3, 2, 3, 2], "c8").reshape(2, 4),
                         rtol=1e-6),
    "uqa_bool": Eval("unique(a, axis=0, return_inverse=True, return_counts=True)",
                     a=I([1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0], "?").reshape(4, 3)),
    "uqa_u1": Eval("unique(a, axis=0, return_counts=True)", a=I([200, 3, 0, 255, 200, 3, 0, 0], "u1").reshape(4, 2)),
    "uqa_i1": Eval("unique(a, axis=0, return_index=True)", a=I([-5, 3, 127, -128, -5, 3, -5, -3], "i1").reshape(4, 2)),
    "uqa_i2_axis1": Eval("unique(a, axis=1, return_inverse=True)",
                         a=I([-300, 7, -300, 7, 5, 5, 5, 4], "i2").reshape(2, 4)),
    "uqa_u2": Eval("unique(a, axis=0, return_counts=True)", a=I([65535, 0, 65535, 0, 1, 1], "u2").reshape(3, 2)),
    "uqa_u4": Eval("unique(a, axis=0)", a=I([4000000000, 1, 2, 3, 4000000000, 1], "u4").reshape(3, 2)),
    "uqa_u8": Eval("unique(a, axis=0, return_index=True, return_counts=True)",
                   a=I([2**64 - 1, 3, 2**63, 3, 2**64 - 1, 3, 0, 0], "u8").reshape(4, 2)),
    # (rot90(b) is flip(b.T, 0): (ar((6, 8)) % 3)[::-1, ::2] as a view of strides -1 and 6 elements)
    "uqa_strided": Eval("unique(rot90(b), axis=0, return_index=True, return_counts=True)",
                        b=np.ascontiguousarray((ar((6, 8)) % 3)[:, ::2].T)),
    # (flip(rot90(a), 0) is a.T: a view of a's strides swapped)
    "uqa_transposed": Eval("unique(flip(rot90(a), 0), axis=1, return_inverse=True)", a=ar((4, 3)) % 2),
    "uqa_empty_axis": Eval("unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True)",
                           a=F([]).reshape(0, 3)),
    "uqa_zero_width": Eval("unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True)",
                           a=I([], "i1").reshape(3, 0)),
    "uqa_zero_width_axis1": Eval("unique(a, axis=1, return_index=True, return_inverse=True, return_counts=True)",
                                 a=I([], "i1").reshape(2, 0)),
    "uqa_zeros_3d": Eval("unique(a, axis=1)", a=F([]).reshape(0, 2, 0)),
    "uqa_big": Eval("unique(a, axis=0, return_index=True, return_inverse=True, return_counts=True)",
                    a=(ar((3000, 3)) * 7919) % 5),
    # NumPy 2's unique_* (unique_values sorted: NumPy >= 2.3 leaves its order unspecified)
    "uq_values": Eval("sort(unique_values(a))", a=F([nan, 2, nan, 1, 2])),
    "uq_counts_api": Eval("unique_counts(a)", a=F([nan, 2, nan, 1, 2])),
    "uq_inverse_api": Eval("unique_inverse(a)", a=ar((2, 3)) % 2),
    "uq_all_api": Eval("unique_all(a)", a=F([nan, 2, nan, 1, 2], "f4"), rtol=1e-6),
    # isin
    "isin_basic": Eval("isin(a, b)", a=ar((2, 3)), b=I([1, 4, 9])),
    "isin_invert": Eval("isin(a, b, invert=True)", a=ar((2, 3)), b=I([1, 4, 9])),
    "isin_f8_nan_negzero": Eval("isin(a, b)", a=F([nan, 1, 2, -0.0]), b=F([nan, 0.0, 2])),
    "isin_mixed": Eval("isin(a, b)", a=I([1, 2, 3], "i4"), b=F([2.0, 2.5])),
    "isin_c16_nan_real": Eval("isin(a, b)", a=C([1 + 1j, 2, complex(nan, 0)]), b=C([2, 1 + 1j, complex(nan, 0)])),
    "isin_empty_test": Eval("isin(a, b)", a=ar((3,)), b=I([])),
    "isin_empty_test_invert": Eval("isin(a, b, invert=True)", a=ar((3,)), b=I([])),
    "isin_empty_element": Eval("isin(a, b)", a=I([]), b=ar((3,))),
    "isin_0d": Eval("isin(a, b)", a=I(4), b=I([4, 5])),
    "isin_bool": Eval("isin(a, b)", a=I([True, False], "?"), b=I([True], "?")),
    "isin_2d_test": Eval("isin(a, b)", a=ar((5,), "f4"), b=ar((2, 2), "f4") * 2),
    "isin_big": Eval("isin(a, b)", a=ar((100000,)) % 977, b=(ar((300,)) * 13) % 977),
    # intersect1d
    "ix_basic": Eval("intersect1d(a, b)", a=I([1, 3, 4, 3]), b=I([3, 1, 2, 1])),
    "ix_indices": Eval("intersect1d(a, b, return_indices=True)", a=I([1, 1, 2, 3, 4]), b=I([2, 1, 4, 6])),
    "ix_assume_unique": Eval("intersect1d(a, b, assume_unique=True)", a=I([5, 1, 3]), b=I([3, 9, 5])),
    "ix_assume_unique_indices": Eval("intersect1d(a, b, assume_unique=True, return_indices=True)", a=I([5, 1, 3]),
                                     b=I([3, 9, 5])),
    "ix_f4_nan": Eval("intersect1d(a, b)", a=F([nan, 1, 2], "f4"), b=F([nan, 2], "f4"), rtol=1e-6),
    "ix_mixed": Eval("intersect1d(a, b)", a=I([1, 2, 3], "i1"), b=F([2, 3.5, 1], "f4"), rtol=1e-6),
    "ix_empty": Eval("intersect1d(a, b)", a=I([]), b=I([1, 2])),
    "ix_2d": Eval("intersect1d(a, b)", a=ar((2, 3)), b=ar((3, 2)) + 3),
    # union1d, setdiff1d, setxor1d
    "union_basic": Eval("union1d(a, b)", a=I([-1, 0, 1]), b=I([-2, 0, 2])),
    "union_nan": Eval("union1d(a, b)", a=F([nan, 1]), b=F([nan, 2, 1])),
    "union_mixed": Eval("union1d(a, b)", a=I([1, 2], "u1"), b=I([-1, 2], "i1")),
    "union_2d": Eval("union1d(a, b)", a=ar((2, 2)), b=I([7])),
    "setdiff_basic": Eval("setdiff1d(a, b)", a=I([1, 2, 3, 2, 4, 1]), b=I([3, 4, 5, 6])),
    "setdiff_assume_unique": Eval("setdiff1d(a, b, assume_unique=True)", a=I([9, 2, 5, 1]), b=I([5, 0])),
    "setdiff_nan": Eval("setdiff1d(a, b)", a=F([nan, 1, 2]), b=F([nan, 1])),
    "setdiff_f2": Eval("setdiff1d(a, b)", a=F([0.5, 1, 1.5], "f2"), b=F([1], "f2"), rtol=1e-3),
    "setxor_basic": Eval("setxor1d(a, b)", a=I([1, 2, 3, 2, 4]), b=I([2, 3, 5, 7, 5])),
    "setxor_nan": Eval("setxor1d(a, b)", a=F([nan, 1]), b=F([nan])),
    "setxor_empty": Eval("setxor1d(a, b)", a=I([]), b=I([])),
    "setxor_assume_unique": Eval("setxor1d(a, b, assume_unique=True)", a=I([3, 1]), b=I([1, 2])),
    "setxor_c8": Eval("setxor1d(a, b)", a=C([1j, 2], "c8"), b=C([2, 3], "c8"), rtol=1e-6),
})
# (NumPy 1's unique gives a 1-d inverse and has no unique_*)
EVAL_NUMPY2_ONLY |= {"uq_2d", "uq_0d", "uq_empty", "uq_values", "uq_counts_api", "uq_inverse_api", "uq_all_api"}

# in1d: deprecated in NumPy 2.0 (cupp has it); only where this NumPy still has it.
if hasattr(np, "in1d"):
    for _dt in DTYPES:
        add_cases(EVAL_CASES, {f"in1d_{SHORT[_dt]}": Eval("in1d(a, b, invert=True)", a=V((2, 5), _dt), b=V((3,), _dt))})
    add_cases(EVAL_CASES, {"in1d_2d": Eval("in1d(a, b)", a=ar((2, 3)), b=I([0, 5]))})

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, set(), __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
