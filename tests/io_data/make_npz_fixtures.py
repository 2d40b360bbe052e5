#!/usr/bin/env python3
"""Writes the .npz fixtures of tests/unit/test_npy_npz.cpp the way numpy.savez does: Python's
zipfile, one member "<name>.npy" per array opened with force_zip64=True, stored or deflated.
The .npy bytes are written out by hand (numpy.lib.format 1.0 headers), so NumPy is not needed.
Run from this folder: python3 make_npz_fixtures.py"""
import struct
import zipfile


def npy(descr, shape, data, fortran=False):
    header = "{'descr': %s, 'fortran_order': %s, 'shape': %r, }" % (repr(descr), fortran, tuple(shape))
    if shape:
        header += " " * (21 - len(repr(shape[-1 if fortran else 0])))
    raw = header.encode("latin1")
    hlen = len(raw) + 1
    pad = 64 - (6 + 2 + 2 + hlen) % 64
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", hlen + pad) + raw + b" " * pad + b"\n" + data


ARRAYS = {
    "a": npy("<i8", (2, 3), struct.pack("<6q", 0, 1, 2, 3, 4, 5)),
    "b": npy("<f4", (2,), struct.pack("<2f", 1.5, -2.0)),
    "big": npy(">i4", (3,), struct.pack(">3i", 1, 2, 3)),
    "zeros": npy("<f8", (1000,), bytes(8000)),
}


def write(path, compression):
    with zipfile.ZipFile(path, mode="w", compression=compression) as z:
        for name, data in ARRAYS.items():
            with z.open(name + ".npy", "w", force_zip64=True) as f:
                f.write(data)


write("numpy_style_stored.npz", zipfile.ZIP_STORED)
write("numpy_style_deflated.npz", zipfile.ZIP_DEFLATED)
