"""What the live picture of a search costs: a count with a watcher of its partial board
(``Events.partial``) against the same count without one, in turn, in one process.

    python tools/bench/partial.py [--puzzle NAME] [--task count|maximise] [--repeat N] [--seconds S]

count (default pentomino-8x8-square): the whole count, CPU seconds of this process (the count
runs here, in the compiled exact-cover search, or the edge-matching backtracker for an
edge-matching puzzle), median of N runs each way, alternating, so that the machine's load falls on
both alike; the ratio with / without is the figure.  The snapshots each watched run received are
counted too (the run maps each to the puzzle's placements, as a client gets them).

maximise (an edge-matching puzzle, default eternity2): the scoring search, one process, ``S``
CPU seconds a run (its restarts included), seeds 0 .. N-1, each seed with and without; the figure
is the ratio of the nodes searched per CPU second, with / without (the boards it meets depend on
the time it gets, the rate at which it searches does not).
"""
from __future__ import annotations

import argparse
import statistics
import time
from typing import Callable

import satiling
from satiling.run.request import Request
from satiling.run.tasks import Events, count


def alternating(repeat: int, run: Callable[[int, bool], tuple[float, int]],
                ) -> tuple[dict[bool, list[float]], list[int]]:
    """``run(k, watch)`` ``repeat`` times each way, in turn (which goes first alternates), so the
    machine's load falls on both alike: the figures of each way, and the watched runs' snapshots."""
    runs: dict[bool, list[float]] = {False: [], True: []}
    shots = []
    for k in range(repeat):
        for watch in ((False, True) if k % 2 == 0 else (True, False)):
            figure, seen = run(k, watch)
            runs[watch].append(figure)
            if watch:
                shots.append(seen)
    return runs, shots


def one_count(puzzle, watch: bool) -> tuple[float, int, int]:
    """(CPU seconds, the count, snapshots received) of one count."""
    seen = [0]

    def show(placements: list) -> None:
        seen[0] += 1
    start = time.process_time()
    answer = count(Request(puzzle, "count"), Events(partial=show if watch else None))
    return time.process_time() - start, answer.total, seen[0]


def counts(name: str, repeat: int) -> None:
    puzzle = satiling.load(name)
    one_count(puzzle, False)                          # warm: imports, the first model
    totals = set()

    def run(k: int, watch: bool) -> tuple[float, int]:
        cpu, total, seen = one_count(puzzle, watch)
        totals.add(total)
        return cpu, seen
    runs, shots = alternating(repeat, run)
    plain, watched = statistics.median(runs[False]), statistics.median(runs[True])
    print(f"count {name}: {totals} solutions, {repeat} runs each way, alternating")
    for label, times in (("without a watcher", runs[False]), ("with a watcher:  ", runs[True])):
        print(f"  {label}: median {statistics.median(times):.3f}, least {min(times):.3f} CPU s"
              f"  ({', '.join(f'{t:.2f}' for t in times)})")
    print(f"  snapshots per watched run: {shots} ({statistics.median(shots) / watched:.1f} per CPU s)")
    print(f"  ratio with / without: {watched / plain:.4f} (medians), "
          f"{min(runs[True]) / min(runs[False]):.4f} (least times)")


def one_max(puzzle, seconds: float, watch: bool, seed: int) -> tuple[float, int]:
    """(nodes per CPU second, snapshots) of one scoring search of ``seconds`` CPU seconds."""
    from satiling.apps.maximize import _backtrack_one, default_tuning
    from satiling.engines import edgescore
    nodes, seen = [0], [0]
    search = edgescore.search

    def counted(*args, **kw):                         # the nodes of every restart, summed
        out = search(*args, **kw)
        nodes[0] += out.nodes
        return out

    def show(placements: list) -> None:
        seen[0] += 1
    edgescore.search = counted
    try:
        start = time.process_time()
        _backtrack_one(puzzle, seconds, lambda imp: None, False, time.monotonic(), seed, True,
                       default_tuning(puzzle), partial=show if watch else None)
        cpu = time.process_time() - start
    finally:
        edgescore.search = search
    return nodes[0] / cpu, seen[0]


def maxes(name: str, repeat: int, seconds: float) -> None:
    puzzle = satiling.load(name)
    runs, shots = alternating(repeat, lambda k, watch: one_max(puzzle, seconds, watch, seed=k))
    plain, watched = statistics.median(runs[False]), statistics.median(runs[True])
    print(f"maximise {name}: the scoring search, one process, {seconds:g} CPU s a run, {repeat} runs each way")
    for label, rates in (("without a watcher", runs[False]), ("with a watcher:  ", runs[True])):
        print(f"  {label}: median {statistics.median(rates) / 1e6:.2f}, best {max(rates) / 1e6:.2f} "
              f"M nodes per CPU s  ({', '.join(f'{r / 1e6:.1f}' for r in rates)})")
    print(f"  snapshots per watched run: {shots}")
    print(f"  ratio of node rates with / without: {watched / plain:.4f} (medians), "
          f"{max(runs[True]) / max(runs[False]):.4f} (best)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--task", choices=("count", "maximise"), default="count")
    ap.add_argument("--puzzle", help="default: pentomino-8x8-square (count), eternity2 (maximise)")
    ap.add_argument("--repeat", type=int, default=5, help="runs each way (default 5)")
    ap.add_argument("--seconds", type=float, default=10.0, help="CPU seconds of a maximise run")
    args = ap.parse_args()
    if args.task == "count":
        counts(args.puzzle or "pentomino-8x8-square", args.repeat)
    else:
        maxes(args.puzzle or "eternity2", args.repeat, args.seconds)


if __name__ == "__main__":
    main()
