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


# ---- cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp, EvalRefGpu.Creation):
# every routine on every dtype it takes (dtype= or the input's), 0-d and empty shapes, negative axes
# (array endpoints of linspace/logspace/geomspace), views with negative strides, and the errors
# (negative dimensions, shapes that do not broadcast, a bad axis or indexing). empty() and
# empty_like() are compared through shapes and dtypes only (zeros_like of the result). Left out
# (docs/deviations.md): arange with step 0 (ZeroDivisionError in NumPy).
from routine_ref import DTYPES, SHORT, Eval, V, add_cases  # noqa: E402

NUMERIC = [d for d in DTYPES if d != "bool"]
INEXACT_DTYPES = ["float16", "float32", "float64", "complex64", "complex128"]
EVAL_CASES = {}
for _dt in DTYPES:
    _s = SHORT[_dt]
    _cases = {
        f"zeros_{_s}": Eval(f"zeros((2, 3), dtype='{_dt}')"),
        f"ones_{_s}_0d": Eval(f"ones((), dtype='{_dt}')"),
        f"empty_{_s}": Eval(f"zeros_like(empty((2, 3), dtype='{_dt}'))"),
        f"empty_{_s}_zero_dim": Eval(f"empty((3, 0, 2), dtype='{_dt}')"),
        f"full_{_s}": Eval(f"full((2, 3), 1, dtype='{_dt}')"),
        f"full_{_s}_array": Eval("full((2, 3), v)", v=V((3,), _dt)),
        f"full_{_s}_0d": Eval("full((), v)", v=V((), _dt)),
        f"zeros_like_{_s}": Eval("zeros_like(a)", a=V((2, 3), _dt)),
        f"ones_like_{_s}_shape": Eval("ones_like(a, shape=(4, 1))", a=V((2, 3), _dt)),
        f"ones_like_{_s}_dtype": Eval(f"ones_like(a, dtype='{_dt}')", a=V((3, 2))),
        f"full_like_{_s}": Eval("full_like(a, 1)", a=V((2, 3), _dt)),
        f"full_like_{_s}_0d": Eval("full_like(a, 0)", a=V((), _dt)),
        f"empty_like_{_s}": Eval("zeros_like(empty_like(a))", a=V((3, 1, 2), _dt)),
        f"empty_like_{_s}_empty": Eval("empty_like(a, shape=(0, 2))", a=V((2,), _dt)),
        f"eye_{_s}": Eval(f"eye(3, 4, k=-1, dtype='{_dt}')"),
        f"identity_{_s}": Eval(f"identity(3, dtype='{_dt}')"),
        f"tri_{_s}": Eval(f"tri(3, 4, k=1, dtype='{_dt}')"),
        f"tril_{_s}": Eval("tril(a, k=-1)", a=V((2, 3, 4), _dt)),
        f"triu_{_s}": Eval("triu(a, k=2)", a=V((3, 5), _dt)),
        f"triu_{_s}_empty": Eval("triu(a)", a=V((0, 3), _dt)),
        f"diag_{_s}_1d": Eval("diag(v, k=-1)", v=V((4,), _dt)),
        f"diag_{_s}_2d": Eval("diag(v, k=2)", v=V((3, 5), _dt)),
        f"diag_{_s}_2d_neg": Eval("diag(v, k=-2)", v=V((4, 3), _dt)),
        f"diagflat_{_s}": Eval("diagflat(v, k=-2)", v=V((2, 2), _dt)),
        f"meshgrid_{_s}": Eval("meshgrid(x, y, indexing='ij')", x=V((3,), _dt), y=V((2,), _dt)),
        f"meshgrid_{_s}_sparse": Eval("meshgrid(x, y, sparse=True)", x=V((3,), _dt), y=V((2,), _dt)),
    }
    if _dt in NUMERIC:
        _cases.update({
            f"arange_{_s}": Eval(f"arange(1, 7, 2, dtype='{_dt}')"),
            f"linspace_{_s}": Eval(f"linspace(0, 10, 7, dtype='{_dt}')"),
        })
    if _dt not in ("bool", "complex64", "complex128"):
        _cases[f"indices_{_s}"] = Eval(f"indices((2, 3), dtype='{_dt}')")
    if _dt in INEXACT_DTYPES:
        _cases.update({
            f"logspace_{_s}": Eval(f"logspace(0, 2, 5, dtype='{_dt}')"),
            f"geomspace_{_s}": Eval(f"geomspace(1, 256, 9, dtype='{_dt}')"),
        })
    add_cases(EVAL_CASES, _cases)

add_cases(EVAL_CASES, {
    # ---- 0-d and empty
    "zeros_0d": Eval("zeros(())"),
    "eye_0": Eval("eye(0)"),
    "eye_0_3": Eval("eye(0, 3, dtype='int8')"),
    "identity_0": Eval("identity(0)"),
    "tri_0_3": Eval("tri(0, 3)"),
    "arange_empty_f4": Eval("arange(3, 1, dtype='float32')"),
    "linspace_0": Eval("linspace(0, 1, 0)"),
    "linspace_1_no_endpoint": Eval("linspace(2, 5, 1, endpoint=False)"),
    "diag_empty": Eval("diag(v)", v=V((0,))),
    "diag_2d_k_beyond": Eval("diag(v, k=7)", v=V((3, 4))),
    "diagflat_0d": Eval("diagflat(v, k=1)", v=V(())),
    "meshgrid_empty": Eval("meshgrid(x, y)", x=V((0,)), y=V((2,))),
    "meshgrid_0d": Eval("meshgrid(x, y)", x=V(()), y=V((2,), "int8")),
    "meshgrid_one": Eval("meshgrid(x)", x=V((3,))),
    "indices_empty": Eval("indices((0, 2))"),
    "indices_0d": Eval("indices(())"),
    "full_like_0d_shape": Eval("full_like(a, 2, shape=())", a=V((2, 2), "int16")),
    "tril_1d": Eval("tril(v, k=1)", v=V((4,), "int32")),
    "zeros_empty": Eval("zeros((0, 2), dtype='int8')"),
    "ones_empty": Eval("ones((3, 0))"),
    "full_empty": Eval("full((0,), 1)"),
    "zeros_like_empty": Eval("zeros_like(a)", a=V((0, 3), "complex64")),
    "zeros_like_0d": Eval("zeros_like(a)", a=V((), "uint16")),
    "ones_like_0d": Eval("ones_like(a)", a=V((), "float16")),
    "full_like_empty": Eval("full_like(a, 1)", a=V((2, 0), "int32")),
    "empty_0d": Eval("zeros_like(empty((), dtype='int64'))"),
    "empty_like_0d": Eval("zeros_like(empty_like(a))", a=V((), "bool")),
    "linspace_0d_arrays": Eval("linspace(a, b, 3)", a=V(()), b=V(()) + 4),
    "logspace_empty": Eval("logspace(0, 1, 0)"),
    "geomspace_empty": Eval("geomspace(1, 8, 0)"),
    "geomspace_arrays_axis_m1": Eval("geomspace(a, b, 4, axis=-1)", a=np.array([1.0, 2.0]), b=np.array([8.0, 16.0])),
    "tril_empty": Eval("tril(a, k=1)", a=V((0, 3), "uint8")),
    "diagflat_empty": Eval("diagflat(a)", a=V((0,), "int16")),
    "diag_0d": Eval("diag(a)", a=V(())),
    "triu_0d": Eval("triu(a)", a=V((), "int32")),
    "full_like_negative_shape": Eval("full_like(a, 1, shape=(2, -1))", a=V((2,))),
    "empty_like_negative_shape": Eval("empty_like(a, shape=(-3,))", a=V((2,))),
    "tri_negative_m": Eval("tri(2, -1)"),
    # ---- negative axes, strided inputs
    "linspace_arrays_axis_m1": Eval("linspace(a, b, 4, axis=-1)", a=V((2, 3)), b=V((3,)) + 9),
    "linspace_arrays_axis_m2": Eval("linspace(a, b, 5, axis=-2, endpoint=False)", a=V((2,)), b=V((2,)) + 4),
    "logspace_arrays_axis_m1": Eval("logspace(a, b, 3, axis=-1, base=2.0)", a=V((2,)), b=V((2,)) + 3),
    "geomspace_arrays_axis_1": Eval("geomspace(a, b, 4, axis=1)", a=np.array([1.0, 2.0]), b=np.array([8.0, 16.0])),
    "geomspace_negative": Eval("geomspace(-1, -1000, 4, dtype='float32')"),
    "linspace_retstep_f4": Eval("linspace(-1, 1, 9, retstep=True, dtype='float32')"),
    "tril_flipped": Eval("tril(flip(a, 0))", a=V((4, 4), "float32")),
    "diag_flipped": Eval("diag(flip(a, -1), k=1)", a=V((3, 4), "int64")),
    "triu_batched_flipped": Eval("triu(flip(a, (0, 2)), k=-1)", a=V((2, 3, 3), "uint16")),
    # ---- errors
    "zeros_negative": Eval("zeros((-1, 2))"),
    "ones_negative": Eval("ones((2, -3), dtype='int8')"),
    "empty_negative": Eval("empty((-1,))"),
    "full_negative": Eval("full((-2,), 3)"),
    "full_not_broadcastable": Eval("full((2, 3), v)", v=V((4,))),
    "zeros_like_negative_shape": Eval("zeros_like(a, shape=(-1,))", a=V((2,))),
    "eye_negative": Eval("eye(-1)"),
    "identity_negative": Eval("identity(-2)"),
    "tri_negative": Eval("tri(-1, 3)"),
    "linspace_num_negative": Eval("linspace(0, 1, -1)"),
    "linspace_axis_oob": Eval("linspace(a, b, 3, axis=2)", a=V((2,)), b=V((2,))),
    "geomspace_zero": Eval("geomspace(0, 1, 3)"),
    "diag_3d": Eval("diag(v)", v=V((2, 2, 2))),
    "diagflat_0d_k0": Eval("diagflat(v)", v=V((), "int8")),
    "tril_0d": Eval("tril(v)", v=V(())),
    "meshgrid_indexing_bad": Eval("meshgrid(x, y, indexing='xz')", x=V((2,)), y=V((2,))),
    "indices_negative": Eval("indices((-1, 2))"),
    "arange_bool_long": Eval("arange(0, 5, dtype='bool')"),
})
EVAL_NUMPY2_ONLY = {"arange_bool_long"}  # NumPy 1 gave a 2-element array

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
