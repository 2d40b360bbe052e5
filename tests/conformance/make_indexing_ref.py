#!/usr/bin/env python3
"""NumPy reference data for the indexing routines (tests/gpu/test_eval_ref_gpu.cpp's
EvalRefGpu/Families.AgreeWithNumPy/indexing, and tests/gpu/test_indexing_gpu.cpp for CASES).

    python3 make_indexing_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json:
{"numpy": version, "numpy2": bool, "cases": {case: {"outputs": [{"file", "dtype", "shape"}...]}}}
for CASES, whose C++ test makes the same call with cupp under the same id, and OUT_DIR/eval
(routine_ref.py's write_eval_set) for EVAL_CASES, each the expression written next to its id,
evaluated by NumPy here and by cupp eval's engine in the test. Inputs are ar(shape, dtype) =
arange(size).reshape(shape).astype(dtype) (which the C++ test builds the same way), I(values) and
routine_ref.V; in-place routines (put, put_along_axis, putmask, place, fill_diagonal, a[...] = v,
ufunc.at) give the modified array. NumPy's a[...] reads are EVAL_CASES (cupp eval has subscripts),
and so are the writes a[...] = v (setitem_copy, with slice() for slice items); CASES keeps the one
write through a view into its base. Runs with any NumPy >= 1.24 (the build uses the configured
Python; the GPU machine has NumPy 2.5).
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, SHORT, Eval, V, add_cases

NUMPY2 = routine_ref.NUMPY2


def ar(shape, dt="int64"):
    return np.arange(int(np.prod(shape, dtype=np.int64))).reshape(shape).astype(dt)


def I(x, dt="int64"):
    return np.array(x, dtype=dt)


def inplace(a, f):
    f(a)
    return a


# id -> callable: only what cupp eval cannot write (tests/gpu/test_indexing_gpu.cpp makes the same
# call with cupp under the same id): put into a transposed view (put_copy would copy the view before
# writing, so no non-contiguous target would be written), NumPy's a[...] = v (eval's subscripts only
# read) and ufunc.at with a slice in its index tuple (ufunc_at_copy's indices are integer or bool
# arrays and ints: eval has no slice value).
CASES = {
    # a put through a transposed view into its base (put_copy would copy the view first)
    "put_noncontig": lambda: inplace(ar((4, 3)).T, lambda a: np.put(a, I([0, 1, 5]), I([-1, -2, -3]))),
}

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = set()


# ---- cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp,
# EvalRefGpu/Families.AgreeWithNumPy/indexing). First the calls that were the C++ test's table
# (same ids; floats compared exactly, rtol=EXACT, as that test did; the in-place routines through
# the *_copy helpers, see below): take, take_along_axis, put, put_along_axis, the mask routines,
# choose, select, fill_diagonal, the index arithmetic, nonzero and argwhere.
EXACT = 0.0
EVAL_CASES = add_cases({}, {
    # assignment: a[index] = v on a copy (setitem_copy; slice() makes a slice item)
    "set_mask_scalar": Eval("setitem_copy(a, a > 5, -1)", rtol=EXACT, a=ar((3, 4), "f4")),
    "set_mask_values": Eval("setitem_copy(a, a % 2 == 0, v)", a=ar((3, 4)), v=I([10, 11, 12, 13, 14, 15])),
    "set_int_bcast": Eval("setitem_copy(a, (i, slice(None)), v)", a=ar((3, 4)), i=I([2, 0]), v=I([7, 8, 9, 10])),
    "set_dup_last": Eval("setitem_copy(a, i, v)", a=ar((5,)), i=I([1, 1, 3, 1]), v=I([10, 20, 30, 40])),
    "set_two_arrays_f8": Eval("setitem_copy(a, (i, j), 0.5)", rtol=EXACT, a=ar((3, 4), "f8"), i=I([0, 2]),
                              j=I([1, 3])),
    "set_noncontig": Eval("setitem_copy(transpose(a), (slice(None), i), v)", a=ar((4, 3)), i=I([1, 3]),
                          v=I([[1], [2], [3]])),
    "set_cast_f4": Eval("setitem_copy(a, i, v)", rtol=EXACT, a=ar((4,), "f4"), i=I([0, 3]), v=I([5, 6])),
    "set_mask_rows": Eval("setitem_copy(a, m, v)", a=ar((3, 4)), m=I([True, False, True], "?"), v=I([1, 2, 3, 4])),
    "set_leading_ones": Eval("setitem_copy(a, i, v)", a=ar((4,)), i=I([0, 2]), v=I([[5, 6]])),
    "set_separated_i1": Eval("setitem_copy(a, (i, slice(None), j), v)", a=ar((2, 3, 4), "i1"), i=I([1, 0]),
                             j=I([3, 1]), v=I([[1, 2, 3], [4, 5, 6]], "i1")),
    # ufunc.at with a slice among the indices
    "add_at_2d": Eval("ufunc_at_copy(a, 'add', (i, slice(None)), b)", a=ar((3, 4)), i=I([0, 0]), b=I([1, 2, 3, 4])),
    # take
    "take_none": Eval("take(a, i)", a=ar((3, 4)), i=I([5, -1, 0, 11])),
    "take_axis1_f4": Eval("take(a, i, axis=1)", rtol=EXACT, a=ar((3, 4), "f4"), i=I([[3, 0], [1, -4]])),
    "take_axis0_c16": Eval("take(a, i, axis=0)", rtol=EXACT, a=ar((3, 2), "c16"), i=I([2, 0, 2])),
    "take_wrap_i2": Eval("take(a, i, mode='wrap')", a=ar((5,), "i2"), i=I([7, -8, 12])),
    "take_clip_u1": Eval("take(a, i, mode='clip')", a=ar((5,), "u1"), i=I([7, -8, 2])),
    "take_scalar": Eval("take(a, 2, axis=1)", a=ar((3, 4))),
    "take_bool": Eval("take(a, i)", a=ar((4,), "?"), i=I([0, 1, 1])),
    "take_empty": Eval("take(a, i, axis=0)", a=ar((3, 4)), i=I([])),
    "take_i4_index": Eval("take(a, i)", rtol=EXACT, a=ar((10,), "f8"), i=I([9, 3], "int32")),
    "take_3d_mid": Eval("take(a, i, axis=1)", a=ar((2, 3, 4), "u4"), i=I([[2], [0]])),
    # take_along_axis
    "tal_axis1": Eval("take_along_axis(a, i, axis=1)", a=ar((3, 4)), i=I([[0], [3], [-1]])),
    "tal_bcast_f4": Eval("take_along_axis(a, i, axis=1)", rtol=EXACT, a=ar((3, 4), "f4"), i=I([[1, 2]])),
    "tal_axis0": Eval("take_along_axis(a, i, axis=0)", a=ar((3, 2), "i1"), i=I([[2, 0], [1, 1]])),
    "tal_none": Eval("take_along_axis(a, i, axis=None)", a=ar((2, 3)), i=I([5, 0, 1])),
    # put, put_along_axis
    "put_basic": Eval("put_copy(a, i, v)", a=ar((6,)), i=I([0, 2, -1]), v=I([10, 20, 30])),
    "put_dup_f4": Eval("put_copy(a, i, v)", rtol=EXACT, a=ar((5,), "f4"), i=I([1, 1, 1, 3]), v=I([7, 8, 9], "f4")),
    "put_wrap": Eval("put_copy(a, i, v, mode='wrap')", a=ar((5,), "i2"), i=I([7, -9]), v=I([1, 2])),
    "put_clip": Eval("put_copy(a, i, v, mode='clip')", a=ar((5,), "u2"), i=I([7, -9]), v=I([1, 2])),
    "put_2d_c8": Eval("put_copy(a, i, 99)", rtol=EXACT, a=ar((2, 3), "c8"), i=I([[0, 5]])),
    "put_cast": Eval("put_copy(a, i, v)", a=ar((4,), "i4"), i=I([1, 2]), v=np.array([1.7, -2.5])),
    "pal_axis1": Eval("put_along_axis_copy(a, i, v, 1)", a=ar((3, 4)), i=I([[0], [1], [3]]), v=I([[7], [8], [9]])),
    "pal_dup_i4": Eval("put_along_axis_copy(a, i, v, 0)", a=ar((4,), "i4"), i=I([1, 1, 2]), v=I([5, 6, 7], "i4")),
    "pal_scalar_f8": Eval("put_along_axis_copy(a, i, 0.5, 1)", rtol=EXACT, a=ar((2, 3), "f8"), i=I([[2], [0]])),
    "pal_none": Eval("put_along_axis_copy(a, i, v, None)", a=ar((2, 3)), i=I([4, -1]), v=I([40, 50])),
    # masks
    "flatnonzero": Eval("flatnonzero(a % 4)", a=ar((3, 5), "f4")),
    "compress_axis0": Eval("compress(c, a, axis=0)", a=ar((3, 2)), c=I([False, True, True], "?")),
    "compress_none_short": Eval("compress(c, a)", a=ar((2, 3)), c=I([1, 0, 1])),
    "compress_axis1_f8": Eval("compress(c, a, axis=1)", rtol=EXACT, a=ar((2, 4), "f8"),
                              c=I([True, False, True, True], "?")),
    "extract_mod3_c8": Eval("extract(k % 3 == 0, a)", rtol=EXACT, a=ar((3, 4), "c8"), k=ar((3, 4))),
    "extract_big": Eval("extract(k % 7 == 0, a)", rtol=EXACT, a=ar((10000,), "f4"), k=ar((10000,))),
    "extract_none": Eval("extract(a > 10, a)", a=ar((5,))),
    "putmask_gt2_f4": Eval("putmask_copy(a, a > 2, v)", rtol=EXACT, a=ar((2, 3), "f4"), v=I([10, 20], "f4")),
    "putmask_scalar": Eval("putmask_copy(a, a % 2 == 0, -1)", a=ar((5,), "i8")),
    "place_odd_i8": Eval("place_copy(a, a % 2 == 1, v)", a=ar((2, 3)), v=I([7, 8])),
    "place_bf": Eval("place_copy(a, a > 1, v)", rtol=EXACT, a=ar((6,), "f8"), v=I([0.5, 1.5, 2.5], "f8")),
    # choose, select
    "choose_basic": Eval("choose(i, (a, a + 10, a + 20))", a=ar((4,)), i=I([2, 0, 1, 0])),
    "choose_bcast": Eval("choose(i, (a, b))", rtol=EXACT, a=ar((3,), "f4"), b=ar((2, 3), "i2"), i=I([[0], [1]])),
    "choose_wrap": Eval("choose(i, (a, a + 10), mode='wrap')", a=ar((3,)), i=I([3, -1, 1])),
    "choose_clip": Eval("choose(i, (a, a + 10), mode='clip')", a=ar((3,)), i=I([3, -1, 1])),
    "select": Eval("select((x < 3, x > 5), (x, x * x), default=-1)", x=ar((8,))),
    "select_even_f4": Eval("select((k % 2 == 0,), (a + 0.5,))", rtol=EXACT, a=ar((4,), "f4"), k=ar((4,))),
    # fill_diagonal
    "fill_diag_2d": Eval("fill_diagonal_copy(a, 5)", rtol=EXACT, a=np.zeros((3, 4))),
    "fill_diag_tall": Eval("fill_diagonal_copy(a, 4)", a=np.zeros((7, 3), "i8")),
    "fill_diag_wrap": Eval("fill_diagonal_copy(a, 4, wrap=True)", a=np.zeros((7, 3), "i8")),
    "fill_diag_3d": Eval("fill_diagonal_copy(a, 1)", a=np.zeros((3, 3, 3), "i2")),
    "fill_diag_array": Eval("fill_diagonal_copy(a, v)", rtol=EXACT, a=np.zeros((4, 4), "f4"), v=I([1, 2])),
    # index arithmetic
    "unravel_c": Eval("unravel_index(i, (7, 6))", i=I([22, 41, 37])),
    "unravel_f": Eval("unravel_index(i, (7, 6), order='F')", i=I([31, 41, 13])),
    "unravel_scalar": Eval("unravel_index(i, (6, 7, 8, 9))", i=I(1621)),
    "ravel_c": Eval("ravel_multi_index((i, j), (7, 6))", i=I([3, 6, 6]), j=I([4, 5, 1])),
    "ravel_f": Eval("ravel_multi_index((i, j), (7, 6), order='F')", i=I([3, 6, 6]), j=I([4, 5, 1])),
    "ravel_modes": Eval("ravel_multi_index((i, j), (4, 6), mode=('clip', 'wrap'))", i=I([3, 6, 6]), j=I([4, 5, 1])),
    "ravel_bcast": Eval("ravel_multi_index((i, j), (3, 3))", i=I([[1], [2]]), j=I([0, 1, 2])),
    "ix": Eval("ix_(i, j)", i=I([0, 1]), j=I([2, 4])),
    "ix_bool": Eval("ix_(i, j)", i=I([True, False, True], "?"), j=I([1], "int32")),
    # nonzero, argwhere
    "nonzero_2d": Eval("nonzero(a % 3 == 0)", a=ar((3, 4))),
    "nonzero_f4": Eval("nonzero(a % 2)", a=ar((7,), "f4")),
    "nonzero_3d": Eval("nonzero(a % 5 == 1)", a=ar((2, 3, 4))),
    "nonzero_empty": Eval("nonzero(a)", a=ar((2, 0))),
    "argwhere": Eval("argwhere(a % 2)", a=ar((2, 3))),
    "argwhere_0d": Eval("argwhere(a)", a=np.array(3)),
    "argwhere_0d_false": Eval("argwhere(a)", a=np.array(0.0)),
    "flatnonzero_big": Eval("flatnonzero(a % 5 == 2)", a=ar((100003,))),
})

# Then the C++ test's a[...] reads and ufunc.at calls (same ids, exact as that test was): NumPy's
# indexing as cupp eval's subscripts (basic items a view, integer arrays and masks a copy; a mask
# computed on the GPU is the expression the C++ test computed, k % 3 == 0), a view of a view, a
# take from a strided view, and ufunc.at through ufunc_at_copy(a, op, indices, b).
add_cases(EVAL_CASES, {
    # a take from a view with a row step and a reversed axis
    "take_strided_f2": Eval("take(a[::2, ::-1], i, axis=1)", rtol=EXACT, a=ar((6, 5), "f2"), i=I([1, 0])),
    # advanced indexing: a[...] with index arrays and masks
    "adv_int_rows": Eval("a[i]", a=ar((4, 3)), i=I([3, 0, 3])),
    "adv_int_cols_f4": Eval("a[:, i]", rtol=EXACT, a=ar((3, 4), "f4"), i=I([[1], [3]])),
    "adv_two_adjacent": Eval("a[:, i, j]", a=ar((2, 3, 4)), i=I([0, 2]), j=I([1, 3])),
    "adv_separated": Eval("a[i, :, j]", a=ar((2, 3, 4)), i=I([1, 0]), j=I([3, 1])),
    "adv_scalar_mixed": Eval("a[0, :, i]", a=ar((2, 3, 4)), i=I([1, 2])),
    "adv_newaxis_between": Eval("a[i, None, j]", a=ar((2, 3, 4)), i=I([1]), j=I([2])),
    "adv_neg_u1": Eval("a[i]", a=ar((5,), "u1"), i=I([-1, -5, 2])),
    "adv_i2_index": Eval("a[i]", a=ar((5,)), i=I([4, 1], "int16")),
    "adv_u8_index": Eval("a[i]", a=ar((5,)), i=I([4, 1], "uint64")),
    "adv_bcast_2d": Eval("a[i, j]", a=ar((3, 4)), i=I([[0], [2]]), j=I([1, 3])),
    "adv_ellipsis": Eval("a[..., i]", a=ar((2, 3, 4)), i=I([3, 0])),
    "adv_strided_c16": Eval("a[::-2, 1::2][i, j]", rtol=EXACT, a=ar((4, 6), "c16"), i=I([1, 0]), j=I([2, 2])),
    "adv_bool_true": Eval("a[True]", a=ar((2, 3))),
    "adv_bool_false": Eval("a[False]", a=ar((2, 3))),
    "adv_bool_and_int": Eval("a[True, i]", a=ar((2, 3)), i=I([1, 0])),
    "mask_full_f8": Eval("a[k % 3 == 0]", rtol=EXACT, a=ar((3, 4), "f8"), k=ar((3, 4))),
    "mask_rows": Eval("a[m]", a=ar((3, 4)), m=I([True, False, True], "?")),
    "mask_cols_c8": Eval("a[:, m]", rtol=EXACT, a=ar((3, 4), "c8"), m=I([False, True, True, False], "?")),
    "mask_2d_of_3d": Eval("a[k % 2 == 1]", a=ar((2, 3, 4), "i2"), k=ar((2, 3))),
    "mask_empty": Eval("a[a > 100]", a=ar((3, 4))),
    "mask_and_int": Eval("a[m, i]", a=ar((3, 4, 5)), m=I([True, False, True], "?"), i=I([1, 3])),
    "mask_strided_f4": Eval("a[::2][k % 2 == 0]", rtol=EXACT, a=ar((6, 4), "f4"), k=ar((3, 4))),
    "mask_big_f2": Eval("a[m]", rtol=EXACT, a=ar((100003,), "f2"), m=ar((100003,)) % 7 < 3),
    # ufunc.at: repeated indices accumulate
    "add_at_dup": Eval("ufunc_at_copy(a, 'add', i, 1)", a=ar((5,)), i=I([0, 0, 1, 4, 0])),
    "add_at_f4_vals": Eval("ufunc_at_copy(a, 'add', i, b)", rtol=EXACT, a=ar((5,), "f4"), i=I([1, 1, 2]),
                           b=I([0.5, 1.5, 2.0], "f4")),
    "min_at": Eval("ufunc_at_copy(a, 'minimum', i, b)", a=ar((5,)), i=I([4, 4, 2]), b=I([3, 1, 5])),
    "max_at_f8": Eval("ufunc_at_copy(a, 'maximum', i, b)", rtol=EXACT, a=ar((5,), "f8"), i=I([0, 0, 3]),
                      b=I([7.0, 9.0, 1.0], "f8")),
    "mul_at_i2": Eval("ufunc_at_copy(a, 'multiply', i, 3)", a=ar((5,), "i2"), i=I([2, 2, 3])),
    "mul_at_f4": Eval("ufunc_at_copy(a, 'multiply', i, b)", rtol=EXACT, a=ar((5,), "f4"), i=I([2, 2, 3]),
                      b=I([2.0, 3.0, 0.5], "f4")),
    "negative_at": Eval("ufunc_at_copy(a, 'negative', i)", a=ar((5,)), i=I([0, 1, 1, 2])),
    "subtract_at_u4": Eval("ufunc_at_copy(a, 'subtract', i, 1)", a=ar((4,), "u4"), i=I([3, 3, 0])),
    "power_at": Eval("ufunc_at_copy(a, 'power', i, 2)", a=ar((4,)), i=I([2, 2])),
    "xor_at_u8": Eval("ufunc_at_copy(a, 'bitwise_xor', i, b)", a=ar((4,), "u8"), i=I([1, 1, 2]), b=I([6, 3, 1], "u8")),
    "add_at_mask": Eval("ufunc_at_copy(a, 'add', a > 1, 10.0)", rtol=EXACT, a=ar((2, 3), "f8")),
})

# Then every routine on every dtype, negative axes and indices, index arrays of several integer
# dtypes, 0-d and empty inputs, views with negative strides, and the errors (an index out of bounds:
# IndexError, or ValueError where NumPy raises it: choose, unravel_index, ravel_multi_index; a bad
# axis: AxisError; shapes that do not fit: ValueError). The in-place routines run on a copy that the
# case gives back (put_copy, put_along_axis_copy, putmask_copy, place_copy, fill_diagonal_copy:
# routine_ref.HELPERS, registered with the same names by the C++ test).
INDEX_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
for _dt in DTYPES:
    _s = SHORT[_dt]
    _a = V((3, 4), _dt)
    _cases = {
        f"take_{_s}_axm1": Eval("take(a, i, axis=-1)", a=_a, i=I([[3, -1], [0, -4]])),
        f"take_{_s}_none": Eval("take(a, i)", a=_a, i=I([11, -12, 5])),
        f"take_{_s}_wrap_clip": Eval("take(a, i, axis=0, mode='wrap'), take(a, i, axis=0, mode='clip')", a=_a,
                                     i=I([5, -7, 1])),
        f"take_{_s}_empty": Eval("take(a, i, axis=-2)", a=_a, i=I([], "int64")),
        f"take_{_s}_0d": Eval("take(a, 0)", a=V((), _dt)),
        f"tal_{_s}_axm1": Eval("take_along_axis(a, i, axis=-1)", a=_a, i=I([[3, 0], [1, 1], [-1, 2]])),
        f"tal_{_s}_axm2": Eval("take_along_axis(flip(a, 0), i, axis=-2)", a=_a, i=I([[2, 0, 1, -3]])),
        f"put_{_s}": Eval("put_copy(a, i, v)", a=_a, i=I([0, -1, 5, 5]), v=V((3,), _dt)),
        f"put_{_s}_wrap_clip": Eval("put_copy(a, i, v, mode='wrap'), put_copy(a, i, v, mode='clip')", a=_a,
                                    i=I([13, -14]), v=V((2,), _dt)),
        f"pal_{_s}_axm1": Eval("put_along_axis_copy(a, i, v, -1)", a=_a, i=I([[0], [3], [-1]]), v=V((3, 1), _dt)),
        f"putmask_{_s}": Eval("putmask_copy(a, m, v)", a=_a, m=V((3, 4), "bool"), v=V((5,), _dt)),
        f"place_{_s}": Eval("place_copy(a, m, v)", a=_a, m=V((3, 4), "bool"), v=V((3,), _dt)),
        f"fill_diagonal_{_s}": Eval("fill_diagonal_copy(a, v)", a=V((4, 4), _dt), v=V((), _dt)),
        f"fill_diagonal_{_s}_wrap": Eval("fill_diagonal_copy(a, v, wrap=True)", a=V((7, 3), _dt), v=V((2,), _dt)),
        f"compress_{_s}_axm1": Eval("compress(c, a, axis=-1)", a=_a, c=I([True, False, True], "bool")),
        f"compress_{_s}_none": Eval("compress(c, flip(a, -1))", a=_a, c=I([0, 1, 1, 0, 1])),
        f"extract_{_s}": Eval("extract(c, a)", a=_a, c=V((3, 4), "bool")),
        f"choose_{_s}": Eval("choose(i, (a, b))", a=_a, b=V((4,), _dt), i=V((3, 4), "bool").astype("int64")),
        f"choose_{_s}_clip": Eval("choose(i, (a, b, a), mode='clip')", a=_a, b=V((3, 4), _dt), i=I([[-1, 3, 2, 1]])),
        f"select_{_s}": Eval("select((c, d), (a, b))", a=_a, b=V((4,), _dt), c=V((3, 4), "bool"),
                             d=V((3, 1), "bool")),
        f"putmask_{_s}_empty": Eval("putmask_copy(a, m, v)", a=V((0, 2), _dt), m=V((0, 2), "bool"), v=V((1,), _dt)),
        f"extract_{_s}_0d": Eval("extract(c, a)", a=V((), _dt), c=I(True, "bool")),
    }
    add_cases(EVAL_CASES, _cases)

for _it in INDEX_DTYPES:
    _s = SHORT[_it]
    add_cases(EVAL_CASES, {
        f"take_index_{_s}": Eval("take(a, i, axis=1)", a=V((3, 5)), i=I([4, 0, 2], _it)),
        f"tal_index_{_s}": Eval("take_along_axis(a, i, axis=0)", a=V((3, 5)), i=I([[2, 0, 1, 1, 0]], _it)),
        f"unravel_index_{_s}": Eval("unravel_index(i, (3, 4, 5))", i=I([59, 0, 17], _it)),
        f"unravel_index_{_s}_f": Eval("unravel_index(i, (7, 6), order='F')", i=I([[31, 41], [13, 0]], _it)),
        f"ravel_multi_index_{_s}": Eval("ravel_multi_index((i, j), (3, 4))", i=I([2, 0, 1], _it),
                                        j=I([3, 1, 0], _it)),
        f"ix_{_s}": Eval("ix_(i, j)", i=I([0, 2], _it), j=I([1, 3, 0], _it)),
        f"choose_index_{_s}": Eval("choose(i, (a, b))", a=V((4,)), b=V((4,)) + 9, i=I([1, 0, 1, 1], _it)),
    })

add_cases(EVAL_CASES, {
    # ---- 0-d and empty
    "take_0d_index_array": Eval("take(a, i)", a=V((3, 4)), i=I(5)),
    "take_along_axis_empty": Eval("take_along_axis(a, i, axis=1)", a=V((3, 4)), i=I([[], [], []], "int64")),
    "compress_empty": Eval("compress(c, a, axis=0)", a=V((0, 3)), c=I([], "bool")),
    "extract_empty": Eval("extract(c, a)", a=V((0,)), c=I([], "bool")),
    "choose_0d": Eval("choose(i, (a, b))", a=V(()), b=V((2,)), i=I(1)),
    "select_empty_choice": Eval("select((c,), (a,), 7)", a=V((0, 2), "int32"), c=V((0, 2), "bool")),
    "unravel_index_0d": Eval("unravel_index(i, (6, 7))", i=I(40)),
    "unravel_index_empty": Eval("unravel_index(i, (6, 7))", i=I([], "int64")),
    "ravel_multi_index_0d": Eval("ravel_multi_index((i, j), (4, 5))", i=I(3), j=I(2)),
    "ravel_multi_index_modes": Eval("ravel_multi_index((i, j), (4, 5), mode=('wrap', 'clip'))", i=I([5, -1]),
                                    j=I([9, -3])),
    "ix_bool_empty": Eval("ix_(i, j)", i=I([False, False], "bool"), j=I([], "int64")),
    "put_scalar_value": Eval("put_copy(a, i, 7)", a=V((3, 4), "int16"), i=I([0, 11])),
    "fill_diagonal_3d": Eval("fill_diagonal_copy(a, 5)", a=V((3, 3, 3), "float32")),
    "put_0d": Eval("put_copy(a, i, v)", a=V((), "int32"), i=I([0]), v=V((1,), "int32")),
    "pal_empty": Eval("put_along_axis_copy(a, i, v, 0)", a=V((0, 3)), i=I([], "int64").reshape(0, 3), v=V(())),
    "compress_0d": Eval("compress(c, a)", a=V(()), c=I([True], "bool")),
    "choose_empty": Eval("choose(i, (a, b))", a=V((0,)), b=V((0,)), i=I([], "int64")),
    "select_0d": Eval("select((c,), (a,), 2)", a=V((), "int16"), c=I(True, "bool")),
    "putmask_0d": Eval("putmask_copy(a, m, v)", a=V(()), m=I(True, "bool"), v=V((2,))),
    "place_0d": Eval("place_copy(a, m, v)", a=V((), "int64"), m=I(True, "bool"), v=V((2,), "int64")),
    "fill_diagonal_empty": Eval("fill_diagonal_copy(a, 3)", a=V((0, 0), "uint8")),
    "ravel_multi_index_empty": Eval("ravel_multi_index((i, j), (3, 4))", i=I([], "int64"), j=I([], "int64")),
    # ---- errors
    "take_oob": Eval("take(a, i)", a=V((3, 4)), i=I([12])),
    "take_neg_oob": Eval("take(a, i, axis=-1)", a=V((3, 4)), i=I([-5])),
    "take_axis_oob": Eval("take(a, i, axis=2)", a=V((3, 4)), i=I([0])),
    "take_empty_axis": Eval("take(a, i, axis=1)", a=V((3, 0)), i=I([0])),
    "take_float_indices": Eval("take(a, i)", a=V((3, 4)), i=np.array([0.0, 1.0])),
    "tal_ndim": Eval("take_along_axis(a, i, axis=1)", a=V((3, 4)), i=I([0, 1])),
    "tal_oob": Eval("take_along_axis(a, i, axis=1)", a=V((3, 4)), i=I([[4], [0], [1]])),
    "tal_axis_oob": Eval("take_along_axis(a, i, axis=2)", a=V((3, 4)), i=I([[0], [1], [2]])),
    "tal_float_indices": Eval("take_along_axis(a, i, axis=1)", a=V((3, 4)), i=np.array([[0.0], [1.0], [2.0]])),
    "put_oob": Eval("put_copy(a, i, v)", a=V((3, 4)), i=I([12]), v=V((1,))),
    "put_empty_array": Eval("put_copy(a, i, v)", a=V((0,)), i=I([0]), v=V((1,))),
    "pal_oob": Eval("put_along_axis_copy(a, i, v, 1)", a=V((3, 4)), i=I([[4], [0], [1]]), v=V((3, 1))),
    "putmask_size": Eval("putmask_copy(a, m, v)", a=V((3, 4)), m=V((4,), "bool"), v=V((2,))),
    "place_empty_vals": Eval("place_copy(a, m, v)", a=V((3, 4)), m=V((3, 4), "bool"), v=V((0,))),
    "fill_diagonal_1d": Eval("fill_diagonal_copy(a, 1)", a=V((4,))),
    "fill_diagonal_3d_unequal": Eval("fill_diagonal_copy(a, 1)", a=V((3, 3, 2))),
    "compress_axis_oob": Eval("compress(c, a, axis=2)", a=V((3, 4)), c=I([True], "bool")),
    "compress_condition_long": Eval("compress(c, a, axis=0)", a=V((3, 4)), c=I([0, 1, 0, 1, 1])),
    "choose_oob": Eval("choose(i, (a, b))", a=V((4,)), b=V((4,)), i=I([0, 2, 1, 0])),
    "choose_shapes": Eval("choose(i, (a, b))", a=V((4,)), b=V((3,)), i=I([0, 1, 1, 0])),
    "select_lengths": Eval("select((c, c), (a,))", a=V((3,)), c=V((3,), "bool")),
    "select_not_bool": Eval("select((c,), (a,))", a=V((3,)), c=I([0, 1, 2])),
    "select_empty": Eval("select((), ())"),
    "unravel_index_oob": Eval("unravel_index(i, (3, 4))", i=I([12])),
    "unravel_index_negative": Eval("unravel_index(i, (3, 4))", i=I([-1])),
    "ravel_multi_index_oob": Eval("ravel_multi_index((i, j), (3, 4))", i=I([3]), j=I([0])),
    "ravel_multi_index_dims": Eval("ravel_multi_index((i, j), (3, 4, 5))", i=I([1]), j=I([0])),
    "ix_2d": Eval("ix_(i)", i=I([[0, 1]])),
    "ix_0d": Eval("ix_(i)", i=I(1)),
    "unravel_index_float": Eval("unravel_index(i, (3, 4))", i=np.array([1.0])),
    "tal_0d": Eval("take_along_axis(a, i, axis=0)", a=V(()), i=I(0)),
    "pal_0d": Eval("put_along_axis_copy(a, i, v, 0)", a=V(()), i=I(0), v=V(())),
})
# NumPy 2: choose/select and the index dtypes under NEP 50; select's error for an empty list.
EVAL_NUMPY2_ONLY = {"select_empty", "select_empty_choice"}

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
