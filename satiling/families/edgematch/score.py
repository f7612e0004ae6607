"""The score of an edge-matching board, full or partial: how many interior joins match.

Eternity II records are scores: 480 joins on the 16x16 board, the best known board has 470.  A join
counts when both its squares hold a piece and the two touching sides have the same (non-grey)
colour, as on the e2.bucas.name viewer.  Boards are read and written by
:mod:`satiling.families.edgematch.board` (grid text, e2.bucas.name URL, JSON).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..base import Puzzle          # an edge-matching puzzle (its module imports this one)
from .board import check_board, parse_board, partial_board
from .geometry import GREY, Board, Tile

__all__ = ["Score", "check_board", "parse_board", "partial_board", "pins_held", "score"]


@dataclass(frozen=True)
class Score:
    """``matched`` of ``joins`` interior joins match; ``placed`` of ``squares`` squares hold a
    piece; ``misfits`` pieces break the frame rule (grey exactly on the rim)."""

    matched: int
    joins: int
    placed: int
    squares: int
    misfits: int

    def __str__(self) -> str:
        extra = f", {self.misfits} pieces off their frame position" if self.misfits else ""
        return f"{self.matched}/{self.joins} joins match, {self.placed}/{self.squares} squares filled{extra}"


def score(puzzle: Puzzle, board: Board) -> Score:
    """Count matching joins (both sides filled, equal non-grey colours)."""
    matched = 0
    joins = puzzle.joins()
    for j in joins:
        (a, da), (b, db) = j.ends()
        if a in board and b in board:
            ca = puzzle.edges(*board[a])[da]
            if ca != GREY and ca == puzzle.edges(*board[b])[db]:
                matched += 1
    misfits = sum(1 for sq, (p, r) in board.items() if not puzzle.fits(puzzle.edges(p, r), sq))
    return Score(matched, len(joins), len(board), puzzle.rows * puzzle.cols, misfits)


def pins_held(puzzle: Puzzle, board: Board) -> list[tuple[Tile, tuple[int, int] | None]]:
    """Each pinned piece (the fixed ones, then the hints) with what ``board`` holds on its square
    (``(piece, rotation)``, None when empty): ``score --hints`` and the web page say which are in
    place from it."""
    return [(t, board.get((t.row, t.col))) for t in [*puzzle.fixed, *puzzle.hints]]
