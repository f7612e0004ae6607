"""Node rate of the compiled exact edge-matching search, this build against another, in turn.

The search runs on Brendan Owen's 8x8 board (``tests/data/owen``) in row scan below the first
corner piece, as ``solve`` runs it, for a fixed number of nodes, in a child process per
measurement so the CPU time is the search's own.  Two builds meet exactly the same nodes, so the
ratio of their rates is the speed-up.  The other build is a checkout with its extensions built in
place, such as one made by
``git worktree add ../old REV && cd ../old && python setup.py build_ext --inplace``.

    python tools/experiments/edgematch_rate.py --against ../old
    python tools/experiments/edgematch_rate.py --against ../old --values table tight --rounds 3

Measured 2026-11-26, a key's free types walked as a bit set (``_edgematch.c``) against the scan of
the key's range (the build of 21a555d), 3e8 nodes, the builds in turn, three rounds, M nodes per
CPU second: table order 51.7 / 50.6 / 51.4 against 43.4 / 42.5 / 43.7 (ratio 1.18-1.19); tight
order 41.6 / 40.7 / 39.6 against 40.1 / 38.1 / 38.7 (1.03-1.07).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWEN8 = ROOT / "tests" / "data" / "owen" / "owen8.toml"


def rate(nodes: int, values: str) -> dict:
    """One measurement in this process: nodes and CPU seconds below the first corner piece."""
    from satiling import catalog
    from satiling.engines.edgematch import Engine, corner_starter
    from satiling.search.edgeboards import edge_boards
    (board,) = edge_boards(catalog.load(str(OWEN8)), False, distinct=False)
    eng = Engine(replace(board, order="rows", values=values))
    start = time.process_time()
    eng.solutions(corner_starter(eng), limit=1, max_nodes=nodes)
    return {"nodes": eng.nodes, "cpu": time.process_time() - start}


def measure(build: Path, nodes: int, values: str) -> float:
    """M nodes per CPU second of ``build`` (a child process with that checkout first on the path)."""
    env = dict(os.environ, PYTHONPATH=str(build))
    out = subprocess.run([sys.executable, __file__, "--child", str(nodes), values],
                         env=env, capture_output=True, text=True, check=True)
    r = json.loads(out.stdout)
    return r["nodes"] / r["cpu"] / 1e6


def main() -> None:
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(rate(int(sys.argv[2]), sys.argv[3])))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", type=Path, help="another checkout, extensions built in place")
    ap.add_argument("--nodes", type=float, default=3e8)
    ap.add_argument("--values", nargs="+", default=["table", "tight"], choices=["table", "tight"])
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    builds = [("this", ROOT)] + ([("other", args.against.resolve())] if args.against else [])
    print(f"{'values':>6} {'round':>5} " + " ".join(f"{name:>8}" for name, _ in builds)
          + ("    ratio" if args.against else ""))
    for values in args.values:
        for k in range(1, args.rounds + 1):
            rates = [measure(path, int(args.nodes), values) for _, path in builds]
            line = f"{values:>6} {k:>5} " + " ".join(f"{r:>8.1f}" for r in rates)
            print(line + (f"    {rates[0] / rates[1]:.3f}" if args.against else ""), flush=True)


if __name__ == "__main__":
    main()
