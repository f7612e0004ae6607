"""Pieces placed by hand: an instance's ``[[placed]]`` tables, read and checked.

A pin is one piece on given cells, in the lattice's own coordinates (as a region's ``cells``).  It
is part of every solution: the model takes it as a unit and drops every placement that would
clash with it (on its cells, or of a piece all of whose copies are pinned), the verifier asks for
it, and a count up to symmetry uses only the motions that map the set of pins onto itself
(:mod:`.puzzle`).  This module reads the pins and refuses a bad one in one line naming it: a piece
the set lacks, a cell off the board, cells not of the piece's shape, two pins on one cell, a piece
pinned more often than the set has it.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from ...errors import SatilingError


def read_placed(entries: Iterable[Any], name: str) -> list[tuple[str, tuple]]:
    """(piece, sorted cells) of each ``[[placed]]`` table, in the file's order (the schema has
    checked their types); a cell listed twice is refused here."""
    out = []
    for i, entry in enumerate(entries, 1):
        cells = [tuple(c) for c in entry["cells"]]
        if len(set(cells)) != len(cells):
            raise SatilingError(f"{name}: [[placed]] {i}: a cell is listed twice")
        out.append((str(entry["piece"]), tuple(sorted(cells))))
    return out


def check_placed(puzzle: Any, placed: list[Any]) -> None:
    """Raise SatilingError (one line, naming the pin as ``[[placed]] N``) unless every pin is a
    placement of one of the puzzle's pieces, on the board, clear of the others, and no piece is
    pinned more often than the puzzle has it."""
    name = puzzle.name
    owner: dict[Any, int] = {}
    used: Counter[str] = Counter()
    for i, pl in enumerate(placed, 1):
        where = f"{name}: [[placed]] {i}"
        piece = puzzle.by_name.get(pl.piece)
        if piece is None:
            known = ", ".join(p.name for p in puzzle.pieces[:12])
            more = ", ..." if len(puzzle.pieces) > 12 else ""
            raise SatilingError(f"{where}: no piece {pl.piece!r} (the pieces: {known}{more})")
        off = next((c for c in pl.cells if c not in puzzle.region), None)
        if off is not None:
            raise SatilingError(f"{where}: cell {list(off)} of piece {pl.piece} is off the board")
        if len(pl.cells) != len(piece.shape) or not puzzle.has_shape(pl):
            raise SatilingError(f"{where}: these {len(pl.cells)} cells are not piece {pl.piece} in "
                                f"any orientation it may take ({piece.freedom})")
        clash = next((c for c in pl.cells if c in owner), None)
        if clash is not None:
            raise SatilingError(f"{where}: cell {list(clash)} is pinned by [[placed]] "
                                f"{owner[clash]} too")
        owner.update((c, i) for c in pl.cells)
        used[pl.piece] += 1
        if used[pl.piece] > piece.count:
            times = "once" if piece.count == 1 else f"{piece.count} times"
            raise SatilingError(f"{where}: piece {pl.piece} is pinned {used[pl.piece]} times, but "
                                f"the set has it {times}")
