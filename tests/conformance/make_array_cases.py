"""Generates NumPy reference cases for cupp's array views (run where NumPy 2 is installed, i.e. on
the GPU machine; the output is committed compressed as tests/conformance/numpy-array-cases.json.gz).

Cases, all on int64 arrays (itemsize 8) made with numpy.arange:
  index:     a source (shape, and a view step: plain / transposed / sliced with a negative step),
             a basic index (ints, slices, newaxis, ellipsis) -> result shape, byte strides, byte
             offset of the first element from the source's first element, and the values; or the
             exception class
  reshape:   source view + new shape -> result values, whether it is a view of the source
             (numpy.shares_memory), or the exception class
  broadcast: a list of shapes -> the broadcast shape, or the exception class
Usage: python3 make_array_cases.py OUT.json.gz [SEED]"""
import gzip
import json
import random
import sys

import numpy as np

rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 12345)


def make_source(shape, kind):
    a = np.arange(int(np.prod(shape)) or 0, dtype=np.int64).reshape(shape)
    if kind == "transposed":
        return a.T
    if kind == "reversed" and a.ndim > 0:
        return a[::-1]
    return a


def item_json(it):
    if it is None:
        return "newaxis"
    if it is Ellipsis:
        return "ellipsis"
    if isinstance(it, slice):
        return {"slice": [it.start, it.stop, it.step]}
    return {"int": it}


def random_index(ndim):
    items = []
    n = rng.randint(0, ndim + 2)
    used_ellipsis = False
    for _ in range(n):
        r = rng.random()
        if r < 0.35:
            items.append(rng.randint(-6, 6))
        elif r < 0.8:
            def bound():
                return None if rng.random() < 0.3 else rng.randint(-8, 8)
            step = None if rng.random() < 0.4 else rng.choice([-3, -2, -1, 1, 2, 3, 0] if rng.random() < 0.05 else [-3, -2, -1, 1, 2, 3])
            items.append(slice(bound(), bound(), step))
        elif r < 0.9:
            items.append(None)
        elif not used_ellipsis or rng.random() < 0.1:
            used_ellipsis = True
            items.append(Ellipsis)
    return items


def shapes():
    out = [(), (0,), (5,), (3, 4), (2, 3, 4), (4, 1, 3), (2, 0, 3), (1,), (6, 5)]
    for _ in range(12):
        nd = rng.randint(1, 4)
        out.append(tuple(rng.randint(0, 5) for _ in range(nd)))
    return out


def index_cases():
    cases = []
    for shape in shapes():
        for kind in ("plain", "transposed", "reversed"):
            src = make_source(shape, kind)
            for _ in range(25):
                idx = random_index(src.ndim)
                case = {"shape": list(shape), "source": kind, "index": [item_json(i) for i in idx]}
                try:
                    r = src[tuple(idx)]
                    r = np.asarray(r)
                    case["result_shape"] = list(r.shape)
                    case["result_strides"] = list(r.strides)
                    base = src.__array_interface__["data"][0]
                    case["result_offset"] = (r.__array_interface__["data"][0] - base) if r.size else 0
                    case["values"] = r.ravel().tolist()
                except Exception as e:  # noqa: BLE001 - the class is the reference
                    case["error"] = type(e).__name__
                cases.append(case)
    return cases


def reshape_cases():
    cases = []
    for shape in shapes():
        size = int(np.prod(shape))
        for kind in ("plain", "transposed", "reversed"):
            src = make_source(shape, kind)
            targets = [(size,), (-1,), (1, size), (size, 1)]
            divisors = [d for d in range(1, size + 1) if size and size % d == 0]
            for d in divisors[:4]:
                targets += [(d, size // d), (d, -1), (-1, d)]
            targets += [(size + 1,), (-1, -1), (0, -1)]
            for t in targets:
                case = {"shape": list(shape), "source": kind, "new_shape": list(t)}
                try:
                    r = src.reshape(t)
                    case["result_shape"] = list(r.shape)
                    case["is_view"] = bool(np.shares_memory(r, src)) if r.size else True
                    case["values"] = r.ravel().tolist()
                except Exception as e:  # noqa: BLE001
                    case["error"] = type(e).__name__
                cases.append(case)
    return cases


def broadcast_cases():
    cases = []
    pool = [(), (1,), (3,), (4,), (2, 1), (1, 3), (2, 3), (3, 3), (0,), (2, 0), (5, 1, 3), (1, 4, 1), (4, 3)]
    for _ in range(150):
        k = rng.randint(1, 3)
        shs = [rng.choice(pool) for _ in range(k)]
        case = {"shapes": [list(s) for s in shs]}
        try:
            case["result_shape"] = list(np.broadcast_shapes(*shs))
        except Exception as e:  # noqa: BLE001
            case["error"] = type(e).__name__
        cases.append(case)
    return cases


data = {"numpy": np.__version__, "index": index_cases(), "reshape": reshape_cases(), "broadcast": broadcast_cases()}
with gzip.open(sys.argv[1], "wt") as f:
    json.dump(data, f)
print(f"{len(data['index'])} index, {len(data['reshape'])} reshape, {len(data['broadcast'])} broadcast cases "
      f"from NumPy {np.__version__}")
