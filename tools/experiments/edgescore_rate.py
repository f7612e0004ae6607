"""Node rate of the compiled scoring search on Eternity II, this build against another, in turn.

The search runs as ``--maximize-matches`` runs it (the default tuning, its priority colours and
schedule) at the cap of a board of ``--score`` joins, for a fixed number of nodes, in a child
process per measurement so the CPU time is the search's own.  Two builds meet exactly the same
nodes (the candidate order is the layout's), so the ratio of their rates is the speed-up.  The
other build is a checkout with its extensions built in place, such as one made by
``git worktree add ../old REV && cd ../old && python setup.py build_ext --inplace``.

    python tools/experiments/edgescore_rate.py --against ../old
    python tools/experiments/edgescore_rate.py --against ../old --score 450 458 463 --seeds 1-3

Measured 2026-11-25, four levels of run copies each made from the one above it (``_edgescore.c``)
against the two levels at 1/2 and 3/4 made from the full runs, 2e8 nodes, load average 2-3, the
two builds in turn: cap of a 463 board, seeds 1 and 2, 54.6 and 53.0 M nodes per CPU second
against 49.0 and 46.5; of a 461 board (seed 3), 49.1 against 42.0; 458: 57.5 against 52.6; 450:
66.7 against 62.2.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def rate(nodes: int, seed: int, score: int) -> dict:
    """One measurement in this process: nodes per CPU second at the cap of a ``score`` board."""
    from satiling import catalog
    from satiling.apps import maximize
    from satiling.engines import edgescore
    e2 = catalog.load("eternity2")
    tuning = maximize.default_tuning(e2)
    n, joins = e2.rows * e2.cols, len(e2.joins())
    lay = edgescore.layout(e2, seed=seed, order=tuning.order, priority=tuning.priority,
                           double=tuning.double, rim_breaks=tuning.rim_breaks)
    cap = joins - score
    start = time.process_time()
    out = edgescore.search(lay, tuning.held(n, cap), cap, lambda *board: False, node_limit=nodes,
                           need=tuning.need(e2))
    return {"nodes": out.nodes, "cpu": time.process_time() - start}


def measure(build: Path, nodes: int, seed: int, score: int) -> float:
    """M nodes per CPU second of ``build`` (a child process with that checkout first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(build))
    out = subprocess.run([sys.executable, __file__, "--child", str(nodes), str(seed), str(score)],
                         env=env, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return r["nodes"] / r["cpu"] / 1e6


def seeds_of(text: str) -> list[int]:
    lo, _, hi = text.partition("-")
    return list(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        nodes, seed, score = map(int, sys.argv[2:5])
        print(json.dumps(rate(nodes, seed, score)))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout, extensions built in place")
    ap.add_argument("--nodes", type=float, default=2e8)
    ap.add_argument("--score", type=int, nargs="+", default=[463], help="the cap's board (default 463)")
    ap.add_argument("--seeds", default="1-2", help="layout seeds, e.g. 1-3 (default 1-2)")
    args = ap.parse_args()
    builds = [("this", ROOT)] + ([("other", args.against.resolve())] if args.against else [])
    print(f"{'score':>5} {'seed':>4} " + " ".join(f"{name:>8}" for name, _ in builds)
          + ("    ratio" if args.against else ""))
    for score in args.score:
        for seed in seeds_of(args.seeds):
            rates = [measure(path, int(args.nodes), seed, score) for _, path in builds]
            line = f"{score:>5} {seed:>4} " + " ".join(f"{r:>8.1f}" for r in rates)
            print(line + (f"    {rates[0] / rates[1]:.3f}" if args.against else ""), flush=True)


if __name__ == "__main__":
    main()
