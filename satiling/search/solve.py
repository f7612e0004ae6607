"""Solve a problem once by a solver of the table (:data:`satiling.engines.table.SOLVERS`: the
compiled exact-cover search, PySAT's SAT solvers, CP-SAT, OR-Tools' MIP solvers), with lazy
constraints.

``auto`` (the default) runs the exact-cover search wherever it applies (a model whose variables
are all placements), else the table's default SAT solver, each the faster there (measurements:
docs/decisions/2026-11-27-router-defaults.md).

Every solver but the exact-cover search (which hands control back to Python every few
milliseconds, so a signal stops it at once) runs in a forked child
process (:mod:`satiling.signals`): a SAT solver in a C call cannot be interrupted through PySAT,
the MIP solvers print banners on stdout, and an interrupt or a time limit kills the child.

Lazy constraints run as a check loop: solve, hand the candidate to every check, add the clauses they
return, solve again (incrementally where the solver allows), until a candidate passes or none is left.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..errors import Option, SatilingError
from ..limits import NO_DEADLINE, Deadline, check_node_limit, check_seconds, check_workers
from ..problem import Problem
from ..children import ChildDied, ChildObject, race_in_children, run_in_child
from ..engines.table import (ALIASES, DEFAULT_SAT, DEFAULT_SAT_ALIAS, EXACT_SOLVER, MIP_SOLVERS, RACE,
                             SAT_SOLVERS, SOLVER_CHOICES, sat_names, solver as solver_row,
                             takes_node_limit)

#: at-most-one groups up to this many literals are pairwise when *solving* once, larger ones use the
#: ladder (large pairwise groups cost a SAT solver time and memory to load; smaller limits meet CDCL's
#: luck).  Enumeration keeps 500.  Measurements: docs/decisions/2026-11-27-router-defaults.md.
SOLVE_PAIRWISE_LIMIT = 100


@dataclass
class SolveResult:
    """``status`` is SAT, UNSAT or UNKNOWN (time limit, or the node limit: ``stopped`` "nodes");
    ``true_vars`` the true primary variables."""

    status: str
    true_vars: frozenset[int] = frozenset()
    solver: str = ""
    seconds: float = 0.0
    lazy_rounds: int = 0
    stats: dict = field(default_factory=dict)
    stopped: str = ""                   # UNKNOWN by the node limit: "nodes"


def solver_name(name: str) -> str:
    """The canonical solver name for ``name`` (an alias -> its PySAT name, ``race`` -> the
    table's race)."""
    _check_string(name)
    if name == "race" or "+" in name:
        return "+".join(race_members(name))
    name = ALIASES.get(name, name)
    if name != "auto" and solver_row(name) is None:
        raise SatilingError(f"unknown solver {name!r} (choose from {', '.join(SOLVER_CHOICES)})")
    return name


def _check_string(name: object) -> None:
    if not isinstance(name, str):
        raise SatilingError(f"a solver is named by a string (e.g. {DEFAULT_SAT_ALIAS!r}), not "
                            f"{type(name).__name__}")


def race_members(name: str) -> tuple[str, ...]:
    """The SAT solvers a race runs: ``race`` or ``A+B+...`` (PySAT names or their aliases)."""
    members = RACE if name == "race" else tuple(ALIASES.get(m, m) for m in name.split("+"))
    bad = [m for m in members if m not in SAT_SOLVERS]
    if bad or len(members) < 2:
        raise SatilingError(f"a race is two or more SAT solvers joined by '+' (e.g. {'+'.join(RACE)}), "
                            f"not {name!r}")
    return members


def enumeration_solver(name: str) -> str:
    """``name`` itself if it can enumerate with blocking clauses (one PySAT solver, an alias of
    one, or cpsat); else the SatilingError the enumeration would raise, but before any work."""
    _check_string(name)
    if name == "race" or "+" in name:
        raise _one_solver()
    if ALIASES.get(name, name) in SAT_SOLVERS + ("cpsat",):
        return name
    if name in SOLVER_CHOICES:                        # known, but not one that enumerates
        raise SatilingError(_not_sat(name))
    raise SatilingError(f"unknown SAT solver {name[:40]!r} (choose from {', '.join(sat_names())}, cpsat)")


def _one_solver() -> SatilingError:
    return SatilingError("a race of SAT solvers finds one solution (solve); this needs one solver, "
                         "e.g. {solver}", solver=Option("solver", DEFAULT_SAT_ALIAS))


def _not_sat(name: str) -> str:
    return f"{name} is not a SAT solver; this needs one of {', '.join(sat_names())}"


def auto_solver(problem: Problem) -> str:
    """The solver ``auto`` runs: the exact-cover search on an exact cover, else the default SAT
    solver."""
    from .router import walk_suits
    return EXACT_SOLVER if walk_suits(problem) else DEFAULT_SAT


def _checked_assumptions(problem: Problem, assumptions: Any) -> list[int]:
    """Literals of ``problem``'s variables (a solver handed variable 10**9 grows to hold it)."""
    if isinstance(assumptions, (str, bytes)) or not isinstance(assumptions, (list, tuple, set, frozenset)):
        raise SatilingError(f"assumptions are a list of literals, not {type(assumptions).__name__}")
    for lit in assumptions:
        if isinstance(lit, bool) or not isinstance(lit, int) or not 1 <= abs(lit) <= problem.num_vars:
            raise SatilingError(f"an assumption is a literal of the model's {problem.num_vars} "
                                f"variables (1 to {problem.num_vars}, or its negation), not {lit!r}")
    return list(assumptions)


def solve(problem: Problem, solver: str | None = "auto", time_limit: float | None = None,
          assumptions: Sequence[int] = (), amo: str | None = None,
          workers: int | None = None, node_limit: int | None = None) -> SolveResult:
    """Find one solution of ``problem`` (or prove there is none).  ``solver`` None is ``auto``;
    ``workers``: CP-SAT's search threads (default: every core); ``node_limit``: stop after that
    many nodes of the exact-cover search, or conflicts of a SAT solver or CP-SAT (the same on
    every machine)."""
    if not isinstance(problem, Problem):
        raise SatilingError(f"solve takes a Problem (puzzle.problem()), not {type(problem).__name__}")
    time_limit = check_seconds(time_limit)       # -1 or NaN would silently mean "no answer"
    workers = check_workers(workers)
    node_limit = check_node_limit(node_limit)
    assumptions = _checked_assumptions(problem, assumptions)
    name = solver_name("auto" if solver is None else solver)
    if name == "auto":
        name = auto_solver(problem)
    if node_limit is not None and not takes_node_limit(name):
        raise SatilingError(f"{name} takes no node limit (the exact-cover search, CP-SAT and these "
                            f"SAT solvers do: {', '.join(n for n in SAT_SOLVERS if takes_node_limit(n))})")
    start, deadline = time.perf_counter(), Deadline.after(time_limit)
    kind = "race" if "+" in name else solver_row(name).kind
    if any(len(c) == 0 for c in problem.clauses):
        result = SolveResult("UNSAT")                  # an empty clause: nothing to search
    elif kind == "exact":
        result = _solve_exact(problem, deadline, assumptions, node_limit)
    elif kind == "race":
        result, name = _race(problem, race_members(name), deadline, assumptions, amo)
    else:
        solve_here = {"cp": _solve_cpsat, "mip": _solve_mip}.get(kind, _pysat_loop)
        options = workers if kind == "cp" else (amo if kind == "sat" else None)
        result = in_child(solve_here, deadline, problem, name, assumptions, options, node_limit)
    result.solver, result.seconds = name, time.perf_counter() - start
    return result


def _race(problem: Problem, members: tuple[str, ...], deadline: Deadline,
          assumptions: Sequence[int], amo: str | None) -> tuple[SolveResult, str]:
    """Every member on the whole problem in its own process; the first answer and who gave it."""
    calls = [(_pysat_loop, (problem, m, assumptions, amo)) for m in members]
    try:
        won, result = race_in_children(calls, deadline)
    except (TimeoutError, ChildDied):
        return SolveResult("UNKNOWN"), "+".join(members)
    return result, f"{members[won]} (first of {'+'.join(members)})"


def lazy_cuts(problem: Problem, true_vars: frozenset[int]) -> list[list[int]]:
    """The clauses the problem's lazy checks return for a candidate (empty: it passes)."""
    cuts: list[list[int]] = []
    for check in problem.lazy:
        cuts.extend(check(true_vars))
    return cuts


def primary_true(problem: Problem, model: Sequence[int]) -> frozenset[int]:
    return frozenset(v for v in model if v > 0 and v <= problem.num_vars and problem.primary[v])


def in_child(func: Callable[..., SolveResult], deadline: Deadline, *args: Any) -> SolveResult:
    """``func(*args)`` in a forked child process, killed on a signal; UNKNOWN if it has not
    answered by ``deadline`` or died without an answer."""
    try:
        return run_in_child(func, *args, deadline=deadline)
    except (TimeoutError, ChildDied):
        return SolveResult("UNKNOWN")


# -- PySAT ----------------------------------------------------------------------------------------
def open_pysat(problem: Problem, name: str, amo: str | None = None, child: bool = True,
               pairwise_limit: int | None = None, **kwargs: Any):
    """A PySAT solver loaded with the problem's clauses: by default in a child process
    (:class:`ChildSat`, the calls satiling makes), ``child=False`` a ``pysat.solvers.Solver`` here."""
    if "+" in name:
        raise _one_solver()
    if name not in SAT_SOLVERS:
        raise SatilingError(_not_sat(name))
    if child:
        import pysat.solvers  # noqa: F401 -- imported here once, inherited by each child
        return ChildSat(problem, name, amo, pairwise_limit, kwargs)
    from pysat.solvers import Solver
    from ..backends.cnf import DEFAULT_AMO, PAIRWISE_LIMIT, CnfEncoder
    enc = CnfEncoder(problem, amo or DEFAULT_AMO, pairwise_limit or PAIRWISE_LIMIT)
    s = Solver(name=name, **kwargs)
    s.append_formula(enc.clauses())
    return s


class _Loaded:
    """The solver inside the child: one round trip per solve (the answer and the model at once)."""

    def __init__(self, problem: Problem, name: str, amo: str | None, pairwise_limit: int | None,
                 kwargs: dict) -> None:
        self.s = open_pysat(problem, name, amo, child=False, pairwise_limit=pairwise_limit, **kwargs)
        self.n = problem.num_vars

    def solve(self, clauses: list[list[int]], assumptions: list[int]) -> list[int] | None:
        """Add ``clauses``, then solve under ``assumptions``."""
        for clause in clauses:
            self.s.add_clause(clause)
        if not self.s.solve(assumptions=assumptions):
            return None
        return self.s.get_model()[:self.n]

    def nof_vars(self) -> int:
        return self.s.nof_vars()


class ChildSat:
    """A PySAT solver in a child process with the calls satiling makes of one (``solve``,
    ``get_model`` over the problem's own variables, ``add_clause``, ``nof_vars``, ``delete``).
    An interrupt kills the child; adding to a solver that is gone is then a no-op, so cleanup code
    (``finally``) never masks the interrupt.

    Clauses added wait here and go with the next ``solve``, and the variable count is kept here
    (the highest variable of any clause, as the solver keeps it): a count that blocks each
    solution makes one round trip per solution, not three."""

    def __init__(self, problem: Problem, name: str, amo: str | None = None,
                 pairwise_limit: int | None = None, kwargs: dict | None = None) -> None:
        self._child = ChildObject(_Loaded, problem, name, amo, pairwise_limit, kwargs or {})
        self._model: list[int] | None = None
        self._waiting: list[list[int]] = []
        self._vars: int = self._child.call("nof_vars")

    def solve(self, assumptions: Sequence[int] = ()) -> bool:
        clauses, self._waiting = self._waiting, []
        self._model = self._child.call("solve", clauses, list(assumptions))
        return self._model is not None

    def get_model(self) -> list[int] | None:
        return self._model

    def add_clause(self, clause: Sequence[int]) -> None:
        clause = [int(lit) for lit in clause]
        self._waiting.append(clause)
        self._vars = max(self._vars, *(abs(lit) for lit in clause), 0)

    def nof_vars(self) -> int:
        return self._vars

    def delete(self) -> None:
        self._child.close()

    def __enter__(self) -> "ChildSat":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.delete()


def _pysat_loop(problem: Problem, name: str, assumptions: Sequence[int], amo: str | None,
                node_limit: int | None = None) -> SolveResult:
    """Solve with lazy cuts, here (the caller has put this in a child process); ``node_limit``:
    conflicts in all."""
    rounds = 0
    with open_pysat(problem, name, amo, child=False,
                    pairwise_limit=SOLVE_PAIRWISE_LIMIT if amo is None else None) as s:
        while True:
            if node_limit is None:
                sat = s.solve(assumptions=list(assumptions))
            else:
                s.conf_budget(max(1, node_limit - s.accum_stats().get("conflicts", 0)))
                sat = s.solve_limited(assumptions=list(assumptions))
                if sat is None:
                    return SolveResult("UNKNOWN", lazy_rounds=rounds, stopped="nodes")
            if not sat:
                return SolveResult("UNSAT", lazy_rounds=rounds)
            true = primary_true(problem, s.get_model())
            cuts = lazy_cuts(problem, true)
            if not cuts:
                return SolveResult("SAT", true, lazy_rounds=rounds)
            rounds += 1
            if not solver_row(name).incremental:     # rebuilt with the cuts
                for c in cuts:
                    problem.add_clause(c)
                return _pysat_loop(problem, name, assumptions, amo, node_limit)
            for c in cuts:
                s.add_clause(c)


# -- CP-SAT and MIP: one model, re-solved with the lazy cuts ---------------------------------------
def _check_loop(problem: Problem, solve_once: Callable[[], frozenset[int] | str],
                add_cut: Callable[[list[int]], None]) -> SolveResult:
    """Solve, hand the candidate to the lazy checks, add their cuts, solve again.  ``solve_once``
    returns the true primary variables, or UNSAT or UNKNOWN.  (The time limit is the child's.)"""
    rounds = 0
    while True:
        found = solve_once()
        if found == "NODES":
            return SolveResult("UNKNOWN", lazy_rounds=rounds, stopped="nodes")
        if isinstance(found, str):
            return SolveResult(found, lazy_rounds=rounds)
        cuts = lazy_cuts(problem, found)
        if not cuts:
            return SolveResult("SAT", found, lazy_rounds=rounds)
        rounds += 1
        for c in cuts:
            add_cut(c)


def _solve_cpsat(problem: Problem, name: str, assumptions: Sequence[int],
                 workers: int | None, node_limit: int | None = None) -> SolveResult:
    """CP-SAT with ``workers`` search threads (None: one per core), here (in the child);
    ``node_limit``: conflicts in all (its lazy-cut rounds together), on one thread (CP-SAT counts
    a budget of conflicts per thread, and threads race: one thread is the same work anywhere)."""
    from ortools.sat.python import cp_model
    from ..backends.cpsat import add_clause, to_cpsat
    model, x = to_cpsat(problem)
    for a in assumptions:
        add_clause(model, x, [a])

    used = 0

    def solve_once() -> frozenset[int] | str:
        nonlocal used
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1 if node_limit is not None else workers or os.cpu_count() or 1
        if node_limit is not None:
            solver.parameters.max_number_of_conflicts = max(1, node_limit - used)
        status = solver.solve(model)
        used += solver.num_conflicts
        if status == cp_model.INFEASIBLE:
            return "UNSAT"
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "NODES" if node_limit is not None and used >= node_limit else "UNKNOWN"
        return frozenset(v for v in problem.primary_vars() if solver.boolean_value(x[v]))

    return _check_loop(problem, solve_once, lambda c: add_clause(model, x, c))


def _solve_mip(problem: Problem, name: str, assumptions: Sequence[int], _: Any = None,
               __: Any = None) -> SolveResult:
    """SCIP, HiGHS or CBC through OR-Tools, here (in the child)."""
    from ortools.linear_solver import pywraplp
    from ..backends.mip import MIP_SOLVERS as BACKENDS, add_clause, to_mip
    solver, x = to_mip(problem, BACKENDS[name])
    for a in assumptions:
        add_clause(solver, x, [a])

    def solve_once() -> frozenset[int] | str:
        status = solver.Solve()
        if status == pywraplp.Solver.INFEASIBLE:
            return "UNSAT"
        if status not in (pywraplp.Solver.OPTIMAL, pywraplp.Solver.FEASIBLE):
            return "UNKNOWN"
        return frozenset(v for v in problem.primary_vars() if x[v].solution_value() > 0.5)

    return _check_loop(problem, solve_once, lambda c: add_clause(solver, x, c))


# -- the exact-cover search ------------------------------------------------------------------------
def _solve_exact(problem: Problem, deadline: Deadline, assumptions: Sequence[int],
                node_limit: int | None = None) -> SolveResult:
    """The first solution of the compiled exact-cover search (dancing links, the most constrained
    item first: Tortoise, 45 Eternity pieces, in a fraction of a second); its Python reference
    (:class:`~satiling.engines.exactcover_ref.Walk`) where the model is no exact cover the
    compiled engine takes.  The search returns to Python every few milliseconds,
    so the time limit and signals act in this process."""
    from ..engines.exactcover import ExactCover, matrix_of
    from .exact import engine_solutions
    from ..engines.exactcover_ref import Walk, supports
    if not supports(problem):
        raise SatilingError("the exact-cover search solves exact covers only (this model has "
                            "auxiliary variables)")
    matrix = matrix_of(problem)
    if matrix is None:
        if node_limit is not None:
            raise SatilingError("a node limit needs the compiled exact-cover search, which does "
                                "not take this model (use a SAT solver)")
        if deadline.at is not None:             # the child is killed at the deadline
            return in_child(_solve_exact, deadline, problem, NO_DEADLINE, assumptions)
        first = next(Walk(problem).solutions(assumptions), None)
        return SolveResult("UNSAT") if first is None else SolveResult("SAT", first)

    def check_time(part_done: float) -> None:
        if deadline.expired():
            raise _OutOfTime

    engine = ExactCover(matrix)
    found = engine_solutions(engine, tuple(assumptions), problem.clauses, problem.linears,
                             problem.lazy, check_time, max_nodes=node_limit)
    try:
        first = next(found, None)
    except _OutOfTime:
        return SolveResult("UNKNOWN")
    if first is None and not engine.stats().finished:
        return SolveResult("UNKNOWN", stopped="nodes")
    return SolveResult("UNSAT") if first is None else SolveResult("SAT", first)


class _OutOfTime(Exception):
    """The search's deadline passed between two batches of it."""
