"""The most pieces that fit: a diagnostic for boards that will not tile.

When a board resists every search, the question becomes whether the data can be tiled at all.  A
*packing* relaxes the exact cover: every cell is covered at most once and every piece used at most
its number of times, and CP-SAT maximises either the pieces placed or the cells covered.  The cells
left over (the *hole*) show where the board and the pieces disagree; an optimum below a full tiling,
proved by CP-SAT, is a certificate that no tiling exists.

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
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from ortools.sat.python import cp_model

from ..backends.cpsat import to_cpsat
from ..errors import SatilingError
from ..families.polyform import PolyformPuzzle
from ..limits import check_seconds, check_workers

OBJECTIVES = ("pieces", "area")


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

    @property
    def value(self) -> int:
        return self.pieces if self.objective == "pieces" else self.cells

    @property
    def full(self) -> int:
        return self.total_pieces if self.objective == "pieces" else self.total_cells

    def summary(self) -> str:
        word = {"OPTIMAL": "optimal", "FEASIBLE": "best found", "UNKNOWN": "none found"}[self.status]
        text = (f"{self.pieces} of {self.total_pieces} pieces placed, {self.cells} of "
                f"{self.total_cells} cells covered, hole of {len(self.hole)} cells ({word}")
        if self.bound is not None and self.status != "OPTIMAL":
            text += f"; at most {self.bound} {self.objective} proved"
        return text + f", {self.seconds:.1f} s)"


def relaxed(puzzle: Any) -> PolyformPuzzle:
    """The same board and pieces with every cell and piece "at most once" (polyforms only)."""
    if not isinstance(puzzle, PolyformPuzzle):
        raise SatilingError(f"{puzzle.name}: packing is for polyform boards")
    return PolyformPuzzle(puzzle.name, puzzle.lattice, puzzle.region, puzzle.pieces,
                          "at-most", "at-most", puzzle.title, puzzle.source)


class Packer:
    """Maximise a packing with CP-SAT; :meth:`stop` (from a signal handler) keeps the best so far."""

    def __init__(self, puzzle: Any, objective: str = "pieces") -> None:
        if objective not in OBJECTIVES:
            raise SatilingError(f"unknown objective {objective!r} (choose from {', '.join(OBJECTIVES)})")
        self.puzzle = relaxed(puzzle)
        self.objective = objective
        self.problem = self.puzzle.problem()
        self._solver: cp_model.CpSolver | None = None
        self._stopped = threading.Event()

    def run(self, time_limit: float | None = None, workers: int = 1, hint: list[Any] = (),
            on_improve: Callable[[int, float], None] | None = None, seed: int = 0) -> Packing:
        """The best packing within ``time_limit`` seconds; ``hint``: placements to start from."""
        time_limit = check_seconds(time_limit)       # NaN or -1 would end the search unseen
        workers = check_workers(workers)
        start = time.perf_counter()
        model, x = to_cpsat(self.problem)
        weight = {v: 1 if self.objective == "pieces" else len(self.problem.meaning(v).cells)
                  for v in self.problem.primary_vars()}
        model.maximize(sum(w * x[v] for v, w in weight.items()))
        # the area cannot exceed the board, nor the pieces their number: bounds CP-SAT may not see
        model.add(sum(x[v] for v in weight) <= sum(p.count for p in self.puzzle.pieces))
        model.add(sum(len(self.problem.meaning(v).cells) * x[v] for v in weight) <= len(self.puzzle.region))
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
        if self._stopped.is_set():
            return self._result("UNKNOWN", [], None, start)
        callback = _Progress(on_improve, start) if on_improve else None
        status = solver.solve(model, callback)
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return self._result("UNKNOWN", [], None, start)
        chosen = [v for v in weight if solver.value(x[v])]
        placements = self.problem.decode(chosen)
        self.puzzle.verify(placements)          # a valid packing, checked from the geometry
        result = self._result("OPTIMAL" if status == cp_model.OPTIMAL else "FEASIBLE", placements,
                              int(solver.best_objective_bound + 1e-6), start)
        if result.value >= result.full:           # every piece (or cell) used: nothing is better
            result.status = "OPTIMAL"
        result.bound = min(result.bound, result.full)
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
                       bound, hole, time.perf_counter() - start)


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


class _Progress(cp_model.CpSolverSolutionCallback):
    """Report every better packing (objective value, seconds) as CP-SAT finds it."""

    def __init__(self, report: Callable[[int, float], None], start: float) -> None:
        super().__init__()
        self.report, self.start = report, start

    def on_solution_callback(self) -> None:
        self.report(int(self.objective_value + 1e-6), time.perf_counter() - self.start)
