"""Solve a problem once: PySAT (CaDiCaL, Glucose, Kissat, ...), CP-SAT, a MIP solver (SCIP,
HiGHS, CBC), or the exact-cover walk, with lazy constraints.

Lazy constraints run as a check loop: solve, hand the candidate to every check, add the clauses they
return, solve again (incrementally where the solver allows), until a candidate passes or none is left.
"""
from __future__ import annotations

import multiprocessing
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..errors import SatilingError
from ..problem import Problem

PYSAT_SOLVERS = ("cadical195", "cadical153", "glucose4", "glucose3", "kissat404", "minisat22",
                 "lingeling", "maplechrono")
ALIASES = {"cadical": "cadical195", "glucose": "glucose4", "kissat": "kissat404", "minisat": "minisat22"}
MIP_SOLVERS = ("scip", "highs", "cbc")
SOLVERS = ("cadical", "glucose", "kissat", "minisat", "cpsat", "walk") + MIP_SOLVERS + PYSAT_SOLVERS


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
    if name not in ("cpsat", "walk") and name not in PYSAT_SOLVERS and name not in MIP_SOLVERS:
        raise SatilingError(f"unknown solver {name!r} (choose from {', '.join(SOLVERS)})")
    return name


def solve(problem: Problem, solver: str = "cadical", time_limit: float | None = None,
          assumptions: Sequence[int] = (), amo: str | None = None, workers: int = 1) -> SolveResult:
    """Find one solution of ``problem`` (or prove there is none)."""
    name = solver_name(solver)
    start = time.perf_counter()
    if any(len(c) == 0 for c in problem.clauses):
        result = SolveResult("UNSAT")                  # an empty clause: nothing to search
    elif name == "cpsat":
        result = _solve_cpsat(problem, time_limit, assumptions, workers)
    elif name in MIP_SOLVERS:
        result = _solve_mip(problem, name, time_limit, assumptions)
    elif name == "walk":
        result = _solve_walk(problem, time_limit, assumptions)
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
    if name not in PYSAT_SOLVERS:
        raise SatilingError(f"{name} is not a SAT solver; this needs one of "
                            f"{', '.join(('cadical', 'glucose', 'kissat', 'minisat') + PYSAT_SOLVERS)}")
    from ..backends.cnf import DEFAULT_AMO, CnfEncoder
    enc = CnfEncoder(problem, amo or DEFAULT_AMO)
    s = Solver(name=name, **kwargs)
    s.append_formula(enc.clauses())
    return s


def _solve_pysat(problem: Problem, name: str, time_limit: float | None,
                 assumptions: Sequence[int], amo: str | None) -> SolveResult:
    if time_limit is None:
        return _pysat_loop(problem, name, assumptions, amo)
    # CaDiCaL cannot be interrupted through PySAT, so a time limit runs the search in a child
    # process that is killed at the deadline: the same for every solver, and always honoured.
    return in_child(_pysat_loop, time_limit, problem, name, assumptions, amo)


def _pysat_loop(problem: Problem, name: str, assumptions: Sequence[int], amo: str | None) -> SolveResult:
    rounds = 0
    with open_pysat(problem, name, amo) as s:
        while True:
            if not s.solve(assumptions=list(assumptions)):
                return SolveResult("UNSAT", lazy_rounds=rounds)
            true = primary_true(problem, s.get_model())
            cuts = lazy_cuts(problem, true)
            if not cuts:
                return SolveResult("SAT", true, lazy_rounds=rounds)
            rounds += 1
            if name.startswith("kissat"):     # not incremental in PySAT: rebuild with the cuts
                for c in cuts:
                    problem.add_clause(c)
                return _pysat_loop(problem, name, assumptions, amo)
            for c in cuts:
                s.add_clause(c)


def in_child(func, time_limit: float, *args) -> SolveResult:
    """Run ``func(*args)`` in a forked process; UNKNOWN if it has not answered in time."""
    ctx = multiprocessing.get_context("fork")
    receive, send = ctx.Pipe(duplex=False)

    def target() -> None:
        send.send(func(*args))

    proc = ctx.Process(target=target, daemon=True)
    proc.start()
    send.close()
    try:
        if receive.poll(max(0.0, time_limit)):
            return receive.recv()
        return SolveResult("UNKNOWN")
    except EOFError:                       # the child died without an answer
        return SolveResult("UNKNOWN")
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()


# -- CP-SAT and MIP: one model, re-solved with the lazy cuts ---------------------------------------
def _check_loop(problem: Problem, time_limit: float | None,
                solve_once: Callable[[float | None], frozenset[int] | str],
                add_cut: Callable[[list[int]], None]) -> SolveResult:
    """Solve, hand the candidate to the lazy checks, add their cuts, solve again.  ``solve_once``
    gets the seconds left (None: no limit) and returns the true primary variables, or UNSAT or
    UNKNOWN."""
    deadline = None if time_limit is None else time.monotonic() + time_limit
    rounds = 0
    while True:
        found = solve_once(None if deadline is None else deadline - time.monotonic())
        if isinstance(found, str):
            return SolveResult(found, lazy_rounds=rounds)
        cuts = lazy_cuts(problem, found)
        if not cuts:
            return SolveResult("SAT", found, lazy_rounds=rounds)
        rounds += 1
        for c in cuts:
            add_cut(c)


def _solve_cpsat(problem: Problem, time_limit: float | None, assumptions: Sequence[int],
                 workers: int) -> SolveResult:
    from ortools.sat.python import cp_model
    from ..backends.cpsat import add_clause, to_cpsat
    model, x = to_cpsat(problem)
    for a in assumptions:
        add_clause(model, x, [a])

    def solve_once(seconds: float | None) -> frozenset[int] | str:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers
        if seconds is not None:
            solver.parameters.max_time_in_seconds = max(0.01, seconds)
        status = solver.solve(model)
        if status == cp_model.INFEASIBLE:
            return "UNSAT"
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "UNKNOWN"
        return frozenset(v for v in problem.primary_vars() if solver.boolean_value(x[v]))

    return _check_loop(problem, time_limit, solve_once, lambda c: add_clause(model, x, c))


def _solve_mip(problem: Problem, name: str, time_limit: float | None,
               assumptions: Sequence[int]) -> SolveResult:
    """SCIP, HiGHS or CBC through OR-Tools."""
    from ortools.linear_solver import pywraplp
    from ..backends.mip import MIP_SOLVERS as BACKENDS, add_clause, to_mip
    solver, x = to_mip(problem, BACKENDS[name])
    for a in assumptions:
        add_clause(solver, x, [a])

    def solve_once(seconds: float | None) -> frozenset[int] | str:
        if seconds is not None:
            solver.SetTimeLimit(max(1, int(1000 * seconds)))
        status = solver.Solve()
        if status == pywraplp.Solver.INFEASIBLE:
            return "UNSAT"
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return "UNKNOWN"
        return frozenset(v for v in problem.primary_vars() if x[v].solution_value() > 0.5)

    return _check_loop(problem, time_limit, solve_once, lambda c: add_clause(solver, x, c))


# -- the exact-cover walk ----------------------------------------------------------------------------
def _solve_walk(problem: Problem, time_limit: float | None, assumptions: Sequence[int]) -> SolveResult:
    """The first solution of the DPLL walk (Knuth's most-constrained-first search).  On the
    polydrafter boards it beats CDCL: Tortoise (45 Eternity pieces) falls in seconds."""
    from .walk import Walk, supports
    if not supports(problem):
        raise SatilingError("the walk solves exact covers only (this model has auxiliary variables)")
    if time_limit is not None:
        return in_child(_solve_walk, time_limit, problem, None, assumptions)
    first = next(Walk(problem).solutions(assumptions), None)
    return SolveResult("UNSAT") if first is None else SolveResult("SAT", first)
