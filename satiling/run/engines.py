"""The one function that chooses an engine for a request, and the one that calls it, over the
engine table (:mod:`satiling.engines.table`: a row names an engine, what it is, and what runs each
of its tasks).

``choose`` turns ``auto`` into an
engine by the rules of :mod:`satiling.search.router` (measurements:
docs/decisions/2026-11-27-router-defaults.md) and checks that an engine
asked for by name can take the request.  The command line's ``--engine`` choices and help, and
the library's checks, are read from this table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..engines.table import (ALL, AUTO, BACKTRACK, DEFAULT_SAT_ALIAS, TABLE, WALK, Engine, check,
                             function, names, row, solver as solver_row, unused_setting)
from ..errors import SatilingError

__all__ = ["ALL", "AUTO", "TABLE", "Engine", "call", "check", "choose", "names", "row", "solve_solver",
           "unused_setting"]

if TYPE_CHECKING:
    from .request import Request


def choose(request: "Request") -> str:
    """The engine that runs ``request``: its own when named, else the router's choice (a solver
    named without an engine runs)."""
    from ..search.router import backtrack_answers, maximise_engine, solver_engine
    if request.task == "maximise":
        return maximise_engine(request.puzzle, request.engine, bool(request.dask))
    implied = solver_engine(request.task, request.engine, request.solver, bool(request.proof))
    if implied is not None:
        return implied
    counting = request.task in ("count", "enumerate")
    if backtrack_answers(request.puzzle, dict(request.options), request.engine, counting,
                         proof=bool(request.proof)):
        return BACKTRACK
    if request.proof and request.engine != AUTO and not row(request.engine).proves:
        raise SatilingError(row(request.engine).can_run(request))
    if request.engine == WALK and request.puzzle.exact_cover(**request.options) is False:
        # said before a model is built (the run's own check needs the model: seconds on Eternity)
        raise SatilingError(f"the {WALK} engine takes exact covers only, and this model of "
                            f"{request.puzzle.name} has variables that are not placements: "
                            "choose the sat or cpsat engine")
    return request.engine


def call(task: str, engine: str, job: object) -> object:
    """Run ``job`` by what the table names for ``engine`` and ``task``."""
    return function(task, engine)(job)


def solve_solver(request: "Request") -> str:
    """The solver :func:`satiling.search.solve.solve` runs for a ``solve`` request that the
    backtracker does not answer (``--engine`` with ``--solver``)."""
    engine, solver = request.engine, request.solver
    if engine == "race":
        if solver not in (AUTO, "race") and "+" not in solver:
            raise SatilingError(f"--engine race races SAT solvers named A+B (default: two CaDiCaLs), "
                                f"not --solver {solver}")
        return solver if "+" in solver else "race"
    if engine == "sat":
        named = solver_row(solver)
        if named is not None and named.kind != "sat" or solver in (BACKTRACK, "race") or "+" in solver:
            raise SatilingError(f"--engine sat runs a SAT solver, not --solver {solver}")
        return DEFAULT_SAT_ALIAS if solver == AUTO else solver
    if engine != AUTO:
        if solver not in (AUTO, engine):
            raise SatilingError(f"--engine {engine} takes no --solver (got {solver})")
        return engine
    return solver
