#!/usr/bin/env python3
"""NumPy reference data for the statistics and logic routines, run through `cupp eval`'s engine by
tests/gpu/test_eval_ref_gpu.cpp (EvalRefGpu/Families.AgreeWithNumPy/statistics).

    python3 make_statistics_ref.py OUT_DIR

writes OUT_DIR/manifest.json (no classic cases) and OUT_DIR/eval (routine_ref.py's write_eval_set:
each case is the expression below over its inputs, evaluated by NumPy here and by cupp in the
test). Every dtype each routine accepts (routine_ref.V inputs), then cases of explicit values:
inputs R(shape, dtype) = ((arange(size) * 37) % 101 / 7 - 5).reshape(shape).astype(dtype)
(scrambled values with repeats, negatives and fractions), F(list, dtype) = an explicit array,
N(a, positions) = a copy with NaN at the flat positions. Runs with any NumPy >= 1.24 (the GPU
machine has NumPy 2.5); cases whose result dtype or values differ under NumPy 1 (NEP 50, q taking
a float array's dtype) are marked numpy2_only.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, INEXACT, SHORT, Eval, V, add_cases, with_nan


def R(shape, dt="float64"):
    n = int(np.prod(shape, dtype=np.int64))
    return ((np.arange(n) * 37) % 101 / 7.0 - 5).reshape(shape).astype(dt)


def F(values, dt="float64"):
    return np.array(values, dtype=dt)


def N(a, positions):
    a = a.copy()
    a.flat[positions] = np.nan
    return a


INF, NAN = np.inf, np.nan
QS = F([0.0, 0.1, 0.25, 0.5, 0.9, 1.0])
METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf", "hazen",
           "weibull", "linear", "median_unbiased", "normal_unbiased", "lower", "higher", "midpoint", "nearest"]

ISA = F([1e10, 1e-7, 1.0, INF, -INF, NAN, 0.0, INF, 1e-300])
ISB = F([1.00001e10, 1e-8, 1.0, INF, INF, NAN, 1e-9, 1.0, 0.0])
# complex rows whose real and imaginary parts differ: R * (1 - 1j) + (R with its rows reversed) * 1j
CX = R((2, 5), "c16") * (1 - 1j) + R((2, 5))[::-1] * 1j

CASES = {}  # no classic cases: everything runs through cupp eval's engine


# ---- every dtype each routine accepts, negative axes and axis tuples, empty and 0-d inputs, NaN
# first / in the middle / last along the reduced lines, the 13 quantile methods on float32 and
# int64, and errors. Left out (docs/deviations.md): average with weights summing to zero
# (ZeroDivisionError), cov with weights of the wrong shape (RuntimeError).
REAL = [d for d in DTYPES if d not in ("complex64", "complex128")]
EVAL_CASES = {}
EVAL_NUMPY2_ONLY = set()
for _dt in DTYPES:
    _s = SHORT[_dt]
    _a = V((3, 5, 7), _dt)
    _cases = {
        f"isclose_{_s}": Eval("isclose(a, flip(a, -1))", a=V((3, 5), _dt)),
        f"isclose_{_s}_tol": Eval("isclose(a, b, rtol=0.5, atol=1)", a=V((3, 5), _dt), b=V((5,), _dt)),
        f"isclose_{_s}_empty": Eval("isclose(a, b)", a=V((0, 3), _dt), b=V((3,), _dt)),
        f"isclose_{_s}_0d": Eval("isclose(a, b)", a=V((), _dt), b=V((4,), _dt)),
        f"allclose_{_s}": Eval("allclose(a, b)", a=V((3, 5), _dt), b=V((3, 5), _dt)),
        f"allclose_{_s}_false": Eval("allclose(a, flip(a, 0))", a=V((3, 5), _dt)),
        f"allclose_{_s}_empty": Eval("allclose(a, b)", a=V((0,), _dt), b=V((0,), _dt)),
        f"array_equal_{_s}": Eval("array_equal(a, b)", a=V((3, 5), _dt), b=V((3, 5), _dt)),
        f"array_equal_{_s}_differ": Eval("array_equal(a, flip(a, 0))", a=V((3, 5), _dt)),
        f"array_equal_{_s}_0d": Eval("array_equal(a, b)", a=V((), _dt), b=V((1,), _dt)),
        f"array_equiv_{_s}": Eval("array_equiv(a, b)", a=V((3, 5), _dt), b=V((3, 5), _dt)[1]),
        f"array_equiv_{_s}_0d": Eval("array_equiv(a, b)", a=V((), _dt), b=np.full((2, 2), V((), _dt))),
        f"average_{_s}_axm1": Eval("average(a, axis=-1)", a=_a),
        f"average_{_s}_weights_axt": Eval("average(a, axis=(0, -1), weights=w)", a=_a, w=V((3, 7), "uint8") + 1),
        f"average_{_s}_weights_1d": Eval("average(a, axis=-2, weights=w, returned=True)", a=_a,
                                         w=np.array([1.0, 2.0, 0.5, 3.0, 1.5])),
        f"average_{_s}_0d": Eval("average(a)", a=V((), _dt)),
        f"median_{_s}_axm1": Eval("median(a, axis=-1)", a=_a),
        f"median_{_s}_axt_kd": Eval("median(a, axis=(0, -1), keepdims=True)", a=_a),
        f"median_{_s}_0d": Eval("median(a)", a=V((), _dt)),
        f"median_{_s}_empty": Eval("median(a, axis=0)", a=V((0, 3), _dt)),
        f"cov_{_s}": Eval("cov(a)", a=V((3, 7), _dt)),
        f"cov_{_s}_rowvar_ddof": Eval("cov(a, rowvar=False, ddof=0)", a=V((7, 3), _dt)),
        f"corrcoef_{_s}": Eval("corrcoef(a, b)", a=V((2, 9), _dt), b=V((9,), _dt)[::-1]),
    }
    # a weights tuple axis is NumPy 2's; isclose's tolerances meet the inputs as weak scalars (NEP 50)
    EVAL_NUMPY2_ONLY |= {f"average_{_s}_weights_axt", f"isclose_{_s}", f"isclose_{_s}_tol", f"isclose_{_s}_0d",
                         f"allclose_{_s}", f"allclose_{_s}_false"}
    if _dt in REAL:
        _cases.update({
            f"quantile_{_s}_axm1": Eval("quantile(a, q, axis=-1)", a=_a, q=np.array([0.0, 0.3, 0.5, 1.0])),
            f"quantile_{_s}_axt": Eval("quantile(a, 0.25, axis=(-1, 0), keepdims=True)", a=_a),
            f"quantile_{_s}_0d": Eval("quantile(a, q)", a=V((), _dt), q=np.array([0.5, 1.0])),
            f"quantile_{_s}_lower": Eval("quantile(a, 0.4, axis=-1, method='lower')", a=_a),
            f"percentile_{_s}_axm2": Eval("percentile(a, q, axis=-2)", a=_a, q=np.array([10.0, 50.0, 95.0])),
            f"percentile_{_s}_nearest": Eval("percentile(a, 40, method='nearest')", a=_a),
            f"nanmedian_{_s}_axm1": Eval("nanmedian(a, axis=-1)", a=_a),
            f"nanquantile_{_s}_axt": Eval("nanquantile(a, q, axis=(0, 2))", a=_a, q=np.array([0.1, 0.9])),
            f"nanpercentile_{_s}_axm1": Eval("nanpercentile(a, 75, axis=-1, keepdims=True)", a=_a),
        })
        # a weak (Python float) q meets a in a's dtype under NumPy 2 (NEP 50)
        EVAL_NUMPY2_ONLY |= {f"quantile_{_s}_axt", f"quantile_{_s}_lower", f"percentile_{_s}_nearest",
                             f"nanpercentile_{_s}_axm1"}
    else:
        _cases[f"quantile_{_s}_complex"] = Eval("quantile(a, 0.5)", a=V((5,), _dt))  # NumPy 2: TypeError
        EVAL_NUMPY2_ONLY.add(f"quantile_{_s}_complex")
    if _dt in INEXACT:
        _nan = with_nan(V((3, 7), _dt), [0, 10, 20])
        _cases.update({
            f"isclose_{_s}_nan": Eval("isclose(a, b)", a=_nan, b=with_nan(V((3, 7), _dt), [0, 11])),
            f"isclose_{_s}_equal_nan": Eval("isclose(a, b, equal_nan=True)", a=_nan,
                                            b=with_nan(V((3, 7), _dt), [0, 11])),
            f"allclose_{_s}_nan": Eval("allclose(a, a, equal_nan=True), allclose(a, a)", a=_nan),
            f"array_equal_{_s}_nan": Eval("array_equal(a, a, equal_nan=True), array_equal(a, a)", a=_nan),
            f"average_{_s}_nan": Eval("average(a, axis=-1)", a=_nan),
            f"median_{_s}_nan": Eval("median(a, axis=-1)", a=_nan),
            f"cov_{_s}_nan": Eval("cov(a)", a=_nan),
        })
        if _dt in REAL:
            _cases.update({
                f"quantile_{_s}_nan": Eval("quantile(a, q, axis=-1)", a=_nan, q=np.array([0.0, 0.5, 1.0])),
                f"nanmedian_{_s}_nan": Eval("nanmedian(a, axis=-1)", a=_nan),
                f"nanmedian_{_s}_nan_none": Eval("nanmedian(a)", a=_nan),
                f"nanquantile_{_s}_nan": Eval("nanquantile(a, q, axis=-1)", a=_nan, q=np.array([0.0, 0.5, 1.0])),
                f"nanpercentile_{_s}_nan": Eval("nanpercentile(a, q, axis=-1)", a=_nan,
                                                q=np.array([0.0, 50.0, 100.0])),
                f"nanquantile_{_s}_allnan": Eval("nanquantile(a, q, axis=-1)",
                                                 a=with_nan(V((2, 3), _dt), [3, 4, 5]), q=np.array([0.5])),
            })
    add_cases(EVAL_CASES, _cases)

for _m in METHODS:
    add_cases(EVAL_CASES, {
        f"quantile_{_m}_f4": Eval(f"quantile(a, q, axis=-1, method='{_m}')", a=V((3, 8), "float32"),
                                  q=np.array([0.0, 0.1, 0.5, 0.7, 1.0], "float32")),
        f"quantile_{_m}_i8": Eval(f"quantile(a, q, axis=0, method='{_m}')", a=V((9, 2), "int64"), q=QS),
        f"nanpercentile_{_m}_f8": Eval(f"nanpercentile(a, q, axis=-1, method='{_m}')",
                                       a=with_nan(V((3, 8)), [0, 12, 23]), q=QS * 100),
    })
    EVAL_NUMPY2_ONLY |= {f"quantile_{_m}_f4", f"quantile_{_m}_i8", f"nanpercentile_{_m}_f8"}

add_cases(EVAL_CASES, {
    # ---- errors
    "isclose_shapes": Eval("isclose(a, b)", a=V((3,)), b=V((4,))),
    "allclose_shapes": Eval("allclose(a, b)", a=V((2, 3)), b=V((3, 2))),
    "average_weights_no_axis": Eval("average(a, weights=w)", a=V((3, 4)), w=V((4,))),
    "average_weights_length": Eval("average(a, axis=1, weights=w)", a=V((3, 4)), w=V((3,))),
    "average_axis_oob": Eval("average(a, axis=2)", a=V((3, 4))),
    "median_axis_oob": Eval("median(a, axis=-3)", a=V((3, 4))),
    "median_axis_dup": Eval("median(a, axis=(0, -2))", a=V((3, 4))),
    "quantile_q_above": Eval("quantile(a, 1.5)", a=V((5,))),
    "quantile_q_negative": Eval("quantile(a, q)", a=V((5,)), q=np.array([0.5, -0.1])),
    "quantile_method_bad": Eval("quantile(a, 0.5, method='bogus')", a=V((5,))),
    "quantile_axis_oob": Eval("quantile(a, 0.5, axis=2)", a=V((3, 4))),
    "percentile_q_above": Eval("percentile(a, 101)", a=V((5,))),
    "nanquantile_q_above": Eval("nanquantile(a, 2)", a=V((5,))),
    "nanmedian_axis_oob": Eval("nanmedian(a, axis=2)", a=V((3, 4))),
    "quantile_empty": Eval("quantile(a, 0.5)", a=V((0,))),
    "cov_3d": Eval("cov(a)", a=V((2, 3, 4))),
    "cov_y_3d": Eval("cov(a, b)", a=V((2, 3)), b=V((2, 3, 1))),
    "cov_ddof_fraction": Eval("cov(a, ddof=1.5)", a=V((2, 5))),
    "cov_fweights_negative": Eval("cov(a, fweights=f)", a=V((2, 5)), f=np.array([1, 2, -1, 1, 1])),
    "cov_fweights_float": Eval("cov(a, fweights=f)", a=V((2, 5)), f=np.array([1.0, 2.0, 1.0, 1.0, 1.0])),
    "cov_aweights_negative": Eval("cov(a, aweights=w)", a=V((2, 5)), w=np.array([1.0, 2.0, -1.0, 1.0, 1.0])),
    "corrcoef_3d": Eval("corrcoef(a)", a=V((2, 2, 2))),
    "average_empty_axis": Eval("average(a, axis=0)", a=V((0, 3))),
    "average_empty_returned_f4": Eval("average(a, axis=1, returned=True)", a=V((2, 0), "float32")),
    "corrcoef_empty": Eval("corrcoef(a)", a=V((0, 3))),
    "corrcoef_nan": Eval("corrcoef(a)", a=with_nan(V((3, 7)), [0, 10, 20])),
    "corrcoef_0d": Eval("corrcoef(a)", a=V(())),
    "percentile_empty_kept": Eval("percentile(a, q, axis=1)", a=V((0, 4)), q=np.array([10.0, 90.0])),
    "percentile_0d": Eval("percentile(a, 50)", a=V((), "int32")),
    "percentile_axis_tuple": Eval("percentile(a, q, axis=(0, -1))", a=V((3, 4, 5), "float32"), q=np.array([25.0])),
    "percentile_nan": Eval("percentile(a, q, axis=-1)", a=with_nan(V((3, 7)), [0, 10, 20]), q=np.array([0.0, 100.0])),
    "nanpercentile_empty": Eval("nanpercentile(a, 50)", a=V((0,))),
    "nanpercentile_0d": Eval("nanpercentile(a, 50)", a=V(())),
    "nanpercentile_q_above": Eval("nanpercentile(a, 101)", a=V((5,))),
    "nanmedian_0d": Eval("nanmedian(a)", a=V((), "int16")),
    "nanquantile_0d": Eval("nanquantile(a, 0.5)", a=V(())),
    "allclose_0d": Eval("allclose(a, b)", a=V(()), b=V((3,))),
    "array_equiv_empty": Eval("array_equiv(a, b), array_equiv(a, c)", a=V((0, 3)), b=V((3,)), c=V((0, 1))),
    "array_equiv_nan": Eval("array_equiv(a, a)", a=with_nan(V((2, 3)), [0, 5])),
    # ---- more forms
    "cov_y_rowvar_false_f4": Eval("cov(a, b, rowvar=False)", a=V((6, 2), "float32"), b=V((6,), "float32")),
    "cov_bias_c8": Eval("cov(a, bias=True)", a=V((2, 6), "complex64")),
    "cov_fweights_aweights_i2": Eval("cov(a, fweights=f, aweights=w)", a=V((3, 5), "int16"),
                                     f=np.array([1, 2, 3, 1, 2]), w=np.array([0.5, 1.0, 2.0, 1.5, 0.25])),
    "cov_0d": Eval("cov(a)", a=V(())),
    "cov_dtype_f4": Eval("cov(a, dtype='float32')", a=V((3, 6), "int8")),
    "corrcoef_rowvar_false": Eval("corrcoef(a, rowvar=False)", a=V((7, 3), "float32")),
    "corrcoef_single": Eval("corrcoef(a)", a=V((5,), "int32")),
    "median_flipped": Eval("median(flip(a, -1), axis=-1)", a=V((4, 6), "int16")),
    "median_long_f4": Eval("median(a, axis=-1)", a=V((3, 4001), "float32")),
    "quantile_long": Eval("quantile(a, q)", a=V((100003,)), q=QS),
    "nanmedian_long_nan": Eval("nanmedian(a, axis=0)", a=with_nan(V((3001, 2), "float32"), [0, 1, 3000, 6001])),
    "isclose_inf": Eval("isclose(a, b)", a=np.array([np.inf, -np.inf, np.inf, 1.0]), b=np.array([np.inf, np.inf, 1e308, np.inf])),
    "average_weights_i4_bool_w": Eval("average(a, axis=0, weights=w)", a=V((4, 3), "int32"),
                                      w=np.array([True, False, True, True])),
    "array_equiv_not_broadcastable": Eval("array_equiv(a, b)", a=V((3,)), b=V((4,))),
    "array_equal_dtypes_i8_f4": Eval("array_equal(a, b)", a=V((4,), "int64"), b=V((4,), "int64").astype("float32")),
})
EVAL_NUMPY2_ONLY |= {"quantile_long", "quantile_q_above", "percentile_0d", "nanpercentile_0d", "nanpercentile_q_above",
                     "nanquantile_0d", "allclose_0d", "nanquantile_q_above", "percentile_q_above",
                     "quantile_method_bad", "quantile_axis_oob"}

# ---- explicit values (the cases the C++ test used to make itself): special values (1e10 against
# 1.00001e10, infinities, NaN, 1e-300), tolerances given as arrays, weak Python-scalar operands,
# mixed dtypes, weights of every kind, axis tuples in either order, keepdims, q of every shape,
# every quantile method on an odd line, an even line and a line with NaN.
add_cases(EVAL_CASES, {
    # ---- logic
    "isclose_f8_special": Eval("isclose(a, b)", a=ISA, b=ISB),
    "isclose_equal_nan": Eval("isclose(a, b, equal_nan=True)", a=ISA, b=ISB),
    "isclose_tol": Eval("isclose(a, b, rtol=0.0, atol=0.5)", a=ISA, b=ISB),
    "isclose_f4_rtol": Eval("isclose(a, b, rtol=1e-3)", a=F([1.0, 1.001, 3.0, NAN], "f4"),
                            b=F([1.0005, 1.0, 3.0001, NAN], "f4")),
    "isclose_f2_rtol": Eval("isclose(a, b, rtol=1e-3)", a=F([1.0, 1.01, 1000.0], "f2"), b=F([1.005, 1.0, 1001.0], "f2")),
    "isclose_mixed": Eval("isclose(a, b, rtol=1e-9, atol=0.0)", a=F([1.0, 1.0000001, 2.0], "f4"),
                          b=F([1.0, 1.0, 2.0000001], "f8")),
    "isclose_int": Eval("isclose(a, b)", a=F([1, 2, -9223372036854775808, 5], "i8"),
                        b=F([1, 3, -9223372036854775808, 6], "i8")),
    "isclose_u1_i1": Eval("isclose(a, b)", a=F([0, 255, 7], "u1"), b=F([0, -1, 7], "i1")),
    "isclose_bool": Eval("isclose(a, b)", a=F([True, False, True], "?"), b=F([True, True, False], "?")),
    "isclose_scalar_b": Eval("isclose(a, 1.0)", a=F([1.0, 2.0, 0.99999999], "f4")),
    "isclose_scalar_a": Eval("isclose(1.0, b)", b=F([1.0, 2.0, 1.000000001])),
    "isclose_int_scalar": Eval("isclose(a, 3)", a=F([3, 4], "i2")),
    "isclose_bcast": Eval("isclose(a, b)", a=R((3, 1)), b=R((4,))),
    "isclose_atol_array": Eval("isclose(a, b, rtol=0.0, atol=t)", a=F([1.0, 1.0, 1.0]), b=F([1.1, 1.2, 1.3]),
                               t=F([0.05, 0.25, 0.35])),
    "isclose_c16_inf_nan_equal": Eval("isclose(a, b, equal_nan=True)",
                                      a=F([1 + 1j, 1 + 1.00001j, complex(INF, 0), complex(NAN, 1)], "c16"),
                                      b=F([1 + 1j, 1 + 1j, complex(INF, 0), complex(NAN, 1)], "c16")),
    "isclose_empty": Eval("isclose(a, b)", a=R((0, 3)), b=R((3,))),
    "allclose_true": Eval("allclose(a, b)", a=F([1e10, 1e-8]), b=F([1.00001e10, 1e-9])),
    "allclose_false": Eval("allclose(a, b)", a=F([1e10, 1e-7]), b=F([1.00001e10, 1e-8])),
    "allclose_nan": Eval("allclose(a, b)", a=F([1.0, NAN]), b=F([1.0, NAN])),
    "allclose_nan_equal": Eval("allclose(a, b, equal_nan=True)", a=F([1.0, NAN]), b=F([1.0, NAN])),
    "allclose_bcast": Eval("allclose(a, b)", a=R((2, 3)), b=R((2, 3))[0]),
    "array_equal_same": Eval("array_equal(a, b)", a=R((2, 3)), b=R((2, 3))),
    "array_equal_shape": Eval("array_equal(a, b)", a=R((2, 3)), b=R((3, 2))),
    "array_equal_value": Eval("array_equal(a, b)", a=F([1, 2, 3], "i4"), b=F([1.0, 2.0, 3.5])),
    "array_equal_dtypes": Eval("array_equal(a, b)", a=F([1, 2, 3], "i4"), b=F([1.0, 2.0, 3.0], "f2")),
    "array_equal_nan": Eval("array_equal(a, b)", a=F([1.0, NAN]), b=F([1.0, NAN])),
    "array_equal_nan_true": Eval("array_equal(a, b, equal_nan=True)", a=F([1.0, NAN]), b=F([1.0, NAN])),
    "array_equal_nan_place": Eval("array_equal(a, b, equal_nan=True)", a=F([NAN, 1.0]), b=F([1.0, NAN])),
    "array_equal_c_nan": Eval("array_equal(a, b, equal_nan=True)", a=F([complex(NAN, 1)], "c8"),
                              b=F([complex(1, NAN)], "c8")),
    "array_equal_empty": Eval("array_equal(a, b)", a=R((0,)), b=R((0,))),
    "array_equiv_bcast": Eval("array_equiv(a, b)", a=F([1, 2]), b=F([[1, 2], [1, 2]])),
    "array_equiv_diff": Eval("array_equiv(a, b)", a=F([1, 2]), b=F([[1, 2], [1, 3]])),
    "array_equiv_shape": Eval("array_equiv(a, b)", a=F([1, 2]), b=F([[1, 2, 1], [1, 2, 1]])),
    # ---- average
    "average_none": Eval("average(a)", a=R((3, 4))),
    "average_axis": Eval("average(a, axis=1)", a=R((3, 4))),
    "average_int": Eval("average(a, axis=0)", a=R((3, 4), "i4")),
    "average_f2": Eval("average(a, axis=0)", a=R((5, 3), "f2")),
    "average_keepdims": Eval("average(a, axis=(0, 2), keepdims=True)", a=R((2, 3, 4))),
    "average_weights": Eval("average(a, weights=w)", a=R((3, 4)), w=R((3, 4)) + 6),
    "average_weights_axis": Eval("average(a, axis=1, weights=w)", a=R((3, 4)), w=F([1.0, 2.0, 0.5, 3.0])),
    "average_weights_tuple": Eval("average(a, axis=(2, 0), weights=w)", a=R((2, 3, 4)), w=R((4, 2)) + 6),
    "average_weights_int": Eval("average(a, axis=0, weights=w)", a=R((3, 4), "i8"), w=F([1, 2, 3], "i4")),
    "average_weights_f4": Eval("average(a, axis=1, weights=w)", a=R((3, 4), "f4"), w=F([1, 2, 1, 2], "f4")),
    "average_returned": Eval("average(a, axis=0, returned=True)", a=R((3, 4))),
    "average_returned_w": Eval("average(a, axis=1, weights=w, returned=True)", a=R((3, 4)),
                               w=F([1.0, 2.0, 0.5, 3.0])),
    "average_returned_kd": Eval("average(a, axis=1, weights=w, returned=True, keepdims=True)", a=R((3, 4)),
                                w=F([1.0, 2.0, 0.5, 3.0])),
    "average_c16": Eval("average(a, axis=0, weights=w)", a=R((2, 3), "c16") * (1 + 2j), w=F([1.0, 3.0])),
    # ---- cov, corrcoef
    "cov_basic": Eval("cov(a)", a=R((3, 7))),
    "cov_rowvar": Eval("cov(a, rowvar=False)", a=R((7, 3))),
    "cov_bias": Eval("cov(a, bias=True)", a=R((3, 7))),
    "cov_ddof": Eval("cov(a, ddof=3)", a=R((3, 7))),
    "cov_ddof_big": Eval("cov(a, ddof=5)", a=R((2, 3))),
    "cov_y": Eval("cov(a, b)", a=R((2, 6)), b=R((6,)) * 2 + 1),
    "cov_y_rowvar": Eval("cov(a, b, rowvar=False)", a=R((6, 2)), b=R((6, 3))),
    "cov_1d": Eval("cov(a)", a=R((9,))),
    "cov_fweights": Eval("cov(a, fweights=f)", a=R((3, 5)), f=F([1, 2, 3, 1, 2], "i8")),
    "cov_aweights": Eval("cov(a, aweights=w)", a=R((3, 5)), w=F([0.5, 1.0, 2.0, 1.5, 0.25])),
    "cov_both": Eval("cov(a, fweights=f, aweights=w)", a=R((3, 5)), f=F([1, 2, 3, 1, 2], "i8"),
                     w=F([0.5, 1.0, 2.0, 1.5, 0.25])),
    "cov_both_ddof0": Eval("cov(a, ddof=0, fweights=f, aweights=w)", a=R((3, 5)), f=F([1, 2, 3, 1, 2], "i8"),
                           w=F([0.5, 1.0, 2.0, 1.5, 0.25])),
    "cov_int": Eval("cov(a)", a=R((3, 6), "i4")),
    "cov_f8_dtype_f4": Eval("cov(a, dtype='float32')", a=R((3, 6))),
    "cov_f4_input": Eval("cov(a)", a=R((3, 6), "f4")),
    "cov_c16_rows": Eval("cov(a)", a=CX),
    "cov_no_obs": Eval("cov(a)", a=R((0, 3))),
    "cov_long": Eval("cov(a)", a=R((2, 1000))),
    "corrcoef_basic": Eval("corrcoef(a)", a=R((4, 9))),
    "corrcoef_y": Eval("corrcoef(a, flip(a, 0))", a=R((9,))),
    "corrcoef_rowvar": Eval("corrcoef(a, rowvar=False)", a=R((9, 3))),
    "corrcoef_1d_f8": Eval("corrcoef(a)", a=R((6,))),
    "corrcoef_c16_rows": Eval("corrcoef(a)", a=CX),
    # ---- median
    "median_none": Eval("median(a)", a=R((4, 5))),
    "median_axis0": Eval("median(a, axis=0)", a=R((4, 5))),
    "median_axis1": Eval("median(a, axis=-1)", a=R((4, 5))),
    "median_tuple": Eval("median(a, axis=(0, 2))", a=R((3, 4, 5))),
    "median_tuple_kd": Eval("median(a, axis=(2, 0), keepdims=True)", a=R((3, 4, 5))),
    "median_keepdims_none": Eval("median(a, keepdims=True)", a=R((3, 4))),
    "median_int_odd": Eval("median(a)", a=R((7,), "i8")),
    "median_int_even": Eval("median(a)", a=F([1, 2, 4, 3], "i4")),
    "median_u8": Eval("median(a)", a=F([18446744073709551615, 1, 18446744073709551615], "u8")),
    "median_f2": Eval("median(a, axis=0)", a=R((5, 4), "f2")),
    "median_f4": Eval("median(a, axis=0)", a=R((6, 4), "f4")),
    "median_bool": Eval("median(a)", a=F([True, False, True, True], "?")),
    "median_nan": Eval("median(a, axis=1)", a=N(R((4, 5)), [3, 7, 8])),
    "median_nan_none": Eval("median(a)", a=N(R((4, 5)), [12])),
    "median_inf": Eval("median(a)", a=F([INF, -INF, 1.0, INF])),
    "median_empty": Eval("median(a)", a=R((0,))),
    "median_empty_axis": Eval("median(a, axis=1)", a=R((3, 0))),
    "median_empty_kept": Eval("median(a, axis=1)", a=R((0, 3))),
    "median_c16": Eval("median(a)", a=F([3 + 1j, 1 + 5j, 2 - 1j, 1 + 1j], "c16")),
    "median_0d": Eval("median(a)", a=F(2.5)),
    # ---- quantile, percentile
    "quantile_scalar": Eval("quantile(a, 0.3)", a=R((11,))),
    "quantile_array": Eval("quantile(a, q)", a=R((11,)), q=QS),
    "quantile_axis": Eval("quantile(a, q, axis=1)", a=R((3, 7)), q=QS),
    "quantile_axis0": Eval("quantile(a, 0.5, axis=0)", a=R((3, 7))),
    "quantile_tuple_kd": Eval("quantile(a, q, axis=(0, 2), keepdims=True)", a=R((3, 4, 5)), q=QS[:3]),
    "quantile_none_kd": Eval("quantile(a, q, keepdims=True)", a=R((3, 4)), q=QS[:2]),
    "quantile_q2d": Eval("quantile(a, q, axis=1)", a=R((3, 7)), q=QS.reshape(2, 3)),
    "quantile_int": Eval("quantile(a, q, axis=1)", a=R((3, 7), "i4"), q=QS),
    "quantile_int_q": Eval("quantile(a, 1)", a=R((9,), "i8")),
    "quantile_int_q0": Eval("quantile(a, q)", a=R((9,), "u2"), q=F([0, 1], "i8")),
    "quantile_f4": Eval("quantile(a, 0.37)", a=R((13,), "f4")),
    "quantile_f4_array": Eval("quantile(a, q)", a=R((13,), "f4"), q=QS),
    "quantile_f2": Eval("quantile(a, 0.37)", a=R((13,), "f2")),
    "quantile_nan": Eval("quantile(a, q, axis=1)", a=N(R((3, 7)), [2, 20]), q=QS),
    "quantile_inf": Eval("quantile(a, q)", a=F([1.0, INF]), q=F([0.5, 1.0])),
    "quantile_bool_lower": Eval("quantile(a, 0.5, method='lower')", a=F([True, False, True], "?")),
    "quantile_empty_kept": Eval("quantile(a, q, axis=1)", a=R((0, 4)), q=QS),
    "percentile_scalar": Eval("percentile(a, 30)", a=R((11,))),
    "percentile_array": Eval("percentile(a, q, axis=1)", a=R((3, 7)), q=QS * 100),
    "percentile_int": Eval("percentile(a, 45)", a=R((10,), "i2")),
    "percentile_f4": Eval("percentile(a, 45)", a=R((10,), "f4")),
    "percentile_nearest": Eval("percentile(a, q, method='nearest')", a=R((10,)), q=F([10, 55, 95])),
    # ---- nan forms
    "nanmedian_none": Eval("nanmedian(a)", a=N(R((4, 5)), [1, 7])),
    "nanmedian_axis": Eval("nanmedian(a, axis=1)", a=N(R((4, 5)), [1, 7, 8, 13, 18])),
    "nanmedian_allnan": Eval("nanmedian(a, axis=1)", a=N(R((3, 2)), [2, 3])),
    "nanmedian_int": Eval("nanmedian(a, axis=0)", a=R((4, 5), "i4")),
    "nanmedian_f4": Eval("nanmedian(a, axis=0)", a=N(R((4, 5), "f4"), [0, 6])),
    "nanmedian_kd": Eval("nanmedian(a, axis=(0, 2), keepdims=True)", a=N(R((2, 3, 4)), [5])),
    "nanmedian_empty": Eval("nanmedian(a, axis=0)", a=R((0, 3))),
    "nanquantile_none": Eval("nanquantile(a, q)", a=N(R((4, 5)), [1, 7]), q=QS),
    "nanquantile_axis": Eval("nanquantile(a, q, axis=1)", a=N(R((4, 5)), [1, 7, 8, 13, 18]), q=QS),
    "nanquantile_allnan": Eval("nanquantile(a, 0.5, axis=1)", a=N(R((3, 2)), [2, 3])),
    "nanquantile_int": Eval("nanquantile(a, q, axis=0)", a=R((4, 5), "i4"), q=QS),
    "nanquantile_empty": Eval("nanquantile(a, q)", a=R((0,)), q=QS),
    "nanquantile_q2d": Eval("nanquantile(a, q, axis=1)", a=N(R((3, 7)), [2, 20]), q=QS.reshape(2, 3)),
    "nanpercentile_axis": Eval("nanpercentile(a, 40, axis=1)", a=N(R((4, 5)), [1, 7, 8, 13, 18])),
    "nanpercentile_kd": Eval("nanpercentile(a, q, axis=(1, 2), keepdims=True)", a=N(R((2, 3, 4)), [5, 6]),
                             q=F([10, 90])),
})
for _m in METHODS:
    add_cases(EVAL_CASES, {
        f"quantile_{_m}": Eval(f"quantile(a, q, axis=1, method='{_m}')", a=R((3, 7)), q=QS),
        f"quantile_even_{_m}": Eval(f"quantile(a, q, method='{_m}')", a=R((8,)), q=QS),
        f"nanquantile_{_m}": Eval(f"nanquantile(a, q, axis=1, method='{_m}')", a=N(R((3, 7)), [0, 8, 9, 20]), q=QS),
    })
# NumPy 1 differs: NEP 50 weak scalars (isclose's operands and tolerances, a Python q meeting a
# float array), percentile dividing in the array's dtype, median of uint64, average with weights
# over an axis tuple; it moved only one of q's axes to the front and took the odd order statistic
# at closest_observation's ties.
EVAL_NUMPY2_ONLY |= {"isclose_f4_rtol", "isclose_f2_rtol", "isclose_scalar_b", "isclose_int_scalar", "quantile_f4",
                     "quantile_f2", "percentile_f4", "isclose_u1_i1", "median_u8", "average_weights_tuple",
                     "nanquantile_q2d", "quantile_closest_observation", "quantile_even_closest_observation",
                     "nanquantile_closest_observation"}

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, set(), __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
