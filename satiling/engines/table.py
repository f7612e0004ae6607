"""Every engine a run can name, in one table: its name, the tasks it runs, what it is.

The run (:mod:`satiling.run.engines`) chooses among them; the command line's ``--engine`` choices
and help, the library's checks and the lower layers' guards are read from here, so adding an engine
is one row.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Engine:
    name: str
    tasks: tuple[str, ...]
    help: str


ALL = ("solve", "count", "enumerate", "maximise")
TABLE: tuple[Engine, ...] = (
    Engine("backtrack", ALL, "the compiled edge-matching backtracker (maximise: its scoring search)"),
    Engine("walk", ("solve", "count", "enumerate"),
           "the compiled exact-cover search: dancing links or bitboards with a pocket cut"),
    Engine("sat", ("solve", "count", "enumerate"),
           "a SAT solver (--solver, CaDiCaL by default); counts with blocking clauses"),
    Engine("race", ("solve",), "SAT solvers in parallel processes, the first answer wins"),
    Engine("cpsat", ALL, "OR-Tools CP-SAT (maximise: proves the optimum)"),
    Engine("lns", ("maximise",), "large-neighbourhood search: CP-SAT on windows of the board"),
    Engine("rc2", ("maximise",), "the RC2 MaxSAT solver"),
)
AUTO = "auto"


def names(task: str) -> tuple[str, ...]:
    """``auto`` and the engines that run ``task``."""
    return (AUTO,) + tuple(e.name for e in TABLE if task in e.tasks)
