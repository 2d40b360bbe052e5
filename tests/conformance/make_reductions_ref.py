#!/usr/bin/env python3
"""NumPy reference data for the reductions (issue 8), run through `cupp eval`'s engine by
tests/gpu/test_eval_ref_gpu.cpp (EvalRefGpu.Reductions): sum, prod, max/amax, min/amin, mean,
var, std, ptp, all, any, count_nonzero, argmax, argmin, the nan-functions and ufunc.reduce.

    python3 make_reductions_ref.py OUT_DIR

writes OUT_DIR/manifest.json (no classic cases) and OUT_DIR/eval (routine_ref.py's write_eval_set:
each case is the expression below over its inputs, evaluated by NumPy here and by cupp in the
test). Every routine on every dtype it accepts: an odd 3-d shape along a negative axis, an axis
tuple (two axes, keepdims) or for the arg-functions no axis, an empty input, a 0-d input; NaN
first, in the middle and last along the reduced lines and last in the flattened array for the
float and complex dtypes; then errors (a bad axis: AxisError; a repeated axis: ValueError; an
empty reduction without identity: ValueError; an axis tuple to argmax: TypeError; ptp of bool),
ddof, dtype=, keepdims with no axis, long lines. Inputs (routine_ref.V and P) are chosen so that
sums and products are exact in any order: the results do not depend on cupp's tree order.
The shared NumPy 2.5.2 set (numpy-2.5.2-ref.tgz reductions/, tests/gpu/test_reductions_gpu.cpp and
eval_conformance.py) has the 3x4x5 inputs with axis None/0/1/2/(0,2) for 17 of these.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, INEXACT, SHORT, Eval, P, V, add_cases, with_nan

TUPLE_OK = ["sum", "prod", "max", "amax", "min", "amin", "mean", "var", "std", "all", "any", "count_nonzero",
            "nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "ptp"]
ARG = ["argmax", "argmin", "nanargmax", "nanargmin"]
PRODUCTS = {"prod", "nanprod"}
# Reductions without an identity: an empty reduction is NumPy's ValueError.
NO_IDENTITY = {"max", "amax", "min", "amin", "nanmax", "nanmin", "ptp"} | set(ARG)


def data(routine, shape, dt):
    return P(shape, dt) if routine in PRODUCTS else V(shape, dt)


# NumPy's float16 var/std round the mean, the deviations, their squares and the sum to float16
# (cupp rounds once, docs/deviations.md): up to about five float16 roundings apart.
VAR = {"var", "std", "nanvar", "nanstd"}


def rtol_of(routine, dt):
    return 5e-3 if routine in VAR and dt == "float16" else None


def dtypes_of(routine):
    return [d for d in DTYPES if not (routine == "ptp" and d == "bool")]


CASES = {}  # no classic cases: everything runs through cupp eval's engine
EVAL_CASES = {}
for _r in TUPLE_OK + ARG:
    for _dt in dtypes_of(_r):
        _n = f"{_r}_{SHORT[_dt]}"
        _tol = rtol_of(_r, _dt)
        _cases = {
            f"{_n}_axm1": Eval(f"{_r}(a, axis=-1)", rtol=_tol, a=data(_r, (3, 5, 7), _dt)),
            f"{_n}_empty": Eval(f"{_r}(a, axis=0)", a=data(_r, (0, 3), _dt)),
            f"{_n}_0d": Eval(f"{_r}(a)", a=data(_r, (), _dt)),
        }
        if _r in TUPLE_OK:
            _cases[f"{_n}_axt"] = Eval(f"{_r}(a, axis=(0, -1), keepdims=True)", rtol=_tol,
                                       a=data(_r, (3, 5, 7), _dt))
        else:
            _cases[f"{_n}_none"] = Eval(f"{_r}(a)", a=data(_r, (5, 3), _dt))
            _cases[f"{_n}_ax0_kd"] = Eval(f"{_r}(a, axis=0, keepdims=True)", a=data(_r, (5, 3), _dt))
        if _dt in INEXACT:
            # NaN first in row 0, in the middle of row 1, last in row 2; then last of the flattened array.
            _cases[f"{_n}_nan"] = Eval(f"{_r}(a, axis=-1)", rtol=_tol,
                                       a=with_nan(data(_r, (3, 7), _dt), [0, 10, 20]))
            _cases[f"{_n}_nanlast"] = Eval(f"{_r}(a)", rtol=_tol, a=with_nan(data(_r, (4, 5), _dt), [19]))
        add_cases(EVAL_CASES, _cases)

# ufunc.reduce of the reorderable binary ufuncs (and subtract along one axis) on the dtypes with a loop.
INTS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
UFUNCS = {"add": DTYPES, "multiply": DTYPES, "maximum": DTYPES, "minimum": DTYPES, "fmax": DTYPES, "fmin": DTYPES,
          "logical_and": DTYPES, "logical_or": DTYPES, "logical_xor": DTYPES, "bitwise_and": INTS,
          "bitwise_or": INTS, "bitwise_xor": INTS, "subtract": [d for d in DTYPES if d != "bool"]}
for _u, _dts in UFUNCS.items():
    for _dt in _dts:
        _src = P if _u == "multiply" else V
        _cases = {f"{_u}_reduce_{SHORT[_dt]}": Eval(f"{_u}.reduce(a, axis=-1)", a=_src((3, 5, 7), _dt))}
        if _u != "subtract":
            _cases[f"{_u}_reduce_{SHORT[_dt]}_axt"] = Eval(f"{_u}.reduce(a, axis=(2, 0))", a=_src((3, 5, 7), _dt))
        add_cases(EVAL_CASES, _cases)

X3 = V((3, 4, 5))
F2 = V((4, 6))
add_cases(EVAL_CASES, {
    # ---- errors: axes
    "sum_axis_oob": Eval("sum(a, axis=3)", a=X3),
    "sum_axis_neg_oob": Eval("sum(a, axis=-4)", a=X3),
    "sum_axis_tuple_oob": Eval("sum(a, axis=(0, 3))", a=X3),
    "sum_axis_dup": Eval("sum(a, axis=(1, -2))", a=X3),
    "prod_axis_oob": Eval("prod(a, axis=-4)", a=X3),
    "max_axis_oob": Eval("max(a, axis=3)", a=X3),
    "min_axis_dup": Eval("min(a, axis=(0, 0))", a=X3),
    "mean_axis_oob": Eval("mean(a, axis=3)", a=X3),
    "mean_axis_dup": Eval("mean(a, axis=(2, -1))", a=X3),
    "var_axis_oob": Eval("var(a, axis=-4)", a=X3),
    "std_axis_dup": Eval("std(a, axis=(0, -3))", a=X3),
    "all_axis_oob": Eval("all(a, axis=3)", a=X3),
    "any_axis_dup": Eval("any(a, axis=(1, 1))", a=X3),
    "count_nonzero_axis_oob": Eval("count_nonzero(a, axis=3)", a=X3),
    "ptp_axis_oob": Eval("ptp(a, axis=3)", a=X3),
    "nansum_axis_oob": Eval("nansum(a, axis=3)", a=X3),
    "nanmax_axis_oob": Eval("nanmax(a, axis=-4)", a=X3),
    "nanmean_axis_dup": Eval("nanmean(a, axis=(0, -3))", a=X3),
    "nanvar_axis_oob": Eval("nanvar(a, axis=3)", a=X3),
    "argmax_axis_oob": Eval("argmax(a, axis=3)", a=X3),
    "argmin_axis_neg_oob": Eval("argmin(a, axis=-4)", a=X3),
    "nanargmax_axis_oob": Eval("nanargmax(a, axis=3)", a=X3),
    "argmax_axis_tuple": Eval("argmax(a, axis=(0, 1))", a=X3),
    "argmin_axis_tuple": Eval("argmin(a, axis=(0, 1))", a=X3),
    "add_reduce_axis_oob": Eval("add.reduce(a, axis=3)", a=X3),
    "subtract_reduce_two_axes": Eval("subtract.reduce(a, axis=(0, 1))", a=X3),
    "maximum_reduce_empty": Eval("maximum.reduce(a, axis=0)", a=V((0, 3))),
    # 0-d with axis 0 (NumPy's ufunc reductions accept it, mean/var do not) and -1
    "sum_0d_axis0": Eval("sum(a, axis=0)", a=V(())),
    "max_0d_axism1": Eval("max(a, axis=-1)", a=V(())),
    "argmax_0d_axis0": Eval("argmax(a, axis=0)", a=V(())),
    "mean_0d_axis0": Eval("mean(a, axis=0)", a=V(())),
    "var_0d_axis0": Eval("var(a, axis=0)", a=V(())),
    "count_nonzero_0d_axis0": Eval("count_nonzero(a, axis=0)", a=V(())),
    "sum_0d_axis1": Eval("sum(a, axis=1)", a=V(())),
    # ---- errors: empty reductions and dtypes
    "max_empty_none": Eval("max(a)", a=V((0,))),
    "argmax_empty_none": Eval("argmax(a)", a=V((2, 0))),
    "nanargmin_empty": Eval("nanargmin(a, axis=1)", a=V((3, 0))),
    "ptp_empty_none": Eval("ptp(a)", a=V((0, 4))),
    "ptp_b1": Eval("ptp(a, axis=0)", a=V((3, 4), "bool")),
    "nanargmax_allnan": Eval("nanargmax(a, axis=1)", a=with_nan(V((2, 3)), [3, 4, 5])),
    "nanargmin_allnan_none": Eval("nanargmin(a)", a=with_nan(V((3,)), [0, 1, 2])),
    # ---- empty along the other axis: an empty result (no error even without identity)
    "max_empty_other_axis": Eval("max(a, axis=1)", a=V((0, 3))),
    "argmax_empty_other_axis": Eval("argmax(a, axis=1)", a=V((0, 3))),
    "ptp_empty_other_axis": Eval("ptp(a, axis=0)", a=V((3, 0), "int16")),
    "sum_empty_3d_tuple": Eval("sum(a, axis=(0, 2))", a=V((2, 0, 3), "int8")),
    "mean_empty_none": Eval("mean(a)", a=V((0, 4), "float32")),
    "var_empty_axis": Eval("var(a, axis=0)", a=V((0, 4))),
    "nanmean_empty_axis": Eval("nanmean(a, axis=1)", a=V((3, 0), "float32")),
    # ---- all-NaN lines, NaN in the imaginary part, infinities
    "nanmax_allnan": Eval("nanmax(a, axis=1)", a=with_nan(V((2, 3)), [3, 4, 5])),
    "nanmin_allnan_f4": Eval("nanmin(a, axis=0)", a=with_nan(V((2, 3), "float32"), [0, 3])),
    "nanmean_allnan": Eval("nanmean(a, axis=1)", a=with_nan(V((2, 3)), [0, 1, 2])),
    "nanvar_allnan": Eval("nanvar(a, axis=-1)", a=with_nan(V((2, 3), "float32"), [3, 4, 5])),
    "nanstd_allnan_ddof": Eval("nanstd(a, axis=-1, ddof=1)", a=with_nan(V((2, 3)), [0, 1])),
    "nansum_allnan": Eval("nansum(a, axis=0)", a=with_nan(V((2, 3), "float16"), [0, 3])),
    "nanprod_allnan": Eval("nanprod(a)", a=with_nan(P((3,)), [0, 1, 2])),
    "max_c16_nanimag": Eval("max(a, axis=-1)", a=with_nan(V((3, 4), "complex128"), [1, 6, 11], imag=True)),
    "argmax_c8_nanimag": Eval("argmax(a, axis=-1)", a=with_nan(V((3, 4), "complex64"), [1, 6, 11], imag=True)),
    "nanargmin_c16_nanimag": Eval("nanargmin(a, axis=0)", a=with_nan(V((3, 4), "complex128"), [1, 6], imag=True)),
    "max_inf": Eval("max(a, axis=0)", a=np.array([[np.inf, -np.inf, 1.0], [2.0, -np.inf, -np.inf]])),
    "argmin_inf_ties": Eval("argmin(a)", a=np.array([3.0, -np.inf, 0.0, -np.inf])),
    "sum_inf_nan": Eval("sum(a, axis=1)", a=np.array([[np.inf, -np.inf], [np.inf, 1.0]])),
    "mean_f2_inf": Eval("mean(a, axis=-1)", a=np.array([[1.0, np.inf], [-np.inf, -np.inf]], "float16")),
    # ---- ddof, dtype=, keepdims with no axis
    "var_ddof1": Eval("var(a, axis=-1, ddof=1)", a=V((3, 5, 7))),
    "std_ddof1_f4": Eval("std(a, axis=(0, 2), ddof=1)", a=V((3, 5, 7), "float32")),
    "var_ddof_n": Eval("var(a, axis=-1, ddof=7)", a=V((3, 7))),
    "std_ddof_beyond": Eval("std(a, axis=0, ddof=5)", a=V((3, 4))),
    "nanvar_ddof1": Eval("nanvar(a, axis=-1, ddof=1)", a=with_nan(V((3, 7)), [0, 10, 20])),
    "var_ddof_float": Eval("var(a, ddof=0.5)", a=V((4, 5))),
    "var_c8_ddof1": Eval("var(a, axis=0, ddof=1)", a=V((4, 3), "complex64")),
    "sum_dtype_i1": Eval("sum(a, axis=0, dtype='int8')", a=V((5, 3), "int32") * 40),
    "sum_dtype_f4": Eval("sum(a, axis=-1, dtype='float32')", a=V((3, 7), "int16")),
    "sum_dtype_u1_bool": Eval("sum(a, axis=-1, dtype='uint8')", a=V((2, 300), "bool")),
    "prod_dtype_f8": Eval("prod(a, axis=1, dtype='float64')", a=P((3, 5), "int8")),
    "mean_dtype_f4": Eval("mean(a, axis=0, dtype='float32')", a=V((5, 3), "int64")),
    "mean_dtype_f8_of_f2": Eval("mean(a, dtype='float64')", a=V((5, 3), "float16")),
    "var_dtype_f8_of_f4": Eval("var(a, axis=-1, dtype='float64')", a=V((3, 7), "float32")),
    "nansum_dtype_f8": Eval("nansum(a, axis=0, dtype='float64')", a=with_nan(V((3, 4), "float32"), [0, 5])),
    "nanmean_dtype_f8": Eval("nanmean(a, axis=-1, dtype='float64')", a=with_nan(V((3, 4), "float16"), [0, 5])),
    "add_reduce_dtype_f8": Eval("add.reduce(a, axis=0, dtype='float64')", a=V((4, 3), "uint8")),
    "sum_keepdims_none": Eval("sum(a, keepdims=True)", a=V((3, 4))),
    "max_keepdims_none_i2": Eval("max(a, axis=None, keepdims=True)", a=V((3, 4), "int16")),
    "argmin_keepdims_none": Eval("argmin(a, keepdims=True)", a=V((3, 4))),
    "count_nonzero_keepdims": Eval("count_nonzero(a, axis=(0, 2), keepdims=True)", a=V((3, 4, 5), "uint16")),
    "count_nonzero_none_c8": Eval("count_nonzero(a)", a=V((3, 4), "complex64")),
    # ---- layouts: a middle axis, the first axis of a 4-d array, long lines (several blocks)
    "sum_mid_axis_f4": Eval("sum(a, axis=1)", a=V((4, 9, 5), "float32")),
    "max_4d_axes_i8": Eval("max(a, axis=(1, 3))", a=V((2, 3, 4, 5), "int64")),
    "mean_4d_neg_axes": Eval("mean(a, axis=(-1, -3))", a=V((2, 3, 4, 5), "float32")),
    "sum_long_f4": Eval("sum(a, axis=-1)", a=V((3, 4099), "float32")),
    "sum_long_none_f8": Eval("sum(a)", a=V((100003,))),
    "max_long_f2": Eval("max(a, axis=-1)", a=V((2, 5001), "float16")),
    "argmax_long_ties": Eval("argmax(a, axis=-1)", a=V((3, 5001), "int32")),
    "argmin_long_none": Eval("argmin(a)", a=V((70001,), "float32")),
    "nanargmax_long": Eval("nanargmax(a, axis=0)", a=with_nan(V((4001, 3)), [0, 4, 8, 12000])),
    "nansum_long_nan": Eval("nansum(a, axis=-1)", a=with_nan(V((2, 6007), "float32"), [0, 3000, 6006, 9000])),
    # NumPy sums a float32 column of 4099 elements in order (not pairwise): rounding grows with n
    "var_long_f4": Eval("var(a, axis=0)", rtol=1e-4, a=V((4099, 3), "float32")),
    "count_nonzero_long": Eval("count_nonzero(a, axis=-1)", a=V((3, 10007), "int8")),
    "all_long": Eval("all(a, axis=0)", a=V((9001, 2), "bool")),
    "any_long_zeros": Eval("any(a)", a=np.zeros(50001, "float32")),
    # ---- ufunc.reduce of 0-d and NaN inputs; ufunc.reduceat's errors and NaN (NaN first, in the
    # middle and last of its segments); more errors of the nan-functions
    "add_reduce_0d": Eval("add.reduce(a, axis=None)", a=V((), "int16")),
    "maximum_reduce_0d_axis0": Eval("maximum.reduce(a, axis=0)", a=V(())),
    "maximum_reduce_nan": Eval("maximum.reduce(a, axis=-1)", a=with_nan(V((3, 7)), [0, 10, 20])),
    "fmin_reduce_nan_f4": Eval("fmin.reduce(a, axis=-1)", a=with_nan(V((3, 7), "float32"), [0, 10, 20])),
    "add_reduce_nan_c16": Eval("add.reduce(a, axis=(0, 1))", a=with_nan(V((3, 7), "complex128"), [0, 10, 20])),
    "minimum_reduce_nan_c8": Eval("minimum.reduce(a, axis=0)", a=with_nan(V((3, 7), "complex64"), [0, 10, 20])),
    "add_reduceat_nan": Eval("add.reduceat(a, i, axis=-1)", a=with_nan(V((3, 8)), [0, 13, 23]),
                             i=np.array([0, 4, 6])),
    "maximum_reduceat_nan_f2": Eval("maximum.reduceat(a, i)", a=with_nan(V((9,), "float16"), [0, 4, 8]),
                                    i=np.array([0, 3, 5])),
    "add_reduceat_neg_axis_i2": Eval("add.reduceat(a, i, axis=-2)", a=V((6, 3), "int16"), i=np.array([0, 2, 2, 5])),
    "add_reduceat_oob": Eval("add.reduceat(a, i)", a=V((5,)), i=np.array([0, 5])),
    "add_reduceat_neg_index": Eval("add.reduceat(a, i)", a=V((5,)), i=np.array([0, -1])),
    "add_reduceat_0d": Eval("add.reduceat(a, i)", a=V(()), i=np.array([0])),
    "add_reduceat_2d_indices": Eval("add.reduceat(a, i)", a=V((5,)), i=np.array([[0, 1]])),
    "add_reduceat_float_indices": Eval("add.reduceat(a, i)", a=V((5,)), i=np.array([0.0, 1.0])),
    "add_reduceat_axis_oob": Eval("add.reduceat(a, i, axis=1)", a=V((5,)), i=np.array([0, 1])),
    "add_reduceat_empty_other": Eval("add.reduceat(a, i, axis=1)", a=V((0, 5), "float32"), i=np.array([0, 3])),
    "nanprod_axis_oob": Eval("nanprod(a, axis=-4)", a=X3),
    "nanmin_axis_dup": Eval("nanmin(a, axis=(2, 2))", a=X3),
    "nanstd_axis_oob": Eval("nanstd(a, axis=3)", a=X3),
    "nanargmin_axis_tuple": Eval("nanargmin(a, axis=(0, 1))", a=X3),
    "amax_axis_oob": Eval("amax(a, axis=3)", a=X3),
    "amin_axis_dup": Eval("amin(a, axis=(0, -3))", a=X3),
    # ---- non-contiguous inputs from views (flip gives negative strides in both)
    "sum_flipped": Eval("sum(flip(a, 0), axis=0)", a=V((5, 4))),
    "argmax_flipped": Eval("argmax(flip(a, -1), axis=-1)", a=V((4, 6), "int16")),
})

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
EVAL_NUMPY2_ONLY = set()

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, set(), __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
