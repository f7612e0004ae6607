"""The one function that chooses an engine for a request, and the one that calls it, over the
engine table (:mod:`satiling.engines.table`: a row names an engine, what it is, and what runs each
of its tasks).

``choose`` turns ``auto`` into an engine by the rules of :mod:`satiling.search.router`
(measurements: docs/decisions/2026-11-27-router-defaults.md) and checks that an engine asked for
by name can take the request; it always answers with an engine of the table.  Most requests are
settled before a model is built (:func:`settled`); where only the model can tell the exact-cover
search from a SAT solver, the run builds the model within its time limit and chooses with it.
:func:`solver_of` is the solver the chosen engine runs for a ``solve``.  The command line's
``--engine`` choices and help, and the library's checks, are read from the table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engines.table import (ALL, AUTO, BACKTRACK, DEFAULT_SAT_ALIAS, EXACT_SOLVER, MIP_SOLVERS, TABLE,
                             WALK, Engine, check, function, names, row, solver as solver_row,
                             unused_setting)
from ..errors import Option, SatilingError

__all__ = ["ALL", "AUTO", "TABLE", "Engine", "call", "check", "choose", "names", "row", "settled",
           "solver_of", "unused_setting"]

if TYPE_CHECKING:
    from .request import Request


def choose(request: "Request", problem: Any = None) -> str:
    """The engine that runs ``request``: its own when named, else the router's choice (a solver
    named without an engine runs).  ``problem``: the request's model, when the run has built it;
    where only the model tells, it is built here if not given."""
    engine = settled(request)
    if engine is not None:
        return engine
    from ..search.router import settle
    return settle(request.puzzle.problem(**request.options) if problem is None else problem)


def settled(request: "Request") -> str | None:
    """The engine of ``request`` if it can be told before the model is built, else None (then
    :func:`choose` with the model); SatilingError for a request no engine can run."""
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
    if request.task == "solve" and request.proof and request.engine == AUTO:
        return "sat"                    # a SAT solver writes the proof of "no solution"
    if request.proof and request.engine != AUTO and not row(request.engine).proves:
        raise row(request.engine).can_run(request)
    if request.engine == WALK and request.puzzle.exact_cover(**request.options) is False:
        # said before a model is built (the run's own check needs the model: seconds on Eternity)
        raise SatilingError(f"the {WALK} engine takes exact covers only, and this model of "
                            f"{request.puzzle.name} has variables that are not placements: "
                            "choose the sat or cpsat engine")
    if request.engine != AUTO:
        return request.engine
    if request.puzzle.exact_cover(**request.options) is False:
        return "sat"                    # variables beside the placements: never the exact cover
    return None


def call(task: str, engine: str, job: object) -> object:
    """Run ``job`` by what the table names for ``engine`` and ``task``."""
    return function(task, engine)(job)


def solver_of(request: "Request", engine: str) -> str:
    """The solver that the chosen ``engine`` runs for a ``solve`` (a name of the solver table, or
    a race ``A+B``); SatilingError for a solver the engine does not run."""
    solver = request.solver
    given = {"engine": Option("engine", engine), "solver": Option("solver", solver)}
    if engine == "race":
        if solver not in (AUTO, "race") and "+" not in solver:
            raise SatilingError("{engine} races SAT solvers named A+B (default: two CaDiCaLs), "
                                "not {solver}", **given)
        return solver if "+" in solver else "race"
    if engine == "sat":
        named = solver_row(solver)
        if named is not None and named.kind != "sat" or solver in (BACKTRACK, "race") or "+" in solver:
            raise SatilingError("{engine} runs a SAT solver, not {solver}", **given)
        return DEFAULT_SAT_ALIAS if solver == AUTO else solver
    if engine == "mip":
        if solver not in (AUTO,) + MIP_SOLVERS:
            raise SatilingError("{engine} runs {mip}, not {solver}", mip=", ".join(MIP_SOLVERS), **given)
        return MIP_SOLVERS[0] if solver == AUTO else solver
    if solver not in (AUTO, engine):
        raise SatilingError("{engine} takes no solver: drop {solver}", **given)
    return EXACT_SOLVER if engine == WALK else engine
