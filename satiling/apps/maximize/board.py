"""What every engine of :mod:`satiling.apps.maximize` reports: better boards, re-scored from the
pieces (a model's own count is never trusted), and the result."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import SatilingError


@dataclass
class Improvement:
    """A board better than every one before: ``score`` of ``joins`` joins match."""

    score: int
    joins: int
    seconds: float
    solution: list[Any] = field(repr=False)


@dataclass
class MaxResult:
    """``status``: OPTIMAL (proved best), FEASIBLE (best found in the time), UNKNOWN (no board)."""

    status: str
    score: int
    joins: int
    solution: list[Any]
    seconds: float
    bound: int | None = None       # an upper bound on the score, when the engine proved one
    stopped_by: BaseException | None = None     # the interrupt that ended the search early
    nodes: int = 0                 # the backtracker's nodes, where it counts them (0: not counted)
    cpu: float = 0.0               # the CPU seconds of the searches where they count them (on a Dask
                                   # cluster: their threads', without the workers' own)


def score_of(puzzle: Any, solution: list[Any]) -> int:
    from ...families.edgematch.score import score
    return score(puzzle, puzzle.board_from(solution, strict=False)).matched


def checked_score(puzzle: Any, solution: list[Any], hints: bool = False, whose: str = "") -> int:
    """The matching joins of a full board, counted by the scorer ``satiling score`` uses, after
    checking it is a board: every square one piece, every piece once, grey exactly on the rim,
    the pinned pieces in place.  ``whose``: the board came from the user (a start board), and the
    error names it; else a board that fails the check is an internal error."""
    from ...families.edgematch.score import check_board, score
    prefix = f"{whose}: " if whose else "internal error: "
    board = puzzle.board_from(solution, strict=False)
    check_board(puzzle, board)
    s = score(puzzle, board)
    if s.placed != s.squares or s.misfits:
        raise SatilingError(f"{prefix}not a full board ({s})")
    for t in puzzle.fixed + (puzzle.hints if hints else []):
        if board.get((t.row, t.col)) != (t.piece, t.rotation):
            raise SatilingError(f"{prefix}pinned piece {t.piece} is not on {t.square}")
    return s.matched
