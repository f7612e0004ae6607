"""The drafter lattice (kisrhombille tiling): 30-60-90 triangles, twelve around every hexagon centre.

This is the grid of Monckton's Eternity puzzle as Burkardt & Garvie describe it.  Take the lattice
of unit equilateral triangles; each one splits into six 30-60-90 *elements* (corner, edge midpoint,
centroid).  Around every corner of the unit-triangle grid sit twelve elements forming a hexagon;
these hexagons tile the plane.  A cell is ``(a, b, t)``: the hexagon centred at corner
``a*(1, 0) + b*(1/2, sqrt(3)/2)`` and the element ``t`` in 0..11 lying between the rays at
``30*t`` and ``30*(t+1)`` degrees (counter-clockwise from east).

An Eternity piece (a *polydrafter*) is 12 drafters = 36 elements.  A drafter is three elements, and
a drafter laid "against the grain" is still three elements of this grid, so every placement of a
polydrafter lies on this one lattice.  Translations are the corner lattice ``(da, db)`` (they keep
``t``), and the point group about a corner is D6: 60-degree turns add 2 to ``t``.

Burkardt's integer coordinates ``(i, j)`` (``x = i/4``, ``y = j*sqrt(3)/12``) and boundary words are
supported: a word is a counter-clockwise path from the corner ``(0, 0)`` using the letters below
(upper case a full element edge, lower case half the length along the same ray).

    letter  A     B     C     D     E      F      G      H       I       J      K      L
    (i, j)  (2,0) (2,2) (1,3) (0,4) (-1,3) (-2,2) (-2,0) (-2,-2) (-1,-3) (0,-4) (1,-3) (2,-2)
"""
from __future__ import annotations

import math
from bisect import bisect_right
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable

from ..errors import SatilingError
from .lattice import Cell, Lattice, Shape, Transform

#: the twelve step vectors in (i, j), letter A (east) first, then every 30 degrees counter-clockwise
STEPS: tuple[tuple[int, int], ...] = (
    (2, 0), (2, 2), (1, 3), (0, 4), (-1, 3), (-2, 2),
    (-2, 0), (-2, -2), (-1, -3), (0, -4), (1, -3), (2, -2),
)
LETTERS = "ABCDEFGHIJKL"
#: the six corner-lattice directions (da, db), 0 degrees first, every 60 degrees counter-clockwise
_DIRECTIONS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def corner_ij(a: int, b: int) -> tuple[int, int]:
    """Burkardt coordinates of the hexagon centre (a grid corner) ``(a, b)``."""
    return (4 * a + 2 * b, 6 * b)


def element_ij(cell: Cell) -> list[tuple[int, int]]:
    """The three corners of an element in Burkardt coordinates: centre, then counter-clockwise."""
    a, b, t = cell
    i, j = corner_ij(a, b)
    (i1, j1), (i2, j2) = STEPS[t], STEPS[(t + 1) % 12]
    return [(i, j), (i + i1, j + j1), (i + i2, j + j2)]


def _rotate60(cell: Cell, turns: int) -> Cell:
    a, b, t = cell
    for _ in range(turns % 6):
        a, b = -b, a + b
    return (a, b, (t + 2 * turns) % 12)


def _mirror(cell: Cell) -> Cell:
    """Mirror in the horizontal line through the origin: (i, j) -> (i, -j)."""
    a, b, t = cell
    return (a + b, -b, (-t - 1) % 12)


def _transform(turns: int, mirrored: bool) -> Transform:
    if mirrored:
        return Transform(f"mirror-rot{60 * turns}", lambda c: _rotate60(_mirror(c), turns), False)
    return Transform("identity" if turns == 0 else f"rot{60 * turns}",
                     lambda c: _rotate60(c, turns), True)


class DrafterLattice(Lattice):
    name = "drafter"

    def __init__(self) -> None:
        self._index: _RegionIndex | None = None     # the last region seen by fits()

    def transforms(self) -> list[Transform]:
        return [_transform(k, False) for k in range(6)] + [_transform(k, True) for k in range(6)]

    def translation(self, a: Cell, b: Cell) -> tuple[int, int] | None:
        return (b[0] - a[0], b[1] - a[1]) if a[2] == b[2] else None

    def shift(self, cell: Cell, t: tuple[int, ...]) -> Cell:
        return (cell[0] + t[0], cell[1] + t[1], cell[2])

    def origin(self, cell: Cell) -> Cell:
        return (0, 0, cell[2])

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        # y points down in pictures, so j is negated: shapes look as in Burkardt & Garvie's figures
        return [(i / 4, -j * math.sqrt(3) / 12) for i, j in element_ij(cell)]

    def neighbors(self, cell: Cell) -> list[Cell]:
        a, b, t = cell
        # the outer side (edge midpoint to centroid) faces the hexagon across that edge midpoint
        k = t // 2 if t % 2 == 0 else t // 2 + 1
        da, db = _DIRECTIONS[k % 6]
        outer = (t + 5) % 12 if t % 2 == 0 else (t + 7) % 12
        return [(a, b, (t - 1) % 12), (a, b, (t + 1) % 12), (a + da, b + db, outer)]

    # -- shapes from boundary words ------------------------------------------------------------
    def parse_spec(self, spec: dict[str, Any], where: str) -> list[Cell]:
        """``word = "AAB..."``: a boundary word (Freeman chain code) drawn from the corner (0, 0)."""
        if "word" not in spec:
            raise SatilingError(f"{where}: give a boundary 'word' or 'cells'")
        return cells_from_word(str(spec["word"]), where)

    # -- fast placement ------------------------------------------------------------------------
    def fits(self, shape: Shape, region: frozenset[Cell]) -> list[Shape]:
        """Every translate of ``shape`` inside ``region`` (bit-parallel over all translations).

        Same answer as the generic :meth:`Lattice.fits`; needed because the Eternity board has
        7524 cells and 2508 piece orientations.  The cells returned are the region's own tuples,
        so a million placements share them instead of each holding copies.
        """
        if self._index is None or self._index.region is not region:
            self._index = _RegionIndex.build(region)
        return self._index.fits(sorted(shape))


@dataclass
class _RegionIndex:
    """A region as one bit mask per element type over a row-major grid of hexagon centres."""

    region: frozenset[Cell]
    a0: int
    b0: int
    rows: int
    cols: int
    masks: list[int]                     # masks[t] has bit (a-a0)*cols + (b-b0) for (a, b, t)
    cell_at: list[Cell | None]           # the region's cell at index 12*((a-a0)*cols + (b-b0)) + t

    @classmethod
    def build(cls, region: frozenset[Cell]) -> "_RegionIndex":
        a0, b0 = min(c[0] for c in region), min(c[1] for c in region)
        rows = max(c[0] for c in region) - a0 + 1
        cols = max(c[1] for c in region) - b0 + 1
        masks = [0] * 12
        cell_at: list[Cell | None] = [None] * (12 * rows * cols)
        for cell in region:
            a, b, t = cell
            pos = (a - a0) * cols + (b - b0)
            masks[t] |= 1 << pos
            cell_at[12 * pos + t] = cell
        return cls(region, a0, b0, rows, cols, masks, cell_at)

    def fits(self, shape: list[Cell]) -> list[Shape]:
        sa = min(c[0] for c in shape)
        sb = min(c[1] for c in shape)
        width = max(c[1] for c in shape) - sb + 1
        if width > self.cols or max(c[0] for c in shape) - sa + 1 > self.rows:
            return []
        # bit d of `ok` survives iff every cell of the shape, moved by d, is a region cell
        ok = -1
        offsets = []
        for a, b, t in shape:
            pos = (a - sa) * self.cols + (b - sb)
            ok &= self.masks[t] >> pos
            offsets.append(12 * pos + t)
        out = []
        cell_at, cols = self.cell_at, self.cols
        while ok > 0:
            low = ok & -ok
            d = low.bit_length() - 1
            ok ^= low
            if d % cols + width > cols:
                continue            # the shape would wrap around a row of the grid
            base = 12 * d
            out.append(tuple([cell_at[base + o] for o in offsets]))
        return out


# -- boundary words -----------------------------------------------------------------------------
def word_vertices(word: str, where: str = "boundary word") -> list[tuple[int, int]]:
    """The corners of the closed path ``word`` from (0, 0), in Burkardt coordinates."""
    if not word:
        raise SatilingError(f"{where}: empty boundary word")
    i = j = 0
    points = [(0, 0)]
    for pos, ch in enumerate(word):
        k = LETTERS.find(ch.upper())
        if k < 0 or (ch.islower() and k % 2 == 0):
            raise SatilingError(f"{where}: letter {ch!r} at position {pos + 1} is not a step "
                                "(A-L, or b d f h j l for half steps)")
        di, dj = STEPS[k]
        if ch.islower():
            di, dj = di // 2, dj // 2
        i, j = i + di, j + dj
        points.append((i, j))
    if points[-1] != (0, 0):
        raise SatilingError(f"{where}: the boundary word does not close (ends at {points[-1]})")
    return points[:-1]


def cells_from_word(word: str, where: str = "boundary word") -> list[Cell]:
    """The elements enclosed by a boundary word drawn from the corner (0, 0)."""
    poly = word_vertices(word, where)
    cells = _inside(poly)
    area4 = abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1])))
    # every element has doubled area 4 in (i, j) units; a mismatch means the path crosses itself
    # or cuts through elements
    if area4 != 4 * len(cells):
        raise SatilingError(f"{where}: the boundary word is not a simple outline of whole elements")
    return cells


def _inside(poly: list[tuple[int, int]]) -> list[Cell]:
    """Elements whose centroid lies inside the polygon (exact even-odd rule along rows).

    Works in coordinates tripled, where every element centroid ``(3*O + S[t] + S[t+1])`` is an
    integer point; the crossings of each row are computed once.
    """
    poly3 = [(3 * i, 3 * j) for i, j in poly]
    edges = list(zip(poly3, poly3[1:] + poly3[:1]))
    imin, imax = min(p[0] for p in poly3), max(p[0] for p in poly3)
    jmin, jmax = min(p[1] for p in poly3), max(p[1] for p in poly3)
    offsets = [(STEPS[t][0] + STEPS[(t + 1) % 12][0], STEPS[t][1] + STEPS[(t + 1) % 12][1])
               for t in range(12)]
    rows: dict[int, list[Fraction]] = {}
    cells = []
    for b in range(jmin // 18 - 1, jmax // 18 + 2):
        for a in range((imin // 3 - 2 * b) // 4 - 1, (imax // 3 - 2 * b) // 4 + 2):
            ci, cj = corner_ij(a, b)
            for t, (di, dj) in enumerate(offsets):
                x, y = 3 * ci + di, 3 * cj + dj
                if not (imin < x < imax and jmin < y < jmax):
                    continue
                if y not in rows:
                    rows[y] = sorted(_row_crossings(edges, y))
                xs = rows[y]
                if (len(xs) - bisect_right(xs, x)) % 2:
                    cells.append((a, b, t))
    return cells


def _row_crossings(edges: Iterable, y: int) -> list[Fraction]:
    """Where the polygon's edges cross the horizontal line at height ``y``.

    The half-open test counts an edge ending exactly on the line once, so vertices need no care.
    """
    out = []
    for (x1, y1), (x2, y2) in edges:
        if (y1 > y) != (y2 > y):
            out.append(x1 + Fraction((y - y1) * (x2 - x1), y2 - y1))
    return out
