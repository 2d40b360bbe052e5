#!/usr/bin/env python3
"""NumPy reference data for the creation routines (tests/gpu/test_eval_ref_gpu.cpp's
EvalRefGpu/Families.AgreeWithNumPy/creation, and tests/gpu/test_creation_gpu.cpp for fromfunction).

    python3 make_creation_ref.py OUT_DIR

writes OUT_DIR/<case>/out<k>.npy and OUT_DIR/manifest.json: {"numpy": version, "cases": {case:
{"outputs": [{"file", "dtype", "shape"}...]}}} for CASES, whose C++ test makes the same call with
cupp under the same id; and OUT_DIR/eval (routine_ref.py's write_eval_set) for EVAL_CASES, each
the expression written next to its id, evaluated by NumPy here and by cupp eval's engine in the
test. Runs with any NumPy >= 1.24 (the build uses whatever Python the project was configured
with; the GPU machine has NumPy 2.5); cases whose result changed in NumPy 2 are marked and skipped
by the test when the data came from an older NumPy.
"""
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, SHORT, Eval, V, add_cases

NUMPY2 = routine_ref.NUMPY2

a24 = np.arange(24).reshape(2, 3, 4)
m34 = np.arange(12.0).reshape(3, 4)
m23 = np.arange(6).reshape(2, 3)

# The relative tolerances the C++ test used for these cases (a few ULP: tighter than the eval
# test's defaults), given to the cases with float outputs.
F2, F4, F8 = 1e-3, 5e-7, 4e-15

# id -> (callable producing an array or a tuple of arrays, inputs saved as in<k>.npy): only what
# cupp eval cannot call (fromfunction's function is a C++ callable); the C++ test makes the same
# call with cupp under the same id.
CASES = {
    "fromfunction": (lambda: np.fromfunction(lambda i, j: i * 10 + j, (3, 4)), []),
}

# Cases whose NumPy 1.x result differs from NumPy 2's (the test skips them for older data).
NUMPY2_ONLY = set()

# ---- cases run through cupp eval's engine (tests/gpu/test_eval_ref_gpu.cpp,
# EvalRefGpu/Families.AgreeWithNumPy/creation). First the calls that were the C++ test's table
# (same ids): each routine with NumPy's defaults and its options, on Python-number endpoints and
# fills.
EVAL_CASES = add_cases({}, {
    # arange
    "arange_stop": Eval("arange(10)"),
    "arange_neg_step": Eval("arange(10, -7, -3)"),
    "arange_stop_step_keyword": Eval("arange(10, step=3)"),   # stop alone with step=: start 0
    "arange_start_stop_step_keyword": Eval("arange(2, 10, step=3)"),
    "arange_stop_float_step_keyword": Eval("arange(2.5, step=0.5, dtype='float32')"),
    "arange_float": Eval("arange(0.0, 1.0, 0.1)", rtol=F8),
    "arange_float_4": Eval("arange(1.0, 1.3, 0.1)", rtol=F8),
    "arange_f32": Eval("arange(0.5, 7.25, 0.75, dtype='float32')", rtol=F4),
    "arange_f16": Eval("arange(-2, 2, 0.3, dtype='float16')", rtol=F2),
    "arange_int8_step7": Eval("arange(-100, 100, 7, dtype='int8')"),
    "arange_uint8_step13": Eval("arange(3, 250, 13, dtype='uint8')"),
    "arange_u64": Eval("arange(0, 50, 5, dtype='uint64')"),
    "arange_float_to_int": Eval("arange(0.5, 5, 1.5, dtype='int64')"),
    "arange_c64": Eval("arange(0.5, 5.0, 0.5, dtype='complex64')", rtol=F4),
    "arange_bool": Eval("arange(0, 2, dtype='bool')"),
    "arange_empty": Eval("arange(5, 0)"),
    "arange_large_f32": Eval("arange(100003, dtype='float32')", rtol=F4),
    "arange_large_f64": Eval("arange(-1.5, 3000.0, 0.0271)", rtol=F8),
    # linspace
    "linspace_default": Eval("linspace(0, 1)", rtol=F8),
    "linspace_no_endpoint": Eval("linspace(2, 3, 7, endpoint=False)", rtol=F8),
    "linspace_f32": Eval("linspace(-1, 1, 11, dtype='float32')", rtol=F4),
    "linspace_int": Eval("linspace(-3, 10, 7, dtype='int32')"),
    "linspace_complex": Eval("linspace(0, 1 + 2j, 5)", rtol=F8),
    "linspace_one": Eval("linspace(3, 5, 1)", rtol=F8),
    "linspace_zero": Eval("linspace(3, 5, 0)", rtol=F8),
    "linspace_tiny_step": Eval("linspace(0, 5e-324, 4)", rtol=F8),
    "linspace_retstep": Eval("linspace(0, 1, 5, retstep=True)", rtol=F8),
    "linspace_arrays": Eval("linspace(a, b, 5)", rtol=F8, a=np.array([0.0, 1.0]), b=np.array([10.0, 20.0])),
    "linspace_array_axis1": Eval("linspace(a, 5.0, 4, axis=1)", rtol=F8, a=np.array([0.0, 1.0])),
    # logspace, geomspace
    "logspace_default": Eval("logspace(0, 3, 4)", rtol=F8),
    "logspace_base2": Eval("logspace(0, 10, 11, base=2)", rtol=F8),
    "logspace_f32": Eval("logspace(-2, 2, 9, dtype='float32')", rtol=F4),
    "geomspace_pos": Eval("geomspace(1, 1000, 4)", rtol=F8),
    "geomspace_neg": Eval("geomspace(-1000, -1, 4)", rtol=F8),
    "geomspace_no_endpoint": Eval("geomspace(1, 2, 5, endpoint=False)", rtol=F8),
    "geomspace_imag": Eval("geomspace(1j, 1000j, 4)", rtol=F8),
    # matrices
    "eye_3": Eval("eye(3)", rtol=F8),
    "eye_3_5_k1_i32": Eval("eye(3, 5, k=1, dtype='int32')"),
    "eye_4_km2_bool": Eval("eye(4, k=-2, dtype='bool')"),
    "eye_k_beyond": Eval("eye(2, 2, k=5)", rtol=F8),
    "identity_c64": Eval("identity(4, dtype='complex64')", rtol=F4),
    "tri_3_4": Eval("tri(3, 4)", rtol=F8),
    "tri_4_km1_i8": Eval("tri(4, k=-1, dtype='int8')"),
    "tril_stack": Eval("tril(m)", m=a24),
    "tril_stack_km1": Eval("tril(m, k=-1)", m=a24),
    "triu_stack_k1": Eval("triu(m, k=1)", m=a24),
    "tril_1d_k0": Eval("tril(m)", m=np.arange(1, 5)),
    "diag_1d_k1": Eval("diag(v, k=1)", v=np.arange(3)),
    "diag_1d_km2": Eval("diag(v, k=-2)", rtol=F8, v=np.arange(4.0)),
    "diag_2d_k1": Eval("diag(v, k=1)", rtol=F8, v=m34),
    "diagflat_k1": Eval("diagflat(v, k=1)", v=np.array([[1, 2], [3, 4]])),
    # grids
    "meshgrid_xy": Eval("meshgrid(x, y)", rtol=F8, x=np.arange(3), y=np.arange(2.0)),
    "meshgrid_ij": Eval("meshgrid(x, y, indexing='ij')", rtol=F8, x=np.arange(3), y=np.arange(2.0)),
    "meshgrid_sparse": Eval("meshgrid(x, y, z, sparse=True)", rtol=F8, x=np.arange(3), y=np.arange(2.0),
                            z=np.arange(4)),
    "indices_2_3": Eval("indices((2, 3))"),
    "indices_f32": Eval("indices((3, 2, 2), dtype='float32')", rtol=F4),
    "indices_sparse": Eval("indices((2, 3), sparse=True)"),
    # full, ones, *_like
    "full_int": Eval("full((2, 3), 7)"),
    "full_f32": Eval("full((2, 2), 2.5, dtype='float32')", rtol=F4),
    "full_bool": Eval("full((3,), True)"),
    "full_complex": Eval("full((2,), 1 + 2j)", rtol=F8),
    "full_array": Eval("full((2, 3), v)", rtol=F8, v=np.array([1.0, 2.0, 3.0])),
    "ones_i16": Eval("ones((2, 3), dtype='int16')"),
    "ones_c128": Eval("ones((3,), dtype='complex128')", rtol=F8),
    "ones_like_f32": Eval("ones_like(a, dtype='float32')", rtol=F4, a=m23),
    "zeros_like": Eval("zeros_like(a)", a=m23),
    "full_like_shape": Eval("full_like(a, 4.5, shape=(4,))", a=m23),
})

# Then every routine on every dtype it takes (dtype= or the input's), 0-d and empty shapes,
# negative axes (array endpoints of linspace/logspace/geomspace), views with negative strides, and
# the errors (negative dimensions, shapes that do not broadcast, a bad axis or indexing). empty()
# and empty_like() are compared through shapes and dtypes only (zeros_like of the result). Left
# out (docs/deviations.md): arange with step 0 (ZeroDivisionError in NumPy).
NUMERIC = [d for d in DTYPES if d != "bool"]
INEXACT_DTYPES = ["float16", "float32", "float64", "complex64", "complex128"]
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
# NumPy 1 gave arange_bool_long a 2-element array and geomspace_imag another result.
EVAL_NUMPY2_ONLY = {"arange_bool_long", "geomspace_imag"}

if __name__ == "__main__":
    sys.exit(routine_ref.main(CASES, NUMPY2_ONLY, __doc__, EVAL_CASES, EVAL_NUMPY2_ONLY))
