"""Solve a problem once: PySAT (CaDiCaL, Glucose, Kissat, ...) or CP-SAT, with lazy constraints.

Lazy constraints run as a check loop: solve, hand the candidate to every check, add the clauses they
return, solve again (incrementally where the solver allows), until a candidate passes or none is left.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Sequence

from ..errors import SatilingError
from ..problem import Problem

PYSAT_SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose3", "kissat404", "minisat22",
                 "lingeling", "maplechrono")
ALIASES = {"cadical": "cadical195", "glucose": "glucose4", "kissat": "kissat404", "minisat": "minisat22"}
SOLVERS = ("cadical", "glucose", "kissat", "minisat", "cpsat") + PYSAT_SOLVERS


@dataclass
class SolveResult:
    """``status`` is SAT, UNSAT or UNKNOWN (time limit); ``true_vars`` the true primary variables."""

    status: str
    true_vars: frozenset[int] = frozenset()
    solver: str = ""
    seconds: float = 0.0
    lazy_rounds: int = 0
    stats: dict = field(default_factory=dict)


def solver_name(name: str) -> str:
    """The canonical solver name for ``name`` (``cadical`` -> ``cadical195``)."""
    name = ALIASES.get(name, name)
    if name != "cpsat" and name not in PYSAT_SOLVERS:
        raise SatilingError(f"unknown solver {name!r} (choose from {', '.join(SOLVERS)})")
    return name


def solve(problem: Problem, solver: str = "cadical", time_limit: float | None = None,
          assumptions: Sequence[int] = (), amo: str | None = None, workers: int = 1) -> SolveResult:
    """Find one solution of ``problem`` (or prove there is none)."""
    name = solver_name(solver)
    start = time.perf_counter()
    if name == "cpsat":
        result = _solve_cpsat(problem, time_limit, assumptions, workers)
    else:
        result = _solve_pysat(problem, name, time_limit, assumptions, amo)
    result.solver, result.seconds = name, time.perf_counter() - start
    return result


def lazy_cuts(problem: Problem, true_vars: frozenset[int]) -> list[list[int]]:
    """The clauses the problem's lazy checks return for a candidate (empty: it passes)."""
    cuts: list[list[int]] = []
    for check in problem.lazy:
        cuts.extend(check(true_vars))
    return cuts


def primary_true(problem: Problem, model: Sequence[int]) -> frozenset[int]:
    return frozenset(v for v in model if v > 0 and v <= problem.num_vars and problem.primary[v])


# -- PySAT ----------------------------------------------------------------------------------------
def open_pysat(problem: Problem, name: str, amo: str | None = None, **kwargs):
    """A PySAT solver loaded with the problem's clauses."""
    from pysat.solvers import Solver
    from ..backends.cnf import DEFAULT_AMO, CnfEncoder
    enc = CnfEncoder(problem, amo or DEFAULT_AMO)
    s = Solver(name=name, **kwargs)
    s.append_formula(enc.clauses())
    return s


def _solve_pysat(problem: Problem, name: str, time_limit: float | None,
                 assumptions: Sequence[int], amo: str | None) -> SolveResult:
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rounds = 0
    with open_pysat(problem, name, amo) as s:
        while True:
            ok = _limited(s, list(assumptions), deadline)
            if ok is None:
                return SolveResult("UNKNOWN", lazy_rounds=rounds)
            if not ok:
                return SolveResult("UNSAT", lazy_rounds=rounds)
            true = primary_true(problem, s.get_model())
            cuts = lazy_cuts(problem, true)
            if not cuts:
                return SolveResult("SAT", true, lazy_rounds=rounds)
            rounds += 1
            for c in cuts:
                s.add_clause(c)
            if name.startswith("kissat"):     # not incremental in PySAT: rebuild
                return _rebuild_kissat(problem, name, time_limit, assumptions, amo, cuts, rounds)


def _rebuild_kissat(problem, name, time_limit, assumptions, amo, cuts, rounds) -> SolveResult:
    for c in cuts:
        problem.add_clause(c)
    r = _solve_pysat(problem, name, time_limit, assumptions, amo)
    r.lazy_rounds += rounds
    return r


def _limited(s, assumptions: list[int], deadline: float | None) -> bool | None:
    """solve() with an optional wall-clock deadline (None = interrupted)."""
    if deadline is None:
        return s.solve(assumptions=assumptions)
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    timer = threading.Timer(left, s.interrupt)
    timer.start()
    try:
        ok = s.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        timer.cancel()
    s.clear_interrupt()
    return ok


# -- CP-SAT ---------------------------------------------------------------------------------------
def _solve_cpsat(problem: Problem, time_limit: float | None, assumptions: Sequence[int],
                 workers: int) -> SolveResult:
    from ortools.sat.python import cp_model
    from ..backends.cpsat import add_clause, to_cpsat
    model, x = to_cpsat(problem)
    for a in assumptions:
        add_clause(model, x, [a])
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rounds = 0
    while True:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if deadline is not None:
            solver.parameters.max_time_in_seconds = max(0.01, deadline - time.monotonic())
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return SolveResult("UNSAT", lazy_rounds=rounds)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return SolveResult("UNKNOWN", lazy_rounds=rounds)
        true = frozenset(v for v in problem.primary_vars() if solver.boolean_value(x[v]))
        cuts = lazy_cuts(problem, true)
        if not cuts:
            return SolveResult("SAT", true, lazy_rounds=rounds)
        rounds += 1
        for c in cuts:
            add_clause(model, x, c)
