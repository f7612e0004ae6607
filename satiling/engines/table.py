"""Every engine a run can name, in one table: its name, what it is, and for each task it runs the
function (or searcher) that runs it, named ``module:attribute``.

The run (:mod:`satiling.run.engines`) chooses among the rows; :func:`function` finds what a row
names for a task, so adding an engine is one row and nothing else branches on an engine's name.
The command line's ``--engine`` choices and help, the library's checks and the lower layers'
guards are read from here.  The functions are named, not imported, so that this table sits below
the layers that hold them and each is imported only when a run uses it.

What a task's entry is:

* ``solve``: ``f(job) -> Found`` (:mod:`satiling.search.solvejob`);
* ``count`` and ``enumerate``: a searcher (:mod:`satiling.search.searchers`): how the count
  pipeline splits the search into cubes and runs one;
* ``maximise``: ``f(job) -> MaxResult`` (:mod:`satiling.apps.maximize`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any

from ..errors import SatilingError


@dataclass(frozen=True)
class Engine:
    name: str
    help: str
    runs: dict[str, str] = field(default_factory=dict)     # task -> "module:attribute"
    #: what a node limit counts for its solve (None: it takes none)
    unit: str | None = None
    #: what runs its maximise on a Dask cluster, ``module:attribute`` (None: it runs here only)
    dask: str | None = None

    @property
    def tasks(self) -> tuple[str, ...]:
        return tuple(self.runs)


ALL = ("solve", "count", "enumerate", "maximise")
_SEARCHERS = "satiling.search.searchers"
_SOLVE = "satiling.search.solvejob"
_MAX = "satiling.apps.maximize"
TABLE: tuple[Engine, ...] = (
    Engine("backtrack", "the compiled edge-matching backtracker (maximise: its scoring search)",
           {"solve": f"{_SOLVE}:by_backtrack", "count": f"{_SEARCHERS}:BACKTRACK",
            "enumerate": f"{_SEARCHERS}:BACKTRACK", "maximise": f"{_MAX}.backtrack:run"}, "nodes",
           dask=f"{_MAX}.cluster:run"),
    Engine("walk", "the compiled exact-cover search: dancing links or bitboards with a pocket cut",
           {"solve": f"{_SOLVE}:by_solver", "count": f"{_SEARCHERS}:WALK",
            "enumerate": f"{_SEARCHERS}:WALK"}, "nodes"),
    Engine("sat", "a SAT solver (--solver, CaDiCaL by default); counts with blocking clauses",
           {"solve": f"{_SOLVE}:by_solver", "count": f"{_SEARCHERS}:SAT",
            "enumerate": f"{_SEARCHERS}:SAT"}, "conflicts"),
    Engine("race", "SAT solvers in parallel processes, the first answer wins",
           {"solve": f"{_SOLVE}:by_solver"}),
    Engine("cpsat", "OR-Tools CP-SAT (maximise: proves the optimum)",
           {"solve": f"{_SOLVE}:by_solver", "count": f"{_SEARCHERS}:CPSAT",
            "enumerate": f"{_SEARCHERS}:CPSAT", "maximise": f"{_MAX}.cpsat:run"}, "conflicts"),
    Engine("lns", "large-neighbourhood search: CP-SAT on windows of the board",
           {"maximise": f"{_MAX}.lns:run"}),
    Engine("rc2", "the RC2 MaxSAT solver", {"maximise": f"{_MAX}.rc2:run"}),
    # a solve the router does not give to the backtracker: --solver's (the walk on an exact cover,
    # else CaDiCaL)
    Engine("auto", "the backtracker on edge matching, else --solver's (the walk on an exact cover, "
           "else CaDiCaL)", {"solve": f"{_SOLVE}:by_solver"}, "nodes or conflicts"),
)
AUTO = "auto"


def names(task: str) -> tuple[str, ...]:
    """``auto`` and the engines that run ``task``."""
    return (AUTO,) + tuple(e.name for e in TABLE if task in e.runs and e.name != AUTO)


def check(task: str, engine: object) -> str:
    """``engine`` if it runs ``task``, else SatilingError naming the choices."""
    if engine not in names(task):
        raise SatilingError(f"unknown engine {engine!r} for {task} (choose from {', '.join(names(task))})")
    return engine  # type: ignore[return-value]


def row(name: str) -> Engine:
    for engine in TABLE:
        if engine.name == name:
            return engine
    raise SatilingError(f"unknown engine {name!r} (choose from {', '.join(e.name for e in TABLE)})")


def function(task: str, name: str, dask: bool = False) -> Any:
    """What engine ``name``'s row names for ``task`` (imported now); with ``dask``, what runs it on
    a Dask cluster (None if the engine runs here only)."""
    engine = row(name)
    where = engine.runs.get(task)
    if where is None:
        raise SatilingError(f"the {name} engine does not {task} (choose from "
                            f"{', '.join(names(task)[1:])})")
    if dask:
        if engine.dask is None:
            return None
        where = engine.dask
    module, attribute = where.split(":")
    return getattr(importlib.import_module(module), attribute)
