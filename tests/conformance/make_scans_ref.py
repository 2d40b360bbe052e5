#!/usr/bin/env python3
"""NumPy reference data for the scans (issue 8), run through `cupp eval`'s engine by
tests/gpu/test_eval_ref_gpu.cpp (EvalRefGpu.Scans): cumsum, cumprod, nancumsum, nancumprod,
cumulative_sum, cumulative_prod (NumPy >= 2.1), ufunc.accumulate, diff and ediff1d.

    python3 make_scans_ref.py OUT_DIR

writes OUT_DIR/manifest.json (no classic cases) and OUT_DIR/eval (routine_ref.py's write_eval_set:
each case is the expression below over its inputs, evaluated by NumPy here and by cupp in the
test). Every routine on every dtype it accepts: an odd 3-d shape along a negative axis, the
flattened array (no axis), an empty input, a 0-d input; NaN first, in the middle and last along
the scanned lines for the float and complex dtypes; dtype=, include_initial, prepend/append,
to_begin/to_end, long lines; errors (a bad axis: AxisError; cumulative_sum of 2-d without axis,
diff of 0-d or with n < 0: ValueError; accumulate of 0-d, ediff1d of bool or with a to_begin that
does not cast: TypeError). Inputs (routine_ref.V and P) make sums and products exact in any order.
The shared NumPy 2.5.2 set has cumsum and cumprod over 3x4x5 inputs along axes None/0/1/2.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, INEXACT, SHORT, Eval, P, V, add_cases, with_nan

CUM = ["cumsum", "cumprod", "nancumsum", "nancumprod"]
CUMULATIVE = ["cumulative_sum", "cumulative_prod"]


def data(routine, shape, dt):
    return P(shape, dt) if "prod" in routine else V(shape, dt)


CASES = {}  # no classic cases: everything runs through cupp eval's engine
EVAL_CASES = {}
EVAL_NUMPY2_ONLY = set()
for _r in CUM + CUMULATIVE:
    for _dt in DTYPES:
        _n = f"{_r}_{SHORT[_dt]}"
        _cases = {
            f"{_n}_axm1": Eval(f"{_r}(a, axis=-1)", a=data(_r, (3, 5, 7), _dt)),
            f"{_n}_axm3": Eval(f"{_r}(a, axis=-3)", a=data(_r, (3, 5, 7), _dt)),
            f"{_n}_empty": Eval(f"{_r}(a, axis=0)", a=data(_r, (0, 3), _dt)),
            f"{_n}_0d": Eval(f"{_r}(a)", a=data(_r, (), _dt)),
        }
        if _r in CUM:
            _cases[f"{_n}_none"] = Eval(f"{_r}(a)", a=data(_r, (5, 3), _dt))
        else:
            _cases[f"{_n}_1d"] = Eval(f"{_r}(a)", a=data(_r, (11,), _dt))
            _cases[f"{_n}_initial"] = Eval(f"{_r}(a, axis=-2, include_initial=True)", a=data(_r, (4, 3), _dt))
        if _dt in INEXACT:
            _cases[f"{_n}_nan"] = Eval(f"{_r}(a, axis=-1)", a=with_nan(data(_r, (3, 7), _dt), [0, 10, 20]))
            _cases[f"{_n}_nan_none" if _r in CUM else f"{_n}_nan_1d"] = Eval(
                f"{_r}(a)", a=with_nan(data(_r, (9,), _dt), [4]))
        add_cases(EVAL_CASES, _cases)
        if _r in CUMULATIVE:
            EVAL_NUMPY2_ONLY |= set(_cases)

# ufunc.accumulate: the reorderable ops and the ones that are not (subtract, divide), on the dtypes
# with a loop; axis 0 (accumulate's default) and a negative axis.
INTS = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
UFUNCS = {"add": DTYPES, "multiply": DTYPES, "maximum": DTYPES, "minimum": DTYPES, "fmax": INEXACT,
          "logical_and": ["bool", "int32", "float64"], "logical_or": ["bool", "uint8"],
          "bitwise_xor": INTS, "subtract": [d for d in DTYPES if d != "bool"],
          "divide": ["float16", "float32", "float64", "complex128"]}
for _u, _dts in UFUNCS.items():
    for _dt in _dts:
        _src = P if _u in ("multiply", "divide") else V
        add_cases(EVAL_CASES, {
            f"{_u}_accumulate_{SHORT[_dt]}": Eval(f"{_u}.accumulate(a)", a=_src((5, 3), _dt)),
            f"{_u}_accumulate_{SHORT[_dt]}_axm1": Eval(f"{_u}.accumulate(a, axis=-1)", a=_src((3, 4, 7), _dt)),
        })

# diff and ediff1d on every dtype (bool: diff is not_equal; ediff1d subtracts, NumPy's TypeError).
for _dt in DTYPES:
    _s = SHORT[_dt]
    add_cases(EVAL_CASES, {
        f"diff_{_s}_axm1": Eval("diff(a, axis=-1)", a=V((3, 5, 7), _dt)),
        f"diff_{_s}_n2_axis0": Eval("diff(a, n=2, axis=0)", a=V((5, 3), _dt)),
        f"diff_{_s}_prepend_append": Eval("diff(a, axis=-1, prepend=p, append=q)", a=V((3, 4), _dt),
                                          p=V((), _dt), q=V((3, 2), _dt)),
        f"diff_{_s}_empty": Eval("diff(a, axis=0)", a=V((0, 3), _dt)),
        f"ediff1d_{_s}": Eval("ediff1d(a)", a=V((3, 4), _dt)),
        f"ediff1d_{_s}_begin_end": Eval("ediff1d(a, to_end=e, to_begin=b)", a=V((7,), _dt), e=V((2,), _dt),
                                        b=V((), _dt)),
        f"ediff1d_{_s}_0d": Eval("ediff1d(a)", a=V((), _dt)),
    })
    if _dt in INEXACT:
        add_cases(EVAL_CASES, {
            f"diff_{_s}_nan": Eval("diff(a, axis=-1)", a=with_nan(V((3, 7), _dt), [0, 10, 20])),
            f"ediff1d_{_s}_nan": Eval("ediff1d(a)", a=with_nan(V((9,), _dt), [0, 4, 8])),
        })

X3 = V((3, 4, 5))
add_cases(EVAL_CASES, {
    # ---- errors
    "cumsum_axis_oob": Eval("cumsum(a, axis=3)", a=X3),
    "cumprod_axis_neg_oob": Eval("cumprod(a, axis=-4)", a=X3),
    "nancumsum_axis_oob": Eval("nancumsum(a, axis=3)", a=X3),
    "cumsum_axis_tuple": Eval("cumsum(a, axis=(0, 1))", a=X3),
    "cumulative_sum_2d_no_axis": Eval("cumulative_sum(a)", a=V((3, 4))),
    "cumulative_prod_axis_oob": Eval("cumulative_prod(a, axis=2)", a=V((3, 4))),
    "add_accumulate_0d": Eval("add.accumulate(a)", a=V(())),
    "add_accumulate_axis_oob": Eval("add.accumulate(a, axis=-3)", a=V((3, 4))),
    "diff_0d": Eval("diff(a)", a=V(())),
    "diff_n_negative": Eval("diff(a, n=-1)", a=V((4,))),
    "diff_axis_oob": Eval("diff(a, axis=2)", a=V((3, 4))),
    "ediff1d_begin_does_not_cast": Eval("ediff1d(a, to_begin=b)", a=V((5,), "int32"), b=V((1,), "float64")),
    "ediff1d_end_does_not_cast": Eval("ediff1d(a, to_end=e)", a=V((5,), "float32"), e=V((1,), "complex64")),
    "nancumprod_axis_oob": Eval("nancumprod(a, axis=-4)", a=X3),
    "cumulative_sum_axis_oob": Eval("cumulative_sum(a, axis=-3)", a=V((3, 4))),
    "cumulative_prod_2d_no_axis": Eval("cumulative_prod(a)", a=V((3, 4))),
    # ---- ufunc.accumulate of empty and NaN inputs
    "add_accumulate_empty": Eval("add.accumulate(a, axis=0)", a=V((0, 3), "int8")),
    "multiply_accumulate_empty_axis1": Eval("multiply.accumulate(a, axis=1)", a=V((3, 0), "complex64")),
    "maximum_accumulate_nan": Eval("maximum.accumulate(a, axis=-1)", a=with_nan(V((3, 7)), [0, 10, 20])),
    "fmax_accumulate_nan_f4": Eval("fmax.accumulate(a, axis=-1)", a=with_nan(V((3, 7), "float32"), [0, 10, 20])),
    "add_accumulate_nan_c16": Eval("add.accumulate(a, axis=1)", a=with_nan(V((3, 7), "complex128"), [0, 10, 20])),
    # ---- 0-d with an axis (NumPy's cumsum treats a 0-d array as 1-d)
    "cumsum_0d_axis0": Eval("cumsum(a, axis=0)", a=V(())),
    "cumprod_0d_axism1": Eval("cumprod(a, axis=-1)", a=V((), "int16")),
    # ---- dtype=
    "cumsum_dtype_i1": Eval("cumsum(a, axis=-1, dtype='int8')", a=V((3, 40), "int32") * 9),
    "cumsum_dtype_f4": Eval("cumsum(a, dtype='float32')", a=V((4, 5), "uint16")),
    "cumprod_dtype_f8": Eval("cumprod(a, axis=0, dtype='float64')", a=P((6, 2), "int8")),
    "cumsum_dtype_c8": Eval("cumsum(a, axis=0, dtype='complex64')", a=V((5, 2))),
    "nancumsum_dtype_f8": Eval("nancumsum(a, axis=-1, dtype='float64')", a=with_nan(V((3, 7), "float16"), [0, 9])),
    "cumulative_sum_dtype_i2": Eval("cumulative_sum(a, axis=1, dtype='int16')", a=V((3, 5), "bool")),
    "add_accumulate_dtype_f8": Eval("add.accumulate(a, axis=0, dtype='float64')", a=V((5, 3), "int8")),
    # ---- diff: n, prepend/append scalars and arrays, n beyond the length, n = 0
    "diff_n3": Eval("diff(a, n=3)", a=V((2, 9))),
    "diff_n0": Eval("diff(a, n=0)", a=V((2, 3), "int16")),
    "diff_n_beyond": Eval("diff(a, n=9, axis=0)", a=V((4, 3), "float32")),
    "diff_prepend_scalar": Eval("diff(a, prepend=0)", a=V((2, 4), "float32")),
    "diff_append_scalar_promotes": Eval("diff(a, append=7)", a=V((2, 4), "int8")),
    "diff_prepend_axis0": Eval("diff(a, axis=0, prepend=p)", a=V((3, 4)), p=V((2, 4))),
    "diff_b1_n2": Eval("diff(a, n=2, axis=-1)", a=V((3, 6), "bool")),
    "diff_u1_wraps": Eval("diff(a)", a=np.array([5, 3, 250, 0], "uint8")),
    "diff_mid_axis": Eval("diff(a, axis=1)", a=V((3, 6, 4), "int32")),
    "ediff1d_empty": Eval("ediff1d(a)", a=V((0,), "float32")),
    "ediff1d_one": Eval("ediff1d(a, to_begin=b)", a=V((1,), "int64"), b=V((3,), "int64")),
    "ediff1d_begin_scalar": Eval("ediff1d(a, to_begin=-99)", a=V((4,), "int16")),
    "ediff1d_end_narrower": Eval("ediff1d(a, to_end=e)", a=V((4,), "float64"), e=V((2,), "int8")),
    # ---- long lines and layouts (several tiles, chunks; strided axes)
    "cumsum_long_f4": Eval("cumsum(a, axis=-1)", a=V((3, 5003), "float32")),
    "cumsum_long_none_i8": Eval("cumsum(a)", a=V((70001,), "int64")),
    "cumsum_long_u1_widens": Eval("cumsum(a)", a=V((30001,), "uint8")),
    "cumprod_long_f8": Eval("cumprod(a, axis=-1)", a=P((2, 3001))),
    "cumsum_long_axis0": Eval("cumsum(a, axis=0)", a=V((4001, 3), "float32")),
    "nancumsum_long": Eval("nancumsum(a, axis=-1)", a=with_nan(V((2, 6007)), [0, 3000, 6006, 9000])),
    "maximum_accumulate_long": Eval("maximum.accumulate(a, axis=-1)", a=V((3, 4099), "int16")),
    "cumsum_c16_long": Eval("cumsum(a, axis=-1)", a=V((2, 3001), "complex128")),
    "cumsum_f2_exact": Eval("cumsum(a, axis=-1)", a=V((3, 64), "float16")),
    "cumsum_flipped": Eval("cumsum(flip(a, -1), axis=-1)", a=V((3, 9), "int32")),
    "diff_flipped": Eval("diff(flip(a, 0), axis=0)", a=V((5, 3), "float32")),
})
EVAL_NUMPY2_ONLY |= {"cumulative_sum_2d_no_axis", "cumulative_prod_axis_oob", "cumulative_sum_dtype_i2",
                     "cumulative_sum_axis_oob", "cumulative_prod_2d_no_axis"}

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, set(), __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
