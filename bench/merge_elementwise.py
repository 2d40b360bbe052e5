"""Merges the JSON lines of the element-wise benchmark's sides into one comparison table.

usage: merge_elementwise.py CASES_JSON LINES_FILE... (one file per side, or all in one)

Each side (bench_elementwise.cpp: "cupp", elementwise_cupy.py: "cupy", elementwise_torch.py:
"torch") prints one JSON object per line with
  side, case, metric   metric: "info" (device, versions; "skipped" when the side cannot run),
                       "floor" (a copy floor), "launch" (empty kernel launch, host time),
                       "bandwidth" or "host" (a case of the table)
  ms, min_ms           bandwidth and floor: median and minimum CUDA-event time per call
  bytes, gbps          bytes that must move, and bytes / median time
  us_per_call          host and launch: median host time per call, microseconds
  check                "ok", or what is wrong with the sampled result
  note, error          free text; error replaces the figures when the case could not run
The bandwidth fraction of every side is taken against the best copy floor of cupp's run (the
device-to-device cudaMemcpyAsync or the float4 copy kernel, same process, same machine);
host times against cupp's empty-kernel launch through its own RawKernel path. Pass: cupp's
figure meets the case's target and its check is ok. A fraction above 105 % of the floor is
marked as suspect (the count or the timing is wrong). Exit status 1 when any cupp case fails."""
import json
import sys

SIDES = ("cupp", "cupy", "torch")


def read_lines(paths):
    records = []
    for path in paths:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        records.append(json.loads(line))
                    except json.JSONDecodeError:
                        print(f"merge: not JSON in {path}: {line[:120]}", file=sys.stderr)
    return records


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    with open(argv[1]) as f:
        cases = json.load(f)["cases"]
    by = {}
    for r in read_lines(argv[2:]):
        by[(r.get("side"), r.get("case"))] = r

    def get(side, case):
        return by.get((side, case), {})

    floor_gbps, floor_from = 0.0, "-"
    for side in SIDES:  # cupp's floors first; another side's only when cupp has none
        for name in ("floor_memcpy_d2d", "floor_copy_kernel"):
            g = get(side, name).get("gbps") or 0.0
            if g > floor_gbps:
                floor_gbps, floor_from = g, f"{side} {name}"
        if floor_gbps:
            break
    launch_us = get("cupp", "launch_empty").get("us_per_call")

    print("element-wise benchmark: median per call; bandwidth cases as % of the copy floor,")
    print("host cases as a multiple of an empty-kernel launch through cupp's RawKernel path;")
    print("vs best: cupp's time / the best peer's time (below 1: cupp is faster)")
    for side in SIDES:
        info = get(side, "device")
        if info.get("skipped"):
            print(f"  {side}: skipped ({info['skipped']})")
        elif info:
            extra = f" {info['version']}" if info.get("version") else ""
            print(f"  {side}{extra}: {info.get('name', '?')}, {info.get('reps', '?')} reps")
        else:
            print(f"  {side}: no output")
    for side in SIDES:
        for name in ("floor_memcpy_d2d", "floor_copy_kernel"):
            r = get(side, name)
            if r.get("gbps"):
                print(f"  floor {side:5} {name:18} {r['ms']:8.3f} ms  {r['gbps']:8.1f} GB/s")
        r = get(side, "launch_empty")
        if r.get("us_per_call"):
            print(f"  launch {side:5} {'empty kernel':17} {r['us_per_call']:8.2f} us per call ({r.get('note', '')})")
    print(f"  best floor: {floor_gbps:.1f} GB/s ({floor_from})")
    print()

    head = ("case", "cupp", "CuPy", "torch", "cupp%", "CuPy%", "torch%", "vs best", "target", "result")
    fmt = "{:<28} {:>10} {:>10} {:>10} {:>7} {:>7} {:>7} {:>8} {:>7}  {}"
    print(fmt.format(*head))
    print("-" * 112)
    failed, run, notes = 0, 0, []
    for case in cases:
        name, metric, target = case["name"], case["metric"], case["target"]
        rs = {side: get(side, name) for side in SIDES}
        if not any(rs.values()):  # no side ran it (--only)
            continue
        run += 1
        times, rel = {}, {}
        for side, r in rs.items():
            if metric == "host" and r.get("us_per_call"):
                times[side] = r["us_per_call"]
                rel[side] = r["us_per_call"] / launch_us if launch_us else None
            elif metric == "bandwidth" and r.get("ms"):
                times[side] = r["ms"]
                rel[side] = r["gbps"] / floor_gbps if floor_gbps else None

        def cell_time(side):
            r = rs[side]
            if r.get("error"):
                return "error"
            if side not in times:
                return "-"
            t = times[side]
            return f"{t:.2f}us" if metric == "host" else f"{t:.3f}ms"

        def cell_rel(side):
            v = rel.get(side)
            if v is None:
                return "-"
            return f"{v:.2f}x" if metric == "host" else f"{100 * v:.0f}%"

        peers = [times[s] for s in ("cupy", "torch") if s in times]
        vs_best = f"{times['cupp'] / min(peers):.2f}x" if "cupp" in times and peers else "-"
        cupp = rs["cupp"]
        problems = []
        if cupp.get("error"):
            problems.append("error: " + cupp["error"])
        elif "cupp" not in times:
            problems.append("no result")
        else:
            v = rel.get("cupp")
            if v is None:
                problems.append("no floor")
            elif metric == "host" and v > target:
                problems.append("slow")
            elif metric == "bandwidth" and v < target:
                problems.append("slow")
            if metric == "bandwidth" and v is not None and v > 1.05:
                problems.append("SUSPECT >105% of floor")
            if cupp.get("check") != "ok":
                problems.append("check: " + str(cupp.get("check")))
        for side in ("cupy", "torch"):
            r = rs[side]
            if r.get("error"):
                notes.append(f"{name}: {side} error: {r['error']}")
            elif r.get("check") not in (None, "ok"):
                notes.append(f"{name}: {side} check: {r['check']}")
            if r.get("note") and r.get("note") != case.get("note"):
                notes.append(f"{name}: {side}: {r['note']}")
        if case.get("note"):
            notes.append(f"{name}: {case['note']}")
        result = "pass" if not problems else "FAIL (" + "; ".join(problems) + ")"
        failed += bool(problems)
        tgt = f"<={target:g}x" if metric == "host" else f">={100 * target:.0f}%"
        print(fmt.format(name, cell_time("cupp"), cell_time("cupy"), cell_time("torch"), cell_rel("cupp"),
                         cell_rel("cupy"), cell_rel("torch"), vs_best, tgt, result))
    print("-" * 112)
    print(f"{run - failed} of {run} cases pass" + (f" ({len(cases) - run} of the table not run)" if run < len(cases) else ""))
    if notes:
        print("notes:")
        for n in notes:
            print("  " + n)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
