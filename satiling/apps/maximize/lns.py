"""The ``lns`` engine: large-neighbourhood search, CP-SAT re-placing the pieces of a window of the
board at a time, from the greedy board (for boards too big for one whole-board model)."""
from __future__ import annotations

import random

from ...engines.table import needs_time_limit
from ...limits import Deadline, clock
from .board import Improvement, MaxResult
from .cpsat import _hint, greedy_board
from .job import MaxJob


def run(job: MaxJob) -> MaxResult:
    """The lns engine's entry in the engine table."""
    job.fresh("lns")
    if job.time_limit is None:        # the limit is shared out among the windows
        raise needs_time_limit("lns", "maximise")
    return _lns(job.puzzle, job.deadline, job.on_improve, job.hints, job.start, job.seed)


def _lns(puzzle, deadline: Deadline, on_improve, hints: bool, start: float, seed: int,
         step_limit: float = 1.0, max_region: int = 20) -> MaxResult:
    from ortools.sat.python import cp_model
    from ...backends.cpsat import to_cpsat
    from ...families.edgematch.score import score
    rng = random.Random(seed)
    board = greedy_board(puzzle, hints)
    pinned = {(t.row, t.col) for t in puzzle.fixed + (puzzle.hints if hints else [])}
    best = score(puzzle, board).matched
    joins = len(puzzle.joins())
    if on_improve:
        on_improve(Improvement(best, joins, clock() - start, puzzle.tiles(board)))
    steps = 0
    while best < joins:
        left = deadline.left()
        if left <= 0.05:
            break
        region = _neighbourhood(puzzle, board, pinned, rng, max_region)
        problem, matched = puzzle.match_problem(region=region, board=board)
        model, x = to_cpsat(problem)
        model.maximize(sum(x[m] for m in matched))
        _hint(model, x, problem, board, puzzle)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.catch_sigint_signal = False  # an interrupt ends the run after this step
        solver.parameters.random_seed = rng.randrange(1 << 30)
        solver.parameters.max_time_in_seconds = min(step_limit, left)
        steps += 1
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            continue
        trial = dict(board)
        for v in problem.primary_vars():
            if solver.boolean_value(x[v]):
                t = problem.meanings[v]
                trial[t.row, t.col] = (t.piece, t.rotation)
        s = score(puzzle, trial).matched
        if s >= best:                  # equal moves let the board drift off plateaus
            board = trial
            if s > best:
                best = s
                if on_improve:
                    on_improve(Improvement(best, joins, clock() - start, puzzle.tiles(board)))
    status = "OPTIMAL" if best == joins else "FEASIBLE"
    return MaxResult(status, best, joins, puzzle.tiles(board), 0.0, None)


def _neighbourhood(puzzle, board: dict, pinned: set, rng, max_region: int) -> list:
    """Squares whose pieces move next (never a pinned square): a window around a mismatched join
    (or anywhere), or many squares of one kind no two of which touch -- then each piece's gain on
    each square is independent of the others and CP-SAT solves an assignment problem."""
    bad = [j for j in puzzle.joins() if _mismatch(puzzle, board, j)]
    if rng.random() < 0.4:
        return _independent(puzzle, board, pinned, rng, 2 * max_region, bad)
    h = rng.randint(2, 5)
    w = max(2, min(5, max_region // h))
    if bad and rng.random() < 0.8:
        r0, c0 = rng.choice(bad).a
    else:
        r0, c0 = rng.randrange(puzzle.rows), rng.randrange(puzzle.cols)
    top = min(max(0, r0 - rng.randrange(h)), max(0, puzzle.rows - h))
    left = min(max(0, c0 - rng.randrange(w)), max(0, puzzle.cols - w))
    region = {(r, c) for r in range(top, min(puzzle.rows, top + h))
              for c in range(left, min(puzzle.cols, left + w))}
    return sorted(region - pinned)


def _independent(puzzle, board: dict, pinned: set, rng, size: int, bad: list) -> list:
    """Up to ``size`` squares of one kind (inner or edge), pairwise not adjacent, those next to a
    mismatched join first."""
    rim = lambda sq: sum(puzzle.on_rim(sq, d) for d in range(4))     # noqa: E731
    kind = 0 if rng.random() < 0.8 else 1
    near = {sq for j in bad for sq in (j.a, j.b)}
    pool = [sq for sq in puzzle.squares() if rim(sq) == kind and sq not in pinned]
    rng.shuffle(pool)
    pool.sort(key=lambda sq: sq not in near)
    chosen: set = set()
    for sq in pool:
        if len(chosen) >= size:
            break
        if all(puzzle.neighbour(sq, d) not in chosen for d in range(4)):
            chosen.add(sq)
    return sorted(chosen)


def _mismatch(puzzle, board: dict, j) -> bool:
    (a, da), (b, db) = j.ends()
    return puzzle.edges(*board[a])[da] != puzzle.edges(*board[b])[db]
