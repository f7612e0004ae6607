"""Experiment: the scoring search's settings on Eternity II, one setting and seed per run.

Runs the restarts of ``--maximize-matches backtrack`` (one search process, CPU seconds) with a
chosen fill order, schedule (first break at depth START, the whole cap at depth FULL), restart
patience, tileability cut and priority colours, and prints one JSON line: the final score, the last
improvements (score, CPU s), nodes and node rate.  The measurements behind
``satiling.apps.maximize.KNOWN_TUNING`` were made with it, 30 CPU-s per run, seeds 1-6:

    python tools/experiments/e2_schedule.py 30 1 rows 0 205 255 3.3e7 bw
    #   SECONDS SEED ORDER TILE START FULL PATIENCE [bw: Blackwood's priority colours]
"""
from __future__ import annotations

import itertools
import json
import sys
import time


def main() -> None:
    from satiling import catalog
    from satiling.engines import edgescore
    e2 = catalog.load("eternity2")
    secs, seed, order = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    tile, start, full, patience = sys.argv[4] == "1", float(sys.argv[5]), float(sys.argv[6]), int(float(sys.argv[7]))
    prio = len(sys.argv) > 8 and sys.argv[8] == "bw"
    need = edgescore.blackwood_need(256) if prio else None
    best, nodes, trace = 481, 0, []
    t0 = time.process_time()
    for k in itertools.count():
        left = secs - (time.process_time() - t0)
        if left <= 0:
            break
        lay = edgescore.layout(e2, seed=seed * 1000 + k, order=order, priority=(5, 7, 20) if prio else ())
        cap = best - 1
        held = edgescore.reserve(256, cap, start / 256, full / 256)

        def found(breaks: int, _nodes: int, _raw: list) -> bool:
            nonlocal best
            best = breaks
            trace.append((480 - breaks, round(time.process_time() - t0, 1)))
            return False

        out = edgescore.search(lay, held, cap, found, seconds=left, cpu=True, patience=patience,
                               tile=tile, need=need)
        nodes += out.nodes
    print(json.dumps({"score": 480 - best, "trace": trace[-4:], "nodes": nodes,
                      "rate": nodes / secs / 1e6, "args": sys.argv[1:]}))


if __name__ == "__main__":
    main()
