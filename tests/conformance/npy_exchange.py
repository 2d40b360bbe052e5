"""The .npy exchange with real NumPy (run on the GPU machine, where NumPy 2 and ml_dtypes exist):
  npy_exchange.py write DIR   NumPy writes structured, big-endian, Fortran-order, float16, bfloat16
                              and complex files, and DIR/manifest.json with each file's dtype
                              descriptor, shape and the SHA-256 of its data as C-order
                              little-endian bytes; cupp's test NpyExchange.ReadsWhatNumPyWrote
                              reads them.
  npy_exchange.py check DIR   NumPy reads the files cupp's test NpyExchange.WritesForNumPy wrote
                              (listed in DIR/manifest.json) and checks descriptor, shape and data.
Prints one line per file and exits 1 on any mismatch."""
import hashlib
import json
import os
import sys

import numpy as np


def le_bytes(a):
    """The data as C-order little-endian bytes (structured fields swapped recursively)."""
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()


def write(out):
    import ml_dtypes
    rng = np.random.default_rng(7)
    arrays = {
        "int16_be": np.arange(24, dtype=">i2").reshape(4, 6),
        "float64_be": rng.standard_normal((3, 5)).astype(">f8"),
        "complex128_be": (rng.standard_normal(7) + 1j * rng.standard_normal(7)).astype(">c16"),
        "float32_fortran": np.asfortranarray(rng.standard_normal((5, 3)).astype(np.float32)),
        "int64_fortran_3d": np.asfortranarray(np.arange(60, dtype=np.int64).reshape(3, 4, 5)),
        "float16": rng.standard_normal((2, 3, 4)).astype(np.float16),
        "bfloat16": rng.standard_normal(33).astype(ml_dtypes.bfloat16),
        "complex64": (rng.standard_normal(9) + 1j).astype(np.complex64),
        "bool": rng.random(17) > 0.5,
        "structured_packed": np.array([(1, 2.5, 3), (4, 5.5, 6)], dtype=[("a", "<i4"), ("b", "<f8"), ("c", "u1")]),
        "structured_aligned": np.zeros(3, dtype=np.dtype([("x", "u1"), ("y", "<f8"), ("z", "<i2")], align=True)),
        "structured_nested_be": np.array([((1, 2), 3.0)], dtype=[("p", [("i", ">i4"), ("j", ">i4")]), ("q", ">f4")]),
        "zero_d": np.array(3.25),
        "empty": np.zeros((0, 4), dtype=np.uint32),
    }
    arrays["structured_aligned"]["x"] = [1, 2, 3]
    arrays["structured_aligned"]["y"] = [0.5, 1.5, 2.5]
    manifest = []
    for name, a in arrays.items():
        np.save(os.path.join(out, name + ".npy"), a)
        manifest.append({"file": name + ".npy", "shape": list(a.shape), "itemsize": a.dtype.itemsize,
                         "sha256": hashlib.sha256(le_bytes(a)).hexdigest(), "bfloat16": name == "bfloat16"})
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f)
    print(f"wrote {len(manifest)} files with NumPy {np.__version__}")
    return 0


def check(folder):
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    bad = 0
    for entry in manifest:
        a = np.load(os.path.join(folder, entry["file"]))
        got = {"shape": list(a.shape), "descr": str(a.dtype.descr if a.dtype.names else a.dtype.str),
               "sha256": hashlib.sha256(le_bytes(a)).hexdigest()}
        ok = got["shape"] == entry["shape"] and got["sha256"] == entry["sha256"] and got["descr"] == entry["descr"]
        bad += not ok
        print(("PASS" if ok else "FAIL"), entry["file"], got if not ok else "")
    print(f"{len(manifest) - bad}/{len(manifest)} files written by cupp read back by NumPy {np.__version__}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(write(sys.argv[2]) if sys.argv[1] == "write" else check(sys.argv[2]))
