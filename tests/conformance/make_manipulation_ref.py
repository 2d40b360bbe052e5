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

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = set()


if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__))
