"""Every solution of a model, streamed by one engine (the engine is chosen in :mod:`.searchers`,
whose ``solutions`` is the entry; symmetry, cubes and workers are the count pipeline's:
:mod:`.stream`).

Two kinds of engine give the same stream of solutions (frozensets of true placement variables):

* the compiled exact-cover search (:mod:`satiling.engines.exactcover`), for exact
  covers; its readable Python reference, :mod:`satiling.engines.exactcover_ref`, where the engine does not apply;
* ``sat`` / ``cpsat`` -- an incremental solver with one blocking clause per solution over the true
  placement literals (the shortest clause that excludes exactly that solution), for problems with
  auxiliary variables or constraints the exact-cover search does not know.  The solver runs in a child process
  (:mod:`satiling.signals`), so Ctrl-C or SIGTERM stops it at once and cleanly.

"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from ..problem import Problem
from ..children import child_items
from ..engines.table import solver as solver_row
from .solve import lazy_cuts, open_pysat, primary_true, solver_name
from ..engines.exactcover_ref import Walk


def cpsat_solutions(problem: Problem, assume: Sequence[int]) -> Iterator[frozenset[int]]:
    """CP-SAT's stream, in a child process."""
    from ortools.sat.python import cp_model  # noqa: F401 -- imported once, inherited by each child
    yield from child_items(_cpsat_solutions, problem, assume)


def exact_solutions(problem: Problem, assume: Sequence[int]) -> Iterator[frozenset[int]]:
    """The compiled search where the model is an exact-cover matrix (the faster,
    docs/decisions/2026-11-27-router-defaults.md), side constraints checked at the leaves; else
    its Python reference."""
    from ..engines.exactcover import ExactCover, matrix_of
    from .exact import engine_solutions
    matrix = matrix_of(problem)
    if matrix is None:
        yield from Walk(problem).solutions(assume)
        return
    yield from engine_solutions(ExactCover(matrix), tuple(assume), problem.clauses,
                                problem.linears, problem.lazy)


def blocker(problem: Problem) -> Callable[[frozenset[int]], list[int]]:
    """The clause that excludes exactly one solution.

    When every placement lies in a group with ``lo == hi`` (every piece used exactly k times), no
    solution contains another, so negating the true placements (k literals: 12 for pentominoes)
    suffices -- the shortest clause, and measured fastest.  Otherwise a solution may extend another
    (optional pieces), and the clause must also name the false placements.
    """
    exact = set()
    for g in problem.groups:
        if g.lo == g.hi:
            exact.update(abs(v) for v in g.lits)
    primary = problem.primary_vars()
    if all(v in exact for v in primary):
        return lambda true: [-v for v in sorted(true)]
    return lambda true: [-v if v in true else v for v in primary]


def sat_solutions(problem: Problem, solver: str, assume: Sequence[int]) -> Iterator[frozenset[int]]:
    name = solver_name(solver)
    if name == "cpsat":                   # --solver cpsat: CP-SAT's stream
        yield from cpsat_solutions(problem, assume)
        return
    if not solver_row(name).incremental:
        yield from child_items(_fresh_sat_solutions, problem, name, assume)
        return
    with open_pysat(problem, name) as s:
        def find() -> frozenset[int] | None:
            return primary_true(problem, s.get_model()) if s.solve(assumptions=list(assume)) else None
        yield from _blocking(problem, find, s.add_clause)


def _fresh_sat_solutions(problem: Problem, name: str,
                         assume: Sequence[int]) -> Iterator[frozenset[int]]:
    """As :func:`sat_solutions` for a solver that takes no clause after a solve and ignores
    assumptions (its row in the solver table says it is not incremental: PySAT's build aborts the
    process on the one, warns on the other): a new solver
    per solution, given the assumptions as units and every clause found so far (all in one child
    process: :func:`sat_solutions` runs this through ``child_items``)."""
    added = [[a] for a in assume]

    def find() -> frozenset[int] | None:
        with open_pysat(problem, name, child=False) as s:
            for c in added:
                s.add_clause(c)
            return primary_true(problem, s.get_model()) if s.solve() else None
    yield from _blocking(problem, find, added.append)


def _cpsat_solutions(problem: Problem, assume: Sequence[int]) -> Iterator[frozenset[int]]:
    """CP-SAT, one solve per solution with blocking clauses (so lazy checks can run between); one
    search thread per solve."""
    from ortools.sat.python import cp_model
    from ..backends.cpsat import add_clause, to_cpsat
    model, x = to_cpsat(problem)
    for a in assume:
        add_clause(model, x, [a])
    primary = problem.primary_vars()

    def find() -> frozenset[int] | None:
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return None
        return frozenset(v for v in primary if solver.boolean_value(x[v]))
    yield from _blocking(problem, find, lambda clause: add_clause(model, x, clause))


def _blocking(problem: Problem, find: Callable[[], frozenset[int] | None],
              add: Callable[[list[int]], Any]) -> Iterator[frozenset[int]]:
    """The loop every solver's enumeration shares: ``find`` a model (its true primary variables;
    None when there is none), ``add`` the lazy cuts it breaks or, when it breaks none, yield it and
    add the clause that excludes exactly it (:func:`blocker`)."""
    block = blocker(problem)
    while (true := find()) is not None:
        cuts = lazy_cuts(problem, true)
        for c in cuts:
            add(list(c))
        if cuts:
            continue
        yield true
        clause = block(true)
        if not clause:                              # the only solution is the empty one
            return
        add(clause)
