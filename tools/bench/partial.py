"""What the live picture of a search costs: a count with a watcher of its partial board
(``Events.partial``) against the same count without one, in turn, in one process.

    python tools/bench/partial.py [--puzzle NAME] [--repeat N]

The whole count (default pentomino-8x8-square), CPU seconds of this process (the count runs here,
in the compiled exact-cover search), median of N runs each way, alternating, so that the machine's
load falls on both alike; the ratio with / without is the figure.  The snapshots each watched run
received are counted too (the run maps each to the puzzle's placements, as a client gets them).
"""
from __future__ import annotations

import argparse
import statistics
import time

import satiling
from satiling.run.request import Request
from satiling.run.tasks import Events, count


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
    runs: dict[bool, list[float]] = {False: [], True: []}
    shots, totals = [], set()
    for k in range(repeat):
        for watch in ((False, True) if k % 2 == 0 else (True, False)):
            cpu, total, seen = one_count(puzzle, watch)
            runs[watch].append(cpu)
            totals.add(total)
            if watch:
                shots.append(seen)
    plain, watched = statistics.median(runs[False]), statistics.median(runs[True])
    print(f"count {name}: {totals} solutions, {repeat} runs each way, alternating")
    print(f"  without a watcher: median {plain:.3f} CPU s  ({', '.join(f'{t:.2f}' for t in runs[False])})")
    print(f"  with a watcher:    median {watched:.3f} CPU s  ({', '.join(f'{t:.2f}' for t in runs[True])})")
    print(f"  snapshots per watched run: {shots} ({statistics.median(shots) / watched:.1f} per CPU s)")
    print(f"  ratio with / without: {watched / plain:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzle", default="pentomino-8x8-square", help="the puzzle counted")
    ap.add_argument("--repeat", type=int, default=5, help="runs each way (default 5)")
    args = ap.parse_args()
    counts(args.puzzle, args.repeat)


if __name__ == "__main__":
    main()
