"""The cubic lattice (polycubes): cell ``(layer, row, col)``; 48 symmetries, 24 of them rotations.

A layer is a square grid drawn as ASCII art like the square lattice (row 0 the first line); layer 0
is the bottom one.  The point group is every signed permutation of the three axes; a motion is a
rotation when its matrix has determinant +1.  A solid piece can only be turned, so on this lattice
pieces default to ``one-sided`` (the 24 rotations); ``free`` also allows the 24 mirror images.

Pictures are layers side by side (an exploded view): :meth:`polygon` draws a cell in its own layer,
and the renderers place the layers.
"""
from __future__ import annotations

from itertools import permutations, product
from typing import Any

from ..errors import SatilingError
from .lattice import Cell, Lattice, Transform


def _sign(perm: tuple[int, ...]) -> int:
    """+1 for an even permutation of (0, 1, 2), -1 for an odd one."""
    inversions = sum(1 for i in range(3) for j in range(i + 1, 3) if perm[i] > perm[j])
    return -1 if inversions % 2 else 1


def _transform(perm: tuple[int, ...], signs: tuple[int, ...]) -> Transform:
    def apply(c: Cell) -> Cell:
        return (signs[0] * c[perm[0]], signs[1] * c[perm[1]], signs[2] * c[perm[2]])
    det = _sign(perm) * signs[0] * signs[1] * signs[2]
    name = "identity" if perm == (0, 1, 2) and signs == (1, 1, 1) else \
        "".join(("-" if s < 0 else "+") + "lrc"[p] for p, s in zip(perm, signs))
    return Transform(name, apply, det > 0)


class CubicLattice(Lattice):
    name = "cubic"
    dimension = 3
    default_freedom = "one-sided"

    def __init__(self) -> None:
        group = [_transform(p, s) for p in permutations(range(3)) for s in product((1, -1), repeat=3)]
        group.sort(key=lambda t: (not t.proper, t.name != "identity"))
        self._group = group

    def transforms(self) -> list[Transform]:
        return list(self._group)

    def translation(self, a: Cell, b: Cell) -> tuple[int, int, int]:
        return (b[0] - a[0], b[1] - a[1], b[2] - a[2])

    def shift(self, cell: Cell, t: tuple[int, ...]) -> Cell:
        return (cell[0] + t[0], cell[1] + t[1], cell[2] + t[2])

    def origin(self, cell: Cell) -> Cell:
        return (0, 0, 0)

    def normalize(self, cells) -> tuple[Cell, ...]:
        cells = list(cells)
        lo = [min(c[i] for c in cells) for i in range(3)]
        return tuple(sorted((c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]) for c in cells))

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """The cell's square within its own layer (renderers lay the layers side by side)."""
        _, r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]

    def neighbors(self, cell: Cell) -> list[Cell]:
        l, r, c = cell
        return [(l - 1, r, c), (l + 1, r, c), (l, r - 1, c), (l, r + 1, c), (l, r, c - 1), (l, r, c + 1)]

    # -- shapes from text ------------------------------------------------------------------------
    def parse_ascii(self, text: str) -> list[Cell]:
        """One layer (layer 0) drawn as square-lattice ASCII art: a flat piece."""
        return self.parse_layers([text])

    def parse_layers(self, layers: list[str]) -> list[Cell]:
        """Layers bottom first, each drawn as square-lattice ASCII art."""
        cells = []
        for l, text in enumerate(layers):
            for r, line in enumerate(str(text).strip("\n").splitlines()):
                cells.extend((l, r, c) for c, ch in enumerate(line) if ch not in " .")
        return cells

    def parse_spec(self, spec: dict[str, Any], where: str) -> list[Cell]:
        """``box = [layers, rows, cols]`` or ``layers = ["ascii", ...]`` (bottom layer first)."""
        if "box" in spec:
            return box(*spec["box"])
        if "layers" in spec:
            return self.parse_layers(list(spec["layers"]))
        raise SatilingError(f"{where}: give 'box', 'layers', 'ascii' or 'cells'")


def box(layers: int, rows: int, cols: int) -> list[Cell]:
    """The ``layers x rows x cols`` box."""
    return [(l, r, c) for l in range(layers) for r in range(rows) for c in range(cols)]
