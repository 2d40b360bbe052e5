#!/usr/bin/env python3
"""NumPy's numpy.random.SeedSequence outputs for tests/unit/random/test_seed_sequence.cpp, written
to seed_sequence_numpy.txt beside this script (committed; rerun with any NumPy >= 1.17 to remake
it: the algorithm has not changed since). One case per line:
    <entropy words, comma-separated> | <spawn key, comma-separated> | <pool size> | <kind> <n> | <outputs>
where kind is u32 (generate_state(n)), u64 (generate_state(n, np.uint64)), pool (the pool) or
child<k> (generate_state(n) of the k-th child of spawn(k + 1)).

usage: make_seed_sequence_ref.py [OUT.txt]"""
import os
import sys

import numpy as np

CASES = [
    ([0], [], 4), ([1], [], 4), ([12345], [], 4), ([2**32 - 1], [], 4), ([2**32], [], 4), ([2**63 + 7], [], 4),
    ([2**64 - 1], [], 4), ([1, 2, 3, 4, 5, 6, 7], [], 4), ([1, 2**40, 0], [], 4), ([99], [3], 4), ([99], [3, 1], 4),
    ([5], [], 8), ([5, 6], [2**33], 6), ([7, 8, 9, 10, 11], [0], 4), ([123456789012345678], [], 5),
]


def line(entropy, key, pool, kind, n, out):
    return (f"{','.join(map(str, entropy))} | {','.join(map(str, key))} | {pool} | {kind} {n} | "
            f"{','.join(str(int(v)) for v in out)}")


def main(argv):
    out = argv[0] if argv else os.path.join(os.path.dirname(os.path.abspath(__file__)), "seed_sequence_numpy.txt")
    rows = [f"# numpy.random.SeedSequence, NumPy {np.__version__} ({os.path.basename(__file__)})"]
    for entropy, key, pool in CASES:
        seq = np.random.SeedSequence(entropy if len(entropy) > 1 else entropy[0], spawn_key=key, pool_size=pool)
        rows.append(line(entropy, key, pool, "pool", pool, seq.pool))
        for n in (1, 4, 9):
            rows.append(line(entropy, key, pool, "u32", n, seq.generate_state(n)))
        rows.append(line(entropy, key, pool, "u64", 3, seq.generate_state(3, np.uint64)))
        kids = seq.spawn(3)
        for k in (0, 2):
            rows.append(line(entropy, key, pool, f"child{k}", 5, kids[k].generate_state(5)))
    with open(out, "w") as f:
        f.write("\n".join(rows) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
