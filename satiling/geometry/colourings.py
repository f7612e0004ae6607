"""Colourings of lattice cells, the raw material of parity arguments.

A colouring gives every cell a *charge*: a short vector of integers.  The *imbalance* of a set of
cells is the sum of its cells' charges.  In an exact cover every cell of the region is covered once,
so the imbalances of the chosen placements add up to the region's imbalance, whatever the weights --
which is why any colouring gives a sound constraint, and a good one gives a short proof that a
puzzle has no solution (the T tetromino covers 3 + 1 squares of a checkerboard, so an odd number of
them cannot fill a box with as many black squares as white).

The colourings, keyed by lattice name (cell formats are those of the lattice modules):

* ``square`` (cell ``(row, col)``): the checkerboard, black ``+1`` where ``row + col`` is even.
* ``triangle`` (cell ``(row, col)``, up when ``row + col`` is even): up ``+1``, down ``-1``.
* ``hexagon`` (axial cell ``(q, r)``): the proper 3-colouring ``(q - r) mod 3``; colour 0, 1, 2 carry
  ``(1, 0)``, ``(0, 1)``, ``(-1, -1)``, so the imbalance is ``(n0 - n2, n1 - n2)`` and a set with
  equally many cells of each colour is balanced.
* ``cubic`` (cell ``(layer, row, col)``): the 3-D checkerboard, black ``+1`` where the sum of the
  coordinates is even.
* ``drafter`` (cell ``(a, b, t)``, element ``t`` of the hexagon at corner ``(a, b)``), after
  Burkardt & Garvie's red/black and six-fold parities:

  - ``red/black``: elements of positive sense (``t`` even) ``+1``, negative ``-1``; neighbouring
    elements always differ, a whole unit triangle (six elements) balances, a half triangle (a
    drafter of three elements) is ``+-1``.
  - ``six-fold``: the twelve element types in six mirror pairs ``(2j, 2j + 1)`` -- the two elements
    of one unit triangle at one of its corners; coordinate ``j`` counts type ``2j`` minus type
    ``2j + 1``.  Burkardt & Garvie name the six pairs without spelling out the pairing; this one
    makes every whole triangle balance in every coordinate, so a drafter counts ``+-1`` in exactly
    one coordinate (its orientation class), and the six coordinates add up to red/black.
  - ``up/down``: the element lies in an up- (``t // 2`` even) or a down-pointing unit triangle,
    ``+1`` / ``-1``.  Ed Pegg's pages (cited by Selby) list an up/down parity among Eternity's
    "8-fold" parities; the seeds do not define his three parities, so this is our reading of the
    first one, and the other two are not built.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..errors import SatilingError
from .lattice import Cell
from .triangle import is_up

Charge = tuple[int, ...]


@dataclass(frozen=True)
class Colouring:
    """A charge per cell; ``labels`` names each coordinate (``"black - white"``)."""

    name: str
    lattice: str
    labels: tuple[str, ...]
    charge: Callable[[Cell], Charge]
    source: str = ""

    @property
    def dims(self) -> int:
        return len(self.labels)

    def imbalance(self, cells: Iterable[Cell]) -> Charge:
        """The sum of the charges of ``cells``."""
        total = [0] * self.dims
        for cell in cells:
            for d, x in enumerate(self.charge(cell)):
                total[d] += x
        return tuple(total)


# -- the charges ----------------------------------------------------------------------------------
def _checkerboard(cell: Cell) -> Charge:
    return (1,) if (cell[0] + cell[1]) % 2 == 0 else (-1,)


def _up_down_triangle(cell: Cell) -> Charge:
    return (1,) if is_up(cell) else (-1,)


_HEX_CHARGES = ((1, 0), (0, 1), (-1, -1))


def _hex_three(cell: Cell) -> Charge:
    return _HEX_CHARGES[(cell[0] - cell[1]) % 3]


def _red_black(cell: Cell) -> Charge:
    return (1,) if cell[2] % 2 == 0 else (-1,)


_SIX_FOLD = tuple(tuple((1 if t % 2 == 0 else -1) if t // 2 == j else 0 for j in range(6))
                  for t in range(12))


def _six_fold(cell: Cell) -> Charge:
    return _SIX_FOLD[cell[2]]


def _checkerboard_3d(cell: Cell) -> Charge:
    return (1,) if (cell[0] + cell[1] + cell[2]) % 2 == 0 else (-1,)


def _up_down_drafter(cell: Cell) -> Charge:
    return (1,) if (cell[2] // 2) % 2 == 0 else (-1,)


_BG = "Burkardt & Garvie, The Eternity Puzzle: A Linear Algebraic Approach (2021)"

COLOURINGS: dict[str, tuple[Colouring, ...]] = {
    "square": (
        Colouring("checkerboard", "square", ("black - white",), _checkerboard,
                  "Golomb, Polyominoes (the checkerboard argument)"),
    ),
    "triangle": (
        Colouring("up/down", "triangle", ("up - down",), _up_down_triangle,
                  "Golomb, Polyominoes (colouring triangles up and down)"),
    ),
    "hexagon": (
        Colouring("3-colouring", "hexagon", ("colour 0 - colour 2", "colour 1 - colour 2"),
                  _hex_three, "the proper 3-colouring of the hexagonal grid"),
    ),
    "cubic": (
        Colouring("checkerboard", "cubic", ("black - white",), _checkerboard_3d,
                  "the checkerboard argument in three dimensions (Winning Ways, the Soma cube)"),
    ),
    "drafter": (
        Colouring("red/black", "drafter", ("red - black",), _red_black, _BG),
        Colouring("six-fold", "drafter", tuple(f"type {2 * j} - type {2 * j + 1}" for j in range(6)),
                  _six_fold, _BG),
        Colouring("up/down", "drafter", ("up - down",), _up_down_drafter,
                  "after the up/down parity Ed Pegg lists for Eternity (cited by Selby)"),
    ),
}


def colourings(lattice: str) -> tuple[Colouring, ...]:
    """The colourings of the lattice called ``lattice``."""
    try:
        return COLOURINGS[lattice]
    except KeyError:
        raise SatilingError(f"no parity colouring for the {lattice} lattice "
                            f"(known: {', '.join(sorted(COLOURINGS))})") from None
