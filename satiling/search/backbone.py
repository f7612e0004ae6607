"""The placements in every solution (the backbone over the placement variables), and a hint: one
placement of some solution.

Both ask one question again and again: a solution under assumptions (placements forced in or out),
or none.  Two oracles answer it, with the same calls:

* :class:`ExactOracle` -- the compiled exact-cover search (:mod:`satiling.engines.exactcover`),
  its rows forced in or out, on a model that is an exact cover (polyforms, with the pocket cut);
* :class:`SatOracle` -- one incremental PySAT solver (the default SAT solver) in a child process, the assumptions
  its own, lazy constraints cut in as the solve loop does (any model).

:func:`backbone` finds one solution; its placements are the candidates.  For each candidate still
open it asks for a solution without it: none proves the candidate forced; one settles every
candidate that solution lacks as not forced.  Each question settles at least one candidate, so a
solution of k placements takes at most k + 1 of them.  :func:`backbone_by_enumeration`
intersects every solution instead, stopping as soon as the intersection is empty (the
measurements that chose between them: docs/decisions/2026-11-28-forced-and-hint.md).

Both keep what they know in a :class:`Backbone` updated as they go, so a run stopped by Ctrl-C or
a time limit still says what it proved: ``forced`` is proved (every solution holds each), ``open``
are the candidates not settled yet (maybe forced, maybe not).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from ..engines.exactcover import ExactCover, matrix_of
from ..engines.table import DEFAULT_SAT
from ..errors import SatilingError
from ..problem import Problem

METHODS = ("auto", "exact", "sat", "enumerate")
#: a hint tries this many placements at random (each: is there a solution holding it?) before it
#: falls back on a placement of the first solution found
HINT_TRIES = 30


@dataclass
class Backbone:
    """What is known of the placements every solution holds.  ``exists``: None until a solution
    is found or none is proved; ``forced``: variables proved in every solution, in the order
    proved (the fixed placements first); ``open``: candidates not settled yet; ``solutions``: the
    solutions met (each verified by ``check``); ``questions``: the oracle's calls."""

    method: str
    exists: bool | None = None
    forced: list[int] = field(default_factory=list)
    open: list[int] = field(default_factory=list)
    solutions: int = 0
    questions: int = 0

    @property
    def complete(self) -> bool:
        return self.exists is not None and not self.open


class ExactOracle:
    """Solutions of an exact cover by the compiled search, under assumptions on its rows."""

    name = "exact"

    def __init__(self, problem: Problem, board: Any = None) -> None:
        matrix = matrix_of(problem, board)
        if matrix is None or problem.clauses or problem.linears or problem.lazy:
            raise SatilingError(f"{problem.name}: not an exact cover: the exact search does not apply")
        self.engine = ExactCover(matrix)

    def first(self, assume: Sequence[int] = ()) -> frozenset[int] | None:
        rows = self.engine.first([v - 1 if v > 0 else v for v in assume])
        return None if rows is None else frozenset(r + 1 for r in rows)

    def every(self) -> Iterator[frozenset[int]]:
        for rows in self.engine.solutions():
            yield frozenset(r + 1 for r in rows)

    def close(self) -> None:
        pass


class SatOracle:
    """Solutions by one incremental PySAT solver in a child process (an interrupt kills it)."""

    name = "sat"

    def __init__(self, problem: Problem, solver: str = DEFAULT_SAT) -> None:
        from .solve import SOLVE_PAIRWISE_LIMIT, open_pysat
        self.problem = problem
        self.s = open_pysat(problem, solver, pairwise_limit=SOLVE_PAIRWISE_LIMIT)

    def first(self, assume: Sequence[int] = ()) -> frozenset[int] | None:
        from .solve import lazy_cuts, primary_true
        while True:
            if not self.s.solve(list(assume)):
                return None
            true = primary_true(self.problem, self.s.get_model())
            cuts = lazy_cuts(self.problem, true)
            if not cuts:
                return true
            for c in cuts:
                self.s.add_clause(c)

    def every(self) -> Iterator[frozenset[int]]:
        """Solutions until none is left, each blocked once found.  The blocking clause (not all
        of its placements) also rules out the solutions that hold all of them and more (under
        "at most" rules): their placements in common with every other are the same, so the
        intersection :func:`backbone_by_enumeration` takes is unchanged."""
        while True:
            sol = self.first()
            if sol is None:
                return
            yield sol
            if not sol:
                return
            self.s.add_clause([-v for v in sorted(sol)])

    def close(self) -> None:
        self.s.delete()


def oracle(problem: Problem, board: Any = None, method: str = "auto") -> ExactOracle | SatOracle:
    """The oracle for ``method``: ``auto`` takes the exact search where the model is an exact
    cover, else SAT; ``enumerate`` intersects that oracle's solutions."""
    if method not in METHODS:
        raise SatilingError(f"unknown method {method!r} (choose from {', '.join(METHODS)})")
    if method in ("exact", "auto", "enumerate"):
        try:
            return ExactOracle(problem, board)
        except SatilingError:
            if method == "exact":
                raise
    return SatOracle(problem)


def backbone(problem: Problem, ask: ExactOracle | SatOracle, known: Backbone,
             check: Callable[[frozenset[int]], None] = lambda sol: None) -> Backbone:
    """The placements every solution holds, by asking for a solution without each candidate;
    ``known`` is updated in place as each is settled (a stop keeps it true), and returned.
    ``check`` verifies each solution met (raising if one is wrong)."""
    sol = _met(ask.first(), known, check)
    if sol is None:
        known.exists = False
        return known
    known.exists = True
    fixed = [u for u in problem.units if u > 0 and problem.primary[u]]
    known.forced = list(fixed)
    known.open = sorted(sol - set(fixed))
    while known.open:
        candidate = known.open[0]
        other = _met(ask.first([-candidate]), known, check)
        if other is None:
            known.forced.append(candidate)
            known.open = known.open[1:]
        else:                              # (the candidate is not in it: it goes too)
            known.open = [v for v in known.open if v in other]
    return known


def backbone_by_enumeration(problem: Problem, ask: ExactOracle | SatOracle, known: Backbone,
                            check: Callable[[frozenset[int]], None] = lambda sol: None) -> Backbone:
    """The same by intersecting every solution, until the intersection is empty.  Only the
    fixed placements are proved before the end: the rest stay ``open`` until every solution is
    met."""
    fixed = [u for u in problem.units if u > 0 and problem.primary[u]]
    common: set[int] | None = None
    for sol in ask.every():
        known.questions += 1
        check(sol)
        known.solutions += 1
        common = set(sol) if common is None else common & sol
        if known.exists is None:
            known.exists, known.forced = True, list(fixed)
        known.open = sorted(common - set(fixed))
        if not known.open:
            return known
    if common is None:
        known.exists = False
    else:
        known.forced, known.open = fixed + known.open, []
    return known


def _met(sol: frozenset[int] | None, known: Backbone,
         check: Callable[[frozenset[int]], None]) -> frozenset[int] | None:
    known.questions += 1
    if sol is not None:
        check(sol)
        known.solutions += 1
    return sol


@dataclass
class Hint:
    """A placement (variable) of ``solution``, a verified solution; None when every placement of
    the solution is fixed already (nothing left to reveal)."""

    placement: int | None
    solution: frozenset[int]


def hint(problem: Problem, ask: ExactOracle | SatOracle, rng: random.Random,
         check: Callable[[frozenset[int]], None] = lambda sol: None) -> Hint | None:
    """One placement, not fixed, of some solution (None: there is no solution).  Placements are
    tried in a random order (is there a solution with this one?) up to :data:`HINT_TRIES`, so two
    seeds mostly reveal different placements from different solutions; after that, a random one of
    the first solution."""
    fixed = {abs(u) for u in problem.units}
    free = [v for v in problem.primary_vars() if v not in fixed]
    rng.shuffle(free)
    for v in free[:HINT_TRIES]:
        sol = ask.first([v])
        if sol is not None:
            check(sol)
            return Hint(v, sol)
    sol = ask.first()
    if sol is None:
        return None
    check(sol)
    left = sorted(sol - fixed)
    return Hint(rng.choice(left) if left else None, sol)
