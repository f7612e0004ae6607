"""Where an Eternity II board breaks its joins: the mean broken joins per board, by the row of the
lower square of each join (A at the top, the row scan's last), and at the joins of the four clue
squares (C3, C14, N3, N14), over the boards given (``satiling score``'s board files).

    python tools/experiments/e2_breaks.py BOARD.txt ...    (e.g. the boards tools/bench/e2_score.py writes)

Measured: docs/decisions/2026-11-28-eternity2-five-clues.md ("Where the breaks are")."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from satiling import catalog
from satiling.families.edgematch.score import parse_board

CLUES = {(2, 2), (2, 13), (13, 2), (13, 13)}


def main(paths: list[str]) -> None:
    e2 = catalog.load("eternity2")
    by_row, at_clue, total = Counter(), 0, 0
    for path in paths:
        board = parse_board(e2, Path(path).read_text())
        for join in e2.joins():
            (a, da), (b, db) = join.ends()
            if e2.edges(*board[a])[da] != e2.edges(*board[b])[db]:
                total += 1
                by_row[max(a[0], b[0])] += 1
                at_clue += a in CLUES or b in CLUES
    n = len(paths)
    print(f"{n} boards: {total / n:.1f} breaks a board; by row A..P: "
          + " ".join(f"{by_row[r] / n:.1f}" for r in range(e2.rows))
          + f"; at the clue squares' joins: {at_clue / n:.1f}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    main(sys.argv[1:])
