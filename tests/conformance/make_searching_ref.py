#!/usr/bin/env python3
"""NumPy reference data for the searching, counting and set routines (tests/gpu/test_searching_gpu.cpp).

    python3 make_searching_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json (tests/conformance/routine_ref.py).
Each case is the NumPy call written next to its id below; the C++ test makes the same call with
cupp under the same id. Inputs: ar(shape, dtype) = arange(size).reshape(shape).astype(dtype),
I(values, dtype) and F(values, dtype) (a list made into an array of that dtype), C(values, dtype)
(complex values); the test builds them the same way. Routines that return several arrays give one
output each, in NumPy's order. unique_values is sorted here (NumPy >= 2.3 leaves its order
unspecified; cupp sorts). Runs with any NumPy >= 1.24 (the GPU machine has 2.5); the NumPy 2
forms (unique_values, unique_counts, unique_inverse, unique_all; unique's inverse of the input's
shape) are emulated under NumPy 1 and marked numpy2_only.
"""
import sys

import numpy as np

import routine_ref

NUMPY2 = routine_ref.NUMPY2
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


def api(name, x):
    """NumPy 2's unique_* (emulated with unique(..., equal_nan=False) under NumPy 1)."""
    f = getattr(np, name, None)
    if f is not None:
        r = f(x)
        if name == "unique_values":
            return np.sort(r)
        return tuple(r)
    flags = {"unique_counts": dict(return_counts=True), "unique_inverse": dict(return_inverse=True),
             "unique_all": dict(return_index=True, return_inverse=True, return_counts=True)}.get(name, {})
    r = np.unique(x, equal_nan=False, **flags)
    return r


def hist(*args, **kwargs):
    h, e = np.histogram(*args, **kwargs)
    return h, e


C_SORTED = np.sort(C([1 + 2j, 1 + 1j, complex(nan, 0), complex(1, nan), -1 + 5j, 2 + 0j, complex(nan, nan)]))

CASES = {
    # searchsorted
    "ss_left": lambda: np.searchsorted(ar((10,)) * 2, I([-1, 0, 3, 18, 19, 40])),
    "ss_right_dups": lambda: np.searchsorted(I([1, 2, 2, 2, 3]), I([2, 0, 5, 1]), side="right"),
    "ss_left_dups": lambda: np.searchsorted(I([1, 2, 2, 2, 3]), I([2, 0, 5, 1]), side="left"),
    "ss_f4_nan": lambda: np.searchsorted(F([-inf, 1, 2, inf, nan, nan], "f4"), F([nan, 1.5, -inf, inf, 2], "f4")),
    "ss_f4_nan_right": lambda: np.searchsorted(F([-inf, 1, 2, inf, nan, nan], "f4"), F([nan, 1.5, -inf, inf, 2], "f4"),
                                               side="right"),
    "ss_f2": lambda: np.searchsorted(F([0.5, 1, 1, 2.25, 1000], "f2"), F([1, 0, 3, 2000, 2.25], "f2")),
    "ss_f8_negzero": lambda: np.searchsorted(F([-1, -0.0, 0.0, 1]), F([0.0, -0.0]), side="right"),
    "ss_c16": lambda: np.searchsorted(C_SORTED, C([1 + 1.5j, complex(nan, 1), complex(1, nan), 0j, 3 + 0j])),
    "ss_c8_right": lambda: np.searchsorted(C_SORTED.astype("c8"), C([1 + 1j, 2 + 0j, complex(nan, nan)], "c8"),
                                           side="right"),
    "ss_bool": lambda: np.searchsorted(I([False, False, True, True], "?"), I([True, False], "?")),
    "ss_u1_i2": lambda: np.searchsorted(I([1, 5, 200, 250], "u1"), I([-5, 5, 300], "i2")),
    "ss_i8_f8": lambda: np.searchsorted(I([1, 5, 9]), F([4.5, 5.0, 9.5])),
    "ss_u8": lambda: np.searchsorted(I([0, 2**63, 2**64 - 2], "u8"), I([2**63 + 1, 1, 2**64 - 1], "u8")),
    "ss_i1": lambda: np.searchsorted(I([-128, -1, 0, 127], "i1"), I([-1, 100, -128], "i1"), side="right"),
    "ss_sorter": lambda: np.searchsorted(I([30, 10, 20]), I([20, 0, 35]), sorter=I([1, 2, 0])),
    "ss_sorter_right_i4": lambda: np.searchsorted(I([30, 10, 20]), I([20, 10]), side="right",
                                                  sorter=I([1, 2, 0], "i4")),
    "ss_0d_v": lambda: np.searchsorted(ar((5,)), I(3)),
    "ss_empty_a": lambda: np.searchsorted(I([]), I([1, 2])),
    "ss_empty_v": lambda: np.searchsorted(ar((5,)), I([])),
    "ss_2d_v": lambda: np.searchsorted(ar((5,)), I([[1, 2], [3, 9]]), side="right"),
    "ss_strided": lambda: np.searchsorted(ar((12,), "f8")[::3], ar((6,), "f8")[::-1]),
    # digitize
    "dig_inc": lambda: np.digitize(F([0.2, 6.4, 3.0, 1.6, -1, 10]), F([0, 1, 2.5, 4, 10])),
    "dig_inc_right": lambda: np.digitize(F([0.2, 6.4, 3.0, 1.6, -1, 10, 0]), F([0, 1, 2.5, 4, 10]), right=True),
    "dig_dec": lambda: np.digitize(F([0.2, 6.4, 3.0, 1.6, -1, 10]), F([10, 4, 2.5, 1, 0])),
    "dig_dec_right": lambda: np.digitize(F([0.2, 6.4, 3.0, 1.6, -1, 10, 0]), F([10, 4, 2.5, 1, 0]), right=True),
    "dig_int": lambda: np.digitize(ar((10,), "i4"), I([2, 4, 4, 7], "i2")),
    "dig_nan": lambda: np.digitize(F([nan, 1, 3], "f4"), F([0, 2, 4], "f4")),
    "dig_empty_bins": lambda: np.digitize(F([1, 2]), F([])),
    "dig_2d_x": lambda: np.digitize(ar((2, 3), "f8"), F([1, 3])),
    "dig_const_bins": lambda: np.digitize(I([1, 2, 3]), I([2, 2, 2])),
    # bincount
    "bc_basic": lambda: np.bincount(I([0, 1, 1, 3, 2, 1, 7])),
    "bc_minlength": lambda: np.bincount(I([0, 1, 1, 3]), minlength=10),
    "bc_minlength_short": lambda: np.bincount(I([0, 9, 1]), minlength=3),
    "bc_weights": lambda: np.bincount(I([0, 1, 1, 2, 2, 2]), weights=F([0.3, 0.5, 0.2, 0.7, 1.0, -0.6])),
    "bc_weights_i4": lambda: np.bincount(I([2, 0, 2]), weights=I([5, 6, 7], "i4")),
    "bc_weights_f4": lambda: np.bincount(I([1, 1]), weights=F([0.25, 0.5], "f4")),
    "bc_bool": lambda: np.bincount(I([True, False, True], "?")),
    "bc_u1": lambda: np.bincount(I([255, 0, 255], "u1")),
    "bc_i1": lambda: np.bincount(I([3, 3, 0], "i1")),
    "bc_u4": lambda: np.bincount(I([4, 1], "u4")),
    "bc_empty": lambda: np.bincount(I([])),
    "bc_empty_minlength": lambda: np.bincount(I([]), minlength=4),
    "bc_empty_weights": lambda: np.bincount(I([]), weights=F([])),
    "bc_big": lambda: np.bincount(ar((100000,)) % 1000),
    # histogram
    "hist_default": lambda: hist(F([1, 2, 1, 4, 3.5, 0, 10, 2.5])),
    "hist_bins5_range": lambda: hist(F([1, 2, 1, 4, 3.5, 0, 10, 2.5]), bins=5, range=(0, 5)),
    "hist_int": lambda: hist(ar((20,), "i4"), bins=4),
    "hist_i8_3": lambda: hist(ar((10,)), bins=3),
    "hist_u1_const": lambda: hist(I([5, 5, 5], "u1")),
    "hist_f4": lambda: hist(F([0.1, 0.7, 0.3, 0.9, 0.5, 0.2, 0.6], "f4"), bins=7),
    "hist_f4_const": lambda: hist(F([2.5, 2.5], "f4"), bins=2),
    "hist_f2": lambda: hist(F([0.1, 0.7, 0.3, 0.9, 0.5], "f2"), bins=3),
    "hist_f2_range": lambda: hist(F([0.1, 0.7, 0.3, 0.9, 0.5], "f2"), bins=4, range=(0.0, 1.0)),
    "hist_edges": lambda: hist(F([0, 1, 1.5, 2, 3, 3, 4, 5, -1]), bins=F([0, 1, 2, 3])),
    "hist_edges_int": lambda: hist(I([0, 1, 2, 2, 5, 9]), bins=I([0, 2, 2, 5, 9])),
    "hist_edges_f4_data_f8_edges": lambda: hist(F([0.5, 1.5, 2.5], "f4"), bins=F([0, 1, 2, 3])),
    "hist_weights": lambda: hist(F([1, 2, 2, 3]), bins=3, weights=F([0.5, 1, 2, 4])),
    "hist_weights_i8": lambda: hist(F([1, 2, 2, 3]), bins=3, weights=I([1, 2, 3, 4])),
    "hist_weights_f4": lambda: hist(F([1, 2, 2, 3]), bins=2, weights=F([0.5, 1, 2, 4], "f4")),
    "hist_weights_c16": lambda: hist(F([1, 2, 2, 3]), bins=2, weights=C([1 + 1j, 2, 3j, 4])),
    "hist_weights_edges": lambda: hist(F([1, 2, 2, 3]), bins=F([1, 2.5, 3]), weights=F([0.5, 1, 2, 4])),
    "hist_density": lambda: hist(F([1, 2, 2, 3, 7]), bins=4, density=True),
    "hist_density_edges": lambda: hist(F([1, 2, 2, 3, 7]), bins=F([0, 1, 5, 10]), density=True),
    "hist_nan_range": lambda: hist(F([nan, 1, 2, nan, 3]), bins=2, range=(0, 4)),
    "hist_outside": lambda: hist(ar((10,), "f8"), bins=3, range=(2.5, 6)),
    "hist_range_equal": lambda: hist(F([1, 2, 3]), bins=2, range=(2, 2)),
    "hist_empty": lambda: hist(F([]), bins=3),
    "hist_empty_int": lambda: hist(I([]), bins=2),
    "hist_bool": lambda: hist(I([True, False, True], "?"), bins=2),
    "hist_2d": lambda: hist(ar((3, 4), "f8"), bins=3),
    "hist_big": lambda: hist(np.sin(ar((100000,), "f8")), bins=37),
    # unique
    "uq_basic": lambda: np.unique(I([3, 1, 2, 3, 1])),
    "uq_all_i4": lambda: np.unique(I([3, 1, 2, 3, 1, 3], "i4"), return_index=True, return_inverse=True,
                                   return_counts=True),
    "uq_index": lambda: np.unique(I([5, 5, 4, 4, 5, 1]), return_index=True),
    "uq_counts_u2": lambda: np.unique(I([7, 7, 0, 65535, 7], "u2"), return_counts=True),
    "uq_nan": lambda: np.unique(F([nan, 1, nan, 2, 1])),
    "uq_nan_noeq": lambda: np.unique(F([nan, 1, nan, 2, 1]), equal_nan=False),
    "uq_nan_flags": lambda: np.unique(F([nan, 1, nan, 2, 1, nan], "f4"), return_index=True, return_inverse=True,
                                      return_counts=True),
    "uq_nan_flags_noeq": lambda: np.unique(F([nan, 1, nan, 2, 1], "f4"), return_index=True, return_counts=True,
                                           equal_nan=False),
    "uq_nan_first": lambda: np.unique(F([nan, nan, nan]), return_counts=True),
    "uq_c8": lambda: np.unique(C([1 + 1j, complex(nan, 1), 1 + 1j, complex(1, nan), 0j, 1 + 0j], "c8"),
                               return_counts=True),
    "uq_c16_noeq": lambda: np.unique(C([complex(nan, 1), 2j, complex(1, nan), 2j]), equal_nan=False),
    "uq_bool": lambda: np.unique(I([True, False, True, True], "?"), return_counts=True),
    "uq_f2": lambda: np.unique(F([1.5, -2, 1.5, 65504, -2], "f2"), return_index=True),
    "uq_u1": lambda: np.unique(I([200, 3, 200, 0], "u1")),
    "uq_i1": lambda: np.unique(I([-5, 3, -5, 0], "i1"), return_counts=True),
    "uq_u8": lambda: np.unique(I([2**64 - 1, 3, 2**64 - 1, 0], "u8"), return_index=True),
    "uq_negzero": lambda: np.unique(F([0.0, -0.0, 1.0, 0.0]), return_index=True),
    "uq_2d": lambda: np.unique(ar((3, 4)) % 5, return_inverse=True),
    "uq_0d": lambda: np.unique(I(5), return_inverse=True),
    "uq_empty": lambda: np.unique(I([]), return_index=True, return_inverse=True, return_counts=True),
    "uq_big": lambda: np.unique((ar((100000,)) * 7919) % 1009, return_index=True, return_inverse=True,
                                return_counts=True),
    # unique along an axis (sub-arrays as structured rows: lexicographic order, NaN rows never equal)
    "uqa_rows": lambda: np.unique(I([[1, 0, 0], [1, 0, 0], [2, 3, 4]]), axis=0),
    "uqa_all_i4": lambda: np.unique(I([[3, 1], [1, 2], [3, 1], [0, 5], [1, 2]], "i4"), axis=0, return_index=True,
                                    return_inverse=True, return_counts=True),
    "uqa_cols": lambda: np.unique(I([[1, 0, 1, 2], [3, 4, 3, 5]]), axis=1, return_counts=True),
    "uqa_3d_axis1": lambda: np.unique((ar((2, 5, 3)) * 7) % 4 // 2, axis=1, return_index=True,
                                      return_inverse=True),
    "uqa_3d_neg": lambda: np.unique((ar((3, 2, 4)) // 3) % 2, axis=-1, return_counts=True),
    "uqa_3d_axis0": lambda: np.unique(I([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 4]).reshape(3, 2, 2), axis=0,
                                      return_inverse=True),
    "uqa_1d": lambda: np.unique(I([3, 1, 3, 2]), axis=0, return_index=True, return_inverse=True, return_counts=True),
    "uqa_f8_nan": lambda: np.unique(F([nan, 1, nan, 1, 1, 2, 0, nan, 1, 2]).reshape(5, 2), axis=0,
                                    return_index=True, return_counts=True),
    "uqa_f8_nan_noeq": lambda: np.unique(F([nan, 1, nan, 1, 1, 2]).reshape(3, 2), axis=0, equal_nan=False),
    "uqa_f8_inf": lambda: np.unique(F([inf, -inf, 1, -inf, inf, -inf, -inf, 0]).reshape(4, 2), axis=0,
                                    return_inverse=True),
    "uqa_negzero": lambda: np.unique(F([0.0, 1, -0.0, 1, -0.0, 0, 0.0, 0]).reshape(4, 2), axis=0,
                                     return_index=True, return_counts=True),
    "uqa_f4": lambda: np.unique(F([2.5, -1, 2.5, -1, 0.5, 7, -3, 0.25], "f4").reshape(4, 2), axis=0,
                                return_inverse=True, return_counts=True),
    "uqa_f4_axis1": lambda: np.unique(F([2.5, 2.5, -1, nan, nan, 3, 3, 1, 1, 1], "f4").reshape(2, 5), axis=1,
                                      return_counts=True),
    "uqa_f2": lambda: np.unique(F([1.5, -2, 65504, 1.5, -2, 65504, 0.5, 0.5, 0.5], "f2").reshape(3, 3), axis=0,
                                return_index=True),
    "uqa_c16": lambda: np.unique(C([1 + 1j, 2, complex(1, nan), 0, 1 + 1j, 2, complex(nan, 0), 1, 1 + 1j, 1])
                                 .reshape(5, 2), axis=0, return_index=True, return_inverse=True, return_counts=True),
    "uqa_c8_axis1": lambda: np.unique(C([1j, 2, 1j, 2, 3, 2, 3, 2], "c8").reshape(2, 4), axis=1, return_counts=True),
    "uqa_bool": lambda: np.unique(I([1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0], "?").reshape(4, 3), axis=0,
                                  return_inverse=True, return_counts=True),
    "uqa_u1": lambda: np.unique(I([200, 3, 0, 255, 200, 3, 0, 0], "u1").reshape(4, 2), axis=0, return_counts=True),
    "uqa_i1": lambda: np.unique(I([-5, 3, 127, -128, -5, 3, -5, -3], "i1").reshape(4, 2), axis=0,
                                return_index=True),
    "uqa_i2_axis1": lambda: np.unique(I([-300, 7, -300, 7, 5, 5, 5, 4], "i2").reshape(2, 4), axis=1,
                                      return_inverse=True),
    "uqa_u2": lambda: np.unique(I([65535, 0, 65535, 0, 1, 1], "u2").reshape(3, 2), axis=0, return_counts=True),
    "uqa_u4": lambda: np.unique(I([4000000000, 1, 2, 3, 4000000000, 1], "u4").reshape(3, 2), axis=0),
    "uqa_u8": lambda: np.unique(I([2**64 - 1, 3, 2**63, 3, 2**64 - 1, 3, 0, 0], "u8").reshape(4, 2), axis=0,
                                return_index=True, return_counts=True),
    "uqa_strided": lambda: np.unique((ar((6, 8)) % 3)[::-1, ::2], axis=0, return_index=True, return_counts=True),
    "uqa_transposed": lambda: np.unique((ar((4, 3)) % 2).T, axis=1, return_inverse=True),
    "uqa_empty_axis": lambda: np.unique(F([]).reshape(0, 3), axis=0, return_index=True, return_inverse=True,
                                        return_counts=True),
    "uqa_zero_width": lambda: np.unique(I([], "i1").reshape(3, 0), axis=0, return_index=True, return_inverse=True,
                                        return_counts=True),
    "uqa_zero_width_axis1": lambda: np.unique(I([], "i1").reshape(2, 0), axis=1, return_index=True,
                                              return_inverse=True, return_counts=True),
    "uqa_zeros_3d": lambda: np.unique(F([]).reshape(0, 2, 0), axis=1),
    "uqa_big": lambda: np.unique((ar((3000, 3)) * 7919) % 5, axis=0, return_index=True, return_inverse=True,
                                 return_counts=True),
    "uq_values": lambda: api("unique_values", F([nan, 2, nan, 1, 2])),
    "uq_counts_api": lambda: api("unique_counts", F([nan, 2, nan, 1, 2])),
    "uq_inverse_api": lambda: api("unique_inverse", ar((2, 3)) % 2),
    "uq_all_api": lambda: api("unique_all", F([nan, 2, nan, 1, 2], "f4")),
    # isin, in1d
    "isin_basic": lambda: np.isin(ar((2, 3)), I([1, 4, 9])),
    "isin_invert": lambda: np.isin(ar((2, 3)), I([1, 4, 9]), invert=True),
    "isin_f8_nan": lambda: np.isin(F([nan, 1, 2, -0.0]), F([nan, 0.0, 2])),
    "isin_mixed": lambda: np.isin(I([1, 2, 3], "i4"), F([2.0, 2.5])),
    "isin_c16": lambda: np.isin(C([1 + 1j, 2, complex(nan, 0)]), C([2, 1 + 1j, complex(nan, 0)])),
    "isin_empty_test": lambda: np.isin(ar((3,)), I([])),
    "isin_empty_test_invert": lambda: np.isin(ar((3,)), I([]), invert=True),
    "isin_empty_element": lambda: np.isin(I([]), ar((3,))),
    "isin_0d": lambda: np.isin(I(4), I([4, 5])),
    "isin_bool": lambda: np.isin(I([True, False], "?"), I([True], "?")),
    "isin_2d_test": lambda: np.isin(ar((5,), "f4"), ar((2, 2), "f4") * 2),
    "isin_big": lambda: np.isin(ar((100000,)) % 977, (ar((300,)) * 13) % 977),
    "in1d_2d": lambda: np.isin(ar((2, 3)).ravel(), I([0, 5])),
    # intersect1d
    "ix_basic": lambda: np.intersect1d(I([1, 3, 4, 3]), I([3, 1, 2, 1])),
    "ix_indices": lambda: np.intersect1d(I([1, 1, 2, 3, 4]), I([2, 1, 4, 6]), return_indices=True),
    "ix_assume_unique": lambda: np.intersect1d(I([5, 1, 3]), I([3, 9, 5]), assume_unique=True),
    "ix_assume_unique_indices": lambda: np.intersect1d(I([5, 1, 3]), I([3, 9, 5]), assume_unique=True,
                                                       return_indices=True),
    "ix_f4_nan": lambda: np.intersect1d(F([nan, 1, 2], "f4"), F([nan, 2], "f4")),
    "ix_mixed": lambda: np.intersect1d(I([1, 2, 3], "i1"), F([2, 3.5, 1], "f4")),
    "ix_empty": lambda: np.intersect1d(I([]), I([1, 2])),
    "ix_2d": lambda: np.intersect1d(ar((2, 3)), ar((3, 2)) + 3),
    # union1d, setdiff1d, setxor1d
    "union_basic": lambda: np.union1d(I([-1, 0, 1]), I([-2, 0, 2])),
    "union_nan": lambda: np.union1d(F([nan, 1]), F([nan, 2, 1])),
    "union_mixed": lambda: np.union1d(I([1, 2], "u1"), I([-1, 2], "i1")),
    "union_2d": lambda: np.union1d(ar((2, 2)), I([7])),
    "setdiff_basic": lambda: np.setdiff1d(I([1, 2, 3, 2, 4, 1]), I([3, 4, 5, 6])),
    "setdiff_assume_unique": lambda: np.setdiff1d(I([9, 2, 5, 1]), I([5, 0]), assume_unique=True),
    "setdiff_nan": lambda: np.setdiff1d(F([nan, 1, 2]), F([nan, 1])),
    "setdiff_f2": lambda: np.setdiff1d(F([0.5, 1, 1.5], "f2"), F([1], "f2")),
    "setxor_basic": lambda: np.setxor1d(I([1, 2, 3, 2, 4]), I([2, 3, 5, 7, 5])),
    "setxor_nan": lambda: np.setxor1d(F([nan, 1]), F([nan])),
    "setxor_empty": lambda: np.setxor1d(I([]), I([])),
    "setxor_assume_unique": lambda: np.setxor1d(I([3, 1]), I([1, 2]), assume_unique=True),
    "setxor_c8": lambda: np.setxor1d(C([1j, 2], "c8"), C([2, 3], "c8")),
}

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = {"uq_2d", "uq_0d", "uq_empty", "uq_values", "uq_counts_api", "uq_inverse_api", "uq_all_api"}


# ---- cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp, EvalRefGpu.Searching):
# every dtype each routine accepts, empty and 0-d inputs, NaN first / in the middle / last, negative
# axes (unique), errors (ValueError, TypeError, AxisError as NumPy raises them). unique_values is
# sorted (its order is unspecified in NumPy >= 2.3; cupp's is sorted). Python-scalar search values
# (searchsorted(a, 3): a documented deviation) and int64/uint64 isin are left out.
from routine_ref import DTYPES, INEXACT, SHORT, Eval, V, add_cases, with_nan  # noqa: E402

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
# in1d: deprecated in NumPy 2.0 (cupp has it); only where this NumPy still has it.
if hasattr(np, "in1d"):
    for _dt in DTYPES:
        add_cases(EVAL_CASES, {f"in1d_{SHORT[_dt]}": Eval("in1d(a, b, invert=True)", a=V((2, 5), _dt), b=V((3,), _dt))})

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
