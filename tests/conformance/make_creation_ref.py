#!/usr/bin/env python3
"""NumPy reference data for the creation routines (tests/gpu/test_creation_gpu.cpp).

    python3 make_creation_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy (and in<k>.npy for array inputs) and OUT_DIR/manifest.json:
{"numpy": version, "cases": {case: {"outputs": [{"file", "dtype", "shape"}...]}}}. Each case is
the NumPy call written next to its id below; the C++ test makes the same call with cupp under the
same id. Runs with any NumPy >= 1.24 (the build uses whatever Python the project was configured
with; the GPU machine has NumPy 2.5); cases whose result changed in NumPy 2 are marked and skipped
by the test when the data came from an older NumPy.
"""
import sys

import numpy as np

import routine_ref

NUMPY2 = routine_ref.NUMPY2

a24 = np.arange(24).reshape(2, 3, 4)
m34 = np.arange(12.0).reshape(3, 4)

# id -> (callable producing an array or a tuple of arrays, inputs saved as in<k>.npy)
CASES = {
    # arange
    "arange_stop": (lambda: np.arange(10), []),
    "arange_neg_step": (lambda: np.arange(10, -7, -3), []),
    "arange_float": (lambda: np.arange(0.0, 1.0, 0.1), []),
    "arange_float_4": (lambda: np.arange(1.0, 1.3, 0.1), []),
    "arange_f32": (lambda: np.arange(0.5, 7.25, 0.75, dtype=np.float32), []),
    "arange_f16": (lambda: np.arange(-2, 2, 0.3, dtype=np.float16), []),
    "arange_i8": (lambda: np.arange(-100, 100, 7, dtype=np.int8), []),
    "arange_u8": (lambda: np.arange(3, 250, 13, dtype=np.uint8), []),
    "arange_u64": (lambda: np.arange(0, 50, 5, dtype=np.uint64), []),
    "arange_float_to_int": (lambda: np.arange(0.5, 5, 1.5, dtype=np.int64), []),
    "arange_c64": (lambda: np.arange(0.5, 5.0, 0.5, dtype=np.complex64), []),
    "arange_bool": (lambda: np.arange(0, 2, dtype=bool), []),
    "arange_empty": (lambda: np.arange(5, 0), []),
    "arange_large_f32": (lambda: np.arange(100003, dtype=np.float32), []),
    "arange_large_f64": (lambda: np.arange(-1.5, 3000.0, 0.0271), []),
    # linspace
    "linspace_default": (lambda: np.linspace(0, 1), []),
    "linspace_no_endpoint": (lambda: np.linspace(2, 3, 7, endpoint=False), []),
    "linspace_f32": (lambda: np.linspace(-1, 1, 11, dtype=np.float32), []),
    "linspace_int": (lambda: np.linspace(-3, 10, 7, dtype=np.int32), []),
    "linspace_complex": (lambda: np.linspace(0, 1 + 2j, 5), []),
    "linspace_one": (lambda: np.linspace(3, 5, 1), []),
    "linspace_zero": (lambda: np.linspace(3, 5, 0), []),
    "linspace_tiny_step": (lambda: np.linspace(0, 5e-324, 4), []),
    "linspace_retstep": (lambda: np.linspace(0, 1, 5, retstep=True), []),
    "linspace_arrays": (lambda: np.linspace(np.array([0.0, 1.0]), np.array([10.0, 20.0]), 5), []),
    "linspace_array_axis1": (lambda: np.linspace(np.array([0.0, 1.0]), 5.0, 4, axis=1), []),
    # logspace, geomspace
    "logspace_default": (lambda: np.logspace(0, 3, 4), []),
    "logspace_base2": (lambda: np.logspace(0, 10, 11, base=2), []),
    "logspace_f32": (lambda: np.logspace(-2, 2, 9, dtype=np.float32), []),
    "geomspace_pos": (lambda: np.geomspace(1, 1000, 4), []),
    "geomspace_neg": (lambda: np.geomspace(-1000, -1, 4), []),
    "geomspace_no_endpoint": (lambda: np.geomspace(1, 2, 5, endpoint=False), []),
    "geomspace_imag": (lambda: np.geomspace(1j, 1000j, 4), []),
    # matrices
    "eye_3": (lambda: np.eye(3), []),
    "eye_3_5_k1_i32": (lambda: np.eye(3, 5, k=1, dtype=np.int32), []),
    "eye_4_km2_bool": (lambda: np.eye(4, k=-2, dtype=bool), []),
    "eye_k_beyond": (lambda: np.eye(2, 2, k=5), []),
    "identity_c64": (lambda: np.identity(4, dtype=np.complex64), []),
    "tri_3_4": (lambda: np.tri(3, 4), []),
    "tri_4_km1_i8": (lambda: np.tri(4, k=-1, dtype=np.int8), []),
    "tril_stack": (lambda: np.tril(a24), []),
    "tril_stack_km1": (lambda: np.tril(a24, k=-1), []),
    "triu_stack_k1": (lambda: np.triu(a24, k=1), []),
    "tril_1d": (lambda: np.tril(np.arange(1, 5)), []),
    "diag_1d_k1": (lambda: np.diag(np.arange(3), k=1), []),
    "diag_1d_km2": (lambda: np.diag(np.arange(4.0), k=-2), []),
    "diag_2d_k1": (lambda: np.diag(m34, k=1), []),
    "diagflat_k1": (lambda: np.diagflat(np.array([[1, 2], [3, 4]]), k=1), []),
    # grids
    "meshgrid_xy": (lambda: np.meshgrid(np.arange(3), np.arange(2.0)), []),
    "meshgrid_ij": (lambda: np.meshgrid(np.arange(3), np.arange(2.0), indexing="ij"), []),
    "meshgrid_sparse": (lambda: np.meshgrid(np.arange(3), np.arange(2.0), np.arange(4), sparse=True), []),
    "indices_2_3": (lambda: np.indices((2, 3)), []),
    "indices_f32": (lambda: np.indices((3, 2, 2), dtype=np.float32), []),
    "indices_sparse": (lambda: np.indices((2, 3), sparse=True), []),
    "fromfunction": (lambda: np.fromfunction(lambda i, j: i * 10 + j, (3, 4)), []),
    # full, ones, *_like
    "full_int": (lambda: np.full((2, 3), 7), []),
    "full_f32": (lambda: np.full((2, 2), 2.5, dtype=np.float32), []),
    "full_bool": (lambda: np.full((3,), True), []),
    "full_complex": (lambda: np.full((2,), 1 + 2j), []),
    "full_array": (lambda: np.full((2, 3), np.array([1.0, 2.0, 3.0])), []),
    "ones_i16": (lambda: np.ones((2, 3), dtype=np.int16), []),
    "ones_c128": (lambda: np.ones((3,), dtype=np.complex128), []),
    "ones_like_f32": (lambda: np.ones_like(np.arange(6).reshape(2, 3), dtype=np.float32), []),
    "zeros_like": (lambda: np.zeros_like(np.arange(6).reshape(2, 3)), []),
    "full_like_shape": (lambda: np.full_like(np.arange(6).reshape(2, 3), 4.5, shape=(4,)), []),
}

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = {"geomspace_imag"}


if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__))
