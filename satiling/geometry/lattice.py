"""Lattices: cells, translations, the point group, and how a cell looks.

A cell is a tuple of ints.  A lattice says how to translate cells (translations must map a cell to a
cell of the same kind: an up-triangle to an up-triangle), which rotations and reflections it has,
and the polygon of a cell for pictures.  Shapes are frozen, normalised, sorted tuples of cells.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from ..errors import SatilingError

Cell = tuple[int, ...]
Shape = tuple[Cell, ...]


@dataclass(frozen=True)
class Transform:
    """A rotation or reflection of the lattice about its origin."""

    name: str
    apply: Callable[[Cell], Cell]
    proper: bool          # a rotation (True) or a reflection (False)


class Lattice(ABC):
    """A periodic tiling of the plane by cells."""

    name: str = ""
    dimension: int = 2                # of the space the cells fill (a drafter cell has 3 numbers)
    default_freedom: str = "free"     # how a piece may move when its file does not say

    @abstractmethod
    def transforms(self) -> list[Transform]:
        """The point group, identity first, rotations before reflections."""

    @abstractmethod
    def translation(self, a: Cell, b: Cell) -> tuple[int, ...] | None:
        """The translation taking cell ``a`` to cell ``b``, or None if no translation does."""

    @abstractmethod
    def shift(self, cell: Cell, t: tuple[int, ...]) -> Cell:
        """Cell ``cell`` translated by ``t``."""

    @abstractmethod
    def origin(self, cell: Cell) -> Cell:
        """The cell of the same kind as ``cell`` at the origin (used to normalise shapes)."""

    @abstractmethod
    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        """Corner points of the cell in the plane, y pointing down (SVG convention)."""

    @abstractmethod
    def neighbors(self, cell: Cell) -> list[Cell]:
        """Cells sharing an edge with ``cell``."""

    # -- shapes from text ------------------------------------------------------------------------
    def parse_ascii(self, text: str) -> list[Cell]:
        """One cell per character other than space and '.': ``(line, column)``, both from 0."""
        cells = []
        for r, line in enumerate(text.strip("\n").splitlines()):
            for c, ch in enumerate(line):
                if ch not in " .":
                    cells.append((r, c))
        return cells

    # -- shared machinery -----------------------------------------------------------------------
    def normalize(self, cells: Iterable[Cell]) -> Shape:
        """Translate a shape so its smallest cell sits at the origin; sort it."""
        cells = sorted(cells)
        t = self.translation(cells[0], self.origin(cells[0]))
        return tuple(sorted(self.shift(c, t) for c in cells))

    def orientations(self, shape: Sequence[Cell], reflections: bool = True) -> list[Shape]:
        """The distinct images of ``shape`` under the point group (symmetric shapes give fewer)."""
        seen: dict[Shape, None] = {}
        for tr in self.transforms():
            if tr.proper or reflections:
                seen.setdefault(self.normalize(tr.apply(c) for c in shape), None)
        return list(seen)

    def fits(self, shape: Shape, region: frozenset[Cell]) -> list[Shape]:
        """Every translate of ``shape`` that lies inside ``region``."""
        first = shape[0]
        out = []
        for anchor in sorted(region):
            t = self.translation(first, anchor)
            if t is None:
                continue
            moved = tuple(self.shift(c, t) for c in shape)
            if all(c in region for c in moved):
                out.append(tuple(sorted(moved)))
        return out

    def mirror(self, shape: Iterable[Cell]) -> Shape:
        """The mirror image of a shape (by the first reflection of the point group), normalised."""
        reflection = next(t for t in self.transforms() if not t.proper)
        return self.normalize(reflection.apply(c) for c in shape)

    def region_symmetries(self, region: frozenset[Cell]) -> list[tuple[Transform, tuple[int, ...]]]:
        """The motions (point-group element then translation) that map ``region`` onto itself."""
        cells = sorted(region)
        out = []
        for tr in self.transforms():
            image = sorted(tr.apply(c) for c in cells)
            t = self.translation(image[0], cells[0])
            if t is not None and sorted(self.shift(c, t) for c in image) == cells:
                out.append((tr, t))
        return out

    def connected(self, cells: Iterable[Cell]) -> bool:
        cells = set(cells)
        if not cells:
            return True
        start = next(iter(cells))
        seen, todo = {start}, [start]
        while todo:
            for n in self.neighbors(todo.pop()):
                if n in cells and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return len(seen) == len(cells)


def parse_sizes(value: Any, n: int, where: str) -> list[int]:
    """``n`` positive integers from an instance file (a bare integer when ``n == 1``)."""
    values = value if isinstance(value, list) else [value]
    if len(values) != n or not all(isinstance(v, int) and v > 0 for v in values):
        raise SatilingError(f"{where}: expected {n} positive integer{'s' if n > 1 else ''}, got {value!r}")
    return values


def parse_named(spec: dict[str, Any], where: str, shapes: dict[str, tuple[int, Callable[..., list[Cell]]]]
                ) -> list[Cell]:
    """The region of the first key of ``shapes`` in ``spec``: ``shapes[key]`` is (how many sizes
    it takes, the function of them that gives its cells)."""
    for key, (sizes, cells) in shapes.items():
        if key in spec:
            return cells(*parse_sizes(spec[key], sizes, where))
    *first, last = [f"'{k}'" for k in ("ascii", "cells", *shapes)]
    raise SatilingError(f"{where}: give {', '.join(first)} or {last}")
