"""The triangle lattice (polyiamonds): cell ``(row, col)``; twelve symmetries (D6).

Rows are horizontal strips of unit triangles, counted downwards; along a row up- and down-pointing
triangles alternate.  Cell ``(r, c)`` points up when ``r + c`` is even::

    row 0:  /\\/\\/\\        (0,0) up, (0,1) down, (0,2) up, ...
    row 1:  \\/\\/\\/        (1,0) down, (1,1) up, ...

so ASCII art is simply one character per triangle.  A translation ``(dr, dc)`` is a lattice
translation exactly when ``dr + dc`` is even (it keeps up-triangles up).

Rotations work in *centroid coordinates*: the centroid of triangle ``(r, c)`` is the integer point
``(X, Y) = (c, 3r + 2)`` (up) or ``(c, 3r + 1)`` (down) in units of half a side horizontally and a
third of a row vertically, measured from the lattice vertex at the apex of triangle ``(0, 0)``.
In those units a 60-degree turn about that vertex is ``(X, Y) -> ((X - Y) / 2, (3X + Y) / 2)`` and a
mirror is ``X -> -X``, both exact in integers.
"""
from __future__ import annotations

import math
from typing import Any

from .lattice import Cell, Lattice, Transform, parse_named

_H = math.sqrt(3) / 2          # height of a unit triangle


def is_up(cell: Cell) -> bool:
    """Whether triangle ``cell`` points up."""
    return (cell[0] + cell[1]) % 2 == 0


def _to_centroid(cell: Cell) -> tuple[int, int]:
    r, c = cell
    return (c, 3 * r + (2 if is_up(cell) else 1))


def _from_centroid(x: int, y: int) -> Cell:
    return (y // 3, x)


def _rotate60(cell: Cell, turns: int) -> Cell:
    x, y = _to_centroid(cell)
    for _ in range(turns % 6):
        x, y = (x - y) // 2, (3 * x + y) // 2
    return _from_centroid(x, y)


def _mirror(cell: Cell) -> Cell:
    x, y = _to_centroid(cell)
    return _from_centroid(-x, y)


def _transform(turns: int, mirrored: bool) -> Transform:
    if mirrored:
        return Transform(f"mirror-rot{60 * turns}", lambda c: _rotate60(_mirror(c), turns), False)
    return Transform("identity" if turns == 0 else f"rot{60 * turns}",
                     lambda c: _rotate60(c, turns), True)


class TriangleLattice(Lattice):
    name = "triangle"

    def transforms(self) -> list[Transform]:
        return [_transform(k, False) for k in range(6)] + [_transform(k, True) for k in range(6)]

    def translation(self, a: Cell, b: Cell) -> tuple[int, int] | None:
        dr, dc = b[0] - a[0], b[1] - a[1]
        return (dr, dc) if (dr + dc) % 2 == 0 else None

    def shift(self, cell: Cell, t: tuple[int, ...]) -> Cell:
        return (cell[0] + t[0], cell[1] + t[1])

    def origin(self, cell: Cell) -> Cell:
        return (0, 0) if is_up(cell) else (0, 1)

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        top, bottom, left = r * _H, (r + 1) * _H, c / 2
        if is_up(cell):
            return [(left + 0.5, top), (left + 1, bottom), (left, bottom)]
        return [(left, top), (left + 1, top), (left + 0.5, bottom)]

    def neighbors(self, cell: Cell) -> list[Cell]:
        r, c = cell
        across = (r + 1, c) if is_up(cell) else (r - 1, c)   # through the horizontal side
        return [(r, c - 1), (r, c + 1), across]

    # -- shapes from text ------------------------------------------------------------------------
    def parse_spec(self, spec: dict[str, Any], where: str) -> list[Cell]:
        """``parallelogram = [rows, cols]``, ``triangle = side`` or ``hexagon = side``."""
        return parse_named(spec, where, {"parallelogram": (2, parallelogram), "triangle": (1, triangle),
                                         "hexagon": (1, hexagon)})


# -- standard regions ---------------------------------------------------------------------------
def parallelogram(rows: int, cols: int) -> list[Cell]:
    """``rows`` strips of ``cols`` up/down pairs, each strip half a side left of the one above."""
    return [(r, c) for r in range(rows) for c in range(-r, -r + 2 * cols)]


def triangle(side: int) -> list[Cell]:
    """The up-pointing triangle of side ``side`` (``side**2`` cells)."""
    return [(r, c) for r in range(side) for c in range(-r, r + 1)]


def hexagon(side: int) -> list[Cell]:
    """The regular hexagon of side ``side`` (``6 * side**2`` cells), flat sides on top and bottom."""
    x0, y0 = side % 2, 3 * side          # its centre: a vertex on the line between rows side-1, side
    cells = []
    for r in range(2 * side):
        for c in range(x0 - 2 * side - 1, x0 + 2 * side + 2):
            x, y = _to_centroid((r, c))
            # inside the six sides (centroids never lie on a side, so strict tests are exact)
            if abs(y - y0) < 3 * side and 3 * abs(x - x0) + abs(y - y0) < 6 * side:
                cells.append((r, c))
    return cells
