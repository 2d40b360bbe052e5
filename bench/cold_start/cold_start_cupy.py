#!/usr/bin/env python3
"""CuPy running bench/cold_start/cold_start.cpp's script, call for call (GPU machine only). Prints
the milliseconds from the CUDA context to the last result, after timing one first call alone (log1p);
run with an empty CUPY_CACHE_DIR (cold)
and again (warm), as bench/cold_start/run.sh does."""
import time

import cupy as cp

cp.cuda.runtime.free(0)
probe = cp.empty(65536, dtype=cp.float32)
cp.cuda.runtime.deviceSynchronize()
probe_start = time.perf_counter()
probed = cp.log1p(probe)
cp.cuda.runtime.deviceSynchronize()
first_call_ms = (time.perf_counter() - probe_start) * 1e3
start = time.perf_counter()
t = cp.sin(cp.arange(0.0, 512000.0, 1.0, dtype=cp.float32)).reshape(1000, 512)
z = (t - t.mean(axis=0)) / t.std(axis=0)
e = cp.exp(z - z.max(axis=1, keepdims=True))
soft = e / e.sum(axis=1, keepdims=True)
pts, centres = t[:200, :3], t[500:520, :3]
d = cp.square(pts.reshape(200, 1, 3) - centres.reshape(1, 20, 3)).sum(axis=-1)
nearest = d.argmin(axis=1)
counts = cp.bincount(nearest, minlength=20)
image = (cp.arange(65536) % 256).astype(cp.uint8).reshape(256, 256)
gray = (image.astype(cp.float32) * cp.float32(0.5)).sum(axis=1)
hist, edges = cp.histogram(t, 32)
clipped = cp.clip(t, -0.5, 0.5)
rows = cp.sort(t, axis=-1)
q = cp.quantile(t, 0.9, axis=1)
c = cp.cumsum(t, axis=1)
values, ucounts = cp.unique(image, return_counts=True)
order = cp.argsort(soft[:, 0])
gathered = cp.take(t, order, axis=0)
w = cp.where(t > 0.0, t, 0.0)
picked = t[t < -0.9]
cp.cuda.runtime.deviceSynchronize()
print(f"cold_start_ms {(time.perf_counter() - start) * 1e3:.1f} first_call_ms {first_call_ms:.2f} checks {counts.size} {values.size} {picked.size}")
