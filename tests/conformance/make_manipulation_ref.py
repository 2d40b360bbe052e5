#!/usr/bin/env python3
"""NumPy reference data for the array manipulation routines (tests/gpu/test_manipulation_gpu.cpp).

    python3 make_manipulation_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json:
{"numpy": version, "numpy2": bool, "cases": {case: {"outputs": [{"file", "dtype", "shape"}...]}}}.
Each case is the NumPy call written next to its id below; the C++ test makes the same call with
cupp under the same id. Inputs are ar(shape, dtype) = arange(size).reshape(shape).astype(dtype),
which the test builds the same way. Runs with any NumPy >= 1.24 (the build uses the configured
Python; the GPU machine has NumPy 2.5).
"""
import sys

import numpy as np

import routine_ref

NUMPY2 = routine_ref.NUMPY2


def ar(shape, dt="int64"):
    return np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape).astype(dt)


CASES = {
    # concatenate / concat
    "concat_axis0": lambda: np.concatenate((ar((2, 3)), ar((4, 3)))),
    "concat_axis1_f32": lambda: np.concatenate((ar((2, 3), "f4"), ar((2, 1), "f4"), ar((2, 0), "f4")), axis=1),
    "concat_neg_axis": lambda: np.concatenate((ar((2, 3, 2)), ar((2, 3, 1))), axis=-1),
    "concat_none": lambda: np.concatenate((ar((2, 3)), ar((4,)), ar(())), axis=None),
    "concat_promote": lambda: np.concatenate((ar((3,), "i1"), ar((2,), "u1"), ar((2,), "f2"))),
    "concat_int_float": lambda: np.concatenate((ar((3,), "i8"), ar((2,), "f4"))),
    "concat_bool_c128": lambda: np.concatenate((ar((2,), "?"), ar((3,), "c16"))),
    "concat_dtype": lambda: np.concatenate((ar((3,), "f8") * 1.5, ar((2,))), dtype="int32", casting="unsafe"),
    "concat_empty": lambda: np.concatenate((ar((0, 3)), ar((0, 3)))),
    "concat_transposed": lambda: np.concatenate((ar((3, 2)).T, ar((3, 2)).T), axis=0),
    "concat_strided": lambda: np.concatenate((ar((4,), "u2")[::-1], ar((5,), "u2")[::2])),
    "concat_rows": lambda: np.concatenate((ar((4, 300), "f4"), ar((4, 200), "f4")), axis=1),
    "concat_f16_3d": lambda: np.concatenate((ar((2, 2, 3), "f2"), ar((2, 1, 3), "f2")), axis=1),
    # stack and friends
    "stack_0": lambda: np.stack((ar((2, 3)), ar((2, 3)) + 10)),
    "stack_neg": lambda: np.stack((ar((2, 3), "f4"), ar((2, 3), "f4")), axis=-1),
    "stack_0d": lambda: np.stack((ar(()), ar(()))),
    "hstack_1d": lambda: np.hstack((ar((3,)), ar((2,)))),
    "hstack_2d": lambda: np.hstack((ar((2, 3), "i2"), ar((2, 1), "i2"))),
    "vstack_1d": lambda: np.vstack((ar((3,)), ar((3,)))),
    "vstack_2d": lambda: np.vstack((ar((2, 3), "c8"), ar((1, 3), "c8"))),
    "dstack": lambda: np.dstack((ar((2, 3)), ar((2, 3)))),
    "dstack_1d": lambda: np.dstack((ar((3,)), ar((3,)))),
    "column_stack": lambda: np.column_stack((ar((3,)), ar((3, 2)))),
    "append_none": lambda: np.append(ar((2, 2)), ar((3,))),
    "append_axis0": lambda: np.append(ar((2, 3)), ar((1, 3)), axis=0),
    # splitting
    "split_3": lambda: np.split(ar((9,)), 3),
    "split_indices": lambda: np.split(ar((8,)), [3, 5, 6, 10]),
    "split_axis1": lambda: np.split(ar((2, 6)), 2, axis=1),
    "array_split_3": lambda: np.array_split(ar((10,), "f8"), 3),
    "array_split_neg": lambda: np.array_split(ar((3, 7)), [-2, 2], axis=-1),
    "array_split_more": lambda: np.array_split(ar((2,)), 4),
    "hsplit": lambda: np.hsplit(ar((2, 4)), 2),
    "hsplit_1d": lambda: np.hsplit(ar((6,)), [2]),
    "vsplit": lambda: np.vsplit(ar((4, 2)), [1, 3]),
    "dsplit": lambda: np.dsplit(ar((2, 2, 4)), 2),
    # rearranging
    "flip_all": lambda: np.flip(ar((2, 3, 4))),
    "flip_axis1": lambda: np.flip(ar((2, 3, 4), "f4"), 1),
    "flip_axes": lambda: np.flip(ar((2, 3, 4)), (0, -1)),
    "flip_0d": lambda: np.flip(ar(())),
    "fliplr": lambda: np.fliplr(ar((3, 4), "?")),
    "flipud": lambda: np.flipud(ar((3, 4))),
    "rot90_k1": lambda: np.rot90(ar((3, 4))),
    "rot90_k2": lambda: np.rot90(ar((3, 4)), 2),
    "rot90_k3": lambda: np.rot90(ar((3, 4)), 3),
    "rot90_kneg": lambda: np.rot90(ar((3, 4)), -1),
    "rot90_axes": lambda: np.rot90(ar((2, 3, 4)), 1, (2, 0)),
    "roll_none": lambda: np.roll(ar((3, 4)), 5),
    "roll_axis0": lambda: np.roll(ar((3, 4)), 1, axis=0),
    "roll_neg": lambda: np.roll(ar((3, 4), "f8"), -1, axis=1),
    "roll_tuple": lambda: np.roll(ar((3, 4)), (1, -2), axis=(0, 1)),
    "roll_same_axis": lambda: np.roll(ar((5,)), (1, 2), axis=(0, 0)),
    "roll_shift_axes": lambda: np.roll(ar((3, 4)), 1, axis=(0, 1)),
    "roll_big": lambda: np.roll(ar((3, 4)), 14, axis=1),
    "roll_0d": lambda: np.roll(ar(()), 3),
    "roll_empty": lambda: np.roll(ar((0, 3)), 1, axis=1),
    # tiling and repeating
    "tile_int": lambda: np.tile(ar((3,)), 2),
    "tile_tuple": lambda: np.tile(ar((2, 3)), (2, 1)),
    "tile_more_reps": lambda: np.tile(ar((3,), "f4"), (2, 2)),
    "tile_fewer_reps": lambda: np.tile(ar((2, 2, 2)), 2),
    "tile_zero": lambda: np.tile(ar((2, 3)), (0, 2)),
    "tile_ones": lambda: np.tile(ar((2,)), (1, 1)),
    "tile_0d": lambda: np.tile(ar(()), 3),
    "repeat_scalar": lambda: np.repeat(ar((2, 2)), 2),
    "repeat_axis": lambda: np.repeat(ar((2, 3), "i1"), 3, axis=1),
    "repeat_counts": lambda: np.repeat(ar((4,)), [1, 0, 2, 2]),
    "repeat_counts_axis0": lambda: np.repeat(ar((3, 2), "c16"), [2, 2, 1], axis=0),
    "repeat_counts_axis1": lambda: np.repeat(ar((2, 3)), [3, 1, 1], axis=-1),
    "repeat_zero": lambda: np.repeat(ar((3,)), 0),
    "repeat_0d": lambda: np.repeat(ar(()), 4),
    "resize_grow": lambda: np.resize(ar((3,)), (2, 4)),
    "resize_shrink": lambda: np.resize(ar((2, 3)), (4,)),
    "resize_empty": lambda: np.resize(ar((0,), "f4"), (2, 2)),
    # dimensions
    "atleast_1d_0d": lambda: np.atleast_1d(ar(())),
    "atleast_2d_1d": lambda: np.atleast_2d(ar((3,))),
    "atleast_3d_1d": lambda: np.atleast_3d(ar((3,))),
    "atleast_3d_2d": lambda: np.atleast_3d(ar((2, 3))),
    # editing
    "delete_int": lambda: np.delete(ar((5,)), 1),
    "delete_neg_axis": lambda: np.delete(ar((3, 4)), -1, axis=1),
    "delete_slice": lambda: np.delete(ar((3, 4)), slice(None, None, 2), axis=1),
    "delete_list": lambda: np.delete(ar((2, 3)), [0, 4, 5]),
    "delete_mask": lambda: np.delete(ar((4, 2)), np.array([True, False, True, False]), axis=0),
    "insert_int": lambda: np.insert(ar((5,)), 2, 99),
    "insert_int_axis": lambda: np.insert(ar((2, 3)), 1, np.array([7, 8]), axis=1),
    "insert_list": lambda: np.insert(ar((5,)), [1, 1, 4], np.array([10, 20, 30])),
    "insert_slice": lambda: np.insert(ar((2, 4)), slice(0, 4, 2), 5, axis=1),
    "insert_list_1": lambda: np.insert(ar((2, 3)), [1], np.array([[7], [8]]), axis=1),
    "insert_end": lambda: np.insert(ar((3,), "f4"), 3, 2.5),
}

# ---- pad, clip, where, round, nan_to_num, angle, trim_zeros, interp, convolve, correlate
# (runtime/src/routines/manipulation/{elementwise_routines,pad,interp_convolve}.cpp). Per-dtype cases
# are named <routine>_<dtype name>.
DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
INEXACT = ["float16", "float32", "float64", "complex64", "complex128"]
NAN, INF = float("nan"), float("inf")


NUMPY22 = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 2)


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


def error_code(call):
    """0 when the call returns, 1 for ValueError, 2 for TypeError (the C++ side maps cupp's classes
    the same way), as a 0-d int8 array."""
    try:
        call()
    except ValueError:
        return np.array(1, np.int8)
    except TypeError:
        return np.array(2, np.int8)
    return np.array(0, np.int8)


def pad_values(dt):
    # 3x4 values with repeats and an odd/even mix, so means and medians of integers round.
    return vals([5, 1, 4, 2, 8, 3, 9, 0, 7, 6, 2, 2], dt).reshape(3, 4)


PAD_STATS = ("maximum", "minimum", "mean", "median")

MORE = {}
for _dt in DTYPES:
    for _mode in PAD_STATS:
        MORE[f"pad_{_mode}_{_dt}"] = (lambda dt=_dt, mode=_mode: np.pad(pad_values(dt), ((2, 1), (1, 3)), mode))
        MORE[f"pad_{_mode}_stat_length_{_dt}"] = (
            lambda dt=_dt, mode=_mode: np.pad(pad_values(dt), ((2, 1), (1, 3)), mode, stat_length=((1, 2), (3, 2))))
    MORE[f"pad_linear_ramp_{_dt}"] = (lambda dt=_dt: np.pad(ar((2, 3), dt), ((2, 1), (1, 3)), "linear_ramp"))
    MORE[f"pad_linear_ramp_ends_{_dt}"] = (
        lambda dt=_dt: np.pad(ar((2, 3), dt), ((2, 1), (1, 3)), "linear_ramp", end_values=(4, 1)))
    MORE[f"pad_linear_ramp_weak_{_dt}"] = (
        lambda dt=_dt: np.pad(ar((2, 3), dt), ((2, 1), (1, 3)), "linear_ramp", end_values=((5, 1), (2, 7))))
    for _mode in ("reflect", "symmetric"):
        MORE[f"pad_{_mode}_odd_{_dt}"] = (
            lambda dt=_dt, mode=_mode: np.pad(ar((2, 3), dt), ((2, 1), (1, 3)), mode, reflect_type="odd"))
for _dt in DTYPES:
    MORE[f"pad_constant_{_dt}"] = (lambda dt=_dt: np.pad(ar((2, 3), dt), ((1, 2), (2, 1)),
                                                          constant_values=((1, 2), (3, 4))))
    for _mode in ("edge", "reflect", "symmetric", "wrap"):
        MORE[f"pad_{_mode}_{_dt}"] = (lambda dt=_dt, mode=_mode: np.pad(ar((2, 3), dt), ((2, 1), (1, 3)), mode))
    MORE[f"clip_{_dt}"] = (lambda dt=_dt: np.clip(ar((6,), dt), 1, 4))
    MORE[f"where_{_dt}"] = (lambda dt=_dt: np.where(cond23(), ar((2, 3), dt), ar((2, 3), dt)[::-1]))
    MORE[f"angle_{_dt}"] = (lambda dt=_dt: np.angle(signed_or_not(dt)))
    MORE[f"trim_zeros_{_dt}"] = (lambda dt=_dt: np.trim_zeros(vals([0, 0, 1, 2, 0, 3, 0], dt)))
    MORE[f"convolve_{_dt}"] = (lambda dt=_dt: np.convolve(ar((5,), dt), vals([1, 0, 2], dt)))
    MORE[f"correlate_{_dt}"] = (lambda dt=_dt: np.correlate(ar((5,), dt), vals([1, 1, 2], dt), "full"))
for _dt in INEXACT:
    for _d in (0, 2, -1):
        MORE[f"round_{_d}_{_dt}".replace("-", "m")] = (lambda dt=_dt, d=_d: np.round(rounding_values(dt), d))
    MORE[f"nan_to_num_{_dt}"] = (lambda dt=_dt: np.nan_to_num(nan_values(dt)))
    MORE[f"nan_to_num_values_{_dt}"] = (
        lambda dt=_dt: np.nan_to_num(nan_values(dt), nan=-1.0, posinf=9.0, neginf=-9.0))
for _dt in ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]:
    MORE[f"round_m1_{_dt}"] = (lambda dt=_dt: np.round(vals([15, 25, 35, 149, 151, 0, 5], dt), -1))

_EXPLICIT = {
    # pad
    "pad_int_width": lambda: np.pad(ar((2, 3)), 1),
    "pad_pair_width": lambda: np.pad(ar((3,), "f4"), (2, 1)),
    "pad_one_pair_all_axes": lambda: np.pad(ar((2, 2)), ((1, 2),), "wrap"),
    "pad_3d": lambda: np.pad(ar((2, 3, 2), "i2"), ((0, 1), (2, 0), (1, 1)), "symmetric"),
    "pad_reflect_big": lambda: np.pad(ar((3,)), (7, 9), "reflect"),
    "pad_symmetric_big": lambda: np.pad(ar((3,)), (7, 9), "symmetric"),
    "pad_wrap_big": lambda: np.pad(ar((3,)), (7, 9), "wrap"),
    "pad_edge_big": lambda: np.pad(ar((2, 2)), 4, "edge"),
    "pad_reflect_len1": lambda: np.pad(ar((1, 3)), 2, "reflect"),
    "pad_0d": lambda: np.pad(ar(()), 2),
    "pad_empty_constant": lambda: np.pad(ar((0, 3)), 1, constant_values=7),
    "pad_empty_edge_unpadded_axis": lambda: np.pad(ar((0, 3)), ((0, 0), (1, 1)), "edge"),
    "pad_transposed": lambda: np.pad(ar((3, 4)).T, ((1, 0), (0, 2)), "reflect"),
    "pad_constant_float_into_int": lambda: np.pad(ar((3,), "i4"), 1, constant_values=2.7),
    "pad_constant_complex": lambda: np.pad(ar((3,), "c16"), (1, 2), constant_values=(1 + 2j, -3j)),
    "pad_constant_nan": lambda: np.pad(ar((2,), "f8"), 1, constant_values=NAN),
    "pad_zero_width": lambda: np.pad(ar((2, 3)), 0, "reflect"),
    # pad: linear_ramp
    "pad_linear_ramp_doc": lambda: np.pad(vals([1, 2, 3, 4, 5], "i8"), (2, 3), "linear_ramp", end_values=(5, -4)),
    "pad_linear_ramp_f4_strong": lambda: np.pad(ar((5,), "f4") / 3, (4, 5), "linear_ramp", end_values=(1.1, -2.7)),
    "pad_linear_ramp_f4_weak": lambda: np.pad(ar((2, 3), "f4") / 3, 3, "linear_ramp",
                                              end_values=((1.1, -2.7), (0.3, 9.1))),
    "pad_linear_ramp_f2_weak": lambda: np.pad(ar((2, 3), "f2") / 3, 3, "linear_ramp",
                                              end_values=((1.1, -2.7), (0.3, 9.1))),
    "pad_linear_ramp_int_floor": lambda: np.pad(vals([7, -3], "i4"), (5, 4), "linear_ramp", end_values=(-8, 9)),
    "pad_linear_ramp_u1_wraps": lambda: np.pad(vals([200, 3], "u1"), 3, "linear_ramp", end_values=(255, 0)),
    "pad_linear_ramp_bool_end": lambda: np.pad(ar((3,), "f2"), 2, "linear_ramp", end_values=True),
    "pad_linear_ramp_complex": lambda: np.pad(np.array([1 + 2j, 3 - 1j]), (3, 2), "linear_ramp",
                                              end_values=(2j, -1 + 1j)),
    "pad_linear_ramp_complex_c8_weak": lambda: np.pad(np.array([[1 + 2j, 3 - 1j]], "c8"), 2, "linear_ramp",
                                                      end_values=((2j, 1), (0.5, -1 + 1j))),
    "pad_linear_ramp_complex_end_real": lambda: np.pad(ar((3,), "f8"), 2, "linear_ramp", end_values=(1 + 1j, 2)),
    "pad_linear_ramp_step_zero": lambda: np.pad(np.array([[0.1, 0.5], [0.3, 0.7]]), ((0, 0), (3, 3)), "linear_ramp",
                                                end_values=0.3),
    "pad_linear_ramp_3d": lambda: np.pad(ar((2, 3, 2), "f8"), ((1, 2), (2, 1), (1, 1)), "linear_ramp",
                                         end_values=((1, 2), (3, 4), (5, 6))),
    "pad_linear_ramp_3d_i2": lambda: np.pad(ar((2, 3, 2), "i2"), ((1, 2), (2, 1), (1, 1)), "linear_ramp",
                                            end_values=((1, 2), (30, 4), (-5, 6))),
    "pad_linear_ramp_zero_width": lambda: np.pad(ar((2, 3), "i2"), ((0, 0), (0, 2)), "linear_ramp", end_values=-1),
    "pad_linear_ramp_0d": lambda: np.pad(ar((), "f4"), 2, "linear_ramp", end_values=7),
    "pad_linear_ramp_empty": lambda: np.pad(ar((0, 3)), ((0, 0), (1, 1)), "linear_ramp", end_values=7),
    "pad_linear_ramp_transposed": lambda: np.pad(ar((3, 4), "f8").T, ((1, 0), (0, 2)), "linear_ramp",
                                                 end_values=(-1, 2)),
    # pad: the statistics
    "pad_maximum_3d": lambda: np.pad(ar((2, 3, 4), "f4"), ((1, 2), (2, 1), (1, 1)), "maximum"),
    "pad_mean_3d": lambda: np.pad(ar((2, 3, 4), "f4"), ((1, 2), (2, 1), (1, 1)), "mean"),
    "pad_median_3d": lambda: np.pad(pad_values("i8").reshape(2, 2, 3), 2, "median"),
    "pad_minimum_3d_stat_length": lambda: np.pad(pad_values("i2").reshape(2, 3, 2), ((1, 1), (2, 0), (0, 3)),
                                                 "minimum", stat_length=((1, 2), (2, 1), (1, 1))),
    "pad_mean_int_rounding": lambda: np.pad(vals([1, 2, 5, 6, -3, -4], "i4"), (2, 2), "mean", stat_length=2),
    "pad_median_int_rounding": lambda: np.pad(vals([1, 2, 5, 6, -3, -4], "i4"), (2, 2), "median", stat_length=2),
    "pad_mean_uint8_rounding": lambda: np.pad(vals([250, 255, 1, 2, 3, 0], "u1"), (3, 1), "mean", stat_length=(2, 3)),
    "pad_mean_stat_zero": lambda: np.pad(vals([1, 2]), 2, "mean", stat_length=0),
    "pad_median_stat_zero": lambda: np.pad(vals([1, 2], "f4"), 2, "median", stat_length=0),
    "pad_mean_nan": lambda: np.pad(vals([1, NAN, 3]), 1, "mean"),
    "pad_median_nan": lambda: np.pad(vals([1, NAN, 3]), 1, "median"),
    "pad_maximum_nan": lambda: np.pad(vals([1, NAN, 3], "f2"), 1, "maximum"),
    "pad_minimum_inf": lambda: np.pad(vals([1, -INF, 3], "f4"), (1, 2), "minimum", stat_length=(1, 3)),
    "pad_stat_length_beyond": lambda: np.pad(ar((4,), "f8"), 2, "mean", stat_length=100),
    "pad_stat_length_pairs": lambda: np.pad(ar((4, 5), "f8"), ((1, 2), (3, 1)), "minimum",
                                            stat_length=((1, 3), (2, 2))),
    "pad_mean_float16_case": lambda: np.pad(vals([0.1, 0.2, 0.3, 100.7], "f2"), 2, "mean"),
    "pad_median_float16_case": lambda: np.pad(vals([0.1, 0.2, 0.3, 100.7], "f2"), 2, "median"),
    "pad_median_complex": lambda: np.pad(np.array([1 + 1j, 1 - 1j, 5j, 2 + 0j]), (1, 2), "median"),
    "pad_mean_complex": lambda: np.pad(np.array([1 + 1j, 1 - 1j, 5j, 2 + 0j], "c8"), (1, 2), "mean", stat_length=3),
    "pad_maximum_complex": lambda: np.pad(np.array([1 + 2j, 1 + 3j, 9j]), 1, "maximum"),
    "pad_minimum_complex": lambda: np.pad(np.array([1 + 2j, 1 + 3j, 9j]), 1, "minimum"),
    "pad_mean_bool_1d": lambda: np.pad(vals([1, 0, 0], "?"), 2, "mean", stat_length=(1, 2)),
    "pad_median_bool_case": lambda: np.pad(vals([1, 0, 0, 1], "?"), 2, "median"),
    "pad_maximum_corners": lambda: np.pad(vals([1, 2, 3, 4], "i8").reshape(2, 2), 1, "maximum"),
    "pad_mean_0d": lambda: np.pad(ar((), "f4"), 2, "mean"),
    "pad_maximum_empty": lambda: np.pad(ar((0, 3)), ((0, 0), (1, 1)), "maximum", stat_length=0),
    "pad_mean_transposed": lambda: np.pad(ar((3, 4), "f8").T, ((1, 0), (0, 2)), "mean", stat_length=(2, 1)),
    # pad: reflect_type='odd'
    "pad_reflect_odd_doc": lambda: np.pad(vals([1, 2, 3, 4, 5], "i8"), (2, 3), "reflect", reflect_type="odd"),
    "pad_symmetric_odd_doc": lambda: np.pad(vals([1, 2, 3, 4, 5], "i8"), (2, 3), "symmetric", reflect_type="odd"),
    "pad_reflect_odd_big": lambda: np.pad(vals([1, 2, 4], "i8"), (7, 9), "reflect", reflect_type="odd"),
    "pad_symmetric_odd_big": lambda: np.pad(vals([1, 2, 4], "i8"), (7, 9), "symmetric", reflect_type="odd"),
    "pad_symmetric_odd_big_f4": lambda: np.pad(vals([0.5, 0.25, 2.0], "f4"), (8, 10), "symmetric",
                                               reflect_type="odd"),
    "pad_reflect_odd_len1": lambda: np.pad(ar((1, 3)), 2, "reflect", reflect_type="odd"),
    "pad_symmetric_odd_len1": lambda: np.pad(ar((1, 3), "f4") + 1, (2, 3), "symmetric", reflect_type="odd"),
    "pad_reflect_odd_uint8_case": lambda: np.pad(vals([0, 5], "u1"), 2, "reflect", reflect_type="odd"),
    "pad_reflect_odd_3d": lambda: np.pad(ar((2, 3, 2), "i2"), ((0, 1), (2, 0), (1, 1)), "reflect",
                                         reflect_type="odd"),
    "pad_symmetric_odd_2d_big": lambda: np.pad(pad_values("f8"), ((4, 5), (6, 2)), "symmetric", reflect_type="odd"),
    "pad_reflect_even_explicit": lambda: np.pad(ar((2, 3)), ((2, 1), (1, 3)), "reflect", reflect_type="even"),
    "pad_reflect_type_other": lambda: np.pad(ar((4,)), (2, 3), "reflect", reflect_type="sideways"),
    "pad_reflect_odd_0d": lambda: np.pad(ar(()), 2, "reflect", reflect_type="odd"),
    # pad: errors (error_code: 0 none, 1 ValueError, 2 TypeError)
    "pad_err_unknown_mode": lambda: error_code(lambda: np.pad(ar((3,)), 1, "bogus")),
    "pad_err_stat_zero_max": lambda: error_code(lambda: np.pad(ar((3,)), 1, "maximum", stat_length=0)),
    "pad_err_stat_zero_min_unpadded_axis": lambda: error_code(
        lambda: np.pad(ar((2, 3)), ((1, 1), (0, 0)), "minimum", stat_length=((1, 1), (0, 2)))),
    "pad_err_stat_zero_mean": lambda: error_code(lambda: np.pad(ar((3,), "f8"), 1, "mean", stat_length=0)),
    "pad_err_stat_negative": lambda: error_code(lambda: np.pad(ar((3,)), 1, "mean", stat_length=-1)),
    "pad_err_stat_shape": lambda: error_code(
        lambda: np.pad(ar((2, 3)), 1, "median", stat_length=((1, 2), (3, 4), (5, 6)))),
    "pad_err_end_shape": lambda: error_code(
        lambda: np.pad(ar((2, 3)), 1, "linear_ramp", end_values=((1, 2), (3, 4), (5, 6)))),
    "pad_err_kw_end_values_edge": lambda: error_code(lambda: np.pad(ar((3,)), 1, "edge", end_values=1)),
    "pad_err_kw_stat_length_ramp": lambda: error_code(lambda: np.pad(ar((3,)), 1, "linear_ramp", stat_length=1)),
    "pad_err_kw_reflect_type_mean": lambda: error_code(lambda: np.pad(ar((3,)), 1, "mean", reflect_type="odd")),
    "pad_err_kw_constant_values_median": lambda: error_code(
        lambda: np.pad(ar((3,)), 1, "median", constant_values=1)),
    "pad_err_empty_extend_median": lambda: error_code(lambda: np.pad(ar((0,)), 1, "median")),
    "pad_err_empty_extend_odd": lambda: error_code(lambda: np.pad(ar((2, 0)), 1, "symmetric", reflect_type="odd")),
    "pad_err_empty_stat_negative": lambda: error_code(
        lambda: np.pad(ar((0, 3)), ((0, 0), (1, 1)), "mean", stat_length=-1)),
    "pad_err_complex_end_int": lambda: error_code(lambda: np.pad(ar((3,)), 1, "linear_ramp", end_values=1j)),
    "pad_err_complex_end_int_zero_width": lambda: error_code(
        lambda: np.pad(ar((3,), "u2"), 0, "linear_ramp", end_values=(1, 2j))),
    "pad_err_complex_end_bool": lambda: error_code(lambda: np.pad(ar((3,), "?"), 1, "linear_ramp", end_values=1j)),
    # clip
    "clip_arrays": lambda: np.clip(ar((2, 3), "f8"), np.array([0.0, 1.0, 2.0]), 3.5),
    "clip_nan": lambda: np.clip(np.array([NAN, 1.0, 5.0, -INF, INF, -1.0]), 0, 3),
    "clip_nan_bound": lambda: np.clip(ar((4,), "f4"), np.array(NAN, "f4"), np.float32(2)),
    "clip_none_min": lambda: np.clip(ar((5,)), None, 2),
    "clip_none_max": lambda: np.clip(ar((5,), "f2"), 2, None),
    "clip_none_both": lambda: np.clip(ar((5,), "u2"), None, None) if NUMPY2 else ar((5,), "u2"),
    "clip_weak_float_int8": lambda: np.clip(ar((5,), "i1"), 0.5, 3),
    "clip_uint8_beyond_range": lambda: np.clip(ar((5,), "u1"), -5, 300),
    "clip_int8_at_min": lambda: np.clip(ar((5,), "i1"), -128, 2),
    "clip_strong_0d_bound": lambda: np.clip(ar((5,), "i2"), np.array(1, "i4"), 3),
    "clip_complex": lambda: np.clip(np.array([1 + 1j, 3 - 1j, 2 + 5j, 1 + 3j]), 1 + 2j, 2 + 0j),
    "clip_lo_above_hi": lambda: np.clip(ar((5,)), 3, 1),
    "clip_0d": lambda: np.clip(ar((), "f4"), 1, 2),
    "clip_empty": lambda: np.clip(ar((0, 2), "i4"), 1, 2),
    # where
    "where_broadcast": lambda: np.where(ar((3, 1)) % 2 == 0, ar((1, 4), "f4"), ar((3, 4), "i2")),
    "where_promote": lambda: np.where(cond23(), ar((2, 3), "i1"), ar((2, 3), "u1")),
    "where_weak_float": lambda: np.where(cond23(), ar((2, 3), "f2"), 2.5),
    "where_weak_int": lambda: np.where(cond23(), ar((2, 3), "u1"), 7),
    "where_scalars": lambda: np.where(cond23(), 1, 2.5),
    "where_int_condition": lambda: np.where(ar((5,)) % 3, ar((5,)), -1),
    "where_nan_condition": lambda: np.where(np.array([NAN, 0.0, 1.0]), 1, 0),
    "where_0d": lambda: np.where(np.array(True), ar(()), 5),
    "where_empty": lambda: np.where(np.zeros((0, 3), bool), ar((0, 3)), 1.5),
    "where_complex_weak": lambda: np.where(cond23(), ar((2, 3), "f4"), 1j),
    # round
    "round_bool": lambda: np.round(ar((3,), "?")),
    "round_int_positive": lambda: np.round(ar((4,), "i4"), 2),
    "round_int_m2": lambda: np.round(vals([149, 150, 151, 250, -250, 1234], "i8"), -2),
    "round_decimals_10": lambda: np.round(np.array([1.23456789012, -9.87654321098]), 10),
    "round_0d": lambda: np.round(np.array(2.5)),
    "round_empty": lambda: np.round(ar((0,), "f4"), 1),
    "around_1": lambda: np.around(np.array([0.05, 0.15, 0.25, 1.0 / 3.0]), 1),
    # nan_to_num
    "nan_to_num_int": lambda: np.nan_to_num(ar((3,), "i4")),
    "nan_to_num_bool_case": lambda: np.nan_to_num(ar((3,), "?")),
    "nan_to_num_f16_overflow": lambda: np.nan_to_num(nan_values("f2"), posinf=1e6, neginf=-1e6),
    "nan_to_num_0d": lambda: np.nan_to_num(np.array(NAN)),
    "nan_to_num_2d": lambda: np.nan_to_num(nan_values("f4").reshape(2, 3), nan=5.0),
    # angle
    "angle_deg": lambda: np.angle(np.array([1 + 1j, -1 + 0j, -1j, 0j, -3 + 4j]), deg=True),
    "angle_deg_f4": lambda: np.angle(np.array([-1.0, 2.0], "f4"), deg=True),
    "angle_nan": lambda: np.angle(np.array([NAN, -INF, INF, complex(NAN, 1)])),
    "angle_0d": lambda: np.angle(np.array(-2.0)),
    # trim_zeros
    "trim_zeros_f": lambda: np.trim_zeros(vals([0, 0, 1, 0, 2, 0, 0]), "f"),
    "trim_zeros_b": lambda: np.trim_zeros(vals([0, 0, 1, 0, 2, 0, 0]), "b"),
    "trim_zeros_upper": lambda: np.trim_zeros(vals([0, 1, 0]), "BF"),
    "trim_zeros_all_zero": lambda: np.trim_zeros(np.zeros(4)),
    "trim_zeros_empty": lambda: np.trim_zeros(np.zeros(0, "i4")),
    "trim_zeros_nan": lambda: np.trim_zeros(vals([0, NAN, 0, 1, 0])),
    "trim_zeros_none_to_trim": lambda: np.trim_zeros(ar((4,)) + 1),
    "trim_zeros_2d": lambda: np.trim_zeros(trim_2d()) if NUMPY22 else np.zeros(0),
    "trim_zeros_2d_axis": lambda: np.trim_zeros(trim_2d(), axis=-1) if NUMPY22 else np.zeros(0),
    "trim_zeros_2d_all_zero_axis": lambda: np.trim_zeros(np.zeros((3, 4)), axis=0) if NUMPY22 else np.zeros(0),
    # interp
    "interp_basic": lambda: np.interp(vals([-1, 0, 0.5, 1.5, 2, 2.5, 3, 4, NAN]), [0.0, 1, 2, 3], [0.0, 10, 5, -5]),
    "interp_left_right": lambda: np.interp(vals([-1, 0.25, 9]), [0.0, 1], [1.0, 2], left=-100, right=100),
    "interp_one_point": lambda: np.interp(vals([0, 1, 2, NAN]), [1.0], [5.0]),
    "interp_complex": lambda: np.interp(vals([-1, 0.5, 1.25, 5]), [0.0, 1, 2], [1 + 1j, 2 - 1j, 0j]),
    "interp_complex_left": lambda: np.interp(vals([-1, 5, NAN]), [0.0, 1], [1 + 1j, 2j], left=3 - 3j, right=4j),
    "interp_int_inputs": lambda: np.interp(np.array([0, 1, 2, 5], "i4"), np.array([0, 2, 4], "i8"),
                                           np.array([10, 20, 0], "i2")),
    "interp_f32": lambda: np.interp(vals([0.1, 0.7, 1.3], "f4"), vals([0, 1, 2], "f4"), vals([1, 3, 2], "f4")),
    "interp_period": lambda: np.interp(vals([-180, -170, -185, 185, -10, -5, 0, 365]), [190.0, -190, 350, -350],
                                       [5.0, 10, 3, 4], period=360),
    "interp_2d_x": lambda: np.interp(ar((2, 3), "f8") / 2, [0.0, 1, 2], [2.0, 4, 8]),
    "interp_0d": lambda: np.asarray(np.interp(np.array(1.5), [1.0, 2], [0.0, 1])),
    "interp_empty_x": lambda: np.interp(np.zeros(0), [1.0, 2], [0.0, 1]),
    "interp_duplicates": lambda: np.interp(vals([0.5, 1, 1.5]), [0.0, 1, 1, 2], [0.0, 1, 3, 4]),
    "interp_inf_fp": lambda: np.interp(vals([0.5, 1.5, 1]), [0.0, 1, 2], [0.0, INF, INF]),
    "interp_many_points": lambda: np.interp(np.array([-1 + 12 * k / 96 for k in range(97)]), np.arange(10.0), np.arange(10.0) ** 2),
    # convolve / correlate
    "convolve_same": lambda: np.convolve(ar((6,)), vals([1, 2, 3], "i8"), "same"),
    "convolve_valid": lambda: np.convolve(ar((6,)), vals([1, 2, 3], "i8"), "valid"),
    "convolve_swap": lambda: np.convolve(vals([1, 2], "i8"), ar((5,)), "same"),
    "convolve_0d": lambda: np.convolve(np.array(3), ar((4,))),
    "convolve_promote": lambda: np.convolve(ar((4,), "i1"), vals([0.5, 2], "f4")),
    "convolve_complex": lambda: np.convolve(np.array([1 + 1j, 2 + 1j, 3 + 1j]), np.array([-2j, 1 - 2j])),
    "convolve_uint8_wraps": lambda: np.convolve(vals([200, 100, 50], "u1"), vals([3, 2], "u1")),
    "convolve_large": lambda: np.convolve(ar((1000,), "f8") % 7, ar((37,), "f8") % 5),
    "correlate_valid": lambda: np.correlate(ar((6,), "f8"), vals([1, 0, -1])),
    "correlate_same": lambda: np.correlate(ar((6,)), vals([1, 2, 3], "i8"), "same"),
    "correlate_complex_conj": lambda: np.correlate(np.array([1 + 1j, 2 + 1j, 3 + 1j]), np.array([2j, 1 + 2j]), "full"),
    "correlate_inverted": lambda: np.correlate(np.array([1 + 1j, 2 + 1j]), np.array([-1j, 1 - 1j, 2 - 1j, 3 - 1j]), "full"),
    "correlate_inverted_same": lambda: np.correlate(vals([1, 2, 5], "i4"), ar((6,), "i4"), "same"),
}
# A hand-written case must not replace a per-dtype one of the same name (the C++ table would
# keep the other one, and the two sides would compare different calls).
assert not set(_EXPLICIT) & set(MORE), sorted(set(_EXPLICIT) & set(MORE))
MORE.update(_EXPLICIT)
CASES.update(MORE)

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = {
    "clip_none_both",           # NumPy 1 raises: one of min or max must be given
    "clip_weak_float_int8",     # NEP 50 (NumPy 1: value-based casting)
    "clip_uint8_beyond_range",  # NumPy 2's _clip drops a Python int bound beyond the dtype
    "clip_strong_0d_bound",     # NEP 50: a 0-d array is strong
    "clip_int8_at_min",
    "where_weak_int",
    "where_complex_weak",
    "round_bool",
    "angle_bool",
    "trim_zeros_2d",            # NumPy 2.2: n-d trim_zeros and axis=
    "trim_zeros_2d_axis",
    "trim_zeros_2d_all_zero_axis",
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
    "pad_linear_ramp_float16",
    "pad_linear_ramp_float32",
    "pad_linear_ramp_complex64",
    "pad_linear_ramp_ends_float16",
    "pad_linear_ramp_ends_float32",
    "pad_linear_ramp_ends_complex64",
}


# ---- cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp, EvalRefGpu.Manipulation;
# written to <out>/eval, apart from the classic cases above): every routine on every dtype, negative
# axes, views with negative strides (flip), 0-d and empty inputs, and the errors (shapes that do not
# join or split: ValueError; a bad axis: AxisError; an index out of bounds: IndexError).
from routine_ref import DTYPES, SHORT, Eval, V, add_cases  # noqa: E402

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

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
