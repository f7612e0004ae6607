"""An OR-Tools CP-SAT model from a :class:`~satiling.problem.Problem`.

The model is handed back with the variable map so a user can add constraints, set an objective, or
run ``cp_model.CpSolver`` directly::

    model, x = to_cpsat(problem)
    solver = cp_model.CpSolver()
    if solver.solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        chosen = [problem.meaning(v) for v in problem.primary_vars() if solver.value(x[v])]

Lazy constraints cannot be expressed here; :func:`satiling.search.solve.solve` runs the check loop.
"""
from __future__ import annotations

from typing import Callable

from ortools.sat.python import cp_model

from ..problem import Problem, check_problem as _check_problem
from .lp import var_name


def to_cpsat(problem: Problem, stopped: Callable[[], bool] | None = None, named: bool = True
             ) -> tuple[cp_model.CpModel, dict[int, cp_model.IntVar]]:
    """The CP-SAT model and the map from problem variable to CP-SAT Boolean (named as in the LP
    file, ``x<v>_<placement>``, unless ``named`` is False: a model solved here needs no names,
    and writing them is most of the time it takes to build).  ``stopped``: asked as the model is
    built; when it says yes, :class:`BuildStopped`."""
    _check_problem(problem, "to_cpsat")
    model = cp_model.CpModel()
    x = {}
    for v in range(1, problem.num_vars + 1):
        if stopped is not None and v % 1024 == 0 and stopped():
            raise BuildStopped
        x[v] = model.new_bool_var(var_name(problem, v) if named else f"x{v}")

    def lit(lit_: int):
        return x[lit_] if lit_ > 0 else x[-lit_].Not()

    for u in problem.units:
        model.add_bool_or([lit(u)])
    for g in problem.groups:
        if stopped is not None and stopped():
            raise BuildStopped
        lits = [lit(a) for a in g.lits]
        if g.lo == 1 and g.hi == 1:
            model.add_exactly_one(lits)
        elif g.lo == 0 and g.hi == 1:
            model.add_at_most_one(lits)
        else:
            model.add_linear_constraint(sum(lits), g.lo, g.hi)
    for k, c in enumerate(problem.clauses):
        if stopped is not None and k % 1024 == 0 and stopped():
            raise BuildStopped
        model.add_bool_or([lit(a) for a in c])
    for lin in problem.linears:
        expr = sum(a * x[v] for a, v in lin.terms)
        if lin.lo is not None:
            model.add(expr >= lin.lo)
        if lin.hi is not None:
            model.add(expr <= lin.hi)
    return model, x


class BuildStopped(Exception):
    """The caller stopped the building of a model (:func:`to_cpsat`'s ``stopped``)."""


def add_clause(model: cp_model.CpModel, x: dict[int, cp_model.IntVar], clause: list[int]) -> None:
    """Add a clause over problem literals (used for lazy cuts and blocking)."""
    model.add_bool_or([x[a] if a > 0 else x[-a].Not() for a in clause])
