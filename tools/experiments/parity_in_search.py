"""Would the parity constraints pay *during* the exact-cover search, not only before it?

``--parity`` adds, per colouring of the lattice, the linear constraint sum(imbalance * x) == the
region's imbalance (:mod:`satiling.families.polyform.parity`).  Before a search it rules whole puzzles out
(tetromino-4x45 at once).  During a search it could cut a branch whose chosen placements plus the
most and least the pieces still to place can add no longer reach the region's value.  This counts
the nodes of the readable walk (:mod:`satiling.engines.exactcover_ref`) over every raw solution three ways:

* ``off``    -- no bound (what the engines do: the constraint is checked at the leaves);
* ``static`` -- each piece still to place adds between the least and the most imbalance of all its
  placements (a constant per piece: O(1) per node in compiled code);
* ``live``   -- the same over its placements still live at the node (the strongest such bound).

    python tools/experiments/parity_in_search.py [NAME ...]

Measured (nodes of the walk, every raw solution; the solutions are the same in all three):

| board | off | static | live |
| --- | --- | --- | --- |
| tetrahex-4x7 | 2302 | 2290 (-0.5 %) | 1963 (-15 %) |
| hexiamond-4x9 | 166645 | 159956 (-4.0 %) | 159849 (-4.1 %) |
| hexiamond-6x6 | 321120 | 291801 (-9.1 %) | 291757 (-9.1 %) |
| tetromino-4x10 | 77919 | 77919 (0 %) | 77919 (0 %) |
| pentomino-8x8-centre | 336183 | 336116 (-0.02 %) | 328142 (-2.4 %) |

So a bound during the search saves 0-9 % of the nodes where the root argument does not already
decide: less than the compiled engine's pocket cut, and the static bound (the only one cheap enough
per node) 4-9 % on triangle boards, nothing on square ones.  The engines therefore apply parity
before the search (``solve`` and ``count`` answer "no solution" at once when it rules a puzzle
out) and check the constraint at the leaves when asked for it; they do not bound with it inside.
"""
from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from satiling.catalog import load  # noqa: E402
from satiling.engines.exactcover_ref import Walk  # noqa: E402

MODES = ("off", "static", "live")
BOARDS = ("tetrahex-4x7", "hexiamond-4x9", "hexiamond-6x6", "tetromino-4x10", "pentomino-8x8-centre")


class ParityWalk(Walk):
    """The walk with a parity bound checked at every node (``mode`` static or live)."""

    def __init__(self, puzzle, problem, mode: str) -> None:
        super().__init__(problem)
        self.mode, self.linears = mode, list(problem.linears)
        self.piece_of = {v - 1: problem.meaning(v).piece for v in problem.primary_vars()}
        self.rows_of: dict[str, list[int]] = defaultdict(list)
        for i, p in self.piece_of.items():
            self.rows_of[p].append(i)
        self.coef = [defaultdict(int, {v - 1: a for a, v in lin.terms}) for lin in self.linears]
        self.count = {p.name: p.count for p in puzzle.pieces}

    def _reachable(self, k: int, alive: int, chosen: list[int]) -> tuple[int, int]:
        """The least and most constraint ``k`` can still sum to below this node."""
        coef, used = self.coef[k], defaultdict(int)
        for i in chosen:
            used[self.piece_of[i]] += 1
        lo = hi = sum(coef[i] for i in chosen)
        for p, rows in self.rows_of.items():
            need = self.count[p] - used[p]
            live = [coef[i] for i in rows if self.mode == "static" or alive >> i & 1]
            if need > 0 and live:
                lo, hi = lo + need * min(live), hi + need * max(live)
        return lo, hi

    def _fast(self, alive: int, open_groups: frozenset[int], chosen: list[int]) -> Iterator[frozenset[int]]:
        for k, lin in enumerate(self.linears):
            lo, hi = self._reachable(k, alive, chosen)
            if (lin.lo is not None and hi < lin.lo) or (lin.hi is not None and lo > lin.hi):
                self.nodes += 1
                return iter(())
        return super()._fast(alive, open_groups, chosen)


def main() -> None:
    print("| board | " + " | ".join(MODES) + " |\n| --- |" + " --- |" * len(MODES))
    for name in sys.argv[1:] or BOARDS:
        puzzle = load(name)
        cells = []
        for mode in MODES:
            problem = puzzle.problem(parity=True)
            walk = Walk(problem) if mode == "off" else ParityWalk(puzzle, problem, mode)
            t = time.process_time()
            n = sum(1 for _ in walk.solutions())
            cells.append(f"{walk.nodes} nodes, {n} solutions, {time.process_time() - t:.1f} s")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
