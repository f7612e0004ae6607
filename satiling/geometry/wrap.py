"""Wrapped regions: a cylinder or a torus made by gluing opposite sides of a region.

A wrapped region is a *fundamental domain* (the region's cells) and one or two *periods*:
translations of the lattice that glue the domain to itself.  A cell outside the domain stands for
the domain cell it reaches by adding periods, so a piece may cross the seam: its cells are reduced
into the domain.  The periods of the standard regions:

* square ``rows x cols``: rows ``(rows, 0)``, columns ``(0, cols)``;
* triangle ``parallelogram = [rows, cols]``: rows ``(rows, -rows)`` (each strip sits half a side left
  of the one above), columns ``(0, 2 * cols)``;
* hexagon ``parallelogram = [rows, cols]`` (cell ``(q, r)``): rows ``(0, rows)``, columns ``(cols, 0)``.

Symmetries of a wrapped board are the lattice motions followed by a reduction that map the domain
onto itself and keep neighbours neighbours: on a torus every translation is one.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable, Iterator

from ..errors import SatilingError
from .lattice import Cell, Lattice, Shape, Transform

AXES = ("rows", "cols")


def periods(lattice: Lattice, spec: dict[str, Any], where: str) -> tuple[tuple[int, ...], ...]:
    """The gluing translations a region spec asks for (none for ``topology = "plane"``)."""
    topology = spec.get("topology", "plane")
    if topology != "cylinder" and "wrap" in spec:
        raise SatilingError(f"{where}: 'wrap' chooses the seam of a cylinder; add topology = \"cylinder\"")
    if topology == "plane":
        return ()
    axes = AXES if topology == "torus" else (spec.get("wrap", "cols"),)
    if lattice.name == "square" and "rows" in spec:
        rows, cols = spec["rows"], spec["cols"]
        vectors = {"rows": (rows, 0), "cols": (0, cols)}
    elif lattice.name == "triangle" and "parallelogram" in spec:
        rows, cols = spec["parallelogram"]
        vectors = {"rows": (rows, -rows), "cols": (0, 2 * cols)}
    elif lattice.name == "hexagon" and "parallelogram" in spec:
        rows, cols = spec["parallelogram"]
        vectors = {"rows": (0, rows), "cols": (cols, 0)}
    else:
        raise SatilingError(f"{where}: topology = \"{topology}\" needs 'rows' and 'cols' (square) or "
                            "'parallelogram' (triangle, hexagon)")
    return tuple(vectors[a] for a in axes)


@dataclass
class Wrap:
    """A region glued along ``periods``; ``reach`` bounds how far a piece's cells stray (cells)."""

    lattice: Lattice
    region: frozenset[Cell]
    periods: tuple[tuple[int, ...], ...]
    axes: tuple[str, ...]
    reach: int
    _image: dict[Cell, Cell] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        shortest = min(max(abs(x) for x in p) for p in self.periods)
        k = self.reach // shortest + 2
        for ks in product(range(-k, k + 1), repeat=len(self.periods)):
            t = tuple(sum(n * p[i] for n, p in zip(ks, self.periods)) for i in range(len(self.periods[0])))
            for c in self.region:
                self._image[self.lattice.shift(c, t)] = c

    def reduce(self, cell: Cell) -> Cell | None:
        """The domain cell that ``cell`` stands for, or None if it lies off the board."""
        return self._image.get(tuple(cell))

    def place(self, shape: Shape, t: tuple[int, ...]) -> Shape | None:
        """``shape`` moved by ``t`` and reduced: None if it leaves the board or overlaps itself."""
        moved = [self._image.get(self.lattice.shift(c, t)) for c in shape]
        if None in moved or len(set(moved)) < len(moved):
            return None
        return tuple(sorted(moved))          # type: ignore[arg-type]

    def fits(self, shape: Shape) -> list[Shape]:
        """Every placement of ``shape`` (any translate, reduced), each cell set once."""
        out: dict[Shape, None] = {}
        for anchor in sorted(self.region):
            t = self.lattice.translation(shape[0], anchor)
            if t is not None:
                placed = self.place(shape, t)
                if placed is not None:
                    out.setdefault(placed, None)
        return list(out)

    def is_placement(self, cells: list[Cell], shapes: list[Shape]) -> bool:
        """Whether ``cells`` is a placement of one of ``shapes`` (re-derived from the geometry)."""
        target = tuple(sorted(cells))
        for shape in shapes:
            for anchor in target:
                t = self.lattice.translation(shape[0], anchor)
                if t is not None and self.place(shape, t) == target:
                    return True
        return False

    def neighbors(self, cell: Cell) -> set[Cell]:
        return {n for n in map(self.reduce, self.lattice.neighbors(cell)) if n is not None}

    def degenerate(self) -> bool:
        """Whether some cell meets itself or one cell through two of its sides (a wrapped side of
        length 1 or 2): then lattice motions alone do not give the board's whole group."""
        for c in self.region:
            near = [n for n in map(self.reduce, self.lattice.neighbors(c)) if n is not None]
            if c in near or len(set(near)) < len(near):
                return True
        return False

    def motions(self) -> Iterator[tuple[Transform, Callable[[Cell], Cell]]]:
        """Lattice motions, reduced, that map the board onto itself keeping neighbours neighbours."""
        cells = sorted(self.region)
        nbrs = {c: self.neighbors(c) for c in cells}
        for tr in self.lattice.transforms():
            image = [tr.apply(c) for c in cells]
            for anchor in cells:
                t = self.lattice.translation(image[0], anchor)
                if t is None:
                    continue
                mapped = [self._image.get(self.lattice.shift(c, t)) for c in image]
                if None in mapped or len(set(mapped)) != len(cells):
                    continue
                m = dict(zip(cells, mapped))
                if all({m[n] for n in nbrs[c]} == nbrs[m[c]] for c in cells):
                    yield tr, m.__getitem__      # type: ignore[misc]
