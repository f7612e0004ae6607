"""A mixed-integer program from a :class:`~satiling.problem.Problem`, for the MIP solvers that
OR-Tools ships (SCIP, HiGHS, CBC) through its ``pywraplp`` wrapper.

This is Burkardt and Garvie's view of a tiling puzzle: the exact cover is the linear system
``A x = b`` over binary ``x``, and a MIP solver's presolve and LP relaxation do the rest: enough for
small boards such as Boat, not for large ones such as Pram, where the compiled exact-cover search does better
(measurements: docs/decisions/2026-11-27-models-and-encodings.md).

    solver, x = to_mip(problem, "SCIP")
    if solver.Solve() in (solver.OPTIMAL, solver.FEASIBLE):
        chosen = [problem.meaning(v) for v in problem.primary_vars() if x[v].solution_value() > 0.5]

Lazy constraints cannot be expressed here; :func:`satiling.search.solve.solve` runs the check loop.
"""
from __future__ import annotations

from typing import Sequence

from ortools.linear_solver import pywraplp

from ..errors import SatilingError
from ..problem import Problem

#: satiling's solver names and OR-Tools' names for them
MIP_SOLVERS = {"scip": "SCIP", "highs": "HIGHS", "cbc": "CBC"}


def to_mip(problem: Problem, backend: str = "SCIP") -> tuple[pywraplp.Solver, list]:
    """The MIP (objective 0: any feasible point is a solution) and ``x[v]`` for every variable."""
    solver = pywraplp.Solver.CreateSolver(backend)
    if solver is None:
        raise SatilingError(f"this OR-Tools build has no {backend} solver")
    if backend == "HIGHS":
        # HiGHS prints its banner on stderr whatever SuppressOutput says; its own switch silences
        # it (the call reports False through OR-Tools, and takes effect all the same)
        solver.SetSolverSpecificParametersAsString("output_flag=false")
    x = [None] + [solver.BoolVar(f"x{v}") for v in range(1, problem.num_vars + 1)]
    for u in problem.units:
        add_clause(solver, x, [u])
    for g in problem.groups:
        _bounded(solver, _sum(solver, x, g.lits), g.lo, g.hi)
    for c in problem.clauses:
        add_clause(solver, x, c)
    for lin in problem.linears:
        _bounded(solver, solver.Sum([a * x[v] for a, v in lin.terms]), lin.lo, lin.hi)
    return solver, x


def add_clause(solver: pywraplp.Solver, x: list, clause: Sequence[int]) -> None:
    """``a or not b``: at least one literal true, as ``x_a + (1 - x_b) >= 1``."""
    solver.Add(_sum(solver, x, clause) >= 1)


def _sum(solver: pywraplp.Solver, x: list, lits: Sequence[int]):
    """The number of true literals: ``x_v`` for ``v``, ``1 - x_v`` for ``-v``."""
    negative = sum(1 for lit in lits if lit < 0)
    return solver.Sum([x[lit] if lit > 0 else -x[-lit] for lit in lits]) + negative


def _bounded(solver: pywraplp.Solver, expr, lo: int | None, hi: int | None) -> None:
    if lo is not None and lo == hi:
        solver.Add(expr == lo)
        return
    if lo is not None:
        solver.Add(expr >= lo)
    if hi is not None:
        solver.Add(expr <= hi)
