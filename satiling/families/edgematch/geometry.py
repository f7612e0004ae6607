"""Edge-matching geometry: sides, rotations, square names, placements and joins.

A piece is four colours ``(N, E, S, W)`` clockwise from the top; colour 0 is the grey border.
Row 0 is the top row, named ``A``; column 0 is named ``1``; a rotation is a number of clockwise
quarter turns.  Plain values only: the puzzle, its models, files and scores build on these.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...errors import SatilingError

N, E, S, W = range(4)
SIDE_NAMES = "NESW"
GREY = 0
#: row/column step from a square to its neighbour on each side
STEP = ((-1, 0), (0, 1), (1, 0), (0, -1))

Edges = tuple[int, int, int, int]
Square = tuple[int, int]


# -- pieces and squares ------------------------------------------------------------------------
def rotate(edges: Sequence[int], r: int) -> Edges:
    """``edges`` turned ``r`` clockwise quarter turns: the old N side becomes E, and so on."""
    return tuple(edges[(d - r) % 4] for d in range(4))  # type: ignore[return-value]


def distinct_rotations(edges: Sequence[int]) -> list[int]:
    """The rotations giving different colourings (a symmetric piece has fewer than four); each is
    the smallest rotation with its colouring."""
    seen: dict[Edges, int] = {}
    for r in range(4):
        seen.setdefault(rotate(edges, r), r)
    return sorted(seen.values())


def canonical_rotation(edges: Sequence[int], r: int) -> int:
    """The smallest rotation with the same colouring as rotation ``r``."""
    target = rotate(edges, r)
    return next(q for q in range(4) if rotate(edges, q) == target)


def shape_key(edges: Sequence[int]) -> Edges:
    """The same for a piece and its rotations: equal keys mean equal pieces."""
    return min(rotate(edges, r) for r in range(4))


def row_name(row: int) -> str:
    """A, B, ..., Z, AA, AB, ... (row 0 = A, the top row)."""
    out, n = "", row + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


def square_name(row: int, col: int) -> str:
    """``I8`` = row I (9th from the top), column 8 (8th from the left)."""
    return f"{row_name(row)}{col + 1}"


def parse_square(text: str, rows: int, cols: int) -> Square:
    """(row, col) of a square name such as ``I8``; SatilingError when malformed or off the board."""
    # exactly as written: 'a1', 'A01' or ' A1 ' is a typo to point out, not a square to guess
    t = text if isinstance(text, str) else ""
    letters = "".join(ch for ch in t if "A" <= ch <= "Z")
    digits = t[len(letters):]
    if not letters or not (digits.isascii() and digits.isdigit()) or digits[0] == "0":
        raise SatilingError(f"{text!r} is not a square name like I8")
    row = 0
    for ch in letters:
        row = row * 26 + ord(ch) - 64
    row, col = row - 1, int(digits) - 1
    if not (0 <= row < rows and 0 <= col < cols):
        raise SatilingError(f"square {text} is not on the {rows}x{cols} board")
    return row, col


# -- placements ------------------------------------------------------------------------------
@dataclass(frozen=True, order=True)
class Tile:
    """Piece ``piece`` (1-based id) on square (``row``, ``col``) turned ``rotation`` clockwise
    quarter turns.  The compact encoding leaves ``rotation`` None: the join colours carry it."""

    row: int
    col: int
    piece: int
    rotation: int | None = None

    @property
    def square(self) -> str:
        return square_name(self.row, self.col)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"square": self.square, "piece": self.piece}
        if self.rotation is not None:
            out["rotation"] = self.rotation
        return out

    def sort_key(self) -> tuple:
        return (0, self.row, self.col, self.piece, -1 if self.rotation is None else self.rotation)

    def __str__(self) -> str:
        return f"{self.square} {self.piece}/{'-' if self.rotation is None else self.rotation}"


@dataclass(frozen=True, order=True)
class JoinColour:
    """The join on side ``side`` (E or S) of square (``row``, ``col``) has colour ``colour``."""

    row: int
    col: int
    side: int
    colour: int

    def to_json(self) -> dict[str, Any]:
        return {"join": f"{square_name(self.row, self.col)}{SIDE_NAMES[self.side]}", "colour": self.colour}

    def sort_key(self) -> tuple:
        return (1, self.row, self.col, self.side, self.colour)

    def __str__(self) -> str:
        return f"{square_name(self.row, self.col)}{SIDE_NAMES[self.side]}={self.colour}"


@dataclass(frozen=True)
class Join:
    """Two squares sharing a side: ``a`` and the square on its side ``side`` (E or S)."""

    a: Square
    side: int

    @property
    def b(self) -> Square:
        dr, dc = STEP[self.side]
        return (self.a[0] + dr, self.a[1] + dc)

    def ends(self) -> tuple[tuple[Square, int], tuple[Square, int]]:
        """(square, side facing the join) for both squares."""
        return (self.a, self.side), (self.b, (self.side + 2) % 4)


#: A board: square -> (piece, rotation)
Board = dict[Square, tuple[int, int]]


def check_edges(p: Sequence[int], where: str) -> Edges:
    """A piece's four colours as integers (SatilingError naming ``where`` otherwise)."""
    try:
        vals = tuple(int(x) for x in p)
    except (TypeError, ValueError):
        raise SatilingError(f"{where}: colours must be integers") from None
    if len(vals) != 4 or min(vals) < 0:
        raise SatilingError(f"{where}: a piece is four colours N E S W, 0 for grey, others positive")
    return vals  # type: ignore[return-value]
