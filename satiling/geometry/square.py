"""The square lattice: cell ``(row, col)``, rows growing downwards; eight symmetries (D4)."""
from __future__ import annotations

from .lattice import Cell, Lattice, Transform


def _t(name: str, f, proper: bool) -> Transform:
    return Transform(name, f, proper)


class SquareLattice(Lattice):
    name = "square"

    def transforms(self) -> list[Transform]:
        return [
            _t("identity", lambda c: (c[0], c[1]), True),
            _t("rot90", lambda c: (c[1], -c[0]), True),
            _t("rot180", lambda c: (-c[0], -c[1]), True),
            _t("rot270", lambda c: (-c[1], c[0]), True),
            _t("flip-rows", lambda c: (-c[0], c[1]), False),
            _t("flip-cols", lambda c: (c[0], -c[1]), False),
            _t("transpose", lambda c: (c[1], c[0]), False),
            _t("antitranspose", lambda c: (-c[1], -c[0]), False),
        ]

    def translation(self, a: Cell, b: Cell) -> tuple[int, int]:
        return (b[0] - a[0], b[1] - a[1])

    def shift(self, cell: Cell, t: tuple[int, ...]) -> Cell:
        return (cell[0] + t[0], cell[1] + t[1])

    def origin(self, cell: Cell) -> Cell:
        return (0, 0)

    def normalize(self, cells) -> tuple[Cell, ...]:
        cells = list(cells)
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))

    def polygon(self, cell: Cell) -> list[tuple[float, float]]:
        r, c = cell
        return [(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)]

    def neighbors(self, cell: Cell) -> list[Cell]:
        r, c = cell
        return [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]

