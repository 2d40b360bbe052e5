#!/usr/bin/env python3
"""NumPy reference data for the fft module (numpy.fft: fft, ifft, rfft, irfft, hfft, ihfft, fftn,
ifftn, rfftn, irfftn, fft2, ifft2, rfft2, irfft2, and the helpers fftfreq, rfftfreq, fftshift,
ifftshift), run by tests/gpu/test_eval_ref_gpu.cpp through cupp eval's engine.

    python3 make_fft_ref.py OUT_DIR

writes OUT_DIR/eval/<case>/... and the manifests (routine_ref.py's format). Every case is one
EVAL_CASES expression that NumPy and cupp both evaluate (NumPy looks `fft` up as numpy.fft).

Transform cases: every routine x input dtype x norm (None, "backward", "ortho", "forward"), odd,
prime, power-of-two and composite sizes, n/s cropping and zero-padding (and s=-1), every axes
form (one axis, several, any order, repeated, s without axes), batched arrays along every axis,
strided views (slices with steps, transposes) and NumPy's errors (only the class is compared).

Inputs and tolerances. The test compares element-wise with a relative tolerance only (atol 0),
so no result element may be near zero: each input is Gaussian noise plus an impulse of height
C = 20 sqrt(N) at index 0 of the transformed axes (N: the transformed points), which adds C to
every output bin (for the inverse real transforms the impulse sits at the zero frequency and
adds C/N to every output point); so every element is well away from zero and the relative error
of a correct transform is about eps * log2(N). The tolerance stated per case:
    float32 / complex64 results:   rtol = 2e-5 * max(1, log2(N) / 8)
    float64 / complex128 results:  rtol = 2e-12 * max(1, log2(N) / 8)
    float16 results (irfft of a float16 input): rtol = 4e-3
(a wrong transform is off by O(1) on the noise part, 5 % or more of an element.) Repeated axes
(a transform applied twice, whose result is the noise itself) are complex128 only, where the
tolerance is still far below any element. fftfreq's values are compared exactly in effect.
Runs with any NumPy >= 1.24 (NumPy-2-only cases: s=-1, float32 giving complex64 matters only to
the dtype check, which the test makes against the NumPy that wrote the set).
"""
import math
import sys

import numpy as np

import routine_ref
from routine_ref import DTYPES, SHORT, Eval, V  # noqa: F401

EVAL_CASES = {}
NUMPY2_ONLY = set()

# ---- helpers (fftfreq, rfftfreq, fftshift, ifftshift)
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

# ---- the transforms
RNG = np.random.default_rng(20261203)
FORWARD_REAL = {"rfft", "ihfft"}          # real input
INVERSE_REAL = {"irfft", "hfft"}          # Hermitian (half) input, real output
ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
INPUT_DTYPES = ["bool", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64",
                "complex128"]
NORMS = [None, "backward", "ortho", "forward"]


def rtol_for(dtype_name, points):
    """The tolerance (module docstring) of a result of the given dtype over `points` transformed."""
    scale = max(1.0, math.log2(max(points, 2)) / 8)
    if dtype_name == "float16":
        return 4e-3
    if dtype_name in ("float32", "complex64"):
        return 2e-5 * scale
    return 2e-12 * scale


def result_dtype(routine, dt):
    """The result dtype NumPy 2 gives (for the tolerance)."""
    single = dt in ("float16", "float32", "complex64")
    if routine in INVERSE_REAL:
        return "float16" if dt == "float16" else ("float32" if single else "float64")
    return "complex64" if single else "complex128"


def noise(shape, dt):
    """Gaussian noise (small integers for integer dtypes, random for bool) in dtype dt."""
    kind = np.dtype(dt).kind
    if kind == "b":
        return RNG.integers(0, 2, shape).astype(bool)
    if kind in "iu":
        lo = 0 if kind == "u" else -5
        return RNG.integers(lo, 6, shape).astype(dt)
    v = RNG.standard_normal(shape)
    if kind == "c":
        v = v + 1j * RNG.standard_normal(shape)
    return v.astype(dt)


def signal(shape, dt, axes, points, at=0):
    """noise plus an impulse C = 20 sqrt(points) at index `at` (0, or -1 for a view that reverses)
    of `axes` (every other index kept), so that every output element of the transform is about C
    in magnitude."""
    a = noise(shape, dt)
    kind = np.dtype(dt).kind
    if a.size == 0:
        return a
    idx = [slice(None)] * len(shape)
    for ax in axes:
        idx[ax] = at
    if kind == "b":  # the impulse alone (True there, False elsewhere): no output element is near zero
        a = np.zeros(shape, bool)
        a[tuple(idx)] = True
        return a
    c = 20.0 * math.sqrt(points) * (3 if kind in "iu" else 1)
    if kind == "u":
        a = a.astype(np.float64)
        a[tuple(idx)] += c
        return np.clip(np.round(a), 0, np.iinfo(dt).max).astype(dt)
    if kind == "i":
        info = np.iinfo(dt)
        a = a.astype(np.float64)
        a[tuple(idx)] += c
        return np.clip(np.round(a), info.min, info.max).astype(dt)
    a[tuple(idx)] += np.asarray(c).astype(dt)
    return a


def one_case(name, routine, dt, norm, shape, axis=-1, n=None, expr_a="a", numpy2=False, make_shape=None,
             impulse_axis=None, at=0):
    """An Eval case of a 1-D routine on `shape` (of the input as built; expr_a may take a view:
    make_shape is then the view's length along `axis`, impulse_axis the input's axis it is)."""
    axis_len = shape[axis] if make_shape is None else make_shape
    points = n if n is not None else ((axis_len - 1) * 2 if routine in INVERSE_REAL else axis_len)
    a = signal(shape, dt, [axis if impulse_axis is None else impulse_axis], max(points, 1), at)
    args = [expr_a]
    if n is not None:
        args.append(f"n={n}")
    if axis != -1:
        args.append(f"axis={axis}")
    if norm is not None:
        args.append(f"norm='{norm}'")
    EVAL_CASES[name] = Eval(f"fft.{routine}({', '.join(args)})", rtol=rtol_for(result_dtype(routine, dt), points), a=a)
    if numpy2:
        NUMPY2_ONLY.add(name)


def nd_case(name, routine, dt, shape, s=None, axes=None, norm=None, expr_a="a", numpy2=False, view_shape=None,
            impulse_axes=None):
    """An Eval case of an n-D routine; with expr_a a view, view_shape is its shape and
    impulse_axes the input's axes the transformed ones are."""
    nd = len(shape)
    built = shape
    shape = view_shape if view_shape is not None else shape
    if axes is not None:
        ax = [x % nd for x in axes]
    elif s is not None:
        ax = list(range(nd - len(s), nd))
    elif routine.endswith("2"):
        ax = [nd - 2, nd - 1]
    else:
        ax = list(range(nd))
    sizes = []
    for i, x in enumerate(ax):
        if s is not None and s[i] != -1:
            sizes.append(s[i])
        elif routine.startswith("irfft") and i == len(ax) - 1:
            sizes.append((shape[x] - 1) * 2)
        else:
            sizes.append(shape[x])
    points = int(np.prod(sizes)) if sizes else 1
    a = signal(built, dt, sorted(set(ax)) if impulse_axes is None else impulse_axes, points or 1)  # (not max(): tools/dev/ref_case_ids.py reads this file with opaque values)
    args = [expr_a]
    if s is not None:
        args.append(f"s={tuple(s)}")
    if axes is not None:
        args.append(f"axes={tuple(axes)}")
    if norm is not None:
        args.append(f"norm='{norm}'")
    rd = result_dtype("irfft" if routine.startswith("irfft") else "fft", dt)
    EVAL_CASES[name] = Eval(f"fft.{routine}({', '.join(args)})", rtol=rtol_for(rd, points), a=a)
    if numpy2:
        NUMPY2_ONLY.add(name)


# Every 1-D routine x input dtype (norm None) on a prime length, and x norm for the main dtypes.
for r in ONE_D:
    for dt in INPUT_DTYPES:
        one_case(f"{r}_{SHORT[dt]}_7", r, dt, None, (7,))
    for dt in ["float16", "int32", "float32", "float64", "complex64", "complex128"]:
        for norm in NORMS[1:]:
            one_case(f"{r}_{SHORT[dt]}_{norm}_6", r, dt, norm, (6,))
            one_case(f"{r}_{SHORT[dt]}_{norm}_3x5_axis0", r, dt, norm, (5, 3), axis=0)

# Sizes: odd, prime, powers of two, composites, large; n cropping and zero-padding.
SIZES = [1, 2, 3, 4, 5, 8, 12, 16, 17, 31, 64, 97, 100, 105, 128, 243, 256, 625, 1000, 1024, 2048, 4097, 16384,
         65536, 3 * 5 * 7 * 11 * 13]
for r in ONE_D:
    for dt in ("complex64", "complex128") if r not in FORWARD_REAL else ("float32", "float64"):
        for size in SIZES:
            if r in INVERSE_REAL and size < 2:
                continue
            one_case(f"{r}_{SHORT[dt]}_len{size}", r, dt, None, (size,))
        for size, n in ((16, 8), (16, 33), (17, 5), (10, 64), (1, 9), (100, 101), (9, 1)):
            one_case(f"{r}_{SHORT[dt]}_len{size}_n{n}", r, dt, "ortho", (size,), n=n)

# Batched: every axis of a 3-D array, and strided views (steps, offsets, transposes).
for r in ONE_D:
    for dt in ("complex64", "float64") if r not in INVERSE_REAL else ("complex64", "complex128"):
        for axis in (0, 1, 2, -1, -2, -3):
            one_case(f"{r}_{SHORT[dt]}_batch_axis{axis}", r, dt, None, (6, 10, 9), axis=axis)
        one_case(f"{r}_{SHORT[dt]}_batch_axis1_n", r, dt, "forward", (6, 10, 9), axis=1, n=12)
        one_case(f"{r}_{SHORT[dt]}_step_axis0", r, dt, None, (16, 12), axis=0, expr_a="a[::2, 1:]", make_shape=8)
        one_case(f"{r}_{SHORT[dt]}_step_last", r, dt, None, (5, 30), axis=-1, expr_a="a[1:, ::3]", make_shape=10)
        one_case(f"{r}_{SHORT[dt]}_transposed", r, dt, "ortho", (9, 7, 4), axis=0,
                 expr_a="transpose(a, (1, 0, 2))", make_shape=7, impulse_axis=1)
        one_case(f"{r}_{SHORT[dt]}_reversed", r, dt, None, (3, 11), axis=-1, expr_a="a[:, ::-1]", at=-1)
        one_case(f"{r}_{SHORT[dt]}_big_batch", r, dt, None, (512, 64), axis=-1)
        one_case(f"{r}_{SHORT[dt]}_big_batch_axis0", r, dt, None, (64, 512), axis=0)

# Real rows at odd element offsets (two batch dimensions with odd strides): cuFFT needs the real
# side of r2c/c2r aligned to its complex type, so these take the axis-last copy.
for r, dt in (("rfft", "float64"), ("rfft", "float32"), ("ihfft", "float64"), ("irfft", "complex128"),
              ("irfft", "complex64"), ("hfft", "complex128")):
    one_case(f"{r}_{SHORT[dt]}_odd_strides", r, dt, None, (3, 7, 5) if r in FORWARD_REAL else (3, 4, 5), axis=1,
             n=None if r in FORWARD_REAL else 7)

# n-D: every form of s and axes.
ND = ["fftn", "ifftn", "rfftn", "irfftn"]
TWO = ["fft2", "ifft2", "rfft2", "irfft2"]
for r in ND:
    real_in = r == "rfftn"
    for dt in ("float32", "float64") if real_in else ("complex64", "complex128"):
        sh = SHORT[dt]
        nd_case(f"{r}_{sh}_all", r, dt, (6, 5, 8))
        nd_case(f"{r}_{sh}_axes0", r, dt, (6, 5, 8), axes=(0,))
        nd_case(f"{r}_{sh}_axes10", r, dt, (6, 5, 8), axes=(1, 0))
        nd_case(f"{r}_{sh}_axes02", r, dt, (6, 5, 8), axes=(0, 2))
        nd_case(f"{r}_{sh}_axes201", r, dt, (6, 5, 8), axes=(2, 0, 1), norm="ortho")
        nd_case(f"{r}_{sh}_axes_neg", r, dt, (6, 5, 8), axes=(-1, -2), norm="forward")
        nd_case(f"{r}_{sh}_s_axes", r, dt, (6, 5, 8), s=(4, 10), axes=(0, 2))
        nd_case(f"{r}_{sh}_s_pad_all", r, dt, (6, 5, 8), s=(7, 6, 9), axes=(0, 1, 2), norm="ortho")
        nd_case(f"{r}_{sh}_s_noaxes", r, dt, (6, 5, 8), s=(3, 6))
        nd_case(f"{r}_{sh}_s_minus1", r, dt, (6, 5, 8), s=(-1, 4), axes=(1, 2), numpy2=True)
        nd_case(f"{r}_{sh}_4d", r, dt, (3, 4, 5, 6), axes=(0, 1, 3))
        nd_case(f"{r}_{sh}_4d_inner3", r, dt, (2, 4, 6, 8), axes=(1, 2, 3), norm="ortho")
        nd_case(f"{r}_{sh}_strided", r, dt, (12, 10, 8), axes=(0, 2), expr_a="a[::2, 1:, ::2]",
                view_shape=(6, 9, 4), impulse_axes=[0, 2])
        nd_case(f"{r}_{sh}_transposed", r, dt, (7, 6, 5), axes=(0, 1), expr_a="transpose(a, (2, 0, 1))",
                view_shape=(5, 7, 6), impulse_axes=[2, 0])
    nd_case(f"{r}_c16_repeated", r, "complex128" if not real_in else "float64", (5, 6), axes=(0, 0, 1))
    nd_case(f"{r}_i4_all", r, "int32", (4, 6))
    nd_case(f"{r}_f2_all", r, "float16", (4, 6))
for r in TWO:
    real_in = r == "rfft2"
    for dt in ("float32", "float64") if real_in else ("complex64", "complex128"):
        sh = SHORT[dt]
        nd_case(f"{r}_{sh}_default", r, dt, (3, 16, 12))
        nd_case(f"{r}_{sh}_square", r, dt, (64, 64), norm="ortho")
        nd_case(f"{r}_{sh}_axes", r, dt, (6, 5, 8), axes=(0, 2))
        nd_case(f"{r}_{sh}_axes_rev", r, dt, (6, 5, 8), axes=(-1, -3))
        nd_case(f"{r}_{sh}_s", r, dt, (6, 5, 8), s=(4, 9), axes=(-2, -1), norm="forward")
        nd_case(f"{r}_{sh}_one_axis", r, dt, (6, 5, 8), axes=(1,))

# Sizes with no element (empty batches, padding an empty axis).
EVAL_CASES.update({
    "fft_empty_batch": Eval("fft.fft(a)", a=np.zeros((0, 8), np.complex64)),
    "rfft_empty_batch": Eval("fft.rfft(a, axis=0)", a=np.zeros((6, 0), np.float32)),
    "fft_pad_empty_axis": Eval("fft.fft(a, n=4)", a=np.zeros((3, 0), np.complex128)),
    "fftn_no_axes": Eval("fft.fftn(a, axes=())", a=V((3, 4), "float32")),
})

# NumPy's errors (the class is compared).
_e = np.ones((4, 5), np.complex64)
EVAL_CASES.update({
    "err_fft_n0": Eval("fft.fft(a, n=0)", a=_e),
    "err_fft_nneg": Eval("fft.fft(a, n=-3)", a=_e),
    "err_fft_empty_axis": Eval("fft.fft(a)", a=np.zeros((3, 0), np.complex64)),
    "err_fft_norm": Eval("fft.fft(a, norm='bad')", a=_e),
    "err_ifft_norm": Eval("fft.ifft(a, norm='Ortho')", a=_e),
    "err_hfft_norm": Eval("fft.hfft(a, norm='none')", a=_e),
    "err_fft_axis": Eval("fft.fft(a, axis=2)", a=_e),               # IndexError (a.shape[axis])
    "err_fft_axis_n": Eval("fft.fft(a, n=4, axis=-3)", a=_e),       # AxisError
    "err_fft_0d": Eval("fft.fft(a)", a=np.asarray(1.0 + 0j)),
    "err_fft_0d_n": Eval("fft.fft(a, n=2)", a=np.asarray(1.0 + 0j)),
    "err_irfft_len1": Eval("fft.irfft(a)", a=np.ones((1,), np.complex128)),
    "err_hfft_len1": Eval("fft.hfft(a)", a=np.ones((3, 1), np.complex128)),
    "err_rfft_complex": Eval("fft.rfft(a)", a=_e),                  # TypeError in NumPy 2
    "err_ihfft_complex": Eval("fft.ihfft(a)", a=_e),
    "err_fftn_s_axes_len": Eval("fft.fftn(a, s=(2, 3), axes=(0,))", a=_e),
    "err_fftn_axes_range": Eval("fft.fftn(a, axes=(0, 5))", a=_e),  # IndexError (take)
    "err_fftn_axes_range_s": Eval("fft.fftn(a, s=(2, 2), axes=(0, 5))", a=_e),  # AxisError
    "err_fftn_s0": Eval("fft.fftn(a, s=(0, 3), axes=(0, 1))", a=_e),
    "err_fft2_norm": Eval("fft.fft2(a, norm='x')", a=_e),
    "err_rfftn_noaxes": Eval("fft.rfftn(a, axes=())", a=_e.real.copy()),
    "err_irfftn_noaxes": Eval("fft.irfftn(a, axes=())", a=_e),
    "err_irfft2_len1": Eval("fft.irfft2(a)", a=np.ones((4, 1), np.complex64)),
})
NUMPY2_ONLY.update({"err_rfft_complex", "err_ihfft_complex"})

if __name__ == "__main__":
    sys.exit(routine_ref.main({}, set(), __doc__, EVAL_CASES, NUMPY2_ONLY))
