"""satiling: tiling, packing and edge-matching puzzles as SAT and CP-SAT problems.

The data flows one way::

    instance -> Puzzle (family) -> Problem (model) -> backend -> solver -> solution -> verify -> render

Quick start::

    import satiling
    puzzle = satiling.load("pentomino-6x10")
    solution = satiling.solve_puzzle(puzzle)          # verified placements
    print(satiling.render.to_text(puzzle, solution))
"""
from __future__ import annotations

from . import render
from .catalog import available, load
from .errors import SatilingError, VerificationError
from .problem import Problem

__version__ = "0.1.0"


def solve_puzzle(puzzle, solver: str | None = "auto", time_limit: float | None = None, **options):
    """One verified solution of ``puzzle`` (a list of placements), or None if there is none.
    ``solver`` None is the default, ``auto``.

    Raises SatilingError when the time limit ran out before an answer.
    """
    from .families.base import Puzzle
    from .limits import check_seconds
    from .search.solve import solve, solver_name
    if not isinstance(puzzle, Puzzle):
        raise SatilingError(f"solve_puzzle takes a puzzle from satiling.load, not {type(puzzle).__name__}")
    time_limit = check_seconds(time_limit)
    solver_name("auto" if solver is None else solver)    # refused before the model is built
    problem = puzzle.problem(**options)
    result = solve(problem, solver=solver, time_limit=time_limit)
    if result.status == "UNKNOWN":
        raise SatilingError(f"{puzzle.name}: no answer within the time limit")
    if result.status == "UNSAT":
        return None
    solution = problem.decode(result.true_vars)
    puzzle.verify(solution)
    return solution


__all__ = ["Problem", "SatilingError", "VerificationError", "available", "load", "render", "solve_puzzle"]
