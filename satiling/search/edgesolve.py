"""One board of an edge-matching puzzle by the compiled backtracker, in this process or split over
workers (``solve``; ``count`` and ``enumerate`` run the backtracker as cubes: :mod:`.edgespace`).

In this process the search orders race (:func:`satiling.engines.edgematch.race`: the order of
the smallest estimated tree, or every order in turn where solutions are dense).  With workers the
search of the chosen order is split into prefix jobs queued in search order; the first job to
meet a solution wins and the rest are stopped.  A small tree (below :data:`JOBS_ABOVE` nodes)
or a race of orders runs here instead: starting workers would cost more than it saves.
"""
from __future__ import annotations

import concurrent.futures as cf
from dataclasses import dataclass

from ..engines.edgematch import Placed
from ..limits import NO_DEADLINE, Deadline
from ..families.edgematch import EdgeMatchPuzzle, Tile
from .workers import executor, stop
from .edgeboards import edge_boards, tiles

#: with workers: below this estimated tree (a few seconds of search) one process answers
#: sooner than starting workers and splitting the tree (about a second)
JOBS_ABOVE = 2e8


@dataclass
class Answer:
    """``solution``: the board, as tiles (None: none found); ``status``: "limit" (found),
    "exhausted" (no solution), "time limit" or "nodes" (the node limit); ``how``: the orders searched and the jobs made."""

    solution: list[Tile] | None
    status: str
    how: str


def solve_board(puzzle: EdgeMatchPuzzle, hints: bool = False, deadline: Deadline = NO_DEADLINE,
                workers: int | None = None, dask: str | None = None, seed: int | None = None,
                node_limit: int | None = None) -> Answer:
    """One solution of ``puzzle`` (its pinned pieces, and the hints with ``hints``), unverified:
    the caller verifies it.  ``node_limit`` (one process only): stop after that many nodes."""
    from ..engines.edgematch import race, solve_engines
    (board,) = edge_boards(puzzle, hints, distinct=False)
    engines, jobs = solve_engines(board), 0
    if (workers or 1) > 1 or dask:
        placed, status, jobs = _in_jobs(engines, deadline, workers, dask, seed)
    else:
        placed, status, engines = race(board, deadline, engines, seed=seed, node_limit=node_limit)
    first = engines[0].board
    how = f"{first.order} order, {first.values} value order" if len(engines) == 1 else \
        f"{len(engines)} orders in turn: {', '.join(f'{e.board.order} {e.nodes}' for e in engines)} nodes"
    if jobs:
        how += f"; {jobs} jobs on " + (f"{workers} workers" if not dask else "the Dask cluster")
    elif (workers or 1) > 1 or dask:
        how += "; in this process, not on " + ("the Dask cluster" if dask else "workers") + \
            ": a small tree or a race of orders costs less here"
    return Answer(None if placed is None else tiles(placed), status, how)


def _chunks(jobs: list, workers: int | None) -> list[list]:
    """The jobs cut into tasks (about eight per worker): a worker sets the engine up once per
    task, and a task is small enough to spread the tree's uneven parts."""
    size = max(1, len(jobs) // (8 * (workers or 8)))
    return [jobs[i:i + size] for i in range(0, len(jobs), size)]


def _in_jobs(engines: list, deadline: Deadline, workers: int | None, dask: str | None,
             seed: int | None) -> tuple[list[Placed] | None, str, int]:
    """(solution or None, status, jobs made) by workers (the module doc)."""
    from ..engines.edgematch import ORDER_PROBES, race, run_jobs, split
    if len(engines) > 1 or engines[0].estimate(probes=ORDER_PROBES) < JOBS_ABOVE:
        placed, status, _ = race(engines[0].board, deadline, engines, seed=seed)
        return placed, status, 0
    jobs = [p for p, _ in split(engines[0])]
    with executor(workers, dask) as ex:
        futures = [ex.submit(run_jobs, engines[0].board, c, deadline.left(), True, 1)
                   for c in _chunks(jobs, workers)]
        try:
            for f in cf.as_completed(futures, deadline.left()):
                result = f.result()[-1]              # a task stops at its first solution
                if result.boards or result.status == "time limit":
                    stop(ex)
                    return (result.boards[0] if result.boards else None), result.status, len(jobs)
        except cf.TimeoutError:
            stop(ex)
            return None, "time limit", len(jobs)
    return None, "exhausted", len(jobs)
