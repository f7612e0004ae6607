"""Experiment: one edge-matching solution by a portfolio of seeded searches, one per process, the
first answer winning (not adopted: ``solve --workers`` splits one search into prefix jobs instead).

    python tools/experiments/edgematch_portfolio.py      # a generated 6x6 board, two workers
"""
from __future__ import annotations

from satiling.engines.edgematch import EdgeBoard, Placed, race
from satiling.limits import Deadline


def portfolio(board: EdgeBoard, seconds: float | None = None, seed: int = 1, workers: int = 2
              ) -> tuple[list[Placed] | None, str, int]:
    """One solution by ``workers`` processes, each running :func:`race` with its own seed
    (``seed``, ``seed + 1``, ...: restarts when the board has one search); the first answer wins and
    the others are stopped.  Returns (solution or None, "limit" / "exhausted" / "time limit",
    nodes of the process that answered)."""
    from contextlib import closing
    from satiling.children import worker_messages
    if workers <= 1:
        found, status, engines = race(board, Deadline.after(seconds), seed=seed)
        return found, status, sum(e.nodes for e in engines)
    answer: tuple[list[Placed] | None, str, int] = (None, "time limit", 0)
    jobs = [(board, seconds, seed + w) for w in range(workers)]
    with closing(worker_messages(_portfolio_work, jobs)) as answers:
        for found, status, nodes in answers:
            if found is not None or status == "exhausted":
                return found, status, nodes
            answer = (None, status, nodes)
    return answer


def _portfolio_work(board: EdgeBoard, seconds: float | None, seed: int, send) -> None:
    found, status, engines = race(board, Deadline.after(seconds), seed=seed)
    send((found, status, sum(e.nodes for e in engines)))


def main() -> None:
    from satiling.families.edgematch import Tile
    from satiling.families.edgematch.generate import generate
    pz = generate(6, 6, None, 7, 5).puzzle()
    found, status, nodes = portfolio(EdgeBoard(pz.rows, pz.cols, tuple(pz.pieces)), seconds=120,
                                     seed=4, workers=2)
    pz.verify([Tile(r, c, p + 1, rot) for r, c, p, rot in found])
    print(f"{status}: a verified board after {nodes} nodes")


if __name__ == "__main__":
    main()
