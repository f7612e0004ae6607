"""The most pieces that fit: a diagnostic for boards that will not tile.

When a board resists every search, the question becomes whether the data can be tiled at all.  A
*packing* relaxes the exact cover: every cell is covered at most once and every piece used at most
its number of times, and CP-SAT maximises either the pieces placed or the cells covered.  The cells
left over (the *hole*) show where the board and the pieces disagree; an optimum below a full tiling,
proved by CP-SAT, is a certificate that no tiling exists.

Before CP-SAT, the arguments ``solve`` makes bound the answer (:func:`proved_bound`): the areas,
pieces that fit nowhere (named), cells no placement covers, parts of the board cut off from each
other (:mod:`satiling.families.polyform.coverage`), then -- when the bound is still "everything
fits" -- the parity argument and the compiled exact-cover search, for at most ``EXACT_SECONDS``.
The bound goes into the CP-SAT model as a constraint, so CP-SAT stops by itself (optimal) the
moment it finds a packing that reaches it: a 6x10 board with one cell cut off is proved to hold
at most 11 pentominoes before any search, and packed with 11 in a fraction of a second, where
CP-SAT alone still claimed "at most 12" after minutes.

The model is the family's own exact cover with its rules relaxed to "at most", so the placements
and the verifier are the family's: every packing returned has passed ``puzzle.verify`` of the
relaxed puzzle.

    >>> from satiling import load
    >>> result = Packer(load("tetromino-4x5")).run(time_limit=10)
    >>> result.status, result.pieces, len(result.hole)
    ('OPTIMAL', 4, 4)
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..engines.exactcover import ExactCover, matrix_of
from ..errors import SatilingError
from ..families.polyform import PolyformPuzzle
from ..families.polyform.coverage import cells_named, max_sum, most_by_area, named
from ..limits import NO_DEADLINE, Deadline, check_seconds, check_workers, clock
from ..search.exact import engine_solutions

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

OBJECTIVES = ("pieces", "area")
#: the exact-cover search's share of a packing run, in seconds, before CP-SAT (at most half the
#: time limit): the search tiles the bundled boards well within it, so a board it neither tiles
#: nor refutes in this time is one where CP-SAT's packings are the useful answer
#: (measurements: docs/decisions/2026-11-27-models-and-encodings.md)
EXACT_SECONDS = 5.0


def check_exact_seconds(value: Any, time_limit: float | None, what: str = "exact_seconds",
                        limit: str = "the time limit") -> float | None:
    """The exact search's share of a packing run: None (the default, :data:`EXACT_SECONDS` or
    half the time limit if that is less), 0 (none) or seconds, at most half of ``time_limit``
    (``limit`` names it): CP-SAT keeps the other half, so a larger share cannot be honoured."""
    if value is None or (type(value) in (int, float) and value == 0):
        return value
    share = check_seconds(value, what)
    if time_limit is not None and share > time_limit / 2:
        raise SatilingError(f"{what} {value:g} is more than half of {limit} ({time_limit:g} s): "
                            "the exact search has at most half, CP-SAT the rest")
    return share


@dataclass
class Packing:
    """The best packing found.  ``status``: OPTIMAL (proved), FEASIBLE (best in the time), UNKNOWN.

    ``bound`` is the best upper bound CP-SAT proved on the objective (pieces or cells); a bound
    below the full count proves that the board has no tiling.
    """

    status: str
    objective: str
    placements: list[Any] = field(repr=False)
    pieces: int
    cells: int
    total_pieces: int
    total_cells: int
    bound: int | None
    hole: list[Any] = field(repr=False)
    seconds: float
    #: why the objective can be no higher than ``bound`` without CP-SAT, one line per argument
    reasons: list[str] = field(default_factory=list)

    @property
    def value(self) -> int:
        return self.pieces if self.objective == "pieces" else self.cells

    @property
    def full(self) -> int:
        return self.total_pieces if self.objective == "pieces" else self.total_cells

    def summary(self) -> str:
        word = {"OPTIMAL": "optimal", "FEASIBLE": "best found", "UNKNOWN": "none found"}[self.status]
        holes = len(self.hole)
        text = (f"{self.pieces} of {self.total_pieces} pieces placed, {self.cells} of "
                f"{self.total_cells} cells covered, hole of {holes} cell{'s' * (holes != 1)} ({word}")
        if self.bound is not None and self.status != "OPTIMAL":
            text += f"; at most {self.bound} {self.objective} proved"
        return text + f", {self.seconds:.1f} s)"


def relaxed(puzzle: Any) -> PolyformPuzzle:
    """The same board, pieces and pins with every cell and piece "at most once" (polyforms only)."""
    if not isinstance(puzzle, PolyformPuzzle):
        raise SatilingError(f"{puzzle.name}: packing is for polyform boards")
    return PolyformPuzzle(puzzle.name, puzzle.lattice, puzzle.region, puzzle.pieces,
                          "at-most", "at-most", puzzle.title, puzzle.source, puzzle.wrap, puzzle.placed)


@dataclass
class Bound:
    """At most ``value`` pieces (or cells), and why: one line per argument that lowered it."""

    value: int
    #: (the bound after it, the argument), in the order they were made
    steps: list[tuple[int, str]] = field(default_factory=list)
    #: the question "does everything that can fit, fit?" when ``value`` still allows it: the
    #: puzzle whose tiling would reach ``value`` (None: the bound is below it already)
    question: PolyformPuzzle | None = None

    @property
    def reasons(self) -> list[str]:
        return [reason for _, reason in self.steps]

    def lower(self, value: int, reason: str) -> None:
        if value < self.value:
            self.value = value
            self.steps.append((value, reason))


def proved_bound(puzzle: PolyformPuzzle, objective: str = "pieces") -> Bound:
    """The most pieces (cells) a packing can hold, from the arguments ``solve`` makes before any
    search: the areas, pieces that fit nowhere, cells no placement covers, parts cut off from each
    other; then, when all that can fit might, the parity argument on that tiling."""
    cover = puzzle.coverage()
    most = most_by_area if objective == "pieces" else max_sum
    word = objective if objective == "pieces" else "cells"
    sizes = _sizes(puzzle.pieces)
    full = sum(sizes.values()) if objective == "pieces" else len(puzzle.region)
    bound = Bound(full)
    bound.lower(most(sizes, len(puzzle.region)), f"area: the board's {len(puzzle.region)} cells "
                f"hold at most {most(sizes, len(puzzle.region))} {word} of these pieces")
    placeable = [p for p in puzzle.pieces if p.name not in cover.unplaced]
    sizes = _sizes(placeable)
    if cover.unplaced:
        verb = "fits" if len(cover.unplaced) == 1 else "fit"
        bound.lower(most(sizes, len(puzzle.region)), f"{named(cover.unplaced)} {verb} nowhere")
    room = len(puzzle.region) - len(cover.uncovered)
    if cover.uncovered:
        bound.lower(most(sizes, room), f"{cells_named(cover.uncovered)} covered by no placement")
    if len(cover.parts) > 1:
        each = [most(part.sizes, len(part.cells)) for part in cover.parts]
        shown = ", ".join(str(len(part.cells)) for part in cover.parts[:6])
        bound.lower(sum(each), f"the board falls apart into parts of {shown}"
                    f"{', ...' if len(cover.parts) > 6 else ''} cells that no piece crosses, "
                    f"holding at most {sum(each)} {word}")
    everything = sum(sizes.values()) if objective == "pieces" else room
    if bound.value == everything and placeable:
        bound.question = _question(puzzle, placeable, cover.uncovered, objective)
        reason = bound.question.obstruction()
        if reason is not None:
            bound.lower(_below(objective, sizes, everything), f"no packing reaches {everything} "
                        f"{word}: {reason}")
            bound.question = None
    return bound


def _sizes(pieces: list[Any]) -> dict[int, int]:
    """area -> copies (the pieces objective counts copies, the area objective their cells)."""
    out: dict[int, int] = {}
    for p in pieces:
        out[len(p.shape)] = out.get(len(p.shape), 0) + p.count
    return out


def _below(objective: str, sizes: dict[int, int], value: int) -> int:
    """The next value a packing could reach below ``value``."""
    return value - 1 if objective == "pieces" else max_sum(sizes, value - 1)


def _question(puzzle: PolyformPuzzle, placeable: list[Any], uncovered: tuple, objective: str) -> PolyformPuzzle:
    """The tiling that would reach the bound: every piece that fits placed (pieces), or every
    cell some piece reaches covered (area); the other side exact when the areas agree."""
    region = puzzle.region - set(uncovered)
    area = sum(len(p.shape) * p.count for p in placeable)
    cells = "exact" if objective == "area" or area == len(region) else "at-most"
    pieces = "exact" if objective == "pieces" or area == len(region) else "at-most"
    return PolyformPuzzle(puzzle.name, puzzle.lattice, region, placeable, cells, pieces,
                          puzzle.title, puzzle.source, puzzle.wrap, puzzle.placed)


class Packer:
    """Maximise a packing with CP-SAT; :meth:`stop` (from a signal handler) keeps the best so far."""

    def __init__(self, puzzle: Any, objective: str = "pieces") -> None:
        if objective not in OBJECTIVES:
            raise SatilingError(f"unknown objective {objective!r} (choose from {', '.join(OBJECTIVES)})")
        self.puzzle = relaxed(puzzle)
        self.objective = objective
        self.problem = self.puzzle.problem()
        self.bound = proved_bound(self.puzzle, objective)
        self._solver: cp_model.CpSolver | None = None
        self._stopped = threading.Event()
        self._deadline = NO_DEADLINE

    def run(self, time_limit: float | None = None, workers: int = 1, hint: list[Any] = (),
            on_improve: Callable[[int, float], None] | None = None, seed: int = 0,
            exact_seconds: float | None = None,
            on_bound: Callable[[int, str], None] | None = None) -> Packing:
        """The best packing within ``time_limit`` seconds; ``hint``: placements to start from;
        ``exact_seconds``: the exact search's share (0: none; None: :data:`EXACT_SECONDS`, or half
        the time limit if that is less; more than half is refused); ``on_bound`` hears each
        argument that lowers the bound (the bound, the reason), as it is made."""
        time_limit = check_seconds(time_limit)       # NaN or -1 would end the search unseen
        workers = check_workers(workers)
        exact_seconds = check_exact_seconds(exact_seconds, time_limit)
        if exact_seconds is None:
            exact_seconds = EXACT_SECONDS if time_limit is None else min(EXACT_SECONDS, time_limit / 2)
        start = clock()
        # CP-SAT stops itself at the limit; the stages before it (the exact search, building
        # CP-SAT's model) look at the deadline between their steps
        self._deadline = Deadline.after(time_limit, start)
        return self._run(start, time_limit, workers, hint, on_improve, seed, exact_seconds,
                         on_bound)

    def _over(self) -> bool:
        """Whether the run must end now: a stop was asked for, or the time limit passed."""
        return self._stopped.is_set() or self._deadline.expired()

    def _run(self, start: float, time_limit: float | None, workers: int, hint: list[Any],
             on_improve: Callable[[int, float], None] | None, seed: int, exact_seconds: float,
             on_bound: Callable[[int, str], None] | None) -> Packing:
        for value, reason in self.bound.steps:
            if on_bound:
                on_bound(value, reason)
        tiling = self._exact_stage(start, time_limit, exact_seconds, on_bound)
        if tiling is not None or self.bound.value == 0:
            result = self._result("OPTIMAL", tiling or [], self.bound.value, start)
            self.puzzle.verify(result.placements)
            if on_improve:
                on_improve(result.value, result.seconds)
            return result
        return self._cpsat(start, self._deadline.left(floor=0.01), workers, hint, on_improve, seed)

    def _exact_stage(self, start: float, time_limit: float | None, seconds: float,
                     on_bound: Callable[[int, str], None] | None) -> list[Any] | None:
        """Run the compiled exact cover on the bound's question for ``seconds`` (at most half the
        time limit, checked by :meth:`run`): its tiling reaches the bound (returned); no tiling
        lowers the bound by one step; undecided, nothing changes."""
        question = self.bound.question
        if question is None or seconds <= 0 or self._over():
            return None
        # the stage's share holds its preparation too (Eternity's 1.4 million placements take
        # many times the share), looked at between its steps
        deadline = Deadline.after(seconds)

        def check(part: float = 0.0) -> None:
            if self._over() or deadline.expired():
                raise _Undecided
        began = clock()
        try:
            problem = question.problem()
            check()
            board = question.cover_board(problem)
            check()
            matrix = matrix_of(problem, board)
            if matrix is None:
                return None
            check()
            first = next(engine_solutions(ExactCover(matrix), (), progress=check), None)
        except _Undecided:
            return None
        if first is not None:
            return problem.decode(first)
        word = self.objective if self.objective == "pieces" else "cells"
        everything = self.bound.value
        below = _below(self.objective, _sizes(question.pieces), everything)
        self.bound.lower(below, f"no packing reaches {everything} {word}: the exact-cover search "
                                f"finds no way ({clock() - began:.2f} s)")
        if on_bound:
            on_bound(*self.bound.steps[-1])
        return None

    def _cpsat(self, start: float, time_limit: float | None, workers: int | None, hint: list[Any],
               on_improve: Callable[[int, float], None] | None, seed: int) -> Packing:
        # OR-Tools is imported here, not with the module: the CLI reads pack's options on every run
        from ortools.sat.python import cp_model
        from ..backends.cpsat import BuildStopped, to_cpsat
        try:
            model, x = to_cpsat(self.problem, stopped=self._over, named=False)
        except BuildStopped:
            return self._result("UNKNOWN", [], None, start)
        weight = {v: 1 if self.objective == "pieces" else len(self.problem.meaning(v).cells)
                  for v in self.problem.primary_vars()}
        objective = cp_model.LinearExpr.weighted_sum([x[v] for v in weight], list(weight.values()))
        model.maximize(objective)
        # the area cannot exceed the board, nor the pieces their number: bounds CP-SAT may not see
        model.add(cp_model.LinearExpr.sum([x[v] for v in weight]) <= sum(p.count for p in self.puzzle.pieces))
        model.add(cp_model.LinearExpr.weighted_sum([x[v] for v in weight],
                                                   [len(self.problem.meaning(v).cells) for v in weight])
                  <= len(self.puzzle.region))
        # the proved bound: CP-SAT stops (optimal) as soon as a packing reaches it
        model.add(objective <= self.bound.value)
        hinted = set(hint)
        for v in weight:
            if hinted:
                model.add_hint(x[v], self.problem.meaning(v) in hinted)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = workers or 1
        solver.parameters.random_seed = seed
        solver.parameters.catch_sigint_signal = False     # the caller decides what a signal means
        if time_limit is not None:
            solver.parameters.max_time_in_seconds = time_limit
        self._solver = solver
        if self._over():
            return self._result("UNKNOWN", [], None, start)
        callback = _progress(on_improve, start) if on_improve else None
        status = solver.solve(model, callback)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._result("UNKNOWN", [], None, start)
        chosen = [v for v in weight if solver.value(x[v])]
        placements = self.problem.decode(chosen)
        self.puzzle.verify(placements)          # a valid packing, checked from the geometry
        result = self._result("OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE", placements,
                              int(solver.best_objective_bound + 1e-6), start)
        if result.value >= min(result.full, self.bound.value):   # nothing better can exist
            result.status = "OPTIMAL"
        result.bound = min(result.bound, result.full, self.bound.value)
        return result

    def stop(self) -> None:
        """Ask a running search to finish now with the best packing it has."""
        self._stopped.set()
        if self._solver is not None:
            self._solver.stop_search()

    def _result(self, status: str, placements: list[Any], bound: int | None, start: float) -> Packing:
        covered = {c for pl in placements for c in pl.cells}
        hole = sorted(self.puzzle.region - covered)
        return Packing(status, self.objective, placements, len(placements), len(covered),
                       sum(p.count for p in self.puzzle.pieces), len(self.puzzle.region),
                       bound, hole, clock() - start, list(self.bound.reasons))


class _Undecided(Exception):
    """The exact stage ran out of its time (or was stopped) without an answer."""


def hole_components(puzzle: Any, hole: list[Any]) -> list[list[Any]]:
    """The connected parts of a hole (edge neighbours on the puzzle's lattice), largest first."""
    left, parts = set(hole), []
    while left:
        stack = [left.pop()]
        part = []
        while stack:
            cell = stack.pop()
            part.append(cell)
            for n in puzzle.lattice.neighbors(cell):
                if n in left:
                    left.remove(n)
                    stack.append(n)
        parts.append(sorted(part))
    return sorted(parts, key=len, reverse=True)


def _progress(report: Callable[[int, float], None], start: float) -> "cp_model.CpSolverSolutionCallback":
    """A CP-SAT callback reporting every better packing (objective value, seconds)."""
    from ortools.sat.python import cp_model

    class Progress(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            report(int(self.objective_value + 1e-6), clock() - start)
    return Progress()
