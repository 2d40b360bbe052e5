#!/usr/bin/env python3
"""NumPy reference data for the linalg module's routines (today linalg.trace), run by
tests/gpu/test_eval_ref_gpu.cpp through cupp eval's engine.

    python3 make_linalg_ref.py OUT_DIR

writes OUT_DIR/eval/<case>/... and the manifests (routine_ref.py's format). numpy.linalg.trace is
NumPy 2's: under NumPy 1 every case is written without a result and the GPU test skips it.
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

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES, set(EVAL_CASES)))
