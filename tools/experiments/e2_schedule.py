"""Experiment: the scoring search's settings on Eternity II, one setting and seed per run.

Runs the restarts of ``--maximize-matches backtrack`` (one search process, CPU seconds) with the
chosen settings and prints one JSON line: the final score, the last improvements (score, CPU s),
the node rate and the restarts; with ``hist=1`` also the nodes placed per row of the board and at
each depth from 186 on (where the search spends its nodes).  Settings, as ``key=value``:

    secs=30 seed=1          CPU seconds, seed (the layouts use seed * 1000 + restart)
    order=rows              fill order (rows or comb)
    start=205 full=255      the schedule: first break and whole cap at these depths
    slips=201,206,...       or: one more break unlocked at each of these depths
    pat=3.3e7               restart after that many nodes without a better board
    double=0 rim=1          a square may break both joins; a frame join may break
    prio=1 ns=1.0           Blackwood's priority colours; his curve of sides needed, scaled
    po=count                candidates with most priority sides first (any: any such side first)
    tile=0                  the tileability cut
    sd=0 sl=0               each subtree below depth sd gets at most sl nodes (0: no limit)

The Eternity II measurements behind ``satiling.apps.maximize.DEFAULT`` were made with it,
30 CPU-s per run, seeds 1-6, e.g.

    python tools/experiments/e2_schedule.py secs=30 seed=1 double=0 hist=1
"""
from __future__ import annotations

import array
import itertools
import json
import sys
import time


def main() -> None:
    from satiling import catalog
    from satiling.engines import edgescore
    o = dict(secs=30.0, seed=1, order="rows", start=205.0, full=255.0, slips="", pat=3.3e7, double=1,
             rim=1, prio=1, ns=1.0, po="count", tile=0, sd=0, sl=0.0, hist=0)
    for arg in sys.argv[1:]:
        key, value = arg.split("=", 1)
        if key not in o:
            raise SystemExit(f"unknown setting {key!r} (choose from {', '.join(o)})")
        o[key] = value if isinstance(o[key], str) else type(o[key])(float(value))
    e2 = catalog.load("eternity2")
    n = 256
    need = [int(x * o["ns"]) for x in edgescore.blackwood_need(n)] if o["prio"] else None
    slips = [int(x) for x in o["slips"].split(",")] if o["slips"] else None
    hist = array.array("q", [0] * (n + 1))
    best, nodes, trace, restarts = 481, 0, [], 0
    t0 = time.process_time()
    for k in itertools.count():
        left = o["secs"] - (time.process_time() - t0)
        if left <= 0:
            break
        lay = edgescore.layout(e2, seed=o["seed"] * 1000 + k, order=o["order"],
                               priority=(5, 7, 20) if o["prio"] else (), double=bool(o["double"]),
                               rim_breaks=bool(o["rim"]), prio_order=o["po"])
        cap = best - 1
        held = (edgescore.slips(n, cap, slips) if slips else
                edgescore.reserve(n, cap, o["start"] / n, o["full"] / n))

        def found(breaks: int, _nodes: int, _raw: list) -> bool:
            nonlocal best
            best = breaks
            trace.append((480 - breaks, round(time.process_time() - t0, 1)))
            return False

        out = edgescore.search(lay, held, cap, found, seconds=left, cpu=True, patience=int(o["pat"]),
                               tile=bool(o["tile"]), need=need, hist=hist, sub_depth=int(o["sd"]),
                               sub_limit=int(o["sl"]))
        nodes += out.nodes
        restarts += 1
    print(json.dumps({"score": 480 - best, "trace": trace[-4:], "rate": round(nodes / o["secs"] / 1e6, 1),
                      "restarts": restarts, "settings": o}))
    if o["hist"]:
        print("rows", " ".join(f"{r}:{sum(hist[16 * r + 1:16 * r + 17]) / 1e6:.0f}M" for r in range(16)))
        print("deep", " ".join(f"{d}:{hist[d]}" for d in range(186, n + 1)))


if __name__ == "__main__":
    main()
