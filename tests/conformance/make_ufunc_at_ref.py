#!/usr/bin/env python3
"""NumPy reference data for ufunc.at: every op with an atomic form in cupp (add, subtract, multiply,
minimum, maximum, fmin, fmax, the bitwise ops) on every dtype NumPy has without ml_dtypes, plus
cases that run in rounds (bool, mixed dtypes, complex64 maximum, power, a unary op), NaN, float16
rounding per update, a 2-d target, a scalar operand and a view at an odd byte offset (the
neighbours of 1-byte elements are left alone).

    python3 make_ufunc_at_ref.py OUT_DIR

writes OUT_DIR/eval/ (routine_ref.py's write_eval_set): EVAL_CASES, each
ufunc_at_copy(a, 'add', indices, b), NumPy's add.at(a, indices, b) on a copy of a, giving the copy
(routine_ref.py's HELPERS; tests/gpu/test_eval_ref_gpu.cpp registers the same name for cupp's
ufunc::get(op).at), which EvalRefGpu/Families.AgreeWithNumPy/ufunc_at evaluates through cupp eval's
engine and compares exactly (rtol=0). Also OUT_DIR/<case>/out0.npy and OUT_DIR/manifest.json for
CASES, the call cupp eval cannot write (a view into a larger array that is checked whole), which
tests/gpu/test_ufunc_at_gpu.cpp makes with cupp under the same id.
Values are small integers (exact in every dtype), so the result does not depend on the order of
the updates: the array A, the indices IDX (repeated and negative) and the operands B, cast.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import Eval, add_cases

nan = np.nan

OPS = ["add", "subtract", "multiply", "minimum", "maximum", "fmin", "fmax", "bitwise_and", "bitwise_or",
       "bitwise_xor"]
INTS = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
FLOATS = ["float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
A = [4, -2, 0, 7, 1, -5, 3, 2]
IDX = [0, 3, 3, 7, 0, 3, 5, 5, 5, 1, -1, -8]
B = [5, -3, 2, 7, -1, 4, 3, -6, 2, 1, 9, -2]


def I(x, dt="int64"):
    return np.array(x, dtype="int64").astype(dt)


def F(x, dt="float64"):
    return np.array(x, dtype="float64").astype(dt)


def cplx(x, dt):
    """x + 1j * reversed(x) in dtype dt."""
    return (np.array(x, dtype="float64") + 1j * np.array(x[::-1], dtype="float64")).astype(dt)


def at(op, a, idx, *b):
    a = a.copy()
    getattr(np, op).at(a, idx, *b)
    return a


def view_odd():
    a = I(range(9), "uint8")
    np.add.at(a[1:], I([0, 0, 2, 7, 7]), 200)
    return a


def E(op, a, idx, b=None):
    """ufunc_at_copy(a, op, i, b) (or without b, for a unary op), compared exactly."""
    if b is None:
        return Eval("ufunc_at_copy(a, '%s', i)" % op, rtol=0.0, a=a, i=idx)
    if np.ndim(b) == 0 and not isinstance(b, np.ndarray):  # a Python number, written in the expression
        return Eval("ufunc_at_copy(a, '%s', i, %r)" % (op, b), rtol=0.0, a=a, i=idx)
    return Eval("ufunc_at_copy(a, '%s', i, b)" % op, rtol=0.0, a=a, i=idx, b=b)


def make_eval_cases():
    cases = {}
    for op in OPS:
        for dt in INTS + FLOATS + COMPLEX:
            if op.startswith("bitwise") and dt not in INTS:
                continue
            if dt in COMPLEX and op not in ("add", "subtract", "multiply"):
                continue
            if dt in COMPLEX:
                add_cases(cases, {f"{op}_{dt}": E(op, cplx(A, dt), I(IDX), cplx(B, dt))})
            else:
                add_cases(cases, {f"{op}_{dt}": E(op, I(A, dt), I(IDX), I(B, dt))})
    # uint64 is left out: NumPy's ufunc.at turns the Python int into an int64 array and adds in
    # float64 (uint64 + int64), where cupp adds in uint64 as NEP 50 does (docs/deviations.md).
    for dt in INTS + FLOATS:
        if dt != "uint64":
            add_cases(cases, {f"add_scalar_{dt}": E("add", I(A, dt), I(IDX), 3)})
    add_cases(cases, {
        # rounds: no atomic form
        "add_bool": E("add", I([0, 1, 0, 0], "bool"), I([0, 0, 2]), I([1, 0, 0], "bool")),
        "multiply_bool": E("multiply", I([0, 1, 1, 1], "bool"), I([1, 1, 3]), I([1, 1, 0], "bool")),
        "add_mixed_i1_i8": E("add", I(A, "int8"), I(IDX), I(B, "int64")),
        "maximum_complex64": E("maximum", cplx(A, "complex64"), I(IDX), cplx(B, "complex64")),
        "power_int32": E("power", I([1, 2, 3, 1], "int32"), I([1, 1, 2, 3]), I([2, 3, 2, 5], "int32")),
        "negative_int8": E("negative", I(A, "int8"), I([0, 0, 0, 3, 4])),
        # NaN: propagated by maximum, ignored by fmin/fmax
        "maximum_nan_float32": E("maximum", F([1, nan, 3, 0], "float32"), I([0, 0, 1, 2, 3, 3]),
                                 F([nan, 2, 5, nan, 1, -1], "float32")),
        "minimum_nan_float16": E("minimum", F([1, nan, 3, 0], "float16"), I([0, 0, 1, 2, 3, 3]),
                                 F([nan, 2, 5, nan, 1, -1], "float16")),
        "fmin_nan_float64": E("fmin", F([1, nan, 3, 0]), I([0, 0, 1, 2, 3, 3]), F([nan, 2, 5, nan, 1, -1])),
        "fmax_nan_float16": E("fmax", F([1, nan, 3, 0], "float16"), I([0, 0, 1, 2, 3, 3]),
                              F([nan, 2, 5, nan, 1, -1], "float16")),
        # float16 rounds each update (computed in float32): 2048 + 1 stays 2048
        "add_float16_rounding": E("add", F([2048, 1, 0.1], "float16"), I([0, 0, 0, 2, 2]),
                                  F([1, 1, 1, 0.1, 0.1], "float16")),
    })
    return cases


EVAL_CASES = make_eval_cases()
# A slice among the indices (Python's slice(), a builtin of cupp eval too): a 2-d target, the
# operand broadcast along the slice.
add_cases(EVAL_CASES, {
    "add_int16_2d": Eval("ufunc_at_copy(a, 'add', (i, slice(None)), b)", a=I(range(12), "int16").reshape(3, 4),
                         i=I([0, 0, 2]), b=I([1, -2, 3, 30000], "int16")),
    "maximum_uint8_2d": Eval("ufunc_at_copy(a, 'maximum', (slice(None), i), b)",
                             a=I(range(12), "uint8").reshape(3, 4), i=I([1, 1, 3]), b=I([9, 3, 250], "uint8")),
})

# What cupp eval cannot write (ufunc_at_copy works on a copy): the C++ test makes this call under
# the same id.
CASES = {
    # a view at an odd byte offset: only its elements change
    "add_uint8_view_odd": view_odd,
}
assert not set(CASES) & set(EVAL_CASES), set(CASES) & set(EVAL_CASES)  # one id, one case

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, set(), __doc__, EVAL_CASES, set()))
