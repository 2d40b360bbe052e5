#!/usr/bin/env python3
"""NumPy reference data for the array manipulation routines.

    python3 make_manipulation_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json:
{"numpy": version, "numpy2": bool, "cases": {case: {"outputs": [{"file", "dtype", "shape"}...]}}}
for CASES, and OUT_DIR/eval for EVAL_CASES (routine_ref.write_eval_set). Every case is an
EVAL_CASES entry, an expression that NumPy and cupp eval's engine both evaluate
(tests/gpu/test_eval_ref_gpu.cpp); CASES is empty (slice objects as obj are slice() in the
expressions now). Inputs are often
ar(shape, dtype) = arange(size).reshape(shape).astype(dtype). Runs with any NumPy >= 1.24 (the
build uses the configured Python; the GPU machine has NumPy 2.5).
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, INEXACT, SHORT, Eval, V, add_cases


def ar(shape, dt="int64"):
    return np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape).astype(dt)


# No C++ twins are left (test_manipulation_gpu.cpp tests what only C++ has): every case is below.
CASES = {}
NUMPY2_ONLY = set()

# The tolerances of the C++ twins these cases were (check_reference_set in test_manipulation_gpu.cpp:
# exact where elements move, about 2 ULP where arithmetic is repeated), tighter than
# test_eval_ref_gpu.cpp's defaults: tw(result dtype) is a case's rtol (None for exact dtypes).
TWIN_RTOL = {"float16": 1e-3, "float32": 4.8e-7, "complex64": 4.8e-7, "float64": 4.5e-16, "complex128": 4.5e-16}


def tw(dt):
    return TWIN_RTOL.get(np.dtype(dt).name)


# Eval has no `.T` and no indexing: flip(rot90(a), 0) is a.T (a transposed view, as rot90 and flip
# give views), and lists are written as tuples.
TWIN_CASES = {
    # concatenate / concat
    "concat_axis0": Eval("concatenate((a, b))", a=ar((2, 3)), b=ar((4, 3))),
    "concat_axis1_f32": Eval("concatenate((a, b, c), axis=1)", rtol=tw("f4"), a=ar((2, 3), "f4"),
                             b=ar((2, 1), "f4"), c=ar((2, 0), "f4")),
    "concat_neg_axis": Eval("concatenate((a, b), axis=-1)", a=ar((2, 3, 2)), b=ar((2, 3, 1))),
    "concat_none": Eval("concatenate((a, b, c), axis=None)", a=ar((2, 3)), b=ar((4,)), c=ar(())),
    "concat_promote": Eval("concatenate((a, b, c))", rtol=tw("f2"), a=ar((3,), "i1"), b=ar((2,), "u1"),
                           c=ar((2,), "f2")),
    "concat_int_float": Eval("concatenate((a, b))", rtol=tw("f8"), a=ar((3,), "i8"), b=ar((2,), "f4")),
    "concat_bool_c128": Eval("concatenate((a, b))", rtol=tw("c16"), a=ar((2,), "?"), b=ar((3,), "c16")),
    "concat_dtype": Eval("concatenate((a, b), dtype='int32', casting='unsafe')", a=ar((3,), "f8") * 1.5,
                         b=ar((2,))),
    "concat_empty": Eval("concatenate((a, b))", a=ar((0, 3)), b=ar((0, 3))),
    "concat_transposed": Eval("concatenate((flip(rot90(a), 0), flip(rot90(b), 0)), axis=0)", a=ar((3, 2)),
                              b=ar((3, 2))),
    "concat_rows": Eval("concatenate((a, b), axis=1)", rtol=tw("f4"), a=ar((4, 300), "f4"), b=ar((4, 200), "f4")),
    "concat_f16_3d": Eval("concatenate((a, b), axis=1)", rtol=tw("f2"), a=ar((2, 2, 3), "f2"), b=ar((2, 1, 3), "f2")),
    # stack and friends
    "stack_0": Eval("stack((a, b))", a=ar((2, 3)), b=ar((2, 3)) + 10),
    "stack_neg": Eval("stack((a, b), axis=-1)", rtol=tw("f4"), a=ar((2, 3), "f4"), b=ar((2, 3), "f4")),
    "stack_0d": Eval("stack((a, b))", a=ar(()), b=ar(())),
    "hstack_1d": Eval("hstack((a, b))", a=ar((3,)), b=ar((2,))),
    "hstack_2d": Eval("hstack((a, b))", a=ar((2, 3), "i2"), b=ar((2, 1), "i2")),
    "vstack_1d": Eval("vstack((a, b))", a=ar((3,)), b=ar((3,))),
    "vstack_2d": Eval("vstack((a, b))", rtol=tw("c8"), a=ar((2, 3), "c8"), b=ar((1, 3), "c8")),
    "dstack": Eval("dstack((a, b))", a=ar((2, 3)), b=ar((2, 3))),
    "dstack_1d": Eval("dstack((a, b))", a=ar((3,)), b=ar((3,))),
    "column_stack": Eval("column_stack((a, b))", a=ar((3,)), b=ar((3, 2))),
    "append_none": Eval("append(a, b)", a=ar((2, 2)), b=ar((3,))),
    "append_axis0": Eval("append(a, b, axis=0)", a=ar((2, 3)), b=ar((1, 3))),
    # splitting
    "split_3": Eval("split(a, 3)", a=ar((9,))),
    "split_indices": Eval("split(a, (3, 5, 6, 10))", a=ar((8,))),
    "split_axis1": Eval("split(a, 2, axis=1)", a=ar((2, 6))),
    "array_split_3": Eval("array_split(a, 3)", rtol=tw("f8"), a=ar((10,), "f8")),
    "array_split_neg": Eval("array_split(a, (-2, 2), axis=-1)", a=ar((3, 7))),
    "array_split_more": Eval("array_split(a, 4)", a=ar((2,))),
    "hsplit": Eval("hsplit(a, 2)", a=ar((2, 4))),
    "hsplit_1d": Eval("hsplit(a, (2,))", a=ar((6,))),
    "vsplit": Eval("vsplit(a, (1, 3))", a=ar((4, 2))),
    "dsplit": Eval("dsplit(a, 2)", a=ar((2, 2, 4))),
    # rearranging
    "flip_all": Eval("flip(a)", a=ar((2, 3, 4))),
    "flip_axis1": Eval("flip(a, 1)", rtol=tw("f4"), a=ar((2, 3, 4), "f4")),
    "flip_axes": Eval("flip(a, (0, -1))", a=ar((2, 3, 4))),
    "flip_0d": Eval("flip(a)", a=ar(())),
    "fliplr": Eval("fliplr(a)", a=ar((3, 4), "?")),
    "flipud": Eval("flipud(a)", a=ar((3, 4))),
    "rot90_k1": Eval("rot90(a)", a=ar((3, 4))),
    "rot90_k2": Eval("rot90(a, 2)", a=ar((3, 4))),
    "rot90_k3": Eval("rot90(a, 3)", a=ar((3, 4))),
    "rot90_kneg": Eval("rot90(a, -1)", a=ar((3, 4))),
    "rot90_axes": Eval("rot90(a, 1, (2, 0))", a=ar((2, 3, 4))),
    "roll_none": Eval("roll(a, 5)", a=ar((3, 4))),
    "roll_axis0": Eval("roll(a, 1, axis=0)", a=ar((3, 4))),
    "roll_neg": Eval("roll(a, -1, axis=1)", rtol=tw("f8"), a=ar((3, 4), "f8")),
    "roll_tuple": Eval("roll(a, (1, -2), axis=(0, 1))", a=ar((3, 4))),
    "roll_same_axis": Eval("roll(a, (1, 2), axis=(0, 0))", a=ar((5,))),
    "roll_shift_axes": Eval("roll(a, 1, axis=(0, 1))", a=ar((3, 4))),
    "roll_big": Eval("roll(a, 14, axis=1)", a=ar((3, 4))),
    "roll_0d": Eval("roll(a, 3)", a=ar(())),
    "roll_empty": Eval("roll(a, 1, axis=1)", a=ar((0, 3))),
    # tiling and repeating
    "tile_int": Eval("tile(a, 2)", a=ar((3,))),
    "tile_tuple": Eval("tile(a, (2, 1))", a=ar((2, 3))),
    "tile_more_reps": Eval("tile(a, (2, 2))", rtol=tw("f4"), a=ar((3,), "f4")),
    "tile_fewer_reps": Eval("tile(a, 2)", a=ar((2, 2, 2))),
    "tile_zero": Eval("tile(a, (0, 2))", a=ar((2, 3))),
    "tile_ones": Eval("tile(a, (1, 1))", a=ar((2,))),
    "tile_0d": Eval("tile(a, 3)", a=ar(())),
    "repeat_scalar": Eval("repeat(a, 2)", a=ar((2, 2))),
    "repeat_axis": Eval("repeat(a, 3, axis=1)", a=ar((2, 3), "i1")),
    "repeat_counts": Eval("repeat(a, (1, 0, 2, 2))", a=ar((4,))),
    "repeat_counts_axis0": Eval("repeat(a, (2, 2, 1), axis=0)", rtol=tw("c16"), a=ar((3, 2), "c16")),
    "repeat_counts_axis1": Eval("repeat(a, r, axis=-1)", a=ar((2, 3)), r=np.array([3, 1, 1])),
    "repeat_zero": Eval("repeat(a, 0)", a=ar((3,))),
    "repeat_0d": Eval("repeat(a, 4)", a=ar(())),
    "resize_grow": Eval("resize(a, (2, 4))", a=ar((3,))),
    "resize_shrink": Eval("resize(a, (4,))", a=ar((2, 3))),
    "resize_empty": Eval("resize(a, (2, 2))", rtol=tw("f4"), a=ar((0,), "f4")),
    # dimensions
    "atleast_1d_0d": Eval("atleast_1d(a)", a=ar(())),
    "atleast_2d_1d": Eval("atleast_2d(a)", a=ar((3,))),
    "atleast_3d_1d": Eval("atleast_3d(a)", a=ar((3,))),
    "atleast_3d_2d": Eval("atleast_3d(a)", a=ar((2, 3))),
    # editing
    "delete_int": Eval("delete(a, 1)", a=ar((5,))),
    # slice objects as obj (a tuple of the same indices takes another path)
    "delete_slice": Eval("delete(a, slice(None, None, 2), axis=1)", a=ar((3, 4))),
    "insert_slice": Eval("insert(a, slice(0, 4, 2), 5, axis=1)", a=ar((2, 4))),
    "delete_neg_axis": Eval("delete(a, -1, axis=1)", a=ar((3, 4))),
    "delete_list": Eval("delete(a, (0, 4, 5))", a=ar((2, 3))),
    "delete_mask": Eval("delete(a, m, axis=0)", a=ar((4, 2)), m=np.array([True, False, True, False])),
    "insert_int": Eval("insert(a, 2, 99)", a=ar((5,))),
    "insert_int_axis": Eval("insert(a, 1, v, axis=1)", a=ar((2, 3)), v=np.array([7, 8])),
    "insert_list": Eval("insert(a, (1, 1, 4), v)", a=ar((5,)), v=np.array([10, 20, 30])),
    "insert_list_1": Eval("insert(a, (1,), v, axis=1)", a=ar((2, 3)), v=np.array([[7], [8]])),
    "insert_end": Eval("insert(a, 3, 2.5)", rtol=tw("f4"), a=ar((3,), "f4")),
}


# ---- pad, clip, where, round, nan_to_num, angle, trim_zeros, interp, convolve, correlate
# (runtime/src/routines/manipulation/{elementwise_routines,pad,interp_convolve}.cpp). Per-dtype cases
# are named <routine>_<dtype name>.
NAN, INF = float("nan"), float("inf")
# cupp eval has no nan/inf names; Python's float literal 1e999 is inf, and inf - inf is NaN.
NAN_LITERAL = "(1e999 - 1e999)"


def trim_2d():
    return np.array([[0, 0, 2, 3, 0, 0], [0, 1, 0, 3, 0, 0], [0, 0, 0, 0, 0, 0]])


def vals(values, dt="float64"):
    return np.array(values, dtype="float64").astype(dt)


def cond23():
    return np.array([[True, False, True], [False, True, False]])


def signed_or_not(dt):
    # [-2, -1, 0, 3] where the dtype has negatives, else [0, 1, 2, 3].
    return vals([-2, -1, 0, 3] if np.dtype(dt).kind in "ifc" else [0, 1, 2, 3], dt)


def rounding_values(dt):
    base = [0.5, 1.5, 2.5, -0.5, -1.5, 1.234, 12.5, 125.0, -0.126, NAN, INF]
    if np.dtype(dt).kind == "c":
        return np.array([complex(a, b) for a, b in zip(base, base[::-1])]).astype(dt)
    return np.array(base, "float64").astype(dt)


def nan_values(dt):
    base = [NAN, INF, -INF, 1.5, -0.0, 3.0]
    if np.dtype(dt).kind == "c":
        return np.array([complex(a, b) for a, b in zip(base, base[::-1])]).astype(dt)
    return np.array(base, "float64").astype(dt)


def pad_values(dt):
    # 3x4 values with repeats and an odd/even mix, so means and medians of integers round.
    return vals([5, 1, 4, 2, 8, 3, 9, 0, 7, 6, 2, 2], dt).reshape(3, 4)


PAD_STATS = ("maximum", "minimum", "mean", "median")

for _dt in DTYPES:
    _tol = tw(_dt)
    for _mode in PAD_STATS:
        TWIN_CASES[f"pad_{_mode}_{_dt}"] = Eval(f"pad(a, ((2, 1), (1, 3)), '{_mode}')", rtol=_tol, a=pad_values(_dt))
        TWIN_CASES[f"pad_{_mode}_stat_length_{_dt}"] = Eval(
            f"pad(a, ((2, 1), (1, 3)), '{_mode}', stat_length=((1, 2), (3, 2)))", rtol=_tol, a=pad_values(_dt))
    TWIN_CASES[f"pad_linear_ramp_{_dt}"] = Eval("pad(a, ((2, 1), (1, 3)), 'linear_ramp')", rtol=_tol,
                                                a=ar((2, 3), _dt))
    TWIN_CASES[f"pad_linear_ramp_ends_{_dt}"] = Eval("pad(a, ((2, 1), (1, 3)), 'linear_ramp', end_values=(4, 1))",
                                                     rtol=_tol, a=ar((2, 3), _dt))
    TWIN_CASES[f"pad_linear_ramp_weak_{_dt}"] = Eval(
        "pad(a, ((2, 1), (1, 3)), 'linear_ramp', end_values=((5, 1), (2, 7)))", rtol=_tol, a=ar((2, 3), _dt))
    for _mode in ("reflect", "symmetric"):
        TWIN_CASES[f"pad_{_mode}_odd_{_dt}"] = Eval(f"pad(a, ((2, 1), (1, 3)), '{_mode}', reflect_type='odd')",
                                                    rtol=_tol, a=ar((2, 3), _dt))
for _dt in DTYPES:
    _tol = tw(_dt)
    TWIN_CASES[f"pad_constant_{_dt}"] = Eval("pad(a, ((1, 2), (2, 1)), constant_values=((1, 2), (3, 4)))", rtol=_tol,
                                             a=ar((2, 3), _dt))
    for _mode in ("edge", "reflect", "symmetric", "wrap"):
        TWIN_CASES[f"pad_{_mode}_{_dt}"] = Eval(f"pad(a, ((2, 1), (1, 3)), '{_mode}')", rtol=_tol, a=ar((2, 3), _dt))
    TWIN_CASES[f"clip_{_dt}"] = Eval("clip(a, 1, 4)", rtol=_tol, a=ar((6,), _dt))
    TWIN_CASES[f"where_{_dt}"] = Eval("where(c, a, flip(a, 0))", rtol=_tol, c=cond23(), a=ar((2, 3), _dt))
    # (angle's dtype is arctan2(0, z)'s: float16 for int8, float64 for int32, ...)
    TWIN_CASES[f"angle_{_dt}"] = Eval("angle(z)", rtol=tw(np.angle(signed_or_not(_dt)).dtype), z=signed_or_not(_dt))
    TWIN_CASES[f"trim_zeros_{_dt}"] = Eval("trim_zeros(a)", rtol=_tol, a=vals([0, 0, 1, 2, 0, 3, 0], _dt))
    TWIN_CASES[f"convolve_{_dt}"] = Eval("convolve(a, v)", rtol=_tol, a=ar((5,), _dt), v=vals([1, 0, 2], _dt))
    TWIN_CASES[f"correlate_{_dt}"] = Eval("correlate(a, v, 'full')", rtol=_tol, a=ar((5,), _dt),
                                          v=vals([1, 1, 2], _dt))
for _dt in INEXACT:
    for _d in (0, 2, -1):
        TWIN_CASES[f"round_{_d}_{_dt}".replace("-", "m")] = Eval(f"round(a, {_d})", rtol=tw(_dt),
                                                                 a=rounding_values(_dt))
    TWIN_CASES[f"nan_to_num_{_dt}"] = Eval("nan_to_num(a)", rtol=tw(_dt), a=nan_values(_dt))
    TWIN_CASES[f"nan_to_num_values_{_dt}"] = Eval("nan_to_num(a, nan=-1.0, posinf=9.0, neginf=-9.0)", rtol=tw(_dt),
                                                  a=nan_values(_dt))
for _dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
    TWIN_CASES[f"round_m1_{_dt}"] = Eval("round(a, -1)", a=vals([15, 25, 35, 149, 151, 0, 5], _dt))
# The TWIN_CASES whose NumPy 1.x result differs from NumPy 2's (EVAL_NUMPY2_ONLY: the test skips them
# for older data).
TWIN_NUMPY2_ONLY = {
    "angle_bool",  # NumPy 1: float16 (arctan2(0, z) by value)
    # NumPy 1 promoted the NumPy scalars of linear_ramp's end values by value (NEP 50 makes them strong).
    "pad_linear_ramp_float16",
    "pad_linear_ramp_float32",
    "pad_linear_ramp_complex64",
    "pad_linear_ramp_ends_float16",
    "pad_linear_ramp_ends_float32",
    "pad_linear_ramp_ends_complex64",
}


def padded(expr, a):
    """A pad case over the input a (pad keeps a's dtype, so the twin's tolerance is a's)."""
    return Eval(expr, rtol=tw(a.dtype), a=a)


# flip(rot90(a), 0) is a.T (see TWIN_CASES); the pad_err_ cases raise (or return) as NumPy does.
add_cases(TWIN_CASES, {
    # pad
    "pad_int_width": padded("pad(a, 1)", ar((2, 3))),
    "pad_pair_width": padded("pad(a, (2, 1))", ar((3,), "f4")),
    "pad_one_pair_all_axes": padded("pad(a, ((1, 2),), 'wrap')", ar((2, 2))),
    "pad_3d": padded("pad(a, ((0, 1), (2, 0), (1, 1)), 'symmetric')", ar((2, 3, 2), "i2")),
    "pad_reflect_big": padded("pad(a, (7, 9), 'reflect')", ar((3,))),
    "pad_symmetric_big": padded("pad(a, (7, 9), 'symmetric')", ar((3,))),
    "pad_wrap_big": padded("pad(a, (7, 9), 'wrap')", ar((3,))),
    "pad_edge_big": padded("pad(a, 4, 'edge')", ar((2, 2))),
    "pad_reflect_len1": padded("pad(a, 2, 'reflect')", ar((1, 3))),
    "pad_0d": padded("pad(a, 2)", ar(())),
    "pad_empty_constant": padded("pad(a, 1, constant_values=7)", ar((0, 3))),
    "pad_empty_edge_unpadded_axis": padded("pad(a, ((0, 0), (1, 1)), 'edge')", ar((0, 3))),
    "pad_transposed": padded("pad(flip(rot90(a), 0), ((1, 0), (0, 2)), 'reflect')", ar((3, 4))),
    "pad_constant_float_into_int": padded("pad(a, 1, constant_values=2.7)", ar((3,), "i4")),
    "pad_constant_complex": padded("pad(a, (1, 2), constant_values=(1 + 2j, -3j))", ar((3,), "c16")),
    "pad_constant_nan": padded(f"pad(a, 1, constant_values={NAN_LITERAL})", ar((2,), "f8")),
    "pad_zero_width": padded("pad(a, 0, 'reflect')", ar((2, 3))),
    # pad: linear_ramp
    "pad_linear_ramp_doc": padded("pad(a, (2, 3), 'linear_ramp', end_values=(5, -4))", vals([1, 2, 3, 4, 5], "i8")),
    "pad_linear_ramp_f4_strong": padded("pad(a, (4, 5), 'linear_ramp', end_values=(1.1, -2.7))", ar((5,), "f4") / 3),
    "pad_linear_ramp_f4_weak": padded("pad(a, 3, 'linear_ramp', end_values=((1.1, -2.7), (0.3, 9.1)))",
                                      ar((2, 3), "f4") / 3),
    "pad_linear_ramp_f2_weak": padded("pad(a, 3, 'linear_ramp', end_values=((1.1, -2.7), (0.3, 9.1)))",
                                      ar((2, 3), "f2") / 3),
    "pad_linear_ramp_int_floor": padded("pad(a, (5, 4), 'linear_ramp', end_values=(-8, 9))", vals([7, -3], "i4")),
    "pad_linear_ramp_u1_wraps": padded("pad(a, 3, 'linear_ramp', end_values=(255, 0))", vals([200, 3], "u1")),
    "pad_linear_ramp_bool_end": padded("pad(a, 2, 'linear_ramp', end_values=True)", ar((3,), "f2")),
    "pad_linear_ramp_complex": padded("pad(a, (3, 2), 'linear_ramp', end_values=(2j, -1 + 1j))",
                                      np.array([1 + 2j, 3 - 1j])),
    "pad_linear_ramp_complex_c8_weak": padded("pad(a, 2, 'linear_ramp', end_values=((2j, 1), (0.5, -1 + 1j)))",
                                              np.array([[1 + 2j, 3 - 1j]], "c8")),
    "pad_linear_ramp_complex_end_real": padded("pad(a, 2, 'linear_ramp', end_values=(1 + 1j, 2))", ar((3,), "f8")),
    "pad_linear_ramp_step_zero": padded("pad(a, ((0, 0), (3, 3)), 'linear_ramp', end_values=0.3)",
                                        np.array([[0.1, 0.5], [0.3, 0.7]])),
    "pad_linear_ramp_3d": padded("pad(a, ((1, 2), (2, 1), (1, 1)), 'linear_ramp', end_values=((1, 2), (3, 4), (5, 6)))",
                                 ar((2, 3, 2), "f8")),
    "pad_linear_ramp_3d_i2": padded(
        "pad(a, ((1, 2), (2, 1), (1, 1)), 'linear_ramp', end_values=((1, 2), (30, 4), (-5, 6)))", ar((2, 3, 2), "i2")),
    "pad_linear_ramp_zero_width": padded("pad(a, ((0, 0), (0, 2)), 'linear_ramp', end_values=-1)", ar((2, 3), "i2")),
    "pad_linear_ramp_0d": padded("pad(a, 2, 'linear_ramp', end_values=7)", ar((), "f4")),
    "pad_linear_ramp_empty": padded("pad(a, ((0, 0), (1, 1)), 'linear_ramp', end_values=7)", ar((0, 3))),
    "pad_linear_ramp_transposed": padded("pad(flip(rot90(a), 0), ((1, 0), (0, 2)), 'linear_ramp', end_values=(-1, 2))",
                                         ar((3, 4), "f8")),
    # pad: the statistics
    "pad_maximum_3d": padded("pad(a, ((1, 2), (2, 1), (1, 1)), 'maximum')", ar((2, 3, 4), "f4")),
    "pad_mean_3d": padded("pad(a, ((1, 2), (2, 1), (1, 1)), 'mean')", ar((2, 3, 4), "f4")),
    "pad_median_3d": padded("pad(a, 2, 'median')", pad_values("i8").reshape(2, 2, 3)),
    "pad_minimum_3d_stat_length": padded(
        "pad(a, ((1, 1), (2, 0), (0, 3)), 'minimum', stat_length=((1, 2), (2, 1), (1, 1)))",
        pad_values("i2").reshape(2, 3, 2)),
    "pad_mean_int_rounding": padded("pad(a, (2, 2), 'mean', stat_length=2)", vals([1, 2, 5, 6, -3, -4], "i4")),
    "pad_median_int_rounding": padded("pad(a, (2, 2), 'median', stat_length=2)", vals([1, 2, 5, 6, -3, -4], "i4")),
    "pad_mean_uint8_rounding": padded("pad(a, (3, 1), 'mean', stat_length=(2, 3))", vals([250, 255, 1, 2, 3, 0], "u1")),
    "pad_mean_stat_zero": padded("pad(a, 2, 'mean', stat_length=0)", vals([1, 2])),
    "pad_median_stat_zero": padded("pad(a, 2, 'median', stat_length=0)", vals([1, 2], "f4")),
    "pad_mean_nan": padded("pad(a, 1, 'mean')", vals([1, NAN, 3])),
    "pad_median_nan": padded("pad(a, 1, 'median')", vals([1, NAN, 3])),
    "pad_maximum_nan": padded("pad(a, 1, 'maximum')", vals([1, NAN, 3], "f2")),
    "pad_minimum_inf": padded("pad(a, (1, 2), 'minimum', stat_length=(1, 3))", vals([1, -INF, 3], "f4")),
    "pad_stat_length_beyond": padded("pad(a, 2, 'mean', stat_length=100)", ar((4,), "f8")),
    "pad_stat_length_pairs": padded("pad(a, ((1, 2), (3, 1)), 'minimum', stat_length=((1, 3), (2, 2)))",
                                    ar((4, 5), "f8")),
    "pad_mean_float16_case": padded("pad(a, 2, 'mean')", vals([0.1, 0.2, 0.3, 100.7], "f2")),
    "pad_median_float16_case": padded("pad(a, 2, 'median')", vals([0.1, 0.2, 0.3, 100.7], "f2")),
    "pad_median_complex": padded("pad(a, (1, 2), 'median')", np.array([1 + 1j, 1 - 1j, 5j, 2 + 0j])),
    "pad_mean_complex": padded("pad(a, (1, 2), 'mean', stat_length=3)", np.array([1 + 1j, 1 - 1j, 5j, 2 + 0j], "c8")),
    "pad_maximum_complex": padded("pad(a, 1, 'maximum')", np.array([1 + 2j, 1 + 3j, 9j])),
    "pad_minimum_complex": padded("pad(a, 1, 'minimum')", np.array([1 + 2j, 1 + 3j, 9j])),
    "pad_mean_bool_1d": padded("pad(a, 2, 'mean', stat_length=(1, 2))", vals([1, 0, 0], "?")),
    "pad_median_bool_case": padded("pad(a, 2, 'median')", vals([1, 0, 0, 1], "?")),
    "pad_maximum_corners": padded("pad(a, 1, 'maximum')", vals([1, 2, 3, 4], "i8").reshape(2, 2)),
    "pad_mean_0d": padded("pad(a, 2, 'mean')", ar((), "f4")),
    "pad_maximum_empty": padded("pad(a, ((0, 0), (1, 1)), 'maximum', stat_length=0)", ar((0, 3))),
    "pad_mean_transposed": padded("pad(flip(rot90(a), 0), ((1, 0), (0, 2)), 'mean', stat_length=(2, 1))",
                                  ar((3, 4), "f8")),
    # pad: reflect_type='odd'
    "pad_reflect_odd_doc": padded("pad(a, (2, 3), 'reflect', reflect_type='odd')", vals([1, 2, 3, 4, 5], "i8")),
    "pad_symmetric_odd_doc": padded("pad(a, (2, 3), 'symmetric', reflect_type='odd')", vals([1, 2, 3, 4, 5], "i8")),
    "pad_reflect_odd_big": padded("pad(a, (7, 9), 'reflect', reflect_type='odd')", vals([1, 2, 4], "i8")),
    "pad_symmetric_odd_big": padded("pad(a, (7, 9), 'symmetric', reflect_type='odd')", vals([1, 2, 4], "i8")),
    "pad_symmetric_odd_big_f4": padded("pad(a, (8, 10), 'symmetric', reflect_type='odd')",
                                       vals([0.5, 0.25, 2.0], "f4")),
    "pad_reflect_odd_len1": padded("pad(a, 2, 'reflect', reflect_type='odd')", ar((1, 3))),
    "pad_symmetric_odd_len1": padded("pad(a, (2, 3), 'symmetric', reflect_type='odd')", ar((1, 3), "f4") + 1),
    "pad_reflect_odd_uint8_case": padded("pad(a, 2, 'reflect', reflect_type='odd')", vals([0, 5], "u1")),
    "pad_reflect_odd_3d": padded("pad(a, ((0, 1), (2, 0), (1, 1)), 'reflect', reflect_type='odd')",
                                 ar((2, 3, 2), "i2")),
    "pad_symmetric_odd_2d_big": padded("pad(a, ((4, 5), (6, 2)), 'symmetric', reflect_type='odd')", pad_values("f8")),
    "pad_reflect_even_explicit": padded("pad(a, ((2, 1), (1, 3)), 'reflect', reflect_type='even')", ar((2, 3))),
    "pad_reflect_type_other": padded("pad(a, (2, 3), 'reflect', reflect_type='sideways')", ar((4,))),
    "pad_reflect_odd_0d": padded("pad(a, 2, 'reflect', reflect_type='odd')", ar(())),
    # pad: errors, ValueError or TypeError as NumPy's (NumPy returns for pad_err_stat_zero_mean, NaN means;
    # pad_err_empty_stat_negative, nothing to pad from; pad_err_complex_end_bool, a bool ramp)
    "pad_err_unknown_mode": padded("pad(a, 1, 'bogus')", ar((3,))),
    "pad_err_stat_zero_max": padded("pad(a, 1, 'maximum', stat_length=0)", ar((3,))),
    "pad_err_stat_zero_min_unpadded_axis": padded("pad(a, ((1, 1), (0, 0)), 'minimum', stat_length=((1, 1), (0, 2)))",
                                                  ar((2, 3))),
    "pad_err_stat_zero_mean": padded("pad(a, 1, 'mean', stat_length=0)", ar((3,), "f8")),
    "pad_err_stat_negative": padded("pad(a, 1, 'mean', stat_length=-1)", ar((3,))),
    "pad_err_stat_shape": padded("pad(a, 1, 'median', stat_length=((1, 2), (3, 4), (5, 6)))", ar((2, 3))),
    "pad_err_end_shape": padded("pad(a, 1, 'linear_ramp', end_values=((1, 2), (3, 4), (5, 6)))", ar((2, 3))),
    "pad_err_kw_end_values_edge": padded("pad(a, 1, 'edge', end_values=1)", ar((3,))),
    "pad_err_kw_stat_length_ramp": padded("pad(a, 1, 'linear_ramp', stat_length=1)", ar((3,))),
    "pad_err_kw_reflect_type_mean": padded("pad(a, 1, 'mean', reflect_type='odd')", ar((3,))),
    "pad_err_kw_constant_values_median": padded("pad(a, 1, 'median', constant_values=1)", ar((3,))),
    "pad_err_empty_extend_median": padded("pad(a, 1, 'median')", ar((0,))),
    "pad_err_empty_extend_odd": padded("pad(a, 1, 'symmetric', reflect_type='odd')", ar((2, 0))),
    "pad_err_empty_stat_negative": padded("pad(a, ((0, 0), (1, 1)), 'mean', stat_length=-1)", ar((0, 3))),
    "pad_err_complex_end_int": padded("pad(a, 1, 'linear_ramp', end_values=1j)", ar((3,))),
    "pad_err_complex_end_int_zero_width": padded("pad(a, 0, 'linear_ramp', end_values=(1, 2j))", ar((3,), "u2")),
    "pad_err_complex_end_bool": padded("pad(a, 1, 'linear_ramp', end_values=1j)", ar((3,), "?")),
})
TWIN_NUMPY2_ONLY |= {
    # NumPy 1 reflected long odd pads without whole periods, and promoted the NumPy scalars of
    # linear_ramp's end values by value (NEP 50 makes them strong).
    "pad_reflect_odd_big",
    "pad_symmetric_odd_big",
    "pad_symmetric_odd_big_f4",
    "pad_symmetric_odd_2d_big",
    "pad_symmetric_odd_len1",
    "pad_linear_ramp_f4_strong",
    "pad_linear_ramp_bool_end",
    "pad_linear_ramp_complex_c8_weak",
}

add_cases(TWIN_CASES, {
    # clip
    "clip_arrays": Eval("clip(a, lo, 3.5)", rtol=tw("f8"), a=ar((2, 3), "f8"), lo=np.array([0.0, 1.0, 2.0])),
    "clip_nan": Eval("clip(a, 0, 3)", rtol=tw("f8"), a=np.array([NAN, 1.0, 5.0, -INF, INF, -1.0])),
    "clip_nan_bound": Eval("clip(a, lo, hi)", rtol=tw("f4"), a=ar((4,), "f4"), lo=np.array(NAN, "f4"),
                           hi=np.array(2, "f4")),
    "clip_none_min": Eval("clip(a, None, 2)", a=ar((5,))),
    "clip_none_max": Eval("clip(a, 2, None)", rtol=tw("f2"), a=ar((5,), "f2")),
    "clip_none_both": Eval("clip(a, None, None)", a=ar((5,), "u2")),
    "clip_weak_float_int8": Eval("clip(a, 0.5, 3)", rtol=tw("f8"), a=ar((5,), "i1")),
    "clip_uint8_beyond_range": Eval("clip(a, -5, 300)", a=ar((5,), "u1")),
    "clip_int8_at_min": Eval("clip(a, -128, 2)", a=ar((5,), "i1")),
    "clip_strong_0d_bound": Eval("clip(a, lo, 3)", a=ar((5,), "i2"), lo=np.array(1, "i4")),
    "clip_complex": Eval("clip(a, 1 + 2j, 2 + 0j)", rtol=tw("c16"), a=np.array([1 + 1j, 3 - 1j, 2 + 5j, 1 + 3j])),
    "clip_lo_above_hi": Eval("clip(a, 3, 1)", a=ar((5,))),
    "clip_0d": Eval("clip(a, 1, 2)", rtol=tw("f4"), a=ar((), "f4")),
    "clip_empty": Eval("clip(a, 1, 2)", a=ar((0, 2), "i4")),
    # where
    "where_broadcast": Eval("where(c, x, y)", rtol=tw("f4"), c=ar((3, 1)) % 2 == 0, x=ar((1, 4), "f4"),
                            y=ar((3, 4), "i2")),
    "where_promote": Eval("where(c, x, y)", c=cond23(), x=ar((2, 3), "i1"), y=ar((2, 3), "u1")),
    "where_weak_float": Eval("where(c, x, 2.5)", rtol=tw("f2"), c=cond23(), x=ar((2, 3), "f2")),
    "where_weak_int": Eval("where(c, x, 7)", c=cond23(), x=ar((2, 3), "u1")),
    "where_scalars": Eval("where(c, 1, 2.5)", rtol=tw("f8"), c=cond23()),
    "where_int_condition": Eval("where(c, x, -1)", c=ar((5,)) % 3, x=ar((5,))),
    "where_nan_condition": Eval("where(c, 1, 0)", c=np.array([NAN, 0.0, 1.0])),
    "where_0d": Eval("where(c, x, 5)", c=np.array(True), x=ar(())),
    "where_empty": Eval("where(c, x, 1.5)", rtol=tw("f8"), c=np.zeros((0, 3), bool), x=ar((0, 3))),
    "where_complex_weak": Eval("where(c, x, 1j)", rtol=tw("c8"), c=cond23(), x=ar((2, 3), "f4")),
    # round
    "round_bool": Eval("round(a)", rtol=tw("f2"), a=ar((3,), "?")),  # (float16, as NumPy's)
    "round_int_positive": Eval("round(a, 2)", a=ar((4,), "i4")),
    "round_int_m2": Eval("round(a, -2)", a=vals([149, 150, 151, 250, -250, 1234], "i8")),
    "round_decimals_10": Eval("round(a, 10)", rtol=tw("f8"), a=np.array([1.23456789012, -9.87654321098])),
    "round_0d": Eval("round(a)", rtol=tw("f8"), a=np.array(2.5)),
    "round_empty": Eval("round(a, 1)", rtol=tw("f4"), a=ar((0,), "f4")),
    "around_1": Eval("around(a, 1)", rtol=tw("f8"), a=np.array([0.05, 0.15, 0.25, 1.0 / 3.0])),
    # nan_to_num
    "nan_to_num_int": Eval("nan_to_num(a)", a=ar((3,), "i4")),
    "nan_to_num_bool_case": Eval("nan_to_num(a)", a=ar((3,), "?")),
    "nan_to_num_f16_overflow": Eval("nan_to_num(a, posinf=1e6, neginf=-1e6)", rtol=tw("f2"), a=nan_values("f2")),
    "nan_to_num_0d": Eval("nan_to_num(a)", rtol=tw("f8"), a=np.array(NAN)),
    "nan_to_num_2d": Eval("nan_to_num(a, nan=5.0)", rtol=tw("f4"), a=nan_values("f4").reshape(2, 3)),
    # angle
    "angle_deg": Eval("angle(z, deg=True)", rtol=tw("f8"), z=np.array([1 + 1j, -1 + 0j, -1j, 0j, -3 + 4j])),
    "angle_deg_f4": Eval("angle(z, deg=True)", rtol=tw("f4"), z=np.array([-1.0, 2.0], "f4")),
    "angle_nan": Eval("angle(z)", rtol=tw("f8"), z=np.array([NAN, -INF, INF, complex(NAN, 1)])),
    "angle_0d": Eval("angle(z)", rtol=tw("f8"), z=np.array(-2.0)),
    # trim_zeros
    "trim_zeros_f": Eval("trim_zeros(a, 'f')", rtol=tw("f8"), a=vals([0, 0, 1, 0, 2, 0, 0])),
    "trim_zeros_b": Eval("trim_zeros(a, 'b')", rtol=tw("f8"), a=vals([0, 0, 1, 0, 2, 0, 0])),
    "trim_zeros_upper": Eval("trim_zeros(a, 'BF')", rtol=tw("f8"), a=vals([0, 1, 0])),
    "trim_zeros_all_zero": Eval("trim_zeros(a)", rtol=tw("f8"), a=np.zeros(4)),
    "trim_zeros_empty": Eval("trim_zeros(a)", a=np.zeros(0, "i4")),
    "trim_zeros_nan": Eval("trim_zeros(a)", rtol=tw("f8"), a=vals([0, NAN, 0, 1, 0])),
    "trim_zeros_none_to_trim": Eval("trim_zeros(a)", a=ar((4,)) + 1),
    "trim_zeros_2d": Eval("trim_zeros(a)", a=trim_2d()),
    "trim_zeros_2d_axis": Eval("trim_zeros(a, axis=-1)", a=trim_2d()),
    "trim_zeros_2d_all_zero_axis": Eval("trim_zeros(a, axis=0)", rtol=tw("f8"), a=np.zeros((3, 4))),
    # interp (float64 results, complex128 for complex fp)
    "interp_basic": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=vals([-1, 0, 0.5, 1.5, 2, 2.5, 3, 4, NAN]),
                         xp=vals([0, 1, 2, 3]), fp=vals([0, 10, 5, -5])),
    "interp_left_right": Eval("interp(x, xp, fp, left=-100, right=100)", rtol=tw("f8"), x=vals([-1, 0.25, 9]),
                              xp=vals([0, 1]), fp=vals([1, 2])),
    "interp_one_point": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=vals([0, 1, 2, NAN]), xp=vals([1]), fp=vals([5])),
    "interp_complex": Eval("interp(x, xp, fp)", rtol=tw("c16"), x=vals([-1, 0.5, 1.25, 5]), xp=vals([0, 1, 2]),
                           fp=np.array([1 + 1j, 2 - 1j, 0j])),
    "interp_complex_left": Eval("interp(x, xp, fp, left=3 - 3j, right=4j)", rtol=tw("c16"), x=vals([-1, 5, NAN]),
                                xp=vals([0, 1]), fp=np.array([1 + 1j, 2j])),
    "interp_int_inputs": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=np.array([0, 1, 2, 5], "i4"),
                              xp=np.array([0, 2, 4], "i8"), fp=np.array([10, 20, 0], "i2")),
    "interp_f32": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=vals([0.1, 0.7, 1.3], "f4"), xp=vals([0, 1, 2], "f4"),
                       fp=vals([1, 3, 2], "f4")),
    "interp_period": Eval("interp(x, xp, fp, period=360)", rtol=tw("f8"),
                          x=vals([-180, -170, -185, 185, -10, -5, 0, 365]), xp=vals([190, -190, 350, -350]),
                          fp=vals([5, 10, 3, 4])),
    "interp_2d_x": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=ar((2, 3), "f8") / 2, xp=vals([0, 1, 2]),
                        fp=vals([2, 4, 8])),
    "interp_0d": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=np.array(1.5), xp=vals([1, 2]), fp=vals([0, 1])),
    "interp_empty_x": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=np.zeros(0), xp=vals([1, 2]), fp=vals([0, 1])),
    "interp_duplicates": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=vals([0.5, 1, 1.5]), xp=vals([0, 1, 1, 2]),
                              fp=vals([0, 1, 3, 4])),
    "interp_inf_fp": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=vals([0.5, 1.5, 1]), xp=vals([0, 1, 2]),
                          fp=vals([0, INF, INF])),
    "interp_many_points": Eval("interp(x, xp, fp)", rtol=tw("f8"), x=np.array([-1 + 12 * k / 96 for k in range(97)]),
                               xp=np.arange(10.0), fp=np.arange(10.0) ** 2),
    # convolve / correlate
    "convolve_same": Eval("convolve(a, v, 'same')", a=ar((6,)), v=vals([1, 2, 3], "i8")),
    "convolve_valid": Eval("convolve(a, v, 'valid')", a=ar((6,)), v=vals([1, 2, 3], "i8")),
    "convolve_swap": Eval("convolve(a, v, 'same')", a=vals([1, 2], "i8"), v=ar((5,))),
    "convolve_0d": Eval("convolve(a, v)", a=np.array(3), v=ar((4,))),
    "convolve_promote": Eval("convolve(a, v)", rtol=tw("f4"), a=ar((4,), "i1"), v=vals([0.5, 2], "f4")),
    "convolve_complex": Eval("convolve(a, v)", rtol=tw("c16"), a=np.array([1 + 1j, 2 + 1j, 3 + 1j]),
                             v=np.array([-2j, 1 - 2j])),
    "convolve_uint8_wraps": Eval("convolve(a, v)", a=vals([200, 100, 50], "u1"), v=vals([3, 2], "u1")),
    "convolve_large": Eval("convolve(a, v)", rtol=tw("f8"), a=ar((1000,), "f8") % 7, v=ar((37,), "f8") % 5),
    "correlate_valid": Eval("correlate(a, v)", rtol=tw("f8"), a=ar((6,), "f8"), v=vals([1, 0, -1])),
    "correlate_same": Eval("correlate(a, v, 'same')", a=ar((6,)), v=vals([1, 2, 3], "i8")),
    "correlate_complex_conj": Eval("correlate(a, v, 'full')", rtol=tw("c16"), a=np.array([1 + 1j, 2 + 1j, 3 + 1j]),
                                   v=np.array([2j, 1 + 2j])),
    "correlate_inverted": Eval("correlate(a, v, 'full')", rtol=tw("c16"), a=np.array([1 + 1j, 2 + 1j]),
                               v=np.array([-1j, 1 - 1j, 2 - 1j, 3 - 1j])),
    "correlate_inverted_same": Eval("correlate(a, v, 'same')", a=vals([1, 2, 5], "i4"), v=ar((6,), "i4")),
})
TWIN_NUMPY2_ONLY |= {
    "clip_none_both",           # NumPy 1 raises: one of min or max must be given
    "clip_weak_float_int8",     # NEP 50 (NumPy 1: value-based casting)
    "clip_uint8_beyond_range",  # NumPy 2's _clip drops a Python int bound beyond the dtype
    "clip_strong_0d_bound",     # NEP 50: a 0-d array is strong
    "clip_int8_at_min",
    "where_weak_int",
    "where_complex_weak",
    "round_bool",
    "trim_zeros_2d",            # NumPy 2.2: n-d trim_zeros and axis=
    "trim_zeros_2d_axis",
    "trim_zeros_2d_all_zero_axis",
    "clip_0d",                  # NEP 50: NumPy 1 made a 0-d float32 clipped by Python ints float64
}


# ---- more cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp, EvalRefGpu.Manipulation;
# written to <out>/eval with TWIN_CASES above, which were C++ twins): every routine on every dtype, negative
# axes, views with negative strides (flip), 0-d and empty inputs, and the errors (shapes that do not
# join or split: ValueError; a bad axis: AxisError; an index out of bounds: IndexError).

REAL_DTYPES = [d for d in DTYPES if d not in ("complex64", "complex128")]
EVAL_CASES = {}
for _dt in DTYPES:
    _s = SHORT[_dt]
    _cases = {
        f"concatenate_{_s}_axm1_flipped": Eval("concatenate((a, flip(b, 0)), axis=-1)", a=V((2, 3), _dt),
                                               b=V((2, 2), _dt)),
        f"concatenate_{_s}_none": Eval("concatenate((a, b), axis=None)", a=V((2, 3), _dt), b=V((4,), _dt)),
        f"concat_{_s}": Eval("concat((a, b), axis=-2)", a=V((2, 3), _dt), b=V((1, 3), _dt)),
        f"stack_{_s}_axm1": Eval("stack((a, b, a), axis=-1)", a=V((2, 3), _dt), b=V((2, 3), _dt)),
        f"hstack_{_s}": Eval("hstack((a, b))", a=V((2, 3), _dt), b=V((2, 1), _dt)),
        f"vstack_{_s}": Eval("vstack((a, b))", a=V((3,), _dt), b=V((2, 3), _dt)),
        f"dstack_{_s}": Eval("dstack((a, b))", a=V((2, 3), _dt), b=V((2, 3, 2), _dt)),
        f"column_stack_{_s}": Eval("column_stack((a, b))", a=V((3,), _dt), b=V((3, 2), _dt)),
        f"append_{_s}_axm2": Eval("append(a, b, axis=-2)", a=V((2, 3), _dt), b=V((1, 3), _dt)),
        f"append_{_s}_none": Eval("append(a, b)", a=V((2, 2), _dt), b=V((3,), _dt)),
        f"split_{_s}_axm1": Eval("split(a, 3, axis=-1)", a=V((2, 9), _dt)),
        f"array_split_{_s}_axm2": Eval("array_split(a, (2, 5), axis=-2)", a=V((7, 2), _dt)),
        f"hsplit_{_s}": Eval("hsplit(a, 2)", a=V((2, 4), _dt)),
        f"vsplit_{_s}": Eval("vsplit(a, (1, 3))", a=V((4, 2), _dt)),
        f"dsplit_{_s}": Eval("dsplit(a, 2)", a=V((2, 2, 4), _dt)),
        f"flip_{_s}_axes": Eval("flip(a, axis=(0, -1))", a=V((2, 3, 4), _dt)),
        f"fliplr_{_s}": Eval("fliplr(a)", a=V((3, 4, 2), _dt)),
        f"flipud_{_s}": Eval("flipud(a)", a=V((3, 4), _dt)),
        f"rot90_{_s}_neg": Eval("rot90(a, -1, axes=(-1, 0))", a=V((2, 3, 4), _dt)),
        f"roll_{_s}_axes": Eval("roll(a, (2, -1), axis=(-1, 0))", a=V((3, 4), _dt)),
        f"roll_{_s}_none": Eval("roll(flip(a, -1), -5)", a=V((3, 4), _dt)),
        f"tile_{_s}": Eval("tile(a, (2, 1, 2))", a=V((2, 3), _dt)),
        f"repeat_{_s}_axm1": Eval("repeat(a, r, axis=-1)", a=V((2, 3), _dt), r=np.array([1, 0, 2])),
        f"repeat_{_s}_none": Eval("repeat(flip(a, 0), 2)", a=V((2, 3), _dt)),
        f"resize_{_s}": Eval("resize(a, (3, 5))", a=V((2, 3), _dt)),
        f"atleast_{_s}": Eval("atleast_1d(a), atleast_2d(b), atleast_3d(b), atleast_3d(c)", a=V((), _dt),
                              b=V((3,), _dt), c=V((2, 3), _dt)),
        f"insert_{_s}_axm1": Eval("insert(a, -1, v, axis=-1)", a=V((2, 3), _dt), v=V((2,), _dt)),
        f"insert_{_s}_none": Eval("insert(a, (1, 1, 5), v)", a=V((2, 3), _dt), v=V((3,), _dt)),
        f"delete_{_s}_axm1": Eval("delete(a, (0, -1), axis=-1)", a=V((2, 4), _dt)),
        f"delete_{_s}_mask": Eval("delete(a, m, axis=0)", a=V((4, 2), _dt), m=np.array([True, False, False, True])),
        f"where_{_s}_flipped": Eval("where(c, a, flip(b, -1))", c=V((2, 3), "bool"), a=V((2, 3), _dt),
                                    b=V((1, 3), _dt)),
        f"clip_{_s}_arrays": Eval("clip(a, lo, hi)", a=V((3, 4), _dt), lo=V((4,), _dt), hi=V((3, 1), _dt)),
        f"trim_zeros_{_s}_b": Eval("trim_zeros(a, 'b')", a=V((9,), _dt)),
        f"concatenate_{_s}_empty": Eval("concatenate((a, b), axis=0)", a=V((0, 3), _dt), b=V((2, 3), _dt)),
        f"stack_{_s}_empty": Eval("stack((a, b), axis=1)", a=V((0, 3), _dt), b=V((0, 3), _dt)),
        f"split_{_s}_empty": Eval("split(a, 3, axis=1)", a=V((0, 6), _dt)),
        f"flip_{_s}_empty": Eval("flip(a, -1)", a=V((2, 0), _dt)),
        f"tile_{_s}_empty": Eval("tile(a, 2)", a=V((0, 2), _dt)),
        f"repeat_{_s}_empty": Eval("repeat(a, 3, axis=0)", a=V((0, 2), _dt)),
        f"insert_{_s}_empty": Eval("insert(a, 0, v)", a=V((0,), _dt), v=V((2,), _dt)),
        f"roll_{_s}_0d": Eval("roll(a, 1)", a=V((), _dt)),
        f"resize_{_s}_0d": Eval("resize(a, (2, 2))", a=V((), _dt)),
        f"append_{_s}_0d": Eval("append(a, b)", a=V((), _dt), b=V((), _dt)),
    }
    if _dt in REAL_DTYPES:
        _cases[f"interp_{_s}"] = Eval("interp(x, xp, fp)", x=V((7,), _dt), xp=np.array([-2.0, 0.0, 1.0, 3.0]),
                                      fp=V((4,), _dt).astype("float64"))
    add_cases(EVAL_CASES, _cases)

add_cases(EVAL_CASES, {
    # strided views (eval's subscripts make them, as NumPy's do)
    "concat_strided": Eval("concatenate((a[::-1], b[::2]))", a=ar((4,), "u2"), b=ar((5,), "u2")),
    # ---- 0-d inputs
    "concatenate_0d": Eval("concatenate((a, b))", a=V(()), b=V((2,))),
    "stack_0d_axis_m1": Eval("stack((a, b), axis=-1)", a=V(()), b=V(())),
    "hstack_0d": Eval("hstack((a, b))", a=V(()), b=V((2,))),
    "vstack_0d": Eval("vstack((a, b))", a=V(()), b=V(())),
    "column_stack_0d": Eval("column_stack((a, b))", a=V(()), b=V(())),
    "split_0d": Eval("split(a, 1)", a=V(())),
    "array_split_0d": Eval("array_split(a, 2)", a=V(())),
    "hsplit_0d": Eval("hsplit(a, 1)", a=V(())),
    "rot90_0d": Eval("rot90(a)", a=V(())),
    "fliplr_1d": Eval("fliplr(a)", a=V((3,))),
    "insert_0d": Eval("insert(a, 0, 5)", a=V((), "int32")),
    "delete_0d": Eval("delete(a, 0)", a=V((), "int32")),
    "tile_0d_tuple": Eval("tile(a, (2, 3))", a=V((), "int16")),
    "trim_zeros_0d": Eval("trim_zeros(a)", a=V(())),
    "dstack_0d": Eval("dstack((a, b))", a=V(()), b=V(())),
    "dstack_empty": Eval("dstack((a, b))", a=V((0,)), b=V((0,))),
    "hstack_empty": Eval("hstack((a, b))", a=V((2, 0)), b=V((2, 1))),
    "vstack_empty": Eval("vstack((a, b))", a=V((0, 3), "int8"), b=V((1, 3), "int8")),
    "column_stack_empty": Eval("column_stack((a, b))", a=V((0,)), b=V((0, 2))),
    "fliplr_empty": Eval("fliplr(a)", a=V((0, 3))),
    "flipud_empty": Eval("flipud(a)", a=V((0,), "uint16")),
    "flipud_0d": Eval("flipud(a)", a=V(())),
    "vsplit_empty": Eval("vsplit(a, 2)", a=V((0, 3))),
    "dsplit_empty": Eval("dsplit(a, (1,))", a=V((2, 2, 0))),
    "hsplit_empty": Eval("hsplit(a, 3)", a=V((0,))),
    "atleast_empty": Eval("atleast_1d(a), atleast_2d(a), atleast_3d(a)", a=V((0,), "float32")),
    "atleast_0d_2d_3d": Eval("atleast_2d(a), atleast_3d(a)", a=V((), "int8")),
    "delete_empty": Eval("delete(a, 0, axis=1)", a=V((0, 3))),
    "rot90_empty": Eval("rot90(a)", a=V((0, 3), "complex64")),
    "append_empty": Eval("append(a, b, axis=0)", a=V((0, 2)), b=V((1, 2))),
    "array_split_empty": Eval("array_split(a, 3)", a=V((0,), "int32")),
    "where_nan_condition_eval": Eval("where(c, a, b)", c=np.array([[np.nan, 0.0, 1.0], [0.0, np.nan, np.nan]]),
                                     a=V((2, 3), "int16"), b=V((3,), "int16")),
    "vsplit_0d": Eval("vsplit(a, 1)", a=V(())),
    "fliplr_0d": Eval("fliplr(a)", a=V(())),
    "correlate_0d": Eval("correlate(a, v, 'full')", a=V(()), v=V((3,))),
    "convolve_0d_both": Eval("convolve(a, v)", a=V((), "int32"), v=V((), "int32")),
    # ---- errors
    "concatenate_shapes": Eval("concatenate((a, b), axis=0)", a=V((2, 3)), b=V((2, 4))),
    "concatenate_ndims": Eval("concatenate((a, b))", a=V((2, 3)), b=V((3,))),
    "concatenate_axis_oob": Eval("concatenate((a, b), axis=2)", a=V((2, 3)), b=V((2, 3))),
    "concatenate_axis_neg_oob": Eval("concatenate((a, b), axis=-3)", a=V((2, 3)), b=V((2, 3))),
    "stack_shapes": Eval("stack((a, b))", a=V((2, 3)), b=V((3, 2))),
    "stack_axis_oob": Eval("stack((a, b), axis=3)", a=V((2, 3)), b=V((2, 3))),
    "hstack_shapes": Eval("hstack((a, b))", a=V((2, 3)), b=V((3, 1))),
    "vstack_shapes": Eval("vstack((a, b))", a=V((2, 3)), b=V((2, 4))),
    "column_stack_shapes": Eval("column_stack((a, b))", a=V((3,)), b=V((4,))),
    "append_shapes": Eval("append(a, b, axis=0)", a=V((2, 3)), b=V((1, 2))),
    "append_axis_oob": Eval("append(a, b, axis=2)", a=V((2, 3)), b=V((1, 3))),
    "split_unequal": Eval("split(a, 4)", a=V((9,))),
    "split_axis_oob": Eval("split(a, 2, axis=2)", a=V((2, 4))),
    "array_split_zero_sections": Eval("array_split(a, 0)", a=V((4,))),
    "vsplit_1d": Eval("vsplit(a, 2)", a=V((4,))),
    "dsplit_2d": Eval("dsplit(a, 2)", a=V((2, 4))),
    "flip_axis_oob": Eval("flip(a, axis=2)", a=V((2, 3))),
    "flip_axes_dup": Eval("flip(a, axis=(0, -2))", a=V((2, 3))),
    "rot90_same_axes": Eval("rot90(a, 1, axes=(1, 1))", a=V((2, 3))),
    "rot90_axes_oob": Eval("rot90(a, 1, axes=(0, 2))", a=V((2, 3))),
    "rot90_three_axes": Eval("rot90(a, 1, axes=(0, 1, 2))", a=V((2, 3, 4))),
    "roll_axis_oob": Eval("roll(a, 1, axis=2)", a=V((2, 3))),
    "roll_shift_axis_mismatch": Eval("roll(a, (1, 2, 3), axis=(0, 1))", a=V((2, 3))),
    "tile_negative": Eval("tile(a, -1)", a=V((2,))),
    "repeat_negative": Eval("repeat(a, -1)", a=V((2,))),
    "repeat_counts_length": Eval("repeat(a, r, axis=0)", a=V((3, 2)), r=np.array([1, 2])),
    "repeat_axis_oob": Eval("repeat(a, 2, axis=2)", a=V((3, 2))),
    "resize_negative": Eval("resize(a, (-1, 2))", a=V((3,))),
    "insert_oob": Eval("insert(a, 5, 1.5)", a=V((4,))),
    "insert_axis_oob": Eval("insert(a, 0, 1, axis=2)", a=V((2, 3))),
    "delete_oob": Eval("delete(a, 4)", a=V((4,))),
    "delete_neg_oob": Eval("delete(a, -5, axis=0)", a=V((4, 2))),
    "delete_axis_oob": Eval("delete(a, 0, axis=-3)", a=V((4, 2))),
    "where_shapes": Eval("where(c, a, b)", c=V((2, 3), "bool"), a=V((2, 3)), b=V((3, 2))),
    "clip_shapes": Eval("clip(a, lo, 3)", a=V((2, 3)), lo=V((2,))),
    "pad_negative": Eval("pad(a, -1)", a=V((3,))),
    "pad_width_shape": Eval("pad(a, ((1, 2), (3, 4), (5, 6)))", a=V((2, 3))),
    "interp_lengths": Eval("interp(x, xp, fp)", x=V((3,)), xp=V((4,)), fp=V((3,))),
    "interp_xp_empty": Eval("interp(x, xp, fp)", x=V((3,)), xp=V((0,)), fp=V((0,))),
    "convolve_empty": Eval("convolve(a, v)", a=V((3,)), v=V((0,))),
    "correlate_empty": Eval("correlate(a, v)", a=V((0,)), v=V((3,))),
    "convolve_2d": Eval("convolve(a, v)", a=V((2, 2)), v=V((3,))),
    "trim_zeros_bad_trim": Eval("trim_zeros(a, 'x')", a=V((4,))),
})
# round/around, nan_to_num and angle on every dtype (round of bool and angle of bool are NumPy 2's).
for _dt in DTYPES:
    _s = SHORT[_dt]
    add_cases(EVAL_CASES, {
        f"round_{_s}_eval": Eval("round(a, 1), round(flip(a, 0), -1)", a=V((4, 3), _dt) * 3 if _dt != "bool"
                                 else V((4, 3), _dt)),
        f"around_{_s}": Eval("around(a)", a=V((5,), _dt)),
        f"nan_to_num_{_s}_eval": Eval("nan_to_num(a, nan=-1.0, posinf=9.0)", a=V((2, 3), _dt)),
        f"angle_{_s}_eval": Eval("angle(a, deg=True)", a=V((5,), _dt)),
    })
add_cases(EVAL_CASES, {
    "round_empty_i4": Eval("round(a, -1)", a=V((0, 2), "int32")),
    "nan_to_num_empty": Eval("nan_to_num(a)", a=V((0,), "complex64")),
    "angle_empty": Eval("angle(a)", a=V((0,), "float32")),
    "angle_0d_c8": Eval("angle(a)", a=V((), "complex64")),
})
EVAL_NUMPY2_ONLY = {f"concat_{SHORT[d]}" for d in DTYPES} | {"round_b1_eval", "around_b1", "angle_b1_eval"}
EVAL_NUMPY2_ONLY |= {f"round_{SHORT[d]}_eval" for d in DTYPES}  # NumPy 1 rounded ints differently at -1
EVAL_NUMPY2_ONLY |= {"trim_zeros_bad_trim", "trim_zeros_0d", "rot90_0d"}

# ---- shapes and axes (views), copies and casts: reshape, ravel, transpose, permute_dims,
# matrix_transpose, swapaxes, moveaxis, rollaxis, squeeze, expand_dims, broadcast_to, broadcast_arrays,
# diagonal, real, imag, astype, copy, ascontiguousarray, asfortranarray (cupp/ndarray.hpp, cupp/ufunc.hpp
# and the NumPy 2 forms of cupp/manipulation.hpp). The harness compares values: a view and a copy with
# the same elements agree, so these check which elements a view reads, in which order.
VIEW_NUMPY2_ONLY = set()  # NumPy 2 names (permute_dims, matrix_transpose, astype) and keywords (copy=)


def castable(shape, src, dst):
    """V(shape, src), nonnegative when an inexact src goes to an unsigned dst (NumPy's float to
    unsigned cast of a negative value is undefined in C)."""
    v = V(shape, src)
    if np.dtype(src).kind in "fc" and np.dtype(dst).kind == "u":
        v = (abs(v.real) if np.dtype(src).kind == "c" else abs(v)).astype(src)
    return v


for _dt in DTYPES:
    _s = SHORT[_dt]
    _views = {
        f"reshape_{_s}_f": Eval("reshape(a, (3, -1), order='F')", a=V((2, 3, 2), _dt)),
        f"reshape_{_s}_copy": Eval("reshape(transpose(a), (2, 6)), reshape(flip(a, 0), -1)", a=V((3, 4), _dt)),
        f"reshape_{_s}_a": Eval("reshape(asfortranarray(a), (3, 2), order='A'), reshape(a, (2, 3), order='A')",
                                a=V((2, 3), _dt)),
        f"ravel_{_s}_orders": Eval("ravel(a), ravel(a, 'F'), ravel(transpose(a, (2, 0, 1)), 'K'), ravel(flip(a, 1), 'A')",
                                   a=V((2, 3, 4), _dt)),
        f"ravel_{_s}_k_strided": Eval("ravel(flip(transpose(a, (1, 2, 0)), 0), order='K')", a=V((2, 3, 4), _dt)),
        f"transpose_{_s}": Eval("transpose(a), transpose(a, (1, -1, 0))", a=V((2, 3, 4), _dt)),
        f"swapaxes_{_s}": Eval("swapaxes(a, 0, -1)", a=V((2, 3, 4), _dt)),
        f"moveaxis_{_s}": Eval("moveaxis(a, (0, -1), (-1, 0)), moveaxis(a, 1, -1)", a=V((2, 3, 4), _dt)),
        f"rollaxis_{_s}": Eval("rollaxis(a, -1, 1), rollaxis(a, 0, 3)", a=V((2, 3, 4), _dt)),
        f"squeeze_{_s}": Eval("squeeze(a), squeeze(a, axis=-1), squeeze(a, (0, 2))", a=V((1, 3, 1), _dt)),
        f"expand_dims_{_s}": Eval("expand_dims(a, (0, -1)), expand_dims(a, 1)", a=V((2, 3), _dt)),
        f"broadcast_to_{_s}": Eval("broadcast_to(a, (2, 3, 4))", a=V((3, 1), _dt)),
        f"broadcast_arrays_{_s}": Eval("broadcast_arrays(a, b, c)", a=V((3, 1), _dt), b=V((4,), _dt), c=V((), _dt)),
        f"diagonal_{_s}": Eval("diagonal(a), diagonal(a, 1, -1, 0), diagonal(a, offset=-1, axis1=1, axis2=2)",
                               a=V((3, 4, 2), _dt)),
        f"real_imag_{_s}": Eval("real(a), imag(a), real(flip(a, 0)), imag(flip(a, -1))", a=V((2, 3), _dt)),
        f"copy_{_s}": Eval("copy(transpose(a)), copy(a, order='F'), copy(flip(a, 1), 'A'), copy(a, 'C')",
                           a=V((2, 3), _dt)),
        f"ascontiguousarray_{_s}": Eval("ascontiguousarray(transpose(a)), ascontiguousarray(a, dtype='float64')",
                                        a=V((2, 3), _dt)),
        f"asfortranarray_{_s}": Eval("asfortranarray(a), asfortranarray(transpose(a), dtype='int32')",
                                     a=castable((2, 3), _dt, "int32")),
        f"permute_dims_{_s}": Eval("permute_dims(a, (2, 0, 1)), permute_dims(a)", a=V((2, 3, 4), _dt)),
        f"matrix_transpose_{_s}": Eval("matrix_transpose(a)", a=V((2, 3, 4), _dt)),
    }
    VIEW_NUMPY2_ONLY |= {f"permute_dims_{_s}", f"matrix_transpose_{_s}"}
    # astype from every dtype to every dtype (unsafe casting, as NumPy's).
    for _to in DTYPES:
        _views[f"astype_{_s}_{SHORT[_to]}"] = Eval(f"astype(a, '{_to}')", a=castable((7,), _dt, _to))
        VIEW_NUMPY2_ONLY.add(f"astype_{_s}_{SHORT[_to]}")
    add_cases(EVAL_CASES, _views)

add_cases(EVAL_CASES, {
    # ---- 0-d and empty inputs
    "reshape_0d": Eval("reshape(a, (1, 1)), reshape(b, ()), reshape(a, -1)", a=V(()), b=V((1, 1))),
    "reshape_empty": Eval("reshape(a, (3, 0)), reshape(a, (-1, 6)), reshape(a, (2, -1))", a=V((0, 3), "int16")),
    "ravel_0d": Eval("ravel(a), ravel(a, 'K')", a=V((), "complex64")),
    "ravel_empty": Eval("ravel(a, 'F')", a=V((2, 0, 3))),
    # order='K' with broadcast (zero-stride) axes: NumPy's iterator passes over them when it sorts
    "ravel_k_broadcast": Eval("ravel(broadcast_to(transpose(a), (4, 3, 2)), 'K'), "
                              "ravel(broadcast_to(expand_dims(transpose(c), (1, 3)), (3, 1, 3, 3)), 'K')",
                              a=V((2, 1, 4)), c=V((3, 3), "int32")),
    "transpose_0d": Eval("transpose(a), transpose(a, ())", a=V(())),
    "transpose_empty": Eval("transpose(a, (1, 0, 2))", a=V((2, 0, 3), "uint8")),
    "swapaxes_empty": Eval("swapaxes(a, 0, 1)", a=V((0, 3))),
    "moveaxis_0d": Eval("moveaxis(a, (), ())", a=V(())),
    "moveaxis_empty": Eval("moveaxis(a, 0, -1)", a=V((0, 2, 3))),
    "rollaxis_1d": Eval("rollaxis(a, 0), rollaxis(a, 0, 1), rollaxis(a, -1, -1)", a=V((4,))),
    "squeeze_0d": Eval("squeeze(a), squeeze(a, ())", a=V((), "int8")),
    "squeeze_empty": Eval("squeeze(a), squeeze(a, axis=1)", a=V((0, 1, 2))),
    "squeeze_none_of_one": Eval("squeeze(a, axis=())", a=V((2, 1))),
    "expand_dims_0d": Eval("expand_dims(a, 0), expand_dims(a, (0, 1, -1))", a=V((), "float32")),
    "expand_dims_empty": Eval("expand_dims(a, -1)", a=V((0, 2))),
    "broadcast_to_0d": Eval("broadcast_to(a, (2, 3)), broadcast_to(a, ())", a=V(())),
    "broadcast_to_empty": Eval("broadcast_to(a, (0, 4)), broadcast_to(b, (2, 0))", a=V((0, 1)), b=V((1,))),
    "broadcast_arrays_one": Eval("broadcast_arrays(a)", a=V((2, 3))),
    "broadcast_arrays_empty": Eval("broadcast_arrays(a, b)", a=V((0, 1)), b=V((3,))),
    "diagonal_empty": Eval("diagonal(a), diagonal(b, 5)", a=V((0, 3)), b=V((3, 4))),
    "real_imag_0d": Eval("real(a), imag(a), real(b), imag(b)", a=V((), "complex128"), b=V((), "int32")),
    "copy_0d": Eval("copy(a), copy(a, order='F')", a=V(())),
    "copy_empty": Eval("copy(a, 'F')", a=V((0, 3), "bool")),
    "ascontiguousarray_0d": Eval("ascontiguousarray(a), asfortranarray(a)", a=V(())),
    "ascontiguousarray_empty": Eval("ascontiguousarray(a), asfortranarray(a)", a=V((3, 0))),
    "astype_0d": Eval("astype(a, 'int8'), astype(a, 'float32', copy=False)", a=V(())),
    "astype_empty": Eval("astype(a, 'complex64')", a=V((0, 2), "uint16")),
    "astype_same_dtype": Eval("astype(a, 'int16', copy=False), astype(a, 'int16')", a=V((3,), "int16")),
    "matrix_transpose_2d": Eval("matrix_transpose(a), matrix_transpose(b)", a=V((2, 3)), b=V((0, 3))),
    "permute_dims_0d": Eval("permute_dims(a, ())", a=V(())),
    # NumPy 2.1's copy= of reshape
    "reshape_copy_true": Eval("reshape(a, (3, 2), copy=True), reshape(transpose(a), -1, copy=True)", a=V((2, 3))),
    "reshape_copy_false_view": Eval("reshape(a, (3, 2), copy=False), reshape(transpose(a), (3, 2), order='F', copy=False)",
                                    a=V((2, 3))),
    "reshape_shape_keyword": Eval("reshape(a, shape=(3, 2))", a=V((2, 3))),
    # ---- errors
    "reshape_size": Eval("reshape(a, (4,))", a=V((2, 3))),
    "reshape_size_f": Eval("reshape(a, (4, 2), order='F')", a=V((2, 3))),
    "reshape_two_unknown": Eval("reshape(a, (-1, -1))", a=V((2, 3))),
    "reshape_order_k": Eval("reshape(a, (6,), order='K')", a=V((2, 3))),
    "reshape_float_shape": Eval("reshape(a, 2.5)", a=V((2, 3))),
    "reshape_copy_false_needs_copy": Eval("reshape(transpose(a), (6,), copy=False)", a=V((2, 3))),
    "ravel_bad_order": Eval("ravel(a, 'X')", a=V((2, 3))),
    "copy_bad_order": Eval("copy(a, order='X')", a=V((2, 3))),
    "transpose_axes_length": Eval("transpose(a, (0,))", a=V((2, 3))),
    "transpose_repeated": Eval("transpose(a, (0, 0))", a=V((2, 3))),
    "transpose_axis_oob": Eval("transpose(a, (0, 2))", a=V((2, 3))),
    "transpose_axis_neg_oob": Eval("transpose(a, (-3, 0))", a=V((2, 3))),
    "transpose_float_axes": Eval("transpose(a, 1.5)", a=V((2, 3))),
    "swapaxes_oob": Eval("swapaxes(a, 0, 2)", a=V((2, 3))),
    "swapaxes_neg_oob": Eval("swapaxes(a, -3, 0)", a=V((2, 3))),
    "swapaxes_float": Eval("swapaxes(a, 0.5, 1)", a=V((2, 3))),
    "moveaxis_oob": Eval("moveaxis(a, 2, 0)", a=V((2, 3))),
    "moveaxis_dest_oob": Eval("moveaxis(a, 0, -3)", a=V((2, 3))),
    "moveaxis_repeated": Eval("moveaxis(a, (0, 0), (0, 1))", a=V((2, 3))),
    "moveaxis_lengths": Eval("moveaxis(a, (0, 1), (0,))", a=V((2, 3))),
    "rollaxis_start_oob": Eval("rollaxis(a, 0, 3)", a=V((2, 3))),
    "rollaxis_start_neg_oob": Eval("rollaxis(a, 0, -3)", a=V((2, 3))),
    "rollaxis_axis_oob": Eval("rollaxis(a, 2)", a=V((2, 3))),
    "squeeze_not_one": Eval("squeeze(a, axis=0)", a=V((2, 1))),
    "squeeze_oob": Eval("squeeze(a, axis=2)", a=V((2, 1))),
    "expand_dims_oob": Eval("expand_dims(a, 3)", a=V((2, 3))),
    "expand_dims_neg_oob": Eval("expand_dims(a, (0, -5))", a=V((2, 3))),
    "expand_dims_repeated": Eval("expand_dims(a, (1, -3))", a=V((2, 3))),
    # None where an axis is required (TypeError; where the default is None it means every axis)
    "expand_dims_none_axis": Eval("expand_dims(a, None)", a=V((2, 3))),
    "moveaxis_none_source": Eval("moveaxis(a, None, 0)", a=V((2, 3))),
    "moveaxis_none_destination": Eval("moveaxis(a, 0, None)", a=V((2, 3))),
    "broadcast_to_mismatch": Eval("broadcast_to(a, (2, 4))", a=V((3,))),
    "broadcast_to_negative": Eval("broadcast_to(a, (-1, 3))", a=V((3,))),
    "broadcast_to_fewer_dims": Eval("broadcast_to(a, (3,))", a=V((2, 3))),
    "broadcast_arrays_mismatch": Eval("broadcast_arrays(a, b)", a=V((2,)), b=V((3,))),
    "diagonal_1d": Eval("diagonal(a)", a=V((3,))),
    "diagonal_same_axes": Eval("diagonal(a, 0, 1, -1)", a=V((2, 3))),
    "diagonal_axis_oob": Eval("diagonal(a, 0, 0, 2)", a=V((2, 3))),
    "matrix_transpose_1d": Eval("matrix_transpose(a)", a=V((3,))),
    "matrix_transpose_0d": Eval("matrix_transpose(a)", a=V(())),
    "permute_dims_repeated": Eval("permute_dims(a, (1, 1))", a=V((2, 3))),
})
VIEW_NUMPY2_ONLY |= {"astype_0d", "astype_empty", "astype_same_dtype", "matrix_transpose_2d", "permute_dims_0d",
                     "reshape_copy_true", "reshape_copy_false_view", "reshape_shape_keyword",
                     "reshape_copy_false_needs_copy", "matrix_transpose_1d", "matrix_transpose_0d",
                     "permute_dims_repeated"}
EVAL_NUMPY2_ONLY |= VIEW_NUMPY2_ONLY


add_cases(EVAL_CASES, TWIN_CASES)
EVAL_NUMPY2_ONLY |= TWIN_NUMPY2_ONLY

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
