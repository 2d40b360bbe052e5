#!/usr/bin/env python3
"""Writes the hand-made seed files of the .npy/.npz fuzzer (the rest of its corpus comes from
the NumPy conformance data at build time): headers as numpy.lib.format writes them, for the
cases the conformance data lacks — big-endian, Fortran order, structured, format 2.0 and 3.0.
Run from this folder: python3 make_seeds.py"""
import struct


def npy(descr, shape, data, fortran=False, version=1):
    header = "{'descr': %s, 'fortran_order': %s, 'shape': %r, }" % (repr(descr) if isinstance(descr, str) else descr, fortran, tuple(shape))
    if shape:
        header += " " * (21 - len(repr(shape[-1 if fortran else 0])))
    raw = header.encode("utf8" if version == 3 else "latin1")
    fmt = "<H" if version == 1 else "<I"
    hlen = len(raw) + 1
    pad = 64 - (6 + 2 + struct.calcsize(fmt) + hlen) % 64
    return b"\x93NUMPY" + bytes([version, 0]) + struct.pack(fmt, hlen + pad) + raw + b" " * pad + b"\n" + data


seeds = {
    "be_i8.npy": npy(">i8", (3,), struct.pack(">3q", 1, -2, 258)),
    "be_c8.npy": npy(">c8", (2,), struct.pack(">4f", 1, 2, 3, 4)),
    "fortran_f4.npy": npy("<f4", (2, 3), struct.pack("<6f", 0, 3, 1, 4, 2, 5), fortran=True),
    "struct_aligned.npy": npy("[('a', '|u1'), ('', '|V7'), ('b', '<f8')]", (2,), bytes(32)),
    "struct_be.npy": npy("[('x', '>i4'), ('y', '>f8')]", (1,), struct.pack(">id", 7, 2.5)),
    "v2.npy": npy("<u2", (2, 2), struct.pack("<4H", 1, 2, 3, 4), version=2),
    "v3.npy": npy("[('\u6570', '<i2')]", (), struct.pack("<h", 5), version=3),
    "bf16_v2.npy": npy("<V2", (4,), struct.pack("<4H", 0x3F80, 0xC000, 0x7F80, 0)),
    "zero_d.npy": npy("<c16", (), struct.pack("<2d", 1, -1)),
    "empty.npy": npy("|b1", (0, 5), b""),
}
for name, data in seeds.items():
    with open(name, "wb") as f:
        f.write(data)
