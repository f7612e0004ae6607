"""The ``cpsat`` engine: OR-Tools CP-SAT over the whole board's score model, started from a greedy
board given as a hint; every better board it finds is reported."""
from __future__ import annotations

from typing import Any

from ...limits import Deadline, clock

from .board import Improvement, MaxResult, score_of
from .job import MaxJob


def run(job: MaxJob) -> MaxResult:
    """The cpsat engine's entry in the engine table: the whole-board model, one thread unless
    more are asked for."""
    from ...signals import within
    job.fresh("cpsat")
    # the time limit counts building the model (longer than a short limit on Eternity II): a
    # limit that runs out first ends the run there, with no board
    built, made = within(job.deadline.left(), lambda: _model(job.puzzle, job.greedy_start, job.hints))
    if not built:
        return MaxResult("UNKNOWN", 0, len(job.puzzle.joins()), [], 0.0)
    return _cpsat(job.puzzle, *made, job.deadline, job.on_improve, job.workers or 1, job.start)


def _model(puzzle: Any, greedy_start: bool, hints: bool) -> tuple[Any, Any, Any, list[int], list]:
    """(the problem, CP-SAT's model maximising the matching joins, its variables, the joins, the
    greedy board as placements when asked for and full, else []), the model hinted with it."""
    from ...backends.cpsat import to_cpsat
    from ...families.edgematch import Tile
    problem, matched = puzzle.match_problem(hints=hints)
    model, x = to_cpsat(problem)
    model.maximize(sum(x[m] for m in matched))
    greedy: list = []
    if greedy_start:
        board = greedy_board(puzzle, hints)
        _hint(model, x, problem, board, puzzle)
        if len(board) == len(puzzle.squares()):
            greedy = [Tile(r, c, p, rot) for (r, c), (p, rot) in sorted(board.items())]
    return problem, model, x, matched, greedy


def _cpsat(puzzle, problem, model, x, matched, greedy, deadline: Deadline, on_improve, workers,
           start) -> MaxResult:
    from ortools.sat.python import cp_model
    from ...signals import Interrupt, in_thread
    primary = problem.primary_vars()
    joins = len(matched)
    best: dict[str, Any] = {"score": -1, "solution": []}
    if greedy:                      # a board at once, whatever CP-SAT finds in the time left
        best.update(score=score_of(puzzle, greedy), solution=greedy)
        if on_improve:
            on_improve(Improvement(best["score"], joins, clock() - start, greedy))

    class Report(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            solution = problem.decode(v for v in primary if self.boolean_value(x[v]))
            s = score_of(puzzle, solution)
            if s > best["score"]:
                best.update(score=s, solution=solution)
                if on_improve:
                    on_improve(Improvement(s, joins, clock() - start, solution))

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    limit = deadline.left(floor=0.01)
    if limit is not None:
        solver.parameters.max_time_in_seconds = limit
    solver.parameters.catch_sigint_signal = False     # a signal calls stop_search instead
    status, signum = in_thread(lambda: solver.solve(model, Report()), solver.stop_search)
    if signum is not None:
        raise Interrupt(signum)       # the caller reports the best board so far
    if best["score"] < 0:
        return MaxResult("UNKNOWN", 0, joins, [], 0.0)
    bound = int(solver.best_objective_bound) if status in (cp_model.OPTIMAL, cp_model.FEASIBLE) else None
    name = "OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE"
    return MaxResult(name, best["score"], joins, best["solution"], 0.0, bound)


def _hint(model, x, problem, board: dict, puzzle: Any) -> None:
    """Hint CP-SAT with a board: every variable of the match model at its value on that board
    (placements, side colours, matched joins), so the hint is a complete solution."""
    from ...families.edgematch import STEP, Tile
    for v in range(1, problem.num_vars + 1):
        meaning = problem.meanings[v]
        if isinstance(meaning, Tile):
            value = board.get((meaning.row, meaning.col)) == (meaning.piece, meaning.rotation)
        elif meaning[0] == "side colour":
            _, sq, d, k = meaning
            value = sq in board and puzzle.edges(*board[sq])[d] == k
        elif meaning[0] == "match":
            _, a, side = meaning
            b = (a[0] + STEP[side][0], a[1] + STEP[side][1])
            value = (a in board and b in board and
                     puzzle.edges(*board[a])[side] == puzzle.edges(*board[b])[(side + 2) % 4])
        else:
            continue
        model.add_hint(x[v], value)


def greedy_board(puzzle: Any, hints: bool = False) -> dict:
    """A quick full board: squares row by row, each taking the unused legal placement that matches
    most of its already placed neighbours (the pinned pieces first)."""
    board: dict = {}
    used: set[int] = set()
    pinned = puzzle.fixed + (puzzle.hints if hints else [])
    for t in pinned:
        board[t.row, t.col] = (t.piece, t.rotation)
        used.add(t.piece)
    by_square: dict = {}
    for t in puzzle.placements(hints):
        by_square.setdefault((t.row, t.col), []).append(t)
    for sq in puzzle.squares():
        if sq in board:
            continue
        best, best_gain = None, -1
        for t in by_square.get(sq, []):
            if t.piece in used:
                continue
            gain = _gain(puzzle, board, sq, puzzle.edges(t.piece, t.rotation))
            if gain > best_gain:
                best, best_gain = t, gain
                if gain == 4:
                    break
        if best is not None:
            board[sq] = (best.piece, best.rotation)
            used.add(best.piece)
    return board


def _gain(puzzle: Any, board: dict, sq: tuple[int, int], edges: tuple) -> int:
    n = 0
    for d in range(4):
        nb = puzzle.neighbour(sq, d)
        if nb is not None and nb in board and puzzle.edges(*board[nb])[(d + 2) % 4] == edges[d]:
            n += 1
    return n
