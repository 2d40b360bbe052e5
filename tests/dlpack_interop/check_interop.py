#!/usr/bin/env python3
"""DLPack exchange between cupp and PyTorch / CuPy on a GPU machine, both directions.

Loads libcupp_dlpack_interop.so (tests/dlpack_interop/cupp_dlpack_interop.cpp) with ctypes and
  (a) hands cupp's exported tensors (versioned and legacy capsules) to torch.from_dlpack and
      cupy.from_dlpack: values, dtypes, and the strides of a transposed view;
  (b) hands torch's and cupy's __dlpack__() capsules (max_version=(1, 0) and legacy) to cupp,
      which imports them zero-copy and sums them on the host;
  (c) checks every deleter runs exactly once, and not before the last user is gone.
Prints PASS/FAIL/SKIP per check; exits 1 when any check failed.
usage: python3 check_interop.py ./libcupp_dlpack_interop.so
"""
import ctypes
import gc
import sys

KDL_CUDA = 2
# Capsule names must outlive the capsules: module-level bytes objects.
NAME_VERSIONED = b"dltensor_versioned"
NAME_LEGACY = b"dltensor"
USED_VERSIONED = b"used_dltensor_versioned"
USED_LEGACY = b"used_dltensor"

failures = []


def check(name, ok, detail=""):
    print(("PASS " if ok else "FAIL ") + name + (f"  ({detail})" if detail and not ok else ""), flush=True)
    if not ok:
        failures.append(name)


def skip(name, why):
    print(f"SKIP {name}  ({why})", flush=True)


def guarded(name, fn):
    try:
        fn()
    except Exception as e:  # a crash in one check must not hide the others
        check(name, False, f"{type(e).__name__}: {e}")


# ---- ctypes plumbing

pyapi = ctypes.pythonapi
pyapi.PyCapsule_New.restype = ctypes.py_object
pyapi.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
pyapi.PyCapsule_GetPointer.restype = ctypes.c_void_p
pyapi.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
pyapi.PyCapsule_SetName.restype = ctypes.c_int
pyapi.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
pyapi.PyCapsule_IsValid.restype = ctypes.c_int
pyapi.PyCapsule_IsValid.argtypes = [ctypes.py_object, ctypes.c_char_p]
# Capsules keep a pointer to their name: these module-level bytes objects live as long as the
# process, and ctypes passes c_char_p arguments as pointers into them.
_names = {n: n for n in (NAME_VERSIONED, NAME_LEGACY, USED_VERSIONED, USED_LEGACY)}


def load(path):
    lib = ctypes.CDLL(path)
    lib.cupp_array_new.restype = ctypes.c_int
    lib.cupp_array_new.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_char_p, ctypes.c_int]
    lib.cupp_array_free.restype = None
    lib.cupp_array_free.argtypes = [ctypes.c_int]
    lib.cupp_array_export.restype = ctypes.c_void_p
    lib.cupp_array_export.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64]
    lib.cupp_make_arange.restype = ctypes.c_void_p
    lib.cupp_make_arange.argtypes = [ctypes.c_int64, ctypes.c_char_p]
    lib.cupp_make_arange_unversioned.restype = ctypes.c_void_p
    lib.cupp_make_arange_unversioned.argtypes = [ctypes.c_int64, ctypes.c_char_p]
    lib.cupp_export_deletes.restype = ctypes.c_int
    lib.cupp_foreign_deletes.restype = ctypes.c_int
    lib.cupp_import.restype = ctypes.c_int
    lib.cupp_import.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int,
                                ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int64),
                                ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int),
                                ctypes.c_char_p, ctypes.POINTER(ctypes.c_double)]
    lib.cupp_sum_from_dlpack.restype = ctypes.c_double
    lib.cupp_sum_from_dlpack.argtypes = [ctypes.c_void_p]
    lib.cupp_sum_from_dlpack_unversioned.restype = ctypes.c_double
    lib.cupp_sum_from_dlpack_unversioned.argtypes = [ctypes.c_void_p]
    lib.cupp_release_held.restype = None
    return lib


class CuppProducer:
    """A cupp array seen through the Python DLPack protocol (__dlpack__, __dlpack_device__).

    form: "auto" follows the consumer's max_version, as a producer must; "versioned"/"legacy"
    force one form. Records the form and stream each export used."""

    def __init__(self, lib, rows, cols, dtype, transpose=False, form="auto"):
        self.lib = lib
        self.id = lib.cupp_array_new(rows, cols, dtype.encode(), int(transpose))
        if self.id < 0:
            raise RuntimeError("cupp_array_new failed")
        self.form = form
        self.exports = []

    def __dlpack_device__(self):
        return (KDL_CUDA, 0)

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        if copy:
            raise BufferError("cupp exports without copying")
        if self.form == "auto":
            versioned = max_version is not None and max_version[0] >= 1
        else:
            versioned = self.form == "versioned"
        # The protocol: None means the legacy default stream; -1 means no synchronisation.
        handle = 1 if stream is None else stream
        ptr = self.lib.cupp_array_export(self.id, int(versioned), handle)
        if not ptr:
            raise BufferError("cupp_array_export failed")
        self.exports.append(("versioned" if versioned else "legacy", stream))
        name = NAME_VERSIONED if versioned else NAME_LEGACY
        return pyapi.PyCapsule_New(ptr, _names[name], None)

    def free(self):
        if self.id > 0:
            self.lib.cupp_array_free(self.id)
            self.id = -1


def consume_capsule(capsule):
    """Takes the tensor out of a producer's capsule, as a consumer does: marks it used."""
    for name, used, versioned in ((NAME_VERSIONED, USED_VERSIONED, 1), (NAME_LEGACY, USED_LEGACY, 0)):
        if pyapi.PyCapsule_IsValid(capsule, name):
            ptr = pyapi.PyCapsule_GetPointer(capsule, name)
            pyapi.PyCapsule_SetName(capsule, _names[used])
            return ptr, versioned
    raise ValueError("not a DLPack capsule")


class Imported:
    def __init__(self, ok, ndim, shape, strides, read_only, dtype, total):
        self.ok, self.ndim, self.read_only, self.dtype, self.sum = ok, ndim, read_only, dtype, total
        self.shape = tuple(shape[:ndim])
        self.strides = tuple(strides[:ndim])  # bytes


def cupp_import(lib, capsule, producer_stream=-1, hold=False):
    ptr, versioned = consume_capsule(capsule)
    ndim, ro = ctypes.c_int(0), ctypes.c_int(0)
    shape, strides = (ctypes.c_int64 * 64)(), (ctypes.c_int64 * 64)()
    dtype = ctypes.create_string_buffer(32)
    total = ctypes.c_double(0)
    rc = lib.cupp_import(ptr, versioned, producer_stream, int(hold), ctypes.byref(ndim), shape, strides,
                         ctypes.byref(ro), dtype, ctypes.byref(total))
    return versioned, Imported(rc == 0, ndim.value, list(shape), list(strides), bool(ro.value),
                               dtype.value.decode(), total.value)


def expected_sum(t):
    """The library's sum rule, in float64: complex elements count real + imaginary part."""
    kind = getattr(t.dtype, "kind", None)  # NumPy-style dtypes (CuPy) have a kind; torch's do not
    if kind is None:
        if t.dtype.is_complex:
            return t.real.double().sum().item() + t.imag.double().sum().item()
        return t.double().sum().item()
    if kind == "c":
        return t.real.astype("f8").sum().item() + t.imag.astype("f8").sum().item()
    return t.astype("f8").sum().item()


# ---- (a) cupp -> consumer

TORCH_DTYPES = ["float32", "float64", "float16", "bfloat16", "int32", "int64", "int8", "uint8", "bool",
                "complex64", "complex128"]
CUPY_DTYPES = ["float32", "float64", "float16", "int32", "int64", "int16", "uint8", "uint32", "bool",
               "complex64", "complex128"]


def torch_reference(torch, n, dtype):
    i = torch.arange(n, dtype=torch.float64, device="cuda")
    if dtype == "bool":
        return (torch.arange(n, device="cuda") % 2) == 1
    if dtype.startswith("complex"):
        return torch.complex(i, torch.full_like(i, 0.5)).to(getattr(torch, dtype))
    return i.to(getattr(torch, dtype))


def cupy_reference(cp, n, dtype):
    if dtype == "bool":
        return (cp.arange(n) % 2) == 1
    i = cp.arange(n, dtype=cp.float64)
    if dtype.startswith("complex"):
        return (i + 0.5j).astype(dtype)
    return i.astype(dtype)


def export_checks(lib, name, xp_from_dlpack, reference, dtypes, strides_of):
    asked = set()  # the forms the consumer asked for in "auto" mode
    for form in ("auto", "versioned", "legacy"):
        if form == "versioned" and "versioned" not in asked:
            skip(f"cupp->{name} forced versioned", f"{name} does not ask for DLPack 1.x (max_version); asked {asked}")
            continue
        for dtype in dtypes:
            check_name = f"cupp->{name} {form} 1-d {dtype}"

            def one():
                before = lib.cupp_export_deletes()
                producer = CuppProducer(lib, 10, -1, dtype, form=form)
                t = xp_from_dlpack(producer)
                producer.free()  # the exported tensor alone keeps the memory alive now
                if form == "auto":
                    asked.update(f for f, _ in producer.exports)
                ok = str(t.dtype).split(".")[-1] == dtype and bool((t == reference(10, dtype)).all())
                check(check_name, ok, f"got {t!r} via {producer.exports}")
                del t
                gc.collect()
                check(check_name + " deleter once", lib.cupp_export_deletes() == before + 1,
                      f"{lib.cupp_export_deletes() - before} deletes")
            guarded(check_name, one)
        check_name = f"cupp->{name} {form} transposed view keeps strides"

        def transposed():
            producer = CuppProducer(lib, 3, 4, "float32", transpose=True, form=form)
            t = xp_from_dlpack(producer)
            producer.free()
            expected = reference(12, "float32").reshape(3, 4).T
            ok = tuple(t.shape) == (4, 3) and strides_of(t) == (1, 4) and bool((t == expected).all())
            check(check_name, ok, f"shape {tuple(t.shape)} element strides {strides_of(t)}")
            del t
        guarded(check_name, transposed)
        if form == "auto":
            print(f"INFO {name}.from_dlpack asked cupp for: {sorted(asked)}", flush=True)


# ---- (b) producer -> cupp

def import_checks(lib, name, make, dtypes, get_stream):
    for dtype in dtypes:
        for max_version in ((1, 0), None):
            form = "versioned" if max_version else "legacy"
            check_name = f"{name}->cupp {form} {dtype}"

            def one():
                x = make(dtype)
                kwargs = {"stream": 1}  # cupp's current stream: the legacy default stream
                if max_version:
                    kwargs["max_version"] = max_version
                try:
                    capsule = x.__dlpack__(**kwargs)
                except TypeError as e:
                    if not max_version:
                        raise
                    skip(check_name, f"{name}'s __dlpack__ has no max_version: {e}")
                    return
                before = lib.cupp_foreign_deletes()
                versioned, got = cupp_import(lib, capsule)
                ok = (got.ok and got.dtype == dtype and abs(got.sum - expected_sum(x)) <= 1e-6 * max(1.0, abs(got.sum))
                      and versioned == (1 if max_version else 0))
                check(check_name, ok, f"ok={got.ok} versioned={versioned} dtype={got.dtype} sum={got.sum} "
                                      f"expected={expected_sum(x)}")
                check(check_name + " deleter once", lib.cupp_foreign_deletes() == before + 1,
                      f"{lib.cupp_foreign_deletes() - before} deletes")
            guarded(check_name, one)

    check_name = f"{name}->cupp transposed view keeps strides, held until released"

    def strided():
        x = make("float64")[: 12].reshape(3, 4).T  # element strides (1, 4): bytes (8, 32)
        try:
            capsule = x.__dlpack__(stream=get_stream(), max_version=(1, 0))
        except TypeError:
            capsule = x.__dlpack__(stream=get_stream())
        before = lib.cupp_foreign_deletes()
        _, got = cupp_import(lib, capsule, producer_stream=get_stream(), hold=True)
        ok = got.ok and got.shape == (4, 3) and got.strides == (8, 32) and abs(got.sum - expected_sum(x)) < 1e-9
        check(check_name, ok, f"shape {got.shape} byte strides {got.strides} sum {got.sum}")
        del x, capsule
        gc.collect()
        check(check_name + ": not deleted while cupp holds it", lib.cupp_foreign_deletes() == before)
        lib.cupp_release_held()
        check(check_name + ": deleted once on release", lib.cupp_foreign_deletes() == before + 1,
              f"{lib.cupp_foreign_deletes() - before} deletes")
    guarded(check_name, strided)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    lib = load(sys.argv[1])

    # The brief's short forms, cupp to cupp through DLPack.
    def short_forms():
        s = lib.cupp_sum_from_dlpack(lib.cupp_make_arange(100, b"float32"))
        check("cupp->cupp versioned sum", s == 4950.0, str(s))
        s = lib.cupp_sum_from_dlpack_unversioned(lib.cupp_make_arange_unversioned(100, b"int64"))
        check("cupp->cupp legacy sum", s == 4950.0, str(s))
    guarded("cupp->cupp", short_forms)

    try:
        import torch
    except ImportError as e:
        torch = None
        skip("torch", str(e))
    if torch is not None:
        print(f"INFO torch {torch.__version__}")
        tstream = lambda: torch.cuda.current_stream().cuda_stream or 1  # noqa: E731

        def torch_from(producer):
            return torch.from_dlpack(producer)
        export_checks(lib, "torch", torch_from, lambda n, d: torch_reference(torch, n, d), TORCH_DTYPES,
                      lambda t: tuple(t.stride()))

        def torch_make(dtype):
            return torch_reference(torch, 64, dtype)
        import_checks(lib, "torch", torch_make, TORCH_DTYPES, tstream)

    try:
        import cupy
    except ImportError as e:
        cupy = None
        skip("cupy", str(e))
    if cupy is not None:
        print(f"INFO cupy {cupy.__version__}")
        cstream = lambda: cupy.cuda.get_current_stream().ptr or 1  # noqa: E731
        export_checks(lib, "cupy", cupy.from_dlpack, lambda n, d: cupy_reference(cupy, n, d), CUPY_DTYPES,
                      lambda t: tuple(s // t.itemsize for s in t.strides))

        def cupy_make(dtype):
            return cupy_reference(cupy, 64, dtype)
        import_checks(lib, "cupy", cupy_make, CUPY_DTYPES, cstream)

        # A CuPy array's memory stays alive through cupp's import: its refcount returns to the
        # baseline only once cupp released it.
        def refcount():
            x = cupy.arange(16, dtype=cupy.float32)
            base = sys.getrefcount(x)
            capsule = x.__dlpack__(stream=1, max_version=(1, 0))
            _, got = cupp_import(lib, capsule, hold=True)
            del capsule
            gc.collect()
            held_ref = sys.getrefcount(x)
            lib.cupp_release_held()
            gc.collect()
            print(f"INFO cupy array refcount: {base} before export, {held_ref} while cupp holds it", flush=True)
            check("cupy->cupp no reference leaked after cupp released the import",
                  got.ok and sys.getrefcount(x) == base, f"base {base} held {held_ref} after {sys.getrefcount(x)}")
        guarded("cupy->cupp refcount", refcount)

    # Errors: a host (kDLCPU) tensor is refused, and released once all the same.
    if torch is not None:
        def cpu_refused():
            x = torch.arange(4, dtype=torch.float32)
            before = lib.cupp_foreign_deletes()
            _, got = cupp_import(lib, x.__dlpack__())
            check("torch cpu tensor -> cupp refused", not got.ok)
            check("torch cpu tensor -> cupp released once", lib.cupp_foreign_deletes() == before + 1)
        guarded("torch cpu tensor -> cupp", cpu_refused)

    print(f"{'FAILED' if failures else 'ALL PASSED'}: {len(failures)} failure(s)")
    for f in failures:
        print("  " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
