#!/usr/bin/env python3
"""NumPy reference data for the fft module's helper routines (fft.fftfreq, fft.rfftfreq,
fft.fftshift, fft.ifftshift), run by tests/gpu/test_eval_ref_gpu.cpp through cupp eval's engine.

    python3 make_fft_ref.py OUT_DIR

writes OUT_DIR/eval/<case>/... and the manifests (routine_ref.py's format). Every case is one
EVAL_CASES expression that NumPy and cupp both evaluate (NumPy looks `fft` up as numpy.fft).
fftfreq's values are compared exactly in effect: the test's float64 tolerance is far below the
last bit of these products. Runs with any NumPy >= 1.24.
"""
import sys

import routine_ref
from routine_ref import DTYPES, SHORT, Eval, V  # noqa: F401

EVAL_CASES = {}
for _n in (1, 2, 3, 7, 8, 9, 16, 1000, 1001):
    for _d in (1.0, 0.1, -2.5, 3):
        _id = f"{_n}_{str(_d).replace('.', 'p').replace('-', 'm')}"
        EVAL_CASES[f"fftfreq_{_id}"] = Eval(f"fft.fftfreq({_n}, {_d})")
        EVAL_CASES[f"rfftfreq_{_id}"] = Eval(f"fft.rfftfreq({_n}, d={_d})")
EVAL_CASES.update({
    "fftfreq_default_d": Eval("fft.fftfreq(10)"),
    "fftfreq_negative_n": Eval("fft.fftfreq(-3)"),               # ValueError, as NumPy
    "rfftfreq_negative_n": Eval("fft.rfftfreq(-4, 0.5)"),         # empty, as NumPy
    "fftfreq_shift": Eval("fft.fftshift(fft.fftfreq(9, 0.25))"),
})
for _dt in DTYPES:
    _s = SHORT[_dt]
    EVAL_CASES.update({
        f"fftshift_{_s}_1d": Eval("fft.fftshift(a)", a=V((9,), _dt)),
        f"fftshift_{_s}_2d": Eval("fft.fftshift(a)", a=V((4, 7), _dt)),
        f"fftshift_{_s}_axis": Eval("fft.fftshift(a, axes=1)", a=V((3, 6, 5), _dt)),
        f"fftshift_{_s}_axes": Eval("fft.fftshift(a, axes=(0, -1))", a=V((3, 6, 5), _dt)),
        f"ifftshift_{_s}_1d": Eval("fft.ifftshift(a)", a=V((9,), _dt)),
        f"ifftshift_{_s}_axes": Eval("fft.ifftshift(a, (-2,))", a=V((5, 4), _dt)),
    })
EVAL_CASES.update({
    "fftshift_empty": Eval("fft.fftshift(a)", a=V((0, 3), "float32")),
    "fftshift_bad_axis": Eval("fft.fftshift(a, axes=2)", a=V((4, 4), "float64")),  # IndexError
    "ifftshift_inverse": Eval("fft.ifftshift(fft.fftshift(a))", a=V((5, 6), "int32")),
})

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES, set()))
