#!/usr/bin/env python3
"""NumPy reference data for the linalg module's numpy.linalg routines (linalg.trace and the products
linalg.matmul, multi_dot, tensordot, vecdot, outer, cross, matrix_power, diagonal,
matrix_transpose), run by tests/gpu/test_eval_ref_gpu.cpp through cupp eval's engine. The
products in namespace cupp (matmul, dot, ...) have their own set: make_products_ref.py.

    python3 make_linalg_ref.py OUT_DIR

writes OUT_DIR/eval/<case>/... and the manifests (routine_ref.py's format). numpy.linalg.trace is
NumPy 2's, as are the products' linalg names: under NumPy 1 those cases are written without a result
and the GPU test skips them. Integer results are exact; V() values make float sums exact in any
order, so floats are checked at the default tolerance.
"""
import sys

import routine_ref
from routine_ref import DTYPES, SHORT, Eval, V

EVAL_CASES = {}
for _dt in DTYPES:
    _s = SHORT[_dt]
    EVAL_CASES.update({
        f"trace_{_s}": Eval("linalg.trace(a)", a=V((4, 4), _dt)),
        f"trace_{_s}_rect": Eval("linalg.trace(a)", a=V((3, 5), _dt)),
        f"trace_{_s}_stack": Eval("linalg.trace(a)", a=V((2, 3, 4, 4), _dt)),
        f"trace_{_s}_offset": Eval("linalg.trace(a, offset=1)", a=V((5, 4), _dt)),
        f"trace_{_s}_neg_offset": Eval("linalg.trace(a, offset=-2)", a=V((3, 5, 5), _dt)),
    })
EVAL_CASES.update({
    "trace_dtype_f4": Eval("linalg.trace(a, dtype='float32')", a=V((6, 6), "int16")),
    "trace_dtype_c16": Eval("linalg.trace(a, dtype='complex128')", a=V((3, 3), "float32")),
    "trace_offset_past_edge": Eval("linalg.trace(a, offset=7)", a=V((3, 4), "float64")),  # empty diagonal: 0
    "trace_empty": Eval("linalg.trace(a)", a=V((2, 0, 0), "int32")),
    "trace_1d": Eval("linalg.trace(a)", a=V((5,), "float64")),  # ValueError, as NumPy
})

for _dt in DTYPES:
    _s = SHORT[_dt]
    EVAL_CASES.update({
        f"matmul_{_s}": Eval("linalg.matmul(a, b)", a=V((2, 3, 4), _dt), b=V((4, 5), _dt)),
        f"multi_dot_{_s}": Eval("linalg.multi_dot((a, b, c))", a=V((2, 3), _dt), b=V((3, 6), _dt), c=V((6, 2), _dt)),
        f"multi_dot_{_s}_chain": Eval("linalg.multi_dot((a, b, c, d))", a=V((5,), _dt), b=V((5, 2), _dt),
                                      c=V((2, 7), _dt), d=V((7,), _dt)),
        f"tensordot_{_s}": Eval("linalg.tensordot(a, b, axes=1)", a=V((2, 3), _dt), b=V((3, 4, 2), _dt)),
        f"vecdot_{_s}": Eval("linalg.vecdot(a, b, axis=-2)", a=V((2, 4, 3), _dt), b=V((4, 3), _dt)),
        f"outer_{_s}": Eval("linalg.outer(a, b)", a=V((3,), _dt), b=V((4,), _dt)),
        f"cross_{_s}": Eval("linalg.cross(a, b, axis=0)", a=V((3, 4), _dt), b=V((3, 1), _dt)),
        f"matrix_power_{_s}_0": Eval("linalg.matrix_power(a, 0)", a=V((2, 3, 3), _dt)),
        f"matrix_power_{_s}_1": Eval("linalg.matrix_power(a, 1)", a=V((3, 3), _dt)),
        f"matrix_power_{_s}_2": Eval("linalg.matrix_power(a, 2)", a=V((3, 3), _dt)),
        f"matrix_power_{_s}_3": Eval("linalg.matrix_power(a, 3)", a=V((2, 3, 3), _dt)),
        f"matrix_power_{_s}_6": Eval("linalg.matrix_power(a, 6)", a=V((3, 3), _dt) if _dt == "bool" else V((3, 3), _dt) // 2 if _dt[0] in "iu" else V((3, 3), _dt) / 2),
        f"diagonal_{_s}": Eval("linalg.diagonal(a, offset=-1)", a=V((2, 4, 5), _dt)),
        f"matrix_transpose_{_s}": Eval("linalg.matrix_transpose(a)", a=V((2, 3, 4), _dt)),
    })
EVAL_CASES.update({
    "matrix_power_i1_wraps": Eval("linalg.matrix_power(a, 7)", a=V((4, 4), "int8") * 3),
    "matrix_power_u8_wraps": Eval("linalg.matrix_power(a, 13)", a=V((3, 3), "uint64") + 7),
    "matrix_power_f8_T": Eval("linalg.matrix_power(matrix_transpose(a), 5)", a=V((3, 3), "float64") / 2),
    "multi_dot_f8_out_order": Eval("linalg.multi_dot((a, b, c))", a=V((10, 100), "float64"), b=V((100, 5), "float64"),
                                   c=V((5, 50), "float64")),
    "multi_dot_two": Eval("linalg.multi_dot((a, b))", a=V((3, 4), "int32"), b=V((4,), "int32")),
    "vecdot_c16_conj": Eval("linalg.vecdot(a, b)", a=V((2, 3), "complex128"), b=V((3,), "complex128")),
    # errors
    "matmul_0d": Eval("linalg.matmul(a, b)", a=V((), "float64"), b=V((3,), "float64")),  # ValueError
    "multi_dot_one": Eval("linalg.multi_dot((a,))", a=V((3, 3), "float64")),  # ValueError
    "multi_dot_3d": Eval("linalg.multi_dot((a, b, c))", a=V((2, 2), "float64"), b=V((2, 2, 2), "float64"),
                         c=V((2, 2), "float64")),  # LinAlgError
    "multi_dot_mismatch": Eval("linalg.multi_dot((a, b, c))", a=V((2, 3), "float64"), b=V((4, 2), "float64"),
                               c=V((2, 2), "float64")),  # ValueError (dot's)
    "outer_2d": Eval("linalg.outer(a, b)", a=V((2, 2), "float64"), b=V((3,), "float64")),  # ValueError
    "cross_2vec": Eval("linalg.cross(a, b)", a=V((2,), "float64"), b=V((3,), "float64")),  # ValueError
    "cross_axis_range": Eval("linalg.cross(a, b, axis=1)", a=V((3,), "float64"), b=V((3,), "float64")),  # IndexError
    "matrix_power_1d": Eval("linalg.matrix_power(a, 2)", a=V((3,), "float64")),  # LinAlgError
    "matrix_power_rect": Eval("linalg.matrix_power(a, 2)", a=V((2, 3), "float64")),  # LinAlgError
    "tensordot_mismatch": Eval("linalg.tensordot(a, b)", a=V((2, 3), "float64"), b=V((2, 3), "float64")),
    "diagonal_1d": Eval("linalg.diagonal(a)", a=V((3,), "float64")),  # ValueError
    "matrix_transpose_1d": Eval("linalg.matrix_transpose(a)", a=V((3,), "float64")),  # ValueError
})

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES, set(EVAL_CASES)))
