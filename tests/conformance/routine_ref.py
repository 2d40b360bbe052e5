"""What the routine families' reference generators (make_creation_ref.py, make_manipulation_ref.py,
make_indexing_ref.py) share: running each case with NumPy and writing its outputs as .npy files
(<dir>/<case>/out<k>.npy) plus manifest.json ({"numpy", "numpy2", "cases": {case: {"outputs":
[{"file", "dtype", "shape"}], "numpy2_only"}}}), which the GPU tests read."""
import json
import os
import sys

import numpy as np

NUMPY2 = int(np.__version__.split(".")[0]) >= 2


def write_reference_set(out_dir, cases, numpy2_only=()):
    """Runs every case (a callable, or a tuple whose first item is one) and writes the set."""
    os.makedirs(out_dir, exist_ok=True)
    manifest = {"numpy": np.__version__, "numpy2": NUMPY2, "cases": {}}
    with np.errstate(all="ignore"):
        for case, make in cases.items():
            if isinstance(make, tuple):
                make = make[0]
            result = make()
            outputs = list(result) if isinstance(result, (tuple, list)) else [result]
            os.makedirs(os.path.join(out_dir, case), exist_ok=True)
            entries = []
            for k, r in enumerate(outputs):
                r = np.asarray(r)
                name = f"{case}/out{k}.npy"
                # (np.ascontiguousarray makes a 0-d array 1-d: save those as they are.)
                np.save(os.path.join(out_dir, name), r if r.ndim == 0 else np.ascontiguousarray(r))
                entries.append({"file": name, "dtype": r.dtype.name, "shape": list(r.shape)})
            manifest["cases"][case] = {"outputs": entries, "numpy2_only": case in numpy2_only}
    tmp = os.path.join(out_dir, "manifest.json.tmp")
    with open(tmp, "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
    os.replace(tmp, os.path.join(out_dir, "manifest.json"))


def main(cases, numpy2_only, doc):
    """The generators' command line: one argument, the output folder."""
    if len(sys.argv) != 2:
        print(doc, file=sys.stderr)
        return 2
    write_reference_set(sys.argv[1], cases, numpy2_only)
    return 0
