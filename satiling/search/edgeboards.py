"""An edge-matching puzzle as the backtracker's boards, and its boards back as tiles.

The bridge between the family and :mod:`satiling.engines.edgematch`, which know nothing of each
other: the puzzle becomes :class:`~satiling.engines.edgematch.EdgeBoard` data (its pinned pieces in
place), the engine's boards become :class:`~satiling.families.edgematch.Tile` placements.

Counting up to symmetry: with all pieces different, a board rotation never maps a solution to
itself, so every class holds exactly one solution with the lowest-numbered corner piece in the
top-left corner (a square board) or in one of the two top corners (a rectangle, whose only
rotation is the half turn).  :func:`edge_boards` with ``distinct`` pins that piece there.
"""
from __future__ import annotations

from ..errors import SatilingError
from ..families.edgematch import GREY, EdgeMatchPuzzle, Tile


def edge_boards(puzzle: EdgeMatchPuzzle, hints: bool, distinct: bool) -> list:
    """The engine's boards; with ``distinct`` (and no pinned piece), one per allowed square of the
    lowest-numbered corner piece, so that each symmetry class is found once (module doc)."""
    from ..engines.edgematch import EdgeBoard
    pinned = list(puzzle.fixed) + (list(puzzle.hints) if hints else [])
    puzzle.check_hints(hints)
    if len({t.piece for t in pinned}) < len(pinned) or len({t.square for t in pinned}) < len(pinned):
        raise SatilingError(f"{puzzle.name}: two pinned pieces share a piece or a square")
    fixed = tuple((t.row, t.col, t.piece - 1, t.rotation or 0) for t in pinned)
    board = EdgeBoard(puzzle.rows, puzzle.cols, tuple(puzzle.pieces), fixed)
    if not distinct or pinned:
        return [board]
    corners = [p for p, e in enumerate(puzzle.pieces, 1) if sum(x == GREY for x in e) == 2]
    if not corners:
        return []                              # no corner piece: no solution
    squares = [(0, 0)] if puzzle.rows == puzzle.cols else [(0, 0), (0, puzzle.cols - 1)]
    out = []
    for sq in squares:
        rots = puzzle.legal_rotations(corners[0], sq)
        if rots:
            out.append(EdgeBoard(puzzle.rows, puzzle.cols, tuple(puzzle.pieces),
                                 ((sq[0], sq[1], corners[0] - 1, rots[0]),)))
    return out


def tiles(placed: list[tuple[int, int, int, int]]) -> list[Tile]:
    return [Tile(r, c, p + 1, rot) for r, c, p, rot in placed]
