"""The hexagon lattice (polyhexes): axial cell ``(q, r)``; twelve symmetries (D6).

Hexagons point up; row ``r`` counts downwards and each row sits half a hexagon right of the one
above, so the centre of ``(q, r)`` is at ``(q + r/2, r * sqrt(3)/2)`` (neighbouring centres are one
unit apart).  In ASCII art every hexagon is one character on a doubled-width grid: row ``r`` uses
columns ``r, r+2, r+4, ...`` (column ``2q + r``)::

    o o o o        q = 0..3, r = 0
     o o o o       q = 0..3, r = 1  (a 2x4 parallelogram)

Every translation maps a hexagon to a hexagon.  A 60-degree turn about the centre of ``(0, 0)`` is
``(q, r) -> (-r, q + r)``; a mirror in the horizontal line through it is ``(q, r) -> (q + r, -r)``.
"""
from __future__ import annotations

import math
from typing import Any

from ..errors import SatilingError
from .lattice import Cell, Lattice, Transform, parse_named

_R = 1 / math.sqrt(3)          # circumradius: neighbouring centres are 1 apart


def _rotate60(cell: Cell, turns: int) -> Cell:
    q, r = cell
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def _mirror(cell: Cell) -> Cell:
    q, r = cell
    return (q + r, -r)


def _transform(turns: int, mirrored: bool) -> Transform:
    if mirrored:
        return Transform(f"mirror-rot{60 * turns}", lambda c: _rotate60(_mirror(c), turns), False)
    return Transform("identity" if turns == 0 else f"rot{60 * turns}",
                     lambda c: _rotate60(c, turns), True)


class HexagonLattice(Lattice):
    name = "hexagon"

    def transforms(self) -> list[Transform]:
        return [_transform(k, False) for k in range(6)] + [_transform(k, True) for k in range(6)]

    def translation(self, a: Cell, b: Cell) -> tuple[int, int]:
        return (b[0] - a[0], b[1] - a[1])

    def shift(self, cell: Cell, t: tuple[int, ...]) -> Cell:
        return (cell[0] + t[0], cell[1] + t[1])

    def origin(self, cell: Cell) -> Cell:
        return (0, 0)

    def centre(self, cell: Cell) -> tuple[float, float]:
        q, r = cell
        return (q + r / 2, r * math.sqrt(3) / 2)

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        x, y = self.centre(cell)
        return [(x + _R * math.cos(math.radians(a)), y + _R * math.sin(math.radians(a)))
                for a in range(30, 360, 60)]

    def neighbors(self, cell: Cell) -> list[Cell]:
        q, r = cell
        return [(q + 1, r), (q - 1, r), (q, r + 1), (q, r - 1), (q + 1, r - 1), (q - 1, r + 1)]

    # -- shapes from text ------------------------------------------------------------------------
    def parse_ascii(self, text: str) -> list[Cell]:
        """One character per hexagon (any but space and '.') at column ``2q + r`` of line ``r``."""
        cells = []
        for r, line in enumerate(text.strip("\n").splitlines()):
            for col, ch in enumerate(line):
                if ch in " .":
                    continue
                if (col - r) % 2:
                    raise SatilingError(f"hexagon ASCII art: line {r + 1} has a cell in column {col + 1}; "
                                        "row r uses columns r, r+2, r+4, ... (counting from 0)")
                cells.append(((col - r) // 2, r))
        return cells

    def parse_spec(self, spec: dict[str, Any], where: str) -> list[Cell]:
        """``parallelogram = [rows, cols]``, ``triangle = side`` or ``hexagon = side``."""
        return parse_named(spec, where, {"parallelogram": (2, parallelogram), "triangle": (1, triangle),
                                         "hexagon": (1, hexagon)})


# -- standard regions ---------------------------------------------------------------------------
def parallelogram(rows: int, cols: int) -> list[Cell]:
    """``rows`` rows of ``cols`` hexagons, each row half a hexagon right of the one above."""
    return [(q, r) for r in range(rows) for q in range(cols)]


def triangle(side: int) -> list[Cell]:
    """The triangle with ``side`` hexagons on each side (``side * (side + 1) / 2`` cells)."""
    return [(q, r) for r in range(side) for q in range(side - r)]


def hexagon(side: int) -> list[Cell]:
    """The hexagon with ``side`` hexagons on each side (``3 * side * (side - 1) + 1`` cells)."""
    n = side - 1
    return [(q, r) for r in range(-n, n + 1) for q in range(-n, n + 1) if abs(q + r) <= n]

